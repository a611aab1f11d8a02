"""The count of positions a search expands, and the deadline and budget it checks as it counts.

Every search of :mod:`.search` and :mod:`.depth` ticks a :class:`Counter` once per position expanded
(the C loops once every :data:`CHECK_EVERY`), which raises :class:`SearchTimeout` past its deadline and
:class:`BudgetSpent` past its budget; the caller then answers "unknown", never a guess.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from ..packed import Action

CHECK_EVERY = 512


class SearchTimeout(Exception):
    """The time limit ran out before the search could answer."""


class BudgetSpent(Exception):
    """The search expanded the positions it was allowed (``Counter.budget``) without an answer."""


@dataclass
class Counter:
    """Positions expanded, and the deadline if any, in seconds of ``clock``: ``time.monotonic`` (wall
    time, for a player waiting) or ``time.process_time`` (this process's CPU time, for studies, so that a
    loaded machine does not turn decided deals into unknown ones)."""

    deadline: float | None = None
    nodes: int = 0
    best_removed: int = 0
    best_line: list[Action] = field(default_factory=list)
    clock: Callable[[], float] = time.monotonic

    polls: int = 0
    #: raise BudgetSpent once ``nodes`` passes it (looked at as often as the deadline); None: no budget
    budget: int | None = None

    def tick(self) -> None:
        """Count one expanded position; raise SearchTimeout past the deadline (BudgetSpent past the
        budget)."""
        self.nodes += 1
        if self.budget is not None and self.nodes % CHECK_EVERY == 0 and self.nodes > self.budget:
            raise BudgetSpent
        if self.deadline is not None and self.nodes % CHECK_EVERY == 0 and self.clock() > self.deadline:
            raise SearchTimeout

    def advance(self, count: int) -> None:
        """Count ``count`` expanded positions at once, as ``count`` calls of :meth:`tick` would (the
        deadline looked at when the count passes a multiple of CHECK_EVERY): the C loops call this
        every CHECK_EVERY positions, and once at the end, instead of :meth:`tick` for each."""
        before = self.nodes
        self.nodes += count
        if self.budget is not None and self.nodes > self.budget:
            raise BudgetSpent
        if (
            self.deadline is not None
            and self.nodes // CHECK_EVERY != before // CHECK_EVERY
            and self.clock() > self.deadline
        ):
            raise SearchTimeout

    def poll(self) -> None:
        """Raise SearchTimeout past the deadline (checked every few hundred calls; counts no position):
        for work between positions, such as the relaxed game behind :meth:`SearchSpace.hopeless`."""
        self.polls += 1
        if self.deadline is not None and self.polls % CHECK_EVERY == 0 and self.clock() > self.deadline:
            raise SearchTimeout

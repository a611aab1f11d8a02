"""Exact searches over a :class:`~.space.SearchSpace`: verdict, best reachable, shortest solution.

* **Verdict** — depth-first search with a transposition table (each position expanded once), which
  cuts every position whose relaxed game cannot clear the pyramid and takes exposed kings at once.
* **Best reachable** — when the deal cannot be won, a branch-and-bound depth-first search for the most
  pyramid cards any line of play removes; a position is cut when the relaxed game
  (:meth:`~.space.SearchSpace.reaches`) cannot beat the best line found.
  :func:`win_or_best` answers both questions in one search.
* **Shortest** — A* with the admissible :meth:`~.space.SearchSpace.steps_bound`, each draw, recycle
  or removal costing one step; dead positions are pruned (they reach no goal).

Every search checks a deadline every few hundred positions and raises :class:`SearchTimeout`; the
caller then answers "unknown", never a guess.
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from ..table import Action
from .space import REC_BITS, USE_MASK, SearchSpace

CHECK_EVERY = 512


class SearchTimeout(Exception):
    """The time limit ran out before the search could answer."""


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

    def tick(self) -> None:
        """Count one expanded position; raise SearchTimeout past the deadline."""
        self.nodes += 1
        if self.deadline is not None and self.nodes % CHECK_EVERY == 0 and self.clock() > self.deadline:
            raise SearchTimeout

    def poll(self) -> None:
        """Raise SearchTimeout past the deadline (checked every few hundred calls; counts no position):
        for work between positions, such as the relaxed game behind :meth:`SearchSpace.hopeless`."""
        self.polls += 1
        if self.deadline is not None and self.polls % CHECK_EVERY == 0 and self.clock() > self.deadline:
            raise SearchTimeout


EXPAND, CUT, FOUND = 0, 1, 2
Visit = Callable[[Action, int, list[Action]], int]


def _depth_first(space: SearchSpace, start: int, counter: Counter, visit: Visit) -> list[Action] | None:
    """Depth-first search from ``start``, each position expanded once.  ``visit(action, state, path)``
    judges each new position: EXPAND it, CUT it, or FOUND (stop: the line to it is returned).

    With a limited number of passes, a position is skipped when the same position with fewer recycles
    done was seen: that one can make every move this one can, and the same again after each, so it
    reaches all this one reaches; it has been or will be searched in full, or it was cut, and both
    cuts (the relaxed game, the best line found) depend only on the cards left and the best line so
    far, which never gets worse.  Likewise with a limit on waste uses, for the same position with fewer
    uses spent (the relaxed game's bound only grows with the uses left)."""
    start = space.canonical(start)
    seen: set[int] = {start}
    path: list[Action] = []
    # space.successors and counter.tick are called as methods, not kept as bound ones: compiled, that
    # is a direct call, where a bound method goes through Python's calling machinery every position
    stack = [iter(space.successors(start))]
    rec_shift = space.rec_shift
    rec_mask = (1 << REC_BITS) - 1 if space.max_recycles is not None else 0
    rec_one = 1 << rec_shift
    use_shift = space.use_shift
    use_mask = USE_MASK if space.waste_limit is not None else 0
    use_one = 1 << use_shift
    while stack:
        step = next(stack[-1], None)
        if step is None:
            stack.pop()
            if path:
                path.pop()
            continue
        action, state = step
        if state in seen:
            continue
        # skipped if the same position with fewer recycles done, or fewer waste uses spent, was seen
        if _seen_with_fewer(seen, state, state >> rec_shift & rec_mask, rec_one) or _seen_with_fewer(
            seen, state, state >> use_shift & use_mask, use_one
        ):
            continue
        seen.add(state)
        counter.tick()
        verdict = visit(action, state, path)
        if verdict == FOUND:
            return [*path, action]
        if verdict == CUT:
            continue
        path.append(action)
        stack.append(iter(space.successors(state)))
    return None


def _seen_with_fewer(seen: set[int], state: int, count: int, one: int) -> bool:
    """True if ``state`` with a field of it (now ``count``, a unit of it ``one`` in the packed state)
    lowered by 1 .. count is in ``seen``."""
    while count:
        state -= one
        if state in seen:
            return True
        count -= 1
    return False


def _note_best(space: SearchSpace, counter: Counter, action: Action, state: int, path: list[Action]) -> int:
    removed = space.removed(state)
    if removed > counter.best_removed:
        counter.best_removed = removed
        counter.best_line = [*path, action]
    return removed


def find_win(space: SearchSpace, start: int, counter: Counter) -> list[Action] | None:
    """A winning line from ``start``, or ``None`` if there is none (exhaustive)."""
    if space.won(start):
        return []
    counter.best_removed = max(counter.best_removed, space.removed(start))
    if space.hopeless(start):
        return None

    def visit(action: Action, state: int, path: list[Action]) -> int:
        if not isinstance(action, tuple):  # a draw, recycle or park leaves the same cards in play
            return EXPAND
        _note_best(space, counter, action, state, path)
        if space.won(state):
            return FOUND
        return CUT if space.hopeless(state) else EXPAND

    return _depth_first(space, start, counter, visit)


def win_or_best(space: SearchSpace, start: int, counter: Counter) -> list[Action] | None:
    """A winning line from ``start`` (as :func:`find_win`), or ``None`` with ``counter.best_removed``
    the most pyramid cards any line removes (a branch-and-bound search) — in one search.

    Each position is expanded at most once for both questions: one that may still be won (its relaxed
    game clears the pyramid) is always expanded, one that cannot is expanded only while its bound
    beats the best line found.  Searching the two apart expands every position of the first kind twice
    for a lost deal (one-pass rule sets: about 45 % of the positions)."""
    P = space.P
    counter.best_removed = max(counter.best_removed, space.removed(start))
    if space.won(start):
        return []

    def promising(state: int) -> bool:
        """Expand ``state``?  If its relaxed game clears the pyramid and the stock's own cuts do not
        call it hopeless, or if it beats the best line found.  Only those two comparisons are asked
        of the relaxed game (:meth:`SearchSpace.reaches`), never its exact most."""
        counts = space.bag(state)
        if space.reaches(state, counts, P):
            return not space.hopeless_though_cleared(state, counts) or counter.best_removed < P
        return space.reaches(state, counts, counter.best_removed + 1)

    def visit(action: Action, state: int, path: list[Action]) -> int:
        if isinstance(action, tuple):
            _note_best(space, counter, action, state, path)
            if space.won(state):
                return FOUND
        return EXPAND if promising(state) else CUT

    counts = space.bag(start)
    if not space.reaches(start, counts, P) and not space.reaches(start, counts, counter.best_removed + 1):
        return None
    return _depth_first(space, start, counter, visit)


def shortest_win(space: SearchSpace, start: int, counter: Counter) -> list[Action] | None:
    """A winning line with the fewest steps, or ``None`` if there is none (A*)."""
    if space.won(start):
        return []
    start = space.canonical(start)
    start_key = start
    best_g: dict[int, int] = {start_key: 0}
    parent: dict[int, tuple[int, Action]] = {}
    heap: list[tuple[int, int, int, int]] = [(space.steps_bound(start), 0, 0, start)]
    order = 0
    while heap:
        _, neg_g, _, state = heapq.heappop(heap)
        g = -neg_g
        key = state
        if best_g.get(key, g) < g:
            continue
        if space.won(state):
            return _line(parent, key, start_key)
        counter.tick()
        for action, after in space.successors(state, shortest=True):
            after_key = after
            cost = g + 1
            known = best_g.get(after_key)
            if known is not None and known <= cost:
                continue
            if isinstance(action, tuple) and space.hopeless(after):
                continue
            best_g[after_key] = cost
            parent[after_key] = (key, action)
            order += 1
            heapq.heappush(heap, (cost + space.steps_bound(after), -cost, order, after))
    return None


def _line(parent: dict[int, tuple[int, Action]], key: int, start_key: int) -> list[Action]:
    line: list[Action] = []
    while key != start_key:
        key, action = parent[key]
        line.append(action)
    line.reverse()
    return line

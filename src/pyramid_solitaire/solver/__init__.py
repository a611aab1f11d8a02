"""The solver: exact verdicts, solutions, shortest solutions and best reachable, from any position.

The solver is the verifier: it sees every card, including the stock order and face-down cards.  Its
answers are exact or "unknown" (``winnable is None``) when the time limit runs out — never a guess.
All of it runs over the engine's :class:`~pyramid_solitaire.table.Table`; see :mod:`.space` and
:mod:`.search` for how.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from dataclasses import dataclass

from ..deal import Deal
from ..game import Game
from ..moves import Move
from ..packed import Action, Position
from ..table import Table
from .counter import BudgetSpent, Counter, SearchTimeout
from .search import find_win, shortest_win, win_or_best
from .space import SearchSpace


@dataclass
class SolveResult:
    """What the solver found.

    ``winnable`` is True/False, or None when the time limit ran out.  ``solution`` is a winning list of
    moves from the position solved, ``length`` its steps; ``shortest`` says it is proved the fewest (asked
    with ``shortest=True``, and found in time: when the limit runs out in the shortest search, after the
    verdict's search has found a win, the deal is still winnable and ``solution`` is that search's line).
    ``max_pyramid_removed`` is the most pyramid cards any line removes (counting cards already gone);
    when the answer is unknown it is the best line found so far, a lower bound.
    """

    deal: Deal
    winnable: bool | None
    solution: list[Move] | None
    max_pyramid_removed: int
    seconds: float
    nodes: int
    shortest: bool = False
    best_line: list[Move] | None = None

    @property
    def length(self) -> int | None:
        """Steps in the solution (each draw, recycle or removal is one)."""
        return None if self.solution is None else len(self.solution)

    def to_json(self) -> dict[str, object]:
        """The object ``solve --jsonl`` prints for a deal."""
        return {
            "deal": self.deal.notation,
            "code": self.deal.code,
            "rules": str(self.deal.rules),
            "winnable": self.winnable,
            "solution": None if self.solution is None else [str(m) for m in self.solution],
            "length": self.length,
            "shortest": self.shortest,
            "max_pyramid_removed": self.max_pyramid_removed,
            "seconds": round(self.seconds, 4),
            "nodes": self.nodes,
        }


def _moves(table: Table, actions: list[Action]) -> list[Move]:
    """The typed moves of a line the search found in the table's packed actions."""
    return [table.move_of(action) for action in actions]


#: positions the verdict, then A*, may expand before solve(shortest=True) lets the verdict run to its end
#: (see _shortest)
QUICK_VERDICT = 50_000
QUICK_SHORTEST = 50_000


def _verdict(space: SearchSpace, start: int, counter: Counter, best: bool) -> list[Action] | None:
    """A winning line, or None with the best reachable in ``counter`` when ``best``."""
    return win_or_best(space, start, counter) if best else find_win(space, start, counter)


def _shortest(space: SearchSpace, start: int, counter: Counter, best: bool) -> tuple[list[Action] | None, bool]:
    """A winning line, or None (as :func:`_verdict`), and whether it is proved the fewest steps: a winning
    line the verdict found is returned when the time runs out in the shortest search after it.

    The verdict first, then A* for a deal it wins: the verdict's search proves a lost deal (and finds
    its best reachable) much faster than A* exhausting the same positions (msc's slowest lost deal:
    0.3 s against 2.3 s), and finds most wins at once.  But on a few won deals it wanders far before its
    first win (msc's AACFTHA: 1.85 M positions, where A* needs 37 k), so when the verdict has not
    answered within QUICK_VERDICT positions A* gets QUICK_SHORTEST of its own before the verdict goes on
    to its end.  Running A* first instead costs every lost deal its budget (thirteen's median shortest
    solve 0.029 s → 0.045 s over 2,000 fresh deals)."""
    spent, line = _within(counter, QUICK_VERDICT, lambda: _verdict(space, start, counter, best))
    if spent:
        spent, line = _within(counter, QUICK_SHORTEST, lambda: shortest_win(space, start, counter))
        if not spent and line is not None:
            return line, True
        line = _verdict(space, start, counter, best)
    if line is None:
        return None, False
    try:
        return shortest_win(space, start, counter), True
    except SearchTimeout:
        return line, False


Line = list[Action] | None


def _within(counter: Counter, budget: int, search: Callable[[], Line]) -> tuple[bool, Line]:
    """(False, what ``search`` returns) if it answers within ``budget`` more positions, else (True, None)."""
    counter.budget = counter.nodes + budget
    try:
        return False, search()
    except BudgetSpent:
        return True, None
    finally:
        counter.budget = None


def solve_position(
    table: Table,
    position: Position,
    *,
    shortest: bool = False,
    time_limit: float | None = None,
    best: bool = True,
    cpu_time: bool = False,
) -> SolveResult:
    """Solve from ``position`` of ``table``'s deal.  ``best`` also finds the best reachable when the
    position cannot be won (otherwise ``max_pyramid_removed`` is only the best line the verdict saw).
    ``time_limit`` is in seconds of wall time, or of this process's CPU time with ``cpu_time`` (studies:
    the answer then does not depend on how loaded the machine is)."""
    started = time.monotonic()
    space = SearchSpace(table)
    clock = time.process_time if cpu_time else time.monotonic
    counter = Counter(deadline=None if time_limit is None else clock() + time_limit, clock=clock)
    if time_limit is not None:
        space.poll = counter.poll
    start = space.pack(position)
    winnable: bool | None
    solution: list[Action] | None = None
    fewest = False
    # Python's cyclic garbage collector is paused while the solver searches: the searches make no
    # reference cycles, but they keep hundreds of thousands of tuples, lists and dictionaries alive, and
    # each collection walked them all again (40 % of the compiled shortest search's time).  The memos
    # are emptied after, as their owners refer to each other and would otherwise wait for a collection.
    collecting = gc.isenabled()
    gc.disable()
    try:
        if shortest:
            line, fewest = _shortest(space, start, counter, best)
        else:
            line = _verdict(space, start, counter, best)
        if line is not None:
            counter.best_line = line
        winnable = line is not None
        solution = line
        if winnable:
            counter.best_removed = table.board_size
    except SearchTimeout:
        winnable = None
        solution = None
    finally:
        space.release()
        if collecting:
            gc.enable()
    return SolveResult(
        deal=table.deal,
        winnable=winnable,
        solution=None if solution is None else _moves(table, solution),
        max_pyramid_removed=counter.best_removed,
        seconds=time.monotonic() - started,
        nodes=counter.nodes,
        shortest=fewest,  # True only with a line (so a win) from the shortest search
        best_line=_moves(table, counter.best_line),
    )


def solve(
    target: Deal | Game,
    *,
    shortest: bool = False,
    time_limit: float | None = None,
    best: bool = True,
    cpu_time: bool = False,
) -> SolveResult:
    """Solve a deal from its start, or a game from its current position (see :func:`solve_position`)."""
    if isinstance(target, Game):
        return solve_position(
            target.table, target.position, shortest=shortest, time_limit=time_limit, best=best, cpu_time=cpu_time
        )
    table = Table(target)
    return solve_position(table, table.start(), shortest=shortest, time_limit=time_limit, best=best, cpu_time=cpu_time)


__all__ = ["SolveResult", "solve", "solve_position"]

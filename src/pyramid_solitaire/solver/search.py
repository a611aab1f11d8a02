"""Exact searches over a :class:`~.space.SearchSpace`: verdict, best reachable, shortest solution.

* **Verdict** — depth-first search with a transposition table (each position expanded once; the
  loops are :mod:`.depth`'s), which cuts every position whose relaxed game cannot clear the pyramid
  and takes exposed kings at once.
* **Best reachable** — when the deal cannot be won, a branch-and-bound depth-first search for the most
  pyramid cards any line of play removes; a position is cut when the relaxed game
  (:meth:`~.space.SearchSpace.reaches`) cannot beat the best line found.
  :func:`win_or_best` answers both questions in one search.
* **Shortest** — A* with the admissible :meth:`~.space.SearchSpace.steps_bound`, each draw, recycle
  or removal costing one step; dead positions are pruned (they reach no goal).

Every search checks a deadline every few hundred positions and raises
:class:`~.counter.SearchTimeout`; the caller then answers "unknown", never a guess.  Where the rule
set allows, the loops run in C (``_astar.c``), searching the same positions in the same order.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from itertools import pairwise
from typing import Final

from ..packed import Action
from .counter import CHECK_EVERY, BudgetSpent, Counter, SearchTimeout
from .depth import CUT, EXPAND, FOUND, depth_first, depth_first_seen
from .packing import MAX_VALUE
from .space import SearchSpace

#: the shortest search's packed heap entries and its map of states reached: bits of the steps so far,
#: and of the order pushed (ties of f and g are taken first in, first out)
G_BITS: Final = 16
G_MASK: Final = (1 << G_BITS) - 1
ORDER_BITS: Final = 40
ORDER_MASK: Final = (1 << ORDER_BITS) - 1
#: waste piles the C loops take (``_astar.c``'s MAX_PILES)
MAX_PILES: Final = 8
#: layout places the C loops take (``_astar.c``'s MAX_SLOTS: its masks of places have 64 bits)
MAX_SLOTS: Final = 64


#: positions each search of :func:`_fewest_recycles` may expand (the slowest of the first 30 six_rows
#: deals needs 4.1 M, 0.3 s, and saves A* 1.2 M positions)
FEWEST_RECYCLES_BUDGET: Final = 5_000_000

CShortest = Callable[[dict[str, object], int], list[int] | None]
CVerdict = Callable[[dict[str, object], int, int, bool, list[object]], tuple[list[int] | None, int, list[int]]]


def _load_c_search() -> tuple[CShortest, CVerdict, CShortest, CVerdict] | tuple[None, None, None, None]:
    """The C inner loops of the shortest search and of the verdict (``_astar.c``), and the same with
    free cells (``_astar_wide``: the same source, positions of 128 bits), or None when they are not
    built or the package runs as pure Python (see :mod:`pyramid_solitaire.native`)."""
    try:
        from . import _astar, _astar_wide
    except ImportError:
        return None, None, None, None
    return _astar.shortest, _astar.verdict, _astar_wide.shortest, _astar_wide.verdict


_C_SHORTEST, _C_VERDICT, _C_SHORTEST_CELLS, _C_VERDICT_CELLS = _load_c_search()

#: the counter and its exceptions live in :mod:`.counter`; the study and the golden files' maker import
#: them from here
__all__ = ["CHECK_EVERY", "BudgetSpent", "Counter", "SearchTimeout", "find_win", "shortest_win", "win_or_best"]


def _note_best(space: SearchSpace, counter: Counter, action: Action, state: int, path: list[Action]) -> int:
    removed = space.removed(state)
    if removed > counter.best_removed:
        counter.best_removed = removed
        counter.best_line = [*path, action]
    return removed


def find_win(
    space: SearchSpace, start: int, counter: Counter, native: bool = True, plain: bool = False
) -> list[Action] | None:
    """A winning line from ``start``, or ``None`` if there is none (exhaustive).  The loop runs in C
    where :func:`_c_verdict_fits` (unless ``native`` is false), with the same positions and line.
    ``plain``: in Python with only the plain skip of :func:`depth_first_seen` (the tests compare)."""
    if space.won(start):
        return []
    counter.best_removed = max(counter.best_removed, space.removed(start))
    if space.hopeless(start):
        return None
    if native and not plain and _c_verdict_loop(space) is not None:
        return _c_verdict(space, start, counter, want_best=False)

    def visit(action: Action, state: int, path: list[Action]) -> int:
        if not isinstance(action, tuple):  # a draw, recycle or park leaves the same cards in play
            return EXPAND
        _note_best(space, counter, action, state, path)
        if space.won(state):
            return FOUND
        return CUT if space.hopeless(state) else EXPAND

    return (depth_first_seen if plain else depth_first)(space, start, counter, visit)


def win_or_best(
    space: SearchSpace, start: int, counter: Counter, native: bool = True, plain: bool = False
) -> list[Action] | None:
    """A winning line from ``start`` (as :func:`find_win`, and ``native`` and ``plain`` as there), or
    ``None`` with ``counter.best_removed`` the most pyramid cards any line removes (a branch-and-bound
    search) — in one search.

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
    if native and not plain and _c_verdict_loop(space) is not None:
        return _c_verdict(space, start, counter, want_best=True)
    return (depth_first_seen if plain else depth_first)(space, start, counter, visit)


def _c_verdict(space: SearchSpace, start: int, counter: Counter, want_best: bool) -> list[Action] | None:
    """:func:`depth_first` with :func:`find_win`'s visit (or :func:`win_or_best`'s, ``want_best``),
    its loop in C (``_astar.verdict``): the same positions in the same order, the same lines."""
    loop = _c_verdict_loop(space)
    assert loop is not None
    params = _c_params(space, counter)
    kept: list[object] = []  # the best as it stood, should the time or the budget run out
    try:
        states, best, best_states = loop(params, space.canonical(start), counter.best_removed, want_best, kept)
    except (SearchTimeout, BudgetSpent):
        if kept:
            most, most_states = kept
            assert isinstance(most, int) and isinstance(most_states, list)
            if most > counter.best_removed:
                counter.best_removed = most
                counter.best_line = _line_of(space, most_states)
        raise
    if best > counter.best_removed:
        counter.best_removed = best
        counter.best_line = _line_of(space, best_states)
    return None if states is None else _line_of(space, states)


def _line_of(space: SearchSpace, states: list[int], shortest: bool = False) -> list[Action]:
    """The actions of a line a C loop returns as the states it passes through: each the first of its
    position's successors (the verdict's, or with ``shortest`` A*'s) that leads to the next."""
    return [_action_to(space, parent, state, shortest) for parent, state in pairwise(states)]


def shortest_win(space: SearchSpace, start: int, counter: Counter, native: bool = True) -> list[Action] | None:
    """A winning line with the fewest steps, or ``None`` if there is none (A*).

    The loop runs in C (``_astar.c``) where it is built and takes the rule set, unless ``native`` is
    false; the C loop searches the same positions in the same order and finds the same line.

    The heap holds single integers, ordered as (f, -g, order pushed) and carrying the state in their
    low bits: comparing two integers is much cheaper than comparing two tuples, and an integer is no
    object for the garbage collector to track.  One dictionary keeps, per state, the fewest steps
    found to it and the state it was reached from (as ``parent << G_BITS | g``); the line is read back
    from it at the end, each step's action found again among the parent's successors.  With free
    cells (:func:`_alike`) positions are keyed by the values of their stock side, and the line is
    played again from the real start (:func:`_line_alike`)."""
    if space.won(start):
        return []
    start = space.canonical(start)
    if space.hopeless(start):
        return None
    space.set_min_recycles(_fewest_recycles(space, start, counter, native))
    alike = _alike(space)
    first = space.alike(start) if alike else start
    try:
        c_shortest = _c_shortest_loop(space) if native else None
        if c_shortest is not None:
            states = c_shortest(_c_params(space, counter, alike), first)
        else:
            states = _python_shortest(space, first, counter, alike)
        if states is None:
            return None
        return _line_alike(space, start, states) if alike else _line_of(space, states, shortest=True)
    finally:
        space.set_min_recycles(0)


def _alike(space: SearchSpace) -> bool:
    """True if the shortest search keys its positions by :meth:`SearchSpace.alike` (the stock side by
    its values): with free cells on the wide build's terms (:func:`_c_cells_fit`), where it merges
    the most positions (docs/performance.md), unless the space's switch ``alike_keys`` is off (the
    tests compare)."""
    return bool(space.cells) and space.alike_keys and _c_cells_fit(space)


def _line_alike(space: SearchSpace, start: int, states: list[int]) -> list[Action]:
    """The actions of a line found with :meth:`SearchSpace.alike` keys (``states``, from the start's),
    played from the real ``start``: at each step the first of A*'s successors whose key is the next
    one.  There always is one: a position and its key play alike, card for card of the same value,
    so this line has the found one's steps and is legal where the search's states were only alike."""
    line: list[Action] = []
    at = start
    for state in states[1:]:
        action, at = next((a, after) for a, after in space.successors(at, shortest=True) if space.alike(after) == state)
        line.append(action)
    return line


def _fewest_recycles(space: SearchSpace, start: int, counter: Counter, native: bool) -> int:
    """The fewest recycles a win from ``start`` takes, in all (the recycles done so far included), for
    the bound (:meth:`SearchSpace.set_min_recycles`); 0 where the bound does not use it.

    Every position the shortest search reaches lies on a line from ``start``, so a win from it is a
    win from ``start`` with the same recycles done so far: it takes at least this many in all.  Worked
    out with the verdict's search (:func:`find_win`) allowed 0, 1, ... recycles in all, until one wins:
    a deal that needs a recycle is thus proved so by a search of its first pass alone, which is far
    smaller than the shortest search's (each search at most FEWEST_RECYCLES_BUDGET positions; the
    answer is kept per start in ``space.fewest_recycles``, for a second shortest search from it).
    Only where the bound uses it: with only the waste's top usable and a limit on passes (the number
    of recycles done is part of the position), in the rule sets whose verdict runs in C
    (:func:`_c_verdict_fits`)."""
    limit = space.max_recycles
    if limit is None or not space.waste_top_only or not _c_verdict_fits(space):
        return 0
    known = space.fewest_recycles.get(start)
    if known is not None:
        return known
    fewest = start >> space.rec_shift & space.rec_mask
    try:
        while fewest < limit and not _wins_within(space, start, counter, native, fewest):
            fewest += 1
    finally:
        space.max_recycles = limit
    space.fewest_recycles[start] = fewest
    return fewest


def _wins_within(space: SearchSpace, start: int, counter: Counter, native: bool, recycles: int) -> bool:
    """True if :func:`find_win` finds a win from ``start`` with ``recycles`` recycles in all at most, or
    gives up after FEWEST_RECYCLES_BUDGET positions (for :func:`_fewest_recycles`, which sets the
    limit back).  A search of its own (the same deadline), whose positions are added to ``counter``'s
    after, but not to any budget of it: the budget moves up by as many (``solve``'s quick A* phase
    sets it as an absolute count, and is meant for the shortest search's own positions)."""
    own = Counter(deadline=counter.deadline, clock=counter.clock, budget=FEWEST_RECYCLES_BUDGET)
    space.max_recycles = recycles
    try:
        return find_win(space, start, own, native=native) is not None
    except BudgetSpent:
        return True
    finally:
        counter.nodes += own.nodes
        if counter.budget is not None:
            counter.budget += own.nodes


def _python_shortest(space: SearchSpace, start: int, counter: Counter, alike: bool) -> list[int] | None:
    """:func:`shortest_win`'s loop in Python (see there): the states of the line found, from
    ``start``, as the C loop returns them; ``alike``: each position reached is keyed by
    :meth:`SearchSpace.alike`."""
    # a state's bits: the widest field is the cells' (places up to P + S above cell_shift)
    width = space.cell_shift + space.P + space.S
    state_mask = (1 << width) - 1
    # A key is a state, and with free cells whose parks are played only with a move that needs them
    # (SearchSpace.after_park) one bit more above it: the state was reached by a park, so only those
    # moves follow.  The same state reached otherwise is another key, with all its moves.
    parked = 1 << width if space.parks_then_use else 0
    key_mask = (parked << 1) - 1 if parked else state_mask
    order_shift = key_mask.bit_length()
    g_shift = order_shift + ORDER_BITS
    f_shift = g_shift + G_BITS
    g_top = G_MASK
    # per key: the key it was reached from, and the fewest steps to it
    reached: dict[int, int] = {start: 0}
    heap: list[int] = [space.steps_bound(start) << f_shift | g_top << g_shift | start]
    order = 0
    lazy = space.prefix_draws
    rec_shift, rec_mask = space.rec_shift, space.rec_mask
    while heap:
        entry = heapq.heappop(heap)
        key = entry & key_mask
        state = key & state_mask
        g = g_top - (entry >> g_shift & G_MASK)
        if reached[key] & G_MASK < g:
            continue
        if space.won(state):
            return _states_back(reached, key, start, state_mask)
        if lazy and state >> rec_shift & rec_mask:
            # taken after a recycle: its bound raised to SearchSpace.draws_bound, and put back if
            # that is more (asked when taken, not when reached: most positions reached are never taken)
            f = entry >> f_shift
            h = space.draws_bound(state, f - g)
            if g + h > f:
                order += 1
                heapq.heappush(
                    heap, (g + h) << f_shift | (g_top - g) << g_shift | (order & ORDER_MASK) << order_shift | key
                )
                continue
        counter.tick()
        cost = g + 1
        if cost >= g_top:
            raise ValueError("a line longer than the shortest search counts")
        moves = space.successors(state, shortest=True)
        if key != state:
            moves = space.after_park(state, moves)
        for action, after in moves:
            if alike:
                after = space.alike(after)
            if parked and isinstance(action, int):
                if not space.park_leads(state, action):
                    continue
                after |= parked
            known = reached.get(after)
            if known is not None and known & G_MASK <= cost:
                continue
            if isinstance(action, tuple) and space.hopeless(after):
                continue
            # a stock card just parked: the relaxed game with the card held, taking its cell
            if isinstance(action, int) and action >= space.P and space.hopeless_held(after & state_mask):
                continue
            reached[after] = key << G_BITS | cost
            order += 1
            heapq.heappush(
                heap,
                (cost + space.steps_bound(after & state_mask)) << f_shift
                | (g_top - cost) << g_shift
                | (order & ORDER_MASK) << order_shift
                | after,
            )
    return None


def _c_search_fits(space: SearchSpace) -> bool:
    """True if the C loop searches ``space`` as :func:`shortest_win` would (see ``_astar.c``): no limit
    on waste uses, not both a drawn spot and a usable stock top, one waste pile or up to MAX_PILES with
    several cards a draw, MAX_SLOTS layout places and a packed state of 64 bits at most (any number of
    cards a draw, jokers and triples).  Free cells take the wide build (``_astar_wide``) with the
    classic stock side (:func:`_c_cells_fit`)."""
    if space.cells:
        return _c_cells_fit(space)
    return (
        space.fast
        and not (space.drawn_spot and space.stock_top_usable)
        and space.waste_limit is None
        # several waste piles where the bound counts the removal steps alone, in both loops (several
        # cards a draw): with one card a draw the Python bound sweeps the piles as one waste
        and (not space.pile_masks or (space.draw_count > 1 and len(space.pile_masks) <= MAX_PILES))
        and space.P <= MAX_SLOTS
        and space.cell_shift <= 64
        and space.target < MAX_VALUE
    )


def _c_cells_fit(space: SearchSpace) -> bool:
    """True if the wide build's loop searches ``space`` (free cells) as :func:`shortest_win` would: the
    moves of :mod:`.cells` (not the table's own, as with jokers or triples), only the waste's top usable
    on the stock side (one pile, no drawn spot or usable stock top), no limit on waste uses, and the
    parked places below the 64 bits of its cells' half (``_astar.c``'s state_t)."""
    return (
        space.fast
        and not space.drawn_spot
        and not space.stock_top_usable
        and not space.pile_masks
        and space.waste_limit is None
        and space.P + space.S < 64
        and space.cell_shift <= 64
        and space.target < MAX_VALUE
    )


def _c_verdict_fits(space: SearchSpace) -> bool:
    """True if the C loop of the verdict searches ``space`` as :func:`depth_first` would: where the
    shortest search's does, and its relaxed game runs in C too (see :func:`_c_relaxed`); with free
    cells, the wide build's, which asks the relaxed game with cells of :meth:`SearchSpace.reach`, but
    not in strict rules with one usable stock-side card (their starved-stock cut is Python's)."""
    if space.cells:
        return _c_cells_fit(space) and not space.one_stock_card
    return _c_search_fits(space) and _c_relaxed(space)


def _c_shortest_loop(space: SearchSpace) -> CShortest | None:
    """The built C loop of the shortest search that searches ``space`` (:func:`_c_search_fits`), or None."""
    if not _c_search_fits(space):
        return None
    return _C_SHORTEST_CELLS if space.cells else _C_SHORTEST


def _c_verdict_loop(space: SearchSpace) -> CVerdict | None:
    """The built C loop of the verdict that searches ``space`` (:func:`_c_verdict_fits`), or None."""
    if not _c_verdict_fits(space):
        return None
    return _C_VERDICT_CELLS if space.cells else _C_VERDICT


def _c_relaxed(space: SearchSpace) -> bool:
    """True if the C loops play the relaxed game themselves: not with triples (whose relaxed game,
    with its triples from the bag and its per-pyramid facts, only :mod:`.relaxed` plays), nor in strict
    rules with one usable stock-side card (whose starved-stock cut only :meth:`SearchSpace.hopeless`
    makes), nor with free cells (the relaxed game with cells, :meth:`.cells.CellGame.reach`).  Elsewhere
    the shortest search's C loop asks :meth:`SearchSpace.hopeless` itself."""
    return not space.one_stock_card and not space.triples and not space.cells


def _c_params(space: SearchSpace, counter: Counter, alike: bool = False) -> dict[str, object]:
    """What the C loop reads of ``space``: its numbers, the masks behind the bound's matching and the
    relaxed game, and the callbacks it asks per pyramid shape (its removals), per position (the
    counter), per new position of the relaxed game (the deadline) and, for the rule sets whose relaxed
    game it does not play, per removal (SearchSpace.hopeless)."""
    return {
        "P": space.P,
        "S": space.S,
        "values": tuple(space.values),
        "target": space.target,
        "lone": space.lone,
        "strict": int(space.strict),
        "stock_top_usable": int(space.stock_top_usable),
        "drawn_spot": int(space.drawn_spot),
        "pairs_ok": int(space.pairs_ok),
        "draw_count": space.draw_count,
        "king_at_once": int(space.king_at_once),
        "pile_masks": space.pile_masks,
        "unlimited": int(space.unlimited),
        "max_recycles": -1 if space.max_recycles is None else space.max_recycles,
        "min_recycles": space.min_recycles,
        "last_pass_root": int(space.last_pass_root),
        "stock_shift": space.stock_shift,
        "ptr_shift": space.ptr_shift,
        "rec_shift": space.rec_shift,
        "rec_bits": space.rec_bits,
        "triples": int(space.triples),
        "jokers": space.jokers,
        "jok_shift": space.jok_shift,
        "shape": space.shape,
        "meeting": tuple(mask & space.pyramid_full for mask in space.dead_masks),
        # the relaxed game in C, but where SearchSpace.hopeless has a cut of its own (a stock card
        # starved of partners); it reads what a dead card keeps in place (RelaxedGame's kept_by)
        "relaxed": int(_c_relaxed(space)),
        "kept_by": _kept_by(space),
        "poll": space.poll,
        "hopeless": space.hopeless,
        "hopeless_held": space.hopeless_held,
        "tick": counter.advance,
        # free cells (the wide build only): CellGame's moves and the bound's steps with cells
        "cells": space.cells,
        "cell_shift": space.cell_shift,
        "parks_then_use": int(space.parks_then_use),
        # the shortest search keys positions by SearchSpace.alike (search._alike)
        "alike": int(alike),
        "prefix_draws": int(space.prefix_draws),
        "needs": space.pyramid_steps,
        "useful_park": space.park_useful,
        "reach": space.reach_now,
    }


def _kept_by(space: SearchSpace) -> tuple[int, ...]:
    """For each pyramid slot, itself and the slots that cover it, directly or through others."""
    triangle = space.table.layout.triangle
    return tuple(
        1 << slot | sum(1 << other for other in range(space.P) if triangle[other] >> slot & 1)
        for slot in range(space.P)
    )


def _action_to(space: SearchSpace, parent: int, state: int, shortest: bool) -> Action:
    """The first of ``parent``'s successors (``shortest``: A*'s) that leads to ``state``."""
    return next(action for action, after in space.successors(parent, shortest=shortest) if after == state)


def _states_back(reached: dict[int, int], key: int, start: int, state_mask: int) -> list[int]:
    """The states of the line that :func:`_python_shortest` found to ``key``, from ``start`` (keys
    less the bit that says a park led to them, ``state_mask``)."""
    states: list[int] = []
    while key != start:
        states.append(key & state_mask)
        key = reached[key] >> G_BITS
    states.append(start & state_mask)
    states.reverse()
    return states

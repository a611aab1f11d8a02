"""The depth-first searches behind the verdict and the best reachable (:mod:`.search` judges the
positions; these loops walk them).

Each position is expanded once: a transposition table of the positions seen, and with a limited number
of passes stronger skips of positions an earlier one reaches by draws and recycles alone (see
:func:`depth_first`).  The C loop of the verdict (``_astar.verdict``) walks the same positions in the
same order.
"""

from __future__ import annotations

from collections.abc import Callable

from ..packed import Action
from .counter import Counter
from .packing import PTR_MASK
from .space import SearchSpace

EXPAND, CUT, FOUND = 0, 1, 2
Visit = Callable[[Action, int, list[Action]], int]


def depth_first(space: SearchSpace, start: int, counter: Counter, visit: Visit) -> list[Action] | None:
    """Depth-first search from ``start``, each position expanded once.  ``visit(action, state, path)``
    judges each new position: EXPAND it, CUT it, or FOUND (stop: the line to it is returned).

    Where the passes are limited and one card is dealt a draw (without a limit on waste uses), the
    search skips every position an earlier one reaches by draws and recycles alone
    (:func:`depth_first_passes`); otherwise (:func:`depth_first_seen`) only the positions seen, and
    those seen with fewer recycles or waste uses spent."""
    if passes_order(space):
        return depth_first_passes(space, start, counter, visit)
    return depth_first_seen(space, start, counter, visit)


def passes_order(space: SearchSpace) -> bool:
    """True when :func:`depth_first_passes` searches ``space``: the passes are limited (so no line of
    play comes back to a position: each step removes cards, or moves the stock pointer on, or starts
    a further pass), one card is dealt a draw (so the draws of a pass stop at every card of the stock,
    and a position reaches by draws every later pointer of its pass and every pointer of later
    passes), and no limit on waste uses (a count that the order of (pass, pointer) would not
    follow)."""
    return space.max_recycles is not None and space.draw_count == 1 and space.waste_limit is None


def depth_first_passes(space: SearchSpace, start: int, counter: Counter, visit: Visit) -> list[Action] | None:
    """:func:`depth_first_seen` for :func:`passes_order`'s rule sets, with a stronger skip.

    Call a position's *cards* all of it but the stock pointer and the recycles done, and order
    positions with the same cards by (recycles done, pointer): drawing and recycling, an earlier one
    comes to every later one.  So once a position has been searched in full (its search is over, or
    it was cut), a later position with the same cards is skipped: whatever it could do, the earlier
    one could, and it found no win (it would have stopped there), and nothing in it beat the best line
    (which never gets worse; the cuts depend only on the cards and that best).  A table keeps, for the
    cards of each position searched in full, the earliest (recycles, pointer) searched.

    While a position is still being searched, a later one with its cards is searched too (it is on the
    way there: the draws), except one that comes round to the same pointer in a further pass: as the
    skip of :func:`depth_first_seen`, it can do everything the same position with fewer recycles can,
    and that one, on the path, will be searched in full.  The path's run of positions with the same
    cards begins at its *origin* (the position after the last removal): with one card a draw, the run
    holds every pointer from the origin's to the end of its pass and every pointer of later passes.

    This searches fewer positions than the plain skip and keeps one row per cards instead of one per
    position (msc's slowest lost deals: a third of the time)."""
    field = PTR_MASK << space.ptr_shift | space.rec_mask << space.rec_shift
    rec_shift = space.rec_shift
    ptr_shift = space.ptr_shift
    rec_mask = space.rec_mask
    start = space.canonical(start)
    # per cards (the position without its pointer and recycles): the earliest searched in full
    done: dict[int, int] = {}
    path: list[Action] = []
    # each frame: the position, the origin of its run, what is left of its successors
    states = [start]
    origins = [start]
    stack = [iter(space.successors(start))]
    while stack:
        step = next(stack[-1], None)
        if step is None:
            stack.pop()
            finished = states.pop()
            origins.pop()
            _keep_earliest(done, finished & ~field, finished & field)
            if path:
                path.pop()
            continue
        action, state = step
        key = state & ~field
        known = done.get(key)
        if known is not None and known <= state & field:
            continue
        origin = origins[-1]
        if origin & ~field != key:
            origin = state
        else:
            # the same pointer in a further pass than a position of the run on the path
            first = origin >> rec_shift & rec_mask
            rec = state >> rec_shift & rec_mask
            if rec > first and (state >> ptr_shift & PTR_MASK >= origin >> ptr_shift & PTR_MASK or rec > first + 1):
                continue
        counter.tick()
        verdict = visit(action, state, path)
        if verdict == FOUND:
            return [*path, action]
        if verdict == CUT:
            _keep_earliest(done, key, state & field)
            continue
        path.append(action)
        states.append(state)
        origins.append(origin)
        stack.append(iter(space.successors(state)))
    return None


def _keep_earliest(done: dict[int, int], cards: int, order: int) -> None:
    """Note a position of ``cards`` searched in full at ``order`` (its recycles and pointer), keeping
    the earliest per cards."""
    known = done.get(cards)
    if known is None or known > order:
        done[cards] = order


def depth_first_seen(space: SearchSpace, start: int, counter: Counter, visit: Visit) -> list[Action] | None:
    """The depth-first search of :func:`depth_first` for every rule set.

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
    rec_mask = space.rec_mask
    rec_one = 1 << rec_shift
    use_shift = space.use_shift
    use_mask = space.use_mask
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

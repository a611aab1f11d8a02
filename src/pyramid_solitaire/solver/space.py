"""The search space of one deal: positions packed into one integer, and their successors.

The rules come from :class:`~pyramid_solitaire.table.Table` — the solver never writes them again.
What this module adds is speed: positions become single integers (cheap to hash and store), the part
of move generation that depends only on the pyramid is computed once per pyramid shape (a 7-row
pyramid has only 1,430 reachable shapes) by asking the table, and positions that play the same are
folded into one key (see :meth:`SearchSpace.key`).

The generated successors are checked against ``Table.actions`` in ``tests/solver/test_space.py`` on
random positions of every preset, so the fast path and the rules cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, NamedTuple

from ..table import DRAW_ACTION, PAIR, RECYCLE_ACTION, TRIPLE, Action, Position, Table, dealt_to

PTR_BITS: Final = 6
PTR_MASK: Final = (1 << PTR_BITS) - 1
REC_BITS: Final = 4
COUNT_BITS: Final = 4
COUNT_MASK: Final = (1 << COUNT_BITS) - 1
MAX_VALUE: Final = 16
UNREACHABLE: Final = 1 << 20
#: entries each sweep memo of SearchSpace.steps_bound holds at most before it is emptied
SWEEP_CACHE: Final = 400_000


@dataclass(frozen=True)
class PyramidShape:
    """Facts about one set of remaining pyramid cards, computed once."""

    exposed: tuple[int, ...]
    #: removals that use pyramid cards only: (action places, pyramid mask after)
    removals: tuple[tuple[tuple[int, ...], int], ...]
    #: forced removal (an exposed pyramid king: taking it at once is never worse), or None
    king: tuple[int, ...] | None
    #: exposed slots by the value a partner must have
    by_need: dict[int, tuple[int, ...]]


class PyramidSteps(NamedTuple):
    """What :meth:`SearchSpace._pyramid_steps` knows about one pyramid shape."""

    #: removal steps the pyramid needs at least
    total: int
    #: value → stock cards of that value the pyramid must use at least
    deficits: dict[int, int]
    #: by value: stock cards of that value whose use with a pyramid card the total already counts
    free: list[int]
    #: by value: pairs formed inside the pyramid that using stock cards instead may break
    cap: list[int]
    #: the same number for every shape with the same deficits, free and cap (a memo key)
    ident: int


class SearchSpace:
    """Successors, keys, dead-card pruning and bounds for one deal (see the module docstring)."""

    def __init__(self, table: Table, generic: bool = False) -> None:
        rules = table.rules
        self.table = table
        self.rules = rules
        self.P = table.pyramid_size
        self.S = table.stock_size
        self.pyramid_full = (1 << self.P) - 1
        self.values = table.values
        self.stock_values = table.values[self.P:self.P + self.S]
        self.target = rules.target
        self.lone = rules.target if rules.lone_kings else -1
        #: ``generic`` asks Table.actions for every position instead (slow; the tests compare the two).
        self.fast = not generic
        self.jokers = rules.jokers
        self.triples = rules.triples
        self.overlap = rules.overlap and rules.open_pyramid
        self.unlimited = rules.passes is None
        self.max_recycles = rules.max_recycles
        self.drawn_spot = rules.drawn_spot
        self.draw_count = table.deal_count
        self.pile_masks = table.pile_masks
        # A usable stock-side king is taken at once when that never loses anything: with one card a
        # draw, or with no recycle to come (see :meth:`successors`).
        self.king_at_once = self.draw_count == 1 or rules.max_recycles == 0
        self.stock_top_usable = rules.stock_top_usable
        self.pairs_ok = rules.stock_waste_pairs
        self.strict = rules.strict
        self._shapes: dict[int, PyramidShape] = {}
        self.stock_shift = self.P
        self.ptr_shift = self.P + self.S
        self.rec_shift = self.ptr_shift + PTR_BITS
        self.jok_shift = self.rec_shift + REC_BITS
        self.stock_mask = (1 << self.S) - 1
        self._dead_masks = self._meeting_masks()
        # stock value counts: 4 bits per value, summed from per-byte tables of the stock mask
        self._count_tables = self._value_count_tables(self.P, self.S)
        # Strict rules where at most one stock-side card is ever usable (the waste top): every stock
        # card must go with a pyramid card (or alone, a king), so see :meth:`_stock_starved`.
        self.one_stock_card = (rules.strict and not rules.drawn_spot and not rules.stock_top_usable
                               and not rules.jokers and not rules.triples and rules.waste_piles == 1)
        self._pyramid_tables = self._value_count_tables(0, self.P) if self.one_stock_card else []
        self._relaxed: dict[int, int] = {}
        #: called for each new state of the relaxed game (the search's deadline check), if set
        self.poll: Callable[[], None] | None = None
        self._hopeless: dict[int, bool] = {}
        self._steps: dict[int, PyramidSteps] = {}
        self._step_idents: dict[tuple[tuple[tuple[int, int], ...], tuple[int, ...], tuple[int, ...]], int] = {}
        self._ahead_sweeps: dict[int, tuple[dict[int, list[int]], int]] = {}
        self._waste_sweeps: dict[int, dict[int, list[int]]] = {}

    # --- keys ----------------------------------------------------------------------------------------

    def pack(self, pos: Position) -> int:
        """The position as one integer (exact: ``unpack`` gives it back)."""
        return (pos.pyramid | pos.stock << self.stock_shift | pos.ptr << self.ptr_shift
                | pos.recycles << self.rec_shift | pos.jokers << self.jok_shift)

    def unpack(self, state: int) -> Position:
        """The position of a packed integer."""
        return Position(state & self.pyramid_full, state >> self.stock_shift & self.stock_mask,
                        state >> self.ptr_shift & ((1 << PTR_BITS) - 1),
                        state >> self.rec_shift & ((1 << REC_BITS) - 1), state >> self.jok_shift)

    def canonical(self, state: int) -> int:
        """The one state standing for every position that plays exactly like ``state``.

        With unlimited passes the number of recycles done changes nothing, so it is set to 0.  Without
        a drawn spot, a stock pointer that sits past removed cards plays like one just past the last
        card still on the waste, so it is moved back there.  :meth:`successors` yields canonical
        states, so the searches use states directly as keys."""
        if self.unlimited:
            state &= ~(((1 << REC_BITS) - 1) << self.rec_shift)
        return self._settle(state)

    def _settle(self, state: int) -> int:
        if self.drawn_spot:
            return state
        ptr = state >> self.ptr_shift & PTR_MASK
        stock = state >> self.stock_shift & self.stock_mask
        settled = (stock & ((1 << ptr) - 1)).bit_length()
        if settled == ptr:
            return state
        return state & ~(PTR_MASK << self.ptr_shift) | settled << self.ptr_shift

    # --- pyramid shapes --------------------------------------------------------------------------

    def shape(self, pyramid: int) -> PyramidShape:
        """Cached facts about the pyramid ``pyramid`` (asked of the table once per shape)."""
        found = self._shapes.get(pyramid)
        if found is not None:
            return found
        table = self.table
        alone = Position(pyramid, 0, 0, 0, 0)
        exposed = tuple(b for b in range(self.P) if table.exposed(alone) >> b & 1)
        removals = []
        king = None
        for action in table.removals(alone):
            after = pyramid
            for place in action:
                after &= ~(1 << place)
            removals.append((action, after))
            if len(action) == 1 and king is None:
                king = action
        by_need: dict[int, list[int]] = {}
        for slot in exposed:
            by_need.setdefault(self.target - self.values[slot], []).append(slot)
        shape = PyramidShape(exposed, tuple(removals), king, {k: tuple(v) for k, v in by_need.items()})
        self._shapes[pyramid] = shape
        return shape

    # --- successors --------------------------------------------------------------------------------

    def successors(self, state: int, shortest: bool = False) -> list[tuple[Action, int]]:
        """Legal (action, next state) pairs, the most promising first.

        An exposed pyramid king is taken at once (the only successor): it must go some time, it uses no
        other card, and taking it earlier only widens the choice.  When only the verdict matters
        (``shortest`` false) a usable stock-side king is also taken at once, for the same reason — but
        only when one card is dealt a draw or no recycle is left to come: with several cards a draw, a
        card left on the waste changes how the stock falls into groups after the next recycle, so keeping
        it may be better.

        For the shortest solution, a king on top of a stock whose top is usable (msc) is not drawn:
        any line after the draw can be played after removing the king instead, leaving out its steps
        that touch the king (removing it, drawing it again), so it is no longer."""
        pyramid = state & self.pyramid_full
        if not self.fast:
            return self._generic_successors(state)
        stock = state >> self.stock_shift & self.stock_mask
        if not pyramid and (not self.strict or not stock):
            return []
        shape = self._shapes.get(pyramid) or self.shape(pyramid)
        if shape.king is not None:
            return [(shape.king, state & ~(1 << shape.king[0]))]
        ptr = state >> self.ptr_shift & ((1 << PTR_BITS) - 1)
        out: list[tuple[Action, int]] = []
        # stock-side usable cards, as stock indices
        usable: list[int] = []
        if self.drawn_spot:
            if ptr and stock >> (ptr - 1) & 1:
                usable.append(ptr - 1)
            below = stock & ((1 << (ptr - 1)) - 1) if ptr > 1 else 0
        else:
            below = stock & ((1 << ptr) - 1)
        if self.pile_masks:  # several waste piles (Apophis): each pile's top
            for mask in self.pile_masks:
                if below & mask:
                    usable.append((below & mask).bit_length() - 1)
        elif below:
            usable.append(below.bit_length() - 1)
        above = stock >> ptr
        if self.stock_top_usable and above:
            usable.append(ptr + (above & -above).bit_length() - 1)
        values = self.values
        shift = self.stock_shift
        P = self.P
        settle = self._settle
        # removals of pyramid cards only come first: the verdict's depth-first search finds wins
        # sooner (msc-1500 deal 776: 311 k positions searched before, 147 after)
        rest = state & ~self.pyramid_full
        out.extend((action, rest | after) for action, after in shape.removals)
        by_need = shape.by_need
        for index in usable:
            value = values[P + index]
            if value == self.lone:
                without = settle(state & ~(1 << (index + shift)))
                if not shortest and self.king_at_once:
                    return [((P + index,), without)]
                out.append(((P + index,), without))
                continue
            slots = by_need.get(value)
            if slots:
                without = settle(state & ~(1 << (index + shift)))
                for slot in slots:
                    out.append(((slot, P + index), without & ~(1 << slot)))
        if len(usable) >= PAIR and self.pairs_ok:
            for i, a in enumerate(usable):
                for b in usable[i + 1:]:
                    if values[P + a] + values[P + b] == self.target:
                        out.append(((P + min(a, b), P + max(a, b)),
                                    settle(state & ~(1 << (a + shift)) & ~(1 << (b + shift)))))
        jokers = state >> self.jok_shift
        if jokers:
            self._joker_moves(state, jokers, shape.exposed, usable, out)
        if self.triples:
            self._triple_moves(state, shape, usable, out)
        if above:
            top = ptr + (above & -above).bit_length() - 1
            # a king on top of the stock is removed, not drawn, when steps count (see above)
            if not (shortest and self.stock_top_usable and values[P + top] == self.lone):
                dealt = top + 1 if self.draw_count == 1 else dealt_to(stock, ptr, self.draw_count)
                out.append((DRAW_ACTION, state & ~(((1 << PTR_BITS) - 1) << self.ptr_shift)
                            | dealt << self.ptr_shift))
        elif stock & ((1 << ptr) - 1):
            rec = state >> self.rec_shift & ((1 << REC_BITS) - 1)
            if self.max_recycles is None or rec < self.max_recycles:
                rec = 0 if self.unlimited else rec + 1
                cleared = state & ~(((1 << (PTR_BITS + REC_BITS)) - 1) << self.ptr_shift)
                out.append((RECYCLE_ACTION, cleared | rec << self.rec_shift))
        return out

    def _joker_moves(self, state: int, jokers: int, exposed: tuple[int, ...], usable: list[int],
                     out: list[tuple[Action, int]]) -> None:
        """A joker with any one usable card (never with the other joker)."""
        P = self.P
        base = self.table.joker_base
        for joker in range(self.jokers):
            if not jokers >> joker & 1:
                continue
            place = base + joker
            without = state & ~(1 << (self.jok_shift + joker))
            for slot in exposed:
                out.append(((slot, place), without & ~(1 << slot)))
            for index in usable:
                out.append(((P + index, place), self._settle(without & ~(1 << (P + index)))))

    def _triple_moves(self, state: int, shape: PyramidShape, usable: list[int],
                      out: list[tuple[Action, int]]) -> None:
        """Three usable cards summing to the target, at least one from the stock side (the pyramid-only
        triples are in the shape's removals)."""
        P = self.P
        values = self.values
        target = self.target
        exposed = shape.exposed
        stock_places = [P + index for index in usable]
        for place in stock_places:
            need = target - values[place]
            for i, a in enumerate(exposed):
                for b in exposed[i + 1:]:
                    if values[a] + values[b] == need:
                        out.append(((a, b, place), self._settle(state & ~(1 << a) & ~(1 << b) & ~(1 << place))))
        if len(stock_places) >= PAIR and self.pairs_ok:
            ordered = sorted(stock_places)
            for i, x in enumerate(ordered):
                for y in ordered[i + 1:]:
                    need = target - values[x] - values[y]
                    for slot in shape.by_need.get(target - need, ()):
                        out.append(((slot, x, y), self._settle(state & ~(1 << slot) & ~(1 << x) & ~(1 << y))))
            if len(ordered) == TRIPLE and sum(values[p] for p in ordered) == target:  # three waste tops
                x, y, z = ordered
                out.append(((x, y, z), self._settle(state & ~(1 << x) & ~(1 << y) & ~(1 << z))))

    def _generic_successors(self, state: int) -> list[tuple[Action, int]]:
        table = self.table
        pos = self.unpack(state)
        out = []
        for action in table.actions(pos):
            out.append((action, self.canonical(self.pack(table.apply(pos, action)))))
        return out

    # --- pruning and bounds -------------------------------------------------------------------------

    def _meeting_masks(self) -> list[int]:
        """For each pyramid slot, the places (as a packed-state bitmask) of the cards that could still
        meet it as a partner: cards of the value it needs that do not lie in its cover triangle."""
        table = self.table
        masks = []
        for slot in range(self.P):
            need = self.target - self.values[slot]
            mask = 0
            for place in range(self.P + self.S):
                if place == slot or self.values[place] != need:
                    continue
                if (place < self.P and table.layout.triangle[slot] >> place & 1
                        and not (self.overlap and table.layout.coverers[slot] >> place & 1)):
                    continue
                mask |= 1 << place  # pyramid places and stock places share the packed layout
            masks.append(mask)
        return masks

    def _pyramid_steps(self, pyramid: int) -> PyramidSteps:
        """Removal steps the pyramid needs at least, and what that count assumes of the stock, cached
        per shape.

        Lone cards take a step each.  For two values v and w that pair, at most m pairs can be made
        inside the pyramid, m the largest set of disjoint v-w pairs of cards that can ever meet (neither
        lies under the other); every other card of the two values needs a step of its own with a stock
        card, so the stock must supply at least d_w = n_v - m cards of value w and d_v = n_w - m of
        value v (the *deficits*).  Each step lowers the total by one at most (removing a matched pair
        lowers m by one).

        The count is exact about stock cards: if play forms m' pairs inside the pyramid and uses s_w
        stock cards of value w with pyramid cards, the pyramid cards of the two values take
        n_v + n_w - m' = (n_v + n_w - m) + (m - m') removal steps, and s_w - d_w = s_v - d_v = m - m'.
        So the first d_w stock cards of value w used with the pyramid are *free* (their steps are in
        the total), and each further one costs a step — one step for a further w and a further v
        together, m of those at most (``cap``)."""
        found = self._steps.get(pyramid)
        if found is not None:
            return found
        target = self.target
        counts = [0] * (max(self.values, default=0) + target + 1)
        values = self.values
        rest = pyramid
        while rest:
            low = rest & -rest
            counts[values[low.bit_length() - 1]] += 1
            rest ^= low
        total = counts[target] if self.lone == target else 0
        deficits: dict[int, int] = {}
        free = [0] * (target + 1)
        cap = [0] * (target + 1)
        slots_by_value: dict[int, list[int]] = {}
        rest = pyramid
        while rest:
            low = rest & -rest
            slot = low.bit_length() - 1
            slots_by_value.setdefault(values[slot], []).append(slot)
            rest ^= low
        for value in range(1, target // 2 + 1):
            other = target - value
            if other == value:
                total += (counts[value] + 1) // 2
                if counts[value] % 2:
                    deficits[value] = 1
                    free[value] = 1
                cap[value] = counts[value] // 2
                continue
            # pyramid pairs: a maximum matching of cards that can meet (see _meeting_masks)
            matched = self._matching(slots_by_value.get(value, []), slots_by_value.get(other, []))
            total += counts[value] + counts[other] - matched
            cap[value] = cap[other] = matched
            for scarce, plenty in ((other, value), (value, other)):
                if counts[plenty] > matched:
                    deficits[scarce] = free[scarce] = counts[plenty] - matched
        signature = (tuple(sorted(deficits.items())), tuple(free), tuple(cap))
        ident = self._step_idents.setdefault(signature, len(self._step_idents))
        found = PyramidSteps(total, deficits, free, cap, ident)
        self._steps[pyramid] = found
        return found

    def _matching(self, lows: list[int], highs: list[int]) -> int:
        """Most disjoint pairs (a, b), a from ``lows``, b from ``highs``, that can ever meet."""
        masks = self._dead_masks
        partner: dict[int, int] = {}

        def augment(a: int, tried: set[int]) -> bool:
            for b in highs:
                if masks[a] >> b & 1 and b not in tried:
                    tried.add(b)
                    if b not in partner or augment(partner[b], tried):
                        partner[b] = a
                        return True
            return False

        return sum(1 for a in lows if augment(a, set()))

    def steps_bound(self, state: int) -> int:
        """A lower bound on the steps still needed to win (admissible for A*).

        Removal steps: see :meth:`_pyramid_steps`; each step lowers that count by one at most.  On top
        of them come the *extra* steps: draws, recycles, removals that use no pyramid card, and the
        step each further stock card used with the pyramid beyond the free ones costs (see
        :meth:`_pyramid_steps`).  Every value the pyramid must take from the stock has to become usable
        at some time; reaching its cards, forward through the stock, down the waste, or round through
        a recycle, makes every card in front of them leave its place first: by a draw, or by a removal.
        :meth:`_sweep` says what each card that leaves costs at least, counting the cards of one
        route together.  The costliest value bounds the extra steps.  (Computed for the waste-top
        and stock-top models dealing one card a draw; with a drawn spot, or several cards a draw (one
        draw then passes several cards), only the removal steps are counted.)"""
        pyramid = state & self.pyramid_full
        if self.triples:  # a triple may take three pyramid cards in one step
            return -(-pyramid.bit_count() // TRIPLE)
        steps = self._pyramid_steps(pyramid)
        total, deficits = steps.total, steps.deficits
        if state >> self.jok_shift:  # a joker may stand in for any stock card the pyramid needs
            return total
        if not deficits or self.drawn_spot or self.draw_count > 1:
            return total
        stock = state >> self.stock_shift & self.stock_mask
        ptr = state >> self.ptr_shift & PTR_MASK
        msc = self.stock_top_usable
        # The two sweeps depend only on the cards on their side and on what the pyramid needs
        # (``ident``), so they are memoised on that (the caches are emptied when they grow large).
        rest = stock >> ptr << ptr
        key = steps.ident << self.S | rest
        ahead_found = self._ahead_sweeps.get(key)
        if ahead_found is None:
            if len(self._ahead_sweeps) >= SWEEP_CACHE:
                self._ahead_sweeps.clear()
            ahead_found = self._ahead_sweeps[key] = self._sweep_ahead(rest, steps)
        right, ahead = ahead_found
        waste = stock & ((1 << ptr) - 1)
        key = steps.ident << self.S | waste
        left = self._waste_sweeps.get(key)
        if left is None:
            if len(self._waste_sweeps) >= SWEEP_CACHE:
                self._waste_sweeps.clear()
            left = {}
            if waste:
                self._sweep(waste, False, steps, left)
            self._waste_sweeps[key] = left
        rec = state >> self.rec_shift & ((1 << REC_BITS) - 1)
        can_recycle = ahead >= 0 and (self.max_recycles is None or rec < self.max_recycles)
        # Round through a recycle (needed only if some value is short ahead, so the forward sweep
        # went to the end and ``ahead`` is known): every card ahead leaves first.
        round_trip = ahead + 1 if can_recycle else UNREACHABLE
        extra = 0
        for value, count in deficits.items():
            lefts = left.get(value, ())
            rights = right.get(value, ())
            if count == 1:  # the common case, spelt out
                reach = round_trip
                if rights and rights[0] < reach:
                    reach = rights[0]
                if lefts and lefts[0] < reach:
                    reach = lefts[0]
                if reach > extra:
                    extra = reach
                continue
            reach = round_trip
            for from_left in range(max(0, count - len(rights)), min(count, len(lefts)) + 1):
                from_right = count - from_left
                cost_left = lefts[from_left - 1] if from_left else 0
                cost_right = rights[from_right - 1] if from_right else 0
                # in msc one step can pass a card on each side (a stock-waste pair)
                cost = (cost_left if cost_left > cost_right else cost_right) if msc else cost_left + cost_right
                if cost < reach:
                    reach = cost
            if reach > extra:
                extra = reach
        return total + (extra if extra < UNREACHABLE else 0)

    def _sweep_ahead(self, rest: int, steps: PyramidSteps) -> tuple[dict[int, list[int]], int]:
        """The forward sweep over the cards ahead, ``rest``: the costs of reaching the needed cards
        by value, and the cost of passing them all (-1 if not needed: every value was found often
        enough ahead).  With a recycle the cost of getting back round to the waste is that plus one
        (without a usable stock top, plus one draw more)."""
        deficits = steps.deficits
        right: dict[int, list[int]] = {}
        if self.stock_top_usable:
            # its top is usable where it lies: each card in front of a needed one leaves by a draw or
            # a removal
            return right, self._sweep(rest, True, steps, right)
        # otherwise each card must be drawn
        passed = 0
        short = len(deficits)
        while rest:
            low = rest & -rest
            rest ^= low
            passed += 1
            value = self.stock_values[low.bit_length() - 1]
            if value in deficits:
                found = right.setdefault(value, [])
                if len(found) == deficits[value]:
                    continue
                found.append(passed)
                if len(found) == deficits[value]:
                    short -= 1
                    if not short:
                        return right, -1
        return right, passed + 1  # after a recycle the first card must be drawn again

    def _sweep(self, cards: int, upward: bool, steps: PyramidSteps, found: dict[int, list[int]]) -> int:
        """Let the stock cards ``cards`` (a mask of stock indices) leave one by one, from the lowest
        index up or from the highest down, and append the cost so far at each card of a value the
        pyramid needs to ``found[value]``, as many as it needs (``steps.deficits``).  Returns the cost
        once all have left, or -1 when the sweep stopped early because every needed value had been
        found often enough (later costs only grow).

        What a card leaving costs at least, given those that left before it on the same route: it
        leaves by a draw (a step), a removal with no pyramid card (a step for each card of the route:
        a lone king, or a stock-waste pair, whose other card is not on the same side) or a removal
        with a pyramid card.  The last is free for the first ``free[value]`` cards; beyond them, a
        further card of value w and a further one of its partner v cost one step together (see
        :meth:`_pyramid_steps`), at most ``cap`` times; so the route's cost for the two values is
        e_w + e_v - min(e_w, e_v, cap) with e the cards beyond the free ones, and each card adds 0
        or 1 to it.  With an even target, cards of half its value cost half a step each beyond the
        free ones."""
        stock_values = self.stock_values
        target = self.target
        lone = self.lone
        free = steps.free
        cap = steps.cap
        wanted = steps.deficits
        width = len(free)
        used = [0] * width
        cost = 0
        short = len(wanted)
        while cards:
            if upward:
                low = cards & -cards
                cards ^= low
                value = stock_values[low.bit_length() - 1]
            else:
                top = cards.bit_length() - 1
                cards ^= 1 << top
                value = stock_values[top]
            other = target - value
            if value == lone or not 0 < other < width:
                cost += 1
            else:
                count = used[value] + 1
                used[value] = count
                beyond = count - free[value]
                if beyond > 0:
                    if other == value:
                        cost += 1 - beyond % 2
                    elif beyond > used[other] - free[other] or beyond > cap[value]:
                        cost += 1
            if value in wanted:
                got = found.setdefault(value, [])
                if len(got) < wanted[value]:
                    got.append(cost)
                    if len(got) == wanted[value]:
                        short -= 1
                        if not short:
                            return -1
        return cost

    # --- the relaxed game: the stock as a bag of values --------------------------------------------

    def _value_count_tables(self, first: int, size: int) -> list[list[int]]:
        """Per-byte tables for a bitmask over places ``first .. first+size-1``: for each byte of the mask,
        the value counts (4 bits per value) of the places its set bits stand for."""
        tables = []
        for base in range(0, size, 8):
            table = []
            for byte in range(256):
                counts = 0
                for bit in range(8):
                    if byte >> bit & 1 and base + bit < size:
                        counts += 1 << (COUNT_BITS * self.values[first + base + bit])
                table.append(counts)
            tables.append(table)
        return tables

    @staticmethod
    def _summed(tables: list[list[int]], mask: int) -> int:
        """The value counts of ``mask`` from its per-byte tables."""
        counts = 0
        for table in tables:
            counts += table[mask & 0xFF]
            mask >>= 8
        return counts

    def _stock_starved(self, pyramid: int, stock_counts: int) -> bool:
        """True when some stock card can no longer be removed, in strict rules with one usable
        stock-side card: such a card never meets another stock-side card, so each stock card that is not
        a lone king needs a pyramid card of the partner value of its own — and there are fewer of them
        left than stock cards of that value.  (Pairs inside the pyramid can starve the stock so.)"""
        counts = self._summed(self._pyramid_tables, pyramid)
        target = self.target
        for value in range(1, MAX_VALUE):
            have = stock_counts >> (COUNT_BITS * value) & COUNT_MASK
            if not have or value == self.lone:
                continue
            need = target - value
            if not 0 < need < MAX_VALUE or have > counts >> (COUNT_BITS * need) & COUNT_MASK:
                return True
        return False

    def stock_counts(self, state: int) -> int:
        """How many cards of each value are left in the stock and waste (4 bits per value)."""
        return self._summed(self._count_tables, state >> self.stock_shift & self.stock_mask)

    def relaxed_max(self, pyramid: int, counts: int) -> int:
        """The most pyramid cards (in all) that could be removed if every stock card were usable at
        any time — a relaxation of every stock model, so an upper bound on what real play reaches.

        ``counts`` holds the stock cards left per value (4 bits each) and the jokers left (value 0).
        Memoised on (pyramid, counts); exposed kings are taken at once, as in play."""
        key = counts << self.P | pyramid
        found = self._relaxed.get(key)
        if found is not None:
            return found
        if self.poll is not None:  # a relaxed game can be long: Giza's, with no stock, is the game itself
            self.poll()
        full = self.P
        best = full - pyramid.bit_count()
        ceiling = self._ceiling(pyramid, counts)
        if best < ceiling:
            shape = self.shape(pyramid)
            if shape.king is not None:
                best = self.relaxed_max(pyramid & ~(1 << shape.king[0]), counts)
            else:
                for candidate in self._relaxed_moves(pyramid, counts, shape):
                    best = max(best, self.relaxed_max(*candidate))
                    if best >= ceiling:
                        break
        self._relaxed[key] = best
        return best

    def _relaxed_moves(self, pyramid: int, counts: int, shape: PyramidShape) -> list[tuple[int, int]]:
        """(pyramid, counts) after each removal of the relaxed game."""
        out = [(after, counts) for _, after in shape.removals]
        for need, slots in shape.by_need.items():
            if 0 < need < MAX_VALUE and counts >> (COUNT_BITS * need) & COUNT_MASK:
                fewer = counts - (1 << (COUNT_BITS * need))
                out.extend((pyramid & ~(1 << slot), fewer) for slot in slots)
        if counts & COUNT_MASK:  # a joker takes any exposed card
            fewer = counts - 1
            out.extend((pyramid & ~(1 << slot), fewer) for slot in shape.exposed)
        if self.triples:
            values = self.values
            target = self.target
            exposed = shape.exposed
            for slot in exposed:  # one pyramid card and two from the bag
                need = target - values[slot]
                for low in range(1, need // 2 + 1):
                    high = need - low
                    if not 0 < high < MAX_VALUE:
                        continue
                    have_low = counts >> (COUNT_BITS * low) & COUNT_MASK
                    have_high = counts >> (COUNT_BITS * high) & COUNT_MASK
                    if have_low and have_high and (low != high or have_low >= PAIR):
                        fewer = counts - (1 << (COUNT_BITS * low)) - (1 << (COUNT_BITS * high))
                        out.append((pyramid & ~(1 << slot), fewer))
            for i, a in enumerate(exposed):  # two pyramid cards and one from the bag
                for b in exposed[i + 1:]:
                    need = target - values[a] - values[b]
                    if 0 < need < MAX_VALUE and counts >> (COUNT_BITS * need) & COUNT_MASK:
                        out.append((pyramid & ~(1 << a) & ~(1 << b), counts - (1 << (COUNT_BITS * need))))
        return out

    def _ceiling(self, pyramid: int, counts: int) -> int:
        """Pyramid cards removed in all at the very most: every card but the dead ones and those lying
        on a dead card (a card is only exposed once everything in its cover triangle is gone)."""
        dead = self._dead_in_bag(pyramid, counts)
        if not dead:
            return self.P
        triangle = self.table.layout.triangle
        stuck = 0
        rest = pyramid
        while rest:
            low = rest & -rest
            if low & dead or triangle[low.bit_length() - 1] & dead:
                stuck |= low
            rest ^= low
        return self.P - stuck.bit_count()

    def _dead_in_bag(self, pyramid: int, counts: int) -> int:
        """The dead cards of :mod:`..analysis` with the stock as a bag of values (a bitmask): pyramid
        cards none of whose partners is left outside their cover triangle.  None while a joker is
        left, and not looked for with triples (a card may then go with two others)."""
        if self.triples or counts & COUNT_MASK:
            return 0
        masks = self._dead_masks
        dead = 0
        rest = pyramid
        while rest:
            low = rest & -rest
            slot = low.bit_length() - 1
            need = self.target - self.values[slot]
            if (self.values[slot] != self.lone and not pyramid & masks[slot]
                    and not (0 < need < MAX_VALUE and counts >> (COUNT_BITS * need) & COUNT_MASK)):
                dead |= low
            rest ^= low
        return dead

    def bag(self, state: int) -> int:
        """The relaxed game's counts for ``state``: stock values left and jokers left."""
        return self.stock_counts(state) + (state >> self.jok_shift).bit_count()

    def reachable_bound(self, state: int) -> int:
        """An upper bound on the pyramid cards removed in all, from ``state`` on (see relaxed_max)."""
        return self.relaxed_max(state & self.pyramid_full, self.bag(state))

    def hopeless(self, state: int) -> bool:
        """True if ``state`` can certainly not be won: not even the relaxed game clears the pyramid (or,
        in strict rules with one usable stock-side card, a stock card is starved of partners).
        Memoised on (pyramid, counts), as :meth:`relaxed_max` is."""
        pyramid = state & self.pyramid_full
        counts = self.bag(state)
        key = counts << self.P | pyramid
        found = self._hopeless.get(key)
        if found is None:
            found = (bool(self._dead_in_bag(pyramid, counts)) or self.relaxed_max(pyramid, counts) < self.P
                     or (self.one_stock_card and self._stock_starved(pyramid, counts)))
            self._hopeless[key] = found
        return found

    def won(self, state: int) -> bool:
        """True when the rule set's goal is reached."""
        if state & self.pyramid_full:
            return False
        return not self.strict or not (state >> self.stock_shift & self.stock_mask)

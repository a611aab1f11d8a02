"""The lower bound on the steps still needed to win, behind the shortest-solution search (A*).

:class:`StepsBound` belongs to one :class:`~.space.SearchSpace` and reads its packed positions (it is
given the space as a :class:`~.packing.Packing`): the removal steps the pyramid needs at least
(:meth:`StepsBound._pyramid_steps`), and the extra steps of reaching the stock cards it must use
(:meth:`StepsBound._sweep`).  Both are admissible: no line of
play takes fewer steps, so A* finds a shortest solution (``tests/solver/test_shortest.py`` checks the
bound against the known shortest lengths of msc-1500).
"""

from __future__ import annotations

from typing import Final, NamedTuple

from ..packed import TRIPLE
from .packing import PTR_MASK, REC_BITS, Packing

UNREACHABLE: Final = 1 << 20
#: entries each sweep memo holds at most before it is emptied
SWEEP_CACHE: Final = 400_000


class PyramidSteps(NamedTuple):
    """What :meth:`StepsBound._pyramid_steps` knows about one pyramid shape."""

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


#: :meth:`StepsBound._sweep`'s ``first`` when no draws are counted (no drawn spot)
NO_DRAWS: Final = -1


class StepsBound:
    """The A* bound of one deal's search space, with its memos (see the module docstring)."""

    def __init__(self, space: Packing) -> None:
        self.values = space.values
        self.stock_values = space.stock_values
        self.target = space.target
        self.lone = space.lone
        self.triples = space.triples
        self.S = space.S
        self.P = space.P
        self.pyramid_full = space.pyramid_full
        self.stock_shift = space.stock_shift
        self.stock_mask = space.stock_mask
        self.ptr_shift = space.ptr_shift
        self.rec_shift = space.rec_shift
        self.jok_shift = space.jok_shift
        self.jok_mask = space.jok_mask
        self.cells = space.cells
        self.cell_shift = space.cell_shift
        self.drawn_spot = space.drawn_spot
        self.draw_count = space.draw_count
        self.stock_top_usable = space.stock_top_usable
        #: A drawn spot (thirteen, relaxed, traditional) with one card a draw, one waste pile and no
        #: usable stock top is bounded as the stock-top model (msc) one card back: see :meth:`bound`.
        self.drawn_as_top = (
            space.drawn_spot and space.draw_count == 1 and not space.stock_top_usable and not space.pile_masks
        )
        #: the sweeps see a usable card on the stock side of the pointer (msc, or a drawn spot so bounded)
        self.top_model = space.stock_top_usable or self.drawn_as_top
        self.max_recycles = space.max_recycles
        #: for each pyramid slot, the places of the cards that could still meet it (see space), here
        #: without free cells (with them, the bound counts the park that a pair lying apart needs)
        self._meeting = space.plain_meeting
        self._steps: dict[int, PyramidSteps] = {}
        self._step_idents: dict[tuple[tuple[tuple[int, int], ...], tuple[int, ...], tuple[int, ...]], int] = {}
        self._ahead_sweeps: dict[int, tuple[dict[int, list[int]], int]] = {}
        self._waste_sweeps: dict[int, dict[int, list[int]]] = {}
        self._togethers: dict[int, int] = {}

    def release(self) -> None:
        """Empty the memos (see :meth:`.space.SearchSpace.release`)."""
        self._steps.clear()
        self._step_idents.clear()
        self._ahead_sweeps.clear()
        self._waste_sweeps.clear()
        self._togethers.clear()

    def _pyramid_steps(self, pyramid: int, cells: int = 0) -> PyramidSteps:
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
        together, m of those at most (``cap``).

        With free cells (``cells``: the places parked, ``pyramid`` then holding the parked pyramid
        cards too), two cards one of which lies under the other can meet too, but only after the one
        on top has been parked: a park is a step that removes nothing, and each park serves one such
        pair at most (a parked card leaves its cell only to be removed).  So the matching is still
        taken over the pairs that can meet without a cell, where a card already parked meets every
        partner, and ``total`` counts the removal steps and the parks of pyramid cards together: with
        m_c such pairs formed through a future park, and m_p the pairs that meet without one
        (m_p <= m), the removal steps are n_v + n_w - m_p - m_c and the parks at least m_c.  The
        stock may then give fewer cards than d_w (as many fewer as parks pay for): only
        n_v - n_w must come from it whatever the pairs (the most pairs is n_w), fewer the stock cards
        of value w already parked (they lie in no route); those are the deficits the sweeps look for.
        The free cards stay d_w, and what each further one costs stays a step: the steps beyond
        ``total`` are at least m - m_p, and s_w - d_w = s_v - d_v = m - m_p - m_c is no more."""
        key = cells << self.P | pyramid if cells else pyramid
        found = self._steps.get(key)
        if found is not None:
            return found
        parked = cells & self.pyramid_full
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
            matched = self._matching(slots_by_value.get(value, []), slots_by_value.get(other, []), parked)
            total += counts[value] + counts[other] - matched
            cap[value] = cap[other] = matched
            for scarce, plenty in ((other, value), (value, other)):
                if counts[plenty] > matched:
                    deficits[scarce] = free[scarce] = counts[plenty] - matched
                    if self.cells:  # through cells, as many pairs as the scarcer value has cards
                        deficits[scarce] = counts[plenty] - min(counts[plenty], counts[scarce])
        if self.cells:  # parked stock cards are usable now, out of any route
            rest = cells >> self.P
            while rest:
                low = rest & -rest
                rest ^= low
                value = self.stock_values[low.bit_length() - 1]
                if value in deficits:
                    deficits[value] -= 1
            deficits = {value: count for value, count in deficits.items() if count > 0}
        signature = (tuple(sorted(deficits.items())), tuple(free), tuple(cap))
        ident = self._step_idents.setdefault(signature, len(self._step_idents))
        found = PyramidSteps(total, deficits, free, cap, ident)
        self._steps[key] = found
        return found

    def _matching(self, lows: list[int], highs: list[int], parked: int) -> int:
        """Most disjoint pairs (a, b), a from ``lows``, b from ``highs``, that can meet without a park
        (``parked``: pyramid cards in cells, which meet every partner)."""
        partner: dict[int, int] = {}
        return sum(1 for a in lows if self._augment(a, highs, partner, set(), parked))

    def _augment(self, a: int, highs: list[int], partner: dict[int, int], tried: set[int], parked: int) -> bool:
        """Kuhn's augmenting path from ``a`` (a method, not a closure: a recursive closure is a
        reference cycle, left for the garbage collector that the solver pauses)."""
        mask = -1 if parked >> a & 1 else self._meeting[a] | parked
        for b in highs:
            if mask >> b & 1 and b not in tried:
                tried.add(b)
                if b not in partner or self._augment(partner[b], highs, partner, tried, parked):
                    partner[b] = a
                    return True
        return False

    def bound(self, state: int) -> int:
        """A lower bound on the steps still needed to win from ``state``.

        Removal steps: see :meth:`_pyramid_steps`; each step lowers that count by one at most.  On top
        of them come the *extra* steps: draws, recycles, removals that use no pyramid card, and the
        step each further stock card used with the pyramid beyond the free ones costs (see
        :meth:`_pyramid_steps`).  Every value the pyramid must take from the stock has to become usable
        at some time; reaching its cards, forward through the stock, down the waste, or round through
        a recycle, makes every card in front of them leave its place first: by a draw, or by a removal.
        :meth:`_sweep` says what each card that leaves costs at least, counting the cards of one
        route together.  The costliest value bounds the extra steps.  (Computed for the waste-top
        and stock-top models dealing one card a draw; with several cards a draw (one draw then passes
        several cards), only the removal steps are counted.)

        A drawn spot dealing one card a draw is bounded as the stock-top model with the pointer one
        card back, the drawn card standing for the stock's top: the two models' usable cards are then
        the same (the drawn card and the waste's top), or the stock-top model has one more (when the
        drawn card is gone, its next card is already usable there, where the drawn spot needs a
        draw).  Every line of the drawn spot is thus a line of that position in the stock-top model,
        with the same steps or fewer (a draw into an empty drawn spot is no step there), so the
        stock-top model's bound, a bound on its own lines, is one on the drawn spot's too.  And a card
        ahead of the drawn spot is usable only once drawn: the j-th card of the stock side (the drawn
        card first, if there is one) needs j draws before it (j + 1 when the drawn spot is empty),
        each an extra step, whatever else the cards in front of it cost; so its cost in the sweep is
        at least that (:meth:`_sweep`'s ``first``)."""
        pyramid = state & self.pyramid_full
        cells = state >> self.cell_shift if self.cells else 0
        if cells:  # a parked card still has to go: count it where it was (it meets every partner)
            pyramid |= cells & self.pyramid_full
        if self.triples:  # a triple may take three pyramid cards in one step
            return -(-pyramid.bit_count() // TRIPLE)
        steps = self._pyramid_steps(pyramid, cells)
        total, deficits = steps.total, steps.deficits
        if state >> self.jok_shift & self.jok_mask:  # a joker may stand in for any stock card the pyramid needs
            return total
        if not deficits or (self.drawn_spot and not self.drawn_as_top) or self.draw_count > 1:
            return total
        stock = state >> self.stock_shift & self.stock_mask
        ptr = state >> self.ptr_shift & PTR_MASK
        # with a drawn spot, the draws the first card ahead needs (none for the drawn card itself)
        first = NO_DRAWS
        if self.drawn_as_top:
            first = 0 if ptr and stock >> (ptr - 1) & 1 else 1
            if ptr:
                ptr -= 1  # the drawn card stands for the stock's top (see above)
        msc = self.top_model
        # The two sweeps depend only on the cards on their side and on what the pyramid needs
        # (``ident``), so they are memoised on that (the caches are emptied when they grow large).
        rest = stock >> ptr << ptr
        key = (steps.ident << self.S | rest) << 2 | first + 1
        ahead_found = self._ahead_sweeps.get(key)
        if ahead_found is None:
            if len(self._ahead_sweeps) >= SWEEP_CACHE:
                self._ahead_sweeps.clear()
            ahead_found = self._ahead_sweeps[key] = self._sweep_ahead(rest, steps, first)
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
        if self.cells and not msc:
            # all values at once (never less than the costliest alone), memoised on what it reads:
            # the pyramid's needs, the waste, the cards ahead and whether a recycle is left
            key = ((steps.ident << self.S | waste) << self.S | rest) << 1 | (round_trip < UNREACHABLE)
            together = self._togethers.get(key)
            if together is None:
                if len(self._togethers) >= SWEEP_CACHE:
                    self._togethers.clear()
                together = self._togethers[key] = self._together(deficits, left, right, round_trip, waste)
            if together < UNREACHABLE:
                return total + together
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

    def _together(
        self,
        deficits: dict[int, int],
        left: dict[int, list[int]],
        right: dict[int, list[int]],
        round_trip: int,
        waste: int,
    ) -> int:
        """The extra steps of reaching every value the pyramid needs at once, where one card a draw
        and only the waste's top is usable on the stock side (classic, and so ``cells``): the steps
        that dig into the waste (removals and parks of its cards, what the waste sweep charges) and
        the draws are different steps.

        * A line that does not recycle takes at least the costliest dig plus the furthest draw ahead,
          whichever cards of each value it takes from which side.
        * One that recycles draws every card ahead and recycles first (``round_trip``); a card of the
          waste that it has not dug out by then is drawn again after the recycle, with every card
          below it (none of them could leave before it): the k-th card from the waste's bottom costs
          k draws, the first of them counted in the round trip.  So it takes at least the costliest
          dig, the round trip and the furthest such draw, each value's cards taken from the waste's
          top, from ahead (passed in the round trip anyway) or from the waste's bottom.

        (:meth:`bound` takes the costliest value alone; a stock-top model's step can pass a card on
        each side, so there the sides do not add up.)"""
        stock_values = self.stock_values
        bottoms: dict[int, list[int]] = {}
        if round_trip < UNREACHABLE:
            rest = waste
            passed = 0
            while rest:
                low = rest & -rest
                rest ^= low
                passed += 1
                value = stock_values[low.bit_length() - 1]
                if value in deficits:  # the round trip counts the first draw after the recycle
                    bottoms.setdefault(value, []).append(passed - 1)
        plain: list[list[tuple[int, int]]] = []
        recycled: list[list[tuple[int, int]]] = []
        digs = {0}
        for value, count in deficits.items():
            lefts = left.get(value, [])
            rights = right.get(value, [])
            ups = bottoms.get(value, [])
            choices = []
            again = []
            for from_left in range(0, min(count, len(lefts)) + 1):
                dig = lefts[from_left - 1] if from_left else 0
                rest_count = count - from_left
                if rest_count <= len(rights):
                    choices.append((dig, rights[rest_count - 1] if rest_count else 0))
                    digs.add(dig)
                if round_trip < UNREACHABLE:
                    from_bottom = max(0, rest_count - len(rights))
                    if from_bottom <= len(ups):
                        again.append((dig, ups[from_bottom - 1] if from_bottom else 0))
                        digs.add(dig)
            plain.append(choices)
            recycled.append(again)
        best = UNREACHABLE
        for dig in sorted(digs):
            if dig >= best:
                break
            best = min(best, dig + self._furthest(plain, dig), dig + round_trip + self._furthest(recycled, dig))
        return best

    @staticmethod
    def _furthest(options: list[list[tuple[int, int]]], dig: int) -> int:
        """The most that some value needs on the second side, each value taking its cheapest choice
        whose dig is at most ``dig`` (UNREACHABLE if some value has none)."""
        furthest = 0
        for choices in options:
            reach = UNREACHABLE
            for cost_left, cost_right in choices:
                if cost_left <= dig and cost_right < reach:
                    reach = cost_right
            if reach > furthest:
                furthest = reach
        return furthest

    def _sweep_ahead(self, rest: int, steps: PyramidSteps, first: int) -> tuple[dict[int, list[int]], int]:
        """The forward sweep over the cards ahead, ``rest``: the costs of reaching the needed cards
        by value, and the cost of passing them all (-1 if not needed: every value was found often
        enough ahead).  With a recycle the cost of getting back round to the waste is that plus one
        (without a usable stock top, plus one draw more)."""
        deficits = steps.deficits
        right: dict[int, list[int]] = {}
        if self.top_model:
            # its top is usable where it lies: each card in front of a needed one leaves by a draw or
            # a removal
            return right, self._sweep(rest, True, steps, right, first)
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

    def _sweep(
        self, cards: int, upward: bool, steps: PyramidSteps, found: dict[int, list[int]], first: int = NO_DRAWS
    ) -> int:
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
        free ones.

        ``first`` (a drawn spot, see :meth:`bound`; NO_DRAWS otherwise): the j-th card (from 0) costs
        at least j + first, the draws that bring it to the drawn spot, and all of them leave for at
        least n - 1 + first (n cards: the last one drawn, a recycle can follow)."""
        stock_values = self.stock_values
        target = self.target
        lone = self.lone
        free = steps.free
        cap = steps.cap
        wanted = steps.deficits
        width = len(free)
        used = [0] * width
        cost = 0
        passed = 0  # the cards before this one
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
                    got.append(cost if first < 0 or cost >= passed + first else passed + first)
                    if len(got) == wanted[value]:
                        short -= 1
                        if not short:
                            return -1
            passed += 1
        if first >= 0 and passed and cost < passed - 1 + first:
            return passed - 1 + first
        return cost

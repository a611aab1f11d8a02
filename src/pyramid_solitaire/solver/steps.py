"""The lower bound on the steps still needed to win, behind the shortest-solution search (A*).

:class:`StepsBound` belongs to one :class:`~.space.SearchSpace` and reads its packed positions (it is
given the space as a :class:`~.packing.Packing`): the removal steps the pyramid needs at least
(:meth:`.needs.PyramidNeeds.steps`), and the extra steps of reaching the stock cards it must use
(:meth:`StepsBound._sweep`).  Both are admissible: no line of
play takes fewer steps, so A* finds a shortest solution (``tests/solver/test_shortest.py`` checks the
bound against the known shortest lengths of msc-1500).
"""

from __future__ import annotations

from typing import Final

from ..packed import TRIPLE
from .needs import PyramidNeeds, PyramidSteps
from .packing import PTR_BITS, PTR_MASK, Packing

UNREACHABLE: Final = 1 << 20
#: entries each sweep memo holds at most before it is emptied
SWEEP_CACHE: Final = 400_000


#: :meth:`StepsBound._sweep`'s ``first`` when no draws are counted (no drawn spot)
NO_DRAWS: Final = -1


class StepsBound:
    """The A* bound of one deal's search space, with its memos (see the module docstring)."""

    def __init__(self, space: Packing) -> None:
        self.stock_values = space.stock_values
        self.target = space.target
        self.lone = space.lone
        self.triples = space.triples
        self.S = space.S
        self.pyramid_full = space.pyramid_full
        self.stock_shift = space.stock_shift
        self.stock_mask = space.stock_mask
        self.ptr_shift = space.ptr_shift
        self.rec_shift = space.rec_shift
        self.rec_mask = space.rec_mask
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
        #: every win from the positions asked about takes this many recycles in all at least (set by the
        #: shortest search for its start; see :meth:`bound`)
        self.min_recycles = 0
        #: only the waste's top is usable on the stock side (classic): one card a draw, one waste pile,
        #: no usable stock top or drawn spot (the round trip's and the waste's extra terms of bound);
        #: and no free cells, for a parked card leaves the waste, or the stock side, without a partner
        #: and may then be used out of order (with cells, :meth:`_together` bounds the stock side)
        self.waste_top_only = (
            not space.stock_top_usable
            and not space.drawn_spot
            and space.draw_count == 1
            and not space.pile_masks
            and not space.cells
        )
        #: the last pass's cost of reaching the partner of the card under all others counts where
        #: recycles are still to come (:meth:`_last_pass`): a win that ends once the pyramid is clear,
        #: with only the waste's top usable, and no overlap pairs, jokers or triples (each of them can
        #: take that card without a stock card)
        self.last_pass_root = (
            self.waste_top_only and not space.strict and not space.overlap and not space.jokers and not space.triples
        )
        self.values = space.values
        #: for each layout place, itself and the places lying on it
        triangle = space.table.layout.triangle
        self._kept_by = [
            1 << slot | sum(1 << other for other in range(space.P) if triangle[other] >> slot & 1)
            for slot in range(space.P)
        ]
        self._root_partners: dict[int, int] = {}
        self._last_passes: dict[int, dict[int, int]] = {}
        #: what the pyramid needs, per shape
        self._needs = PyramidNeeds(space)
        self._ahead_sweeps: dict[int, tuple[dict[int, list[int]], int]] = {}
        self._waste_sweeps: dict[int, dict[int, list[int]]] = {}
        self._wrap_sweeps: dict[int, dict[int, list[int]]] = {}
        self._togethers: dict[int, int] = {}

    def release(self) -> None:
        """Empty the memos (see :meth:`.space.SearchSpace.release`)."""
        self._needs.release()
        self._ahead_sweeps.clear()
        self._waste_sweeps.clear()
        self._wrap_sweeps.clear()
        self._togethers.clear()
        self._root_partners.clear()
        self._last_passes.clear()

    def bound(self, state: int) -> int:
        """A lower bound on the steps still needed to win from ``state``.

        Removal steps: see :meth:`.needs.PyramidNeeds.steps`; each step lowers that count by one at most.  On top
        of them come the *extra* steps: draws, recycles, removals that use no pyramid card, and the
        step each further stock card used with the pyramid beyond the free ones costs (see
        :meth:`.needs.PyramidNeeds.steps`).  Every value the pyramid must take from the stock has to become usable
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
        steps = self._needs.steps(pyramid, cells)
        total, deficits = steps.total, steps.deficits
        # a joker may stand in for any one stock card the pyramid needs (see :func:`_with_jokers`)
        jokers = (state >> self.jok_shift & self.jok_mask).bit_count()
        if jokers and self.cells:
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
        # the waste dug only with a partner and the cards stuck in it until a recycle (waste_top_only):
        # not while a joker is left, which takes a waste card without one
        by_partner = self.waste_top_only and not jokers
        key = (steps.ident << self.S | waste) << 1 | by_partner
        left = self._waste_sweeps.get(key)
        if left is None:
            if len(self._waste_sweeps) >= SWEEP_CACHE:
                self._waste_sweeps.clear()
            left = {}
            if waste:
                self._sweep(waste, False, steps, left, block=by_partner)
            self._waste_sweeps[key] = left
        rec = state >> self.rec_shift & self.rec_mask
        can_recycle = ahead >= 0 and (self.max_recycles is None or rec < self.max_recycles)
        # Round through a recycle (needed only if some value is short ahead, so the forward sweep
        # went to the end and ``ahead`` is known): every card ahead leaves first.
        round_trip = round_trip_base = ahead + 1 if can_recycle else UNREACHABLE
        # Without a usable stock top, the round trip to a value also passes the cards in front of its
        # first card in the next pass: each leaves the stock first, by a draw after the recycle or a
        # removal, and costs what :meth:`_sweep` counts (``before``: the cost of the cards in front;
        # ``ahead`` + 1 already counts the recycle and the card's own draw).
        wraps: dict[int, list[int]] | None = None
        if can_recycle and self.waste_top_only:
            key = ((steps.ident << self.S | stock) << PTR_BITS | ptr) << 1 | by_partner
            wraps = self._wrap_sweeps.get(key)
            if wraps is None:
                if len(self._wrap_sweeps) >= SWEEP_CACHE:
                    self._wrap_sweeps.clear()
                wraps = {}
                stuck = self._stuck(waste, steps) if by_partner else 0
                self._sweep(stock, True, steps, wraps, before=True, stuck=stuck)
                self._wrap_sweeps[key] = wraps
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
        #: with jokers left, per value the reach of its count, of one card fewer, ... (see _with_jokers)
        levels: list[list[int]] = []
        for value, count in deficits.items():
            lefts = left.get(value, ())
            rights = right.get(value, ())
            if wraps is not None:
                wrap = wraps.get(value)
                round_trip = round_trip_base + (wrap[0] if wrap else 0)
            if jokers:
                fewest = max(0, count - jokers)
                levels.append([_reach(n, lefts, rights, round_trip, msc) for n in range(count, fewest - 1, -1)])
                continue
            if count == 1:  # the common case, spelt out
                reach = round_trip
                if rights and rights[0] < reach:
                    reach = rights[0]
                if lefts and lefts[0] < reach:
                    reach = lefts[0]
                if reach > extra:
                    extra = reach
                continue
            reach = _reach(count, lefts, rights, round_trip, msc)
            if reach > extra:
                extra = reach
        if levels:
            extra = _with_jokers(levels, jokers)
        if extra >= UNREACHABLE:
            extra = 0
        if rec < self.min_recycles and self.waste_top_only:
            # Recycles still to come (``min_recycles``): the cards ahead are all drawn first (only the
            # waste's top is usable, so a card ahead leaves only by a draw), then each recycle comes
            # with at least one draw after it (a recycle is legal only once the stock is drawn out,
            # and in a shortest line a draw follows the last one: a line ending in pyramid-only
            # removals after it could make them before it and leave it out).
            forced = (stock >> ptr).bit_count() + 2 * (self.min_recycles - rec)
            if self.last_pass_root:
                forced += self._last_pass(pyramid, stock, waste, steps, self.min_recycles - rec == 1)
            if forced > extra:
                extra = forced
        return total + extra

    def _last_pass(self, pyramid: int, stock: int, waste: int, steps: PyramidSteps, next_is_last: bool) -> int:
        """What the last pass costs before the card the pyramid's last card needs, where recycles are
        still to come (see :attr:`last_pass_root`).

        The *root* is the pyramid card under every other one (the top of the pyramid): it is the last
        to go, and no layout card can meet it (each one lies on it).  A win still to recycle has the
        pyramid unfinished at its last recycle (it ends when the pyramid is clear), so the root goes
        after that recycle, with a stock-side card of its partner value, which only a draw after the
        recycle can bring to the waste's top: every card in front of it (the stock side in order,
        as the recycle turns it) leaves first, by that pass's draws or by a removal.  :meth:`_sweep`
        counts what they cost at least (``before``), as for the round trip; the card's own draw is
        the one :meth:`bound` counts after each recycle.  Cards stuck in the waste until the next
        recycle (:meth:`_stuck`) are counted as drawn again only when that recycle is the last
        (``next_is_last``); otherwise they may leave in a pass between.  0 when no card lies under
        all the others, or the root is a lone king, or no stock card of its partner value is left."""
        partner = self._root_partners.get(pyramid)
        if partner is None:
            under_all = pyramid
            rest = pyramid
            while rest:
                low = rest & -rest
                rest ^= low
                under_all &= self._kept_by[low.bit_length() - 1]
            partner = 0
            if under_all:
                value = self.values[(under_all & -under_all).bit_length() - 1]
                if value != self.lone and 0 < value < self.target:
                    partner = self.target - value
            self._root_partners[pyramid] = partner
        if not partner or partner not in steps.deficits:
            return 0
        stuck = self._stuck(waste, steps) if next_is_last else 0
        key = ((steps.ident << self.S | stock) << self.S | stuck) << 1 | next_is_last
        costs = self._last_passes.get(key)
        if costs is None:
            if len(self._last_passes) >= SWEEP_CACHE:
                self._last_passes.clear()
            found: dict[int, list[int]] = {}
            self._sweep(stock, True, steps, found, before=True, stuck=stuck)
            costs = self._last_passes[key] = {value: got[0] for value, got in found.items()}
        return costs.get(partner, 0)

    def _stuck(self, waste: int, steps: PyramidSteps) -> int:
        """The waste cards (of ``waste``, only its top usable) that cannot leave before the next
        recycle: a waste card leaves only with a pyramid card of the partner value (or alone, a king),
        each pyramid card taking one, and only once every card above it has left; so from the first
        card, from the top down, at which the cards passed of its value outnumber the pyramid cards of
        the partner value, that card and every card under it stay.  Every card of the stock goes
        through the waste, so it stays until drawn again after the recycle."""
        partners = steps.partners
        lone = self.lone
        target = self.target
        stock_values = self.stock_values
        seen = [0] * (target + 1)
        rest = waste
        while rest:
            top = rest.bit_length() - 1
            rest ^= 1 << top
            value = stock_values[top]
            if value == lone:
                continue
            if not 0 < value < target:
                return waste & ((2 << top) - 1)
            seen[value] += 1
            if seen[value] > partners[value]:
                return waste & ((2 << top) - 1)
        return 0

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
        self,
        cards: int,
        upward: bool,
        steps: PyramidSteps,
        found: dict[int, list[int]],
        first: int = NO_DRAWS,
        before: bool = False,
        block: bool = False,
        stuck: int = 0,
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
        :meth:`.needs.PyramidNeeds.steps`), at most ``cap`` times; so the route's cost for the two values is
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
        dig = steps.dig
        blocked: set[int] = set()
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
                low = 1 << top
                cards ^= low
                value = stock_values[top]
            prior = cost
            other = target - value
            if value == lone or not 0 < other < width or stuck & low:
                # ``stuck`` (:meth:`_stuck`): a card that stays in the waste until the recycle is
                # drawn again after it (the round trip)
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
            if value in wanted and value not in blocked:
                got = found.setdefault(value, [])
                if len(got) < wanted[value]:
                    if before:
                        got.append(prior)
                    else:
                        got.append(cost if first < 0 or cost >= passed + first else passed + first)
                    if len(got) == wanted[value]:
                        short -= 1
                        if not short:
                            return -1
            passed += 1
            # ``block`` (the waste dug from its top, with only the waste's top usable): a waste card
            # leaves only with a pyramid card of the partner value (or alone, a king), each pyramid
            # card taking one, and before a card of value w is used only with one that need not wait
            # for the pyramid card taking w (``dig``); once more cards of a value have been passed than
            # there are such pyramid cards, one of them stays until the next recycle, and no card of w
            # under it can be dug out.
            if block and value != lone:
                if not 0 < other < width:
                    return cost
                for want, limits in dig.items():
                    if used[value] > limits[value] and want not in blocked:
                        blocked.add(want)
                        if len(found.get(want, ())) < wanted[want]:
                            short -= 1
                            if not short:
                                return cost
        if first >= 0 and passed and cost < passed - 1 + first:
            return passed - 1 + first
        return cost


def _reach(count: int, lefts: list[int] | tuple[()], rights: list[int] | tuple[()], round_trip: int, msc: bool) -> int:
    """The fewest extra steps to reach ``count`` cards of a value: some from the waste (``lefts``, the
    cost of reaching the first, the second, ...), the rest ahead (``rights``), or round through a
    recycle (``round_trip``); 0 for none."""
    reach = round_trip
    for from_left in range(max(0, count - len(rights)), min(count, len(lefts)) + 1):
        from_right = count - from_left
        cost_left = lefts[from_left - 1] if from_left else 0
        cost_right = rights[from_right - 1] if from_right else 0
        # in msc one step can pass a card on each side (a stock-waste pair)
        cost = (cost_left if cost_left > cost_right else cost_right) if msc else cost_left + cost_right
        if cost < reach:
            reach = cost
    return reach


def _with_jokers(levels: list[list[int]], jokers: int) -> int:
    """The extra steps of the costliest value when ``jokers`` jokers stand in for stock cards as well
    as they can: ``levels`` holds per value the reach of its count, of one card fewer, and so on.

    A joker takes the place of one stock card the pyramid needs, of one value: each removal with a
    joker takes one pyramid card, so it lowers the count one value needs from the stock by one at most
    (and the removal steps not at all).  A value that needs fewer cards is reached no later: its
    sweeps' costs of the cards it still needs only rise when fewer of its cards are partners (the
    cards passed that are no longer partners cost a step each, or pair among themselves at that
    cost), so the costs of the full count's sweeps, read at the smaller count, stay a lower bound.
    Giving each joker in turn to the value that costs most now leaves the least maximum (each cost
    only falls with more jokers).  While a joker is left the waste's cards are not taken to leave only
    with a partner (``by_partner`` in :meth:`StepsBound.bound`): a joker takes one without."""
    used = [0] * len(levels)
    for _ in range(jokers):
        costliest = max(range(len(levels)), key=lambda k: levels[k][used[k]])
        if used[costliest] == len(levels[costliest]) - 1:
            break  # the costliest needs no card from the stock: none does
        used[costliest] += 1
    return max(level[used[k]] for k, level in enumerate(levels))

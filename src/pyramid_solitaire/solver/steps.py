"""The lower bound on the steps still needed to win, behind the shortest-solution search (A*).

:class:`StepsBound` belongs to one :class:`~.space.SearchSpace` and reads its packed positions (it is
given the space as a :class:`~.packing.Packing`): the removal steps the pyramid needs at least
(:meth:`.needs.PyramidNeeds.steps`), and the extra steps of reaching the stock cards it must use
(:meth:`.sweeps.StockSweeps.sweep`).  Both are admissible: no line of
play takes fewer steps, so A* finds a shortest solution (``tests/solver/test_shortest.py`` checks the
bound against the known shortest lengths of msc-1500).
"""

from __future__ import annotations

from typing import Final

from ..packed import TRIPLE
from .needs import PyramidNeeds, PyramidSteps
from .packing import PTR_BITS, PTR_MASK, Packing
from .sweeps import NO_DRAWS, UNREACHABLE, StockSweeps, reach, with_jokers

#: entries each sweep memo holds at most before it is emptied
SWEEP_CACHE: Final = 400_000


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
        #: and may then be used out of order (with cells, :meth:`.sweeps.StockSweeps.together` bounds the stock side)
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
        self._sweeps = StockSweeps(space.stock_values, space.target, space.lone, self.top_model)
        #: for each layout place, itself and the places lying on it
        triangle = space.table.layout.triangle
        self._kept_by = [
            1 << slot | sum(1 << other for other in range(space.P) if triangle[other] >> slot & 1)
            for slot in range(space.P)
        ]
        self._last_partners: dict[int, tuple[int, ...]] = {}
        self._last_passes: dict[int, dict[int, int]] = {}
        #: what the pyramid needs, per shape
        self._needs = PyramidNeeds(space)
        self._ahead_sweeps: dict[int, tuple[dict[int, list[int]], int]] = {}
        self._waste_sweeps: dict[int, dict[int, list[int]]] = {}
        self._wrap_sweeps: dict[int, dict[int, list[int]]] = {}
        self._togethers: dict[int, int] = {}

    def pyramid_steps(self, pyramid: int, cells: int) -> PyramidSteps:
        """The pyramid's part of :meth:`bound` (see :meth:`.needs.PyramidNeeds.steps`)."""
        return self._needs.steps(pyramid, cells)

    def release(self) -> None:
        """Empty the memos (see :meth:`.space.SearchSpace.release`)."""
        self._needs.release()
        self._ahead_sweeps.clear()
        self._waste_sweeps.clear()
        self._wrap_sweeps.clear()
        self._togethers.clear()
        self._last_partners.clear()
        self._last_passes.clear()

    def bound(self, state: int) -> int:
        """A lower bound on the steps still needed to win from ``state``.

        Removal steps: see :meth:`.needs.PyramidNeeds.steps`; each step lowers that count by one at most.  On top
        of them come the *extra* steps: draws, recycles, removals that use no pyramid card, and the
        step each further stock card used with the pyramid beyond the free ones costs (see
        :meth:`.needs.PyramidNeeds.steps`).  Every value the pyramid must take from the stock has to become usable
        at some time; reaching its cards, forward through the stock, down the waste, or round through
        a recycle, makes every card in front of them leave its place first: by a draw, or by a removal.
        :meth:`.sweeps.StockSweeps.sweep` says what each card that leaves costs at least, counting the cards of one
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
        at least that (:meth:`.sweeps.StockSweeps.sweep`'s ``first``)."""
        pyramid = state & self.pyramid_full
        cells = state >> self.cell_shift if self.cells else 0
        if cells:  # a parked card still has to go: count it where it was (it meets every partner)
            pyramid |= cells & self.pyramid_full
        if self.triples:  # a triple may take three pyramid cards in one step
            return -(-pyramid.bit_count() // TRIPLE)
        steps = self._needs.steps(pyramid, cells)
        total, deficits = steps.total, steps.deficits
        # a joker may stand in for any one stock card the pyramid needs (see :func:`.sweeps.with_jokers`)
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
            ahead_found = self._ahead_sweeps[key] = self._sweeps.ahead(rest, steps, first)
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
                self._sweeps.sweep(waste, False, steps, left, block=by_partner)
            self._waste_sweeps[key] = left
        rec = state >> self.rec_shift & self.rec_mask
        can_recycle = ahead >= 0 and (self.max_recycles is None or rec < self.max_recycles)
        # Round through a recycle (needed only if some value is short ahead, so the forward sweep
        # went to the end and ``ahead`` is known): every card ahead leaves first.
        round_trip = round_trip_base = ahead + 1 if can_recycle else UNREACHABLE
        # Without a usable stock top, the round trip to a value also passes the cards in front of its
        # first card in the next pass: each leaves the stock first, by a draw after the recycle or a
        # removal, and costs what :meth:`.sweeps.StockSweeps.sweep` counts (``before``: the cost of the cards in front;
        # ``ahead`` + 1 already counts the recycle and the card's own draw).
        wraps: dict[int, list[int]] | None = None
        if can_recycle and self.waste_top_only:
            key = ((steps.ident << self.S | stock) << PTR_BITS | ptr) << 1 | by_partner
            wraps = self._wrap_sweeps.get(key)
            if wraps is None:
                if len(self._wrap_sweeps) >= SWEEP_CACHE:
                    self._wrap_sweeps.clear()
                wraps = {}
                stuck = self._sweeps.stuck(waste, steps) if by_partner else 0
                self._sweeps.sweep(stock, True, steps, wraps, before=True, stuck=stuck)
                self._wrap_sweeps[key] = wraps
        if self.cells and not msc:
            # all values at once (never less than the costliest alone), memoised on what it reads:
            # the pyramid's needs, the waste, the cards ahead and whether a recycle is left
            key = ((steps.ident << self.S | waste) << self.S | rest) << 1 | (round_trip < UNREACHABLE)
            together = self._togethers.get(key)
            if together is None:
                if len(self._togethers) >= SWEEP_CACHE:
                    self._togethers.clear()
                together = self._togethers[key] = self._sweeps.together(deficits, left, right, round_trip, waste)
            if together < UNREACHABLE:
                return total + together
        extra = 0
        #: with jokers left, per value the reach of its count, of one card fewer, ... (see sweeps.with_jokers)
        levels: list[list[int]] = []
        for value, count in deficits.items():
            lefts = left.get(value, ())
            rights = right.get(value, ())
            if wraps is not None:
                wrap = wraps.get(value)
                round_trip = round_trip_base + (wrap[0] if wrap else 0)
            if jokers:
                fewest = max(0, count - jokers)
                levels.append([reach(n, lefts, rights, round_trip, msc) for n in range(count, fewest - 1, -1)])
                continue
            if count == 1:  # the common case, spelt out
                near = round_trip
                if rights and rights[0] < near:
                    near = rights[0]
                if lefts and lefts[0] < near:
                    near = lefts[0]
                if near > extra:
                    extra = near
                continue
            found = reach(count, lefts, rights, round_trip, msc)
            if found > extra:
                extra = found
        if levels:
            extra = with_jokers(levels, jokers)
        if extra >= UNREACHABLE:
            extra = 0
        if rec < self.min_recycles and self.waste_top_only:
            # Recycles still to come (``min_recycles``): the cards ahead are all drawn first (only the
            # waste's top is usable, so a card ahead leaves only by a draw), then each recycle comes
            # with at least one draw after it (a recycle is legal only once the stock is drawn out,
            # and in a shortest line a draw follows the last one: a line ending in pyramid-only
            # removals after it could make them before it and leave it out).
            coming = self.min_recycles - rec
            forced = (stock >> ptr).bit_count() + 2 * coming
            if self.last_pass_root:
                forced += self._last_pass(pyramid, stock, waste, steps, coming == 1)
                if coming > 1:
                    # the pass after the next recycle is not the last: it draws the stock out, the cards
                    # stuck in the waste (:meth:`.sweeps.StockSweeps.stuck`) among them, and bound
                    # counts one draw after each recycle already
                    forced += max(0, self._sweeps.stuck(waste, steps).bit_count() - 1)
            if forced > extra:
                extra = forced
        return total + extra

    def _last_pass(self, pyramid: int, stock: int, waste: int, steps: PyramidSteps, next_is_last: bool) -> int:
        """What the last pass costs before the card the pyramid's last card needs, where recycles are
        still to come (see :attr:`last_pass_root`).

        A shortest win still to recycle has the pyramid unfinished at its last recycle (it ends when the
        pyramid is clear), and then holds a card that is no lone king (were they all lone kings, taking each
        as soon as it is exposed, before that recycle, would win without the recycle and the draws after it,
        in fewer steps). So the last such card to go, z, goes after that recycle. Every card z lies on is
        still there when z goes, so each is a lone king: z is one of the *candidates*, the cards whose cards
        under them (:attr:`_kept_by`) are all lone kings -- the top of the pyramid, or, when that is a king,
        the cards lying on it. No layout card z could go with lies on z; one that does not would be a
        candidate too, so where two candidates pair this term is 0. Otherwise z goes with a stock-side card
        of its partner value, which only a draw after the recycle brings to the waste's top: every card in
        front of it (the stock side in order, as the recycle turns it) leaves first, by that pass's draws or
        by a removal. :meth:`.sweeps.StockSweeps.sweep` counts what they cost at least (``before``), as for
        the round trip, and the cost grows card by card, so the first card of any candidate's partner value
        bounds it; the card's own draw is the one :meth:`bound` counts after each recycle. Cards stuck in
        the waste until the next recycle (:meth:`.sweeps.StockSweeps.stuck`) are counted as drawn again only
        when that recycle is the last (``next_is_last``); otherwise they may leave in a pass between. 0 as
        well where a candidate's partner value is not one the pyramid must take from the stock, or no card
        of any candidate's partner value is left."""
        partners = self._last_partners.get(pyramid)
        if partners is None:
            partners = self._last_partners[pyramid] = self._candidates_partners(pyramid)
        if not partners:
            return 0
        deficits = steps.deficits
        for value in partners:
            if value not in deficits:
                return 0
        stuck = self._sweeps.stuck(waste, steps) if next_is_last else 0
        key = ((steps.ident << self.S | stock) << self.S | stuck) << 1 | next_is_last
        costs = self._last_passes.get(key)
        if costs is None:
            if len(self._last_passes) >= SWEEP_CACHE:
                self._last_passes.clear()
            found: dict[int, list[int]] = {}
            self._sweeps.sweep(stock, True, steps, found, before=True, stuck=stuck)
            costs = self._last_passes[key] = {value: got[0] for value, got in found.items()}
        least = UNREACHABLE
        for value in partners:
            cost = costs.get(value, UNREACHABLE)
            if cost < least:
                least = cost
        return 0 if least == UNREACHABLE else least

    def _candidates_partners(self, pyramid: int) -> tuple[int, ...]:
        """The partner values of :meth:`_last_pass`'s candidates in ``pyramid``, or () where that term
        is 0 whatever the stock: no candidate, one that no stock card can take, or two that pair."""
        values = self.values
        lone = self.lone
        target = self.target
        counts: dict[int, int] = {}
        rest = pyramid
        while rest:
            low = rest & -rest
            rest ^= low
            slot = low.bit_length() - 1
            value = values[slot]
            if value == lone:
                continue
            under = self._kept_by[slot] & pyramid & ~low
            while under:
                below = under & -under
                under ^= below
                if values[below.bit_length() - 1] != lone:
                    break
            else:
                if not 0 < value < target:
                    return ()
                counts[value] = counts.get(value, 0) + 1
        for value, count in counts.items():
            if (count > 1) if target - value == value else target - value in counts:
                return ()
        return tuple(sorted(target - value for value in counts))

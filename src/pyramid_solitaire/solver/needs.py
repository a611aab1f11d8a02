"""What the pyramid needs, for the A* bound (:mod:`.steps`): the removal steps a pyramid shape takes
at least, and the stock cards of each value it must be given (:class:`PyramidSteps`), per shape.

Kept apart from the stock's side of the bound (:class:`.steps.StepsBound`, which holds one
:class:`PyramidNeeds`) because it reads only the pyramid and the cells, never the stock's order.
"""

from __future__ import annotations

from typing import NamedTuple

from .packing import Packing


class PyramidSteps(NamedTuple):
    """What :meth:`PyramidNeeds.steps` knows about one pyramid shape."""

    #: removal steps the pyramid needs at least
    total: int
    #: value → stock cards of that value the pyramid must use at least
    deficits: dict[int, int]
    #: by value: stock cards of that value whose use with a pyramid card the total already counts
    free: list[int]
    #: by value: pairs formed inside the pyramid that using stock cards instead may break
    cap: list[int]
    #: for each value of ``deficits``, w: by value u, the pyramid cards of the partner value of u that
    #: need not wait for a card wanting w to go (that lie under none of them): the waste cards above a
    #: card of value w leave with those or not at all before it is used (see :meth:`.sweeps.StockSweeps.sweep`)
    dig: dict[int, tuple[int, ...]]
    #: by value u: the pyramid cards of the partner value of u (:meth:`.sweeps.StockSweeps.stuck`)
    partners: tuple[int, ...]
    #: the same number for every shape with the same deficits, free, cap and dig (a memo key)
    ident: int


class PyramidNeeds:
    """:meth:`steps` of one deal's search space, with its memo."""

    def __init__(self, space: Packing) -> None:
        self.values = space.values
        self.stock_values = space.stock_values
        self.target = space.target
        self.lone = space.lone
        self.P = space.P
        self.pyramid_full = space.pyramid_full
        self.cells = space.cells
        #: for each pyramid slot, the places of the cards that could still meet it (see space), here
        #: without free cells (with them, the bound counts the park that a pair lying apart needs)
        self._meeting = space.plain_meeting
        #: for each layout slot, the slots it lies on (exposed only once it is gone)
        triangle = space.table.layout.triangle
        self._under = [
            sum(1 << other for other in range(space.P) if triangle[other] >> slot & 1) for slot in range(space.P)
        ]
        self._steps: dict[int, PyramidSteps] = {}
        self._step_idents: dict[
            tuple[
                tuple[tuple[int, int], ...],
                tuple[int, ...],
                tuple[int, ...],
                tuple[tuple[int, tuple[int, ...]], ...],
                tuple[int, ...],
            ],
            int,
        ] = {}

    def release(self) -> None:
        """Empty the memo (see :meth:`.space.SearchSpace.release`)."""
        self._steps.clear()
        self._step_idents.clear()

    def steps(self, pyramid: int, cells: int = 0) -> PyramidSteps:
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
        dig: dict[int, tuple[int, ...]] = {}
        for value in deficits:
            # the cards lying under every pyramid card that wants this value: they are exposed only
            # once the one that takes it is gone, after it was dug out
            under = pyramid
            for slot in slots_by_value[target - value]:
                under &= self._under[slot]
            dig[value] = tuple(
                sum(1 for slot in slots_by_value.get(target - u, ()) if not under >> slot & 1) if 0 < u < target else 0
                for u in range(target + 1)
            )
        partners = tuple(counts[target - u] if 0 < u < target else 0 for u in range(target + 1))
        signature = (tuple(sorted(deficits.items())), tuple(free), tuple(cap), tuple(sorted(dig.items())), partners)
        ident = self._step_idents.setdefault(signature, len(self._step_idents))
        found = PyramidSteps(total, deficits, free, cap, dig, partners, ident)
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

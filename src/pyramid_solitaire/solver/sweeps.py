"""The stock's side of the A* bound (:class:`.steps.StepsBound`): what reaching the stock cards the
pyramid needs costs at least.

:meth:`StockSweeps.sweep` lets the cards of one route (forward through the stock, down the waste, or
round through a recycle) leave one by one and says what each costs at least; :func:`reach` and
:meth:`StockSweeps.together` combine the routes' costs per value or for all values at once, and
:func:`with_jokers` lets jokers stand in for stock cards.  Kept apart from :mod:`.steps`, which holds
the bound's memos and its terms, so that each module reads in one sitting.
"""

from __future__ import annotations

from typing import Final

from .needs import PyramidSteps

UNREACHABLE: Final = 1 << 20

#: :meth:`StockSweeps.sweep`'s ``first`` when no draws are counted (no drawn spot)
NO_DRAWS: Final = -1


class StockSweeps:
    """The sweeps of one deal: its stock's values, the target, the lone value (kings) and whether a
    card on the stock side of the pointer is usable where it lies (``top_model``)."""

    def __init__(self, stock_values: tuple[int, ...], target: int, lone: int, top_model: bool) -> None:
        self.stock_values = stock_values
        self.target = target
        self.lone = lone
        self.top_model = top_model

    def stuck(self, waste: int, steps: PyramidSteps) -> int:
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

    def together(
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

        (:meth:`.steps.StepsBound.bound` takes the costliest value alone; a stock-top model's step can pass a card on
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
            best = min(best, dig + _furthest(plain, dig), dig + round_trip + _furthest(recycled, dig))
        return best

    def ahead(self, rest: int, steps: PyramidSteps, first: int) -> tuple[dict[int, list[int]], int]:
        """The forward sweep over the cards ahead, ``rest``: the costs of reaching the needed cards
        by value, and the cost of passing them all (-1 if not needed: every value was found often
        enough ahead).  With a recycle the cost of getting back round to the waste is that plus one
        (without a usable stock top, plus one draw more)."""
        deficits = steps.deficits
        right: dict[int, list[int]] = {}
        if self.top_model:
            # its top is usable where it lies: each card in front of a needed one leaves by a draw or
            # a removal
            return right, self.sweep(rest, True, steps, right, first)
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

    def sweep(
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

        ``first`` (a drawn spot, see :meth:`.steps.StepsBound.bound`; NO_DRAWS otherwise): the j-th card (from 0) costs
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
                # ``stuck`` (:meth:`stuck`): a card that stays in the waste until the recycle is
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


def reach(count: int, lefts: list[int] | tuple[()], rights: list[int] | tuple[()], round_trip: int, msc: bool) -> int:
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


def with_jokers(levels: list[list[int]], jokers: int) -> int:
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
    with a partner (``by_partner`` in :meth:`.steps.StepsBound.bound`): a joker takes one without."""
    used = [0] * len(levels)
    for _ in range(jokers):
        costliest = max(range(len(levels)), key=lambda k: levels[k][used[k]])
        if used[costliest] == len(levels[costliest]) - 1:
            break  # the costliest needs no card from the stock: none does
        used[costliest] += 1
    return max(level[used[k]] for k, level in enumerate(levels))

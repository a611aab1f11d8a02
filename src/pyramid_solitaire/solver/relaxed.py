"""The relaxed game: the bound behind every cut of the search (without free cells; see :mod:`.cells`).

Pretend every stock card can be used at any time, each once — the stock becomes a *bag* of values.
Every line of real play is a line of this game, so the pyramid cards it can remove in all bound what
play can.  :class:`RelaxedGame` belongs to one :class:`~.space.SearchSpace` and answers one question,
:meth:`RelaxedGame.reaches`: can it remove at least ``k`` pyramid cards in all from (pyramid, bag)?
The search only ever compares the relaxed game with a number — the whole pyramid (can this position
still be won?), or one more than the best line found (can it beat it?) — so that is all it asks.

**Bounds, not values.**  Each (pyramid, bag) keeps two bounds: the most it is known to reach (at first
what it has removed already) and the most it could reach (at first :meth:`RelaxedGame.ceiling`).  A
question between them is settled by trying the moves, each asked the same question; a yes raises the
first bound, a no lowers the second.  A question outside them needs no move at all.  Asking "can it
reach 28?" of a position that cannot, and then "can it reach 24?", settles the second at the first
line to 24 instead of working out the exact most.  The answers are the exact game's, whatever the
order of the questions, so the search cuts the same positions as it did when it asked for exact
values; it only gets them faster.

**The ceiling** counts cards that stay whatever the play: the dead ones and those lying on them; the
cards of a value that goes only in pairs (the queen in ``thirteen(triples=true)``, every value without
triples) beyond what a matching with their partners — the pyramid's that can meet them, and the bag's
— can serve; and the cards whose only partners are in the bag where the bag, or the waste uses left,
run short.

**The bag cut** (with triples): before each lookup the bag keeps of each value only as many cards as
the pyramid left can use (:meth:`RelaxedGame._useful`), so states that differ in cards nobody can use
share one entry.
"""

from __future__ import annotations

from typing import Final

from ..packed import PAIR
from .packing import BAG_USES_SHIFT, COUNT_BITS, COUNT_MASK, MAX_VALUE, Packing, PyramidShape

#: bits of each bound in a memo entry (the most a layout has is 52 cards)
BOUND_BITS: Final = 8
BOUND_MASK: Final = (1 << BOUND_BITS) - 1


def bag_triples(values: tuple[int, ...], target: int, cards: tuple[int, ...], counts: int) -> list[tuple[int, int]]:
    """The relaxed games' triples with bag cards: one of the usable ``cards`` with two cards of the bag
    ``counts``, or two of them with one; each as (mask of the cards it takes, counts after)."""
    out = []
    for place in cards:  # one usable card and two from the bag
        need = target - values[place]
        for low in range(1, need // 2 + 1):
            high = need - low
            if not 0 < high < MAX_VALUE:
                continue
            have_low = counts >> (COUNT_BITS * low) & COUNT_MASK
            have_high = counts >> (COUNT_BITS * high) & COUNT_MASK
            if have_low and have_high and (low != high or have_low >= PAIR):
                out.append((1 << place, counts - (1 << (COUNT_BITS * low)) - (1 << (COUNT_BITS * high))))
    for i, a in enumerate(cards):  # two usable cards and one from the bag
        for b in cards[i + 1 :]:
            need = target - values[a] - values[b]
            if 0 < need < MAX_VALUE and counts >> (COUNT_BITS * need) & COUNT_MASK:
                out.append((1 << a | 1 << b, counts - (1 << (COUNT_BITS * need))))
    return out


class RelaxedGame:
    """The relaxed game of one deal (see the module docstring)."""

    def __init__(self, space: Packing) -> None:
        self.space = space
        self.P = space.P
        self.values = space.values
        self.target = space.target
        self.lone = space.lone
        self.triples = space.triples
        self.triangle = space.table.layout.triangle
        #: for each slot, the places of the partners that can meet it (``Packing._meeting_masks``)
        self.meeting = space.dead_masks
        self._pyramid_tables = space.pyramid_tables  # built with triples, the only case that reads them
        self._bag_uses = self._bag_use_table()
        #: with triples, for each slot where the two others of a triple with it may lie: every pyramid
        #: place but its own and those it is apart from (``Packing.apart``; with free cells, every other)
        self._triple_pool = [
            sum(
                1 << place for place in range(self.P) if place != slot and (space.cells or not space.apart(slot, place))
            )
            for slot in range(self.P)
        ]
        #: the values that go only in pairs (no triple can take them), with the partner value, and the
        #: pyramid slots of each value
        self._pairs_only = [
            (v, self.target - v)
            for v in range(1, MAX_VALUE)
            if v != self.lone
            and 0 < self.target - v < MAX_VALUE
            and self.target - v != v
            and (not self.triples or self.target - v < PAIR)
        ]
        self._slots_of = [sum(1 << slot for slot in range(self.P) if self.values[slot] == v) for v in range(MAX_VALUE)]
        #: for each slot, itself and the slots it covers, directly or through others: what a dead card
        #: keeps in place (the slots whose cover triangle holds it)
        self._kept_by = [
            1 << slot | sum(1 << other for other in range(self.P) if self.triangle[other] >> slot & 1)
            for slot in range(self.P)
        ]
        #: the most cards of each value the bag can hold: the stock's (bag counts never exceed them)
        self._stock_has = [sum(1 for v in space.stock_values if v == value) for value in range(MAX_VALUE)]
        self._bounds: dict[int, int] = {}
        self._matchings: dict[int, int] = {}
        #: with triples, per pyramid mask: :class:`_Cards` (what the bag cut and the ceiling read)
        self._cards: dict[int, _Cards] = {}

    def release(self) -> None:
        """Empty the memos (see :meth:`.space.SearchSpace.release`)."""
        self._bounds.clear()
        self._matchings.clear()
        self._cards.clear()

    # --- the question ------------------------------------------------------------------------------

    def reaches(self, pyramid: int, counts: int, k: int) -> bool:
        """True if the relaxed game removes at least ``k`` pyramid cards in all from ``pyramid`` with
        the bag ``counts`` (4 bits per value, jokers at value 0, waste uses left above them: see
        ``SearchSpace.bag``).  Exposed kings are taken at once, as in play."""
        if self.triples:
            counts = self._useful(pyramid, counts)
        key = counts << self.P | pyramid
        entry = self._bounds.get(key)
        if entry is None:
            poll = self.space.poll
            if poll is not None:  # a relaxed game can be long: Giza's, with no stock, is the game itself
                poll()
            low = self.P - pyramid.bit_count()
            high = self.ceiling(pyramid, counts)
            self._bounds[key] = low | high << BOUND_BITS
        else:
            low = entry & BOUND_MASK
            high = entry >> BOUND_BITS
        if low >= k:
            return True
        if high < k:
            return False
        shape = self.space.shape(pyramid)
        found = False
        if shape.king is not None:
            found = self.reaches(pyramid & ~(1 << shape.king[0]), counts, k)
        else:
            for after, bag in self._moves(pyramid, counts, shape):
                if self.reaches(after, bag, k):
                    found = True
                    break
        if found:
            low = k
        else:
            high = k - 1
        self._bounds[key] = low | high << BOUND_BITS
        return found

    def most(self, pyramid: int, counts: int) -> int:
        """The most pyramid cards the relaxed game removes in all (asked down from its ceiling)."""
        k = self.ceiling(pyramid, counts)
        while not self.reaches(pyramid, counts, k):
            k -= 1
        return k

    def _moves(self, pyramid: int, counts: int, shape: PyramidShape) -> list[tuple[int, int]]:
        """(pyramid, counts) after each removal of the relaxed game."""
        out = [(after, counts) for _, after in shape.removals]
        spend = self._spend
        for need, slots in shape.by_need.items():
            if 0 < need < MAX_VALUE and counts >> (COUNT_BITS * need) & COUNT_MASK:
                fewer = spend(counts - (1 << (COUNT_BITS * need)))
                out.extend((pyramid & ~(1 << slot), fewer) for slot in slots)
        if counts & COUNT_MASK:  # a joker takes any exposed card
            fewer = counts - 1
            out.extend((pyramid & ~(1 << slot), fewer) for slot in shape.exposed)
        if self.triples:
            out.extend(
                (pyramid & ~taken, spend(after))
                for taken, after in bag_triples(self.values, self.target, shape.exposed, counts)
            )
        return out

    @staticmethod
    def _spend(counts: int) -> int:
        """``counts`` after a removal that took cards from the bag: one waste use fewer, if they are
        limited; with none left the bag's cards can no longer be used, so they are dropped (jokers stay)."""
        if not counts >> BAG_USES_SHIFT:
            return counts
        counts -= 1 << BAG_USES_SHIFT
        return counts if counts >> BAG_USES_SHIFT else counts & COUNT_MASK

    # --- the ceiling -------------------------------------------------------------------------------

    def ceiling(self, pyramid: int, counts: int) -> int:
        """Pyramid cards removed in all at the very most (while a joker is left, every one).

        Cards that stay whatever the play:

        * the dead ones — no partner left that can meet them, in the pyramid or the bag, and with
          triples no two cards to go with them — and those lying on a dead card (a card is only
          exposed once everything in its cover triangle is gone);
        * of the rest, for each value that goes only in pairs, the cards a matching with their
          partners cannot serve: each takes a partner of its own, a pyramid card that can meet it or a
          bag card, so at most (the largest matching among the pyramid's) + (the bag's) of them go;
        * of the other values, the cards whose only partners are in the bag (no pyramid card can
          partner them and they make no triple), beyond the bag cards of the value they need.

        Cards of different values are different cards, and none counted in the last two lies on a dead
        card, so the three counts add up.  The cards whose only partners are in the bag also need a
        waste use each where uses are limited: more of them than uses stay, another bound on the last
        two together.  The second count ends the relaxed game at once where three queens share the two
        aces they can meet; without the last, it tried every order of play to learn that two queens
        waiting for one ace in the stock leave one behind."""
        if counts & COUNT_MASK:
            return self.P
        values = self.values
        target = self.target
        # a card with no partner left in the pyramid that can meet it needs one from the bag, or is dead
        dead = 0
        needing = 0
        if self.triples:  # what the pyramid alone decides is kept with it (a few masks, many bags)
            facts = self._cards_of(pyramid)
            dead = facts.dead
            for shift, lonely in facts.lonely:
                if counts >> shift & COUNT_MASK:
                    needing |= lonely
                else:
                    dead |= lonely
            # a card that makes a triple is neither dead nor needing
            dead &= ~facts.tripled
            needing &= ~facts.tripled
            if dead:
                dead = self._without_triples(dead, facts.pools, counts)
            if needing:
                needing = self._without_triples(needing, facts.pools, counts)
        else:  # without triples a deal meets far fewer bags per mask, and keeping them cost more than it
            # saved (giza and reserve were measured a third slower with it)
            masks = self.meeting
            rest = pyramid
            while rest:
                low = rest & -rest
                slot = low.bit_length() - 1
                rest ^= low
                value = values[slot]
                if value == self.lone or pyramid & masks[slot]:
                    continue
                need = target - value
                if 0 < need < MAX_VALUE and counts >> (COUNT_BITS * need) & COUNT_MASK:
                    needing |= low
                else:
                    dead |= low
        stuck = 0
        rest = dead
        while rest:
            low = rest & -rest
            stuck |= self._kept_by[low.bit_length() - 1]
            rest ^= low
        stuck &= pyramid
        alive = pyramid & ~stuck
        short = 0
        paired_values = 0
        for value, partner in self._pairs_only:
            cards = alive & self._slots_of[value]
            if not cards:
                continue
            paired_values |= 1 << value
            served = self._matching(cards, alive & self._slots_of[partner])
            served += counts >> (COUNT_BITS * partner) & COUNT_MASK
            if cards.bit_count() > served:
                short += cards.bit_count() - served
        needing &= alive
        wanted = 0  # cards of ``needing`` of the other values, by the value they need (4 bits each)
        rest = needing
        while rest:
            low = rest & -rest
            value = values[low.bit_length() - 1]
            if not paired_values >> value & 1:
                wanted += 1 << (COUNT_BITS * (target - value))
            rest ^= low
        for need in range(1, MAX_VALUE):
            want = wanted >> (COUNT_BITS * need) & COUNT_MASK
            have = counts >> (COUNT_BITS * need) & COUNT_MASK
            if want > have:
                short += want - have
        uses = counts >> BAG_USES_SHIFT
        if uses:
            short = max(short, needing.bit_count() - uses)
        return self.P - stuck.bit_count() - short

    def _matching(self, cards: int, partners: int) -> int:
        """The most disjoint pairs of one of ``cards`` with one of ``partners`` that can meet
        (pyramid slot masks; memoised, as few sets of them turn up)."""
        if not partners:
            return 0
        key = cards | partners << self.P
        found = self._matchings.get(key)
        if found is not None:
            return found
        holders: dict[int, int] = {}  # partner slot -> the card slot it is matched with
        size = 0
        rest = cards
        while rest:
            low = rest & -rest
            rest ^= low
            if self._augment(low.bit_length() - 1, partners, holders, [0]):
                size += 1
        self._matchings[key] = size
        return size

    def _augment(self, card: int, partners: int, holders: dict[int, int], seen: list[int]) -> bool:
        """Kuhn's augmenting path: match ``card``, moving matched cards on where that frees a partner
        (``seen[0]``: the partners tried already on this path)."""
        rest = self.meeting[card] & partners & ~seen[0]
        while rest:
            low = rest & -rest
            rest ^= low
            seen[0] |= low
            partner = low.bit_length() - 1
            holder = holders.get(partner)
            if holder is None or self._augment(holder, partners, holders, seen):
                holders[partner] = card
                return True
        return False

    def _without_triples(self, cards: int, pools: list[int], counts: int) -> int:
        """``cards`` but those that make a triple with two cards left (:meth:`_makes_a_triple`): of the
        pyramid, those of the card's pool (``pools``, from :meth:`_cards_of`), or of the bag ``counts``."""
        rest = cards
        while rest:
            low = rest & -rest
            rest ^= low
            slot = low.bit_length() - 1
            if self._makes_a_triple(self.values[slot], counts + pools[slot]):
                cards ^= low
        return cards

    def _makes_a_triple(self, value: int, pool: int) -> bool:
        """True if two cards of ``pool`` (value counts: the pyramid cards a card of ``value`` is not
        apart from, and the bag) make up the target with it.  (They must also be usable together;
        leaving that out only keeps alive a few cards that are not, so the cuts stay sound.)"""
        need = self.target - value
        for low in range(1, (need + 1) // 2):  # two different values
            if pool >> (COUNT_BITS * low) & COUNT_MASK and pool >> (COUNT_BITS * (need - low)) & COUNT_MASK:
                return True
        return need > 0 and need % 2 == 0 and pool >> (COUNT_BITS * (need // 2)) & COUNT_MASK >= PAIR

    # --- the bag cut -------------------------------------------------------------------------------

    def _useful(self, pyramid: int, counts: int) -> int:
        """``counts`` with each value's bag cards cut down to as many as the pyramid left can still use:
        the relaxed game then reaches just as far, and states that differ only in cards nobody can use
        (kings, a third eight when one five is left) share one key.

        Every removal of the relaxed game takes a pyramid card, so a bag card of value w is used with
        some pyramid card of value v left now: as its pair (v + w = target), as one card of a triple
        (v + w + u = target for some card value u), or as two (v + 2w = target).  Each pyramid card is
        removed once, so :attr:`_bag_uses` — for each w, the pairs (v, most w cards one removal of a v
        card takes) — bounds the w cards any line can use by the sum over the pyramid's cards.  Those
        caps depend on the pyramid alone and are kept with it (:meth:`_cards_of`), leaving out the values
        whose cap is at least the stock's count of them: that relies on a bag never holding more cards
        of a value than the stock has, which :meth:`.SearchSpace.bag` guarantees (jokers are counted
        apart, at value 0, and a stock card parked in a free cell leaves the stock's bits)."""
        for shift, cap in self._cards_of(pyramid).caps:
            have = counts >> shift & COUNT_MASK
            if have > cap:
                counts -= (have - cap) << shift
        return counts

    def _cards_of(self, pyramid: int) -> _Cards:
        """The facts of the pyramid mask ``pyramid`` that no bag changes (:class:`_Cards`), worked out
        once: the bag cut's caps, the cards without a partner in the pyramid, and what each card's
        triples may take from the pyramid.  They were worked out again for every (pyramid, bag) before;
        with triples a deal meets few masks (at most 1,430 with seven rows) against hundreds of
        thousands of bags, and this took 16-22 % of the compiled time off ``thirteen(triples=true)``.
        Only with triples (the bag cut and the ceiling ask only then)."""
        found = self._cards.get(pyramid)
        if found is not None:
            return found
        summed = self.space.summed
        tables = self._pyramid_tables
        pyramid_counts = summed(tables, pyramid)
        caps = []
        for value, uses in self._bag_uses:
            cap = 0
            for partner, most in uses:
                cap += (pyramid_counts >> (COUNT_BITS * partner) & COUNT_MASK) * most
            if cap < self._stock_has[value]:  # else the bag never holds more than the pyramid can use
                caps.append((COUNT_BITS * value, cap))
        dead = 0
        lonely: dict[int, int] = {}  # need -> the cards of that need with no partner in the pyramid
        rest = pyramid
        while rest:
            low = rest & -rest
            slot = low.bit_length() - 1
            rest ^= low
            value = self.values[slot]
            if value == self.lone or pyramid & self.meeting[slot]:
                continue
            need = self.target - value
            if 0 < need < MAX_VALUE:
                lonely[need] = lonely.get(need, 0) | low
            else:
                dead |= low
        pools = [
            summed(tables, pyramid & pool) if pyramid >> slot & 1 else 0 for slot, pool in enumerate(self._triple_pool)
        ]
        tripled = 0
        rest = pyramid
        while rest:
            low = rest & -rest
            rest ^= low
            slot = low.bit_length() - 1
            if self._makes_a_triple(self.values[slot], pools[slot]):
                tripled |= low
        found = _Cards(caps, pools, dead, [(COUNT_BITS * need, mask) for need, mask in sorted(lonely.items())], tripled)
        self._cards[pyramid] = found
        return found

    def _bag_use_table(self) -> list[tuple[int, list[tuple[int, int]]]]:
        """For each bag value w: the pyramid values v it can go with, and the most w cards a removal of
        one v card takes (see :meth:`_useful`); values that go with nothing (lone kings) have none."""
        target = self.target
        card_values = sorted(set(self.values))
        table = []
        for w in range(1, MAX_VALUE):
            uses = []
            for v in card_values:
                if v in (self.lone, 0) or w == self.lone:
                    continue
                most = 1 if v + w == target else 0
                if self.triples:
                    third = target - v - w
                    if v + 2 * w == target:
                        most = 2
                    elif third >= 1 and third in card_values and third != self.lone:
                        most = max(most, 1)
                if most:
                    uses.append((v, most))
            table.append((w, uses))
        return table


class _Cards:
    """What :class:`RelaxedGame` keeps of one pyramid mask with triples, which no bag changes.

    * ``dead``: cards whose partner value is no card value at all (so no bag holds one either);
    * ``lonely``: (shift of a value's count in the bag, the cards that need that value and have no
      partner left in the pyramid that can meet them): each is dead unless the bag holds one;
    * ``caps``: the bag cut's (shift of a value's count, the most cards of it the pyramid can use), for
      the values the bag can hold more of;
    * ``pools``: per slot of the pyramid, the value counts of the pyramid cards a triple with it may
      take;
    * ``tripled``: the cards that make a triple with pyramid cards alone, whatever the bag."""

    caps: list[tuple[int, int]]
    pools: list[int]
    dead: int
    lonely: list[tuple[int, int]]
    tripled: int

    def __init__(
        self, caps: list[tuple[int, int]], pools: list[int], dead: int, lonely: list[tuple[int, int]], tripled: int
    ) -> None:
        self.caps = caps
        self.pools = pools
        self.dead = dead
        self.lonely = lonely
        self.tripled = tripled

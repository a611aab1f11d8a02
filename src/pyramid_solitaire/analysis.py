"""What a position tells a player: dead cards (詰み札) and the plain hint of seed 001.

**Dead card.**  A pyramid card none of whose possible partners can ever meet it again: every card of
the value it needs that is still in play (pyramid, stock or waste) lies in the triangle of cards that
cover it — those must all go before it is exposed — or under it — those are exposed only once it
is gone, and it goes only with a partner: seed 001's own case, 「相手を表に出すには先にそのカードを消す
必要があり、でもそのカードは相手と一緒にしか消せない」 — or none is left at all.  A partner is placed
under the card only where the player can see it: a face-down card could as well be in the stock.
Kings (a card worth the target, where lone cards go) are never dead, and nothing is dead while a
joker is in play.  With the ``overlap`` option a partner that directly covers the card, or that the
card directly covers, still counts.  Once a limit on waste
uses is spent, a stock card counts as a partner only where the stock top or a drawn card is usable.
With ``triples`` a card is dead only if no partner and no two cards summing to what it needs can meet
it either.  With free cells the triangle blocks nothing: a card covering another can be parked, and the
two then meet (so there a card is dead only when no partner is left in play, and a parked card can be
dead too).  Once dead, a
card stays dead however play goes on, so the deal can no longer be won (the converse is not true: a
deal can be lost without any dead card).

Only cards the player can see are reported (``visible_only``) so that nothing leaks from face-down rows;
the facts used — where visible cards lie and which cards are gone — are all public.
"""

from __future__ import annotations

from collections import defaultdict
from itertools import combinations

from .layout import bits
from .packed import DRAW_ACTION, RECYCLE_ACTION, Action, Position
from .table import Table


def dead_slots(table: Table, pos: Position, visible_only: bool = True, known: int | None = None) -> int:
    """Bitmask of the dead pyramid slots of ``pos``.  ``known`` (default: the visible slots, or every
    slot when not ``visible_only``) is where positions may be used to rule a meeting out: a partner
    lying under the card, or two cards of a triple where one lies under the other."""
    if pos.jokers:
        return 0
    rules = table.rules
    values = table.values
    triangle = table.layout.triangle
    coverers = table.layout.coverers
    overlap = rules.overlap and rules.open_pyramid
    alive = bits(pos.pyramid) + [table.board_size + i for i in bits(pos.stock)] + bits(pos.cells)
    cells = table.cell_count
    by_value: dict[int, list[int]] = defaultdict(list)
    for place in alive:
        by_value[values[place]].append(place)
    lone = rules.target if rules.lone_kings else None
    # with a limit on waste uses spent, a game whose stock cards are only used from the waste can use
    # none of them again (and uses never come back): they can meet nothing
    stock_usable = table.waste_uses_left(pos) != 0 or not rules.stock_only_from_waste
    parked = pos.cells & table.board_mask
    candidates = (table.visible(pos) if visible_only else pos.pyramid) | parked
    # where a card's place may be used to rule a meeting out: a face-down card could as well be in the
    # stock, as far as the player knows
    where = 0 if cells else known if known is not None else pos.pyramid if not visible_only else table.visible(pos)
    dead = 0
    for slot in bits(candidates):
        value = values[slot]
        if value == lone:
            continue
        blocked = 0 if cells else triangle[slot]

        def can_meet(place: int, slot: int = slot, blocked: int = blocked) -> bool:
            if pos.cells >> place & 1:
                return place != slot
            if place >= table.board_size:
                return stock_usable
            if place == slot:
                return False
            if blocked >> place & 1:  # it covers the card: it goes before the card is exposed
                return overlap and bool(coverers[slot] >> place & 1)
            if where >> place & 1 and triangle[place] >> slot & 1:  # it lies under the card (seed 001)
                return overlap and bool(coverers[place] >> slot & 1)
            return True

        if any(can_meet(p) for p in by_value.get(rules.target - value, ())):
            continue
        if rules.triples and _triple_possible(table, slot, by_value, can_meet, where):
            continue
        dead |= 1 << slot
    return dead


def _triple_possible(table: Table, slot: int, by_value: dict[int, list[int]], can_meet: object, known: int) -> bool:
    """True if two cards that could both meet ``slot`` sum to what it needs.  Two cards where one lies
    under the other cannot go together; that is only used for ``known`` slots (the face-up ones when
    only what the player sees may count), so hidden positions never decide."""
    assert callable(can_meet)
    need = table.rules.target - table.values[slot]
    triangle = table.layout.triangle
    free = [p for ps in by_value.values() for p in ps if p != slot and can_meet(p)]
    for a, b in combinations(free, 2):
        if table.values[a] + table.values[b] != need:
            continue
        if (
            a < table.board_size
            and b < table.board_size
            and known >> a & 1
            and known >> b & 1
            and (triangle[a] >> b & 1 or triangle[b] >> a & 1)
        ):
            continue
        return True
    return False


def plain_hint(table: Table, pos: Position) -> Action | None:
    """The hint of seed 001 from what the player can see: a removable pair or king, else draw (or
    recycle).  Among removals it prefers one that makes no new dead card, then the most pyramid cards,
    then the most cards newly exposed.  With free cells, when nothing else is left, it parks a card:
    the first of the fewest parks after which a removal is possible (:meth:`Table.useful_park`)."""
    removals = table.removals(pos)
    if removals:
        # Only cards visible now are judged, so that cards a removal would turn face up (still
        # unknown to the player) cannot steer the hint.
        seen = table.visible(pos)
        dead_before = (dead_slots(table, pos) & seen).bit_count()
        exposed_before = table.exposed(pos).bit_count()

        def rank(action: tuple[int, ...]) -> tuple[int, int, int, int]:
            after = table.remove(pos, action)
            new_dead = (dead_slots(table, after, visible_only=False, known=seen) & seen).bit_count() > dead_before
            pyramid_cards = sum(1 for p in action if table.is_pyramid(p))
            exposed_gain = table.exposed(after).bit_count() - exposed_before + pyramid_cards
            return (0 if new_dead else 1, pyramid_cards, exposed_gain, -min(action))

        return max(removals, key=rank)
    if table.can_draw(pos):
        return DRAW_ACTION
    if table.can_recycle(pos):
        return RECYCLE_ACTION
    return table.useful_park(pos)

"""A deal laid out under its rules, the fast path: every legal action and what it does, as functions of a
compact :class:`~.packed.Position`.

:class:`Board` is what the solver's searches, the hints and the dead-card analysis call, millions of
times; :class:`~.table.Table` adds the validated path (why an action is refused, actions named by typed
moves) and is what everything else holds.  The two are the one place the rules of play are written.

**Places.**  Every card has a fixed *place*: its index in the deal notation (0 .. pyramid size - 1 for
the layout — the pyramid, then any reserve piles — then the stock cards in dealing order), followed by
the jokers.  A reserve pile is part of the cover graph (:mod:`.layout`), so "pyramid" below means the
whole layout: its slots are exposed, removed and cleared for the win alike.

**Free cells.**  A parked card leaves the pyramid (or the stock) mask and its place joins ``cells``:
it covers nothing and no longer sits in the stock's order, and it is usable until it is removed.  A
parked pyramid card is not removed, so everything that counts the pyramid cards left
(:meth:`Board.pyramid_left`, the score, the win) counts it.
"""

from __future__ import annotations

from itertools import combinations
from typing import Final

from .cards import Card
from .deal import Deal
from .layout import Layout, bits, pyramid_layout
from .packed import DRAW_ACTION, PAIR, RECYCLE_ACTION, TRIPLE, Action, Position
from .rules import PYRAMIDE_POINTS_PER_CARD, Rules
from .vocabulary import Outcome

PLAYING: Final = Outcome.PLAYING
WON: Final = Outcome.WON
LOST: Final = Outcome.LOST
STALEMATE: Final = Outcome.STALEMATE


def _highest(mask: int) -> int:
    return mask.bit_length() - 1


def _lowest(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def dealt_to(stock: int, ptr: int, count: int) -> int:
    """The stock pointer after one draw of ``count`` cards from ``ptr``: just past the ``count``-th card
    still in the stock, or past the last one if fewer are left (the stock must not be empty)."""
    above = stock >> ptr
    for _ in range(count - 1):
        rest = above & (above - 1)
        if not rest:
            break
        above = rest
    return ptr + _lowest(above) + 1


class Board:
    """``deal`` compiled for play: card values per place, the cover graph, and the fast path's rules."""

    def __init__(self, deal: Deal) -> None:
        rules = deal.rules
        self.deal = deal
        self.rules: Rules = rules
        self.layout: Layout = pyramid_layout(rules.rows, rules.reserve, rules.reserve_depth, rules.inverted)
        # The layout the win clears, pyramid and reserve: what the engine calls "the pyramid" throughout
        # (its slots are ``Position.pyramid``; the pyramid proper is ``layout.pyramid_size``).
        self.board_size = rules.board_size
        self.stock_size = rules.stock_size
        jokers = tuple(Card.joker_card(n) for n in range(1, rules.jokers + 1))
        self.cards: tuple[Card, ...] = deal.cards + jokers
        self.values: tuple[int, ...] = tuple(0 if c.is_joker else rules.value(c) for c in self.cards)
        self.place_of: dict[Card, int] = {card: place for place, card in enumerate(self.cards)}
        self.joker_base = self.board_size + self.stock_size
        self.target = rules.target
        self._lone_value = rules.target if rules.lone_kings else -1
        self.deal_count = rules.deal_count
        self.waste_limit = rules.waste_uses
        self.cell_count = rules.cells
        self.board_mask = (1 << self.board_size) - 1
        # exposed slots by pyramid mask: a deal's masks are few (a 7-row pyramid has 1,430 shapes), and
        # play, hints and the searches ask for the same ones again and again
        self._exposed: dict[int, int] = {}
        # With several waste piles (Apophis, one pass) the cards go round the piles in dealing order, so
        # pile k holds the dealt stock indices i with i % piles == k: a mask per pile.
        piles = rules.waste_piles
        self.pile_masks: tuple[int, ...] = (
            tuple(sum(1 << i for i in range(k, self.stock_size, piles)) for k in range(piles)) if piles > 1 else ()
        )

    # --- places -----------------------------------------------------------------------------------

    def is_pyramid(self, place: int) -> bool:
        """True for a pyramid slot."""
        return place < self.board_size

    def is_stock(self, place: int) -> bool:
        """True for a stock card (in the stock, drawn or on the waste)."""
        return self.board_size <= place < self.joker_base

    def is_joker(self, place: int) -> bool:
        """True for a joker."""
        return place >= self.joker_base

    def alive(self, pos: Position, place: int) -> bool:
        """True while the card at ``place`` has not been removed (in place or in a free cell)."""
        if pos.cells >> place & 1:
            return True
        if place < self.board_size:
            return bool(pos.pyramid >> place & 1)
        if place < self.joker_base:
            return bool(pos.stock >> (place - self.board_size) & 1)
        return bool(pos.jokers >> (place - self.joker_base) & 1)

    # --- the start and the stock ------------------------------------------------------------------

    def start(self) -> Position:
        """The position before the first move."""
        ptr = 1 if self.rules.waste_start else 0
        return Position((1 << self.board_size) - 1, (1 << self.stock_size) - 1, ptr, 0, (1 << self.rules.jokers) - 1)

    def stock_left(self, pos: Position) -> int:
        """Cards still face down in the stock."""
        return (pos.stock >> pos.ptr).bit_count()

    def waste(self, pos: Position) -> list[int]:
        """Places on the waste (and in the drawn spot), bottom first; the last is the most recent."""
        below = pos.stock & ((1 << pos.ptr) - 1)
        return [self.board_size + i for i in bits(below)]

    def waste_piles(self, pos: Position) -> list[list[int]]:
        """With several waste piles: the places on each, bottom first (empty without)."""
        below = pos.stock & ((1 << pos.ptr) - 1)
        return [[self.board_size + i for i in bits(below & mask)] for mask in self.pile_masks]

    def drawn(self, pos: Position) -> int | None:
        """The place in the drawn spot (``drawn_spot`` rules), if any."""
        if self.rules.drawn_spot and pos.ptr and pos.stock >> (pos.ptr - 1) & 1:
            return self.board_size + pos.ptr - 1
        return None

    def waste_top(self, pos: Position) -> int | None:
        """The place on top of the waste pile (under the drawn spot in ``drawn_spot`` rules)."""
        limit = pos.ptr - 1 if self.rules.drawn_spot and pos.ptr else pos.ptr
        below = pos.stock & ((1 << limit) - 1)
        return self.board_size + _highest(below) if below else None

    def stock_top(self, pos: Position) -> int | None:
        """The place on top of the stock (face up and usable in ``msc``)."""
        above = pos.stock >> pos.ptr
        return self.board_size + pos.ptr + _lowest(above) if above else None

    def pass_number(self, pos: Position) -> int:
        """The pass through the stock now under way, from 1."""
        return pos.recycles + 1

    def waste_cards(self, pos: Position) -> list[int]:
        """The waste's usable places, whether or not its uses are used up: its top, or each pile's."""
        if self.pile_masks:
            below = pos.stock & ((1 << pos.ptr) - 1)
            return [self.board_size + _highest(below & mask) for mask in self.pile_masks if below & mask]
        top = self.waste_top(pos)
        return [] if top is None else [top]

    def waste_uses_left(self, pos: Position) -> int | None:
        """Removals that may still take a waste card (``None`` without a limit)."""
        return None if self.waste_limit is None else max(0, self.waste_limit - pos.waste_used)

    def usable_stock(self, pos: Position) -> list[int]:
        """The stock-side places that may be used now."""
        out = []
        drawn = self.drawn(pos)
        if drawn is not None:
            out.append(drawn)
        if self.waste_uses_left(pos) != 0:
            out.extend(self.waste_cards(pos))
        if self.pile_masks:
            return out
        if self.rules.stock_top_usable:
            stock_top = self.stock_top(pos)
            if stock_top is not None:
                out.append(stock_top)
        return out

    def exposed(self, pos: Position) -> int:
        """Bitmask of the pyramid slots no remaining card covers."""
        found = self._exposed.get(pos.pyramid)
        if found is None:
            found = self._exposed[pos.pyramid] = self.layout.exposed(pos.pyramid)
        return found

    def visible(self, pos: Position) -> int:
        """Bitmask of the layout's slots shown face up: without an open pyramid, the exposed pyramid
        cards and every reserve card (the reserve is dealt face up)."""
        if self.rules.open_pyramid:
            return pos.pyramid
        return self.exposed(pos) | pos.pyramid & ~((1 << self.layout.pyramid_size) - 1)

    def usable(self, pos: Position) -> list[int]:
        """Every place that may take part in a removal now (exposed, stock side, free cells, jokers)."""
        jokers = [self.joker_base + j for j in bits(pos.jokers)]
        return bits(self.exposed(pos)) + self.usable_stock(pos) + bits(pos.cells) + jokers

    # --- free cells -----------------------------------------------------------------------------------

    def in_cells(self, pos: Position) -> list[int]:
        """The places parked in free cells, in place order."""
        return bits(pos.cells)

    def pyramid_left(self, pos: Position) -> int:
        """Layout cards not yet removed: in place or parked in a free cell."""
        return pos.pyramid.bit_count() + (pos.cells & self.board_mask).bit_count()

    def _any_park(self, pos: Position) -> list[int]:
        """With a cell empty, every usable card of the layout and of the stock side (never a joker: it is
        usable at any time anyway)."""
        if pos.cells.bit_count() >= self.cell_count or self.won(pos):
            return []
        return bits(self.exposed(pos)) + self.usable_stock(pos)

    def parks(self, pos: Position) -> list[int]:
        """The places that may be parked in a free cell now (see :meth:`_any_park`) — none when nothing
        else can be done (no removal, no draw, no recycle) and no parks into the empty cells lead to a
        removal: parking could then only fill the cells, and the game is over (lost), as it is in the
        same spot without cells."""
        parks = self._any_park(pos)
        if (
            parks
            and not (self.can_draw(pos) or self.can_recycle(pos) or self.removals(pos))
            and self.useful_park(pos) is None
        ):
            return []
        return parks

    def useful_park(self, pos: Position) -> int | None:
        """The first park of a shortest line of parks (nothing else played) after which a removal is
        possible, or ``None`` if no such line fits in the empty cells."""
        free = self.cell_count - pos.cells.bit_count()
        for depth in range(1, free + 1):
            for place in self._any_park(pos):
                if self._removal_within(self.park(pos, place), depth - 1):
                    return place
        return None

    def _removal_within(self, pos: Position, parks: int) -> bool:
        if self.removals(pos):
            return True
        return parks > 0 and any(self._removal_within(self.park(pos, p), parks - 1) for p in self._any_park(pos))

    def park(self, pos: Position, place: int) -> Position:
        """Park the card at ``place`` in a free cell (unchecked).  Taking the waste's card spends a use
        where uses are limited, as a removal would: a cell is no way round the limit."""
        used = pos.waste_used
        if self.waste_limit is not None and place in self.waste_cards(pos):
            used += 1
        if place < self.board_size:
            return pos._replace(pyramid=pos.pyramid & ~(1 << place), waste_used=used, cells=pos.cells | 1 << place)
        return pos._replace(
            stock=pos.stock & ~(1 << (place - self.board_size)), waste_used=used, cells=pos.cells | 1 << place
        )

    def overlap_pairs(self, pos: Position) -> list[tuple[int, int]]:
        """(covered, coverer) pairs the ``overlap`` option allows: the coverer is exposed and is the only
        card still covering the other, which is face up.  Empty when the option is off."""
        if not (self.rules.overlap and self.rules.open_pyramid):
            return []
        out = []
        coverers = self.layout.coverers
        for coverer in bits(self.exposed(pos)):
            for covered in bits(self.layout.covers[coverer] & pos.pyramid):
                if coverers[covered] & pos.pyramid == 1 << coverer:
                    out.append((covered, coverer))
        return out

    # --- which combinations remove --------------------------------------------------------------

    def removals(self, pos: Position) -> list[tuple[int, ...]]:
        """Every legal removal, each a sorted tuple of places (the fast path for search)."""
        if self.won(pos):
            return []
        usable = self.usable(pos)
        values = self.values
        target = self.target
        out: list[tuple[int, ...]] = []
        joker_base = self.joker_base
        cells = pos.cells

        def is_stock(place: int) -> bool:  # the stock side: a parked stock card is in a cell instead
            return self.is_stock(place) and not cells >> place & 1

        pairs_ok = self.rules.stock_waste_pairs
        for p in usable:
            if values[p] == self._lone_value and p < joker_base:
                out.append((p,))
        for a, b in combinations(usable, PAIR):
            ja, jb = a >= joker_base, b >= joker_base
            if ja or jb:
                if not (ja and jb):
                    out.append((a, b) if a < b else (b, a))
            elif values[a] + values[b] == target and (pairs_ok or not (is_stock(a) and is_stock(b))):
                out.append((a, b) if a < b else (b, a))
        for covered, coverer in self.overlap_pairs(pos):
            if values[covered] + values[coverer] == target:
                out.append((covered, coverer))
        if self.rules.triples:
            plain = [p for p in usable if p < joker_base]
            for trio in combinations(plain, TRIPLE):
                if sum(values[p] for p in trio) == target and (pairs_ok or sum(1 for p in trio if is_stock(p)) < PAIR):
                    out.append(tuple(sorted(trio)))
        return out

    # --- stock actions ----------------------------------------------------------------------------

    def can_draw(self, pos: Position) -> bool:
        """True when a card is left in the stock."""
        return bool(pos.stock >> pos.ptr) and not self.won(pos)

    def draw(self, pos: Position) -> Position:
        """Deal the stock's top card — or its top ``rules.deal_count`` cards, as many as are left: onto the
        waste, or one onto each waste pile (unchecked)."""
        return pos._replace(ptr=dealt_to(pos.stock, pos.ptr, self.deal_count))

    def can_recycle(self, pos: Position) -> bool:
        """True when the stock is empty, a recycle is left and there is something to turn over."""
        limit = self.rules.max_recycles
        return (
            not pos.stock >> pos.ptr
            and bool(pos.stock & ((1 << pos.ptr) - 1))
            and (limit is None or pos.recycles < limit)
            and not self.won(pos)
        )

    def recycle(self, pos: Position) -> Position:
        """Turn the waste over into a new stock, same order (unchecked)."""
        return pos._replace(ptr=0, recycles=pos.recycles + 1)

    def passes_used_up(self, pos: Position) -> bool:
        """True when the stock is empty and no recycle is left."""
        limit = self.rules.max_recycles
        return not pos.stock >> pos.ptr and limit is not None and pos.recycles >= limit

    # --- moves in the fast path -------------------------------------------------------------------

    def remove(self, pos: Position, places: tuple[int, ...]) -> Position:
        """Remove the cards at ``places`` (unchecked)."""
        pyramid, stock, jokers = pos.pyramid, pos.stock, pos.jokers
        used = pos.waste_used
        if self.waste_limit is not None and not set(places).isdisjoint(self.waste_cards(pos)):
            used += 1
        cells = pos.cells
        for place in places:
            if cells >> place & 1:
                cells &= ~(1 << place)
            elif place < self.board_size:
                pyramid &= ~(1 << place)
            elif place < self.joker_base:
                stock &= ~(1 << (place - self.board_size))
            else:
                jokers &= ~(1 << (place - self.joker_base))
        return Position(pyramid, stock, pos.ptr, pos.recycles, jokers, used, cells)

    def actions(self, pos: Position) -> list[Action]:
        """Every legal action: removals first, then parking a card in a free cell, then a draw or a
        recycle."""
        out: list[Action] = list(self.removals(pos))
        out.extend(self.parks(pos))
        if self.can_draw(pos):
            out.append(DRAW_ACTION)
        elif self.can_recycle(pos):
            out.append(RECYCLE_ACTION)
        return out

    def apply(self, pos: Position, action: Action) -> Position:
        """The position after a legal ``action`` (unchecked; the solver's generic path, so it reads the
        encoding itself rather than through :func:`kind_of`)."""
        if action == DRAW_ACTION:
            return self.draw(pos)
        if action == RECYCLE_ACTION:
            return self.recycle(pos)
        if isinstance(action, int):
            return self.park(pos, action)
        assert isinstance(action, tuple)
        return self.remove(pos, action)

    # --- outcome ----------------------------------------------------------------------------------

    def won(self, pos: Position) -> bool:
        """Relaxed: the pyramid is clear (none of its cards in a free cell either).  Strict: every dealt
        card is gone too."""
        if pos.pyramid or pos.cells & self.board_mask:
            return False
        return not self.rules.strict or not (pos.stock or pos.cells)

    def status(self, pos: Position) -> str:
        """``won``; ``playing`` while any action is legal; else ``stalemate`` with unlimited passes (the
        pyramide app's ``可能な手がもうありません``) or ``lost``."""
        if self.won(pos):
            return WON
        if self.can_draw(pos) or self.can_recycle(pos) or self.removals(pos) or self.parks(pos):
            return PLAYING
        return STALEMATE if self.rules.passes is None else LOST

    def score(self, pos: Position) -> int | None:
        """Points under the rule set's scheme (``None`` when it keeps no score)."""
        if self.rules.scoring != "pyramide":
            return None
        return PYRAMIDE_POINTS_PER_CARD * (self.board_size - self.pyramid_left(pos))

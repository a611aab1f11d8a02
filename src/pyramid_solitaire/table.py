"""A deal laid out under its rules: every rule of play as a function of a compact :class:`Position`.

This module is the one place the rules of play are written.  :class:`~.game.Game` (play, undo, the
validated path for outside input), the hints, the dead-card analysis and the solver all call it.

**Places.**  Every card has a fixed *place*: its index in the deal notation (0 .. pyramid size - 1 for
the layout — the pyramid, then any reserve piles — then the stock cards in dealing order), followed by
the jokers.  A reserve pile is part of the cover graph (:mod:`.layout`), so "pyramid" below means the
whole layout: its slots are exposed, removed and cleared for the win alike.

**Position.**  Seven integers: the pyramid slots still in place (bitmask), the stock cards still in play
(bitmask over stock indices, whether in the stock, drawn or on the waste), ``ptr`` — how many stock
indices have been dealt in this pass (those below it that remain form the waste, the rest the stock;
cards never change order) — the recycles done, the jokers still in play, the removals that took a
waste card (for a limit on waste uses), and the places of the cards parked in free cells.  The score
and the dead cards are derived from it, so undo is just going back to an earlier position.

**Free cells.**  A parked card leaves the pyramid (or the stock) mask and its place joins ``cells``:
it covers nothing and no longer sits in the stock's order, and it is usable until it is removed.  A
parked pyramid card is not removed, so everything that counts the pyramid cards left
(:meth:`Table.pyramid_left`, the score, the win) counts it.
"""

from __future__ import annotations

from itertools import combinations
from typing import Final, NamedTuple

from .cards import Card
from .deal import Deal
from .layout import Layout, bits, pyramid_layout
from .moves import Move
from .reasons import Fact, Refusal, equation, value_text
from .rules import PYRAMIDE_POINTS_PER_CARD, Rules
from .vocabulary import MoveKind, Outcome

# The stock actions of the solver's fast path stay literal strings (a compiled comparison of two str);
# they are the words of MoveKind.DRAW and MoveKind.RECYCLE, which tests/test_vocabulary.py checks.
DRAW_ACTION: Final = "draw"
RECYCLE_ACTION: Final = "recycle"
#: An action in the fast path: a sorted tuple of places to remove, the place (an int) of a card to park
#: in a free cell, or one of the two stock actions.  The encoding is packed for the solver (no object
#: per action in its hot loops) and read only here and in the solver: everything else asks
#: :func:`kind_of`, :func:`action_places`, :meth:`Table.move_of` and :meth:`Table.refusal`, and names
#: an action by its typed :class:`~.moves.Move` (:meth:`Table.action_of` is the way back).
Action = tuple[int, ...] | int | str

PLAYING: Final = Outcome.PLAYING
WON: Final = Outcome.WON
LOST: Final = Outcome.LOST
STALEMATE: Final = Outcome.STALEMATE
PAIR: Final = 2
TRIPLE: Final = 3


class Position(NamedTuple):
    """Where every card is (see the module docstring).  Immutable and hashable.  ``waste_used`` counts
    the removals that took a card from the waste, for rule sets that limit them (``waste_uses``);
    ``cells`` is the bitmask of the places parked in free cells."""

    pyramid: int
    stock: int
    ptr: int
    recycles: int
    jokers: int
    waste_used: int = 0
    cells: int = 0


def kind_of(action: Action) -> MoveKind:
    """What a packed action does: the one place outside the solver that reads the encoding's types."""
    if isinstance(action, tuple):
        return MoveKind.REMOVE
    if isinstance(action, int):
        return MoveKind.PARK
    return MoveKind.DRAW if action == DRAW_ACTION else MoveKind.RECYCLE


def action_places(action: Action) -> tuple[int, ...]:
    """The places an action removes, or the one it parks (none for a draw or a recycle)."""
    if isinstance(action, tuple):
        return action
    return (action,) if isinstance(action, int) else ()


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


class Table:
    """``deal`` compiled for play: card values per place and the cover graph."""

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

    def spent_waste(self, pos: Position, place: int) -> Refusal | None:
        """The refusal for a waste card whose uses are spent (``place`` not usable), else ``None``."""
        if self.waste_limit is not None and place in self.waste_cards(pos):
            return Refusal("waste-uses-used-up", {"uses": self.waste_limit})
        return None

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

    def _park_refusal(self, pos: Position, place: int) -> Refusal | None:
        """Why parking the card at ``place`` is refused now (the game not won), or ``None``."""
        card = self.cards[place]
        if not self.cell_count:
            return Refusal("no-cells")
        if self.is_joker(place):
            return Refusal("joker-cell")
        if not self.alive(pos, place):
            return Refusal("removed", {"card": card})
        if pos.cells >> place & 1:
            return Refusal("in-cell", {"card": card})
        if pos.cells.bit_count() >= self.cell_count:
            return Refusal("cells-full")
        if place in self.parks(pos):
            return None
        if place in self._any_park(pos):  # a usable card, but no park can lead anywhere: the game is lost
            return Refusal("game-over")
        return self._removal_refusal(pos, (place,)) or Refusal("not-usable", {"card": card})

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

    def combination_refusal(self, places: tuple[int, ...], cells: int = 0) -> Refusal | None:
        """Why these (usable) cards cannot go together, or ``None`` if they can (``cells``: the places
        in free cells, which are no longer on the stock side)."""
        cards = tuple(self.cards[p] for p in places)
        values = tuple(self.values[p] for p in places)
        jokers = sum(1 for p in places if self.is_joker(p))
        target = self.target
        if len(places) == 1:
            if jokers:
                return Refusal("joker-alone")
            if values[0] == self._lone_value:
                return None
            lone_card = next((c for c in self.deal.cards if self.values[self.place_of[c]] == target), None)
            if not self.rules.lone_kings or lone_card is None:
                return Refusal("no-lone", {"card": cards[0]})
            equals = f"{value_text(cards[0], values[0])}={values[0]}"
            return Refusal("lone", {"cards": cards, "target": target, "lone_face": lone_card.face, "equation": equals})
        if len(places) > TRIPLE:
            return Refusal("too-many", {"max_cards": TRIPLE if self.rules.triples else PAIR})
        if len(places) == TRIPLE:
            if not self.rules.triples:
                return Refusal("triples-off")
            if jokers:
                return Refusal("joker-triple")
        if len(places) == PAIR and jokers:
            return Refusal("joker-pair") if jokers == PAIR else None
        if (
            not self.rules.stock_waste_pairs
            and sum(1 for p in places if self.is_stock(p) and not cells >> p & 1) >= PAIR
        ):
            return Refusal("stock-waste-pair")
        total = sum(values)
        if total != target:
            shown: dict[str, Fact] = {"cards": cards, "values": values, "total": total, "target": target}
            return Refusal("sum", {**shown, "equation": equation(cards, values)})
        return None

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

    def _removal_refusal(self, pos: Position, places: tuple[int, ...]) -> Refusal | None:
        """Why removing ``places`` is refused now (the game not won), or ``None`` if it is legal."""
        if len(set(places)) != len(places):
            return Refusal("same-card", {"cards": tuple(self.cards[p] for p in places)})
        if not places or len(places) > TRIPLE:
            return Refusal("too-many", {"max_cards": TRIPLE if self.rules.triples else PAIR})
        visible = self.visible(pos)
        usable = set(self.usable(pos))
        overlap = {pair for pair in self.overlap_pairs(pos)}
        for place in places:
            card = self.cards[place]
            if not self.alive(pos, place):
                return Refusal("removed", {"card": card})
            if place in usable:
                continue
            spent = self.spent_waste(pos, place)
            if spent is not None:
                return spent
            if self.is_pyramid(place) and visible >> place & 1:
                if len(places) == PAIR and tuple(sorted(places, key=lambda p: p != place)) in overlap:
                    continue
                covering_mask = self.layout.coverers[place] & pos.pyramid
                covering = tuple(self.cards[p] for p in bits(covering_mask))
                return Refusal("covered", {"card": card, "covering": covering})
            return Refusal("not-usable", {"card": card})
        return self.combination_refusal(tuple(sorted(places)), pos.cells)

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

    def _draw_refusal(self, pos: Position) -> Refusal | None:
        """Why a draw is refused now (the game not won), or ``None``."""
        if not self.stock_size:
            return Refusal("no-stock")
        if pos.stock >> pos.ptr:
            return None
        if self.passes_used_up(pos):
            return Refusal("passes-used-up", {"passes": self.rules.passes})
        return Refusal("stock-empty")

    def _recycle_refusal(self, pos: Position) -> Refusal | None:
        """Why a recycle is refused now (the game not won), or ``None``."""
        if not self.stock_size:
            return Refusal("no-stock")
        if pos.stock >> pos.ptr:
            return Refusal("stock-not-empty")
        if self.passes_used_up(pos):
            return Refusal("passes-used-up", {"passes": self.rules.passes})
        if not pos.stock & ((1 << pos.ptr) - 1):
            return Refusal("waste-empty")
        return None

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

    # --- naming -------------------------------------------------------------------------------------

    # --- the validated path: actions named by typed moves --------------------------------------------

    def action_of(self, move: Move) -> Action | Refusal:
        """The packed action a move names (its cards' places, in the move's order), or a refusal for a
        card not in this game."""
        if move.kind in (MoveKind.DRAW, MoveKind.RECYCLE):
            return DRAW_ACTION if move.kind == MoveKind.DRAW else RECYCLE_ACTION
        places = []
        for card in move.cards:
            if card not in self.place_of:
                return Refusal("not-in-game", {"card": card})
            places.append(self.place_of[card])
        return places[0] if move.kind == MoveKind.PARK else tuple(places)

    def move_of(self, action: Action) -> Move:
        """The typed move that names a packed action."""
        return Move(kind_of(action), tuple(self.cards[p] for p in action_places(action)))

    def refusal(self, pos: Position, action: Action) -> Refusal | None:
        """Why ``action`` is refused now, or ``None`` if it is legal: the validated path's one way in,
        by the action's kind."""
        if self.won(pos):
            return Refusal("game-over")
        kind = kind_of(action)
        if kind == MoveKind.DRAW:
            return self._draw_refusal(pos)
        if kind == MoveKind.RECYCLE:
            return self._recycle_refusal(pos)
        places = action_places(action)
        return self._park_refusal(pos, places[0]) if kind == MoveKind.PARK else self._removal_refusal(pos, places)

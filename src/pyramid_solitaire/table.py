"""A deal laid out under its rules: every rule of play as a function of a compact
:class:`~.packed.Position`, and the validated path that says why an action is refused.

This module and :mod:`.board` are the one place the rules of play are written.  :class:`Table` is
:class:`~.board.Board` (the fast path: legal actions, what they do, the status; the solver, the hints and
the dead-card analysis call it) with the validated path on top: :meth:`Table.refusal` judges any action
and :meth:`Table.action_of` / :meth:`Table.move_of` name actions by typed moves.  :class:`~.game.Game`
(play, undo, outside input) holds a ``Table``.  Places, positions and the packed actions are described
in :mod:`.board` and :mod:`.packed`.
"""

from __future__ import annotations

from .board import Board
from .layout import bits
from .moves import Move
from .packed import DRAW_ACTION, PAIR, RECYCLE_ACTION, TRIPLE, Action, Position, action_places, kind_of
from .reasons import Fact, Refusal, equation, value_text
from .vocabulary import MoveKind


class Table(Board):
    """``deal`` compiled for play (:class:`~.board.Board`), and why an action is refused."""

    # --- why not: the refusals, by the action's kind ---------------------------------------------------

    def spent_waste(self, pos: Position, place: int) -> Refusal | None:
        """The refusal for a waste card whose uses are spent (``place`` not usable), else ``None``."""
        if self.waste_limit is not None and place in self.waste_cards(pos):
            return Refusal("waste-uses-used-up", {"uses": self.waste_limit})
        return None

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

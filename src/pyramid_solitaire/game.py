"""A game in play: validated moves, undo and redo, counters, status, score, dead cards and the player's view.

``Game`` is the mutable board (python-chess style): ``legal_moves``, ``push`` / ``undo`` / ``redo``.
Every rule comes from :class:`~.table.Table`; ``Game`` only keeps history and counters.  A refused
action raises :class:`~.reasons.IllegalMoveError` and changes nothing.

Counters follow seed 000: ``moves`` counts removals, draws and recycles (a redo is the move made again,
so it counts too) and never goes down; ``undos`` counts undo taps (a rewind is one); ``hints`` counts
plain hints asked for and ``coach_hints`` the solver's.  A player may give a game up (:meth:`Game.resign`):
its status is then ``resigned`` and it takes no more moves.  Everything a record holds (moves, undo, redo,
rewind, hints, resign; :mod:`.record`) is a method here, so a game is rebuilt from its record alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, TypedDict

from .analysis import dead_slots, plain_hint
from .board import PLAYING, WON
from .deal import Deal, parse_deal
from .layout import bits
from .messages import text
from .moves import PARK, REMOVE, Move
from .packed import Position
from .reasons import STATUS_KEY, IllegalMoveError, Refusal
from .rules import Rules
from .table import Table
from .vocabulary import Outcome

if TYPE_CHECKING:
    from .view import View

#: The status of a game the player gave up.
RESIGNED: Final = Outcome.RESIGNED

#: A game's final figures (:meth:`Game.summary`; ``pass`` is a Python keyword, hence this form).
GameSummary = TypedDict(
    "GameSummary",
    {
        "status": str,
        "score": int | None,
        "moves": int,
        "undos": int,
        "hints": int,
        "pyramid_left": int,
        "stock_left": int,
        "waste": list[str],
        "cells": list[str],
        "pass": int,
    },
)


@dataclass(frozen=True)
class Step:
    """One played move with the position before it; for a park, the free cell the player chose, if
    any (``None``: the first empty one).  Which cell holds a card is for the eye only: the rules and
    the solver see the cells as one set."""

    move: Move
    before: Position
    cell: int | None = None


class Game:
    """One game of one deal."""

    def __init__(self, deal: Deal | str, rules: Rules | str | None = None) -> None:
        if isinstance(deal, str):
            deal = parse_deal(deal, rules)
        self.deal = deal
        self.table = Table(deal)
        #: Each place's card token (the table's cards never change; every view writes many of them).
        self.tokens: tuple[str, ...] = tuple(str(card) for card in self.table.cards)
        self.position: Position = self.table.start()
        self.history: list[Step] = []
        self.redo_stack: list[Step] = []
        self.moves = 0
        self.undos = 0
        self.hints = 0
        self.coach_hints = 0
        self.resigned = False
        self._undo_floor = 0
        self._dead: tuple[Position | None, int] = (None, 0)
        #: index in ``history`` of the move after which the first dead card appeared (-1: from the deal).
        #: Found with every card known, so that with face-down rows a rewind goes back before the real
        #: cause; it is only offered once the player can see a dead card (see rewind_refusal).
        self.dead_cause: int | None = -1 if self._any_dead() else None

    # --- facts ------------------------------------------------------------------------------------

    @property
    def rules(self) -> Rules:
        """The rule set in play."""
        return self.deal.rules

    @property
    def status(self) -> str:
        """``playing``, ``won``, ``lost`` or ``stalemate`` (see :meth:`.table.Table.status`), or
        ``resigned``."""
        return RESIGNED if self.resigned else self.table.status(self.position)

    @property
    def over(self) -> bool:
        """True once the game has ended (won, lost, stalemate or resigned)."""
        return self.status != PLAYING

    @property
    def score(self) -> int | None:
        """Points under the rule set's scheme, ``None`` if it keeps no score."""
        return self.table.score(self.position)

    @property
    def pyramid_left(self) -> int:
        """Pyramid cards not yet removed (in place, or parked in a free cell)."""
        return self.table.pyramid_left(self.position)

    @property
    def stock_left(self) -> int:
        """Cards still face down in the stock."""
        return self.table.stock_left(self.position)

    @property
    def pass_number(self) -> int:
        """The pass through the stock under way, from 1."""
        return self.table.pass_number(self.position)

    def stock_label(self, lang: str = "ja") -> str:
        """``2/3周目 · 残り 17`` (seed 001), or ``Pass 2/3 · 17 left``."""
        passes = self.rules.passes
        key = "stock.label" if passes is not None else "stock.label.unlimited"
        return text(lang, key, number=self.pass_number, passes=passes, left=self.stock_left)

    def status_message(self, lang: str = "ja") -> str | None:
        """The end-of-game announcement, or ``None`` while playing."""
        status = self.status
        if status == PLAYING:
            return None
        return text(lang, STATUS_KEY.format(status))

    # --- moves ------------------------------------------------------------------------------------

    # The table's actions are packed for the solver; a game names each by its typed Move, and the table
    # alone reads the packing (Table.action_of, move_of and refusal).

    def check(self, move: Move) -> Refusal | None:
        """Why ``move`` would be refused now, or ``None`` if it is legal.  Changes nothing."""
        if self.resigned:
            return Refusal("game-over")
        action = self.table.action_of(move)
        if isinstance(action, Refusal):
            return action
        return self.table.refusal(self.position, action)

    def legal_moves(self) -> list[Move]:
        """Every move legal now."""
        if self.resigned:
            return []
        return [self.table.move_of(a) for a in self.table.actions(self.position)]

    def is_legal(self, move: Move) -> bool:
        """True if ``move`` may be played now."""
        return self.check(move) is None

    def push(self, move: Move | str, cell: int | None = None) -> Move:
        """Play ``move`` (a Move or its notation).  ``cell`` puts a park in that free cell (0 is the
        first; it must be empty) rather than the first empty one.  Raises IllegalMoveError, changing
        nothing; ValueError for a ``cell`` that is not one of the rule set's cells or not a park's."""
        if isinstance(move, str):
            move = Move.parse(move)
        if cell is not None:
            if move.kind != PARK:
                raise ValueError(f"only a park goes to a free cell, not {move}")
            if not 0 <= cell < self.rules.cells:
                raise ValueError(f"no free cell {cell} (this game has {self.rules.cells}, from 0)")
        refusal = self.check(move)
        if refusal is None and cell is not None and self.cell_slots()[cell] is not None:
            refusal = Refusal("cell-taken", {"n": cell + 1})
        if refusal is not None:
            raise IllegalMoveError(refusal)
        self._apply(move, cell)
        self.redo_stack.clear()
        return move

    def cell_slots(self) -> list[int | None]:
        """The place parked in each free cell, left to right (``None``: empty).  A card goes to the cell
        chosen for it, or else the first empty one, and stays there until it is removed, so the others
        never shift; replayed from the moves, so undo and redo put a card back where it was."""
        if not self.rules.cells:
            return []  # no free cells: nothing to replay (this runs for every state the web app sends)
        table = self.table
        slots: list[int | None] = [None] * self.rules.cells
        for step in self.history:
            if step.move.kind == PARK:
                place = table.place_of[step.move.cards[0]]
                slot = step.cell if step.cell is not None and slots[step.cell] is None else slots.index(None)
                slots[slot] = place
            elif step.move.kind == REMOVE:
                places = {table.place_of[card] for card in step.move.cards}
                slots = [None if place in places else place for place in slots]
        return slots

    def _apply(self, move: Move, cell: int | None = None) -> None:
        action = self.table.action_of(move)
        assert not isinstance(action, Refusal)
        self.history.append(Step(move, self.position, cell))
        self.position = self.table.apply(self.position, action)
        self.moves += 1
        limit = self.rules.undo_limit
        if limit is not None:
            self._undo_floor = max(self._undo_floor, len(self.history) - limit)
        if self.dead_cause is None and self._any_dead():
            self.dead_cause = len(self.history) - 1

    def tap_stock(self) -> Move:
        """What tapping the stock does: draw, or recycle when the stock is empty.  Raises with the
        refusal (``passes-used-up`` → ``3周めくり終えました``) when neither is possible."""
        if self.table.can_draw(self.position):
            return self.push(Move.draw())
        refusal = self.check(Move.recycle())
        if refusal is not None:
            raise IllegalMoveError(refusal)
        return self.push(Move.recycle())

    def undo_refusal(self) -> Refusal | None:
        """Why undo is refused now, or ``None``."""
        if self.resigned or self.status == WON:
            return Refusal("game-over")
        if not self.history:
            return Refusal("nothing-to-undo")
        if len(self.history) <= self._undo_floor:
            return Refusal("undo-limit", {"limit": self.rules.undo_limit})
        return None

    def undo(self) -> Move:
        """Take back the last move (counts one undo).  Raises IllegalMoveError when refused."""
        refusal = self.undo_refusal()
        if refusal is not None:
            raise IllegalMoveError(refusal)
        self.undos += 1
        return self._pop()

    def _pop(self) -> Move:
        step = self.history.pop()
        self.redo_stack.append(step)
        self.position = step.before
        if self.dead_cause is not None and self.dead_cause >= len(self.history):
            self.dead_cause = None
        return step.move

    def redo_refusal(self) -> Refusal | None:
        """Why redo is refused now, or ``None``: as undo, ``game-over`` once the game is won or resigned
        (an undone move is still on the redo stack after a resignation)."""
        if self.resigned or self.status == WON:
            return Refusal("game-over")
        if not self.redo_stack:
            return Refusal("nothing-to-redo")
        return None

    def redo(self) -> Move:
        """Play again the last undone move (counts as a move).  Raises IllegalMoveError when refused."""
        refusal = self.redo_refusal()
        if refusal is not None:
            raise IllegalMoveError(refusal)
        step = self.redo_stack.pop()
        self._apply(step.move, step.cell)
        return step.move

    # --- dead cards and rewind (崩れる前に戻す) ------------------------------------------------------

    def _any_dead(self) -> bool:
        return bool(dead_slots(self.table, self.position, visible_only=False))

    def dead_mask(self) -> int:
        """Bitmask of the dead pyramid slots the player can see (kept for the position it was found for:
        a state asks three times)."""
        position, mask = self._dead
        if position is not self.position:
            mask = dead_slots(self.table, self.position)
            self._dead = (self.position, mask)
        return mask

    @property
    def dead_cards(self) -> list[str]:
        """The dead cards the player can see, as tokens."""
        return [str(self.table.cards[s]) for s in bits(self.dead_mask())]

    @property
    def rewind_point(self) -> int | None:
        """Moves played before the move that made the first dead card (``None`` if none, or if the deal
        itself had one)."""
        if self.dead_cause is None or self.dead_cause < 0:
            return None
        return self.dead_cause

    def rewind_refusal(self) -> Refusal | None:
        """Why rewinding is refused now, or ``None``."""
        point = self.rewind_point
        if not self.dead_mask():
            return Refusal("no-dead-card")
        if point is None:
            return Refusal("dead-from-start")
        if point < self._undo_floor:
            return Refusal("undo-limit", {"limit": self.rules.undo_limit})
        return self.undo_refusal()

    def rewind(self) -> list[Move]:
        """Go back to just before the move that made the first dead card; counts as one undo."""
        refusal = self.rewind_refusal()
        if refusal is not None:
            raise IllegalMoveError(refusal)
        point = self.rewind_point
        assert point is not None
        undone = []
        while len(self.history) > point:
            undone.append(self._pop())
        self.undos += 1
        return undone

    # --- hints ----------------------------------------------------------------------------------------

    def hint(self) -> Move | None:
        """The plain hint (seed 001): a removable pair or king, else draw/recycle; counts one hint."""
        if self.resigned or self.status == WON:
            return None
        action = plain_hint(self.table, self.position)
        if action is None:
            return None
        self.hints += 1
        return self.table.move_of(action)

    def count_coach_hint(self) -> None:
        """Count one solver's hint (the solver gives it, :mod:`.solver.coach`; the game keeps the count)."""
        if self.over:
            raise IllegalMoveError(Refusal("game-over"))
        self.coach_hints += 1

    def resign(self) -> None:
        """Give the game up (投了): it ends as a loss, status ``resigned``."""
        if self.over:
            raise IllegalMoveError(Refusal("game-over"))
        self.resigned = True

    # --- views ------------------------------------------------------------------------------------------

    def view(self, lang: str | None = None) -> View:
        """What the player may see of this game, as JSON-ready data (texts in ``lang`` only, if given).
        Face-down pyramid cards and the order of the stock are never in it."""
        from .view import player_view

        return player_view(self, lang)

    def summary(self) -> GameSummary:
        """The final figures ``replay --json`` prints."""
        table = self.table
        waste = [str(table.cards[p]) for p in table.waste(self.position)]
        return {
            "status": self.status,
            "score": self.score,
            "moves": self.moves,
            "undos": self.undos,
            "hints": self.hints,
            "pyramid_left": self.pyramid_left,
            "stock_left": self.stock_left,
            "waste": waste,
            "cells": [str(table.cards[p]) for p in table.in_cells(self.position)],
            "pass": self.pass_number,
        }

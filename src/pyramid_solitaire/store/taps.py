"""The records of schema 1, which kept taps, turned into the moves and events that schema 2 keeps.

Up to schema 1 the store kept every action the page sent — taps on cards (selections, deselections and
refused taps among them), taps on the stock and on free cells, moves in notation, and the commands —
and a game was rebuilt by replaying them through the web layer's tap behaviour of that version.  That
behaviour is written down here, once, for the one thing that still needs it: converting those records
(:func:`entries_of`, used by the schema-2 migration and by the import of a version-1 export file).
Nothing else reads taps any more.

The tap behaviour of schema 1: a usable card that can go alone (a king) went at once, even with other
cards chosen, unless it completed a removal with them; otherwise it was chosen; a card that completed a
legal removal with the chosen ones removed them; one that continued a triple was chosen too; any other
second card was refused and cleared the selection — or, in ``pyramide``, stayed chosen by itself.  A
chosen card tapped again was put down.  A tap on a covered, removed or face-down card changed nothing.
The stock drew or recycled; a free cell took the one chosen card.  Every answered action was recorded,
refused taps and hints asked at the end included (a refused *command* never was).
"""

from __future__ import annotations

import contextlib
from typing import Final

from ..cards import Card, CardError
from ..game import Game
from ..moves import Move, MoveError
from ..reasons import IllegalMoveError
from ..record import COACH, HINT, REDO, RESIGN, REWIND, UNDO, Entry, Parked

#: Presets where a refused pair kept its second card chosen (seed 000), as the version that wrote tap
#: records had it: a fact of those records, so it stays here even if rules.PRESET_MANNERS changes.
KEEP_SECOND: Final = frozenset({"pyramide"})
#: The commands of schema 1 that are entries of a record as they are.
COMMANDS: Final = {"undo": UNDO, "redo": REDO, "rewind": REWIND, "hint": HINT, "coach": COACH, "resign": RESIGN}


class _Taps:
    """A game and the selection of schema 1's page, replayed tap by tap.  ``strict``: a move or command
    that is refused raises (schema 1 never recorded one; a file that holds one was edited), rather than
    being passed over as the migration does."""

    def __init__(self, game: Game, strict: bool = False) -> None:
        self.game = game
        self.strict = strict
        self.selected: list[Card] = []

    def _removes(self, cards: list[Card]) -> bool:
        return self.game.check(Move.remove(*cards)) is None

    def _continues(self, cards: list[Card]) -> bool:
        table = self.game.table
        places = {table.place_of[c] for c in cards}
        return any(places < set(r) for r in table.removals(self.game.position))

    def _keep_usable(self) -> None:
        usable = set(self.game.table.usable(self.game.position))
        self.selected = [c for c in self.selected if self.game.table.place_of[c] in usable]

    def tap(self, arg: str) -> Entry | None:
        """A tap on a card (token or ``#slot``): the removal it made, or None."""
        game = self.game
        table = game.table
        if arg.startswith("#"):
            try:
                slot = int(arg[1:])
            except ValueError:
                return None
            if not 0 <= slot < table.board_size:
                return None
            if not table.visible(game.position) >> slot & 1 and game.position.pyramid >> slot & 1:
                return None  # a face-down card: refused
            card = table.cards[slot]
        else:
            try:
                card = Card.parse(arg)
            except CardError:
                return None
        place = table.place_of.get(card)
        if game.over or place is None:
            return None
        if card in self.selected:
            self.selected.remove(card)
            return None
        usable = place in table.usable(game.position)
        if not usable and not any(place in r for r in table.removals(game.position)):
            return None
        if self._removes([card]) and (not self.selected or not self._removes([*self.selected, card])):
            return self._remove([card])
        chosen = [*self.selected, card]
        if len(chosen) == 1:
            self.selected = chosen
            return None
        if self._removes(chosen):
            return self._remove(chosen)
        if self._continues(chosen):
            self.selected = chosen
            return None
        self.selected = [card] if game.rules.preset in KEEP_SECOND else []
        return None

    def _remove(self, cards: list[Card]) -> Entry:
        move = self.game.push(Move.remove(*cards))
        self.selected = []
        return move

    def stock(self) -> Entry | None:
        if self.game.over:
            return None
        try:
            move = self.game.tap_stock()
        except IllegalMoveError:
            return None
        self._keep_usable()
        return move

    def cell(self, arg: str | None) -> Entry | None:
        game = self.game
        if game.over or not game.rules.cells or len(self.selected) != 1:
            return None
        cell = int(arg) if arg is not None and arg.isdigit() and int(arg) < game.rules.cells else None
        if arg is not None and cell is None:
            return None
        move = Move.park(self.selected[0])
        try:
            game.push(move, cell)
        except IllegalMoveError:
            return None
        self.selected = []
        return move if cell is None else Parked(move, cell)

    def move(self, arg: str | None) -> Entry | None:
        try:
            move = self.game.push(Move.parse(arg or ""))
        except (IllegalMoveError, MoveError):
            if self.strict:
                raise
            return None
        self._keep_usable()
        return move

    def command(self, name: str) -> Entry | None:
        entry = COMMANDS[name]
        game = self.game
        try:
            if entry == UNDO:
                game.undo()
            elif entry == REDO:
                game.redo()
            elif entry == REWIND:
                game.rewind()
            elif entry == HINT:
                if game.over or game.hint() is None:
                    return None  # a hint at the end was answered "refused" and counted nothing
            elif entry == COACH:
                game.count_coach_hint()
            else:
                game.resign()
        except IllegalMoveError:
            if self.strict and entry in (UNDO, REDO, REWIND, RESIGN):
                raise
            return None
        if entry in (UNDO, REDO, REWIND, RESIGN):
            self.selected = []
        return entry


def entries_of(game: Game, actions: list[tuple[str, str | None]], strict: bool = False) -> list[tuple[int, Entry]]:
    """Replay schema 1's actions on ``game`` (fresh, at the deal) and return the entries they made, each
    with the index of the action that made it; ``game`` is left where the actions leave it.  Actions that
    changed nothing (selections, refused taps, deselections) make no entry; an unknown kind is skipped.
    ``strict`` (an import): a refused move or command raises IllegalMoveError or MoveError."""
    taps = _Taps(game, strict)
    out: list[tuple[int, Entry]] = []
    for index, (kind, arg) in enumerate(actions):
        made: Entry | None = None
        # the migration: a refused action (a record written by hand) is no entry
        with contextlib.suppress(*(() if strict else (IllegalMoveError,))):
            if kind == "tap" and arg is not None:
                made = taps.tap(arg)
            elif kind == "stock":
                made = taps.stock()
            elif kind == "cell":
                made = taps.cell(arg)
            elif kind == "move":
                made = taps.move(arg)
            elif kind == "deselect":
                taps.selected = []
            elif kind in COMMANDS:
                made = taps.command(kind)
        if made is not None:
            out.append((index, made))
    return out

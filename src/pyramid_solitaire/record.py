"""Game records: a few ``Key: value`` header lines, a blank line, then the moves (docs/rules.md).

``Rules:`` and ``Deal:`` (a deal code or the notation) are required; other headers are kept as they
are.  Moves are separated by ``;`` or new lines.  Besides the moves of docs/rules.md a record may contain
``undo`` and ``redo``, so that a whole session — including what was taken back — can be replayed and
its counters checked.  This module depends on the engine; the engine never imports it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Final

from .deal import DealError, parse_deal
from .game import Game
from .moves import Move, MoveError
from .reasons import IllegalMoveError, Refusal
from .rules import RulesError, find_rules

UNDO: Final = "undo"
REDO: Final = "redo"
_HEADER_RE: Final = re.compile(r"^([A-Za-z][A-Za-z0-9_-]*):\s*(.*)$")
_SEPARATORS: Final = re.compile(r"[;\n]")
Entry = Move | str


class RecordError(ValueError):
    """A record that cannot be read (missing header, bad deal, bad move notation)."""


@dataclass
class Record:
    """A parsed record: the headers, the game it starts, and its entries (moves, ``undo``, ``redo``)."""

    headers: dict[str, str]
    entries: list[Entry] = field(default_factory=list)

    def new_game(self) -> Game:
        """A fresh game of the record's deal under its rules."""
        try:
            rules = find_rules(self.headers["Rules"])
            deal = parse_deal(self.headers["Deal"], rules)
        except (RulesError, DealError) as exc:
            raise RecordError(str(exc)) from None
        return Game(deal)


@dataclass
class ReplayResult:
    """The game after replaying a record, and the refusal that stopped it, if any."""

    game: Game
    refusal: Refusal | None = None
    failed_at: int | None = None  # 1-based entry number of the refused entry
    failed_entry: str | None = None


def read_record(text: str) -> Record:
    """Parse a record; raise :class:`RecordError` naming the line that is wrong."""
    lines = text.splitlines()
    headers: dict[str, str] = {}
    index = 0
    while index < len(lines) and lines[index].strip():
        line = lines[index]
        match = _HEADER_RE.match(line.strip())
        if not match:
            raise RecordError(f"line {index + 1}: expected a header 'Key: value', got {line.strip()!r}")
        headers[match.group(1).capitalize() if match.group(1).lower() in ("rules", "deal")
                else match.group(1)] = match.group(2).strip()
        index += 1
    for required in ("Rules", "Deal"):
        if required not in headers:
            raise RecordError(f"record has no {required}: header")
    entries: list[Entry] = []
    for number, line in enumerate(lines[index:], start=index + 1):
        line = line.split("#", 1)[0]  # a comment runs to the end of its line
        for part in _SEPARATORS.split(line):
            word = part.strip()
            if not word:
                continue
            if word.lower() in (UNDO, REDO):
                entries.append(word.lower())
                continue
            try:
                entries.append(Move.parse(word))
            except MoveError as exc:
                raise RecordError(f"line {number}: {exc}") from None
    record = Record(headers, entries)
    record.new_game()  # validates Rules and Deal now, so a bad record fails to read
    return record


def replay(record: Record) -> ReplayResult:
    """Play every entry; stop at the first refused one (reported, not raised)."""
    game = record.new_game()
    for number, entry in enumerate(record.entries, start=1):
        try:
            if entry == UNDO:
                game.undo()
            elif entry == REDO:
                game.redo()
            else:
                assert isinstance(entry, Move)
                game.push(entry)
        except IllegalMoveError as exc:
            return ReplayResult(game, exc.refusal, number, str(entry))
    return ReplayResult(game)


def write_record(game: Game, extra_headers: dict[str, str] | None = None) -> str:
    """A record of ``game``'s moves from the start to the current position (undone moves left out)."""
    deal = game.deal
    headers = {"Rules": str(game.rules), "Deal": deal.code}
    headers.update(extra_headers or {})
    head = "\n".join(f"{key}: {value}" for key, value in headers.items())
    moves = "\n".join(str(step.move) for step in game.history)
    return f"{head}\n\n{moves}\n" if moves else f"{head}\n\n"

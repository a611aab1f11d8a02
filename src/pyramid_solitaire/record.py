"""Game records: a few ``Key: value`` header lines, a blank line, then the moves (docs/rules.md).

``Rules:`` and ``Deal:`` (a deal code or the notation) are required; other headers are kept as they
are.  Moves are separated by ``;`` or new lines.  Besides the moves of docs/rules.md a record may contain
the events of a session — ``undo``, ``redo``, ``rewind`` (崩れる前に戻す), ``hint``, ``coach`` (a solver's
hint) and ``resign`` — so that a whole session, including what was taken back and the help asked for,
is replayed with its counters; and a park may name its free cell, ``Qs>cell2`` (the second), where the
player put the card (``Qs>cell``: the first empty one).  This is the format the web app keeps its games
in and exports them as.  This module depends on the engine; the engine never imports it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Final

from .deal import DealError, parse_deal
from .game import Game
from .messages import Problem
from .moves import Move, MoveError
from .reasons import IllegalMoveError, Refusal
from .rule_strings import find_rules
from .rules import RulesError
from .vocabulary import Event

UNDO: Final = Event.UNDO
REDO: Final = Event.REDO
REWIND: Final = Event.REWIND
HINT: Final = Event.HINT
COACH: Final = Event.COACH
RESIGN: Final = Event.RESIGN
#: The words of a record that are events, not moves.
EVENTS: Final = tuple(Event)
_HEADER_RE: Final = re.compile(r"^([A-Za-z][A-Za-z0-9_-]*):\s*(.*)$")
_SEPARATORS: Final = re.compile(r"[;\n]")
_CELL_RE: Final = re.compile(r"^(.*>\s*cell)\s*([0-9]+)$", re.IGNORECASE)


@dataclass(frozen=True)
class Parked:
    """A park into a chosen free cell: ``cell`` counts from 0; written ``Qs>cell2`` (from 1)."""

    move: Move
    cell: int

    def __str__(self) -> str:
        return f"{self.move}{self.cell + 1}"


Entry = Move | Parked | str


class RecordError(Problem, ValueError):
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
            raise RecordError("record.game", problem=exc) from None
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
            raise RecordError("record.header", line=index + 1, text=line.strip())
        key = match.group(1).capitalize() if match.group(1).lower() in ("rules", "deal") else match.group(1)
        if key in headers:  # two Rules: lines, say: which one was meant?
            raise RecordError("record.header-twice", line=index + 1, header=key)
        headers[key] = match.group(2).strip()
        index += 1
    for required in ("Rules", "Deal"):
        if required not in headers:
            raise RecordError("record.missing-header", header=required)
    entries: list[Entry] = []
    for number, line in enumerate(lines[index:], start=index + 1):
        line = line.split("#", 1)[0]  # a comment runs to the end of its line
        for part in _SEPARATORS.split(line):
            word = part.strip()
            if not word:
                continue
            try:
                entries.append(parse_entry(word))
            except MoveError as exc:
                raise RecordError("record.line", line=number, problem=exc) from None
    record = Record(headers, entries)
    record.new_game()  # validates Rules and Deal now, so a bad record fails to read
    return record


def parse_entry(word: str) -> Entry:
    """One entry of a record: an event word, a move, or a park into a numbered cell.  Raises MoveError."""
    lowered = word.strip().lower()
    if lowered in EVENTS:
        return lowered
    numbered = _CELL_RE.match(word.strip())
    if numbered:
        number = int(numbered.group(2))
        if number < 1:
            raise MoveError("move.cell-from-one", move=word.strip())
        move = Move.parse(numbered.group(1))
        return Parked(move, number - 1)
    return Move.parse(word)


def play_entry(game: Game, entry: Entry) -> Move | list[Move] | None:
    """Do one entry to ``game``: what it played or took back (the moves undone by a rewind; the hint's
    move; None for coach and resign).  Raises IllegalMoveError (a refused move or event, or a free cell
    the rules do not have), changing nothing."""
    if isinstance(entry, Parked):
        if not game.rules.cells:
            raise IllegalMoveError(Refusal("no-cells"))
        if entry.cell >= game.rules.cells:
            raise IllegalMoveError(Refusal("no-such-cell", {"n": entry.cell + 1, "cells": game.rules.cells}))
        return game.push(entry.move, entry.cell)
    if isinstance(entry, Move):
        return game.push(entry)
    if entry == UNDO:
        return game.undo()
    if entry == REDO:
        return game.redo()
    if entry == REWIND:
        return game.rewind()
    if entry == HINT:
        hint = None if game.over else game.hint()
        if hint is None:
            raise IllegalMoveError(Refusal("game-over"))
        return hint
    if entry == COACH:
        game.count_coach_hint()
        return None
    if entry == RESIGN:
        game.resign()
        return None
    raise ValueError(f"unknown record entry {entry!r}")


def replay(record: Record) -> ReplayResult:
    """Play every entry; stop at the first refused one (reported, not raised)."""
    game = record.new_game()
    for number, entry in enumerate(record.entries, start=1):
        try:
            play_entry(game, entry)
        except IllegalMoveError as exc:
            return ReplayResult(game, exc.refusal, number, str(entry))
    return ReplayResult(game)


def format_record(headers: dict[str, str], entries: list[Entry]) -> str:
    """The text of a record: the headers, a blank line, one entry per line."""
    head = "\n".join(f"{key}: {value}" for key, value in headers.items())
    body = "".join(f"{entry}\n" for entry in entries)
    return f"{head}\n\n{body}"


def write_record(game: Game, extra_headers: dict[str, str] | None = None) -> str:
    """A record of ``game``'s moves from the start to the current position (undone moves left out; a
    park names its free cell when the player chose one)."""
    headers = {"Rules": str(game.rules), "Deal": game.deal.code}
    headers.update(extra_headers or {})
    return format_record(
        headers, [step.move if step.cell is None else Parked(step.move, step.cell) for step in game.history]
    )

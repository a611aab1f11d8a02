"""A game as the store records it, and one entry of its record: plain values, shared by the store and
its parts (:mod:`.days`) and by whoever reads them."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Final, TypedDict, TypeVar

from sqlalchemy import Connection, Engine, RowMapping, Select

from ..messages import Problem
from .schema import CODE_LENGTH, RULES_LENGTH

#: Where a game came from (the ``imported`` column): played on this server, read from a records file (an
#: export of this or another server's games, their times as that server measured them), or played offline
#: in a browser's engine and sent with ``POST /api/me/sync``.  The last one's times are the browser's word,
#: so those games are in no rank by time (docs/daily.md); all count in statistics.

PLAYED_HERE: Final = 0
FROM_FILE: Final = 1
PLAYED_OFFLINE: Final = 2


@dataclass(frozen=True)
class GameRow:
    """A game as recorded."""

    id: str
    player_id: str
    rules: str
    preset: str
    difficulty: str
    code: str
    deal: str
    started_ms: int
    ended_ms: int | None
    result: str | None
    moves: int
    undos: int
    hints: int
    pyramid_removed: int
    version: int
    imported: int = 0
    #: The day of the daily deal this game is (``YYYY-MM-DD``), and 1 when it counts for that day.
    daily: str | None = None
    daily_counted: int = 0
    #: The daily challenge this game was started for (``YYYY-MM-DD-<kind>``), if any.
    challenge: str | None = None


class PlayerRow(TypedDict):
    """A player as recorded (the ``players`` table's row)."""

    id: str
    name: str | None
    created_ms: int
    stats_reset_ms: int


class PlayerGames(TypedDict):
    """A player and the number of their games (the ``stats`` command lists them)."""

    id: str
    name: str | None
    games: int


class LeaderRow(TypedDict):
    """A win on a deal's leaderboard: the game, its player and their name, the milliseconds it took, its
    moves and when it ended."""

    id: str
    player_id: str
    name: str | None
    ms: int
    moves: int
    ended_ms: int


#: What a read's rows are made into: a row's TypedDict or a dataclass such as :class:`GameRow`.
_Shape = TypeVar("_Shape")


def shaped(make: Callable[..., _Shape], row: Mapping[str, object] | RowMapping) -> _Shape:
    """A row read by column name as ``make`` takes it (its column names are ``make``'s keys or fields: the
    query's columns say so, which the type checker cannot see)."""
    return make(**row)


@dataclass(frozen=True)
class Action:
    """One recorded entry: ``kind`` ``move`` with the move's notation as ``arg``, or an event (undo, redo,
    rewind, hint, coach, resign) with no argument."""

    seq: int
    kind: str
    arg: str | None
    at_ms: int


def now_ms() -> int:
    """Wall-clock time in milliseconds (what the records keep)."""
    return int(time.time() * 1000)


def unrecordable(rules: str, code: str) -> Problem | None:
    """Why a game of this rule set and deal code cannot be recorded, or None.  A few valid option combinations
    are written longer than the columns (PostgreSQL refuses them; SQLite would keep them): they are refused
    alike on both, naming the length."""
    if len(rules) > RULES_LENGTH:
        return Problem("store.too-long-rules", rules=rules[:40], length=len(rules), most=RULES_LENGTH)
    if len(code) > CODE_LENGTH:
        return Problem("store.too-long-code", code=code[:40], length=len(code), most=CODE_LENGTH)
    return None


class Rows:
    """What the parts of the store (:mod:`.days`, :mod:`.boards`) read of :class:`..Store`, their
    subclass: the database and its ways in."""

    engine: Engine

    def _tx(self) -> AbstractContextManager[Connection]:
        raise NotImplementedError

    def _told(self) -> AbstractContextManager[None]:
        raise NotImplementedError

    def _read(
        self,
        key: object,
        query: Callable[[], Select[*tuple[object, ...]]],
        values: Mapping[str, object],
        make: Callable[..., _Shape],
    ) -> list[_Shape]:
        raise NotImplementedError

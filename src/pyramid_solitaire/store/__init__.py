"""Players' records in a real database (SQLAlchemy Core): SQLite by default, PostgreSQL by URL.

:class:`Store` is the only way in.  Every move and event of a game (an entry of its record,
:mod:`pyramid_solitaire.record`) is written — in one transaction that also advances the game's
``version`` — before the web app answers it, so a reload, a crash or a restart
resumes the game at the last answered action.  Two app processes may serve one player: an action is
recorded only if the game's version is still the one it was applied to, otherwise it is refused as a
conflict (:class:`Conflict`) and nothing is written.

Errors reaching a caller are :class:`StoreError`, a :class:`~..messages.Problem` whose message names the
database and the problem (an unreachable server, a bad URL), never a driver's stack trace; what the driver
itself said is kept as its own words (``reason``), which are English whatever the language.
"""

from __future__ import annotations

import errno
import secrets
import sqlite3
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Final, TypedDict, TypeVar

import psycopg
from sqlalchemy import (
    BigInteger,
    Connection,
    Engine,
    Integer,
    Select,
    String,
    and_,
    bindparam,
    create_engine,
    event,
    select,
    text,
)
from sqlalchemy.engine import make_url
from sqlalchemy.exc import (
    ArgumentError,
    DatabaseError,
    IntegrityError,
    NoSuchModuleError,
    OperationalError,
    SQLAlchemyError,
)

from ..messages import Problem
from ..vocabulary import RESULTS as FINISHED
from .boards import BoardRows
from .days import DayRows
from .direct import DirectPool, Statement
from .rows import (
    FROM_FILE,
    PLAYED_HERE,
    PLAYED_OFFLINE,
    Action,
    GameRow,
    LeaderRow,
    PlayerGames,
    PlayerRow,
    now_ms,
    shaped,
    unrecordable,
)
from .schema import (
    SchemaTooNew,
    actions,
    games,
    meta,
    migrate,
    players,
)
from .urls import _safe_url, _unsecret_url, hide_password

#: Results a finished game may have.
RESULTS: Final = tuple(str(result) for result in FINISHED)
#: How long a writer waits for SQLite's lock held by another process, in milliseconds.
SQLITE_BUSY_MS: Final = 10_000
SECRET_KEY: Final = "cookie-secret"
#: PostgreSQL connections a process keeps open, and how many more it may open under load (docs/deploy.md).
POOL_SIZE: Final = 10
POOL_OVERFLOW: Final = 5
#: The most PostgreSQL connections one app process opens in the ordinary way: SQLAlchemy's pool and its
#: overflow, and the kept connections of the per-move writes (store/direct.py).
CONNECTIONS_PER_PROCESS: Final = POOL_SIZE + POOL_OVERFLOW + POOL_SIZE
#: How PostgreSQL connections are made: a server that does not answer is given up after 5 s.
PG_CONNECT_ARGS: Final = {"connect_timeout": 5}
#: The password of a URL written ``scheme://user:password@host``.


#: The game's figures written with each action (what ``Session.summary`` gives).
SUMMARY: Final = ("started_ms", "moves", "undos", "hints", "pyramid_removed", "result", "ended_ms")
#: The two statements of :meth:`Store.record`, built once: building a statement and its cache key
#: on every action cost more than the commit's sync to disk (0.5 of 0.77 ms, docs/performance.md).
_ADVANCE: Final = (
    games.update()
    .where(and_(games.c.id == bindparam("game_id"), games.c.version == bindparam("before")))
    .values(version=bindparam("after"), **{name: bindparam(name) for name in SUMMARY})
)
_APPEND: Final = actions.insert().values(
    game_id=bindparam("game_id"),
    seq=bindparam("after"),
    kind=bindparam("kind"),
    arg=bindparam("arg"),
    at_ms=bindparam("at_ms"),
)
#: On PostgreSQL the two as one statement, run in autocommit: the UPDATE in a WITH clause, the INSERT
#: taking its one row only if the UPDATE found the game at its version.  One statement is atomic by
#: itself, so it is one round trip instead of four (BEGIN, UPDATE, INSERT, COMMIT); it adds a row
#: exactly when the two statements would (docs/performance.md, issue 24).  SQLite has no UPDATE in WITH.
_MOVED: Final = _ADVANCE.returning(games.c.id).cte("moved")
_RECORD_ONE: Final = (
    actions.insert()
    .from_select(
        ["game_id", "seq", "kind", "arg", "at_ms"],
        select(
            _MOVED.c.id,
            bindparam("after", type_=Integer),
            bindparam("kind", type_=String),
            bindparam("arg", type_=String),
            bindparam("at_ms", type_=BigInteger),
        ),
    )
    .returning(actions.c.seq)
)  # the row added, if any (the driver's rowcount is -1 for this statement)


#: The reads a finished game's result makes, and a new game's row, built once with named parameters: on
#: PostgreSQL they are sent straight (store/direct.py) — through SQLAlchemy each cost 0.5-1 ms of
#: processor time, and a won game's answer made three of them (docs/performance.md, issue 24).
_NEW_GAME: Final = games.insert().values({column.name: bindparam(column.name, type_=column.type) for column in games.c})


_Shape = TypeVar("_Shape")


class _EngineOptions(TypedDict, total=False):
    """What :meth:`Store._engine` gives ``create_engine`` besides the URL."""

    future: bool
    connect_args: dict[str, float]
    pool_pre_ping: bool
    pool_size: int
    max_overflow: int


class StoreError(Problem, RuntimeError):
    """The database cannot be used: unreachable, refused, or a bad URL.  The message says which."""


#: Why a folder could not be made, by errno name, as ``store.folder.<name>`` says it (others: ``other``).
_FOLDER_KEYS: Final = {
    "EACCES": "denied",
    "EPERM": "denied",
    "EROFS": "read-only",
    "ENOTDIR": "not-dir",
    "EEXIST": "exists",
    "ENOSPC": "full",
}


class Conflict(RuntimeError):
    """An action was applied to a version of the game that is no longer the latest."""


class Store(DayRows, BoardRows):
    """The records of one database."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.shown_url = _safe_url(url)
        #: The URL without its password, as a message gives it (a detail: the message keeps it on one line).
        self.public_url = _unsecret_url(url)
        self.engine = self._engine(url)
        #: Where :meth:`record` writes with one statement in autocommit (PostgreSQL; see .direct), else None.
        self.direct: DirectPool | None = None
        #: Reads sent straight on PostgreSQL, compiled once each: (statement, the names of its columns).
        self._reads: dict[object, tuple[Statement, list[str]]] = {}
        if self.engine.dialect.name == "postgresql":
            self.direct = DirectPool(self.engine, POOL_SIZE, PG_CONNECT_ARGS)
            self._record_sql = self.direct.compile(_RECORD_ONE)
            self._new_game_sql = self.direct.compile(_NEW_GAME)
        try:
            migrate(self.engine)
        except OperationalError as exc:
            raise StoreError("store.cannot-use", db=self.public_url, reason=_reason(exc)) from None
        except DatabaseError as exc:  # SQLite's answer for a file that is something else (a text file, say)
            if self.engine.dialect.name == "sqlite" and "not a database" in str(exc.orig):
                raise StoreError("store.not-sqlite", db=self.public_url) from None
            raise StoreError("store.cannot-use", db=self.public_url, reason=_reason(exc)) from None
        except SchemaTooNew as exc:
            raise StoreError("store.cannot-use-schema", db=self.public_url, problem=exc) from None
        self.secret = self._secret()

    def _engine(self, url: str) -> Engine:
        try:
            parsed = make_url(url)
        except (ArgumentError, ValueError):  # ValueError: e.g. a port that is not a number
            raise StoreError("store.not-url", url=_unsecret_url(url)) from None
        if parsed.drivername == "postgresql":
            parsed = parsed.set(drivername="postgresql+psycopg")
        options: _EngineOptions = {"future": True}
        if parsed.get_backend_name() == "sqlite":
            database = parsed.database or ""
            if not database or database == ":memory:":
                raise StoreError("store.sqlite-url", url=hide_password(url))
            if "\x00" in database:
                raise StoreError("store.nul", url=hide_password(url))
            try:
                database.encode()  # SQLite takes UTF-8 names: a lone surrogate (undecodable bytes in argv) is none
            except UnicodeEncodeError:
                raise StoreError("store.not-utf8", url=hide_password(url)) from None
            if parsed.query:  # ?mode=ro: the driver ignored it with a warning of its own on stderr
                names = ", ".join(sorted(parsed.query))
                raise StoreError("store.sqlite-options", url=hide_password(url), names=names)
            if Path(database).expanduser().is_dir():  # SQLite said only "unable to open database file"
                raise StoreError("store.is-folder", path=database)
            try:
                Path(database).expanduser().parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                kind = _FOLDER_KEYS.get(errno.errorcode.get(exc.errno or 0, ""), "other")
                raise StoreError(
                    f"store.folder.{kind}", path=database, reason=exc.strerror or type(exc).__name__
                ) from None
            options["connect_args"] = {"timeout": SQLITE_BUSY_MS / 1000}
        elif parsed.get_backend_name() == "postgresql":
            options["pool_pre_ping"] = True
            options["connect_args"] = dict(PG_CONNECT_ARGS)
            # At most 15 connections a process as before, but 10 kept open rather than 5: under the web
            # app's 40 handler threads the extra ones were opened and closed again, each a new backend.
            options["pool_size"], options["max_overflow"] = POOL_SIZE, POOL_OVERFLOW
        else:
            raise StoreError("store.unsupported", db=self.public_url, kind=parsed.get_backend_name())
        try:
            engine = create_engine(parsed, **options)
        except (NoSuchModuleError, ArgumentError) as exc:
            raise StoreError("store.bad-url", db=self.public_url, reason=_reason(exc)) from None
        except ImportError as exc:  # a driver SQLAlchemy knows but this installation lacks (psycopg2, aiosqlite)
            raise StoreError("store.no-driver", db=self.public_url, reason=str(exc)) from None
        except ValueError:  # a driver name SQLAlchemy cannot split, e.g. postgresql..
            raise StoreError("store.unknown-driver", db=self.public_url, driver=parsed.drivername) from None
        if engine.dialect.name == "sqlite":
            event.listen(engine, "connect", _sqlite_pragmas)
        return engine

    def close(self) -> None:
        """Release the connections."""
        if self.direct is not None:
            self.direct.close()
        self.engine.dispose()

    def connection_room(self) -> int | None:
        """How many connections the PostgreSQL server lets clients such as this one open in all (its
        ``max_connections`` less those kept for superusers); None for SQLite."""
        if self.direct is None:
            return None
        room = text(
            "SELECT current_setting('max_connections')::int - current_setting('superuser_reserved_connections')::int"
        )
        with self._tx() as connection:
            return int(connection.execute(room).scalar_one())

    def ping(self) -> None:
        """Ask the database the simplest question; raise :class:`StoreError` if it does not answer (``/healthz``)."""
        with self._tx() as connection:
            connection.execute(select(1))

    def _read(
        self,
        key: object,
        query: Callable[[], Select[*tuple[object, ...]]],
        values: Mapping[str, object],
        make: Callable[..., _Shape],
    ) -> list[_Shape]:
        """The rows of a read, each made by ``make`` from its columns by name: sent straight on PostgreSQL
        (the query is built and compiled the first time ``key`` is read), through SQLAlchemy on SQLite."""
        if self.direct is None:
            with self._tx() as connection:
                return [shaped(make, r) for r in connection.execute(query(), values).mappings().all()]
        found = self._reads.get(key)
        if found is None:
            built = query()
            found = self._reads[key] = (self.direct.compile(built), [column.name for column in built.selected_columns])
        statement, names = found
        with self._told():
            rows = self.direct.run(statement, values)
        return [shaped(make, dict(zip(names, row, strict=True))) for row in rows]

    @contextmanager
    def _tx(self) -> Iterator[Connection]:
        with self._told(), self.engine.begin() as connection:
            yield connection

    @contextmanager
    def _told(self) -> Iterator[None]:
        """The driver's errors, through SQLAlchemy or straight from psycopg (store/direct.py), as
        :class:`StoreError` (an IntegrityError left to the caller)."""
        try:
            yield
        except (IntegrityError, psycopg.IntegrityError):
            raise
        except (OperationalError, psycopg.OperationalError) as exc:
            raise StoreError("store.unreachable", db=self.public_url, reason=_reason(exc)) from None
        except (SQLAlchemyError, psycopg.Error) as exc:
            raise StoreError("store.refused", db=self.public_url, reason=_reason(exc)) from None

    def _secret(self) -> str:
        with self._tx() as connection:
            found = connection.execute(select(meta.c.value).where(meta.c.key == SECRET_KEY)).scalar()
            if found:
                return str(found)
        try:
            with self._tx() as connection:
                connection.execute(meta.insert().values(key=SECRET_KEY, value=secrets.token_urlsafe(32)))
        except IntegrityError:
            pass  # another process made it first
        with self._tx() as connection:
            return str(connection.execute(select(meta.c.value).where(meta.c.key == SECRET_KEY)).scalar_one())

    # --- players ------------------------------------------------------------------------------------

    def new_player(self) -> str:
        """A new anonymous player; returns the id."""
        player_id = secrets.token_urlsafe(18)
        with self._tx() as connection:
            connection.execute(players.insert().values(id=player_id, created_ms=now_ms()))
        return player_id

    def player(self, player_id: str) -> PlayerRow | None:
        """The player's row, or None."""
        with self._tx() as connection:
            row = connection.execute(select(players).where(players.c.id == player_id)).mappings().first()
        return shaped(PlayerRow, row) if row else None

    def set_name(self, player_id: str, name: str | None) -> None:
        """Set (or clear) the display name shown on leaderboards."""
        with self._tx() as connection:
            connection.execute(players.update().where(players.c.id == player_id).values(name=name))

    # --- games ----------------------------------------------------------------------------------------

    def create_game(self, row: GameRow) -> None:
        """Record a new game (version 0, no actions)."""
        if self.direct is not None:
            with self._told():
                self.direct.run(self._new_game_sql, row.__dict__)
            return
        with self._tx() as connection:
            connection.execute(_NEW_GAME, row.__dict__)

    def game(self, game_id: str) -> GameRow | None:
        """A game's row, or None."""
        if "\x00" in game_id:  # no key holds NUL (PostgreSQL refuses it in text: that is not "unreachable")
            return None
        with self._tx() as connection:
            found = connection.execute(select(games).where(games.c.id == game_id)).mappings().first()
        return GameRow(**found) if found else None

    def actions(self, game_id: str) -> list[Action]:
        """The game's actions in order."""
        with self._tx() as connection:
            rows = connection.execute(
                select(actions.c.seq, actions.c.kind, actions.c.arg, actions.c.at_ms)
                .where(actions.c.game_id == game_id)
                .order_by(actions.c.seq)
            ).all()
        return [Action(int(r.seq), str(r.kind), r.arg, int(r.at_ms)) for r in rows]

    def record(self, game_id: str, version: int, kind: str, arg: str | None, summary: Mapping[str, object]) -> None:
        """Write action ``version + 1`` and the game's new counters, atomically, if the game is still at
        ``version``; otherwise raise :class:`Conflict` and write nothing."""
        figures = {name: summary[name] for name in SUMMARY}
        if self.direct is not None:
            self._record_one(game_id, version, kind, arg, figures)
            return
        try:
            with self._tx() as connection:
                changed = connection.execute(
                    _ADVANCE, {"game_id": game_id, "before": version, "after": version + 1, **figures}
                ).rowcount
                if changed != 1:
                    raise Conflict(game_id)
                connection.execute(
                    _APPEND, {"game_id": game_id, "after": version + 1, "kind": kind, "arg": arg, "at_ms": now_ms()}
                )
        except IntegrityError:
            raise Conflict(game_id) from None

    def _record_one(
        self, game_id: str, version: int, kind: str, arg: str | None, figures: Mapping[str, object]
    ) -> None:
        assert self.direct is not None
        values = {"game_id": game_id, "before": version, "after": version + 1, "kind": kind, "arg": arg}
        try:
            with self._told():
                added = len(self.direct.run(self._record_sql, {**values, "at_ms": now_ms(), **figures}))
        except psycopg.IntegrityError:
            raise Conflict(game_id) from None
        if added != 1:
            raise Conflict(game_id)

    def import_games(self, records: list[tuple[GameRow, list[Action]]]) -> int:
        """Add whole games with their entries, all or none, in one transaction; returns how many were
        added.  A game the player already has — the same deal code started at the same millisecond, which
        is how a game exported and imported again (or listed twice in one file) is known — is not added
        again, so importing the same file twice adds nothing the second time."""
        added = 0
        with self._tx() as connection:
            for row, recorded in records:
                if (
                    connection.execute(
                        select(games.c.id)
                        .where(
                            and_(
                                games.c.player_id == row.player_id,
                                games.c.code == row.code,
                                games.c.started_ms == row.started_ms,
                            )
                        )
                        .limit(1)
                    ).first()
                    is not None
                ):
                    continue
                added += 1
                connection.execute(games.insert().values(**row.__dict__))
                if recorded:
                    connection.execute(
                        actions.insert(),
                        [
                            {"game_id": row.id, "seq": a.seq, "kind": a.kind, "arg": a.arg, "at_ms": a.at_ms}
                            for a in recorded
                        ],
                    )
        return added

    def games_of(self, player_id: str, finished: bool, limit: int = 50) -> list[GameRow]:
        """The player's unfinished (or finished) games, newest first."""
        condition = games.c.result.is_not(None) if finished else games.c.result.is_(None)
        order = games.c.ended_ms.desc() if finished else games.c.started_ms.desc()
        with self._tx() as connection:
            rows = (
                connection.execute(
                    select(games).where(and_(games.c.player_id == player_id, condition)).order_by(order).limit(limit)
                )
                .mappings()
                .all()
            )
        return [GameRow(**r) for r in rows]


def _sqlite_pragmas(dbapi_connection: sqlite3.Connection, _record: object) -> None:
    cursor = dbapi_connection.cursor()
    # WAL lets readers and one writer work at once across processes; FULL syncs every commit, so an
    # answered action survives a power cut too, not only a killed process.
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_MS}")
    cursor.close()


def _reason(exc: SQLAlchemyError | psycopg.Error) -> str:
    original = getattr(exc, "orig", None) or exc
    text = str(original).strip().splitlines()
    return text[0] if text else type(original).__name__


__all__ = [
    "FROM_FILE",
    "PLAYED_HERE",
    "PLAYED_OFFLINE",
    "RESULTS",
    "Action",
    "Conflict",
    "GameRow",
    "LeaderRow",
    "PlayerGames",
    "PlayerRow",
    "Store",
    "StoreError",
    "hide_password",
    "now_ms",
    "unrecordable",
]

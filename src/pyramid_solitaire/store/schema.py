"""The database schema (SQLAlchemy Core) and its migrations.

Migrations are a numbered list of functions kept here, with the version reached recorded in the
table ``schema_version``; :func:`migrate` runs the missing ones in order, in one transaction, on
start.  Alembic would add a configuration layer and a second description of the same few tables for
what is, here, a short linear history with no branches and no autogeneration; our own table keeps the
upgrade path in one file that a test runs from an empty database.

Tables:

* ``meta`` — key/value facts of the installation (the secret that signs player cookies, shared by
  every app process on the same database).
* ``players`` — anonymous players: an unguessable id, an optional display name, when their statistics
  were last reset.
* ``games`` — one row per game: rules, difficulty, deal code and notation, start and end, result, the
  counters, and ``version``, the number of actions recorded (the key of optimistic concurrency: an
  action is written only if the version it was applied to is still the latest).
* ``actions`` — the entries of a game's record in order (``seq`` from 1): ``kind`` ``move`` with the
  move's notation in ``arg`` (``Ad+Qs``, ``draw``, ``Qs>cell2``), or an event — ``undo``, ``redo``,
  ``rewind``, ``hint``, ``coach``, ``resign`` — with no argument (:mod:`pyramid_solitaire.record`).
  Playing them through the engine alone rebuilds the game exactly.
* ``pars`` — the par of a deal code (the fewest moves a win needs, :mod:`pyramid_solitaire.daily`),
  computed once: ``moves`` NULL when the search ran out of time ("unknown"), and the CPU seconds it took.

A game of the daily deal (schema 3) carries its day in ``daily`` (``YYYY-MM-DD``), and ``daily_counted``
1 when it was started on that day through the daily deal, so it counts for that day's leaderboard and
the player's streak; a missed day played later has 0.

A game started for a daily challenge (schema 4) carries the challenge's id in ``challenge``
(``YYYY-MM-DD-<kind>``); ``challenge_days`` keeps each day's set of challenges with their proofs, as
JSON, made once by whichever process first needs it (:mod:`pyramid_solitaire.challenges`).

Schema 1 kept taps there instead (selections and refused taps too) and needed the web page's tap
behaviour of that version to be rebuilt; migration 2 turns them into moves and events
(:mod:`.taps`), keeping each entry's time and every game's figures.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from sqlalchemy import (
    BigInteger,
    Column,
    Connection,
    Engine,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    inspect,
    select,
    text,
)

from ..messages import Problem

metadata = MetaData()
#: Characters a game's rule-set string and deal code may have (see :func:`pyramid_solitaire.store.unrecordable`).
RULES_LENGTH: Final = 200
CODE_LENGTH: Final = 120

schema_version = Table(
    "schema_version",
    metadata,
    Column("version", Integer, nullable=False),
)

meta = Table(
    "meta",
    metadata,
    Column("key", String(64), primary_key=True),
    Column("value", Text, nullable=False),
)

players = Table(
    "players",
    metadata,
    Column("id", String(64), primary_key=True),
    Column("name", String(40), nullable=True),
    Column("created_ms", BigInteger, nullable=False),
    Column("stats_reset_ms", BigInteger, nullable=False, server_default="0"),
)

games = Table(
    "games",
    metadata,
    Column("id", String(64), primary_key=True),
    Column("player_id", String(64), ForeignKey("players.id", ondelete="CASCADE"), nullable=False),
    Column("rules", String(RULES_LENGTH), nullable=False),
    Column("preset", String(32), nullable=False),
    Column("difficulty", String(1), nullable=False),
    Column("code", String(CODE_LENGTH), nullable=False),
    Column("deal", Text, nullable=False),
    Column("started_ms", BigInteger, nullable=False),
    Column("ended_ms", BigInteger, nullable=True),
    Column("result", String(16), nullable=True),  # won / lost / stalemate / resigned; NULL while playing
    Column("moves", Integer, nullable=False, server_default="0"),
    Column("undos", Integer, nullable=False, server_default="0"),
    Column("hints", Integer, nullable=False, server_default="0"),
    Column("pyramid_removed", Integer, nullable=False, server_default="0"),
    Column("version", Integer, nullable=False, server_default="0"),
    Column("imported", Integer, nullable=False, server_default="0"),
    Column("daily", String(10), nullable=True),
    Column("daily_counted", Integer, nullable=False, server_default="0"),
    Column("challenge", String(40), nullable=True),
)
Index("games_player", games.c.player_id, games.c.ended_ms)
Index("games_code", games.c.code, games.c.result)
#: Made by migration 3, with the columns it indexes.
DAILY_INDEX: Final = Index("games_daily", games.c.daily, games.c.daily_counted)
#: The columns migration 3 adds to ``games``, as it writes them.
DAILY_COLUMNS: Final = {"daily": "VARCHAR(10)", "daily_counted": "INTEGER NOT NULL DEFAULT 0"}

actions = Table(
    "actions",
    metadata,
    Column("game_id", String(64), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("kind", String(16), nullable=False),
    Column("arg", String(64), nullable=True),
    Column("at_ms", BigInteger, nullable=False),
)


pars = Table(
    "pars",
    metadata,
    Column("code", String(CODE_LENGTH), primary_key=True),
    Column("moves", Integer, nullable=True),
    Column("seconds", Float, nullable=False),
    Column("computed_ms", BigInteger, nullable=False),
)


class SchemaTooNew(Problem, RuntimeError):
    """The database was upgraded by a newer version of the program."""


def _v1(connection: Connection) -> None:
    """The first schema: the tables above but ``pars`` (``games`` as it is now: migration 3 adds only
    what is missing)."""
    metadata.create_all(connection, tables=[meta, players, games, actions])


def _v2(connection: Connection) -> None:
    """Taps become moves and events: every game's actions are replayed with schema 1's tap behaviour
    and replaced by the entries they made; ``version`` becomes the number of entries."""
    from ..deal import Deal
    from ..game import Game
    from .taps import entries_of

    game_ids = [row.id for row in connection.execute(select(games.c.id, games.c.code).order_by(games.c.id))]
    for game_id in game_ids:
        code = connection.execute(select(games.c.code).where(games.c.id == game_id)).scalar_one()
        recorded = connection.execute(
            select(actions.c.kind, actions.c.arg, actions.c.at_ms)
            .where(actions.c.game_id == game_id)
            .order_by(actions.c.seq)
        ).all()
        made = entries_of(Game(Deal.from_code(code)), [(r.kind, r.arg) for r in recorded])
        connection.execute(actions.delete().where(actions.c.game_id == game_id))
        rows = [
            {
                "game_id": game_id,
                "seq": seq,
                "kind": entry if isinstance(entry, str) else "move",
                "arg": None if isinstance(entry, str) else str(entry),
                "at_ms": recorded[index].at_ms,
            }
            for seq, (index, entry) in enumerate(made, start=1)
        ]
        if rows:
            connection.execute(actions.insert(), rows)
        connection.execute(games.update().where(games.c.id == game_id).values(version=len(rows)))


def _v3(connection: Connection) -> None:
    """The daily deal: ``games.daily`` and ``games.daily_counted`` with their index, and ``pars``."""
    present = {column["name"] for column in inspect(connection).get_columns("games")}
    for name, kind in DAILY_COLUMNS.items():
        if name not in present:
            connection.execute(text(f"ALTER TABLE games ADD COLUMN {name} {kind}"))
    if "games_daily" not in {index["name"] for index in inspect(connection).get_indexes("games")}:
        DAILY_INDEX.create(connection)
    pars.create(connection, checkfirst=True)


challenge_days = Table(
    "challenge_days",
    metadata,
    Column("day", String(10), primary_key=True),
    Column("payload", Text, nullable=False),
    Column("computed_ms", BigInteger, nullable=False),
)
CHALLENGE_INDEX: Final = Index("games_challenge", games.c.player_id, games.c.challenge)


def _v4(connection: Connection) -> None:
    """Daily challenges: ``games.challenge`` (the challenge a game was started for) with its index, and
    ``challenge_days`` (each day's set with its proofs, made once)."""
    present = {column["name"] for column in inspect(connection).get_columns("games")}
    if "challenge" not in present:
        connection.execute(text("ALTER TABLE games ADD COLUMN challenge VARCHAR(40)"))
    if "games_challenge" not in {index["name"] for index in inspect(connection).get_indexes("games")}:
        CHALLENGE_INDEX.create(connection)
    challenge_days.create(connection, checkfirst=True)


#: Migration n (1-based) brings the schema from version n-1 to n.  Append, never edit.
MIGRATIONS: Final[list[Callable[[Connection], None]]] = [_v1, _v2, _v3, _v4]
LATEST: Final = len(MIGRATIONS)


def current_version(connection: Connection) -> int:
    """The schema version of the database (0 when empty)."""
    if not inspect(connection).has_table("schema_version"):
        return 0
    version = connection.execute(select(schema_version.c.version)).scalar()
    return int(version or 0)


def migrate(engine: Engine) -> int:
    """Bring the database to the latest schema; returns the version it was at.  Safe to run from several
    processes at once: on PostgreSQL an advisory lock serialises them, SQLite serialises writers."""
    with engine.begin() as connection:
        if engine.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(734901)"))
        if not inspect(connection).has_table("schema_version"):
            schema_version.create(connection)
            connection.execute(schema_version.insert().values(version=0))
        start = current_version(connection)
        if start > LATEST:
            raise SchemaTooNew("store.schema-too-new", version=start, latest=LATEST)
        for number in range(start, LATEST):
            MIGRATIONS[number](connection)
            connection.execute(schema_version.update().values(version=number + 1))
    return start

"""Upgrading a database that schema 1 wrote (the tap protocol) to the move records of schema 2.

The fixture in ``fixtures/`` was made with the code of that version (``fixtures/make_schema1.py``): two
players, a dozen games — won, given up, unfinished, imported — played by taps, refused taps, selections
and deselections, the stock, free cells, moves in notation, undo, redo, hints and the coach.  With it,
that version recorded what each game showed and each player's statistics; after the upgrade every game
must be rebuilt, from its moves and events alone, to exactly that, on SQLite (the very file that
version wrote) and on PostgreSQL (the same rows loaded under schema 1).
"""

from __future__ import annotations

import json
import shutil
import uuid
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, insert, select

from pg_server import PostgresServer
from pyramid_solitaire.store import Store
from pyramid_solitaire.store.schema import (
    LATEST,
    MIGRATIONS,
    actions,
    current_version,
    games,
    meta,
    players,
    schema_version,
)
from pyramid_solitaire.store.stats import compute
from pyramid_solitaire.web.games import rebuild

FIXTURES = Path(__file__).parent / "fixtures"
EXPECTED: dict[str, Any] = json.loads((FIXTURES / "schema1.json").read_text())
#: What schema 2 keeps: moves and the events of a record, never taps.
ENTRY_KINDS = {"move", "undo", "redo", "rewind", "hint", "coach", "resign"}


@pytest.fixture(params=["sqlite", "postgresql"])
def schema1_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A database as schema 1 left it."""
    if request.param == "sqlite":
        path = tmp_path / "games.sqlite3"
        shutil.copy(FIXTURES / "schema1.sqlite3", path)
        return f"sqlite:///{path}"
    server: PostgresServer = request.getfixturevalue("postgres")
    url = server.create_database(f"m_{uuid.uuid4().hex[:12]}")
    engine = create_engine(url.replace("postgresql://", "postgresql+psycopg://"))
    rows = EXPECTED["rows"]
    with engine.begin() as connection:
        schema_version.create(connection)
        MIGRATIONS[0](connection)  # schema 1, as its migration made it
        connection.execute(insert(schema_version).values(version=1))
        for table in (meta, players, games, actions):
            if rows[table.name]:
                connection.execute(insert(table), rows[table.name])
    engine.dispose()
    return url


def test_the_fixture_is_a_schema_1_database(tmp_path: Path) -> None:
    engine = create_engine(f"sqlite:///{FIXTURES / 'schema1.sqlite3'}")
    with engine.connect() as connection:
        assert current_version(connection) == 1
        kinds = {row.kind for row in connection.execute(select(actions.c.kind))}
    engine.dispose()
    assert {"tap", "stock", "deselect", "cell"} <= kinds  # taps to convert, not moves already


def test_every_game_figure_and_statistic_survives_the_upgrade(schema1_url: str) -> None:
    store = Store(schema1_url)  # opening it migrates it
    try:
        with store.engine.connect() as connection:
            assert current_version(connection) == LATEST
        assert store.secret == EXPECTED["rows"]["meta"][0]["value"]  # players' cookies still hold
        before = {row["id"]: row for row in EXPECTED["rows"]["games"]}
        assert store.count_games() == len(before)
        for game_id, shown in EXPECTED["games"].items():
            row = store.game(game_id)
            assert row is not None
            old = before[game_id]
            # the row's figures are kept as they were
            assert (row.result, row.moves, row.undos, row.hints, row.pyramid_removed, row.ended_ms) == (
                old["result"],
                old["moves"],
                old["undos"],
                old["hints"],
                old["pyramid_removed"],
                old["ended_ms"],
            )
            recorded = store.actions(game_id)
            assert {a.kind for a in recorded} <= ENTRY_KINDS
            assert row.version == len(recorded)
            # and the game rebuilt from its moves and events alone is the game that version showed
            session = rebuild(row, store)
            assert session.summary() == {"started_ms": old["started_ms"], **shown["summary"]}, game_id
            # schema 1's engine did not know a game given up (its web layer did); this one does
            assert session.game.summary() == {**shown["engine"], "status": shown["status"]}, game_id
            assert [str(step.move) for step in session.game.history] == shown["removed"]
        for player_id, figures in EXPECTED["players"].items():
            assert [s.to_json() for s in compute(store.finished_games(player_id))] == figures["stats"]
            assert [s.to_json() for s in compute(store.finished_games(player_id, since_reset=False))] == figures[
                "all_time"
            ]
        for code, entries in EXPECTED["leaderboard"].items():
            assert [{k: e[k] for k in ("id", "ms", "moves")} for e in store.leaderboard(code)] == entries
    finally:
        store.close()


def test_taps_become_the_moves_they_made(schema1_url: str) -> None:
    """The Pyramide game ended with three taps a, b, c: a+b refused (no 13), b stayed chosen (seed 000),
    and c removed b+c — one move, where schema 1 kept three taps."""
    store = Store(schema1_url)
    try:
        (pyramide,) = [g for g in EXPECTED["rows"]["games"] if g["preset"] == "pyramide" and not g["imported"]]
        taps = [(a["kind"], a["arg"]) for a in EXPECTED["rows"]["actions"] if a["game_id"] == pyramide["id"]]
        assert [kind for kind, _ in taps[-3:]] == ["tap", "tap", "tap"]
        _, second, third = (arg for _, arg in taps[-3:])
        entries = [(a.kind, a.arg) for a in store.actions(pyramide["id"])]
        assert entries[-1] == ("move", f"{second}+{third}")
        assert all(kind == "move" for kind, _ in entries)  # stock taps became draws; no tap is left
        (cells,) = [g for g in EXPECTED["rows"]["games"] if g["rules"] == "classic(cells=2)" and not g["imported"]]
        # the park into the second free cell keeps its cell
        assert any(
            kind == "move" and arg is not None and arg.endswith(">cell2")
            for kind, arg in ((a.kind, a.arg) for a in store.actions(cells["id"]))
        )
    finally:
        store.close()


def test_opening_an_upgraded_database_again_changes_nothing(schema1_url: str) -> None:
    first = Store(schema1_url)
    recorded = {g: [(a.seq, a.kind, a.arg, a.at_ms) for a in first.actions(g)] for g in EXPECTED["games"]}
    first.close()
    again = Store(schema1_url)
    try:
        assert {g: [(a.seq, a.kind, a.arg, a.at_ms) for a in again.actions(g)] for g in EXPECTED["games"]} == recorded
    finally:
        again.close()

"""The driver connections of the per-move writes on PostgreSQL (store/direct.py): statements prepared
and sent as text through libpq give back the values and the errors psycopg would; across a restart of
the database a kept connection the server ended is not used again, so the first write afterwards
succeeds; a write while the database is away says so and writes nothing."""

from __future__ import annotations

from collections.abc import Iterator

import psycopg
import pytest
from sqlalchemy import text
from test_store import game_row

from helpers import figures
from pg_server import PostgresServer
from pyramid_solitaire.store import Store, StoreError
from pyramid_solitaire.web.limits import Limit
from pyramid_solitaire.web.shared_limits import SharedRateLimiter

FIGURES = figures()


@pytest.fixture
def server() -> Iterator[PostgresServer]:
    server = PostgresServer()
    server.start()
    yield server
    server.stop()


def test_the_first_write_after_the_database_restarts_succeeds_once(server: PostgresServer) -> None:
    store = Store(server.create_database("direct"))
    player = store.new_player()
    store.create_game(game_row(player, "g1"))
    store.record("g1", 0, "move", "Ks", FIGURES)
    server.stop_server()
    server.start_server()
    store.record("g1", 1, "draw", None, {**FIGURES, "moves": 2})  # not a 503: the ended connection was not used
    assert [(a.seq, a.kind) for a in store.actions("g1")] == [(1, "move"), (2, "draw")]
    store.close()


def test_a_write_while_the_database_is_away_names_it_and_writes_nothing(server: PostgresServer) -> None:
    store = Store(server.create_database("direct"))
    player = store.new_player()
    store.create_game(game_row(player, "g1"))
    server.stop_server()
    with pytest.raises(StoreError) as caught:
        store.record("g1", 0, "move", "Ks", FIGURES)
    assert store.public_url in caught.value.message("en")
    server.start_server()
    assert store.actions("g1") == []
    store.record("g1", 0, "move", "Ks", FIGURES)
    row = store.game("g1")
    assert row is not None and row.version == 1
    store.close()


def test_shared_rate_limits_still_hold_after_the_database_restarts(server: PostgresServer) -> None:
    store = Store(server.create_database("direct"))
    limiter = SharedRateLimiter(store, player=Limit(rate=0.001, burst=1))
    assert limiter.wait_needed("player", "p") == 0
    server.stop_server()
    server.start_server()
    # the restart empties the UNLOGGED buckets: the next take starts full, and the one after is refused,
    # which only an answer of the database can say (the limiter lets a request through when it cannot ask)
    assert limiter.wait_needed("player", "p") == 0
    assert limiter.wait_needed("player", "p") > 100
    store.close()


def test_a_direct_statement_gives_back_typed_values_and_the_servers_errors_as_psycopgs(server: PostgresServer) -> None:
    store = Store(server.create_database("direct"))
    assert store.direct is not None
    try:
        values = store.direct.compile(
            text(
                "SELECT CAST(:a AS INTEGER) + 1, CAST(:b AS DOUBLE PRECISION) / 2, CAST(:c AS BOOLEAN),"
                " CAST(:d AS VARCHAR), CAST(:e AS VARCHAR), 7 % CAST(:a AS INTEGER)"
            )
        )
        row = (42, 1.5, True, "ハートの7", None, 7)
        assert store.direct.run(values, {"a": 41, "b": 3.0, "c": True, "d": "ハートの7", "e": None}) == [row]
        divide = store.direct.compile(text("SELECT 1 / CAST(:n AS INTEGER)"))
        with pytest.raises(psycopg.errors.DivisionByZero, match="division by zero"):
            store.direct.run(divide, {"n": 0})
        assert store.direct.run(divide, {"n": 1}) == [(1,)]  # the connection is still good
        # text holding NUL is refused, as psycopg refuses it, not cut short where libpq would stop reading
        echo = store.direct.compile(text("SELECT CAST(:d AS VARCHAR)"))
        with pytest.raises(psycopg.DataError, match="NUL"):
            store.direct.run(echo, {"d": "ab\x00cd"})
        assert store.direct.run(echo, {"d": "ab"}) == [("ab",)]
        # a parameter without a cast would be sent for the server to guess its type: refused when compiled
        with pytest.raises(ValueError, match="parameter n of a direct statement has no cast"):
            store.direct.compile(text("SELECT 1 / :n"))
    finally:
        store.close()

"""Many app processes on one database (issue 24), checked in this process: two apps over one PostgreSQL
database stand for two workers (each has its own cache of games and its own guard), ``/healthz`` and
``/metrics`` as a caller reads them, and ``serve --workers`` refusing what it cannot do.  The real
processes (``serve --workers N``, a worker killed under load) are in test_workers.py."""

from __future__ import annotations

import os
import sys
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
import uvicorn
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import text

from pyramid_solitaire import Deal
from pyramid_solitaire.cli import main
from pyramid_solitaire.solver import solve
from pyramid_solitaire.store import Store
from pyramid_solitaire.web.app import create_app
from pyramid_solitaire.web.limits import Limit
from pyramid_solitaire.web.server import DB_ENV, METRICS_ENV
from pyramid_solitaire.web.shared_limits import SharedRateLimiter, lease_of

CODE = "CL1-N-AAAAAAD"
MOVE_ROUTE = "/api/games/{game_id}/move"


def solution(code: str) -> list[str]:
    result = solve(Deal.from_code(code), time_limit=30)
    assert result.solution is not None
    return [str(m) for m in result.solution]


def metric(client: TestClient, name: str, **labels: str) -> float:
    """One sample of ``/metrics`` as Prometheus reads it (0 when it has not been counted yet)."""
    answer = client.get("/metrics")
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/plain")
    for family in text_string_to_metric_families(answer.text):
        for sample in family.samples:
            if sample.name == name and all(sample.labels.get(k) == v for k, v in labels.items()):
                return float(sample.value)
    return 0.0


@pytest.fixture
def two_apps(postgres: Any) -> Iterator[tuple[TestClient, TestClient]]:
    """Two apps over one fresh PostgreSQL database, as two workers are: each its own cache and guard."""
    db = postgres.create_database(f"two_{uuid.uuid4().hex[:12]}")
    stores = [Store(db), Store(db)]
    clients = [TestClient(create_app(store)) for store in stores]
    yield clients[0], clients[1]
    for store in stores:
        store.close()


def test_healthz_answers_the_process_id_and_that_the_database_answers(db_url: str) -> None:
    client = TestClient(create_app(db_url))
    answer = client.get("/healthz")
    assert answer.status_code == 200
    assert answer.json() == {"status": "ok", "pid": os.getpid(), "database": True}
    assert answer.headers["cache-control"] == "no-store"


def counted(client: TestClient) -> dict[str, float]:
    """The figures of /metrics the test below follows."""
    return {
        "moves": metric(client, "pyramid_http_requests_total", route=MOVE_ROUTE, method="POST", status="200"),
        "refused": metric(client, "pyramid_http_requests_total", route=MOVE_ROUTE, method="POST", status="409"),
        "unmatched": metric(client, "pyramid_http_requests_total", route="unmatched", method="GET", status="404"),
        "started": metric(client, "pyramid_games_started_total", preset="classic"),
        "won": metric(client, "pyramid_games_finished_total", result="won"),
        "timed": metric(client, "pyramid_http_request_duration_seconds_count", route=MOVE_ROUTE, method="POST"),
    }


def test_metrics_count_requests_by_route_and_status_and_the_games_started_and_won() -> None:
    client = TestClient(create_app())
    moves = solution(CODE)
    before = counted(client)
    game = client.post("/api/games", json={"code": CODE}).json()["game"]
    for index, move in enumerate(moves):
        assert client.post(f"/api/games/{game['id']}/move", json={"move": move}, params={"version": index}).is_success
    assert client.post(f"/api/games/{game['id']}/move", json={"move": "draw"}).status_code == 409  # game over
    assert client.get("/no/such/page/12345").status_code == 404
    after = counted(client)
    assert {name: after[name] - before[name] for name in before} == {
        "moves": len(moves),
        "refused": 1,
        "unmatched": 1,  # a path no route has is labelled as such, not by itself
        "started": 1,
        "won": 1,
        "timed": len(moves) + 1,
    }
    assert "/no/such/page" not in client.get("/metrics").text


def test_one_players_actions_alternating_between_two_apps_are_each_answered_and_recorded_once(
    two_apps: tuple[TestClient, TestClient],
) -> None:
    one, two = two_apps
    moves = solution(CODE)
    game = one.post("/api/games", json={"code": CODE}).json()["game"]
    two.cookies.update(one.cookies)  # one player, one cookie: the apps share the database's secret
    sent: list[str] = []
    apps = [one, two]
    for index, move in enumerate(moves):
        # each app's cached game is one action behind the other's every time
        for kind, body in ([("hint", None)] if index % 7 == 3 else []) + [("move", {"move": move})]:
            app = apps[len(sent) % 2]
            answer = app.post(f"/api/games/{game['id']}/{kind}", json=body, params={"version": len(sent)})
            assert answer.status_code == 200, answer.text
            sent.append(move if kind == "move" else kind)
            assert answer.json()["game"]["version"] == len(sent)
    for app in apps:
        final = app.get(f"/api/games/{game['id']}").json()["game"]
        assert final["status"] == "won" and final["version"] == len(sent)
    record = two.get(f"/api/games/{game['id']}/record").text
    assert record.strip().splitlines()[-len(sent) :] == sent  # every action once, in order


def test_a_players_rate_limit_holds_whichever_app_answers(postgres: Any) -> None:
    db = postgres.create_database(f"limit_{uuid.uuid4().hex[:12]}")
    stores = [Store(db), Store(db)]
    tight = Limit(rate=0.001, burst=6)  # six requests, then (for a quarter of an hour) no more
    apps = [TestClient(create_app(store, SharedRateLimiter(store, player=tight))) for store in stores]
    try:
        game = apps[0].post("/api/games", json={"code": CODE}).json()["game"]  # no cookie yet: the address
        apps[1].cookies.update(apps[0].cookies)
        answers = [apps[n % 2].post(f"/api/games/{game['id']}/move", json={"move": "draw"}) for n in range(8)]
        # one bucket for the player across both apps: six in all, not six each
        assert [a.status_code for a in answers] == [200] * 6 + [429, 429]
        assert answers[6].json()["code"] == "rate-limited" and int(answers[6].headers["retry-after"]) > 0
        assert apps[1].get(f"/api/games/{game['id']}").json()["game"]["moves"] == 6  # the refused changed nothing
        # another player has a bucket of their own
        other = TestClient(apps[1].app)
        assert other.post("/api/games", json={"code": CODE}).status_code == 201
    finally:
        for store in stores:
            store.close()


def test_tokens_leased_by_one_process_are_spent_there_and_the_limit_never_grows(postgres: Any) -> None:
    """A process takes a lease of tokens at once (a twentieth of the burst: 2 of 40) and spends it on the
    client's next requests.  Across processes the limit still never allows more than the burst; a
    client that moves on may meet it early by the tokens left with the other process, never late."""
    db = postgres.create_database(f"lease_{uuid.uuid4().hex[:12]}")
    stores = [Store(db), Store(db)]
    tight = Limit(rate=0.001, burst=40)
    one, two = (SharedRateLimiter(store, player=tight) for store in stores)
    try:
        assert one.leases["player"] == 2
        assert one.wait_needed("player", "p") == 0  # took two, spent one, holds one
        taken_by_two = 0
        while two.wait_needed("player", "p") == 0:
            taken_by_two += 1
            assert taken_by_two <= 40
        assert taken_by_two == 38  # 40 less the one spent and the one held by the first process
        assert one.wait_needed("player", "p") == 0  # the held token is still good there
        assert one.wait_needed("player", "p") > 100 and two.wait_needed("player", "p") > 100  # 40 in all
        # one process alone spends the whole burst, exactly
        alone = SharedRateLimiter(stores[0], player=tight)
        assert sum(alone.wait_needed("player", "q") == 0 for _ in range(45)) == 40
    finally:
        for store in stores:
            store.close()


def test_a_rate_table_made_before_leases_is_given_its_new_column(postgres: Any) -> None:
    db = postgres.create_database(f"oldrate_{uuid.uuid4().hex[:12]}")
    store = Store(db)
    try:
        with store.engine.begin() as connection:  # the table as servers before leases made it
            connection.execute(
                text(
                    "CREATE UNLOGGED TABLE rate_buckets (key VARCHAR(80) PRIMARY KEY, tokens DOUBLE PRECISION"
                    " NOT NULL, at DOUBLE PRECISION NOT NULL, taken BOOLEAN NOT NULL)"
                )
            )
            connection.execute(text("INSERT INTO rate_buckets VALUES ('x', 3, 0, TRUE)"))
        limiter = SharedRateLimiter(store, player=Limit(rate=0.001, burst=2))
        assert [limiter.wait_needed("player", "p") == 0 for _ in range(3)] == [True, True, False]
    finally:
        store.close()


@pytest.mark.parametrize(("burst", "lease"), [(1, 1), (6, 1), (39, 1), (40, 2), (200, 10), (300, 10)])
def test_a_lease_is_a_twentieth_of_the_burst_at_most_ten_at_least_one(burst: int, lease: int) -> None:
    assert lease_of(Limit(rate=1, burst=burst)) == lease


def serve(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *argv: str
) -> tuple[int, str, list[Any]]:
    started: list[Any] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: started.append(options))
    monkeypatch.setattr(sys, "argv", ["pyramid-solitaire"])
    status = main(["serve", "--no-browser", *argv])
    return status, capsys.readouterr().err, started


@pytest.mark.parametrize(
    ("lang", "says"),
    [
        ("en", "--workers 2 cannot be used with SQLite: SQLite lets one process write at a time"),
        ("ja", "SQLite では --workers 2 は使えません"),
    ],
)
def test_several_workers_on_sqlite_are_refused_with_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Any, lang: str, says: str
) -> None:
    db = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    status, err, started = serve(capsys, monkeypatch, "--workers", "2", "--db", db, "--lang", lang)
    assert status == 2 and started == []
    lines = err.strip().splitlines()
    assert len(lines) == 1 and says in lines[0] and "postgresql://" in lines[0], err
    assert not (tmp_path / "games.sqlite3").exists()  # refused before anything was made


def test_no_workers_is_refused(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    status, err, started = serve(capsys, monkeypatch, "--workers", "0", "--lang", "en")
    assert status == 2 and started == []
    assert err.strip() == "pyramid-solitaire: error: --workers must be 1 or more, not 0"


@pytest.mark.parametrize(
    ("lang", "says"),
    [
        ("en", "4 processes may open up to 100 connections to PostgreSQL, but the server lets clients open 97"),
        ("ja", "4 個のプロセスは PostgreSQL への接続を最大 100 本開きますが、サーバーが許すのは 97 本です"),
    ],
)
def test_more_workers_than_the_servers_connections_allow_are_warned_of_at_start(
    postgres: Any,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Any,
    lang: str,
    says: str,
) -> None:
    db = postgres.create_database(f"room_{uuid.uuid4().hex[:12]}")  # max_connections 100, 3 kept for superusers
    monkeypatch.setenv(DB_ENV, "")  # serve sets both for its workers; monkeypatch puts them back
    monkeypatch.setenv(METRICS_ENV, str(tmp_path))
    status, err, started = serve(capsys, monkeypatch, "--workers", "4", "--db", db, "--lang", lang)
    assert status == 0 and len(started) == 1 and started[0]["workers"] == 4  # a warning: the server starts
    assert says in err and "max_connections" in err and "docs/deploy.md" in err
    status, err, started = serve(capsys, monkeypatch, "--workers", "3", "--db", db, "--lang", lang)
    assert status == 0 and len(started) == 1 and "max_connections" not in err

"""``pyramid-solitaire serve --workers N`` as real processes on one PostgreSQL database (issue 24): every
worker answers on the one port, ``/healthz`` names the one that answered, ``/metrics`` sums them all; a
worker killed with SIGKILL in the middle of a load leaves the others answering and loses no acknowledged
action; one player's actions sent to two app processes in turn are each answered and recorded once; and
``/healthz`` says plainly when the database is away.

The players under load are ``benchmarks/load.py``'s (as in test_crash.py), so the benchmark and this test
check the same promise."""

from __future__ import annotations

import asyncio
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
from prometheus_client.parser import text_string_to_metric_families

from helpers import app_process
from pg_server import PostgresServer
from pyramid_solitaire import Deal
from pyramid_solitaire.solver import solve
from pyramid_solitaire.store import Store

sys.path.append(str(Path(__file__).resolve().parents[2] / "benchmarks"))

import load

CODE = "CL1-N-AAAAAAD"
START_SECONDS = 60
#: The load of the SIGKILL test: players, the deals they share, and the run (the kill FAULT_AT s in,
#: then at least AFTER s more).
PLAYERS = 20
DEALS = 5
SECONDS = 6
FAULT_AT = 2
AFTER = 3


@contextmanager
def served(db: str, workers: int) -> Iterator[str]:
    """``pyramid-solitaire serve --workers N`` as its own process; yields its URL once it answers."""
    with app_process(db, "--workers", str(workers), ready="/healthz", start_seconds=START_SECONDS) as (url, _):
        yield url


def requests_counted(url: str, route: str, status: str) -> float:
    """``pyramid_http_requests_total`` of one route and status, as ``/metrics`` sums it."""
    for family in text_string_to_metric_families(httpx.get(f"{url}/metrics").text):
        for sample in family.samples:
            if sample.name == "pyramid_http_requests_total" and sample.labels == {
                "route": route,
                "method": "GET",
                "status": status,
            }:
                return float(sample.value)
    return 0.0


def test_two_workers_answer_healthz_from_two_processes_and_metrics_count_every_request(
    postgres: PostgresServer,
) -> None:
    db = postgres.create_database("two_workers")
    with served(db, 2) as url:
        pids: list[int] = []
        while len(set(pids)) < 2 and len(pids) < 500:
            answer = httpx.get(f"{url}/healthz")  # a new connection each time: any worker may take it
            assert answer.status_code == 200 and answer.json()["database"] is True
            pids.append(answer.json()["pid"])
        assert len(set(pids)) == 2
        # the request that found the server up, and every one since, whichever worker answered it
        assert requests_counted(url, "/healthz", "200") == len(pids) + 1


def test_a_worker_killed_under_load_leaves_the_others_answering_and_loses_nothing(postgres: PostgresServer) -> None:
    db = postgres.create_database("killed_worker")
    deals = load.verified_deals(DEALS)
    with served(db, 3) as url:
        app = load.App(db, port=int(url.rsplit(":", 1)[1]), workers=3)
        kill = load.KillWorker(app)
        seen = in_own_thread(
            lambda: asyncio.run(load.run([url], deals, PLAYERS, SECONDS, (kill, FAULT_AT), after=AFTER))
        )
        workers_after = app.worker_pids()
    store = Store(db)
    try:
        checked = load.check(store, seen)
    finally:
        store.close()
    assert len(seen.faults) == 1 and "SIGKILL of worker" in seen.faults[0]
    assert seen.errors == []  # no answer was an error
    # the killed worker's players felt it: a request in flight went unanswered (they asked again and went
    # on), or, between two requests, their kept connection was found closed and a new one opened
    assert seen.unanswered + seen.reconnected > 0
    assert seen.acked[load.BEFORE] > 0
    assert seen.acked[load.DURING] > 0  # the other workers answered while the killed one was gone
    assert seen.acked[load.AFTER] > 0
    assert checked.lost == 0 and checked.wrong == 0  # every acknowledged action once, in order
    assert checked.unanswered_written <= PLAYERS  # besides them, at most the action each had in flight
    assert len(workers_after) == 3  # the process manager started a new worker in its place


def in_own_thread(work: Callable[[], load.Seen]) -> load.Seen:
    """``work()`` on a thread of its own (asyncio.run refuses to start beside the browser tests' loop)."""
    done: list[load.Seen] = []
    failed: list[BaseException] = []

    def target() -> None:
        try:
            done.append(work())
        except BaseException as exc:
            failed.append(exc)

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if failed:
        raise failed[0]
    return done[0]


def test_one_players_actions_sent_to_two_processes_in_turn_are_each_answered_once(
    postgres: PostgresServer,
) -> None:
    db = postgres.create_database("alternate")
    result = solve(Deal.from_code(CODE), time_limit=30)
    assert result.solution is not None
    moves = [str(m) for m in result.solution]
    with served(db, 1) as first, served(db, 1) as second:
        clients = [httpx.Client(base_url=first, timeout=10), httpx.Client(base_url=second, timeout=10)]
        game = clients[0].post("/api/games", json={"code": CODE}).json()["game"]
        clients[1].cookies.update(clients[0].cookies)
        sent: list[str] = []
        for index, move in enumerate(moves):
            actions = [("undo", None), ("redo", None)] if index % 5 == 2 else []
            for kind, body in [*actions, ("move", {"move": move})]:
                client = clients[len(sent) % 2]  # in turn: each process's cached game is always behind
                answer = client.post(f"/api/games/{game['id']}/{kind}", json=body, params={"version": len(sent)})
                assert answer.status_code == 200, answer.text
                sent.append(move if kind == "move" else kind)
                assert answer.json()["game"]["version"] == len(sent)
        for client in clients:
            state = client.get(f"/api/games/{game['id']}").json()["game"]
            assert state["status"] == "won" and state["version"] == len(sent)
        record = clients[1].get(f"/api/games/{game['id']}/record").text
        assert record.strip().splitlines()[-len(sent) :] == sent


def test_healthz_says_503_while_postgresql_is_away_and_200_once_it_is_back() -> None:
    server = PostgresServer()  # its own server: this test stops it
    server.start()
    try:
        db = server.create_database("health")
        with served(db, 2) as url:
            server.stop_server()
            try:
                away = [httpx.get(f"{url}/healthz", timeout=30) for _ in range(4)]
            finally:
                server.start_server()
            assert [a.status_code for a in away] == [503] * 4
            assert all(a.json()["database"] is False and a.json()["pid"] > 0 for a in away)
            back = httpx.get(f"{url}/healthz", timeout=30)
            assert back.status_code == 200 and back.json()["database"] is True
            metrics = httpx.get(f"{url}/metrics").text
            errors = [
                s.value
                for f in text_string_to_metric_families(metrics)
                for s in f.samples
                if s.name == "pyramid_database_errors_total" and s.labels == {"where": "healthz"}
            ]
            assert errors == [4.0]
            assert requests_counted(url, "/healthz", "503") == 4
    finally:
        server.stop()

"""The app as separate processes: killed with SIGKILL in the middle of a burst of actions and
restarted, every answered action is there and nothing is half-written; two app processes on one
PostgreSQL database serve the same player, and two moves racing on one game have exactly one winner.

Under load (the players of ``benchmarks/load.py``, imported from there so that the benchmark and these
tests check the same thing): an app process killed and restarted, or the PostgreSQL server stopped and
started again, while twenty players play; every acknowledged action is found exactly once afterwards."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from helpers import app_process, free_port
from pg_server import PostgresServer
from pyramid_solitaire import Deal, Game
from pyramid_solitaire.record import read_record
from pyramid_solitaire.solver import solve
from pyramid_solitaire.store import Store

sys.path.append(str(Path(__file__).resolve().parents[2] / "benchmarks"))

import load

CODE = "CL1-N-AAAAAAD"
#: The load tests: players, the deals they share, and the run: the fault strikes FAULT_AT s in (once
#: some action was acknowledged), and play goes on for SECONDS in all and at least AFTER s past the fault.
PLAYERS = 20
DEALS = 5
SECONDS = 6
FAULT_AT = 2
AFTER = 3
OUTAGE_SECONDS = 2


def moves_of(code: str) -> list[str]:
    """A long legal line: the solver's solution (every move of it is answered)."""
    result = solve(Deal.from_code(code), time_limit=30)
    assert result.solution is not None
    return [str(m) for m in result.solution]


def test_a_killed_server_keeps_every_answered_action_and_the_game_resumes(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    moves = moves_of(CODE)
    acked: list[tuple[int, str]] = []
    with app_process(db) as (url, process):
        client = httpx.Client(base_url=url, timeout=10)
        game = client.post("/api/games", json={"code": CODE}).json()["game"]
        cookie = client.cookies["pyramid_player"]

        def burst() -> None:
            for index, move in enumerate(moves):
                try:
                    answer = client.post(
                        f"/api/games/{game['id']}/move", json={"move": move}, params={"version": index}
                    )
                except httpx.TransportError:
                    return  # the server died under us: this one was never answered
                assert answer.status_code == 200, answer.text
                acked.append((answer.json()["game"]["version"], move))

        player = threading.Thread(target=burst)
        player.start()
        while len(acked) < len(moves) // 2:
            time.sleep(0.002)
        os.kill(process.pid, signal.SIGKILL)  # in the middle of the burst
        player.join(timeout=30)
        process.wait(timeout=10)
    assert 0 < len(acked) < len(moves)

    with app_process(db) as (url, _):
        client = httpx.Client(base_url=url, timeout=10, cookies={"pyramid_player": cookie})
        state = client.get(f"/api/games/{game['id']}").json()["game"]
        record = client.get(f"/api/games/{game['id']}/record").text
        recorded = [str(entry) for entry in read_record(record).entries]
        # every answered move is there, in order; at most the one in flight was written besides
        assert recorded[: len(acked)] == [move for _, move in acked]
        assert len(acked) <= len(recorded) <= len(acked) + 1
        assert state["version"] == len(recorded)  # nothing half-written: the game row matches its actions
        replayed = Game(Deal.from_code(CODE))
        for move in moves[: len(recorded)]:
            replayed.push(move)
        assert state["moves"] == replayed.moves
        # and the game goes on from there to the end
        for index in range(len(recorded), len(moves)):
            answer = client.post(
                f"/api/games/{game['id']}/move", json={"move": moves[index]}, params={"version": index}
            )
            assert answer.status_code == 200, answer.text
        assert answer.json()["game"]["status"] == "won"


def test_two_app_processes_on_postgresql_race_moves_with_one_winner(postgres: PostgresServer) -> None:
    db = postgres.create_database("race")
    with app_process(db) as (first, _), app_process(db) as (second, _):
        one = httpx.Client(base_url=first, timeout=10)
        game = one.post("/api/games", json={"code": CODE}).json()["game"]
        two = httpx.Client(base_url=second, timeout=10, cookies=dict(one.cookies))
        outcomes: list[list[int]] = []
        for version in range(12):
            answers: list[Any] = [None, None]
            gate = threading.Barrier(2)

            def race(
                slot: int,
                client: httpx.Client,
                version: int = version,
                gate: threading.Barrier = gate,
                answers: list[Any] = answers,
            ) -> None:
                gate.wait()
                answers[slot] = client.post(
                    f"/api/games/{game['id']}/move", json={"move": "draw"}, params={"version": version}
                )

            threads = [threading.Thread(target=race, args=(0, one)), threading.Thread(target=race, args=(1, two))]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            codes = sorted(a.status_code for a in answers)
            outcomes.append(codes)
            assert codes == [200, 409], [a.text for a in answers]
            loser = next(a for a in answers if a.status_code == 409)
            assert loser.json()["code"] == "conflict"
        state = two.get(f"/api/games/{game['id']}").json()["game"]
        assert state["version"] == 12 and state["moves"] == 12  # no action lost, none doubled
        assert one.get(f"/api/games/{game['id']}").json()["game"]["stock"] == state["stock"]


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_a_bad_or_unreachable_database_stops_the_app_with_one_line(kind: str, tmp_path: Path) -> None:
    if kind == "sqlite":
        blocker = tmp_path / "file"
        blocker.write_text("not a folder")
        db = f"sqlite:///{blocker / 'games.sqlite3'}"
        says = "cannot create the folder"
    else:
        db = f"postgresql://postgres@127.0.0.1:{free_port()}/games"
        says = "cannot use the database"
    result = subprocess.run(
        [sys.executable, "-m", "pyramid_solitaire.cli", "serve", "--no-browser", "--db", db, "--lang", "en"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and says in lines[0], result.stderr
    assert "Traceback" not in result.stderr


LoadResult = tuple[load.Seen, load.Checked]


def in_own_thread(work: Callable[[], load.Seen]) -> load.Seen:
    """``work()`` on a thread of its own: the browser tests' Playwright keeps an event loop running on
    this one, and asyncio.run refuses to start beside it."""
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


def load_with_fault(db: str, processes: int, fault: Callable[[list[load.App]], load.Fault]) -> LoadResult:
    """PLAYERS players on ``processes`` app processes with the fault mid-run; what they saw, and the
    database checked against it."""
    deals = load.verified_deals(DEALS)
    apps = load.start_apps(db, processes)
    try:
        seen = in_own_thread(
            lambda: asyncio.run(
                load.run([app.url for app in apps], deals, PLAYERS, SECONDS, (fault(apps), FAULT_AT), after=AFTER)
            )
        )
    finally:
        for app in apps:
            app.stop()
    store = Store(db)
    try:
        return seen, load.check(store, seen)
    finally:
        store.close()


def test_players_under_load_find_every_acknowledged_action_after_a_sigkill(tmp_path: Path) -> None:
    seen, checked = load_with_fault(f"sqlite:///{tmp_path / 'games.sqlite3'}", 1, load.Kill)
    assert len(seen.faults) == 1 and "SIGKILL" in seen.faults[0]
    assert seen.errors == []
    assert seen.unanswered > 0  # the players felt the kill: requests went unanswered, then they resynced
    assert seen.acked[load.BEFORE] > 0 and seen.acked[load.AFTER] > 0  # played before it, and went on after
    # every acknowledged action is recorded once, in order; game rows agree with their actions
    assert checked.lost == 0 and checked.wrong == 0
    # besides them, at most the action each player had in flight was written
    assert checked.unanswered_written <= PLAYERS


def test_players_see_a_clear_503_while_postgresql_is_away_and_lose_nothing() -> None:
    server = PostgresServer()  # its own server: this test stops it
    server.start()
    try:
        db = server.create_database("outage")
        seen, checked = load_with_fault(db, 2, lambda apps: load.Outage(server, OUTAGE_SECONDS))
    finally:
        server.stop()
    assert len(seen.faults) == 1 and "PostgreSQL stopped" in seen.faults[0]
    assert seen.errors == []  # every 503 was the clear one (any other answer would be an error)
    assert seen.down > 0 and "保存されていません" in seen.down_message
    assert seen.acked[load.BEFORE] > 0 and seen.acked[load.AFTER] > 0
    assert checked.lost == 0 and checked.wrong == 0

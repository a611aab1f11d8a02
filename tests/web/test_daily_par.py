"""Par over the API: worked out once in the background (a child process), kept in the database where
another app process — or the same app restarted — finds it, and shown beside the moves of a won
verified deal; a random deal has none."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import threading
import time
import warnings
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from pyramid_solitaire.daily import EPOCH, compute_par
from pyramid_solitaire.deal import Deal
from pyramid_solitaire.solver import solve
from pyramid_solitaire.store import Store
from pyramid_solitaire.web import pars
from pyramid_solitaire.web.app import create_app
from pyramid_solitaire.web.daily import DailyDesk

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

Json = dict[str, Any]
#: Seconds a test waits for a par to be worked out (each search may take a minute of CPU time).
PAR_WAIT = 240


def until(ask: Callable[[], Json], done: Callable[[Json], bool]) -> Json:
    deadline = time.monotonic() + PAR_WAIT
    while True:
        answer = ask()
        if done(answer) or time.monotonic() > deadline:
            return answer
        time.sleep(0.5)


def epoch_app(db: str) -> TestClient:
    app = create_app(db)
    noon = datetime(EPOCH.year, EPOCH.month, EPOCH.day, 3, 0, tzinfo=UTC).timestamp()  # 12:00 in Tokyo
    app.state.daily = DailyDesk("Asia/Tokyo", clock=lambda: noon)
    return TestClient(app)


def test_a_daily_par_is_worked_out_once_and_kept_in_the_database(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'par.sqlite3'}"
    with epoch_app(db) as client:
        first = client.get("/api/daily?rules=thirteen").json()
        assert first["date"] == EPOCH.isoformat()
        assert first["par_status"] in ("pending", "known")
        done = until(lambda: client.get("/api/daily?rules=thirteen").json(), lambda a: a["par_status"] != "pending")
    assert done["par_status"] == "known"
    expected = compute_par(Deal.from_code(done["code"]))
    assert done["par"] == expected.moves
    kept = Store(db).par(done["code"])
    assert kept is not None and kept.moves == expected.moves
    with epoch_app(db) as restarted:  # a second process on the database: known at once, nothing worked out again
        again = restarted.get("/api/daily?rules=thirteen").json()
    assert (again["par"], again["par_status"]) == (expected.moves, "known")


def _win(client: TestClient, body: Json) -> Json:
    game = client.post("/api/games", json=body).json()["game"]
    line = solve(Deal.from_code(game["code"]), best=False).solution
    assert line is not None
    for move in line:
        game = client.post(f"/api/games/{game['id']}/move", json={"move": str(move)}).json()["game"]
    assert game["result"]["won"] is True
    return game


def test_a_won_verified_deal_shows_its_par_and_a_random_deal_none(tmp_path: Path) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'won.sqlite3'}")) as client:
        verified = _win(client, {"rules": "msc", "difficulty": "N"})
        assert verified["result"]["par"]["status"] in ("pending", "known")
        shown = until(
            lambda: client.get(f"/api/games/{verified['id']}").json()["game"]["result"]["par"],
            lambda par: par["status"] != "pending",
        )
        assert shown == {"moves": compute_par(Deal.from_code(verified["code"])).moves, "status": "known"}
        assert shown["moves"] <= verified["result"]["moves"]
        unverified = _win(client, {"code": "MS1-R-AAAAAAB"})
        assert unverified["result"]["par"] is None


def test_two_processes_on_postgresql_never_work_out_the_same_par_at_once(postgres: Any) -> None:
    url = postgres.create_database(f"pars_{time.monotonic_ns() % 1_000_000}")
    first, second = Store(url), Store(url)
    code = Deal.from_number(5, "classic", "E").code
    with first.computing_par(code) as ours:
        assert ours
        with second.computing_par(code) as theirs:
            assert not theirs  # the first process is at it
        with second.computing_par(Deal.from_number(7, "classic", "E").code) as other:
            assert other  # another deal's par is free
    with second.computing_par(code) as theirs:
        assert theirs  # the first is done (or gone): the second may
    for store in (first, second):
        store.close()


def test_a_par_child_runs_at_the_lowest_priority_and_loads_no_database_driver() -> None:
    """The child the server starts for a par (web/pars.py) gives the search's answer, at nice 19 in
    Linux's idle scheduling class, without the app's store: players' requests always come first."""
    code = "CL1-N-AAAAAAE"
    script = (
        "import os, runpy, sys\n"
        f"sys.argv = ['par_child', {code!r}, '30']\n"
        "runpy.run_module('pyramid_solitaire.web.par_child', run_name='__main__')\n"
        "print(os.getpriority(os.PRIO_PROCESS, 0), os.sched_getscheduler(0) == os.SCHED_IDLE,"
        " 'sqlalchemy' in sys.modules, 'psycopg' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=120)
    answer, facts = done.stdout.splitlines()
    moves, seconds = json.loads(answer)
    assert moves == compute_par(Deal.from_code(code), 30).moves and seconds >= 0
    assert facts.split() == ["19", "True", "False", "False"]  # nice 19, Linux's idle class, no drivers


def test_the_worker_starts_a_pars_child_under_nice_and_keeps_its_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    """The command the server's worker really starts: the child module under the system's ``nice -n 19``
    (Debian's coreutils has it), whose answer is the search's."""
    started: list[list[str]] = []
    real_popen = subprocess.Popen

    def recording(command: list[str], **options: Any) -> Any:
        started.append(list(command))
        return real_popen(command, **options)

    monkeypatch.setattr(pars.subprocess, "Popen", recording)
    code = "CL1-N-AAAAAAE"
    par = pars.ParWorker(seconds=30)._compute(code)
    assert par is not None and par.moves == compute_par(Deal.from_code(code), 30).moves
    assert len(started) == 1 and started[0][:3] == [shutil.which("nice"), "-n", "19"]
    assert started[0][3:] == [sys.executable, "-m", "pyramid_solitaire.web.par_child", code, "30"]


def test_the_processes_of_one_machine_search_for_pars_one_at_a_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A second search waits for the first to end (a lock file; a process that dies frees it)."""
    monkeypatch.setattr(pars, "TURN_FILE", tmp_path / "turn.lock")
    events: list[str] = []
    inside = threading.Event()

    def first() -> None:
        with pars.machine_turn():
            events.append("first in")
            inside.set()
            time.sleep(0.3)
            events.append("first out")

    thread = threading.Thread(target=first)
    thread.start()
    assert inside.wait(10)
    with pars.machine_turn():
        events.append("second in")
    thread.join()
    assert events == ["first in", "first out", "second in"]
    # a process holding the turn that is killed gives it back
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import fcntl, sys, time; f = open(sys.argv[1], 'a'); fcntl.flock(f, fcntl.LOCK_EX);"
            " print('held', flush=True); time.sleep(60)",
            str(tmp_path / "turn.lock"),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
    holder.kill()
    holder.wait()
    with pars.machine_turn():
        events.append("after the kill")
    assert events[-1] == "after the kill"

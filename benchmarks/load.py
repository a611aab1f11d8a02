"""Load: N simulated players play real deals through the HTTP API for a fixed time, then the database
is checked against what every client saw.

    .venv/bin/python benchmarks/load.py                                  # 200 players, 60 s, SQLite, 1 process
    .venv/bin/python benchmarks/load.py --postgres --processes 2         # a private PostgreSQL, 2 app processes
    .venv/bin/python benchmarks/load.py --players 50 --seconds 20

The app runs as real ``pyramid-solitaire serve`` processes on loopback.  Each player is an httpx client
with its own cookie: it starts a game of a verified deal (solved beforehand), plays the solver's
solution tap by tap as the page does (every action names the version it was meant for), now and then
asks for a hint or takes a move back and plays it again, and starts a new game when one is won.  A
player sticks to one app process but moves to another one time in ten, so several processes serve the
same games.  Afterwards every answered action is looked up in the database: lost (answered but not
recorded), doubled or out-of-order actions are counted, as are errors (any answer but 200/201).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx
from figures import percentile

from pyramid_solitaire import Deal
from pyramid_solitaire.solver import solve
from pyramid_solitaire.store import Store

ROOT = Path(__file__).resolve().parents[1]
#: A player moves to another app process this often (per action).
SWITCH = 0.1
#: And asks for a hint, or takes a move back and plays it again, this often.
DETOUR = 0.05


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def start_app(db: str) -> tuple[str, subprocess.Popen[bytes]]:
    port = free_port()
    process = subprocess.Popen([sys.executable, "-m", "pyramid_solitaire.cli", "serve", "--no-browser",
                                "--port", str(port), "--db", db], stdout=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            if httpx.get(f"{url}/api/rules", timeout=1).status_code == 200:
                return url, process
        except httpx.TransportError:
            time.sleep(0.1)
    raise SystemExit("an app process did not start")


@dataclass
class Seen:
    """What the clients were answered."""

    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    #: game id -> the actions answered, in order: (version after it, kind, argument)
    games: dict[str, list[tuple[int, str, str | None]]] = field(default_factory=dict)
    won: int = 0


async def player(number: int, apps: list[str], deals: list[tuple[str, list[str]]], seen: Seen,
                 deadline: float) -> None:
    rng = random.Random(number)
    home = number % len(apps)
    # Idle connections are dropped after 2 s, before uvicorn's 5 s keep-alive closes them from its side
    # (a browser retries a request lost that way; this client would count it as an error).
    async with httpx.AsyncClient(timeout=30, limits=httpx.Limits(keepalive_expiry=2.0)) as client:

        async def call(path: str, body: object | None = None, get: bool = False) -> dict[str, object] | None:
            nonlocal home
            if len(apps) > 1 and rng.random() < SWITCH:
                home = (home + 1) % len(apps)
            started = time.perf_counter()
            try:
                if get:
                    answer = await client.get(apps[home] + path)
                else:
                    answer = await client.post(apps[home] + path, json=body)
            except httpx.HTTPError as exc:
                seen.errors.append(f"{path}: {type(exc).__name__}")
                return None
            seen.latencies.append(time.perf_counter() - started)
            if answer.status_code not in (200, 201):
                seen.errors.append(f"{path}: HTTP {answer.status_code} {answer.text[:120]}")
                return None
            data: dict[str, object] = answer.json()
            return data

        while time.monotonic() < deadline:
            code, moves = deals[rng.randrange(len(deals))]
            created = await call("/api/games", {"code": code})
            if created is None:
                return
            game = created["game"]
            assert isinstance(game, dict)
            game_id = str(game["id"])
            log = seen.games.setdefault(game_id, [])
            version = 0

            async def act(kind: str, arg: str | None, path: str, body: object | None = None, game_id: str = game_id,
                          log: list[tuple[int, str, str | None]] = log) -> bool:
                nonlocal version
                answer = await call(f"/api/games/{game_id}/{path}?version={version}", body)
                if answer is None:
                    return False
                state = answer["game"]
                assert isinstance(state, dict)
                version = int(state["version"])
                log.append((version, kind, arg))
                return True

            for move in moves:
                if time.monotonic() >= deadline:
                    return
                if rng.random() < DETOUR and not await act("hint", None, "hint"):
                    return
                steps = [("stock", None, "stock", None)] if move in ("draw", "recycle") else \
                    [("tap", card, "tap", {"card": card}) for card in move.split("+")]
                for kind, arg, path, body in steps:
                    if not await act(kind, arg, path, body):
                        return
                detour = rng.random() < DETOUR
                if detour and (not await act("undo", None, "undo") or not await act("redo", None, "redo")):
                    return
            seen.won += 1


def check(store: Store, seen: Seen) -> tuple[int, int, int]:
    """(answered actions, lost, doubled or out of order) by comparing the database with the clients."""
    answered = lost = wrong = 0
    for game_id, log in seen.games.items():
        recorded = store.actions(game_id)
        row = store.game(game_id)
        answered += len(log)
        by_seq = {a.seq: a for a in recorded}
        for version, kind, arg in log:
            action = by_seq.get(version)
            if action is None:
                lost += 1
            elif (action.kind, action.arg) != (kind, arg):
                wrong += 1
        in_order = [a.seq for a in recorded] == list(range(1, len(recorded) + 1))
        if row is None or row.version != len(recorded) or not in_order:
            wrong += 1
        if len(recorded) > len(log):
            wrong += len(recorded) - len(log)  # recorded but never answered: doubled
    return answered, lost, wrong


async def run(apps: list[str], deals: list[tuple[str, list[str]]], players: int, seconds: float) -> Seen:
    seen = Seen()
    deadline = time.monotonic() + seconds
    await asyncio.gather(*(player(n, apps, deals, seen, deadline) for n in range(players)))
    return seen


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--processes", type=int, default=1, help="app processes on the one database")
    parser.add_argument("--db", help="database URL (default: a new SQLite file)")
    parser.add_argument("--postgres", action="store_true", help="start a private PostgreSQL server for the run")
    parser.add_argument("--deals", type=int, default=20, help="verified classic deals the players share")
    args = parser.parse_args()

    server = None
    if args.postgres:
        sys.path.insert(0, str(ROOT / "tests"))
        from pg_server import PostgresServer

        server = PostgresServer()
        server.start()
        db = server.create_database("load")
    else:
        db = args.db or f"sqlite:///{Path(tempfile.mkdtemp(prefix='pyramid-load-')) / 'games.sqlite3'}"
    deals = []
    number = 0
    while len(deals) < args.deals:
        deal = Deal.from_number(number, "classic", "N")
        result = solve(deal, time_limit=10)
        if result.winnable and result.solution:
            deals.append((deal.code, [str(m) for m in result.solution]))
        number += 1
    started = [start_app(db) for _ in range(args.processes)]
    try:
        began = time.perf_counter()
        seen = asyncio.run(run([url for url, _ in started], deals, args.players, args.seconds))
        elapsed = time.perf_counter() - began
    finally:
        for _, process in started:
            process.terminate()
            process.wait(timeout=30)
    store = Store(db)
    answered, lost, wrong = check(store, seen)
    store.close()
    if server is not None:
        server.stop()
    kind = "PostgreSQL" if db.startswith("postgresql") else "SQLite"
    print(f"load: {args.players} players for {args.seconds:.0f} s, {kind}, {args.processes} app process(es)")
    print(f"  answered actions: {answered} ({answered / elapsed:.0f}/s), games: {len(seen.games)}, won: {seen.won}")
    if seen.latencies:
        ms = [x * 1000 for x in seen.latencies]
        print(f"  latency: p50 {statistics.median(ms):.1f} ms, p90 {percentile(ms, 0.9):.1f} ms, "
              f"p99 {percentile(ms, 0.99):.1f} ms, max {max(ms):.1f} ms")
    print(f"  errors: {len(seen.errors)}; lost actions: {lost}; doubled or out of order: {wrong}")
    for error in seen.errors[:5]:
        print(f"    {error}")
    return 0 if not seen.errors and not lost and not wrong else 1


if __name__ == "__main__":
    sys.exit(main())

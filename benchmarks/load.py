"""Load: N simulated players play real deals through the HTTP API for a fixed time, then the database
is checked against what every client saw.  Optionally a fault strikes in the middle of it.

    .venv/bin/python benchmarks/load.py                                  # 200 players, 60 s, SQLite, 1 process
    .venv/bin/python benchmarks/load.py --postgres --processes 2         # a private PostgreSQL, 2 app processes
    .venv/bin/python benchmarks/load.py --players 50 --seconds 20
    .venv/bin/python benchmarks/load.py --kill-at 30                     # SIGKILL the app at 30 s, restart it
    .venv/bin/python benchmarks/load.py --postgres --processes 2 --outage-at 25 --outage-for 5
    .venv/bin/python benchmarks/load.py --postgres --workers 4 --players 500   # serve --workers 4, one port
    .venv/bin/python benchmarks/load.py --postgres --workers 4 --kill-worker-at 20
    .venv/bin/python benchmarks/load.py --postgres --workers 4 --players 500 --ramp 30 --think 0.46 --pars-known

The app runs as real ``pyramid-solitaire serve`` processes on loopback.  Each player is a lean HTTP client (raw_http.py)
with its own cookie: it starts a game of a verified deal (solved beforehand), plays the solver's
solution as the page sends it, one request per move (every action names the version it was meant for), now and then
asks for a hint or takes a move back and plays it again, and starts a new game when one is won.  A
player sticks to one app process but moves to another one time in ten, so several processes serve the
same games.  With ``--workers N`` each app process is a ``serve --workers N`` (workers sharing its port;
which one answers is the kernel's choice, connection by connection).  Afterwards every answered action is
looked up in the database: lost (answered but not recorded), doubled or out-of-order actions are
counted, as are errors (any answer but 200/201).

The players all start at once unless ``--ramp S`` has them join one after another over S seconds before
the ``--seconds`` of full load.  Started at once, they deal, and later win, their games in waves: 500
wins and 500 new deals within a few seconds, several times the rate at which players who came at
different times finish games.  The ramp measures that steady mix; both are worth knowing.

The first time a verified deal is won, the server works out its par in the background (web/pars.py): a
search of a fraction of a second per deal, at the lowest priority, that still slows the requests on a
2-core machine while it runs.  With 20 deals all won for the first time within seconds of each other,
that is part of a run unless ``--pars-known`` works them out before it (as a site that has run a while
knows them).

Faults (one per run), once the given second has come and some action has been answered:

``--kill-at S``
    SIGKILL one app process (the only one with ``--processes 1``) and start it again on the same
    database and port.
``--kill-worker-at S``
    SIGKILL the busiest worker of ``serve --workers N`` (ids learnt from ``/healthz``); the others go on
    answering on the port, and uvicorn's process manager starts a new one.
``--outage-at S --outage-for L``
    stop the private PostgreSQL server at once (``pg_ctl stop -m immediate``; needs ``--postgres``) and
    start it again L seconds later.

With a fault, a request that gets no answer (the connection fails or is refused) is *unanswered*, and a
503 saying the records database cannot be reached is counted as such (its message is checked); neither
is an error nor an acknowledgement.  The action may or may not have been written, so the player asks
for the game again (with a growing pause, moving to another process if there are several) until an app
answers, and goes on from the version it learns: the action was written if the version moved on by
one, otherwise it is sent again.  The check stays: every acknowledged action is recorded exactly once,
at its place, and each game's version is its number of actions.  A recorded action nobody acknowledged
must be one sent without an answer at that place (the one in flight when the fault struck); anything
else counts as doubled.
"""

from __future__ import annotations

import argparse
import asyncio
import enum
import os
import random
import signal
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import raw_http
import uvloop
from _load_apps import App, start_apps
from figures import percentile

from pyramid_solitaire import Deal
from pyramid_solitaire.catalog import catalogue
from pyramid_solitaire.daily import compute_par
from pyramid_solitaire.messages import text
from pyramid_solitaire.solver import solve
from pyramid_solitaire.store import CONNECTIONS_PER_PROCESS, Store

ROOT = Path(__file__).resolve().parents[1]
#: A player moves to another app process this often (per action).
SWITCH = 0.1
#: And asks for a hint, or takes a move back and plays it again, this often.
DETOUR = 0.05
#: A player waits this long on average (uniformly 0.5-1.5 times it) between an answer and its next
#: action, as a person does.  The default keeps every player under its rate limit (30 requests a second,
#: web/limits.py): a client as fast as loopback allows would otherwise meet 429s that no person meets.
THINK = 0.05
#: After a request without an answer, a player asks again after this pause, doubling up to the longest.
RETRY_FIRST = 0.05
RETRY_LONGEST = 1.0
#: What the app answers (in Japanese, the default language) when the records database is away.
DOWN_CODE = "store-unavailable"
DOWN_MESSAGE = text("ja", f"error.{DOWN_CODE}")
#: Phases of a run with a fault, for counting the actions acknowledged in each.
BEFORE, DURING, AFTER = "before", "during", "after"

Entry = tuple[int, str, str | None]


@dataclass
class Seen:
    """What the clients were answered."""

    latencies: list[float] = field(default_factory=list)
    #: The answered actions (moves and events, not new games): when each was sent (s from the start), how
    #: long its answer took, and its kind (move, hint, undo, redo).
    actions: list[tuple[float, float, str]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    #: game id -> the actions answered, in order: (version after it, kind, argument)
    games: dict[str, list[Entry]] = field(default_factory=dict)
    won: int = 0
    #: Requests that got no answer at all (the connection failed or was refused).
    unanswered: int = 0
    #: Kept connections the clients found closed by the server before sending on them (a worker killed
    #: between two of its player's requests), each replaced by a new connection.
    reconnected: int = 0
    #: 503 answers saying the records database cannot be reached, and the message of the first.
    down: int = 0
    down_message: str = ""
    #: game id -> version after it -> the actions sent for that place without an answer (none, or a 503):
    #: each may or may not have been written.
    sent: dict[str, dict[int, set[tuple[str, str | None]]]] = field(default_factory=dict)
    #: game id -> the places where an action was answered with a 503 (which says it was not saved).
    refused: dict[str, set[int]] = field(default_factory=dict)
    #: Actions acknowledged before, during and after the fault.
    acked: dict[str, int] = field(default_factory=lambda: dict.fromkeys((BEFORE, DURING, AFTER), 0))
    #: What struck, when, and how long until the app answered again.
    faults: list[str] = field(default_factory=list)


@dataclass
class Schedule:
    """When the players stop, and where the run stands with respect to its fault."""

    began: float
    deadline: float
    phase: str = BEFORE
    began_perf: float = field(default_factory=time.perf_counter)

    def playing(self) -> bool:
        return time.monotonic() < self.deadline


class Outcome(enum.Enum):
    ANSWERED = "answered"  # 200 or 201
    UNANSWERED = "unanswered"  # no answer at all (only with a fault; otherwise an error)
    DOWN = "down"  # 503: the records database cannot be reached (only with a fault)
    ERROR = "error"


@dataclass
class Track:
    """One game as its player follows it."""

    id: str
    log: list[Entry]
    version: int = 0


class Player:
    """One simulated player: a client of its own (:mod:`raw_http`) with its own cookie."""

    def __init__(
        self,
        number: int,
        apps: list[str],
        deals: list[tuple[str, list[str]]],
        seen: Seen,
        schedule: Schedule,
        faults: bool,
        think: float = THINK,
        delay: float = 0.0,
    ) -> None:
        self.rng = random.Random(number)
        self.think = think
        #: Seconds after the start before this player's first request (``--ramp``).
        self.delay = delay
        self.apps = apps
        self.home = number % len(apps)
        self.deals = deals
        self.seen = seen
        self.schedule = schedule
        self.faults = faults
        # Each player from an address of its own, as through a reverse proxy on this machine (the app believes
        # X-Forwarded-For from loopback): the limit for requests without a cookie is per address, and real
        # players do not share one.
        address = f"10.{number >> 16 & 255}.{number >> 8 & 255}.{number & 255}"
        self.client = raw_http.Client(headers={"X-Forwarded-For": address})

    async def play(self) -> None:
        """Play deal after deal until the time is up or an error."""
        await asyncio.sleep(self.delay)
        async with self.client:
            try:
                while self.schedule.playing():
                    code, moves = self.deals[self.rng.randrange(len(self.deals))]
                    game = await self.start(code)
                    if game is None or not await self.play_deal(game, moves):
                        return
                    self.seen.won += 1
            finally:
                self.seen.reconnected += self.client.closed_by_server

    async def call(self, path: str, body: object | None = None, get: bool = False) -> tuple[Outcome, Any]:
        """One request to the player's app process; the answer's JSON when it is 200 or 201."""
        if len(self.apps) > 1 and self.rng.random() < SWITCH:
            self.home = (self.home + 1) % len(self.apps)
        started = time.perf_counter()
        try:
            if get:
                answer = await self.client.get(self.apps[self.home] + path)
            else:
                answer = await self.client.post(self.apps[self.home] + path, json=body)
        except raw_http.TransportError as exc:
            if self.faults:
                self.seen.unanswered += 1
                return Outcome.UNANSWERED, None
            self.seen.errors.append(f"{path}: {exc}")
            return Outcome.ERROR, None
        self.seen.latencies.append(time.perf_counter() - started)
        if answer.status_code in (200, 201):
            return Outcome.ANSWERED, answer.json()
        if self.faults and answer.status_code == 503 and self.database_away(answer):
            return Outcome.DOWN, None
        self.seen.errors.append(f"{path}: HTTP {answer.status_code} {answer.text[:120]}")
        return Outcome.ERROR, None

    def database_away(self, answer: raw_http.Answer) -> bool:
        """Whether a 503 is the app's clear answer that the records database cannot be reached."""
        try:
            body = answer.json()
        except ValueError:
            return False
        if not isinstance(body, dict) or body.get("code") != DOWN_CODE or body.get("message") != DOWN_MESSAGE:
            return False
        self.seen.down += 1
        self.seen.down_message = self.seen.down_message or str(body["message"])
        return True

    async def pause(self, step: int) -> None:
        """Wait before asking again after the ``step``-th request in a row without an answer."""
        longest = min(RETRY_LONGEST, RETRY_FIRST * 2**step)
        await asyncio.sleep(longest * (0.5 + self.rng.random() / 2))
        if len(self.apps) > 1:
            self.home = (self.home + 1) % len(self.apps)

    async def start(self, code: str) -> Track | None:
        """A new game of the deal, asked for until an app answers; None when the time is up or on an error."""
        step = 0
        while True:
            outcome, created = await self.call("/api/games", {"code": code})
            if outcome is Outcome.ANSWERED:
                game_id = str(created["game"]["id"])
                return Track(game_id, self.seen.games.setdefault(game_id, []))
            if outcome is Outcome.ERROR or not self.schedule.playing():
                return None
            await self.pause(step)
            step += 1

    async def play_deal(self, game: Track, moves: list[str]) -> bool:
        """The solver's solution move by move, with detours; False if the player stops before the end."""
        for index, move in enumerate(moves):
            if not self.schedule.playing():
                return False
            if self.rng.random() < DETOUR and not await self.act(game, "hint", None, "hint"):
                return False
            if not await self.act(game, "move", move, "move", {"move": move}):
                return False
            # no undo after the winning move: the game is over, and the page offers none then
            detour = self.rng.random() < DETOUR and index < len(moves) - 1
            if detour and (
                not await self.act(game, "undo", None, "undo") or not await self.act(game, "redo", None, "redo")
            ):
                return False
        return True

    async def act(self, game: Track, kind: str, arg: str | None, path: str, body: object | None = None) -> bool:
        """One action, after the player's pause, until it is known to be recorded; False when the player
        stops (an error, or the time ran out while the app or its database was away)."""
        if self.think > 0:
            await asyncio.sleep(self.think * (0.5 + self.rng.random()))
        while True:
            asked = time.perf_counter()
            outcome, answer = await self.call(f"/api/games/{game.id}/{path}?version={game.version}", body)
            if outcome is Outcome.ANSWERED:
                self.seen.actions.append((asked - self.schedule.began_perf, time.perf_counter() - asked, kind))
                game.version = int(answer["game"]["version"])
                game.log.append((game.version, kind, arg))
                self.seen.acked[self.schedule.phase] += 1
                return True
            if outcome is Outcome.ERROR:
                return False
            # No answer, or the database was away: the action may be written or not; the game will say.
            place = game.version + 1
            self.seen.sent.setdefault(game.id, {}).setdefault(place, set()).add((kind, arg))
            if outcome is Outcome.DOWN:
                self.seen.refused.setdefault(game.id, set()).add(place)
            version = await self.resync(game)
            if version is None:
                return False
            if version == place:
                game.version = version  # written before the answer was lost: go on from there
                return True
            if version != game.version:
                self.seen.errors.append(f"game {game.id}: at version {version} after an action sent at {game.version}")
                return False

    async def resync(self, game: Track) -> int | None:
        """The game's version, asked for until an app answers; None when the time is up or on an error."""
        step = 0
        while self.schedule.playing():
            await self.pause(step)
            step += 1
            outcome, answer = await self.call(f"/api/games/{game.id}", get=True)
            if outcome is Outcome.ANSWERED:
                return int(answer["game"]["version"])
            if outcome is Outcome.ERROR:
                return None
        return None


class Fault(Protocol):
    """Something that goes wrong in the middle of a run."""

    async def strike(self) -> str:
        """Break something and mend it; returns what was done (the caller adds when)."""
        ...


@dataclass
class Kill:
    """SIGKILL one app process (all of them if there is only one) and start it again on the same
    database and port, so its players find it where it was."""

    apps: list[App]

    async def strike(self) -> str:
        victims = self.apps[:1]
        for app in victims:
            await asyncio.to_thread(app.kill)
        killed = time.monotonic()
        for app in victims:
            await asyncio.to_thread(app.launch)
        for app in victims:
            await asyncio.to_thread(app.wait_ready)
        return (
            f"SIGKILL of {len(victims)} of {len(self.apps)} app process(es), restarted on the same port: "
            f"answering again after {time.monotonic() - killed:.1f} s"
        )


@dataclass
class KillWorker:
    """SIGKILL one worker of ``serve --workers N``, then let the players play on for ``window`` s (the
    actions acknowledged meanwhile are the other workers' answers: the new worker takes a while to start)."""

    app: App
    window: float = 0.5

    async def strike(self) -> str:
        pids = await asyncio.to_thread(self.app.worker_pids)
        # the busiest: a burst of new connections tends to go to one worker (its event loop accepts many at
        # once), and a worker nobody is connected to would take no player's actions with it
        victim = max(pids, key=cpu_ticks)
        os.kill(victim, signal.SIGKILL)
        await asyncio.sleep(self.window)
        return f"SIGKILL of worker {victim} of {self.app.workers} (seen answering: {len(pids)})"


def cpu_ticks(pid: int) -> int:
    """The processor time a process has used (user and system, in clock ticks; Linux's /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


class Server(Protocol):
    """The private PostgreSQL server (tests/pg_server.py)."""

    def stop_server(self) -> None: ...

    def start_server(self) -> None: ...


@dataclass
class Outage:
    """Stop the PostgreSQL server at once (its connections cut) and start it again ``length`` s later."""

    server: Server
    length: float

    async def strike(self) -> str:
        await asyncio.to_thread(self.server.stop_server)
        stopped = time.monotonic()
        try:
            await asyncio.sleep(self.length)
        finally:
            await asyncio.to_thread(self.server.start_server)
        return f"PostgreSQL stopped (immediate), started again after {time.monotonic() - stopped:.1f} s"


async def strike(fault: Fault, at: float, seen: Seen, schedule: Schedule, after: float) -> None:
    """The fault, ``at`` s into the run once some action has been answered; then at least ``after`` s
    more play."""
    await asyncio.sleep(max(0.0, schedule.began + at - time.monotonic()))
    while not seen.acked[BEFORE] and schedule.playing():
        await asyncio.sleep(0.05)
    struck = time.monotonic() - schedule.began
    schedule.phase = DURING
    try:
        what = await fault.strike()
    finally:
        schedule.phase = AFTER
        schedule.deadline = max(schedule.deadline, time.monotonic() + after)
    seen.faults.append(f"at {struck:.1f} s: {what}")


async def run(
    apps: list[str],
    deals: list[tuple[str, list[str]]],
    players: int,
    seconds: float,
    fault: tuple[Fault, float] | None = None,
    after: float = 0.0,
    think: float = THINK,
    ramp: float = 0.0,
) -> Seen:
    """Play for ``seconds`` after a ``ramp`` of seconds over which the players join one after another
    (with the fault at its moment, and at least ``after`` s once it is over), each player pausing
    ``think`` s on average between actions."""
    seen = Seen()
    began = time.monotonic()
    schedule = Schedule(began, began + ramp + seconds)
    tasks = [
        Player(n, apps, deals, seen, schedule, fault is not None, think, delay=ramp * n / players).play()
        for n in range(players)
    ]
    if fault is not None:
        tasks.append(strike(fault[0], fault[1], seen, schedule, after))
    await asyncio.gather(*tasks)
    return seen


def know_pars(db: str, deals: list[tuple[str, list[str]]]) -> None:
    """Work out and keep the deals' pars before the run, as the server's background worker does the first
    time each is won (web/pars.py), so that no par search shares the machine with the run."""
    store = Store(db)
    try:
        for code, _ in deals:
            store.save_par(code, compute_par(Deal.from_code(code)))
    finally:
        store.close()


def verified_deals(count: int) -> list[tuple[str, list[str]]]:
    """The first ``count`` classic deals of the verified catalogue at normal difficulty — what the game
    deals a player asking for one — with the solver's solutions."""
    listed = catalogue("classic")
    assert listed is not None
    deals: list[tuple[str, list[str]]] = []
    for number in listed["normal"][:count]:
        deal = Deal.from_number(number, "classic", "N")
        result = solve(deal, time_limit=10)
        assert result.winnable and result.solution, deal.code
        deals.append((deal.code, [str(m) for m in result.solution]))
    return deals


@dataclass
class Checked:
    """The database compared with what the clients saw."""

    answered: int = 0
    #: Answered but not recorded at their place.
    lost: int = 0
    #: Recorded but never sent for that place, or out of order, or a game row that disagrees with its actions.
    wrong: int = 0
    #: Sent without an answer (or with a 503), yet recorded: the action in flight when the fault struck.
    unanswered_written: int = 0
    #: Of those, answered with a 503, whose message says the action was not saved.
    refused_written: int = 0


def check(store: Store, seen: Seen) -> Checked:
    """Compare the database with the clients."""
    checked = Checked()
    for game_id, log in seen.games.items():
        recorded = store.actions(game_id)
        row = store.game(game_id)
        sent = seen.sent.get(game_id, {})
        checked.answered += len(log)
        by_seq = {a.seq: a for a in recorded}
        for version, kind, arg in log:
            action = by_seq.get(version)
            if action is None:
                checked.lost += 1
            elif (action.kind, action.arg) != (kind, arg):
                checked.wrong += 1
        acknowledged = {version for version, _, _ in log}
        for action in recorded:
            if action.seq in acknowledged:
                continue
            if (action.kind, action.arg) in sent.get(action.seq, ()):
                checked.unanswered_written += 1
                checked.refused_written += action.seq in seen.refused.get(game_id, ())
            else:
                checked.wrong += 1  # recorded but never answered nor sent there: doubled
        in_order = [a.seq for a in recorded] == list(range(1, len(recorded) + 1))
        if row is None or row.version != len(recorded) or not in_order:
            checked.wrong += 1
    return checked


def report(seen: Seen, checked: Checked, elapsed: float, warmup: float = 0.0) -> None:
    """The figures after the first line; the steady state's are those of the actions sent ``warmup`` s or
    more after the start (when every player has dealt its first game: a crowd dealing at once is not
    the steady state)."""
    print(
        f"  answered actions: {checked.answered} ({checked.answered / elapsed:.0f}/s), games: {len(seen.games)}, "
        f"won: {seen.won}"
    )
    if seen.latencies:
        print("  latency, every request: " + spread(seen.latencies))
    steady = [(latency, kind) for sent, latency, kind in seen.actions if sent >= warmup]
    last = max((sent for sent, _, _ in seen.actions), default=warmup)
    if steady and last > warmup:
        rate = len(steady) / (last - warmup)
        print(
            f"  steady state (actions sent from {warmup:.0f} s on): {len(steady)} ({rate:.0f}/s), "
            + spread([latency for latency, _ in steady])
        )
        for kind in ("move", "hint", "undo", "redo"):
            some = [latency for latency, of in steady if of == kind]
            if some:
                print(f"    {kind}s: {len(some)} ({len(some) / (last - warmup):.0f}/s), " + spread(some))
    for fault in seen.faults:
        print(f"  fault {fault}")
    if seen.faults:
        print(
            f"  acknowledged before / during / after the fault: {seen.acked[BEFORE]} / {seen.acked[DURING]} / "
            f"{seen.acked[AFTER]}"
        )
        print(
            f"  unanswered requests: {seen.unanswered}; kept connections found closed: {seen.reconnected};"
            f" 503 database away: {seen.down}" + (f" ({seen.down_message})" if seen.down_message else "")
        )
        print(
            f"  sent without an answer yet written: {checked.unanswered_written} "
            f"(of them answered 503: {checked.refused_written})"
        )
    print(f"  errors: {len(seen.errors)}; lost actions: {checked.lost}; doubled or out of order: {checked.wrong}")
    for error in seen.errors[:5]:
        print(f"    {error}")


def spread(seconds: list[float]) -> str:
    ms = [x * 1000 for x in seconds]
    return (
        f"p50 {statistics.median(ms):.1f} ms, p90 {percentile(ms, 0.9):.1f} ms, "
        f"p99 {percentile(ms, 0.99):.1f} ms, max {max(ms):.1f} ms"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument(
        "--think", type=float, default=THINK, help=f"mean pause of a player between actions, s (default {THINK})"
    )
    parser.add_argument(
        "--warmup", type=float, default=5.0, help="seconds left out of the steady state's figures (default 5)"
    )
    parser.add_argument(
        "--ramp",
        type=float,
        default=0.0,
        help="seconds over which the players join, one after another, before the --seconds of full load (default"
        " 0: all at once, so that their games start, and are won, in waves); left out of the steady state too",
    )
    parser.add_argument(
        "--pars-known",
        action="store_true",
        help="work out the deals' pars before the run, as a site that has run a while knows them (otherwise"
        " the server works each out in the background the first time it is won, during the run)",
    )
    parser.add_argument("--processes", type=int, default=1, help="app processes on the one database")
    parser.add_argument("--workers", type=int, default=1, help="worker processes of each (serve --workers N)")
    parser.add_argument("--db", help="database URL (default: a new SQLite file)")
    parser.add_argument("--postgres", action="store_true", help="start a private PostgreSQL server for the run")
    parser.add_argument("--deals", type=int, default=20, help="verified classic deals the players share")
    faults = parser.add_mutually_exclusive_group()
    faults.add_argument(
        "--kill-at", type=float, metavar="SECONDS", help="SIGKILL an app process then, and restart it on the same port"
    )
    faults.add_argument(
        "--kill-worker-at", type=float, metavar="SECONDS", help="SIGKILL one worker of serve --workers N then"
    )
    faults.add_argument(
        "--outage-at", type=float, metavar="SECONDS", help="stop the private PostgreSQL server then (needs --postgres)"
    )
    parser.add_argument(
        "--outage-for",
        type=float,
        default=5,
        metavar="SECONDS",
        help="how long the PostgreSQL server stays away (default 5)",
    )
    args = parser.parse_args()
    if args.outage_at is not None and not args.postgres:
        parser.error("--outage-at needs --postgres (the server this script starts is the one it can stop)")
    if args.kill_worker_at is not None and args.workers < 2:
        parser.error("--kill-worker-at needs --workers 2 or more (the others answer meanwhile)")

    server = None
    if args.postgres:
        sys.path.insert(0, str(ROOT / "tests"))
        from pg_server import PostgresServer

        # syncing its log at each commit, as a real one; with room for every worker's connections
        # (docs/deploy.md: up to CONNECTIONS_PER_PROCESS each, more than the default 100 from 4 workers on)
        connections = max(100, args.processes * args.workers * CONNECTIONS_PER_PROCESS + 10)
        server = PostgresServer(durable=True, max_connections=connections)
        server.start()
        db = server.create_database("load")
    else:
        db = args.db or f"sqlite:///{Path(tempfile.mkdtemp(prefix='pyramid-load-')) / 'games.sqlite3'}"
    deals = verified_deals(args.deals)
    if args.pars_known:
        know_pars(db, deals)
    apps = start_apps(db, args.processes, args.workers)
    fault: tuple[Fault, float] | None = None
    if args.kill_at is not None:
        fault = (Kill(apps), args.kill_at)
    elif args.kill_worker_at is not None:
        fault = (KillWorker(apps[0]), args.kill_worker_at)
    elif args.outage_at is not None and server is not None:
        fault = (Outage(server, args.outage_for), args.outage_at)
    try:
        began = time.perf_counter()
        seen = uvloop.run(
            run([app.url for app in apps], deals, args.players, args.seconds, fault, think=args.think, ramp=args.ramp)
        )
        elapsed = time.perf_counter() - began
    finally:
        for app in apps:
            app.stop()
    store = Store(db)
    checked = check(store, seen)
    store.close()
    if server is not None:
        server.stop()
    kind = "PostgreSQL" if db.startswith("postgresql") else "SQLite"
    workers = f" of {args.workers} workers each" if args.workers > 1 else ""
    ramp = f" after a ramp of {args.ramp:.0f} s" if args.ramp else ""
    print(
        f"load: {args.players} players for {args.seconds:.0f} s{ramp} (pausing {args.think} s on average), {kind}, "
        f"{args.processes} app process(es){workers}"
    )
    report(seen, checked, elapsed, args.ramp + args.warmup)
    return 0 if not seen.errors and not checked.lost and not checked.wrong else 1


if __name__ == "__main__":
    sys.exit(main())

"""Web app speed and weight: requests, transactions and server time per move, the old protocol beside the new
one, and the bytes of a first visit.

    .venv/bin/python benchmarks/web.py                       # 20 verified classic deals, uvicorn on loopback
    .venv/bin/python benchmarks/web.py --baseline none       # only today's protocol (no old build)
    .venv/bin/python benchmarks/web.py --deals 50 --rules thirteen
    .venv/bin/python benchmarks/web.py --transport testclient   # in-process ASGI calls, no sockets

The first ``--deals`` deals from ``--start`` that the solver proves winnable are solved *before* the
clock starts; then each is played as a browser plays it, one extra deal first to warm up and not
counted.  Two protocols are played on the same deals in one run:

*moves* (today's app, issue 19): the page chooses cards itself from the state and sends each move —
a removal, a draw, a recycle — as one ``POST /move``.

*taps* (the app as it was at ``--baseline``, by default the last commit before moves replaced taps):
every card tap and stock tap is a request of its own, and the server keeps the selection.  That
version's sources are taken from git (``git archive``) into ``.cache/web-baseline/<commit>/``, its hot
modules compiled with mypyc as today's are, and it is played in a child process of this script with
that tree first on ``PYTHONPATH``, so both run their own code on the same machine minutes apart.

The app runs in the playing process: by default under uvicorn on 127.0.0.1 (in a thread, as the
browser tests run it), driven by an httpx client over real HTTP with keep-alive; with ``--transport
testclient`` through FastAPI's TestClient (no sockets).  Every answer is checked (``won`` at the end);
a wrong answer is printed and the exit status is 1.

*Server time* is measured inside the server by a wrapper around the ASGI app: from the request's
arrival at the app to its last body chunk, so it covers routing, validation, the engine, the database
write, building the state and encoding the JSON, but not HTTP parsing or the network.  A move's server
time is the sum over its requests (one, or one per tap).  *Transactions* are the database transactions
that wrote something (counted with SQLAlchemy's events on the app's engine), each one a sync to disk.
*Engine only* (today's protocol) plays the same moves straight on ``Session`` with no HTTP, FastAPI or
database, to show which part of the server time is the game's own.

*First visit* downloads ``/``, every file ``index.html`` links (stylesheets, icons, scripts), the ES
modules the scripts import (followed recursively), ``url(...)`` and ``@import`` in the CSS, the locale
``/locales/<lang>.json`` and ``/api/rules``; the figure is response bodies as sent, headers not counted.
The first game's state (``POST /api/games``) is shown beside it.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import warnings
from collections.abc import Awaitable, Callable, MutableMapping
from html.parser import HTMLParser
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urljoin, urlsplit

from figures import percentile, unlimited

from pyramid_solitaire import Deal
from pyramid_solitaire.solver import solve
from pyramid_solitaire.web.app import create_app

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]
KB = 1024
MS = 1000


class Client(Protocol):
    """What the benchmark needs of httpx.Client and TestClient alike."""

    def get(self, url: str) -> Any: ...

    def post(self, url: str, json: Any = None) -> Any: ...


class ServerTimer:
    """ASGI wrapper that keeps the server time of the last answered HTTP request."""

    def __init__(self, app: App) -> None:
        self.app = app
        self.last = 0.0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()

        async def timed(message: Message) -> None:
            if message["type"] == "http.response.body" and not message.get("more_body", False):
                self.last = time.perf_counter() - started  # before sending: the client cannot read it earlier
            await send(message)

        await self.app(scope, receive, timed)


def figures(seconds: list[float]) -> str:
    """``median 1.20 ms, p90 …, p99 …, max …``."""
    return (
        f"median {statistics.median(seconds) * MS:.2f} ms, p90 {percentile(seconds, 0.9) * MS:.2f} ms, "
        f"p99 {percentile(seconds, 0.99) * MS:.2f} ms, max {max(seconds) * MS:.2f} ms"
    )


# --- serving ------------------------------------------------------------------------------------------


def serve_on_loopback(app: App) -> tuple[str, Callable[[], None]]:
    """Run ``app`` under uvicorn on a free loopback port in a thread; returns its URL and a stop function."""
    import socket

    import uvicorn

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise SystemExit("the web app did not start")
        time.sleep(0.02)

    def stop() -> None:
        server.should_exit = True
        thread.join(timeout=10)

    return f"http://127.0.0.1:{port}", stop


# --- playing ------------------------------------------------------------------------------------------


class Writes:
    """Counts the database transactions that wrote something, on the app's SQLAlchemy engine."""

    WRITING = ("INSERT", "UPDATE", "DELETE")

    def __init__(self, engine: Any) -> None:
        from sqlalchemy import event

        self.count = 0
        event.listen(engine, "before_cursor_execute", self._statement)
        event.listen(engine, "commit", self._commit)
        event.listen(engine, "rollback", self._rollback)

    def _statement(self, conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        if statement.lstrip().upper().startswith(self.WRITING):
            conn.info["wrote"] = True

    def _commit(self, conn: Any) -> None:
        if conn.info.pop("wrote", False):
            self.count += 1

    def _rollback(self, conn: Any) -> None:
        conn.info.pop("wrote", None)


class Player:
    """Plays deals through the API by one protocol and keeps, per move, its requests, transactions,
    server time and round trip."""

    def __init__(self, client: Client, timer: ServerTimer, writes: Writes, lang: str, protocol: str) -> None:
        self.client = client
        self.timer = timer
        self.writes = writes
        self.lang = lang
        self.protocol = protocol
        self.requests = 0
        self.per_move_server: list[float] = []
        self.per_move_trip: list[float] = []
        self.per_request_server: list[float] = []
        #: Which moves were each deal's last: ending the game, their answers also carry the result screen's
        #: figures (the player's statistics and the deal's leaderboard, read from the database).
        self.winning: list[int] = []
        self.deals = 0
        self.transactions = 0
        self.problems: list[str] = []

    def call(self, path: str, body: dict[str, Any] | None = None) -> tuple[Any, float, float]:
        """POST; the answer, its server time and its round trip."""
        started = time.perf_counter()
        response = self.client.post(f"{path}?lang={self.lang}", json=body)
        answer = response.json()
        waited = time.perf_counter() - started
        if response.status_code >= 300:
            self.problems.append(f"{path}: HTTP {response.status_code} {answer}")
        return answer, self.timer.last, waited

    def requests_of(self, game_id: str, move: str) -> list[tuple[str, dict[str, Any] | None]]:
        """The requests the page sends for one move under this protocol."""
        if self.protocol == "moves":
            return [(f"/api/games/{game_id}/move", {"move": move})]
        if move in ("draw", "recycle"):
            return [(f"/api/games/{game_id}/stock", None)]
        return [(f"/api/games/{game_id}/tap", {"card": card}) for card in move.split("+")]

    def play(self, deal: Deal, solution: list[str]) -> None:
        """Play ``solution`` on a new game of ``deal``; a game not won at the end is a problem."""
        game = self.call("/api/games", {"code": deal.code})[0]["game"]
        writes_before = self.writes.count
        answer: Any = {"game": game}
        for move in solution:
            server = trip = 0.0
            for path, body in self.requests_of(game["id"], move):
                answer, spent, waited = self.call(path, body)
                server += spent
                trip += waited
                self.requests += 1
                self.per_request_server.append(spent)
            self.per_move_server.append(server)
            self.per_move_trip.append(trip)
        self.winning.append(len(self.per_move_server) - 1)
        self.transactions += self.writes.count - writes_before
        self.deals += 1
        final = answer["game"]
        if not (final.get("result") or {}).get("won"):
            self.problems.append(f"{deal.code}: not won after the solver's solution: {final.get('status')}")

    def figures(self) -> dict[str, Any]:
        """What the report prints, as JSON (the taps protocol is played in a child process)."""
        return {
            "protocol": self.protocol,
            "deals": self.deals,
            "moves": len(self.per_move_server),
            "requests": self.requests,
            "transactions": self.transactions,
            "server": self.per_move_server,
            "trip": self.per_move_trip,
            "request_server": self.per_request_server,
            "winning": self.winning,
            "problems": self.problems,
        }


def engine_only(deals: list[tuple[Deal, list[str]]], lang: str) -> list[float]:
    """The same moves straight on :class:`~pyramid_solitaire.web.play.Session` (play, bookkeeping, state,
    ``json.dumps``) without HTTP, FastAPI or the database: the part of the server time that is the game's own."""
    from pyramid_solitaire.game import Game
    from pyramid_solitaire.record import parse_entry
    from pyramid_solitaire.web.play import Session

    seconds: list[float] = []
    for deal, solution in deals:
        session = Session(Game(deal))
        for move in solution:
            started = time.perf_counter()
            event = session.act(parse_entry(move))
            session.after_action()
            json.dumps({"game": session.state(lang), "event": event}, ensure_ascii=False)
            seconds.append(time.perf_counter() - started)
    return seconds


def verified_deals(rules: str, start: int, count: int) -> tuple[list[tuple[Deal, list[str]]], float]:
    """The first ``count`` deals from ``start`` the solver proves winnable, with solutions; and the seconds."""
    started = time.perf_counter()
    found: list[tuple[Deal, list[str]]] = []
    number = start
    while len(found) < count:
        deal = Deal.from_number(number, rules)
        result = solve(deal, best=False, time_limit=10)
        if result.winnable and result.solution:
            found.append((deal, [str(m) for m in result.solution]))
        number += 1
    return found, time.perf_counter() - started


# --- the first visit ----------------------------------------------------------------------------------


class Links(HTMLParser):
    """Every URL the page itself loads: stylesheets and icons, scripts, images."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if (
            tag == "link"
            and values.get("href")
            and values.get("rel") in ("stylesheet", "icon", "modulepreload", "preload", "manifest", "apple-touch-icon")
        ):
            self.urls.append(values["href"] or "")
        elif tag in ("script", "img", "source") and values.get("src"):
            self.urls.append(values["src"] or "")


JS_IMPORT = re.compile(r"""^\s*(?:import|export)\s*(?:[\w*{}\s,$]*?\bfrom\s*)?\(?\s*["']([^"']+)["']""", re.MULTILINE)
CSS_URL = re.compile(r"""url\(\s*["']?([^"')]+)["']?\s*\)|@import\s+["']([^"']+)["']""")


def first_visit(client: Client, lang: str) -> tuple[list[tuple[str, int]], int]:
    """(path, bytes) of everything a first visit downloads, and the bytes of the first game's state."""
    seen: dict[str, int] = {}
    queue = ["/"]
    while queue:
        path = queue.pop(0)
        if path in seen:
            continue
        response = client.get(path)
        if response.status_code != 200:
            raise SystemExit(f"first visit: {path} answered HTTP {response.status_code}")
        body: bytes = response.content
        seen[path] = len(body)
        text = body.decode("utf-8", errors="replace")
        found: list[str] = []
        if path == "/" or path.endswith(".html"):
            parser = Links()
            parser.feed(text)
            found = parser.urls
        elif path.endswith((".js", ".mjs")):
            found = JS_IMPORT.findall(text)
        elif path.endswith(".css"):
            found = [a or b for a, b in CSS_URL.findall(text)]
        for url in found:
            if url.startswith("data:"):
                continue
            absolute = urlsplit(urljoin(f"http://page{path}", url))
            if absolute.netloc == "page":
                queue.append(absolute.path)
    for path in (f"/locales/{lang}.json", f"/api/rules?lang={lang}"):
        seen[path] = len(client.get(path).content)
    state = client.post(f"/api/games?lang={lang}", json={"code": Deal.from_number(1, "classic").code})
    return list(seen.items()), len(state.content)


# --- main ---------------------------------------------------------------------------------------------


def nothing() -> None:
    """Nothing to stop (the TestClient runs no server)."""


#: The last commit before moves replaced taps (issue 19): the default ``--baseline``.
TAPS_BASELINE = "dea889883ed582631c951d380185d092f79b2ae9"
ROOT = Path(__file__).resolve().parents[1]


def baseline_tree(revision: str) -> Path:
    """The package's sources at ``revision``, taken from git and compiled, in ``.cache/web-baseline/``."""
    commit = subprocess.run(
        ["git", "rev-parse", f"{revision}^{{commit}}"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.strip()
    tree = ROOT / ".cache" / "web-baseline" / commit
    if not (tree / "src" / "pyramid_solitaire").is_dir():
        tree.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(["git", "archive", commit, "src"], cwd=ROOT, capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
    env = {**os.environ, "PYTHONPATH": str(tree / "src")}
    built = subprocess.run(
        [sys.executable, "-m", "pyramid_solitaire.build_native"],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if built.returncode != 0:
        raise SystemExit(f"could not compile the baseline {commit[:7]}: {built.stderr.strip()[-500:]}")
    return tree


def serve(transport: str, timer: ServerTimer) -> tuple[Any, Callable[[], None], str]:
    """A client of the timed app, a function that stops it, and a line saying how it runs."""
    if transport == "uvicorn":
        import httpx

        base, stop = serve_on_loopback(timer)
        return (
            httpx.Client(base_url=base, timeout=30),
            stop,
            "uvicorn on 127.0.0.1 in the playing process, httpx client with keep-alive",
        )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient
    return TestClient(timer), nothing, "FastAPI TestClient in the playing process, no sockets"


def play_all(
    protocol: str, deals: list[tuple[Deal, list[str]]], lang: str, transport: str, visit: bool = False
) -> dict[str, Any]:
    """Play the deals (the first to warm up) by ``protocol`` against the app importable here; the figures,
    and with ``visit`` the first visit's downloads too."""
    app = create_app(limiter=unlimited())
    writes = Writes(app.state.games.store.engine)
    timer = ServerTimer(app)
    client, stop, where = serve(transport, timer)
    try:
        Player(client, timer, writes, lang, protocol).play(*deals[0])
        player = Player(client, timer, writes, lang, protocol)
        started = time.perf_counter()
        for deal, solution in deals[1:]:
            player.play(deal, solution)
        result = {**player.figures(), "total": time.perf_counter() - started, "where": where}
        if visit:
            result["visit"], result["state_bytes"] = first_visit(client, lang)
    finally:
        client.close()
        stop()
    return result


def play_baseline(revision: str, deals: list[tuple[Deal, list[str]]], args: argparse.Namespace) -> dict[str, Any]:
    """The taps protocol, played on the baseline's own code in a child process."""
    tree = baseline_tree(revision)
    with tempfile.TemporaryDirectory() as temp:
        given = Path(temp) / "deals.json"
        given.write_text(json.dumps([[deal.code, solution] for deal, solution in deals]))
        out = Path(temp) / "figures.json"
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tree / "src"), str(Path(__file__).parent)])}
        subprocess.run(
            [
                sys.executable,
                __file__,
                "--child-taps",
                str(given),
                str(out),
                "--lang",
                args.lang,
                "--transport",
                args.transport,
            ],
            env=env,
            check=True,
        )
        figures_: dict[str, Any] = json.loads(out.read_text())
    figures_["commit"] = tree.name[:7]
    return figures_


def child_taps(given: Path, out: Path, args: argparse.Namespace) -> int:
    """In the child: play the deals of ``given`` by taps and write the figures to ``out``."""
    deals = [(Deal.from_code(code), solution) for code, solution in json.loads(given.read_text())]
    out.write_text(json.dumps(play_all("taps", deals, args.lang, args.transport)))
    return 0


def report(rows: list[dict[str, Any]]) -> None:
    """Requests, transactions and server time per move, one line a protocol."""
    print(
        f"  {'protocol':22} {'requests/deal':>13} {'transactions/deal':>17} {'requests/move':>13}   "
        "server time per move"
    )
    for row in rows:
        deals = row["deals"]
        name = row["protocol"] + (f" ({row['commit']})" if "commit" in row else " (today)")
        print(
            f"  {name:22} {row['requests'] / deals:13.1f} {row['transactions'] / deals:17.1f} "
            f"{row['requests'] / row['moves']:13.2f}   {figures(row['server'])}"
        )
    for row in rows:
        print(
            f"  {row['protocol']}: round trip per move {figures(row['trip'])}; "
            f"server time per request {figures(row['request_server'])}"
        )
        last = set(row["winning"])
        winning = [s for i, s in enumerate(row["server"]) if i in last]
        others = [s for i, s in enumerate(row["server"]) if i not in last]
        print(
            f"  {row['protocol']}: server time of the {len(winning)} winning moves {figures(winning)}; "
            f"of the other moves {figures(others)}"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--deals", type=int, default=20, help="verified deals to play")
    parser.add_argument("--start", type=int, default=0, help="first deal number tried")
    parser.add_argument("--lang", default="ja", choices=["ja", "en"])
    parser.add_argument(
        "--transport",
        default="uvicorn",
        choices=["uvicorn", "testclient"],
        help="uvicorn on loopback (default) or in-process TestClient calls",
    )
    parser.add_argument(
        "--baseline",
        default=TAPS_BASELINE,
        help="the commit whose taps protocol is played beside today's moves ('none': skip it)",
    )
    parser.add_argument("--child-taps", nargs=2, type=Path, metavar=("DEALS", "OUT"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child_taps:
        return child_taps(*args.child_taps, args)

    deals, solving = verified_deals(args.rules, args.start, args.deals + 1)
    rows = []
    if args.baseline != "none":
        rows.append(play_baseline(args.baseline, deals, args))
    today = play_all("moves", deals, args.lang, args.transport, visit=True)
    rows.append(today)
    engine_only(deals[:1], args.lang)
    engine = engine_only(deals[1:], args.lang)

    numbers = [deal.number for deal, _ in deals[1:]]
    print(f"web app, {today['where']}")
    print(
        f"  {args.rules} deals {numbers[0]}..{numbers[-1]}: {len(numbers)} verified deals won with the solver's "
        f"solutions, {today['moves']} moves (solved beforehand in {solving:.1f} s; one more deal played first "
        f"to warm up)"
    )
    report(rows)
    print(f"  engine only (Session + state + json.dumps, no HTTP, no database): {figures(engine)}")
    visit, state_bytes = today["visit"], today["state_bytes"]
    total_bytes = sum(size for _, size in visit)
    print(
        f"  first visit: {len(visit)} downloads, {total_bytes:,} bytes ({total_bytes / KB:.1f} KB), "
        f"uncompressed, bodies only"
    )
    for path, size in visit:
        print(f"    {path:32} {size:7,} bytes")
    print(
        f"  the first game's state (POST /api/games): {state_bytes:,} bytes; with it {total_bytes + state_bytes:,} "
        f"bytes ({(total_bytes + state_bytes) / KB:.1f} KB)"
    )
    problems = [problem for row in rows for problem in row["problems"]]
    for problem in problems[:20]:
        print(f"WRONG {problem}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

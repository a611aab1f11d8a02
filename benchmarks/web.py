"""Web app speed and weight: server time per action (median, p90, p99, max) and the bytes of a first visit.

    .venv/bin/python benchmarks/web.py                       # 20 verified classic deals, uvicorn on loopback
    .venv/bin/python benchmarks/web.py --deals 50 --rules thirteen
    .venv/bin/python benchmarks/web.py --transport testclient   # in-process ASGI calls, no sockets

The app runs in this process: by default under uvicorn on 127.0.0.1 (in a thread, as the browser tests
run it), driven by an httpx client over real HTTP with keep-alive; with ``--transport testclient``
through FastAPI's TestClient (no sockets).  The first ``--deals`` deals from ``--start`` that the
solver proves winnable are solved *before* the clock starts; then each is played as a browser plays
it: a new game by its code, then the solver's solution as taps (each card tapped, the stock tapped to
draw or recycle).  Every answer is checked (selected / removed / draw / recycle, and ``won`` at the
end); a wrong answer is printed and the exit status is 1.  One extra deal is played first to warm up
and not counted.

*Server time* is measured inside the server by a wrapper around the ASGI app: from the request's
arrival at the app to its last body chunk, so it covers routing, validation, the engine, building the
state and encoding the JSON, but not HTTP parsing or the network.  *Round trip* is what the client
waits, from sending the request to having the whole answer decoded.  No solver runs while timed (a
won game never calls it; only a lost one does, for its best line).  *Engine only* replays the same taps
straight on ``Session`` with no HTTP or FastAPI, to show which part of the server time is the game's own.

*First visit* downloads ``/``, every file ``index.html`` links (stylesheets, icons, scripts), the ES
modules the scripts import (followed recursively), ``url(...)`` and ``@import`` in the CSS, the locale
``/locales/<lang>.json`` and ``/api/rules``; the figure is response bodies as sent (the app does not
compress), headers not counted.  The first game's state (``POST /api/games``) is shown beside it.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import threading
import time
import warnings
from collections import defaultdict
from collections.abc import Awaitable, Callable, MutableMapping
from html.parser import HTMLParser
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
    return (f"median {statistics.median(seconds) * MS:.2f} ms, p90 {percentile(seconds, 0.9) * MS:.2f} ms, "
            f"p99 {percentile(seconds, 0.99) * MS:.2f} ms, max {max(seconds) * MS:.2f} ms")


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


class Player:
    """Plays deals through the API and keeps the server time and round trip of every action by kind."""

    def __init__(self, client: Client, timer: ServerTimer, lang: str) -> None:
        self.client = client
        self.timer = timer
        self.lang = lang
        self.server: dict[str, list[float]] = defaultdict(list)
        self.round_trip: dict[str, list[float]] = defaultdict(list)
        self.problems: list[str] = []

    def call(self, kind: str, path: str, body: dict[str, Any] | None = None, post: bool = True) -> Any:
        url = f"{path}?lang={self.lang}"
        started = time.perf_counter()
        response = self.client.post(url, json=body) if post else self.client.get(url)
        answer = response.json()
        waited = time.perf_counter() - started
        self.server[kind].append(self.timer.last)
        self.round_trip[kind].append(waited)
        if response.status_code >= 300:
            self.problems.append(f"{kind} {path}: HTTP {response.status_code} {answer}")
        return answer

    def expect(self, deal: Deal, what: str, event: dict[str, Any], **wanted: Any) -> None:
        for key, value in wanted.items():
            if event.get(key) != value:
                self.problems.append(f"{deal.code}: {what}: expected {key}={value!r}, got {event}")
                return

    def play(self, deal: Deal, solution: list[str]) -> dict[str, Any]:
        """Play ``solution`` on a new game of ``deal`` by taps; returns the last state."""
        game = self.call("new game (by code)", "/api/games", {"code": deal.code})["game"]
        tap = f"/api/games/{game['id']}/tap"
        for move in solution:
            if move in ("draw", "recycle"):
                answer = self.call(f"stock tap ({move})", f"/api/games/{game['id']}/stock")
                self.expect(deal, move, answer["event"], kind=move)
                continue
            cards = move.split("+")
            for card in cards[:-1]:
                answer = self.call("card tap (selects)", tap, {"card": card})
                self.expect(deal, move, answer["event"], kind="selected")
            kind = "card tap (removes a king)" if len(cards) == 1 else "card tap (removes a pair)"
            answer = self.call(kind, tap, {"card": cards[-1]})
            self.expect(deal, move, answer["event"], kind="removed")
        final: dict[str, Any] = answer["game"]
        if not (final["result"] or {}).get("won"):
            self.problems.append(f"{deal.code}: not won after the solver's solution: {final['status']}")
        return final


def engine_only(deals: list[tuple[Deal, list[str]]], lang: str) -> list[float]:
    """The same taps straight on :class:`~pyramid_solitaire.web.play.Session` (tap, bookkeeping, state,
    ``json.dumps``) without HTTP or FastAPI: the part of the server time that is the game's own."""
    from pyramid_solitaire.game import Game
    from pyramid_solitaire.web.play import Session

    seconds: list[float] = []
    for deal, solution in deals:
        session = Session(Game(deal))
        for move in solution:
            for card in [None] if move in ("draw", "recycle") else move.split("+"):
                started = time.perf_counter()
                event = session.tap_stock() if card is None else session.tap(card)
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
        if tag == "link" and values.get("href") and values.get("rel") in ("stylesheet", "icon", "modulepreload",
                                                                          "preload", "manifest", "apple-touch-icon"):
            self.urls.append(values["href"] or "")
        elif tag in ("script", "img", "source") and values.get("src"):
            self.urls.append(values["src"] or "")


JS_IMPORT = re.compile(r"""^\s*(?:import|export)\s*(?:[\w*{}\s,$]*?\bfrom\s*)?\(?\s*["']([^"']+)["']""",
                       re.MULTILINE)
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--deals", type=int, default=20, help="verified deals to play")
    parser.add_argument("--start", type=int, default=0, help="first deal number tried")
    parser.add_argument("--lang", default="ja", choices=["ja", "en"])
    parser.add_argument("--transport", default="uvicorn", choices=["uvicorn", "testclient"],
                        help="uvicorn on loopback (default) or in-process TestClient calls")
    args = parser.parse_args()

    deals, solving = verified_deals(args.rules, args.start, args.deals + 1)
    timer = ServerTimer(create_app(limiter=unlimited()))
    stop: Callable[[], None] = nothing
    client: Any
    if args.transport == "uvicorn":
        import httpx

        base, stop = serve_on_loopback(timer)
        client = httpx.Client(base_url=base, timeout=30)
        where = "uvicorn on 127.0.0.1 in this process, httpx client with keep-alive"
    else:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            from fastapi.testclient import TestClient
        client = TestClient(timer)
        where = "FastAPI TestClient in this process, no sockets"
    try:
        warm = Player(client, timer, args.lang)
        warm.play(*deals[0])
        player = Player(client, timer, args.lang)
        started = time.perf_counter()
        for deal, solution in deals[1:]:
            player.play(deal, solution)
        total = time.perf_counter() - started
        visit, state_bytes = first_visit(client, args.lang)
        engine_only(deals[:1], args.lang)
        engine = engine_only(deals[1:], args.lang)
    finally:
        client.close()
        stop()

    actions = [k for k in player.server if k != "new game (by code)"]
    server = [s for k in actions for s in player.server[k]]
    trip = [s for k in actions for s in player.round_trip[k]]
    numbers = [deal.number for deal, _ in deals[1:]]
    print(f"web app, {where}")
    print(f"  {args.rules} deals {numbers[0]}..{numbers[-1]}: {len(numbers)} verified deals won by tapping the "
          f"solver's solutions (solved beforehand in {solving:.1f} s; one more deal played first to warm up)")
    print(f"  {len(server)} actions (card and stock taps), {len(player.problems)} wrong answers, "
          f"total {total:.1f} s")
    print(f"  server time per action: {figures(server)}")
    print(f"  round trip per action:  {figures(trip)}")
    print(f"  engine only (Session + state + json.dumps, no HTTP): {figures(engine)}")
    for kind in sorted(player.server, key=lambda k: (k.startswith("new"), k)):
        print(f"    {kind:27} n={len(player.server[kind]):5}  server {figures(player.server[kind])}")
    total_bytes = sum(size for _, size in visit)
    print(f"  first visit: {len(visit)} downloads, {total_bytes:,} bytes ({total_bytes / KB:.1f} KB), "
          f"uncompressed, bodies only")
    for path, size in visit:
        print(f"    {path:32} {size:7,} bytes")
    print(f"  the first game's state (POST /api/games): {state_bytes:,} bytes; with it {total_bytes + state_bytes:,} "
          f"bytes ({(total_bytes + state_bytes) / KB:.1f} KB)")
    for problem in player.problems[:20]:
        print(f"WRONG {problem}")
    return 1 if player.problems else 0


if __name__ == "__main__":
    sys.exit(main())

"""Helpers shared by the game tests: build deal notation from a few placements, read the player's view."""

from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from datetime import UTC, date, datetime
from typing import Any

import httpx

from pyramid_solitaire import Game
from pyramid_solitaire.deal import Deal
from pyramid_solitaire.solver import solve

RANKS = "A23456789TJQK"
SUITS = "cdhs"
#: A card token as printed canonically, not part of a longer word (so ``Pass`` or a code is no match).
TOKEN_RE = re.compile(r"(?<![A-Za-z0-9])[A2-9TJQK][cdhs](?![A-Za-z0-9])")


def plain_deck(deck: int = 52) -> list[str]:
    """The deck in plain order (clubs, diamonds, hearts, spades, each ace to king), as tokens.
    The 48-card deck leaves out the four tens."""
    cards = [rank + suit for suit in SUITS for rank in RANKS]
    if deck == 48:
        cards = [c for c in cards if c[0] != "T"]
    return cards


def slot(row: int, col: int) -> int:
    """0-based slot of pyramid card (row, col), both 1-based, row by row from the apex."""
    assert 1 <= col <= row
    return row * (row - 1) // 2 + col - 1


def row_of(row: int, cards: str) -> dict[tuple[int, int], str]:
    """Placements for a whole (or the left part of a) row: ``row_of(7, "Ks 6h 3c")``."""
    return {(row, col): token for col, token in enumerate(cards.split(), start=1)}


def make_notation(
    pyramid: Mapping[tuple[int, int], str] | None = None,
    stock: Iterable[str] = (),
    *,
    rows: int = 7,
    deck: int = 52,
) -> str:
    """Deal notation with the given pyramid cards at (row, col) and the given first stock cards (in
    dealing order: the first is token ``pyramid size + 1``); every other place is filled with the
    remaining cards in plain deck order, pyramid first."""
    pyramid = dict(pyramid or {})
    stock = list(stock)
    size = rows * (rows + 1) // 2
    placed = list(pyramid.values()) + stock
    assert len(placed) == len(set(placed)), f"a card is placed twice: {placed}"
    all_cards = plain_deck(deck)
    assert all(c in all_cards for c in placed), placed
    rest = iter(c for c in all_cards if c not in placed)
    tokens: list[str] = [""] * deck
    for (row, col), token in pyramid.items():
        assert row <= rows
        tokens[slot(row, col)] = token
    for index, token in enumerate(stock):
        tokens[size + index] = token
    for index in range(deck):
        if not tokens[index]:
            tokens[index] = next(rest)
    return " ".join(tokens)


def clearable_pyramid() -> dict[tuple[int, int], str]:
    """A pyramid that can be cleared row by row without the stock: every row is kings and pairs
    summing to 13 (it uses all four kings)."""
    placements: dict[tuple[int, int], str] = {}
    placements.update(row_of(7, "Kc Ac Qc 2c Jc 3c Tc"))
    placements.update(row_of(6, "4c 9c 5c 8c 6c 7c"))
    placements.update(row_of(5, "Kd Ad Qd 2d Jd"))
    placements.update(row_of(4, "3d Td 4d 9d"))
    placements.update(row_of(3, "Ks 5d 8d"))
    placements.update(row_of(2, "6d 7d"))
    placements.update(row_of(1, "Kh"))
    return placements


#: The removals that clear :func:`clearable_pyramid`, bottom row first.
CLEAR_PYRAMID_MOVES = [
    "Kc",
    "Ac+Qc",
    "2c+Jc",
    "3c+Tc",
    "4c+9c",
    "5c+8c",
    "6c+7c",
    "Kd",
    "Ad+Qd",
    "2d+Jd",
    "3d+Td",
    "4d+9d",
    "Ks",
    "5d+8d",
    "6d+7d",
    "Kh",
]


def pyramid_entry(view: Mapping[str, Any], row: int, col: int) -> Mapping[str, Any]:
    """The view's entry for pyramid card (row, col)."""
    entry = view["pyramid"][slot(row, col)]
    assert (entry["row"], entry["col"]) == (row, col)
    return entry


def usable_slots(view: Mapping[str, Any]) -> set[tuple[int, int]]:
    """(row, col) of every pyramid card the view marks usable."""
    return {(e["row"], e["col"]) for e in view["pyramid"] if e["usable"]}


def tokens_in(view: Mapping[str, Any]) -> set[str]:
    """Every card token that appears anywhere in the dumped view."""
    return set(TOKEN_RE.findall(json.dumps(view, ensure_ascii=False)))


def without_counters(view: Mapping[str, Any]) -> dict[str, Any]:
    """The view without the counters and the undo/redo/rewind flags that history changes (with an undo
    limit, a move and its undo move the window of what can be taken back)."""
    return {k: v for k, v in view.items() if k not in ("moves", "undos", "hints", "can_undo", "can_redo", "can_rewind")}


def free_port() -> int:
    """A loopback TCP port nothing listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextmanager
def serving(app: Any) -> Iterator[str]:
    """``app`` served by uvicorn in a thread on a free loopback port, over the HTTP protocol ``serve`` runs
    (web/wire.py), until the block ends; yields its base URL."""
    import pytest
    import uvicorn

    from pyramid_solitaire.web.wire import OneWrite

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", http=OneWrite))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            pytest.fail("the server did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def won_by_the_solver(rules: str, deals: int = 20) -> Game:
    """The first of deals 0 .. ``deals`` - 1 of ``rules`` that the solver wins, played through the
    solver's solution by ``Game.push`` (each move checked by the engine)."""
    for number in range(deals):
        result = solve(Deal.from_number(number, rules))
        if result.winnable:
            assert result.solution is not None
            game = Game(result.deal)
            for move in result.solution:
                game.push(move)
            return game
    raise AssertionError(f"the solver wins none of deals 0-{deals - 1} of {rules}")


@contextmanager
def app_process(
    db: str, *options: str, ready: str = "/api/rules", start_seconds: float = 30
) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """``pyramid-solitaire serve`` (with ``options``, e.g. ``--workers 2``) as its own process; yields its
    URL and the process once ``ready`` answers 200, and stops it afterwards."""
    port = free_port()
    command = [sys.executable, "-m", "pyramid_solitaire.cli", "serve", "--no-browser", "--port", str(port)]
    process = subprocess.Popen(
        [*command, "--db", db, *options],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + start_seconds
    while True:
        try:
            if httpx.get(f"{url}{ready}", timeout=1).status_code == 200:
                break
        except httpx.TransportError:
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            raise AssertionError(f"the app did not start: {process.stderr.read().decode() if process.stderr else ''}")
        time.sleep(0.1)
    try:
        yield url, process
    finally:
        if process.poll() is None:
            process.terminate()
            process.wait(timeout=30)


def eventually(check: Any, seconds: float, every: float = 0.5) -> None:
    """Wait until ``check()`` is true (something a page or a server does in its own time), failing after
    ``seconds``.  For a check the page answers with a promise, which Playwright's ``wait_for_function``
    does not wait for."""
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, f"not within {seconds} s"
        time.sleep(every)


class TokyoClock:
    """An app's clock that a test moves from day to day: always 12:00 in Tokyo (03:00 UTC) of ``day``."""

    def __init__(self, day: date) -> None:
        self.day = day

    def __call__(self) -> float:
        return datetime(self.day.year, self.day.month, self.day.day, 3, 0, tzinfo=UTC).timestamp()


@contextmanager
def browsers(app: Any) -> Iterator[Any]:
    """A maker of test clients on one app, each its own browser (its own cookies: its own player),
    all closed at the end."""
    from fastapi.testclient import TestClient

    clients: list[TestClient] = []

    def browser() -> TestClient:
        client = TestClient(app)
        client.__enter__()
        clients.append(client)
        return client

    try:
        yield browser
    finally:
        for client in clients:
            client.__exit__(None, None, None)


def figures(**changes: object) -> dict[str, object]:
    """A game's figures as ``Store.record`` takes them with an action: one move played, the game still on,
    its clock started at 2,000 ms; ``changes`` set others."""
    base: dict[str, object] = {
        "started_ms": 2000,
        "moves": 1,
        "undos": 0,
        "hints": 0,
        "pyramid_removed": 0,
        "result": None,
        "ended_ms": None,
    }
    return {**base, **changes}

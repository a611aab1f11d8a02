"""The shortcut past FastAPI for moves and events (web/shortcut.py) answers exactly as FastAPI's routes
do: the same requests, good and bad, sent to an app with it and to one without it (each on a
PostgreSQL database of its own, the same deal) get the same status and the same answer."""

from __future__ import annotations

import secrets
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

from pg_server import PostgresServer
from pyramid_solitaire import Deal
from pyramid_solitaire.solver import solve
from pyramid_solitaire.store import Store
from pyramid_solitaire.web.app import create_app
from pyramid_solitaire.web.metrics import REQUESTS

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

Json = dict[str, Any]
CODE = "CL1-N-AAAAAAD"
#: What differs between two apps by nature: ids, clocks.
VOLATILE = frozenset({"id", "elapsed", "seconds", "ended_ms", "started_ms"})


def stable(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: stable(v) for k, v in value.items() if k not in VOLATILE}
    if isinstance(value, list):
        return [stable(v) for v in value]
    return value


class Pair:
    """Two apps, one with the shortcut and one without, each with a game of the same deal."""

    def __init__(self, fast: TestClient, plain: TestClient, **new_game: Any) -> None:
        self.clients = (fast, plain)
        self.games = []
        for client in self.clients:
            answer = client.post("/api/games", json=new_game)
            assert answer.status_code == 201, answer.text
            self.games.append(answer.json()["game"])
            new_game = {"code": self.games[0]["code"]}  # the second app deals the same deal
        assert self.games[0]["code"] == self.games[1]["code"]

    def both(self, name: str, body: Any = None, query: str = "", **headers: str) -> tuple[int, Any]:
        """Send the request to both apps; assert the answers agree; return the status and the answer."""
        answers = []
        for client, game in zip(self.clients, self.games, strict=True):
            url = f"/api/games/{game['id']}/{name}" + (f"?{query}" if query else "")
            if isinstance(body, bytes):
                answer = client.post(url, content=body, headers=headers)
            else:
                answer = client.post(url, json=body, headers=headers)
            kind = answer.headers.get("content-type", "")
            answers.append((answer.status_code, stable(answer.json()) if "json" in kind else answer.text))
        assert answers[0] == answers[1], name
        return answers[0]


@pytest.fixture
def pair(postgres: PostgresServer) -> Iterator[tuple[TestClient, TestClient]]:
    stores = [Store(postgres.create_database(f"shortcut_{secrets.token_hex(6)}")) for _ in range(2)]
    with TestClient(create_app(stores[0])) as fast, TestClient(create_app(stores[1], shortcut=False)) as plain:
        yield fast, plain
    for store in stores:
        store.close()


def moves(code: str) -> list[str]:
    result = solve(Deal.from_code(code), time_limit=30)
    assert result.solution is not None
    return [str(m) for m in result.solution]


def test_good_and_bad_moves_and_events_are_answered_alike(pair: tuple[TestClient, TestClient]) -> None:
    game = Pair(*pair, code=CODE)
    line = moves(CODE)
    assert game.both("move", {"move": line[0]}, "version=0")[0] == 200
    assert game.both("move", {"move": line[1]}, "version=0")[0] == 409  # a stale version
    assert game.both("move", {"move": line[1]}, "version=1&lang=en")[0] == 200
    refused = game.both("move", {"move": "Ks+Qs"}, "version=2")  # cards that make no removal here
    assert refused[0] == 409 and refused[1]["message"]
    assert game.both("move", {"move": "zz"})[0] == 400
    assert game.both("move", {"move": "undo"})[0] == 400
    assert game.both("move", {"move": line[2], "cell": 0})[0] == 400  # a cell for what is no park
    # what the shortcut leaves to FastAPI's validation: the same 422s
    for body in ({"move": 5}, {"move": "Kd", "x": 1}, {"move": "K" * 41}, {"move": "Kd", "cell": True}, [1], "Kd"):
        assert game.both("move", body)[0] == 422, body
    assert game.both("move", b"{not json", **{"content-type": "application/json"})[0] == 422
    assert game.both("move", b'{"move": "Kd"}', **{"content-type": "text/plain"})[0] == 415  # not said to be JSON
    for query in ("version=abc", "version=-1", "lang=fr"):
        assert game.both("move", {"move": line[2]}, query)[0] == 422, query
    for query in ("version=1&version=2", "version=%33", "version=03"):  # FastAPI's reading, whatever it is
        game.both("move", {"move": line[2]}, query)
    for event in ("undo", "redo", "undo", "rewind", "redo", "resign", "undo"):
        game.both(event, query="lang=en")
    assert game.both("move", {"move": line[0]})[0] == 409  # the game is over: resigned


def test_unknown_games_and_other_players_games_are_answered_alike(pair: tuple[TestClient, TestClient]) -> None:
    fast, plain = pair
    for client in pair:
        assert client.post("/api/games/nosuchgame/move", json={"move": "Kd"}).status_code == 404
    game = Pair(fast, plain, code=CODE)
    strangers = [TestClient(client.app) for client in pair]  # no cookie: another browser
    answers = [
        (s.post(f"/api/games/{g['id']}/undo").status_code, stable(s.post(f"/api/games/{g['id']}/undo").json()))
        for s, g in zip(strangers, game.games, strict=True)
    ]
    assert answers[0] == answers[1] and answers[0][0] == 404


def test_parks_into_a_free_cell_are_answered_alike(pair: tuple[TestClient, TestClient]) -> None:
    game = Pair(*pair, preset="cells")
    card = game.games[0]["selectable"][0]
    status, answer = game.both("move", {"move": f"{card}>cell", "cell": 0}, "version=0")
    assert status in (200, 409) and (status == 409 or answer["game"]["version"] == 1)


def test_the_shortcut_counts_its_answers_under_the_routes_own_label(pair: tuple[TestClient, TestClient]) -> None:
    game = Pair(*pair, code=CODE)
    label = "/api/games/{game_id}/move"
    before = REQUESTS.labels(label, "POST", "200")._value.get()
    game.both("move", {"move": moves(CODE)[0]})
    assert REQUESTS.labels(label, "POST", "200")._value.get() == before + 2  # one answer of each app


def test_plain_requests_take_the_shortcut_and_others_go_to_fastapi(
    pair: tuple[TestClient, TestClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    from pyramid_solitaire.web import shortcut

    taken: list[str] = []
    original = shortcut.act

    def spy(*args: Any) -> Any:
        taken.append(str(args[3]))
        return original(*args)

    monkeypatch.setattr(shortcut, "act", spy)
    game = Pair(*pair, code=CODE)
    first = moves(CODE)[0]
    game.both("move", {"move": first}, "version=0&lang=ja")
    game.both("undo")
    game.both("move", {"move": first, "extra": 1})  # 422 from FastAPI
    game.both("hint")  # a search: FastAPI's route, on the thread pool
    assert taken == [first, "undo"]  # the app with the shortcut only, and only the plain requests

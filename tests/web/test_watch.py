"""Watching the solver's line on a finished game's table (``GET /api/games/{id}/watch?step=N``): the
table after each step, from the deal to the line's end, answered alike by the server and the engine in
the browser, without changing the player's game or record."""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

from pyramid_solitaire import Deal, Game
from pyramid_solitaire.rules import PRESETS
from pyramid_solitaire.solver import solve
from pyramid_solitaire.web.app import create_app
from pyramid_solitaire.web.offline import OfflineApi

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

Json = dict[str, Any]
#: A classic deal the solver proves lost (its best line removes 11 pyramid cards; test_api.py).
LOST_CLASSIC = 17


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app()) as test_client:
        yield test_client


def resigned(client: TestClient, code: str, lang: str = "ja") -> Json:
    """A game of ``code`` that the player resigned at once."""
    made = client.post(f"/api/games?lang={lang}", json={"code": code})
    assert made.status_code == 201
    game: Json = made.json()["game"]
    answer = client.post(f"/api/games/{game['id']}/resign?lang={lang}")
    assert answer.status_code == 200 and answer.json()["game"]["status"] == "resigned"
    finished: Json = answer.json()["game"]
    return finished


def watch(client: TestClient, game_id: str, step: int, lang: str = "ja") -> Json:
    response = client.get(f"/api/games/{game_id}/watch?step={step}&lang={lang}")
    assert response.status_code == 200, response.text
    answer: Json = response.json()
    return answer


def pyramid_left(state: Json) -> int:
    return sum(1 for entry in state["pyramid"] if not entry["removed"])


def test_a_resigned_won_deal_plays_the_shortest_line_to_an_empty_pyramid(client: TestClient) -> None:
    deal = Deal.from_number(1, PRESETS["classic"])
    shortest = solve(deal, shortest=True)
    assert shortest.winnable and shortest.solution is not None
    game = resigned(client, deal.code)
    start = watch(client, game["id"], 0)
    assert start["step"] == 0 and start["steps"] == len(shortest.solution)
    assert start["won"] is True and start["shortest"] is True
    assert start["removed"] == start["pyramid_size"] == 28
    assert start["knows"] == ["stock"]
    assert start["event"] == {"kind": "state", "cards": []}
    assert pyramid_left(start["game"]) == 28 and start["game"]["status"] == "playing"
    # every step is the table after that many moves of the line, and its event is that move
    replayed = Game(deal)
    for step, move in enumerate(shortest.solution, start=1):
        replayed.push(move)
        answer = watch(client, game["id"], step)
        assert answer["event"]["move"] == str(move)
        assert answer["event"]["cards"] == [str(card) for card in move.cards]
        assert pyramid_left(answer["game"]) == replayed.pyramid_left
    assert answer["game"]["status"] == "won" and pyramid_left(answer["game"]) == 0
    # past the end is the end; one step back is the table one move earlier
    assert watch(client, game["id"], 10_000)["step"] == len(shortest.solution)
    back = watch(client, game["id"], len(shortest.solution) - 1)
    assert pyramid_left(back["game"]) > 0 and back["game"]["status"] == "playing"


def test_watching_changes_nothing_of_the_players_game(client: TestClient) -> None:
    deal = Deal.from_number(1, PRESETS["classic"])
    game = resigned(client, deal.code)
    before = client.get(f"/api/games/{game['id']}?lang=ja").json()["game"]
    records = client.get("/api/me?lang=ja").json()
    for step in (0, 5, 20, 10_000):
        watch(client, game["id"], step)
    after = client.get(f"/api/games/{game['id']}?lang=ja").json()["game"]
    assert after["status"] == "resigned" and after["version"] == before["version"] == 1
    assert {k: v for k, v in after.items() if k != "elapsed"} == {k: v for k, v in before.items() if k != "elapsed"}
    assert client.get("/api/me?lang=ja").json() == records


def test_a_lost_deal_plays_the_line_that_removes_the_most(client: TestClient) -> None:
    deal = Deal.from_number(LOST_CLASSIC, PRESETS["classic"])
    best = solve(deal)
    assert best.winnable is False and best.best_line is not None
    game = resigned(client, deal.code, "en")
    start = watch(client, game["id"], 0, "en")
    assert start["won"] is False and start["shortest"] is False
    assert start["removed"] == best.max_pyramid_removed
    end = watch(client, game["id"], start["steps"], "en")
    assert end["game"]["lang"] == "en"
    assert 28 - pyramid_left(end["game"]) == best.max_pyramid_removed


def test_face_down_rows_are_said_to_be_known(client: TestClient) -> None:
    deal = Deal.from_number(1, PRESETS["thirteen"])
    game = resigned(client, deal.code)
    start = watch(client, game["id"], 0)
    assert start["knows"] == ["stock", "face-down"]
    # the table is drawn as the player sees it: face-down cards stay face down until uncovered
    assert any(entry["card"] is None for entry in start["game"]["pyramid"])
    giza = resigned(client, Deal.from_number(1, PRESETS["giza"]).code)
    assert watch(client, giza["id"], 0)["knows"] == []


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_a_game_still_played_cannot_be_watched(client: TestClient, lang: str) -> None:
    made = client.post(f"/api/games?lang={lang}", json={"code": Deal.from_number(1, PRESETS["classic"]).code})
    game_id = made.json()["game"]["id"]
    response = client.get(f"/api/games/{game_id}/watch?lang={lang}")
    assert response.status_code == 409
    body = response.json()
    assert body["code"] == "not-over"
    expected = {"ja": "解答はゲームが終わってから見られます", "en": "The solution can be watched once the game is over"}
    assert body["message"] == expected[lang]
    assert client.get(f"/api/games/{game_id}/watch?step=-1&lang={lang}").status_code == 422
    assert client.get(f"/api/games/nope/watch?lang={lang}").status_code == 404


def test_the_engine_in_the_browser_answers_the_same_steps(client: TestClient) -> None:
    deal = Deal.from_number(2, PRESETS["msc"])
    game = resigned(client, deal.code)
    api = OfflineApi()

    def offline(method: str, path: str, body: Any = None, query: dict[str, str] | None = None) -> tuple[int, Any]:
        answer = json.loads(api.handle_json(method, path, json.dumps(query or {}), json.dumps(body), "ja"))
        return answer["status"], answer["body"]

    status, made = offline("POST", "/api/games", {"code": deal.code})
    offline_id = made["game"]["id"]
    status, _ = offline("GET", f"/api/games/{offline_id}/watch")
    assert status == 409  # not over yet
    status, _ = offline("POST", f"/api/games/{offline_id}/resign")
    assert status == 200
    online = watch(client, game["id"], 0)
    for step in (0, 1, 7, online["steps"]):
        status, answer = offline("GET", f"/api/games/{offline_id}/watch", query={"step": str(step)})
        server = watch(client, game["id"], step)
        assert status == 200
        for key in ("step", "steps", "won", "removed", "shortest", "knows", "event"):
            assert answer[key] == server[key], key
        assert answer["game"]["pyramid"] == server["game"]["pyramid"]
        assert answer["game"]["waste"] == server["game"]["waste"]
    status, answer = offline("GET", f"/api/games/{offline_id}/watch", query={"step": "x"})
    assert status == 422

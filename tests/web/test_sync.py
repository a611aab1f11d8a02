"""Games played offline reach the server (POST /api/me/sync), on SQLite and on PostgreSQL: each is replayed
by the server's engine before it counts, a game sent twice counts once, a forged record is refused by
name while the honest games of the same upload land, and offline times stay out of the ranks by time."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from typing import Any

import pytest

from pyramid_solitaire import Deal
from pyramid_solitaire.solver import solve
from pyramid_solitaire.web.app import create_app
from pyramid_solitaire.web.offline import OfflineApi

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

Json = dict[str, Any]
CODES = ("CL1-N-AAAAAAD", "CL1-N-AAAAAAB")


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(db_url)) as test_client:
        test_client.post("/api/games", json={"rules": "classic"})  # a player, with its cookie
        yield test_client


def played_offline(code: str, finish: bool = True, clock: float = 1_800_000_000.0) -> Json:
    """A game dealt and played by the offline engine, as the browser keeps it (its solution, to the end)."""
    moments = iter(clock + step for step in range(10_000))
    api = OfflineApi(clock=lambda: next(moments))
    made = api.handle("POST", "/api/games", {}, {"code": code}, "ja")["body"]["game"]
    solution = solve(Deal.from_code(code)).solution
    assert solution is not None
    for move in solution if finish else solution[:3]:
        answer = api.handle("POST", f"/api/games/{made['id']}/move", {}, {"move": str(move)}, "ja")
        assert answer["status"] == 200
    kept: Json = api.kept(made["id"])
    return kept


def forge(record: Json) -> Json:
    """The record with an illegal removal where its first move was."""
    lines = record["record"].split("\n")
    first = lines.index("") + 1
    lines[first] = "Kc+Kd"
    return {**record, "id": "off-" + "f" * 24, "record": "\n".join(lines), "started_ms": record["started_ms"] + 7}


def finished_codes(client: TestClient) -> list[str]:
    return [g["code"] for g in client.get("/api/me").json()["finished"]]


def played(client: TestClient) -> int:
    return sum(s["played"] for s in client.get("/api/stats").json()["stats"])


def test_an_offline_game_lands_once_and_a_forged_one_is_refused_by_name(client: TestClient) -> None:
    honest = played_offline(CODES[0])
    other = played_offline(CODES[1])
    forged = forge(honest)
    answer = client.post("/api/me/sync?lang=en", json={"games": [honest, forged, other]})
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["landed"] == [honest["id"], other["id"]] and body["known"] == []
    assert [r["id"] for r in body["refused"]] == [forged["id"]]
    refused = body["refused"][0]
    assert refused["code"] == "import.entry-refused"
    assert refused["message"].startswith("game 2, entry 1 (Kc+Kd): refused: ")
    assert sorted(finished_codes(client)) == sorted(CODES)
    assert played(client) == 2

    # sent again (a retry, a second tab): the server has them, and counts each once
    again = client.post("/api/me/sync", json={"games": [honest, other]}).json()
    assert again == {"landed": [], "known": [honest["id"], other["id"]], "refused": []}
    assert played(client) == 2

    # in Japanese, the same refusal in Japanese words
    refused_ja = client.post("/api/me/sync?lang=ja", json={"games": [forged]}).json()["refused"][0]
    assert refused_ja["code"] == "import.entry-refused" and "Kc+Kd" in refused_ja["message"]
    assert not refused_ja["message"].isascii()


def test_a_record_whose_stated_end_does_not_replay_is_refused(client: TestClient) -> None:
    record = played_offline(CODES[0])
    lost = {**record, "result": "resigned"}
    body = client.post("/api/me/sync?lang=en", json={"games": [lost]}).json()
    assert [r["code"] for r in body["refused"]] == ["import.end"]
    assert finished_codes(client) == []


def test_offline_wins_count_in_statistics_but_not_in_the_ranks_by_time(client: TestClient) -> None:
    record = played_offline(CODES[0])
    client.post("/api/me/sync", json={"games": [record]})
    stats = client.get("/api/stats").json()["stats"]
    assert [(s["played"], s["won"]) for s in stats] == [(1, 1)]
    assert client.get(f"/api/leaderboard/{CODES[0]}").json()["entries"] == []


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        ({"games": "nope"}, "sync.games"),
        ([1, 2], "sync.games"),
        ({"games": [{"code": "CL1-N-AAAAAAD"}]}, "sync.id"),
        ({"games": [{"id": "off-zz", "code": "CL1-N-AAAAAAD"}]}, "sync.id"),
    ],
)
@pytest.mark.parametrize("lang", ["ja", "en"])
def test_a_body_that_is_no_list_of_offline_games_is_refused_in_the_players_language(
    client: TestClient, body: Any, problem: str, lang: str
) -> None:
    answer = client.post(f"/api/me/sync?lang={lang}", json=body)
    assert answer.status_code == 400
    assert answer.json()["code"] == "bad-import"
    assert answer.json()["details"]["reason"] == problem
    assert answer.json()["message"].isascii() == (lang == "en")
    assert finished_codes(client) == []


def test_a_browser_whose_cookie_was_lost_gets_a_player_and_keeps_its_games(db_url: str) -> None:
    with TestClient(create_app(db_url)) as fresh:
        answer = fresh.post("/api/me/sync?lang=en", json={"games": [played_offline(CODES[0])]})
        assert answer.status_code == 200 and len(answer.json()["landed"]) == 1
        assert finished_codes(fresh) == [CODES[0]]

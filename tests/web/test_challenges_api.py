"""Daily challenges through the API: the day's set with each player's progress, a challenge's game
started and played through the ordinary move API until its goal shows ``"done": true``, another day's
set, and challenges, daily results and badges carried by the records' export and import."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from helpers import TokyoClock as Clock
from helpers import browsers
from pyramid_solitaire.challenges import day_set
from pyramid_solitaire.web.app import create_app
from pyramid_solitaire.web.daily import DailyDesk
from pyramid_solitaire.web.limits import Limit, RateLimiter

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

Json = dict[str, Any]
DAY = date(2026, 12, 4)


@pytest.fixture
def clock() -> Clock:
    return Clock(DAY)


@pytest.fixture
def players(tmp_path: Path, clock: Clock) -> Iterator[Callable[[], TestClient]]:
    # a player here plays several deals in a row at a machine's speed: limits far above a person's
    roomy = Limit(rate=10_000, burst=10_000)
    app = create_app(f"sqlite:///{tmp_path / 'challenges.sqlite3'}", RateLimiter(player=roomy, address=roomy))
    app.state.daily = DailyDesk("Asia/Tokyo", clock=clock)
    with browsers(app) as browser:
        yield browser


def challenges(client: TestClient, lang: str = "ja") -> dict[str, Json]:
    answer = client.get(f"/api/challenges?lang={lang}")
    assert answer.status_code == 200, answer.text
    assert answer.json()["date"] == DAY.isoformat() or answer.json()["date"]
    return {c["kind"]: c for c in answer.json()["challenges"]}


def start(client: TestClient, challenge: Json) -> Json:
    answer = client.post(f"/api/challenges/{challenge['id']}/games?lang=ja")
    assert answer.status_code in (200, 201), answer.text
    game: Json = answer.json()["game"]
    assert game["challenge"]["id"] == challenge["id"]
    return game


def play(client: TestClient, game: Json, moves: list[str]) -> Json:
    for move in moves:
        answer = client.post(f"/api/games/{game['id']}/move?lang=ja", json={"move": move})
        assert answer.status_code == 200, answer.text
        game = answer.json()["game"]
    return game


def known(client: TestClient) -> TestClient:
    """A browser whose player the server knows (its first game made it)."""
    assert client.post("/api/games?lang=ja", json={"rules": "classic"}).status_code == 201
    return client


def proofs() -> dict[str, list[list[str]]]:
    return {c.kind: [list(line) for line in c.proofs] for c in day_set(DAY)}


def test_the_days_set_is_the_same_for_everyone_and_new_the_next_day(
    players: Callable[[], TestClient], clock: Clock
) -> None:
    one, two = players(), players()
    first = challenges(one)
    assert set(first) == {"moves", "score", "one_pass", "in_a_row", "thirteen"}
    assert challenges(two) == first
    assert first["moves"]["title"].endswith("手以内でクリア") and first["moves"]["done"] is False
    english = challenges(one, "en")
    assert english["one_pass"]["title"] == "Clear it in one pass of the stock"
    assert [c["codes"] for c in english.values()] == [c["codes"] for c in first.values()]
    clock.day = date(2026, 12, 5)
    second = challenges(one)
    assert all(second[kind]["codes"] != first[kind]["codes"] for kind in first)
    # yesterday's challenge can no longer be started
    gone = one.post(f"/api/challenges/{first['moves']['id']}/games?lang=en")
    assert gone.status_code == 404 and gone.json()["code"] == "unknown-challenge"
    assert gone.json()["message"] == "No such challenge (only today's challenges can be started)"


@pytest.mark.parametrize("kind", ["moves", "score", "one_pass", "thirteen"])
def test_a_challenge_played_through_the_move_api_is_done(players: Callable[[], TestClient], kind: str) -> None:
    client = players()
    challenge = challenges(client)[kind]
    game = start(client, challenge)
    assert game["code"] == challenge["codes"][0]
    (line,) = proofs()[kind]
    assert game["challenge"]["done"] is False
    game = play(client, game, line)
    assert game["challenge"]["done"] is True
    assert challenges(client)[kind]["done"] is True
    assert challenges(players())[kind]["done"] is False  # another player's progress is their own


def test_a_game_over_the_move_limit_does_not_complete_the_moves_challenge(players: Callable[[], TestClient]) -> None:
    client = players()
    challenge = challenges(client)["moves"]
    (line,) = proofs()["moves"]
    game = start(client, challenge)
    # six draws taken back: the move counter keeps them (it never goes back), so the shortest line
    # played after them ends one move past the limit of par + 5
    game = play(client, game, ["draw"] * 6)
    for _ in range(6):
        answer = client.post(f"/api/games/{game['id']}/undo?lang=ja")
        assert answer.status_code == 200
    game = play(client, answer.json()["game"], line)
    assert game["status"] == "won" and game["moves"] == len(line) + 6 > challenge["target"]
    assert game["challenge"]["done"] is False and challenges(client)["moves"]["progress"] == 0


def test_two_deals_in_a_row_without_undo(players: Callable[[], TestClient]) -> None:
    client = players()
    challenge = challenges(client)["in_a_row"]
    first, second = proofs()["in_a_row"]
    game = start(client, challenge)
    assert game["code"] == challenge["codes"][0]
    game = play(client, game, first)
    assert game["challenge"]["progress"] == 1 and game["challenge"]["done"] is False
    game = start(client, challenge)
    assert game["code"] == challenge["codes"][1]
    game = play(client, game, second)
    assert game["challenge"]["progress"] == 2 and game["challenge"]["done"] is True


def test_export_and_import_carry_challenges_and_daily_results(players: Callable[[], TestClient]) -> None:
    client = players()
    challenge = challenges(client)["thirteen"]
    play(client, start(client, challenge), proofs()["thirteen"][0])
    daily = client.post("/api/daily/games?lang=ja", json={"rules": "classic"}).json()["game"]
    answer = client.post(f"/api/games/{daily['id']}/resign?lang=ja")
    assert answer.status_code == 200
    exported = client.get("/api/me/export").json()
    games = {g["code"]: g for g in exported["games"]}
    assert games[challenge["codes"][0]]["challenge"] == challenge["id"]
    assert games[daily["code"]]["daily"] == DAY.isoformat() and games[daily["code"]]["daily_counted"] is True
    assert exported["badges"] == [{"month": "2026-12", "days": 0, "challenges": 1, "badge": None}]
    other = known(players())
    for _ in range(2):
        imported = other.post("/api/me/import?lang=ja", json=exported)
        assert imported.status_code == 200, imported.text
    assert challenges(other)["thirteen"]["done"] is True
    again = other.get("/api/me/export").json()
    assert len(again["games"]) == 3 and again["badges"] == exported["badges"]
    # a daily field naming a day whose deal it is not is refused, naming the game
    forged = {**exported, "games": [{**g, "daily": "2026-12-03"} for g in exported["games"]]}
    refused = known(players()).post("/api/me/import?lang=en", json=forged)
    assert refused.status_code == 400 and "is not the daily deal of 2026-12-03" in refused.json()["message"]


def test_five_days_of_daily_deals_cleared_earn_bronze_and_travel_with_the_records(
    players: Callable[[], TestClient], clock: Clock
) -> None:
    from datetime import timedelta

    from pyramid_solitaire.daily import daily_deal
    from pyramid_solitaire.solver import solve

    client = players()
    start_day = date(2026, 12, 1)
    for n in range(5):
        clock.day = start_day + timedelta(days=n)
        game = client.post("/api/daily/games?lang=ja", json={"rules": "classic"}).json()["game"]
        assert game["daily"]["counted"] is True
        solution = solve(daily_deal("classic", clock.day)).solution
        assert solution is not None
        game = play(client, game, [str(move) for move in solution])
        assert game["status"] == "won"
        months = client.get("/api/badges").json()["months"]
        assert months == [{"month": "2026-12", "days": n + 1, "challenges": 0, "badge": "bronze" if n == 4 else None}]
    # a late win (a past day played later) does not count for that day
    clock.day = date(2026, 12, 9)
    late = client.post("/api/daily/games?lang=ja", json={"rules": "classic", "date": "2026-12-08"}).json()["game"]
    assert late["daily"]["counted"] is False
    play(client, late, [str(m) for m in solve(daily_deal("classic", date(2026, 12, 8))).solution or []])
    assert client.get("/api/badges").json()["months"][0]["days"] == 5
    exported = client.get("/api/me/export").json()
    assert exported["badges"][0]["badge"] == "bronze"
    other = known(players())
    for _ in range(2):
        assert other.post("/api/me/import?lang=ja", json=exported).status_code == 200
        assert other.get("/api/badges").json()["months"] == exported["badges"]


def test_badges_need_their_days_and_the_crown_its_challenges() -> None:
    from pyramid_solitaire.web.badges import badge_for

    assert [badge_for(days, 0) for days in (0, 4, 5, 9, 10, 19, 20, 31)] == [
        None,
        None,
        "bronze",
        "bronze",
        "silver",
        "silver",
        "gold",
        "gold",
    ]
    assert badge_for(20, 19) == "gold" and badge_for(20, 20) == "crown" and badge_for(19, 40) == "silver"

"""The daily deal over the API: one deal a day for everyone, the same after a restart and on another
database; the day's leaderboard (each player's first finished game), the streak and the calendar,
lived through several days on the app's clock; bad days refused in the player's language."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest

from helpers import TokyoClock as Clock
from helpers import browsers
from pyramid_solitaire.daily import EPOCH, daily_deal
from pyramid_solitaire.deal import Deal
from pyramid_solitaire.solver import solve
from pyramid_solitaire.store import Store
from pyramid_solitaire.web.app import create_app
from pyramid_solitaire.web.daily import DailyDesk, streaks

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

Json = dict[str, Any]


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'daily.sqlite3'}"


@pytest.fixture
def clock() -> Clock:
    return Clock(EPOCH)


@pytest.fixture
def players(db: str, clock: Clock) -> Iterator[Callable[[], TestClient]]:
    """Browsers (each its own player) on one app whose day is the clock's."""
    app = create_app(db)
    app.state.daily = DailyDesk("Asia/Tokyo", clock=clock)
    with browsers(app) as browser:
        yield browser


def win(client: TestClient, game: Json, extra_undo: bool = False, coach: bool = False) -> Json:
    """Play the solver's line of the game's deal to a win through the API; returns the final state. With
    ``coach``, the solver's hint is asked for first."""
    line = solve(Deal.from_code(game["code"]), best=False).solution
    assert line is not None
    game_id = game["id"]
    if coach:
        assert client.post(f"/api/games/{game_id}/coach").status_code == 200
    if extra_undo:  # a move taken back: one move more than the line
        game = client.post(f"/api/games/{game_id}/move", json={"move": str(line[0])}).json()["game"]
        game = client.post(f"/api/games/{game_id}/undo").json()["game"]
    for move in line:
        answer = client.post(f"/api/games/{game_id}/move", json={"move": str(move)})
        assert answer.status_code == 200, answer.text
        game = answer.json()["game"]
    assert game["result"]["won"] is True
    return game


def test_two_players_get_the_same_daily_deal_and_the_solver_verifies_it(players: Callable[[], TestClient]) -> None:
    first, second = players(), players()
    asked = [client.get("/api/daily").json() for client in (first, second)]
    assert asked[0]["code"] == asked[1]["code"]
    assert asked[0]["date"] == EPOCH.isoformat() and asked[0]["rules"] == "classic" and asked[0]["today"] is True
    games = [client.post("/api/daily/games", json={}).json()["game"] for client in (first, second)]
    assert games[0]["code"] == games[1]["code"] == asked[0]["code"]
    assert games[0]["id"] != games[1]["id"]
    assert games[0]["daily"] == {"date": EPOCH.isoformat(), "counted": True, "rules": "classic"}
    assert games[0]["difficulty"] in ("E", "N")
    assert solve(Deal.from_code(asked[0]["code"]), best=False, time_limit=30).winnable is True
    for rules in ("pyramide", "thirteen"):
        assert (
            first.get(f"/api/daily?rules={rules}").json()["code"]
            == second.get(f"/api/daily?rules={rules}").json()["code"]
        )


def test_the_same_date_gives_the_same_code_after_a_restart_and_on_a_second_database(tmp_path: Path) -> None:
    day = "2026-12-02"
    codes = []
    for name in ("one", "one", "two"):  # the second app is the first restarted on its database
        with TestClient(create_app(f"sqlite:///{tmp_path / name}.sqlite3")) as client:
            codes.append(client.get(f"/api/daily?date={day}").json()["code"])
    assert codes[0] == codes[1] == codes[2] == daily_deal("classic", date(2026, 12, 2)).code


def test_a_daily_game_resumes_rather_than_dealing_the_day_again(players: Callable[[], TestClient]) -> None:
    client = players()
    first = client.post("/api/daily/games", json={"rules": "pyramide"})
    assert first.status_code == 201
    again = client.post("/api/daily/games", json={"rules": "pyramide"})
    assert again.status_code == 200
    assert again.json()["game"]["id"] == first.json()["game"]["id"]
    assert client.get("/api/daily/me?rules=pyramide").json()["days"][0] == {
        "date": EPOCH.isoformat(),
        "status": "playing",
    }


@pytest.mark.parametrize(
    ("query", "ja", "en"),
    [
        ("date=2026-02-30", "2026-02-30 という日はありません", "there is no day 2026-02-30 in the calendar"),
        ("date=2026-2-3", "日付「2026-2-3」は YYYY-MM-DD の形で書いてください", "not written YYYY-MM-DD"),
        ("date=2026-12-02", "2026-12-02 のデイリーはまだ公開されていません（今日は 2026-12-01）", "not out yet"),
        ("date=2026-11-30", "デイリーは 2026-12-01 に始まりました", "began on 2026-12-01"),
    ],
)
def test_a_bad_or_unreleased_day_is_refused_naming_it_and_nothing_is_made(
    players: Callable[[], TestClient], db: str, query: str, ja: str, en: str
) -> None:
    client = players()
    answer = client.get(f"/api/daily?{query}")
    assert answer.status_code == 400
    assert answer.json()["code"] == "bad-date"
    assert ja in answer.json()["message"]
    assert en in client.get(f"/api/daily?{query}&lang=en").json()["message"]
    day = query.split("=", 1)[1]
    assert client.post("/api/daily/games", json={"date": day}).status_code == 400
    assert Store(db).count_games() == 0
    assert client.get("/api/daily?rules=msc").status_code == 422


def test_the_days_leaderboard_counts_each_players_first_finished_game(players: Callable[[], TestClient]) -> None:
    fast, slow, loser = players(), players(), players()
    won_fast = win(fast, fast.post("/api/daily/games", json={}).json()["game"])
    won_slow = win(slow, slow.post("/api/daily/games", json={}).json()["game"], extra_undo=True, coach=True)
    lost = loser.post("/api/daily/games", json={}).json()["game"]
    assert loser.post(f"/api/games/{lost['id']}/resign").json()["game"]["result"]["won"] is False
    # replays of the day's deal change nothing: the loser's win afterwards, the winner's second win
    shown = loser.post("/api/daily/games", json={})  # the day's deal again: the game that counts, as it ended
    assert (shown.status_code, shown.json()["game"]["id"]) == (200, lost["id"])
    again = loser.post("/api/daily/games", json={"again": True})
    assert again.status_code == 201 and again.json()["game"]["daily"]["counted"] is False  # practice
    win(loser, again.json()["game"])
    win(fast, fast.post("/api/daily/games", json={"again": True}).json()["game"])

    board = fast.get("/api/daily/board").json()
    assert board["finished"] == 3 and board["won"] == 2
    assert [e["moves"] for e in board["by_moves"]] == sorted([won_fast["moves"], won_slow["moves"]])
    assert won_slow["moves"] == won_fast["moves"] + 1
    assert [e["you"] for e in board["by_moves"]] == [True, False]
    # the win played with the solver's hint (which sees the stock) is marked, in both orders
    assert [e["solver"] for e in board["by_moves"]] == [False, True]
    assert sorted(e["solver"] for e in board["by_time"]) == [False, True]
    assert [e["seconds"] for e in board["by_time"]] == sorted(e["seconds"] for e in board["by_time"])
    assert board["you"]["won"] is True and board["you"]["moves_rank"] == 1
    assert loser.get("/api/daily/board").json()["you"] == {"won": False, "time_rank": None, "moves_rank": None}
    # the result of a daily win shows the day's leaderboard
    assert len(won_slow["result"]["leaderboard"]) == 2
    assert loser.get("/api/daily/me").json()["days"][0]["status"] == "lost"


def test_the_streak_and_the_calendar_follow_the_days(players: Callable[[], TestClient], clock: Clock) -> None:
    client = players()

    def me() -> Json:
        return client.get("/api/daily/me").json()

    for _ in range(2):  # two days won in a row
        win(client, client.post("/api/daily/games", json={}).json()["game"])
        assert me()["days"][0]["status"] == "won"
        clock.day += timedelta(days=1)
    assert (me()["streak"], me()["best_streak"]) == (2, 2)  # today is not decided yet: the run stands
    clock.day += timedelta(days=1)  # a day missed
    assert (me()["streak"], me()["best_streak"]) == (0, 2)
    missed = (EPOCH + timedelta(days=2)).isoformat()
    late = client.post("/api/daily/games", json={"date": missed})
    assert late.status_code == 201
    assert late.json()["game"]["daily"] == {"date": missed, "counted": False, "rules": "classic"}
    win(client, late.json()["game"])
    calendar = me()
    assert [day["status"] for day in calendar["days"]] == ["unplayed", "late", "won", "won"]
    assert calendar["today"] == (EPOCH + timedelta(days=3)).isoformat()
    assert (calendar["streak"], calendar["best_streak"]) == (0, 2)  # a late win counts for nothing
    assert client.get(f"/api/daily/board?date={missed}").json()["won"] == 0


def test_streaks_count_runs_of_days_won() -> None:
    day = EPOCH + timedelta(days=5)
    status = {(EPOCH + timedelta(days=n)).isoformat(): s for n, s in enumerate(["won", "won", "won", "lost", "won"])}
    assert streaks(status, day) == (1, 3)
    status[day.isoformat()] = "won"
    assert streaks(status, day) == (2, 3)
    status[day.isoformat()] = "lost"
    assert streaks(status, day) == (0, 3)

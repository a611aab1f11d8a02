"""The daily deal as the web app serves it: which day it is, the day's leaderboard, a player's streak
and calendar, computed from the recorded games (never kept as counters, like the statistics).

* A game counts for its day when it was started that day through the daily deal (``daily_counted``);
  of those, each player's **first finished** game is the one that counts — a replay changes nothing.
* The **leaderboard** ranks the day's counted wins by time (then moves) and by moves (then time).
* The **streak** is the run of consecutive days won up to today — or up to yesterday while today's
  deal is not yet decided — and the best streak the longest such run.
* The **calendar** gives each day from the first daily deal to today one status: ``won``, ``lost``,
  ``playing`` (started, not finished), ``late`` (missed that day, won later: it counts for nothing) or
  ``unplayed``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Final, Literal

from ..daily import DEFAULT_TIMEZONE, EPOCH, day_asked, timezone, today
from ..rules import PRESETS
from ..store import GameRow, Store
from ..vocabulary import Outcome
from .answers import CalendarAnswer, CalendarDay, DayBoard
from .shapes import LeaderEntry

#: Entries of each ordering of a day's leaderboard.
BOARD_SIZE: Final = 10
WON: Final = Outcome.WON.value
#: A day's status in the calendar.
Status = Literal["won", "lost", "playing", "late", "unplayed"]


@dataclass(frozen=True)
class DailyDesk:
    """The app's daily settings: the time zone its day turns in, and the clock that says when it is
    (seconds since 1970; a test sets another to live through several days)."""

    zone: str = DEFAULT_TIMEZONE
    clock: Callable[[], float] = time.time

    def __post_init__(self) -> None:
        timezone(self.zone)  # a bad name fails when the app is made, not on the first request

    def today(self) -> date:
        """The server's date."""
        return today(self.zone, self.clock())

    def day(self, text: str | None) -> date:
        """The day asked for (today when None): DailyError for a bad date, one before the first daily
        deal, or one still to come (its deal is not given away)."""
        return day_asked(text, self.today())


def first_finished(rows: list[GameRow]) -> dict[str, GameRow]:
    """Each player's first finished game of ``rows`` (finished games in the order they ended)."""
    first: dict[str, GameRow] = {}
    for row in rows:
        first.setdefault(row.player_id, row)
    return first


def _seconds(row: GameRow) -> float:
    assert row.ended_ms is not None
    return (row.ended_ms - row.started_ms) / 1000


def board(store: Store, day: date, rules: str, player_id: str | None) -> DayBoard:
    """A day's leaderboard: ``by_time`` and ``by_moves`` (each ``BOARD_SIZE`` entries at most), the
    number of players who finished, and the asking player's ranks (None when they have no counted win)."""
    rule_string = str(PRESETS[rules])
    first = first_finished(store.daily_finished(day.isoformat(), rule_string))
    wins = [row for row in first.values() if row.result == WON]
    by_time = sorted(wins, key=lambda r: (_seconds(r), r.moves, r.ended_ms))
    by_moves = sorted(wins, key=lambda r: (r.moves, _seconds(r), r.ended_ms))
    names = store.names([row.player_id for row in wins])
    coached = store.coached(list({row.id for row in by_time[:BOARD_SIZE] + by_moves[:BOARD_SIZE]}))

    def entries(ordered: list[GameRow]) -> list[LeaderEntry]:
        return [
            {
                "rank": rank,
                "name": names.get(row.player_id),
                "seconds": round(_seconds(row), 1),
                "moves": row.moves,
                "you": row.player_id == player_id,
                "solver": row.id in coached,
            }
            for rank, row in enumerate(ordered[:BOARD_SIZE], start=1)
        ]

    def rank_of(ordered: list[GameRow]) -> int | None:
        return next((rank for rank, row in enumerate(ordered, start=1) if row.player_id == player_id), None)

    return {
        "by_time": entries(by_time),
        "by_moves": entries(by_moves),
        "finished": len(first),
        "won": len(wins),
        "you": None
        if player_id is None or player_id not in first
        else {
            "won": first[player_id].result == WON,
            "time_rank": rank_of(by_time),
            "moves_rank": rank_of(by_moves),
        },
    }


def statuses(rows: list[GameRow]) -> dict[str, Status]:
    """The calendar status of each day a player played (see the module's description)."""
    counted: dict[str, list[GameRow]] = {}
    late: dict[str, list[GameRow]] = {}
    for row in rows:
        assert row.daily is not None
        (counted if row.daily_counted else late).setdefault(row.daily, []).append(row)
    out: dict[str, Status] = {}
    for day in set(counted) | set(late):
        finished = sorted((r for r in counted.get(day, []) if r.result is not None), key=lambda r: r.ended_ms or 0)
        if finished:
            out[day] = "won" if finished[0].result == WON else "lost"
        elif day in counted:
            out[day] = "playing"
        elif any(r.result == WON for r in late[day]):
            out[day] = "late"
        else:
            out[day] = "unplayed"
    return out


def streaks(status: dict[str, Status], current: date) -> tuple[int, int]:
    """``(streak, best)``: the run of days won up to today (or yesterday while today is undecided), and
    the longest run of days won."""
    best = run = 0
    day = EPOCH
    while day <= current:
        run = run + 1 if status.get(day.isoformat()) == "won" else 0
        best = max(best, run)
        day += timedelta(days=1)
    day = current
    if status.get(day.isoformat()) in (None, "unplayed", "playing", "late"):
        day -= timedelta(days=1)
    streak = 0
    while day >= EPOCH and status.get(day.isoformat()) == "won":
        streak += 1
        day -= timedelta(days=1)
    return streak, best


def calendar(store: Store, player_id: str | None, rules: str, current: date) -> CalendarAnswer:
    """A player's daily record under ``rules``: streak, best streak and every day's status (newest first)."""
    rows = [] if player_id is None else store.daily_games_of(player_id, str(PRESETS[rules]))
    status = statuses(rows)
    streak, best = streaks(status, current)
    days: list[CalendarDay] = []
    day = current
    while day >= EPOCH:
        days.append({"date": day.isoformat(), "status": status.get(day.isoformat(), "unplayed")})
        day -= timedelta(days=1)
    return {"rules": rules, "today": current.isoformat(), "streak": streak, "best_streak": best, "days": days}

"""Monthly badges: what a month of daily deals and challenges earns (docs/challenges.md).

A month's **days** are the days of that month on which the player cleared a daily deal on its own day
(a counted win, under any of the daily rule sets); its **challenges** are the daily challenges of that
month's days the player completed.  Days earn bronze (5), silver (10) and gold (20); gold with 20
challenges completed earns the crown.  Everything is read from the player's games, so the records'
export and import carry badges with the games they came from.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import date
from typing import Final, Literal

from ..challenges import progress
from ..daily import MAIN_RULES
from ..rules import PRESETS
from ..store import GameRow, Store
from .answers import MonthBadge
from .challenges import challenges_of, games_played

Badge = Literal["bronze", "silver", "gold", "crown"]
#: Days of daily deals cleared that each badge needs, lowest first.
DAY_BADGES: Final[tuple[tuple[Badge, int], ...]] = (("bronze", 5), ("silver", 10), ("gold", 20))
#: Challenges completed that the crown needs beside gold.
CROWN_CHALLENGES: Final = 20


def badge_for(days: int, challenges: int) -> Badge | None:
    """The badge ``days`` cleared and ``challenges`` completed in a month earn (None: none yet)."""
    earned: Badge | None = None
    for name, needed in DAY_BADGES:
        if days >= needed:
            earned = name
    if earned == "gold" and challenges >= CROWN_CHALLENGES:
        return "crown"
    return earned


def badges_of(store: Store, player_id: str | None) -> list[MonthBadge]:
    """Every month the player cleared a daily deal or completed a challenge in, oldest first."""
    if player_id is None:
        return []
    cleared: dict[str, set[str]] = defaultdict(set)
    for rules in MAIN_RULES:
        for row in store.daily_games_of(player_id, str(PRESETS[rules])):
            if row.daily is not None and row.daily_counted and row.result == "won":
                cleared[row.daily[:7]].add(row.daily)
    completed: dict[str, int] = defaultdict(int)
    rows = store.challenge_games(player_id, None)
    by_id: dict[str, list[GameRow]] = defaultdict(list)
    for row in rows:
        assert row.challenge is not None
        by_id[row.challenge].append(row)
    for challenge_id, games in by_id.items():
        day = date.fromisoformat(challenge_id[:10])
        found = next((c for c in challenges_of(store, day) if c.id == challenge_id), None)
        if found is not None and progress(found, games_played(store, games))[1]:
            completed[challenge_id[:7]] += 1
    months = sorted(set(cleared) | set(completed))
    return [
        {
            "month": month,
            "days": len(cleared[month]),
            "challenges": completed[month],
            "badge": badge_for(len(cleared[month]), completed[month]),
        }
        for month in months
    ]

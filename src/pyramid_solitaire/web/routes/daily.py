"""Routes of the daily deal: the day's deal and par, starting (or resuming) it, the day's leaderboard,
and the player's streak and calendar (:mod:`..daily`, :mod:`...daily`).

A daily game started on its own day counts for that day; a past day can still be played from the
calendar, but does not count.  A day still to come is refused: its deal is not given away early.
"""

from __future__ import annotations

from datetime import date
from typing import Annotated, Any, Final, Literal

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel, ConfigDict, Field

from ...daily import DailyError, daily_deal
from ..daily import DailyDesk, board, calendar
from ..deps import GamesDep, Lang, Player, set_player_cookie
from ..errors import ApiError
from ..games import Games
from ..http import Answer
from ..pars import PARS
from .games import game_state

router = APIRouter()

MainRules = Literal["classic", "pyramide", "thirteen"]
RulesQuery = Annotated[MainRules, Query(description="the rule set: classic, pyramide or thirteen")]
DayQuery = Annotated[str | None, Query(max_length=20, description="the day, YYYY-MM-DD; today when left out")]
#: Whose clock says which day it is.
DESK_KEY: Final = "daily"


class DailyGame(BaseModel):
    """A daily deal to play: its rule set and day (today when left out)."""

    model_config = ConfigDict(extra="forbid")
    rules: MainRules = "classic"
    date: str | None = Field(None, max_length=20, description="YYYY-MM-DD; a past day does not count")


def desk_of(request: Request) -> DailyDesk:
    """The app's daily settings (put on ``app.state`` by :func:`..app.create_app`)."""
    desk: DailyDesk = getattr(request.app.state, DESK_KEY)
    return desk


def day_of(request: Request, text: str | None) -> date:
    try:
        return desk_of(request).day(text)
    except DailyError as exc:
        raise ApiError(400, "bad-date", exc) from None


def about(games: Games, rules: str, day: date, current: date) -> dict[str, Any]:
    """What any answer about a day's deal says: day, rule set, code and par (wanted if not yet known)."""
    deal = daily_deal(rules, day)
    moves, status = PARS.status(games.store, deal)
    return {
        "date": day.isoformat(),
        "rules": rules,
        "code": deal.code,
        "par": moves,
        "par_status": status,
        "today": day == current,
    }


@router.get("/api/daily")
def get_daily(
    request: Request, games: GamesDep, rules: RulesQuery = "classic", date: DayQuery = None
) -> dict[str, Any]:
    """The daily deal of a day (today in the server's time zone when no date is given) and its par
    (``par_status`` ``pending`` while it is being computed, ``unknown`` when the search ran out of time)."""
    day = day_of(request, date)
    return {**about(games, rules, day, desk_of(request).today()), "timezone": desk_of(request).zone}


@router.post("/api/daily/games", status_code=201, response_class=Answer)
def play_daily(body: DailyGame, request: Request, games: GamesDep, player: Player, lang: Lang = "ja") -> Answer:
    """Start a day's deal, or resume the player's unfinished game of it.  Started on its own day, the
    game counts for that day's leaderboard and the streak; a past day's does not."""
    day = day_of(request, body.date)
    counted = day == desk_of(request).today()
    deal = daily_deal(body.rules, day)
    PARS.status(games.store, deal)
    player_id = player
    made = player_id is None
    if player_id is None:
        player_id = games.store.new_player()
    unfinished = [
        row
        for row in games.store.daily_games_of(player_id, str(deal.rules))
        if row.daily == day.isoformat() and row.result is None and bool(row.daily_counted) == counted
    ]
    if unfinished:
        with games.lock(unfinished[-1].id):
            session = games.load(unfinished[-1].id, player_id)
            state = game_state(games, session, lang)
        return Answer({"game": state, "event": {"kind": "state", "cards": []}}, request=request)
    session = games.create(deal, player_id, daily=day.isoformat(), counted=counted)
    response = Answer(
        {"game": game_state(games, session, lang), "event": {"kind": "dealt", "cards": []}},
        status_code=201,
        request=request,
    )
    if made:
        set_player_cookie(request, response, games, player_id)
    return response


@router.get("/api/daily/board")
def daily_board(
    request: Request, games: GamesDep, player: Player, rules: RulesQuery = "classic", date: DayQuery = None
) -> dict[str, Any]:
    """A day's leaderboard: each player's first finished game that counted, wins ranked by time and by
    moves, and the asking player's ranks."""
    day = day_of(request, date)
    current = desk_of(request).today()
    return {**about(games, rules, day, current), **board(games.store, day, rules, player)}


@router.get("/api/daily/me")
def daily_me(request: Request, games: GamesDep, player: Player, rules: RulesQuery = "classic") -> dict[str, Any]:
    """The player's daily streak, best streak and calendar under a rule set (every day from the first
    daily deal to today: won, lost, playing, late — won on a later day — or unplayed)."""
    return calendar(games.store, player, rules, desk_of(request).today())

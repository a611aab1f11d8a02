"""Routes of the daily deal: the day's deal and par, starting (or resuming) it, the day's leaderboard,
and the player's streak and calendar (:mod:`..daily`, :mod:`...daily`).

A daily game started on its own day counts for that day; a past day can still be played from the
calendar, but does not count.  A day still to come is refused: its deal is not given away early.
"""

from __future__ import annotations

from datetime import date
from typing import Annotated, Final, Literal

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel, ConfigDict, Field

from ...daily import DailyError, daily_deal
from ..answers import CalendarAnswer, DailyAnswer, DailyBoardAnswer, DayAbout, GameAnswer
from ..daily import DailyDesk, board, calendar
from ..deps import GamesDep, Lang, Player
from ..errors import ApiError
from ..games import Games
from ..http import Answer
from ..pars import PARS
from ..schema import answers
from .games import dealt, game_state

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
    again: bool = Field(False, description="a new game even when the player has finished that day's deal")


def desk_of(request: Request) -> DailyDesk:
    """The app's daily settings (put on ``app.state`` by :func:`..app.create_app`)."""
    desk: DailyDesk = getattr(request.app.state, DESK_KEY)
    return desk


def day_of(request: Request, text: str | None) -> date:
    try:
        return desk_of(request).day(text)
    except DailyError as exc:
        raise ApiError(400, "bad-date", exc) from None


def about(games: Games, rules: str, day: date, current: date) -> DayAbout:
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


@router.get("/api/daily", response_class=Answer, responses=answers(DailyAnswer))
def get_daily(request: Request, games: GamesDep, rules: RulesQuery = "classic", date: DayQuery = None) -> Answer:
    """The daily deal of a day (today in the server's time zone when no date is given) and its par
    (``par_status`` ``pending`` while it is being computed, ``unknown`` when the search ran out of time)."""
    day = day_of(request, date)
    body: DailyAnswer = {**about(games, rules, day, desk_of(request).today()), "timezone": desk_of(request).zone}
    return Answer(body, request=request)


@router.post("/api/daily/games", status_code=201, response_class=Answer, responses=answers(GameAnswer, 201, 200))
def play_daily(body: DailyGame, request: Request, games: GamesDep, player: Player, lang: Lang) -> Answer:
    """A day's deal for the player: their unfinished game of it if there is one; else, unless ``again``,
    the game of it they finished (the one that counts first); else a new game (201).  A new game counts
    for the day only when it is that day and the player has no counted game of it yet; any other is
    practice (a past day, or playing the day's deal again)."""
    day = day_of(request, body.date)
    deal = daily_deal(body.rules, day)
    PARS.status(games.store, deal)
    player_id = player or games.store.new_player()
    rows = [row for row in games.store.daily_games_of(player_id, str(deal.rules)) if row.daily == day.isoformat()]
    unfinished = [row for row in rows if row.result is None]
    finished = sorted((row for row in rows if row.result is not None), key=lambda r: (not r.daily_counted, r.ended_ms))
    shown = unfinished[-1:] or ([] if body.again else finished[:1])
    if shown:
        with games.lock(shown[0].id):
            session = games.load(shown[0].id, player_id)
            shown_game: GameAnswer = {"game": game_state(games, session, lang), "event": {"kind": "state", "cards": []}}
        return Answer(shown_game, request=request)
    counted = day == desk_of(request).today() and not any(row.daily_counted for row in rows)
    session = games.create(deal, player_id, daily=day.isoformat(), counted=counted)
    return dealt(games, session, made=player is None, lang=lang, request=request)


@router.get("/api/daily/board", response_class=Answer, responses=answers(DailyBoardAnswer))
def daily_board(
    request: Request, games: GamesDep, player: Player, rules: RulesQuery = "classic", date: DayQuery = None
) -> Answer:
    """A day's leaderboard: each player's first finished game that counted, wins ranked by time and by
    moves, and the asking player's ranks."""
    day = day_of(request, date)
    current = desk_of(request).today()
    body: DailyBoardAnswer = {**about(games, rules, day, current), **board(games.store, day, rules, player)}
    return Answer(body, request=request)


@router.get("/api/daily/me", response_class=Answer, responses=answers(CalendarAnswer))
def daily_me(request: Request, games: GamesDep, player: Player, rules: RulesQuery = "classic") -> Answer:
    """The player's daily streak, best streak and calendar under a rule set (every day from the first
    daily deal to today: won, lost, playing, late — won on a later day — or unplayed)."""
    return Answer(calendar(games.store, player, rules, desk_of(request).today()), request=request)

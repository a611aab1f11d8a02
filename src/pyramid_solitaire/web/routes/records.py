"""Routes for a player's records: the player, statistics (and their reset), unfinished and finished
games, a deal's leaderboard, and export/import of the records as JSON."""

from __future__ import annotations

import json
from typing import Annotated, Final

from fastapi import APIRouter, Body, Query, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field, JsonValue, field_validator

from ...deal import Deal, DealError
from ...store import GameRow
from ...store.stats import compute
from ..answers import (
    GameSummary,
    ImportAnswer,
    LeaderboardAnswer,
    MeAnswer,
    NameAnswer,
    RecordsExport,
    StatsAnswer,
    SyncAnswer,
)
from ..deps import GamesDep, Lang, Player, leaderboard, set_player_cookie
from ..errors import ApiError
from ..http import Answer
from ..schema import answers
from ..transfer import RecordsImportError, export_records, import_records, sync_games

router = APIRouter()

#: Games listed per kind on the statistics page.
LISTED: Final = 30
MAX_NAME: Final = 40


class NameBody(BaseModel):
    """A display name for leaderboards (empty to be anonymous again)."""

    model_config = ConfigDict(extra="forbid")
    name: str = Field(max_length=MAX_NAME)

    @field_validator("name")
    @classmethod
    def _storable(cls, value: str) -> str:
        if "\x00" in value:  # PostgreSQL keeps no NUL in text
            raise ValueError("a name cannot hold a NUL character")
        return value


def game_summary(row: GameRow) -> GameSummary:
    """What the lists of unfinished and finished games show."""
    return {
        "id": row.id,
        "code": row.code,
        "rules": row.rules,
        "difficulty": row.difficulty,
        "started_ms": row.started_ms,
        "ended_ms": row.ended_ms,
        "result": row.result,
        "moves": row.moves,
        "pyramid_removed": row.pyramid_removed,
        "steps": row.version,
    }


def me(player: str | None) -> str:
    """The player, for a route that needs one: a request without one is a 404.  Asked inside the handler,
    after the body is checked, so a bad body is a 422 with or without a player."""
    if player is None:
        raise ApiError(404, "unknown-player")
    return player


@router.get("/api/me", response_class=Answer, responses=answers(MeAnswer))
def get_me(request: Request, games: GamesDep, player: Player) -> Answer:
    """The player's name and games (unfinished ones can be resumed, finished ones replayed)."""
    body: MeAnswer = {"player": None, "unfinished": [], "finished": []}
    if player is not None:
        store = games.store
        info = store.player(player)
        body = {
            "player": {"name": info["name"] if info else None},
            "unfinished": [game_summary(r) for r in store.games_of(player, finished=False, limit=LISTED)],
            "finished": [game_summary(r) for r in store.games_of(player, finished=True, limit=LISTED)],
        }
    return Answer(body, request=request)


@router.put("/api/me", response_class=Answer, responses=answers(NameAnswer))
def put_me(body: NameBody, request: Request, games: GamesDep, player: Player) -> Answer:
    """Set the display name shown on leaderboards."""
    player_id = me(player)
    name = " ".join(body.name.split()) or None
    games.store.set_name(player_id, name)
    answer: NameAnswer = {"player": {"name": name}}
    return Answer(answer, request=request)


@router.get("/api/stats", response_class=Answer, responses=answers(StatsAnswer))
def get_stats(request: Request, games: GamesDep, player: Player) -> Answer:
    """Statistics per rule set and difficulty, counted since the last reset."""
    body: StatsAnswer = {"stats": []}
    if player is not None:
        body = {"stats": [s.to_json() for s in compute(games.store.finished_games(player))]}
    return Answer(body, request=request)


@router.post("/api/stats/reset", response_class=Answer, responses=answers(StatsAnswer))
def reset_stats(request: Request, games: GamesDep, player: Player) -> Answer:
    """Start the statistics afresh (games stay listed and can still be replayed)."""
    games.store.reset_stats(me(player))
    body: StatsAnswer = {"stats": []}
    return Answer(body, request=request)


@router.get("/api/leaderboard/{code}", response_class=Answer, responses=answers(LeaderboardAnswer))
def get_leaderboard(
    code: str, request: Request, games: GamesDep, player: Player, limit: Annotated[int, Query(ge=1, le=100)] = 20
) -> Answer:
    """Everyone's wins of one deal, fastest first, then fewest moves; a text that is no deal code is a 400."""
    try:
        Deal.from_code(code)
    except DealError as exc:
        # what is wrong with the code, in the page's language; the code itself in the details too
        raise ApiError(400, "bad-code", exc, details={"code": code[:120]}) from None
    body: LeaderboardAnswer = {"code": code, "entries": leaderboard(games.store, code, player, limit)}
    return Answer(body, request=request)


@router.get("/api/me/export", response_class=Answer, responses=answers(RecordsExport))
def export(games: GamesDep, player: Player) -> Response:
    """Every game of the player as a JSON file."""
    data = export_records(games.store, me(player))
    return Response(
        json.dumps(data, ensure_ascii=False),
        media_type="application/json",
        headers={"Content-Disposition": 'attachment; filename="pyramid-records.json"'},
    )


@router.post("/api/me/import", response_class=Answer, responses=answers(ImportAnswer))
def import_(data: Annotated[JsonValue, Body()], request: Request, games: GamesDep, player: Player) -> Answer:
    """Add the games of an export file (checked by replaying them; all or nothing; a game the player
    already has is not added twice)."""
    try:
        added, already = import_records(games.store, me(player), data)
    except RecordsImportError as exc:
        raise ApiError(400, "bad-import", exc) from None
    body: ImportAnswer = {"imported": added, "already": already}
    return Answer(body, request=request)


@router.post("/api/me/sync", response_class=Answer, responses=answers(SyncAnswer))
def sync(data: Annotated[JsonValue, Body()], request: Request, games: GamesDep, player: Player, lang: Lang) -> Answer:
    """Games played offline in this browser's engine (docs/web.md, "Offline"): each is replayed and checked
    on its own; ``landed`` and ``known`` (already here, not counted again) list the games' ids, and
    ``refused`` names each game that does not replay with its reason, while the rest land.  A browser
    whose player cookie was lost gets a new player rather than lose its games."""
    player_id = player or games.store.new_player()
    try:
        answer = Answer(sync_games(games.store, player_id, data, lang), request=request)
    except RecordsImportError as exc:
        raise ApiError(400, "bad-import", exc) from None
    if player is None:
        set_player_cookie(request, answer, games, player_id)
    return answer

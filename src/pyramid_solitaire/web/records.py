"""Routes for a player's records: the player, statistics (and their reset), unfinished and finished
games, a deal's leaderboard, and export/import of the records as JSON."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Annotated, Any, Final

from fastapi import Body, FastAPI, Query, Request
from pydantic import BaseModel, ConfigDict, Field, field_validator

from ..deal import Deal, DealError
from ..store import GameRow
from ..store.stats import compute
from .games import Games
from .transfer import RecordsImportError, export_records, import_records

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


def game_summary(row: GameRow) -> dict[str, Any]:
    """What the lists of unfinished and finished games show."""
    return {"id": row.id, "code": row.code, "rules": row.rules, "difficulty": row.difficulty,
            "started_ms": row.started_ms, "ended_ms": row.ended_ms, "result": row.result, "moves": row.moves,
            "pyramid_removed": row.pyramid_removed, "steps": row.version}


def register_records(app: FastAPI, games: Games, player: Callable[[Request], str | None],
                     leaderboard: Callable[[str, str | None, int], list[dict[str, Any]]]) -> None:
    """Add the records routes to ``app``."""
    from .app import ApiError

    store = games.store

    def me(request: Request) -> str:
        player_id = player(request)
        if player_id is None:
            raise ApiError(404, "unknown-player")
        return player_id

    @app.get("/api/me")
    def get_me(request: Request) -> dict[str, Any]:
        """The player's name and games (unfinished ones can be resumed, finished ones replayed)."""
        player_id = player(request)
        if player_id is None:
            return {"player": None, "unfinished": [], "finished": []}
        info = store.player(player_id) or {}
        return {"player": {"name": info.get("name")},
                "unfinished": [game_summary(r) for r in store.games_of(player_id, finished=False, limit=LISTED)],
                "finished": [game_summary(r) for r in store.games_of(player_id, finished=True, limit=LISTED)]}

    @app.put("/api/me")
    def put_me(body: NameBody, request: Request) -> dict[str, Any]:
        """Set the display name shown on leaderboards."""
        player_id = me(request)
        name = " ".join(body.name.split()) or None
        store.set_name(player_id, name)
        return {"player": {"name": name}}

    @app.get("/api/stats")
    def get_stats(request: Request) -> dict[str, Any]:
        """Statistics per rule set and difficulty, counted since the last reset."""
        player_id = player(request)
        if player_id is None:
            return {"stats": []}
        return {"stats": [s.to_json() for s in compute(store.finished_games(player_id))]}

    @app.post("/api/stats/reset")
    def reset_stats(request: Request) -> dict[str, Any]:
        """Start the statistics afresh (games stay listed and can still be replayed)."""
        store.reset_stats(me(request))
        return {"stats": []}

    @app.get("/api/leaderboard/{code}")
    def get_leaderboard(code: str, request: Request,
                        limit: Annotated[int, Query(ge=1, le=100)] = 20) -> dict[str, Any]:
        """Everyone's wins of one deal, fastest first, then fewest moves; a text that is no deal code is a 400."""
        try:
            Deal.from_code(code)
        except DealError as exc:
            # what is wrong with the code, in the page's language; the code itself in the details too
            raise ApiError(400, "bad-code", exc, details={"code": code[:120]}) from None
        return {"code": code, "entries": leaderboard(code, player(request), limit)}

    @app.get("/api/me/export")
    def export(request: Request) -> Any:
        """Every game of the player as a JSON file."""
        from fastapi.responses import Response

        data = export_records(store, me(request))
        return Response(json.dumps(data, ensure_ascii=False), media_type="application/json",
                        headers={"Content-Disposition": 'attachment; filename="pyramid-records.json"'})

    @app.post("/api/me/import")
    def import_(data: Annotated[Any, Body()], request: Request) -> dict[str, Any]:
        """Add the games of an export file (checked by replaying them; all or nothing; a game the player
        already has is not added twice)."""
        try:
            added, already = import_records(store, me(request), data)
        except RecordsImportError as exc:
            raise ApiError(400, "bad-import", exc) from None
        return {"imported": added, "already": already}

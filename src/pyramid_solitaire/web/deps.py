"""What the route handlers are given rather than reach for: the app's :class:`.games.Games` (and so its
store) and :class:`.assets.Assets`, the player a request's cookie names, the ``lang`` and ``version``
query parameters, and the helpers the game and records routes share (the player's cookie, a deal's
leaderboard).

The dependencies only read the request (``app.state`` and the cookie), so they add nothing to the
OpenAPI schema, and never refuse: a handler that needs a player says so itself, after its body has been
checked, so a bad request is told as one whoever sends it.  They are ``async``, run on the event loop
rather than handed to a worker thread like the handlers.
"""

from __future__ import annotations

from typing import Annotated, Final, Literal

from fastapi import Depends, Query, Request, Response

from ..store import Store
from .assets import Assets
from .games import COOKIE, COOKIE_MAX_AGE, Games
from .http import negotiated
from .shapes import LeaderEntry

#: Entries of a deal's leaderboard shown with a result.
LEADERBOARD_SIZE: Final = 5


def lang_asked(
    request: Request,
    lang: Annotated[
        Literal["ja", "en"] | None,
        Query(description="language of messages and card names; without it, the Accept-Language header's"),
    ] = None,
) -> str:
    """The answer's language: ``?lang=``, else ``Accept-Language``, else Japanese (:func:`.http.negotiated`)."""
    return negotiated(lang, request.headers.get("accept-language", ""))


Lang = Annotated[str, Depends(lang_asked)]
Version = Annotated[int | None, Query(ge=0, description="the game version the action was meant for (409 if stale)")]


async def games_of(request: Request) -> Games:
    """The games of the app answering the request (put on ``app.state`` by :func:`.app.create_app`)."""
    games: Games = request.app.state.games
    return games


GamesDep = Annotated[Games, Depends(games_of)]


async def assets_of(request: Request) -> Assets:
    """The page's files, read once when the app was made."""
    assets: Assets = request.app.state.assets
    return assets


AssetsDep = Annotated[Assets, Depends(assets_of)]


async def player_of(request: Request, games: GamesDep) -> str | None:
    """The anonymous player the request's signed cookie names; None without one, or with a forged one."""
    return games.player_of(request.cookies.get(COOKIE))


#: The player id, or None: a browser that has not started a game yet.
Player = Annotated[str | None, Depends(player_of)]


def set_player_cookie(request: Request, response: Response, games: Games, player_id: str) -> None:
    """Give the browser its player: the signed id in an HttpOnly, same-site cookie that lasts ``COOKIE_MAX_AGE``."""
    response.set_cookie(
        COOKIE,
        games.sign(player_id),
        max_age=COOKIE_MAX_AGE,
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
        path="/",
    )


def leaderboard(store: Store, code: str, player_id: str | None, limit: int = LEADERBOARD_SIZE) -> list[LeaderEntry]:
    """A deal's fastest wins, ranked, marking the player's own and those played with the solver's hint."""
    rows = store.leaderboard(code, limit)
    coached = store.coached([entry["id"] for entry in rows])
    return [
        {
            "rank": rank,
            "name": entry["name"],
            "seconds": round(entry["ms"] / 1000, 1),
            "moves": entry["moves"],
            "you": entry["player_id"] == player_id,
            "solver": entry["id"] in coached,
        }
        for rank, entry in enumerate(rows, start=1)
    ]

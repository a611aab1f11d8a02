"""The web app: a routes table of thin handlers over :mod:`.play` and the engine.

Every tap goes to the server, which answers ``{"game": state, "event": event}`` — the whole state the
page draws (see :meth:`.play.Session.state`) and what just happened.  A refused *tap* is part of play
(the cards shake and the reason shows), so it is an event in a 200 answer.  A refused *command* (a move
in notation, undo, redo, rewind) and every bad request is a 4xx answer ``{code, message, details}``
with the message in the player's language, and leaves the game as it was.

Games live in memory for now (:class:`Games`); the store of issue 5 keeps them in a database.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Annotated, Any, Final, Literal

from fastapi import Body, FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, StrictInt
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..catalog import NoVerifiedDeal, pick_deal
from ..deal import CodeError, Deal, DealError, parse_deal
from ..game import Game
from ..moves import Move, MoveError
from ..reasons import IllegalMoveError
from ..rules import PRESET_ALIASES, PRESETS, RulesError, find_rules
from .play import LANGS, BadTap, Session

HERE: Final = Path(__file__).parent
STATIC: Final = HERE / "static"
LOCALES: Final = HERE / "locales"
#: Games kept in memory; the oldest untouched game goes first.
MAX_GAMES: Final = 10_000
#: Largest request body accepted, in bytes (a deal in notation is under 200).
MAX_BODY: Final = 16 * 1024

Lang = Annotated[Literal["ja", "en"], Query(description="language of messages and card names")]

#: Headers on every answer: nothing from other origins, no framing, no sniffing.
SECURITY_HEADERS: Final = {
    "Content-Security-Policy": ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                                "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
                                "form-action 'self'; frame-ancestors 'none'"),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
}

#: What each error code says, in Japanese and English; the engine's own reason follows it.
ERRORS: Final = {
    "unknown-game": ("そのゲームは見つかりません", "No such game"),
    "bad-code": ("配札コードが正しくありません", "That deal code is not valid"),
    "bad-deal": ("配札が正しくありません", "That deal is not valid"),
    "bad-rules": ("ルールが正しくありません", "Those rules are not valid"),
    "bad-move": ("手の書き方が正しくありません", "That move is not written correctly"),
    "bad-card": ("カードの書き方が正しくありません", "That card is not written correctly"),
    "bad-json": ("リクエストのJSONが読めません", "The request body is not valid JSON"),
    "bad-request": ("リクエストが正しくありません", "The request is not valid"),
    "too-large": ("リクエストが大きすぎます", "The request is too large"),
    "not-found": ("ページが見つかりません", "Not found"),
    "method-not-allowed": ("その操作はできません", "Method not allowed"),
    "no-verified-deal": ("確認済みの配札が見つかりませんでした", "No verified deal was found"),
}


class ApiError(Exception):
    """A refused request: HTTP status, stable code, details; the message is rendered per language."""

    def __init__(self, status: int, code: str, reason: str | None = None, details: dict[str, Any] | None = None,
                 messages: tuple[str, str] | None = None) -> None:
        super().__init__(code)
        self.status = status
        self.code = code
        self.details = dict(details or {})
        if reason:
            self.details.setdefault("reason", reason)
        base = messages or ERRORS[code]
        self.messages = base if messages or not reason else (f"{base[0]}：{reason}", f"{base[1]}: {reason}")

    def response(self, lang: str) -> JSONResponse:
        """The JSON answer ``{code, message, details}``."""
        message = self.messages[0 if lang == "ja" else 1]
        return JSONResponse({"code": self.code, "message": message, "details": self.details},
                            status_code=self.status)


class Games:
    """The games being played, by id (in memory; bounded, least recently used first out)."""

    def __init__(self, limit: int = MAX_GAMES) -> None:
        self._games: OrderedDict[str, Session] = OrderedDict()
        self._lock = threading.Lock()
        self.limit = limit

    def add(self, session: Session) -> None:
        """Keep a new game."""
        with self._lock:
            self._games[session.id] = session
            while len(self._games) > self.limit:
                self._games.popitem(last=False)

    def get(self, game_id: str) -> Session:
        """The game ``game_id``; raises a 404 ApiError if there is none."""
        with self._lock:
            session = self._games.get(game_id)
            if session is None:
                raise ApiError(404, "unknown-game", details={"id": game_id[:64]})
            self._games.move_to_end(game_id)
            return session


# --- request bodies -----------------------------------------------------------------------------------

class NewGame(BaseModel):
    """A new game: a rule set and difficulty, or a deal code, or a custom deal in notation."""

    model_config = ConfigDict(extra="forbid")
    rules: str = Field("classic", max_length=200, description="rule set, e.g. classic or thirteen(jokers=2)")
    difficulty: Literal["E", "N", "R"] = "R"
    code: str | None = Field(None, max_length=200, description="a deal code; its rules apply")
    deal: str | None = Field(None, max_length=2000, description="a custom deal in notation")


class Tap(BaseModel):
    """A tap on a card: its token, or its pyramid slot (for a card that may be face down)."""

    model_config = ConfigDict(extra="forbid")
    card: str | None = Field(None, max_length=8)
    slot: StrictInt | None = None


class MoveBody(BaseModel):
    """A move in notation: ``Kd``, ``Tc+3s``, ``draw``, ``recycle``."""

    model_config = ConfigDict(extra="forbid")
    move: str = Field(max_length=40)


# --- the app ------------------------------------------------------------------------------------------

def _lang_of(request: Request) -> str:
    lang = request.query_params.get("lang", "ja")
    return lang if lang in LANGS else "ja"


def _answer(session: Session, event: dict[str, Any], lang: str) -> dict[str, Any]:
    session.after_action()
    return {"game": session.state(lang), "event": event}


def _new_deal(body: NewGame) -> Deal:
    try:
        rules = find_rules(body.rules)
    except RulesError as exc:
        raise ApiError(400, "bad-rules", str(exc)) from None
    if body.code is not None and body.deal is not None:
        raise ApiError(400, "bad-request", "give a code or a deal, not both")
    if body.code is not None:
        try:
            return Deal.from_code(body.code)  # a code only: text that is no code is a bad code, not notation
        except DealError as exc:
            raise ApiError(400, "bad-code", str(exc)) from None
    if body.deal is not None:
        try:
            return parse_deal(body.deal, rules)
        except CodeError as exc:
            raise ApiError(400, "bad-code", str(exc)) from None
        except DealError as exc:
            raise ApiError(400, "bad-deal", str(exc)) from None
    try:
        return pick_deal(rules, body.difficulty)
    except NoVerifiedDeal as exc:
        raise ApiError(503, "no-verified-deal", str(exc)) from None


def rules_catalogue() -> dict[str, Any]:
    """The presets and the options the New Game dialog offers."""
    presets = [{"id": name, "rules": str(rules), "aliases": sorted(a for a, p in PRESET_ALIASES.items() if p == name),
                "passes": rules.passes, "jokers": rules.jokers, "triples": rules.triples,
                "open_pyramid": rules.open_pyramid, "overlap": rules.overlap, "strict": rules.strict}
               for name, rules in PRESETS.items()]
    return {"presets": presets, "default": "classic"}


def create_app(games: Games | None = None) -> FastAPI:
    """The FastAPI app.  ``games`` lets tests look inside."""
    games = games or Games()
    app = FastAPI(title="pyramid-solitaire", version="0.1.0", docs_url="/api/docs", redoc_url=None,
                  openapi_url="/api/openapi.json")
    app.state.games = games

    @app.middleware("http")
    async def guard(request: Request, call_next: Callable[[Request], Awaitable[Response]]) -> Response:
        length = request.headers.get("content-length")
        # a chunked body has no length to check, so it could be any size: refused too
        unsized = length is None and "transfer-encoding" in request.headers
        if unsized or (length is not None and (not length.isdigit() or int(length) > MAX_BODY)):
            response: Response = ApiError(413, "too-large", details={"limit": MAX_BODY}).response(_lang_of(request))
        else:
            response = await call_next(request)
        response.headers.update(SECURITY_HEADERS)
        return response

    @app.exception_handler(ApiError)
    async def api_error(request: Request, exc: ApiError) -> JSONResponse:
        return exc.response(_lang_of(request))

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = [{"where": ".".join(str(p) for p in e.get("loc", ())), "problem": e.get("msg", "")}
                  for e in exc.errors()]
        code = "bad-json" if any(e.get("type") == "json_invalid" for e in exc.errors()) else "bad-request"
        summary = "; ".join(f"{e['where']}: {e['problem']}" for e in errors)
        return ApiError(422, code, summary, {"errors": errors}).response(_lang_of(request))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = {404: "not-found", 405: "method-not-allowed"}.get(exc.status_code, "bad-request")
        return ApiError(exc.status_code, code).response(_lang_of(request))

    def refused(exc: IllegalMoveError) -> ApiError:
        data = exc.refusal.to_json()
        return ApiError(409, data["code"], details=data["details"], messages=(data["message_ja"], data["message_en"]))

    @app.get("/api/rules")
    def get_rules() -> dict[str, Any]:
        """The rule sets the New Game dialog offers."""
        return rules_catalogue()

    @app.post("/api/games", status_code=201)
    def new_game(body: NewGame, lang: Lang = "ja") -> dict[str, Any]:
        """Start a game: a verified (E/N) or random (R) deal of a rule set, a code, or a custom deal."""
        session = Session(Game(_new_deal(body)))
        games.add(session)
        return {"game": session.state(lang), "event": {"kind": "dealt", "cards": []}}

    @app.get("/api/games/{game_id}")
    def get_game(game_id: str, lang: Lang = "ja") -> dict[str, Any]:
        """The game's state (to resume after a reload, or to change language)."""
        session = games.get(game_id)
        with session.lock:
            return {"game": session.state(lang), "event": {"kind": "state", "cards": []}}

    @app.post("/api/games/{game_id}/tap")
    def tap(game_id: str, body: Tap, lang: Lang = "ja") -> dict[str, Any]:
        """A tap on a card (by token, or by pyramid slot)."""
        session = games.get(game_id)
        if (body.card is None) == (body.slot is None):
            raise ApiError(422, "bad-request", "give exactly one of card and slot")
        target: str | int = body.card if body.card is not None else body.slot  # type: ignore[assignment]
        with session.lock:
            try:
                event = session.tap(target)
            except BadTap as exc:
                raise ApiError(400, "bad-card", str(exc)) from None
            return _answer(session, event, lang)

    @app.post("/api/games/{game_id}/stock")
    def stock(game_id: str, lang: Lang = "ja") -> dict[str, Any]:
        """A tap on the stock: draw, or turn the waste over."""
        session = games.get(game_id)
        with session.lock:
            return _answer(session, session.tap_stock(), lang)

    @app.post("/api/games/{game_id}/move")
    def move(game_id: str, body: Annotated[MoveBody, Body()], lang: Lang = "ja") -> dict[str, Any]:
        """Play a move in notation; refused moves are 409 and change nothing."""
        session = games.get(game_id)
        try:
            parsed = Move.parse(body.move)
        except MoveError as exc:
            raise ApiError(400, "bad-move", str(exc)) from None
        with session.lock:
            try:
                event = session.play(parsed)
            except IllegalMoveError as exc:
                raise refused(exc) from None
            return _answer(session, event, lang)

    def command(name: str, action: Callable[[Session], dict[str, Any]]) -> None:
        def handler(game_id: str, lang: Lang = "ja") -> dict[str, Any]:
            session = games.get(game_id)
            with session.lock:
                try:
                    event = action(session)
                except IllegalMoveError as exc:
                    raise refused(exc) from None
                return _answer(session, event, lang)

        handler.__doc__ = f"{name.capitalize()} (see pyramid_solitaire.web.play.Session.{name})."
        app.add_api_route(f"/api/games/{{game_id}}/{name}", handler, methods=["POST"], name=name)

    command("undo", Session.undo)
    command("redo", Session.redo)
    command("rewind", Session.rewind)
    command("hint", Session.hint)
    command("coach", Session.coach)
    command("deselect", Session.deselect)

    @app.get("/locales/{lang}.json")
    def locale(lang: str) -> FileResponse:
        """The page's texts in one language."""
        if lang not in LANGS:
            raise ApiError(404, "not-found")
        return FileResponse(LOCALES / f"{lang}.json", media_type="application/json")

    index = STATIC / "index.html"

    @app.get("/", include_in_schema=False)
    def home() -> FileResponse:
        return FileResponse(index, media_type="text/html")

    @app.get("/favicon.ico", include_in_schema=False)
    def favicon() -> FileResponse:
        return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")

    @app.get("/play/{code}", include_in_schema=False)
    def play_link(code: str) -> FileResponse:
        return FileResponse(index, media_type="text/html")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app

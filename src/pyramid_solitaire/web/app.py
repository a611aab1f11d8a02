"""The web app: a routes table of thin handlers over :mod:`.play` and the engine.

The page chooses cards by itself, from what the state says each card can do (see
:meth:`.play.Session.state`); every move (``/move`` with its notation) and every event (undo, redo,
rewind, hint, coach, resign) is one POST, answered ``{"game": state, "event": event}`` — the whole state
the page draws and what just happened — once it is written.  A move or event the engine refuses (a stale
tab, a hand-made request) is a 409, and every bad request a 4xx, ``{code, message, details}`` with the
message in the player's language; either leaves the game as it was and writes nothing.

Games are kept in the store (every answered action is written before the answer leaves) and cached in
memory (:mod:`.games`); a player is an anonymous id in a signed, HttpOnly cookie.
"""

from __future__ import annotations

import dataclasses
import gzip
import json
import logging
import tempfile
from pathlib import Path
from typing import Annotated, Any, Final, Literal

from fastapi import Body, FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field, StrictInt
from starlette.datastructures import MutableHeaders
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .. import __version__
from ..catalog import NoVerifiedDeal, earned, pick_deal
from ..deal import CodeError, Deal, DealError, parse_deal
from ..messages import Problem, text
from ..moves import PARK, MoveError
from ..reasons import IllegalMoveError, Refusal
from ..record import Entry, Parked, format_record, parse_entry
from ..rules import OPTIONS, PRESET_ALIASES, PRESETS, RulesError, choose_rules, find_rules
from ..store import Store, StoreError, unrecordable
from ..store.stats import stats_for
from .assets import Assets, browser_lang, not_found_page
from .games import COOKIE, COOKIE_MAX_AGE, GameConflict, GameNotFound, Games, entry_of
from .limits import RateLimiter
from .play import LANGS, BadCell, Session
from .records import register_records

HERE: Final = Path(__file__).parent
STATIC: Final = HERE / "static"
LOCALES: Final = HERE.parent / "locales"
#: Largest request body accepted, in bytes (a deal in notation is under 200); an import file may be larger.
MAX_BODY: Final = 16 * 1024
MAX_IMPORT: Final = 8 * 1024 * 1024
SAFE_METHODS: Final = frozenset({"GET", "HEAD", "OPTIONS"})
#: Paths whose answers are data for the page, not pages: a missing one is a JSON 404, never the HTML page.
DATA_PATHS: Final = ("/api/", "/static/", "/locales/", "/art/")
LOG: Final = logging.getLogger(__name__)

Lang = Annotated[Literal["ja", "en"], Query(description="language of messages and card names")]
Version = Annotated[int | None, Query(ge=0, description="the game version the action was meant for (409 if stale)")]
#: Entries of a deal's leaderboard shown with a result.
LEADERBOARD_SIZE: Final = 5

#: Answers at least this long (bytes of JSON) are compressed for a browser that accepts gzip.
COMPRESS_FROM: Final = 1024
#: Headers on every answer: nothing from other origins, no framing, no sniffing.
SECURITY_HEADERS: Final = {
    "Content-Security-Policy": ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                                "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
                                "form-action 'self'; frame-ancestors 'none'"),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
}

class Guard:
    """Pure ASGI middleware (cheaper than ``@app.middleware``): refuses state-changing requests from
    other origins, beyond a client's rate limit (:mod:`.limits`), and bodies that are too large or of
    unknown size before any handler runs, and puts the security headers on every answer."""

    def __init__(self, app: ASGIApp, limiter: RateLimiter | None = None) -> None:
        self.app = app
        self.limiter = limiter or RateLimiter()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        refusal = self._refusal(request) or self._rate_refusal(request)
        if refusal is not None:
            response = refusal.response(_lang_of(request))
            response.headers.update(SECURITY_HEADERS)
            if refusal.status == 429:
                response.headers["Retry-After"] = str(max(1, round(refusal.details["retry_after"])))
            await response(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                MutableHeaders(scope=message).update(SECURITY_HEADERS)
            await send(message)

        await self.app(scope, receive, send_with_headers)

    def _rate_refusal(self, request: Request) -> ApiError | None:
        if request.method in SAFE_METHODS:
            return None
        cookie = request.cookies.get(COOKIE)
        if cookie:
            wait = self.limiter.wait_needed("player", cookie)
        else:
            wait = self.limiter.wait_needed("address", request.client.host if request.client else "?")
        if wait <= 0:
            return None
        return ApiError(429, "rate-limited", details={"retry_after": round(min(wait, 3600.0), 2)})

    @staticmethod
    def _refusal(request: Request) -> ApiError | None:
        origin = request.headers.get("origin")
        if request.method not in SAFE_METHODS and origin is not None and not _same_origin(origin, request):
            return ApiError(403, "cross-site")
        limit = MAX_IMPORT if request.url.path == "/api/me/import" else MAX_BODY
        length = request.headers.get("content-length")
        # a chunked body has no length to check, so it could be any size: refused too
        unsized = length is None and "transfer-encoding" in request.headers
        if unsized or (length is not None and (not length.isdigit() or int(length) > limit)):
            return ApiError(413, "too-large", details={"limit": limit})
        return None


class Answer(Response):
    """A JSON answer encoded straight with :func:`json.dumps`, gzip-compressed for a request that accepts it.

    A handler that returns a dict has FastAPI walk it with ``jsonable_encoder`` first, which for a game's
    state (every card's pairs and refusals) cost about 1 ms of the 2.8 ms a move took; the states are
    plain JSON already.  A state is 5-13 KB; compressed at the fastest level it is a fifth of that for
    about 0.04 ms — done here rather than by a middleware, whose wrapping of every request cost more
    than the compression (docs/performance.md)."""

    media_type = "application/json"

    def __init__(self, content: Any, status_code: int = 200, request: Request | None = None) -> None:
        self.gzip = request is not None and "gzip" in request.headers.get("accept-encoding", "")
        self.compressed = False
        super().__init__(content, status_code=status_code)
        if self.compressed:
            self.headers["Content-Encoding"] = "gzip"
        if request is not None:
            self.headers["Vary"] = "Accept-Encoding"

    def render(self, content: Any) -> bytes:
        body = json.dumps(content, ensure_ascii=False, separators=(",", ":")).encode()
        if self.gzip and len(body) >= COMPRESS_FROM:
            self.compressed = True
            return gzip.compress(body, compresslevel=1, mtime=0)
        return body


#: The kinds of reason an answer's message may give after the error's own words.
Reason = Problem | Refusal | list[dict[str, Any]] | None


class ApiError(Exception):
    """A refused request: HTTP status, stable code and details.  Its message is written in the player's
    language when the answer is made — the catalogue's ``error.<code>``, then the reason in the same
    language: a :class:`~..messages.Problem` (a bad code, deal, rule set, move…), or the request's
    validation errors — or, for a move the engine refuses, the :class:`~..reasons.Refusal` itself."""

    def __init__(self, status: int, code: str, reason: Reason = None, details: dict[str, Any] | None = None) -> None:
        super().__init__(code)
        self.status = status
        self.code = code
        self.reason = reason
        self.details = dict(details or {})
        if isinstance(reason, Problem):  # what went wrong, for a program: the reason's code and facts
            self.details.setdefault("reason", reason.key)
            self.details.setdefault("facts", {k: v if isinstance(v, (int, float, str, bool)) or v is None else str(v)
                                              for k, v in reason.details.items()})
        elif isinstance(reason, Refusal):
            self.details.update(reason.to_json("en")["details"])

    def message(self, lang: str) -> str:
        """The message in ``lang``."""
        if isinstance(self.reason, Refusal):
            return self.reason.message(lang)
        error = text(lang, f"error.{self.code}")
        if isinstance(self.reason, Problem):
            return text(lang, "error.with-reason", error=error, reason=self.reason.message(lang))
        if isinstance(self.reason, list):
            return text(lang, "error.with-reason", error=error,
                        reason=text(lang, "parts_sep").join(invalid_part(lang, part) for part in self.reason))
        return error

    def response(self, lang: str) -> JSONResponse:
        """The JSON answer ``{code, message, details}``."""
        return JSONResponse({"code": self.code, "message": self.message(lang), "details": self.details},
                            status_code=self.status)


#: Pydantic's validation error types the catalogue words (``validation.<type>``); others: ``validation.other``.
VALIDATION_TYPES: Final = frozenset({
    "missing", "extra_forbidden", "string_too_long", "string_too_short", "string_type", "int_type", "int_parsing",
    "int_from_float", "greater_than_equal", "less_than_equal", "literal_error", "json_invalid", "model_type",
    "model_attributes_type", "dict_type", "bool_type", "bool_parsing", "float_type", "list_type", "none_required",
})


def invalid_part(lang: str, error: dict[str, Any]) -> str:
    """One validation error in words: where in the request, and what is wrong there."""
    kind = error["type"] if error["type"] in VALIDATION_TYPES else "other"
    context = {key: value for key, value in error.get("ctx", {}).items() if isinstance(value, (int, float, str))}
    if "expected" in context:
        context["expected"] = str(context["expected"]).replace("'", "")
    blanks = dict.fromkeys(("max_length", "min_length", "ge", "le", "expected"), "")
    return text(lang, f"validation.{kind}", where=error["where"] or text(lang, "validation.body"),
                **{**blanks, **{k: str(v) for k, v in context.items()}})


# --- request bodies -----------------------------------------------------------------------------------

class NewGame(BaseModel):
    """A new game: a rule set and difficulty, or a deal code, or a custom deal in notation."""

    model_config = ConfigDict(extra="forbid")
    rules: str = Field("classic", max_length=200, description="rule set, e.g. classic or thirteen(jokers=2)")
    preset: str | None = Field(None, max_length=40, description="instead of rules: a preset id, with `options`")
    options: dict[str, bool | int | str | None] = Field(
        default_factory=dict, max_length=40,
        description="with `preset`: option values by key as /api/rules lists them (null = unlimited)")
    difficulty: Literal["E", "N", "R"] = "R"
    code: str | None = Field(None, max_length=200, description="a deal code; its rules apply")
    deal: str | None = Field(None, max_length=2000, description="a custom deal in notation")


class MoveBody(BaseModel):
    """A move in notation: ``Kd``, ``Tc+3s``, ``draw``, ``recycle``, ``Qs>cell`` (with ``cell``, the free
    cell to park in, from 0; or written ``Qs>cell2``, from 1)."""

    model_config = ConfigDict(extra="forbid")
    move: str = Field(max_length=40)
    cell: StrictInt | None = Field(None, ge=0, le=99)


# --- the app ------------------------------------------------------------------------------------------

def _same_origin(origin: str, request: Request) -> bool:
    """True if a browser's Origin header names this site (scheme and host:port)."""
    host = request.headers.get("host", "")
    return origin in (f"http://{host}", f"https://{host}")


def _lang_of(request: Request) -> str:
    lang = request.query_params.get("lang", "ja")
    return lang if lang in LANGS else "ja"


def _new_deal(body: NewGame) -> Deal:
    try:
        if body.preset is not None:
            rules = choose_rules(body.preset, dict(body.options))
        elif body.options:
            raise RulesError("rules.options-without-preset")
        else:
            rules = find_rules(body.rules)
    except RulesError as exc:
        raise ApiError(400, "bad-rules", exc) from None
    if body.code is not None and body.deal is not None:
        raise ApiError(400, "bad-request", Problem("request.code-and-deal"))
    if body.code is not None:
        try:
            claimed = Deal.from_code(body.code)  # a code only: text that is no code is a bad code, not notation
        except DealError as exc:
            raise ApiError(400, "bad-code", exc) from None
        return earned(claimed)  # its difficulty letter is a claim: labelled verified only if it is
    if body.deal is not None:
        try:
            return parse_deal(body.deal, rules)
        except CodeError as exc:
            raise ApiError(400, "bad-code", exc) from None
        except DealError as exc:
            raise ApiError(400, "bad-deal", exc) from None
    try:
        return pick_deal(rules, body.difficulty)
    except NoVerifiedDeal as exc:
        raise ApiError(503, "no-verified-deal", exc) from None


def record_headers(session: Session) -> dict[str, str]:
    """The headers of a game's record as the web app writes it: the rules and deal, then when it started
    and ended (milliseconds since 1970) and how."""
    headers = {"Rules": str(session.deal.rules), "Deal": session.deal.code,
               "Started": str(int(session.started * 1000))}
    if session.over and session.finished is not None:
        headers.update({"Ended": str(int(session.finished * 1000)), "Result": session.status})
    return headers


def rules_catalogue() -> dict[str, Any]:
    """The presets, each with its rule fields and the options the New Game dialog shows for it, all
    read from the options' own facts (rules.Option): the browser builds its controls from this and
    posts ``{preset, options}`` back, so it never writes a rule string or decides what a preset offers."""
    presets = []
    for name, rules in PRESETS.items():
        options = []
        for field, option in OPTIONS.items():
            if not option.label:
                continue
            value = getattr(rules, field)
            choices = list(option.choices) + ([] if value in option.choices or isinstance(value, bool) else [value])
            options.append({"key": option.key, "field": field, "label": option.label, "value": value,
                            "kind": "flag" if isinstance(value, bool) else "choice", "choices": choices,
                            "offered": option.offered_by(rules)})
        presets.append({"id": name, "rules": str(rules),
                        "aliases": sorted(a for a, p in PRESET_ALIASES.items() if p == name),
                        "fields": dataclasses.asdict(rules), "has_stock": rules.stock_size > 0, "options": options})
    return {"presets": presets, "default": "classic"}


def create_app(db: str | Store | None = None, limiter: RateLimiter | None = None) -> FastAPI:
    """The FastAPI app over the database ``db`` (a URL or an open Store).  Without one, a new SQLite file
    in a temporary folder (for tests and trials: a real database, thrown away with the folder)."""
    if db is None:
        db = f"sqlite:///{Path(tempfile.mkdtemp(prefix='pyramid-')) / 'games.sqlite3'}"
    store = db if isinstance(db, Store) else Store(db)
    games = Games(store)
    app = FastAPI(title="pyramid-solitaire", version=__version__, docs_url="/api/docs", redoc_url=None,
                  openapi_url="/api/openapi.json")
    app.state.games = games

    app.add_middleware(Guard, limiter=limiter)

    @app.exception_handler(ApiError)
    async def api_error(request: Request, exc: ApiError) -> JSONResponse:
        return exc.response(_lang_of(request))

    @app.exception_handler(StoreError)
    async def store_down(request: Request, exc: StoreError) -> JSONResponse:
        return ApiError(503, "store-unavailable").response(_lang_of(request))

    @app.exception_handler(Exception)
    async def internal(request: Request, exc: Exception) -> JSONResponse:
        """Any other failure: the generic 500 in the player's language, never the exception's text.
        Starlette answers this outside the middleware, so the security headers are put on here; it then
        re-raises the exception, and the server logs its traceback."""
        LOG.error("internal error answering %s %s: %s", request.method, request.url.path, type(exc).__name__)
        response = ApiError(500, "internal-error").response(_lang_of(request))
        response.headers.update(SECURITY_HEADERS)
        return response

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        lang = _lang_of(request)
        errors = [{"where": ".".join(str(p) for p in e.get("loc", ())), "type": e.get("type", ""),
                   "ctx": e.get("ctx", {})} for e in exc.errors()]
        code = "bad-json" if any(e["type"] == "json_invalid" for e in errors) else "bad-request"
        # each error for a program (where and its kind) and for a person (in the request's language)
        shown = [{"where": e["where"], "type": e["type"], "problem": invalid_part(lang, e)} for e in errors]
        return ApiError(422, code, errors, {"errors": shown}).response(lang)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        if exc.status_code == 404 and request.method in SAFE_METHODS and not request.url.path.startswith(DATA_PATHS):
            return not_found_page(browser_lang(request))  # a page a person opened: the app's own page
        code = {404: "not-found", 405: "method-not-allowed"}.get(exc.status_code, "bad-request")
        return ApiError(exc.status_code, code).response(_lang_of(request))

    def refused(exc: IllegalMoveError) -> ApiError:
        return ApiError(409, exc.refusal.code, exc.refusal)

    @app.get("/api/rules")
    def get_rules() -> dict[str, Any]:
        """The rule sets the New Game dialog offers."""
        return rules_catalogue()

    def player(request: Request) -> str | None:
        return games.player_of(request.cookies.get(COOKIE))

    def set_cookie(request: Request, response: Response, player_id: str) -> None:
        response.set_cookie(COOKIE, games.sign(player_id), max_age=COOKIE_MAX_AGE, httponly=True, samesite="lax",
                            secure=request.url.scheme == "https", path="/")

    def answer(session: Session, event: dict[str, Any], lang: str, request: Request) -> Answer:
        state = session.state(lang)
        if session.over:
            add_records(state, session)
        return Answer({"game": state, "event": event}, request=request)

    def add_records(state: dict[str, Any], session: Session) -> None:
        """A finished game's result also shows the player's figures at this rule set and difficulty, and
        the deal's leaderboard."""
        rules, difficulty = str(session.deal.rules), session.deal.difficulty
        finished = games.store.finished_games(session.player_id, rules=rules, difficulty=difficulty)
        stats = stats_for(finished, rules, difficulty)
        state["result"]["stats"] = stats.to_json()
        state["result"]["leaderboard"] = leaderboard(session.deal.code, session.player_id)

    def leaderboard(code: str, player_id: str | None, limit: int = LEADERBOARD_SIZE) -> list[dict[str, Any]]:
        return [{"rank": rank, "name": entry["name"], "seconds": round(entry["ms"] / 1000, 1),
                 "moves": entry["moves"], "you": entry["player_id"] == player_id}
                for rank, entry in enumerate(games.store.leaderboard(code, limit), start=1)]

    def act(game_id: str, request: Request, entry: Entry, version: int | None, lang: str) -> Answer:
        """Load, check the version the client acted on, play, record, answer.

        The game cached in this process is played without reading its row first: the write itself only
        succeeds if the database is still at the cached version (:meth:`.Store.record`), so a game another
        process moved on cannot be written over.  Any refusal judged on the cached game — a stale
        version, a refused move, a write that found the game moved on — is judged again on the game
        loaded from the database, and only that answer is given."""
        with games.lock(game_id):
            cached = games.cached(game_id, player(request))
            if cached is not None:
                try:
                    return play(cached, entry, version, lang, request)
                except (ApiError, GameConflict):
                    pass
            try:
                return play(load(game_id, request), entry, version, lang, request)
            except GameConflict:
                raise ApiError(409, "conflict") from None

    def play(session: Session, entry: Entry, version: int | None, lang: str, request: Request) -> Answer:
        if version is not None and version != session.version:
            raise ApiError(409, "conflict", details={"version": session.version})
        try:
            event = games.act(session, entry)
        except IllegalMoveError as exc:
            raise refused(exc) from None
        except BadCell as exc:
            raise ApiError(400, "bad-cell", exc) from None
        return answer(session, event, lang, request)

    def load(game_id: str, request: Request) -> Session:
        try:
            return games.load(game_id, player(request))
        except GameNotFound:
            raise ApiError(404, "unknown-game", details={"id": game_id[:64]}) from None

    @app.post("/api/games", status_code=201, response_class=Answer)
    def new_game(body: NewGame, request: Request, lang: Lang = "ja") -> Answer:
        """Start a game: a verified (E/N) or random (R) deal of a rule set, a code, or a custom deal.
        The first game of a browser makes its anonymous player (a signed cookie)."""
        deal = _new_deal(body)
        too_long = unrecordable(str(deal.rules), deal.code)
        if too_long is not None:
            raise ApiError(400, "bad-rules", too_long)
        player_id = player(request)
        made = player_id is None
        if player_id is None:
            player_id = games.store.new_player()
        session = games.create(deal, player_id)
        response = Answer({"game": session.state(lang), "event": {"kind": "dealt", "cards": []}}, status_code=201,
                          request=request)
        if made:
            set_cookie(request, response, player_id)
        return response

    @app.get("/api/games/{game_id}", response_class=Answer)
    def get_game(game_id: str, request: Request, lang: Lang = "ja") -> Answer:
        """The game's state (to resume after a reload or a restart, or to change language)."""
        with games.lock(game_id):
            session = load(game_id, request)
            return answer(session, {"kind": "state", "cards": []}, lang, request)

    @app.get("/api/games/{game_id}/replay")
    def replay_game(game_id: str, request: Request, step: Annotated[int, Query(ge=0, le=100_000)] = 0,
                    lang: Lang = "ja") -> dict[str, Any]:
        """The game as it stood after its first ``step`` actions (to replay a game move by move)."""
        try:
            session, total = games.load_at(game_id, player(request), step)
        except GameNotFound:
            raise ApiError(404, "unknown-game", details={"id": game_id[:64]}) from None
        return {"game": session.state(lang), "step": min(step, total), "steps": total}

    @app.get("/api/games/{game_id}/best")
    def best(game_id: str, request: Request) -> dict[str, Any]:
        """The most pyramid cards the deal allows (solved on demand, for a lost game's result)."""
        with games.lock(game_id):
            session = load(game_id, request)
        session.find_best()
        return {"best_removed": session.best_removed, "best_exact": session.best_exact,
                "pyramid_size": session.game.table.board_size}

    @app.get("/api/games/{game_id}/record")
    def game_record(game_id: str, request: Request) -> Response:
        """The game's record as text: ``Key: value`` headers, then its moves and events, one a line —
        what ``pyramid-solitaire replay`` reads."""
        with games.lock(game_id):
            session = load(game_id, request)
            recorded = games.store.actions(game_id)
        text = format_record(record_headers(session), [entry_of(a) for a in recorded])
        return Response(text, media_type="text/plain; charset=utf-8",
                        headers={"Content-Disposition": f'attachment; filename="{session.deal.code}.txt"'})

    @app.post("/api/games/{game_id}/move", response_class=Answer)
    def move(game_id: str, body: Annotated[MoveBody, Body()], request: Request, version: Version = None,
             lang: Lang = "ja") -> Answer:
        """Play a move in notation (a removal, a park, a draw or a recycle); a move the engine refuses is
        a 409 and changes nothing."""
        try:
            entry = parse_entry(body.move)
        except MoveError as exc:
            raise ApiError(400, "bad-move", exc) from None
        if isinstance(entry, str):
            raise ApiError(400, "bad-move", Problem("request.event-not-move", event=entry))
        if body.cell is not None:
            if isinstance(entry, Parked) or entry.kind != PARK:
                raise ApiError(400, "bad-cell", Problem("request.cell-not-park"))
            entry = Parked(entry, body.cell)
        return act(game_id, request, entry, version, lang)

    def command(name: str) -> None:
        def handler(game_id: str, request: Request, version: Version = None, lang: Lang = "ja") -> Answer:
            return act(game_id, request, name, version, lang)

        handler.__doc__ = f"{name.capitalize()}: one event of the game's record (a 409 when refused)."
        app.add_api_route(f"/api/games/{{game_id}}/{name}", handler, methods=["POST"], name=name,
                          response_class=Answer)

    for name in ("undo", "redo", "rewind", "hint", "coach", "resign"):
        command(name)

    register_records(app, games, player, leaderboard)

    assets = Assets(STATIC, LOCALES)

    @app.get("/locales/{lang}.json", include_in_schema=False)
    def locale(lang: str, request: Request) -> Response:
        """The page's texts in one language."""
        found = assets.locale(request, lang)
        if found is None:
            raise ApiError(404, "not-found")
        return found

    @app.get("/", include_in_schema=False)
    def home(request: Request) -> Response:
        return assets.page(request)

    @app.get("/play/{code}", include_in_schema=False)
    def play_link(code: str, request: Request) -> Response:
        return assets.page(request)

    @app.get("/favicon.ico", include_in_schema=False)
    def favicon(request: Request) -> Response:
        return static_file("favicon.svg", request)

    @app.get("/static/{path:path}", include_in_schema=False)
    def static_file(path: str, request: Request) -> Response:
        found = assets.static(request, path)
        if found is None:
            raise ApiError(404, "not-found")
        return found

    @app.get("/art/{digest}/{name}", include_in_schema=False)
    def art(digest: str, name: str, request: Request) -> Response:
        found = assets.art_file(request, digest, name)
        if found is None:
            raise ApiError(404, "not-found")
        return found

    return app

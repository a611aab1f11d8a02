"""Routes for a game: the rule sets offered, a new game, its state, replay, best result and record, and
every action on it — thin handlers over :mod:`..play` and the engine.

The page chooses cards by itself, from what the state says each card can do (see
:meth:`..play.Session.state`); every move (``/move`` with its notation) and every event (undo, redo,
rewind, hint, coach, resign) is one POST, answered ``{"game": state, "event": event}`` — the whole state
the page draws and what just happened — once it is written.  A move or event the engine refuses (a stale
tab, a hand-made request) is a 409, and every bad request a 4xx, ``{code, message, details}`` with the
message in the player's language; either leaves the game as it was and writes nothing.
"""

from __future__ import annotations

from datetime import date
from typing import Annotated, Final, Literal

from fastapi import APIRouter, Body, Query, Request
from fastapi.responses import PlainTextResponse, Response
from pydantic import BaseModel, ConfigDict, Field, StrictInt

from ...catalog import EASY, NORMAL
from ...deal import Deal
from ...reasons import IllegalMoveError
from ...record import Entry, format_record
from ...store import unrecordable
from ...store.stats import stats_for
from ..answering import RULES_FIELDS, move_entry, new_deal, record_headers, rules_catalogue
from ..answers import BestAnswer, GameAnswer, ReplayAnswer, RulesCatalogue
from ..daily import board
from ..deps import LEADERBOARD_SIZE, GamesDep, Lang, Player, Version, leaderboard, set_player_cookie
from ..errors import ApiError, refused
from ..games import GameConflict, GameNotFound, Games, entry_of
from ..http import Answer
from ..pars import PARS
from ..play import BadCell, Session
from ..schema import REFUSALS, answers
from ..shapes import ChallengeShown, Daily, EventAnswer, GameState
from ..watch import WatchAnswer, watched

router = APIRouter()

#: The events of a game's record, each a POST of its own (``/api/games/{id}/<event>``).
COMMANDS: Final = ("undo", "redo", "rewind", "hint", "coach", "resign")
#: The events that run a solver search (up to its time limit): never on the event loop (web/games.py).
SEARCHING: Final = frozenset({"hint", "coach"})


# --- request bodies -----------------------------------------------------------------------------------


class NewGame(BaseModel):
    """A new game: a rule set and difficulty, or a deal code, or a custom deal in notation."""

    model_config = ConfigDict(extra="forbid")
    rules: str = Field("classic", max_length=200, description="rule set, e.g. classic or thirteen(jokers=2)")
    preset: str | None = Field(None, max_length=40, description="instead of rules: a preset id, with `options`")
    options: dict[str, bool | int | str | None] = Field(
        default_factory=dict,
        max_length=40,
        description="with `preset`: option values by key as /api/rules lists them (null = unlimited)",
    )
    difficulty: Literal["E", "N", "R"] = "R"
    code: str | None = Field(
        None, max_length=200, description="a deal code; its rules apply (rules or a preset beside it must be the same)"
    )
    deal: str | None = Field(None, max_length=2000, description="a custom deal in notation")


class MoveBody(BaseModel):
    """A move in notation: ``Kd``, ``Tc+3s``, ``draw``, ``recycle``, ``Qs>cell`` (with ``cell``, the free
    cell to park in, from 0; or written ``Qs>cell2``, from 1)."""

    model_config = ConfigDict(extra="forbid")
    move: str = Field(max_length=40)
    cell: StrictInt | None = Field(None, ge=0, le=99)


# --- what the handlers share ----------------------------------------------------------------------


def _new_deal(body: NewGame) -> Deal:
    asked = bool(RULES_FIELDS & body.model_fields_set)
    return new_deal(body.preset, dict(body.options), body.rules, body.difficulty, body.code, body.deal, asked)


def answer(games: Games, session: Session, event: EventAnswer, lang: str, request: Request) -> Answer:
    body: GameAnswer = {"game": game_state(games, session, lang), "event": event}
    return Answer(body, request=request)


def game_state(games: Games, session: Session, lang: str) -> GameState:
    """The state the page draws: the session's, which daily deal it is, and a finished game's records."""
    daily: Daily | None = (
        None
        if session.daily is None
        else {"date": session.daily, "counted": session.daily_counted, "rules": session.deal.rules.preset}
    )
    challenge = None if session.challenge is None else challenge_of(games, session, lang)
    state: GameState = {**session.state(lang), "daily": daily, "challenge": challenge, "offline": False}
    if session.over:
        add_records(games, state, session)
    return state


def challenge_of(games: Games, session: Session, lang: str) -> ChallengeShown | None:
    """The daily challenge the game was started for, with the player's progress."""
    from ..challenges import find, shown

    assert session.challenge is not None
    day = date.fromisoformat(session.challenge[:10])
    challenge = find(games.store, session.challenge, day)
    return None if challenge is None else shown(games.store, challenge, session.player_id, lang)


def add_records(games: Games, state: GameState, session: Session) -> None:
    """A finished game's result also shows the player's figures at this rule set and difficulty, the
    deal's leaderboard (a daily deal's: the day's), and a verified deal's par."""
    result = state["result"]
    assert result is not None  # the game is over
    rules, difficulty = str(session.deal.rules), session.deal.difficulty
    finished = games.store.finished_games(session.player_id, rules=rules, difficulty=difficulty)
    stats = stats_for(finished, rules, difficulty)
    result["stats"] = stats.to_json()
    if session.daily is not None and session.daily_counted:
        day = board(games.store, date.fromisoformat(session.daily), session.deal.rules.preset, session.player_id)
        result["leaderboard"] = day["by_time"][:LEADERBOARD_SIZE]
    else:
        result["leaderboard"] = leaderboard(games.store, session.deal.code, session.player_id)
    result["par"] = None
    if difficulty in (EASY, NORMAL):  # the code's letter was checked when the game started (catalog.earned)
        moves, status = PARS.status(games.store, session.deal)
        result["par"] = {"moves": moves, "status": status}


def act(
    games: Games, game_id: str, player: str | None, entry: Entry, version: int | None, lang: str, request: Request
) -> Answer:
    """Load, check the version the client acted on, play, record, answer.

    The game cached in this process is played without reading its row first: the write itself only
    succeeds if the database is still at the cached version (:meth:`.Store.record`), so a game another
    process moved on cannot be written over.  Each refusal judged on the cached game — a stale
    version, a refused move, a write that found the game moved on — is judged again on the game
    loaded from the database, and only that answer is given.  Call with the game's lock held
    (:meth:`.Games.short`, :meth:`.Games.slow`)."""
    cached = games.cached(game_id, player)
    if cached is not None:
        try:
            return play(games, cached, entry, version, lang, request)
        except (ApiError, GameConflict):
            pass
    try:
        return play(games, load(games, game_id, player), entry, version, lang, request)
    except GameConflict:
        raise ApiError(409, "conflict") from None


def play(games: Games, session: Session, entry: Entry, version: int | None, lang: str, request: Request) -> Answer:
    if version is not None and version != session.version:
        raise ApiError(409, "conflict", details={"version": session.version})
    try:
        event = games.act(session, entry)
    except IllegalMoveError as exc:
        raise refused(exc) from None
    except BadCell as exc:
        raise ApiError(400, "bad-cell", exc) from None
    return answer(games, session, event, lang, request)


def load(games: Games, game_id: str, player: str | None) -> Session:
    try:
        return games.load(game_id, player)
    except GameNotFound:
        raise ApiError(404, "unknown-game", details={"id": game_id[:64]}) from None


#: A game's record is text (what ``pyramid-solitaire replay`` reads), its refusals JSON like every route's.
TEXT_RECORD: Final[dict[int | str, dict[str, object]]] = {
    200: {"description": "The record", "content": {"text/plain": {"schema": {"type": "string"}}}},
    **REFUSALS,
}

# --- the routes -----------------------------------------------------------------------------------


@router.get("/api/rules", response_class=Answer, responses=answers(RulesCatalogue))
def get_rules(request: Request) -> Answer:
    """The rule sets the New Game dialog offers (with every option's facts it is some 26 KB of JSON:
    sent gzip-compressed, as a game's state is, to a browser that accepts it)."""
    return Answer(rules_catalogue(), request=request)


@router.post("/api/games", status_code=201, response_class=Answer, responses=answers(GameAnswer, 201))
def new_game(body: NewGame, request: Request, games: GamesDep, player: Player, lang: Lang) -> Answer:
    """Start a game: a verified (E/N) or random (R) deal of a rule set, a code, or a custom deal.
    The first game of a browser makes its anonymous player (a signed cookie)."""
    deal = _new_deal(body)
    too_long = unrecordable(str(deal.rules), deal.code)
    if too_long is not None:
        raise ApiError(400, "bad-rules", too_long)
    player_id = player or games.store.new_player()
    return dealt(games, games.create(deal, player_id), made=player is None, lang=lang, request=request)


def dealt(games: Games, session: Session, made: bool, lang: str, request: Request) -> Answer:
    """The 201 answer of a game just dealt; ``made``: its player is new, and gets their cookie with it."""
    body: GameAnswer = {"game": game_state(games, session, lang), "event": {"kind": "dealt", "cards": []}}
    response = Answer(body, status_code=201, request=request)
    if made:
        set_player_cookie(request, response, games, session.player_id)
    return response


@router.get("/api/games/{game_id}", response_class=Answer, responses=answers(GameAnswer))
async def get_game(game_id: str, request: Request, games: GamesDep, player: Player, lang: Lang) -> Answer:
    """The game's state (to resume after a reload or a restart, or to change language)."""

    def read() -> Answer:
        return answer(games, load(games, game_id, player), {"kind": "state", "cards": []}, lang, request)

    return await games.short(game_id, read)


@router.get("/api/games/{game_id}/replay", response_class=Answer, responses=answers(ReplayAnswer))
def replay_game(
    game_id: str,
    request: Request,
    games: GamesDep,
    player: Player,
    lang: Lang,
    step: Annotated[int, Query(ge=0, le=100_000)] = 0,
) -> Answer:
    """The game as it stood after its first ``step`` actions (to replay a game move by move)."""
    try:
        session, total, event = games.load_at(game_id, player, step)
    except GameNotFound:
        raise ApiError(404, "unknown-game", details={"id": game_id[:64]}) from None
    body: ReplayAnswer = {"game": session.state(lang), "step": min(step, total), "steps": total, "event": event}
    return Answer(body, request=request)


@router.get("/api/games/{game_id}/best", response_class=Answer, responses=answers(BestAnswer))
def best(game_id: str, request: Request, games: GamesDep, player: Player) -> Answer:
    """The most pyramid cards the deal allows (solved on demand, for a lost game's result)."""
    with games.lock(game_id):
        session = load(games, game_id, player)
    session.find_best()
    body: BestAnswer = {
        "best_removed": session.best_removed,
        "best_exact": session.best_exact,
        "pyramid_size": session.game.table.board_size,
    }
    return Answer(body, request=request)


@router.get("/api/games/{game_id}/watch", response_class=Answer, responses=answers(WatchAnswer))
def watch(
    game_id: str,
    request: Request,
    games: GamesDep,
    player: Player,
    lang: Lang,
    step: Annotated[int, Query(ge=0, le=10_000)] = 0,
) -> Answer:
    """The solver's line on a finished game's table: the table after its first ``step`` moves (web/watch.py).
    Nothing of the game changes; a game still being played is refused (409 ``not-over``)."""
    with games.lock(game_id):
        session = load(games, game_id, player)
    return Answer(watched(session, step, lang), request=request)


@router.get("/api/games/{game_id}/record", response_class=PlainTextResponse, responses=TEXT_RECORD)
def game_record(game_id: str, games: GamesDep, player: Player) -> Response:
    """The game's record as text: ``Key: value`` headers, then its moves and events, one a line —
    what ``pyramid-solitaire replay`` reads."""
    with games.lock(game_id):
        session = load(games, game_id, player)
        recorded = games.store.actions(game_id)
    text = format_record(record_headers(session), [entry_of(a) for a in recorded])
    return Response(
        text,
        media_type="text/plain; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{session.deal.code}.txt"'},
    )


@router.post("/api/games/{game_id}/move", response_class=Answer, responses=answers(GameAnswer))
async def move(
    game_id: str,
    body: Annotated[MoveBody, Body()],
    request: Request,
    games: GamesDep,
    player: Player,
    lang: Lang,
    version: Version = None,
) -> Answer:
    """Play a move in notation (a removal, a park, a draw or a recycle); a move the engine refuses is
    a 409 and changes nothing."""
    entry = move_entry(body.move, body.cell)
    return await games.short(game_id, lambda: act(games, game_id, player, entry, version, lang, request))


def command(name: str) -> None:
    """Route ``POST /api/games/{game_id}/<name>``: the event ``name`` played like a move."""

    async def handler(
        game_id: str, request: Request, games: GamesDep, player: Player, lang: Lang, version: Version = None
    ) -> Answer:
        run = games.slow if name in SEARCHING else games.short
        return await run(game_id, lambda: act(games, game_id, player, name, version, lang, request))

    handler.__doc__ = f"{name.capitalize()}: one event of the game's record (a 409 when refused)."
    router.add_api_route(
        f"/api/games/{{game_id}}/{name}",
        handler,
        methods=["POST"],
        name=name,
        response_class=Answer,
        responses=answers(GameAnswer),
    )


for name in COMMANDS:
    command(name)

"""The game's API answered inside the browser, for play without a network.

The page's ``api.js`` sends every request to the server; when the server cannot be reached (or for a game
that was dealt offline), it sends the same request to a Web Worker instead, where Pyodide runs this module
with the very engine modules the server runs.  :meth:`OfflineApi.handle` takes the request as the server
would (method, path, query, body, language) and gives the answer the server would give — the same state
(:meth:`.Session.state`), the same events, the same ``{code, message, details}`` refusals from the same
catalogue — so the page draws both with one code and no rule is written in JavaScript.

What differs, and why:

* **No store.** Each game dealt here gets an ``off-`` id and is kept by the worker in the browser's
  IndexedDB as the record the records export writes (:meth:`OfflineApi.kept`: code, rules, start, end,
  result, counters, the ``record`` text and each entry's time).  A reload gives the kept records back
  (:meth:`OfflineApi.restore`) and each game is rebuilt by replaying its record through the engine.  When
  the network returns the page sends them to ``POST /api/me/sync``, where the server replays every entry
  again with its own engine before it counts anything.
* **Figures of this browser only.** A finished game's result shows the statistics of the games finished
  offline here (the server's figures are not at hand), no leaderboard, and no par (the par of a verified
  deal is worked out on the server).  The answer says ``"offline": true`` so the page can say so.
* **Other players' data is the server's.** Records, leaderboards, the daily calendar and the display name
  answer ``503 offline`` with a message in the player's language.

Nothing here imports a web framework or a database driver (``tests/test_engine_imports.py`` checks it).
"""

from __future__ import annotations

import json
import re
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from typing import Final, Literal, TypedDict, cast

from ..daily import DEFAULT_TIMEZONE, DailyError, daily_deal, day_asked, today
from ..deal import Deal
from ..game import Game
from ..messages import Problem
from ..reasons import IllegalMoveError
from ..record import Entry, RecordError, format_record, read_record
from ..stats import stats_for
from .answering import RULES_FIELDS, move_entry, new_deal, record_headers, rules_catalogue
from .answers import BestAnswer, DailyAnswer, GameAnswer, GameSummary, MeAnswer, RecordedGame, StatsAnswer
from .apierror import ApiError, refused
from .play import BadCell, Session
from .shapes import Daily, GameState
from .watch import watched

#: The id of every game dealt offline starts so: the page sends requests about it to the worker.
PREFIX: Final = "off-"
#: The events a game takes as a POST of its own, as on the server.
COMMANDS: Final = ("undo", "redo", "rewind", "hint", "coach", "resign")
#: The rule sets of the daily deal.
DAILY_RULES: Final = ("classic", "pyramide", "thirteen")
#: Longest strings a request may carry, as the server's request models allow.
MAX_TEXT: Final = {"rules": 200, "preset": 40, "code": 200, "deal": 2000, "move": 40}
_GAME_PATH: Final = re.compile(r"^/api/games/(?P<id>[^/]+)(?:/(?P<action>[a-z]+))?$")
#: Answers of what only the server has (other players, the records it keeps).
SERVER_ONLY: Final = frozenset(
    {
        "/api/me/export",
        "/api/me/import",
        "/api/stats/reset",
        "/api/daily/me",
        "/api/daily/board",
        "/api/challenges",
        "/api/badges",
    }
)


#: A JSON object as a request or the browser's store gives it, its fields checked as they are read.
Fields = dict[str, object]


class KeptRecord(RecordedGame):
    """An offline game as the browser keeps it and ``POST /api/me/sync`` takes it: a recorded game
    (:class:`.answers.RecordedGame`, as a records file has it) with the id the browser gave it."""

    id: str


class Handled(TypedDict):
    """One request answered: its status, its JSON answer, and the record of the game it changed (None)."""

    status: int
    body: object
    kept: KeptRecord | None


@dataclass
class Kept:
    """A game dealt offline as the browser keeps it: the session and every entry with its time."""

    session: Session
    difficulty: str
    entries: list[Entry] = field(default_factory=list)
    times: list[int] = field(default_factory=list)

    # the figures stats_for reads (:class:`..stats.Finished`)
    @property
    def rules(self) -> str:
        return str(self.session.deal.rules)

    @property
    def result(self) -> str | None:
        return str(self.session.status) if self.session.over else None

    @property
    def started_ms(self) -> int:
        return int(self.session.started * 1000)

    @property
    def ended_ms(self) -> int | None:
        finished = self.session.finished
        return int(finished * 1000) if self.session.over and finished is not None else None

    @property
    def moves(self) -> int:
        return self.session.game.moves

    @property
    def undos(self) -> int:
        return self.session.game.undos

    @property
    def hints(self) -> int:
        return self.session.hints_used

    def record(self) -> KeptRecord:
        """The game as the records export writes it, with its id and daily day: what the browser keeps
        and what ``POST /api/me/sync`` takes."""
        session = self.session
        return {
            "id": session.id,
            "code": session.deal.code,
            "rules": self.rules,
            "difficulty": self.difficulty,
            "started_ms": self.started_ms,
            "ended_ms": self.ended_ms,
            "result": self.result,
            "moves": self.moves,
            "record": format_record(record_headers(session), self.entries),
            "times": list(self.times),
            "daily": session.daily,
        }


class OfflineApi:
    """The API of one browser's offline games (see the module docstring)."""

    def __init__(self, clock: Callable[[], float] = time.time, zone: str = DEFAULT_TIMEZONE) -> None:
        self.clock = clock
        self.zone = zone
        self.games: dict[str, Kept] = {}
        #: Records given back by :meth:`restore`, rebuilt when first asked for.
        self._stored: dict[str, Fields] = {}

    # --- what the worker keeps ----------------------------------------------------------------------------

    def restore(self, records: list[object]) -> list[str]:
        """Take back the games the browser kept; returns the ids taken.  A record that does not read is
        left out (the server would refuse it too)."""
        taken = []
        for record in records:
            if not isinstance(record, dict):
                continue
            game_id = record.get("id")
            if isinstance(game_id, str) and game_id.startswith(PREFIX) and isinstance(record.get("record"), str):
                self._stored[game_id] = record
                taken.append(game_id)
        return taken

    def kept(self, game_id: str) -> KeptRecord:
        """The record of an offline game, to keep in the browser."""
        return self._game(game_id).record()

    def latest_unfinished(self) -> list[GameSummary]:
        """The unfinished offline games, latest first, as ``/api/me`` lists games."""
        games = sorted(self._all(), key=lambda kept: kept.session.started, reverse=True)
        return [_summary(kept) for kept in games if not kept.session.over]

    # --- the API ------------------------------------------------------------------------------------------

    def handle(self, method: str, path: str, query: dict[str, str], body: object, lang: str) -> Handled:
        """Answer one request as the server would: ``{"status", "body", "kept"}``, where ``kept`` is the
        record of the game the request changed (to store in the browser), or None."""
        lang = lang if lang in ("ja", "en") else "ja"
        try:
            status, answer, changed = self._route(method, path, query, body, lang)
        except ApiError as exc:
            return {"status": exc.status, "body": exc.body(lang), "kept": None}
        except Exception:  # a fault of ours: the server's plain 500, and the page goes on
            failure = ApiError(500, "internal-error")
            return {"status": failure.status, "body": failure.body(lang), "kept": None}
        kept = None if changed is None else self.kept(changed)
        return {"status": status, "body": answer, "kept": kept}

    def handle_json(self, method: str, path: str, query: str, body: str, lang: str) -> str:
        """:meth:`handle` with the request's query and body and the answer as JSON text: what crosses
        between the worker's JavaScript and Python, so the page gets the very JSON the server sends
        (``null`` stays ``null``)."""
        try:
            parsed_query, parsed_body = json.loads(query), json.loads(body)
        except ValueError:
            failure = ApiError(400, "bad-json")
            return json.dumps({"status": failure.status, "body": failure.body(lang), "kept": None})
        return json.dumps(self.handle(method, path, parsed_query, parsed_body, lang), ensure_ascii=False)

    def restore_json(self, records: str) -> list[str]:
        """:meth:`restore` from the records as JSON text."""
        loaded = json.loads(records)
        return self.restore(loaded if isinstance(loaded, list) else [])

    def _route(
        self, method: str, path: str, query: dict[str, str], body: object, lang: str
    ) -> tuple[int, object, str | None]:
        if path == "/api/rules" and method == "GET":
            return 200, rules_catalogue(), None
        if path == "/api/games" and method == "POST":
            return self._new_game(_object(body), lang)
        if path == "/api/me" and method == "GET":
            me: MeAnswer = {"player": None, "unfinished": self.latest_unfinished(), "finished": []}
            return 200, me, None
        if path == "/api/stats" and method == "GET":
            stats: StatsAnswer = {"stats": []}  # the player's figures are the server's to count
            return 200, stats, None
        if path == "/api/daily" and method == "GET":
            return 200, self._about(_rules_of(query.get("rules")), self._day(query.get("date"))), None
        if path == "/api/daily/games" and method == "POST":
            return self._daily_game(_object(body), lang)
        if path in SERVER_ONLY or path.startswith(("/api/leaderboard/", "/api/challenges/")):
            raise ApiError(503, "offline")
        match = _GAME_PATH.match(path)
        if match is None:
            raise ApiError(404, "not-found")
        game_id, action = match.group("id"), match.group("action")
        kept = self._game(game_id)
        if action is None and method == "GET":
            return 200, self._answer(kept, lang, "state"), None
        if action == "best" and method == "GET":
            session = kept.session
            session.find_best()
            best: BestAnswer = {
                "best_removed": session.best_removed,
                "best_exact": session.best_exact,
                "pyramid_size": session.game.table.board_size,
            }
            return 200, best, None
        if action == "watch" and method == "GET":
            return 200, watched(kept.session, _step(query.get("step")), lang), None
        if method != "POST":
            raise ApiError(405, "method-not-allowed")
        if action == "move":
            fields = _object(body)
            notation = _text(fields, "move", required=True)
            cell = fields.get("cell")
            if cell is not None and (isinstance(cell, bool) or not isinstance(cell, int) or not 0 <= cell <= 99):
                raise ApiError(422, "bad-request", Problem("request.field", field="cell"))
            assert notation is not None
            entry: Entry = move_entry(notation, cell)
        elif action in COMMANDS:
            entry = action
        else:
            raise ApiError(404, "not-found")
        return 200, self._act(kept, entry, query.get("version"), lang), game_id

    # --- games ---------------------------------------------------------------------------------------------

    def _new_game(self, fields: Fields, lang: str) -> tuple[int, GameAnswer, str]:
        options = fields.get("options") or {}
        if not isinstance(options, dict):
            raise ApiError(422, "bad-request", Problem("request.field", field="options"))
        difficulty = fields.get("difficulty", "R")
        if difficulty not in ("E", "N", "R"):
            raise ApiError(422, "bad-request", Problem("request.field", field="difficulty"))
        deal = new_deal(
            _text(fields, "preset"),
            options,
            _text(fields, "rules") or "classic",
            difficulty,
            _text(fields, "code"),
            _text(fields, "deal"),
            bool(RULES_FIELDS & fields.keys()),
        )
        kept = self._deal(deal)
        return 201, self._answer(kept, lang, "dealt"), kept.session.id

    def _answer(self, kept: Kept, lang: str, kind: Literal["state", "dealt"]) -> GameAnswer:
        return {"game": self._state(kept, lang), "event": {"kind": kind, "cards": []}}

    def _deal(self, deal: Deal, daily: str | None = None) -> Kept:
        session = Session(Game(deal), id=PREFIX + secrets.token_hex(12), daily=daily)
        session.started = self.clock()
        kept = Kept(session, deal.difficulty)
        self.games[session.id] = kept
        return kept

    def _game(self, game_id: str) -> Kept:
        kept = self.games.get(game_id)
        if kept is not None:
            return kept
        stored = self._stored.pop(game_id, None)
        if stored is None:
            raise ApiError(404, "unknown-game", details={"id": game_id[:64]})
        try:
            kept = _rebuild(stored)
        except (RecordError, IllegalMoveError, ValueError, KeyError, TypeError):
            raise ApiError(404, "unknown-game", details={"id": game_id[:64]}) from None
        self.games[game_id] = kept
        return kept

    def _all(self) -> list[Kept]:
        for game_id in list(self._stored):
            try:
                self._game(game_id)
            except ApiError:
                continue
        return list(self.games.values())

    def _act(self, kept: Kept, entry: Entry, version: str | None, lang: str) -> GameAnswer:
        session = kept.session
        if version is not None and version != str(session.version):
            raise ApiError(409, "conflict", details={"version": session.version})
        try:
            event = session.act(entry)
        except IllegalMoveError as exc:
            raise refused(exc) from None
        except BadCell as exc:
            raise ApiError(400, "bad-cell", exc) from None
        session.after_action(self.clock())  # the clock this engine was given (the browser's, or a test's)
        kept.entries.append(entry)
        kept.times.append(int(self.clock() * 1000))
        return {"game": self._state(kept, lang), "event": event}

    def _state(self, kept: Kept, lang: str) -> GameState:
        """The state the page draws, as :func:`.routes.games.game_state` gives it, with this browser's
        figures for a finished game."""
        session = kept.session
        daily: Daily | None = (
            None
            if session.daily is None
            else {"date": session.daily, "counted": False, "rules": session.deal.rules.preset}
        )
        state: GameState = {**session.state(lang), "daily": daily, "challenge": None, "offline": True}
        result = state["result"]
        if session.over and result is not None:
            finished = sorted(
                (other for other in self._all() if other.session.over), key=lambda other: other.ended_ms or 0
            )
            result["stats"] = stats_for(finished, kept.rules, kept.difficulty).to_json()
            result["leaderboard"] = []
            result["par"] = None
        return state

    # --- the daily deal ------------------------------------------------------------------------------------

    def _day(self, text: str | None) -> date:
        try:
            return day_asked(text, today(self.zone, self.clock()))
        except DailyError as exc:
            raise ApiError(400, "bad-date", exc) from None

    def _about(self, rules: str, day: date) -> DailyAnswer:
        """What the server's ``/api/daily`` says of a day's deal; the par is the server's to know."""
        deal = daily_deal(rules, day)
        current = today(self.zone, self.clock())
        return {
            "date": day.isoformat(),
            "rules": rules,
            "code": deal.code,
            "par": None,
            "par_status": "offline",
            "today": day == current,
            "timezone": self.zone,
        }

    def _daily_game(self, fields: Fields, lang: str) -> tuple[int, GameAnswer, str | None]:
        """A day's deal: this browser's unfinished offline game of it, else a new one.  A daily deal
        played offline is kept as practice: whether it counts for the day is the server's to say."""
        rules = _rules_of(fields.get("rules", "classic"))
        date_text = fields.get("date")
        if date_text is not None and not isinstance(date_text, str):
            raise ApiError(422, "bad-request", Problem("request.field", field="date"))
        day = self._day(date_text)
        wanted = str(daily_deal(rules, day).rules)
        for kept in self._all():
            if kept.session.daily == day.isoformat() and kept.rules == wanted and not kept.session.over:
                return 200, self._answer(kept, lang, "state"), None
        kept = self._deal(daily_deal(rules, day), daily=day.isoformat())
        return 201, self._answer(kept, lang, "dealt"), kept.session.id


def _rebuild(stored: Fields) -> Kept:
    """A kept game rebuilt by replaying its record through the engine."""
    text, started, times_kept = stored["record"], stored["started_ms"], stored.get("times", [])
    if not isinstance(text, str) or not isinstance(started, int) or not isinstance(times_kept, list):
        raise TypeError("a kept game's record, start or times are not what the engine wrote")
    record = read_record(text)
    deal = Deal.from_code(str(stored["code"]))
    daily = stored.get("daily")
    session = Session(Game(deal), id=str(stored["id"]), daily=daily if isinstance(daily, str) else None)
    session.started = started / 1000
    session.replay(record.entries)
    ended = stored.get("ended_ms")
    if session.over:
        session.finished = (ended if isinstance(ended, int) else started) / 1000
    times = [int(t) for t in times_kept if isinstance(t, (int, str))][: len(record.entries)]
    difficulty = stored.get("difficulty")
    return Kept(session, difficulty if isinstance(difficulty, str) else deal.difficulty, record.entries, times)


def _summary(kept: Kept) -> GameSummary:
    """An offline game as ``/api/me`` lists a game."""
    session = kept.session
    return {
        "id": session.id,
        "code": session.deal.code,
        "rules": kept.rules,
        "difficulty": kept.difficulty,
        "started_ms": kept.started_ms,
        "ended_ms": kept.ended_ms,
        "result": kept.result,
        "moves": kept.moves,
        "pyramid_removed": session.pyramid_removed,
        "steps": session.version,
    }


def _step(text: str | None) -> int:
    """A watch's ``step`` (0 .. 10,000, as the server's route takes it)."""
    if text is None:
        return 0
    if not text.isdigit() or int(text) > 10_000:
        raise ApiError(422, "bad-request", Problem("request.field", field="step"))
    return int(text)


def _object(body: object) -> Fields:
    if body is None:
        return {}
    if not isinstance(body, dict):
        raise ApiError(422, "bad-request", Problem("request.field", field="body"))
    return cast(Fields, body)  # a JSON object: text keys


def _text(fields: Fields, key: str, required: bool = False) -> str | None:
    value = fields.get(key)
    if value is None and not required:
        return None
    if not isinstance(value, str) or len(value) > MAX_TEXT[key]:
        raise ApiError(422, "bad-request", Problem("request.field", field=key))
    return value


def _rules_of(value: object) -> str:
    if value is None:
        return "classic"
    if value not in DAILY_RULES:
        raise ApiError(422, "bad-request", Problem("request.field", field="rules"))
    return str(value)

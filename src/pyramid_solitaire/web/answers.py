"""What every JSON answer of the API is, beside the game's state (:mod:`.shapes`): the envelopes of the
game routes, the player's records, the daily deal, the rule sets offered, and a refusal.

They are typed dictionaries of the standard library, like :mod:`.shapes`, because the answers are built
as plain dictionaries and encoded straight to JSON (:class:`.http.Answer`; a model object per answer would
cost a move a tenth of its time, docs/performance.md) and because the offline engine, which Pyodide runs
with the standard library only, builds the same answers.  :mod:`.schema` reads these types to declare
every answer in ``/api/openapi.json``; mypy checks the code that builds them; the API tests check every
answer they receive against the declaration (tests/web/conformance.py); docs/architecture.md says where a
new field goes.
"""

from __future__ import annotations

from typing import Literal, TypedDict

from .shapes import (
    ChallengeShown,
    EventAnswer,
    FieldValue,
    GameState,
    LeaderEntry,
    ParStatus,
    SessionState,
    StatsShown,
)


class GameAnswer(TypedDict):
    """A game route's answer: the state the page draws and what the request did."""

    game: GameState
    event: EventAnswer


class ReplayAnswer(TypedDict):
    """``GET /api/games/{id}/replay``: the game after its first ``step`` of ``steps`` steps (the actions
    that changed the table), and what the step's own action did (``state`` at step 0)."""

    game: SessionState
    step: int
    steps: int
    event: EventAnswer


class BestAnswer(TypedDict):
    """``GET /api/games/{id}/best``: the most pyramid cards the deal allows, and whether that is proved."""

    best_removed: int | None
    best_exact: bool
    pyramid_size: int


class OptionShown(TypedDict):
    """One option of a preset as the New Game dialog offers it."""

    key: str
    field: str
    label: str
    value: FieldValue
    kind: Literal["flag", "choice"]
    choices: list[FieldValue]
    offered: bool


class PresetShown(TypedDict):
    """A preset: its id, rule string, other names, every rule field, and its options."""

    id: str
    rules: str
    aliases: list[str]
    fields: dict[str, FieldValue]
    has_stock: bool
    options: list[OptionShown]


class RulesCatalogue(TypedDict):
    """``GET /api/rules``: the presets and the one the dialog starts on."""

    presets: list[PresetShown]
    default: str


class StatsAnswer(TypedDict):
    """``GET /api/stats`` (and its reset): the figures per rule set and difficulty."""

    stats: list[StatsShown]


class LeaderboardAnswer(TypedDict):
    """``GET /api/leaderboard/{code}``."""

    code: str
    entries: list[LeaderEntry]


class GameFigures(TypedDict):
    """A game's deal and figures, as every list of games gives them (``result``: ``None`` while it is played)."""

    code: str
    rules: str
    difficulty: str
    started_ms: int
    ended_ms: int | None
    result: str | None
    moves: int


class GameSummary(GameFigures):
    """A game as the lists of unfinished and finished games show it."""

    id: str
    pyramid_removed: int
    steps: int


class PlayerName(TypedDict):
    """The name shown on leaderboards (``None``: anonymous)."""

    name: str | None


class MeAnswer(TypedDict):
    """``GET /api/me``: the player (``None`` before their first game) and their games."""

    player: PlayerName | None
    unfinished: list[GameSummary]
    finished: list[GameSummary]


class NameAnswer(TypedDict):
    """``PUT /api/me``: the name as kept."""

    player: PlayerName


class ImportAnswer(TypedDict):
    """``POST /api/me/import``: games added, and games the player already had."""

    imported: int
    already: int


class SyncRefused(TypedDict):
    """A game played offline that does not replay: its id, the reason's code and words."""

    id: str
    code: str
    message: str


class SyncAnswer(TypedDict):
    """``POST /api/me/sync``: the games that landed, those already here, and those refused."""

    landed: list[str]
    known: list[str]
    refused: list[SyncRefused]


class MonthBadge(TypedDict):
    """One month: ``YYYY-MM``, its days cleared and challenges completed, and the badge they earn."""

    month: str
    days: int
    challenges: int
    badge: Literal["bronze", "silver", "gold", "crown"] | None


class BadgesAnswer(TypedDict):
    """``GET /api/badges``."""

    months: list[MonthBadge]


class RecordedGame(GameFigures):
    """A game with its record as text, when each entry was made, and the daily deal's day it is: what a
    records file keeps, and what the browser keeps of a game played offline."""

    record: str
    times: list[int]
    daily: str | None


class ExportedGame(RecordedGame):
    """One game of a records file: whether it counted for its day, and the challenge it was started for."""

    daily_counted: bool
    challenge: str | None


class RecordsExport(TypedDict):
    """``GET /api/me/export``: the records file (``POST /api/me/import`` reads it back)."""

    format: Literal["pyramid-solitaire-records"]
    version: int
    name: str | None
    games: list[ExportedGame]
    badges: list[MonthBadge]


class DayAbout(TypedDict):
    """What every answer about a day's deal says: the day, rule set, code and par."""

    date: str
    rules: str
    code: str
    par: int | None
    par_status: ParStatus
    today: bool


class DailyAnswer(DayAbout):
    """``GET /api/daily``: the day's deal and the time zone its day turns in."""

    timezone: str


class BoardYou(TypedDict):
    """The asking player on a day's leaderboard."""

    won: bool
    time_rank: int | None
    moves_rank: int | None


class DayBoard(TypedDict):
    """A day's leaderboard: wins by time and by moves, how many finished and won, and the asking player."""

    by_time: list[LeaderEntry]
    by_moves: list[LeaderEntry]
    finished: int
    won: int
    you: BoardYou | None


class DailyBoardAnswer(DayAbout, DayBoard):
    """``GET /api/daily/board``."""


class CalendarDay(TypedDict):
    """One day of the daily calendar."""

    date: str
    status: Literal["won", "lost", "playing", "late", "unplayed"]


class CalendarAnswer(TypedDict):
    """``GET /api/daily/me``: streak, best streak and every day from the first daily deal, newest first."""

    rules: str
    today: str
    streak: int
    best_streak: int
    days: list[CalendarDay]


class ChallengesAnswer(TypedDict):
    """``GET /api/challenges``: the day (the daily deal's, Asia/Tokyo unless configured) and its set."""

    date: str
    challenges: list[ChallengeShown]


class ValidationProblem(TypedDict):
    """One thing wrong with a request: where, pydantic's kind of error, and the words for a person."""

    where: str
    type: str
    problem: str


class ErrorDetails(TypedDict, total=False):
    """What a refusal names for a program.  Besides these keys, a move the engine refuses gives its own
    facts by name (``card``, ``cards``, ``limit``…; :mod:`..reasons`): :mod:`.schema` declares this one
    object open to more keys, each a JSON value."""

    #: the catalogue key of the reason (``deal.bad-rank``…), whose facts follow
    reason: str
    facts: dict[str, object]
    errors: list[ValidationProblem]
    version: int
    id: str
    code: str
    retry_after: float
    limit: int


class ErrorAnswer(TypedDict):
    """Every refusal (4xx) and failure (5xx): a stable code, a message in the answer's language, details."""

    code: str
    message: str
    details: ErrorDetails

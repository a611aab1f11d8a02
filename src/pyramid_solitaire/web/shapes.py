"""The shapes of what the game routes answer, as typed dictionaries: the game's state the page draws
(:class:`GameState`, with its parts), the event an action reports, a refusal the page shows without
asking, what a card can be removed with, and a finished game's result.

They are the API's edge written down once for the type checker (``mypy --strict``) and for readers; the
JSON the page receives is exactly these dictionaries.  docs/web.md describes each key for people.
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

from ..stats import StatsShown
from ..view import CellCard, Shown, Slot
from ..view import Cells as CellsShown
from ..view import Pile as PileShown
from ..view import Waste as WasteShown

#: What an answer reports was done: a move (``removed``, ``parked``, ``draw``, ``recycle``), an event
#: (``undone``, ``redone``, ``rewound``, ``hint``, ``coach``, ``resigned``), or nothing (``dealt``: a new
#: game; ``state``: the state asked for).
EventKind = Literal[
    "removed", "parked", "draw", "recycle", "undone", "redone", "rewound", "hint", "coach", "resigned", "dealt", "state"
]


class EventAnswer(TypedDict):
    """What an action did, for the page to show: its ``kind`` and the cards it moved."""

    kind: EventKind
    cards: list[str]
    move: NotRequired[str | None]
    #: a rewind: how many moves it took back
    undone: NotRequired[int]
    #: the coach hint: what the solver, seeing hidden cards, found
    winnable: NotRequired[bool | None]
    best_reachable: NotRequired[int | None]
    uses_hidden_cards: NotRequired[bool]


class RefusalShown(TypedDict):
    """Why a tap does nothing: the engine's refusal code, its message in the page's language, the cards
    it names; ``quiet`` when only the error-explanation assist shows it (seed 000's manner)."""

    code: str
    message: str
    cards: list[str]
    quiet: bool
    slot: NotRequired[int]


#: For a card that is part of a legal removal: whether it goes alone, and the other cards of each
#: removal it is in (``with`` is a Python keyword, hence this form).
Partners = TypedDict("Partners", {"alone": bool, "with": list[list[str]]})


class SlotShown(Slot):
    """One slot of the layout as the engine's view gives it (:class:`..view.Slot`), with ``covering``: the
    face-up cards on it (never a face-down one)."""

    covering: list[str]


#: The stock: cards left face down, the pass under way (``pass`` is a Python keyword, hence this form)
#: and how many there are (``None``: unlimited), its label, and its face-up top card in ``msc``.
StockShown = TypedDict(
    "StockShown",
    {"count": int, "pass": int, "passes": int | None, "label": str, "top": str | None, "usable": bool},
)


class RemovedShown(TypedDict):
    """The removed pile: how many cards, and the last two removed."""

    count: int
    top: list[str]


class Manners(TypedDict):
    """A preset's ways the page follows (seed 000): a refused pair keeps its second card chosen."""

    keep_second: bool


class PlayerView(Shown):
    """What the player may see of the game (the engine's :func:`~...view.player_view`, its texts in one
    language), with the face-up cards covering each slot."""

    status_message: str | None
    pyramid: list[SlotShown]
    stock: StockShown


class Choices(TypedDict):
    """What every tap would do now: each card's partners, the cards that may be chosen, why every other
    tap is refused (by card, pair, ``stock``, ``cell`` or ``game-over``), and what a tap on the stock
    plays (``draw``, ``recycle`` or ``None``)."""

    pairs: dict[str, Partners]
    selectable: list[str]
    refusals: dict[str, RefusalShown]
    stock_move: Literal["draw", "recycle"] | None


class LeaderEntry(TypedDict):
    """One win on a leaderboard: its rank, the player's name (``None``: anonymous), whether it is yours, and
    whether the solver's hint was asked for in it (it sees the cards the player cannot; marked, not left out)."""

    rank: int
    name: str | None
    seconds: float
    moves: int
    you: bool
    solver: bool


class Summary(TypedDict):
    """What the store keeps of a game besides its entries: counters, when its clock started (the first
    entry; the deal until then) and, once over, the result."""

    started_ms: int
    moves: int
    undos: int
    hints: int
    pyramid_removed: int
    result: str | None
    ended_ms: int | None


#: A value of a rule field (``Rules``' own types: an on/off option, a number, a word; ``None``: unlimited).
FieldValue = bool | int | str | None


#: Whether a par is known (``pending``: being worked out; ``unknown``: the search ran out of time;
#: ``offline``: the offline engine's answer, the par being the server's to know).
ParStatus = Literal["known", "unknown", "pending", "offline"]


class Par(TypedDict):
    """A verified deal's par: the fewest moves that win it, once ``known``."""

    moves: int | None
    status: ParStatus


class Result(TypedDict):
    """A finished game's figures; the routes add the player's statistics and the deal's leaderboard."""

    won: bool
    seconds: float
    moves: int
    undos: int
    hints: int
    stock_left: int
    pyramid_removed: int
    pyramid_size: int
    best_removed: int | None
    best_exact: bool
    score: int | None
    stats: NotRequired[StatsShown]
    leaderboard: NotRequired[list[LeaderEntry]]
    par: NotRequired[Par | None]


class SessionFacts(TypedDict):
    """The web app's facts about the game beside the player's view: its id and version (how many
    entries are recorded), the page's language, the rules' fields, the deal's number and difficulty,
    card names and values in that language, the elapsed seconds and, once over, the result."""

    id: str
    version: int
    lang: str
    preset: str
    drawn_spot: bool
    has_stock: bool
    rule_fields: dict[str, FieldValue]
    waste_fan: list[str]
    number: int | None
    difficulty: str
    removed: RemovedShown
    names: dict[str, str]
    target: int
    values: dict[str, int | None]
    ui: Manners
    elapsed: float
    result: Result | None


class Daily(TypedDict):
    """The daily deal a game is: its day (``YYYY-MM-DD``), whether it counts for that day, its rules."""

    date: str
    counted: bool
    rules: str


class ChallengeShown(TypedDict):
    """A daily challenge as the API answers it (``GET /api/challenges``, and a challenge's game):
    ``progress`` of ``needed`` (moves and clears: 0 or 1; points: the most scored; deals in a row: how
    many so far), the title in the answer's language."""

    id: str
    kind: str
    title: str
    rules: str
    codes: list[str]
    target: int
    progress: int
    needed: int
    done: bool


class SessionState(PlayerView, SessionFacts, Choices):
    """A session's state (``Session.state``, and the replay's ``game``): the player's view, the web
    app's facts and what every tap would do."""


class GameState(SessionState):
    """The game's state, as every game route answers it (``{"game": state, "event": …}``): the session's
    state, the daily deal it is and the daily challenge it was started for (``None``: none)."""

    daily: Daily | None
    challenge: ChallengeShown | None
    #: a game of the offline engine (played in the browser's worker, kept there until it syncs)
    offline: bool


__all__ = [
    "CellCard",
    "CellsShown",
    "ChallengeShown",
    "Choices",
    "Daily",
    "EventAnswer",
    "EventKind",
    "FieldValue",
    "GameState",
    "LeaderEntry",
    "Manners",
    "Par",
    "ParStatus",
    "Partners",
    "PileShown",
    "PlayerView",
    "RefusalShown",
    "RemovedShown",
    "Result",
    "SessionFacts",
    "SessionState",
    "SlotShown",
    "StatsShown",
    "StockShown",
    "Summary",
    "WasteShown",
]

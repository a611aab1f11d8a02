"""The shapes of what the game routes answer, as typed dictionaries: the event an action reports, a
refusal the page shows without asking, what a card can be removed with, and a finished game's result.

They are the API's edge written down once for the type checker (``mypy --strict``) and for readers; the
JSON the page receives is exactly these dictionaries.  docs/web.md describes each key for people.
"""

from __future__ import annotations

from typing import NotRequired, TypedDict


class EventAnswer(TypedDict):
    """What an action did, for the page to show: its ``kind`` (``removed``, ``parked``, ``draw``,
    ``recycle``, ``undone``, ``redone``, ``rewound``, ``hint``, ``coach``, ``resigned``; ``dealt`` and
    ``state`` when nothing was done) and the cards it moved."""

    kind: str
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
    stats: NotRequired[dict[str, object]]
    leaderboard: NotRequired[list[dict[str, object]]]


__all__ = ["EventAnswer", "Partners", "RefusalShown", "Result"]

"""The words the game's parts share, each spelled once: how a game stands or ended, the kinds of move,
and the events of a record that are not moves.

They are string enums, so a value is also the plain word written in records, the database, JSON and
the message catalogue's keys (``Outcome.WON == "won"``), and stays readable there; code names them
instead of typing the word.
"""

from __future__ import annotations

from enum import StrEnum


class Outcome(StrEnum):
    """How a game stands: still ``playing``, or how it ended.  ``lost`` means no move is left with the
    stock's passes spent; ``stalemate`` that, with unlimited passes, nothing but going round the stock
    is left; ``resigned`` that the player gave up."""

    PLAYING = "playing"
    WON = "won"
    LOST = "lost"
    STALEMATE = "stalemate"
    RESIGNED = "resigned"


#: The outcomes of a finished game (what the store keeps as its result).
RESULTS = tuple(outcome for outcome in Outcome if outcome is not Outcome.PLAYING)


class Verdict(StrEnum):
    """What the solver found of a deal in a study: it can be won, it cannot, or the time limit ran out."""

    WON = "won"
    LOST = "lost"
    UNKNOWN = "unknown"


class MoveKind(StrEnum):
    """What a move does: remove cards, park one in a free cell, draw from the stock, or recycle the waste."""

    REMOVE = "remove"
    PARK = "park"
    DRAW = "draw"
    RECYCLE = "recycle"


class Event(StrEnum):
    """The entries of a game's record that are not moves: the player's requests about the game."""

    UNDO = "undo"
    REDO = "redo"
    REWIND = "rewind"
    HINT = "hint"
    COACH = "coach"
    RESIGN = "resign"


__all__ = ["RESULTS", "Event", "MoveKind", "Outcome", "Verdict"]

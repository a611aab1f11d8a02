"""The solver's line, to watch on the table of a finished game (the result screen's "watch" button).

A finished game (won, lost or resigned) may ask for the solver's line from the deal's start, one step at a
time: ``GET /api/games/{id}/watch?step=N`` answers the table after the line's first ``N`` moves, drawn as
the game's own state, with the event of the N-th move so that the page plays it with the table's own
motion.  The server (``routes/games.py``) and the engine in the browser (``offline.OfflineApi``) answer
it with this module alone, so the two agree.

**Which line.**  For a deal that can be cleared, the shortest winning line (A*); if that search runs out
of time, the verdict's winning line, which is said not to be the shortest.  For a deal that cannot, the
line that removes the most pyramid cards, which the verdict's exhaustive search proves the most.  A deal
the solver cannot decide in time has no line to show, and the answer says so (503 ``watch-unknown``).

**Watching changes nothing.**  Each step is a game built afresh from the deal and the line (never the
player's), and nothing is written: the player's record and statistics stay as the game left them.  The
line knows what the player could not see (the stock's order, and face-down rows where the rules have
them); the answer says which (``knows``), and the page says it.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Final, Literal, TypedDict

from ..deal import Deal
from ..game import Game
from ..moves import Move
from .apierror import ApiError
from .play import MOVE_KINDS, Session
from .shapes import EventAnswer, SessionState

#: How long each solver search behind a line may take, in seconds (the shortest, then the verdict).
WATCH_SECONDS: Final = 5.0
#: Lines kept per process (by deal code), so that stepping through one solves its deal once.
KEPT_LINES: Final = 64


@dataclass(frozen=True)
class SolverLine:
    """The line to watch: its moves, whether it clears the pyramid, the pyramid cards it removes, and
    whether it is a shortest winning line."""

    moves: tuple[Move, ...]
    won: bool
    removed: int
    shortest: bool


class WatchAnswer(TypedDict):
    """One step of the line: the table after ``step`` of its ``steps`` moves, and what that move did
    (``event``; ``state`` at the start).  ``won``: the line clears the pyramid; ``removed``: the pyramid
    cards it removes of ``pyramid_size``; ``shortest``: no winning line is shorter; ``knows``: what the
    line was found knowing that the player did not see: the stock's order, face-down
    cards (none in Giza, whose cards all lie face up)."""

    game: SessionState
    event: EventAnswer
    step: int
    steps: int
    won: bool
    removed: int
    pyramid_size: int
    shortest: bool
    knows: list[Literal["stock", "face-down"]]


class LineUnknown(Exception):
    """The solver could not decide the deal within its time limit: there is no line to show."""


_lines: dict[str, SolverLine] = {}
_lines_lock = threading.Lock()


def solver_line(deal: Deal, seconds: float = WATCH_SECONDS) -> SolverLine:
    """The line to watch for ``deal`` (module docstring), kept per deal code.  Raises LineUnknown."""
    with _lines_lock:
        kept = _lines.get(deal.code)
    if kept is not None:
        return kept
    from ..solver import solve

    result = solve(deal, shortest=True, time_limit=seconds)
    if result.winnable is None:
        result = solve(deal, time_limit=seconds)
    if result.winnable is None:
        raise LineUnknown(deal.code)
    if result.winnable:
        assert result.solution is not None
        line = SolverLine(tuple(result.solution), True, Game(deal).table.board_size, result.shortest)
    else:
        line = SolverLine(tuple(result.best_line or ()), False, result.max_pyramid_removed, False)
    with _lines_lock:
        if len(_lines) >= KEPT_LINES:
            _lines.pop(next(iter(_lines)))  # the oldest kept
        _lines[deal.code] = line
    return line


def watch_step(session: Session, line: SolverLine, step: int, lang: str) -> WatchAnswer:
    """The table after ``step`` moves of ``line`` (0 .. its length; beyond it, the end), for the
    finished game ``session`` (its id and deal; the session itself is not touched)."""
    step = max(0, min(step, len(line.moves)))
    shown = Session(Game(session.deal), id=session.id, started=session.started, finished=session.started)
    for move in line.moves[:step]:
        shown.game.push(move)
    shown.version = step
    event: EventAnswer = {"kind": "state", "cards": []}
    if step:
        move = line.moves[step - 1]
        event = {"kind": MOVE_KINDS[move.kind], "move": str(move), "cards": [str(card) for card in move.cards]}
    table = session.game.table
    knows: list[Literal["stock", "face-down"]] = []
    if table.stock_size:
        knows.append("stock")
    if not table.rules.open_pyramid:
        knows.append("face-down")
    return {
        "game": shown.state(lang),
        "event": event,
        "step": step,
        "steps": len(line.moves),
        "won": line.won,
        "removed": line.removed,
        "pyramid_size": table.board_size,
        "shortest": line.shortest,
        "knows": knows,
    }


def watched(session: Session, step: int, lang: str) -> WatchAnswer:
    """One step of the solver's line of ``session``'s deal, or the ApiError that says why there is none:
    the answer of the server's route and of the offline engine alike."""
    if not session.over:
        raise ApiError(409, "not-over")
    try:
        line = solver_line(session.deal)
    except LineUnknown:
        raise ApiError(503, "watch-unknown") from None
    return watch_step(session, line, step, lang)

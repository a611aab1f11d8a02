"""Advice from the solver: the coach hint, and after a game the move after which it was lost.

Both use the hidden cards (stock order, face-down rows), so callers must label them that way; the
plain hint of seed 001 (:meth:`pyramid_solitaire.game.Game.hint`) uses only what the player sees.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..game import Game
from ..moves import Move
from ..packed import Position
from ..table import Table
from . import solve_position


@dataclass(frozen=True)
class CoachHint:
    """The coach's move and what it is based on.

    ``winnable`` says whether the position can still be won (``None``: the time limit ran out, and then
    ``move`` is ``None`` too).  When it can, ``move`` keeps it winnable; when it cannot, ``move`` starts a
    line that removes the most pyramid cards, ``best_reachable`` of them in all.  ``uses_hidden_cards``
    is always true: the advice knows the stock order and the face-down cards.
    """

    move: Move | None
    winnable: bool | None
    best_reachable: int
    uses_hidden_cards: bool = True


def coach_hint(game: Game, time_limit: float | None = 5.0) -> CoachHint:
    """The solver's advice from the game's current position (does not count as a plain hint)."""
    result = solve_position(game.table, game.position, time_limit=time_limit)
    if result.winnable is None:
        return CoachHint(None, None, result.max_pyramid_removed)
    if result.winnable:
        assert result.solution is not None
        move = result.solution[0] if result.solution else None
        return CoachHint(move, True, game.table.board_size)
    line = result.best_line or []
    return CoachHint(line[0] if line else None, False, result.max_pyramid_removed)


@dataclass(frozen=True)
class LostAt:
    """Where a game stopped being winnable: ``index`` is the 0-based number of the move in the game's
    history after which no win was possible (``None`` if the deal was never winnable, or is still
    winnable), ``move`` that move."""

    index: int | None
    move: Move | None
    deal_winnable: bool | None


def _winnable(table: Table, position: Position, time_limit: float | None) -> bool | None:
    return solve_position(table, position, time_limit=time_limit, best=False).winnable


def first_losing_move(game: Game, time_limit: float | None = 10.0) -> LostAt:
    """The first move of ``game``'s history after which it could no longer be won.

    Winnability can only be lost along a line of play (every later position is reachable from an
    earlier one), so a binary search over the positions of the history finds it with a few solves."""
    table = game.table
    positions = [step.before for step in game.history] + [game.position]
    first = _winnable(table, positions[0], time_limit)
    if first is not True:
        return LostAt(None, None, first)
    if _winnable(table, positions[-1], time_limit) is not False:
        return LostAt(None, None, True)
    low, high = 0, len(positions) - 1  # positions[low] winnable, positions[high] not
    while high - low > 1:
        middle = (low + high) // 2
        verdict = _winnable(table, positions[middle], time_limit)
        if verdict is None:
            return LostAt(None, None, True)
        if verdict:
            low = middle
        else:
            high = middle
    return LostAt(low, game.history[low].move, True)

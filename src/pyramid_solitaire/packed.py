"""The packed forms the table and the solver pass: a :class:`Position` and an :class:`Action`.

**Position.**  Seven integers: the pyramid slots still in place (bitmask), the stock cards still in play
(bitmask over stock indices, whether in the stock, drawn or on the waste), ``ptr`` — how many stock
indices have been dealt in this pass (those below it that remain form the waste, the rest the stock;
cards never change order) — the recycles done, the jokers still in play, the removals that took a
waste card (for a limit on waste uses), and the places of the cards parked in free cells.  The score
and the dead cards are derived from it, so undo is just going back to an earlier position.

**Action.**  A sorted tuple of places to remove, the place (an int) of a card to park in a free cell,
or one of the two stock actions.  The solver makes and stores millions of them, so no object per
action; :func:`kind_of` and :func:`action_places` are the one decoding outside the solver's hot loops.
A place is a card's index in the deal notation (:mod:`.table`).
"""

from __future__ import annotations

from typing import Final, NamedTuple

from .vocabulary import MoveKind

# The stock actions of the solver's fast path stay literal strings (a compiled comparison of two str);
# they are the words of MoveKind.DRAW and MoveKind.RECYCLE, which tests/test_vocabulary.py checks.
DRAW_ACTION: Final = "draw"
RECYCLE_ACTION: Final = "recycle"
#: An action in the fast path: a sorted tuple of places to remove, the place (an int) of a card to park
#: in a free cell, or one of the two stock actions.  The encoding is packed for the solver (no object
#: per action in its hot loops) and read only here and in the solver: everything else asks
#: :func:`kind_of`, :func:`action_places`, :meth:`~.table.Table.move_of` and
#: :meth:`~.table.Table.refusal`, and names an action by its typed :class:`~.moves.Move`
#: (:meth:`~.table.Table.action_of` is the way back).
Action = tuple[int, ...] | int | str

#: The cards of a pair and of a triple (the most one removal takes).
PAIR: Final = 2
TRIPLE: Final = 3


class Position(NamedTuple):
    """Where every card is (see the module docstring).  Immutable and hashable.  ``waste_used`` counts
    the removals that took a card from the waste, for rule sets that limit them (``waste_uses``);
    ``cells`` is the bitmask of the places parked in free cells."""

    pyramid: int
    stock: int
    ptr: int
    recycles: int
    jokers: int
    waste_used: int = 0
    cells: int = 0


def kind_of(action: Action) -> MoveKind:
    """What a packed action does: the one place outside the solver that reads the encoding's types."""
    if isinstance(action, tuple):
        return MoveKind.REMOVE
    if isinstance(action, int):
        return MoveKind.PARK
    return MoveKind.DRAW if action == DRAW_ACTION else MoveKind.RECYCLE


def action_places(action: Action) -> tuple[int, ...]:
    """The places an action removes, or the one it parks (none for a draw or a recycle)."""
    if isinstance(action, tuple):
        return action
    return (action,) if isinstance(action, int) else ()

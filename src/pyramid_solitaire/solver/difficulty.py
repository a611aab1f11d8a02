"""Difficulty: how often a sensible player who cannot see hidden cards wins a deal.

The *sensible player* plays from what the table shows, as seed 001 teaches: it never makes a removal
that creates a dead card it can see when another removal does not; among the removals left it picks one
at random, preferring those that take pyramid cards; when no removal is possible it taps the stock; and
with free cells, when the stock can do nothing more either, it parks a card after which a removal is
possible (one at random; or the plain hint's park, when only several parks lead to one).  It never
looks at the stock order or at face-down cards.

``rating`` is the share of ``playouts`` such games that are won (0.0 hardest .. 1.0 easiest).  The
random choices come from a generator seeded by the deal itself, so a deal's rating never changes.
Deals the solver has not verified winnable are not rated (their rating would say nothing).

The *careless player* (``rate(deal, careless=True)``) makes any legal move at random — any removal,
any park, or the stock even when a removal is there — with no thought of dead cards or of the passes left.
Its rating only separates deals the sensible player always wins: in easy rule sets (``overlap``)
more than a third of verified deals tie there, and the easy third is the part of them that even
careless play wins most often (see :func:`..catalog.bands`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..analysis import dead_slots
from ..board import WON
from ..deal import Deal
from ..packed import DRAW_ACTION, RECYCLE_ACTION, Action, Position
from ..table import Table

DEFAULT_PLAYOUTS = 32
#: A playout stops after this many actions (no sensible game of one deal is longer).
MAX_ACTIONS = 2000


@dataclass(frozen=True)
class Difficulty:
    """A deal's rating: ``wins`` of ``playouts`` sensible games were won."""

    wins: int
    playouts: int

    @property
    def rating(self) -> float:
        """Share of sensible games won (1.0 = every one)."""
        return self.wins / self.playouts


def sensible_choice(
    table: Table, pos: Position, rng: random.Random, memo: dict[Position, list[tuple[int, ...]]] | None = None
) -> Action | None:
    """One move of the sensible player (see the module docstring).  ``memo`` keeps, per position, the
    removals it picks among (the playouts of one deal meet the same positions again and again); the
    random pick is made anew each time."""
    choices = memo.get(pos) if memo is not None else None
    if choices is None:
        choices = _sensible_removals(table, pos)
        if memo is not None:
            memo[pos] = choices
    if choices:
        return rng.choice(choices)
    if table.can_draw(pos):
        return DRAW_ACTION
    if table.can_recycle(pos):
        return RECYCLE_ACTION
    parks = [place for place in table.parks(pos) if table.removals(table.park(pos, place))]
    return rng.choice(parks) if parks else table.useful_park(pos)


def _sensible_removals(table: Table, pos: Position) -> list[tuple[int, ...]]:
    """The removals the sensible player picks among: none that makes a new dead card it can see when
    another does not, and those that take pyramid cards when there are any."""
    removals = table.removals(pos)
    if not removals:
        return []
    seen = table.visible(pos)
    before = (dead_slots(table, pos) & seen).bit_count()
    safe = [
        a
        for a in removals
        if (dead_slots(table, table.remove(pos, a), visible_only=False, known=seen) & seen).bit_count() <= before
    ]
    pool = safe or removals
    with_pyramid = [a for a in pool if any(table.is_pyramid(p) for p in a)]
    return with_pyramid or pool


def careless_choice(table: Table, pos: Position, rng: random.Random) -> Action | None:
    """One move of the careless player: any legal move, the stock's as likely as each removal."""
    moves: list[Action] = list(table.removals(pos))
    moves.extend(table.parks(pos))
    if table.can_draw(pos):
        moves.append(DRAW_ACTION)
    elif table.can_recycle(pos):
        moves.append(RECYCLE_ACTION)
    return rng.choice(moves) if moves else None


def playout(
    table: Table, rng: random.Random, careless: bool = False, memo: dict[Position, list[tuple[int, ...]]] | None = None
) -> bool:
    """One sensible (or careless) game from the start; True if won.  ``memo``: see sensible_choice."""
    pos = table.start()
    seen_positions: set[Position] = set()
    # With unlimited passes a sensible game that comes back to the same cards, stock pointer and all
    # (the recycles done aside: they only count up), has drawn and recycled without a removal in
    # between, so none was possible anywhere on the way (it always removes when it can): the same
    # round comes again for ever, with no random choice in it, and the game is lost.  The careless
    # player may draw past a removal, so a return proves nothing for it; it plays to MAX_ACTIONS.
    loops = table.rules.passes is None and not careless
    for _ in range(MAX_ACTIONS):
        if table.won(pos):
            return True
        if loops:
            key = pos._replace(recycles=0)
            if key in seen_positions:
                return False
            seen_positions.add(key)
        action = careless_choice(table, pos, rng) if careless else sensible_choice(table, pos, rng, memo)
        if action is None:
            return False
        pos = table.apply(pos, action)
    return table.status(pos) == WON


def rate(deal: Deal, playouts: int = DEFAULT_PLAYOUTS, careless: bool = False) -> Difficulty:
    """Play ``playouts`` sensible (or careless) games of ``deal`` and count the wins."""
    table = Table(deal)
    rng = random.Random(f"{'careless' if careless else 'difficulty'}-v1:{deal.notation}:{deal.rules}")
    memo: dict[Position, list[tuple[int, ...]]] = {}
    wins = sum(playout(table, rng, careless, memo) for _ in range(playouts))
    return Difficulty(wins, playouts)

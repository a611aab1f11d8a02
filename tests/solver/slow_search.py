"""An independent, deliberately naive exhaustive search — the oracle the solver is checked against.

It knows nothing of the solver: no packed states, no canonical keys beyond the one below, no dead-card
pruning, no forced kings, no bounds, no move ordering.  It asks the engine's rules
(:meth:`Table.actions`, :meth:`Table.apply`, :meth:`Table.won`) for every position reachable from a
start and keeps a plain ``set`` of the :class:`Position` tuples seen.  The one identification it makes:
with unlimited passes (``rules.passes is None``) the recycle count changes nothing, so positions that
differ only in ``recycles`` are one position (otherwise the space would be infinite).

It is only practical from small positions (a few pyramid cards and few stock cards left, or late in
the last pass), so :func:`small_positions` makes such positions by playing random legal lines from the
start of real deals.  Each case carries the deal number and the line played, so any disagreement can be
reproduced with :func:`replay_line`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache

from pyramid_solitaire import Deal
from pyramid_solitaire.analysis import dead_slots, plain_hint
from pyramid_solitaire.moves import Move
from pyramid_solitaire.packed import Action, Position
from pyramid_solitaire.reasons import Refusal
from pyramid_solitaire.table import Table


class TooBig(Exception):
    """The position has more reachable positions than the search was allowed to visit."""


@dataclass(frozen=True)
class SlowResult:
    """The oracle's answer: can the position be won, and the most pyramid cards removed in all
    (counting those already gone) over every reachable position."""

    winnable: bool
    max_pyramid_removed: int
    positions: int


def slow_search(table: Table, start: Position, limit: int | None = None) -> SlowResult:
    """Visit every position reachable from ``start``.  Raises :class:`TooBig` after ``limit`` positions.

    Stops early only once a won position is found: both answers are then settled (a won position
    has an empty pyramid, so every pyramid card is removed)."""
    size = table.board_size
    unlimited = table.rules.passes is None

    def key(pos: Position) -> Position:
        return pos._replace(recycles=0) if unlimited else pos

    start = key(start)
    seen: set[Position] = {start}
    stack = [start]
    fewest_left = table.pyramid_left(start)
    while stack:
        pos = stack.pop()
        if table.won(pos):
            return SlowResult(True, size, len(seen))
        fewest_left = min(fewest_left, table.pyramid_left(pos))
        for action in table.actions(pos):
            after = key(table.apply(pos, action))
            if after not in seen:
                seen.add(after)
                if limit is not None and len(seen) > limit:
                    raise TooBig(len(seen))
                stack.append(after)
    return SlowResult(False, size - fewest_left, len(seen))


# --- actions as move notation (for messages and replays) -----------------------------------------------


def action_text(table: Table, action: Action) -> str:
    """The move notation of a table action (``Tc+3s``, ``Qs>cell``, ``draw``, ``recycle``)."""
    return str(table.move_of(action))


def action_of(table: Table, text: str) -> Action:
    """The table action a move's notation names (cards in any order; sorted places)."""
    action = table.action_of(Move.parse(text))
    assert not isinstance(action, Refusal), f"{text}: {action}"
    return tuple(sorted(action)) if isinstance(action, tuple) else action


def replay_line(rules: str, number: int, line: list[str]) -> tuple[Table, Position]:
    """The table of deal ``number`` under ``rules`` and the position after ``line`` (move notation),
    each move checked to be legal where it is played."""
    table = Table(Deal.from_number(number, rules))
    pos = table.start()
    for index, text in enumerate(line):
        action = action_of(table, text)
        assert action in table.actions(pos), f"{text} is not legal after {line[:index]}"
        pos = table.apply(pos, action)
    return table, pos


# --- small positions from random play ---------------------------------------------------------------------


@dataclass(frozen=True)
class SmallCase:
    """A position reached by a random legal line from the start of a deal, with the oracle's answer."""

    rules: str
    number: int
    line: tuple[str, ...]
    table: Table
    position: Position
    expected: SlowResult

    def describe(self) -> str:
        """How to get the position back: rules, deal number and the line of moves."""
        return (
            f"rules={self.rules!r} deal={self.number} position={tuple(self.position)} "
            f"line ({len(self.line)} moves): {'; '.join(self.line)}"
        )


POLICIES = ("random", "careful", "hint")


def _random_line(
    table: Table, rng: random.Random, max_pyramid: int, policy: str
) -> tuple[list[Action], list[Position]]:
    """Legal play from the start until at most ``max_pyramid`` pyramid cards remain or the line is stuck:
    no move left, or (unlimited passes) two whole cycles through the stock without a removal.

    ``random``: a removal (when one is legal) with probability 0.6-0.95, else the stock action, chosen
    at random.  ``careful``: the same, but avoiding removals that leave a dead card while it can (the
    engine's analysis).  ``hint``: the engine's plain hint, with a random move one time in five.  Only
    the engine is asked, never the solver."""
    pos = table.start()
    line: list[Action] = []
    visited = [pos]
    idle = 0
    remove_bias = rng.choice((0.6, 0.8, 0.95))
    while table.pyramid_left(pos) > max_pyramid and idle <= 2 * (table.stock_size + 1):
        actions = table.actions(pos)
        if not actions:
            break
        hinted = plain_hint(table, pos) if policy == "hint" and rng.random() < 0.8 else None
        if hinted is not None:
            action = hinted
        else:
            removals = [a for a in actions if isinstance(a, tuple)]
            if policy == "careful" and removals:
                removals = [a for a in removals if not dead_slots(table, table.apply(pos, a), False)] or removals
            stock = [a for a in actions if not isinstance(a, tuple)]
            pool = removals if removals and (not stock or rng.random() < remove_bias) else stock
            action = rng.choice(pool)
        idle = 0 if isinstance(action, tuple) else idle + 1
        pos = table.apply(pos, action)
        line.append(action)
        visited.append(pos)
    return line, visited


def _try(table: Table, pos: Position, limit: int, skip_dead: bool) -> SlowResult | None:
    """The oracle's answer for a position that still has a move, or None: too big, nothing to play, or
    (``skip_dead``, when no more lost cases are wanted) a dead card already there."""
    if not table.actions(pos):
        return None
    if skip_dead and dead_slots(table, pos, False):
        return None
    try:
        return slow_search(table, pos, limit)
    except TooBig:
        return None


@cache
def small_positions(
    rules: str, count: int = 40, seed: int = 0, limit: int = 5000, min_each: int = 10, max_attempts: int = 3000
) -> tuple[SmallCase, ...]:
    """``count`` positions of ``rules`` small enough for :func:`slow_search` (at most ``limit``
    reachable positions), from lines of play of random deals.  Deterministic for (rules, seed).

    A line (see :func:`_random_line`) is played until at most 6-10 pyramid cards remain; if the oracle
    finds that position too big, the line goes on with a few more random removals.  A line that gets
    stuck earlier is taken back a random number of moves, then closer to its end while that is too big:
    positions shortly before a dead end, late in the last pass, are naturally small.  Positions with no
    move left are never used.  To get both verdicts, at most ``count - min_each`` cases may share a
    verdict while the attempts last (the quota looks only at the oracle's answer, never the solver's).
    Rule sets rarely won (strict with few waste uses) need the most attempts: 1,500 found only two
    winnable positions of ``classic(waste_uses=26,strict=true)`` once the careful lines also avoided
    cards whose partners lie under them, 3,000 find five."""
    rng = random.Random(f"{rules}/{seed}")
    quota = count - min_each
    found: dict[bool, list[SmallCase]] = {True: [], False: []}
    leftovers: list[SmallCase] = []
    attempts = 0
    while len(found[True]) + len(found[False]) < count and attempts < max_attempts:
        attempts += 1
        number = rng.randrange(100_000)
        table = Table(Deal.from_number(number, rules))
        max_pyramid = rng.randint(6, 10)
        line, visited = _random_line(table, rng, max_pyramid, rng.choice(POLICIES))
        skip_dead = len(found[False]) >= quota
        result: SlowResult | None = None
        if table.pyramid_left(visited[-1]) <= max_pyramid:
            pos, actions = visited[-1], list(line)
            for _ in range(6):
                result = _try(table, pos, limit, skip_dead)
                if result is not None:
                    break
                removals = [a for a in table.actions(pos) if isinstance(a, tuple)]
                if not removals:
                    break
                action = rng.choice(removals)
                pos = table.apply(pos, action)
                actions.append(action)
        else:
            back = rng.randint(2, 24)
            while back >= 1 and result is None:
                index = max(0, len(line) - back)
                pos, actions = visited[index], line[:index]
                result = _try(table, pos, limit, skip_dead)
                back //= 2
        if result is None:
            continue
        case = SmallCase(rules, number, tuple(action_text(table, a) for a in actions), table, pos, result)
        bucket = found[result.winnable]
        if len(bucket) < quota:
            bucket.append(case)
        else:
            leftovers.append(case)
    cases = found[True] + found[False]
    cases += leftovers[: count - len(cases)]
    return tuple(cases)

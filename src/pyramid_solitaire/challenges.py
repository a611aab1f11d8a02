"""Daily challenges with proven goals: each day's set, how each goal is proved, and how far a player is.

Every day (the daily deal's day, docs/daily.md) has one challenge of each kind in :data:`KINDS`, the same
for every player: the deals are drawn from a generator seeded with the day and the kind, and the goal
is set from what the solver proves those deals allow.  A goal the solver cannot prove reachable within
its time limit is never offered: the next deal drawn is tried instead.  The proof is a line of play
(for each deal of the challenge) that meets the goal; it is kept with the day's set, and
tests/test_challenges.py replays it through the engine on its own.

**Kinds are data.**  A :class:`Kind` says which deals it draws, how it proves a goal on them, and when a
finished or unfinished game meets it; adding a kind is one entry in :data:`KINDS` plus its title in the
message catalogues (``challenge.<kind>``).

**Progress is read from the games.**  A game started for a challenge carries the challenge's id, and
how far the player is comes from those games alone, replayed through the engine
(:func:`progress`): nothing else is stored per player, so the records' export and import carry it with
the games, and importing twice changes nothing.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING, Final

from .catalog import NORMAL
from .daily import order
from .deal import Deal
from .game import Game
from .moves import RECYCLE, Move
from .record import Entry, play_entry
from .rules import PRESETS

if TYPE_CHECKING:
    from .solver import SolveResult

#: CPU seconds the solver may take for each candidate deal's proof.
PROOF_SECONDS: Final = 10.0
#: Candidate deals a kind may try before the day goes without it (never reached in practice: see the
#: tests, which build many days).
CANDIDATES: Final = 40
#: Moves over par that the "within N moves" goal allows.
MOVES_SLACK: Final = 5
#: The fewest pyramid cards a "score" deal's best line must remove to be offered (a goal worth chasing).
SCORE_FLOOR: Final = 14
#: Points per pyramid card under ``pyramide`` scoring (seed 000; docs/rules.md).
POINTS_PER_CARD: Final = 10


@dataclass(frozen=True)
class Played:
    """What a game of a challenge comes to, replayed from its record: whether it was won, its moves and
    undos (the counters the game shows), the most pyramid cards it had removed at any point, and
    whether the line that stands at its end recycled the stock."""

    code: str
    won: bool
    over: bool
    moves: int
    undos: int
    most_removed: int
    recycled: bool


@dataclass(frozen=True)
class Proof:
    """A goal proved on one deal: the target, and the line that meets it."""

    target: int
    line: tuple[Move, ...]


@dataclass(frozen=True)
class Kind:
    """One kind of challenge.

    ``rules``: the preset its deals are of; ``deals``: how many deals one challenge has;
    ``draw(rng)``: a candidate deal; ``prove(deal)``: the goal the solver proves on it, or None (then the
    next candidate is tried); ``needed(target)``: the progress that completes it; ``reach(games,
    codes, target)``: the progress of a player's games of the challenge, in the order they started."""

    name: str
    rules: str
    deals: int
    draw: Callable[[random.Random], Deal]
    prove: Callable[[Deal], Proof | None]
    needed: Callable[[int], int]
    reach: Callable[[Sequence[Played], Sequence[str], int], int]


# --- drawing deals ------------------------------------------------------------------------------------


def _verified(preset: str) -> Callable[[random.Random], Deal]:
    """A deal of the preset's verified catalogue (easy or normal; the label it gets says so)."""

    def draw(rng: random.Random) -> Deal:
        deals = order(preset)
        number, letter = deals[rng.randrange(len(deals))]
        return Deal.from_number(number, PRESETS[preset], letter)

    return draw


def _normal(preset: str) -> Callable[[random.Random], Deal]:
    """A deal of the preset's normal band of its verified catalogue."""

    def draw(rng: random.Random) -> Deal:
        deals = [(n, letter) for n, letter in order(preset) if letter == NORMAL]
        number, letter = deals[rng.randrange(len(deals))]
        return Deal.from_number(number, PRESETS[preset], letter)

    return draw


def _random(preset: str) -> Callable[[random.Random], Deal]:
    """A random deal of the preset (its number from the first million)."""

    def draw(rng: random.Random) -> Deal:
        return Deal.from_number(rng.randrange(1_000_000), PRESETS[preset])

    return draw


# --- proving goals --------------------------------------------------------------------------------------


def _solve(deal: Deal, shortest: bool = False) -> SolveResult:
    """The solver's answer for ``deal`` within PROOF_SECONDS of CPU time."""
    from .solver import solve

    return solve(deal, shortest=shortest, time_limit=PROOF_SECONDS, cpu_time=True)


def _within_par(deal: Deal) -> Proof | None:
    """Clear it within par + MOVES_SLACK moves: the shortest line proves the par."""
    result = _solve(deal, shortest=True)
    if not result.shortest or result.solution is None:
        return None
    return Proof(len(result.solution) + MOVES_SLACK, tuple(result.solution))


def _best_score(deal: Deal) -> Proof | None:
    """Score the most this deal allows: a deal that cannot be cleared, whose best line (exact: the
    verdict's search is exhaustive) removes at least SCORE_FLOOR pyramid cards."""
    result = _solve(deal)
    if result.winnable is not False or result.best_line is None or result.max_pyramid_removed < SCORE_FLOOR:
        return None
    return Proof(POINTS_PER_CARD * result.max_pyramid_removed, tuple(result.best_line))


def _one_pass(deal: Deal) -> Proof | None:
    """Clear it without turning the stock over: solved under the same rules with one pass, whose every
    line is a line of the deal's first pass."""
    one = Deal(deal.rules.with_options(passes=1), deal.cards, deal.number, deal.difficulty)
    result = _solve(one)
    if not result.winnable or result.solution is None:
        return None
    return Proof(1, tuple(result.solution))


def _clear(deal: Deal) -> Proof | None:
    """Clear it (a verified deal: the solver's line proves it again)."""
    result = _solve(deal)
    if not result.winnable or result.solution is None:
        return None
    return Proof(1, tuple(result.solution))


# --- reading progress ---------------------------------------------------------------------------------


def _won_within(games: Sequence[Played], codes: Sequence[str], target: int) -> int:
    return int(any(g.won and g.moves <= target for g in games))


def _scored(games: Sequence[Played], codes: Sequence[str], target: int) -> int:
    return max((POINTS_PER_CARD * g.most_removed for g in games), default=0)


def _won_in_one_pass(games: Sequence[Played], codes: Sequence[str], target: int) -> int:
    return int(any(g.won and not g.recycled for g in games))


def _won(games: Sequence[Played], codes: Sequence[str], target: int) -> int:
    return int(any(g.won for g in games))


def _in_a_row(games: Sequence[Played], codes: Sequence[str], target: int) -> int:
    """The deals cleared without undo one after another, in the challenge's order: a finished game of
    the next deal that is not such a win starts the run again (an unfinished one leaves it as it is)."""
    run = 0
    for game in games:
        if run >= len(codes):
            break
        if not game.over:
            continue
        if game.code == codes[run] and game.won and game.undos == 0:
            run += 1
        else:
            run = 1 if game.code == codes[0] and game.won and game.undos == 0 else 0
    return run


def _one(target: int) -> int:
    return 1


def _itself(target: int) -> int:
    return target


#: Every kind, in the order a day lists them.  Adding one: an entry here, ``challenge.<name>`` in both
#: message catalogues, and docs/challenges.md.
KINDS: Final[tuple[Kind, ...]] = (
    Kind("moves", "classic", 1, _verified("classic"), _within_par, _one, _won_within),
    Kind("score", "pyramide", 1, _random("pyramide"), _best_score, _itself, _scored),
    Kind("one_pass", "classic", 1, _verified("classic"), _one_pass, _one, _won_in_one_pass),
    Kind("in_a_row", "classic", 2, _normal("classic"), _clear, _itself, _in_a_row),
    Kind("thirteen", "thirteen", 1, _verified("thirteen"), _clear, _one, _won),
)
KIND_BY_NAME: Final = {kind.name: kind for kind in KINDS}


@dataclass(frozen=True)
class Challenge:
    """One challenge of a day: its id (``<day>-<kind>``), kind, deals, target (for one deal the goal
    proved on it — moves, points, or 1 to clear it; for several, how many to clear) and the proof of
    each deal: a line, in move notation, that meets the goal on it."""

    id: str
    kind: str
    codes: tuple[str, ...]
    target: int
    proofs: tuple[tuple[str, ...], ...]

    def to_json(self) -> dict[str, object]:
        return {
            "id": self.id,
            "kind": self.kind,
            "codes": list(self.codes),
            "target": self.target,
            "proofs": [list(line) for line in self.proofs],
        }

    @classmethod
    def from_json(cls, data: dict[str, object]) -> Challenge:
        codes = data["codes"]
        proofs = data["proofs"]
        target = data["target"]
        assert isinstance(codes, list) and isinstance(proofs, list) and isinstance(target, int)
        return cls(
            str(data["id"]),
            str(data["kind"]),
            tuple(str(code) for code in codes),
            target,
            tuple(tuple(str(move) for move in line) for line in proofs),
        )


def _rng(kind: str, day: date) -> random.Random:
    seed = hashlib.sha256(f"pyramid-solitaire challenge {kind} {day.isoformat()}".encode()).digest()[:8]
    return random.Random(int.from_bytes(seed, "big"))


def make_challenge(kind: Kind, day: date) -> Challenge | None:
    """The day's challenge of ``kind``: its deals drawn in turn until the solver proves a goal on each
    (for several deals, the goal is the same for all), or None if CANDIDATES draws prove none."""
    rng = _rng(kind.name, day)
    codes: list[str] = []
    proofs: list[Proof] = []
    for _ in range(CANDIDATES):
        if len(codes) == kind.deals:
            break
        deal = kind.draw(rng)
        if deal.code in codes:
            continue
        proof = kind.prove(deal)
        if proof is not None:
            codes.append(deal.code)
            proofs.append(proof)
    if len(codes) < kind.deals:
        return None
    # one deal: the goal proved on it; several: how many of them to clear (each proved clearable)
    target = proofs[0].target if kind.deals == 1 else kind.deals
    return Challenge(
        f"{day.isoformat()}-{kind.name}",
        kind.name,
        tuple(codes),
        target,
        tuple(tuple(str(move) for move in proof.line) for proof in proofs),
    )


def day_set(day: date) -> list[Challenge]:
    """Every kind's challenge of ``day`` (a kind with no proven goal that day is left out)."""
    made = (make_challenge(kind, day) for kind in KINDS)
    return [challenge for challenge in made if challenge is not None]


def played(code: str, entries: Sequence[Entry]) -> Played:
    """What a game of deal ``code`` comes to, from its record's entries replayed through the engine:
    the most pyramid cards removed is the most at any point (an undo after it does not take it back)."""
    game = Game(Deal.from_code(code))
    board = game.table.board_size
    most = 0
    for entry in entries:
        play_entry(game, entry)
        most = max(most, board - game.pyramid_left)
    return Played(
        code=code,
        won=game.status == "won",
        over=game.over,
        moves=game.moves,
        undos=game.undos,
        most_removed=most,
        recycled=any(step.move.kind == RECYCLE for step in game.history),
    )


def progress(challenge: Challenge, games: Sequence[Played]) -> tuple[int, bool]:
    """How far ``games`` (the player's games of the challenge, in the order they started) take it, and
    whether that completes it."""
    kind = KIND_BY_NAME[challenge.kind]
    reached = kind.reach(games, challenge.codes, challenge.target)
    return reached, reached >= kind.needed(challenge.target)

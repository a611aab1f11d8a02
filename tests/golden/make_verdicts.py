"""Write tests/golden/verdicts/<preset>.txt: the verdict of deals 0..199 of the shuffle under each preset.

One line per deal: ``number<TAB>winnable<TAB>max_pyramid_removed`` (``true``/``false``; the most pyramid
cards any line of play removes — the pyramid size when the deal is winnable).  The files pin the solver:
``tests/solver/test_golden_verdicts.py`` solves the deals again and must get exactly these answers.

WHEN TO REGENERATE: ONLY after a DELIBERATE change to the rules of play of a preset (docs/rules.md, Table,
the preset's options) or to the documented shuffle — and then say so in the commit, with the lines that
changed and why.  NEVER regenerate to make a failing golden test pass after a solver change: a verdict
is a fact about the deal under its rules, so a faster or cleverer solver must give the same answers,
and a solver that does not is wrong.

How each line is made, and checked before it is written:

* the solver (``solve``, generous time limit) gives the verdict; a timeout stops the script (no
  "unknown" is ever written);
* a winnable verdict: the solver's solution must replay through ``Game.push`` to status ``won``;
* an unwinnable verdict, without free cells: a reference search — plain exhaustive depth-first search
  over every position reachable from the start, using the solver's move generation (checked against ``Table.actions`` by
  ``tests/solver/test_space.py``) and position keys, but none of its pruning (no dead-card cut, no
  relaxed-game bound; besides the transposition table it only skips a position when the same one with
  fewer recycles, or fewer waste uses spent, was seen) — must also find no win;
  ``max_pyramid_removed`` is the reference's count (the fewest pyramid cards left over all positions it
  visited), and the line reaching it must replay through ``Game.push``.  Where the solver's own
  ``max_pyramid_removed`` differs, the script writes the reference's value and lists the deal as a
  SOLVER DISAGREEMENT (the golden test will then fail until the solver is fixed).
* an unwinnable verdict with free cells (``cells``): the exhaustive search is out of reach there (a
  parked card multiplies the positions: on the lost deals of ``cells`` each worker grew past 8 GB in
  20 minutes without finishing), so an upper bound written here, apart from the solver, takes its
  place: :func:`relaxed_most_removed`, a plain exhaustive search of the game in which every stock
  card not yet removed is usable at any time.  Every line of real play is a line of it, so what it
  removes at most bounds what play removes.  The deal is written only if that bound is below the
  pyramid's size (so no line wins) and the solver's best line, replayed through ``Game.push``,
  removes exactly as many (so the bound is reached, and is the answer); otherwise it is not written.

The reference search visits up to several million positions for some deals (memory up to ~1 GB per
worker); a whole run takes the better part of an hour on two cores.

    .venv/bin/python tests/golden/make_verdicts.py            # every preset
    .venv/bin/python tests/golden/make_verdicts.py classic    # some presets
"""

from __future__ import annotations

import os

# The reference search subclasses SearchSpace, which the compiled build does not allow; and a check
# should not share the compiled code it checks anyway.  Set before the package is imported.
os.environ["PYRAMID_SOLITAIRE_PURE"] = "1"

import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from pyramid_solitaire import Deal, Game
from pyramid_solitaire.packed import Action
from pyramid_solitaire.solver import solve
from pyramid_solitaire.solver.search import Counter, find_win
from pyramid_solitaire.solver.space import SearchSpace
from pyramid_solitaire.table import Table

OUT_DIR = Path(__file__).with_name("verdicts")
PRESET_NAMES = (
    "classic",
    "pyramide",
    "thirteen",
    "msc",
    "traditional",
    "relaxed",
    "tuts_tomb",
    "spanish",
    "fourteen",
    "overlap",
    "six_rows",
    "giza",
    "reserve",
    "triangle",
    "apophis",
    "limited_waste",
    "cells",
)
#: Deal numbers 0 .. DEALS - 1 of the shuffle.
DEALS = 200
#: Seconds per deal for the solver (pure Python here): far above the slowest deal (about ten seconds,
#: but about a minute for deal 28 of ``cells``).
TIME_LIMIT = 300.0
WORKERS = 2


def relaxed_most_removed(table: Table) -> int:
    """The most layout cards removed in the relaxed game of ``table``'s deal from its start (see the
    module docstring): the layout and its cover graph as dealt; free cells holding layout cards;
    every stock card and joker a bag usable at any time.  Written from the rules and the layout only
    (no solver code): its moves are every removal of usable layout cards — exposed or parked — alone
    (a card worth the target, where lone cards go), in pairs and triples summing to the target, with
    a covering card (overlap pairs), with one or two bag cards or with a joker; and parking an exposed
    card in a free cell.  Removals of bag cards alone and parking bag cards are left out: they only
    use up the bag."""
    rules = table.rules
    layout = table.layout
    values = table.values
    target = rules.target
    size = table.board_size
    lone = target if rules.lone_kings else None
    bag_start = [0] * (max(values) + 1)
    for place in range(size, table.joker_base):
        bag_start[values[place]] += 1
    overlap = rules.overlap and rules.open_pyramid
    seen: dict[tuple[int, int, tuple[int, ...], int], int] = {}

    def exposed(pyramid: int) -> list[int]:
        return [s for s in range(size) if pyramid >> s & 1 and not layout.coverers[s] & pyramid]

    def most(pyramid: int, parked: int, bag: tuple[int, ...], jokers: int) -> int:
        key = (pyramid, parked, bag, jokers)
        if key in seen:
            return seen[key]
        seen[key] = best = size - pyramid.bit_count() - parked.bit_count()
        free = exposed(pyramid)
        usable = free + [s for s in range(size) if parked >> s & 1]
        moves: list[tuple[int, int, tuple[int, ...], int]] = []

        def gone(*slots: int) -> tuple[int, int]:
            mask = sum(1 << s for s in slots)
            return pyramid & ~mask, parked & ~mask

        def take(counts: tuple[int, ...], *wanted: int) -> tuple[int, ...] | None:
            left = list(counts)
            for value in wanted:
                if not 0 <= value < len(left) or left[value] == 0:
                    return None
                left[value] -= 1
            return tuple(left)

        for a in usable:
            if values[a] == lone:
                moves.append((*gone(a), bag, jokers))
            after = take(bag, target - values[a])
            if after is not None:
                moves.append((*gone(a), after, jokers))
            if jokers:
                moves.append((*gone(a), bag, jokers - 1))
            for b in usable:
                if b > a and values[a] + values[b] == target:
                    moves.append((*gone(a, b), bag, jokers))
                if rules.triples and b > a:
                    after = take(bag, target - values[a] - values[b])
                    if after is not None:
                        moves.append((*gone(a, b), after, jokers))
                    for c in usable:
                        if c > b and values[a] + values[b] + values[c] == target:
                            moves.append((*gone(a, b, c), bag, jokers))
            if rules.triples:
                for low in range(1, target):
                    after = take(bag, low, target - values[a] - low)
                    if after is not None and low <= target - values[a] - low:
                        moves.append((*gone(a), after, jokers))
        if overlap:
            for covered in range(size):
                on = layout.coverers[covered] & pyramid
                if pyramid >> covered & 1 and on.bit_count() == 1:
                    coverer = on.bit_length() - 1
                    if coverer in free and values[covered] + values[coverer] == target:
                        moves.append((*gone(covered, coverer), bag, jokers))
        if parked.bit_count() < rules.cells:
            moves.extend((pyramid & ~(1 << s), parked | 1 << s, bag, jokers) for s in free)
        for move in moves:
            best = max(best, most(*move))
        seen[key] = best
        return best

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    return most((1 << size) - 1, 0, tuple(bag_start), rules.jokers)


class ExhaustiveSpace(SearchSpace):
    """The solver's search space with its pruning switched off: no position is ever judged hopeless,
    so ``find_win`` visits every position reachable from the start (up to its transposition table and
    the forced removal of an exposed king, which never loses anything)."""

    def hopeless(self, state: int) -> bool:
        return False


@dataclass
class Line:
    """One deal's answer and what was checked."""

    number: int
    winnable: bool | None
    max_removed: int
    solver_max: int
    seconds: float
    problem: str | None = None


def _replay(deal: Deal, moves: list[str]) -> Game:
    game = Game(deal)
    for move in moves:
        game.push(move)
    return game


def _texts(table: Table, actions: list[Action]) -> list[str]:
    return [str(table.move_of(a)) for a in actions]


def verdict(job: tuple[str, int]) -> Line:
    """Solve one deal and check the answer (see the module docstring)."""
    rules, number = job
    started = time.monotonic()
    deal = Deal.from_number(number, rules)
    result = solve(deal, time_limit=TIME_LIMIT)
    line = Line(number, result.winnable, result.max_pyramid_removed, result.max_pyramid_removed, 0.0)
    if result.winnable is None:
        line.problem = f"timed out after {TIME_LIMIT} s"
    elif result.winnable:
        assert result.solution is not None
        game = _replay(deal, [str(m) for m in result.solution])
        if game.status != "won":
            line.problem = f"the solution replays to {game.status}, not won"
    elif deal.rules.cells:
        table = Table(deal)
        bound = relaxed_most_removed(table)
        game = _replay(deal, [str(m) for m in result.best_line or []])
        reached = table.board_size - game.pyramid_left
        if bound >= table.board_size:
            line.problem = "the relaxed reference clears the pyramid: the unwinnable verdict is not confirmed"
        elif reached != bound:
            line.problem = f"the relaxed reference bounds the best at {bound}, the solver's best line removes {reached}"
        line.max_removed = bound
    else:
        table = Table(deal)
        space = ExhaustiveSpace(table)
        counter = Counter()
        if find_win(space, space.pack(table.start()), counter) is not None:
            line.problem = "the solver says unwinnable, the exhaustive reference search finds a win"
        else:
            reference = max(counter.best_removed, 0)
            game = _replay(deal, _texts(table, counter.best_line))
            if table.board_size - game.pyramid_left != reference:
                line.problem = f"the reference's best line removes {table.board_size - game.pyramid_left}"
            line.max_removed = reference
    line.seconds = time.monotonic() - started
    return line


def format_line(line: Line) -> str:
    """One line of a verdict file."""
    return f"{line.number}\t{'true' if line.winnable else 'false'}\t{line.max_removed}"


def main(presets: list[str]) -> int:
    """Write the files of ``presets``; return the exit status (1 if any deal failed a check, in which
    case its file is not written)."""
    OUT_DIR.mkdir(exist_ok=True)
    status = 0
    with ProcessPoolExecutor(max_workers=WORKERS) as pool:
        for rules in presets:
            started = time.monotonic()
            lines = sorted(pool.map(verdict, [(rules, n) for n in range(DEALS)]), key=lambda r: r.number)
            slowest = max(lines, key=lambda r: r.seconds)
            wins = sum(1 for r in lines if r.winnable)
            print(
                f"{rules}: {wins}/{DEALS} winnable, {time.monotonic() - started:.0f} s wall, slowest deal "
                f"{slowest.number} ({slowest.seconds:.1f} s)",
                flush=True,
            )
            for r in lines:
                if r.solver_max != r.max_removed:
                    print(
                        f"  SOLVER DISAGREEMENT {rules} deal {r.number}: max_pyramid_removed is "
                        f"{r.max_removed}, the solver says {r.solver_max}",
                        flush=True,
                    )
            problems = [r for r in lines if r.problem]
            if problems:
                for r in problems:
                    print(f"  NOT WRITTEN: {rules} deal {r.number}: {r.problem}", file=sys.stderr)
                status = 1
                continue
            path = OUT_DIR / f"{rules}.txt"
            path.write_text("".join(format_line(r) + "\n" for r in lines), encoding="utf-8")
            print(f"  wrote {len(lines)} lines to {path}", flush=True)
    return status


if __name__ == "__main__":
    chosen = sys.argv[1:] or list(PRESET_NAMES)
    unknown_presets = [p for p in chosen if p not in PRESET_NAMES]
    if unknown_presets:
        sys.exit(f"unknown preset(s): {unknown_presets} (known: {', '.join(PRESET_NAMES)})")
    sys.exit(main(chosen))

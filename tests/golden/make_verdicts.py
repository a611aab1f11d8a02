"""Write tests/golden/verdicts/<preset>.txt: the verdict of deals 0..199 of the shuffle under each preset.

One line per deal: ``number<TAB>winnable<TAB>max_pyramid_removed`` (``true``/``false``; the most pyramid
cards any line of play removes — the pyramid size when the deal is winnable).  The files pin the solver:
``tests/solver/test_golden_verdicts.py`` solves the deals again and must get exactly these answers.

WHEN TO REGENERATE: ONLY after a DELIBERATE change to the rules of play of a preset (RULES.md, Table,
the preset's options) or to the documented shuffle — and then say so in the commit, with the lines that
changed and why.  NEVER regenerate to make a failing golden test pass after a solver change: a verdict
is a fact about the deal under its rules, so a faster or cleverer solver must give the same answers,
and a solver that does not is wrong.

How each line is made, and checked before it is written:

* the solver (``solve``, generous time limit) gives the verdict; a timeout stops the script (no
  "unknown" is ever written);
* a winnable verdict: the solver's solution must replay through ``Game.push`` to status ``won``;
* an unwinnable verdict: a reference search — plain exhaustive depth-first search over every position
  reachable from the start, using the solver's move generation (checked against ``Table.actions`` by
  ``tests/solver/test_space.py``) and position keys, but none of its pruning (no dead-card cut, no
  relaxed-game bound; besides the transposition table it only skips a position when the same one with
  fewer recycles, or fewer waste uses spent, was seen, and, with free cells, never parks a king) —
  must also find no win;
  ``max_pyramid_removed`` is the reference's count (the fewest pyramid cards left over all positions it
  visited), and the line reaching it must replay through ``Game.push``.  Where the solver's own
  ``max_pyramid_removed`` differs, the script writes the reference's value and lists the deal as a
  SOLVER DISAGREEMENT (the golden test will then fail until the solver is fixed).

The reference search visits up to several million positions for some deals (memory up to ~1 GB per
worker); a whole run takes the better part of an hour on two cores.

    cd /work/main && .venv/bin/python tests/golden/make_verdicts.py            # every preset
    cd /work/main && .venv/bin/python tests/golden/make_verdicts.py classic    # some presets
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
from pyramid_solitaire.solver import solve
from pyramid_solitaire.solver.search import Counter, find_win
from pyramid_solitaire.solver.space import SearchSpace
from pyramid_solitaire.table import Action, Table

OUT_DIR = Path(__file__).with_name("verdicts")
PRESET_NAMES = ("classic", "pyramide", "thirteen", "msc", "traditional", "relaxed", "tuts_tomb", "spanish",
                "fourteen", "overlap", "six_rows", "giza", "reserve", "triangle", "apophis", "limited_waste", "cells")
#: Deal numbers 0 .. DEALS - 1 of the shuffle.
DEALS = 200
#: Seconds per deal for the solver (pure Python here): far above the slowest deal (about ten seconds,
#: but about a minute for deal 28 of ``cells``).
TIME_LIMIT = 300.0
WORKERS = 2


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
    return ["+".join(str(c) for c in table.action_cards(a)) if isinstance(a, tuple)
            else f"{table.cards[a]}>cell" if isinstance(a, int) else a for a in actions]


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
            print(f"{rules}: {wins}/{DEALS} winnable, {time.monotonic() - started:.0f} s wall, slowest deal "
                  f"{slowest.number} ({slowest.seconds:.1f} s)", flush=True)
            for r in lines:
                if r.solver_max != r.max_removed:
                    print(f"  SOLVER DISAGREEMENT {rules} deal {r.number}: max_pyramid_removed is "
                          f"{r.max_removed}, the solver says {r.solver_max}", flush=True)
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

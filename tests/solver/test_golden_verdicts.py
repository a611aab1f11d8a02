"""The solver against the golden verdict files tests/golden/verdicts/<preset>.txt (deals 0..199).

Each line is ``number<TAB>winnable<TAB>max_pyramid_removed``; the files are written by
``tests/golden/make_verdicts.py``, which checks every line independently (see its docstring).  A
failure here means the solver's answer for a deal changed: fix the solver, never the file (unless a
rule was deliberately changed — then regenerate and review the diff, as the script says).

Runtime: ``classic``, ``pyramide``, ``thirteen`` and ``msc`` solve in milliseconds a deal, so all their
deals are checked.  ``traditional`` and ``relaxed`` (one pass with a drawn spot: most deals are lost and
the best-reachable search is long) take about a second a deal, so by default only a fixed subset is
solved: every deal whose number is a multiple of :data:`EXPENSIVE_STEP` plus every deal the file marks
winnable.  Set ``PYRAMID_GOLDEN_ALL=1`` to solve all of them.  The golden files themselves are checked
in full (consistency, below) without the solver.
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

import pytest

from pyramid_solitaire import Deal, Game
from pyramid_solitaire.analysis import dead_slots
from pyramid_solitaire.layout import bits
from pyramid_solitaire.rules import PRESETS
from pyramid_solitaire.solver import solve
from pyramid_solitaire.table import Table

GOLDEN_DIR = Path(__file__).resolve().parents[1] / "golden" / "verdicts"
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
    "apophis",
    "reserve",
    "triangle",
    "limited_waste",
    "cells",
)
DEALS = 200
EXPENSIVE = ("traditional", "relaxed")
EXPENSIVE_STEP = 10
ALL_ENV = "PYRAMID_GOLDEN_ALL"
TIME_LIMIT = 60.0


@cache
def golden(preset: str) -> dict[int, tuple[bool, int]]:
    """deal number → (winnable, max_pyramid_removed) as the file says."""
    out: dict[int, tuple[bool, int]] = {}
    for line in (GOLDEN_DIR / f"{preset}.txt").read_text(encoding="utf-8").splitlines():
        number, winnable, best = line.split("\t")
        assert winnable in ("true", "false"), line
        out[int(number)] = (winnable == "true", int(best))
    return out


def checked_deals(preset: str) -> list[int]:
    """The deals the solver test solves (see the module docstring)."""
    verdicts = golden(preset)
    if preset not in EXPENSIVE or os.environ.get(ALL_ENV):
        return sorted(verdicts)
    return sorted(n for n, (winnable, _) in verdicts.items() if n % EXPENSIVE_STEP == 0 or winnable)


# --- the solver against the files ---------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_solver_gives_the_golden_verdicts(preset: str) -> None:
    verdicts = golden(preset)
    failures = []
    for number in checked_deals(preset):
        deal = Deal.from_number(number, preset)
        result = solve(deal, time_limit=TIME_LIMIT)
        got = (result.winnable, result.max_pyramid_removed)
        if got != verdicts[number]:
            failures.append(f"deal {number}: golden (winnable, max_pyramid_removed) = {verdicts[number]}, solver {got}")
            continue
        game = Game(deal)
        if result.winnable:
            assert result.solution is not None
            for move in result.solution:
                game.push(move)
            if game.status != "won":
                failures.append(f"deal {number}: the solution ends {game.status}, not won")
        else:
            for move in result.best_line or []:
                game.push(move)
            removed = deal.rules.board_size - game.pyramid_left
            if removed != result.max_pyramid_removed:
                failures.append(f"deal {number}: the best line removes {removed}, not {result.max_pyramid_removed}")
    assert not failures, f"{preset}: {len(failures)} deals differ:\n" + "\n".join(failures)


# --- the files themselves (no solver) -------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_golden_file_lists_deals_0_to_199(preset: str) -> None:
    verdicts = golden(preset)
    assert sorted(verdicts) == list(range(len(verdicts)))
    assert len(verdicts) >= DEALS
    assert all(0 <= best <= PRESETS[preset].board_size for _, best in verdicts.values())


def _never_removable(table: Table) -> int:
    """Pyramid slots that can never go, known from the start: each dead card (the engine's analysis)
    and every card it covers, directly or through others."""
    dead = dead_slots(table, table.start(), visible_only=False)
    closed = 0
    todo = bits(dead)
    while todo:
        slot = todo.pop()
        if not closed >> slot & 1:
            closed |= 1 << slot
            todo.extend(bits(table.layout.covers[slot]))
    return closed


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_golden_verdicts_are_consistent_with_the_rules(preset: str) -> None:
    """Won means the whole pyramid removed; a lost deal (relaxed win) leaves a pyramid card; the cards
    a dead card at the deal locks in can never be removed."""
    strict = PRESETS[preset].strict
    size = PRESETS[preset].board_size
    for number, (winnable, best) in golden(preset).items():
        never = _never_removable(Table(Deal.from_number(number, preset))).bit_count()
        if winnable:
            assert best == size and never == 0, number
        elif not strict:
            assert best < size, number
        assert best <= size - never, (number, best, never)


#: (weaker, stronger): every line of play of the first rule set can be played under the second (same
#: cards; the second has at least as many passes and at least the usable cards of the first), so it
#: wins every deal the first wins and removes at least as many pyramid cards.
STRONGER = [
    ("classic", "pyramide"),  # the first card already on the waste; unlimited passes
    ("classic", "msc"),  # the stock top usable as well
    ("classic", "thirteen"),  # a drawn spot as well as the waste top; 4 passes
    ("relaxed", "thirteen"),  # the same stock model; 4 passes instead of 1
    ("traditional", "relaxed"),  # the same play; won already when the pyramid is clear
    ("classic", "cells"),  # a free cell as well
]


@pytest.mark.parametrize(("weaker", "stronger"), STRONGER)
def test_golden_verdicts_grow_with_the_rules(weaker: str, stronger: str) -> None:
    for number in range(DEALS):
        assert Deal.from_number(number, weaker).cards == Deal.from_number(number, stronger).cards
        win_a, best_a = golden(weaker)[number]
        win_b, best_b = golden(stronger)[number]
        assert win_b or not win_a, (number, weaker, stronger)
        assert best_b >= best_a, (number, weaker, best_a, stronger, best_b)


def test_strict_and_relaxed_wins_remove_the_same_pyramid_cards() -> None:
    """``traditional`` and ``relaxed`` play the same moves until the pyramid is clear."""
    for number in range(DEALS):
        assert golden("traditional")[number][1] == golden("relaxed")[number][1], number


def test_triangle_has_the_verdicts_of_classic() -> None:
    """Triangle is the pyramid drawn upside down: the same cover graph, so the same game (its file is
    written by the same independent checks as classic's)."""
    assert golden("triangle") == golden("classic")

"""The verdict's depth-first search: its skip of positions an earlier one reaches by draws alone, and
its loop in C.

* The stronger skip (depth.depth_first_passes) answers as the plain one (depth.depth_first_seen):
  the same verdict and the same best reachable, from the start of deals and from late positions, on
  every rule set it takes — those the C loop takes and those only Python searches (a drawn spot,
  jokers, triples, several waste piles, a free cell).
* The C loop (``_astar.verdict``) expands the same positions in the same order as the Python loop and
  finds the same lines, for the verdict alone and with the best reachable.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from pyramid_solitaire import Deal
from pyramid_solitaire.solver import depth, search
from pyramid_solitaire.solver.counter import CHECK_EVERY, Counter, SearchTimeout
from pyramid_solitaire.solver.search import find_win, win_or_best
from pyramid_solitaire.solver.space import SearchSpace
from pyramid_solitaire.table import Table

DATA = Path(__file__).resolve().parents[2] / "data" / "msc-1500"


def _positions(rules: str, deals: range, late: int) -> list[tuple[Table, int]]:
    """The start of each deal, and ``late`` positions reached by random play with a third of the
    pyramid gone (where lost positions are common and the searches are short)."""
    rng = random.Random(rules)
    out: list[tuple[Table, int]] = []
    for number in deals:
        table = Table(Deal.from_number(number, rules))
        space = SearchSpace(table)
        out.append((table, space.pack(table.start())))
    tries = 0
    while len(out) < len(deals) + late and tries < 50 * late:
        tries += 1
        table = Table(Deal.from_number(rng.randrange(1_000_000), rules))
        space = SearchSpace(table)
        state = space.canonical(space.pack(table.start()))
        for _ in range(rng.randrange(5, 40)):
            moves = space.successors(state)
            if not moves:
                break
            state = rng.choice(moves)[1]
        if space.removed(state) >= space.P // 3 and not space.won(state):
            out.append((table, state))
    return out


#: rule sets the stronger skip takes (limited passes, one card a draw, no limit on waste uses)
PASSES_RULES = [
    "msc",
    "classic",
    "pyramide(passes=3)",
    "msc(passes=1)",
    "classic(passes=2,overlap=true)",
    "classic(strict=true)",
    "classic(strict=true,stock_top=true)",
    "thirteen",
    "thirteen(jokers=2)",
    "thirteen(triples=true)",
    "traditional",
    "relaxed",
    "fourteen",
    "cells",
    "six_rows",
    "reserve",
    "giza",
]


@pytest.mark.parametrize("rules", PASSES_RULES)
def test_the_stronger_skip_answers_as_the_plain_one(rules: str) -> None:
    """Same verdict and same best reachable as the plain search, which skips only positions seen (or
    seen with fewer recycles): on the start of 15 deals and 15 late positions."""
    assert depth.passes_order(SearchSpace(Table(Deal.from_number(0, rules))))
    won = lost = 0
    for table, state in _positions(rules, range(15), 15):
        for question in (find_win, win_or_best):
            stronger, plain = Counter(), Counter()
            line = question(SearchSpace(table), state, stronger, native=False)
            assert (line is None) == (question(SearchSpace(table), state, plain, plain=True) is None)
            assert stronger.best_removed == plain.best_removed
            if question is win_or_best:
                won, lost = won + (line is not None), lost + (line is None)
            if line is not None:  # the line is legal and wins
                position = SearchSpace(table).unpack(state)
                for action in line:
                    assert action in table.actions(position)
                    position = table.apply(position, action)
                assert table.won(position)
    # lost positions on every rule set; won ones too, but where one pass is dealt (few wins)
    assert lost and (won or SearchSpace(table).max_recycles == 0)


def test_the_stronger_skip_searches_fewer_positions_on_a_slow_lost_deal() -> None:
    """msc's slowest lost deal among 100,000 (deal 15,024): the same answer from fewer positions."""
    table = Table(Deal.from_number(15_024, "msc"))
    stronger, plain = Counter(), Counter()
    assert win_or_best(SearchSpace(table), SearchSpace(table).pack(table.start()), stronger) is None
    assert win_or_best(SearchSpace(table), SearchSpace(table).pack(table.start()), plain, plain=True) is None
    assert stronger.best_removed == plain.best_removed == 26
    assert stronger.nodes < plain.nodes


#: rule sets whose verdict the C loop searches
C_RULES = [
    "msc",
    "classic",
    "pyramide",
    "msc(passes=1)",
    "msc(passes=unlimited)",
    "classic(passes=2,overlap=true)",
    "msc(stock_waste_pairs=false)",
    "msc(target=14,lone_kings=false)",
    "classic(strict=true,stock_top=true)",
    "six_rows",
    "thirteen",
    "relaxed",
    "traditional",
]


@pytest.mark.skipif(search._C_VERDICT is None, reason="the C loop of the verdict is not built")
@pytest.mark.parametrize("rules", C_RULES)
def test_c_loop_searches_as_the_python_loop(rules: str) -> None:
    """Positions expanded, lines and best reachable (and its line) are the Python loop's."""
    positions = _positions(rules, range(12), 12)
    assert search._c_verdict_fits(SearchSpace(positions[0][0]))
    for table, state in positions:
        for question in (find_win, win_or_best):
            in_c, in_python = Counter(), Counter()
            line = question(SearchSpace(table), state, in_c)
            assert line == question(SearchSpace(table), state, in_python, native=False)
            assert in_c.nodes == in_python.nodes
            assert in_c.best_removed == in_python.best_removed
            assert in_c.best_line == in_python.best_line


@pytest.mark.skipif(search._C_VERDICT is None, reason="the C loop of the verdict is not built")
@pytest.mark.parametrize("index", [0, 2, 10, 107])
def test_c_loop_on_msc_1500(index: int) -> None:
    decks = (DATA / "random-decks.txt").read_text().splitlines()
    table = Table(Deal.from_notation(decks[index], "msc"))
    start = SearchSpace(table).pack(table.start())
    in_c, in_python = Counter(), Counter()
    line = win_or_best(SearchSpace(table), start, in_c)
    assert line == win_or_best(SearchSpace(table), start, in_python, native=False)
    assert in_c.nodes == in_python.nodes > 0
    assert in_c.best_removed == in_python.best_removed


def test_strict_rules_with_one_stock_card_stay_in_python() -> None:
    """Their starved-stock cut is SearchSpace.hopeless's own; the C loop does not take them."""
    assert not search._c_verdict_fits(SearchSpace(Table(Deal.from_number(0, "classic(strict=true)"))))


@pytest.mark.skipif(search._C_VERDICT is None, reason="the C loop of the verdict is not built")
def test_c_loop_stops_at_the_deadline() -> None:
    """The counter's deadline stops the C loop (SearchTimeout) after the positions it counts."""
    table = Table(Deal.from_number(15_024, "msc"))
    space = SearchSpace(table)
    counter = Counter(deadline=0.0, clock=lambda: 1.0)
    with pytest.raises(SearchTimeout):
        win_or_best(space, space.pack(table.start()), counter)
    assert counter.nodes == CHECK_EVERY

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
from collections.abc import Iterator
from itertools import chain, islice
from pathlib import Path

import pytest
from rule_sets import of_kind

from pyramid_solitaire import Deal
from pyramid_solitaire.solver import depth, search
from pyramid_solitaire.solver.counter import CHECK_EVERY, BudgetSpent, Counter, SearchTimeout
from pyramid_solitaire.solver.search import find_win, win_or_best
from pyramid_solitaire.solver.space import SearchSpace
from pyramid_solitaire.table import Table

DATA = Path(__file__).resolve().parents[2] / "data" / "msc-1500"


def _late(rules: str) -> Iterator[tuple[Table, int]]:
    """Positions reached by random play with a third of the pyramid gone (where lost positions are
    common and the searches are short), until 50 lines in a row reach none."""
    rng = random.Random(rules)
    tries = 0
    while tries < 50:
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
            tries = 0
            yield table, state


def _starts(rules: str, deals: range) -> Iterator[tuple[Table, int]]:
    """The start of each deal."""
    for number in deals:
        table = Table(Deal.from_number(number, rules))
        yield table, SearchSpace(table).pack(table.start())


def _positions(rules: str, deals: range, late: int) -> list[tuple[Table, int]]:
    """The start of each deal, and ``late`` positions of :func:`_late`."""
    return [*_starts(rules, deals), *islice(_late(rules), late)]


#: rule sets the stronger skip takes (limited passes, one card a draw, no limit on waste uses)
PASSES_RULES = of_kind(depth.passes_order)
#: deals searched from their start, and late positions, per rule set; more late positions, up to
#: MAX_PASSES_POSITIONS in all, while either verdict is missing (six rows are rarely lost)
PASSES_DEALS, MAX_PASSES_POSITIONS = 5, 40


@pytest.mark.parametrize("rules", PASSES_RULES)
def test_the_stronger_skip_answers_as_the_plain_one(rules: str) -> None:
    """Same verdict and same best reachable as the plain search, which skips only positions seen (or
    seen with fewer recycles): on the start of PASSES_DEALS deals and as many late positions, or more
    while either verdict is missing."""
    won = lost = 0
    positions = chain(_starts(rules, range(PASSES_DEALS)), _late(rules))
    for checked, (table, state) in enumerate(islice(positions, MAX_PASSES_POSITIONS)):
        if checked >= 2 * PASSES_DEALS and won and lost:
            break
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
    # both verdicts, but where wins are few (one pass dealt, or the stock to clear too) or losses are
    # (free cells)
    space = SearchSpace(table)
    assert lost or space.cells
    assert won or space.max_recycles == 0 or space.strict


def test_the_stronger_skip_searches_fewer_positions_on_a_slow_lost_deal() -> None:
    """msc's slowest lost deal among 100,000 (deal 15,024): the same answer from fewer positions."""
    table = Table(Deal.from_number(15_024, "msc"))
    stronger, plain = Counter(), Counter()
    assert win_or_best(SearchSpace(table), SearchSpace(table).pack(table.start()), stronger) is None
    assert win_or_best(SearchSpace(table), SearchSpace(table).pack(table.start()), plain, plain=True) is None
    assert stronger.best_removed == plain.best_removed == 26
    assert stronger.nodes < plain.nodes


#: rule sets whose verdict the C loop searches
C_RULES = of_kind(search._c_verdict_fits)
#: deals searched from their start, and late positions, per rule set
C_DEALS = 6


@pytest.mark.skipif(search._C_VERDICT is None, reason="the C loop of the verdict is not built")
@pytest.mark.parametrize("rules", C_RULES)
def test_c_loop_searches_as_the_python_loop(rules: str) -> None:
    """Positions expanded, lines and best reachable (and its line) are the Python loop's."""
    positions = _positions(rules, range(C_DEALS), C_DEALS)
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


@pytest.mark.skipif(search._C_VERDICT is None, reason="the C loop of the verdict is not built")
@pytest.mark.parametrize(("code", "budget"), [("MS1-R-AAAAWFW", 100_000), ("FC1-R-AAAAABC", 20_000)])
def test_c_loop_stopped_keeps_the_best_line_it_saw(code: str, budget: int) -> None:
    """A search the time (here: the budget) stops still tells how far its lines went: the C loop kept its
    best to itself, so a deal that ran out of time read "best 0" after a million positions."""
    table = Table(Deal.from_code(code))
    space = SearchSpace(table)
    counter = Counter(budget=budget)
    with pytest.raises(BudgetSpent):
        win_or_best(space, space.pack(table.start()), counter)
    assert counter.nodes > budget
    assert 0 < counter.best_removed < table.board_size
    state = space.pack(table.start())
    for action in counter.best_line:  # the line kept removes that many pyramid cards
        state = next(after for done, after in space.successors(state) if done == action)
    assert space.removed(state) == counter.best_removed

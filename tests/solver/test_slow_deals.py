"""The regression set of slow deals: the slowest fresh deals the solver ever met, solved again in every
run.

``data/slow_deals.json`` holds the slowest 20 of 20,000 fresh msc deals (numbers 1,000,000 onwards of
the shuffle) for the solver before issue 36 and the slowest 20 after it (``benchmarks/tail.py
--slowest``; the two lists share four deals, and agreed on them), and the lost deal issue 36 reported;
then the slowest fresh ``six_rows`` and ``classic`` deals of ``benchmarks/tail.py --rules six_rows
--rules classic --deals 2000`` before the last-pass terms of the bound and after them (three runs, at
648c100, a56ffb8 and 3653758, that agreed on every answer).
Their verdicts, best reachable and shortest lengths were found by the solver both times; each deal here
is solved both ways a caller asks (``solve`` and ``solve(shortest=True)``), and the answers must be
those, with a winning line that wins when replayed.  Times are not asserted: docs/performance.md keeps
them, with the command that measures them.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pyramid_solitaire import Deal, Game
from pyramid_solitaire.solver import solve

SLOW = json.loads((Path(__file__).parent / "data" / "slow_deals.json").read_text())


def test_the_set_holds_both_kinds_and_the_reported_deal() -> None:
    assert len(SLOW) >= 36
    assert {row["verdict"] for row in SLOW} == {"won", "lost"}
    assert SLOW[0]["code"].startswith("MS1-X-")  # the deal of the issue, written out card by card
    assert {str(row["code"])[:3] for row in SLOW} == {"MS1", "SR1", "CL1"}


@pytest.mark.parametrize("row", SLOW, ids=[row["code"] for row in SLOW])
def test_slow_deal(row: dict[str, object]) -> None:
    deal = Deal.from_code(str(row["code"]))
    verdict = solve(deal)
    shortest = solve(deal, shortest=True)
    assert verdict.winnable is shortest.winnable is (row["verdict"] == "won")
    assert verdict.max_pyramid_removed == shortest.max_pyramid_removed == row["best"]
    assert shortest.length == row["length"]
    for result in (verdict, shortest):
        line = result.solution if result.winnable else result.best_line
        assert line is not None
        game = Game(deal)
        dealt = game.pyramid_left  # 28, or 21 in six_rows
        for move in line:
            game.push(move)
        assert dealt - game.pyramid_left == result.max_pyramid_removed
        assert (game.status == "won") == bool(result.winnable)


def test_a_won_deal_the_verdict_wanders_on_gets_its_shortest_line_from_a_star_early() -> None:
    """AACFTHA: the verdict's depth-first search passes 1.8 M positions before its first win, A* finds
    the shortest line in under 40 k.  solve(shortest=True) stops the verdict at its budget and lets A*
    try first, so it expands a small share of what the verdict alone does, and finds the same length."""
    row = next(row for row in SLOW if str(row["code"]).endswith("AACFTHA"))
    deal = Deal.from_code(str(row["code"]))
    verdict = solve(deal)
    shortest = solve(deal, shortest=True)
    assert verdict.nodes > 1_000_000
    assert shortest.nodes < 200_000
    assert shortest.length == row["length"]


def test_a_budget_stops_a_search_past_it_and_not_before() -> None:
    from pyramid_solitaire.solver.counter import BudgetSpent, Counter

    counter = Counter(budget=1_000)
    with pytest.raises(BudgetSpent):
        counter.advance(1_024)
    counter = Counter(budget=10_000)
    counter.advance(1_024)
    assert counter.nodes == 1_024

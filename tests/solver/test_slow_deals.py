"""The regression set of slow deals: the slowest fresh deals the solver ever met, solved again in every
run.

``data/slow_deals.json`` holds the slowest 20 of 20,000 fresh msc deals (numbers 1,000,000 onwards of
the shuffle) for the solver before issue 36 and the slowest 20 after it (``benchmarks/tail.py
--slowest``; the two lists share four deals, and agreed on them), and the lost deal issue 36 reported.
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
        for move in line:
            game.push(move)
        assert 28 - game.pyramid_left == result.max_pyramid_removed
        assert (game.status == "won") == bool(result.winnable)

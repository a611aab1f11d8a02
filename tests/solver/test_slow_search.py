"""The solver against an independent exhaustive search (``slow_search.py``) on small positions.

The slow search asks only the engine's rules (``Table.actions`` / ``apply`` / ``won``) and keeps a plain
set of positions: no pruning, no heuristics.  It is only practical from small positions, so each rule set
(every one of ``rule_sets.py``'s) gets COUNT positions reached by random lines of play from the start of
random deals (late in the game or shortly before a dead end); on each, the solver's verdict and
``max_pyramid_removed`` must equal the slow search's, and a winning solution must replay legally from
the position to a won one.  A failure names the rules, the deal number and the line of moves that
reaches the position (replay it with ``slow_search.replay_line``).
"""

from __future__ import annotations

import pytest
from rule_sets import of_kind, with_each
from slow_search import SmallCase, action_of, replay_line, slow_search, small_positions

from pyramid_solitaire import Deal
from pyramid_solitaire.packed import Position
from pyramid_solitaire.solver import SolveResult, solve_position
from pyramid_solitaire.solver.space import SearchSpace
from pyramid_solitaire.table import Table

RULE_SETS = of_kind(lambda space: True)
#: Positions per rule set, and the fewest of each verdict the positions are looked for until (a rule set
#: rarely won, strict or with few waste uses on several waste piles, may give only one win in all the
#: attempts: every set must hold both verdicts).
COUNT = 16
MIN_EACH = 4
TIME_LIMIT = 30.0


def _replay(table: Table, pos: Position, moves: list[str]) -> tuple[Position, str | None]:
    """Play ``moves`` from ``pos`` through the table; the final position, or why a move is illegal."""
    for index, text in enumerate(moves):
        action = action_of(table, text)
        if action not in table.actions(pos):
            return pos, f"move {index + 1} ({text}) is not legal there"
        pos = table.apply(pos, action)
    return pos, None


def _problems(case: SmallCase, result: SolveResult) -> list[str]:
    table, size = case.table, case.table.board_size
    expected = case.expected
    if result.winnable is None:
        return [f"solver timed out after {TIME_LIMIT} s"]
    out = []
    if result.winnable != expected.winnable:
        out.append(f"winnable: slow search {expected.winnable}, solver {result.winnable}")
    if result.max_pyramid_removed != expected.max_pyramid_removed:
        out.append(
            f"max_pyramid_removed: slow search {expected.max_pyramid_removed}, solver {result.max_pyramid_removed}"
        )
    if result.winnable:
        assert result.solution is not None
        end, illegal = _replay(table, case.position, [str(m) for m in result.solution])
        if illegal or not table.won(end):
            out.append(f"solution {'; '.join(map(str, result.solution))}: {illegal or 'does not end won'}")
    else:
        # the solver's own best line must reach what it claims
        end, illegal = _replay(table, case.position, [str(m) for m in result.best_line or []])
        reached = size - table.pyramid_left(end)
        if illegal or reached != result.max_pyramid_removed:
            out.append(f"best line reaches {reached} (claims {result.max_pyramid_removed}) {illegal or ''}")
    return out


@pytest.mark.parametrize("rules", RULE_SETS)
def test_solver_agrees_with_the_slow_search_on_small_positions(rules: str) -> None:
    cases = small_positions(rules, COUNT, min_each=MIN_EACH)
    assert len(cases) >= COUNT * 9 // 10, f"only {len(cases)} small positions found"
    winnable = sum(1 for c in cases if c.expected.winnable)
    assert winnable and len(cases) - winnable, (
        f"{winnable} winnable and {len(cases) - winnable} unwinnable positions: both verdicts should occur"
    )
    failures = []
    for case in cases:
        problems = _problems(case, solve_position(case.table, case.position, time_limit=TIME_LIMIT))
        if problems:
            failures.append(f"{case.describe()}\n    " + "\n    ".join(problems))
    assert not failures, f"{len(failures)} of {len(cases)} positions disagree:\n" + "\n".join(failures)


@pytest.mark.parametrize("rules", ["classic", "pyramide", "traditional"])
def test_each_small_position_is_reached_again_by_its_line(rules: str) -> None:
    for case in small_positions(rules, COUNT, min_each=MIN_EACH)[:10]:
        table, pos = replay_line(case.rules, case.number, list(case.line))
        assert pos == case.position, case.describe()
        assert table.actions(pos), "a position with no move left is not worth a case"


# --- the oracle itself, on positions small enough to check by hand ---------------------------------------


RANKS = "A23456789TJQK"
#: Rows 1-6 of a pyramid that clears row by row without the stock (each row kings and pairs summing to
#: 13; row 7 below is "Kc Ac Qc 2c Jc 3c Tc"), apex first, and the line that clears it.
CLEARABLE_TOP = "Kh 6d 7d Ks 5d 8d 3d Td 4d 9d Kd Ad Qd 2d Jd 4c 9c 5c 8c 6c 7c"
CLEARING_LINE = [
    "Kc",
    "Ac+Qc",
    "2c+Jc",
    "3c+Tc",
    "4c+9c",
    "5c+8c",
    "6c+7c",
    "Kd",
    "Ad+Qd",
    "2d+Jd",
    "3d+Td",
    "4d+9d",
    "Ks",
    "5d+8d",
    "6d+7d",
    "Kh",
]


def _deal(row7: str, rules: str) -> Deal:
    """The clearable pyramid with ``row7`` as its bottom row, the other cards in plain order after it."""
    pyramid = CLEARABLE_TOP.split() + row7.split()
    rest = [r + s for s in "cdhs" for r in RANKS if r + s not in pyramid]
    return Deal.from_notation(" ".join(pyramid + rest), rules)


def _bottom_row_only(row7: str, rules: str = "classic") -> tuple[Table, Position]:
    """The deal of :func:`_deal`, in a position that keeps only row 7 in the pyramid and nothing in the
    stock, so only pyramid removals are possible."""
    table = Table(_deal(row7, rules))
    row7_mask = sum(1 << slot for slot in range(21, 28))
    return table, Position(row7_mask, 0, 0, 0, 0)


def test_slow_search_wins_when_the_pyramid_pairs_off() -> None:
    table, pos = _bottom_row_only("Kc Ac Qc 2c Jc 3c Tc")
    result = slow_search(table, pos)
    assert (result.winnable, result.max_pyramid_removed) == (True, 28)


def test_slow_search_counts_the_most_cards_removed_when_one_is_left() -> None:
    # Tc is replaced by 4h, which pairs with nothing in the row, so 3c and 4h stay
    table, pos = _bottom_row_only("Kc Ac Qc 2c Jc 3c 4h")
    result = slow_search(table, pos)
    assert (result.winnable, result.max_pyramid_removed) == (False, 21 + 5)


def test_slow_search_clears_the_whole_clearable_pyramid_without_a_stock() -> None:
    table = Table(_deal("Kc Ac Qc 2c Jc 3c Tc", "classic"))
    pos = table.start()._replace(stock=0)
    result = slow_search(table, pos)
    assert result.winnable and result.max_pyramid_removed == 28
    end, illegal = _replay(table, pos, CLEARING_LINE)
    assert illegal is None and table.won(end)


def test_slow_search_with_unlimited_passes_ends() -> None:
    """With unlimited passes, positions differing only in the recycle count are one position."""
    table, pos = _bottom_row_only("Kc Ac Qc 2c Jc 3c 4h", "pyramide")
    pos = pos._replace(stock=0b111, ptr=0)  # three stock cards to cycle through forever
    result = slow_search(table, pos)
    assert not result.winnable
    assert result.positions < 1000


#: strict rules with one usable stock-side card (and a stock), with each number of passes
STARVED_RULE_SETS = [
    rules
    for first in of_kind(lambda space: space.one_stock_card and space.S > 0)
    for rules in with_each(first, "passes")
]


@pytest.mark.parametrize("rules", STARVED_RULE_SETS)
def test_the_starved_stock_cut_agrees_with_the_slow_search(rules: str) -> None:
    """Strict rules with one usable stock-side card: a position is cut when a stock card has fewer
    pyramid partners left than cards of its value.  Small random positions are rarely won under these
    rules, so this asks for agreement everywhere and for the cut to have been tried, not for both
    verdicts."""
    cases = small_positions(rules, 60)
    starved = 0
    failures = []
    for case in cases:
        space = SearchSpace(case.table)
        state = space.pack(case.position)
        if space.hopeless(state) and space.relaxed_max(state & space.pyramid_full, space.bag(state)) == space.P:
            starved += 1  # cut by the stock rule alone
            assert not case.expected.winnable, case.describe()
        problems = _problems(case, solve_position(case.table, case.position, time_limit=TIME_LIMIT))
        if problems:
            failures.append(f"{case.describe()}\n    " + "\n    ".join(problems))
    assert not failures, f"{len(failures)} of {len(cases)} positions disagree:\n" + "\n".join(failures)
    assert starved >= 3, f"the cut decided only {starved} of {len(cases)} starting positions"

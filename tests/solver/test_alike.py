"""Positions keyed by the values of their stock side (``Packing.alike``), as the shortest search with
free cells keys them: what play reads of a position is kept, and the search finds the same lengths
in fewer positions, with lines that are legal from the real position."""

from __future__ import annotations

import random

import pytest

from pyramid_solitaire import Deal
from pyramid_solitaire.solver.counter import Counter
from pyramid_solitaire.solver.search import _alike, shortest_win
from pyramid_solitaire.solver.space import SearchSpace
from pyramid_solitaire.table import Table

#: rule sets with free cells that the wide C loop takes (search._c_cells_fit): one and two cells, one
#: and three cards a draw, one pass, a win of all 52 cards
ALIKE_RULES = [
    "cells",
    "classic(cells=2)",
    "tuts_tomb(cells=1)",
    "classic(cells=1,passes=1)",
    "classic(cells=1,strict=true)",
]


def _read(space: SearchSpace, state: int) -> tuple[object, ...]:
    """What play reads of a position: the pyramid, the values of the waste and of the cards ahead in
    order, the parked pyramid cards, the values of the parked stock cards, the recycles done."""
    stock = state >> space.stock_shift & space.stock_mask
    ptr = state >> space.ptr_shift & 63
    values = space.stock_values
    cells = state >> space.cell_shift
    return (
        state & space.pyramid_full,
        [values[i] for i in range(ptr) if stock >> i & 1],
        [values[i] for i in range(ptr, space.S) if stock >> i & 1],
        cells & space.pyramid_full,
        sorted(values[i] for i in range(space.S) if cells >> (space.P + i) & 1),
        state >> space.rec_shift & space.rec_mask,
    )


@pytest.mark.parametrize("rules", ALIKE_RULES)
def test_a_position_and_its_alike_play_the_same(rules: str) -> None:
    rng = random.Random(rules)
    checked = merged = 0
    for number in range(3):
        table = Table(Deal.from_number(number, rules))
        space = SearchSpace(table)
        assert _alike(space)
        start = space.canonical(space.pack(table.start()))
        assert space.alike(start) == start  # nothing gone yet: nothing to lay otherwise
        for _ in range(40):
            state = start
            for _ in range(50):
                moves = space.successors(state, shortest=True)
                if not moves:
                    break
                state = rng.choice(moves)[1]
                alike = space.alike(state)
                assert space.alike(alike) == alike
                assert space.canonical(alike) == alike
                assert _read(space, alike) == _read(space, state)
                # the same moves, up to which card of a value they take
                assert sorted(space.alike(after) for _, after in space.successors(state, shortest=True)) == sorted(
                    space.alike(after) for _, after in space.successors(alike, shortest=True)
                )
                assert space.steps_bound(alike) == space.steps_bound(state)
                assert space.hopeless(alike) == space.hopeless(state)
                checked += 1
                merged += alike != state
    assert checked > 1000
    assert merged, "no position had another card of a value gone: nothing was compared"


def _replays_to_a_win(table: Table, state: int, line: list[object]) -> bool:
    """Play ``line`` through the engine from ``state``: every action legal, and the deal won."""
    pos = SearchSpace(table).unpack(state)
    for action in line:
        assert action in table.actions(pos)
        pos = table.apply(pos, action)
    return table.won(pos)


@pytest.mark.parametrize(
    ("rules", "number"), [("cells", 2), ("cells", 5), ("classic(cells=2)", 2), ("tuts_tomb(cells=1)", 2)]
)
def test_alike_keys_find_the_same_shortest_line_length_in_no_more_positions(rules: str, number: int) -> None:
    """From the deal's start and from a position part way through it (a hint's question), where
    cards of a value have gone in another order than the search's keys say."""
    table = Table(Deal.from_number(number, rules))
    rng = random.Random(number)
    start = SearchSpace(table).pack(table.start())
    later = start
    for _ in range(12):
        moves = SearchSpace(table).successors(later, shortest=True)
        later = rng.choice([after for action, after in moves if action != "recycle"] or [later])
    fewer = False
    for state in (start, later):
        lengths, positions = [], []
        for alike in (False, True):
            space = SearchSpace(table)
            space.alike_keys = alike
            counter = Counter()
            line = shortest_win(space, state, counter)
            assert line is not None
            assert _replays_to_a_win(table, state, line)
            lengths.append(len(line))
            positions.append(counter.nodes)
        assert lengths[0] == lengths[1]
        assert positions[1] <= positions[0]
        fewer = fewer or positions[1] < positions[0]
    assert fewer, "the keys merged no position on this deal"


def test_alike_keys_only_where_the_wide_loop_takes_the_rule_set() -> None:
    """A usable stock top (msc) or a drawn spot reads the stock side otherwise: no such keys there, nor
    without free cells."""
    for rules, expected in (("cells", True), ("msc(cells=1)", False), ("relaxed(cells=1)", False), ("classic", False)):
        assert _alike(SearchSpace(Table(Deal.from_number(0, rules)))) is expected, rules

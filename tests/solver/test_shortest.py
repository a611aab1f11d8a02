"""Shortest solutions: the A* lower bound never overestimates, and A* matches breadth-first search.

Breadth-first search can only check late positions (few pyramid cards left); along the shortest lines
of msc-1500 deals, whose lengths the data set gives, the bound is checked from the very first step."""

from __future__ import annotations

import json
import random
from collections import deque
from pathlib import Path

import pytest

from pyramid_solitaire import Deal
from pyramid_solitaire.solver import search, solve
from pyramid_solitaire.solver.counter import CHECK_EVERY, Counter, SearchTimeout
from pyramid_solitaire.solver.search import shortest_win
from pyramid_solitaire.solver.space import SearchSpace
from pyramid_solitaire.table import Table


def _bfs_distance(generic: SearchSpace, start: int, limit: int = 200_000) -> int | None:
    """Fewest steps to a win by breadth-first search over the engine's own actions (no cuts)."""
    seen = {start}
    queue = deque([(start, 0)])
    while queue:
        state, steps = queue.popleft()
        if generic.won(state):
            return steps
        for _, after in generic.successors(state):
            if after not in seen:
                seen.add(after)
                queue.append((after, steps + 1))
        assert len(seen) < limit, "position too large for the test"
    return None


def _late_positions(rules: str, count: int) -> list[tuple[Table, int]]:
    """Positions reached by random play with at most 9 pyramid cards left."""
    rng = random.Random(rules)
    out: list[tuple[Table, int]] = []
    number = 0
    while len(out) < count:
        table = Table(Deal.from_number(number, rules))
        number += 1
        generic = SearchSpace(table, generic=True)
        state = generic.canonical(generic.pack(table.start()))
        for _ in range(400):
            successors = generic.successors(state)
            if not successors or generic.won(state):
                break
            removals = [s for a, s in successors if isinstance(a, tuple)]
            state = rng.choice(removals) if removals and rng.random() < 0.7 else rng.choice(successors)[1]
            if (state & generic.pyramid_full).bit_count() <= 9:
                out.append((table, state))
                break
    return out


@pytest.mark.parametrize(
    ("rules", "count"),
    [
        ("msc", 120),
        ("classic", 40),
        ("pyramide", 40),
        ("thirteen", 60),
        ("thirteen(passes=2)", 60),
        ("relaxed", 400),
        ("classic(passes=2)", 40),
        ("msc(passes=unlimited)", 40),
        ("msc(passes=2)", 60),
        ("msc(passes=1)", 200),
        ("msc(stock_waste_pairs=false)", 40),
        ("classic(target=14,lone_kings=false)", 40),
        ("msc(target=14,lone_kings=false)", 40),
        ("tuts_tomb", 40),
    ],
)
def test_lower_bound_is_admissible_and_astar_is_optimal(rules: str, count: int) -> None:
    solved = 0
    for table, state in _late_positions(rules, count):
        generic = SearchSpace(table, generic=True)
        fast = SearchSpace(table)
        truth = _bfs_distance(generic, state)
        line = shortest_win(fast, state, Counter())
        if truth is None:
            assert line is None
            continue
        solved += 1
        assert fast.steps_bound(state) <= truth
        assert line is not None and len(line) == truth
        # the bound holds all along the optimal line too
        current = state
        for done, action in enumerate(line):
            assert fast.steps_bound(current) <= truth - done
            current = next(s for a, s in fast.successors(current, shortest=True) if a == action)
    assert solved >= 3


#: free cells (the Python loop): the bound counts a park where a pair lies apart, the sweeps run, and a
#: park is followed only by a move that needs it (SearchSpace.after_park) — with one cell
CELL_RULES = [
    ("cells", 60),
    ("msc(cells=1)", 40),
    ("thirteen(cells=1)", 40),
    ("relaxed(cells=1)", 40),
    ("classic(cells=1,passes=1)", 40),
    ("classic(cells=1,target=14,lone_kings=false)", 40),
]


@pytest.mark.parametrize(("rules", "count"), CELL_RULES)
def test_with_free_cells_the_bound_is_admissible_and_astar_is_optimal(rules: str, count: int) -> None:
    """As above, with free cells, and the line found replays through the engine to a win."""
    solved = parked = 0
    for table, state in _late_positions(rules, count):
        generic = SearchSpace(table, generic=True)
        fast = SearchSpace(table)
        truth = _bfs_distance(generic, state, limit=2_000_000)
        line = shortest_win(fast, state, Counter())
        if truth is None:
            assert line is None
            continue
        solved += 1
        assert line is not None and len(line) == truth
        pos = generic.unpack(state)
        for done, action in enumerate(line):
            assert fast.steps_bound(fast.pack(pos)) <= truth - done
            assert action in table.actions(pos)
            parked += isinstance(action, int)
            pos = table.apply(pos, action)
        assert table.won(pos)
    assert solved >= 3
    assert parked, "no shortest line parked a card: the parks were never checked"


def test_with_two_cells_the_bound_is_admissible() -> None:
    """Two cells (every park's follow-up is searched there): the bound and A* against breadth-first
    search on positions with few cards left."""
    solved = 0
    rng = random.Random(2)
    for table, late in _late_positions("classic(cells=2,passes=1)", 40):
        generic = SearchSpace(table, generic=True)
        fast = SearchSpace(table)
        state = late
        while (state & generic.pyramid_full).bit_count() > 6 and generic.successors(state):
            removals = [s for a, s in generic.successors(state) if isinstance(a, tuple)]
            state = rng.choice(removals) if removals else rng.choice(generic.successors(state))[1]
        truth = _bfs_distance(generic, state, limit=2_000_000)
        line = shortest_win(fast, state, Counter())
        assert (line is None) == (truth is None)
        if truth is not None and line is not None:
            solved += 1
            assert fast.steps_bound(state) <= truth == len(line)
    assert solved >= 3


DATA = Path(__file__).resolve().parents[2] / "data" / "msc-1500"


@pytest.mark.parametrize("index", [0, 12, 22, 26, 29])
def test_lower_bound_along_shortest_msc_lines(index: int) -> None:
    """A shortest line of the data set's length leaves exactly ``length - done`` steps after ``done``
    of its steps, so the bound may never exceed that anywhere along it (all 28 cards at the start)."""
    decks = (DATA / "random-decks.txt").read_text().splitlines()
    lengths = [int(x) for x in (DATA / "random-deck-solution-lengths.txt").read_text().split()]
    table = Table(Deal.from_notation(decks[index], "msc"))
    space = SearchSpace(table)
    state = space.canonical(space.pack(table.start()))
    line = shortest_win(space, state, Counter())
    assert line is not None and len(line) == lengths[index]
    for done, action in enumerate(line):
        assert space.steps_bound(state) <= lengths[index] - done, (index, done)
        state = next(s for a, s in space.successors(state, shortest=True) if a == action)
    assert space.won(state)


C_RULES = [
    "msc",
    "classic",
    "pyramide",
    "classic(passes=2)",
    "msc(passes=unlimited)",
    "msc(passes=1)",
    "msc(stock_waste_pairs=false)",
    "msc(target=14,lone_kings=false)",
    "classic(target=14,lone_kings=false)",
    "classic(strict=true)",
    "thirteen",
    "relaxed",
    "traditional",
]


@pytest.mark.skipif(search._C_SHORTEST is None, reason="the C loop of the shortest search is not built")
@pytest.mark.parametrize("rules", C_RULES)
def test_c_loop_searches_as_the_python_loop(rules: str) -> None:
    """The C loop (``_astar.c``) expands the same positions and finds the same line as the Python one,
    from late positions and from the start of a few deals."""
    starts = _late_positions(rules, 12)
    # a drawn spot's deals take half a million positions and more from the start (thirteen's deal 3:
    # 4.4 M, half a minute in Python): two lost at once and one of 0.5 M
    for number in (0, 1, 2) if Deal.from_number(0, rules).rules.drawn_spot else range(4):
        table = Table(Deal.from_number(number, rules))
        starts.append((table, SearchSpace(table).pack(table.start())))
    assert search._c_search_fits(SearchSpace(starts[0][0]))
    for table, state in starts:
        in_c, in_python = Counter(), Counter()
        line = shortest_win(SearchSpace(table), state, in_c)
        assert line == shortest_win(SearchSpace(table), state, in_python, native=False)
        assert in_c.nodes == in_python.nodes


@pytest.mark.skipif(search._C_SHORTEST is None, reason="the C loop of the shortest search is not built")
@pytest.mark.parametrize("index", [0, 1, 10, 43])
def test_c_loop_on_msc_1500(index: int) -> None:
    decks = (DATA / "random-decks.txt").read_text().splitlines()
    table = Table(Deal.from_notation(decks[index], "msc"))
    start = SearchSpace(table).pack(table.start())
    in_c, in_python = Counter(), Counter()
    line = shortest_win(SearchSpace(table), start, in_c)
    assert line == shortest_win(SearchSpace(table), start, in_python, native=False)
    assert in_c.nodes == in_python.nodes > 0


@pytest.mark.skipif(search._C_SHORTEST is None, reason="the C loop of the shortest search is not built")
def test_c_loop_stops_at_the_deadline() -> None:
    """The counter's deadline stops the C loop as it stops the Python one (SearchTimeout)."""
    decks = (DATA / "random-decks.txt").read_text().splitlines()
    table = Table(Deal.from_notation(decks[107], "msc"))
    space = SearchSpace(table)
    counter = Counter(deadline=0.0, clock=lambda: 1.0)
    with pytest.raises(SearchTimeout):
        shortest_win(space, space.pack(table.start()), counter)
    assert counter.nodes == CHECK_EVERY


@pytest.mark.skipif(search._C_SHORTEST is None, reason="the C loop of the shortest search is not built")
def test_c_relaxed_game_polls_the_deadline() -> None:
    """The relaxed game the C loop plays calls ``space.poll`` for each new position, as the Python one
    does, so a deadline stops it there too."""
    decks = (DATA / "random-decks.txt").read_text().splitlines()
    table = Table(Deal.from_notation(decks[107], "msc"))
    space = SearchSpace(table)
    space.poll = Counter(deadline=0.0, clock=lambda: 1.0).poll
    counter = Counter()
    with pytest.raises(SearchTimeout):
        shortest_win(space, space.pack(table.start()), counter)
    assert 0 < counter.nodes < 100_000


def test_drawn_spot_lengths_are_those_found_with_removal_steps_only() -> None:
    """A drawn spot's bound (the stock-top model's one card back, and the draws each card ahead needs)
    finds the lengths found with a bound of removal steps only, which is admissible at once: the first
    40 thirteen deals and the first 300 relaxed deals, whose shortest lengths the solver of 6d4a71a
    found that way (``data/drawn_spot_lengths.json``; null: no win)."""
    expected = json.loads((Path(__file__).parent / "data" / "drawn_spot_lengths.json").read_text())
    assert len(expected) == 340 and sum(length is not None for length in expected.values()) > 40
    for code, length in expected.items():
        deal = Deal.from_code(code)
        assert deal.rules.drawn_spot
        result = solve(deal, shortest=True, best=False)
        assert result.length == length, code

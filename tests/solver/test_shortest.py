"""Shortest solutions: the A* lower bound never overestimates, and A* matches breadth-first search.

Breadth-first search can only check late positions (few pyramid cards left); along the shortest lines
of msc-1500 deals, whose lengths the data set gives, the bound is checked from the very first step."""

from __future__ import annotations

import json
import random
from collections import deque
from collections.abc import Iterator
from itertools import islice
from pathlib import Path

import pytest
from rule_sets import of_kind

from pyramid_solitaire import Deal
from pyramid_solitaire.solver import search, solve
from pyramid_solitaire.solver.counter import CHECK_EVERY, Counter, SearchTimeout
from pyramid_solitaire.solver.needs import PyramidNeeds
from pyramid_solitaire.solver.search import shortest_win
from pyramid_solitaire.solver.space import SearchSpace
from pyramid_solitaire.table import Table


class TooLarge(Exception):
    """A position with more positions reachable than breadth-first search is given."""


def _bfs_distance(generic: SearchSpace, start: int, limit: int = 200_000) -> int | None:
    """Fewest steps to a win by breadth-first search over the engine's own actions (no cuts); TooLarge
    past ``limit`` positions."""
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
        if len(seen) >= limit:
            raise TooLarge
    return None


def _late_positions(rules: str, keep_jokers: bool = False, cards: int = 9) -> Iterator[tuple[Table, int]]:
    """Positions reached by random play with at most ``cards`` pyramid cards left, one a deal, without
    end; ``keep_jokers``: by play that never uses a joker."""
    rng = random.Random(rules)
    number = 0
    while True:
        table = Table(Deal.from_number(number, rules))
        number += 1
        generic = SearchSpace(table, generic=True)
        state = generic.canonical(generic.pack(table.start()))
        for _ in range(400):
            successors = generic.successors(state)
            if keep_jokers:
                successors = [
                    (a, s) for a, s in successors if not (isinstance(a, tuple) and max(a) >= table.joker_base)
                ]
            if not successors or generic.won(state):
                break
            removals = [s for a, s in successors if isinstance(a, tuple)]
            state = rng.choice(removals) if removals and rng.random() < 0.7 else rng.choice(successors)[1]
            if (state & generic.pyramid_full).bit_count() <= cards:
                yield table, state
                break


#: every rule set but those with free cells, whose parks multiply the positions breadth-first search
#: must go through
BFS_RULES = [
    *of_kind(lambda space: not space.cells),
    # the waste-top bound's recycle terms with more passes on the smaller pyramid and with overlap pairs
    "overlap(passes=2)",
    "six_rows(passes=unlimited)",
]
#: late positions checked per rule set at least, and at most while fewer than MIN_SOLVED are won (a
#: position too large for breadth-first search is passed over)
LATE, MAX_LATE, MIN_SOLVED = 20, 600, 3
#: the rule sets the C loop takes
C_RULES = of_kind(search._c_search_fits)


@pytest.mark.parametrize("rules", BFS_RULES)
def test_lower_bound_is_admissible_and_astar_is_optimal(rules: str) -> None:
    """On LATE positions (more, up to MAX_LATE, while fewer than MIN_SOLVED of them are won)."""
    solved = 0
    for checked, (table, state) in enumerate(islice(_late_positions(rules), MAX_LATE)):
        if checked >= LATE and solved >= MIN_SOLVED:
            break
        generic = SearchSpace(table, generic=True)
        fast = SearchSpace(table)
        try:
            truth = _bfs_distance(generic, state)
        except TooLarge:
            continue
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
    # where the win must clear the stock too, late positions are rarely won: they check the losses
    assert solved >= MIN_SOLVED or SearchSpace(Table(Deal.from_number(0, rules))).strict


@pytest.mark.parametrize(
    "rules", ["thirteen(jokers=1)", "thirteen(jokers=2)", "classic(jokers=1)", "classic(jokers=2)"]
)
def test_with_jokers_left_the_bound_is_admissible(rules: str) -> None:
    """With jokers still to play, each may stand in for one stock card the pyramid needs (sweeps.with_jokers):
    the bound never passes the shortest length from late positions that keep their jokers, nor along the
    shortest line from them; and it counts more than the removal steps on some of them (the sweeps run)."""
    solved = above_removals = 0
    for checked, (table, state) in enumerate(islice(_late_positions(rules, keep_jokers=True), MAX_LATE)):
        if checked >= LATE and solved >= MIN_SOLVED:
            break
        fast = SearchSpace(table)
        try:
            truth = _bfs_distance(SearchSpace(table, generic=True), state)
        except TooLarge:
            continue
        if truth is None:
            continue
        solved += 1
        line = shortest_win(fast, state, Counter())
        assert line is not None and len(line) == truth
        current = state
        for done, action in enumerate(line):
            assert fast.steps_bound(current) <= truth - done
            current = next(s for a, s in fast.successors(current, shortest=True) if a == action)
        pyramid = state & fast.pyramid_full
        above_removals += fast.steps_bound(state) > PyramidNeeds(fast).steps(pyramid, 0).total
    assert solved >= MIN_SOLVED
    assert above_removals


#: free cells (the Python loop): the bound counts a park where a pair lies apart, the sweeps run, and
#: with one cell a park is followed only by a move that needs it (SearchSpace.after_park); besides the
#: generated rule sets, the stock models the bases do not give (msc's usable stock top, relaxed's drawn
#: spot), one pass, and a target without lone kings
ONE_CELL_RULES = [
    *of_kind(lambda space: space.cells == 1),
    "msc(cells=1)",
    "relaxed(cells=1)",
    "classic(cells=1,passes=1)",
    "classic(cells=1,target=14,lone_kings=false)",
]
#: with free cells breadth-first search goes through every park: it is given more positions
CELL_BFS_LIMIT = 2_000_000


@pytest.mark.parametrize("rules", ONE_CELL_RULES)
def test_with_free_cells_the_bound_is_admissible_and_astar_is_optimal(rules: str) -> None:
    """As above, with one free cell, and the line found replays through the engine to a win."""
    solved = checked = 0
    parked = False
    for table, state in islice(_late_positions(rules), MAX_LATE):
        if checked >= LATE and solved >= MIN_SOLVED and parked:
            break
        generic = SearchSpace(table, generic=True)
        fast = SearchSpace(table)
        try:
            truth = _bfs_distance(generic, state, limit=CELL_BFS_LIMIT)
        except TooLarge:
            continue
        checked += 1
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
            parked = parked or isinstance(action, int)
            pos = table.apply(pos, action)
        assert table.won(pos)
    strict = SearchSpace(Table(Deal.from_number(0, rules))).strict
    assert solved >= MIN_SOLVED or strict
    assert parked or strict, "no shortest line parked a card: the parks were never checked"


@pytest.mark.parametrize("rules", of_kind(lambda space: space.cells > 1))
def test_with_more_cells_the_bound_is_admissible(rules: str) -> None:
    """Two cells or more (every park's follow-up is searched there): the bound and A* against
    breadth-first search on positions with few cards left."""
    solved = 0
    rng = random.Random(rules)
    for table, late in islice(_late_positions(rules), LATE):
        generic = SearchSpace(table, generic=True)
        fast = SearchSpace(table)
        state = late
        while (state & generic.pyramid_full).bit_count() > 6 and generic.successors(state):
            removals = [s for a, s in generic.successors(state) if isinstance(a, tuple)]
            state = rng.choice(removals) if removals else rng.choice(generic.successors(state))[1]
        try:
            truth = _bfs_distance(generic, state, limit=CELL_BFS_LIMIT)
        except TooLarge:
            continue
        line = shortest_win(fast, state, Counter())
        assert (line is None) == (truth is None)
        if truth is not None and line is not None:
            solved += 1
            assert fast.steps_bound(state) <= truth == len(line)
    assert solved >= MIN_SOLVED


@pytest.mark.parametrize("rules", of_kind(lambda space: space.prefix_draws))
def test_draws_before_the_pyramid_can_be_cleared_never_overestimate(rules: str) -> None:
    """SearchSpace.draws_bound, which A* asks of the positions it takes after a recycle, against
    breadth-first search from late positions after a recycle: never above the true distance, and
    above the plain bound on some of them (else this would check nothing)."""
    checked = raised = 0
    for table, state in islice(_late_positions(rules), 300):
        fast = SearchSpace(table)
        if not state >> fast.rec_shift & fast.rec_mask:
            continue
        try:
            truth = _bfs_distance(SearchSpace(table, generic=True), state, limit=CELL_BFS_LIMIT)
        except TooLarge:
            continue
        if truth is None:
            continue
        bound = fast.steps_bound(state)
        more = fast.draws_bound(state, bound)
        assert bound <= more <= truth
        line = shortest_win(fast, state, Counter())
        assert line is not None and len(line) == truth
        checked += 1
        raised += more > bound
        if checked >= LATE and raised >= 2:
            break
    assert checked >= MIN_SOLVED and raised >= 1, f"{checked} positions after a recycle, {raised} raised"


@pytest.mark.skipif(search._C_SHORTEST is None, reason="the C loop of the shortest search is not built")
def test_both_loops_raise_positions_taken_after_a_recycle_alike() -> None:
    """FC1-R-AAAAAAS (``cells``, won in 50 steps): A* takes positions after a recycle whose
    draws_bound is above their bound and puts them back; the C loop and the Python loop do the same
    (the same positions, the same line), and take fewer positions than without it, for as short a
    line."""
    table = Table(Deal.from_code("FC1-R-AAAAAAS"))
    start = SearchSpace(table).pack(table.start())
    found = {}
    for native in (True, False):
        counter = Counter()
        found[native] = (shortest_win(SearchSpace(table), start, counter, native=native), counter.nodes)
    assert found[True] == found[False]
    line, nodes = found[True]
    plain = SearchSpace(table)
    plain.prefix_draws = False
    counter = Counter()
    without = shortest_win(plain, start, counter)
    assert line is not None and without is not None and len(line) == len(without) == 50
    assert nodes < counter.nodes


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


@pytest.mark.skipif(search._C_SHORTEST is None, reason="the C loop of the shortest search is not built")
@pytest.mark.parametrize("rules", C_RULES)
def test_c_loop_searches_as_the_python_loop(rules: str) -> None:
    """The C loop (``_astar.c``) expands the same positions and finds the same line as the Python one,
    from late positions and from the start of deal 1 (won on most rule sets: a search of thousands to
    a million positions), or with triples from two positions of up to 20 pyramid cards."""
    starts = list(islice(_late_positions(rules), 12))
    table = Table(Deal.from_number(1, rules))
    # With triples the bound is a third of the pyramid, so A* from a deal's start expands millions of
    # positions: minutes in the Python loop (classic(jokers=1,triples=true): 7 min).  Positions with
    # up to 20 pyramid cards left stand in for it there (tens of thousands to a million positions).
    if SearchSpace(table).triples:
        starts.extend(islice(_late_positions(rules, cards=20), 2))
    else:
        starts.append((table, SearchSpace(table).pack(table.start())))
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


@pytest.mark.skipif(search._C_SHORTEST_CELLS is None, reason="the C loop with free cells is not built")
def test_c_loop_with_cells_stops_at_the_deadline() -> None:
    """The wide build (free cells) stops at the counter's deadline too, on a deal whose search is long
    (FC1-R-AAAAAAB: 937,523 positions)."""
    table = Table(Deal.from_number(1, "cells"))
    space = SearchSpace(table)
    assert search._c_search_fits(space)
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


def test_waste_top_lengths_are_those_of_the_earlier_bound() -> None:
    """Without a usable stock top (classic, overlap, six_rows) the bound counts the cards in front of a
    needed one after a recycle and stops digging the waste where no pyramid card is left to take a
    card: A* finds the lengths it found before (``data/waste_top_lengths.json``: the first 40 deals of
    each with a win, their lengths found by the solver of 3c3e38f); the first 15 of each are solved
    again here."""
    expected = json.loads((Path(__file__).parent / "data" / "waste_top_lengths.json").read_text())
    assert len(expected) == 120
    by_preset: dict[str, list[tuple[str, int]]] = {}
    for code, length in expected.items():
        by_preset.setdefault(Deal.from_code(code).rules.preset, []).append((code, length))
    assert sorted(by_preset) == ["classic", "overlap", "six_rows"]
    for deals in by_preset.values():
        for code, length in deals[:15]:
            assert solve(Deal.from_code(code), shortest=True, best=False).length == length, code


@pytest.mark.parametrize(
    "rules",
    [
        "classic",
        "six_rows",
        "overlap",
        "classic(passes=2)",
        "six_rows(target=14,lone_kings=false)",
        # the last pass's card under all others: the pyramid upside down, and a layout with a reserve row
        "triangle",
        "reserve",
    ],
)
def test_bound_with_the_fewest_recycles_is_admissible(rules: str) -> None:
    """Told the fewest recycles a win from a start takes (``search._fewest_recycles``), the bound stays
    at most the breadth-first distance of every position reached from that start: along the shortest
    line, and along random lines of play from it."""
    rng = random.Random(rules)
    told = 0
    for table, start in islice(_late_positions(rules), 40):
        generic = SearchSpace(table, generic=True)
        fast = SearchSpace(table)
        fewest = search._fewest_recycles(fast, start, Counter(), native=True)
        line = shortest_win(fast, start, Counter())
        if line is None:
            continue
        told += fewest > start >> fast.rec_shift & 15
        fast.set_min_recycles(fewest)
        states = [start]
        for action in line:
            states.append(next(s for a, s in fast.successors(states[-1], shortest=True) if a == action))
        for _ in range(6):
            state = start
            for _ in range(rng.randrange(1, 12)):
                successors = fast.successors(state, shortest=True)
                if not successors:
                    break
                state = rng.choice(successors)[1]
            states.append(state)
        for state in states:
            try:
                truth = _bfs_distance(generic, state)
            except TooLarge:
                continue
            if truth is not None:
                assert fast.steps_bound(state) <= truth, (table.deal.code, state)
        fast.set_min_recycles(0)
    assert told >= 3


@pytest.mark.parametrize(
    ("code", "length", "most"),
    [
        # its top card goes last, with its partner six cards into the turned stock
        ("SR1-R-AAAAAAV", 79, 2),
        # its top card is a king: the card lying on it that goes last is the one counted
        ("SR1-R-AACEXKN", 82, 1),
    ],
)
def test_bound_counts_the_last_pass_before_the_pyramids_last_card(code: str, length: int, most: int) -> None:
    """Two six_rows deals whose shortest lines recycle twice and take their last pyramid cards in
    the third pass.  Told that two recycles are needed, the bound counts that pass
    (StepsBound._last_pass): all through the second pass it is at most ``most`` under the steps left,
    where counting one draw after the last recycle left it 5 and 6 under; and it never passes them."""
    table = Table(Deal.from_code(code))
    space = SearchSpace(table)
    start = space.canonical(space.pack(table.start()))
    assert space.last_pass_root
    assert search._fewest_recycles(space, start, Counter(), native=True) == 2
    line = shortest_win(space, start, Counter())
    assert line is not None and len(line) == length
    space.set_min_recycles(2)
    state, gaps = start, []
    for done, action in enumerate(line):
        left = len(line) - done
        assert space.steps_bound(state) <= left
        if state >> space.rec_shift & space.rec_mask == 1:
            gaps.append(left - space.steps_bound(state))
        state = next(s for a, s in space.successors(state, shortest=True) if a == action)
    assert len(gaps) > 20 and max(gaps) == most


@pytest.mark.parametrize(("code", "most", "before"), [("SR1-R-AAAAAAV", 3, 15), ("SR1-R-AACFAEO", 11, 20)])
def test_bound_counts_the_cards_stuck_in_the_waste_before_a_pass_that_is_not_the_last(
    code: str, most: int, before: int
) -> None:
    """Two six_rows deals that recycle twice: at the end of the first pass the cards stuck in the waste
    (those that cannot leave before the recycle) must all be drawn in the second pass, which is not
    the last, so the bound counts them.  At the first pass's last position it is at most ``most`` under
    the steps left, where without them it was ``before`` under; and it never passes them."""
    table = Table(Deal.from_code(code))
    space = SearchSpace(table)
    start = space.canonical(space.pack(table.start()))
    assert search._fewest_recycles(space, start, Counter(), native=True) == 2
    line = shortest_win(space, start, Counter())
    assert line is not None
    space.set_min_recycles(2)
    state, last_gap = start, None
    for done, action in enumerate(line):
        left = len(line) - done
        assert space.steps_bound(state) <= left
        if state >> space.rec_shift & space.rec_mask == 0:
            last_gap = left - space.steps_bound(state)
        state = next(s for a, s in space.successors(state, shortest=True) if a == action)
    assert last_gap is not None and last_gap <= most < before


def test_fewest_recycles_counts_its_positions_but_spends_no_budget() -> None:
    """The searches that find the fewest recycles before A* add their positions to the caller's count,
    and move its budget up by as many: ``solve``'s quick A* phase sets the budget as a count to reach,
    meant for A*'s own positions."""
    table = Table(Deal.from_number(0, "six_rows"))  # its first pass alone is proved lost
    space = SearchSpace(table)
    start = space.canonical(space.pack(table.start()))
    counter = Counter()
    counter.nodes = 10
    counter.budget = 1_000
    search._fewest_recycles(space, start, counter, native=True)
    added = counter.nodes - 10
    assert added > 0
    assert counter.budget == 1_000 + added

"""The solver's fast move generation must agree with the engine's rules (Table.actions) everywhere."""

from __future__ import annotations

import random

import pytest
from rule_sets import of_kind

from pyramid_solitaire import Deal
from pyramid_solitaire.solver.space import SearchSpace
from pyramid_solitaire.table import Table

#: Without free cells the fast successors make the moves themselves; with them (CELL_RULE_SETS) the
#: table's own moves (the generic path) less what the search leaves out.
RULE_SETS = of_kind(lambda space: not space.cells, with_heavy=True)
CELL_RULE_SETS = of_kind(lambda space: bool(space.cells), with_heavy=True)
WASTE_USE_RULE_SETS = of_kind(lambda space: space.waste_limit is not None and not space.cells, with_heavy=True)


def _random_states(rules: str, deals: int, steps: int) -> list[tuple[SearchSpace, SearchSpace, int]]:
    out = []
    rng = random.Random(rules)
    for number in range(deals):
        table = Table(Deal.from_number(number, rules))
        fast, generic = SearchSpace(table), SearchSpace(table, generic=True)
        state = generic.canonical(generic.pack(table.start()))
        for _ in range(steps):
            out.append((fast, generic, state))
            successors = generic.successors(state)
            if not successors:
                break
            state = rng.choice(successors)[1]
    return out


@pytest.mark.parametrize("rules", RULE_SETS)
def test_fast_successors_are_exactly_the_legal_actions(rules: str) -> None:
    for fast, generic, state in _random_states(rules, deals=6, steps=60):
        expected = {(a, s) for a, s in generic.successors(state)}
        got = fast.successors(state, shortest=True)
        if len(got) == 1 and len(got[0][0]) == 1 and got[0][0][0] < fast.P:
            # an exposed pyramid king is taken at once: it must be one of the legal actions
            assert got[0] in expected
            continue
        pos = fast.unpack(state)
        above = pos.stock >> pos.ptr
        if fast.stock_top_usable and above:
            top = fast.P + pos.ptr + (above & -above).bit_length() - 1
            if fast.values[top] == fast.lone:
                # a king on top of a usable stock is not drawn when steps count (removing it is better)
                expected = {(a, s) for a, s in expected if a != "draw"}
        assert set(got) == expected, (rules, fast.unpack(state))
        assert len(got) == len(expected), "no action may be generated twice"


@pytest.mark.parametrize("rules", WASTE_USE_RULE_SETS)
def test_for_the_verdict_a_king_is_taken_at_once_only_where_it_spends_no_waste_use(rules: str) -> None:
    """Only the verdict's successors take a usable king alone; under a limit on waste uses that never
    happens to a king on the waste (leaving it buried may save a use), and the rest stay legal."""
    taken_at_once = 0
    for fast, generic, state in _random_states(rules, deals=6, steps=60):
        expected = {(a, s) for a, s in generic.successors(state)}
        got = fast.successors(state)
        assert set(got) <= expected, (rules, fast.unpack(state))
        if len(got) == 1 and isinstance(got[0][0], tuple) and len(got[0][0]) == 1 and len(expected) > 1:
            taken_at_once += 1
            pos = fast.unpack(state)
            assert got[0][0][0] not in fast.table.waste_cards(pos), (rules, pos)
            assert fast.unpack(got[0][1]).waste_used == pos.waste_used
        else:
            assert set(got) == expected, (rules, fast.unpack(state))
    assert taken_at_once, "no king was taken at once: the check above never ran"


@pytest.mark.parametrize("rules", CELL_RULE_SETS)
def test_with_free_cells_the_search_leaves_out_only_what_never_helps(rules: str) -> None:
    """With cells the search makes the legal moves, except that a usable king (exposed or parked) is
    removed at once — a parked stock king only for the verdict or a strict win, as when steps count
    under a relaxed win it need never go — and a king is never parked (removing it is never worse)."""
    parks = kings = 0
    for fast, generic, state in _random_states(rules, deals=6, steps=60):
        expected = {(a, s) for a, s in generic.successors(state)}
        pos = fast.unpack(state)
        for shortest in (False, True):
            got = fast.successors(state, shortest=shortest)
            assert set(got) <= expected and len(got) == len(set(got)), (rules, pos, shortest)
            if len(got) == 1 and isinstance(got[0][0], tuple) and len(got[0][0]) == 1 and len(expected) > 1:
                place = got[0][0][0]
                assert fast.values[place] == fast.lone and (place < fast.P or pos.cells >> place & 1)
                assert place < fast.P or fast.strict or not shortest, (rules, pos)
                kings += 1
                continue
            left_out = expected - set(got)
            assert all(isinstance(a, int) and fast.values[a] == fast.lone for a, _ in left_out), left_out
            parks += sum(1 for a, _ in got if isinstance(a, int))
    assert parks, "no park was generated: the check above never met one"
    assert kings, "no king was taken at once"


@pytest.mark.parametrize("rules", RULE_SETS + CELL_RULE_SETS)
def test_pack_and_unpack_are_inverse(rules: str) -> None:
    for fast, _, state in _random_states(rules, deals=2, steps=30):
        assert fast.pack(fast.unpack(state)) == state


@pytest.mark.parametrize("rules", of_kind(lambda space: True))
def test_relaxed_bound_never_below_what_play_reaches(rules: str) -> None:
    """Along random play the relaxed bound from the start covers every position reached."""
    for fast, _, state in _random_states(rules, deals=2, steps=80):
        removed = fast.P - (state & fast.pyramid_full).bit_count()
        if fast.cells:  # a parked card is not removed
            removed -= (fast.unpack(state).cells & fast.pyramid_full).bit_count()
        assert fast.removed(state) == removed
        assert fast.reachable_bound(state) >= removed

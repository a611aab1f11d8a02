"""The relaxed game (solver/relaxed.py) answers exactly what a plain one does.

The plain game below plays the same moves (``RelaxedGame._moves``, which ``test_space.py`` ties to the
rules through the search's successors) with none of the speed: no ceiling, no cut bag, no bounds kept
between questions — just the most pyramid cards each (pyramid, bag) removes, memoised.  Every
question ``reaches(k)`` must agree with it, for every k, on late positions of random play, whatever
the order of the questions.

The relaxed game with free cells (solver/cells.py) keeps a stock card already parked in its cell until
it goes; it is checked against the exhaustive search of ``slow_search.py`` on positions that hold one."""

from __future__ import annotations

import random

import pytest
from rule_sets import of_kind
from slow_search import TooBig, slow_search

from helpers import make_notation
from pyramid_solitaire import Deal
from pyramid_solitaire.packed import DRAW_ACTION, Position
from pyramid_solitaire.solver import solve_position
from pyramid_solitaire.solver.relaxed import RelaxedGame
from pyramid_solitaire.solver.space import SearchSpace
from pyramid_solitaire.table import Table

#: the relaxed game without free cells (with them the search asks CellGame's own)
RULE_SETS = of_kind(lambda space: not space.cells, with_heavy=True)
#: rule sets with free cells and a stock to park from (the relaxed game with triples keeps parked stock
#: cards in its bag: see SearchSpace.reach)
HELD_RULE_SETS = of_kind(lambda space: bool(space.cells) and space.S > 0 and not space.triples)


def _plain_most(game: RelaxedGame, pyramid: int, counts: int, memo: dict[tuple[int, int], int]) -> int:
    found = memo.get((pyramid, counts))
    if found is not None:
        return found
    shape = game.space.shape(pyramid)
    best = game.P - pyramid.bit_count()
    for after, bag in game._moves(pyramid, counts, shape):
        best = max(best, _plain_most(game, after, bag, memo))
    memo[(pyramid, counts)] = best
    return best


def _late_states(rules: str, deals: int, rng: random.Random) -> list[tuple[SearchSpace, int, int]]:
    """(space, pyramid, bag) of positions reached by random play, with 8-14 layout cards left."""
    out = []
    for _ in range(deals):
        table = Table(Deal.from_number(rng.randrange(100_000), rules))
        space = SearchSpace(table)
        state = space.canonical(space.pack(table.start()))
        keep = rng.randint(8, 14)
        for _ in range(400):
            if (state & space.pyramid_full).bit_count() <= keep:
                break
            successors = space.successors(state)
            if not successors:
                break
            removals = [s for a, s in successors if isinstance(a, tuple)]
            state = rng.choice(removals if removals and rng.random() < 0.8 else [s for _, s in successors])
        out.append((space, state & space.pyramid_full, space.bag(state)))
    return out


@pytest.mark.parametrize("rules", RULE_SETS)
def test_every_question_gets_the_plain_game_s_answer(rules: str) -> None:
    rng = random.Random(rules)
    checked = below = 0
    for space, pyramid, counts in _late_states(rules, 30, rng):
        most = _plain_most(space._relaxed_game, pyramid, counts, {})
        game = RelaxedGame(space)  # a fresh one: its bounds start empty
        questions = list(range(game.P - pyramid.bit_count(), game.P + 1))
        rng.shuffle(questions)
        for k in questions:
            assert game.reaches(pyramid, counts, k) == (most >= k), (rules, pyramid, counts, k, most)
            checked += 1
        assert game.ceiling(pyramid, counts) >= most
        assert RelaxedGame(space).most(pyramid, counts) == most
        below += most < game.P
    assert checked > 0 and below > 0, "no position short of clearing the pyramid: the check is empty"


def test_three_queens_sharing_two_aces_stop_the_relaxed_game_before_any_move() -> None:
    """thirteen(triples=true): a queen goes only with an ace.  The apex queen and the queen at (4,1) can
    meet no ace of the pyramid, and the stock's one ace serves only one; the ceiling says so, and the
    question 'can the pyramid be cleared?' is answered without trying a move."""
    pyramid = {(1, 1): "Qc", (4, 1): "Qd", (7, 1): "Ac", (7, 2): "Ad", (7, 3): "Ah"}
    deal = Deal.from_notation(make_notation(pyramid, ["As"]), "thirteen(triples=true)")
    space = SearchSpace(Table(deal))
    pyramid_mask = space.pyramid_full
    counts = space.bag(space.pack(space.table.start()))
    game = RelaxedGame(space)
    assert game.ceiling(pyramid_mask, counts) <= space.P - 1
    assert not game.reaches(pyramid_mask, counts, space.P)
    assert len(game._bounds) == 1  # the start only: no move was tried


def test_a_parked_stock_card_keeps_its_cell_in_the_relaxed_game() -> None:
    """FC1-R-AAAAABC: every pyramid three lies on the two top tens (T♥ at the apex, T♣ under it), so one
    of them needs the stock's only three and the other a pyramid three kept in the cell until it is
    exposed.  Parking 3♥ (the stock's 15th card) at the start takes the cell until a ten takes it, and
    loses the deal.  The relaxed game with 3♥ held sees it at once; with 3♥ counted as a card of the
    bag (SearchSpace.hopeless) it clears the pyramid, and the verdict needs a search to prove the loss."""
    table = Table(Deal.from_code("FC1-R-AAAAABC"))
    pos = table.start()
    for _ in range(15):
        pos = table.apply(pos, DRAW_ACTION)
    three = table.board_size + 14
    assert str(table.cards[three]) == "3h" and three in table.actions(pos)
    pos = table.apply(pos, three)
    space = SearchSpace(table)
    state = space.pack(pos)
    assert space.hopeless_held(state)
    assert not space.hopeless(state)
    result = solve_position(table, pos)
    assert result.winnable is False and result.nodes > 1000


def _with_parked_stock(table: Table, rng: random.Random) -> Position | None:
    """A position of random play with a stock card in a cell and at most 5-9 layout cards left, or None."""
    P = table.board_size
    pos = table.start()
    keep = rng.randint(5, 9)
    for _ in range(300):
        if table.won(pos) or (table.pyramid_left(pos) <= keep and pos.cells >> P):
            break
        actions = table.actions(pos)
        if not actions:
            break
        stock_parks = [a for a in actions if isinstance(a, int) and a >= P]
        removals = [a for a in actions if isinstance(a, tuple)]
        if stock_parks and rng.random() < 0.3:
            action = rng.choice(stock_parks)
        elif removals and rng.random() < 0.75:
            action = rng.choice(removals)
        else:
            action = rng.choice(actions)
        pos = table.apply(pos, action)
    return pos if pos.cells >> P and not table.won(pos) else None


@pytest.mark.parametrize("rules", HELD_RULE_SETS)
def test_the_relaxed_game_with_held_cards_bounds_the_exhaustive_search(rules: str) -> None:
    """On positions with stock cards parked, the relaxed game with them held removes at least as many
    pyramid cards as any line of play (the exhaustive search's most), so it calls no winnable position
    hopeless; and it cuts positions, some of which the bag's view lets through (counted over every
    rule set by the next test)."""
    rng = random.Random(rules)
    checked = 0
    for _ in range(200):
        table = Table(Deal.from_number(rng.randrange(100_000), rules))
        pos = _with_parked_stock(table, rng)
        if pos is None:
            continue
        try:
            slow = slow_search(table, pos, limit=20_000)
        except TooBig:
            continue
        space = SearchSpace(table)
        state = space.pack(pos)
        held = space.parked_stock_counts(state)
        counts = space.bag(state) - held
        assert space._cell_game is not None
        most = space._cell_game.reach(state & space.pyramid_full, pos.cells & space.pyramid_full, counts, held)
        assert most >= slow.max_pyramid_removed, (rules, pos)
        assert not (space.hopeless_held(state) and slow.winnable), (rules, pos)
        checked += 1
        if checked == 30:
            break
    assert checked >= 20, f"only {checked} positions with a parked stock card were small enough"


def test_held_cards_cut_positions_the_bag_let_through() -> None:
    """Over the rule sets with cells, random positions with parked stock cards include lost ones that
    only holding the cards cuts (the previous test checks each cut against the exhaustive search)."""
    new_cuts = 0
    for rules in HELD_RULE_SETS:
        rng = random.Random(rules)
        for _ in range(40):
            table = Table(Deal.from_number(rng.randrange(100_000), rules))
            pos = _with_parked_stock(table, rng)
            if pos is None:
                continue
            space = SearchSpace(table)
            state = space.pack(pos)
            held, as_bag = space.hopeless_held(state), space.hopeless(state)
            assert held or not as_bag, (rules, pos)  # holding only adds cuts
            new_cuts += held and not as_bag
    assert new_cuts >= 5

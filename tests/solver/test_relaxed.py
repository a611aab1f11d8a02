"""The relaxed game (solver/relaxed.py) answers exactly what a plain one does.

The plain game below plays the same moves (``RelaxedGame._moves``, which ``test_space.py`` ties to the
rules through the search's successors) with none of the speed: no ceiling, no cut bag, no bounds kept
between questions — just the most pyramid cards each (pyramid, bag) removes, memoised.  Every
question ``reaches(k)`` must agree with it, for every k, on late positions of random play, whatever
the order of the questions."""

from __future__ import annotations

import random

import pytest
from rule_sets import of_kind

from helpers import make_notation
from pyramid_solitaire import Deal
from pyramid_solitaire.solver.relaxed import RelaxedGame
from pyramid_solitaire.solver.space import SearchSpace
from pyramid_solitaire.table import Table

#: the relaxed game without free cells (with them the search asks CellGame's own)
RULE_SETS = of_kind(lambda space: not space.cells, with_heavy=True)


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

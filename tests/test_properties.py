"""Random legal play over every preset and the options: the invariants every game must keep.

For each rule set, hypothesis picks deal numbers and a random player; at every step we check that cards
are conserved, that every listed move is accepted and every other removal, draw or recycle refused without
changing anything, that undo restores the exact previous position, that the view shows only what the
player may see, and at the end that the game's record replays to the same position.  At a few positions
the legal removals are compared with the validated checker over *every* 1-, 2- and 3-card combination
of the game's cards, which pins the fast move generator against it.
"""

from __future__ import annotations

import random
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import tokens_in, without_counters
from pyramid_solitaire import Deal, Game, IllegalMoveError, Move, Refusal
from pyramid_solitaire.deal import MAX_NUMBER
from pyramid_solitaire.record import read_record, replay, write_record

RULE_SETS = [
    "classic",
    "pyramide",
    "thirteen",
    "msc",
    "traditional",
    "relaxed",
    "thirteen(jokers=2,triples=true)",
    "classic(overlap=true)",
    "classic(target=14,lone_kings=false)",
    "classic(deck=48,target=12)",
    "classic(rows=6)",
    "thirteen(open=true,overlap=true)",
    "msc(stock_waste_pairs=false,jokers=1)",
    "tuts_tomb",
]
MAX_STEPS = 160
#: Every pair is checked at every PAIR_CHECK_EVERY-th step (every single card at every step)...
PAIR_CHECK_EVERY = 8
#: ...and every triple at this step and at the last position.
TRIPLE_CHECK_STEP = 20
PUSH_SAMPLE = 4
HINT_EVERY = 5


def counters(game: Game) -> tuple[object, ...]:
    return (game.position, game.moves, game.undos, game.hints, len(game.history), len(game.redo_stack))


def removed_cards(game: Game) -> list[str]:
    return [str(card) for step in game.history for card in step.move.cards]


def check_conservation(game: Game) -> None:
    """Pyramid + stock/waste + jokers in play + removed = every card of the game, each once."""
    table = game.table
    pos = game.position
    in_play = [str(table.cards[p]) for p in range(len(table.cards)) if table.alive(pos, p)]
    everything = in_play + removed_cards(game)
    assert sorted(everything) == sorted(str(c) for c in table.cards)
    assert len(set(everything)) == len(everything)
    view = game.view()
    pyramid_in_place = sum(1 for e in view["pyramid"] if not e["removed"])
    stock_side = sum(1 for p in range(table.board_size, table.joker_base) if table.alive(pos, p))
    assert pyramid_in_place == game.pyramid_left
    assert stock_side == view["stock"]["count"] + view["waste"]["count"] + (1 if view["drawn"] else 0)
    if game.rules.scoring == "pyramide":
        pyramid_removed = sum(1 for c in removed_cards(game) if c in {str(x) for x in game.deal.pyramid})
        assert game.score == 10 * pyramid_removed


def check_view_hides(game: Game) -> None:
    """Only face-up pyramid cards, the waste top, the drawn card and a usable stock top are named."""
    view = game.view()
    visible = {e["card"] for e in view["pyramid"] if e["card"]}
    visible |= {view["waste"]["top"], view["drawn"], view["stock"]["top"]} - {None}
    if view["stock"]["top"] is not None:
        assert game.rules.stock_top_usable
    assert tokens_in(view) <= visible
    face_down = {str(game.table.cards[e["slot"]]) for e in view["pyramid"] if not e["removed"] and not e["face_up"]}
    assert not face_down & tokens_in(view)


def removal_moves(game: Game, sizes: tuple[int, ...], cache: dict[int, list[Move]]) -> list[Move]:
    """Every removal of ``sizes`` cards among the game's cards (removed ones and jokers included)."""
    out: list[Move] = []
    for size in sizes:
        if size not in cache:
            cache[size] = [Move.remove(*combo) for combo in combinations(game.table.cards, size)]
        out += cache[size]
    return out


def sizes_at(step: int) -> tuple[int, ...]:
    if step == TRIPLE_CHECK_STEP:
        return (1, 2, 3)
    return (1, 2) if step % PAIR_CHECK_EVERY == 0 else (1,)


def check_refusals(game: Game, rng: random.Random, sizes: tuple[int, ...], cache: dict[int, list[Move]]) -> None:
    """Legal removals == removals the checker accepts, over every combination of ``sizes`` cards; a sample
    of the others (and draw/recycle when not listed) is refused by push without changing anything."""
    legal = game.legal_moves()
    legal_set = set(legal)
    assert len(legal_set) == len(legal), "a move is listed twice"
    for move in legal:
        assert game.check(move) is None, f"listed move {move} refused: {game.check(move)}"
    accepted = set()
    refused: list[tuple[Move, Refusal]] = []
    for move in removal_moves(game, sizes, cache):
        refusal = game.check(move)
        if refusal is None:
            accepted.add(move)
        else:
            refused.append((move, refusal))
    listed = {m for m in legal_set if m.kind == "remove" and len(m.cards) in sizes}
    assert accepted == listed, (
        f"checker accepts {sorted(map(str, accepted - listed))} not listed; "
        f"listed but refused {sorted(map(str, listed - accepted))}"
    )
    for stock_move in (Move.draw(), Move.recycle()):
        if stock_move not in legal_set:
            refusal = game.check(stock_move)
            assert isinstance(refusal, Refusal)
            refused.append((stock_move, refusal))
        else:
            assert game.check(stock_move) is None
    sample = rng.sample(refused, min(PUSH_SAMPLE, len(refused)))
    sample += [(m, r) for m, r in refused if m.kind != "remove"]
    for move, refusal in sample:
        assert refusal.message_ja and refusal.message_en
        before = counters(game)
        view = game.view()
        with pytest.raises(IllegalMoveError) as info:
            game.push(move)
        assert info.value.refusal == refusal
        assert counters(game) == before
        assert game.view() == view


def check_status(game: Game) -> None:
    legal = game.legal_moves()
    status = game.status
    if status == "won":
        assert game.pyramid_left == 0
        assert legal == []
        if game.rules.strict:
            assert game.stock_left == 0 and game.view()["waste"]["count"] == 0
    elif legal:
        assert status == "playing"
    else:
        assert status == ("stalemate" if game.rules.passes is None else "lost")
    view = game.view()
    assert view["status"] == status
    assert view["legal_moves"] == [str(m) for m in legal]
    if not game.rules.overlap:
        usable = set(view["usable"])
        for move in legal:
            assert {str(c) for c in move.cards} <= usable


def check_hint(game: Game) -> None:
    """A hint is a legal move (a removal whenever one exists), counts one hint and changes nothing else."""
    before = counters(game)
    hints = game.hints
    hint = game.hint()
    assert hint is not None
    legal = game.legal_moves()
    assert hint in legal
    if any(m.kind == "remove" for m in legal):
        assert hint.kind == "remove"
    assert game.hints == hints + 1
    assert counters(game)[:3] == before[:3] and counters(game)[4:] == before[4:]


def choose(game: Game, rng: random.Random) -> Move:
    legal = game.legal_moves()
    removals = [m for m in legal if m.kind == "remove"]
    if removals and rng.random() < 0.75:
        return rng.choice(removals)
    return rng.choice(legal)


@pytest.mark.parametrize("rules", RULE_SETS)
@settings(max_examples=2, deadline=None)
@given(number=st.integers(0, MAX_NUMBER), seed=st.integers(0, 2**32 - 1))
def test_random_legal_play_keeps_every_invariant(rules: str, number: int, seed: int) -> None:
    rng = random.Random(seed)
    game = Game(Deal.from_number(number, rules))
    cache: dict[int, list[Move]] = {}
    for step in range(MAX_STEPS):
        check_conservation(game)
        check_view_hides(game)
        check_status(game)
        check_refusals(game, rng, sizes_at(step), cache)
        if game.status != "playing":
            break
        if step % HINT_EVERY == 0:
            check_hint(game)
        dead_before = game.dead_mask()
        before = counters(game)
        view_before = without_counters(game.view())
        move = choose(game, rng)
        game.push(move)
        after = game.position
        assert game.moves == before[1] + 1
        assert game.dead_mask() & dead_before == dead_before, "a dead card came back to life"
        if game.status == "won":
            break
        game.undo()
        assert game.position == before[0]
        assert without_counters(game.view()) == view_before
        assert game.moves == before[1] + 1  # the counter never goes down
        assert game.undos == before[2] + 1
        if rng.random() < 0.5:
            assert game.redo() == move
        else:
            game.push(move)
        assert game.position == after
    check_conservation(game)
    check_status(game)
    check_refusals(game, rng, (1, 2, 3), cache)

    record = write_record(game)
    result = replay(read_record(record))
    assert result.refusal is None
    assert result.game.position == game.position
    assert result.game.status == game.status
    assert [str(s.move) for s in result.game.history] == [str(s.move) for s in game.history]

"""The layout families of issue 8 that change the cover graph: Giza's 8 reserve piles of 3 (no stock), a
reserve row of 7 under the pyramid, and Triangle, the pyramid upside down; and Apophis, whose stock is
dealt onto three waste piles.

What a player sees and may do is asserted through ``Game`` (its view, legal moves, refusals, status);
the solver's answers are pinned by the golden verdict files like every preset's.
"""

from __future__ import annotations

import pytest

from helpers import make_notation, row_of, usable_slots, won_by_the_solver
from pyramid_solitaire import Deal, Game, IllegalMoveError, Move
from pyramid_solitaire.layout import bits, pyramid_layout
from pyramid_solitaire.solver import solve
from pyramid_solitaire.terminal import render

#: Giza's reserve, as notation tokens 29-52: pile by pile, each from its bottom card up (the third
#: card of each pile is its top).  Piles: 1 = As 2s Ks, 2 = 3s 4s Qs, 3 = 5s 6s Js, ...
GIZA_RESERVE = [
    "As",
    "2s",
    "Ks",
    "3s",
    "4s",
    "Qs",
    "5s",
    "6s",
    "Js",
    "7s",
    "8s",
    "9s",
    "Ah",
    "2h",
    "Th",
    "3h",
    "4h",
    "Jh",
    "5h",
    "6h",
    "Qh",
    "7h",
    "8h",
    "Kh",
]


def giza() -> Game:
    notation = make_notation(row_of(7, "Jc Tc 9c 8c Jd Td 9d"), GIZA_RESERVE)
    return Game(Deal.from_notation(notation, "giza"))


def reserve_entries(game: Game) -> list[dict[str, object]]:
    return [e for e in game.view()["pyramid"] if e["pile"] is not None]


def tops(game: Game) -> list[str]:
    """The usable reserve cards, pile by pile."""
    return [str(e["card"]) for e in reserve_entries(game) if e["usable"]]


# --- the cover graph ---------------------------------------------------------------------------------


def test_each_reserve_card_is_covered_by_the_one_dealt_on_it() -> None:
    layout = pyramid_layout(7, 8, 3)
    assert (layout.pyramid_size, layout.size) == (28, 52)
    assert layout.piles[0] == (28, 29, 30) and layout.piles[7] == (49, 50, 51)
    bottom, middle, top = layout.piles[2]
    assert bits(layout.coverers[bottom]) == [middle]
    assert bits(layout.coverers[middle]) == [top]
    assert layout.coverers[top] == 0
    assert bits(layout.triangle[bottom]) == [middle, top]
    assert bits(layout.covers[top]) == [middle]
    # the pyramid's graph is unchanged by a reserve
    plain = pyramid_layout(7)
    assert layout.coverers[:28] == plain.coverers and layout.triangle[:28] == plain.triangle


# --- Giza ----------------------------------------------------------------------------------------------


def test_giza_starts_with_the_bottom_row_and_the_eight_pile_tops_usable() -> None:
    game = giza()
    view = game.view()
    assert len(view["pyramid"]) == 52
    assert usable_slots({"pyramid": [e for e in view["pyramid"] if e["row"] is not None]}) == {
        (7, c) for c in range(1, 8)
    }
    assert tops(game) == ["Ks", "Qs", "Js", "9s", "Th", "Jh", "Qh", "Kh"]
    assert all(e["face_up"] for e in reserve_entries(game))  # every card is seen from the start
    assert [(e["pile"], e["level"]) for e in reserve_entries(game)][:4] == [(0, 0), (0, 1), (0, 2), (1, 0)]
    assert game.stock_left == 0


def test_giza_pairs_pyramid_and_reserve_cards_and_reserve_cards_with_each_other() -> None:
    game = giza()
    assert sorted(str(m) for m in game.legal_moves()) == ["Kh", "Ks"]  # no two usable cards make 13
    game.push("Ks")  # a king alone, from the top of pile 1
    assert tops(game)[0] == "2s"
    for move in ("Jc+2s", "Js+2s", "Jh+2s"):  # pyramid with reserve, and reserve with reserve
        assert Move.parse(move) in game.legal_moves(), move
    game.push("Jc+2s")
    assert tops(game)[0] == "As"
    game.push("Qs+As")  # two pile tops
    assert tops(game)[0] == "4s"  # pile 1 is empty, pile 2 shows the card under its queen
    assert Move.parse("9c+4s") in game.legal_moves() and Move.parse("9s+4s") in game.legal_moves()
    assert game.pyramid_left == 52 - 5


def test_giza_refuses_a_covered_reserve_card_naming_the_card_on_it() -> None:
    game = giza()
    with pytest.raises(IllegalMoveError) as info:
        game.push("Qs+As")  # As lies at the bottom of pile 1, under 2s (and Ks on that)
    refusal = info.value.refusal
    assert refusal.code == "covered"
    assert [str(c) for c in refusal.details["covering"]] == ["2s"]


def test_the_reserve_is_face_up_even_when_the_pyramid_is_not() -> None:
    view = Game(Deal.from_number(3, "giza(open=false)")).view()
    assert all(e["face_up"] for e in view["pyramid"] if e["pile"] is not None)
    assert [e["face_up"] for e in view["pyramid"] if e["row"] is not None] == [False] * 21 + [True] * 7


def test_giza_s_time_limit_also_stops_its_relaxed_game() -> None:
    """With no stock the relaxed game behind the search's cut is the game itself, and the search may
    expand fewer positions than it checks the clock after: the relaxed game checks it too."""
    deal = Deal.from_number(1, "giza")
    assert solve(deal).winnable is False
    assert solve(deal, time_limit=1e-9).winnable is None


def test_giza_has_no_stock_to_draw() -> None:
    game = giza()
    before = game.view()
    with pytest.raises(IllegalMoveError) as info:
        game.push("draw")
    assert info.value.refusal.code == "no-stock"
    assert info.value.refusal.message_ja.startswith("このゲームには山札がありません")
    with pytest.raises(IllegalMoveError) as info:
        game.tap_stock()
    assert info.value.refusal.code == "no-stock"
    assert game.view() == before


def test_a_giza_win_takes_every_card_and_a_stuck_deal_is_lost() -> None:
    won = next(n for n in range(20) if solve(Deal.from_number(n, "giza")).winnable)
    deal = Deal.from_number(won, "giza")
    result = solve(deal)
    assert result.solution is not None
    game = Game(deal)
    for move in result.solution:
        assert game.status == "playing"
        game.push(move)
    assert game.status == "won"
    assert game.pyramid_left == 0
    assert len(result.solution) == 28  # 4 kings alone and 24 pairs: no draws in Giza

    lost = Game(Deal.from_number(0, "giza"))  # the solver says: lost, 26 cards at best
    assert solve(lost.deal, best=True).max_pyramid_removed == 26
    while lost.legal_moves():
        lost.push(lost.legal_moves()[0])
    assert lost.status == "lost"
    assert lost.pyramid_left > 0


def test_giza_prints_its_piles_in_the_terminal_and_no_stock() -> None:
    text = render(giza(), "en")
    lines = text.splitlines()
    assert lines[6].split() == ["[Jc][Tc][9c][8c][Jd][Td][9d]"]
    assert lines[7].split() == ["As", "3s", "5s", "7s", "Ah", "3h", "5h", "7h"]  # the piles' bottom cards
    assert lines[9].split() == ["[Ks][Qs][Js][9s][Th][Jh][Qh][Kh]"]  # their tops, usable
    assert "Stock" not in text


# --- the reserve row --------------------------------------------------------------------------------


def reserve_row(stock: list[str]) -> Game:
    notation = make_notation(row_of(7, "Jc Tc 9c 8c 7c 6c 5c"), ["2c", "Kd", "3c", "Qd", "Ad", "4c", "9d", *stock])
    return Game(Deal.from_notation(notation, "reserve"))


def test_the_reserve_row_is_usable_from_the_start_with_the_pyramid_the_waste_and_itself() -> None:
    game = reserve_row(["8d"])
    assert tops(game) == ["2c", "Kd", "3c", "Qd", "Ad", "4c", "9d"]
    legal = game.legal_moves()
    for move in ("Jc+2c", "Tc+3c", "Kd", "Qd+Ad", "9d+4c"):
        assert Move.parse(move) in legal, move
    game.push("draw")  # 8d onto the waste: it pairs with 5c of the pyramid only (no 5 in the reserve)
    assert Move.parse("5c+8d") in game.legal_moves()
    assert game.stock_left == 16


def test_the_reserve_must_be_cleared_with_the_pyramid_to_win() -> None:
    deal = next(d for d in (Deal.from_number(n, "reserve") for n in range(40)) if solve(d).winnable)
    result = solve(deal)
    assert result.solution is not None
    game = Game(deal)
    for move in result.solution[:-1]:
        game.push(move)
    assert game.status == "playing"
    game.push(result.solution[-1])
    assert game.status == "won"
    assert all(e["removed"] for e in game.view()["pyramid"])  # pyramid and reserve both empty


# --- Triangle -----------------------------------------------------------------------------------------


def test_triangle_plays_exactly_as_classic() -> None:
    for number in range(20):
        upside_down, classic = Game(Deal.from_number(number, "triangle")), Game(Deal.from_number(number, "classic"))
        assert upside_down.deal.cards == classic.deal.cards
        assert upside_down.legal_moves() == classic.legal_moves()
        a, b = solve(upside_down.deal, best=True), solve(classic.deal, best=True)
        assert (a.winnable, a.max_pyramid_removed) == (b.winnable, b.max_pyramid_removed)


def test_triangle_draws_the_widest_row_on_top() -> None:
    game = Game(Deal.from_number(3, "triangle"))
    lines = render(game, "en").splitlines()
    bottom_row = [str(c) for c in game.deal.pyramid[21:]]
    assert lines[0].replace("[", " ").replace("]", " ").split() == bottom_row
    assert lines[6].split() == [str(game.deal.pyramid[0])]
    assert game.view()["pyramid"][0]["row"] == 1  # the apex keeps its slot, row and column


# --- Apophis: three waste piles --------------------------------------------------------------------------


def apophis() -> Game:
    # pyramid base: no pair inside it; stock: 2c 5d Jc | 8c Qd 4c | ...
    notation = make_notation(row_of(7, "Kd 9c 9d Ts 3s 6h 6s"), ["2c", "5d", "Jc", "8c", "Qd", "4c", "Ad"])
    return Game(Deal.from_notation(notation, "apophis"))


def waste_tops(game: Game) -> list[str | None]:
    return [pile["top"] for pile in game.view()["waste_piles"]]


def test_apophis_deals_a_card_onto_each_of_three_waste_piles_and_every_top_is_usable() -> None:
    game = apophis()
    assert waste_tops(game) == [None, None, None]
    game.push("draw")
    assert waste_tops(game) == ["2c", "5d", "Jc"]
    assert [pile["count"] for pile in game.view()["waste_piles"]] == [1, 1, 1]
    assert {"2c", "5d", "Jc"} <= set(game.view()["usable"])
    assert game.stock_left == 21
    legal = game.legal_moves()
    assert Move.parse("2c+Jc") in legal  # two waste tops
    assert Move.parse("Ts+3s") in legal and Move.parse("Kd") in legal
    game.push("draw")
    assert waste_tops(game) == ["8c", "Qd", "4c"]
    assert game.view()["waste"]["count"] == 6
    with pytest.raises(IllegalMoveError) as info:
        game.push("2c+Jc")  # now under 8c and 4c
    assert info.value.refusal.code == "not-usable"
    game.push("9c+4c")  # the third pile's top with a pyramid card: Jc shows again
    assert waste_tops(game) == ["8c", "Qd", "Jc"]
    assert Move.parse("Qd+Ad") not in game.legal_moves()  # Ad is still in the stock
    game.push("draw")  # Ad onto the first pile, and a card onto Qd's pile: Qd is under it now
    assert waste_tops(game)[0] == "Ad"
    assert "Qd" not in game.view()["usable"]
    assert Move.parse("Qd+Ad") not in game.legal_moves()


def test_apophis_deals_the_stock_once() -> None:
    game = apophis()
    while game.stock_left:
        game.push("draw")
    assert sum(pile["count"] for pile in game.view()["waste_piles"]) == 24
    with pytest.raises(IllegalMoveError) as info:
        game.tap_stock()
    assert info.value.refusal.code == "passes-used-up"
    assert info.value.refusal.message_en == "The only pass through the stock is used up."


def test_apophis_wins_by_clearing_the_pyramid_as_the_solver_shows() -> None:
    game = won_by_the_solver("apophis")
    assert game.status == "won"
    assert game.pyramid_left == 0


def test_apophis_prints_each_waste_pile_in_the_terminal() -> None:
    game = apophis()
    game.push("draw")
    assert "Waste: [2c](1) [5d](1) [Jc](1)" in render(game, "en")
    spent = Game(Deal.from_notation(game.deal.notation, "apophis(waste_uses=1)"))
    spent.push("draw")
    spent.push("2c+Jc")  # two waste tops in one removal: the one use
    assert "Waste: -(0) [5d](1) -(0)" not in render(spent, "en")
    assert "Waste: -(0) 5d(1) -(0)   Waste uses left: 0" in render(spent, "en")  # no longer usable

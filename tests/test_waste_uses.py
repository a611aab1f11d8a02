"""A limit on the uses of the waste (seed 004: 捨て札を使える回数を制限する), option ``waste_uses`` and
preset ``limited_waste``: each removal that takes a card from the waste spends one use; the stock top
(msc) and the drawn card (thirteen) are not the waste.  Asserted through ``Game`` as a player meets it:
the view's count, the refusal and its message, the legal moves, undo, hints, the terminal and the code.
"""

from __future__ import annotations

import pytest

from helpers import make_notation, row_of, won_by_the_solver
from pyramid_solitaire import Deal, Game, IllegalMoveError, Move
from pyramid_solitaire.rule_strings import find_rules
from pyramid_solitaire.rules import PRESETS, RulesError
from pyramid_solitaire.solver import solve
from pyramid_solitaire.terminal import render

#: Row 7 with no pair inside it; the stock starts 4c 4d 3c Tc: each pairs with one card of the row.
ROW = "Kd 9c 9d Ts 3s 6h 6s"
STOCK = ["4c", "4d", "3c", "Tc", "7h", "7s"]


def game(rules: str) -> Game:
    return Game(Deal.from_notation(make_notation(row_of(7, ROW), STOCK), rules))


def uses_left(g: Game) -> int | None:
    value: int | None = g.view()["waste"]["uses_left"]
    return value


def test_each_removal_with_the_waste_top_spends_a_use_until_none_is_left() -> None:
    g = game("classic(waste_uses=2)")
    assert uses_left(g) == 2
    g.push("draw")
    g.push("9c+4c")
    assert uses_left(g) == 1
    g.push("draw")
    g.push("9d+4d")
    assert uses_left(g) == 0
    g.push("draw")  # 3c on the waste: it would pair with Ts, but the waste may not be used any more
    assert "3c" not in g.view()["usable"]
    assert Move.parse("Ts+3c") not in g.legal_moves()
    with pytest.raises(IllegalMoveError) as info:
        g.push("Ts+3c")
    refusal = info.value.refusal
    assert refusal.code == "waste-uses-used-up"
    assert refusal.message_ja == "捨て札はもう使えません（2回まで）"
    assert refusal.message_en == "The waste's uses are spent (the limit is 2)."
    assert g.pyramid_left == 26  # nothing was half-done by the refused move
    g.push("Kd")  # pyramid cards alone are not limited
    assert uses_left(g) == 0


def test_undo_gives_the_use_back() -> None:
    g = game("classic(waste_uses=1)")
    g.push("draw")
    g.push("9c+4c")
    assert uses_left(g) == 0
    g.undo()
    assert uses_left(g) == 1
    assert Move.parse("9c+4c") in g.legal_moves()


def test_the_stock_top_is_not_the_waste_but_a_stock_waste_pair_is_one_use() -> None:
    # msc: the stock top is usable where it lies; 9c+4c takes it from the stock, no use spent
    g = Game(Deal.from_notation(make_notation(row_of(7, ROW), ["4c", "6c", "7d", "4d"]), "msc(waste_uses=2)"))
    g.push("9c+4c")
    assert uses_left(g) == 2
    g.push("draw")  # 6c onto the waste, 7d on top of the stock
    g.push("6c+7d")  # waste and stock top together: one removal, one use
    assert uses_left(g) == 1


def test_the_drawn_card_is_not_the_waste() -> None:
    g = game("thirteen(waste_uses=1,open=true)")
    g.push("draw")  # 4c in the drawn spot
    g.push("9c+4c")
    assert uses_left(g) == 1
    g.push("draw")
    g.push("draw")  # 4d went onto the waste when 3c was drawn
    g.push("9d+4d")
    assert uses_left(g) == 0
    assert Move.parse("Ts+3c") in g.legal_moves()  # the drawn card is still usable


def test_a_card_whose_partners_are_all_in_the_stock_is_dead_once_the_uses_are_spent() -> None:
    # 9d needs a 4: 4c goes with 9c, and 4d 4h 4s are all in the stock
    notation = make_notation(row_of(7, "Kd 9c 9d 6h 8s 8h 5s"), ["4c", "4d", "4h", "4s"])
    for rules, dead in (("classic(waste_uses=2)", False), ("classic(waste_uses=1)", True), ("classic", False)):
        g = Game(Deal.from_notation(notation, rules))
        g.push("draw")
        assert "9d" not in g.dead_cards
        g.push("9c+4c")
        assert ("9d" in g.dead_cards) is dead, rules
    # the rewind offered with a dead card goes back to just before the move that spent the last use
    g = Game(Deal.from_notation(notation, "classic(waste_uses=1)"))
    g.push("draw")
    g.push("9c+4c")
    g.push("draw")
    g.rewind()
    assert uses_left(g) == 1 and g.dead_cards == []


def test_no_limit_shows_no_count() -> None:
    g = game("classic")
    assert uses_left(g) is None
    assert "Waste uses left" not in render(g, "en")


def test_the_terminal_shows_the_uses_left() -> None:
    g = game("classic(waste_uses=3)")
    g.push("draw")
    g.push("9c+4c")
    assert "Waste uses left: 2" in render(g, "en")
    assert "捨て札を使える残り2回" in render(g, "ja")


def test_a_hint_never_spends_a_use_that_is_not_there() -> None:
    g = game("classic(waste_uses=1)")
    g.push("draw")
    g.push("9c+4c")
    g.push("Kd")
    g.push("draw")  # 4d on the waste would pair with 9d, but no use is left
    hint = g.hint()
    assert hint != Move.parse("9d+4d")
    assert hint is None or g.is_legal(hint)


def test_the_limit_is_part_of_the_rule_set_string_and_the_deal_code() -> None:
    rules = find_rules("classic(waste_uses=7)")
    assert rules.waste_uses == 7
    assert str(rules) == "classic(waste_uses=7)"
    deal = Deal.from_number(5, rules)
    again = Deal.from_code(deal.code)
    assert again.rules == rules and again.cards == deal.cards
    assert find_rules("limited_waste(waste_uses=unlimited)").waste_uses is None
    limited = Deal.from_number(3, "limited_waste")
    assert limited.code.startswith("LW1-")
    assert Deal.from_code(limited.code).rules == PRESETS["limited_waste"]


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("classic(waste_uses=0)", "waste_uses must be 1-48 or unlimited, not 0"),
        ("classic(waste_uses=49)", "not 49"),
        ("giza(waste_uses=3)", "waste_uses"),
        # a strict win needs each of the 24 stock cards to go from the waste, one a use
        ("classic(waste_uses=23,strict=true)", "waste_uses=23 can take 23 at most, so no deal could be won"),
        ("limited_waste(strict=true)", "a strict win removes all 24 stock cards"),
        ("apophis(waste_uses=11,strict=true)", "waste_uses=11 can take 22 at most"),
    ],
)
def test_a_bad_limit_is_refused_naming_it(text: str, named: str) -> None:
    with pytest.raises(RulesError) as info:
        find_rules(text)
    assert named in str(info.value)


def test_a_strict_win_is_allowed_where_the_uses_can_take_every_stock_card() -> None:
    assert find_rules("classic(waste_uses=24,strict=true)").waste_uses == 24
    assert find_rules("msc(waste_uses=3,strict=true)").waste_uses == 3  # the stock top is not the waste
    assert find_rules("traditional(waste_uses=3)").strict  # nor is the drawn card


def test_limited_waste_is_won_as_the_solver_shows_within_its_twelve_uses() -> None:
    g = won_by_the_solver("limited_waste")
    assert g.status == "won"
    assert uses_left(g) is not None and uses_left(g) >= 0


def test_the_limit_loses_deals_that_classic_wins() -> None:
    """The same cards under classic and under a limit of 6: the limit must lose some classic wins (few
    deals can be cleared with 6 stock cards), and never win a classic loss."""
    verdicts = [
        (solve(Deal.from_number(n, "classic")).winnable, solve(Deal.from_number(n, "classic(waste_uses=6)")).winnable)
        for n in range(12)
    ]
    assert any(classic and not limited for classic, limited in verdicts)
    assert not any(limited and not classic for classic, limited in verdicts)

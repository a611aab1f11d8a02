"""The family games of issue 8 in the browser (Spanish deck, sum 14, overlap, six rows, Giza, the
reserve row, Triangle, Apophis, the limited waste): each chosen in the New Game dialog as a player does,
a verified easy deal is dealt and shown whole, won by clicking the solver's solution, and the Rules
dialog explains the game's own rule.  And the waste-use limit as an option of any game: its count under
the waste, and its refusal."""

from __future__ import annotations

import re

import pytest
from browser import Errors, screenshot
from pages import GamePage
from playwright.sync_api import Page

from helpers import make_notation, row_of
from pyramid_solitaire import Deal, Game, Move
from pyramid_solitaire.solver import solve

#: preset -> (its name in the New Game dialog, the code's letters, a line of its rules page)
VARIANTS = {
    "spanish": ("スペイン式48枚（合計12）", "SP1", "組み合わせは A+Q、2+J、3+9、4+8、5+7、6+6 です。"),
    "fourteen": ("合計14（2枚ずつ）", "FT1", "Kも1枚では取り除けません。Aと組にして取り除きます。"),
    "overlap": (
        "重なり取り（覆うカードと組める）",
        "OV1",
        "自分を覆っているカードが残り1枚だけなら、そのカードとも組めます。",
    ),
    "six_rows": ("6段ピラミッド（21枚）", "SR1", "残りの31枚は裏向きのまま山札にします。"),
    "giza": ("ギザ（山札なし、8つの山）", "GZ1", "カードはこれで全部配られるので、山札はありません。"),
    "reserve": ("リザーブ（下に7枚）", "RV1", "次の7枚は表向きで、ピラミッドの下に1列に並べます。これがリザーブです。"),
    "triangle": ("トライアングル（逆さピラミッド）", "TG1", "最初に使えるのは一番上の段の7枚だけです。"),
    "apophis": ("アポフィス（捨て札3山）", "AP1", "捨て札の3つの山は、それぞれ一番上の1枚が使えます。"),
    "limited_waste": ("捨て札制限", "LW1", "捨て札のカードを使って取り除けるのは、1ゲームで12回までです"),
    "cells": ("フリーセル", "FC1", "フリーセルが1つあります。"),
}


@pytest.mark.parametrize("preset", sorted(VARIANTS))
def test_a_verified_easy_deal_is_dealt_and_won_by_clicking(
    desktop: tuple[Page, Errors], server: str, preset: str
) -> None:
    page, errors = desktop
    name, letters, rule_line = VARIANTS[preset]
    game = GamePage(page, server).open("/")
    game.new_game_dialog()
    options = page.eval_on_selector_all("#new-rules option", "els => els.map(e => [e.value, e.textContent])")
    assert [preset, name] in options
    page.select_option("#new-rules", preset)
    page.check('input[name=difficulty][value="E"]')
    game.button("new-start")  # and wait for the new game
    code = game.text("#deal-link")
    assert re.fullmatch(rf"{letters}-E-[A-Z]+", code)
    assert game.text("#diff-badge") == "やさしい · クリア可能と確認済み"
    deal = Deal.from_code(code)
    # the layout: the pyramid and any reserve piles (Giza, the reserve row), every card face up
    assert len(game.pyramid_cards()) == deal.rules.board_size
    assert sorted(filter(None, game.pyramid_cards())) == sorted(str(c) for c in deal.pyramid + deal.reserve)
    # a game that deals every card to the layout has no stock to tap
    assert page.locator("#stock-area .stock-btn").count() == (0 if preset == "giza" else 1)
    # the key legend names the keys this game has: D for a stock, C for a free cell
    keys = game.text("#keys-help")
    assert keys.startswith("矢印キー：使えるカードを移動") and "H：ヒント" in keys
    assert ("D：山札" in keys) == (preset != "giza")
    assert ("C：フリーセルに置く" in keys) == (preset == "cells")
    screenshot(page, f"{preset}-start")

    page.click("#btn-rules")  # the game's own rules
    page.locator("#dlg-rules").wait_for(state="visible")
    assert rule_line in page.inner_text("#dlg-rules")
    page.keyboard.press("Escape")
    page.locator("#dlg-rules").wait_for(state="hidden")

    result = solve(deal, time_limit=30)  # verified: the solver finds the win the label promises
    assert result.winnable and result.solution is not None
    engine = Game(deal)
    for move in result.solution:
        game.play(move)
        engine.push(move)
    page.locator("#dlg-result").wait_for(state="visible")
    assert game.text("#result-title") == "クリア！"
    assert f"手数\n{len(result.solution)}" in game.text("#result-figures")
    # the stock left only where there is a stock (Giza deals every card to the layout)
    assert ("山札の残り" in game.text("#result-figures")) == (preset != "giza")
    assert game.text("#result-stats-title") == f"この難易度での成績（{name}・やさしい）"
    screenshot(page, f"{preset}-won")
    assert list(errors) == []


#: Row 7 holds no pair; the stock starts 4c 4d 3c, each pairing with a card of the row.
LIMITED_NOTATION = make_notation(row_of(7, "Kd 9c 9d Ts 3s 6h 6s"), ["4c", "4d", "3c"])


def test_the_waste_use_limit_is_an_option_of_the_new_game_dialog(desktop: tuple[Page, Errors], server: str) -> None:
    page, errors = desktop
    game = GamePage(page, server).open("/")
    game.new_game_dialog()
    page.select_option("#new-rules", "classic")
    assert page.input_value("#opt-waste-uses") == "unlimited"
    page.select_option("#new-rules", "limited_waste")
    assert page.input_value("#opt-waste-uses") == "12"  # the preset's own limit
    page.select_option("#new-rules", "classic")
    page.select_option("#opt-waste-uses", "8")
    page.fill("#new-deal", LIMITED_NOTATION)
    game.button("new-start")  # and wait for the new game
    assert Deal.from_code(game.text("#deal-link")).rules.waste_uses == 8  # the option is part of the code
    assert game.text("#waste-uses") == "捨て札：残り8回"
    page.click("#btn-rules")
    page.locator("#dlg-rules").wait_for(state="visible")
    rules_text = page.inner_text("#dlg-rules")
    assert "このゲームのオプション：捨て札を使える回数（8）" in rules_text  # the option that differs from classic
    assert "捨て札のカードを使って取り除けるのは、1ゲームで8回までです" in rules_text
    page.keyboard.press("Escape")
    assert list(errors) == []


def test_the_waste_uses_left_count_down_and_a_used_up_waste_is_refused(
    desktop: tuple[Page, Errors], server: str
) -> None:
    page, errors = desktop
    code = Deal.from_notation(LIMITED_NOTATION, "classic(waste_uses=1)").code
    game = GamePage(page, server).open(f"/play/{code}")  # a shared link carries the limit
    assert game.text("#waste-uses") == "捨て札：残り1回"
    game.tap_stock()
    game.play(Move.parse("9c+4c"))
    assert game.text("#waste-uses") == "捨て札：残り0回"
    game.tap_stock()
    assert game.waste_top() == "4d"
    assert "4d" not in game.cards_with("usable")
    label = page.get_attribute('#stock-area [data-key="waste"]', "aria-label") or ""
    assert label.endswith("残り0回")  # screen readers hear the count with the card
    game.tap("9d")
    game.tap("4d")
    assert game.message() == "捨て札はもう使えません（1回まで）"
    assert game.waste_top() == "4d" and "9d" in game.pyramid_cards()  # nothing was removed
    screenshot(page, "waste-uses-used-up")
    assert list(errors) == []

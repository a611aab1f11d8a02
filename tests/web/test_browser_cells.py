"""Free cells in the browser: a card is chosen, then an empty cell tapped, by pointer or keyboard; the
parked card shows in its cell, the card it covered becomes usable, and the two pair from there.  A tap on
a cell with nothing chosen says what to do; the New Game dialog offers the number of cells and a shared
link carries it.  (On a phone, with an audit: test_accessibility.py.)"""

from __future__ import annotations

from browser import Errors, screenshot
from pages import GamePage
from playwright.sync_api import Page

from helpers import make_notation, row_of
from pyramid_solitaire import Deal, Game, Move

#: 5c (row 7) covers its partner 8h (row 6); Kd beside it goes alone; 4c first in the stock pairs with 9c.
NOTATION = make_notation({**row_of(7, "Kd 5c 9c Ts 3s 6h 6s"), (6, 1): "8h"}, ["4c", "7d", "2h"])


def open_game(page: Page, server: str, rules: str = "cells") -> GamePage:
    return GamePage(page, server).open(f"/play/{Deal.from_notation(NOTATION, rules).code}")


def test_a_card_parked_by_tapping_a_cell_uncovers_its_partner_and_pairs_from_the_cell(
    desktop: tuple[Page, Errors], server: str
) -> None:
    page, errors = desktop
    game = open_game(page, server)
    assert game.cells() == [None]
    assert page.get_attribute("#cells .cell-slot", "aria-label") == "フリーセル1、空き"
    game.tap_cell()  # nothing chosen yet
    assert game.message() == "フリーセルに置くカードを1枚選んでから、空いているセルを選んでください"
    game.tap("Kd")
    game.tap("5c")
    assert "5c" in game.cards_with("selected")
    game.tap_cell()
    assert game.cells() == ["5c"]
    assert game.message() == "クラブの5をフリーセルに置きました"
    assert "5c" not in game.pyramid_cards()
    assert {"5c", "8h"} <= set(game.cards_with("usable"))  # 8h is uncovered, 5c usable in its cell
    label = page.get_attribute('#cells [data-card="5c"]', "aria-label") or ""
    assert label == "フリーセル1、クラブの5、使用可能"
    page.wait_for_timeout(500)  # the card's slide into the cell, for the picture only
    screenshot(page, "cells-parked")
    game.tap("8h")
    game.tap("5c")
    assert game.cells() == [None]
    assert "8h" not in game.pyramid_cards()
    assert game.text("#moves") == "3"
    game.button("btn-undo")  # the pair comes back, 5c in its cell again
    assert game.cells() == ["5c"]
    assert list(errors) == []


def test_a_card_goes_to_the_cell_tapped_and_keeps_it_after_a_reload(desktop: tuple[Page, Errors], server: str) -> None:
    """Two cells: tapping the second puts the card in the second, and the first stays empty for the next."""
    page, errors = desktop
    game = open_game(page, server, "classic(cells=2)")
    assert game.cells() == [None, None]
    shortcuts = page.eval_on_selector_all(
        "#cells .cell-slot", "els => els.map(e => e.getAttribute('aria-keyshortcuts'))"
    )
    assert shortcuts == ["C", None]  # the C key fills the first empty cell, and only that one says so
    game.tap("Kd")
    game.tap("5c")
    game.tap_cell(1)
    assert game.cells() == [None, "5c"]
    assert page.get_attribute('#cells [data-card="5c"]', "aria-label") == "フリーセル2、クラブの5、使用可能"
    game.tap("9c")
    game.tap_cell(0)
    assert game.cells() == ["9c", "5c"]
    page.wait_for_timeout(500)  # the slide into the cell, for the picture only
    screenshot(page, "cells-two")
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    assert game.cells() == ["9c", "5c"]
    assert list(errors) == []


def test_a_full_cell_refuses_another_card_and_keeps_the_game(desktop: tuple[Page, Errors], server: str) -> None:
    page, errors = desktop
    game = open_game(page, server)
    game.play(Move.parse("9c>cell"))
    assert game.cells() == ["9c"]
    assert page.locator("#cells .cell-slot").count() == 0  # no empty cell left to tap
    game.tap("Kd")
    game.tap("5c")
    game.press("c")  # the keyboard's way to a cell, with none empty
    assert game.message() == "空いているフリーセルがありません"
    assert game.cells() == ["9c"] and "5c" in game.pyramid_cards()
    assert list(errors) == []


def test_a_card_is_parked_with_the_keyboard(desktop: tuple[Page, Errors], server: str) -> None:
    page, errors = desktop
    game = open_game(page, server)
    game.play_by_keyboard(Move.parse("Kd"))
    game.play_by_keyboard(Move.parse("5c>cell"))
    assert game.cells() == ["5c"]
    game.play_by_keyboard(Move.parse("8h+5c"))
    assert game.cells() == [None]
    assert list(errors) == []


def test_the_number_of_cells_is_an_option_of_the_new_game_dialog(desktop: tuple[Page, Errors], server: str) -> None:
    page, errors = desktop
    game = GamePage(page, server).open("/")
    game.new_game_dialog()
    page.select_option("#new-rules", "cells")
    assert page.input_value("#opt-cells") == "1"  # the preset's own
    page.select_option("#new-rules", "classic")
    assert page.input_value("#opt-cells") == "0"
    page.select_option("#opt-cells", "3")
    page.fill("#new-deal", NOTATION)
    game.button("new-start")  # and wait for the new game
    code = game.text("#deal-link")
    assert Deal.from_code(code).rules.cells == 3
    assert game.cells() == [None, None, None]
    page.click("#btn-rules")
    page.locator("#dlg-rules").wait_for(state="visible")
    rules_text = page.inner_text("#dlg-rules")
    assert "このゲームのオプション：フリーセルの数（3）" in rules_text
    assert "フリーセルが3つあります。" in rules_text
    assert "相手になれるカードが1枚も残っていないときだけ" in rules_text  # dead cards, as cells make them
    page.keyboard.press("Escape")
    # the shared link deals the same game with its three cells
    again = GamePage(page, server).open(f"/play/{code}")
    assert again.cells() == [None, None, None]
    assert list(errors) == []


def park_hinted_line(rules: str = "classic(cells=1,passes=1)") -> tuple[Deal, list[Move], Move]:
    """A deal and a line of plain hints after which the plain hint is a park (nothing else is left)."""
    for number in range(200):
        deal = Deal.from_number(number, rules)
        engine = Game(deal)
        line: list[Move] = []
        while engine.status == "playing":
            hint = engine.hint()
            assert hint is not None
            if hint.kind == "park":
                return deal, line, hint
            engine.push(hint)
            line.append(hint)
    raise AssertionError("no park hinted in 200 deals")


def test_the_hint_says_to_park_a_card_when_nothing_else_is_left(desktop: tuple[Page, Errors], server: str) -> None:
    page, errors = desktop
    deal, line, hint = park_hinted_line()
    game = GamePage(page, server).open(f"/play/{deal.code}")
    for move in line:
        game.play(move)
    game.button("btn-hint")
    card = hint.cards[0]
    assert game.message() == f"ヒント：{card.name('ja')}をフリーセルに置きましょう"
    assert str(card) in game.cards_with("hinted")
    game.play(hint)  # and the player does it
    assert game.cells() == [str(card)]
    assert list(errors) == []

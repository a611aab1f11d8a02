"""The game in a real browser (Debian's Chromium via Playwright): the seeds' worked examples clicked
through, whole deals won by mouse and by keyboard, undo/redo/hint/rewind, shared links, both languages,
phone and desktop.  Screenshots land in test-artifacts/screenshots/."""

from __future__ import annotations

import re
import time

import pytest
from browser import DESKTOP, PHONE, Errors, open_context, screenshot
from pages import GamePage
from playwright.sync_api import Browser, Page

from helpers import make_notation, row_of
from pyramid_solitaire import Deal
from pyramid_solitaire.catalog import earned
from pyramid_solitaire.moves import Move
from pyramid_solitaire.solver import solve

SEED_001_ROW_7 = "Ks 6h 3c 7d Ts Qh 9c"
SEED_000 = (
    "Jd 6c 7h As 4d Qs 5h 3d 6h 8s Kh Kc Ad Ks 9c Qc 2c 8d Td Ts Js 7c Tc 3h 4h 3s Kd 7s 7d Ac 3c 4c 5c "
    "8c Jc 2d 5d 6d 9d Qd Ah 2h 8h 9h Th Jh Qh 2s 4s 5s 6s 9s"
)
#: Qc at (5,1) with three aces under it; Ad+Qd takes the last ace it could meet (tests/test_game.py).
DEAD_PYRAMID = {(5, 1): "Qc", (6, 1): "Ac", (6, 2): "Ah", (7, 1): "As", (7, 5): "Ad", (7, 6): "Qd"}


def seed_001_code() -> str:
    return Deal.from_notation(make_notation(row_of(7, SEED_001_ROW_7), ["Ad"]), "classic").code


def winnable_deal(rules: str = "classic", start: int = 0) -> tuple[Deal, list[Move]]:
    """The first deal from ``start`` the solver proves winnable, with its shortest solution; its code
    carries the difficulty it has earned (the server would label it so whatever letter it was given).
    The time limit is generous so that a loaded machine finds the same deal as a quiet one."""
    for number in range(start, start + 50):
        deal = earned(Deal.from_number(number, rules, "N"))
        result = solve(deal, shortest=True, time_limit=60)
        if result.winnable and result.solution is not None:
            return deal, result.solution
    raise AssertionError("no winnable deal found")


def no_errors(errors: Errors) -> None:
    assert list(errors) == [], f"the page reported errors: {errors}"


def test_seed_001_worked_example(desktop: tuple[Page, Errors], server: str) -> None:
    page, errors = desktop
    game = GamePage(page, server).open(f"/play/{seed_001_code()}")
    assert game.text("#stock-label") == "1/3周目 · 残り 24"
    assert set(game.cards_with("usable")) == set(SEED_001_ROW_7.split())
    screenshot(page, "seed-001-start")

    game.tap("Ks")  # a king goes with one tap
    assert game.card("Ks").count() == 0
    page.wait_for_function("() => document.getElementById('live').textContent !== ''")
    assert game.text("#live") == "スペードのキングを取り除きました"

    game.tap("6h")  # its partners light: only 7d
    assert game.cards_with("selected") == ["6h"]
    assert game.cards_with("partner") == ["7d"]
    label = game.card("6h").get_attribute("aria-label") or ""
    assert label.startswith("ハートの6")
    game.tap("7d")
    assert game.card("6h").count() == 0 and game.card("7d").count() == 0
    assert game.text("#removed .removed-count") == "3枚"
    assert page.get_attribute("#removed", "aria-label") == "取り除いた札：3枚"

    game.tap("Qh")
    game.tap("9c")  # refused, with the two values and the sum
    assert "Q(12)+9=21" in game.message()
    assert game.card("Qh").count() == 1 and game.card("9c").count() == 1
    assert game.cards_with("selected") == []  # classic: the selection clears
    screenshot(page, "seed-001-refused-sum")

    game.tap("3c")
    game.tap("Ts")
    game.tap_stock()
    assert game.waste_top() == "Ad"
    assert game.text("#stock-label") == "1/3周目 · 残り 23"
    game.tap("Qh")
    assert "Ad" in game.cards_with("partner")
    game.tap("Ad")
    assert game.card("Qh").count() == 0 and game.card("Ad").count() == 0
    assert game.text("#moves") == "5"  # Ks, 6h+7d, 3c+Ts, draw, Qh+Ad; the refused pair is no move
    no_errors(errors)


def test_seed_000_worked_example_in_pyramide(desktop: tuple[Page, Errors], server: str) -> None:
    page, errors = desktop
    code = Deal.from_notation(SEED_000, "pyramide").code
    game = GamePage(page, server).open(f"/play/{code}")
    assert game.waste_top() == "7d"
    assert game.text("#score") == "0"
    game.tap("Kd")
    game.tap("Tc")
    game.tap("3s")
    assert game.text("#score") == "30"
    game.tap("7c")
    game.tap("7s")
    assert "合計が13になる必要があります" in game.message()
    assert game.cards_with("selected") == ["7s"]  # the second card stays selected

    # Qc in row 6 is covered: nothing is said without the assist ...
    page.evaluate("document.getElementById('message').textContent = ''")
    game.tap("Qc")
    assert game.message() == ""
    # ... and with the error-explanation assist on, the app says why.
    game.settings(assist=True)
    game.tap("Qc")
    assert "このカードは別のカードに覆われています" in game.message()
    screenshot(page, "seed-000-covered")
    no_errors(errors)


def test_a_verified_deal_won_by_clicking_the_solvers_solution(desktop: tuple[Page, Errors], server: str) -> None:
    page, errors = desktop
    deal, solution = winnable_deal()
    game = GamePage(page, server).open(f"/play/{deal.code}")
    assert "クリア可能と確認済み" in game.text("#diff-badge")
    for move in solution:
        game.play(move)
    result = page.locator("#dlg-result")
    result.wait_for(state="visible")
    assert game.text("#result-title") == "クリア！"
    figures = game.text("#result-figures")
    assert f"手数\n{len(solution)}" in figures
    assert "取り消し\n0" in figures
    assert f"{deal.number} ({deal.code})" in figures
    assert {"E": "やさしい", "N": "ふつう"}[deal.difficulty] in figures
    stats = game.text("#result-stats")
    assert "プレイ数\n1" in stats and "勝率\n100%" in stats and "連勝\n1" in stats
    screenshot(page, "result-won")
    page.click("#dlg-result button[value=close]")
    for control in ("btn-hint", "btn-undo", "btn-redo", "btn-resign"):
        assert page.is_disabled(f"#{control}"), f"#{control} is still on after the win"
    no_errors(errors)


def test_a_whole_deal_won_by_keyboard_only(browser: Browser, server: str) -> None:
    context, errors = open_context(browser, **DESKTOP)
    page = context.new_page()
    deal, solution = winnable_deal(start=10)
    game = GamePage(page, server).open(f"/play/{deal.code}")
    for move in solution:
        game.play_by_keyboard(move)
    page.locator("#dlg-result").wait_for(state="visible")
    assert game.text("#result-title") == "クリア！"
    screenshot(page, "keyboard-won")
    no_errors(errors)
    context.close()


def test_undo_redo_and_hint(desktop: tuple[Page, Errors], server: str) -> None:
    page, errors = desktop
    game = GamePage(page, server).open(f"/play/{seed_001_code()}")
    assert page.is_disabled("#btn-undo")
    game.button("btn-hint")
    hinted = game.cards_with("hinted")
    assert hinted == ["6h", "7d"]  # a pair takes two pyramid cards: preferred to the lone king
    assert game.message() == "ヒント：ハートの6とダイヤの7"
    game.tap("Ks")
    game.button("btn-undo")
    assert game.card("Ks").count() == 1
    assert game.text("#moves") == "1"  # the move counter never goes down
    assert (
        game.message() == "元に戻しました：スペードのキングがもとの場所にあります"
    )  # what came back, not "undone" alone
    game.button("btn-redo")
    assert game.card("Ks").count() == 0
    assert page.is_disabled("#btn-redo")
    # a draw taken back and played again says so, and which card
    game.tap_stock()
    drawn = game.waste_top()
    game.button("btn-undo")
    assert game.message() == "元に戻しました：めくった札を山札に戻しました" and game.waste_top() is None
    game.button("btn-redo")
    assert game.waste_top() == drawn and game.message().endswith("をめくりました")
    game.button("btn-undo")
    game.press("u")
    assert game.card("Ks").count() == 1
    game.press("r")
    assert game.card("Ks").count() == 0
    no_errors(errors)


def test_a_hint_asked_again_lights_for_its_own_three_seconds(desktop: tuple[Page, Errors], server: str) -> None:
    """A hint lights its cards (or the stock) for three seconds; asked again a second and a half later, the
    light stays for the second hint's three seconds, where the first hint's timer used to put it out."""
    page, errors = desktop

    def ask_twice_then_wait(game: GamePage) -> None:
        game.button("btn-hint")
        first = time.monotonic()
        page.wait_for_timeout(1500)
        game.button("btn-hint")
        page.wait_for_timeout(max(0.0, first + 3.5 - time.monotonic()) * 1000)

    game = GamePage(page, server).open(f"/play/{seed_001_code()}")
    ask_twice_then_wait(game)
    assert game.cards_with("hinted") == ["6h", "7d"]
    # a bottom row with no pair and no king, the waste empty: the hint is to draw
    code = Deal.from_notation(make_notation(row_of(7, "As Ah 2s 2h 3s 3h 4s")), "classic").code
    game.open(f"/play/{code}")
    ask_twice_then_wait(game)
    assert game.message() == "ヒント：山札をめくりましょう"
    assert "hinted" in (page.get_attribute("#stock-area .stock-btn", "class") or "").split()
    no_errors(errors)


def test_a_hints_glow_ends_with_the_move_and_does_not_pass_to_the_next_waste_card(
    desktop: tuple[Page, Errors], server: str
) -> None:
    """The hint names the waste's top card; played at once, that card goes and the one under it becomes the
    top, in the same element: the glow left running used to light that card, which the hint never named."""
    page, errors = desktop
    # no pair and no king in the bottom row; two eights drawn onto the waste for its five
    code = Deal.from_notation(make_notation(row_of(7, "5s Ah 2s 2h 3s 3h 4s"), ["8h", "8d"]), "classic").code
    game = GamePage(page, server).open(f"/play/{code}")
    game.tap_stock()
    game.tap_stock()
    game.button("btn-hint")
    hinted = game.cards_with("hinted")
    assert sorted(hinted) == ["5s", "8d"] and game.message() == "ヒント：スペードの5とダイヤの8"
    game.tap("5s")
    game.tap("8d")
    assert game.card("8h").count() == 1  # now the waste's top
    assert game.cards_with("hinted") == []
    assert page.locator(".hinted").count() == 0
    no_errors(errors)


def test_a_dead_card_gets_the_lock_and_one_tap_rewinds(desktop: tuple[Page, Errors], server: str) -> None:
    page, errors = desktop
    code = Deal.from_notation(make_notation(DEAD_PYRAMID, ["Qh", "Qs"]), "classic").code
    game = GamePage(page, server).open(f"/play/{code}")
    game.tap_stock()
    assert page.is_hidden("#btn-rewind")
    game.tap("Ad")
    game.tap("Qd")
    assert game.cards_with("dead") == ["Qc"]
    assert page.is_visible("#btn-rewind")
    assert "詰み札" in (game.card("Qc").get_attribute("aria-label") or "")
    # the lock is drawn over the part of the covered card that shows, not under the row covering it: the
    # card under the lock's middle is the dead card itself (the lock lets pointers through)
    lock = page.locator('#locks [data-key="lock-Qc"]').bounding_box()
    assert lock is not None
    under = page.evaluate(
        "([x, y]) => document.elementFromPoint(x, y).closest('.card').dataset.card",
        [lock["x"] + lock["width"] / 2, lock["y"] + lock["height"] / 2],
    )
    assert under == "Qc"
    assert page.evaluate("() => getComputedStyle(document.getElementById('locks')).zIndex") == "80"
    screenshot(page, "dead-card")
    game.button("btn-rewind")
    assert game.cards_with("dead") == []
    assert game.card("Ad").count() == 1 and game.card("Qd").count() == 1
    assert page.is_hidden("#btn-rewind")
    assert game.waste_top() == "Qh"  # back to just before the move, the draw kept
    no_errors(errors)


def test_a_shared_link_opens_the_same_deal_in_a_fresh_browser(browser: Browser, server: str) -> None:
    first, errors = open_context(browser, **DESKTOP)
    page = first.new_page()
    game = GamePage(page, server).open("/")
    link = page.get_attribute("#deal-link", "href")
    assert link is not None and re.fullmatch(r"/play/[A-Z0-9]+-[ENR]-[A-Z]+", link)
    cards = game.pyramid_cards()
    other, other_errors = open_context(browser, **PHONE)
    again = GamePage(other.new_page(), server).open(link)
    assert again.pyramid_cards() == cards
    assert again.text("#deal-link") == link.removeprefix("/play/")
    no_errors(errors)
    no_errors(other_errors)
    first.close()
    other.close()


def test_english_texts_and_card_names(desktop: tuple[Page, Errors], server: str) -> None:
    page, errors = desktop
    game = GamePage(page, server).open(f"/play/{seed_001_code()}")
    game.tap("6h")
    game.tap("6h")
    assert game.message() == "選択を外しました"
    game.settings(lang="en")
    page.wait_for_selector("html[lang=en]")
    assert game.message() == ""  # the Japanese message of the last tap is not left on an English page
    page.wait_for_function("() => document.getElementById('stock-label').textContent.startsWith('Pass')")
    assert game.text("#btn-new") == "New game"
    assert game.text("#stock-label") == "Pass 1/3 · 24 left"
    assert game.text("#keys-help") == (
        "Arrows: move between usable cards · Enter/Space: select · D: stock · U: undo · "
        "R: redo · H: hint · Esc: clear selection"
    )  # classic: no free cell
    assert game.card("6h").get_attribute("aria-label") == "6 of hearts, usable"
    game.tap("Qh")
    game.tap("9c")
    assert game.message() == "The cards must add up to 13: Q(12)+9=21."
    screenshot(page, "english")
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    assert game.text("#btn-new") == "New game"  # the setting is kept in this browser
    no_errors(errors)


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_board_fits_phone_and_desktop(browser: Browser, server: str, size: str) -> None:
    context, errors = open_context(browser, **(PHONE if size == "phone" else DESKTOP))
    page = context.new_page()
    GamePage(page, server).open(f"/play/{seed_001_code()}")
    width = (PHONE if size == "phone" else DESKTOP)["viewport"]["width"]  # type: ignore[index]
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width
    boxes = page.eval_on_selector_all(
        "#board .card, #board .stock-btn",
        "els => els.map(e => { const r = e.getBoundingClientRect(); return [r.left, r.right, r.width]; })",
    )
    assert boxes and all(left >= 0 and right <= width for left, right, _ in boxes)
    assert min(w for _, _, w in boxes) >= (40 if size == "phone" else 70)  # readable cards
    screenshot(page, f"board-{size}")
    no_errors(errors)
    context.close()


def test_thirteen_with_jokers_from_the_new_game_dialog(desktop: tuple[Page, Errors], server: str) -> None:
    page, errors = desktop
    game = GamePage(page, server).open(f"/play/{seed_001_code()}")
    game.new_game_dialog()
    page.select_option("#new-rules", "thirteen")
    page.select_option("#opt-jokers", "2")
    page.check('input[name=difficulty][value="R"]')
    game.button("new-start")  # and wait for the new game
    assert re.fullmatch(r"TH1J2-R-[A-Z]+", game.text("#deal-link"))
    assert len(game.page.locator("#jokers .card").all()) == 2
    cards = game.pyramid_cards()
    assert sorted(game.cards_with("usable")) == sorted([*cards[21:], "X1", "X2"])  # row 7 and the jokers
    assert cards[:21] == [None] * 21 and all(cards[21:])  # rows 1-6 face down, row 7 face up
    game.tap_slot(0)  # a face-down card: not usable, and never revealed
    assert game.pyramid_cards()[0] is None
    screenshot(page, "thirteen-jokers")
    no_errors(errors)


def test_a_bad_code_in_a_link_says_what_is_wrong(desktop: tuple[Page, Errors], server: str) -> None:
    page, errors = desktop
    game = GamePage(page, server).open("/play/CL1-Q-AAAAAAB")
    assert "配札コードが正しくありません" in game.message()
    assert game.pyramid_cards()  # a game is dealt anyway
    assert all("400" in e or "Bad Request" in e for e in errors)  # only the refused request is logged

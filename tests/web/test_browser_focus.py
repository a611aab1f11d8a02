"""Where the keyboard focus goes when a dialog closes: never lost to <body>, from where Tab goes on from the
end of the page (and, with 投了 disabled once the game is over, finds nothing there)."""

from __future__ import annotations

import contextlib

from browser import Errors, open_context, screenshot
from pages import GamePage
from playwright.sync_api import Browser, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

FOCUSED = "() => document.activeElement ? (document.activeElement.id || document.activeElement.tagName) : ''"
#: The focus has settled after a dialog closed: the close event, which puts it back, comes a moment after the
#: dialog is hidden, and until then the focus is still on the closed dialog's button.
FOCUS_OUT_OF_CLOSED = "() => { const a = document.activeElement; return !!a && !a.closest('dialog:not([open])'); }"


def focus_after_close(page: Page) -> str:
    """Where the focus is once a dialog's close event has run (what FOCUSED reads then)."""
    with contextlib.suppress(PlaywrightTimeout):  # still in the closed dialog: the assertion that follows says so
        page.wait_for_function(FOCUS_OUT_OF_CLOSED, timeout=3000)
    return str(page.evaluate(FOCUSED))


def resign_by_keyboard(game: GamePage) -> None:
    """投了 by keyboard: Tab-reached button, Enter, then the confirmation's 投了 (Tab from キャンセル), Enter."""
    page = game.page
    page.focus("#btn-resign")
    page.keyboard.press("Enter")
    page.locator("#dlg-confirm[open]").wait_for()
    assert page.evaluate(FOCUSED) == "confirm-no"
    page.keyboard.press("Tab")
    assert page.evaluate(FOCUSED) == "confirm-yes"
    game.press("Enter")
    page.locator("#dlg-result[open]").wait_for()


def test_closing_the_result_of_a_resigned_game_leaves_the_focus_on_new_game(
    desktop: tuple[Page, Errors], server: str
) -> None:
    page, errors = desktop
    game = GamePage(page, server).open("/")
    resign_by_keyboard(game)
    assert page.evaluate(FOCUSED) == "result-title"  # the outcome first, as the other dialogs start
    page.keyboard.press("Tab")
    assert page.evaluate(FOCUSED) == "btn-watch"
    page.keyboard.press("Escape")
    page.locator("#dlg-result").wait_for(state="hidden")
    # 投了, which opened it all, is disabled now: the focus is on 新しいゲーム, shown, not on <body>
    assert focus_after_close(page) == "btn-new"
    assert page.evaluate("() => document.activeElement.matches(':focus-visible')")
    page.keyboard.press("Enter")
    page.locator("#dlg-new[open]").wait_for()
    page.focus("#new-start")
    game.press("Enter")  # a new deal

    # the result's 閉じる by keyboard, likewise
    resign_by_keyboard(game)
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    assert page.inner_text(":focus") == "閉じる"
    page.keyboard.press("Enter")
    page.locator("#dlg-result").wait_for(state="hidden")
    assert focus_after_close(page) == "btn-new"
    assert list(errors) == []


def test_a_deal_started_from_the_result_leaves_the_focus_on_the_page(desktop: tuple[Page, Errors], server: str) -> None:
    page, errors = desktop
    game = GamePage(page, server).open("/")
    resign_by_keyboard(game)
    first = page.evaluate("document.body.dataset.game")

    # 同じ配札でもう一度: the result closes and the same deal is dealt again
    page.focus("#result-again")
    game.press("Enter")
    assert page.evaluate("document.body.dataset.game") != first
    assert page.evaluate(FOCUSED) == "btn-new"

    # the result's 新しいゲーム opens the New Game dialog; its 開始 deals, and the focus is not lost with
    # the result's button that opened the dialog
    resign_by_keyboard(game)
    second = page.evaluate("document.body.dataset.game")
    page.focus("#result-new")
    page.keyboard.press("Enter")
    page.locator("#dlg-new[open]").wait_for()
    page.focus("#new-start")
    game.press("Enter")
    assert page.evaluate("document.body.dataset.game") != second
    assert page.evaluate(FOCUSED) == "btn-new"
    page.keyboard.press("Tab")  # and Tab goes on from there, into the top bar
    assert page.evaluate(FOCUSED) == "btn-rules"
    assert list(errors) == []


def test_the_result_opens_at_its_title_on_a_phone_held_sideways(browser: Browser, server: str) -> None:
    """On a small phone on its side the result is taller than the screen and scrolls: it opens at its top,
    the outcome in view and the focus on it, not scrolled down to the first of the buttons at its foot.
    (From 640 px up it takes two figures a row and fits: tests/web/test_browser_table.py.)"""
    sideways = {"width": 568, "height": 320}
    context, errors = open_context(browser, viewport=sideways, is_mobile=True, has_touch=True, device_scale_factor=3)
    page = context.new_page()
    game = GamePage(page, server).open("/")
    game.settings(lang="en")
    page.click("#btn-resign")
    page.click("#confirm-yes")
    page.locator("#dlg-result[open]").wait_for()
    dialog = page.locator("#dlg-result")
    assert dialog.evaluate("d => d.scrollHeight > d.clientHeight")  # it does scroll here
    assert dialog.evaluate("d => d.scrollTop") == 0
    assert page.evaluate(FOCUSED) == "result-title"
    title = page.locator("#result-title").bounding_box()
    shown = dialog.bounding_box()
    assert title is not None and shown is not None and title["y"] >= shown["y"]
    # the reason is a sentence of its own, not "Game over — You gave this game up." with a capital after a dash
    assert game.text("#result-title") == "Game over. You gave this game up."
    screenshot(page, "result-sideways")
    assert list(errors) == []
    context.close()


def test_a_dialog_opened_by_a_tap_starts_on_its_first_control_without_a_ring(browser: Browser, server: str) -> None:
    """新しいゲーム tapped on a phone: the dialog's rules list has the focus (Tab goes on from there) but no
    ring round it, which a player who only taps would take for something chosen; opened by a key, the
    ring is there."""
    context, errors = open_context(
        browser, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, device_scale_factor=3
    )
    page = context.new_page()
    GamePage(page, server).open("/")
    ringed = "() => [document.activeElement.id, document.activeElement.matches(':focus-visible')]"
    page.tap("#btn-new")
    page.locator("#dlg-new[open]").wait_for()
    with contextlib.suppress(PlaywrightTimeout):  # the dialog's toggle event comes a task after it opens
        page.wait_for_function("() => !document.activeElement.matches(':focus-visible')", timeout=3000)
    assert page.evaluate(ringed) == ["new-rules", False]
    page.keyboard.press("Escape")
    page.locator("#dlg-new").wait_for(state="hidden")
    page.focus("#btn-settings")
    page.keyboard.press("Enter")
    page.locator("#dlg-settings[open]").wait_for()
    page.wait_for_timeout(300)  # as long as the toggle event could take to drop the ring (it must not)
    assert page.evaluate(ringed) == ["set-lang", True]
    assert list(errors) == []
    context.close()

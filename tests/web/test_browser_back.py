"""The Back button (a phone's, the browser's) with a dialog open closes that dialog and leaves the player on
the table, as in the card games people know on their phones; with none open it leaves the app at once."""

from __future__ import annotations

from browser import PHONE, Errors, open_context, screenshot
from pages import GamePage
from playwright.sync_api import Browser, Page

CODE = "CL1-N-AAAAAAD"
OPEN_DIALOGS = "() => [...document.querySelectorAll('dialog[open]')].map((d) => d.id)"


def back(page: Page) -> None:
    """The Back button, a moment after what the player did before (as a hand would), and the moment the
    page has taken it."""
    page.wait_for_timeout(300)
    page.go_back(wait_until="commit")
    page.wait_for_timeout(300)  # (popstate runs after the history has moved; nothing on screen to wait for)


def test_back_closes_the_dialog_on_top_and_stays_in_the_game(desktop: tuple[Page, Errors], server: str) -> None:
    page, errors = desktop
    page.goto(f"{server}/static/favicon.svg")  # where the player came from
    game = GamePage(page, server).open(f"/play/{CODE}")
    game.tap_stock()  # a game under way: Back must not lose it
    page.click("#btn-records")
    page.locator("#dlg-records[open]").wait_for()
    back(page)
    assert page.evaluate(OPEN_DIALOGS) == []
    assert page.url == f"{server}/play/{CODE}"
    assert page.locator("#pyramid [data-card]").count() == 28 and game.waste_top() is not None

    # a dialog closed by its own button leaves no Back behind it: the next Back leaves the app
    page.click("#btn-rules")
    page.locator("#dlg-rules[open]").wait_for()
    page.keyboard.press("Escape")
    page.locator("#dlg-rules").wait_for(state="hidden")
    back(page)
    page.wait_for_url("**/favicon.svg")
    assert list(errors) == []


def test_back_over_a_confirmation_closes_only_the_confirmation(desktop: tuple[Page, Errors], server: str) -> None:
    page, errors = desktop
    game = GamePage(page, server).open(f"/play/{CODE}")
    game.tap_stock()
    page.click("#btn-resign")
    page.locator("#dlg-confirm[open]").wait_for()
    back(page)
    # 投了 was not confirmed: no result, the game goes on and can still be resigned
    assert page.evaluate(OPEN_DIALOGS) == []
    assert page.is_enabled("#btn-resign") and "投了" not in game.message()
    game.tap_stock()
    assert list(errors) == []


def test_a_game_started_from_a_dialog_keeps_its_address_after_back(browser: Browser, server: str) -> None:
    context, errors = open_context(browser, **PHONE)  # a phone, motion on, as players have it
    page = context.new_page()
    page.goto(f"{server}/static/favicon.svg")
    game = GamePage(page, server).open(f"/play/{CODE}")
    game.new_game_dialog(options=False)
    page.click("#new-start")
    page.locator("#dlg-new").wait_for(state="hidden")
    page.wait_for_function(f"() => location.pathname.startsWith('/play/') && !location.pathname.endsWith('{CODE}')")
    game.settle()
    shown = page.evaluate("location.pathname")
    page.wait_for_timeout(300)
    assert page.evaluate("location.pathname") == shown  # (the dialog's entry gone, the address stays the new game's)
    # the daily dialog, closed by Back, on the new game
    page.click("#btn-daily")
    page.locator("#dlg-daily[open]").wait_for()
    back(page)
    assert page.evaluate(OPEN_DIALOGS) == [] and page.evaluate("location.pathname") == shown
    screenshot(page, "back-closed-daily-phone")
    # a reload shows the game on the table, not the one before the dialog
    code = shown.rsplit("/", 1)[-1]
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    assert page.evaluate("location.pathname").endswith(code)
    back(page)
    page.wait_for_url("**/favicon.svg")
    assert list(errors) == []
    context.close()


def test_back_after_a_reload_with_a_dialog_open_leaves_at_once(desktop: tuple[Page, Errors], server: str) -> None:
    page, errors = desktop
    page.goto(f"{server}/static/favicon.svg")
    GamePage(page, server).open(f"/play/{CODE}")
    page.click("#btn-settings")
    page.locator("#dlg-settings[open]").wait_for()
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    back(page)  # (it did nothing once: the dialog's entry stayed with no dialog)
    page.wait_for_url("**/favicon.svg")
    assert list(errors) == []


def test_back_stops_a_replay_and_the_watched_line_as_their_buttons_do(
    desktop: tuple[Page, Errors], server: str
) -> None:
    page, errors = desktop
    page.goto(f"{server}/static/favicon.svg")
    game = GamePage(page, server).open(f"/play/{CODE}")
    game.tap_stock()
    page.click("#btn-resign")
    game.button("confirm-yes")
    page.locator("#dlg-result").wait_for(state="visible")
    # the solver's line: Back stops it, and the result it was watched from is there again
    page.click("#btn-watch")
    page.locator("#watch-bar").wait_for(state="visible")
    page.wait_for_function("() => /^[1-9]/.test(document.getElementById('watch-label').textContent)")
    back(page)
    page.locator("#watch-bar").wait_for(state="hidden")
    assert page.evaluate(OPEN_DIALOGS) == ["dlg-result"] and page.url == f"{server}/play/{CODE}"
    back(page)  # and the result, as any dialog
    assert page.evaluate(OPEN_DIALOGS) == []
    # a replay from the records: Back stops it, the game it was opened over comes back
    finished = page.evaluate("() => document.body.dataset.game")
    GamePage(page, server).open("/play/CL1-R-AAAAAAB")
    on_table = page.evaluate("() => document.body.dataset.game")
    page.click("#btn-records")
    page.click(f'#records-finished button[data-game="{finished}"]')
    page.locator("#replay-bar").wait_for(state="visible")
    page.click("#replay-next")
    page.wait_for_function("() => document.getElementById('replay-label').textContent.startsWith('再生中 1 ')")
    back(page)
    page.locator("#replay-bar").wait_for(state="hidden")
    page.wait_for_function("id => document.body.dataset.game === id", arg=on_table)
    assert page.evaluate(OPEN_DIALOGS) == [] and page.url.endswith("/play/CL1-R-AAAAAAB")
    back(page)  # nothing open: Back leaves
    page.wait_for_url("**/play/CL1-N-AAAAAAD")  # (the entry before: the first game's page, then the site before)
    assert list(errors) == []

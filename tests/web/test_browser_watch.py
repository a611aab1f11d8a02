"""Watching the solver's line in the browser: the result screen's button plays it on the table with the
table's own motion (motion is on, as players have it), pauses, steps back and on, changes speed, and
stops, which puts the player's finished game and its result back unchanged."""

from __future__ import annotations

from browser import PHONE, Errors, open_context, screenshot
from pages import GamePage
from playwright.sync_api import Browser, Page

from helpers import serving
from pyramid_solitaire import Deal
from pyramid_solitaire.rules import PRESETS
from pyramid_solitaire.solver import solve
from pyramid_solitaire.web.app import create_app
from pyramid_solitaire.web.pars import machine_turn

#: A verified classic deal (as the records tests use) and a deal the solver proves lost.
VERIFIED = "CL1-N-AAAAAAD"
LOST = Deal.from_number(17, PRESETS["classic"])


def resign(game: GamePage) -> None:
    page = game.page
    page.click("#btn-resign")
    game.button("confirm-yes")
    page.locator("#dlg-result").wait_for(state="visible")


def label(page: Page) -> str:
    return str(page.text_content("#watch-label"))


def wait_for_step(page: Page, text: str) -> None:
    page.wait_for_function("text => document.getElementById('watch-label').textContent === text", arg=text)


def pyramid_count(page: Page) -> int:
    return int(page.locator("#pyramid .card[data-card]").count())


def test_a_resigned_verified_deal_is_emptied_by_the_solvers_line(desktop: tuple[Page, Errors], server: str) -> None:
    page, errors = desktop
    shortest = solve(Deal.from_code(VERIFIED), shortest=True)
    assert shortest.solution is not None
    steps = len(shortest.solution)
    game = GamePage(page, server).open(f"/play/{VERIFIED}")
    resign(game)
    player_id = page.evaluate("() => document.body.dataset.game")
    # note whether any motion runs while the line plays (the table's own: cards flying to the pile)
    page.evaluate("""() => { window.sawMotion = false;
        setInterval(() => { if (document.getAnimations().length) window.sawMotion = true; }, 15); }""")
    page.click("#btn-watch")
    page.wait_for_function("() => document.getElementById('watch-note').textContent !== ''")
    note = page.text_content("#watch-note") or ""
    assert f"ソルバーの最短手順（{steps}手）" in note and "山札の順番" in note
    assert page.is_hidden("#dlg-result") and page.is_visible("#watch-bar")
    assert page.is_hidden(".controls #btn-hint") or not page.is_visible("#btn-hint")
    # it plays by itself, two moves a second at first; the table empties move by move with motion
    page.wait_for_function("() => /^[1-9]/.test(document.getElementById('watch-label').textContent)")
    assert page.locator("#watch-speed option").all_inner_texts() == ["毎秒1手", "毎秒2手", "毎秒4手"]
    page.select_option("#watch-speed", "4")
    wait_for_step(page, f"{steps} / {steps}手")
    game.settle()
    assert pyramid_count(page) == 0
    assert page.evaluate("() => window.sawMotion") is True
    assert "ソルバーがピラミッドを取り切りました" in game.message()
    screenshot(page, "watch-won-end")
    # step back: the table one move earlier, and forward again
    page.click("#watch-prev")
    wait_for_step(page, f"{steps - 1} / {steps}手")
    assert page.evaluate("() => document.body.dataset.version") == str(steps - 1)
    page.click("#watch-next")
    wait_for_step(page, f"{steps} / {steps}手")
    # stop: the player's resigned game is back, with its result, and nothing of it changed
    page.click("#watch-stop")
    page.locator("#dlg-result").wait_for(state="visible")
    assert page.evaluate("() => document.body.dataset.game") == player_id
    assert game.text("#result-title") == "ゲーム終了 — 投了しました"
    assert page.is_hidden("#watch-bar")
    assert page.evaluate("() => document.activeElement.id") == "btn-watch"
    me = page.request.get(f"{server}/api/me").json()
    mine = next(g for g in me["finished"] if g["id"] == player_id)
    assert mine["result"] == "resigned" and mine["moves"] == 0
    assert list(errors) == []


def test_a_lost_deals_watch_ends_with_the_most_cards_removed(desktop: tuple[Page, Errors], server: str) -> None:
    page, errors = desktop
    best = solve(LOST)
    assert best.winnable is False and best.best_line is not None
    game = GamePage(page, server).open(f"/play/{LOST.code}")
    resign(game)
    page.click("#btn-watch")
    page.wait_for_function("() => document.getElementById('watch-note').textContent !== ''")
    note = page.text_content("#watch-note") or ""
    assert f"この配札はクリアできません。ピラミッドを最も多く取る手順（28枚中{best.max_pyramid_removed}枚）" in note
    steps = len(best.best_line)
    # by keyboard: Space pauses, → steps on one move at a time
    page.evaluate("() => document.activeElement.blur()")
    page.keyboard.press(" ")
    page.wait_for_function("() => document.getElementById('watch-play').getAttribute('aria-label') === '再生'")
    shown = int(label(page).split(" ")[0])
    page.keyboard.press("ArrowRight")
    wait_for_step(page, f"{shown + 1} / {steps}手")
    page.keyboard.press("ArrowLeft")
    wait_for_step(page, f"{shown} / {steps}手")
    page.keyboard.press("End")  # the end of the line, as Home is its start (End did nothing)
    wait_for_step(page, f"{steps} / {steps}手")
    page.keyboard.press("Home")
    wait_for_step(page, f"0 / {steps}手")
    # Space with a card of the table focused (Tab reaches them) plays and pauses as well (it did nothing)
    page.locator("#pyramid .card[data-card]").last.focus()
    page.keyboard.press(" ")
    page.wait_for_function("() => document.getElementById('watch-play').getAttribute('aria-label') === '一時停止'")
    page.keyboard.press(" ")
    page.wait_for_function("() => document.getElementById('watch-play').getAttribute('aria-label') === '再生'")
    page.keyboard.press("Home")
    wait_for_step(page, f"0 / {steps}手")
    page.select_option("#watch-speed", "4")
    page.click("#watch-play")
    wait_for_step(page, f"{steps} / {steps}手")
    game.settle()
    assert 28 - pyramid_count(page) - page.locator("#pyramid .card:not([data-card])").count() == (
        best.max_pyramid_removed
    )
    assert f"ピラミッドを{best.max_pyramid_removed}枚取りました" in game.message()
    page.keyboard.press("Escape")
    page.locator("#dlg-result").wait_for(state="visible")
    assert list(errors) == []


def test_watching_on_a_phone_in_english(browser: Browser, server: str) -> None:
    context, errors = open_context(browser, locale="en-GB", **PHONE)
    page = context.new_page()
    game = GamePage(page, server).open("/play/" + Deal.from_number(1, PRESETS["thirteen"]).code)
    resign(game)
    page.click("#btn-watch")
    page.wait_for_function("() => document.getElementById('watch-note').textContent !== ''")
    note = page.text_content("#watch-note") or ""
    assert "The solver's shortest line (" in note
    assert "knowing the face-down cards and the order of the stock" in note
    page.wait_for_function("() => document.getElementById('watch-label').textContent.startsWith('Move 2 of')")
    # the whole table and the bar are in view on the phone
    bar = page.locator("#watch-bar").bounding_box()
    board = page.locator("#board").bounding_box()
    assert bar is not None and board is not None
    assert bar["y"] >= 0 and board["y"] + board["height"] <= 740 + 1
    screenshot(page, "watch-phone-en")
    page.click("#watch-stop")
    page.locator("#dlg-result").wait_for(state="visible")
    assert errors == []
    context.close()


def test_a_par_worked_out_while_the_line_is_watched_is_in_the_result_when_it_stops(browser: Browser) -> None:
    """The result of a verified deal asks again for a par still being worked out (「計算中」). It stopped
    asking while the solver's line was watched, and the result shown after the watch said 「計算中」 for
    good. A fresh site, whose par for the deal is not known, and this machine's turn to search held until
    the watch has begun."""
    with serving(create_app()) as url:
        context, errors = open_context(browser, **PHONE)
        page = context.new_page()
        with machine_turn():
            game = GamePage(page, url).open(f"/play/{VERIFIED}")
            game.tap_stock()
            resign(game)
            assert "計算中" in game.text("#result-figures")
            page.click("#btn-watch")
            page.locator("#watch-bar").wait_for(state="visible")
        game_id = page.evaluate("() => document.body.dataset.game")
        par = None
        for _ in range(240):
            par = page.request.get(f"{url}/api/games/{game_id}").json()["game"]["result"]["par"]
            if par["status"] != "pending":
                break
            page.wait_for_timeout(500)
        assert par is not None and par["status"] == "known"
        page.wait_for_timeout(4000)  # the page's asking comes every 3 s
        page.click("#watch-stop")
        page.locator("#dlg-result").wait_for(state="visible")
        assert f"（パー {par['moves']}）" in game.text("#result-figures")  # at once, not asked again now
        assert list(errors) == []
        context.close()

"""Today's challenges in the browser: the dialog lists them with their proven goals, one is started
and played by tapping cards until its goal is met, the move that meets it is celebrated, the result
says so, and the dialog then marks it done; the monthly badges show in the dialog and in Records."""

from __future__ import annotations

from datetime import date

import pytest
from browser import Errors, open_context, screenshot
from pages import GamePage
from playwright.sync_api import Browser, Page

from pyramid_solitaire import Deal, Game
from pyramid_solitaire.challenges import day_set


def test_a_challenge_is_listed_played_celebrated_and_marked_done(desktop: tuple[Page, Errors], server: str) -> None:
    page, errors = desktop
    game = GamePage(page, server).open("/")
    game.button("btn-hint")  # words of this game on the message line, which the challenge's must not keep
    hint = game.message()
    assert hint
    page.click("#btn-challenges")
    page.locator("#dlg-challenges").wait_for(state="visible")
    page.wait_for_function("() => document.querySelectorAll('#challenges-list li').length >= 4")
    listed = page.request.get(f"{server}/api/challenges?lang=ja").json()
    items = page.locator("#challenges-list li")
    assert items.count() == len(listed["challenges"]) >= 4
    titles = [items.nth(i).locator(".what").inner_text() for i in range(items.count())]
    assert titles == [c["title"] for c in listed["challenges"]]
    assert "山札を1周だけでクリア" in titles
    assert "どの目標もソルバーが達成できることを確かめてあります。" in game.text("#dlg-challenges")
    assert page.locator("#challenges-badges li").count() >= 1
    # each 挑戦する is drawn as the app's main buttons are (the dialog's own 閉じる), not as the browser's
    # plain grey button it was
    look = "e => { const c = getComputedStyle(e); return [c.backgroundColor, c.color, c.borderRadius]; }"
    main_button = page.locator("#dlg-challenges .buttons .primary").evaluate(look)
    assert page.locator("#challenges-list li:not(.done) button").first.evaluate(look) == main_button
    screenshot(page, "challenges-dialog")
    # the one-pass challenge, played by tapping its proof line on the page
    challenge = next(c for c in day_set(date.fromisoformat(listed["date"])) if c.kind == "one_pass")
    assert challenge.id == next(c["id"] for c in listed["challenges"] if c["kind"] == "one_pass")
    before = game.answered()
    page.click(f'#challenges-list li[data-challenge="{challenge.id}"] button')
    page.wait_for_function("before => `${document.body.dataset.game}` !== before.split('/')[0]", arg=before)
    assert game.message() != hint
    game.settle()
    assert page.is_hidden("#dlg-challenges")
    assert game.text("#challenge-badge") == "チャレンジ：山札を1周だけでクリア"
    assert game.message() == "チャレンジ：山札を1周だけでクリア — 0 / 1"  # the whole goal, which a badge may cut
    replay = Game(Deal.from_code(challenge.codes[0]))
    page.evaluate("""() => { window.banners = [];
        new MutationObserver(() => document.querySelectorAll('.confetti .banner').forEach(
            (b) => window.banners.push(b.textContent))).observe(document.body, {subtree: true, childList: true}); }""")
    for notation in challenge.proofs[0]:
        game.play(replay.push(notation))
    page.locator("#dlg-result").wait_for(state="visible")
    assert "チャレンジ達成！" in page.evaluate("() => window.banners")
    assert game.text("#result-challenge") == "チャレンジ「山札を1周だけでクリア」を達成しました"
    screenshot(page, "challenge-result")
    page.click("#dlg-result button[value=close]")
    page.click("#btn-challenges")
    done = page.locator(f'#challenges-list li[data-challenge="{challenge.id}"]')
    done.wait_for(state="visible")
    assert "done" in (done.get_attribute("class") or "") and "✓ 達成" in done.inner_text()
    page.keyboard.press("Escape")
    # the month's badge: none yet, with the completed challenge counted, in Records and under the calendar
    month = "2026年12月" if listed["date"].startswith("2026-12") else ""
    page.click("#btn-records")
    page.wait_for_function("() => document.querySelectorAll('#records-badges li').length > 0")
    shown = game.text("#records-badges")
    assert "まだなし（デイリー0日・チャレンジ1個）" in shown and month in shown
    page.click("#records-close")
    page.click("#btn-daily")
    page.wait_for_function("() => document.getElementById('daily-month-badge').textContent !== ''")
    assert "チャレンジ1個" in game.text("#daily-month-badge")
    # no medal yet: an empty ring where it will be, not a grey disc with a dot that reads as a broken icon
    assert page.eval_on_selector(
        "#daily-month-badge .medal", "m => [m.textContent, getComputedStyle(m).borderTopStyle]"
    ) == [
        "",
        "dashed",
    ]
    page.keyboard.press("Escape")
    assert list(errors) == []


def test_a_challenge_not_met_says_so_in_its_result(desktop: tuple[Page, Errors], server: str) -> None:
    """A challenge game given up showed 「チャレンジ：… — 0 / 1」 in the colour of success; it says it was not
    met, in the result's plain colour."""
    page, errors = desktop
    game = GamePage(page, server).open("/")
    page.click("#btn-challenges")
    page.wait_for_function("() => document.querySelectorAll('#challenges-list li').length >= 4")
    listed = page.request.get(f"{server}/api/challenges?lang=ja").json()
    moves = next(c for c in listed["challenges"] if c["kind"] == "moves")
    before = game.answered()
    page.click(f'#challenges-list li[data-challenge="{moves["id"]}"] button')
    page.wait_for_function("before => `${document.body.dataset.game}` !== before.split('/')[0]", arg=before)
    game.settle()
    page.click("#btn-resign")
    game.button("confirm-yes")
    page.locator("#dlg-result").wait_for(state="visible")
    assert game.text("#result-challenge") == f"チャレンジ：{moves['title']} — 今回は未達成"
    colour = "e => getComputedStyle(e).color"
    assert page.eval_on_selector("#result-challenge", colour) == page.eval_on_selector("#result-figures dt", colour)
    assert list(errors) == []


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_a_challenges_badge_is_whole_on_a_wide_screen(browser: Browser, server: str, lang: str) -> None:
    """Cut to 14em everywhere, the goal read 「Challenge: Clear a T…」 at 1920 px with the top bar half empty."""
    context, errors = open_context(browser, viewport={"width": 1920, "height": 1080}, locale=f"{lang}-JP")
    page = context.new_page()
    game = GamePage(page, server).open("/")
    game.settings(lang=lang)
    listed = page.request.get(f"{server}/api/challenges?lang={lang}").json()["challenges"]
    longest = max(listed, key=lambda c: len(c["title"]))
    page.click("#btn-challenges")
    page.click(f'#challenges-list li[data-challenge="{longest["id"]}"] button')
    page.locator("#challenge-badge:not([hidden])").wait_for()
    badge = page.locator("#challenge-badge")
    assert badge.evaluate("e => e.scrollWidth <= e.clientWidth"), game.text("#challenge-badge")
    assert game.text("#challenge-badge").endswith(longest["title"])
    assert page.evaluate("() => document.querySelector('.topbar').getBoundingClientRect().height") < 64  # one line
    assert list(errors) == []
    context.close()

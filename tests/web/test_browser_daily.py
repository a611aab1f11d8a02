"""The daily deal in Chromium: two browsers (two players) open /daily and get the same deal; one plays it
to a win by clicking the solver's line and sees its moves beside par, the day's leaderboard with its
own entry, the streak and the calendar; the result to share is read in Japanese and, from the other
player, in English."""

from __future__ import annotations

import json
import re
import time
import urllib.request
from datetime import UTC, datetime
from datetime import date as date_type
from typing import Any

from browser import DESKTOP, PHONE, open_context, screenshot
from pages import GamePage
from playwright.sync_api import Browser

from helpers import serving
from pyramid_solitaire.deal import Deal
from pyramid_solitaire.solver import solve
from pyramid_solitaire.web.app import create_app
from pyramid_solitaire.web.pars import machine_turn

#: Seconds to wait for the day's par (worked out in the background, up to a minute of CPU time).
PAR_WAIT = 240


def daily(server: str) -> dict[str, Any]:
    with urllib.request.urlopen(f"{server}/api/daily") as answer:
        data: dict[str, Any] = json.load(answer)
    return data


def settled_par(server: str) -> dict[str, Any]:
    """Today's daily deal once its par is known or known to be unknown."""
    deadline = time.monotonic() + PAR_WAIT
    found = daily(server)
    while found["par_status"] == "pending" and time.monotonic() < deadline:
        time.sleep(1)
        found = daily(server)
    assert found["par_status"] != "pending", "the par of today's deal was not worked out in time"
    return found


def test_two_players_get_the_same_daily_deal_and_a_win_shows_par_board_streak_and_share(
    browser: Browser, server: str
) -> None:
    today = settled_par(server)
    date, code = today["date"], today["code"]
    par_ja = str(today["par"]) if today["par_status"] == "known" else "不明"
    first_context, first_errors = open_context(browser, **DESKTOP)
    first_context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server)
    second_context, second_errors = open_context(browser, **DESKTOP)
    first = GamePage(first_context.new_page(), server).open("/daily")
    second = GamePage(second_context.new_page(), server).open("/daily")
    page = first.page
    assert first.text("#deal-link") == second.text("#deal-link") == code
    month, day = (int(part) for part in date.split("-")[1:])
    assert first.text("#daily-badge") == f"デイリー {month}月{day}日"
    assert page.url == f"{server}/daily/{date}"

    line = solve(Deal.from_code(code), best=False).solution
    assert line is not None
    for move in line:
        first.play(move)
    page.locator("#dlg-result").wait_for(state="visible")
    # the day as the badge writes it, not as the address does
    assert first.text("#result-title") == f"デイリー {month}月{day}日 — クリア！"
    assert f"手数\n{len(line)}（パー {par_ja}）" in first.text("#result-figures")
    assert first.text("#result-leaderboard-title") == f"{month}月{day}日のデイリーのランキング"
    assert page.locator("#result-leaderboard li.you").count() == 1

    page.click("#result-share")
    page.locator("#result-share-text").wait_for(state="visible")
    shared = first.text("#result-share-text").splitlines()
    par_part = f"（パー {today['par']}）" if today["par_status"] == "known" else ""
    assert shared[0] == f"ピラミッド デイリー {date}（クラシック（3周））"
    assert shared[1].startswith("クリア ") and shared[1].endswith(f" · {len(line)}手{par_part}")
    assert shared[2] == f"{server}/daily/{date}"
    assert not any(str(card) in "\n".join(shared) for move in line for card in move.cards)  # no spoiler
    assert page.evaluate("navigator.clipboard.readText()") == "\n".join(shared)
    assert first.text("#result-share-status") == "結果をコピーしました"
    screenshot(page, "daily-result-share")

    page.click("#dlg-result button[value=close]")
    page.click("#btn-daily")
    page.locator("#dlg-daily").wait_for(state="visible")
    page.locator("#daily-board li.you").wait_for()
    assert "連続クリア\n1" in first.text("#daily-figures")
    today_cell = page.locator(f"#daily-calendar button[data-date='{date}']")
    assert "won" in (today_cell.get_attribute("class") or "")
    assert today_cell.get_attribute("aria-label", timeout=1000).endswith("— クリア")
    screenshot(page, "daily-dialog")
    assert first.text("#daily-play") == "今日のデイリーをもう一度（練習）"

    # the day's deal opened again in a new tab: the game that counts, with its result, not a new deal
    again = GamePage(first_context.new_page(), server).open("/daily")
    again.page.locator("#dlg-result").wait_for(state="visible")
    assert again.text("#result-title") == f"デイリー {month}月{day}日 — クリア！"
    assert again.text("#moves") == str(len(line))

    # the second player, in English, gives up: the board still has one win, the share text says so in English
    second.settings(lang="en")
    second.page.click("#btn-resign")
    second.button("confirm-yes")
    second.page.locator("#dlg-result").wait_for(state="visible")
    english = date_type.fromisoformat(date).strftime("%B")  # the C locale's month names are English
    assert second.text("#result-leaderboard-title") == f"Leaderboard of the {english} {day} daily deal"
    second.page.click("#result-share")
    second.page.locator("#result-share-text").wait_for(state="visible")
    english = second.text("#result-share-text").splitlines()
    par_en = f" (par {today['par']})" if today["par_status"] == "known" else ""
    assert english[0] == f"Pyramid daily {date} (Classic (3 passes))"
    assert english[1].startswith("Not cleared · ") and english[1].endswith(f" · 0 moves{par_en}")
    assert english[2] == f"{server}/daily/{date}"

    # the practice game starts clean: the win's words stay with the win
    won_words = first.message()
    assert "クリア" in won_words
    page.click("#daily-play")
    page.wait_for_function("() => document.getElementById('moves').textContent === '0'")
    assert first.message() != won_words
    assert list(first_errors) == [] and list(second_errors) == []
    first_context.close()
    second_context.close()


def test_the_daily_badge_leaves_the_code_whole_on_a_phone_held_sideways(browser: Browser, server: str) -> None:
    """A past day's deal (the longest badge, in English) on a phone on its side: one row holds the whole
    code, the badge and the figures."""
    sideways = {"viewport": {"width": 844, "height": 390}, "is_mobile": True, "has_touch": True}
    context, errors = open_context(browser, **sideways)
    game = GamePage(context.new_page(), server).open("/daily/2026-12-01?rules=thirteen")
    game.settings(lang="en")
    assert game.text("#daily-badge") == "Daily Dec 1 · practice"
    link = game.page.locator("#deal-link")
    assert link.evaluate("element => element.scrollWidth <= element.clientWidth")  # not cut short
    assert link.inner_text().startswith("TH1-")
    for part in ("#deal-link", "#daily-badge", "#timer", "#moves"):
        box = game.page.locator(part).bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 70, part
    screenshot(game.page, "daily-practice-sideways")
    assert list(errors) == []
    context.close()


def test_the_daily_dialog_says_when_the_next_deal_comes_in_the_players_language(browser: Browser, server: str) -> None:
    """A player in London at 20:30 on 4 December sees the deal of 5 December: it is 05:30 in Tokyo, where
    the day turns. The dialog says the next deal comes in 18 h 30 min, at midnight Japan time; on a phone,
    in Japanese, then in English."""
    context, errors = open_context(browser, **PHONE, timezone_id="Europe/London")
    page = context.new_page()
    page.clock.set_fixed_time(datetime(2026, 12, 4, 20, 30, tzinfo=UTC))
    game = GamePage(page, server).open("/")
    page.click("#btn-daily")
    page.locator("#dlg-daily").wait_for(state="visible")
    page.locator("#daily-next:not(:empty)").wait_for()
    assert game.text("#daily-next") == "次の配札まで18時間30分（日本標準時0時に更新）"
    # no empty error line's height between the Play button and the leaderboard's heading
    gap = page.evaluate("""() => document.querySelector('#daily-records h3').getBoundingClientRect().top
        - document.getElementById('daily-play').getBoundingClientRect().bottom""")
    assert gap < 24, gap
    screenshot(page, "daily-next-deal")
    page.keyboard.press("Escape")
    page.clock.set_fixed_time(datetime(2026, 12, 5, 14, 58, 30, tzinfo=UTC))  # 23:58:30 in Tokyo
    game.settings(lang="en")
    page.click("#btn-daily")
    page.locator("#daily-next:has-text('Next deal')").wait_for()
    assert game.text("#daily-next") == "Next deal in 2 min (a new one each midnight, Japan Standard Time)"
    assert list(errors) == []
    context.close()


def test_the_daily_dialog_shows_the_par_when_it_has_been_worked_out(browser: Browser) -> None:
    """A par still being worked out shows 「計算中」, and its figure follows while the dialog stays open (it
    stayed 「計算中」 until the dialog was opened again). A fresh site, whose par for the day is not known
    yet, and this machine's turn to search held until the dialog has shown 「計算中」."""
    with serving(create_app()) as url:
        context, errors = open_context(browser, **PHONE)
        page = context.new_page()
        with machine_turn():
            game = GamePage(page, url).open("/")
            page.click("#btn-daily")
            page.locator("#daily-figures dd").first.wait_for()
            assert game.text("#daily-figures dd:first-of-type") == "計算中"
        page.wait_for_function(
            "() => document.querySelector('#daily-figures dd').textContent !== '計算中'", timeout=PAR_WAIT * 1000
        )
        today = daily(url)
        assert today["par_status"] != "pending" and page.is_visible("#dlg-daily")
        par = str(today["par"]) if today["par_status"] == "known" else "不明"
        assert game.text("#daily-figures dd:first-of-type") == par
        assert list(errors) == []
        context.close()


def test_dates_follow_the_browsers_english(browser: Browser, server: str) -> None:
    """A British browser reads "Tue 8 December", not the American "Tue, December 8" it was shown."""
    context, errors = open_context(browser, **PHONE, locale="en-GB")
    page = context.new_page()
    game = GamePage(page, server).open("/")
    page.click("#btn-daily")
    page.locator("#daily-date:not(:empty)").wait_for()
    shown = game.text("#daily-date")
    assert re.fullmatch(r"[A-Z][a-z]{2} \d{1,2} [A-Z][a-z]+", shown), shown
    assert list(errors) == []
    context.close()

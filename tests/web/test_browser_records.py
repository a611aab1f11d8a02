"""The records in the browser: the result screen's figures and leaderboard from the server, the
records dialog (statistics, resuming an unfinished game, replaying a finished one move by move, the
display name), resigning, and a reload that resumes the game."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import pytest
from browser import DESKTOP, PHONE, Errors, open_context, screenshot
from pages import GamePage
from playwright.sync_api import Browser, Page

from pyramid_solitaire import Deal
from pyramid_solitaire.solver import solve

CODE = "CL1-N-AAAAAAD"


def solution(code: str = CODE) -> list[str]:
    result = solve(Deal.from_code(code), time_limit=30)
    assert result.solution is not None
    return [str(m) for m in result.solution]


def won_through_the_api(page: Page, server: str, code: str = CODE) -> dict[str, Any]:
    """Play ``code`` to a win with the page's own cookie (as if in another tab)."""
    game: dict[str, Any] = page.request.post(f"{server}/api/games", data={"code": code}).json()["game"]
    for move in solution(code):
        assert page.request.post(f"{server}/api/games/{game['id']}/move", data={"move": move}).ok
    return game


def test_the_result_screen_shows_the_servers_figures_and_the_leaderboard(
    desktop: tuple[Page, Errors], server: str
) -> None:
    page, errors = desktop
    game = GamePage(page, server).open(f"/play/{CODE}")
    page.click("#btn-records")
    page.fill("#records-name", "テスト太郎")
    # Enter saves the name as the button does (it closed the dialog and threw the name away)
    page.press("#records-name", "Enter")
    page.wait_for_function("() => document.getElementById('live').textContent.includes('表示名')")
    assert page.is_visible("#dlg-records") and game.text("#records-name-status") == "表示名を保存しました"
    page.click("#records-close")
    # another player won the deal with the solver's hint (which sees the stock): their line says so
    browser = page.context.browser
    assert browser is not None
    rival = browser.new_context()
    coached: dict[str, Any] = rival.request.post(f"{server}/api/games", data={"code": CODE}).json()["game"]
    assert rival.request.post(f"{server}/api/games/{coached['id']}/coach").ok
    for move in solution():
        assert rival.request.post(f"{server}/api/games/{coached['id']}/move", data={"move": move}).ok
    rival.close()
    for move in solution():
        game.tap_stock() if move in ("draw", "recycle") else [game.tap(card) for card in move.split("+")]
    page.locator("#dlg-result").wait_for(state="visible")
    stats = game.text("#result-stats")
    assert "プレイ数\n1" in stats and "勝率\n100%" in stats
    leaderboard = page.locator("#result-leaderboard li")
    assert leaderboard.count() >= 2
    mine = page.locator("#result-leaderboard li.you")
    assert mine.count() == 1 and mine.inner_text().startswith("テスト太郎 — ")
    assert not mine.inner_text().endswith("ソルバーのヒントあり")
    assert any(
        line.startswith("匿名 — ") and line.endswith(" · ソルバーのヒントあり")
        for line in leaderboard.all_inner_texts()
    )
    screenshot(page, "result-leaderboard")
    assert list(errors) == []


def test_the_records_dialog_resumes_and_replays_games(desktop: tuple[Page, Errors], server: str) -> None:
    page, errors = desktop
    game = GamePage(page, server).open("/play/CL1-R-AAAAAAB")
    game.tap_stock()
    unfinished_id = page.evaluate("() => document.body.dataset.game")
    finished = won_through_the_api(page, server)
    GamePage(page, server).open("/play/CL1-R-AAAAAAE")  # dealt and left untouched: nothing to resume, not listed
    GamePage(page, server).open("/play/PY1-R-AAAAAAC")  # something else on screen (untouched, but on the table)

    page.click("#btn-records")
    dialog = page.locator("#dlg-records")
    dialog.wait_for(state="visible")
    cards = page.locator("#records-stats .stat-card")
    # rule sets by their names in the player's language, as the result dialog and the new-game menu give them
    assert cards.count() == 1
    assert cards.first.locator("h4").inner_text() == "クラシック（3周） · ふつう"
    figures = cards.first.locator("dl").inner_text().split("\n")
    assert figures[:6] == ["プレイ数", "1", "勝ち", "1", "勝率", "100%"]
    unfinished = page.locator("#records-unfinished li").all_inner_texts()
    assert [(text.split(" · ")[0], text.split("\n")[0].split(" · ")[-1]) for text in unfinished] == [
        ("ピラミッド（アプリ版・無制限・得点あり）", "PY1-R-AAAAAAC"),
        ("クラシック（3周）", "CL1-R-AAAAAAB"),
    ]
    # the game on the table is marked as the one being played, not offered to be resumed
    on_table, other = page.locator("#records-unfinished li").all()
    assert on_table.locator("button").count() == 0
    assert on_table.locator(".playing").inner_text() == "プレイ中"
    assert other.locator("button").inner_text() == "続ける"
    # each button is named with its game for a screen reader (a list of 「再生」「再生」… said nothing of which)
    label = other.locator("button").get_attribute("aria-label") or ""
    assert label.startswith("続ける：クラシック（3周） · ") and label.endswith(" · 途中")
    replay_label = page.locator("#records-finished button").first.get_attribute("aria-label") or ""
    assert replay_label.startswith("再生：クラシック（3周） · ") and replay_label.endswith(" · クリア！")
    last = page.locator("#records-finished li").all_inner_texts()[0]
    assert last.split(" · ")[0] == "クラシック（3周）" and "CL1-N-AAAAAAD" in last
    assert page.evaluate("() => document.activeElement.id") == "dlg-records-title"  # not the name box
    # the chart of the recent games: the one won game, as a bar
    assert page.locator("#records-chart rect.won").count() == 1
    assert page.text_content("#records-chart-caption") == "最近の1ゲーム：1勝0敗（緑の棒はクリアまでの時間、赤は負け）"
    screenshot(page, "records")
    page.click(f'#records-unfinished button[data-game="{unfinished_id}"]')
    page.wait_for_function("id => document.body.dataset.game === id", arg=unfinished_id)
    assert game.text("#deal-link") == "CL1-R-AAAAAAB" and game.text("#moves") == "1"

    page.click("#btn-records")
    page.click(f'#records-finished button[data-game="{finished["id"]}"]')
    page.locator("#replay-bar").wait_for(state="visible")
    steps = len(solution())
    page.wait_for_function("() => document.getElementById('replay-label').textContent !== ''")
    assert game.text("#replay-label") == f"再生中 0 / {steps}"
    assert game.text("#moves") == "0"
    page.click("#replay-next")
    page.click("#replay-next")
    page.wait_for_function("() => document.getElementById('replay-label').textContent.startsWith('再生中 2 ')")
    assert game.text("#moves") == "2"
    # each step forward says its move, as it was said when played (7c+6s: the second move of the line)
    assert solution()[1] == "7c+6s" and game.message() == "クラブの7とスペードの6を取り除きました"
    before = game.answered()
    page.click("#pyramid .card.usable >> nth=0")  # a replay cannot be played
    page.wait_for_timeout(200)
    assert game.answered() == before
    # by keyboard, as the solver's line is watched: ← → a move, Home and End its ends; each step is read out
    assert page.get_attribute("#replay-label", "aria-live") == "polite"
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => document.getElementById('replay-label').textContent.startsWith('再生中 3 ')")
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("() => document.getElementById('replay-label').textContent.startsWith('再生中 2 ')")
    assert game.message() == ""  # a step back: the move said before is not the one on the table
    page.keyboard.press("End")
    page.wait_for_function(f"() => document.getElementById('replay-label').textContent === '再生中 {steps} / {steps}'")
    page.keyboard.press("Home")
    page.wait_for_function("() => document.getElementById('replay-label').textContent.startsWith('再生中 0 ')")
    # by keyboard: a button that disables itself (to the end, to the start) hands the focus to its
    # neighbour, which left it on the page's body, nowhere to be seen
    page.focus("#replay-last")
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => document.getElementById('replay-label').textContent === '再生中 {steps} / {steps}'")
    assert page.locator("#pyramid .card").count() == 0  # the pyramid cleared
    assert page.evaluate("() => document.activeElement.id") == "replay-prev"
    page.focus("#replay-first")
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.getElementById('replay-label').textContent.startsWith('再生中 0 ')")
    assert page.evaluate("() => document.activeElement.id") == "replay-next"
    page.focus("#replay-close")
    page.keyboard.press("Enter")
    page.wait_for_function("id => document.body.dataset.game === id", arg=unfinished_id)
    assert page.is_hidden("#replay-bar")
    assert page.evaluate("() => document.activeElement.id") == "btn-records"  # where the replay was opened
    assert list(errors) == []


def test_resigning_ends_the_game_as_a_loss(desktop: tuple[Page, Errors], server: str) -> None:
    page, errors = desktop
    game = GamePage(page, server).open("/play/CL1-R-AAAAAAB")
    page.click("#btn-resign")
    page.locator("#dlg-confirm").wait_for(state="visible")  # the app's own question, not the browser's
    assert game.text("#confirm-title") == "投了しますか？"
    assert page.evaluate("() => document.activeElement.id") == "confirm-no"  # the safe choice first
    page.click("#confirm-no")
    assert page.is_hidden("#dlg-confirm") and page.is_enabled("#btn-resign")
    page.click("#btn-resign")
    game.button("confirm-yes")
    page.locator("#dlg-result").wait_for(state="visible")
    assert game.text("#result-title") == "ゲーム終了 — 投了しました"
    assert "勝率\n0%" in game.text("#result-stats")
    # the deal could be won (the solver clears it): the result says so, not that the player cleared it
    page.locator("#result-best:not(:empty)").wait_for()
    page.wait_for_function("() => !document.getElementById('result-best').textContent.includes('計算しています')")
    assert game.text("#result-best") == "この配札はクリア可能でした。別の手順を試してみましょう"
    page.click("#dlg-result button[value=close]")
    assert page.is_disabled("#btn-resign") and page.is_disabled("#btn-hint")
    assert list(errors) == []


def test_every_game_control_is_off_after_resigning_with_a_move_undone(browser: Browser, server: str) -> None:
    # a phone, as the player who found Redo still lit after resigning: draw, undo, resign
    context, errors = open_context(browser, **PHONE)
    page = context.new_page()
    game = GamePage(page, server).open("/play/CL1-R-AAAAAAB")
    game.tap_stock()
    game.button("btn-undo")
    assert page.is_enabled("#btn-redo")
    page.click("#btn-resign")
    game.button("confirm-yes")
    page.locator("#dlg-result").wait_for(state="visible")
    page.click("#dlg-result button[value=close]")
    for control in ("btn-hint", "btn-undo", "btn-redo", "btn-resign"):
        assert page.is_disabled(f"#{control}"), f"#{control} is still on after the game is over"
    assert list(errors) == []
    context.close()


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_records_dialog_writes_dates_with_the_month_in_words(browser: Browser, server: str, lang: str) -> None:
    # an American browser read "04/12/2026" (day first) on the English page
    context, errors = open_context(browser, **DESKTOP, locale={"en": "en-US", "ja": "ja-JP"}[lang], timezone_id="UTC")
    page = context.new_page()
    game = GamePage(page, server).open("/play/CL1-R-AAAAAAB")
    game.tap_stock()
    mine = page.request.get(f"{server}/api/me").json()
    started = datetime.fromtimestamp(mine["unfinished"][0]["started_ms"] / 1000, UTC)
    page.click("#btn-records")
    page.locator("#dlg-records").wait_for(state="visible")
    listed = page.locator("#records-unfinished li").first.inner_text()
    day = (
        f"{started:%b} {started.day}, {started.year}, "
        if lang == "en"
        else f"{started.year}年{started.month}月{started.day}日 {started.hour}:{started:%M}"
    )
    assert day in listed, f"{listed!r} does not give the date as {day!r}"
    assert list(errors) == []
    context.close()


def test_a_reload_resumes_the_game_where_it_was(desktop: tuple[Page, Errors], server: str) -> None:
    page, errors = desktop
    game = GamePage(page, server).open("/play/CL1-R-AAAAAAB")
    game.tap_stock()
    game.tap_stock()
    cards = game.pyramid_cards()
    waste = game.waste_top()
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    assert game.text("#moves") == "2" and game.waste_top() == waste and game.pyramid_cards() == cards
    assert list(errors) == []


def test_records_read_from_a_file_say_so_in_the_dialog(browser: Browser, server: str, tmp_path: Any) -> None:
    """「2ゲームを読み込みました」 went only to the table's message line, behind the records dialog, which
    closed and opened again at its top: the player saw nothing happen. It is said in the dialog too."""
    first, first_errors = open_context(browser, **DESKTOP)
    page = first.new_page()
    GamePage(page, server).open(f"/play/{CODE}")
    won_through_the_api(page, server)
    exported = tmp_path / "records.json"
    exported.write_bytes(page.request.get(f"{server}/api/me/export").body())
    second, second_errors = open_context(browser, **DESKTOP)
    other = second.new_page()
    GamePage(other, server).open("/play/CL1-R-AAAAAAB")
    other.click("#btn-records")
    other.locator("#dlg-records[open]").wait_for()
    other.set_input_files("#records-import", str(exported))
    other.wait_for_function("() => document.getElementById('records-file-status').textContent !== ''")
    status = other.locator("#records-file-status")
    games = len(json.loads(exported.read_text())["games"])
    assert games >= 1 and status.inner_text() == f"{games}ゲームを読み込みました"
    assert other.is_visible("#dlg-records") and status.is_visible()
    box, dialog = status.bounding_box(), other.locator("#dlg-records").bounding_box()
    assert box is not None and dialog is not None
    assert dialog["y"] <= box["y"] and box["y"] + box["height"] <= dialog["y"] + dialog["height"]  # in view
    assert CODE in other.inner_text("#records-finished")
    assert list(first_errors) == [] and list(second_errors) == []
    first.close()
    second.close()

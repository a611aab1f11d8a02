"""A whole game without a network (issue 35), in real Chromium with the network cut by the browser context.

After one online visit the page keeps the app (service worker) and the offline bundle (Pyodide and the
engine's own modules); then, offline, a deal's link reloads and deals that deal in the browser's worker,
the solver's line tapped through it empties the pyramid, refusals give their reasons, and when the network
returns the game reaches the server, which replays it before counting it — once, however often it is
sent.  A forged record sent with it is refused by name while the honest game lands.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from browser import DESKTOP, Errors, open_context, screenshot
from pages import GamePage
from playwright.sync_api import Browser, BrowserContext, Page

from helpers import eventually
from pyramid_solitaire import Deal
from pyramid_solitaire.catalog import pick_deal
from pyramid_solitaire.daily import daily_deal, today
from pyramid_solitaire.rules import PRESETS
from pyramid_solitaire.solver import solve

pytestmark = pytest.mark.slow

#: The bundle is 14 MB from loopback, and Pyodide starts in a few seconds: generous, never a timing check.
BUNDLE_MS = 120_000
READY = "() => localStorage.getItem('pyramid.offline') !== null"
KEPT = "() => import('/static/js/keep.js').then((m) => m.kept.all())"
#: What the dialogs say offline of the records the server keeps.
OFFLINE_RECORDS = "オフラインのため、サーバーにある記録は表示できません。ネットにつながると見られます"
#: ...and of the day's challenges, which the server sets and counts.
OFFLINE_CHALLENGES = "オフラインのため、今日のチャレンジは表示できません。ネットにつながると挑戦できます"
#: What a move in a game the server dealt says when the network has gone mid-game.
OFFLINE_SERVER_GAME = "オフラインです。このゲームはネットにつながると続けられます。新しいゲームならこの端末で遊べます"
#: The state the page drew last (the worker's answer, offline).
STATE = "() => import('/static/js/state.js').then((m) => m.app.game)"


@pytest.fixture
def kept_offline(browser: Browser, server: str) -> Iterator[tuple[BrowserContext, Page, Errors]]:
    """A browser that visited once online and kept the app and the offline bundle."""
    context, errors = open_context(browser, **DESKTOP)
    page = context.new_page()
    GamePage(page, server).open("/")
    page.wait_for_function(READY, timeout=BUNDLE_MS)
    yield context, page, errors
    context.close()


def api(page: Page, method: str, path: str, body: Any = None) -> Any:
    """A request from the page (its cookie, its origin), answered as JSON with its status."""
    return page.evaluate(
        """async ([method, path, body]) => {
            const options = {method, headers: {'Content-Type': 'application/json'}};
            if (body !== null) options.body = JSON.stringify(body);
            const response = await fetch(path, options);
            return {status: response.status, body: await response.json()};
        }""",
        [method, path, body],
    )


def forged(record: dict[str, Any]) -> dict[str, Any]:
    """The record with an illegal move where its first move was: two kings do not make 13."""
    lines = record["record"].split("\n")
    first = next(i for i, line in enumerate(lines) if i > 0 and lines[i - 1] == "")
    lines[first] = "Kc+Kd"
    return {**record, "id": "off-" + "f" * 24, "record": "\n".join(lines), "started_ms": 1_700_000_000_000}


def test_a_deal_link_plays_offline_to_the_end_and_reaches_the_server_once(
    kept_offline: tuple[BrowserContext, Page, Errors], server: str
) -> None:
    context, page, errors = kept_offline
    deal = pick_deal(PRESETS["classic"], "N", random.Random(35))
    solution = solve(deal).solution
    assert solution is not None

    context.set_offline(True)
    game = GamePage(page, server).open(f"/play/{deal.code}")
    assert str(page.evaluate("document.body.dataset.game")).startswith("off-")
    assert page.is_visible("#offline-badge") and game.text("#offline-badge") == "オフライン"
    bottom = [str(card) for card in deal.cards[21:28]]
    assert game.pyramid_cards()[21:28] == bottom
    assert deal.code in page.inner_text("body")
    screenshot(page, "offline-dealt")

    # a refused pair says why, in the words the engine's catalogue gives (two choosable cards, no 13)
    state = page.evaluate(STATE)
    key = next(k for k, r in state["refusals"].items() if "+" in k and not r["quiet"] and "K" not in k[::3])
    first, second = key.split("+")
    game.tap(first)
    game.tap(second)
    assert game.message() == state["refusals"][key]["message"]
    assert "13" in game.message()

    # undo and redo, then the solver's line to the end
    game.play(solution[0])
    game.button("btn-undo")
    assert game.pyramid_cards()[21:28] == bottom
    game.button("btn-redo")
    for move in solution[1:]:
        game.play(move)
    page.wait_for_selector("#dlg-result[open]", timeout=15_000)
    assert all(card is None for card in game.pyramid_cards()) or game.pyramid_cards() == []
    assert game.text("#result-stats-title").startswith("この端末でオフラインで遊んだ成績")
    screenshot(page, "offline-won")

    # the finished game is kept in this browser until the server has it; a forged one is slipped in beside it
    records = page.evaluate(KEPT)
    assert [r["result"] for r in records] == ["won"] and records[0]["code"] == deal.code
    honest = records[0]
    page.evaluate("(record) => import('/static/js/keep.js').then((m) => m.kept.put(record))", forged(honest))

    context.set_offline(False)

    def landed() -> bool:
        finished = api(page, "GET", "/api/me")["body"]["finished"]
        return any(g["code"] == deal.code and g["result"] == "won" for g in finished)

    eventually(landed, 60)  # the "within a minute of going back online"
    # the forged record was refused by name, shown to the player, and nothing is left to send
    page.wait_for_function("() => document.getElementById('message').textContent.includes('Kc+Kd')", timeout=15_000)
    assert page.evaluate(KEPT) == []
    stats = api(page, "GET", "/api/stats")["body"]["stats"]
    assert sum(s["played"] for s in stats if s["rules"] == str(deal.rules)) == 1

    # sent again (a second tab, a retry): the server already has it and counts it once
    again = api(page, "POST", "/api/me/sync", {"games": [honest]})
    assert again["status"] == 200 and again["body"]["landed"] == [] and again["body"]["known"] == [honest["id"]]
    stats = api(page, "GET", "/api/stats")["body"]["stats"]
    assert sum(s["played"] for s in stats if s["rules"] == str(deal.rules)) == 1
    assert not [e for e in errors if "Failed to load resource" not in e and "ERR_INTERNET_DISCONNECTED" not in e]


def test_offline_every_preset_deals_a_verified_deal_and_the_daily_deal_is_the_servers(
    kept_offline: tuple[BrowserContext, Page, Errors], server: str
) -> None:
    context, page, _ = kept_offline
    context.set_offline(True)
    game = GamePage(page, server).open("/")
    assert str(page.evaluate("document.body.dataset.game")).startswith("off-")
    dealt = page.evaluate(
        """async (presets) => {
            const { api } = await import('/static/js/api.js');
            const out = {};
            for (const preset of presets) {
                const answer = await api.newGame({ preset, options: {}, difficulty: 'N' }, 'en');
                out[preset] = [answer.game.id, answer.game.code, answer.game.difficulty];
            }
            return out;
        }""",
        list(PRESETS),
    )
    for preset, (game_id, code, difficulty) in dealt.items():
        assert game_id.startswith("off-") and difficulty == "N", preset
        assert Deal.from_code(code).rules == PRESETS[preset]

    game.open("/daily")
    expected = daily_deal("classic", today())
    assert page.evaluate("document.body.dataset.game").startswith("off-")
    assert expected.code in page.inner_text("body")


#: A classic deal whose ace of spades is dead from the deal (its partners, the queens, all lie on it).
DEAD_DEAL = Deal.from_number(2, PRESETS["classic"])


def test_offline_play_speaks_english_with_hints_undo_and_dead_card_warnings(
    kept_offline: tuple[BrowserContext, Page, Errors], server: str
) -> None:
    context, page, _ = kept_offline
    game = GamePage(page, server)
    game.settings(lang="en")
    context.set_offline(True)
    game.open(f"/play/{DEAD_DEAL.code}")
    assert page.evaluate("document.documentElement.lang") == "en"
    assert game.text("#offline-badge") == "Offline"
    state = page.evaluate(STATE)
    assert state["id"].startswith("off-") and state["dead"] == ["As"]
    assert game.cards_with("dead") == [t for t in state["dead"] if game.card(t).count()]
    # the dead-card warning, in English, from the engine's catalogue
    assert game.message() == "There is a dead card: this deal can no longer be cleared"
    game.button("btn-hint")
    assert game.message().startswith("Hint"), game.message()
    game.tap_stock()  # the hint was entry 1, the draw is entry 2
    drawn = page.evaluate(STATE)
    assert drawn["version"] == 2 and game.waste_top() is not None
    game.button("btn-undo")
    undone = page.evaluate(STATE)
    assert undone["version"] == 3 and undone["can_redo"] and game.waste_top() is None
    assert game.message().isascii()
    screenshot(page, "offline-english")

    # the solver's hint runs in the browser too, within its time limit, and says what it is
    game.settings(coach=True)
    game.button("btn-coach")
    assert game.message().startswith("Solver hint: "), game.message()

    # the tab closed and opened again, still offline: the game is taken back from IndexedDB and replayed
    before = page.evaluate(STATE)
    page.close()
    again = context.new_page()
    GamePage(again, server).open("/")
    after = again.evaluate(STATE)
    assert (after["id"], after["version"], after["code"]) == (before["id"], before["version"], before["code"])


def test_offline_the_daily_dialog_still_says_the_day_its_next_deal_and_par(
    kept_offline: tuple[BrowserContext, Page, Errors], server: str
) -> None:
    """Offline the engine in the browser answers the day's deal (/api/daily); only the streak, the day's
    leaderboard and the calendar are the server's.  The dialog says the day, when the next deal comes and
    that the par is unknown offline, and hides the leaderboard and the calendar (with month buttons that
    had no month to move through) rather than showing them empty."""
    context, page, errors = kept_offline
    context.set_offline(True)
    game = GamePage(page, server).open("/")
    page.click("#btn-daily")
    page.locator("#daily-error:not(:empty)").wait_for()
    day = today()
    assert f"{day.month}月{day.day}日" in game.text("#daily-date")
    assert game.text("#daily-next").startswith("次の配札まで")
    assert game.text("#daily-figures").split() == ["パー", "オフラインのため不明"]
    assert game.text("#daily-error") == OFFLINE_RECORDS
    assert page.is_hidden("#daily-records") and page.is_hidden("#cal-prev") and page.is_hidden("#daily-board")
    screenshot(page, "offline-daily-dialog")
    # the play button deals today's deal, offline
    page.click("#daily-play")
    page.locator("#daily-badge:not([hidden])").wait_for()
    assert daily_deal("classic", day).code in page.inner_text("body")
    assert not [e for e in errors if "Failed to load resource" not in e and "ERR_INTERNET_DISCONNECTED" not in e]


def test_offline_the_challenges_dialog_says_the_day_and_that_its_goals_are_the_servers(
    kept_offline: tuple[BrowserContext, Page, Errors], server: str
) -> None:
    """Offline the day's challenges (set and counted by the server) cannot be listed: the dialog still says
    the day, as the engine in the browser knows it, and why the goals are missing, rather than an empty
    list under the note that the solver proved them and a badge heading with nothing beneath it.  Back
    online the goals are there again."""
    context, page, errors = kept_offline
    context.set_offline(True)
    game = GamePage(page, server).open("/")
    page.click("#btn-challenges")
    page.locator("#challenges-error:not(:empty)").wait_for()
    page.locator("#challenges-date:not(:empty)").wait_for()
    day = today()
    assert f"{day.month}月{day.day}日" in game.text("#challenges-date")
    assert game.text("#challenges-error") == OFFLINE_CHALLENGES
    for part in ("#challenges-list", "#challenges-badges", "#dlg-challenges h3", "#dlg-challenges .note"):
        assert page.locator(part).first.is_hidden(), part
    screenshot(page, "offline-challenges")
    page.keyboard.press("Escape")

    context.set_offline(False)
    game.open("/")
    page.click("#btn-challenges")
    page.locator("#challenges-list li").first.wait_for()
    assert game.text("#challenges-error") == ""
    assert page.is_visible("#dlg-challenges h3") and page.locator("#challenges-list li").count() >= 1
    assert not [e for e in errors if "Failed to load resource" not in e and "ERR_INTERNET_DISCONNECTED" not in e]


def test_offline_the_records_dialog_says_the_servers_records_are_out_of_reach(
    kept_offline: tuple[BrowserContext, Page, Errors], server: str
) -> None:
    """Offline the engine in the browser knows the unfinished games this browser keeps, not the player's
    records: the dialog lists the game to resume and says why the rest is missing, instead of
    「まだ記録がありません」 under a chart and statistics that are the server's; back online it shows them."""
    context, page, errors = kept_offline
    context.set_offline(True)
    game = GamePage(page, server).open("/")
    code = game.text("#deal-link")
    page.click("#btn-records")
    page.locator("#dlg-records[open]").wait_for()
    assert game.text("#records-error") == OFFLINE_RECORDS
    assert code in game.text("#records-unfinished")
    for part in ("#records-chart-caption", "#records-empty", "#records-stats", "#records-finished", "#records-name"):
        assert page.is_hidden(part), part
    assert "まだ記録がありません" not in page.inner_text("#dlg-records")
    screenshot(page, "offline-records")
    page.click("#records-close")

    context.set_offline(False)
    game.open("/")
    page.click("#btn-records")
    page.locator("#dlg-records[open]").wait_for()
    assert game.text("#records-error") == ""
    assert page.is_visible("#records-chart-caption") and page.is_visible("#records-name")
    assert not [e for e in errors if "Failed to load resource" not in e and "ERR_INTERNET_DISCONNECTED" not in e]


def test_a_game_the_server_dealt_waits_for_the_network_and_goes_on_when_it_returns(
    kept_offline: tuple[BrowserContext, Page, Errors], server: str
) -> None:
    """The network gone in the middle of a game the server holds: the engine in the browser does not hold
    that game, and answered the next move with 「そのゲームは見つかりません」 while nothing was played (and
    again once the network was back). Now the move says the game waits for the network, and when it
    returns the same game goes on from where it was."""
    context, page, errors = kept_offline
    deal = pick_deal(PRESETS["classic"], "N", random.Random(36))
    game = GamePage(page, server).open(f"/play/{deal.code}")
    assert not str(page.evaluate("document.body.dataset.game")).startswith("off-")
    game.tap_stock()
    assert game.text("#moves") == "1"

    context.set_offline(True)
    page.click("#stock-area .stock-btn")
    page.wait_for_function("t => document.getElementById('message').textContent === t", arg=OFFLINE_SERVER_GAME)
    assert game.text("#moves") == "1" and game.text("#deal-link") == deal.code
    screenshot(page, "offline-server-game")

    context.set_offline(False)
    game.tap_stock()
    assert game.text("#moves") == "2" and game.text("#deal-link") == deal.code
    assert game.message() != OFFLINE_SERVER_GAME
    assert not [e for e in errors if "Failed to load resource" not in e and "ERR_INTERNET_DISCONNECTED" not in e]

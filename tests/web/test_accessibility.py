"""Automated accessibility audit (axe-core, from the npm registry) of the game and result screens, and
the names a screen reader reads for cards and controls."""

from __future__ import annotations

from typing import Any

from browser import AXE, DESKTOP, PHONE, open_context, screenshot
from pages import GamePage
from playwright.sync_api import Browser, Page

from pyramid_solitaire import Deal
from pyramid_solitaire.solver import solve

SERIOUS = ("serious", "critical")


def audit(page: Page) -> list[dict[str, Any]]:
    """Run axe-core on the page; return the serious and critical violations."""
    assert AXE.exists(), f"{AXE} is missing: scripts/test installs axe-core from npm"
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    return [
        {"id": v["id"], "impact": v["impact"], "help": v["help"], "nodes": [n["target"] for n in v["nodes"]][:5]}
        for v in result["violations"]
        if v["impact"] in SERIOUS
    ]


def finished_game(page: Page, server: str) -> str:
    """Win a deal through the API from inside the page's context and return its code; the page's
    session then resumes that game (as after a reload) and shows the result screen."""
    deal = next(d for d in (Deal.from_number(n, "classic", "N") for n in range(40)) if solve(d, time_limit=5).winnable)
    solution = solve(deal, time_limit=5).solution
    assert solution is not None
    created = page.request.post(f"{server}/api/games", data={"code": deal.code}).json()["game"]
    for move in solution:
        answer = page.request.post(f"{server}/api/games/{created['id']}/move", data={"move": str(move)})
        assert answer.ok, answer.text()
    page.goto(server + "/static/favicon.svg")  # same origin, no game page racing to store its own game
    page.evaluate("id => sessionStorage.setItem('pyramid.game', id)", created["id"])
    return deal.code


def test_game_screen_has_no_serious_violations(browser: Browser, server: str) -> None:
    for options in (DESKTOP, PHONE):
        context, _ = open_context(browser, bypass_csp=True, **options)
        page = context.new_page()
        game = GamePage(page, server).open("/")
        game.tap(game.cards_with("usable")[0])  # a selection on screen too
        assert audit(page) == []
        context.close()


def test_the_layouts_of_giza_and_triangle_have_no_serious_violations(browser: Browser, server: str) -> None:
    """Giza's reserve piles (no stock) on a phone and Triangle's upside-down pyramid on a desktop; each
    reserve card's name says its pile."""
    for options, code, name in (
        (PHONE, Deal.from_number(3, "giza").code, "giza-phone"),
        (DESKTOP, Deal.from_number(3, "triangle").code, "triangle-desktop"),
    ):
        context, errors = open_context(browser, bypass_csp=True, **options)
        page = context.new_page()
        GamePage(page, server).open(f"/play/{code}")
        assert audit(page) == []
        labels = page.eval_on_selector_all("#pyramid .card", "els => els.map(e => e.getAttribute('aria-label'))")
        giza = name.startswith("giza")
        assert sum(1 for label in labels if label.startswith("リザーブ")) == (24 if giza else 0)
        assert sum(1 for label in labels if label.startswith("リザーブ8、")) == (3 if giza else 0)
        screenshot(page, f"a11y-{name}")
        assert list(errors) == []
        context.close()


def test_the_waste_uses_left_are_clear_of_the_stock_label_and_read_with_the_waste(
    browser: Browser, server: str
) -> None:
    """limited_waste on a phone: the count under the waste keeps clear of the stock's label (they
    overlapped when both sat on one line) and the waste card's name ends with it; the New Game dialog
    with its waste-use select passes the audit too."""
    context, errors = open_context(browser, bypass_csp=True, **PHONE)
    page = context.new_page()
    game = GamePage(page, server).open(f"/play/{Deal.from_number(4, 'limited_waste').code}")
    game.tap_stock()
    uses = page.locator("#waste-uses").bounding_box()
    label = page.locator("#stock-label").bounding_box()
    assert uses is not None and label is not None
    assert uses["y"] >= label["y"] + label["height"], (uses, label)  # on a line of its own
    assert page.locator("#waste-uses").inner_text() == "捨て札：残り12回"
    waste = page.get_attribute('#stock-area [data-key="waste"]', "aria-label") or ""
    assert waste.startswith("捨て札、") and waste.endswith("残り12回")
    assert audit(page) == []
    screenshot(page, "a11y-limited-waste-phone")
    game.new_game_dialog()
    assert audit(page) == []
    assert list(errors) == []
    context.close()


def test_free_cells_on_a_phone_keep_clear_of_the_stock_side_and_are_named(browser: Browser, server: str) -> None:
    """Apophis with four cells on a phone: three waste piles and four cells do not fit on one line, so
    the cells go on a line of their own, inside the board; each empty cell is a named button."""
    context, errors = open_context(browser, bypass_csp=True, **PHONE)
    page = context.new_page()
    game = GamePage(page, server).open(f"/play/{Deal.from_number(5, 'apophis(cells=4)').code}")
    game.tap_stock()
    boxes = page.eval_on_selector_all(
        "#stock-area .card, #stock-area .slot-empty, #stock-area .stock-btn, #stock-area .stock-label, "
        "#cells .card, #cells .cell-slot",
        "els => els.map(e => { const r = e.getBoundingClientRect(); "
        "return [e.closest('#cells') ? 'cell' : 'stock', r.left, r.top, r.right, r.bottom]; })",
    )
    cells = [b for b in boxes if b[0] == "cell"]
    stock = [b for b in boxes if b[0] == "stock"]
    assert len(cells) == 4
    board = page.locator("#board").bounding_box()
    assert board is not None
    for _, left, top, right, bottom in cells:
        assert right <= board["x"] + board["width"] + 1 and bottom <= board["y"] + board["height"] + 1
        for _, s_left, s_top, s_right, s_bottom in stock:
            assert right <= s_left or left >= s_right or bottom <= s_top or top >= s_bottom, "a cell overlaps"
    names = page.eval_on_selector_all("#cells .cell-slot", "els => els.map(e => e.getAttribute('aria-label'))")
    assert names == [f"フリーセル{n}、空き" for n in range(1, 5)]
    assert audit(page) == []
    screenshot(page, "a11y-cells-phone")
    assert list(errors) == []
    context.close()


def test_rules_dialog_has_no_serious_violations(browser: Browser, server: str) -> None:
    """The Rules dialog open over the game, for Tut's Tomb (its fanned waste on the board) and for a
    game with options, on desktop and phone."""
    for options, code, name in (
        (DESKTOP, Deal.from_number(2, "thirteen(jokers=2,triples=true)").code, "desktop"),
        (PHONE, Deal.from_number(1, "tuts_tomb").code, "phone"),
    ):
        context, errors = open_context(browser, bypass_csp=True, **options)
        page = context.new_page()
        game = GamePage(page, server).open(f"/play/{code}")
        game.tap_stock()
        screenshot(page, f"board-before-rules-{name}")
        page.click("#btn-rules")
        page.locator("#dlg-rules").wait_for(state="visible")
        screenshot(page, f"rules-{name}")
        assert audit(page) == []
        assert list(errors) == []
        context.close()


def test_result_screen_has_no_serious_violations(browser: Browser, server: str) -> None:
    context, errors = open_context(browser, bypass_csp=True, **DESKTOP)
    page = context.new_page()
    code = finished_game(page, server)
    GamePage(page, server).open(f"/play/{code}")
    page.locator("#dlg-result").wait_for(state="visible")
    assert page.inner_text("#result-title") == "クリア！"
    screenshot(page, "result-resumed")
    assert audit(page) == []
    assert list(errors) == []
    context.close()


def test_screen_reader_names_and_announcements(browser: Browser, server: str) -> None:
    context, errors = open_context(browser, **DESKTOP)
    page = context.new_page()
    game = GamePage(page, server).open("/")
    usable = game.cards_with("usable")
    label = game.card(usable[0]).get_attribute("aria-label") or ""
    assert label.endswith("、使用可能"), label
    covered = page.locator("#pyramid .card:not(.usable)").first
    assert "に覆われています" in (covered.get_attribute("aria-label") or "")
    stock = page.get_attribute("#stock-area .stock-btn", "aria-label") or ""
    assert stock.startswith("山札、") and "周目" in stock
    for control in ("#btn-hint", "#btn-undo", "#btn-redo", "#btn-new", "#btn-settings"):
        assert page.inner_text(control).strip()
    assert page.get_attribute("#live", "aria-live") == "polite"
    game.button("btn-hint")
    page.wait_for_function("() => document.getElementById('live').textContent.startsWith('ヒント')")
    assert list(errors) == []
    context.close()


def test_daily_dialog_has_no_serious_violations(browser: Browser, server: str) -> None:
    """The Daily dialog (par, streak, leaderboard, calendar) over today's deal, on desktop and phone; every
    day of the calendar is a button a screen reader names with its date and what happened that day."""
    for options, name in ((DESKTOP, "desktop"), (PHONE, "phone")):
        context, errors = open_context(browser, bypass_csp=True, **options)
        page = context.new_page()
        GamePage(page, server).open("/daily")
        page.click("#btn-daily")
        page.locator("#dlg-daily").wait_for(state="visible")
        page.locator("#daily-calendar button.today").wait_for()
        label = page.locator("#daily-calendar button.today").get_attribute("aria-label") or ""
        assert label.endswith("— プレイ中"), label  # today's deal is open in this browser
        screenshot(page, f"daily-dialog-{name}")
        assert audit(page) == []
        assert list(errors) == []
        context.close()

"""The card table of issue 20 in a real browser: the whole game in view on every screen, for every rule
set and setting; cards that look like cards; drag and drop with a mouse and with a finger; the game
resumed in a second tab and after a restart; motion that a tap ends and that reduced motion turns off;
the celebration of a win.  Screenshots of each screen size land in test-artifacts/screenshots/."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from datetime import date
from typing import Any

import pytest
from browser import TEXT_LINES, Errors, open_context, screenshot
from pages import ANSWERED, GamePage
from playwright.sync_api import Browser, BrowserContext, Page

from helpers import make_notation, row_of
from pyramid_solitaire import Deal, Game, Move
from pyramid_solitaire.catalog import pick_deal
from pyramid_solitaire.challenges import day_set
from pyramid_solitaire.rules import PRESETS
from pyramid_solitaire.solver import solve

#: The screens of issue 20: laptops, a large desktop, phones upright and held sideways, a small phone.
VIEWPORTS = [(1280, 720), (1366, 768), (1920, 1080), (390, 844), (844, 390), (360, 640), (320, 568)]
#: Games with every setting that adds to the table: the most free cells, jokers, a reserve with cells,
#: three waste piles with cells, a waste limit with cells, Giza with cells.
WITH_SETTINGS = [
    "classic(cells=4)",
    "thirteen(jokers=2,triples=true)",
    "reserve(cells=2)",
    "apophis(cells=2)",
    "limited_waste(cells=3)",
    "giza(cells=2)",
    "tuts_tomb(cells=1)",
]
SEED_001_ROW_7 = "Ks 6h 3c 7d Ts Qh 9c"
#: The removed pile as it shows: its top card, or its empty spot.
PILE = "#removed > .card, #removed > .removed-slot"
#: Parts that must be on screen: the table's cards, spots and labels, the message line and the controls.
IN_VIEW = (
    "#board .card, #board .stock-btn, #board .slot-empty, #board .cell-slot, #board .table-label, "
    "#message, #btn-hint, #btn-undo, #btn-redo, #btn-resign, .topnav button"
)


def is_phone(width: int) -> bool:
    return width < 900


#: The browser's language for a page language the tests name.
LOCALES = {"en": "en-US", "ja": "ja-JP"}


def context_for(browser: Browser, width: int, height: int, **extra: Any) -> tuple[BrowserContext, Errors]:
    """A phone below 900 px wide (touch, pixel ratio 2), else a desktop; ``extra`` adds or overrides
    context options (a pixel ratio of 3, a locale)."""
    phone = is_phone(width)
    options = {"is_mobile": phone, "has_touch": phone, "device_scale_factor": 2 if phone else 1, **extra}
    return open_context(browser, viewport={"width": width, "height": height}, **options)


def out_of_view(page: Page) -> list[str]:
    """Everything the player must see that is not wholly inside the window (a card with its ring), and
    whether the page scrolls."""
    found: list[str] = page.evaluate(f"""() => {{
        const problems = [];
        const w = window.innerWidth, h = window.innerHeight;
        const root = document.documentElement;
        if (root.scrollWidth > w) problems.push(`the page is ${{root.scrollWidth}} px wide`);
        if (root.scrollHeight > h) problems.push(`the page is ${{root.scrollHeight}} px tall`);
        for (const e of document.querySelectorAll({json.dumps(IN_VIEW)})) {{
            if (e.closest('[hidden]') || getComputedStyle(e).display === 'none') continue;
            const r = e.getBoundingClientRect();
            if (r.width === 0 && r.height === 0) continue;
            // a card at the side of the screen keeps room for its 4-px ring (a partner, a hint, the guide's)
            // and some of the glow around it
            const ring = e.matches('#board .card, #board .stock-btn') ? 8 : 0;
            if (r.left < ring - 0.5 || r.top < -0.5 || r.right > w - ring + 0.5 || r.bottom > h + 0.5) {{
                const name = e.id || e.dataset.key || e.className;
                problems.push(`${{name}} at ${{Math.round(r.left)}},${{Math.round(r.top)}}`
                    + `-${{Math.round(r.right)}},${{Math.round(r.bottom)}}`);
            }}
        }}
        // the table stays above the message line, which stays above the controls
        const message = document.getElementById('message').getBoundingClientRect();
        const controls = document.querySelector('.controls').getBoundingClientRect();
        for (const e of document.querySelectorAll('#board .card, #board .stock-btn, #board .table-label')) {{
            const r = e.getBoundingClientRect();
            if (r.bottom > message.top + 0.5) problems.push(`${{e.dataset.key || e.className}} over the message`);
        }}
        if (message.bottom > controls.top + 0.5) problems.push('the message over the controls');
        return problems;
    }}""")
    return found


def code_of(rules: str) -> str:
    return Deal.from_number(1, rules).code


@pytest.fixture(scope="module")
def rule_sets() -> list[str]:
    return [*PRESETS, *WITH_SETTINGS]


@pytest.mark.parametrize(("width", "height"), VIEWPORTS, ids=[f"{w}x{h}" for w, h in VIEWPORTS])
def test_the_whole_table_is_in_view_for_every_rule_set_and_setting(
    browser: Browser, server: str, width: int, height: int, rule_sets: list[str]
) -> None:
    """Every rule set, and games with cells, jokers, a reserve and three waste piles, at every screen size,
    with normal and with large cards: nothing to scroll, every card, spot, label, the message line and
    the controls inside the window.  Motion is reduced so each table is measured as dealt."""
    context, errors = context_for(browser, width, height, reduced_motion="reduce")
    page = context.new_page()
    problems: dict[str, list[str]] = {}
    for large in (False, True):
        for rules in rule_sets:
            page.goto(f"{server}/static/favicon.svg")
            page.evaluate(
                "large => localStorage.setItem('pyramid.settings', JSON.stringify({largeCards: large}))", large
            )
            game = GamePage(page, server).open(f"/play/{code_of(rules)}")
            if rules.startswith("tuts_tomb"):
                game.tap_stock()  # a draw of three fans the waste
            found = out_of_view(page)
            if found:
                problems[f"{rules}{' large' if large else ''}"] = found
            if rules in ("classic", "apophis(cells=2)", "thirteen(jokers=2,triples=true)") and not large:
                screenshot(page, f"table-{width}x{height}-{rules.split('(')[0]}", jpeg=rules == "classic")
    context.close()
    assert problems == {}
    assert list(errors) == []


def seed_001(page: Page, server: str) -> GamePage:
    code = Deal.from_notation(make_notation(row_of(7, SEED_001_ROW_7), ["Ad"]), "classic").code
    return GamePage(page, server).open(f"/play/{code}")


def posts(page: Page) -> list[str]:
    """The POSTs the page sends from now on (their last path part)."""
    sent: list[str] = []
    page.on("request", lambda r: sent.append(r.url.split("?")[0].rsplit("/", 1)[-1]) if r.method == "POST" else None)
    return sent


def centre(page: Page, selector: str) -> tuple[float, float]:
    box = page.locator(selector).bounding_box()
    assert box is not None, selector
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def test_a_card_dragged_onto_its_partner_with_the_mouse_removes_the_pair(
    desktop: tuple[Page, Errors], server: str
) -> None:
    page, errors = desktop
    game = seed_001(page, server)
    sent = posts(page)
    x, y = centre(page, '#pyramid [data-card="6h"]')
    to_x, to_y = centre(page, '#pyramid [data-card="7d"]')
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move((x + to_x) / 2, y - 30, steps=4)
    # while dragged, the card follows the pointer and its partner is lit
    assert "dragging" in game.classes("6h") and game.cards_with("partner") == ["7d"]
    page.mouse.move(to_x, to_y, steps=4)
    page.mouse.up()
    page.wait_for_function("() => document.body.dataset.version === '1'")
    assert game.card("6h").count() == 0 and game.card("7d").count() == 0
    assert sent == ["move"]
    # a drop on a card that is no partner: nothing is sent, the card goes back and the reason is shown
    x, y = centre(page, '#pyramid [data-card="Qh"]')
    to_x, to_y = centre(page, '#pyramid [data-card="9c"]')
    before = game.answered()
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(to_x, to_y, steps=6)
    page.mouse.up()
    page.wait_for_function(f"before => ({ANSWERED}) !== before", arg=before)
    assert sent == ["move"]
    assert game.message() == "合計が13になる必要があります：Q(12)+9=21"
    game.settle()
    # a message of two lines leaves the controls where they were
    controls = page.locator("#btn-hint").bounding_box()
    page.evaluate("() => { document.getElementById('message').textContent = 'あ'.repeat(200); }")
    assert page.locator("#btn-hint").bounding_box() == controls
    assert centre(page, '#pyramid [data-card="Qh"]') == (x, y)  # back where it lies
    assert list(errors) == []


def touch(page: Page, context: BrowserContext, points: list[tuple[float, float]]) -> None:
    """A finger put down at the first point, moved through the others and lifted (real touch events)."""
    cdp = context.new_cdp_session(page)
    first, *rest = points
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": first[0], "y": first[1]}]})
    for x, y in rest:
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def path(start: tuple[float, float], end: tuple[float, float], steps: int = 8) -> list[tuple[float, float]]:
    return [
        (start[0] + (end[0] - start[0]) * i / steps, start[1] + (end[1] - start[1]) * i / steps)
        for i in range(steps + 1)
    ]


def test_cards_dragged_with_a_finger_go_to_their_partner_the_removed_pile_and_a_free_cell(
    browser: Browser, server: str
) -> None:
    context, errors = context_for(browser, 390, 844)
    page = context.new_page()
    game = seed_001(page, server)
    sent = posts(page)
    # the king onto the removed pile: it goes alone
    before = game.answered()
    touch(page, context, path(centre(page, '#pyramid [data-card="Ks"]'), centre(page, PILE)))
    page.wait_for_function("before => `${document.body.dataset.version}` !== before", arg=before.split("/")[1])
    assert game.card("Ks").count() == 0 and sent == ["move"]
    # a pair, finger to finger
    touch(page, context, path(centre(page, '#pyramid [data-card="3c"]'), centre(page, '#pyramid [data-card="Ts"]')))
    page.wait_for_function("() => document.body.dataset.version === '2'")
    assert game.card("3c").count() == 0 and game.card("Ts").count() == 0 and sent == ["move", "move"]
    # a card that does not go alone, onto the removed pile: it goes back, and the page says why
    game.settle()
    where = centre(page, '#pyramid [data-card="Qh"]')
    touch(page, context, path(where, centre(page, PILE)))
    page.wait_for_function("() => document.getElementById('message').textContent.includes('1枚では')")
    assert game.message() == "ハートのクイーンは1枚では取り除けません" and sent == ["move", "move"]
    context.close()
    # a free cell takes a card dropped on it
    context, errors = context_for(browser, 390, 844)
    page = context.new_page()
    code = Deal.from_notation(make_notation(row_of(7, SEED_001_ROW_7), ["Ad"]), "classic(cells=2)").code
    game = GamePage(page, server).open(f"/play/{code}")
    second = page.locator('#cells .cell-slot[data-cell="1"]')
    # each empty cell says so in one word on one line of its narrow slot; the caption under them names them
    assert page.locator("#cells .cell-slot").all_inner_texts() == ["空き", "空き"]
    assert page.eval_on_selector_all("#cells .cell-slot", TEXT_LINES) == [1, 1]
    assert page.text_content("#cells .table-label") == "フリーセル"
    box = second.bounding_box()
    assert box is not None
    touch(
        page,
        context,
        path(centre(page, '#pyramid [data-card="9c"]'), (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)),
    )
    page.wait_for_function("() => document.body.dataset.version === '1'")
    assert game.cells() == [None, "9c"]
    screenshot(page, "drag-to-cell-phone")
    context.close()
    assert list(errors) == []


def test_a_second_tab_and_a_restarted_browser_continue_the_unfinished_game(browser: Browser, server: str) -> None:
    context, errors = open_context(browser, viewport={"width": 1280, "height": 720})
    page = context.new_page()
    game = GamePage(page, server).open("/")
    game.tap_stock()
    game.tap_stock()
    first = game.answered().split("/")[0]
    second_tab = context.new_page()
    other = GamePage(second_tab, server).open("/")  # a new tab: the same game, where it was
    assert other.answered().split("/")[0] == first and other.text("#moves") == "2"
    assert other.waste_top() == game.waste_top()
    saved = context.storage_state()
    context.close()
    restarted = browser.new_context(storage_state=saved, locale="ja-JP", viewport={"width": 1280, "height": 720})
    page = restarted.new_page()
    again = GamePage(page, server).open("/")  # the browser restarted: still that game
    assert again.answered().split("/")[0] == first and again.text("#moves") == "2"
    # a new game is one tap away, and a link to another deal opens that deal
    page.click("#btn-new")
    again.button("new-start")
    assert again.answered().split("/")[0] != first and again.text("#moves") == "0"
    restarted.close()
    assert list(errors) == []


#: True when no animation the page started runs (CSS transitions, such as a chosen card lifting, aside).
DEALT = "() => document.getAnimations().every(a => a.playState !== 'running' || a instanceof CSSTransition)"


def won_deal() -> tuple[str, list[str]]:
    for number in range(0, 40):
        deal = Deal.from_number(number, "classic", "N")
        result = solve(deal, shortest=True, time_limit=5)
        if result.winnable and result.solution is not None:
            return deal.code, [str(m) for m in result.solution]
    raise AssertionError("no winnable deal")


@pytest.fixture
def watched(browser: Browser) -> Iterator[tuple[Page, Errors, BrowserContext]]:
    """A page that counts every animation it starts and every ghost or confetti it shows."""
    context, errors = open_context(browser, viewport={"width": 1280, "height": 720}, reduced_motion="reduce")
    context.add_init_script("""
        window.__motion = {animations: 0, ghosts: 0, confetti: 0};
        const animate = Element.prototype.animate;
        Element.prototype.animate = function (...args) {
            window.__motion.animations += 1;
            return animate.apply(this, args);
        };
        new MutationObserver((changes) => {
            for (const change of changes) for (const node of change.addedNodes) {
                if (node.classList && node.classList.contains('ghost')) window.__motion.ghosts += 1;
                if (node.classList && node.classList.contains('confetti')) window.__motion.confetti += 1;
            }
        }).observe(document, {childList: true, subtree: true});
    """)
    yield context.new_page(), errors, context
    context.close()


def test_with_reduced_motion_nothing_moves_not_even_a_win(
    watched: tuple[Page, Errors, BrowserContext], server: str
) -> None:
    page, errors, _ = watched
    code, solution = won_deal()
    game = GamePage(page, server).open(f"/play/{code}")
    for move in solution:
        game.play(Move.parse(move))
        assert page.evaluate("() => document.getAnimations().length") == 0
    page.locator("#dlg-result").wait_for(state="visible")
    assert game.text("#result-title") == "クリア！"
    assert page.evaluate("() => window.__motion") == {"animations": 0, "ghosts": 0, "confetti": 0}
    assert list(errors) == []


def test_motion_deal_fly_and_celebration_and_a_tap_ends_them(browser: Browser, server: str) -> None:
    context, errors = open_context(browser, viewport={"width": 1280, "height": 720})
    page = context.new_page()
    code, solution = won_deal()
    page.goto(f"{server}/play/{code}")
    page.wait_for_selector("body[data-ready=true]")
    # the deal: the cards come from the stock one after another
    assert page.evaluate("() => document.getAnimations().filter(a => a.playState === 'running').length") >= 20
    game = GamePage(page, server)
    before = game.answered()
    page.mouse.click(640, 300)  # a tap during the deal ends it, and does nothing else
    page.wait_for_function(DEALT)
    assert game.answered() == before and game.cards_with("selected") == []
    first, *rest = solution
    shown = {
        token: page.locator(f'#pyramid [data-card="{token}"]').bounding_box()
        for token in first.split("+")
        if first not in ("draw", "recycle")
    }
    game.play(Move.parse(first))
    # each card leaving flies from where it lay (a copy, the card itself is gone from the table)
    starts = page.evaluate("""() => [...document.querySelectorAll('.ghost')].map(g => {
        const board = document.getElementById('board').getBoundingClientRect();
        return [g.dataset.card, parseFloat(g.style.left) + board.left, parseFloat(g.style.top) + board.top]; })""")
    for token, x, y in starts:
        box = shown[token]
        assert box is not None and abs(box["x"] - x) < 2 and abs(box["y"] - y) < 12, (token, box, x, y)
    # a removal: a copy of each card flies to the removed pile
    flying = page.evaluate("() => document.querySelectorAll('.ghost').length")
    assert flying == (0 if first in ("draw", "recycle") else len(first.split("+")))
    for move in rest:
        game.play(Move.parse(move))
    # a win is celebrated before its result
    page.wait_for_selector(".confetti", state="attached", timeout=5000)
    assert page.text_content(".confetti .banner") == "クリア！"
    page.wait_for_timeout(600)  # the banner in full, the suits falling
    screenshot(page, "win-celebration")
    assert page.is_hidden("#dlg-result")
    page.locator("#dlg-result").wait_for(state="visible", timeout=10000)
    assert game.text("#result-title") == "クリア！"
    context.close()
    assert list(errors) == []


def test_a_waste_card_removed_flies_as_itself_while_the_card_under_it_takes_its_place(
    browser: Browser, server: str
) -> None:
    """With motion on, the copy that flies to the removed pile is the card removed, from where it lay;
    the waste's top shows the card that was under it (the page draws both with one element)."""
    context, errors = open_context(browser, viewport={"width": 1280, "height": 720})
    page = context.new_page()
    # 6h and 9c in the bottom row take 7d and 4c, the stock's first two cards
    code = Deal.from_notation(make_notation(row_of(7, "6h 9c Kd 2s 3s 5h 8h"), ["4c", "7d"]), "classic").code
    game = GamePage(page, server).open(f"/play/{code}")
    game.tap_stock()
    under = game.waste_top()
    game.tap_stock()
    top = game.waste_top()
    assert {under, top} == {"4c", "7d"}
    game.settle()
    was = page.locator('#stock-area [data-key="waste"]').bounding_box()
    art = uses(page, '#stock-area [data-key="waste"]')  # how the removed card looked there
    partner = {"7d": "6h", "4c": "9c"}[top]
    game.play(Move.parse(f"{partner}+{top}"))
    flying = page.evaluate("""() => [...document.querySelectorAll('.ghost')].map(g => {
        const board = document.getElementById('board').getBoundingClientRect();
        return [g.dataset.card, parseFloat(g.style.left) + board.left, parseFloat(g.style.top) + board.top]; })""")
    assert sorted(token for token, _, _ in flying) == sorted([partner, top])
    _, x, y = next(item for item in flying if item[0] == top)
    assert was is not None and abs(was["x"] - x) < 2 and abs(was["y"] - y) < 12
    # the copy wears the removed card's face, and the waste's top the card that was under it
    assert art and uses(page, f'.ghost[data-card="{top}"]') == art
    assert uses(page, '#stock-area [data-key="waste"]') != art
    assert game.waste_top() == under
    context.close()
    assert list(errors) == []


def uses(page: Page, selector: str) -> list[str]:
    """The art a card is drawn from: the symbols its drawing uses, in order."""
    found: list[str] = page.eval_on_selector_all(f"{selector} use", "els => els.map(e => e.getAttribute('href'))")
    return found


def test_cards_look_like_cards_and_the_backs_and_table_are_the_players_choice(
    desktop: tuple[Page, Errors], server: str
) -> None:
    page, errors = desktop
    game = seed_001(page, server)  # 6h 3c 7d Ts 9c in row 7, Qh and Ks; plain deck order above
    # indices in two corners (the rank over its suit, the lower one turned round), pips on number cards
    six = uses(page, '#pyramid [data-card="6h"]')
    assert six.count("#r-6") == 2 and six.count("#s-h") == 2 + 6
    assert uses(page, '#pyramid [data-card="Ts"]').count("#s-s") == 2 + 10
    assert uses(page, '#pyramid [data-card="Ts"]').count("#r-10") == 2
    # a court card shows a figure, twice (the second turned round), and an ace one large pip
    assert uses(page, '#pyramid [data-card="Qh"]').count("#h-q") == 2
    assert uses(page, '#pyramid [data-card="Ks"]').count("#h-k") == 2
    assert uses(page, '#pyramid [data-card="Ac"]').count("#s-c") == 3
    # the art's symbols are in the page (fetched once from its cached address)
    assert page.evaluate(
        "() => !!document.querySelector('.art-symbols #h-q') && !!document.querySelector('.art-symbols #back-red')"
    )
    # the stock is a card's back, in the design chosen; the table's colour too
    assert uses(page, "#stock-area .stock-btn") == ["#back-blue"]
    felt = page.evaluate("() => getComputedStyle(document.body).backgroundImage")
    game.settings(cardBack="red", table="blue")
    assert uses(page, "#stock-area .stock-btn") == ["#back-red"]
    assert page.evaluate("() => getComputedStyle(document.body).backgroundImage") != felt
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    assert uses(page, "#stock-area .stock-btn") == ["#back-red"]  # kept in this browser
    screenshot(page, "back-red-table-blue")
    assert list(errors) == []


#: How many lines the message line's text takes (a range's rectangles, one a line).
MESSAGE_LINES = """() => {
    const m = document.getElementById('message');
    const range = document.createRange();
    range.selectNodeContents(m);
    return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
}"""


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_long_message_that_fits_two_lines_shows_whole_on_a_phone(browser: Browser, server: str, lang: str) -> None:
    # Apophis deals three cards a draw and names them all; on a phone the message takes two lines, and
    # the clamp drew an ellipsis mid-message ("…and queen of…" / "clubs, one onto each waste pile")
    context, errors = context_for(browser, 390, 844, device_scale_factor=3, locale=LOCALES[lang])
    page = context.new_page()
    game = GamePage(page, server).open("/play/AP1-R-AAAAAAA")
    game.tap_stock()
    game.settle()
    shown = game.message()
    assert shown.endswith({"en": "one onto each waste pile", "ja": "に1枚ずつ配りました"}[lang])
    assert page.evaluate(MESSAGE_LINES) == 2
    drawn = page.locator("#message").screenshot()
    page.evaluate("() => { document.getElementById('message').style.display = 'block'; }")  # no clamp
    assert page.locator("#message").screenshot() == drawn, f"the clamp cut {shown!r}, which fits two lines"
    assert list(errors) == []
    context.close()


@pytest.mark.parametrize(("lang", "width"), [("en", 390), ("en", 360), ("ja", 360)])
def test_the_time_and_the_moves_share_a_line_on_an_upright_phone(
    browser: Browser, server: str, lang: str, width: int
) -> None:
    # In English the header's figures did not fit beside the code and the difficulty: the time stayed on
    # the first line and the moves went alone to a second one.
    context, errors = context_for(browser, width, 800, device_scale_factor=3, locale=LOCALES[lang])
    page = context.new_page()
    game = GamePage(page, server).open("/play/FC1-R-AAAAAAB")
    timer, moves = page.locator("#timer").bounding_box(), page.locator("#moves").bounding_box()
    assert timer is not None and moves is not None
    assert abs(timer["y"] - moves["y"]) < 2, (timer, moves)
    assert timer["x"] < moves["x"]
    assert game.text("#timer").startswith("0:")
    assert out_of_view(page) == []
    assert list(errors) == []
    context.close()


#: The header's parts that lie over one another or out of the window (with how much, in px).
HEADER_CLASHES = """() => {
    const parts = [...document.querySelectorAll('.topbar .brand, .topbar .code, .topbar #btn-copy, .topbar .badge, '
        + '.topbar .tally .figure, .topbar .nav-btn')].filter((e) => !e.closest('[hidden]'))
        .map((e) => [e.id || e.textContent.trim() || e.className, e.getBoundingClientRect()])
        .filter(([, r]) => r.width > 0);
    const clashes = [];
    parts.forEach(([name, r], i) => {
        if (r.left < -0.5 || r.right > innerWidth + 0.5) clashes.push(`${name} out of the window`);
        for (const [other, s] of parts.slice(i + 1)) {
            const x = Math.min(r.right, s.right) - Math.max(r.left, s.left);
            const y = Math.min(r.bottom, s.bottom) - Math.max(r.top, s.top);
            if (x > 1 && y > 1) clashes.push(`${name} over ${other} (${Math.round(x)}x${Math.round(y)})`);
        }
    });
    return clashes;
}"""


@pytest.mark.parametrize(
    ("lang", "width", "height"),
    [("en", 768, 1024), ("en", 820, 1180), ("en", 1024, 768), ("ja", 768, 1024), ("en", 480, 360), ("ja", 390, 360)],
    ids=lambda value: str(value),
)
def test_the_header_wraps_rather_than_lays_its_parts_over_one_another(
    browser: Browser, server: str, lang: str, width: int, height: int
) -> None:
    # On a tablet held upright in English the buttons and their names took the whole line and squeezed
    # the deal's figures under them: "Deal code", the difficulty and the time lay over "Daily". In a
    # short and narrow window (a phone's split screen) the figures ran under the buttons and were cut.
    context, errors = context_for(browser, width, height, device_scale_factor=2, locale=LOCALES[lang])
    page = context.new_page()
    GamePage(page, server).open("/play/FC1-R-AAAAAAB")
    assert page.evaluate(HEADER_CLASHES) == []
    assert page.locator("#diff-badge").inner_text() == {"en": "Fully random", "ja": "完全ランダム"}[lang]
    assert out_of_view(page) == []
    assert list(errors) == []
    context.close()


FOCUSED_BOX = """() => {
    const e = document.activeElement;
    const r = e.getBoundingClientRect();
    return {card: e.dataset.card || e.id || e.className, x: r.left + r.width / 2, y: r.top + r.height / 2};
}"""


def test_up_and_down_arrows_move_the_focus_to_what_is_above_and_below(browser: Browser, server: str) -> None:
    # On an upright phone the stock lies under the pyramid's bottom row: Down from its first card goes
    # to the stock, Up comes back to the card just above, and Up again stays (nothing usable above
    # the bottom row of a new deal); Right still walks the cards in reading order.
    context, errors = context_for(browser, 390, 844, device_scale_factor=3)
    page = context.new_page()
    game = GamePage(page, server).open("/play/CL1-R-AAAAAAB")
    bottom = game.pyramid_cards()[21:]  # the bottom row, all of it usable
    assert len(bottom) == 7 and all(bottom)
    page.keyboard.press("Home")
    first = page.evaluate(FOCUSED_BOX)
    assert first["card"] == bottom[0]
    page.keyboard.press("ArrowRight")
    assert page.evaluate(FOCUSED_BOX)["card"] == bottom[1]
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowDown")
    below = page.evaluate(FOCUSED_BOX)
    assert page.evaluate("() => document.activeElement.closest('#stock-area') !== null"), below
    assert below["y"] > first["y"]
    page.keyboard.press("ArrowUp")
    assert page.evaluate(FOCUSED_BOX)["card"] == bottom[0]  # the card nearest above the stock
    page.keyboard.press("ArrowUp")
    assert page.evaluate(FOCUSED_BOX)["card"] == bottom[0]  # the edge: it stays
    page.keyboard.press("Enter")
    assert "selected" in game.classes(str(bottom[0]))
    assert list(errors) == []
    context.close()


def test_sound_is_off_by_default_and_plays_once_turned_on(desktop: tuple[Page, Errors], server: str) -> None:
    page, errors = desktop
    game = seed_001(page, server)
    game.tap("Ks")
    game.tap_stock()
    assert page.evaluate("() => document.body.dataset.sounds") is None  # silence unless asked for
    game.settings(sound=True)
    game.tap("6h")
    game.tap("7d")
    assert int(page.evaluate("() => document.body.dataset.sounds")) == 2  # a choice, then a removal
    assert list(errors) == []


def test_a_replay_stops_the_clock_and_clears_the_last_message(desktop: tuple[Page, Errors], server: str) -> None:
    page, errors = desktop
    code, solution = won_deal()
    created = page.request.post(f"{server}/api/games", data={"code": code}).json()["game"]
    for move in solution:
        assert page.request.post(f"{server}/api/games/{created['id']}/move", data={"move": move}).ok
    game = GamePage(page, server).open("/play/CL1-R-AAAAAAB")
    game.tap_stock()
    assert game.message() != ""
    page.click("#btn-records")
    page.click(f'#records-finished button[data-game="{created["id"]}"]')
    page.locator("#replay-bar").wait_for(state="visible")
    page.wait_for_function("() => document.getElementById('replay-label').textContent !== ''")
    assert game.message() == ""
    clock = game.text("#timer")
    page.wait_for_timeout(2200)
    assert game.text("#timer") == clock  # the replayed game's time stands still
    # the replay bar's buttons are drawn icons with names, not font glyphs
    for button in ("replay-first", "replay-prev", "replay-next", "replay-last"):
        assert page.locator(f"#{button} svg use").count() == 1
        assert page.get_attribute(f"#{button}", "aria-label")
    assert list(errors) == []


def test_the_records_screen_fits_a_phone_and_shows_the_recent_games(browser: Browser, server: str) -> None:
    context, errors = context_for(browser, 360, 640)
    page = context.new_page()
    code, solution = won_deal()
    game = GamePage(page, server).open(f"/play/{code}")
    for move in solution:
        assert page.request.post(f"{server}/api/games/{game.answered().split('/')[0]}/move", data={"move": move}).ok
    page.click("#btn-records")
    page.locator("#dlg-records").wait_for(state="visible")
    assert page.evaluate("() => document.activeElement.id") == "dlg-records-title"  # no keyboard popping up
    dialog = page.locator("#dlg-records")
    # nothing of the dialog is cut off sideways: every figure can be read
    assert page.evaluate(
        "() => { const d = document.getElementById('dlg-records'); return d.scrollWidth <= d.clientWidth; }"
    )
    box = dialog.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360
    figures = page.locator("#records-stats .stat-card dd").all_inner_texts()
    assert "100%" in figures
    for cell in page.locator("#records-stats .stat-card dd").all():
        cell_box = cell.bounding_box()
        assert cell_box is not None and cell_box["x"] + cell_box["width"] <= box["x"] + box["width"]
    assert page.locator("#records-chart rect.won").count() == 1
    screenshot(page, "records-phone")
    # saving the display name says so
    page.fill("#records-name", "ピラ子")
    page.click("#records-save-name")
    page.wait_for_function("() => document.getElementById('records-name-status').textContent !== ''")
    assert page.text_content("#records-name-status") == "表示名を保存しました"
    # the file picker is the app's own button, in the page's language
    assert page.inner_text("#dlg-records .file-pick") == "記録を読み込む"
    context.close()
    assert list(errors) == []


#: For ``page.evaluate``: whether an element is what a player sees at its middle -- the element found there is it,
#: inside it, or inside one of its labels (a checkbox's), and not something drawn over it.
SHOWN_AT_MIDDLE = """(e) => { const r = e.getBoundingClientRect();
    const under = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return !!under && (e.contains(under) || [...(e.labels || [])].some((label) => label.contains(under))); }"""
#: The dialogs the top bar opens, each with the button of its bar that closes it without doing anything else.
TOP_BAR_DIALOGS = [
    ("btn-new", "dlg-new", "#new-cancel"),
    ("btn-settings", "dlg-settings", "#dlg-settings .buttons .primary"),
    ("btn-records", "dlg-records", "#records-close"),
    ("btn-rules", "dlg-rules", "#dlg-rules .buttons .primary"),
    ("btn-daily", "dlg-daily", "#dlg-daily .buttons button[type=submit]"),
    ("btn-challenges", "dlg-challenges", "#dlg-challenges .buttons .primary"),
]


@pytest.mark.parametrize("size", [(844, 390), (360, 640)], ids=["phone-sideways", "small-phone"])
def test_dialog_buttons_are_in_view_without_scrolling(browser: Browser, server: str, size: tuple[int, int]) -> None:
    """A dialog longer than the screen (a phone held sideways shows a few lines of it) keeps its own buttons
    in view at its foot, over the text that scrolls: each button of the bar is the element under its own
    middle, and a tap there, where the player sees it, closes the dialog."""
    width, height = size
    context, errors = context_for(browser, width, height)
    page = context.new_page()
    game = GamePage(page, server).open("/play/FC1-R-AAAAAAE")
    for opener, dialog, close in TOP_BAR_DIALOGS:
        page.click(f"#{opener}")
        page.locator(f"#{dialog}").wait_for(state="visible")
        game.settle()
        hidden = page.evaluate(
            f"""(id) => {{ const shown = {SHOWN_AT_MIDDLE};
                const bar = [...document.getElementById(id).querySelectorAll('form > .buttons')].pop();
                return [...bar.querySelectorAll('button:not([hidden])')].filter((b) => !shown(b))
                  .map((b) => b.textContent); }}""",
            dialog,
        )
        assert hidden == [], f"{dialog} at {width}x{height}: buttons not in view: {hidden}"
        if opener == "btn-records":
            # a new player's records: no empty chart, only the caption that says there is nothing yet
            assert page.is_hidden("#records-chart")
            assert game.text("#records-chart-caption") == "終わったゲームはまだありません"
            assert game.text("#records-empty") == "まだ記録がありません"  # said once each, not twice alike
            longer = "(id) => { const d = document.getElementById(id); return d.scrollHeight > d.clientHeight; }"
            assert page.evaluate(longer, dialog), "the records dialog is meant to be longer than this screen"
            screenshot(page, f"dialog-records-{width}x{height}")
        box = page.locator(close).bounding_box()
        assert box is not None
        page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)  # where it is: no scrolling
        page.locator(f"#{dialog}").wait_for(state="hidden")
    # with the keyboard, each control Tab reaches is scrolled clear of the bar, not under it
    for opener, dialog in (("btn-settings", "dlg-settings"), ("btn-records", "dlg-records")):
        page.click(f"#{opener}")
        page.locator(f"#{dialog}").wait_for(state="visible")
        game.settle()
        covered = []
        for _ in range(24):
            page.keyboard.press("Tab")
            focused, shown = page.evaluate(
                f"() => {{ const e = document.activeElement; return [e.id || e.textContent, ({SHOWN_AT_MIDDLE})(e)]; }}"
            )
            if not shown:
                covered.append(focused)
        assert covered == [], f"{dialog} at {width}x{height}: focused under the bar: {covered}"
        page.keyboard.press("Escape")
        page.locator(f"#{dialog}").wait_for(state="hidden")
    context.close()
    assert list(errors) == []


#: Where each card of the layout lies: its slot, whether it is one of the reserve piles, its box.
LAYOUT_BOXES = """() => [...document.querySelectorAll('#pyramid [data-slot]')].map(e => {
    const r = e.getBoundingClientRect();
    return {reserve: e.classList.contains('reserve'), left: r.left, right: r.right, top: r.top,
            bottom: r.bottom, width: r.width};
})"""


@pytest.mark.parametrize(("width", "height"), [(1280, 720), (844, 390)], ids=["laptop", "phone-sideways"])
def test_giza_sets_its_piles_beside_the_pyramid_on_a_wide_screen(
    browser: Browser, server: str, width: int, height: int
) -> None:
    """Under the pyramid, Giza's eight piles and its seven rows shared the height, and on a laptop or a
    phone held sideways its cards came out two thirds the size of classic's, the sides of the window
    empty. There, four piles now stand left of the pyramid and four right of it, and the cards are
    nearly classic's size; on an upright phone the piles stay in their row under the pyramid."""
    context, errors = context_for(browser, width, height, device_scale_factor=3 if is_phone(width) else 1)
    page = context.new_page()
    GamePage(page, server).open(f"/play/{code_of('classic')}")
    classic = page.evaluate(LAYOUT_BOXES)[0]["width"]
    GamePage(page, server).open(f"/play/{code_of('giza')}")
    boxes = page.evaluate(LAYOUT_BOXES)
    pyramid = [box for box in boxes if not box["reserve"]]
    piles = [box for box in boxes if box["reserve"]]
    assert len(pyramid) == 28 and len(piles) == 24
    left_edge, right_edge = min(b["left"] for b in pyramid), max(b["right"] for b in pyramid)
    assert sum(b["right"] <= left_edge for b in piles) == 12  # four piles of three on each side
    assert sum(b["left"] >= right_edge for b in piles) == 12
    assert max(b["bottom"] for b in piles) <= max(b["bottom"] for b in pyramid) + pyramid[0]["width"]
    assert pyramid[0]["width"] >= 0.85 * classic, (pyramid[0]["width"], classic)
    assert out_of_view(page) == []
    screenshot(page, f"giza-{width}x{height}")
    page.set_viewport_size({"width": 390, "height": 844})  # an upright phone: the row under the pyramid
    # (a function: an expression polled is evaluated as a string, which the page's CSP forbids)
    page.wait_for_function("() => document.querySelector('#board').dataset.arrangement === 'stacked'")
    boxes = page.evaluate(LAYOUT_BOXES)
    lowest_row = max(b["top"] for b in boxes if not b["reserve"])
    assert all(b["top"] > lowest_row for b in boxes if b["reserve"])
    assert out_of_view(page) == []
    assert list(errors) == []
    context.close()


#: The header's height and the first pyramid card's width: what moves when the header takes a new line.
#: The deal code shown whole, not cut with an ellipsis.
CODE_FITS = "() => { const c = document.getElementById('deal-link'); return c.scrollWidth <= c.clientWidth; }"
HEADER_AND_CARD = """() => [document.querySelector('.topbar').getBoundingClientRect().height,
    document.querySelector('#pyramid [data-card]').getBoundingClientRect().width]"""


def score_a_hundred(game: GamePage) -> None:
    """Play the solver's line for the Pyramide deal shown until its score reaches 100."""
    line = solve(Deal.from_code(game.text("#deal-link")), time_limit=30).solution
    assert line is not None
    for move in line[:-1]:
        game.play(move)
        if int(game.text("#score")) >= 100:
            break


def test_the_table_keeps_its_size_as_the_score_reaches_a_hundred_on_a_phone_held_sideways(
    browser: Browser, server: str
) -> None:
    # On the short header's one line the score's third digit squeezed the deal code, and the words "Deal
    # code" beside it wrapped onto two lines: the header grew two pixels and the table shrank.
    context, errors = context_for(browser, 844, 390, locale=LOCALES["en"])
    page = context.new_page()
    game = GamePage(page, server).open(f"/play/{code_of('pyramide')}")
    before = page.evaluate(HEADER_AND_CARD)
    score_a_hundred(game)
    assert int(game.text("#score")) >= 100
    assert page.evaluate(HEADER_AND_CARD) == before
    assert page.evaluate(HEADER_CLASHES) == []
    assert list(errors) == []
    context.close()


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_table_keeps_its_size_as_a_challenge_is_met_mid_game(browser: Browser, server: str, lang: str) -> None:
    # Today's score challenge is met by a move in the middle of a Pyramide game; its badge used to gain a
    # "✓ " then, which could take the header onto a second line under the player's finger.
    context, errors = context_for(browser, 844, 390, locale=LOCALES[lang])
    page = context.new_page()
    game = GamePage(page, server).open("/")
    listed = page.request.get(f"{server}/api/challenges?lang={lang}").json()
    challenge = next(c for c in day_set(date.fromisoformat(listed["date"])) if c.kind == "score")
    title = next(c["title"] for c in listed["challenges"] if c["id"] == challenge.id)
    page.click("#btn-challenges")
    before_game = game.answered()
    page.click(f'#challenges-list li[data-challenge="{challenge.id}"] button')
    page.wait_for_function("before => `${document.body.dataset.game}` !== before.split('/')[0]", arg=before_game)
    game.settle()
    assert game.text("#challenge-badge") == {"ja": f"チャレンジ：{title}", "en": f"Challenge: {title}"}[lang]
    # the badge is cut to fit the top bar; the goal is said whole as the game starts, and again on a tap
    badge = page.locator("#challenge-badge")
    assert badge.evaluate("e => e.scrollWidth > e.clientWidth")
    goal = {"ja": f"チャレンジ：{title} — 0 / {challenge.target}", "en": f"Challenge: {title} — 0 / {challenge.target}"}
    assert game.message() == goal[lang]
    page.click("#btn-hint")
    page.wait_for_function("goal => document.getElementById('message').textContent !== goal", arg=goal[lang])
    badge.tap()
    page.wait_for_function("goal => document.getElementById('message').textContent === goal", arg=goal[lang])
    before = page.evaluate(HEADER_AND_CARD)
    replay = Game(Deal.from_code(challenge.codes[0]))
    for notation in challenge.proofs[0]:
        game.play(replay.push(notation))
        if int(game.text("#score")) >= challenge.target:
            break
    assert int(game.text("#score")) == challenge.target
    assert page.is_hidden("#dlg-result")  # met mid-game: the game goes on
    page.wait_for_function(
        "done => document.getElementById('challenge-badge').textContent === done",
        arg={"ja": f"✓ 達成：{title}", "en": f"✓ Done: {title}"}[lang],
    )
    assert page.evaluate(HEADER_AND_CARD) == before
    assert page.evaluate(HEADER_CLASHES) == []
    assert list(errors) == []
    context.close()


def test_the_clock_waits_for_the_first_move(desktop: tuple[Page, Errors], server: str) -> None:
    # The page deals a game on its first visit; one left untouched came back with the minutes it had
    # waited on its clock, and a win was timed (and ranked) from them.
    page, errors = desktop
    game = GamePage(page, server).open(f"/play/{code_of('classic')}")
    page.wait_for_timeout(2200)
    assert game.text("#timer") == "0:00"
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    assert game.text("#timer") == "0:00"  # the server kept no time for it either
    game.tap_stock()
    # it runs from the move (read as seconds: a busy machine may skip a tick)
    running = """() => { const [m, s] = document.getElementById('timer').textContent.split(':');
        return 60 * m + +s >= 2; }"""
    page.wait_for_function(running, timeout=10_000)
    assert list(errors) == []


@pytest.mark.parametrize(
    ("lang", "width", "height"), [("en", 1280, 720), ("ja", 1280, 720), ("en", 390, 844), ("en", 844, 390)]
)
def test_the_table_keeps_its_size_as_the_moves_reach_ten(
    browser: Browser, server: str, lang: str, width: int, height: int
) -> None:
    # On a laptop in English the header's figures just fitted on its first line: the tenth move's second
    # digit took them to a second line, and the whole table shrank as the player reached for the stock.
    # On a phone held sideways that line's second digit cut the deal code instead ("CL1-N-AAAAC…").
    context, errors = context_for(browser, width, height, locale=LOCALES[lang])
    page = context.new_page()
    # a verified deal: the badge's words "Normal · Verified clearable" are the longest beside the code
    game = GamePage(page, server).open(f"/play/{pick_deal(PRESETS['classic'], 'N', random.Random(36)).code}")
    before = page.evaluate(HEADER_AND_CARD)
    for _ in range(12):
        game.tap_stock()
    assert game.text("#moves") == "12"
    assert page.evaluate(HEADER_AND_CARD) == before
    assert page.evaluate(HEADER_CLASHES) == []
    assert page.evaluate(CODE_FITS)
    assert list(errors) == []
    context.close()


@pytest.mark.parametrize(
    ("lang", "width", "height"),
    [("en", 667, 375), ("ja", 667, 375), ("en", 640, 360), ("en", 568, 320), ("ja", 568, 320)],
)
def test_a_small_phone_held_sideways_keeps_pyramides_code_whole_at_a_hundred_moves_and_points(
    browser: Browser, server: str, lang: str, width: int, height: int
) -> None:
    # At 667 px (the iPhone SE's width) the brand, the code, the difficulty, the time, three-digit moves and
    # score and six buttons did not fit on the one line: the code was cut to "PY1-R-AAA…"; at 568 px it was
    # cut before the first move. Each figure's word now stands over its number there.
    context, errors = context_for(browser, width, height, locale=LOCALES[lang])
    page = context.new_page()
    game = GamePage(page, server).open(f"/play/{code_of('pyramide')}")
    score_a_hundred(game)
    while int(game.text("#moves")) < 100:
        game.tap_stock()
    assert int(game.text("#score")) >= 100
    assert page.evaluate(CODE_FITS), game.text("#deal-link")
    assert page.evaluate(HEADER_CLASHES) == []
    # each word is still shown with its figure, above it, and not cut
    words = {"en": ["Time", "Moves", "Score"], "ja": ["時間", "手数", "得点"]}[lang]
    shown = page.evaluate(
        """() => [...document.querySelectorAll('.tally .figure')].map(f => {
            const [w, n] = [f.querySelector('.label'), f.lastElementChild].map(e => e.getBoundingClientRect());
            return [f.querySelector('.label').textContent, w.width > 1 && w.bottom <= n.top + 1,
                    f.scrollWidth <= f.clientWidth];
        })"""
    )
    assert shown == [[word, True, True] for word in words]
    assert list(errors) == []
    context.close()


@pytest.mark.parametrize(("lang", "width", "height"), [("en", 640, 360), ("ja", 640, 360), ("en", 568, 320)])
def test_a_phone_held_sideways_shows_the_code_and_a_checked_difficulty_on_one_line(
    browser: Browser, server: str, lang: str, width: int, height: int
) -> None:
    # On the short header's one line a verified deal's difficulty ("Normal · Verified clearable") left the
    # code no room, and its copy button lay over the difficulty. There the words give way to a check
    # mark (a screen reader still hears them) and the copy button keeps its own room.
    context, errors = context_for(browser, width, height, device_scale_factor=3, locale=LOCALES[lang])
    page = context.new_page()
    GamePage(page, server).open("/play/PY1-N-AAAAAAB")  # a verified deal, with a score beside the moves
    badge = page.locator("#diff-badge")
    words = {"en": "Verified clearable", "ja": "クリア可能と確認済み"}[lang]
    assert page.evaluate("document.querySelector('#diff-badge').textContent").endswith(f"· {words} ✓")
    shown = page.evaluate(
        "[...document.querySelectorAll('#diff-badge > span')].map(e => [e.className, e.getBoundingClientRect().width])"
    )
    assert shown[0][0] == "verified-words" and shown[0][1] <= 1  # read out, not drawn
    assert shown[1][0] == "verified-mark" and shown[1][1] > 0
    assert page.evaluate(HEADER_CLASHES) == []
    assert page.evaluate(CODE_FITS), page.locator("#deal-link").text_content()
    assert badge.is_visible() and page.locator("#score").is_visible()
    assert out_of_view(page) == []
    assert list(errors) == []
    context.close()


def test_the_keys_legend_shows_where_there_is_a_keyboard_and_not_on_a_touch_tablet(
    browser: Browser, server: str
) -> None:
    shown = {}
    for touch in (False, True):
        context, errors = context_for(browser, 768, 1024, is_mobile=touch, has_touch=touch)
        page = context.new_page()
        GamePage(page, server).open(f"/play/{code_of('classic')}")
        shown[touch] = page.is_visible("#keys-help")
        assert list(errors) == []
        context.close()
    assert shown == {False: True, True: False}


def win_a_deal(
    browser: Browser, server: str, width: int, height: int, lang: str, ratio: int
) -> tuple[BrowserContext, Errors, Page, GamePage, str]:
    """A won deal played through by taps in a window of that size, language and pixel ratio, its result
    shown: the context, its errors, the page, the game and the deal's code."""
    context, errors = context_for(browser, width, height, locale=LOCALES[lang], device_scale_factor=ratio)
    page = context.new_page()
    code, solution = won_deal()
    game = GamePage(page, server).open(f"/play/{code}")
    for move in solution:
        game.play(Move.parse(move))
    page.locator("#dlg-result").wait_for(state="visible")
    return context, errors, page, game, code


def test_a_phones_result_keeps_the_code_and_the_rule_set_whole(browser: Browser, server: str) -> None:
    # In an upright phone's result the code broke at its hyphens (「1354 (CL1-N-」 / 「AAAACAC)」) and the
    # statistics' heading inside 「クラシック（3 周）」.
    context, errors, page, game, code = win_a_deal(browser, server, 390, 844, "ja", 3)
    figures = game.text("#result-figures")
    assert f"({code})" in figures
    one_line = """(selector) => { const e = document.querySelector(selector);
        return e.getClientRects().length === 1; }"""
    assert page.evaluate(one_line, "#result-figures dd .nowrap")
    assert game.text("#result-stats-title") == "この難易度での成績（クラシック（3周）・ふつう）"
    assert page.evaluate(one_line, "#result-stats-title .nowrap")
    assert list(errors) == []
    context.close()


@pytest.mark.parametrize(("lang", "width", "height"), [("ja", 360, 640), ("ja", 390, 844), ("en", 360, 640)])
def test_the_result_of_a_rule_set_with_a_long_name_stays_inside_a_phones_dialog(
    browser: Browser, server: str, lang: str, width: int, height: int
) -> None:
    # 「この難易度での成績（ピラミッド（アプリ版・無制限・得点あり）・…）」 kept the rule set's name on one
    # line, which ran past the dialog's edge (cut at 390 px, the dialog scrolling sideways at 360 px).
    context, errors = context_for(browser, width, height, device_scale_factor=3, locale=LOCALES[lang])
    page = context.new_page()
    game = GamePage(page, server).open(f"/play/{code_of('pyramide')}")
    page.click("#btn-resign")
    game.button("confirm-yes")
    page.locator("#dlg-result").wait_for(state="visible")
    name = {"ja": "ピラミッド（アプリ版・無制限・得点あり）", "en": "Pyramide"}[lang]
    assert name in game.text("#result-stats-title")
    inside = page.evaluate("""() => {
        const dialog = document.getElementById('dlg-result');
        const box = dialog.getBoundingClientRect();
        const spans = [...document.querySelectorAll('#result-stats-title span')].map(s => s.getBoundingClientRect());
        return [dialog.scrollWidth <= dialog.clientWidth, spans.every(r => r.right <= box.right - 8)];
    }""")
    assert inside == [True, True]
    # the title breaks at its spaces, as words do, not inside one (「投了しまし」「た」)
    lines = page.evaluate("""() => {
        const title = document.getElementById('result-title'), range = document.createRange(), tops = new Map();
        for (let i = 0; i < title.firstChild.length; i++) {
            range.setStart(title.firstChild, i); range.setEnd(title.firstChild, i + 1);
            const top = Math.round(range.getBoundingClientRect().top);
            tops.set(top, (tops.get(top) || '') + title.firstChild.data[i]);
        }
        return [...tops.values()].map(line => line.trim());
    }""")
    assert " ".join(line for line in lines if line) == game.text("#result-title"), lines
    screenshot(page, f"result-pyramide-{width}x{height}-{lang}")
    assert list(errors) == []
    context.close()


@pytest.mark.parametrize(("lang", "width", "height"), [("en", 844, 390), ("ja", 844, 390), ("en", 1280, 720)])
def test_the_result_shows_its_figures_and_its_four_buttons_at_once(
    browser: Browser, server: str, lang: str, width: int, height: int
) -> None:
    # In a 520-px dialog, English wrapped the result's four buttons three and one, and on a phone held
    # sideways the deal's number scrolled out of sight below them; the dialog is now wider, and takes
    # the width of a sideways phone with two figures a row.
    context, errors, page, _, _ = win_a_deal(browser, server, width, height, lang, 3 if is_phone(width) else 1)
    tops = page.eval_on_selector_all(
        "#dlg-result .buttons:last-child button:not([hidden])",
        "bs => bs.map(b => Math.round(b.getBoundingClientRect().top))",
    )
    assert len(tops) == 4 and len(set(tops)) == 1, tops
    hidden = page.evaluate("""() => {
        const bar = document.querySelector('#dlg-result .buttons:last-child').getBoundingClientRect();
        const box = document.querySelector('#dlg-result').getBoundingClientRect();
        return [...document.querySelectorAll('#result-figures dt, #result-figures dd')]
          .filter(e => { const r = e.getBoundingClientRect(); return r.top < box.top || r.bottom > bar.top; })
          .map(e => e.textContent); }""")
    assert hidden == [], hidden
    screenshot(page, f"result-{width}x{height}-{lang}")
    assert list(errors) == []
    context.close()

"""The first-game guide: offered on a first visit to the front page and never again once skipped or
done; played step by step on its verified deal (pairs, a king, a covered card, the stock and the
waste, hint, undo), each step pointing at real cards of the state and going on when the player has done
it; ended at any step; started again from Rules; in English too."""

from __future__ import annotations

from browser import PHONE, Errors, open_context, screenshot
from pages import GamePage, settle_history
from playwright.sync_api import Browser, Page

GUIDE_CODE = "CL1-E-AAAAABT"


def first_visit(browser: Browser, server: str, locale: str = "ja-JP") -> tuple[Page, Errors, GamePage]:
    context, errors = open_context(browser, guide=True, locale=locale, viewport={"width": 1280, "height": 860})
    page = context.new_page()
    game = GamePage(page, server).open("/")
    page.locator("#dlg-guide").wait_for(state="visible")
    return page, errors, game


def glowing(page: Page) -> list[str]:
    return sorted(
        page.eval_on_selector_all(".guide-target", "els => els.map(e => e.dataset.card || e.id)")  # type: ignore[arg-type]
    )


def step_text(page: Page) -> str:
    return str(page.text_content("#guide-count"))


def wait_step(page: Page, text: str) -> None:
    page.wait_for_function("t => document.getElementById('guide-count').textContent === t", arg=text)


def test_the_offer_comes_once_and_skipping_it_is_kept(browser: Browser, server: str) -> None:
    page, errors, _ = first_visit(browser, server)
    assert page.text_content("#guide-offer-title") == "はじめてのピラミッド"
    page.click("#guide-skip")
    assert page.is_hidden("#dlg-guide")
    settle_history(page)
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    page.wait_for_timeout(300)
    assert page.is_hidden("#dlg-guide") and page.is_hidden("#guide")
    assert errors == []
    page.context.close()


def test_the_guided_deal_step_by_step(browser: Browser, server: str) -> None:
    page, errors, game = first_visit(browser, server)
    screenshot(page, "guide-offer")
    page.click("#guide-start")
    page.wait_for_function("code => document.getElementById('deal-link').textContent === code", arg=GUIDE_CODE)
    game.settle()
    wait_step(page, "ガイド 1/8")
    assert "合計が13になる2枚" in (page.text_content("#guide-text") or "")
    assert glowing(page) == ["3d", "Tc"]
    screenshot(page, "guide-pairs")
    game.tap("Tc")
    assert glowing(page) == ["3d", "Tc"]  # choosing a card draws the table again: still pointed at
    game.tap("3d")
    wait_step(page, "ガイド 2/8")
    assert glowing(page) == ["Kd"]
    game.tap("Kd")
    wait_step(page, "ガイド 3/8")
    (covered,) = glowing(page)
    game.tap(covered)  # the page says why it cannot be chosen
    assert "覆われて" in game.message() or "重なって" in game.message() or game.message()
    page.focus("#guide-next")  # by keyboard: the next step hides Next; the focus goes to what it points at
    page.keyboard.press("Enter")
    wait_step(page, "ガイド 4/8")
    assert glowing(page) == ["stock-area"]
    assert page.evaluate("() => document.activeElement.matches('#stock-area .stock-btn')")
    game.tap_stock()
    wait_step(page, "ガイド 5/8")
    assert glowing(page) == ["Ac", "Qs"]
    game.tap("Ac")
    game.tap("Qs")
    wait_step(page, "ガイド 6/8")
    assert glowing(page) == ["btn-hint"]
    game.button("btn-hint")
    wait_step(page, "ガイド 7/8")
    game.button("btn-undo")
    wait_step(page, "ガイド 8/8")
    assert page.is_hidden("#guide-end")
    page.focus("#guide-next")
    page.keyboard.press("Enter")
    assert page.is_hidden("#guide") and glowing(page) == []
    assert page.evaluate("() => document.activeElement.closest('#pyramid, #stock-area') !== null")  # not the body
    assert page.evaluate("() => localStorage.getItem('pyramid.guide')") == "done"
    page.goto(f"{server}/")
    page.wait_for_selector("body[data-ready=true]")
    page.wait_for_timeout(300)
    assert page.is_hidden("#dlg-guide")
    assert errors == []
    page.context.close()


def test_the_guide_ends_at_any_step_and_starts_again_from_rules_in_english(browser: Browser, server: str) -> None:
    page, errors, game = first_visit(browser, server, "en-GB")
    assert page.text_content("#guide-offer-title") == "New to Pyramid?"
    page.click("#guide-start")
    wait_step(page, "Guide 1/8")
    game.settle()
    game.tap("Tc")
    game.tap("3d")
    wait_step(page, "Guide 2/8")
    page.focus("#guide-end")
    page.keyboard.press("Enter")
    assert page.is_hidden("#guide") and glowing(page) == []
    assert page.evaluate("() => document.activeElement.closest('#pyramid, #stock-area') !== null")  # not the body
    assert page.evaluate("() => localStorage.getItem('pyramid.guide')") == "skipped"
    page.click("#btn-rules")
    page.locator("#dlg-rules").wait_for(state="visible")
    assert page.text_content("#rules-guide") == "Play the guided deal"
    page.click("#rules-guide")
    wait_step(page, "Guide 1/8")
    game.settle()
    assert glowing(page) == ["3d", "Tc"]
    assert "Remove two cards that add up to 13" in (page.text_content("#guide-text") or "")
    assert errors == []
    page.context.close()


def test_a_tap_on_start_leaves_no_focus_ring_on_the_top_bar(browser: Browser, server: str) -> None:
    """On a phone the offer closes with a tap: the focus goes to 新しいゲーム as after any dialog (a
    keyboard player goes on from there), but without its ring, which a player who only tapped would
    see round a button they never touched."""
    context, errors = open_context(
        browser,
        guide=True,
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        has_touch=True,
        device_scale_factor=3,
    )
    page = context.new_page()
    GamePage(page, server).open("/")
    page.locator("#dlg-guide").wait_for(state="visible")
    page.tap("#guide-start")
    wait_step(page, "ガイド 1/8")
    focused = "() => [document.activeElement.id, document.activeElement.matches(':focus-visible')]"
    assert page.evaluate(focused) == ["btn-new", False]
    page.keyboard.press("Tab")  # a key: the ring shows where the keyboard is now
    assert page.evaluate("() => document.activeElement.matches(':focus-visible')")
    screenshot(page, "guide-phone")
    assert list(errors) == []
    context.close()


def test_the_guide_bar_keeps_its_height_so_the_cards_stay_put_between_steps(browser: Browser, server: str) -> None:
    """On a phone the steps' words take two to four lines; the bar grew and shrank with them, and the table
    under it with every card changed size between steps."""
    context, errors = open_context(browser, guide=True, **PHONE)
    page = context.new_page()
    game = GamePage(page, server).open("/")
    page.locator("#dlg-guide").wait_for(state="visible")
    page.click("#guide-start")
    page.wait_for_function("code => document.getElementById('deal-link').textContent === code", arg=GUIDE_CODE)
    game.settle()
    measure = """() => { const bar = document.getElementById('guide').getBoundingClientRect();
        const card = document.querySelector('#stock-area .stock-btn').getBoundingClientRect();
        return [Math.round(bar.height), Math.round(card.width), Math.round(card.top)]; }"""
    seen = {}
    for step, act in [
        ("ガイド 1/8", lambda: (game.tap("Tc"), game.tap("3d"))),
        ("ガイド 2/8", lambda: game.tap("Kd")),
        ("ガイド 3/8", lambda: page.click("#guide-next")),
        ("ガイド 4/8", lambda: game.tap_stock()),
        ("ガイド 5/8", lambda: None),
    ]:
        wait_step(page, step)
        game.settle()
        seen[step] = page.evaluate(measure)
        act()
    assert len(set(map(tuple, seen.values()))) == 1, seen
    assert list(errors) == []
    context.close()

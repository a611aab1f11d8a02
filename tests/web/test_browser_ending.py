"""What the page says when a move ends the game: the message line and the screen readers' announcer say the
move and then the end (「…をめくりました。手詰まりです」, "Removed … . Cleared!"), so that the table still says
the game is over once the result is closed, as 「投了しました」 does after resigning."""

from __future__ import annotations

from browser import Errors
from playwright.sync_api import Page
from test_browser_rules import plain_hints_until_the_end, resume

from pyramid_solitaire import Deal
from pyramid_solitaire.cards import Card
from pyramid_solitaire.catalog import earned
from pyramid_solitaire.solver import solve


def announced(page: Page) -> str:
    """The announcer's text once it has been set (say() sets it a moment after it empties it)."""
    page.wait_for_function("() => document.getElementById('live').textContent !== ''")
    return page.inner_text("#live").strip()


def test_the_last_draw_of_a_lost_deal_says_the_game_is_lost(desktop: tuple[Page, Errors], server: str) -> None:
    page, errors = desktop
    for number in range(40):
        deal = Deal.from_number(number, "classic")
        moves, game = plain_hints_until_the_end(deal)
        if game.status == "lost" and not moves[-1].cards:
            break
    else:
        raise AssertionError("following the plain hint never lost a deal on a draw")
    shown = resume(page, server, deal.code, moves[:-1])
    shown.play_by_keyboard(moves[-1])
    page.locator("#dlg-result").wait_for(state="visible")
    drawn = shown.waste_top()
    assert drawn is not None
    said = f"{Card.parse(drawn).name('ja')}をめくりました。手詰まりです"
    assert announced(page) == said
    page.keyboard.press("Escape")
    page.locator("#dlg-result").wait_for(state="hidden")
    assert shown.message() == said  # the table still says so once the result is closed
    assert list(errors) == []


def test_the_winning_pair_says_the_deal_is_cleared_in_english(desktop: tuple[Page, Errors], server: str) -> None:
    page, errors = desktop
    deal = earned(Deal.from_number(1, "classic", "N"))
    solution = solve(deal, time_limit=60).solution
    assert solution is not None and solution[-1].cards
    shown = resume(page, server, deal.code, solution[:-1])
    shown.settings(lang="en")
    shown.play_by_keyboard(solution[-1])
    page.locator("#dlg-result").wait_for(state="visible")
    said = announced(page)
    assert said.startswith("Removed ") and said.endswith(". Cleared!"), said
    assert list(errors) == []

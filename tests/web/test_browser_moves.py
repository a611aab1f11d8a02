"""Moves, not taps (issue 19): the page chooses cards itself from the state and sends one request per
move.  Requests are counted as the browser makes them: choosing a card, a refused pair and a tap on a
covered card send nothing; a pair sends exactly one POST, to /move."""

from __future__ import annotations

from browser import Errors, screenshot
from pages import GamePage
from playwright.sync_api import Page, Request

from helpers import make_notation, row_of
from pyramid_solitaire import Deal

SEED_001_ROW_7 = "Ks 6h 3c 7d Ts Qh 9c"
SEED_000 = (
    "Jd 6c 7h As 4d Qs 5h 3d 6h 8s Kh Kc Ad Ks 9c Qc 2c 8d Td Ts Js 7c Tc 3h 4h 3s Kd 7s 7d Ac 3c 4c 5c "
    "8c Jc 2d 5d 6d 9d Qd Ah 2h 8h 9h Th Jh Qh 2s 4s 5s 6s 9s"
)


def count_posts(page: Page) -> list[str]:
    """The paths of the POSTs the page sends from now on, in order."""
    posts: list[str] = []

    def seen(request: Request) -> None:
        if request.method == "POST":
            posts.append(request.url.split("?")[0].split("/api/games/")[-1].split("/", 1)[-1])

    page.on("request", seen)
    return posts


def seed_001(page: Page, server: str) -> GamePage:
    code = Deal.from_notation(make_notation(row_of(7, SEED_001_ROW_7), ["Ad"]), "classic").code
    return GamePage(page, server).open(f"/play/{code}")


def test_a_pair_is_one_post_and_choosing_sends_nothing(desktop: tuple[Page, Errors], server: str) -> None:
    page, errors = desktop
    game = seed_001(page, server)
    posts = count_posts(page)
    game.tap("6h")
    assert game.cards_with("selected") == ["6h"] and game.cards_with("partner") == ["7d"]
    assert game.message() == "ハートの6を選びました"
    assert posts == []
    game.tap("7d")
    assert posts == ["move"]
    assert game.card("6h").count() == 0 and game.card("7d").count() == 0
    assert game.cards_with("selected") == [] and game.cards_with("partner") == []
    assert list(errors) == []


def test_a_covered_card_says_what_covers_it_and_sends_nothing(desktop: tuple[Page, Errors], server: str) -> None:
    page, errors = desktop
    deal = Deal.from_number(0, "classic", "R")
    game = GamePage(page, server).open(f"/play/{deal.code}")
    posts = count_posts(page)
    row_6 = game.pyramid_cards()[15]  # row 6's first card, under row 7's first two
    row_7 = game.pyramid_cards()[21:23]
    assert row_6 is not None and all(row_7)
    names = [Deal.from_code(deal.code).pyramid[21 + i].symbol for i in range(2)]  # as the card shows: Q♥, 10♠
    game.tap(row_6)
    message = game.message()
    assert message.startswith("このカードは別のカードに覆われています") and all(n in message for n in names), message
    assert "error" in (page.get_attribute("#message", "class") or "")
    assert game.cards_with("selected") == []
    assert posts == []
    game.settings(lang="en")
    page.wait_for_selector("html[lang=en]")
    page.wait_for_function("() => document.getElementById('stock-label').textContent.startsWith('Pass')")
    game.tap(row_6)
    message = game.message()
    assert message.startswith("This card is covered by"), message
    english = [Deal.from_code(deal.code).pyramid[21 + i].symbol for i in range(2)]
    assert all(name in message for name in english), message
    assert posts == []
    assert list(errors) == []


def test_two_cards_off_the_sum_show_their_values_and_send_nothing(desktop: tuple[Page, Errors], server: str) -> None:
    page, errors = desktop
    game = seed_001(page, server)
    posts = count_posts(page)
    game.tap("Qh")
    game.tap("9c")
    assert "Q(12)+9=21" in game.message()
    assert game.cards_with("selected") == []  # classic: a refused pair is put down
    assert game.card("Qh").count() == 1 and game.card("9c").count() == 1
    screenshot(page, "moves-refused-sum")
    game.settings(lang="en")
    page.wait_for_selector("html[lang=en]")
    page.wait_for_function("() => document.getElementById('stock-label').textContent.startsWith('Pass')")
    game.tap("Qh")
    game.tap("9c")
    assert game.message() == "The cards must add up to 13: Q(12)+9=21."
    assert posts == []
    assert list(errors) == []


def test_in_pyramide_the_second_card_stays_chosen_after_a_refused_pair(
    desktop: tuple[Page, Errors], server: str
) -> None:
    page, errors = desktop
    game = GamePage(page, server).open(f"/play/{Deal.from_notation(SEED_000, 'pyramide').code}")
    posts = count_posts(page)
    game.tap("7c")
    game.tap("7s")
    assert "合計が13になる必要があります" in game.message()
    assert game.cards_with("selected") == ["7s"]
    assert posts == []
    game.press("Escape")  # put down with no request
    assert game.cards_with("selected") == [] and game.message() == "選択を外しました"
    assert posts == []
    assert list(errors) == []


def test_escape_with_nothing_chosen_leaves_the_message_as_it_was(desktop: tuple[Page, Errors], server: str) -> None:
    """Esc puts the chosen cards down and says so; with nothing chosen it puts nothing down, and the message
    line and the announcer keep what the last answer said (here a draw) rather than 「選択を外しました」."""
    page, errors = desktop
    game = seed_001(page, server)
    game.press("d")
    drawn = game.message()
    assert drawn == "ダイヤのエースをめくりました"
    game.press("Escape")
    assert game.message() == drawn
    page.wait_for_timeout(100)  # the announcer is set a moment after the message line
    assert game.text("#live") == drawn
    game.tap("6h")
    game.press("Escape")
    assert game.cards_with("selected") == [] and game.message() == "選択を外しました"
    assert list(errors) == []


def test_one_card_removed_reads_one_card_in_english(desktop: tuple[Page, Errors], server: str) -> None:
    """The removed pile counted "1 cards": two lone kings taken one after the other read "1 card", then
    "2 cards"."""
    page, errors = desktop
    deal = next(
        d
        for d in (Deal.from_number(n, "classic") for n in range(5000))
        if sum(c.rank == 13 for c in d.cards[21:28]) >= 2
    )
    first, second = [str(c) for c in deal.cards[21:28] if c.rank == 13][:2]
    game = GamePage(page, server).open(f"/play/{deal.code}")
    game.settings(lang="en")
    game.tap(first)
    assert game.text("#removed .removed-count") == "1 card"
    assert page.get_attribute("#removed", "aria-label") == "Removed: 1 card"
    game.tap(second)
    assert game.text("#removed .removed-count") == "2 cards"
    assert page.get_attribute("#removed", "aria-label") == "Removed: 2 cards"
    assert list(errors) == []

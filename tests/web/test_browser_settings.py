"""Settings kept per browser and the New Game dialog's other ways in: a pasted code, a custom deal."""

from __future__ import annotations

from browser import DESKTOP, PHONE, TEXT_LINES, Errors, open_context
from pages import ANSWERED, GamePage
from playwright.sync_api import Browser, Page

from helpers import make_notation, row_of
from pyramid_solitaire import Deal

SEED_001_ROW_7 = "Ks 6h 3c 7d Ts Qh 9c"
NOTATION = make_notation(row_of(7, SEED_001_ROW_7), ["Ad"])


def start_from_dialog(game: GamePage) -> None:
    before = game.answered()
    game.page.click("#new-start")
    game.page.wait_for_function(f"before => ({ANSWERED}) !== before", arg=before)


def test_value_badges_four_colours_and_large_cards(desktop: tuple[Page, Errors], server: str) -> None:
    page, errors = desktop
    code = Deal.from_notation(NOTATION, "classic").code
    game = GamePage(page, server).open(f"/play/{code}")
    badge = '#pyramid [data-card="Qh"] .badge'
    assert page.is_visible(badge)  # on by default
    assert page.get_attribute(f"{badge} use", "href") == "#b-12"  # the art's 12
    club = '#pyramid [data-card="3c"]'
    black = page.eval_on_selector(club, "e => getComputedStyle(e).color")
    width = page.eval_on_selector(club, "e => e.getBoundingClientRect().width")
    page.click("#btn-settings")
    assert page.is_hidden("#large-cards-note")  # a large screen: the cards can grow
    page.keyboard.press("Escape")
    game.settings(badges=False, fourColour=True, largeCards=True)
    assert page.is_hidden(badge)
    assert page.eval_on_selector(club, "e => getComputedStyle(e).color") != black
    assert page.eval_on_selector(club, "e => e.getBoundingClientRect().width") > width
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    assert page.is_hidden(badge)  # kept in this browser
    assert list(errors) == []


def test_large_cards_says_where_the_cards_already_fill_the_table(browser: Browser, server: str) -> None:
    """On a phone the window, not the readable maximum, holds the cards back: the box would change nothing,
    so the dialog says why under it instead of leaving it to look broken."""
    context, errors = open_context(browser, **PHONE)
    page = context.new_page()
    game = GamePage(page, server).open(f"/play/{Deal.from_notation(NOTATION, 'classic').code}")
    width = page.eval_on_selector('#pyramid [data-card="3c"]', "e => e.getBoundingClientRect().width")
    page.click("#btn-settings")
    assert page.is_visible("#large-cards-note")
    assert game.text("#large-cards-note") == (
        "この画面の大きさでは、カードはすでに台いっぱいの大きさです（大きな画面で大きくなります）。"
    )
    page.keyboard.press("Escape")
    game.settings(largeCards=True)
    assert page.eval_on_selector('#pyramid [data-card="3c"]', "e => e.getBoundingClientRect().width") == width
    assert list(errors) == []
    context.close()


def test_a_first_visit_speaks_the_browsers_language_until_the_player_chooses(browser: Browser, server: str) -> None:
    for locale, lang, hint in (("en-US", "en", "Hint"), ("fr-FR", "en", "Hint"), ("ja-JP", "ja", "ヒント")):
        context, errors = open_context(browser, locale=locale, **DESKTOP)
        page = context.new_page()
        game = GamePage(page, server).open()
        page.wait_for_selector(f"html[lang={lang}]")
        assert hint in game.text("#btn-hint"), locale
        if locale == "en-US":
            game.settings(lang="ja")  # the player's choice stays, whatever the browser prefers
            game.open()
            page.wait_for_selector("html[lang=ja]")
            assert "ヒント" in game.text("#btn-hint")
        assert list(errors) == []
        context.close()


def test_reduced_motion_means_no_flying_cards(browser: Browser, server: str) -> None:
    context, errors = open_context(browser, reduced_motion="reduce", **DESKTOP)
    page = context.new_page()
    code = Deal.from_notation(NOTATION, "classic").code
    game = GamePage(page, server).open(f"/play/{code}")
    game.tap("Ks")
    assert page.locator(".ghost").count() == 0
    context.close()
    context, errors = open_context(browser, **DESKTOP)
    page = context.new_page()
    game = GamePage(page, server).open(f"/play/{code}")
    game.tap("Ks")
    assert page.locator(".ghost").count() == 1  # the king on its way to the removed pile
    # let it land first: on a busy machine its flight can outlast the settings dialog, and the count
    # below is of the ghosts the next removal makes
    page.wait_for_selector(".ghost", state="detached")
    game.settings(animations=False)
    game.tap("6h")
    game.tap("7d")
    page.wait_for_timeout(50)
    assert page.locator(".ghost").count() == 0
    assert list(errors) == []
    context.close()


def test_a_custom_deal_and_a_pasted_code_from_the_dialog(desktop: tuple[Page, Errors], server: str) -> None:
    page, errors = desktop
    game = GamePage(page, server).open("/")
    game.new_game_dialog()
    page.fill("#new-deal", NOTATION)
    start_from_dialog(game)
    assert page.is_hidden("#dlg-new")
    assert game.text("#deal-link") == Deal.from_notation(NOTATION, "classic").code
    assert game.pyramid_cards()[21:] == SEED_001_ROW_7.split()
    assert page.url.endswith(f"/play/{game.text('#deal-link')}")

    game.new_game_dialog()
    page.fill("#new-code", "CL1-N-AAAAAAD")
    start_from_dialog(game)
    assert game.text("#deal-link") == "CL1-N-AAAAAAD"
    assert game.pyramid_cards() == [str(c) for c in Deal.from_code("CL1-N-AAAAAAD").pyramid]
    assert list(errors) == []


NEW_ERROR_IN_VIEW = """() => {
    const error = document.getElementById('new-error').getBoundingClientRect();
    const dialog = document.getElementById('dlg-new').getBoundingClientRect();
    return error.height > 0 && error.top >= dialog.top && error.bottom <= dialog.bottom;
}"""


def test_bad_input_in_the_dialog_names_the_problem_and_keeps_the_game(
    desktop: tuple[Page, Errors], server: str
) -> None:
    page, errors = desktop
    page.set_viewport_size({"width": 1280, "height": 720})  # a laptop's: the dialog scrolls with its options open
    game = GamePage(page, server).open("/play/CL1-N-AAAAAAD")
    cards = game.pyramid_cards()
    game.new_game_dialog()
    page.fill("#new-code", "CL1-N-AAAA")
    page.press("#new-code", "Enter")
    page.wait_for_function("() => document.getElementById('new-error').textContent.startsWith('配札コード')")
    assert page.is_visible("#dlg-new")
    # the reason is in view in the dialog, which scrolls with its options open (it lay below the fold), and
    # the field it is about says so to a screen reader
    page.wait_for_function(NEW_ERROR_IN_VIEW)
    assert page.get_attribute("#new-code", "aria-invalid") == "true"
    assert page.get_attribute("#new-code", "aria-describedby") == "new-error"
    page.fill("#new-code", "")
    page.fill("#new-deal", NOTATION.replace("Ad", "Ks", 1))
    page.click("#new-start")
    page.wait_for_function("() => document.getElementById('new-error').textContent.startsWith('配札が')")
    assert game.text("#new-error").startswith("配札が正しくありません：")
    assert "Ks" in game.text("#new-error")
    assert page.get_attribute("#new-deal", "aria-invalid") == "true"
    assert page.get_attribute("#new-code", "aria-invalid") is None
    page.click("#new-cancel")
    assert game.pyramid_cards() == cards  # the game in play is untouched
    assert all("400" in e for e in errors)


def test_saved_settings_the_server_refuses_still_open_a_game(desktop: tuple[Page, Errors], server: str) -> None:
    page, errors = desktop
    page.goto(server + "/static/favicon.svg")  # the site's storage, before its first game
    page.evaluate(
        "() => localStorage.setItem('pyramid.settings', JSON.stringify({rules: 'thirteen(jokers=9', difficulty: 'E'}))"
    )
    game = GamePage(page, server).open("/")
    assert game.message().startswith("ルールが正しくありません")  # the server's reason stays on screen
    assert page.url.startswith(f"{server}/play/CL")  # a classic game, of the default difficulty
    assert len(game.pyramid_cards()) == 28
    saved = page.evaluate("() => JSON.parse(localStorage.getItem('pyramid.settings'))")
    assert (saved["rules"], saved["difficulty"]) == ("classic", "N")  # repaired, so the next visit is clean
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    assert game.message() == ""
    # the one refused request of the first visit is the only thing the console reported
    assert all("400" in error for error in errors) and len(errors) == 1, errors


def test_a_change_of_language_leaves_nothing_of_the_old_one_in_the_announcer(
    desktop: tuple[Page, Errors], server: str
) -> None:
    page, errors = desktop
    game = GamePage(page, server).open(f"/play/{Deal.from_notation(NOTATION, 'classic').code}")
    game.tap("Ks")
    page.wait_for_function("() => document.getElementById('live').textContent !== ''")
    assert page.text_content("#live") == "スペードのキングを取り除きました"
    game.settings(lang="en")
    assert game.text("#btn-new") == "New game"
    assert page.text_content("#live") == ""  # a screen reader hears no Japanese on the English page
    game.tap("6h")  # and the next announcement is in English
    page.wait_for_function("() => document.getElementById('live').textContent !== ''")
    assert page.text_content("#live") == "Selected 6 of hearts"
    game.settings(lang="ja")
    assert page.text_content("#live") == ""
    assert list(errors) == []


#: How far a menu's focus ring reaches beyond its border (app.css: a 6px shadow around a 3px outline 2px out).
RING = 6


def test_a_menus_focus_ring_leaves_its_label_clear_on_a_phone(browser: Browser, server: str) -> None:
    # the New game dialog's ring covered the bottom of "Rules"; Settings' touched "Language"
    context, errors = open_context(browser, **PHONE, locale="en-US")
    page = context.new_page()
    game = GamePage(page, server).open("/play/CL1-R-AAAAAAB")
    gaps = {}
    for opener, menu in (("#btn-new", "new-rules"), ("#btn-settings", "set-lang")):
        page.click(opener)
        page.focus(f"#{menu}")
        gaps[menu] = page.evaluate(
            """id => {
                const select = document.getElementById(id);
                const menu = select.getBoundingClientRect();
                const label = select.closest('label').querySelector('span').getBoundingClientRect();
                // the label's text above the menu, or beside it on its line
                return label.bottom <= menu.top ? menu.top - label.bottom : menu.left - label.right;
            }""",
            menu,
        )
        page.keyboard.press("Escape")
    assert game.text("#btn-new") == "New game"
    assert all(gap >= RING for gap in gaps.values()), f"the focus ring reaches a label: {gaps}"
    assert list(errors) == []
    context.close()


def test_free_cells_read_in_english_on_a_phone(browser: Browser, server: str) -> None:
    """Two empty cells on a phone, in English: one word inside each, on one line of its narrow slot, the
    caption under them in the plural, and each cell's spoken name with its number."""
    context, errors = open_context(browser, **PHONE, locale="en-US")
    page = context.new_page()
    GamePage(page, server).open(f"/play/{Deal.from_number(3, 'classic(cells=2)').code}")
    assert page.locator("#cells .cell-slot").all_inner_texts() == ["Empty", "Empty"]
    assert page.eval_on_selector_all("#cells .cell-slot", TEXT_LINES) == [1, 1]
    names = page.eval_on_selector_all("#cells .cell-slot", "els => els.map(e => e.getAttribute('aria-label'))")
    assert names == ["Free cell 1, empty", "Free cell 2, empty"]
    assert page.text_content("#cells .table-label") == "Free cells"
    assert list(errors) == []
    context.close()

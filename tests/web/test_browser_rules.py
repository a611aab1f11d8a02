"""More of the game in the browser: the end of the passes, a lost deal's result, the coach hint, the
msc stock top, the thirteen drawn spot.  Long set-ups are played through the API from inside the
page's own context; the page then resumes that game, as it does after a reload."""

from __future__ import annotations

from typing import Any

from browser import Errors, screenshot
from pages import GamePage
from playwright.sync_api import Page

from pyramid_solitaire import Deal, Game
from pyramid_solitaire.moves import Move


def resume(page: Page, server: str, code: str, moves: list[Move]) -> GamePage:
    """Start ``code`` through the API, play ``moves``, and open the page on that game."""
    created: dict[str, Any] = page.request.post(f"{server}/api/games", data={"code": code}).json()["game"]
    for move in moves:
        answer = page.request.post(f"{server}/api/games/{created['id']}/move", data={"move": str(move)})
        assert answer.ok, answer.text()
    page.goto(server + "/static/favicon.svg")  # same origin, so the tab's session storage can be set
    page.evaluate("id => sessionStorage.setItem('pyramid.game', id)", created["id"])
    return GamePage(page, server).open(f"/play/{code}")


def plain_hints_until_the_end(deal: Deal) -> tuple[list[Move], Game]:
    """Follow the plain hint (seed 001) until the game ends; returns the moves and the game."""
    game = Game(deal)
    moves = []
    while game.status == "playing":
        move = game.hint()
        assert move is not None
        game.push(move)
        moves.append(move)
    return moves, game


def test_the_stock_after_the_third_pass_says_so_and_changes_nothing(desktop: tuple[Page, Errors], server: str) -> None:
    page, errors = desktop
    deal = Deal.from_number(5, "classic")
    # Only draws and recycles: three passes through the 24 cards.
    moves = [Move.draw()] * 24 + [Move.recycle()] + [Move.draw()] * 24 + [Move.recycle()] + [Move.draw()] * 24
    game = Game(deal)
    for move in moves:
        game.push(move)
    # the empty stock shows the recycle arrow while a tap turns the waste over...
    resume(page, server, deal.code, moves[:24])
    assert page.locator("#stock-area .stock-btn .recycle").count() == 1
    # ...and none once no pass is left: a dimmed arrow there read as one more pass that did nothing
    game_page = resume(page, server, deal.code, moves)
    assert game_page.text("#stock-label") == "3/3周目 · 残り 0"
    assert page.locator("#stock-area .stock-btn .recycle").count() == 0
    moves_before = game_page.text("#moves")
    game_page.tap_stock()
    assert game_page.message() == "3周めくり終えました"
    assert game_page.text("#moves") == moves_before
    assert game_page.text("#stock-label") == "3/3周目 · 残り 0"
    assert list(errors) == []


def test_a_lost_deal_shows_how_many_cards_could_have_been_removed(desktop: tuple[Page, Errors], server: str) -> None:
    page, errors = desktop
    for number in range(40):
        deal = Deal.from_number(number, "classic")
        moves, game = plain_hints_until_the_end(deal)
        if game.status == "lost":
            break
    else:
        raise AssertionError("following the plain hint never lost a deal")
    from pyramid_solitaire.solver import solve

    best = solve(deal, time_limit=10).max_pyramid_removed
    game_page = resume(page, server, deal.code, moves)
    page.locator("#dlg-result").wait_for(state="visible")
    assert game_page.text("#result-title") == "ゲーム終了 — 手詰まりです"
    removed = 28 - game.pyramid_left
    expected = (
        "この配札はクリア可能でした。別の手順を試してみましょう"
        if best == 28
        else f"この配札で取り除ける最大の{best}枚を取り除きました"
        if best == removed
        else f"この配札で取り除ける最大の枚数は{best}枚でした（あなたは{removed}枚）"
    )
    assert game_page.text("#result-best") == expected
    stats = game_page.text("#result-stats")
    assert "勝率\n0%" in stats and "連勝\n0" in stats
    screenshot(page, "result-lost")
    assert list(errors) == []


def test_the_coach_hint_is_a_setting_and_says_it_uses_hidden_cards(desktop: tuple[Page, Errors], server: str) -> None:
    page, errors = desktop
    deal = Deal.from_number(3, "classic", "N")
    game_page = GamePage(page, server).open(f"/play/{deal.code}")
    assert page.is_hidden("#btn-coach")
    game_page.settings(coach=True)
    assert page.is_visible("#btn-coach")
    game_page.button("btn-coach")
    message = game_page.message()
    # what to play and the verdict first (a sideways phone's one line is cut at its end), then what it saw
    assert message.startswith("ソルバーのヒント：")
    assert message.endswith("。この手でまだクリアできます（山札の順番や裏向きのカードも見ています）")
    assert game_page.cards_with("hinted") or "山札をめくる" in message
    game_page.settings(lang="en")
    page.wait_for_selector("html[lang=en]")
    game_page.button("btn-coach")
    english = game_page.message()
    assert english.startswith("Solver hint: ")
    assert english.endswith(". This move keeps the game winnable (it sees the stock order and the face-down cards)")
    assert list(errors) == []


def test_msc_shows_the_stock_top_face_up_and_it_pairs(desktop: tuple[Page, Errors], server: str) -> None:
    page, errors = desktop
    for number in range(200):
        deal = Deal.from_number(number, "msc")
        game = Game(deal)
        pairs = [m for m in game.legal_moves() if len(m.cards) == 2 and deal.stock[0] in m.cards]
        if pairs:
            break
    else:
        raise AssertionError("no msc deal whose stock top pairs at once")
    game_page = GamePage(page, server).open(f"/play/{deal.code}")
    top = str(deal.stock[0])
    assert page.get_attribute('#stock-area [data-key="stock-top"]', "data-card") == top
    assert top in game_page.cards_with("usable")
    game_page.play(pairs[0])
    assert game_page.card(top).count() == 0
    assert list(errors) == []


def test_thirteen_draws_to_the_drawn_spot_then_the_waste(desktop: tuple[Page, Errors], server: str) -> None:
    page, errors = desktop
    deal = Deal.from_number(2, "thirteen")
    game_page = GamePage(page, server).open(f"/play/{deal.code}")
    game_page.tap_stock()
    first, second = str(deal.stock[0]), str(deal.stock[1])
    assert page.get_attribute('#stock-area [data-key="drawn"]', "data-card") == first
    game_page.tap_stock()
    assert page.get_attribute('#stock-area [data-key="drawn"]', "data-card") == second
    assert game_page.waste_top() == first
    assert {first, second} <= set(game_page.cards_with("usable"))
    assert game_page.text("#stock-label") == "1/4周目 · 残り 22"
    screenshot(page, "thirteen-drawn")
    assert list(errors) == []


def test_the_solvers_hint_to_draw_lights_the_stock(desktop: tuple[Page, Errors], server: str) -> None:
    """The plain hint to draw pulses the stock; the solver's said 「山札をめくる」 and lit nothing."""
    from pyramid_solitaire.solver.coach import coach_hint

    page, errors = desktop
    deal = next(
        d for d in (Deal.from_number(n, "classic", "N") for n in range(60)) if coach_hint(Game(d)).move == Move.draw()
    )
    game_page = GamePage(page, server).open(f"/play/{deal.code}")
    game_page.settings(coach=True)
    game_page.button("btn-coach")
    assert "山札をめくる" in game_page.message()
    assert "hinted" in (page.get_attribute("#stock-area .stock-btn", "class") or "").split()
    assert game_page.cards_with("hinted") == []
    assert list(errors) == []


def test_the_rules_say_the_whole_keyboard_of_the_game_shown(desktop: tuple[Page, Errors], server: str) -> None:
    """The legend under the table sums the keys up on one line, and a window under 820 px high (most
    laptops) hides it: the rules say them all, with the keys this game has (D with a stock, C with cells)."""
    page, errors = desktop
    page.set_viewport_size({"width": 1366, "height": 768})
    keyboard = "#rules-body section:last-child"
    seen = {}
    for code in ("CL1-N-AAAAAAD", "GZ1-R-AAAAAAF", "FC1-R-AAAAAAF"):
        GamePage(page, server).open(f"/play/{code}")
        assert not page.is_visible("#keys-help")
        page.click("#btn-rules")
        page.locator("#dlg-rules").wait_for(state="visible")
        assert page.inner_text(f"{keyboard} h3") == "キーボードで遊ぶ"
        seen[code] = page.locator(f"{keyboard} li").all_inner_texts()
        if code == "FC1-R-AAAAAAF":
            page.locator(keyboard).scroll_into_view_if_needed()
            screenshot(page, "rules-keyboard-cells")
        page.keyboard.press("Escape")
    classic, giza, cells = seen.values()
    assert classic[0].startswith("矢印キー：使えるカードのあいだを移動します")
    assert (
        "D（またはS）：山札からめくります。" in classic
        and "C：選んだカードを空いているフリーセルに置きます。" not in classic
    )
    assert not any(line.startswith("D（") for line in giza)  # Giza has no stock
    assert (
        "C：選んだカードを空いているフリーセルに置きます。" in cells and "D（またはS）：山札からめくります。" in cells
    )
    assert classic[-1].startswith("解答や記録の再生を見ているとき：")

    # what the rules say the keys do, they do: D draws, U undoes (the game's moves count them)
    game = GamePage(page, server).open("/play/CL1-N-AAAAAAD")
    page.focus("#btn-hint")
    page.keyboard.press("Escape")  # (out of the button: a letter is the table's)
    game.press("d")
    assert game.waste_top() is not None and game.text("#moves") == "1"
    game.press("u")
    assert game.waste_top() is None

    game.settings(lang="en")
    page.click("#btn-rules")
    page.locator("#dlg-rules").wait_for(state="visible")
    assert page.inner_text(f"{keyboard} h3") == "Playing with the keyboard"
    assert "D (or S): draw from the stock." in page.locator(f"{keyboard} li").all_inner_texts()
    assert list(errors) == []

"""Tut's Tomb in the browser (issue 8): a deal the solver proves winnable, won by clicking its solution;
a draw that deals three cards onto the waste, fanned, with only the top one usable; and the Rules
dialog, which says so in Japanese and English and shows another game's options."""

from __future__ import annotations

import json
from typing import Any

from browser import Errors, screenshot
from pages import GamePage
from playwright.sync_api import Page

from pyramid_solitaire import Deal, Game
from pyramid_solitaire.moves import Move
from pyramid_solitaire.rules import PRESETS
from pyramid_solitaire.solver import solve
from pyramid_solitaire.web.app import LOCALES

#: A deal whose shortest solution is short to click (38 moves, two turnovers of the waste).
WON_NUMBER = 23
DRAW = PRESETS["tuts_tomb"].draw


def no_errors(errors: Errors) -> None:
    assert list(errors) == [], f"the page reported errors: {errors}"


def waste_top(game: Game) -> str | None:
    place = game.table.waste_top(game.position)
    return None if place is None else str(game.table.cards[place])


def fanned_waste(page: Page) -> list[str]:
    """The waste's cards as drawn, left to right: the cards under the top, then the top."""
    return list(
        page.eval_on_selector_all(
            '#stock-area [data-key^="waste-under-"], #stock-area [data-key="waste"]',
            "els => els.sort((a, b) => parseFloat(a.style.left) - parseFloat(b.style.left)).map(e => e.dataset.card)",
        )
    )


def test_a_verified_deal_is_won_by_clicking_the_solvers_solution(desktop: tuple[Page, Errors], server: str) -> None:
    page, errors = desktop
    deal = Deal.from_number(WON_NUMBER, "tuts_tomb")
    result = solve(deal, shortest=True, time_limit=10)
    assert result.winnable and result.solution is not None
    solution = result.solution
    assert Move.recycle() in solution  # the deal also turns the waste over
    game = GamePage(page, server).open(f"/play/{deal.code}")
    assert game.text("#deal-link") == deal.code
    engine = Game(deal)
    for move in solution:
        game.play(move)
        engine.push(move)
        if not move.cards:  # each stock tap: the page shows the waste the engine has
            assert game.waste_top() == waste_top(engine)
    page.locator("#dlg-result").wait_for(state="visible")
    assert game.text("#result-title") == "クリア！"
    figures = game.text("#result-figures")
    assert f"手数\n{len(solution)}" in figures and "取り消し\n0" in figures
    assert f"{deal.number} ({deal.code})" in figures
    screenshot(page, "tuts-tomb-won")
    no_errors(errors)


def test_a_draw_deals_three_and_only_the_top_one_is_usable(desktop: tuple[Page, Errors], server: str) -> None:
    page, errors = desktop
    deal = Deal.from_number(1, "tuts_tomb")
    game = GamePage(page, server).open(f"/play/{deal.code}")
    assert game.text("#stock-label") == "1周目 · 残り 24"
    stock_name = page.get_attribute("#stock-area .stock-btn", "aria-label") or ""
    assert stock_name == "山札、1周目 · 残り 24、3枚ずつめくる"
    assert game.waste_top() is None

    game.tap_stock()
    first, second, third = (str(card) for card in deal.stock[:DRAW])
    engine = Game(deal)
    engine.push(Move.draw())
    assert waste_top(engine) == third  # the engine's third stock card is on top ...
    assert game.waste_top() == third  # ... and the page shows it there
    assert fanned_waste(page) == [first, second, third]
    assert game.text("#stock-label") == "1周目 · 残り 21"
    usable = game.cards_with("usable")
    assert third in usable and first not in usable and second not in usable
    tab_stops = page.eval_on_selector_all('#stock-area [data-key^="waste"]', "els => els.map(e => e.tabIndex)")
    assert sorted(tab_stops) == [-1, -1, 0]  # only the top card is reached by Tab and the arrow keys
    under_name = game.card(second).get_attribute("aria-label") or ""
    assert under_name.startswith("捨て札の下のカード、") and "使用可能" not in under_name
    page.wait_for_function("() => document.getElementById('live').textContent.startsWith('3枚めくりました')")
    assert game.text("#live") == f"3枚めくりました。一番上は{deal.stock[DRAW - 1].name('ja')}です"
    screenshot(page, "tuts-tomb-fan")

    game.tap_edge(second)  # a card under the top, where it shows: refused, nothing changes
    assert game.message() == "このカードは今は使えません"
    assert game.text("#moves") == "1"
    assert fanned_waste(page) == [first, second, third]
    assert game.cards_with("selected") == []
    no_errors(errors)


def open_rules(page: Page) -> str:
    """Open the Rules dialog from the toolbar; return its text."""
    page.click("#btn-rules")
    page.locator("#dlg-rules").wait_for(state="visible")
    return page.inner_text("#dlg-rules")


def focused_id(page: Page) -> str:
    return str(page.evaluate("() => document.activeElement ? document.activeElement.id : ''"))


def test_the_rules_dialog_says_three_at_a_time_and_when_it_is_won(desktop: tuple[Page, Errors], server: str) -> None:
    page, errors = desktop
    game = GamePage(page, server).open(f"/play/{Deal.from_number(1, 'tuts_tomb').code}")
    assert game.text("#btn-rules") == "ルール"
    text = open_rules(page)
    assert game.text("#rules-title") == "ルール：ツタンカーメンの墓（3枚ずつ）"
    assert focused_id(page) == "rules-title"  # the start of the text, inside the dialog
    assert "山札をタップすると、上から3枚がまとめて表向きで捨て札に移ります" in text
    assert "使えるのは最後に重なった一番上の1枚だけ" in text
    assert "ピラミッドの28枚をすべて取り除けばクリアです" in text
    assert "何度でも繰り返せます" in text  # unlimited passes
    assert "（いま：1周目 · 残り 24）" in text
    assert "このゲームのオプション" not in text  # the preset as it is
    assert "{" not in text and "guide_" not in text
    screenshot(page, "rules-tuts-tomb-ja")
    page.locator("#rules-body h3", has_text="山札と捨て札").evaluate("e => e.scrollIntoView({block: 'start'})")
    screenshot(page, "rules-tuts-tomb-ja-stock")
    page.keyboard.press("Escape")
    page.locator("#dlg-rules").wait_for(state="hidden")
    assert focused_id(page) == "btn-rules"

    game.settings(lang="en")
    page.wait_for_function("() => document.getElementById('stock-label').textContent.startsWith('Pass')")
    text = open_rules(page)
    assert game.text("#rules-title") == "Rules: Tut's Tomb (3 at a time)"
    assert "Tap the stock to deal its top 3 cards face up onto the waste at once" in text
    assert "Only the last one, on top, is usable" in text
    assert "Remove all 28 cards of the pyramid to win" in text
    assert "as often as you like" in text
    screenshot(page, "rules-tuts-tomb-en")
    page.click("#dlg-rules button[type=submit]")  # the Close button too gives the focus back
    page.locator("#dlg-rules").wait_for(state="hidden")
    assert focused_id(page) == "btn-rules"
    no_errors(errors)


def test_the_rules_dialog_shows_the_options_of_the_game(desktop: tuple[Page, Errors], server: str) -> None:
    page, errors = desktop
    deal = Deal.from_number(2, "thirteen(jokers=2,passes=2)")
    game = GamePage(page, server).open(f"/play/{deal.code}")
    text = open_rules(page)
    assert game.text("#rules-title") == "ルール：サーティーン（裏向きの段）"
    assert "このゲームのオプション：山札の周回（2）、ジョーカーの枚数（2）" in text
    assert "52枚のトランプにジョーカーを加えて使います。" in text and "ジョーカーを除いた" not in text
    assert "ジョーカーが2枚、ピラミッドの左上に置かれます。" in text
    assert "ジョーカーはいつでも使え、どのカードとも組にして取り除けます" in text
    assert "山札は全部で2周までです。" in text
    assert "表向きなのは一番下の段だけ" in text
    assert "めくり札と捨て札の一番上を組にすることもできます。" in text
    assert "山札の最後の周（2周目）をめくり終えて" in text
    assert "3枚一緒に" not in text  # no triples in this game
    screenshot(page, "rules-thirteen-options")
    page.keyboard.press("Escape")
    assert focused_id(page) == "btn-rules"
    no_errors(errors)


def test_every_preset_has_a_rules_text_in_both_languages(desktop: tuple[Page, Errors], server: str) -> None:
    """Each preset's Rules text, built by the page from the game the server sends: every sentence is
    a locale string (no key or placeholder shows), and the options of the game change the text."""
    page, errors = desktop
    game_page = GamePage(page, server).open("/")
    game_page.new_game_dialog().wait_for(state="visible")  # the New Game dialog names Tut's Tomb
    listed = page.eval_on_selector_all("#new-rules option", "els => els.map(e => e.text)")
    assert "ツタンカーメンの墓（3枚ずつ）" in listed
    page.click("#new-cancel")
    catalogue: list[dict[str, Any]] = page.request.get(f"{server}/api/rules").json()["presets"]
    assert [p["id"] for p in catalogue] == list(PRESETS)
    games = [
        page.request.post(f"{server}/api/games", data={"rules": rules, "difficulty": "R"}).json()["game"]
        for rules in [*PRESETS, "classic(passes=unlimited,strict=true,overlap=true)", "thirteen(triples=true)"]
    ]
    texts = page.evaluate(
        """async ([games, catalogue]) => {
        const { guide } = await import('/static/js/rules.js');
        const i18n = await import('/static/js/i18n.js');
        const out = {};
        for (const lang of ['ja', 'en']) {
            await i18n.loadLocale(lang);
            const text = (g) => guide(g, catalogue.find(p => p.id === g.preset))
                .map(([h, ps]) => [h ? i18n.t(h) : '', ...ps].join('\\n')).join('\\n');
            out[lang] = games.map(g => [i18n.t(`rules_${g.preset}`), text(g)]);
        }
        return out;
    }""",
        [games, catalogue],
    )
    for lang in ("ja", "en"):
        for game, (name, text) in zip(games, texts[lang], strict=True):
            assert not name.startswith("rules_"), name
            assert "{" not in text and "guide_" not in text and "undefined" not in text, (game["rules"], text)
    ja = dict(zip((g["rules"] for g in games), (text for _, text in texts["ja"]), strict=True))
    assert "52枚すべてを取り除けばクリア" in ja["traditional"] and "山札は1周だけです" in ja["traditional"]
    assert "山札の一番上のカードは表向きで、これも使えます" in ja["msc"]
    assert "残りのうち1枚を表向きで捨て札に置き、23枚を" in ja["pyramide"] and "10点" in ja["pyramide"]
    assert "直前の100回の操作まで" in ja["pyramide"]
    changed = ja["classic(passes=unlimited,strict=true,overlap=true)"]
    assert (
        "このゲームのオプション：山札の周回（無制限）、52枚すべて取り除いてクリア（あり）、"
        "覆っているカードとも組める（あり）"
    ) in changed
    assert "そのカードとも組めます" in changed
    assert "3枚一緒に取り除くこともできます" in ja["thirteen(triples=true)"]
    for game in games:  # the sum, the values and the lone king follow the deck and the target
        fields, text = game["rule_fields"], ja[game["rules"]]
        assert f"2枚の合計が{fields['target']}なら" in text
        assert ("Jは10、Qは11、Kは12" in text) == (fields["deck"] == 48)
        assert ("Kも1枚では取り除けません" in text) == (not fields["lone_kings"])
    no_errors(errors)


def test_the_locales_have_the_same_keys_and_name_every_preset() -> None:
    ja = json.loads((LOCALES / "ja.json").read_text(encoding="utf-8"))
    en = json.loads((LOCALES / "en.json").read_text(encoding="utf-8"))
    assert list(ja) == list(en)
    for preset in PRESETS:
        assert f"rules_{preset}" in ja and f"guide_about_{preset}" in ja
    assert ja["rules_tuts_tomb"] == "ツタンカーメンの墓（3枚ずつ）"
    assert en["rules_tuts_tomb"] == "Tut's Tomb (3 at a time)"

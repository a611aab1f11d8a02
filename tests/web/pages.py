"""A small page object for the game page: open it, tap cards and the stock, read what it shows.

Every action waits for the page to finish answering it: choosing a card, or a refused tap, is answered by
the page alone and changes no version, so the page counts each answer it has drawn (``body[data-drawn]``)
and the page object waits for that count (or the game or its version) to change.  The tests read what a
player would see after each tap, never a half-updated page.
"""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Locator, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from pyramid_solitaire.moves import Move

TIMEOUT_MS = 15_000
#: What tells one drawn answer from the next: the game, its version, and the page's count of answers drawn.
ANSWERED = "`${document.body.dataset.game}/${document.body.dataset.version}/${document.body.dataset.drawn}`"
#: True when no animation is running on the page.
#: No animation runs but the ones that loop for as long as they are shown (the guide's glow).
SETTLED = (
    "() => document.getAnimations().every(a => a.playState !== 'running'"
    " || (a.effect && a.effect.getTiming().iterations === Infinity))"
)


#: No dialog's history entry (back.js) waits to be taken back: none is held, or a dialog is still open.
SETTLED_HISTORY = "() => !!document.querySelector('dialog[open]') || !(history.state && history.state.dialog)"


def settle_history(page: Page) -> None:
    """Wait until a dialog closed a moment ago has taken its entry out of the history (back.js does it with
    history.back(), which the browser runs a moment later): a reload or another address asked for before
    that would be cut short by it. A hand never gets there within those milliseconds; a test does."""
    page.wait_for_function(SETTLED_HISTORY, timeout=TIMEOUT_MS)


class GamePage:
    """The game page in one browser tab."""

    def __init__(self, page: Page, base: str) -> None:
        self.page = page
        self.base = base
        self.requests: list[str] = []
        page.on("request", lambda r: self.requests.append(f"-> {r.method} {r.url.split('/', 3)[-1]}"))
        page.on("requestfinished", lambda r: self.requests.append(f"<- {r.url.split('/', 3)[-1]}"))
        page.on("requestfailed", lambda r: self.requests.append(f"!! {r.url.split('/', 3)[-1]} {r.failure}"))

    def open(self, path: str = "/") -> GamePage:
        if self.page.url.startswith(self.base):
            settle_history(self.page)
        self.page.goto(self.base + path)
        self.page.wait_for_selector("body[data-ready=true]", timeout=TIMEOUT_MS)
        self.settle()
        return self

    def settle(self) -> None:
        """Wait until no animation runs (the deal, a card flying away): the table as it stands."""
        self.page.wait_for_function(SETTLED, timeout=TIMEOUT_MS)

    # --- reading ----------------------------------------------------------------------------------

    def answered(self) -> str:
        """Which answer is on screen: the game id, its version and how many answers the page has drawn."""
        return str(self.page.evaluate(ANSWERED))

    def card(self, token: str) -> Locator:
        """The card ``token`` where it lies now (pyramid, jokers, stock side or a free cell; not the removed
        pile)."""
        return self.page.locator(
            f'#pyramid [data-card="{token}"], #jokers [data-card="{token}"], '
            f'#stock-area [data-card="{token}"], #cells [data-card="{token}"]'
        )

    def classes(self, token: str) -> set[str]:
        return set((self.card(token).get_attribute("class") or "").split())

    def cards_with(self, class_name: str) -> list[str]:
        """Tokens of the cards shown with a class (usable, partner, selected, dead, hinted)."""
        return list(
            self.page.eval_on_selector_all(
                f"#pyramid .card.{class_name}, #jokers .card.{class_name}, #stock-area .card.{class_name}, "
                f"#cells .card.{class_name}",
                "els => els.map(e => e.dataset.card)",
            )
        )

    def pyramid_cards(self) -> list[str | None]:
        """The face-up card of each pyramid slot still in place, in slot order (None when face down)."""
        return list(
            self.page.eval_on_selector_all(
                "#pyramid [data-slot]",
                "els => els.sort((a, b) => a.dataset.slot - b.dataset.slot).map(e => e.dataset.card || null)",
            )
        )

    def text(self, selector: str) -> str:
        return self.page.inner_text(selector).strip()

    def message(self) -> str:
        return self.text("#message")

    def waste_top(self) -> str | None:
        token = (
            self.page.get_attribute('#stock-area [data-key="waste"]', "data-card")
            if self.page.locator('#stock-area [data-key="waste"]').count()
            else None
        )
        return token

    # --- acting -----------------------------------------------------------------------------------

    def _after(self, before: str, action: Any) -> None:
        action()
        try:
            self.page.wait_for_function(f"before => ({ANSWERED}) !== before", arg=before, timeout=TIMEOUT_MS)
            if self.answered().split("/")[0] != before.split("/")[0]:
                self.settle()  # a new deal: its cards are dealt before the player goes on
        except PlaywrightTimeout:
            seen = self.page.evaluate(f"""() => ({{answered: {ANSWERED}, message: document.getElementById('message')
                .textContent, active: document.activeElement && document.activeElement.outerHTML.slice(0, 200),
                animations: document.getAnimations().length}})""")
            raise AssertionError(f"the page did not answer (it showed {before}): {seen} {self.requests[-8:]}") from None

    def tap(self, token: str) -> None:
        """Click a card and wait for the answer (the page's own, or the server's to the move it made)."""
        self._after(self.answered(), lambda: self.card(token).click())

    def tap_edge(self, token: str) -> None:
        """Click a card near its left edge, the part of a fanned card that shows, and wait for the answer."""
        self._after(self.answered(), lambda: self.card(token).click(position={"x": 4, "y": 12}))

    def tap_slot(self, slot: int) -> None:
        """Click a pyramid slot (face up or down) and wait for the answer."""
        self._after(self.answered(), lambda: self.page.click(f'#pyramid [data-slot="{slot}"]'))

    def tap_stock(self) -> None:
        self._after(self.answered(), lambda: self.page.click("#stock-area .stock-btn"))

    def cells(self) -> list[str | None]:
        """Each free cell in order (フリーセル1, 2, …): the card in it, or None when empty."""
        return list(
            self.page.eval_on_selector_all(
                "#cells .card, #cells .cell-slot",
                "els => els.sort((a, b) => a.dataset.cell - b.dataset.cell).map(e => e.dataset.card || null)",
            )
        )

    def tap_cell(self, index: int | None = None) -> None:
        """Click free cell ``index`` (from 0; default: the first empty one), which must be empty, and
        wait for the answer."""
        cell = (
            self.page.locator("#cells .cell-slot").first
            if index is None
            else self.page.locator(f'#cells .cell-slot[aria-label="フリーセル{index + 1}、空き"]')
        )
        self._after(self.answered(), lambda: cell.click())

    def press(self, key: str) -> None:
        """Press a key the page answers (a move, a command, Escape, C), and wait for the answer."""
        self._after(self.answered(), lambda: self.page.keyboard.press(key))

    def button(self, button_id: str) -> None:
        """Click a control that makes a request (hint, undo, redo, rewind) and wait for the answer."""
        self._after(self.answered(), lambda: self.page.click(f"#{button_id}"))

    def play(self, move: Move) -> None:
        """Play a move the way a player does: tap its cards one by one, or tap the stock; to park a card,
        tap it, then an empty free cell."""
        if not move.cards:
            self.tap_stock()
            return
        if move.kind == "park":
            token = str(move.cards[0])
            self._after(self.answered(), lambda: self.card(token).click(position={"x": 20, "y": 12}))
            self.tap_cell()
            return
        for card in move.cards:
            # near the top of the card, the part a player sees of a card still covered by another
            # (overlap pairs), as of every card
            token = str(card)
            self._after(self.answered(), lambda token=token: self.card(token).click(position={"x": 20, "y": 12}))

    def play_by_keyboard(self, move: Move) -> None:
        """Play a move with the keyboard only: arrows to each card, Enter; D for the stock; C after
        choosing a card to park it."""
        if not move.cards:
            self.press("d")
            return
        for card in move.cards:
            token = str(card)
            # Where the card is in the arrow-key order (usable cards in reading order, then the stock).
            index = self.page.evaluate(
                """token => [...document.querySelectorAll('#pyramid .card.usable, #jokers .card, '
                    + '#stock-area .stock-btn, #stock-area .card.usable, #cells .card, #cells .cell-slot')]
                    .findIndex(e => e.dataset.card === token)""",
                token,
            )
            assert index >= 0, f"{token} is not among the cards the arrow keys reach"
            self.page.keyboard.press("Home")
            for _ in range(index):
                self.page.keyboard.press("ArrowRight")
            focused = self.page.evaluate("() => document.activeElement && document.activeElement.dataset.card || ''")
            assert focused == token, f"the arrow keys reached {focused!r}, not {token}"
            self.press("Enter")
        if move.kind == "park":
            self.press("c")

    def new_game_dialog(self, options: bool = True) -> Locator:
        """Open the New Game dialog and, as a player choosing options, a code or a deal does, its
        options."""
        self.page.click("#btn-new")
        if options and not self.page.evaluate("() => document.getElementById('new-more').open"):
            self.page.click("#new-more summary")
        return self.page.locator("#dlg-new")

    def settings(self, **changes: bool | str) -> None:
        """Open the settings, change some, close them.  A new language is fetched and drawn in the page's
        own time (its texts, the game again in it): this waits until the page has drawn it."""
        drawn = self.page.evaluate("document.body.dataset.drawn")
        relanguaged = "lang" in changes and changes["lang"] != self.page.evaluate("document.documentElement.lang")
        self.page.click("#btn-settings")
        for name, value in changes.items():
            if isinstance(value, bool):
                self.page.set_checked(f"#set-{name}", value)
            else:
                self.page.select_option(f"#set-{name}", value)
        self.page.click("#dlg-settings button[type=submit]")
        settle_history(self.page)
        if relanguaged:
            self.page.wait_for_function(
                "([lang, drawn]) => document.documentElement.lang === lang && document.body.dataset.drawn !== drawn",
                arg=[changes["lang"], drawn],
                timeout=TIMEOUT_MS,
            )

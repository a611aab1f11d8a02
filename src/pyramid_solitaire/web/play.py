"""One game as the web app plays it: taps, the selection, and the state the browser renders.

This layer knows nothing of HTTP.  It turns a *tap* on a card (what a player does on a phone) into
engine calls, keeps the cards selected so far, and builds the JSON state the page draws from — the
player's view of :mod:`..view` plus what the screen needs: the selection and its partners (the blue
rings of seed 001), each card's spoken name, the removed pile, the timer and, once the game is over,
the result.  Every rule comes from the engine (``Game`` / ``Table``); nothing here decides what is
legal, it only asks.

**Taps.**  A usable card that can go alone (a king) goes at once.  Otherwise it is selected and its
partners light: every card that completes (or, with triples, continues) a legal removal with the
selection.  Tapping a partner removes the cards.  Tapping a card that does not make a removal is
refused with the engine's reason (``Q(12)+9=21``); in ``pyramide`` the second card then stays selected
(seed 000), elsewhere the selection is cleared.  Tapping a selected card again puts it down.  A covered
card tapped is refused with the cards covering it; in ``pyramide`` that message is only shown with the
error-explanation assist on (seed 000), so the answer says ``quiet`` when it should not be shown.
"""

from __future__ import annotations

import contextlib
import dataclasses
import secrets
import time
from dataclasses import dataclass, field
from typing import Any, Final

from ..cards import Card, CardError
from ..deal import Deal
from ..game import Game
from ..layout import bits
from ..moves import PARK, REMOVE, Move
from ..reasons import IllegalMoveError, Refusal
from ..table import PLAYING, WON

#: Presets whose player is only told why a covered card does nothing when the assist is on (seed 000).
QUIET_COVERED_PRESETS: Final = frozenset({"pyramide"})
#: Presets where a refused sum keeps the second card selected (seed 000); elsewhere the selection clears.
KEEP_SECOND_PRESETS: Final = frozenset({"pyramide"})
#: How long the solver may think about the best a lost deal could have done, in seconds.
BEST_REACHABLE_SECONDS: Final = 3.0
#: How long the coach hint may think, in seconds.
COACH_SECONDS: Final = 3.0
LANGS: Final = ("ja", "en")
RESIGNED: Final = "resigned"
RESIGNED_MESSAGES: Final = ("投了しました", "You gave this game up.")


class BadTap(ValueError):
    """A tap that names no card (malformed token); the request itself is wrong."""


class BadCell(BadTap):
    """A tap on a free cell the game does not have; the request itself is wrong."""


@dataclass
class Session:
    """A game being played in a browser: the engine's ``Game`` plus the selection and the clock."""

    game: Game
    id: str = field(default_factory=lambda: secrets.token_urlsafe(16))
    selected: list[Card] = field(default_factory=list)
    started: float = field(default_factory=time.time)
    finished: float | None = None
    #: Counts every answered action; a client can tell a stale answer from a fresh one.
    version: int = 0
    coach_hints: int = 0
    best_removed: int | None = None
    best_exact: bool = True
    player_id: str = ""
    resigned: bool = False

    @property
    def deal(self) -> Deal:
        """The deal in play."""
        return self.game.deal

    @property
    def status(self) -> str:
        """The engine's status, or ``resigned`` once the player gave the game up."""
        return RESIGNED if self.resigned else self.game.status

    @property
    def hints_used(self) -> int:
        """Plain hints and coach hints asked for."""
        return self.game.hints + self.coach_hints

    @property
    def pyramid_removed(self) -> int:
        """Pyramid cards removed so far."""
        return self.game.table.board_size - self.game.pyramid_left

    @property
    def over(self) -> bool:
        """True once the game has ended (won, lost, stalemate or resigned)."""
        return self.status != PLAYING

    # --- replaying recorded actions -------------------------------------------------------------------

    def apply(self, kind: str, arg: str | None, replaying: bool = False) -> dict[str, Any]:
        """Do one action as the store records it (``kind`` and its argument); the web app's handlers and
        the replay of a recorded game both come here, so a replay rebuilds exactly the same game.
        Raises IllegalMoveError (refused commands), BadTap or ValueError (malformed arguments)."""
        if kind == "tap":
            if arg is None:
                raise BadTap("a tap names a card or a slot")
            if not arg.startswith("#"):
                return self.tap(arg)
            try:
                slot = int(arg[1:])
            except ValueError:  # "#" or "#x": the web app's card field reaches here too
                raise BadTap(f"no pyramid slot {arg[1:]!r}") from None
            return self.tap(slot)
        if kind == "stock":
            return self.tap_stock()
        if kind == "move":
            return self.play(Move.parse(arg or ""))
        if kind == "cell":
            return self.cell(arg)
        if kind == "coach":
            if replaying:
                self.coach_hints += 1
                return {"kind": "coach", "cards": []}
            return self.coach()
        simple = {"undo": self.undo, "redo": self.redo, "rewind": self.rewind, "hint": self.hint,
                  "deselect": self.deselect, "resign": self.resign}
        if kind not in simple:
            raise ValueError(f"unknown action {kind!r}")
        return simple[kind]()

    def replay(self, actions: list[tuple[str, str | None]]) -> None:
        """Apply recorded actions in order (each was answered once, so none is refused now)."""
        for kind, arg in actions:
            # a refused command is never recorded; suppressed only for records written by hand
            with contextlib.suppress(IllegalMoveError):
                self.apply(kind, arg, replaying=True)
            self.version += 1
        if self.over and self.finished is None:
            self.finished = time.time()

    def summary(self) -> dict[str, Any]:
        """What the store keeps of the game besides its actions: counters and, once over, the result."""
        game = self.game
        return {"moves": game.moves, "undos": game.undos, "hints": self.hints_used,
                "pyramid_removed": self.pyramid_removed,
                "result": self.status if self.over else None,
                "ended_ms": int(self.finished * 1000) if self.over and self.finished is not None else None}

    def resign(self) -> dict[str, Any]:
        """Give the game up (投了): it ends as a loss."""
        if self.over:
            raise IllegalMoveError(Refusal("game-over"))
        self.resigned = True
        self.selected = []
        return {"kind": "resigned", "cards": []}

    # --- taps -------------------------------------------------------------------------------------

    def tap(self, target: str | int) -> dict[str, Any]:
        """A tap on a card, named by its token or, for a pyramid card that may be face down, by its slot;
        returns the event to report (see the module docstring)."""
        game = self.game
        table = game.table
        if isinstance(target, int):
            if not 0 <= target < table.board_size:
                raise BadTap(f"no pyramid slot {target} (slots are 0-{table.board_size - 1})")
            if not table.visible(game.position) >> target & 1 and game.position.pyramid >> target & 1:
                return self._hidden_tapped(target)
            card = table.cards[target]
        else:
            try:
                card = Card.parse(target)
            except CardError as exc:
                raise BadTap(str(exc)) from None
        if self.over:
            return _refused(Refusal("game-over"), [card])
        place = table.place_of.get(card)
        if place is None:
            return _refused(Refusal("not-in-game", {"card": card}), [card])
        if card in self.selected:
            self.selected.remove(card)
            return {"kind": "deselected", "cards": [str(card)]}
        usable = place in table.usable(game.position)
        # With overlap pairs a card still covered by one card may go with it: it is part of a removal.
        if not usable and not any(place in removal for removal in table.removals(game.position)):
            return self._unusable_tapped(place, card)
        if game.check(Move.remove(card)) is None and (
                not self.selected or game.check(Move.remove(*self.selected, card)) is not None):
            return self._remove([card])  # a king goes with one tap, even with another card selected
        chosen = [*self.selected, card]
        if len(chosen) == 1:
            self.selected = chosen
            return {"kind": "selected", "cards": [str(card)]}
        refusal = game.check(Move.remove(*chosen))
        if refusal is None:
            return self._remove(chosen)
        if self._continues(chosen):
            self.selected = chosen
            return {"kind": "selected", "cards": [str(card)]}
        self.selected = [card] if game.rules.preset in KEEP_SECOND_PRESETS else []
        return _refused(refusal, chosen)

    def _visible_coverers(self, slot: int) -> tuple[Card, ...]:
        table = self.game.table
        pos = self.game.position
        shown = table.visible(pos) & pos.pyramid & table.layout.coverers[slot]
        return tuple(table.cards[s] for s in bits(shown))

    def _hidden_tapped(self, slot: int) -> dict[str, Any]:
        """A face-down card: say which face-up cards cover it, never what it is."""
        covering = self._visible_coverers(slot)
        if not covering:
            return self._covered_event(Refusal("not-usable"), [], slot)
        return self._covered_event(Refusal("covered", {"covering": covering}), [], slot)

    def _covered_event(self, refusal: Refusal, cards: list[Card], slot: int) -> dict[str, Any]:
        """A refused tap on a pyramid slot, quiet where the rule set only explains it with the assist."""
        event = _refused(refusal, cards)
        event["slot"] = slot
        if self.game.rules.preset in QUIET_COVERED_PRESETS:
            event["quiet"] = True
        return event

    def _unusable_tapped(self, place: int, card: Card) -> dict[str, Any]:
        """A card that cannot be used now.  Only public facts are told: a removed card is removed, a
        face-up pyramid card is covered by the face-up cards named, a waste top whose uses are spent says
        so; anything else (a card in the stock,
        under the waste top, or face down) is just "not usable", so a tap cannot probe hidden cards."""
        table = self.game.table
        pos = self.game.position
        if not table.alive(pos, place):
            return _refused(Refusal("removed", {"card": card}), [card])
        if table.is_pyramid(place) and table.visible(pos) >> place & 1:
            return self._covered_event(Refusal("covered", {"covering": self._visible_coverers(place)}), [card], place)
        spent = table.spent_waste(pos, place)
        if spent is not None:  # a face-up waste card whose uses are spent: the count is public
            return _refused(spent, [card])
        return _refused(Refusal("not-usable"), [])

    def _extensions(self, chosen: list[Card]) -> list[set[int]]:
        """The places each legal removal would add to the chosen cards (removals holding all of them
        and more)."""
        table = self.game.table
        places = {table.place_of[c] for c in chosen}
        return [set(r) - places for r in table.removals(self.game.position) if places < set(r)]

    def _continues(self, chosen: list[Card]) -> bool:
        """True if some legal removal contains every chosen card and more (a triple under way)."""
        return bool(self._extensions(chosen))

    def _remove(self, cards: list[Card]) -> dict[str, Any]:
        move = self.game.push(Move.remove(*cards))
        self.selected = []
        return {"kind": "removed", "move": str(move), "cards": [str(c) for c in cards]}

    def partners(self) -> list[str]:
        """Cards that would complete or continue a removal with the selection (the blue rings)."""
        if not self.selected:
            return []
        out: set[int] = set().union(*self._extensions(self.selected))
        return sorted(str(self.game.table.cards[p]) for p in out)

    def _keep_usable_selection(self) -> None:
        usable = set(self.game.table.usable(self.game.position))
        self.selected = [c for c in self.selected if self.game.table.place_of[c] in usable]

    # --- other actions ----------------------------------------------------------------------------

    def tap_stock(self) -> dict[str, Any]:
        """A tap on the stock: draw, or turn the waste over when the stock is empty."""
        if self.over:
            return _refused(Refusal("game-over"), [])
        try:
            move = self.game.tap_stock()
        except IllegalMoveError as exc:
            return _refused(exc.refusal, [])
        self._keep_usable_selection()
        return {"kind": str(move), "move": str(move), "cards": []}

    def cell(self, slot: str | None = None) -> dict[str, Any]:
        """A tap on an empty free cell (``slot``: which one, from "0"; none: the first empty one): the one
        selected card is parked there.  Refused like a tap (an event, nothing changed) with no card or
        more than one selected, or when the park is refused; BadTap for a cell the game does not have."""
        cell = None
        if slot is not None:
            count = self.game.rules.cells
            if not (slot.isascii() and slot.isdigit() and int(slot) < count):
                has = f"cells 0-{count - 1}" if count > 1 else "cell 0" if count else "no free cells"
                raise BadCell(f"no free cell {slot!r}: this game has {has}")
            cell = int(slot)
        if self.over:
            return _refused(Refusal("game-over"), [])
        if not self.game.rules.cells:
            return _refused(Refusal("no-cells"), [])
        if len(self.selected) != 1:
            return _refused(Refusal("cell-choose-one"), list(self.selected))
        card = self.selected[0]
        try:
            move = self.game.push(Move.park(card), cell)
        except IllegalMoveError as exc:
            return _refused(exc.refusal, [card])
        self.selected = []
        return {"kind": "parked", "move": str(move), "cards": [str(card)]}

    def play(self, move: Move) -> dict[str, Any]:
        """Play a move given in notation (raises IllegalMoveError, changing nothing)."""
        self._refuse_if_resigned()
        self.game.push(move)
        self._keep_usable_selection()
        kind = "parked" if move.kind == PARK else "removed" if move.cards else str(move)
        return {"kind": kind, "move": str(move), "cards": [str(c) for c in move.cards]}

    def _refuse_if_resigned(self) -> None:
        if self.resigned:
            raise IllegalMoveError(Refusal("game-over"))

    def _went_back_or_forth(self, kind: str, move: Move) -> dict[str, Any]:
        self.selected = []
        return {"kind": kind, "move": str(move), "cards": [str(c) for c in move.cards]}

    def undo(self) -> dict[str, Any]:
        """Undo (raises IllegalMoveError when refused)."""
        self._refuse_if_resigned()
        return self._went_back_or_forth("undone", self.game.undo())

    def redo(self) -> dict[str, Any]:
        """Redo (raises IllegalMoveError when refused)."""
        self._refuse_if_resigned()
        return self._went_back_or_forth("redone", self.game.redo())

    def rewind(self) -> dict[str, Any]:
        """崩れる前に戻す (raises IllegalMoveError when refused)."""
        self._refuse_if_resigned()
        undone = self.game.rewind()
        self.selected = []
        return {"kind": "rewound", "undone": len(undone), "cards": [str(c) for m in undone for c in m.cards]}

    def deselect(self) -> dict[str, Any]:
        """Put every selected card down."""
        cards = [str(c) for c in self.selected]
        self.selected = []
        return {"kind": "deselected", "cards": cards}

    def hint(self) -> dict[str, Any]:
        """The plain hint of seed 001."""
        if self.over:
            return _refused(Refusal("game-over"), [])
        move = self.game.hint()
        if move is None:
            return _refused(Refusal("game-over"), [])
        return {"kind": "hint", "move": str(move), "cards": [str(c) for c in move.cards]}

    def coach(self, time_limit: float = COACH_SECONDS) -> dict[str, Any]:
        """The solver's hint; it knows the hidden cards, and the answer says so."""
        from ..solver.coach import coach_hint

        if self.over:
            return _refused(Refusal("game-over"), [])
        advice = coach_hint(self.game, time_limit=time_limit)
        self.coach_hints += 1
        move = advice.move
        return {"kind": "coach", "move": None if move is None else str(move),
                "cards": [] if move is None else [str(c) for c in move.cards],
                "winnable": advice.winnable, "best_reachable": advice.best_reachable,
                "uses_hidden_cards": advice.uses_hidden_cards}

    # --- what the page draws ----------------------------------------------------------------------

    def after_action(self) -> None:
        """Bookkeeping after every answered action: the version and the end of the game."""
        self.version += 1
        if not self.over:
            self.finished = None
        elif self.finished is None:
            self.finished = time.time()

    def find_best(self) -> None:
        """The most pyramid cards the deal allows (for a lost game's result screen); solved once, on
        demand, so that the tap that ends a game answers at once."""
        from ..solver import solve

        if self.best_removed is not None:
            return
        result = solve(self.deal, time_limit=BEST_REACHABLE_SECONDS, best=True)
        self.best_removed = result.max_pyramid_removed
        self.best_exact = result.winnable is not None

    def elapsed(self) -> float:
        """Seconds from the deal to the end of the game (or to now)."""
        end = self.finished if self.finished is not None else time.time()
        return max(0.0, end - self.started)

    def state(self, lang: str) -> dict[str, Any]:
        """Everything the page needs to draw this game, in ``lang``."""
        game = self.game
        table = game.table
        view = game.view()
        removed = [str(c) for step in game.history if step.move.kind == REMOVE for c in step.move.cards]
        status_message = view.pop("status_message")[lang]
        if self.resigned:
            status_message = RESIGNED_MESSAGES[0 if lang == "ja" else 1]
            view.update({"status": RESIGNED, "usable": [], "legal_moves": [], "can_undo": False, "can_redo": False,
                         "can_rewind": False})
            for entry in view["pyramid"]:
                entry["usable"] = False
            view["stock"]["usable"] = False
        view["stock"]["label"] = view["stock"]["label"][lang]
        fan = self.waste_fan()
        shown = _shown_tokens(view) | set(removed) | set(fan)
        view.update({
            "id": self.id,
            "version": self.version,
            "lang": lang,
            "preset": game.rules.preset,
            "drawn_spot": game.rules.drawn_spot,
            "has_stock": table.stock_size > 0,
            "rule_fields": dataclasses.asdict(game.rules),
            "waste_fan": fan,
            "number": self.deal.number,
            "difficulty": self.deal.difficulty,
            "status_message": status_message,
            "selected": [str(c) for c in self.selected],
            "partners": self.partners(),
            "removed": {"count": len(removed), "top": removed[-2:]},
            "names": {str(c): c.name(lang) for c in table.cards if str(c) in shown},
            "elapsed": round(self.elapsed(), 1),
            "result": self._result() if self.over else None,
        })
        return view

    def waste_fan(self) -> list[str]:
        """The waste's top cards as a draw of several cards (``draw=3``) leaves them fanned, bottom first;
        the last is the waste top, the only one usable.  Empty when each draw is one card."""
        table = self.game.table
        if table.rules.draw <= 1:
            return []
        return [str(table.cards[p]) for p in table.waste(self.game.position)[-table.rules.draw:]]

    def _result(self) -> dict[str, Any]:
        game = self.game
        return {
            "won": self.status == WON,
            "seconds": round(self.elapsed(), 1),
            "moves": game.moves,
            "undos": game.undos,
            "hints": self.hints_used,
            "stock_left": game.stock_left,
            "pyramid_removed": self.pyramid_removed,
            "pyramid_size": game.table.board_size,
            "best_removed": None if self.status == WON else self.best_removed,
            "best_exact": self.best_exact,
            "score": game.score,
        }


def _refused(refusal: Refusal, cards: list[Card]) -> dict[str, Any]:
    data = refusal.to_json()
    return {"kind": "refused", "code": data["code"], "messages": {"ja": data["message_ja"], "en": data["message_en"]},
            "details": data["details"], "cards": [str(c) for c in cards]}


def _shown_tokens(view: dict[str, Any]) -> set[str]:
    """Every card token the view shows (so names never reveal a hidden card)."""
    shown = {entry["card"] for entry in view["pyramid"] if entry["card"]}
    for token in (view["stock"]["top"], view["drawn"], view["waste"]["top"],
                  *(pile["top"] for pile in view["waste_piles"])):
        if token:
            shown.add(token)
    shown.update(view["jokers"])
    shown.update(entry["card"] for entry in view["cells"]["slots"] if entry)
    return shown

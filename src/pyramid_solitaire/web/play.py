"""One game as the web app plays it: moves and events, and the state the browser renders.

This layer knows nothing of HTTP.  A game is the engine's :class:`~..game.Game` plus the clock; what
the player does reaches it as one *entry* of a game record (:mod:`..record`): a move (``Ad+Qs``,
``Kd``, ``draw``, ``recycle``, ``Qs>cell2``) or an event (``undo``, ``redo``, ``rewind``, ``hint``,
``coach``, ``resign``).  The store keeps those entries, and a game is rebuilt from them through the
engine alone — no behaviour of the page is in a record.

**The selection is the browser's.**  Choosing cards changes nothing in the game, so it is not sent:
the state tells the page, in the way chessground's ``dests`` tells a chessboard its legal moves, what
each card can be removed with (``pairs``), which cards may be chosen (``selectable``), and why every
other tap would be refused (``refusals``: covered by which cards, the two values and their sum, a
spent waste, …), each message in the page's language only.  The page selects, lights partners and
explains a refusal from that data with no request, and sends a removal as one move.  It holds no rule:
every fact comes from the engine (``Game`` / ``Table``).

Two presets' ways are data too (seed 000, ``pyramide``): a refused pair keeps its second card chosen
(``ui.keep_second``), and the reason a covered card does nothing is only shown with the
error-explanation assist on (``quiet`` on those refusals).
"""

from __future__ import annotations

import dataclasses
import secrets
import time
from dataclasses import dataclass, field
from functools import cached_property
from typing import Final, cast

from ..board import WON
from ..deal import Deal
from ..game import Game, Step
from ..layout import bits
from ..messages import Problem
from ..moves import DRAW, PARK, RECYCLE, REMOVE, Move
from ..reasons import IllegalMoveError, Refusal
from ..record import COACH, Entry, Parked, play_entry
from ..rules import manner
from ..vocabulary import Event
from .shapes import (
    Choices,
    EventAnswer,
    EventKind,
    FieldValue,
    PlayerView,
    Result,
    SessionFacts,
    SessionState,
    Summary,
)
from .taps import choices

#: How long the solver may think about the best a lost deal could have done, in seconds.
BEST_REACHABLE_SECONDS: Final = 3.0
#: How long the coach hint may think, in seconds.
COACH_SECONDS: Final = 3.0
LANGS: Final = ("ja", "en")
#: What each entry's event is called in an answer.
EVENT_KINDS: Final[dict[str, EventKind]] = {
    Event.UNDO: "undone",
    Event.REDO: "redone",
    Event.REWIND: "rewound",
    Event.HINT: "hint",
    Event.COACH: "coach",
    Event.RESIGN: "resigned",
}
#: What a move is called in an answer, by its kind.
MOVE_KINDS: Final[dict[str, EventKind]] = {REMOVE: "removed", PARK: "parked", DRAW: "draw", RECYCLE: "recycle"}


class BadCell(Problem, ValueError):
    """A park into a free cell the game does not have, or a cell named for a move that is no park."""


def event_of(entry: Entry, done: Move | list[Move] | None) -> EventAnswer:
    """The event an answer reports for ``entry``, which did ``done`` (what :func:`play_entry` returned)."""
    if isinstance(entry, str):
        kind = EVENT_KINDS[entry]
        if isinstance(done, list):  # a rewind: every move it took back
            return {"kind": kind, "undone": len(done), "cards": [str(c) for m in done for c in m.cards]}
        if done is None:
            return {"kind": kind, "cards": []}
        return {"kind": kind, "move": str(done), "cards": [str(c) for c in done.cards]}
    assert isinstance(done, Move)
    return {"kind": MOVE_KINDS[done.kind], "move": str(entry), "cards": [str(c) for c in done.cards]}


@dataclass
class Session:
    """A game being played in a browser: the engine's ``Game`` and the clock."""

    game: Game
    id: str = field(default_factory=lambda: secrets.token_urlsafe(16))
    started: float = field(default_factory=time.time)
    finished: float | None = None
    #: The number of entries recorded; a client can tell a stale answer from a fresh one.
    version: int = 0
    best_removed: int | None = None
    best_exact: bool = True
    player_id: str = ""
    #: The day of the daily deal this game is (``YYYY-MM-DD``), and whether it counts for that day.
    daily: str | None = None
    daily_counted: bool = False
    #: The daily challenge this game was started for (``YYYY-MM-DD-<kind>``), if any.
    challenge: str | None = None
    #: The cards removed so far, and with each step of the history how many of them it had taken:
    #: kept so that a state does not walk the whole history (:meth:`_removed`).
    _counted: list[tuple[Step, int]] = field(default_factory=list, repr=False, compare=False)
    _gone: list[str] = field(default_factory=list, repr=False, compare=False)
    #: Every card's name, by language and token (:meth:`_names`).
    _named: dict[str, dict[str, str]] = field(default_factory=dict, repr=False, compare=False)

    @property
    def tokens(self) -> tuple[str, ...]:
        """Each place's card token (the game's, kept once: the table's cards never change)."""
        return self.game.tokens

    @cached_property
    def places(self) -> dict[str, int]:
        """Each card token's place."""
        return {token: place for place, token in enumerate(self.tokens)}

    @cached_property
    def rule_fields(self) -> dict[str, FieldValue]:
        """Every field of the game's rules, for the Rules dialog (the rules never change)."""
        return cast(dict[str, FieldValue], dataclasses.asdict(self.game.rules))  # each a bool, int, str or None

    @property
    def deal(self) -> Deal:
        """The deal in play."""
        return self.game.deal

    @property
    def status(self) -> str:
        """The engine's status (``resigned`` once the player gave the game up)."""
        return self.game.status

    @property
    def hints_used(self) -> int:
        """Plain hints and coach hints asked for."""
        return self.game.hints + self.game.coach_hints

    @property
    def pyramid_removed(self) -> int:
        """Pyramid cards removed so far."""
        return self.game.table.board_size - self.game.pyramid_left

    @property
    def over(self) -> bool:
        """True once the game has ended (won, lost, stalemate or resigned)."""
        return self.game.over

    # --- entries --------------------------------------------------------------------------------------

    def check_cell(self, entry: Entry) -> None:
        """Raise BadCell for a park into a cell these rules do not have (a malformed request, not a
        refused move)."""
        if isinstance(entry, Parked) and entry.cell >= self.game.rules.cells:
            count = self.game.rules.cells
            has = "many" if count > 1 else "one" if count else "none"
            # counted from 1, as people and the notation (Qs>cell2) count them; the request's "cell" is shown too
            raise BadCell(f"cell.no-such-cell.{has}", n=entry.cell + 1, count=count, last=count - 1)

    def act(self, entry: Entry, coach_seconds: float = COACH_SECONDS) -> EventAnswer:
        """Do one entry as the player asked for it and return the event to report.  Raises
        IllegalMoveError (refused: nothing changed) or BadCell."""
        self.check_cell(entry)
        if entry == COACH:
            return self._coach(coach_seconds)
        done = play_entry(self.game, entry)
        return event_of(entry, done)

    def replay(self, entries: list[Entry], report: int | None = None) -> EventAnswer | None:
        """Play recorded entries in order (each was answered once, so none is refused now); the event of
        entry number ``report`` as its answer reported it (a replay's step says what its action did)."""
        event = None
        for index, entry in enumerate(entries):
            done = play_entry(self.game, entry)
            if index == report:
                event = event_of(entry, done)
            self.version += 1
        if self.over and self.finished is None:
            self.finished = time.time()
        return event

    def _coach(self, time_limit: float) -> EventAnswer:
        """The solver's hint; it knows the hidden cards, and the answer says so."""
        from ..solver.coach import coach_hint

        if self.over:
            raise IllegalMoveError(Refusal("game-over"))
        advice = coach_hint(self.game, time_limit=time_limit)
        self.game.count_coach_hint()
        move = advice.move
        return {
            "kind": "coach",
            "move": None if move is None else str(move),
            "cards": [] if move is None else [str(c) for c in move.cards],
            "winnable": advice.winnable,
            "best_reachable": advice.best_reachable,
            "uses_hidden_cards": advice.uses_hidden_cards,
        }

    def summary(self) -> Summary:
        """What the store keeps of the game besides its entries: when its clock started, counters and, once
        over, the result."""
        game = self.game
        return {
            "started_ms": int(self.started * 1000),
            "moves": game.moves,
            "undos": game.undos,
            "hints": self.hints_used,
            "pyramid_removed": self.pyramid_removed,
            "result": self.status if self.over else None,
            "ended_ms": int(self.finished * 1000) if self.over and self.finished is not None else None,
        }

    # --- the clock and the end ------------------------------------------------------------------------

    def after_action(self, now: float | None = None) -> None:
        """Bookkeeping after every answered entry, at ``now`` (seconds since 1970; the offline engine gives its
        own clock's): the version, the start of the clock and the end of the game.

        The clock starts with the first entry, not with the deal: a deal dealt and left (the page deals one
        on its first visit; a player may go to the daily deal instead) would otherwise come back with the
        minutes it waited on its clock, and a win would be timed, and ranked, from them."""
        moment = time.time() if now is None else now
        if self.version == 0:
            self.started = moment
        self.version += 1
        if not self.over:
            self.finished = None
        elif self.finished is None:
            self.finished = moment

    def find_best(self) -> None:
        """The most pyramid cards the deal allows (for a lost game's result screen); solved once, on
        demand, so that the move that ends a game answers at once."""
        from ..solver import solve

        if self.best_removed is not None:
            return
        result = solve(self.deal, time_limit=BEST_REACHABLE_SECONDS, best=True)
        self.best_removed = result.max_pyramid_removed
        self.best_exact = result.winnable is not None

    def elapsed(self) -> float:
        """Seconds from the first entry to the end of the game (or to now); none before the first entry."""
        if self.version == 0:
            return 0.0
        end = self.finished if self.finished is not None else time.time()
        return max(0.0, end - self.started)

    # --- what the page draws ----------------------------------------------------------------------------

    def state(self, lang: str) -> SessionState:
        """Everything the page needs to draw this game and to answer taps, in ``lang``: the player's view,
        the web app's facts, and what every tap would do (docs/web.md; ``shapes.SessionState``)."""
        coverers = _visible_coverers(self.game)
        view = self._view(lang, coverers)
        visible = _shown_tokens(view)
        return {**view, **self._facts(lang, visible), **self._choices(lang, view, visible, coverers)}

    def _view(self, lang: str, coverers: dict[int, list[int]]) -> PlayerView:
        """The engine's player view, with the face-up cards covering each slot.  The one point where the
        engine's JSON-ready dictionary (``view.player_view``, untyped) is taken as the typed shape;
        tests/web/test_shapes.py checks every key of real answers against the shapes."""
        view = cast(PlayerView, self.game.view(lang))
        tokens = self.tokens
        for entry in view["pyramid"]:
            entry["covering"] = [tokens[place] for place in coverers.get(entry["slot"], ())]
        return view

    def _facts(self, lang: str, visible: set[str]) -> SessionFacts:
        """The web app's facts beside the view (``visible``: the card tokens the view shows)."""
        game = self.game
        table = game.table
        removed = self._removed()
        fan = self.waste_fan()
        shown = visible.union(removed, fan)
        names = self._names(lang)
        return {
            "id": self.id,
            "version": self.version,
            "lang": lang,
            "preset": game.rules.preset,
            "drawn_spot": game.rules.drawn_spot,
            "has_stock": table.stock_size > 0,
            "rule_fields": self.rule_fields,
            "waste_fan": fan,
            "number": self.deal.number,
            "difficulty": self.deal.difficulty,
            "removed": {"count": len(removed), "top": removed[-2:]},
            "names": {token: name for token, name in names.items() if token in shown},
            "target": table.target,
            "values": {
                token: None if table.is_joker(self.places[token]) else table.values[self.places[token]]
                for token in sorted(visible)
            },
            "ui": {"keep_second": manner(game.rules).keep_second},
            "elapsed": round(self.elapsed(), 1),
            "result": self._result() if self.over else None,
        }

    def _removed(self) -> list[str]:
        """Every card the player's removals have taken, in order (the kept list; do not change it).

        A state needs them (their count, the last two, their names) after every action, so they are
        kept rather than found by walking the whole history each time: with each step the number taken
        up to it.  An undo pops steps and a move pushes new ones, so the kept steps agree with the
        history up to the first that is not the same object; only the steps after it are read again."""
        history = self.game.history
        kept, gone = self._counted, self._gone
        same = min(len(kept), len(history))
        while same and kept[same - 1][0] is not history[same - 1]:
            same -= 1
        del kept[same:]
        del gone[kept[-1][1] if kept else 0 :]
        for step in history[same:]:
            if step.move.kind == REMOVE:
                gone.extend(str(card) for card in step.move.cards)
            kept.append((step, len(gone)))
        return gone

    def _names(self, lang: str) -> dict[str, str]:
        """Every card's name in ``lang``, by token (the table's cards never change)."""
        named = self._named.get(lang)
        if named is None:
            cards = self.game.table.cards
            named = self._named[lang] = {token: cards[place].name(lang) for token, place in self.places.items()}
        return named

    def _choices(self, lang: str, view: PlayerView, visible: set[str], coverers: dict[int, list[int]]) -> Choices:
        """``pairs``, ``selectable``, ``refusals`` and ``stock_move``: what every tap would do now."""
        return choices(self.game, self.tokens, self.places, self.waste_fan(), lang, view, visible, coverers)

    def waste_fan(self) -> list[str]:
        """The waste's top cards as a draw of several cards (``draw=3``) leaves them fanned, bottom first;
        the last is the waste top, the only one usable.  Empty when each draw is one card."""
        table = self.game.table
        if table.rules.draw <= 1:
            return []
        return [str(table.cards[p]) for p in table.waste(self.game.position)[-table.rules.draw :]]

    def _result(self) -> Result:
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


def _visible_coverers(game: Game) -> dict[int, list[int]]:
    """For every pyramid slot still in place, the places of the face-up cards covering it (never a
    face-down one)."""
    table = game.table
    pos = game.position
    shown = table.visible(pos) & pos.pyramid
    coverers = table.layout.coverers
    return {slot: bits(shown & coverers[slot]) for slot in bits(pos.pyramid)}


def _shown_tokens(view: PlayerView) -> set[str]:
    """Every card token the view shows (so names never reveal a hidden card)."""
    shown = {entry["card"] for entry in view["pyramid"] if entry["card"]}
    for token in (
        view["stock"]["top"],
        view["drawn"],
        view["waste"]["top"],
        *(pile["top"] for pile in view["waste_piles"]),
    ):
        if token:
            shown.add(token)
    shown.update(view["jokers"])
    shown.update(entry["card"] for entry in view["cells"]["slots"] if entry)
    return shown


__all__ = ["EVENT_KINDS", "MOVE_KINDS", "BadCell", "Session"]

"""The player's view of a game: exactly what a player at the table could see, and nothing more.

Face-down pyramid cards appear as ``null``; reserve piles are listed with the pyramid's slots (they are
part of the layout) and say their pile and level instead of a row and column; the stock appears as a
count (and, in ``msc``, its face-up top card); the waste as its top card and a count; free cells as the
cards parked in them.  Every front end
renders from this view, so none of them can show a card the player may not see.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol, TypedDict, TypeVar

from .layout import Layout, bits

if TYPE_CHECKING:
    from .deal import Deal
    from .packed import Position
    from .rules import Rules
    from .table import Table


_Text = TypeVar("_Text")


class Slot(TypedDict):
    """One slot of the layout (the pyramid's, then the reserve piles'): where it lies, its card if face up
    (else ``None``), and what the engine says of it."""

    slot: int
    row: int | None
    col: int | None
    pile: int | None
    level: int | None
    card: str | None
    removed: bool
    parked: bool
    face_up: bool
    usable: bool
    covered_by: list[int]
    dead: bool


#: The stock: cards left face down, the pass under way and how many there are (``None``: unlimited), its
#: label (``{"ja": …, "en": …}`` without a language), its face-up top card in ``msc`` (``pass`` is a
#: Python keyword, hence this form).
Stock = TypedDict(
    "Stock",
    {
        "count": int,
        "pass": int,
        "passes": int | None,
        "label": str | dict[str, str],
        "top": str | None,
        "usable": bool,
    },
)


class Waste(TypedDict):
    """The waste: its top card, its count (the drawn spot's card apart), its uses left (``None``: no limit)."""

    top: str | None
    count: int
    uses_left: int | None


class Pile(TypedDict):
    """One of several waste piles (Apophis): its top card and count."""

    top: str | None
    count: int


class CellCard(TypedDict):
    """A card parked in a free cell, and whether it is dead."""

    card: str
    dead: bool


class Cells(TypedDict):
    """The free cells: how many, and each one's card left to right (``None``: empty)."""

    size: int
    slots: list[CellCard | None]


class Shown(TypedDict):
    """What every form of the player's view has: :class:`View` and the web's ``PlayerView`` add the
    status message, the layout's slots and the stock, each in a form of its own."""

    rules: str
    code: str
    status: str
    score: int | None
    moves: int
    undos: int
    hints: int
    drawn: str | None
    waste: Waste
    waste_piles: list[Pile]
    cells: Cells
    jokers: list[str]
    usable: list[str]
    legal_moves: list[str]
    dead: list[str]
    can_rewind: bool
    can_undo: bool
    can_redo: bool


class View(Shown):
    """The player's view (:func:`player_view`; ``docs/engine.md`` describes each key).  Its texts are
    ``{"ja": …, "en": …}``, or only the one of the language asked for."""

    status_message: str | dict[str, str | None] | None
    pyramid: list[Slot]
    stock: Stock


class Game(Protocol):
    """What the view reads of a game: :class:`.game.Game` has all of it.  A protocol rather than the
    class, so that the view (which the game's ``view()`` calls) does not import the game: the layers
    import only downward (docs/architecture.md)."""

    @property
    def tokens(self) -> tuple[str, ...]: ...
    @property
    def table(self) -> Table: ...
    @property
    def position(self) -> Position: ...
    @property
    def resigned(self) -> bool: ...
    @property
    def rules(self) -> Rules: ...
    @property
    def deal(self) -> Deal: ...
    @property
    def status(self) -> str: ...
    @property
    def score(self) -> int | None: ...
    @property
    def moves(self) -> int: ...
    @property
    def undos(self) -> int: ...
    @property
    def hints(self) -> int: ...
    @property
    def stock_left(self) -> int: ...
    @property
    def pass_number(self) -> int: ...
    def cell_slots(self) -> list[int | None]: ...
    def dead_mask(self) -> int: ...
    def status_message(self, lang: str = "ja") -> str | None: ...
    def stock_label(self, lang: str = "ja") -> str: ...
    def legal_moves(self) -> Sequence[object]: ...
    def rewind_refusal(self) -> object | None: ...
    def undo_refusal(self) -> object | None: ...
    def redo_refusal(self) -> object | None: ...


def _card(game: Game, place: int | None) -> str | None:
    return None if place is None else game.tokens[place]


def cell_slots(game: Game) -> list[int | None]:
    """The place parked in each free cell, left to right (``None``: empty): :meth:`.Game.cell_slots`."""
    return game.cell_slots()


def _texts(text: Callable[[str], _Text], lang: str | None) -> _Text | dict[str, _Text]:
    return {"ja": text("ja"), "en": text("en")} if lang is None else text(lang)


def _pyramid(game: Game, usable: set[int], dead: int) -> list[Slot]:
    """The view's ``pyramid``: one entry per slot of the layout, the pyramid's then the reserve piles'."""
    table = game.table
    pos = game.position
    visible = table.visible(pos)
    layout = table.layout
    coverers = layout.coverers
    tokens = game.tokens
    pyramid: list[Slot] = []
    for slot, (row, col, pile, level) in enumerate(_where(layout)):
        in_place = bool(pos.pyramid >> slot & 1)
        parked = bool(pos.cells >> slot & 1)
        face_up = in_place and bool(visible >> slot & 1)
        pyramid.append(
            {
                "slot": slot,
                "row": row,
                "col": col,
                "pile": pile,
                "level": level,
                "card": tokens[slot] if face_up else None,
                "removed": not in_place,  # gone from its slot: removed, or parked in a free cell
                "parked": parked,
                "face_up": face_up,
                "usable": slot in usable,
                "covered_by": bits(coverers[slot] & pos.pyramid) if in_place else [],
                "dead": bool(dead >> slot & 1),
            }
        )
    return pyramid


@functools.cache  # a layout's geometry never changes, and a few layouts serve every game
def _where(layout: Layout) -> tuple[tuple[int | None, int | None, int | None, int | None], ...]:
    """Where each slot lies: (row, col) in the pyramid; (pile, level) in a reserve pile, level 0 its bottom."""
    pyramid = tuple((row, col, None, None) for row, col in layout.coords)
    piles = tuple((None, None, pile, level) for pile, slots in enumerate(layout.piles) for level in range(len(slots)))
    return pyramid + piles


def player_view(game: Game, lang: str | None = None) -> View:
    """See the module docstring; the keys are documented in ``docs/engine.md``.  The texts (the status
    message, the stock's label) are ``{"ja": …, "en": …}``, or only the one of ``lang`` when it is given."""
    table = game.table
    pos = game.position
    usable = set() if game.resigned else set(table.usable(pos))
    dead = game.dead_mask()
    pyramid = _pyramid(game, usable, dead)
    waste = table.waste(pos)
    drawn = table.drawn(pos)
    stock_top = table.stock_top(pos) if table.rules.stock_top_usable else None
    return {
        "rules": str(game.rules),
        "code": game.deal.code,
        "status": game.status,
        "status_message": _texts(game.status_message, lang),
        "score": game.score,
        "moves": game.moves,
        "undos": game.undos,
        "hints": game.hints,
        "pyramid": pyramid,
        "stock": {
            "count": game.stock_left,
            "pass": game.pass_number,
            "passes": game.rules.passes,
            "label": _texts(game.stock_label, lang),
            "top": _card(game, stock_top),
            "usable": stock_top is not None and stock_top in usable,
        },
        "drawn": _card(game, drawn),
        "waste": {
            "top": _card(game, table.waste_top(pos)),
            "count": len(waste) - (1 if drawn is not None else 0),
            "uses_left": table.waste_uses_left(pos),  # None without a limit on waste uses
        },
        # several waste piles (Apophis): each pile's top and count, left to right; empty with one waste
        "waste_piles": [
            {"top": _card(game, pile[-1] if pile else None), "count": len(pile)} for pile in table.waste_piles(pos)
        ],
        # free cells, left to right: empty (null) or the card parked there (usable until removed)
        "cells": {
            "size": game.rules.cells,
            "slots": [
                None if p is None else {"card": game.tokens[p], "dead": bool(dead >> p & 1)} for p in cell_slots(game)
            ],
        },
        "jokers": [game.tokens[table.joker_base + j] for j in bits(pos.jokers)],
        "usable": sorted(game.tokens[p] for p in usable),
        "legal_moves": [str(m) for m in game.legal_moves()],
        "dead": [game.tokens[s] for s in bits(dead)],
        "can_rewind": game.rewind_refusal() is None,
        "can_undo": game.undo_refusal() is None,
        "can_redo": game.redo_refusal() is None,
    }

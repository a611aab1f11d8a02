"""The Move value object: its ``str`` is the move notation of docs/rules.md and it parses back.

``Kd`` (a lone king), ``Tc+3s`` (a pair), ``2c+4d+7h`` (a triple, where allowed), ``Qs>cell`` (park
the queen of spades in a free cell, where the rules have them), ``draw``, ``recycle``.  Cards are
named, not positions, so a record reads the same in every layout.  Two removals of the same cards are
the same move whatever order the cards were written in.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from .cards import Card, CardError
from .messages import Problem
from .vocabulary import MoveKind

DRAW: Final = MoveKind.DRAW
RECYCLE: Final = MoveKind.RECYCLE
REMOVE: Final = MoveKind.REMOVE
PARK: Final = MoveKind.PARK
#: what follows the card in a park's notation: ``Qs>cell``
CELL_SUFFIX: Final = ">cell"
MAX_REMOVAL: Final = 3
_SEPARATORS: Final = re.compile(r"[;\n]")


class MoveError(Problem, ValueError):
    """Text that is not a move."""


@dataclass(frozen=True, eq=False)
class Move:
    """One action: ``kind`` is ``remove``, ``park``, ``draw`` or ``recycle``; ``cards`` the cards removed
    (or the one card parked)."""

    kind: str
    cards: tuple[Card, ...] = ()

    def __post_init__(self) -> None:
        if self.kind == REMOVE:
            if not 1 <= len(self.cards) <= MAX_REMOVAL:
                raise MoveError("move.removal-size", most=MAX_REMOVAL, count=len(self.cards))
        elif self.kind == PARK:
            if len(self.cards) != 1:
                raise MoveError("move.park-size", count=len(self.cards))
        elif self.kind in (DRAW, RECYCLE):
            if self.cards:
                raise MoveError("move.no-cards", kind=self.kind)
        else:
            raise MoveError("move.unknown-kind", kind=self.kind)

    @classmethod
    def remove(cls, *cards: Card) -> Move:
        """A removal of the given cards."""
        return cls(REMOVE, tuple(cards))

    @classmethod
    def park(cls, card: Card) -> Move:
        """Park ``card`` in a free cell."""
        return cls(PARK, (card,))

    @classmethod
    def draw(cls) -> Move:
        """Draw from the stock."""
        return cls(DRAW)

    @classmethod
    def recycle(cls) -> Move:
        """Turn the waste over into a new stock."""
        return cls(RECYCLE)

    @classmethod
    def parse(cls, text: str) -> Move:
        """Parse one move; raise :class:`MoveError` naming what is wrong."""
        word = text.strip()
        lowered = word.lower()
        if lowered in (DRAW, "d"):
            return cls.draw()
        if lowered in (RECYCLE, "r"):
            return cls.recycle()
        if not word:
            raise MoveError("move.empty")
        head, arrow, tail = word.partition(">")
        if arrow:
            if tail.strip().lower() != CELL_SUFFIX[1:]:
                raise MoveError("move.only-to-cell", move=word)
            try:
                return cls.park(Card.parse(head.strip()))
            except CardError as exc:
                raise MoveError("move.bad-card", move=word, problem=exc) from None
        parts = [part for part in re.split(r"\s*\+\s*|\s+", word) if part]
        try:
            cards = tuple(Card.parse(part) for part in parts)
        except CardError as exc:
            raise MoveError("move.bad-card", move=word, problem=exc) from None
        if len(cards) > MAX_REMOVAL:
            raise MoveError("move.too-many", move=word, most=MAX_REMOVAL)
        return cls.remove(*cards)

    def __str__(self) -> str:
        if self.kind == REMOVE:
            return "+".join(str(card) for card in self.cards)
        if self.kind == PARK:
            return f"{self.cards[0]}{CELL_SUFFIX}"
        # the word itself, not the MoveKind member (a str too, but its repr would show in ``repr(move)``)
        return f"{self.kind}"

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"

    def _key(self) -> tuple[str, frozenset[Card]]:
        return (self.kind, frozenset(self.cards))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Move) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())


def parse_moves(text: str) -> list[Move]:
    """Moves separated by ``;`` or new lines (blank entries ignored)."""
    return [Move.parse(part) for part in _SEPARATORS.split(text) if part.strip()]

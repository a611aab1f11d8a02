"""Cards as small value objects whose ``str`` is the notation of docs/rules.md.

A card token is a rank (``A 2 3 4 5 6 7 8 9 T J Q K``) followed by a suit (``c d h s``).  On input we
also accept ``10`` for ``T``, the suit symbols ``♣ ♦ ♥ ♠`` and any letter case; we always print the
canonical form (``Tc``).  Jokers, which only the ``thirteen`` options add, are written ``X1`` and ``X2``.

Suits never matter to the rules; the rank is the card's face, and its *value* (what it adds to a sum)
depends on the deck (see :mod:`pyramid_solitaire.rules`): in the 52-card deck A=1 .. K=13, in the
48-card Spanish deck (our reading: the four tens taken out) J=10, Q=11, K=12.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Final

from .messages import Problem
from .messages import text as words

RANKS: Final = "A23456789TJQK"
SUITS: Final = "cdhs"
SUIT_SYMBOLS: Final = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}
SYMBOL_SUITS: Final = {v: k for k, v in SUIT_SYMBOLS.items()}
JOKER_RANK: Final = 0
JOKER_PREFIX: Final = "X"
MAX_JOKERS: Final = 2

ACE: Final = 1
TEN: Final = 10
KING: Final = 13


class CardError(Problem, ValueError):
    """A card token that names no card."""


@dataclass(frozen=True, order=True, slots=True)
class Card:
    """One playing card.  ``rank`` is 1 (ace) .. 13 (king); a joker has rank 0 and suit ``""``.

    ``joker`` numbers the jokers (1 or 2) so that two jokers are two different cards.
    """

    rank: int
    suit: str
    joker: int = 0

    def __post_init__(self) -> None:
        if self.rank == JOKER_RANK:
            if self.suit != "" or not 1 <= self.joker <= MAX_JOKERS:
                raise CardError("card.not-a-joker", suit=self.suit, number=self.joker)
        elif not (ACE <= self.rank <= KING) or self.suit not in SUITS or self.joker:
            raise CardError("card.no-such-card", rank=self.rank, suit=self.suit)

    @property
    def is_joker(self) -> bool:
        """True for the wild cards of ``thirteen(jokers=…)``."""
        return self.rank == JOKER_RANK

    @classmethod
    def joker_card(cls, number: int) -> Card:
        """The joker numbered 1 or 2."""
        return cls(JOKER_RANK, "", number)

    @classmethod
    def parse(cls, token: str) -> Card:
        """Parse one token (``Tc``, ``10♣``, ``qH``, ``X1``); raise :class:`CardError` naming the token."""
        text = token.strip()
        if not text:
            raise CardError("card.empty")
        upper = text.upper()
        if upper in (f"{JOKER_PREFIX}{n}" for n in range(1, MAX_JOKERS + 1)):
            return cls.joker_card(int(upper[1:]))
        suit_char = text[-1]
        suit = SYMBOL_SUITS.get(suit_char, suit_char.lower())
        rank_text = upper[:-1]
        if rank_text == "10":
            rank_text = "T"
        if len(rank_text) != 1 or rank_text not in RANKS or suit not in SUITS:
            raise CardError("card.unknown", token=token)
        return cls(RANKS.index(rank_text) + 1, suit)

    def __str__(self) -> str:
        if self.is_joker:
            return f"{JOKER_PREFIX}{self.joker}"
        return f"{RANKS[self.rank - 1]}{self.suit}"

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    @property
    def face(self) -> str:
        """The rank as printed on the card: ``A``, ``2`` .. ``10``, ``J``, ``Q``, ``K`` (joker: ``JOKER``)."""
        if self.is_joker:
            return "JOKER"
        return "10" if self.rank == TEN else RANKS[self.rank - 1]

    @property
    def symbol(self) -> str:
        """Short display form with the suit symbol: ``Q♥``, ``10♠``, ``JOKER``."""
        if self.is_joker:
            return "JOKER"
        return f"{self.face}{SUIT_SYMBOLS[self.suit]}"

    def name(self, lang: str) -> str:
        """Spoken name for screen readers: ``ハートの7`` / ``7 of hearts``."""
        return _name(self, lang)


@functools.cache  # a few dozen cards in two languages: a game's state names every card shown, on every move
def _name(card: Card, lang: str) -> str:
    if card.is_joker:
        return words(lang, "card.joker", number=card.joker)
    return words(lang, "card.name", rank=words(lang, f"rank.{card.rank}"), suit=words(lang, f"suit.{card.suit}"))


def full_deck() -> tuple[Card, ...]:
    """The 52 cards in plain deck order: clubs, diamonds, hearts, spades, each ace to king."""
    return tuple(Card(rank, suit) for suit in SUITS for rank in range(ACE, KING + 1))


def spanish_deck() -> tuple[Card, ...]:
    """The 48-card deck: the 52-card deck without its four tens, in plain deck order."""
    return tuple(card for card in full_deck() if card.rank != TEN)

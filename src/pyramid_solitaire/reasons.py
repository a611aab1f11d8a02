"""Why an action is refused: a stable reason code and the facts behind it.

A :class:`Refusal` is data (code + details); its message, in the player's language, is written from that
data by the message catalogue (``refusal.<code>`` in ``locales/<lang>.json``), so the web app, the
terminal and records all say the same thing.  The Japanese messages are the ones the seeds quote
(``合計が13になる必要があります``, ``このカードは別のカードに覆われています``, ``3周めくり終えました``,
``可能な手がもうありません``); the English ones say the same.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final, TypedDict

from .cards import ACE, Card
from .messages import join, text

if TYPE_CHECKING:
    from typing_extensions import TypeIs  # typing's own from Python 3.13

#: The end of a game, by status: the catalogue's ``status.<status>``.
STATUS_KEY: Final = "status.{}"


def value_text(card: Card, value: int) -> str:
    """A card's value as the seeds write it in a sum: ``Q(12)``, ``A(1)``, ``9``."""
    if card.is_joker:
        return "JOKER"
    return f"{card.face}({value})" if card.rank == ACE or card.face in ("J", "Q", "K") else str(value)


def equation(cards: tuple[Card, ...], values: tuple[int, ...]) -> str:
    """``Q(12)+9=21``."""
    terms = "+".join(value_text(card, value) for card, value in zip(cards, values, strict=True))
    return f"{terms}={sum(values)}"


def card_list(cards: tuple[Card, ...], lang: str) -> str:
    """``2♣と8♦`` / ``2♣ and 8♦``."""
    return join(lang, [card.symbol for card in cards])


#: A fact behind a refusal: a number (``None``: no limit), a word, a card, or cards in order (and their
#: values, in a sum).
Fact = int | str | Card | tuple[Card, ...] | tuple[int, ...] | None
#: A fact as JSON (:meth:`Refusal.to_json`): a card as its token, cards as a list of tokens.
ShownFact = int | str | list[str] | tuple[int, ...] | None


class RefusalShown(TypedDict):
    """A refusal as JSON: its code, its message in one language, and its facts."""

    code: str
    message: str
    details: dict[str, ShownFact]


def _is_cards(value: Fact) -> TypeIs[tuple[Card, ...]]:
    """Whether a fact is cards (an empty tuple is taken for numbers: either is shown as ``[]``)."""
    return isinstance(value, tuple) and bool(value) and isinstance(value[0], Card)


@dataclass(frozen=True)
class Refusal:
    """Why an action was refused: a stable ``code`` and the facts behind it."""

    code: str
    details: Mapping[str, Fact] = field(default_factory=dict)

    def _fields(self, lang: str) -> dict[str, object]:
        values: dict[str, object] = dict(self.details)
        covering = self.details.get("covering", ())
        values["covering"] = card_list(covering if _is_cards(covering) else (), lang)
        if "lone_face" in values:
            values["lone_face_name"] = text(lang, f"face.{values['lone_face']}")
        return values

    @property
    def key(self) -> str:
        """The catalogue key of the message (one pass through the stock has a message of its own)."""
        return (
            f"refusal.{self.code}.one"
            if self.code == "passes-used-up" and self.details.get("passes") == 1
            else f"refusal.{self.code}"
        )

    def message(self, lang: str) -> str:
        """The player-facing message in ``lang`` (``ja`` or ``en``)."""
        return text(lang, self.key, **self._fields(lang))

    @property
    def message_ja(self) -> str:
        """The player-facing message in Japanese."""
        return self.message("ja")

    @property
    def message_en(self) -> str:
        """The player-facing message in English."""
        return self.message("en")

    def to_json(self, lang: str) -> RefusalShown:
        """``{code, message, details}``: the message in ``lang``, cards written as tokens."""
        details: dict[str, ShownFact] = {
            key: [str(c) for c in value] if _is_cards(value) else str(value) if isinstance(value, Card) else value
            for key, value in self.details.items()
        }
        return {"code": self.code, "message": self.message(lang), "details": details}


class IllegalMoveError(ValueError):
    """An action the rules refuse; carries the :class:`Refusal`.  Nothing was changed."""

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(f"{refusal.code}: {refusal.message_en}")
        self.refusal = refusal

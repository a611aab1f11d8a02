"""Why an action is refused: stable reason codes with the player-facing text in Japanese and English.

The Japanese texts are the ones the seeds quote (``合計が13になる必要があります``,
``このカードは別のカードに覆われています``, ``3周めくり終えました``, ``可能な手がもうありません``); the
English ones say the same.  A :class:`Refusal` is data (code + details); its messages are rendered
from that data, so the web app, the terminal and records all say the same thing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from .cards import ACE, Card

#: Reason codes, each with a Japanese and an English template (``str.format`` fields from ``details``).
MESSAGES: Final[Mapping[str, tuple[str, str]]] = {
    "covered": ("このカードは別のカードに覆われています（{covering_ja}）",
                "This card is covered by {covering_en}."),
    "sum": ("合計が{target}になる必要があります：{equation}",
            "The cards must add up to {target}: {equation}."),
    "lone": ("1枚で取り除けるのは{lone_face}だけです：{equation}",
             "Only a {lone_face_en} can be removed alone: {equation}."),
    "no-lone": ("このルールでは1枚では取り除けません", "No card can be removed alone in these rules."),
    "not-usable": ("このカードは今は使えません", "This card cannot be used now."),
    "removed": ("このカードはもう取り除かれています", "This card has already been removed."),
    "not-in-game": ("このカードはこのゲームにありません", "This card is not in this game."),
    "same-card": ("同じカードを2回選んでいます", "The same card was chosen twice."),
    "too-many": ("一度に取り除けるのは{max_cards}枚までです", "At most {max_cards} cards can be removed at once."),
    "triples-off": ("3枚の組はこのルールでは使えません", "Three-card removals are not allowed in these rules."),
    "joker-alone": ("ジョーカーは1枚では取り除けません", "A joker cannot be removed alone."),
    "joker-pair": ("ジョーカー同士は組にできません", "Two jokers cannot be paired with each other."),
    "joker-triple": ("ジョーカーは3枚の組には使えません", "A joker cannot be part of a three-card removal."),
    "stock-waste-pair": ("山札側の2枚どうしは組にできません",
                         "Two cards from the stock side cannot be paired with each other in these rules."),
    "passes-used-up": ("{passes}周めくり終えました", "{passes_en} through the stock {passes_verb_en} used up."),
    "stock-empty": ("山札がありません", "The stock is empty."),
    "waste-uses-used-up": ("捨て札はもう使えません（{uses}回まで）",
                           "The waste's uses are spent (the limit is {uses})."),
    "no-cells": ("このルールにはフリーセルがありません", "These rules have no free cells."),
    "cells-full": ("空いているフリーセルがありません", "Every free cell is taken."),
    "no-such-cell": ("フリーセル{n}はありません（{cells}つまで）",
                     "There is no free cell {n} (this game has {cells})."),
    "cell-taken": ("フリーセル{n}にはもうカードがあります", "Free cell {n} already holds a card."),
    "in-cell": ("このカードはもうフリーセルにあります", "This card is already in a free cell."),
    "cell-choose-one": ("フリーセルに置くカードを1枚選んでから、空いているセルをタップしてください",
                        "Choose one card, then tap an empty free cell to put it there."),
    "joker-cell": ("ジョーカーはフリーセルに置けません（いつでも使えます）",
                   "A joker cannot go to a free cell (it can be used at any time)."),
    "no-stock": ("このゲームには山札がありません。すべてのカードがピラミッドとリザーブに配られています",
                 "This game has no stock: every card is dealt to the pyramid and the reserve."),
    "stock-not-empty": ("山札が残っているうちは捨て札を戻せません",
                        "The waste can only be turned over when the stock is empty."),
    "waste-empty": ("山札に戻せる捨て札がありません", "There are no waste cards to turn over."),
    "game-over": ("このゲームは終わっています", "This game is over."),
    "nothing-to-undo": ("取り消せる手がありません", "There is nothing to undo."),
    "undo-limit": ("これ以上は元に戻せません（{limit}回まで）", "No more undo: the last {limit} operations only."),
    "nothing-to-redo": ("やり直せる手がありません", "There is nothing to redo."),
    "no-dead-card": ("戻す必要のある詰み札はありません", "There is no dead card to rewind from."),
    "dead-from-start": ("この配札は最初から詰み札があり、戻せる手がありません",
                        "This deal had a dead card from the start: there is no move to rewind."),
}

#: Status messages shown when a game ends (not refusals, but worded in the same place).
STATUS_MESSAGES: Final[Mapping[str, tuple[str, str]]] = {
    "won": ("クリア！", "Cleared!"),
    "lost": ("手詰まりです", "No more moves: the game is lost."),
    "stalemate": ("可能な手がもうありません", "There are no more possible moves."),
    "resigned": ("投了しました", "You gave this game up."),
}


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
    symbols = [card.symbol for card in cards]
    if lang == "ja":
        return "と".join(symbols)
    return " and ".join(symbols)


@dataclass(frozen=True)
class Refusal:
    """Why an action was refused: a stable ``code`` and the facts behind it."""

    code: str
    details: Mapping[str, Any] = field(default_factory=dict)

    def _fields(self) -> dict[str, Any]:
        values = dict(self.details)
        covering = tuple(values.get("covering", ()))
        values.setdefault("covering_ja", card_list(covering, "ja"))
        values.setdefault("covering_en", card_list(covering, "en"))
        passes = values.get("passes")
        if isinstance(passes, int):
            values.setdefault("passes_en", "The only pass" if passes == 1 else f"All {passes} passes")
            values.setdefault("passes_verb_en", "is" if passes == 1 else "are")
        return values

    @property
    def message_ja(self) -> str:
        """The player-facing message in Japanese."""
        return MESSAGES[self.code][0].format(**self._fields())

    @property
    def message_en(self) -> str:
        """The player-facing message in English."""
        return MESSAGES[self.code][1].format(**self._fields())

    def message(self, lang: str) -> str:
        """The message in ``lang`` (``ja`` or ``en``)."""
        return self.message_ja if lang == "ja" else self.message_en

    def to_json(self) -> dict[str, Any]:
        """``{code, message_ja, message_en, details}`` with cards written as tokens."""
        details = {
            key: ([str(c) for c in value] if isinstance(value, tuple) and value and isinstance(value[0], Card)
                  else str(value) if isinstance(value, Card) else value)
            for key, value in self.details.items()
        }
        return {"code": self.code, "message_ja": self.message_ja, "message_en": self.message_en,
                "details": details}


class IllegalMoveError(ValueError):
    """An action the rules refuse; carries the :class:`Refusal`.  Nothing was changed."""

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(f"{refusal.code}: {refusal.message_en}")
        self.refusal = refusal

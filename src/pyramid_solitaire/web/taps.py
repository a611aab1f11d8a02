"""What every tap would do now, for the page to answer a tap without asking (docs/web.md): each card's
partners, the cards that may be chosen, why every other tap is refused — by card, pair, ``stock``,
``cell`` or ``game-over`` — and what a tap on the stock plays.  Part of a session's state
(:meth:`.play.Session.state`), read from the table's own rules."""

from __future__ import annotations

from itertools import combinations
from typing import Final, Literal

from ..game import Game
from ..moves import Move
from ..packed import RECYCLE_ACTION
from ..reasons import Refusal
from ..rules import manner
from .shapes import Choices, Partners, PlayerView, RefusalShown


def choices(
    game: Game,
    token: tuple[str, ...],
    places: dict[str, int],
    fan: list[str],
    lang: str,
    view: PlayerView,
    visible: set[str],
    coverers: dict[int, list[int]],
) -> Choices:
    """``pairs``, ``selectable``, ``refusals`` and ``stock_move``: what every tap would do now (``token``:
    each place's card token, ``places`` the reverse, ``fan``: the waste's fanned cards)."""
    table = game.table
    pos = game.position
    if game.over:
        return {
            "pairs": {},
            "selectable": [],
            "stock_move": None,
            "refusals": {"game-over": _refusal(lang, Refusal("game-over"), [])},
        }
    removals = table.removals(pos)
    pairs = _pairs(token, removals)
    chosen = sorted(set(table.usable(pos)) | {p for removal in removals for p in removal})
    refusals = _card_refusals(game, places, fan, lang, view, visible, coverers, set(chosen))
    refusals.update(_pair_refusals(game, token, lang, removals, chosen))
    # the stock: what a tap plays, or why it plays nothing
    stock_move: Literal["draw", "recycle"] | None = None
    if table.can_draw(pos):
        stock_move = "draw"
    else:
        why = table.refusal(pos, RECYCLE_ACTION)
        if why is None:
            stock_move = "recycle"
        else:
            refusals["stock"] = _refusal(lang, why, [])
    if game.rules.cells:
        refusals["cell"] = _refusal(lang, Refusal("cell-choose-one"), [])
        for place in chosen:
            card = table.cards[place]
            why = None if card.is_joker else game.check(Move.park(card))
            if card.is_joker:
                why = Refusal("joker-cell")
            if why is not None:
                refusals[f"{token[place]}>cell"] = _refusal(lang, why, [token[place]])
    return {
        "pairs": pairs,
        "selectable": [token[p] for p in chosen],
        "refusals": refusals,
        "stock_move": stock_move,
    }


def _card_refusals(
    game: Game,
    places: dict[str, int],
    fan: list[str],
    lang: str,
    view: PlayerView,
    visible: set[str],
    coverers: dict[int, list[int]],
    chosen: set[int],
) -> dict[str, RefusalShown]:
    """The refusals of tapping one card that cannot be chosen (``chosen``: the places that can)."""
    table = game.table
    pos = game.position
    quiet = manner(game.rules).quiet_covered
    refusals: dict[str, RefusalShown] = {}
    # a face-up card that cannot be chosen, and a face-down one: only public facts are told
    for entry in view["pyramid"]:
        slot = entry["slot"]  # a pyramid (or reserve) slot is the card's place
        if entry["removed"] or slot in chosen:
            continue
        covering = tuple(table.cards[place] for place in coverers.get(slot, ()))
        reason = Refusal("covered", {"covering": covering}) if covering else Refusal("not-usable")
        key = entry["card"] or f"#{slot}"
        refusals[key] = _refusal(
            lang,
            reason,
            [entry["card"]] if entry["card"] else [],
            slot=slot,
            quiet=quiet and reason.code == "covered",
        )
    for shown in sorted((visible | set(fan)) - set(refusals)):
        place = places[shown]
        if place not in chosen and not table.is_pyramid(place):
            spent = table.spent_waste(pos, place)  # a face-up waste card whose uses are spent: public
            refusals[shown] = _refusal(lang, spent or Refusal("not-usable"), [shown] if spent else [])
    return refusals


def _pair_refusals(
    game: Game, token: tuple[str, ...], lang: str, removals: list[tuple[int, ...]], chosen: list[int]
) -> dict[str, RefusalShown]:
    """The refusals of choosing two cards that make no removal and start none (a triple under way is
    no refusal)."""
    table = game.table
    legal = {frozenset(r) for r in removals}
    started = {frozenset(two) for r in removals if len(r) == 3 for two in combinations(r, 2)}
    refusals: dict[str, RefusalShown] = {}
    for a, b in combinations(chosen, 2):
        both = frozenset((a, b))
        if both in legal or both in started:
            continue
        reason = table.refusal(game.position, (a, b)) or Refusal("not-usable")
        refusals["+".join(sorted((token[a], token[b])))] = _refusal(lang, reason, [token[a], token[b]])
    return refusals


def _refusal(
    lang: str, reason: Refusal, cards: list[str], slot: int | None = None, quiet: bool = False
) -> RefusalShown:
    """One refusal as the page gets it: its code, its message in ``lang``, the cards it names."""
    shown = RefusalShown(code=reason.code, message=_message(lang, reason), cards=cards, quiet=quiet)
    if slot is not None:
        shown["slot"] = slot
    return shown


#: Refusal messages already written, by language, code and facts: a state carries a dozen or more, and
#: the same ones come back move after move (writing them was a tenth of a move's processor time).
_MESSAGES: dict[tuple[str, str, tuple[tuple[str, object], ...]], str] = {}
_MESSAGES_KEPT: Final = 20_000


def _message(lang: str, reason: Refusal) -> str:
    key = (lang, reason.code, tuple(reason.details.items()))
    try:
        return _MESSAGES[key]
    except KeyError:
        pass
    except TypeError:  # a fact that cannot be a key (none is today): written each time
        return reason.message(lang)
    if len(_MESSAGES) >= _MESSAGES_KEPT:
        _MESSAGES.clear()
    message = _MESSAGES[key] = reason.message(lang)
    return message


def _pairs(token: tuple[str, ...], removals: list[tuple[int, ...]]) -> dict[str, Partners]:
    """The view's ``pairs``: for each card of a removal, whether it goes alone and with which partners."""
    pairs: dict[str, Partners] = {}
    for removal in removals:
        for place in removal:
            entry = pairs.setdefault(token[place], {"alone": False, "with": []})
            if len(removal) == 1:
                entry["alone"] = True
            else:
                entry["with"].append([token[p] for p in removal if p != place])
    return pairs

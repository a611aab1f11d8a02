"""What the server's routes and the offline engine (:mod:`.offline`, run by Pyodide in the browser) answer
alike, free of any web framework: the rule sets offered (the New Game dialog's catalogue), the deal a new
game asks for, the record entry a move request names, and a game record's headers."""

from __future__ import annotations

import dataclasses
from functools import cache
from typing import Final, cast

from ..catalog import NoVerifiedDeal, earned, pick_deal
from ..deal import CodeError, Deal, DealError, parse_deal
from ..messages import Problem
from ..moves import PARK, MoveError
from ..record import Entry, Parked, parse_entry
from ..rule_strings import PRESET_ALIASES, choose_rules, find_rules
from ..rules import OPTIONS, PRESETS, RulesError
from .answers import OptionShown, PresetShown, RulesCatalogue
from .apierror import ApiError
from .play import Session
from .shapes import FieldValue

#: The fields of a new game's request that name a rule set: beside a code, they must name the code's.
RULES_FIELDS: Final = frozenset({"rules", "preset", "options"})


def new_deal(
    preset: str | None,
    options: dict[str, bool | int | str | None],
    rules_text: str = "classic",
    difficulty: str = "R",
    code: str | None = None,
    deal: str | None = None,
    rules_asked: bool = False,
) -> Deal:
    """The deal a new game asks for: a verified (E/N) or random (R) deal of a preset with options or of a
    rule string, a deal code (its difficulty letter checked; with ``rules_asked``, the rule set or preset
    the request also named must be the code's), or a custom deal in notation.  Raises
    :class:`.ApiError` (400 ``bad-rules``, ``bad-code``, ``bad-deal``, ``bad-request``; 503
    ``no-verified-deal``) with the reason."""
    try:
        if preset is not None:
            rules = choose_rules(preset, dict(options))
        elif options:
            raise RulesError("rules.options-without-preset")
        else:
            rules = find_rules(rules_text)
    except RulesError as exc:
        raise ApiError(400, "bad-rules", exc) from None
    if code is not None and deal is not None:
        raise ApiError(400, "bad-request", Problem("request.code-and-deal"))
    if code is not None:
        try:
            claimed = Deal.from_code(code)  # a code only: text that is no code is a bad code, not notation
        except DealError as exc:
            raise ApiError(400, "bad-code", exc) from None
        if rules_asked and claimed.rules != rules:  # as the command line: which of the two was meant?
            other = CodeError("code.other-rules", code=code.strip(), rules=str(claimed.rules), asked=str(rules))
            raise ApiError(400, "bad-code", other)
        return earned(claimed)  # its difficulty letter is a claim: labelled verified only if it is
    if deal is not None:
        try:
            return parse_deal(deal, rules)
        except CodeError as exc:
            raise ApiError(400, "bad-code", exc) from None
        except DealError as exc:
            raise ApiError(400, "bad-deal", exc) from None
    try:
        return pick_deal(rules, difficulty)
    except NoVerifiedDeal as exc:
        raise ApiError(503, "no-verified-deal", exc) from None


@cache
def rules_catalogue() -> RulesCatalogue:
    """The presets, each with its rule fields and the options the New Game dialog shows for it, all
    read from the options' own facts (rules.Option): the browser builds its controls from this and
    posts ``{preset, options}`` back, so it never writes a rule string or decides what a preset offers.
    Built once: the presets do not change while the app runs (callers must not change the answer)."""
    presets: list[PresetShown] = []
    for name, rules in PRESETS.items():
        options: list[OptionShown] = []
        for field, option in OPTIONS.items():
            if not option.label:
                continue
            value: FieldValue = getattr(rules, field)
            choices = list(option.choices) + ([] if value in option.choices or isinstance(value, bool) else [value])
            options.append(
                {
                    "key": option.key,
                    "field": field,
                    "label": option.label,
                    "value": value,
                    "kind": "flag" if isinstance(value, bool) else "choice",
                    "choices": choices,
                    "offered": option.offered_by(rules),
                }
            )
        presets.append(
            {
                "id": name,
                "rules": str(rules),
                "aliases": sorted(a for a, p in PRESET_ALIASES.items() if p == name),
                # every field of Rules is a bool, an int, a str or None (rules.py)
                "fields": cast(dict[str, FieldValue], dataclasses.asdict(rules)),
                "has_stock": rules.stock_size > 0,
                "options": options,
            }
        )
    return {"presets": presets, "default": "classic"}


def move_entry(notation: str, cell: int | None) -> Entry:
    """The record entry a move request names: the move's notation, and the free cell to park in if
    given (a 400 for notation that is no move, or a cell given for what is no park)."""
    try:
        entry = parse_entry(notation)
    except MoveError as exc:
        raise ApiError(400, "bad-move", exc) from None
    if isinstance(entry, str):
        raise ApiError(400, "bad-move", Problem("request.event-not-move", event=entry))
    if cell is not None:
        if isinstance(entry, Parked):  # Qs>cell2 and a "cell" too
            raise ApiError(400, "bad-cell", Problem("request.cell-twice", move=notation))
        if entry.kind != PARK:
            raise ApiError(400, "bad-cell", Problem("request.cell-not-park"))
        entry = Parked(entry, cell)
    return entry


def record_headers(session: Session) -> dict[str, str]:
    """The headers of a game's record as the web app writes it: the rules and deal, then when it started
    and ended (milliseconds since 1970) and how."""
    headers = {"Rules": str(session.deal.rules), "Deal": session.deal.code, "Started": str(int(session.started * 1000))}
    if session.over and session.finished is not None:
        headers.update({"Ended": str(int(session.finished * 1000)), "Result": session.status})
    return headers

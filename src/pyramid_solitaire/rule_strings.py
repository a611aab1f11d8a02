"""Reading a rule set: a rule string (:func:`find_rules`) and the New Game dialog's choices
(:func:`choose_rules`).

A rule string is the preset id alone (``classic``) or the preset id with the options that differ from
it (``thirteen(jokers=2,triples=true)``); :func:`find_rules` also accepts the presets' other names
(:data:`PRESET_ALIASES`) and a few option spellings (:data:`KEY_ALIASES`).  ``str(rules)`` always prints
the canonical form (:mod:`.rules`), which reads back to the same rule set.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Final

from .messages import clipped
from .rules import FIELD_BY_KEY, OPTIONS, PRESETS, Rules, RulesError

#: Other spellings accepted on input, by the key they stand for (``recycles`` is read as passes - 1).
KEY_ALIASES: Final = {
    **{alias: option.key for option in OPTIONS.values() for alias in option.aliases},
    "recycles": "recycles",
}

PRESET_ALIASES: Final = {
    "default": "classic",
    "pyramid": "classic",
    "pyramide-app": "pyramide",
    "13": "thirteen",
    "microsoft": "msc",
    "ms": "msc",
    "microsoft-solitaire-collection": "msc",
    "strict": "traditional",
    "relaxed-pyramid": "relaxed",
    "tuts-tomb": "tuts_tomb",
    "tut": "tuts_tomb",
    "king-tut": "tuts_tomb",
    "king_tut": "tuts_tomb",
    "spanish-deck": "spanish",
    "48": "spanish",
    "14": "fourteen",
    "sum14": "fourteen",
    "overlap-pairs": "overlap",
    "six-rows": "six_rows",
    "21": "six_rows",
    "triangle-solitaire": "triangle",
    "reserve-row": "reserve",
    "pyramid-reserve": "reserve",
    "limited-waste": "limited_waste",
    "waste-limit": "limited_waste",
    "free-cell": "cells",
    "free_cell": "cells",
    "freecell": "cells",
}

_RULES_RE = re.compile(r"^\s*([A-Za-z0-9_-]+)\s*(?:\((.*)\))?\s*$", re.DOTALL)
_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}
_UNLIMITED = {"unlimited", "none", "inf", "infinite", "∞"}
#: Digits past any option's range; and how much of a bad value a message quotes.
MAX_DIGITS: Final = 9
SHOWN: Final = 40


def _parse_value(key: str, text: str, current: object) -> object:
    word = text.strip().lower()
    name = FIELD_BY_KEY[key]
    if name == "strict" and word in ("strict", "relaxed"):
        return word == "strict"
    if isinstance(current, bool):
        if word in _TRUE:
            return True
        if word in _FALSE:
            return False
        raise RulesError("rules.option-flag", key=key, value=text)
    option = OPTIONS[name]
    if option.words:
        return word
    if option.unlimited and word in _UNLIMITED:
        return None
    if word.isdigit() and len(word) > MAX_DIGITS:  # more than any option takes (and than int() reads)
        raise RulesError("rules.option-too-large", key=key, value=clipped(word, MAX_DIGITS))
    try:
        return int(word)
    except ValueError:
        raise RulesError("rules.option-number", key=key, value=clipped(text, SHOWN)) from None


def _preset(name: str) -> Rules:
    """The preset named by its id or one of its aliases (any case); RulesError naming it if none is."""
    found = PRESET_ALIASES.get(name.lower(), name.lower())
    if found not in PRESETS:
        raise RulesError("rules.unknown", name=name, known=list(PRESETS))
    return PRESETS[found]


def find_rules(text: str | Rules = "classic") -> Rules:
    """The rule set named by ``text``: a preset id or alias, optionally with ``(key=value,...)`` options.

    Raises :class:`RulesError` naming the unknown preset, option or value.
    """
    if isinstance(text, Rules):
        return text
    match = _RULES_RE.match(text)
    if not match:
        raise RulesError("rules.not-rules", text=text)
    rules = _preset(match.group(1))
    options_text = match.group(2)
    if options_text is None or not options_text.strip():
        return rules
    changes: dict[str, object] = {}
    for item in options_text.split(","):
        key, sep, value = item.partition("=")
        key = key.strip().lower()
        if not sep:
            raise RulesError("rules.option-value", option=clipped(item.strip(), SHOWN))
        if key == "win":
            key, value = "strict", value
        key = KEY_ALIASES.get(key, key)
        field_name = "passes" if key == "recycles" else FIELD_BY_KEY.get(key)
        if field_name is None:
            raise RulesError("rules.unknown-option", key=clipped(key, SHOWN), known=list(FIELD_BY_KEY))
        if field_name in changes:  # jokers=2,jokers=1 (or passes and recycles): which one was meant?
            raise RulesError("rules.option-twice", key=OPTIONS[field_name].key)
        if key == "recycles":
            recycles = _parse_value("passes", value, None)
            changes["passes"] = None if recycles is None else int(str(recycles)) + 1
            continue
        changes[field_name] = _parse_value(key, value, getattr(rules, field_name))
    try:
        return dataclasses.replace(rules, **changes)  # type: ignore[arg-type]
    except TypeError as exc:  # pragma: no cover - replace() only sees known field names
        raise RulesError("rules.options", reason=str(exc)) from None


def choose_rules(preset: str, chosen: dict[str, object]) -> Rules:
    """The rule set the New Game dialog describes: a preset (id or alias) and option values by key, each
    a flag, a number, ``None`` for unlimited, or text as a rule string writes it.  The canonical string
    is then ``str()`` of the result, so the browser never has to build one."""
    rules = _preset(preset)
    changes: dict[str, object] = {}
    for key, value in chosen.items():
        name = FIELD_BY_KEY.get(KEY_ALIASES.get(key, key))
        if name is None:
            raise RulesError("rules.unknown-option", key=key, known=list(FIELD_BY_KEY))
        current = getattr(rules, name)
        if isinstance(value, str):
            changes[name] = _parse_value(OPTIONS[name].key, value, current)
        elif value is None and not OPTIONS[name].unlimited:
            raise RulesError("rules.option-number", key=key, value="null")
        elif isinstance(current, bool) != isinstance(value, bool) or not isinstance(value, (bool, int, type(None))):
            kind = "rules.option-flag" if isinstance(current, bool) else "rules.option-number"
            raise RulesError(kind, key=key, value=str(value))
        else:
            changes[name] = value
    return dataclasses.replace(rules, **changes)  # type: ignore[arg-type]


__all__ = ["KEY_ALIASES", "PRESET_ALIASES", "choose_rules", "find_rules"]

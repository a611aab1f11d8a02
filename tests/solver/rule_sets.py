"""The rule sets the solver's tests run on, made from the rules' own presets and options instead of
written by hand, so that a new preset, a new option or a new value of one enters them by itself.

* every preset;
* every value of every option (its choices, its words, the other boolean, or the sample values of
  :func:`values`) on the first of :data:`BASES` that takes it with nothing else changed;
* each option that a fast path does not play as the table does (``solver/paths.py``: the options not
  in ``ALL``, such as jokers, triples, free cells, a limit on waste uses; and those in :data:`OWN_CODE`),
  with its first value, on every base that takes it (each base a stock model of its own), and every two
  of them together on the first base that takes both: where the solver's own code for one meets its
  code for the other.

A test takes the rule sets of its concern by what the solver does with them (:func:`of_kind`: the fast
successors, the C loops, the stronger skip, free cells…), never by name.  ``test_paths.py`` checks each
option's claim in ``solver/paths.py`` on :func:`variants`.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable
from functools import cache

from pyramid_solitaire import Deal
from pyramid_solitaire.rule_strings import find_rules
from pyramid_solitaire.rules import OPTIONS, PRESETS, Rules, RulesError
from pyramid_solitaire.solver.paths import ALL, HANDLED
from pyramid_solitaire.solver.space import SearchSpace
from pyramid_solitaire.table import Table

#: The presets an option's value is tried on, in turn, until one takes it (jokers and triples are
#: thirteen's options; several waste piles need one pass, as Apophis has).
BASES = ("classic", "thirteen", "apophis", "giza")
#: Piles of several cards need piles: their depth is tried on the reserve row's preset.
BASE_FOR = {"reserve_depth": ("reserve",)}
#: Options that change no move and no win (the score, how many operations may be taken back): a rule
#: set differing only in them plays as its base, so only test_paths tries them.
NO_PLAY = frozenset({"scoring", "undo_limit"})
#: Options every path plays, but each with code of its own in the solver (several cards a draw, several
#: waste piles: the C loops' draws and usable cards, the bound that stops at the removal steps; reserve
#: piles: the layout's masks behind the cuts and the bound; jokers: their moves, the relaxed game's
#: value 0 and the bound in which each joker left stands in for a stock card; triples: their moves and
#: the bound of a third of the pyramid): still tried on every base
#: and paired with the options no fast path plays, as when the C loops left them out.
OWN_CODE = frozenset({"draw", "waste_piles", "reserve_depth", "jokers", "triples", "cells"})
#: the places of a 7-row pyramid
PYRAMID_PLACES = 28


def values(name: str) -> list[object]:
    """The values of option ``name`` other than classic's."""
    option = OPTIONS[name]
    default = getattr(PRESETS["classic"], name)
    if option.choices:
        found: list[object] = [value for value in option.choices if value != default]
    elif option.words:
        found = [word for word in option.words if word != default]
    elif isinstance(default, bool):
        found = [not default]
    elif name == "passes":
        found = [1, 2, None]
    elif name == "undo_limit":
        found = [5]
    elif name == "target":
        found = [14]
    elif name == "deck":
        found = [48]
    elif name == "rows":
        found = [6]
    elif name == "reserve":
        found = [4]
    elif name == "reserve_depth" or name == "waste_piles":
        found = [2]
    else:
        raise AssertionError(f"no sample values for {name}: add them here")
    return found


def _taken(base: str, changes: dict[str, object]) -> Rules | None:
    """``base`` with ``changes``, if the game would deal that rule set."""
    try:
        rules = dataclasses.replace(PRESETS[base], **changes)
        find_rules(str(rules))
    except (RulesError, ValueError):
        return None
    return rules


@cache
def variants() -> list[tuple[str, object, Rules]]:
    """Each option value on the first base that takes it with nothing else changed; a value that needs
    others with it (a sum of 14 has no lone kings; the 48-card deck sums to 12) on the first preset that
    has it."""
    out = []
    for name in OPTIONS:
        for value in values(name):
            rules = next((found for base in BASE_FOR.get(name, BASES) if (found := _taken(base, {name: value}))), None)
            if rules is None:
                rules = next((r for r in PRESETS.values() if getattr(r, name) == value), None)
                assert rules is not None, f"no preset takes {name}={value}"
            out.append((name, value, rules))
    return out


def special() -> list[Rules]:
    """Each option no fast path plays as the table does (or one of :data:`OWN_CODE`), with its first
    value, on every base that takes it; and every two of them on the first base that takes both (none for
    two that never go together)."""
    names = [name for name in OPTIONS if HANDLED[name] != ALL or name in OWN_CODE]
    out = [
        rules
        for name in names
        for base in BASE_FOR.get(name, BASES)
        if (rules := _taken(base, {name: values(name)[0]}))
    ]
    for first, second in itertools.combinations(names, 2):
        changes = {first: values(first)[0], second: values(second)[0]}
        bases = BASE_FOR.get(first, ()) + BASE_FOR.get(second, ()) or BASES
        found = next((rules for base in bases if (rules := _taken(base, changes))), None)
        if found is not None:
            out.append(found)
    return out


@cache
def rule_sets() -> tuple[str, ...]:
    """Every rule set of the module docstring, once each, as rule strings (pytest's ids)."""
    made = [*PRESETS.values(), *(rules for name, _, rules in variants() if name not in NO_PLAY), *special()]
    return tuple(dict.fromkeys(str(rules) for rules in made))


@cache
def _space(rules: str) -> SearchSpace:
    return SearchSpace(Table(Deal.from_number(0, rules)))


def heavy(space: SearchSpace) -> bool:
    """True for triples over a layout larger than the pyramid (Giza's piles, the reserve): the relaxed
    game behind every cut of the search then takes minutes on a single position."""
    return space.triples and space.P > PYRAMID_PLACES


def of_kind(kind: Callable[[SearchSpace], bool], with_heavy: bool = False) -> list[str]:
    """The rule sets whose search space (of deal 0) is of ``kind``; without the :func:`heavy` ones
    unless ``with_heavy`` (for the tests that search nothing)."""
    return [rules for rules in rule_sets() if kind(_space(rules)) and (with_heavy or not heavy(_space(rules)))]


def with_each(rules: str, name: str) -> list[str]:
    """``rules`` and ``rules`` with each other value of option ``name``."""
    base = find_rules(rules)
    others = [value for value in values(name) if value != getattr(base, name)]
    return [rules, *(str(dataclasses.replace(base, **{name: value})) for value in others)]

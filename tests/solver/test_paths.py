"""Every option of the rules is classified by the solver's paths that play it (solver/paths.py), and each
claim holds: a rule set setting an option a path does not play never reaches that path, and one setting
only an option it plays does.  The rule sets are made from each option's own values (its choices, its
words, the other boolean), on the first preset that takes them."""

from __future__ import annotations

import dataclasses
from functools import cache

import pytest

from pyramid_solitaire import Deal
from pyramid_solitaire.rule_strings import find_rules
from pyramid_solitaire.rules import OPTIONS, PRESETS, Rules, RulesError
from pyramid_solitaire.solver import search
from pyramid_solitaire.solver.paths import FAST, HANDLED, C
from pyramid_solitaire.solver.space import SearchSpace
from pyramid_solitaire.table import Table

#: The presets an option's value is tried on, in turn, until one takes it (jokers and triples are
#: thirteen's options; several waste piles need one pass, as Apophis has).
BASES = ("classic", "thirteen", "apophis", "giza")
#: Piles of several cards need piles: their depth is tried on the reserve row's preset.
BASE_FOR = {"reserve_depth": ("reserve",)}


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


@cache
def variants() -> list[tuple[str, object, Rules]]:
    """Each option value on the first preset that takes it with nothing else changed; a value that
    needs others with it (a sum of 14 has no lone kings; the 48-card deck sums to 12) on the first
    preset that has it."""
    out = []
    for name in OPTIONS:
        for value in values(name):
            for base in BASE_FOR.get(name, BASES):
                try:
                    rules = dataclasses.replace(PRESETS[base], **{name: value})
                    find_rules(str(rules))  # a rule set the game would deal
                except (RulesError, ValueError):
                    continue
                out.append((name, value, rules))
                break
            else:
                preset = next((r for r in PRESETS.values() if getattr(r, name) == value), None)
                assert preset is not None, f"no preset takes {name}={value}"
                out.append((name, value, preset))
    return out


def changed(rules: Rules) -> set[str]:
    """The fields of ``rules`` that play differently from its base preset's (classic for a preset)."""
    base = PRESETS["classic"] if rules == PRESETS.get(rules.preset) else PRESETS[rules.preset]
    return {f.name for f in dataclasses.fields(Rules) if getattr(rules, f.name) != getattr(base, f.name)} - {"preset"}


def space_of(rules: Rules) -> SearchSpace:
    return SearchSpace(Table(Deal.from_number(1, rules)))


def test_every_field_of_the_rules_is_classified() -> None:
    fields = {field.name for field in dataclasses.fields(Rules)}
    assert set(HANDLED) == fields, f"classify in solver/paths.py: {sorted(fields - set(HANDLED))}"


def test_every_option_has_values_to_try_on_some_preset() -> None:
    tried = {name for name, _, _ in variants()}
    assert tried == set(OPTIONS) - {name for name in OPTIONS if not values(name)}
    assert len(variants()) >= 30


@pytest.mark.parametrize(("name", "value", "rules"), variants(), ids=[f"{n}={v}" for n, v, _ in variants()])
def test_a_path_gets_a_rule_set_only_if_it_plays_its_options(name: str, value: object, rules: Rules) -> None:
    fields = changed(rules) | {name}
    space = space_of(rules)
    if any(FAST not in HANDLED[field] for field in fields):
        assert not space.fast
    if any(C not in HANDLED[field] for field in fields):
        assert not search._c_search_fits(space), f"the C loop would ignore {name}={value}"
    elif search._c_search_fits(space_of(PRESETS["classic"])) and not (rules.stock_top_usable and rules.drawn_spot):
        # options the C loop plays: it takes the rule set, unless its positions outgrow what a C position
        # holds (32 places, 64 bits), which the loop says for itself
        too_big = space.P > 32 or space.rec_shift + search.REC_BITS > 64
        assert search._c_search_fits(space) or too_big, f"{name}={value}: {sorted(fields)}"

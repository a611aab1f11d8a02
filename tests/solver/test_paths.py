"""Every option of the rules is classified by the solver's paths that play it (solver/paths.py), and each
claim holds: a rule set setting an option a path does not play never reaches that path, and one setting
only an option it plays does.  The rule sets are made from each option's own values (its choices, its
words, the other boolean), on the first preset that takes them (``rule_sets.variants``, which the other
solver tests' rule sets start from too)."""

from __future__ import annotations

import dataclasses

import pytest
from rule_sets import values, variants

from pyramid_solitaire import Deal
from pyramid_solitaire.rules import OPTIONS, PRESETS, Rules
from pyramid_solitaire.solver import search
from pyramid_solitaire.solver.paths import FAST, HANDLED, C
from pyramid_solitaire.solver.space import SearchSpace
from pyramid_solitaire.table import Table


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
    elif (
        search._c_search_fits(space_of(PRESETS["classic"]))
        and not (rules.stock_top_usable and rules.drawn_spot)
        and not (rules.waste_piles > 1 and rules.draw == 1)
    ):
        # options the C loop plays: it takes the rule set, unless its positions outgrow what a C position
        # holds (64 places, 64 bits), which the loop says for itself
        too_big = space.P > search.MAX_SLOTS or space.cell_shift > 64
        assert search._c_search_fits(space) or too_big, f"{name}={value}: {sorted(fields)}"

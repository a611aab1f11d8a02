"""Rule sets as data: preset ids and aliases, the string form that round-trips, errors, and the preset facts."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pyramid_solitaire.deal import Deal
from pyramid_solitaire.game import Game
from pyramid_solitaire.moves import Move
from pyramid_solitaire.rule_strings import PRESET_ALIASES, find_rules
from pyramid_solitaire.rules import PRESETS, Rules, RulesError

PRESET_IDS = [
    "classic",
    "pyramide",
    "thirteen",
    "msc",
    "traditional",
    "relaxed",
    "tuts_tomb",
    "spanish",
    "fourteen",
    "overlap",
    "six_rows",
    "giza",
    "reserve",
    "triangle",
    "apophis",
    "limited_waste",
    "cells",
]


# --- finding rule sets ------------------------------------------------------------------------------


def test_the_catalogue_holds_the_rule_sets_of_the_rules_page() -> None:
    assert sorted(PRESETS) == sorted(PRESET_IDS)


@pytest.mark.parametrize("preset", PRESET_IDS)
def test_every_preset_id_is_found_and_prints_as_itself(preset: str) -> None:
    rules = find_rules(preset)
    assert rules == PRESETS[preset]
    assert str(rules) == preset
    assert rules.preset == preset


@pytest.mark.parametrize(("alias", "preset"), sorted(PRESET_ALIASES.items()))
def test_every_alias_finds_its_preset_and_prints_the_preset_id(alias: str, preset: str) -> None:
    rules = find_rules(alias)
    assert rules == PRESETS[preset]
    assert str(rules) == preset


def test_the_default_rule_set_is_classic() -> None:
    assert find_rules() == PRESETS["classic"]


@pytest.mark.parametrize("text", ["CLASSIC", "Classic", "  classic  ", "classic()"])
def test_preset_names_ignore_case_spaces_and_empty_options(text: str) -> None:
    assert find_rules(text) == PRESETS["classic"]


def test_find_rules_passes_a_rules_object_through() -> None:
    rules = PRESETS["thirteen"].with_options(jokers=1)
    assert find_rules(rules) is rules


# --- the string form ----------------------------------------------------------------------------------

CANONICAL_COMBOS = [
    "thirteen(jokers=2,triples=true)",
    "thirteen(open=true)",
    "classic(passes=unlimited,overlap=true)",
    "msc(strict=true)",
    "classic(target=14,lone_kings=false)",
    "classic(rows=6)",
]


@pytest.mark.parametrize("text", CANONICAL_COMBOS)
def test_an_option_combo_in_canonical_form_prints_back_unchanged(text: str) -> None:
    assert str(find_rules(text)) == text


@pytest.mark.parametrize("text", [*CANONICAL_COMBOS, "classic(deck=48,target=12)", "thirteen(triples=true,jokers=2)"])
def test_an_option_combo_round_trips_through_its_string_form(text: str) -> None:
    rules = find_rules(text)
    assert find_rules(str(rules)) == rules
    assert str(find_rules(str(rules))) == str(rules)


def test_options_written_in_any_order_name_the_same_rules() -> None:
    assert find_rules("classic(deck=48,target=12)") == find_rules("classic(target=12,deck=48)")
    assert find_rules("thirteen(triples=true,jokers=2)") == find_rules("thirteen(jokers=2,triples=true)")


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        ("thirteen(jokers=2,triples=true)", "jokers", 2),
        ("thirteen(jokers=2,triples=true)", "triples", True),
        ("thirteen(open=true)", "open_pyramid", True),
        ("classic(passes=unlimited,overlap=true)", "passes", None),
        ("classic(passes=unlimited,overlap=true)", "overlap", True),
        ("msc(strict=true)", "strict", True),
        ("classic(target=14,lone_kings=false)", "target", 14),
        ("classic(target=14,lone_kings=false)", "lone_kings", False),
        ("classic(deck=48,target=12)", "deck", 48),
        ("classic(deck=48,target=12)", "target", 12),
        ("classic(rows=6)", "rows", 6),
        ("classic(passes=2)", "passes", 2),
        ("classic(recycles=0)", "passes", 1),
        ("pyramide(undo_limit=unlimited)", "undo_limit", None),
        ("classic(stock_top=true)", "stock_top_usable", True),
        ("classic(drawn=true)", "drawn_spot", True),
    ],
)
def test_each_option_sets_its_field(text: str, field: str, value: object) -> None:
    assert getattr(find_rules(text), field) == value


def test_options_leave_the_other_fields_of_the_preset_alone() -> None:
    rules = find_rules("thirteen(jokers=2)")
    assert rules.with_options(jokers=0) == PRESETS["thirteen"]


def test_option_keys_and_values_ignore_case_and_spaces() -> None:
    assert find_rules("Thirteen( Jokers = 2 , TRIPLES = True )") == find_rules("thirteen(jokers=2,triples=true)")


def test_an_option_set_to_the_preset_value_is_not_printed() -> None:
    assert str(find_rules("classic(passes=3)")) == "classic"
    assert str(find_rules("thirteen(passes=4,drawn=true)")) == "thirteen"


def test_the_win_option_chooses_a_strict_or_relaxed_win() -> None:
    # rules.py spells the option out (key "win", values "strict"/"relaxed"), and docs/rules.md names
    # "strict (all 52 cards) or relaxed win" as an option any rule set may combine.
    assert find_rules("traditional(win=relaxed)").strict is False
    assert find_rules("classic(win=strict)").strict is True


_OPTION_VALUES: dict[str, st.SearchStrategy[Any]] = {
    "passes": st.sampled_from([None, 1, 2, 3, 4, 5, 9]),
    "strict": st.booleans(),
    "overlap": st.booleans(),
    "stock_top_usable": st.booleans(),
    "drawn_spot": st.booleans(),
    "stock_waste_pairs": st.booleans(),
    "waste_start": st.booleans(),
    "draw": st.integers(1, 3),
    "open_pyramid": st.booleans(),
    "jokers": st.integers(0, 2),
    "triples": st.booleans(),
    "target": st.sampled_from([12, 13, 14]),
    "lone_kings": st.booleans(),
    "deck": st.sampled_from([52, 48]),
    "rows": st.sampled_from([7, 6]),
    "scoring": st.sampled_from(["none", "pyramide"]),
    "undo_limit": st.one_of(st.none(), st.integers(1, 1000)),
    "reserve": st.integers(0, 8),
    "reserve_depth": st.integers(1, 3),
    "inverted": st.booleans(),
    "waste_piles": st.integers(1, 3),
    "waste_uses": st.one_of(st.none(), st.integers(1, 48)),
}


@st.composite
def rule_sets(draw: st.DrawFn) -> Rules:
    """Any valid rule set: a preset with any subset of its options changed."""
    preset = draw(st.sampled_from(PRESET_IDS))
    keys = draw(st.sets(st.sampled_from(sorted(_OPTION_VALUES))))
    options = {key: draw(_OPTION_VALUES[key]) for key in sorted(keys)}
    rules = PRESETS[preset]
    if options.get("stock_top_usable", rules.stock_top_usable) and options.get("drawn_spot", rules.drawn_spot):
        options["drawn_spot"] = False
        options["stock_top_usable"] = True
    # several cards a draw go onto the waste, whose top alone is usable
    if options.get("stock_top_usable", rules.stock_top_usable) or options.get("drawn_spot", rules.drawn_spot):
        options["draw"] = 1
    # the sum follows the deck (12 with the 48-card deck, and only with it), and at 14 nothing goes alone
    deck, target = options.get("deck", rules.deck), options.get("target", rules.target)
    target = 12 if deck == 48 else 13 if target == 12 else target
    options["deck"], options["target"] = deck, target
    options["lone_kings"] = target != 14
    # the layout must fit the deck; one that takes every card leaves no stock to set options of
    rows = options.get("rows", rules.rows)
    piles, depth = options.get("reserve", rules.reserve), options.get("reserve_depth", rules.reserve_depth)
    if rows * (rows + 1) // 2 + piles * depth > deck:
        options["reserve"] = piles = 0
    if rows * (rows + 1) // 2 + piles * depth == deck:  # no stock: no waste piles either
        options["waste_piles"] = 1
    if (
        rows * (rows + 1) // 2 + piles * depth == deck or options.get("waste_piles", rules.waste_piles) > 1
    ):  # no stock, or one dealt once onto piles
        options.update(passes=1, draw=1, waste_start=False, stock_top_usable=False, drawn_spot=False)
    uses = options.pop("waste_uses", rules.waste_uses)
    unlimited = rules.with_options(**options, waste_uses=None)
    # a limit needs a stock; and a strict win must take every stock card, each from the waste where
    # neither the stock top nor a drawn card is usable, so the uses must be able to take them all
    if uses is not None and (
        not unlimited.stock_size
        or (
            unlimited.strict
            and unlimited.stock_only_from_waste
            and uses * unlimited.stock_cards_per_waste_use < unlimited.stock_size
        )
    ):
        uses = None
    options["waste_uses"] = uses
    return rules.with_options(**options)


@settings(max_examples=300, deadline=None)
@given(rule_sets())
def test_any_rule_set_round_trips_through_its_string_form(rules: Rules) -> None:
    text = str(rules)
    assert find_rules(text) == rules
    assert str(find_rules(text)) == text


# --- refusals ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "culprit"),
    [
        ("nope", "nope"),
        ("klondike(passes=3)", "klondike"),
        ("classic(bogus=1)", "bogus"),
        ("classic(passes=x)", "passes"),
        ("classic(passes=x)", "'x'"),
        ("classic(strict=maybe)", "maybe"),
        ("thirteen(jokers=3)", "jokers"),
        ("thirteen(jokers=3)", "3"),
        ("classic(passes=0)", "passes"),
        ("classic(passes=10)", "passes"),
        ("classic(target=15)", "15"),
        ("classic(deck=50)", "50"),
        ("classic(rows=8)", "8"),
        ("classic(scoring=golf)", "golf"),
        ("classic(undo_limit=0)", "undo_limit"),
        ("classic(passes)", "passes"),
        ("classic(deck=48)", "target=12"),
        ("classic(target=12)", "deck=48"),
        ("classic(target=14)", "lone_kings=false"),
        ("classic(lone_kings=false)", "target=14"),
        ("classic(stock_top=true,drawn=true)", "stock_top"),
        ("classic(stock_top=true,drawn=true)", "drawn"),
        ("msc(drawn=true)", "drawn"),
        ("classic(passes=3", "classic(passes=3"),
        ("classic(reserve=9)", "reserve"),
        ("classic(reserve=2,reserve_depth=4)", "reserve_depth"),
        ("classic(reserve=8,reserve_depth=3,deck=48,target=12)", "need 52 cards; the deck has 48"),
        ("classic(reserve=8,reserve_depth=4)", "reserve_depth"),
        ("giza(passes=3)", "no stock"),
        ("giza(draw=3)", "draw"),
        ("giza(stock_top=true)", "stock_top"),
        ("pyramide(reserve=8,reserve_depth=3)", "waste_start"),
        ("apophis(passes=3)", "passes=1"),
        ("giza(waste_piles=3)", "waste_piles"),
        ("apophis(draw=3)", "draw"),
        ("apophis(stock_top=true)", "stock_top"),
        ("classic(waste_piles=4)", "waste_piles must be 1-3"),
        ("thirteen(jokers=2,jokers=1)", "option jokers is given twice"),
        ("classic(passes=2,recycles=1)", "option passes is given twice"),
        ("classic(undo_limit=10000)", "undo_limit must be 1-9999 or unlimited, not 10000"),
        (f"classic(undo_limit={'9' * 5000})", "option undo_limit takes a number far smaller than 999999999…"),
    ],
)
def test_bad_rule_set_text_raises_a_rules_error_naming_the_culprit(text: str, culprit: str) -> None:
    with pytest.raises(RulesError) as excinfo:
        find_rules(text)
    assert culprit in str(excinfo.value)


def test_a_rules_error_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        find_rules("nope")


def test_building_rules_directly_is_validated_too() -> None:
    with pytest.raises(RulesError, match="jokers"):
        Rules(jokers=3)
    with pytest.raises(RulesError, match="passes"):
        PRESETS["classic"].with_options(passes=0)


# --- the preset facts of docs/rules.md ---------------------------------------------------------------------


def _start(preset: str) -> tuple[Deal, Game]:
    deal = Deal.from_number(7, preset)
    return deal, Game(deal)


def test_classic_has_three_passes_and_an_open_pyramid_and_no_score() -> None:
    rules = PRESETS["classic"]
    assert rules.passes == 3
    assert rules.open_pyramid
    assert not rules.waste_start
    assert not rules.strict
    assert rules.scoring == "none"
    assert rules.undo_limit is None
    _, game = _start("classic")
    assert game.stock_left == 24
    assert game.summary()["waste"] == []
    assert game.score is None
    assert game.stock_label("ja") == "1/3周目 · 残り 24"


def test_pyramide_has_unlimited_passes_a_waste_card_at_start_its_scoring_and_100_undos() -> None:
    rules = PRESETS["pyramide"]
    assert rules.passes is None
    assert rules.waste_start
    assert rules.scoring == "pyramide"
    assert rules.undo_limit == 100
    deal, game = _start("pyramide")
    assert game.summary()["waste"] == [str(deal.cards[28])]
    assert game.stock_left == 23
    assert game.score == 0


def test_thirteen_has_four_passes_a_drawn_spot_and_face_down_rows() -> None:
    rules = PRESETS["thirteen"]
    assert rules.passes == 4
    assert rules.drawn_spot
    assert not rules.open_pyramid
    deal, game = _start("thirteen")
    pyramid = game.view()["pyramid"]
    assert all(slot["card"] is None for slot in pyramid if slot["row"] < 7)
    assert [slot["card"] for slot in pyramid if slot["row"] == 7] == [str(c) for c in deal.cards[21:28]]
    game.push(Move.draw())
    game.push(Move.draw())
    view = game.view()
    assert view["drawn"] == str(deal.cards[29])
    assert view["waste"]["top"] == str(deal.cards[28])
    assert {str(deal.cards[28]), str(deal.cards[29])} <= set(view["usable"])


def test_thirteen_open_shows_every_pyramid_card() -> None:
    deal = Deal.from_number(7, "thirteen(open=true)")
    pyramid = Game(deal).view()["pyramid"]
    assert [slot["card"] for slot in pyramid] == [str(c) for c in deal.cards[:28]]


def test_msc_has_a_usable_stock_top_and_three_passes() -> None:
    rules = PRESETS["msc"]
    assert rules.stock_top_usable
    assert rules.passes == 3
    assert not rules.drawn_spot
    assert not rules.strict
    deal, game = _start("msc")
    view = game.view()
    assert view["stock"]["top"] == str(deal.cards[28])
    assert view["stock"]["usable"]
    assert str(deal.cards[28]) in view["usable"]


def test_traditional_has_one_pass_a_drawn_spot_and_a_strict_win() -> None:
    rules = PRESETS["traditional"]
    assert rules.passes == 1
    assert rules.strict
    assert rules.drawn_spot
    assert rules.stock_waste_pairs


def test_relaxed_is_traditional_with_a_relaxed_win() -> None:
    assert PRESETS["relaxed"] == PRESETS["traditional"].with_options(preset="relaxed", strict=False)


def test_giza_deals_every_card_to_the_pyramid_and_eight_piles_of_three() -> None:
    rules = PRESETS["giza"]
    assert (rules.pyramid_size, rules.reserve, rules.reserve_depth, rules.stock_size) == (28, 8, 3, 0)
    assert rules.strict  # every card must go; with no stock left over that is the only win
    deal = Deal.from_number(7, "giza")
    assert deal.pyramid == deal.cards[:28]
    assert deal.reserve == deal.cards[28:]
    assert deal.stock == ()


def test_reserve_puts_seven_cards_under_the_pyramid_and_the_rest_in_the_stock() -> None:
    rules = PRESETS["reserve"]
    assert (rules.reserve, rules.reserve_depth, rules.stock_size, rules.passes) == (7, 1, 17, 3)
    deal = Deal.from_number(7, "reserve")
    assert len(deal.reserve) == 7
    assert deal.stock == deal.cards[35:]
    assert find_rules("reserve(reserve=6)").stock_size == 18  # "7 (or 6)" cards, seed 002


def test_triangle_is_classic_upside_down() -> None:
    rules = PRESETS["triangle"]
    assert rules.inverted
    assert rules.with_options(preset="classic", inverted=False) == PRESETS["classic"]


def test_apophis_deals_one_pass_onto_three_waste_piles() -> None:
    rules = PRESETS["apophis"]
    assert (rules.waste_piles, rules.passes, rules.deal_count, rules.strict) == (3, 1, 3, False)

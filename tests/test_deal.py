"""Deals: the notation of docs/rules.md, the documented shuffle, short and full deal codes, and the golden codes."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pyramid_solitaire.cards import Card, full_deck, spanish_deck
from pyramid_solitaire.deal import MAX_NUMBER, CodeError, Deal, DealError, parse_deal
from pyramid_solitaire.rule_strings import find_rules
from pyramid_solitaire.rules import PRESETS

GOLDEN = Path(__file__).resolve().parent / "golden" / "codes.txt"
SPANISH = "classic(deck=48,target=12)"
ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
SHORT_CODE = re.compile(r"^[A-Z]{2}[0-9][A-Z0-9]*-[ENR]-[A-Z]{7}$")


def _tokens(deal: Deal) -> list[str]:
    return deal.notation.split(" ")


# --- notation -------------------------------------------------------------------------------------


@pytest.mark.parametrize("number", [0, 1, 18, 12345, MAX_NUMBER])
def test_notation_prints_and_parses_back_to_the_same_cards(number: int) -> None:
    deal = Deal.from_number(number)
    again = Deal.from_notation(deal.notation)
    assert again.cards == deal.cards
    assert again.notation == deal.notation


def test_notation_is_52_canonical_tokens_separated_by_single_spaces() -> None:
    tokens = _tokens(Deal.from_number(3))
    assert len(tokens) == 52
    assert all(re.fullmatch(r"[A2-9TJQK][cdhs]", token) for token in tokens)


def test_symbols_tens_and_any_case_are_accepted_and_printed_canonically() -> None:
    deal = Deal.from_number(42)
    spelled = [card.symbol if i % 2 else str(card).lower() for i, card in enumerate(deal.cards)]
    assert any(token.startswith("10") for token in spelled)
    parsed = Deal.from_notation("\n".join(" \t".join(spelled[i : i + 7]) for i in range(0, 52, 7)))
    assert parsed.notation == deal.notation


def test_the_pyramid_is_the_first_28_tokens_and_the_stock_the_rest_in_dealing_order() -> None:
    deal = Deal.from_number(11)
    assert deal.pyramid == deal.cards[:28]
    assert deal.stock == deal.cards[28:]
    six_rows = Deal.from_number(11, "classic(rows=6)")
    assert len(six_rows.pyramid) == 21
    assert len(six_rows.stock) == 31


@settings(max_examples=100, deadline=None)
@given(st.permutations(full_deck()))
def test_any_order_of_the_deck_is_a_deal_that_prints_back(cards: list[Card]) -> None:
    text = " ".join(str(c) for c in cards)
    deal = Deal.from_notation(text)
    assert deal.cards == tuple(cards)
    assert deal.notation == text


def _refusal(text: str, rules: str = "classic") -> str:
    with pytest.raises(DealError) as excinfo:
        Deal.from_notation(text, rules)
    return str(excinfo.value)


def test_a_deal_one_card_short_is_refused_naming_the_count_and_the_missing_card() -> None:
    tokens = _tokens(Deal.from_number(5))
    gone = tokens.pop(17)
    message = _refusal(" ".join(tokens))
    assert "expected 52 cards, got 51" in message
    assert re.search(rf"missing\b.*\b{gone}\b", message)


def test_a_deal_with_a_53rd_card_is_refused_naming_the_count_and_the_repeat() -> None:
    tokens = _tokens(Deal.from_number(5))
    extra = tokens[3]
    message = _refusal(" ".join([*tokens, extra]))
    assert "expected 52 cards, got 53" in message
    assert re.search(rf"repeated\b.*\b{extra}\b", message)


def test_a_repeated_card_is_refused_naming_it_and_the_card_it_pushed_out() -> None:
    tokens = _tokens(Deal.from_number(5))
    lost, twice = tokens[40], tokens[2]
    tokens[40] = twice
    message = _refusal(" ".join(tokens))
    assert re.search(rf"repeated\b.*\b{twice}\b", message)
    assert re.search(rf"missing\b.*\b{lost}\b", message)
    assert "expected" not in message


def test_an_unknown_token_is_refused_naming_it_and_its_position() -> None:
    tokens = _tokens(Deal.from_number(5))
    tokens[4] = "Zz"
    message = _refusal(" ".join(tokens))
    assert "token 5" in message
    assert "Zz" in message


def test_a_joker_in_the_notation_is_refused_naming_its_position() -> None:
    tokens = _tokens(Deal.from_number(5))
    tokens[30] = "X1"
    message = _refusal(" ".join(tokens), "thirteen(jokers=1)")
    assert "token 31" in message
    assert "joker" in message


def test_an_empty_deal_is_refused_naming_the_count() -> None:
    assert "expected 52 cards, got 0" in _refusal("   ")


def test_a_deal_error_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        Deal.from_notation("Ac")


def test_the_48_card_deck_takes_48_cards_without_tens() -> None:
    text = " ".join(str(c) for c in reversed(spanish_deck()))
    deal = Deal.from_notation(text, SPANISH)
    assert deal.notation == text
    assert len(deal.pyramid) == 28
    assert len(deal.stock) == 20


def test_the_48_card_deck_refuses_a_ten_naming_it_and_its_position() -> None:
    tokens = [str(c) for c in spanish_deck()]
    tokens[6] = "Ts"
    message = _refusal(" ".join(tokens), SPANISH)
    assert "token 7" in message
    assert "Ts" in message


def test_the_48_card_deck_refuses_a_52_card_deal() -> None:
    tokens = [str(c) for c in full_deck()]
    message = _refusal(" ".join(tokens), SPANISH)
    first_ten = tokens.index("Tc") + 1
    assert f"token {first_ten}" in message
    assert "Tc" in message


def test_the_48_card_deck_names_the_count_when_short() -> None:
    tokens = [str(c) for c in spanish_deck()][:-1]
    assert "expected 48 cards, got 47" in _refusal(" ".join(tokens), SPANISH)


# --- the shuffle -----------------------------------------------------------------------------------


@pytest.mark.parametrize("number", [0, 1, 2, 999, 2**32 + 7, MAX_NUMBER])
def test_a_numbered_deal_is_a_permutation_of_the_deck(number: int) -> None:
    deal = Deal.from_number(number)
    assert sorted(deal.cards) == sorted(full_deck())
    assert deal.number == number


def test_a_numbered_48_card_deal_is_a_permutation_of_the_spanish_deck() -> None:
    deal = Deal.from_number(77, SPANISH)
    assert sorted(deal.cards) == sorted(spanish_deck())


def test_different_numbers_give_different_deals() -> None:
    notations = {Deal.from_number(n).notation for n in range(200)}
    assert len(notations) == 200


def test_the_same_number_always_gives_the_same_deal() -> None:
    for number in (0, 5, 123456, MAX_NUMBER):
        assert Deal.from_number(number) == Deal.from_number(number)
        assert Deal.from_number(number).cards == Deal.from_number(number).cards


def test_a_deal_is_shuffled_not_left_in_plain_deck_order() -> None:
    assert Deal.from_number(0).cards != full_deck()


def test_the_shuffle_depends_only_on_the_number_and_the_deck_size() -> None:
    for preset, rules in PRESETS.items():
        same_deck = "classic" if rules.deck == 52 else "classic(deck=48,target=12)"
        assert Deal.from_number(31, preset).cards == Deal.from_number(31, same_deck).cards
    assert Deal.from_number(31, "spanish").cards != Deal.from_number(31, "classic").cards


@pytest.mark.parametrize("number", [-1, MAX_NUMBER + 1])
def test_a_deal_number_out_of_range_is_refused_naming_it(number: int) -> None:
    with pytest.raises(DealError) as excinfo:
        Deal.from_number(number)
    assert str(number) in str(excinfo.value)


# --- short codes -----------------------------------------------------------------------------------


def _expected_letters(number: int) -> str:
    """The deal number in seven base-26 letters, A = 0 (the format the deal module documents)."""
    letters = ""
    for _ in range(7):
        number, digit = divmod(number, 26)
        letters = ALPHABET[digit] + letters
    return letters


@pytest.mark.parametrize(
    ("number", "letters"), [(0, "AAAAAAA"), (1, "AAAAAAB"), (18, "AAAAAAS"), (26, "AAAAABA"), (MAX_NUMBER, "ZZZZZZZ")]
)
def test_the_short_code_writes_the_preset_the_difficulty_and_the_number_in_letters(number: int, letters: str) -> None:
    assert Deal.from_number(number, "pyramide", "N").code == f"PY1-N-{letters}"
    assert Deal.from_number(number).code == f"CL1-R-{letters}"


def test_seven_letters_hold_every_deal_number() -> None:
    assert MAX_NUMBER == 26**7 - 1


@pytest.mark.parametrize(
    ("preset", "letters"),
    [
        ("classic", "CL"),
        ("pyramide", "PY"),
        ("thirteen", "TH"),
        ("msc", "MS"),
        ("traditional", "TR"),
        ("relaxed", "RX"),
    ],
)
def test_each_preset_has_its_two_letters_in_the_code(preset: str, letters: str) -> None:
    assert Deal.from_number(4, preset, "E").code == f"{letters}1-E-AAAAAAE"


@settings(max_examples=200, deadline=None)
@given(st.integers(0, MAX_NUMBER), st.sampled_from("ENR"))
def test_a_short_code_names_its_deal(number: int, difficulty: str) -> None:
    deal = Deal.from_number(number, "classic", difficulty)
    assert SHORT_CODE.match(deal.code)
    assert deal.code.endswith(_expected_letters(number))
    assert Deal.from_code(deal.code) == deal


OPTION_COMBOS = [
    *PRESETS,
    "thirteen(jokers=2,triples=true)",
    "thirteen(jokers=1)",
    "thirteen(open=true)",
    "classic(passes=unlimited,overlap=true)",
    "msc(strict=true)",
    "classic(target=14,lone_kings=false)",
    SPANISH,
    "classic(rows=6)",
    "pyramide(undo_limit=unlimited,passes=2)",
    "relaxed(stock_waste_pairs=false)",
    "traditional(scoring=pyramide,undo_limit=7)",
]


@pytest.mark.parametrize("rules", OPTION_COMBOS)
def test_a_short_code_carries_the_rule_set_and_its_options(rules: str) -> None:
    for number, difficulty in ((0, "R"), (18, "N"), (9, "E"), (MAX_NUMBER, "N")):
        deal = Deal.from_number(number, rules, difficulty)
        decoded = Deal.from_code(deal.code)
        assert decoded == deal
        assert decoded.rules == find_rules(rules)
        assert decoded.difficulty == difficulty
        assert decoded.number == number


def test_codes_are_read_in_any_case_and_with_surrounding_space() -> None:
    assert Deal.from_code("  cl1-n-aaaaaas \n") == Deal.from_code("CL1-N-AAAAAAS")


def test_a_deal_prints_as_its_code() -> None:
    deal = Deal.from_number(18, "pyramide", "N")
    assert str(deal) == deal.code == "PY1-N-AAAAAAS"


# --- full codes -----------------------------------------------------------------------------------


def _letters_for(deck_size: int) -> int:
    """The fewest base-26 letters that can write every ordering of the deck."""
    width = 0
    while 26**width < math.factorial(deck_size):
        width += 1
    return width


def test_a_custom_deal_is_named_by_its_full_code() -> None:
    deal = Deal.from_notation(Deal.from_number(3).notation)
    assert deal.number is None
    assert deal.code == deal.full_code
    assert re.fullmatch(rf"CL1-X-[A-Z]{{{_letters_for(52)}}}", deal.full_code)


def test_the_plain_deck_order_has_the_all_a_full_code() -> None:
    deal = Deal.from_notation(" ".join(str(c) for c in full_deck()))
    assert deal.full_code == "CL1-X-" + "A" * _letters_for(52)


@settings(max_examples=100, deadline=None)
@given(
    st.permutations(full_deck()),
    st.sampled_from(["classic", "pyramide", "thirteen(jokers=2,triples=true)", "msc", "classic(rows=6)"]),
)
def test_a_full_code_round_trips_any_custom_deal(cards: list[Card], rules: str) -> None:
    deal = Deal.from_notation(" ".join(str(c) for c in cards), rules)
    decoded = Deal.from_code(deal.full_code)
    assert decoded == deal
    assert decoded.notation == deal.notation


@settings(max_examples=50, deadline=None)
@given(st.permutations(spanish_deck()))
def test_a_full_code_round_trips_any_48_card_deal(cards: list[Card]) -> None:
    deal = Deal.from_notation(" ".join(str(c) for c in cards), SPANISH)
    assert re.fullmatch(rf"CL1M12C48-X-[A-Z]{{{_letters_for(48)}}}", deal.full_code)
    assert Deal.from_code(deal.full_code) == deal


@pytest.mark.parametrize("number", [0, 18, 4_000_000_000, MAX_NUMBER])
def test_the_full_code_of_a_numbered_deal_decodes_to_the_same_cards(number: int) -> None:
    deal = Deal.from_number(number, "thirteen(jokers=2)", "N")
    decoded = Deal.from_code(deal.full_code)
    assert decoded.cards == deal.cards
    assert decoded.rules == deal.rules


# --- malformed codes -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("code", "named"),
    [
        ("CL1-N", "CL1-N"),
        ("CL1-N-AAAAAAS-B", "CL1-N-AAAAAAS-B"),
        ("CL1NAAAAAAS", "CL1NAAAAAAS"),
        ("", "the deal code is empty"),
        ("ZZ1-N-AAAAAAA", "'ZZ'"),
        ("CL2-N-AAAAAAA", "version 2"),
        ("CL1-Q-AAAAAAA", "'Q'"),
        ("CL1-N-AAAAAA", "this one has 6"),
        ("CL1-N-AAAAAAAA", "this one has 8"),
        ("CL1P3-N-AAAAAAA", "CL1P3"),
        ("TH1T1J2-N-AAAAAAA", "TH1T1J2"),
        ("CL1E1-N-AAAAAAA", "'E'"),
        ("CL1S2-N-AAAAAAA", "option S takes 0 or 1"),
        ("TH1J3-N-AAAAAAA", "jokers"),
        ("CL1-X-AAA", "this one has 3"),
        ("CL1-X-" + "Z" * 48, "out of range"),
    ],
)
def test_a_malformed_code_raises_a_code_error_naming_the_problem(code: str, named: str) -> None:
    with pytest.raises(CodeError) as excinfo:
        Deal.from_code(code)
    assert named in str(excinfo.value)


def test_a_non_canonical_option_part_names_the_canonical_one() -> None:
    with pytest.raises(CodeError) as excinfo:
        Deal.from_code("TH1T1J2-N-AAAAAAA")
    assert "TH1J2T1" in str(excinfo.value)


def test_a_code_error_is_a_deal_error() -> None:
    with pytest.raises(DealError):
        Deal.from_code("CL1-Q-AAAAAAA")


# --- parse_deal: a code or notation -----------------------------------------------------------------


def test_parse_deal_reads_a_code() -> None:
    assert parse_deal("PY1-N-AAAAAAS") == Deal.from_number(18, "pyramide", "N")


def test_parse_deal_reads_notation_under_the_given_rules_or_classic() -> None:
    notation = Deal.from_number(8).notation
    assert parse_deal(notation).rules == PRESETS["classic"]
    assert parse_deal(notation, "msc").rules == PRESETS["msc"]
    assert parse_deal(notation, "msc").notation == notation


def test_parse_deal_accepts_a_code_with_the_same_rules_under_another_name() -> None:
    assert parse_deal("CL1-N-AAAAAAS", "default") == Deal.from_code("CL1-N-AAAAAAS")


def test_parse_deal_refuses_a_code_with_conflicting_rules() -> None:
    with pytest.raises(CodeError) as excinfo:
        parse_deal("CL1-N-AAAAAAS", "thirteen")
    message = str(excinfo.value)
    assert "CL1-N-AAAAAAS" in message
    assert "thirteen" in message


def test_parse_deal_refuses_a_code_whose_options_differ_from_the_rules() -> None:
    code = Deal.from_number(2, "thirteen(jokers=2)").code
    with pytest.raises(CodeError):
        parse_deal(code, "thirteen")


# --- golden codes ----------------------------------------------------------------------------------


def _golden() -> list[tuple[str, str]]:
    assert GOLDEN.is_file(), f"golden file {GOLDEN} is missing (see tests/golden/make_codes.py)"
    rows = []
    for line in GOLDEN.read_text(encoding="utf-8").splitlines():
        code, tab, notation = line.partition("\t")
        assert tab, f"golden line without a tab: {line!r}"
        rows.append((code, notation))
    return rows


def test_the_golden_file_covers_every_preset_difficulty_and_full_codes() -> None:
    codes = [code for code, _ in _golden()]
    assert len(codes) >= 24
    for letters in ("CL", "PY", "TH", "MS", "TR", "RX"):
        assert any(code.startswith(letters) for code in codes), letters
    for kind in "ENRX":
        assert any(code.split("-")[1] == kind for code in codes), kind


def test_every_golden_code_still_names_exactly_its_pinned_deal() -> None:
    changed = []
    for code, notation in _golden():
        deal = Deal.from_code(code)
        if deal.notation != notation:
            changed.append(code)
    assert not changed, f"these codes now name different cards: {changed}"


def test_every_golden_deal_encodes_back_to_its_code() -> None:
    for code, notation in _golden():
        deal = Deal.from_code(code)
        assert deal.code == code
        if code.split("-")[1] == "X":
            assert Deal.from_notation(notation, deal.rules).code == code

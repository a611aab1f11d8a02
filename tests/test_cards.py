"""Card tokens: what the notation of docs/rules.md accepts, how cards print, and how they are named."""

from __future__ import annotations

import pytest

from pyramid_solitaire.cards import Card, CardError, full_deck, spanish_deck


@pytest.mark.parametrize("token", ["Tc", "10c", "10♣", "tC", "TC", "tc", "10C", " Tc "])
def test_every_spelling_of_the_ten_of_clubs_parses_to_the_same_card(token: str) -> None:
    assert Card.parse(token) == Card(10, "c")


@pytest.mark.parametrize("token", ["10c", "10♣", "tC", "TC", "tc"])
def test_a_ten_always_prints_canonically(token: str) -> None:
    assert str(Card.parse(token)) == "Tc"


@pytest.mark.parametrize(
    ("token", "canonical"),
    [
        ("Q♥", "Qh"),
        ("q♥", "Qh"),
        ("a♠", "As"),
        ("K♦", "Kd"),
        ("7♣", "7c"),
        ("10♠", "Ts"),
        ("qH", "Qh"),
        ("JS", "Js"),
        ("aD", "Ad"),
        ("kc", "Kc"),
    ],
)
def test_suit_symbols_and_any_letter_case_print_canonically(token: str, canonical: str) -> None:
    assert str(Card.parse(token)) == canonical


def test_every_card_of_the_deck_round_trips_through_all_its_spellings() -> None:
    for card in full_deck():
        text = str(card)
        assert Card.parse(text) == card
        assert Card.parse(text.lower()) == card
        assert Card.parse(text.upper()) == card
        assert Card.parse(card.symbol) == card


def test_the_deck_has_52_distinct_cards_and_the_spanish_deck_has_no_tens() -> None:
    assert len(set(full_deck())) == 52
    spanish = spanish_deck()
    assert len(set(spanish)) == 48
    assert all(card.rank != 10 for card in spanish)


@pytest.mark.parametrize("token", ["Zz", "1c", "11c", "Tx", "T", "10", "Kcc", "X3", "X0", "♣", "c10"])
def test_an_unknown_token_is_refused_with_a_message_naming_it(token: str) -> None:
    with pytest.raises(CardError) as excinfo:
        Card.parse(token)
    assert repr(token) in str(excinfo.value)


def test_an_empty_token_is_refused() -> None:
    with pytest.raises(CardError, match="empty"):
        Card.parse("   ")


def test_a_card_error_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        Card.parse("Zz")


@pytest.mark.parametrize(("token", "number"), [("X1", 1), ("X2", 2), ("x1", 1), ("x2", 2)])
def test_jokers_parse_as_two_different_wild_cards(token: str, number: int) -> None:
    card = Card.parse(token)
    assert card.is_joker
    assert card == Card.joker_card(number)
    assert str(card) == f"X{number}"


def test_the_two_jokers_are_different_cards_and_no_ordinary_card_is_a_joker() -> None:
    assert Card.parse("X1") != Card.parse("X2")
    assert not any(card.is_joker for card in full_deck())


@pytest.mark.parametrize(
    ("token", "ja", "en"),
    [
        ("7h", "ハートの7", "7 of hearts"),
        ("Ts", "スペードの10", "10 of spades"),
        ("Ac", "クラブのエース", "ace of clubs"),
        ("Jd", "ダイヤのジャック", "jack of diamonds"),
        ("Qh", "ハートのクイーン", "queen of hearts"),
        ("Ks", "スペードのキング", "king of spades"),
    ],
)
def test_cards_have_spoken_names_in_japanese_and_english(token: str, ja: str, en: str) -> None:
    card = Card.parse(token)
    assert card.name("ja") == ja
    assert card.name("en") == en


def test_jokers_have_spoken_names() -> None:
    assert Card.parse("X2").name("ja") == "ジョーカー2"
    assert Card.parse("X2").name("en") == "joker 2"


@pytest.mark.parametrize(
    ("token", "symbol"),
    [("Qh", "Q♥"), ("Ts", "10♠"), ("Ad", "A♦"), ("2c", "2♣"), ("Kd", "K♦"), ("X1", "JOKER")],
)
def test_symbol_is_the_face_with_the_suit_symbol(token: str, symbol: str) -> None:
    assert Card.parse(token).symbol == symbol

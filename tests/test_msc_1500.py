"""The 1,500 deals of data/msc-1500 (Microsoft Solitaire Collection rules) read as deal notation.

The data set is part of this repository (``data/msc-1500``, with its licence and source); if it is missing
the tests fail with a message saying where it was looked for.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

from pyramid_solitaire.deal import Deal, DealError
from pyramid_solitaire.rules import PRESETS

DATA_DIR = Path(__file__).resolve().parents[1] / "data" / "msc-1500"
DECKS = DATA_DIR / "random-decks.txt"


@cache
def _read_lines() -> tuple[str, ...]:
    return tuple(DECKS.read_text(encoding="utf-8").splitlines())


def data_lines() -> list[str]:
    """The deals of random-decks.txt, one line each; a missing data set fails the calling test."""
    if not DECKS.is_file():
        pytest.fail(f"data set missing: expected {DECKS} (data/msc-1500 in the repository)")
    return list(_read_lines())


def test_the_data_set_has_1500_deals_of_52_tokens() -> None:
    lines = data_lines()
    assert len(lines) == 1500
    assert all(len(line.split()) == 52 for line in lines)


def test_every_deal_parses_under_msc_and_prints_back_identically() -> None:
    lines = data_lines()
    differing = []
    for number, line in enumerate(lines, start=1):
        deal = Deal.from_notation(line, "msc")
        assert deal.rules == PRESETS["msc"]
        if deal.notation != line.strip():
            differing.append(number)
    assert not differing, f"lines printed back differently: {differing[:10]}"


def test_the_stock_of_a_data_deal_is_its_last_24_cards_top_first() -> None:
    lines = data_lines()
    tokens = lines[0].split()
    deal = Deal.from_notation(lines[0], "msc")
    assert [str(c) for c in deal.pyramid] == tokens[:28]
    assert [str(c) for c in deal.stock] == tokens[28:]


def _refusal(tokens: list[str]) -> str:
    with pytest.raises(DealError) as excinfo:
        Deal.from_notation(" ".join(tokens), "msc")
    return str(excinfo.value)


@pytest.mark.parametrize(("line_number", "position"), [(1, 0), (2, 27), (750, 28), (1500, 51)])
def test_a_data_deal_with_a_card_dropped_is_refused_naming_the_count_and_the_card(
    line_number: int, position: int
) -> None:
    lines = data_lines()
    tokens = lines[line_number - 1].split()
    dropped = tokens.pop(position)
    message = _refusal(tokens)
    assert "expected 52 cards, got 51" in message
    assert re.search(rf"missing\b.*\b{dropped}\b", message)


@pytest.mark.parametrize(("line_number", "position", "copied"), [(1, 0, 51), (3, 10, 11), (999, 40, 2)])
def test_a_data_deal_with_a_card_repeated_is_refused_naming_both_cards(
    line_number: int, position: int, copied: int
) -> None:
    lines = data_lines()
    tokens = lines[line_number - 1].split()
    lost, twice = tokens[position], tokens[copied]
    tokens[position] = twice
    message = _refusal(tokens)
    assert re.search(rf"repeated\b.*\b{twice}\b", message)
    assert re.search(rf"missing\b.*\b{lost}\b", message)


@pytest.mark.parametrize("line_number", [1, 1500])
def test_a_data_deal_with_a_53rd_card_is_refused_naming_the_count(line_number: int) -> None:
    lines = data_lines()
    tokens = lines[line_number - 1].split()
    extra = tokens[5]
    message = _refusal([*tokens, extra])
    assert "expected 52 cards, got 53" in message
    assert re.search(rf"repeated\b.*\b{extra}\b", message)

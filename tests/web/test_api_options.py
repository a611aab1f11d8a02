"""Taps under thirteen's options through the API: a triple built card by card, and jokers."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from typing import Any

import pytest

from helpers import make_notation, row_of
from pyramid_solitaire.web.app import create_app

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

#: Row 7 starts 2c 4d 7h: no two of them make 13, all three do.
TRIPLE_ROW = "2c 4d 7h"


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app()) as test_client:
        yield test_client


def start(client: TestClient, rules: str, notation: str) -> dict[str, Any]:
    answer = client.post("/api/games", json={"rules": rules, "deal": notation})
    assert answer.status_code == 201, answer.text
    game: dict[str, Any] = answer.json()["game"]
    return game


def tap(client: TestClient, game: dict[str, Any], card: str) -> dict[str, Any]:
    answer = client.post(f"/api/games/{game['id']}/tap", json={"card": card})
    assert answer.status_code == 200, answer.text
    data: dict[str, Any] = answer.json()
    return data


def test_a_triple_is_built_one_tap_at_a_time(client: TestClient) -> None:
    game = start(client, "thirteen(triples=true)", make_notation(row_of(7, TRIPLE_ROW)))
    first = tap(client, game, "2c")
    assert first["event"]["kind"] == "selected"
    assert "4d" in first["game"]["partners"] and "7h" in first["game"]["partners"]
    second = tap(client, game, "4d")  # 2+4 is not 13, but a triple with them can be
    assert second["event"] == {"kind": "selected", "cards": ["4d"]}
    assert second["game"]["selected"] == ["2c", "4d"]
    assert "7h" in second["game"]["partners"]
    third = tap(client, game, "7h")
    assert third["event"]["kind"] == "removed"
    assert sorted(third["event"]["cards"]) == ["2c", "4d", "7h"]
    assert third["game"]["removed"]["count"] == 3


def test_without_triples_the_same_two_cards_are_refused_with_their_sum(client: TestClient) -> None:
    game = start(client, "thirteen", make_notation(row_of(7, TRIPLE_ROW)))
    tap(client, game, "2c")
    answer = tap(client, game, "4d")
    assert answer["event"]["kind"] == "refused"
    assert answer["event"]["messages"]["ja"] == "合計が13になる必要があります：2+4=6"
    assert answer["game"]["selected"] == []


def test_a_joker_pairs_with_any_usable_card_but_not_alone(client: TestClient) -> None:
    game = start(client, "thirteen(jokers=2)", make_notation(row_of(7, TRIPLE_ROW)))
    assert game["jokers"] == ["X1", "X2"]
    selected = tap(client, game, "X1")
    assert selected["event"]["kind"] == "selected"
    partners = set(selected["game"]["partners"])
    assert "X2" not in partners  # jokers do not pair with each other
    assert set(selected["game"]["usable"]) - {"X1", "X2"} <= partners
    removed = tap(client, game, "4d")
    assert removed["event"]["kind"] == "removed" and sorted(removed["event"]["cards"]) == ["4d", "X1"]
    assert removed["game"]["jokers"] == ["X2"]
    # the other joker, tapped twice, is put down again rather than removed alone
    tap(client, game, "X2")
    again = tap(client, game, "X2")
    assert again["event"]["kind"] == "deselected" and again["game"]["jokers"] == ["X2"]

"""Thirteen's options through the API: what the state offers for a triple and for jokers, and the moves."""

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


def move(client: TestClient, game: dict[str, Any], notation: str) -> Any:
    return client.post(f"/api/games/{game['id']}/move", json={"move": notation})


def test_a_triple_is_offered_to_each_of_its_cards_and_removed_in_one_move(client: TestClient) -> None:
    game = start(client, "thirteen(triples=true)", make_notation(row_of(7, TRIPLE_ROW)))
    assert ["4d", "7h"] in game["pairs"]["2c"]["with"]
    assert ["2c", "7h"] in game["pairs"]["4d"]["with"]
    # 2+4 is not 13, but a triple with them can be: choosing the two is no refusal, the page waits for 7h
    assert "2c+4d" not in game["refusals"]
    answer = move(client, game, "2c+4d+7h")
    assert answer.status_code == 200, answer.text
    event = answer.json()["event"]
    assert event["kind"] == "removed" and sorted(event["cards"]) == ["2c", "4d", "7h"]
    assert answer.json()["game"]["removed"]["count"] == 3
    two = move(client, start(client, "thirteen(triples=true)", make_notation(row_of(7, TRIPLE_ROW))), "2c+4d")
    assert two.status_code == 409 and two.json()["code"] == "sum"


def test_without_triples_the_same_two_cards_are_refused_with_their_sum(client: TestClient) -> None:
    game = start(client, "thirteen", make_notation(row_of(7, TRIPLE_ROW)))
    assert not any(len(others) == 2 for offer in game["pairs"].values() for others in offer["with"])
    assert game["refusals"]["2c+4d"]["message"] == "合計が13になる必要があります：2+4=6"
    answer = move(client, game, "2c+4d+7h")
    assert answer.status_code == 409 and answer.json()["code"] == "triples-off"


def test_a_joker_pairs_with_any_usable_card_but_not_alone(client: TestClient) -> None:
    game = start(client, "thirteen(jokers=2)", make_notation(row_of(7, TRIPLE_ROW)))
    assert game["jokers"] == ["X1", "X2"]
    offer = game["pairs"]["X1"]
    assert offer["alone"] is False
    partners = {token for others in offer["with"] for token in others}
    assert "X2" not in partners  # jokers do not pair with each other
    assert set(game["usable"]) - {"X1", "X2"} <= partners
    assert game["refusals"]["X1+X2"]["code"] == "joker-pair"
    removed = move(client, game, "X1+4d")
    assert removed.status_code == 200
    assert removed.json()["event"]["kind"] == "removed" and sorted(removed.json()["event"]["cards"]) == ["4d", "X1"]
    assert removed.json()["game"]["jokers"] == ["X2"]
    # the other joker cannot go alone
    alone = move(client, game, "X2")
    assert alone.status_code == 409
    assert client.get(f"/api/games/{game['id']}").json()["game"]["jokers"] == ["X2"]

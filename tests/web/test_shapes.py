"""The API's answers have exactly the shapes ``web/shapes.py`` declares: every key of a game's state and of
an event, at every depth, is declared there with a type its value has, and every required key is sent.

mypy checks the keys of what ``web/play.py`` and the routes build; the engine's player view (``view.player_view``) is
taken as ``PlayerView`` at one point, and these tests check that the two still agree, on real answers of
several rule sets from the start to the end of a game.
"""

from __future__ import annotations

import random
import types
import warnings
from collections.abc import Iterator
from typing import Any, Literal, NotRequired, Union, get_args, get_origin, get_type_hints, is_typeddict

import pytest

from pyramid_solitaire.web import shapes
from pyramid_solitaire.web.app import create_app

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app()) as test_client:
        yield test_client


def mismatch(value: Any, hint: Any, where: str) -> str | None:
    """Why ``value`` does not have the type ``hint`` (a TypedDict, a union, a list, a dict, a plain type),
    or ``None`` if it has."""
    origin = get_origin(hint)
    if is_typeddict(hint):
        if not isinstance(value, dict):
            return f"{where}: {value!r} is not an object"
        # (__required_keys__ misses NotRequired written as a string, with postponed annotations)
        hints = get_type_hints(hint, include_extras=True)
        optional = {key for key, h in hints.items() if get_origin(h) is NotRequired}
        keys = set(value)
        missing = set(hints) - optional - keys
        unknown = keys - set(hints)
        if missing or unknown:
            return f"{where}: missing {sorted(missing)}, not declared {sorted(unknown)}"
        for key in sorted(keys):
            found = mismatch(value[key], get_args(hints[key])[0] if key in optional else hints[key], f"{where}.{key}")
            if found:
                return found
        return None
    if origin in (Union, types.UnionType):
        found = [mismatch(value, arg, where) for arg in get_args(hint)]
        return None if None in found else " / ".join(str(f) for f in found)
    if origin is list:
        if not isinstance(value, list):
            return f"{where}: {value!r} is not a list"
        return next(
            (f for i, item in enumerate(value) if (f := mismatch(item, get_args(hint)[0], f"{where}[{i}]"))), None
        )
    if origin is dict:
        if not isinstance(value, dict):
            return f"{where}: {value!r} is not an object"
        return next((f for k, item in value.items() if (f := mismatch(item, get_args(hint)[1], f"{where}.{k}"))), None)
    if origin is Literal:
        return None if value in get_args(hint) else f"{where}: {value!r} is not one of {get_args(hint)}"
    if hint is object or hint is Any:
        return None
    if hint is type(None):
        return None if value is None else f"{where}: {value!r} is not null"
    if hint is float:
        return None if isinstance(value, int | float) and not isinstance(value, bool) else f"{where}: {value!r}"
    if hint is int and isinstance(value, bool):
        return f"{where}: {value!r} is a bool, not an int"
    return None if isinstance(value, hint) else f"{where}: {value!r} is not {hint.__name__}"


def check(answer: dict[str, Any]) -> None:
    assert mismatch(answer["game"], shapes.GameState, "game") is None, mismatch(
        answer["game"], shapes.GameState, "game"
    )
    assert mismatch(answer["event"], shapes.EventAnswer, "event") is None, mismatch(
        answer["event"], shapes.EventAnswer, "event"
    )


def test_the_checker_finds_a_missing_an_unknown_and_a_wrong_key() -> None:
    good = {"code": "covered", "message": "…", "cards": ["Tc"], "quiet": False}
    assert mismatch(good, shapes.RefusalShown, "r") is None
    assert mismatch({**good, "slot": 3}, shapes.RefusalShown, "r") is None
    assert "missing ['quiet']" in str(
        mismatch({k: v for k, v in good.items() if k != "quiet"}, shapes.RefusalShown, "r")
    )
    assert "not declared ['extra']" in str(mismatch({**good, "extra": 1}, shapes.RefusalShown, "r"))
    assert mismatch({**good, "cards": [3]}, shapes.RefusalShown, "r") == "r.cards[0]: 3 is not str"


@pytest.mark.parametrize(
    "rules",
    ["classic", "msc", "thirteen", "tuts_tomb", "pyramide", "giza", "apophis", "limited_waste", "cells(cells=2)"],
)
def test_every_answer_has_the_declared_shape_from_deal_to_end(client: TestClient, rules: str) -> None:
    response = client.post("/api/games?lang=en", json={"rules": rules})
    assert response.status_code == 201
    answer = response.json()
    check(answer)
    game_id = answer["game"]["id"]
    rng = random.Random(rules)
    for step in range(80):
        game = answer["game"]
        if game["status"] != "playing":
            break
        if step % 9 == 4:
            response = client.post(f"/api/games/{game_id}/{rng.choice(['undo', 'hint', 'redo', 'rewind'])}?lang=ja")
        else:
            response = client.post(f"/api/games/{game_id}/move?lang=en", json={"move": rng.choice(game["legal_moves"])})
        if response.status_code == 200:
            answer = response.json()
            check(answer)
    if answer["game"]["status"] == "playing":
        answer = client.post(f"/api/games/{game_id}/resign").json()
    check(answer)
    result = answer["game"]["result"]
    assert result is not None and "stats" in result and "leaderboard" in result
    check(client.get(f"/api/games/{game_id}?lang=en").json())
    replay = client.get(f"/api/games/{game_id}/replay?step=3").json()
    assert mismatch(replay["game"], shapes.SessionState, "game") is None


def test_the_coach_event_has_the_declared_shape(client: TestClient) -> None:
    game_id = client.post("/api/games", json={"rules": "msc", "difficulty": "E"}).json()["game"]["id"]
    answer = client.post(f"/api/games/{game_id}/coach").json()
    check(answer)
    assert answer["event"]["kind"] == "coach" and "uses_hidden_cards" in answer["event"]


def test_a_daily_deal_says_so_in_the_declared_shape(client: TestClient) -> None:
    answer = client.post("/api/daily/games", json={}).json()
    check(answer)
    assert answer["game"]["daily"]["counted"] is True

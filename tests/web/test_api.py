"""The web API in-process (FastAPI's TestClient): what a caller of ``/api`` sees.

New games (by code, by notation, by difficulty), taps as a phone sends them (the seeds' worked examples),
the stock, undo/redo/hint/rewind/coach/deselect, moves in notation, every kind of bad request (a 4xx
``{code, message, details}`` that leaves the game as it was), the security headers, hidden cards that no
answer may name, and whole deals won and lost through the API.  Expected values come from docs/rules.md and
the seeds (000: the Pyramide app; 001: the classic site).
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

from helpers import TOKEN_RE, make_notation, row_of, slot
from pyramid_solitaire import Deal
from pyramid_solitaire.cards import Card
from pyramid_solitaire.rules import PRESETS
from pyramid_solitaire.solver import solve
from pyramid_solitaire.web.app import MAX_BODY, create_app

with warnings.catch_warnings():
    # starlette asks for httpx2 in a warning at import; the client works the same
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

Json = dict[str, Any]

SEED_001_ROW_7 = "Ks 6h 3c 7d Ts Qh 9c"
SEED_001 = make_notation(row_of(7, SEED_001_ROW_7), ["Ad"])
SEED_000 = ("Jd 6c 7h As 4d Qs 5h 3d 6h 8s Kh Kc Ad Ks 9c Qc 2c 8d Td Ts Js 7c Tc 3h 4h 3s Kd 7s 7d Ac 3c 4c 5c "
            "8c Jc 2d 5d 6d 9d Qd Ah 2h 8h 9h Th Jh Qh 2s 4s 5s 6s 9s")
#: Qc at (5,1) with three aces under it; with Qh, Qs first in the stock, Ad+Qd takes the last ace it
#: could meet (tests/test_game.py).
DEAD_PYRAMID = {(5, 1): "Qc", (6, 1): "Ac", (6, 2): "Ah", (7, 1): "As", (7, 5): "Ad", (7, 6): "Qd"}
#: A classic deal the solver proves lost (best line: 11 pyramid cards), found by solving deals 0-29.
LOST_CLASSIC = 17
#: Keys every error answer has, and only these.
ERROR_KEYS = {"code", "message", "details"}


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app()) as test_client:
        yield test_client


# --- helpers -----------------------------------------------------------------------------------------


def new_game(client: TestClient, lang: str = "ja", **body: Any) -> Json:
    response = client.post(f"/api/games?lang={lang}", json=body)
    assert response.status_code == 201, response.text
    answer: Json = response.json()
    assert answer["event"] == {"kind": "dealt", "cards": []}
    game: Json = answer["game"]
    return game


def post(client: TestClient, game: Json | str, action: str, body: Json | None = None,
         lang: str = "ja") -> tuple[Json, Json]:
    """POST an action that must be answered 200; returns (game state, event)."""
    game_id = game if isinstance(game, str) else game["id"]
    response = client.post(f"/api/games/{game_id}/{action}?lang={lang}", json=body)
    assert response.status_code == 200, response.text
    answer: Json = response.json()
    assert set(answer) == {"game", "event"}
    return answer["game"], answer["event"]


def tap(client: TestClient, game: Json | str, card: str | None = None, *, at: int | None = None,
        lang: str = "ja") -> tuple[Json, Json]:
    """Tap a card by token, or a pyramid slot with ``at``."""
    body: Json = {"card": card} if at is None else {"slot": at}
    return post(client, game, "tap", body, lang)


def stock(client: TestClient, game: Json | str, lang: str = "ja") -> tuple[Json, Json]:
    return post(client, game, "stock", lang=lang)


def state(client: TestClient, game: Json | str, lang: str = "ja") -> Json:
    game_id = game if isinstance(game, str) else game["id"]
    response = client.get(f"/api/games/{game_id}?lang={lang}")
    assert response.status_code == 200, response.text
    assert response.json()["event"] == {"kind": "state", "cards": []}
    found: Json = response.json()["game"]
    return found


def still(game: Json) -> Json:
    """The state without the clock, which moves on its own."""
    return {k: v for k, v in game.items() if k != "elapsed"}


def error(response: Any, status: int, code: str) -> Json:
    """Check an error answer: the status, JSON ``{code, message, details}`` and the code."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    body: Json = response.json()
    assert set(body) == ERROR_KEYS, body
    assert body["code"] == code, body
    assert isinstance(body["message"], str) and body["message"]
    assert isinstance(body["details"], dict)
    return body


def entry(game: Json, row: int, col: int) -> Json:
    found: Json = game["pyramid"][slot(row, col)]
    assert (found["row"], found["col"]) == (row, col)
    return found


def play_by_taps(client: TestClient, game: Json, move: str) -> Json:
    """Play one move of notation as a player taps it: the stock for draw/recycle, else each card."""
    if move in ("draw", "recycle"):
        after, event = stock(client, game)
        assert event["kind"] == move, event
        return after
    cards = move.split("+")
    for card in cards[:-1]:
        after, event = tap(client, game, card)
        assert event == {"kind": "selected", "cards": [card]}, event
        assert card in after["selected"]
    after, event = tap(client, game, cards[-1])
    assert event["kind"] == "removed", event
    assert set(event["cards"]) == set(cards)
    assert after["selected"] == [] and after["partners"] == []
    return after


def hidden_tokens(game: Json, notation: str) -> set[str]:
    """Tokens of the pyramid cards that are face down in ``game``."""
    tokens = notation.split()
    return {tokens[e["slot"]] for e in game["pyramid"] if not e["removed"] and not e["face_up"]}


def without_id(answer: Json) -> Json:
    """The answer without the game's random id (its letters could spell a token, such as ``-3h_``)."""
    if "game" in answer:
        return {**answer, "game": {k: v for k, v in answer["game"].items() if k != "id"}}
    return answer


def assert_reveals_none(answer: Json, hidden: set[str]) -> None:
    """No token and no spoken name (either language) of a hidden card anywhere in the answer."""
    text = json.dumps(without_id(answer), ensure_ascii=False)
    assert not set(TOKEN_RE.findall(text)) & hidden, set(TOKEN_RE.findall(text)) & hidden
    for token in hidden:
        card = Card.parse(token)
        for lang in ("ja", "en"):
            assert card.name(lang) not in text, (token, lang)


# --- new games and the rules catalogue -----------------------------------------------------------------


def test_a_new_game_by_code_deals_exactly_that_deal(client: TestClient) -> None:
    deal = Deal.from_code("CL1-R-AAAAAAB")
    game = new_game(client, code="cl1-r-aaaaaab")  # any letter case; printed canonical
    assert game["code"] == "CL1-R-AAAAAAB"
    assert game["rules"] == "classic" and game["preset"] == "classic"
    assert game["number"] == 1 and game["difficulty"] == "R"
    assert game["status"] == "playing" and game["result"] is None
    assert [e["card"] for e in game["pyramid"]] == [str(c) for c in deal.pyramid]
    assert game["stock"] == {"count": 24, "pass": 1, "passes": 3, "top": None, "usable": False,
                             "label": "1/3周目 · 残り 24"}
    assert game["waste"] == {"top": None, "count": 0, "uses_left": None}
    assert game["moves"] == 0 and game["version"] == 0
    assert game["selected"] == [] and game["partners"] == []
    assert game["removed"] == {"count": 0, "top": []}
    # the same code again is the same deal, in a new game of its own
    again = new_game(client, code="CL1-R-AAAAAAB")
    assert again["id"] != game["id"]
    assert [e["card"] for e in again["pyramid"]] == [e["card"] for e in game["pyramid"]]
    assert state(client, game)["id"] == game["id"]


def test_a_code_carries_its_rule_set_and_options(client: TestClient) -> None:
    game = new_game(client, code="TH1J2T1-R-AAAAAAB", rules="classic")  # the code's rules apply
    assert game["rules"] == "thirteen(jokers=2,triples=true)"
    assert game["preset"] == "thirteen"
    assert game["jokers"] == ["X1", "X2"]
    assert game["stock"]["passes"] == 4


def test_a_new_game_by_notation_has_a_full_code_that_deals_it_again(client: TestClient) -> None:
    game = new_game(client, deal=SEED_001, rules="classic")
    assert game["number"] is None
    assert game["code"].startswith("CL1-X-")
    assert [e["card"] for e in game["pyramid"]][21:] == SEED_001_ROW_7.split()
    again = new_game(client, code=game["code"])
    assert [e["card"] for e in again["pyramid"]] == [e["card"] for e in game["pyramid"]]
    assert still(again) | {"id": game["id"]} == still(game)


def test_a_pyramide_deal_in_notation_starts_with_its_waste_card(client: TestClient) -> None:
    game = new_game(client, deal=SEED_000, rules="pyramide")
    assert game["code"].startswith("PY1-X-")
    assert game["waste"] == {"top": "7d", "count": 1, "uses_left": None}
    assert game["stock"]["count"] == 23
    assert game["stock"]["label"] == "1周目 · 残り 23"
    assert game["score"] == 0
    assert sorted(game["usable"]) == sorted(["7c", "Tc", "3h", "4h", "3s", "Kd", "7s", "7d"])


@pytest.mark.parametrize("preset", list(PRESETS))
def test_a_random_deal_of_each_rule_set(client: TestClient, preset: str) -> None:
    game = new_game(client, rules=preset, difficulty="R")
    rules = PRESETS[preset]
    assert game["preset"] == preset
    assert game["difficulty"] == "R"
    assert game["code"].split("-")[1] == "R"
    assert Deal.from_code(game["code"]).rules == rules
    # the layout: the pyramid's slots (a row each), then any reserve pile's (a pile each)
    assert [e["row"] is not None for e in game["pyramid"]] == [True] * rules.pyramid_size + [False] * rules.reserve_size
    face_up = [e["face_up"] for e in game["pyramid"]]
    assert all(face_up) == rules.open_pyramid
    assert game["has_stock"] == (rules.stock_size > 0)


@pytest.mark.parametrize("difficulty", ["E", "N"])
def test_a_verified_deal_is_winnable_and_its_code_says_its_difficulty(client: TestClient, difficulty: str) -> None:
    game = new_game(client, rules="classic", difficulty=difficulty)
    assert game["difficulty"] == difficulty
    assert game["code"].startswith(f"CL1-{difficulty}-")
    assert solve(Deal.from_code(game["code"]), best=False).winnable is True


def test_the_rules_catalogue_lists_every_preset_and_each_one_deals(client: TestClient) -> None:
    response = client.get("/api/rules")
    assert response.status_code == 200
    catalogue = response.json()
    assert catalogue["default"] == "classic"
    assert [p["id"] for p in catalogue["presets"]] == list(PRESETS)
    by_id = {p["id"]: p for p in catalogue["presets"]}
    assert by_id["classic"]["passes"] == 3
    assert by_id["pyramide"]["passes"] is None
    assert by_id["thirteen"]["open_pyramid"] is False
    assert by_id["traditional"]["strict"] is True
    assert "microsoft" in by_id["msc"]["aliases"]
    for preset in catalogue["presets"]:
        assert new_game(client, rules=preset["rules"])["rules"] == preset["rules"]
        for alias in preset["aliases"]:
            assert new_game(client, rules=alias)["preset"] == preset["id"]



def test_the_new_game_dialog_learns_which_presets_have_no_passes_to_choose(client: TestClient) -> None:
    """Giza has no stock and Apophis deals its stock once onto three piles: the dialog disables passes."""
    presets = {p["id"]: p for p in client.get("/api/rules").json()["presets"]}
    assert {name for name, p in presets.items() if p["passes_fixed"]} == {"giza", "apophis"}
    assert {name for name, p in presets.items() if not p["has_stock"]} == {"giza"}
    # and which has a limit on waste uses, to preset its own select
    limited = {name: p["waste_uses"] for name, p in presets.items() if p["waste_uses"] is not None}
    assert limited == {"limited_waste": 12}
    assert {name: p["cells"] for name, p in presets.items() if p["cells"]} == {"cells": 1}


def test_a_waste_card_whose_uses_are_spent_is_refused_with_the_reason(client: TestClient) -> None:
    notation = make_notation(row_of(7, "Kd 9c 9d Ts 3s 6h 6s"), ["4c", "4d"])
    game = new_game(client, deal=notation, rules="classic(waste_uses=1)")
    assert game["waste"]["uses_left"] == 1
    post(client, game, "stock")
    post(client, game, "move", {"move": "9c+4c"})
    game, _ = post(client, game, "stock")
    assert game["waste"]["uses_left"] == 0 and game["waste"]["top"] == "4d"
    before = state(client, game)
    body = error(client.post(f"/api/games/{game['id']}/move", json={"move": "9d+4d"}), 409, "waste-uses-used-up")
    assert body["message"] == "捨て札はもう使えません（1回まで）"
    assert still(state(client, game)) == still(before)


def test_a_free_cell_takes_the_selected_card_and_the_state_shows_it(client: TestClient) -> None:
    """The cell command parks the one selected card (a tap on an empty cell); with none selected, or in
    rules without cells, it is a refused tap that changes nothing.  A parked card is not in the removed
    pile, and it is recorded: the game reloads from the store with the card in its cell."""
    notation = make_notation({**row_of(7, "Kd 5c 9c Ts 3s 6h 6s"), (6, 1): "8h"}, ["4c", "7d"])
    assert {p["id"]: p["cells"] for p in client.get("/api/rules").json()["presets"]}["cells"] == 1
    game = new_game(client, deal=notation, rules="cells")
    assert game["cells"] == {"size": 1, "slots": [None]}
    before = state(client, game)
    after, event = post(client, game, "cell")
    assert event["kind"] == "refused" and event["code"] == "cell-choose-one"
    assert event["messages"]["en"] == "Choose one card, then tap an empty free cell to put it there."
    assert still(after) == {**still(before), "version": before["version"] + 1}
    tap(client, game, "Kd")
    tap(client, game, "5c")
    after, event = post(client, game, "cell")
    assert event == {"kind": "parked", "move": "5c>cell", "cards": ["5c"]}
    assert after["cells"] == {"size": 1, "slots": [{"card": "5c", "dead": False}]}
    assert after["selected"] == [] and "5c" in after["usable"] and "8h" in after["usable"]
    assert entry(after, 7, 2)["removed"] and entry(after, 7, 2)["parked"]
    assert after["removed"] == {"count": 1, "top": ["Kd"]}  # parking removes nothing
    assert "5c>cell" not in after["legal_moves"] and "8h+5c" in after["legal_moves"]
    assert still(state(client, game)) == still(after)
    client.app.state.games.drop(game["id"])  # type: ignore[attr-defined]
    reloaded = state(client, game)  # rebuilt from the recorded actions
    assert reloaded["cells"] == after["cells"] and reloaded["moves"] == after["moves"]
    after, event = post(client, game, "move", {"move": "8h+5c"})
    assert event["kind"] == "removed" and after["cells"]["slots"] == [None]
    _, event = post(client, game, "move", {"move": "9c>cell"})
    assert event == {"kind": "parked", "move": "9c>cell", "cards": ["9c"]}
    classic = new_game(client, deal=notation)
    tap(client, classic, "5c")
    _, event = post(client, classic, "cell")
    assert event["code"] == "no-cells"


def test_a_card_goes_to_the_free_cell_tapped_and_stays_there_through_undo_reload_and_import(
        client: TestClient) -> None:
    """With two cells, a tap on the second puts the card there, not in the first; the cell is part of
    the recorded action, so undo/redo, a reload from the store and an exported-then-imported game all
    show it in the same cell.  A taken cell is a refused tap; a cell the game lacks is a 400/422."""
    notation = make_notation({**row_of(7, "Kd 5c 9c Ts 3s 6h 6s"), (6, 1): "8h"}, ["4c", "7d"])
    game = new_game(client, deal=notation, rules="classic(cells=2)")
    assert game["cells"] == {"size": 2, "slots": [None, None]}

    def cell(slot: int | None = None) -> tuple[Json, Json]:
        query = "" if slot is None else f"&slot={slot}"
        response = client.post(f"/api/games/{game['id']}/cell?lang=ja{query}")
        assert response.status_code == 200, response.text
        return response.json()["game"], response.json()["event"]

    def slots(state_: Json) -> list[str | None]:
        return [entry and entry["card"] for entry in state_["cells"]["slots"]]

    tap(client, game, "Kd")
    tap(client, game, "9c")
    after, event = cell(1)
    assert event == {"kind": "parked", "move": "9c>cell", "cards": ["9c"]}
    assert slots(after) == [None, "9c"]
    post(client, game, "undo")
    after, _ = post(client, game, "redo")
    assert slots(after) == [None, "9c"]  # back in the cell it was in
    tap(client, game, "5c")
    after, event = cell(1)
    assert event["kind"] == "refused" and event["code"] == "cell-taken"
    assert event["messages"] == {"ja": "フリーセル2にはもうカードがあります", "en": "Free cell 2 already holds a card."}
    assert slots(after) == [None, "9c"] and after["selected"] == ["5c"]  # still chosen, still in place
    assert not entry(after, 7, 2)["parked"]
    after, _ = cell()  # no cell named: the first empty one (the C key)
    assert slots(after) == ["5c", "9c"]
    before = state(client, game)
    for query, status, code in [("slot=2", 400, "bad-cell"), ("slot=9", 400, "bad-cell"),
                                ("slot=-1", 422, "bad-request"), ("slot=x", 422, "bad-request")]:
        body = error(client.post(f"/api/games/{game['id']}/cell?{query}"), status, code)
        if code == "bad-cell":
            assert body["message"] == f"そのフリーセルはありません：no free cell '{query[5:]}': this game has cells 0-1"
    assert still(state(client, game)) == still(before)
    client.app.state.games.drop(game["id"])  # type: ignore[attr-defined]
    assert slots(state(client, game)) == ["5c", "9c"]  # rebuilt from the recorded actions

    exported = client.get("/api/me/export").json()
    actions = next(g for g in exported["games"] if g["code"] == game["code"])["actions"]
    assert ["cell", "1"] in [a[:2] for a in actions]
    other = TestClient(client.app)
    new_game(other, code="CL1-R-AAAAAAB")  # another browser, with a player of its own
    assert other.post("/api/me/import", json=exported).json() == {"imported": len(exported["games"])}
    imported = other.get("/api/me").json()["unfinished"]
    copy = next(g for g in imported if g["code"] == game["code"])
    assert slots(other.get(f"/api/games/{copy['id']}").json()["game"]) == ["5c", "9c"]
    bad = {**exported, "games": [{**g, "actions": [[k, "١" if k == "cell" and a else a, t]  # an Arabic-Indic 1
                                                   for k, a, t in g["actions"]]} for g in exported["games"]]}
    third = TestClient(client.app)
    new_game(third, code="CL1-R-AAAAAAB")
    answer = third.post("/api/me/import", json=bad)
    assert answer.status_code == 400 and answer.json()["code"] == "bad-import"
    assert "cell '١'" in answer.json()["message"] and "no free cell" in answer.json()["message"]


def test_a_park_by_notation_that_is_refused_is_409_and_changes_nothing(client: TestClient) -> None:
    notation = make_notation({**row_of(7, "Kd 5c 9c Ts 3s 6h 6s"), (6, 1): "8h"}, ["4c", "7d"])
    game = new_game(client, deal=notation, rules="cells")
    before = state(client, game)
    error(client.post(f"/api/games/{game['id']}/move", json={"move": "8h>cell"}), 409, "covered")
    error(client.post(f"/api/games/{game['id']}/move", json={"move": "5c>waste"}), 400, "bad-move")
    assert still(state(client, game)) == still(before)
    post(client, game, "move", {"move": "9c>cell"})
    before = state(client, game)
    body = error(client.post(f"/api/games/{game['id']}/move", json={"move": "5c>cell"}), 409, "cells-full")
    assert body["message"] == "空いているフリーセルがありません"
    assert still(state(client, game)) == still(before)


def test_the_state_carries_the_rule_fields_and_a_draw_of_three_fans_the_waste(client: TestClient) -> None:
    """The Rules dialog reads every rule field from the state; Tut's Tomb deals three cards a draw,
    and the state lists them (bottom first) while only the top one is usable."""
    assert {p["id"]: p["draw"] for p in client.get("/api/rules").json()["presets"]}["tuts_tomb"] == 3
    deal = Deal.from_number(1, "tuts_tomb")
    game = new_game(client, code=deal.code)
    assert game["rule_fields"] == {**{key: getattr(deal.rules, key) for key in game["rule_fields"]},
                                   "preset": "tuts_tomb", "draw": 3, "passes": None}
    assert game["waste_fan"] == []
    after, _ = stock(client, game)
    first, second, third = (str(c) for c in deal.stock[:3])
    assert after["waste_fan"] == [first, second, third]
    assert after["waste"] == {"top": third, "count": 3, "uses_left": None}
    assert third in after["usable"] and first not in after["usable"] and second not in after["usable"]
    assert {first, second, third} <= set(after["names"])  # the fanned cards are shown, so named
    after, event = tap(client, game, second)
    assert event["code"] == "not-usable" and after["waste_fan"] == [first, second, third]
    assert new_game(client, code=Deal.from_number(1, "classic").code)["waste_fan"] == []


# --- taps --------------------------------------------------------------------------------------------


def test_seed_001_worked_example_by_taps(client: TestClient) -> None:
    game = new_game(client, deal=SEED_001, rules="classic")
    # K♠ goes alone, in one tap
    after, event = tap(client, game, "Ks")
    assert event == {"kind": "removed", "move": "Ks", "cards": ["Ks"]}
    assert entry(after, 7, 1)["removed"] and "Ks" not in after["usable"]
    assert after["removed"] == {"count": 1, "top": ["Ks"]}
    # tapping 6♥ lights only 7♦
    after, event = tap(client, game, "6h")
    assert event == {"kind": "selected", "cards": ["6h"]}
    assert after["selected"] == ["6h"]
    assert after["partners"] == ["7d"]
    after, event = tap(client, game, "7d")
    assert event == {"kind": "removed", "move": "6h+7d", "cards": ["6h", "7d"]}
    assert after["removed"] == {"count": 3, "top": ["6h", "7d"]}
    assert after["selected"] == [] and after["partners"] == []
    assert entry(after, 6, 1)["usable"]  # under Ks and 6h, both gone
    assert not {"6h", "7d"} & set(after["usable"])
    # Q♥ then 9♣ is refused with the two values and the sum; classic clears the selection
    tap(client, game, "Qh")
    before = state(client, game)
    after, event = tap(client, game, "9c")
    assert event["kind"] == "refused"
    assert event["code"] == "sum"
    assert event["cards"] == ["Qh", "9c"]
    assert "Q(12)+9=21" in event["messages"]["ja"] and "合計が13になる必要があります" in event["messages"]["ja"]
    assert "Q(12)+9=21" in event["messages"]["en"]
    assert event["details"]["equation"] == "Q(12)+9=21" and event["details"]["total"] == 21
    assert after["selected"] == []
    assert still(after) == still(before) | {"selected": [], "partners": [], "version": before["version"] + 1}
    # 3♣+10♠ go; a draw shows A♦; Q♥+A♦ go
    play_by_taps(client, game, "3c+Ts")
    after, event = stock(client, game)
    assert event == {"kind": "draw", "move": "draw", "cards": []}
    assert after["waste"] == {"top": "Ad", "count": 1, "uses_left": None}
    assert after["stock"]["label"] == "1/3周目 · 残り 23"
    assert "Ad" in after["usable"]
    after = play_by_taps(client, game, "Qh+Ad")
    assert after["waste"] == {"top": None, "count": 0, "uses_left": None}
    assert after["removed"] == {"count": 7, "top": ["Qh", "Ad"]}
    assert after["moves"] == 5  # Ks, 6h+7d, 3c+Ts, draw, Qh+Ad; the refusal is no move
    assert after["status"] == "playing"


def test_a_king_goes_in_one_tap_even_with_another_card_selected(client: TestClient) -> None:
    # seed 001: "K is 13 by itself, so one tap removes it"; seed 000 says the same of the app
    game = new_game(client, deal=SEED_001, rules="classic")
    tap(client, game, "6h")
    after, event = tap(client, game, "Ks")
    assert event == {"kind": "removed", "move": "Ks", "cards": ["Ks"]}
    assert after["selected"] == []
    pyramide = new_game(client, deal=SEED_000, rules="pyramide")
    tap(client, pyramide, "7c")
    after, _ = tap(client, pyramide, "7s")  # refused: 7s stays selected (seed 000)
    assert after["selected"] == ["7s"]
    after, event = tap(client, pyramide, "Kd")
    assert event == {"kind": "removed", "move": "Kd", "cards": ["Kd"]}
    assert after["score"] == 10


def test_tapping_a_selected_card_puts_it_down_and_deselect_puts_all_down(client: TestClient) -> None:
    game = new_game(client, deal=SEED_001, rules="classic")
    tap(client, game, "6h")
    after, event = tap(client, game, "6h")
    assert event == {"kind": "deselected", "cards": ["6h"]}
    assert after["selected"] == [] and after["partners"] == []
    tap(client, game, "3c")
    after, event = post(client, game, "deselect")
    assert event == {"kind": "deselected", "cards": ["3c"]}
    assert after["selected"] == [] and after["partners"] == []
    after, event = post(client, game, "deselect")
    assert event == {"kind": "deselected", "cards": []}
    assert after["moves"] == 0


def test_pyramide_keeps_the_second_card_selected_after_a_wrong_sum(client: TestClient) -> None:
    game = new_game(client, deal=SEED_000, rules="pyramide")
    tap(client, game, "7c")
    after, event = tap(client, game, "7s")
    assert event["code"] == "sum"
    assert "7+7=14" in event["messages"]["ja"] and "7+7=14" in event["messages"]["en"]
    assert after["selected"] == ["7s"]
    assert after["score"] == 0 and after["moves"] == 0
    # the kept card pairs on the next tap: 10♣ is no partner of 7, so 10♣ is kept instead
    after, event = tap(client, game, "Tc")
    assert event["code"] == "sum"
    assert after["selected"] == ["Tc"]
    assert after["partners"] == ["3h", "3s"]
    after, event = tap(client, game, "3s")
    assert event["kind"] == "removed"
    assert after["score"] == 20


def test_classic_clears_the_selection_after_a_wrong_sum(client: TestClient) -> None:
    game = new_game(client, deal=SEED_000, rules="classic")
    tap(client, game, "7c")
    after, event = tap(client, game, "7s")
    assert event["code"] == "sum"
    assert after["selected"] == []


def test_a_covered_card_in_pyramide_is_refused_quietly_with_its_coverers(client: TestClient) -> None:
    game = new_game(client, deal=SEED_000, rules="pyramide")
    tap(client, game, "7s")
    after, event = tap(client, game, "Qc")
    assert event["kind"] == "refused" and event["code"] == "covered"
    assert event["quiet"] is True
    assert sorted(event["details"]["covering"]) == ["7c", "Tc"]
    assert event["slot"] == slot(6, 1)
    assert event["cards"] == ["Qc"]
    assert "このカードは別のカードに覆われています" in event["messages"]["ja"]
    assert after["selected"] == ["7s"]  # a covered tap leaves the selection alone


def test_a_covered_card_in_classic_names_its_coverers_aloud(client: TestClient) -> None:
    game = new_game(client, deal=SEED_001, rules="classic")
    card = SEED_001.split()[slot(6, 2)]
    _, event = tap(client, game, card, lang="en")  # (6,2), under 6h and 3c in row 7
    assert event["code"] == "covered"
    assert "quiet" not in event
    assert event["cards"] == [card]
    assert sorted(event["details"]["covering"]) == ["3c", "6h"]
    assert event["messages"]["en"] == "This card is covered by 6♥ and 3♣."
    # by slot, the same answer
    _, by_slot = tap(client, game, at=slot(6, 2))
    assert by_slot == event


def test_tapping_a_removed_card_or_one_not_in_the_game_is_refused(client: TestClient) -> None:
    game = new_game(client, deal=SEED_001, rules="classic")
    tap(client, game, "Ks")
    _, event = tap(client, game, "Ks")
    assert event["code"] == "removed"
    _, event = tap(client, game, at=slot(7, 1))
    assert event["code"] == "removed"
    _, event = tap(client, game, "X1")
    assert event["code"] == "not-in-game"


def test_tapping_stock_cards_answers_only_not_usable(client: TestClient) -> None:
    game = new_game(client, deal=SEED_001, rules="classic")
    stock_cards = SEED_001.split()[28:]
    answers = []
    for token in [stock_cards[0], stock_cards[5], stock_cards[-1]]:
        after, event = tap(client, game, token)
        assert event == {"kind": "refused", "code": "not-usable",
                         "messages": {"ja": "このカードは今は使えません", "en": "This card cannot be used now."},
                         "details": {}, "cards": []}
        assert token not in TOKEN_RE.findall(json.dumps(without_id({"game": after})))
        answers.append(still(after) | {"version": 0})
    assert answers[0] == answers[1] == answers[2]
    # the card under the waste top is no more usable than one in the stock
    stock(client, game)
    stock(client, game)
    _, event = tap(client, game, stock_cards[0])
    assert event["code"] == "not-usable" and event["cards"] == []


def test_thirteen_answers_never_name_a_face_down_card(client: TestClient) -> None:
    deal = Deal.from_number(3, "thirteen")
    game = new_game(client, code=deal.code)
    hidden = hidden_tokens(game, deal.notation)
    assert len(hidden) == 21
    assert_reveals_none({"game": game}, hidden)
    assert set(game["names"]) == {e["card"] for e in game["pyramid"] if e["card"]}
    for place in range(21):  # every face-down slot, then every face-down card by its token
        response = client.post(f"/api/games/{game['id']}/tap", json={"slot": place})
        answer = response.json()
        assert answer["event"]["kind"] == "refused" and answer["event"]["cards"] == []
        assert answer["event"]["slot"] == place
        assert answer["event"]["code"] in ("covered", "not-usable")
        assert_reveals_none(answer, hidden)
    for token in sorted(hidden):
        answer = client.post(f"/api/games/{game['id']}/tap", json={"card": token}).json()
        assert answer["event"]["code"] == "not-usable" and answer["event"]["cards"] == []
        assert_reveals_none(answer, hidden)  # not even the token tapped is echoed
    # play on: removals expose cards, and still no answer names one that is face down
    for _ in range(12):
        current = state(client, game)
        if current["status"] != "playing":
            break
        hidden = hidden_tokens(current, deal.notation)
        removals = [m for m in current["legal_moves"] if m not in ("draw", "recycle")]
        action = ("move", {"move": removals[0]}) if removals else ("stock", None)
        for name, body in [action, ("hint", None), ("undo", None), ("redo", None)]:
            answer = client.post(f"/api/games/{game['id']}/{name}", json=body).json()
            now_hidden = hidden_tokens(answer["game"], deal.notation)
            assert_reveals_none(answer, now_hidden)
            assert not set(answer["game"]["names"]) & now_hidden
        assert_reveals_none(client.get(f"/api/games/{game['id']}?lang=en").json(), hidden_tokens(
            state(client, game), deal.notation))


def test_thirteen_a_face_down_slot_answers_the_same_whatever_card_lies_there(client: TestClient) -> None:
    # two deals that differ only in two face-down cards: the apex and (6,1)
    bottom = row_of(7, "3c Tc 2c 2d 2h 6h 7h")
    one = new_game(client, deal=make_notation({**bottom, (6, 1): "Qc", (1, 1): "5c"}), rules="thirteen")
    two = new_game(client, deal=make_notation({**bottom, (6, 1): "5c", (1, 1): "Qc"}), rules="thirteen")

    def seen(game: Json) -> Json:
        return {k: v for k, v in still(game).items() if k not in ("id", "code")}

    assert seen(one) == seen(two)
    for place in (slot(1, 1), slot(6, 1), slot(6, 2)):
        first, first_event = tap(client, one, at=place)
        second, second_event = tap(client, two, at=place)
        assert first_event == second_event
        assert seen(first) == seen(second)
    assert tap(client, one, at=slot(6, 1))[1]["details"]["covering"] == ["3c", "Tc"]


# --- the stock ---------------------------------------------------------------------------------------


def test_the_stock_draws_recycles_and_is_refused_once_three_passes_are_used_up(client: TestClient) -> None:
    notation = make_notation()  # plain order: K♦ sits in row 7, so the game is never lost
    game = new_game(client, deal=notation, rules="classic")
    order = notation.split()[28:]
    for number in (1, 2, 3):
        seen = []
        for left in range(23, -1, -1):
            after, event = stock(client, game)
            assert event == {"kind": "draw", "move": "draw", "cards": []}
            seen.append(after["waste"]["top"])
            assert after["stock"]["label"] == f"{number}/3周目 · 残り {left}"
        assert seen == order  # the same order on every pass
        if number < 3:
            after, event = stock(client, game, lang="en")
            assert event == {"kind": "recycle", "move": "recycle", "cards": []}
            assert after["stock"]["label"] == f"Pass {number + 1}/3 · 24 left"
            assert after["waste"] == {"top": None, "count": 0, "uses_left": None}
    before = state(client, game)
    assert before["moves"] == 3 * 24 + 2
    after, event = stock(client, game)
    assert event["kind"] == "refused" and event["code"] == "passes-used-up"
    assert event["messages"]["ja"] == "3周めくり終えました"
    assert event["messages"]["en"] == "All 3 passes through the stock are used up."
    assert after["status"] == "playing"
    assert still(after) == still(before) | {"version": before["version"] + 1}
    # a recycle in notation is refused with the same reason, and changes nothing at all
    body = error(client.post(f"/api/games/{game['id']}/move", json={"move": "recycle"}), 409, "passes-used-up")
    assert body["message"] == "3周めくり終えました"
    assert still(state(client, game)) == still(after)


def test_pyramide_recycles_without_limit(client: TestClient) -> None:
    game = new_game(client, deal=SEED_000, rules="pyramide")
    for number in range(1, 5):
        for _ in range(23 if number == 1 else 24):  # the first waste card comes round too
            stock(client, game)
        after, event = stock(client, game)
        assert event["kind"] == "recycle"
        assert after["stock"]["label"] == f"{number + 1}周目 · 残り 24"


# --- undo, redo, hint, rewind, coach -----------------------------------------------------------------


def test_undo_and_redo_take_back_and_replay_a_move(client: TestClient) -> None:
    game = new_game(client, deal=SEED_001, rules="classic")
    error(client.post(f"/api/games/{game['id']}/undo"), 409, "nothing-to-undo")
    error(client.post(f"/api/games/{game['id']}/redo?lang=en"), 409, "nothing-to-redo")
    assert still(state(client, game)) == still(game)
    tap(client, game, "Ks")
    stock(client, game)
    after, event = post(client, game, "undo")
    assert event == {"kind": "undone", "move": "draw", "cards": []}
    assert after["stock"]["count"] == 24
    after, event = post(client, game, "undo")
    assert event == {"kind": "undone", "move": "Ks", "cards": ["Ks"]}
    assert "Ks" in after["usable"] and not entry(after, 7, 1)["removed"]
    assert after["undos"] == 2 and after["moves"] == 2  # the move counter never goes down
    assert after["can_redo"] and not after["can_undo"]
    after, event = post(client, game, "redo")
    assert event == {"kind": "redone", "move": "Ks", "cards": ["Ks"]}
    assert "Ks" not in after["usable"]
    assert after["moves"] == 3


def test_hint_shows_a_legal_move_and_counts(client: TestClient) -> None:
    game = new_game(client, deal=SEED_001, rules="classic")
    after, event = post(client, game, "hint")
    assert event["kind"] == "hint"
    assert event["move"] in game["legal_moves"]
    assert event["cards"] == event["move"].split("+")
    assert after["hints"] == 1 and after["moves"] == 0


def test_rewind_goes_back_to_before_the_move_that_made_a_dead_card(client: TestClient) -> None:
    game = new_game(client, deal=make_notation(DEAD_PYRAMID, ["Qh", "Qs"]), rules="classic")
    body = error(client.post(f"/api/games/{game['id']}/rewind?lang=en"), 409, "no-dead-card")
    assert body["message"] == "There is no dead card to rewind from."
    stock(client, game)
    after, event = post(client, game, "move", {"move": "Ad+Qd"})
    assert after["dead"] == ["Qc"]
    assert entry(after, 5, 1)["dead"]
    assert after["can_rewind"]
    stock(client, game)
    after, event = post(client, game, "rewind")
    assert event == {"kind": "rewound", "undone": 2, "cards": ["Ad", "Qd"]}
    assert after["dead"] == [] and not after["can_rewind"]
    assert after["waste"]["top"] == "Qh"
    assert after["undos"] == 1


def test_coach_gives_the_solvers_move_and_says_it_knows_the_hidden_cards(client: TestClient) -> None:
    game = new_game(client, deal=SEED_001, rules="classic")
    _, event = post(client, game, "coach")
    assert event["kind"] == "coach"
    assert event["move"] in game["legal_moves"]
    assert event["winnable"] is True
    assert event["uses_hidden_cards"] is True


# --- moves in notation -------------------------------------------------------------------------------


def test_a_legal_move_in_notation_is_played(client: TestClient) -> None:
    game = new_game(client, deal=SEED_001, rules="classic")
    tap(client, game, "6h")
    after, event = post(client, game, "move", {"move": "ks"})
    assert event == {"kind": "removed", "move": "Ks", "cards": ["Ks"]}
    assert after["selected"] == ["6h"]  # still usable, so still selected
    after, event = post(client, game, "move", {"move": "7♦ + 6♥"})
    assert event == {"kind": "removed", "move": "7d+6h", "cards": ["7d", "6h"]}
    assert after["selected"] == []
    after, event = post(client, game, "move", {"move": "draw"})
    assert event == {"kind": "draw", "move": "draw", "cards": []}
    assert after["moves"] == 3


@pytest.mark.parametrize(("move", "code"), [
    ("Qh+9c", "sum"),
    ("2c", "covered"),
    ("Qh", "lone"),
    ("Ks+Ks", "same-card"),
    ("recycle", "stock-not-empty"),
    ("Ad+Qh", "not-usable"),
])
def test_an_illegal_move_is_409_and_changes_nothing(client: TestClient, move: str, code: str) -> None:
    game = new_game(client, deal=SEED_001, rules="classic")
    tap(client, game, "6h")
    before = state(client, game)
    body = error(client.post(f"/api/games/{game['id']}/move", json={"move": move}), 409, code)
    assert still(state(client, game)) == still(before)
    if code == "sum":
        assert "Q(12)+9=21" in body["message"]
        assert body["details"]["equation"] == "Q(12)+9=21"
        english = error(client.post(f"/api/games/{game['id']}/move?lang=en", json={"move": move}), 409, code)
        assert english["message"] == "The cards must add up to 13: Q(12)+9=21."


# --- bad requests ------------------------------------------------------------------------------------

GAME = "{game}"

#: (method, path, request arguments, status, code): every one refused, the game unchanged.
BAD_REQUESTS: list[tuple[str, str, Json, int, str]] = [
    ("GET", "/api/games/no-such-game", {}, 404, "unknown-game"),
    ("POST", "/api/games/no-such-game/tap", {"json": {"card": "Ks"}}, 404, "unknown-game"),
    ("POST", "/api/games/no-such-game/stock", {}, 404, "unknown-game"),
    ("POST", "/api/games/no-such-game/move", {"json": {"move": "Ks"}}, 404, "unknown-game"),
    ("POST", "/api/games/no-such-game/undo", {}, 404, "unknown-game"),
    ("POST", "/api/games", {"json": {"code": "CL1-Q-AAAAAAB"}}, 400, "bad-code"),
    ("POST", "/api/games", {"json": {"code": "CL9-R-AAAAAAB"}}, 400, "bad-code"),
    ("POST", "/api/games", {"json": {"code": "CL1-R-AAAB"}}, 400, "bad-code"),
    ("POST", "/api/games", {"json": {"code": "garbage"}}, 400, "bad-code"),
    ("POST", "/api/games", {"json": {"code": SEED_001}}, 400, "bad-code"),  # notation is no code
    ("POST", "/api/games", {"json": {"deal": "As Ks"}}, 400, "bad-deal"),
    ("POST", "/api/games", {"json": {"deal": SEED_001.replace("Ad", "Ac")}}, 400, "bad-deal"),
    ("POST", "/api/games", {"json": {"deal": SEED_001.replace("Ad", "Zz")}}, 400, "bad-deal"),
    ("POST", "/api/games", {"json": {"rules": "bogus"}}, 400, "bad-rules"),
    ("POST", "/api/games", {"json": {"rules": "classic(passes=x)"}}, 400, "bad-rules"),
    ("POST", "/api/games", {"json": {"rules": "thirteen(jokers=5)"}}, 400, "bad-rules"),
    ("POST", "/api/games", {"json": {"code": "CL1-R-AAAAAAB", "deal": SEED_001}}, 400, "bad-request"),
    ("POST", "/api/games", {"json": {"difficulty": "H"}}, 422, "bad-request"),
    ("POST", "/api/games", {"json": {"rules": 5}}, 422, "bad-request"),
    ("POST", "/api/games", {"json": {"rules": "classic", "colour": "red"}}, 422, "bad-request"),
    ("POST", "/api/games", {"json": {"rules": "x" * 201}}, 422, "bad-request"),
    ("POST", f"/api/games/{GAME}/move", {"json": {"move": "Zz"}}, 400, "bad-move"),
    ("POST", f"/api/games/{GAME}/move", {"json": {"move": " "}}, 400, "bad-move"),
    ("POST", f"/api/games/{GAME}/move", {"json": {"move": "Ac+2c+3c+4c"}}, 400, "bad-move"),
    ("POST", f"/api/games/{GAME}/move", {"json": {"move": 5}}, 422, "bad-request"),
    ("POST", f"/api/games/{GAME}/move", {"json": {}}, 422, "bad-request"),
    ("POST", f"/api/games/{GAME}/move", {"json": {"move": "Ks", "also": "Qh"}}, 422, "bad-request"),
    ("POST", f"/api/games/{GAME}/tap", {"json": {"card": "Zz"}}, 400, "bad-card"),
    ("POST", f"/api/games/{GAME}/tap", {"json": {"card": "K"}}, 400, "bad-card"),
    ("POST", f"/api/games/{GAME}/tap", {"json": {"slot": 28}}, 400, "bad-card"),
    ("POST", f"/api/games/{GAME}/tap", {"json": {"slot": -1}}, 400, "bad-card"),
    ("POST", f"/api/games/{GAME}/tap", {"json": {"card": "Ks", "slot": 21}}, 422, "bad-request"),
    ("POST", f"/api/games/{GAME}/tap", {"json": {}}, 422, "bad-request"),
    ("POST", f"/api/games/{GAME}/tap", {"json": {"card": None, "slot": None}}, 422, "bad-request"),
    ("POST", f"/api/games/{GAME}/tap", {"json": {"card": 5}}, 422, "bad-request"),
    ("POST", f"/api/games/{GAME}/tap", {"json": {"slot": "x"}}, 422, "bad-request"),
    ("POST", f"/api/games/{GAME}/tap", {"json": {"slot": 1.5}}, 422, "bad-request"),
    ("POST", f"/api/games/{GAME}/tap", {"json": ["Ks"]}, 422, "bad-request"),
    ("POST", f"/api/games/{GAME}/tap", {"json": {"card": "Ks", "extra": 1}}, 422, "bad-request"),
    ("POST", f"/api/games/{GAME}/tap", {"json": {"card": "Ks" * 5}}, 422, "bad-request"),
    ("POST", f"/api/games/{GAME}/tap", {"content": b"{bad", "headers": {"content-type": "application/json"}},
     422, "bad-json"),
    ("POST", f"/api/games/{GAME}/tap", {"content": b"card=Ks",
                                        "headers": {"content-type": "application/x-www-form-urlencoded"}},
     422, "bad-request"),
    ("POST", f"/api/games/{GAME}/tap", {"content": b'{"card": "' + b"K" * MAX_BODY + b'"}',
                                        "headers": {"content-type": "application/json"}}, 413, "too-large"),
    ("POST", f"/api/games/{GAME}/tap?lang=fr", {"json": {"card": "Ks"}}, 422, "bad-request"),
    ("GET", "/api/nothing", {}, 404, "not-found"),
    ("POST", f"/api/games/{GAME}/fly", {}, 404, "not-found"),
    ("GET", "/static/nothing.js", {}, 404, "not-found"),
    ("GET", "/locales/fr.json", {}, 404, "not-found"),
    ("GET", f"/api/games/{GAME}/tap", {}, 405, "method-not-allowed"),
    ("DELETE", f"/api/games/{GAME}", {}, 405, "method-not-allowed"),
    ("PUT", "/api/rules", {}, 405, "method-not-allowed"),
]


@pytest.mark.parametrize(("method", "path", "arguments", "status", "code"), BAD_REQUESTS,
                         ids=[f"{m} {p} {s} {c} #{i}" for i, (m, p, _, s, c) in enumerate(BAD_REQUESTS)])
def test_a_bad_request_is_refused_with_json_and_changes_nothing(client: TestClient, method: str, path: str,
                                                                 arguments: Json, status: int, code: str) -> None:
    game = new_game(client, deal=SEED_001, rules="classic")
    tap(client, game, "6h")  # a selection, which a bad request must not drop either
    before = state(client, game)
    response = client.request(method, path.replace(GAME, game["id"]), **arguments)
    body = error(response, status, code)
    if code == "too-large":
        assert body["details"] == {"limit": MAX_BODY}
    if status in (400, 422):  # the details say what is wrong
        assert body["details"].get("errors") or body["details"].get("reason")
    assert still(state(client, game)) == still(before)


def test_a_chunked_body_of_unknown_size_is_refused(client: TestClient) -> None:
    game = new_game(client, deal=SEED_001, rules="classic")
    before = state(client, game)

    def chunks() -> Iterator[bytes]:
        yield b'{"move": "'
        yield b" " * MAX_BODY
        yield b'Ks"}'

    response = client.post(f"/api/games/{game['id']}/move", content=chunks(),
                           headers={"content-type": "application/json"})
    assert error(response, 413, "too-large")["details"]["limit"] == MAX_BODY
    assert still(state(client, game)) == still(before)


def test_validation_errors_say_where_and_what(client: TestClient) -> None:
    game = new_game(client, deal=SEED_001, rules="classic")
    body = error(client.post(f"/api/games/{game['id']}/tap?lang=en", json={"card": "Ks", "extra": 1}),
                 422, "bad-request")
    assert body["details"]["errors"] == [{"where": "body.extra", "problem": "Extra inputs are not permitted"}]
    assert body["message"].startswith("The request is not valid: body.extra")
    body = error(client.post(f"/api/games/{game['id']}/tap", content=b"{bad",
                             headers={"content-type": "application/json"}), 422, "bad-json")
    assert body["message"].startswith("リクエストのJSONが読めません")


def test_a_bad_code_names_the_problem_in_the_players_language(client: TestClient) -> None:
    body = error(client.post("/api/games?lang=en", json={"code": "CL1-Q-AAAAAAB"}), 400, "bad-code")
    assert body["message"].startswith("That deal code is not valid: ")
    assert "Q" in body["details"]["reason"]
    body = error(client.post("/api/games", json={"code": "CL1-Q-AAAAAAB"}), 400, "bad-code")
    assert body["message"].startswith("配札コードが正しくありません：")


def test_english_messages_with_lang_en(client: TestClient) -> None:
    assert error(client.get("/api/games/nope?lang=en"), 404, "unknown-game")["message"] == "No such game"
    assert error(client.get("/api/games/nope"), 404, "unknown-game")["message"] == "そのゲームは見つかりません"
    assert error(client.get("/api/nothing?lang=en"), 404, "not-found")["message"] == "Not found"
    game = new_game(client, lang="en", deal=SEED_001, rules="classic")
    assert game["lang"] == "en"
    assert game["stock"]["label"] == "Pass 1/3 · 24 left"
    assert game["names"]["Ks"] == "king of spades"
    assert state(client, game, lang="ja")["names"]["Ks"] == "スペードのキング"
    body = error(client.post(f"/api/games/{game['id']}/move?lang=en", json={"move": "Zz"}), 400, "bad-move")
    assert body["message"].startswith("That move is not written correctly: ")


# --- headers and pages -------------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/api/rules", "/", "/play/CL1-R-AAAAAAB", "/static/js/main.js",
                                  "/locales/ja.json", "/api/nothing", "/api/games/nope"])
def test_every_answer_carries_the_security_headers(client: TestClient, path: str) -> None:
    headers = client.get(path).headers
    policy = headers["content-security-policy"]
    assert "default-src 'self'" in policy
    assert "script-src 'self'" in policy
    assert "frame-ancestors 'none'" in policy
    assert "object-src 'none'" in policy
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["x-frame-options"] == "DENY"
    assert headers["referrer-policy"] == "same-origin"


def test_errors_too_carry_the_security_headers(client: TestClient) -> None:
    response = client.post("/api/games", content=b"x" * (MAX_BODY + 1), headers={"content-type": "application/json"})
    error(response, 413, "too-large")
    assert "frame-ancestors 'none'" in response.headers["content-security-policy"]


def test_the_page_its_links_and_locales_are_served(client: TestClient) -> None:
    for path in ("/", "/play/CL1-R-AAAAAAB"):
        response = client.get(path)
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/html")
        assert "/static/js/main.js" in response.text
    for lang in ("ja", "en"):
        response = client.get(f"/locales/{lang}.json")
        assert response.status_code == 200
        assert isinstance(response.json(), dict) and response.json()


# --- whole deals -------------------------------------------------------------------------------------


def first_winnable(rules: str, start: int = 1) -> tuple[Deal, list[str]]:
    for number in range(start, start + 30):
        deal = Deal.from_number(number, rules)
        result = solve(deal, best=False, time_limit=10)
        if result.winnable and result.solution:
            return deal, [str(m) for m in result.solution]
    raise AssertionError(f"no winnable {rules} deal")


@pytest.mark.parametrize("rules", ["classic", "pyramide", "thirteen", "msc"])
def test_a_deal_won_by_tapping_the_solvers_solution(client: TestClient, rules: str) -> None:
    deal, solution = first_winnable(rules)
    game = new_game(client, code=deal.code)
    for index, move in enumerate(solution):
        after = play_by_taps(client, game, move)
        assert after["moves"] == index + 1
        if index < len(solution) - 1:
            assert after["status"] == "playing" and after["result"] is None
    assert after["status"] == "won"
    assert after["status_message"] == "クリア！"
    result = after["result"]
    assert result["won"] is True
    assert result["pyramid_removed"] == result["pyramid_size"] == 28
    assert result["moves"] == len(solution)
    assert result["undos"] == 0 and result["hints"] == 0
    assert result["best_removed"] is None
    if rules == "pyramide":
        assert result["score"] == 280
    # the game is over: taps are refused as such, and undo too
    _, event = tap(client, game, at=0)
    assert event["code"] == "game-over"
    _, event = stock(client, game)
    assert event["code"] == "game-over"
    error(client.post(f"/api/games/{game['id']}/undo"), 409, "game-over")
    assert state(client, game)["result"]["won"] is True


def test_a_deal_won_by_moves_in_notation(client: TestClient) -> None:
    deal, solution = first_winnable("classic", start=3)
    game = new_game(client, code=deal.code, lang="en")
    for move in solution:
        after, event = post(client, game, "move", {"move": move}, lang="en")
        assert event["move"] == move
    assert after["status"] == "won" and after["status_message"] == "Cleared!"
    assert after["result"]["won"] is True
    assert after["removed"]["count"] == sum(len(m.split("+")) for m in solution if m not in ("draw", "recycle"))


def test_a_lost_deal_shows_the_best_the_deal_allowed(client: TestClient) -> None:
    deal = Deal.from_number(LOST_CLASSIC, "classic")
    best = solve(deal, best=True)
    assert best.winnable is False
    game = new_game(client, code=deal.code)
    current = game
    for _ in range(200):
        if current["status"] != "playing":
            break
        removals = [m for m in current["legal_moves"] if m not in ("draw", "recycle")]
        if removals:
            current = play_by_taps(client, game, removals[0])
        else:
            current, _ = stock(client, game)
    assert current["status"] == "lost"
    assert current["status_message"] == "手詰まりです"
    result = current["result"]
    assert result["won"] is False
    assert result["best_removed"] is None  # the tap that ends the game does not wait for the solver
    answer = client.get(f"/api/games/{game['id']}/best")
    assert answer.status_code == 200
    assert answer.json() == {"best_removed": best.max_pyramid_removed, "best_exact": True, "pyramid_size": 28}
    again = client.get(f"/api/games/{game['id']}").json()["game"]["result"]
    assert again["best_removed"] == best.max_pyramid_removed
    assert again["best_exact"] is True
    assert again["pyramid_removed"] <= again["best_removed"] < 28
    assert again["stats"]["played"] == 1 and again["stats"]["won"] == 0


@pytest.mark.parametrize("order", ["covered first", "coverer first"])
def test_overlap_pairs_are_tapped_in_either_order(client: TestClient, order: str) -> None:
    deal = Deal.from_number(4, "overlap", "E")
    result = solve(deal, time_limit=30)
    assert result.solution is not None
    overlap = next(i for i, m in enumerate(result.solution) if str(m) == "5s+8d")  # 5s lies under 8d alone
    game = new_game(client, code=deal.code)
    for move in result.solution[:overlap]:
        game, _ = post(client, game, "move", {"move": str(move)})
    covered = next(e for e in game["pyramid"] if e["card"] == "5s")
    assert not covered["usable"]  # on its own the covered card is not usable ...
    first, second = ("5s", "8d") if order == "covered first" else ("8d", "5s")
    game, event = tap(client, game, first)
    assert event == {"kind": "selected", "cards": [first]}  # ... but it goes with the card covering it
    assert game["partners"] == [second]
    game, event = tap(client, game, second)
    assert event["kind"] == "removed" and event["move"] in ("5s+8d", "8d+5s")
    assert {e["card"] for e in game["pyramid"] if e["card"]}.isdisjoint({"5s", "8d"})

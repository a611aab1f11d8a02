"""The web API in-process (FastAPI's TestClient): what a caller of ``/api`` sees.

New games (by code, by notation, by difficulty); what the state says every tap would do (``pairs``,
``selectable``, ``refusals``, ``stock_move``: the seeds' worked examples, read from the state as the page
reads them); moves in notation, one POST each; undo/redo/hint/rewind/coach; every kind of bad request
and refused move (a 4xx ``{code, message, details}`` that leaves the game as it was and writes nothing);
the security headers; hidden cards that no answer may name; and whole deals won and lost through the
API.  Expected values come from docs/rules.md and the seeds (000: the Pyramide app; 001: the classic site).
"""

from __future__ import annotations

import json
import re
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

from helpers import TOKEN_RE, make_notation, row_of, slot
from pyramid_solitaire import Deal
from pyramid_solitaire.cards import Card
from pyramid_solitaire.messages import catalogue
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
SEED_000 = (
    "Jd 6c 7h As 4d Qs 5h 3d 6h 8s Kh Kc Ad Ks 9c Qc 2c 8d Td Ts Js 7c Tc 3h 4h 3s Kd 7s 7d Ac 3c 4c 5c "
    "8c Jc 2d 5d 6d 9d Qd Ah 2h 8h 9h Th Jh Qh 2s 4s 5s 6s 9s"
)
#: Qc at (5,1) with three aces under it; with Qh, Qs first in the stock, Ad+Qd takes the last ace it
#: could meet (tests/test_game.py).
DEAD_PYRAMID = {(5, 1): "Qc", (6, 1): "Ac", (6, 2): "Ah", (7, 1): "As", (7, 5): "Ad", (7, 6): "Qd"}
#: A classic deal the solver proves lost (best line: 11 pyramid cards), found by solving deals 0-29.
LOST_CLASSIC = 17
#: Keys every error answer has, and only these.
ERROR_KEYS = {"code", "message", "details"}
#: A row 7 with a king, two pairs and two loose cards, a free-cell test's deal (8h under 5c and 9c).
CELLS_DEAL = make_notation({**row_of(7, "Kd 5c 9c Ts 3s 6h 6s"), (6, 1): "8h"}, ["4c", "7d"])


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


def post(
    client: TestClient, game: Json | str, action: str, body: Json | None = None, lang: str = "ja"
) -> tuple[Json, Json]:
    """POST an action that must be answered 200; returns (game state, event)."""
    game_id = game if isinstance(game, str) else game["id"]
    response = client.post(f"/api/games/{game_id}/{action}?lang={lang}", json=body)
    assert response.status_code == 200, response.text
    answer: Json = response.json()
    assert set(answer) == {"game", "event"}
    return answer["game"], answer["event"]


def move(client: TestClient, game: Json | str, notation: str, lang: str = "ja", **extra: Any) -> tuple[Json, Json]:
    """Play one move in notation (one POST, as the page sends it); returns (game state, event)."""
    return post(client, game, "move", {"move": notation, **extra}, lang)


def refused(client: TestClient, game: Json | str, notation: str, code: str, lang: str = "ja", **extra: Any) -> Json:
    """POST a move the engine refuses: a 409 with the reason's code, and nothing written."""
    game_id = game if isinstance(game, str) else game["id"]
    before = state(client, game_id)
    response = client.post(f"/api/games/{game_id}/move?lang={lang}", json={"move": notation, **extra})
    body = error(response, 409, code)
    assert still(state(client, game_id)) == still(before)
    return body


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


def partners(game: Json, card: str) -> list[str]:
    """The cards the page lights when ``card`` alone is chosen: every other card of a removal holding it."""
    return sorted({token for others in game["pairs"].get(card, {"with": []})["with"] for token in others})


def offered(game: Json) -> set[frozenset[str]]:
    """Every removal the state's ``pairs`` offers, as sets of cards (a king alone is a set of one)."""
    found = set()
    for card, offer in game["pairs"].items():
        if offer["alone"]:
            found.add(frozenset([card]))
        found.update(frozenset([card, *others]) for others in offer["with"])
    return found


def removals(game: Json) -> set[frozenset[str]]:
    """The legal removals of the state's ``legal_moves``, as sets of cards."""
    return {frozenset(m.split("+")) for m in game["legal_moves"] if m not in ("draw", "recycle") and ">" not in m}


def pair_refusal(game: Json, first: str, second: str) -> Json:
    """Why the page refuses ``first`` then ``second``: the state's refusal of the pair (sorted key)."""
    found: Json = game["refusals"]["+".join(sorted((first, second)))]
    return found


def play(client: TestClient, game: Json, notation: str) -> Json:
    """Play one move the way the page does after the player's taps: check that the state offered it
    (a removal in ``pairs``, a draw or recycle as ``stock_move``), send it, check the event."""
    if notation in ("draw", "recycle"):
        assert game["stock_move"] == notation, (notation, game["stock_move"])
    else:
        first, *others = notation.split("+")
        offered = game["pairs"][first]
        assert offered["alone"] if not others else sorted(others) in [sorted(w) for w in offered["with"]], notation
    after, event = move(client, game, notation)
    assert event["kind"] == ("removed" if notation not in ("draw", "recycle") else notation), event
    assert set(event["cards"]) == (set() if notation in ("draw", "recycle") else set(notation.split("+")))
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
    assert game["stock"] == {
        "count": 24,
        "pass": 1,
        "passes": 3,
        "top": None,
        "usable": False,
        "label": "1/3周目 · 残り 24",
    }
    assert game["waste"] == {"top": None, "count": 0, "uses_left": None}
    assert game["moves"] == 0 and game["version"] == 0
    # what the page may do: every legal removal is offered card by card, and the stock draws
    assert offered(game) == removals(game) and removals(game)
    assert game["stock_move"] == "draw"
    assert sorted(game["selectable"]) == sorted(game["usable"])
    assert game["removed"] == {"count": 0, "top": []}
    # the same code again is the same deal, in a new game of its own
    again = new_game(client, code="CL1-R-AAAAAAB")
    assert again["id"] != game["id"]
    assert [e["card"] for e in again["pyramid"]] == [e["card"] for e in game["pyramid"]]
    assert state(client, game)["id"] == game["id"]


def test_a_code_carries_its_rule_set_and_options(client: TestClient) -> None:
    game = new_game(client, code="TH1J2T1-R-AAAAAAB")  # the code alone: its rules apply (other rules beside it: 400)
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
    assert by_id["classic"]["fields"]["passes"] == 3
    assert by_id["pyramide"]["fields"]["passes"] is None
    assert by_id["thirteen"]["fields"]["open_pyramid"] is False
    assert by_id["traditional"]["fields"]["strict"] is True
    assert "microsoft" in by_id["msc"]["aliases"]
    for preset in catalogue["presets"]:
        assert new_game(client, rules=preset["rules"])["rules"] == preset["rules"]
        for alias in preset["aliases"]:
            assert new_game(client, rules=alias)["preset"] == preset["id"]


def dialog_options(preset: dict[str, Any]) -> dict[str, Any]:
    """The options the New Game dialog shows for a preset of /api/rules, by key, with their values."""
    return {option["key"]: option["value"] for option in preset["options"] if option["offered"]}


def test_the_new_game_dialog_learns_from_the_server_which_options_each_preset_offers(client: TestClient) -> None:
    """Giza has no stock and Apophis deals its stock once onto three piles: no passes to choose; Giza no
    waste to limit; jokers, triples and the face-down rows are thirteen's own options."""
    presets = {p["id"]: p for p in client.get("/api/rules").json()["presets"]}
    assert {name for name, p in presets.items() if "passes" not in dialog_options(p)} == {"giza", "apophis"}
    assert {name for name, p in presets.items() if "waste_uses" not in dialog_options(p)} == {"giza"}
    assert {name for name, p in presets.items() if "jokers" in dialog_options(p)} == {"thirteen"}
    assert dialog_options(presets["thirteen"]) == {
        "passes": 4,
        "strict": False,
        "overlap": False,
        "open": False,
        "jokers": 0,
        "triples": False,
        "waste_uses": None,
        "cells": 0,
    }
    # each preset's own values, to preset the dialog's controls
    shown = {name: dialog_options(p) for name, p in presets.items()}
    assert {name: o["waste_uses"] for name, o in shown.items() if o.get("waste_uses")} == {"limited_waste": 12}
    assert {name: o["cells"] for name, o in shown.items() if o["cells"]} == {"cells": 1}
    for preset in presets.values():  # every value a choice offers is one the server takes
        for option in preset["options"]:
            assert option["kind"] == "flag" or option["value"] in option["choices"]


def test_a_new_game_of_a_preset_and_options_gets_its_rule_set_from_the_server(client: TestClient) -> None:
    """The dialog posts the preset and its options' values; the server writes the rule set (the options
    equal to the preset's are not written), so the browser holds no rule-string grammar."""
    game = new_game(
        client, preset="thirteen", options={"jokers": 2, "triples": True, "passes": 4, "open": False}, difficulty="R"
    )
    assert game["rules"] == "thirteen(jokers=2,triples=true)"
    assert re.fullmatch(r"TH1J2T1-R-[A-Z]+", game["code"])
    assert (
        new_game(client, preset="classic", options={"passes": None}, difficulty="R")["rules"]
        == "classic(passes=unlimited)"
    )
    assert new_game(client, preset="pyramide-app", options={})["rules"] == "pyramide"  # an alias of a preset


@pytest.mark.parametrize(
    ("body", "said"),
    [
        ({"preset": "nothing", "options": {}}, "nothing"),
        ({"preset": "classic", "options": {"colour": True}}, "colour"),
        ({"preset": "classic", "options": {"overlap": 3}}, "overlap"),
        ({"preset": "classic", "options": {"cells": True}}, "cells"),
        ({"preset": "classic", "options": {"cells": None}}, "cells"),
        ({"preset": "classic", "options": {"cells": 9}}, "9"),
        ({"preset": "classic(cells=1)", "options": {}}, "classic(cells=1)"),
        ({"options": {"cells": 1}}, "preset"),
    ],
)
def test_a_preset_or_option_value_the_rules_lack_is_a_bad_rules_answer(
    client: TestClient, body: dict[str, Any], said: str
) -> None:
    for lang in ("en", "ja"):
        response = client.post(f"/api/games?lang={lang}", json=body)
        assert response.status_code == 400 and response.json()["code"] == "bad-rules", response.text
        message = response.json()["message"]
        assert said in message or (lang == "ja" and body.get("preset") is None), message
    assert client.get("/api/me").json()["unfinished"] == []  # nothing started


def test_a_waste_card_whose_uses_are_spent_is_refused_with_the_reason(client: TestClient) -> None:
    notation = make_notation(row_of(7, "Kd 9c 9d Ts 3s 6h 6s"), ["4c", "4d"])
    game = new_game(client, deal=notation, rules="classic(waste_uses=1)")
    assert game["waste"]["uses_left"] == 1
    game = play(client, game, "draw")
    game = play(client, game, "9c+4c")
    game = play(client, game, "draw")
    assert game["waste"]["uses_left"] == 0 and game["waste"]["top"] == "4d"
    # the page explains a tap on the spent waste card from the state; a move naming it is a 409
    assert "4d" not in game["selectable"] and "4d" not in game["pairs"]
    assert game["refusals"]["4d"]["code"] == "waste-uses-used-up"
    assert game["refusals"]["4d"]["message"] == "捨て札はもう使えません（1回まで）"
    body = refused(client, game, "9d+4d", "waste-uses-used-up")
    assert body["message"] == "捨て札はもう使えません（1回まで）"


def test_a_card_parked_in_the_free_cell_is_recorded_and_reloads_in_its_cell(client: TestClient) -> None:
    """A park is one move (``5c>cell``); the state says why a tap on a free cell with nothing chosen does
    nothing.  A parked card is not in the removed pile, and the game reloads from the store with the card
    in its cell.  Rules without cells refuse a park (409, nothing written)."""
    assert {p["id"]: p["fields"]["cells"] for p in client.get("/api/rules").json()["presets"]}["cells"] == 1
    game = new_game(client, deal=CELLS_DEAL, rules="cells")
    assert game["cells"] == {"size": 1, "slots": [None]}
    assert game["refusals"]["cell"]["code"] == "cell-choose-one"
    assert "5c>cell" in game["legal_moves"]
    english = state(client, game, lang="en")
    assert english["refusals"]["cell"]["message"] == "Choose one card, then choose an empty free cell to put it there."
    play(client, game, "Kd")
    after, event = move(client, game, "5c>cell")
    assert event == {"kind": "parked", "move": "5c>cell", "cards": ["5c"]}
    assert after["cells"] == {"size": 1, "slots": [{"card": "5c", "dead": False}]}
    assert "5c" in after["usable"] and "8h" in after["usable"]
    assert after["pairs"]["8h"]["with"] == [["5c"]]
    assert entry(after, 7, 2)["removed"] and entry(after, 7, 2)["parked"]
    assert after["removed"] == {"count": 1, "top": ["Kd"]}  # parking removes nothing
    assert "5c>cell" not in after["legal_moves"] and "8h+5c" in after["legal_moves"]
    assert still(state(client, game)) == still(after)
    client.app.state.games.drop(game["id"])  # type: ignore[attr-defined]
    reloaded = state(client, game)  # rebuilt from the recorded moves
    assert reloaded["cells"] == after["cells"] and reloaded["moves"] == after["moves"]
    after, event = move(client, game, "8h+5c")
    assert event["kind"] == "removed" and after["cells"]["slots"] == [None]
    _, event = move(client, game, "9c>cell")
    assert event == {"kind": "parked", "move": "9c>cell", "cards": ["9c"]}
    classic = new_game(client, deal=CELLS_DEAL)
    assert "cell" not in classic["refusals"]
    assert refused(client, classic, "5c>cell", "no-cells")["message"]


def test_a_card_goes_to_the_free_cell_named_and_stays_there_through_undo_reload_and_import(client: TestClient) -> None:
    """With two cells, a park into the second puts the card there, not in the first; the cell is part of
    the record (``9c>cell2``), so undo/redo, a reload from the store and an exported-then-imported game all
    show it in the same cell.  A taken cell is a refused move; a cell the game lacks is a 400/422."""
    game = new_game(client, deal=CELLS_DEAL, rules="classic(cells=2)")
    assert game["cells"] == {"size": 2, "slots": [None, None]}

    def slots(state_: Json) -> list[str | None]:
        return [entry and entry["card"] for entry in state_["cells"]["slots"]]

    play(client, game, "Kd")
    after, event = move(client, game, "9c>cell", cell=1)
    assert event == {"kind": "parked", "move": "9c>cell2", "cards": ["9c"]}
    assert slots(after) == [None, "9c"]
    post(client, game, "undo")
    after, _ = post(client, game, "redo")
    assert slots(after) == [None, "9c"]  # back in the cell it was in
    body = refused(client, game, "5c>cell", "cell-taken", cell=1)
    assert body["message"] == "フリーセル2にはもうカードがあります"
    english = refused(client, game, "5c>cell2", "cell-taken", lang="en")  # the cell written in the move, from 1
    assert english["message"] == "Free cell 2 already holds a card."
    assert not entry(state(client, game), 7, 2)["parked"]
    after, _ = move(client, game, "5c>cell")  # no cell named: the first empty one (the C key)
    assert slots(after) == ["5c", "9c"]
    before = state(client, game)
    # each says which cell, counted from 1 as the move writes it, and what the game has
    for body_, says in [
        (
            {"move": "6h>cell", "cell": 2},
            'Wrong free cell: there is no free cell 3; this game has 2 (Qs>cell1 to Qs>cell2, or "cell": 0 to 1)',
        ),
        (
            {"move": "6h>cell9"},
            'Wrong free cell: there is no free cell 9; this game has 2 (Qs>cell1 to Qs>cell2, or "cell": 0 to 1)',
        ),
        (
            {"move": "6h>cell2", "cell": 1},
            "Wrong free cell: the cell is named twice, in the move '6h>cell2' and in \"cell\" (name it once)",
        ),
    ]:
        answer = error(client.post(f"/api/games/{game['id']}/move?lang=en", json=body_), 400, "bad-cell")
        assert answer["message"] == says
    answer = error(client.post(f"/api/games/{game['id']}/move", json={"move": "6h>cell9"}), 400, "bad-cell")
    assert answer["message"] == (
        "フリーセルの指定が正しくありません：フリーセル9はありません"
        '（このゲームのフリーセルは2つ：Qs>cell1〜Qs>cell2、"cell" なら 0〜1）'
    )
    for body_, status, code in [
        ({"move": "6h>cell", "cell": 2}, 400, "bad-cell"),
        ({"move": "6h>cell9"}, 400, "bad-cell"),
        ({"move": "6h+7d", "cell": 0}, 400, "bad-cell"),
        ({"move": "6h>cell", "cell": -1}, 422, "bad-request"),
        ({"move": "6h>cell", "cell": "x"}, 422, "bad-request"),
    ]:
        answer = error(client.post(f"/api/games/{game['id']}/move", json=body_), status, code)
        assert answer["details"].get("reason") or answer["details"].get("errors")
    assert still(state(client, game)) == still(before)
    client.app.state.games.drop(game["id"])  # type: ignore[attr-defined]
    assert slots(state(client, game)) == ["5c", "9c"]  # rebuilt from the recorded moves

    record = client.get(f"/api/games/{game['id']}/record").text
    assert "9c>cell2" in record.split("\n\n", 1)[1].split()
    exported = client.get("/api/me/export").json()
    other = TestClient(client.app)
    new_game(other, code="CL1-R-AAAAAAB")  # another browser, with a player of its own
    assert other.post("/api/me/import", json=exported).json() == {"imported": len(exported["games"]), "already": 0}
    imported = other.get("/api/me").json()["unfinished"]
    copy = next(g for g in imported if g["code"] == game["code"])
    assert slots(other.get(f"/api/games/{copy['id']}").json()["game"]) == ["5c", "9c"]
    bad = {
        **exported,
        "games": [{**g, "record": g["record"].replace("9c>cell2", "9c>cell3")} for g in exported["games"]],
    }
    third = TestClient(client.app)
    new_game(third, code="CL1-R-AAAAAAB")
    mine = third.get("/api/me").json()
    answer = third.post("/api/me/import", json=bad)
    assert answer.status_code == 400 and answer.json()["code"] == "bad-import"
    assert "cell3" in answer.json()["message"]
    assert third.get("/api/me").json() == mine  # nothing added


def test_a_park_by_notation_that_is_refused_is_409_and_changes_nothing(client: TestClient) -> None:
    game = new_game(client, deal=CELLS_DEAL, rules="cells")
    assert game["refusals"]["8h"]["code"] == "covered"  # not choosable, so not parkable either
    refused(client, game, "8h>cell", "covered")
    error(client.post(f"/api/games/{game['id']}/move", json={"move": "5c>waste"}), 400, "bad-move")
    assert still(state(client, game)) == still(game)
    after = play_park(client, game, "9c")
    assert after["refusals"]["5c>cell"]["code"] == "cells-full"
    body = refused(client, game, "5c>cell", "cells-full")
    assert body["message"] == "空いているフリーセルがありません"


def play_park(client: TestClient, game: Json, card: str) -> Json:
    """Park ``card`` in the first empty free cell, as the state offers it."""
    assert f"{card}>cell" in game["legal_moves"]
    after, event = move(client, game, f"{card}>cell")
    assert event["kind"] == "parked"
    return after


def test_the_state_carries_the_rule_fields_and_a_draw_of_three_fans_the_waste(client: TestClient) -> None:
    """The Rules dialog reads every rule field from the state; Tut's Tomb deals three cards a draw,
    and the state lists them (bottom first) while only the top one is usable."""
    assert {p["id"]: p["fields"]["draw"] for p in client.get("/api/rules").json()["presets"]}["tuts_tomb"] == 3
    deal = Deal.from_number(1, "tuts_tomb")
    game = new_game(client, code=deal.code)
    assert game["rule_fields"] == {
        **{key: getattr(deal.rules, key) for key in game["rule_fields"]},
        "preset": "tuts_tomb",
        "draw": 3,
        "passes": None,
    }
    assert game["waste_fan"] == []
    after = play(client, game, "draw")
    first, second, third = (str(c) for c in deal.stock[:3])
    assert after["waste_fan"] == [first, second, third]
    assert after["waste"] == {"top": third, "count": 3, "uses_left": None}
    assert third in after["usable"] and first not in after["usable"] and second not in after["usable"]
    assert {first, second, third} <= set(after["names"])  # the fanned cards are shown, so named
    assert after["refusals"][second]["code"] == "not-usable" and second not in after["selectable"]
    assert new_game(client, code=Deal.from_number(1, "classic").code)["waste_fan"] == []


# --- what a tap would do: the state the page chooses from ------------------------------------------------


def test_seed_001_worked_example_from_the_state(client: TestClient) -> None:
    """Seed 001: K♠ goes alone; choosing 6♥ lights only 7♦; Q♥ then 9♣ is refused with the two values
    and the sum (Q(12)+9=21); 3♣+10♠ go; a draw shows A♦; Q♥+A♦ go.  The page reads every step from the
    state and sends each move as one POST; the refusal is the state's, and a hand-made request for the
    same pair is a 409 that writes nothing."""
    game = new_game(client, deal=SEED_001, rules="classic")
    assert game["pairs"]["Ks"] == {"alone": True, "with": []}
    after, event = move(client, game, "Ks")
    assert event == {"kind": "removed", "move": "Ks", "cards": ["Ks"]}
    assert entry(after, 7, 1)["removed"] and "Ks" not in after["usable"] and "Ks" not in after["pairs"]
    assert after["removed"] == {"count": 1, "top": ["Ks"]}
    assert after["version"] == 1
    # choosing 6♥ lights only 7♦
    assert partners(after, "6h") == ["7d"]
    after = play(client, after, "6h+7d")
    assert after["removed"] == {"count": 3, "top": ["6h", "7d"]}
    assert entry(after, 6, 1)["usable"]  # under Ks and 6h, both gone
    assert not {"6h", "7d"} & set(after["usable"])
    # Q♥ then 9♣: the state says why, in the page's language; nothing to send
    assert "9c" not in partners(after, "Qh") and "Qh" in after["selectable"] and "9c" in after["selectable"]
    reason = pair_refusal(after, "Qh", "9c")
    assert reason["code"] == "sum" and sorted(reason["cards"]) == ["9c", "Qh"]
    assert reason["message"] == "合計が13になる必要があります：Q(12)+9=21"
    assert (
        pair_refusal(state(client, game, lang="en"), "Qh", "9c")["message"]
        == "The cards must add up to 13: Q(12)+9=21."
    )
    body = refused(client, game, "Qh+9c", "sum")
    assert body["message"] == reason["message"]
    assert body["details"]["equation"] == "Q(12)+9=21" and body["details"]["total"] == 21
    # 3♣+10♠ go; a draw shows A♦; Q♥+A♦ go
    after = play(client, after, "3c+Ts")
    after = play(client, after, "draw")
    assert after["waste"] == {"top": "Ad", "count": 1, "uses_left": None}
    assert after["stock"]["label"] == "1/3周目 · 残り 23"
    assert "Ad" in after["usable"] and partners(after, "Ad") == ["Qh"]
    after = play(client, after, "Qh+Ad")
    assert after["waste"] == {"top": None, "count": 0, "uses_left": None}
    assert after["removed"] == {"count": 7, "top": ["Qh", "Ad"]}
    assert after["moves"] == 5 and after["version"] == 5  # Ks, 6h+7d, 3c+Ts, draw, Qh+Ad; the refusal wrote nothing
    assert after["status"] == "playing"


def test_a_king_is_offered_alone_in_both_seeds(client: TestClient) -> None:
    # seed 001: "K is 13 by itself, so one tap removes it"; seed 000 says the same of the app
    classic = new_game(client, deal=SEED_001, rules="classic")
    assert classic["pairs"]["Ks"] == {"alone": True, "with": []}
    assert "Ks" not in {t for offer in classic["pairs"].values() for others in offer["with"] for t in others}
    pyramide = new_game(client, deal=SEED_000, rules="pyramide")
    assert pyramide["pairs"]["Kd"] == {"alone": True, "with": []}
    after, event = move(client, pyramide, "Kd")
    assert event == {"kind": "removed", "move": "Kd", "cards": ["Kd"]}
    assert after["score"] == 10


def test_pyramide_keeps_the_second_card_chosen_after_a_wrong_sum_and_classic_clears_it(client: TestClient) -> None:
    """Seed 000: 7♣+7♠ is refused with 合計が13になる必要があります and the second card stays selected;
    seed 001's site clears the selection.  The state says which (``ui.keep_second``) and why."""
    game = new_game(client, deal=SEED_000, rules="pyramide")
    assert game["ui"] == {"keep_second": True}
    reason = pair_refusal(game, "7c", "7s")
    assert reason["code"] == "sum" and reason["message"] == "合計が13になる必要があります：7+7=14"
    assert pair_refusal(state(client, game, lang="en"), "7c", "7s")["message"] == "The cards must add up to 13: 7+7=14."
    # the kept card pairs on the next tap: 10♣ is no partner of 7, and 10♣ pairs with either three
    assert pair_refusal(game, "7s", "Tc")["code"] == "sum"
    assert partners(game, "Tc") == ["3h", "3s"]
    after = play(client, game, "Tc+3s")
    assert after["score"] == 20 and after["moves"] == 1
    classic = new_game(client, deal=SEED_000, rules="classic")
    assert classic["ui"] == {"keep_second": False}
    assert pair_refusal(classic, "7c", "7s")["code"] == "sum"


def test_a_covered_card_in_pyramide_is_refused_quietly_with_its_coverers(client: TestClient) -> None:
    """Seed 000: tapping Q♣ in row 6 does nothing; with the error-explanation assist on the app says the
    card is covered.  The state's refusal is marked quiet and names the covering cards."""
    game = new_game(client, deal=SEED_000, rules="pyramide")
    reason = game["refusals"]["Qc"]
    assert reason["code"] == "covered" and reason["quiet"] is True
    assert reason["slot"] == slot(6, 1) and reason["cards"] == ["Qc"]
    assert reason["message"].startswith("このカードは別のカードに覆われています")
    assert sorted(entry(game, 6, 1)["covering"]) == ["7c", "Tc"]
    assert "Qc" not in game["selectable"]
    refused(client, game, "Qc", "covered")


def test_a_covered_card_in_classic_names_its_coverers_aloud(client: TestClient) -> None:
    game = new_game(client, deal=SEED_001, rules="classic", lang="en")
    card = SEED_001.split()[slot(6, 2)]  # (6,2), under 6h and 3c in row 7
    reason = game["refusals"][card]
    assert reason == {
        "code": "covered",
        "message": "This card is covered by 6♥ and 3♣.",
        "cards": [card],
        "quiet": False,
        "slot": slot(6, 2),
    }
    assert sorted(entry(game, 6, 2)["covering"]) == ["3c", "6h"]
    body = refused(client, game, f"{card}+6h", "covered", lang="en")
    assert body["message"] == "This card is covered by 6♥ and 3♣."
    assert sorted(body["details"]["covering"]) == ["3c", "6h"]


def test_a_move_naming_a_removed_card_or_one_not_in_the_game_is_refused(client: TestClient) -> None:
    game = new_game(client, deal=SEED_001, rules="classic")
    after, _ = move(client, game, "Ks")
    assert "Ks" not in after["refusals"] and "Ks" not in after["selectable"]  # gone from the table
    assert refused(client, game, "Ks", "removed")["details"] == {"card": "Ks"}
    assert refused(client, game, "X1", "not-in-game", lang="en")["message"] == "This card is not in this game."


def test_the_state_never_names_a_stock_card_and_moves_naming_one_answer_only_not_usable(client: TestClient) -> None:
    game = new_game(client, deal=SEED_001, rules="classic")
    stock_cards = SEED_001.split()[28:]
    assert not set(TOKEN_RE.findall(json.dumps(without_id({"game": game})))) & set(stock_cards)
    answers = []
    for token in [stock_cards[0], stock_cards[5], stock_cards[-1]]:
        body = refused(client, game, f"{token}+Qh", "not-usable")
        assert body["message"] == "このカードは今は使えません" and body["details"] == {"card": token}
        answers.append({**body, "details": {}})
    assert answers[0] == answers[1] == answers[2]  # the answer tells nothing of where the card lies
    # the card under the waste top is no more usable than one in the stock, and the state does not name it
    after = play(client, play(client, game, "draw"), "draw")
    assert after["waste"] == {"top": stock_cards[1], "count": 2, "uses_left": None}
    assert stock_cards[0] not in after["refusals"] and stock_cards[0] not in after["names"]
    refused(client, game, f"{stock_cards[0]}+Qh", "not-usable")


def test_thirteen_answers_never_name_a_face_down_card(client: TestClient) -> None:
    deal = Deal.from_number(3, "thirteen")
    game = new_game(client, code=deal.code)
    hidden = hidden_tokens(game, deal.notation)
    assert len(hidden) == 21
    assert_reveals_none({"game": game}, hidden)
    assert set(game["names"]) == {e["card"] for e in game["pyramid"] if e["card"]}
    for place in range(21):  # a tap on every face-down slot: the state's refusal names only face-up cards
        reason = game["refusals"][f"#{place}"]
        assert reason["slot"] == place and reason["cards"] == []
        assert reason["code"] in ("covered", "not-usable")
    for token in sorted(hidden):  # a hand-made move naming a hidden card learns nothing about it
        body = refused(client, game, token, "not-usable")
        assert body["details"] == {"card": token}  # only the token the caller sent
        assert_reveals_none(body, hidden - {token})
    # play on: removals expose cards, and still no answer names one that is face down
    for _ in range(12):
        current = state(client, game)
        if current["status"] != "playing":
            break
        hidden = hidden_tokens(current, deal.notation)
        taken = sorted(offered(current), key=sorted)
        body = {"move": "+".join(sorted(taken[0]))} if taken else {"move": current["stock_move"]}
        for name, body_ in [("move", body), ("hint", None), ("undo", None), ("redo", None)]:
            answer = client.post(f"/api/games/{game['id']}/{name}", json=body_).json()
            now_hidden = hidden_tokens(answer["game"], deal.notation)
            assert_reveals_none(answer, now_hidden)
            assert not set(answer["game"]["names"]) & now_hidden
        assert_reveals_none(
            client.get(f"/api/games/{game['id']}?lang=en").json(), hidden_tokens(state(client, game), deal.notation)
        )


def test_thirteen_a_face_down_slot_answers_the_same_whatever_card_lies_there(client: TestClient) -> None:
    # two deals that differ only in two face-down cards: the apex and (6,1)
    bottom = row_of(7, "3c Tc 2c 2d 2h 6h 7h")
    one = new_game(client, deal=make_notation({**bottom, (6, 1): "Qc", (1, 1): "5c"}), rules="thirteen")
    two = new_game(client, deal=make_notation({**bottom, (6, 1): "5c", (1, 1): "Qc"}), rules="thirteen")

    def seen(game: Json) -> Json:
        return {k: v for k, v in still(game).items() if k not in ("id", "code")}

    assert seen(one) == seen(two)  # the whole state, its refusals of the face-down slots included
    assert one["refusals"][f"#{slot(6, 1)}"]["message"] == "このカードは別のカードに覆われています（3♣と10♣）"
    for token in ("Qc", "5c"):
        assert refused(client, one, token, "not-usable") == refused(client, two, token, "not-usable")
    after_one, _ = move(client, one, "3c+Tc")
    after_two, _ = move(client, two, "3c+Tc")
    assert entry(after_one, 6, 1)["card"] == "Qc" and entry(after_two, 6, 1)["card"] == "5c"  # now face up


# --- the stock ---------------------------------------------------------------------------------------


def test_the_stock_draws_recycles_and_is_refused_once_three_passes_are_used_up(client: TestClient) -> None:
    notation = make_notation()  # plain order: K♦ sits in row 7, so the game is never lost
    game = new_game(client, deal=notation, rules="classic")
    order = notation.split()[28:]
    for number in (1, 2, 3):
        seen = []
        for left in range(23, -1, -1):
            game = play(client, game, "draw")
            seen.append(game["waste"]["top"])
            assert game["stock"]["label"] == f"{number}/3周目 · 残り {left}"
        assert seen == order  # the same order on every pass
        if number < 3:
            game, event = move(client, game, "recycle", lang="en")
            assert event == {"kind": "recycle", "move": "recycle", "cards": []}
            assert game["stock"]["label"] == f"Pass {number + 1}/3 · 24 left"
            assert game["waste"] == {"top": None, "count": 0, "uses_left": None}
    assert game["moves"] == 3 * 24 + 2
    # the stock can do nothing more: the state says why, and a move is refused with the same reason
    assert game["stock_move"] is None
    assert game["refusals"]["stock"]["code"] == "passes-used-up"
    assert game["refusals"]["stock"]["message"] == "3周めくり終えました"
    assert (
        state(client, game, lang="en")["refusals"]["stock"]["message"] == "All 3 passes through the stock are used up."
    )
    assert game["status"] == "playing"
    body = refused(client, game, "recycle", "passes-used-up")
    assert body["message"] == "3周めくり終えました"
    refused(client, game, "draw", "passes-used-up")


def test_pyramide_recycles_without_limit(client: TestClient) -> None:
    game = new_game(client, deal=SEED_000, rules="pyramide")
    for number in range(1, 5):
        for _ in range(23 if number == 1 else 24):  # the first waste card comes round too
            game = play(client, game, "draw")
        assert game["stock_move"] == "recycle"
        game = play(client, game, "recycle")
        assert game["stock"]["label"] == f"{number + 1}周目 · 残り 24"


# --- undo, redo, hint, rewind, coach -----------------------------------------------------------------


def test_undo_and_redo_take_back_and_replay_a_move(client: TestClient) -> None:
    game = new_game(client, deal=SEED_001, rules="classic")
    error(client.post(f"/api/games/{game['id']}/undo"), 409, "nothing-to-undo")
    error(client.post(f"/api/games/{game['id']}/redo?lang=en"), 409, "nothing-to-redo")
    assert still(state(client, game)) == still(game)
    move(client, game, "Ks")
    move(client, game, "draw")
    after, event = post(client, game, "undo")
    assert event == {"kind": "undone", "move": "draw", "cards": []}
    assert after["stock"]["count"] == 24
    after, event = post(client, game, "undo")
    assert event == {"kind": "undone", "move": "Ks", "cards": ["Ks"]}
    assert "Ks" in after["usable"] and not entry(after, 7, 1)["removed"]
    assert after["pairs"]["Ks"] == {"alone": True, "with": []}  # offered again
    assert after["undos"] == 2 and after["moves"] == 2  # the move counter never goes down
    assert after["can_redo"] and not after["can_undo"]
    assert after["version"] == 4  # two moves and two undos, each one entry of the record
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
    assert after["hints"] == 1 and after["moves"] == 0 and after["version"] == 1


def test_rewind_goes_back_to_before_the_move_that_made_a_dead_card(client: TestClient) -> None:
    game = new_game(client, deal=make_notation(DEAD_PYRAMID, ["Qh", "Qs"]), rules="classic")
    body = error(client.post(f"/api/games/{game['id']}/rewind?lang=en"), 409, "no-dead-card")
    assert body["message"] == "There is no dead card to rewind from."
    move(client, game, "draw")
    after, event = move(client, game, "Ad+Qd")
    assert after["dead"] == ["Qc"]
    assert entry(after, 5, 1)["dead"]
    assert after["can_rewind"]
    move(client, game, "draw")
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


def test_a_legal_move_in_notation_is_played_whatever_its_spelling(client: TestClient) -> None:
    game = new_game(client, deal=SEED_001, rules="classic")
    after, event = move(client, game, "ks")
    assert event == {"kind": "removed", "move": "Ks", "cards": ["Ks"]}
    after, event = move(client, game, "7♦ + 6♥")
    assert event == {"kind": "removed", "move": "7d+6h", "cards": ["7d", "6h"]}
    after, event = move(client, game, "draw")
    assert event == {"kind": "draw", "move": "draw", "cards": []}
    assert after["moves"] == 3
    record = client.get(f"/api/games/{game['id']}/record").text
    assert record.split("\n\n", 1)[1].split() == ["Ks", "7d+6h", "draw"]  # the record holds the canonical moves


@pytest.mark.parametrize(
    ("notation", "code"),
    [
        ("Qh+9c", "sum"),
        ("2c", "covered"),
        ("Qh", "lone"),
        ("Ks+Ks", "same-card"),
        ("recycle", "stock-not-empty"),
        ("Ad+Qh", "not-usable"),
    ],
)
def test_an_illegal_move_is_409_and_changes_nothing(client: TestClient, notation: str, code: str) -> None:
    game = new_game(client, deal=SEED_001, rules="classic")
    move(client, game, "3c+Ts")
    body = refused(client, game, notation, code)
    assert client.get(f"/api/games/{game['id']}/record").text.split("\n\n", 1)[1].split() == ["3c+Ts"]
    if code == "sum":
        assert "Q(12)+9=21" in body["message"]
        assert body["details"]["equation"] == "Q(12)+9=21"
        english = refused(client, game, notation, code, lang="en")
        assert english["message"] == "The cards must add up to 13: Q(12)+9=21."


def test_an_event_refused_or_a_stale_version_writes_nothing(client: TestClient) -> None:
    game = new_game(client, deal=SEED_001, rules="classic")
    move(client, game, "Ks")
    before = state(client, game)
    body = error(client.post(f"/api/games/{game['id']}/move?version=0", json={"move": "draw"}), 409, "conflict")
    assert body["details"] == {"version": 1}
    error(client.post(f"/api/games/{game['id']}/redo"), 409, "nothing-to-redo")
    assert still(state(client, game)) == still(before)
    answer = client.post(f"/api/games/{game['id']}/move?version=1", json={"move": "draw"})
    assert answer.status_code == 200 and answer.json()["game"]["version"] == 2


# --- bad requests ------------------------------------------------------------------------------------

GAME = "{game}"

#: (method, path, request arguments, status, code): every one refused, the game unchanged.
BAD_REQUESTS: list[tuple[str, str, Json, int, str]] = [
    ("GET", "/api/games/no-such-game", {}, 404, "unknown-game"),
    ("POST", "/api/games/no-such-game/hint", {}, 404, "unknown-game"),
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
    ("POST", f"/api/games/{GAME}/move", {"json": {"move": "K"}}, 400, "bad-move"),
    ("POST", f"/api/games/{GAME}/move", {"json": {"move": "undo"}}, 400, "bad-move"),  # an event is no move
    ("POST", f"/api/games/{GAME}/move", {"json": {"move": "Ks", "cell": 0}}, 400, "bad-cell"),
    ("POST", f"/api/games/{GAME}/move", {"json": {"move": None}}, 422, "bad-request"),
    ("POST", f"/api/games/{GAME}/move", {"json": {"move": "Ks", "cell": 1.5}}, 422, "bad-request"),
    ("POST", f"/api/games/{GAME}/move", {"json": {"move": "Ks", "cell": "0"}}, 422, "bad-request"),
    ("POST", f"/api/games/{GAME}/move", {"json": ["Ks"]}, 422, "bad-request"),
    ("POST", f"/api/games/{GAME}/move", {"json": {"move": "Ks" * 21}}, 422, "bad-request"),
    (
        "POST",
        f"/api/games/{GAME}/move",
        {"content": b"{bad", "headers": {"content-type": "application/json"}},
        422,
        "bad-json",
    ),
    (
        "POST",
        f"/api/games/{GAME}/move",
        {"content": b"move=Ks", "headers": {"content-type": "application/x-www-form-urlencoded"}},
        415,
        "not-json",
    ),
    (
        "POST",
        f"/api/games/{GAME}/move",
        {"content": b'{"move": "Ks"}', "headers": {"content-type": "text/plain"}},
        415,
        "not-json",
    ),
    ("POST", f"/api/games/{GAME}/move", {"content": b'{"move": "Ks"}'}, 415, "not-json"),
    (
        "POST",
        f"/api/games/{GAME}/move",
        {"content": b'{"move": "' + b"K" * MAX_BODY + b'"}', "headers": {"content-type": "application/json"}},
        413,
        "too-large",
    ),
    ("POST", f"/api/games/{GAME}/move?lang=fr", {"json": {"move": "Ks"}}, 422, "bad-request"),
    ("POST", f"/api/games/{GAME}/move?version=-1", {"json": {"move": "Ks"}}, 422, "bad-request"),
    ("POST", f"/api/games/{GAME}/move?version=x", {"json": {"move": "Ks"}}, 422, "bad-request"),
    ("POST", f"/api/games/{GAME}/undo?version=7", {}, 409, "conflict"),
    # the taps of the old protocol are gone: the page sends moves
    ("POST", f"/api/games/{GAME}/tap", {"json": {"card": "Ks"}}, 404, "not-found"),
    ("POST", f"/api/games/{GAME}/stock", {}, 404, "not-found"),
    ("GET", "/api/nothing", {}, 404, "not-found"),
    ("POST", f"/api/games/{GAME}/fly", {}, 404, "not-found"),
    ("GET", "/static/nothing.js", {}, 404, "not-found"),
    ("GET", "/locales/fr.json", {}, 404, "not-found"),
    ("GET", f"/api/games/{GAME}/move", {}, 405, "method-not-allowed"),
    ("DELETE", f"/api/games/{GAME}", {}, 405, "method-not-allowed"),
    ("PUT", "/api/rules", {}, 405, "method-not-allowed"),
]


@pytest.mark.parametrize(
    ("method", "path", "arguments", "status", "code"),
    BAD_REQUESTS,
    ids=[f"{m} {p} {s} {c} #{i}" for i, (m, p, _, s, c) in enumerate(BAD_REQUESTS)],
)
def test_a_bad_request_is_refused_with_json_and_changes_nothing(
    client: TestClient, method: str, path: str, arguments: Json, status: int, code: str
) -> None:
    game = new_game(client, deal=SEED_001, rules="classic")
    move(client, game, "6h+7d")
    before = state(client, game)
    response = client.request(method, path.replace(GAME, game["id"]), **arguments)
    body = error(response, status, code)
    if code == "too-large":
        assert body["details"] == {"limit": MAX_BODY}
    if status in (400, 415, 422):  # the details say what is wrong
        assert body["details"].get("errors") or body["details"].get("reason")
    assert still(state(client, game)) == still(before)
    record = client.get(f"/api/games/{game['id']}/record").text
    assert record.split("\n\n", 1)[1].split() == ["6h+7d"]  # nothing written


def test_a_chunked_body_of_unknown_size_is_refused(client: TestClient) -> None:
    game = new_game(client, deal=SEED_001, rules="classic")
    before = state(client, game)

    def chunks() -> Iterator[bytes]:
        yield b'{"move": "'
        yield b" " * MAX_BODY
        yield b'Ks"}'

    response = client.post(
        f"/api/games/{game['id']}/move", content=chunks(), headers={"content-type": "application/json"}
    )
    assert error(response, 413, "too-large")["details"]["limit"] == MAX_BODY
    assert still(state(client, game)) == still(before)


def test_validation_errors_say_where_and_what(client: TestClient) -> None:
    game = new_game(client, deal=SEED_001, rules="classic")
    body = error(
        client.post(f"/api/games/{game['id']}/move?lang=en", json={"move": "Ks", "extra": 1}), 422, "bad-request"
    )
    assert body["details"]["errors"] == [
        {"where": "body.extra", "type": "extra_forbidden", "problem": "body.extra: Extra inputs are not permitted"}
    ]
    assert body["message"] == "The request is not valid: body.extra: Extra inputs are not permitted"
    body = error(client.post(f"/api/games/{game['id']}/move", json={"move": "Ks", "extra": 1}), 422, "bad-request")
    assert body["message"] == "リクエストが正しくありません：body.extra は受け付けない項目です"
    body = error(client.post("/api/games", json={"code": "C" * 201}), 422, "bad-request")
    assert body["message"] == "リクエストが正しくありません：body.code が長すぎます（200文字まで）"
    # the choices a field takes are listed in the reader's language, not pydantic's "E, N or R"
    body = error(client.post("/api/games", json={"difficulty": "Q"}), 422, "bad-request")
    assert body["message"] == "リクエストが正しくありません：body.difficulty は E、N、R のどれかにしてください"
    body = error(client.post("/api/games?lang=en", json={"difficulty": "Q"}), 422, "bad-request")
    assert body["message"] == "The request is not valid: body.difficulty: Input should be E, N or R"
    body = error(client.post(f"/api/games/{game['id']}/move?lang=fr", json={"move": "Ks"}), 422, "bad-request")
    assert body["message"] == "リクエストが正しくありません：query.lang は ja、en のどれかにしてください"
    body = error(
        client.post(f"/api/games/{game['id']}/move", content=b"{bad", headers={"content-type": "application/json"}),
        422,
        "bad-json",
    )
    assert body["message"].startswith("リクエストのJSONが読めません")
    # a JSON body not said to be JSON (curl's -d sends a form): the header to add, not pydantic's puzzle
    sent = client.post("/api/games?lang=en", content=b'{"code": "CL1-N-AAAAAAB"}')
    assert error(sent, 415, "not-json")["message"] == (
        "The request body must be JSON: send it with Content-Type: application/json (this request has no Content-Type)"
    )
    sent = client.post("/api/games", content=b'{"code": "CL1-N-AAAAAAB"}', headers={"content-type": "text/plain"})
    assert error(sent, 415, "not-json")["message"] == (
        "リクエストの本文はJSONで送ってください："
        "Content-Type: application/json を付けてください（このリクエストは text/plain）"
    )
    body = error(client.post("/api/games?lang=en", json=["CL1-N-AAAAAAB"]), 422, "bad-request")
    assert body["message"] == "The request is not valid: body must be a JSON object ({…})"


def test_a_bad_code_names_the_problem_in_the_players_language(client: TestClient) -> None:
    body = error(client.post("/api/games?lang=en", json={"code": "CL1-Q-AAAAAAB"}), 400, "bad-code")
    assert body["message"] == (
        "That deal code is not valid: unknown difficulty letter 'Q' (expected E, N, R, or X for a full code)"
    )
    assert body["details"]["reason"] == "code.kind" and body["details"]["facts"] == {"letter": "Q"}
    body = error(client.post("/api/games", json={"code": "CL1-Q-AAAAAAB"}), 400, "bad-code")
    assert body["message"] == "配札コードが正しくありません：難易度の文字「Q」はありません（E、N、R、完全コードなら X）"
    # the message says which part of a code is wrong, all in the page's language
    body = error(client.post("/api/games", json={"code": "NOTACODE"}), 400, "bad-code")
    assert body["message"].startswith("配札コードが正しくありません：「NOTACODE」は配札コードではありません")
    body = error(client.post("/api/games", json={"code": "CL1-R-"}), 400, "bad-code")
    assert body["message"] == (
        "配札コードが正しくありません：配札コード「CL1-R-」の番号の部分が空です（例：CL1-N-AAAAAAJ）"
    )


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


@pytest.mark.parametrize(
    "path",
    [
        "/api/rules",
        "/",
        "/play/CL1-R-AAAAAAB",
        "/static/js/main.js",
        "/locales/ja.json",
        "/api/nothing",
        "/api/games/nope",
    ],
)
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
def test_a_deal_won_by_the_moves_the_state_offers(client: TestClient, rules: str) -> None:
    """The solver's solution, each move checked against what the state offered the page before it."""
    deal, solution = first_winnable(rules)
    game = new_game(client, code=deal.code)
    after = game
    for index, notation in enumerate(solution):
        after = play(client, after, notation)
        assert after["moves"] == index + 1 and after["version"] == index + 1
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
    # the game is over: the state offers nothing and says why; a move and undo are refused as such
    assert after["pairs"] == {} and after["selectable"] == [] and after["stock_move"] is None
    assert after["refusals"]["game-over"]["code"] == "game-over"
    refused(client, game, "draw", "game-over")
    error(client.post(f"/api/games/{game['id']}/undo"), 409, "game-over")
    assert state(client, game)["result"]["won"] is True


def test_a_deal_won_by_moves_in_notation(client: TestClient) -> None:
    deal, solution = first_winnable("classic", start=3)
    game = new_game(client, code=deal.code, lang="en")
    for notation in solution:
        after, event = move(client, game, notation, lang="en")
        assert event["move"] == notation
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
        taken = [m for m in current["legal_moves"] if m not in ("draw", "recycle")]
        current = play(client, current, taken[0] if taken else current["stock_move"])
    assert current["status"] == "lost"
    assert current["status_message"] == "手詰まりです"
    result = current["result"]
    assert result["won"] is False
    assert result["best_removed"] is None  # the move that ends the game does not wait for the solver
    answer = client.get(f"/api/games/{game['id']}/best")
    assert answer.status_code == 200
    assert answer.json() == {"best_removed": best.max_pyramid_removed, "best_exact": True, "pyramid_size": 28}
    again = client.get(f"/api/games/{game['id']}").json()["game"]["result"]
    assert again["best_removed"] == best.max_pyramid_removed
    assert again["best_exact"] is True
    assert again["pyramid_removed"] <= again["best_removed"] < 28
    assert again["stats"]["played"] == 1 and again["stats"]["won"] == 0


@pytest.mark.parametrize("order", ["covered first", "coverer first"])
def test_overlap_pairs_are_offered_and_played_in_either_order(client: TestClient, order: str) -> None:
    deal = Deal.from_number(4, "overlap", "E")
    result = solve(deal, time_limit=30)
    assert result.solution is not None
    overlap = next(i for i, m in enumerate(result.solution) if str(m) == "5s+8d")  # 5s lies under 8d alone
    game = new_game(client, code=deal.code)
    for step in result.solution[:overlap]:
        game, _ = move(client, game, str(step))
    covered = next(e for e in game["pyramid"] if e["card"] == "5s")
    assert not covered["usable"]  # on its own the covered card is not usable ...
    assert "5s" in game["selectable"] and ["8d"] in game["pairs"]["5s"]["with"]  # ... but it goes with its coverer
    assert partners(game, "5s") == ["8d"]
    first, second = ("5s", "8d") if order == "covered first" else ("8d", "5s")
    game, event = move(client, game, f"{first}+{second}")
    assert event["kind"] == "removed" and event["move"] == f"{first}+{second}"
    assert {e["card"] for e in game["pyramid"] if e["card"]}.isdisjoint({"5s", "8d"})


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_page_is_sent_its_own_texts_and_not_the_ones_python_writes(client: TestClient, lang: str) -> None:
    """The browser gets the catalogue's plain keys (the page's texts); refusals, errors and the command
    line's texts (dotted keys) are written by the server, so they are not downloaded."""
    served = client.get(f"/locales/{lang}.json").json()
    whole = catalogue(lang)
    assert served == {key: value for key, value in whole.items() if "." not in key}
    assert served["new_game"] == whole["new_game"] and "refusal.covered" not in served
    assert len(served) < len(whole)


def test_a_code_with_other_rules_named_beside_it_is_refused_as_the_command_line_refuses_it(
    client: TestClient,
) -> None:
    """A code carries its rules; a request that names a different rule set or preset too is ambiguous (which
    was meant?), so it is refused with both named, and nothing is dealt.  The same rules beside it are fine."""
    before = client.get("/api/me").json()
    for extra in ({"rules": "thirteen"}, {"preset": "thirteen"}, {"preset": "classic", "options": {"passes": 1}}):
        body = error(client.post("/api/games?lang=en", json={"code": "CL1-R-AAAAAAB", **extra}), 400, "bad-code")
        assert body["message"].endswith(
            "code CL1-R-AAAAAAB is for classic, not " + ("classic(passes=1)" if "options" in extra else "thirteen")
        )
    assert client.get("/api/me").json() == before
    assert new_game(client, code="CL1-R-AAAAAAB", rules="classic")["code"] == "CL1-R-AAAAAAB"


def test_the_clock_starts_with_the_first_move_not_with_the_deal(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A deal dealt and left (the page deals one on its first visit) shows 0:00 when it is come back to, and
    a win is timed from the first move: the minutes it waited are in neither its clock nor its records."""
    import time

    now = [time.time()]
    monkeypatch.setattr(time, "time", lambda: now[0])
    code = "CL1-N-AAAAAAD"
    game = new_game(client, code=code)
    now[0] += 600  # ten minutes away
    assert state(client, game)["elapsed"] == 0
    solution = solve(Deal.from_code(code), time_limit=30).solution
    assert solution is not None
    for notation in solution:
        now[0] += 2
        after, _ = move(client, game, str(notation))
    assert after["result"]["won"] and after["result"]["seconds"] == 2 * (len(solution) - 1)
    now[0] += 60
    assert state(client, game)["elapsed"] == 2 * (len(solution) - 1)  # stopped at the win
    mine = next(g for g in client.get("/api/me").json()["finished"] if g["id"] == game["id"])
    assert mine["ended_ms"] - mine["started_ms"] == 2000 * (len(solution) - 1)
    # a replay's clock stands at each step's own moment, not at the time since the game began
    now[0] += 3600
    for step in (0, 1, 5, len(solution)):
        replayed = client.get(f"/api/games/{game['id']}/replay", params={"step": step}).json()["game"]
        assert replayed["elapsed"] == 2 * max(0, step - 1), step

"""The offline engine (web/offline.py) answers as the server does: the same states, events and refusals
for the same deal and the same requests, so one page draws both; and what it keeps replays."""

from __future__ import annotations

import json
import subprocess
import sys
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

from pyramid_solitaire import Deal
from pyramid_solitaire.rules import PRESETS
from pyramid_solitaire.solver import solve
from pyramid_solitaire.web.app import create_app
from pyramid_solitaire.web.offline import PREFIX, OfflineApi

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

#: Keys of a state that name the game or the clock, not the position.
VARYING = ("id", "elapsed", "offline")


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app()) as test_client:
        yield test_client


def comparable(state: dict[str, Any]) -> dict[str, Any]:
    out = {key: value for key, value in state.items() if key not in VARYING}
    if out.get("result"):
        out["result"] = {k: v for k, v in out["result"].items() if k not in ("stats", "leaderboard", "par", "seconds")}
    return out


def offline(
    api: OfflineApi, method: str, path: str, body: Any = None, lang: str = "ja", query: dict[str, str] | None = None
) -> tuple[int, Any]:
    """A request as the worker sends it: JSON text in, JSON text out."""
    answer = json.loads(api.handle_json(method, path, json.dumps(query or {}), json.dumps(body), lang))
    return answer["status"], answer["body"]


def solution_of(code: str) -> list[str]:
    result = solve(Deal.from_code(code))
    assert result.winnable and result.solution is not None
    return [str(move) for move in result.solution]


@pytest.mark.parametrize("preset", ["classic", "msc", "thirteen", "pyramide"])
@pytest.mark.parametrize("lang", ["ja", "en"])
def test_a_game_played_offline_answers_what_the_server_answers(client: TestClient, preset: str, lang: str) -> None:
    deal = Deal.from_number(3, PRESETS[preset])
    api = OfflineApi()
    made = client.post(f"/api/games?lang={lang}", json={"code": deal.code})
    status, body = offline(api, "POST", "/api/games", {"code": deal.code}, lang)
    assert (status, made.status_code) == (201, 201)
    server_id, offline_id = made.json()["game"]["id"], body["game"]["id"]
    assert offline_id.startswith(PREFIX)
    assert body["game"]["offline"] is True
    assert comparable(body["game"]) == comparable(made.json()["game"])
    # a refused pair, then the moves of a solution (or as many as the deal allows), an undo and a redo
    steps: list[tuple[str, Any]] = [("move", {"move": "draw"})]
    result = solve(deal)
    if result.solution:
        steps += [("move", {"move": str(move)}) for move in result.solution[:12]]
    steps += [("undo", None), ("redo", None), ("hint", None), ("move", {"move": "Kc+Kd"})]
    for name, payload in steps:
        online = client.post(f"/api/games/{server_id}/{name}?lang={lang}", json=payload)
        status, answer = offline(api, "POST", f"/api/games/{offline_id}/{name}", payload, lang)
        assert status == online.status_code, (name, payload, answer)
        if status == 200:
            assert comparable(answer["game"]) == comparable(online.json()["game"])
            assert answer["event"] == online.json()["event"]
        else:
            assert answer == online.json()


def test_a_won_game_offline_shows_this_browsers_figures_and_keeps_its_record() -> None:
    code = Deal.from_number(1, PRESETS["classic"]).code
    api = OfflineApi()
    status, body = offline(api, "POST", "/api/games", {"code": code}, "en")
    game_id = body["game"]["id"]
    moves = solution_of(code)
    for move in moves:
        status, body = offline(api, "POST", f"/api/games/{game_id}/move", {"move": move}, "en")
        assert status == 200
    result = body["game"]["result"]
    assert body["game"]["status"] == "won"
    assert result["stats"]["played"] == 1 and result["stats"]["won"] == 1
    assert result["leaderboard"] == [] and result["par"] is None
    kept = api.kept(game_id)
    assert kept["result"] == "won" and kept["moves"] == len(moves) and len(kept["times"]) == len(moves)
    assert kept["record"].startswith("Rules: ")

    # a reload: the worker gives the kept records back, and the game is rebuilt by replaying them
    again = OfflineApi()
    assert again.restore([kept]) == [game_id]
    status, state = offline(again, "GET", f"/api/games/{game_id}", None, "en")
    assert status == 200 and state["game"]["status"] == "won"
    assert comparable(state["game"]) == comparable(body["game"])


def test_an_unfinished_offline_game_is_listed_to_resume_after_a_reload() -> None:
    api = OfflineApi()
    _, body = offline(api, "POST", "/api/games", {"rules": "classic", "difficulty": "E"})
    game_id = body["game"]["id"]
    offline(api, "POST", f"/api/games/{game_id}/move", {"move": "draw"})
    again = OfflineApi()
    broken = {**api.kept(game_id), "id": "off-" + "0" * 24, "record": "Rules: classic\nDeal: nonsense\n"}
    again.restore([api.kept(game_id), broken])
    _, me = offline(again, "GET", "/api/me")
    assert [game["id"] for game in me["unfinished"]] == [game_id]  # a record that does not read is left out
    _, state = offline(again, "GET", f"/api/games/{game_id}")
    assert state["game"]["version"] == 1


def test_offline_refuses_bad_requests_in_the_players_language() -> None:
    api = OfflineApi()
    status, body = offline(api, "POST", "/api/games", {"code": "XX-nonsense"}, "en")
    assert status == 400 and body["code"] == "bad-code" and body["message"].isascii()
    status, body = offline(api, "POST", "/api/games", {"code": "XX-nonsense"}, "ja")
    assert status == 400 and not body["message"].isascii()
    status, body = offline(api, "GET", "/api/games/off-missing", None, "en")
    assert (status, body["code"]) == (404, "unknown-game")
    status, body = offline(api, "GET", "/api/daily/board", None, "ja")
    assert status == 503 and body["code"] == "offline" and "オフライン" in body["message"]
    _, made = offline(api, "POST", "/api/games", {"rules": "classic"})
    status, body = offline(api, "POST", f"/api/games/{made['game']['id']}/move", {"move": 7}, "en")
    assert status == 422 and "move" in body["message"]
    status, body = offline(api, "POST", f"/api/games/{made['game']['id']}/move", {"move": "Zz+Qq"}, "en")
    assert status == 400 and body["code"] == "bad-move"


def test_todays_daily_deal_offline_is_the_servers(client: TestClient) -> None:
    online = client.get("/api/daily?rules=thirteen").json()
    api = OfflineApi()
    # the worker passes the query string apart from the path
    _, about = offline(api, "GET", "/api/daily", query={"rules": "thirteen"})
    assert (about["date"], about["code"]) == (online["date"], online["code"])
    assert about["par_status"] == "offline"
    status, game = offline(api, "POST", "/api/daily/games", {"rules": "thirteen"})
    assert status == 201 and game["game"]["code"] == online["code"]
    assert game["game"]["daily"] == {"date": online["date"], "counted": False, "rules": "thirteen"}
    # asked again, the unfinished game of the day is resumed, not dealt anew
    status, again = offline(api, "POST", "/api/daily/games", {"rules": "thirteen"})
    assert status == 200 and again["game"]["id"] == game["game"]["id"]


#: Packages of the web edge and the store: the engine, and the offline engine with it, import none.
BLOCKED = ("fastapi", "starlette", "pydantic", "sqlalchemy", "psycopg", "uvicorn", "httpx", "dask", "distributed")
#: The start of a child interpreter's script: any import of a blocked package fails.
BLOCKING = f"""
import sys, importlib.abc
class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {BLOCKED!r}:
            raise ImportError("blocked: " + name)
        return None
sys.meta_path.insert(0, Block())
"""
ENGINE = (
    "messages",
    "vocabulary",
    "cards",
    "layout",
    "reasons",
    "analysis",
    "rules",
    "deal",
    "table",
    "game",
    "moves",
    "view",
    "solver",
    "solver.coach",
    "solver.difficulty",
    "catalog",
    "daily",
    "challenges",
    "record",
    "stats",
    "study",
    "winnability",
    "web.offline",
)


def test_the_engine_layers_import_without_any_web_or_database_package() -> None:
    script = f"""{BLOCKING}
import importlib
for module in {ENGINE!r}:
    importlib.import_module("pyramid_solitaire." + module)
from pyramid_solitaire.web.offline import OfflineApi
answer = OfflineApi().handle("POST", "/api/games", {{}}, {{"rules": "classic", "difficulty": "E"}}, "en")
assert answer["status"] == 201, answer
loaded = sorted(name for name in sys.modules if name.split(".")[0] in {BLOCKED!r})
print(loaded)
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_the_engine_zip_the_browser_loads_is_whole_and_plays_alone(tmp_path: Any) -> None:
    """The bundle's engine.zip holds every module the offline engine imports and nothing of the web edge or
    the store: unpacked alone (not the installed package, no compiled modules), with the web and database
    packages blocked, it deals and plays."""
    import io
    import zipfile

    from pyramid_solitaire.web.bundle import engine_zip

    with zipfile.ZipFile(io.BytesIO(engine_zip())) as archive:
        names = archive.namelist()
        archive.extractall(tmp_path)
    assert "pyramid_solitaire/web/offline.py" in names and "pyramid_solitaire/locales/ja.json" in names
    assert "tzdata/zoneinfo/Asia/Tokyo" in names
    assert not [n for n in names if n.startswith(("pyramid_solitaire/store/", "pyramid_solitaire/web/routes/"))]
    assert not [n for n in names if n.endswith((".so", ".c"))]
    script = f"""{BLOCKING}
sys.path.insert(0, {str(tmp_path)!r})
import pyramid_solitaire
assert pyramid_solitaire.__file__.startswith({str(tmp_path)!r}), pyramid_solitaire.__file__
from pyramid_solitaire.web.offline import OfflineApi
api = OfflineApi()
made = api.handle("POST", "/api/daily/games", {{}}, {{"rules": "thirteen"}}, "ja")
assert made["status"] == 201, made
moved = api.handle("POST", "/api/games/" + made["body"]["game"]["id"] + "/move", {{}}, {{"move": "draw"}}, "en")
assert moved["status"] == 200 and moved["kept"]["moves"] == 1, moved
print("ok")
"""
    done = subprocess.run([sys.executable, "-S", "-c", script], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"

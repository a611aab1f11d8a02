"""Players' records through the API, on SQLite and on PostgreSQL: games survive a restart, players
cannot touch each other's games, stale actions are conflicts, statistics and leaderboards come from
the recorded games, export/import round-trips, and a database that goes away loses nothing."""

from __future__ import annotations

import itertools
import json
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

from pyramid_solitaire import Deal
from pyramid_solitaire.solver import solve
from pyramid_solitaire.store import Store
from pyramid_solitaire.web.app import create_app

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

Json = dict[str, Any]


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(db_url)) as test_client:
        yield test_client


def start(client: TestClient, **body: Any) -> Json:
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 201, answer.text
    game: Json = answer.json()["game"]
    return game


def post(client: TestClient, game: Json, path: str, body: Any = None, **params: Any) -> Any:
    return client.post(f"/api/games/{game['id']}/{path}", json=body, params=params)


def winning_moves(code: str) -> list[str]:
    result = solve(Deal.from_code(code), time_limit=30)
    assert result.solution is not None
    return [str(m) for m in result.solution]


WON_CODE = "CL1-N-AAAAAAD"


def win(client: TestClient, code: str = WON_CODE) -> Json:
    game = start(client, code=code)
    for move in winning_moves(code):
        answer = post(client, game, "move", {"move": move})
        assert answer.status_code == 200, answer.text
    final: Json = answer.json()["game"]
    assert final["status"] == "won"
    return final


def test_a_game_resumes_after_a_restart_at_the_last_answered_action(db_url: str) -> None:
    first = TestClient(create_app(db_url))
    game = start(first, code=WON_CODE)
    moves = winning_moves(WON_CODE)[:6]
    for move in moves:
        assert post(first, game, "move", {"move": move}).status_code == 200
    before = first.get(f"/api/games/{game['id']}").json()["game"]
    cookies = dict(first.cookies)
    first.close()

    restarted = TestClient(create_app(db_url), cookies=cookies)  # a new process on the same database
    after = restarted.get(f"/api/games/{game['id']}").json()["game"]
    for key in (
        "pyramid",
        "stock",
        "waste",
        "drawn",
        "pairs",
        "selectable",
        "refusals",
        "moves",
        "undos",
        "version",
        "usable",
    ):
        assert after[key] == before[key], key
    listed = restarted.get("/api/me").json()["unfinished"]
    assert [g["id"] for g in listed] == [game["id"]]
    assert post(restarted, game, "undo", version=after["version"]).status_code == 200
    restarted.close()


def test_another_browser_cannot_read_or_change_a_game_by_its_id(client: TestClient, db_url: str) -> None:
    game = start(client, code=WON_CODE)
    stranger = TestClient(client.app)
    start(stranger, code=WON_CODE)  # a player of its own
    for answer in (
        stranger.get(f"/api/games/{game['id']}"),
        post(stranger, game, "undo"),
        post(stranger, game, "move", {"move": "draw"}),
        stranger.get(f"/api/games/{game['id']}/replay"),
    ):
        assert answer.status_code == 404
        assert answer.json()["code"] == "unknown-game"
    forged = TestClient(client.app, cookies={"pyramid_player": client.cookies["pyramid_player"][:-4] + "abcd"})
    assert forged.get(f"/api/games/{game['id']}").status_code == 404
    assert client.get(f"/api/games/{game['id']}").json()["game"]["version"] == 0  # untouched


def test_an_action_for_a_version_already_passed_is_a_conflict_and_changes_nothing(client: TestClient) -> None:
    game = start(client, code=WON_CODE)
    assert post(client, game, "move", {"move": "draw"}, version=0).status_code == 200
    stale = post(client, game, "move", {"move": "draw"}, version=0)  # sent again before the first answer came
    assert stale.status_code == 409
    assert stale.json()["code"] == "conflict"
    state = client.get(f"/api/games/{game['id']}").json()["game"]
    assert state["version"] == 1 and state["moves"] == 1


def test_two_app_processes_on_one_database_serve_one_player(db_url: str) -> None:
    one = TestClient(create_app(db_url))
    game = start(one, code=WON_CODE)
    two = TestClient(create_app(db_url), cookies=dict(one.cookies))
    moves = winning_moves(WON_CODE)
    for index, move in enumerate(moves):
        server = one if index % 2 == 0 else two  # a load balancer alternating
        answer = post(server, game, "move", {"move": move}, version=index)
        assert answer.status_code == 200, answer.text
    assert two.get(f"/api/games/{game['id']}").json()["game"]["status"] == "won"
    assert one.get(f"/api/games/{game['id']}").json()["game"]["version"] == len(moves)
    one.close()
    two.close()


def test_statistics_and_the_result_screen_come_from_the_recorded_games(client: TestClient) -> None:
    won = win(client)
    assert won["result"]["stats"]["played"] == 1 and won["result"]["stats"]["won"] == 1
    lost = start(client, code=WON_CODE)
    resigned = post(client, lost, "resign").json()["game"]
    assert resigned["status"] == "resigned" and resigned["result"]["won"] is False
    stats = resigned["result"]["stats"]
    assert (stats["played"], stats["won"], stats["streak"], stats["best_streak"]) == (2, 1, 0, 1)
    listed = client.get("/api/stats").json()["stats"]
    assert [(s["rules"], s["difficulty"], s["played"], s["win_rate"]) for s in listed] == [("classic", "N", 2, 0.5)]
    after = post(client, resigned, "move", {"move": "draw"})
    assert after.status_code == 409 and after.json()["code"] == "game-over"
    assert client.post("/api/stats/reset").status_code == 200
    assert client.get("/api/stats").json()["stats"] == []
    assert len(client.get("/api/me").json()["finished"]) == 2  # the games stay, for replays


def test_the_leaderboard_ranks_every_player_of_a_code(client: TestClient) -> None:
    rival = TestClient(client.app)
    rival.put("/api/me", json={"name": "x"})  # no player yet: refused, nothing made
    coached = start(rival, code=WON_CODE)
    assert post(rival, coached, "coach").status_code == 200  # the solver's hint, in a win of its own
    for move in winning_moves(WON_CODE):
        post(rival, coached, "move", {"move": move})
    assert rival.put("/api/me", json={"name": "  <b>Hana</b>  "}).json() == {"player": {"name": "<b>Hana</b>"}}
    mine = win(client)
    board = mine["result"]["leaderboard"]
    assert len(board) == 2 and sorted(e["you"] for e in board) == [False, True]
    assert {e["name"] for e in board} == {"<b>Hana</b>", None}  # text, escaped by the page when shown
    assert [e["rank"] for e in board] == [1, 2]
    assert board == client.get(f"/api/leaderboard/{WON_CODE}").json()["entries"]
    # the win played with the solver's hint (which sees the stock) is marked as such
    assert {e["name"]: e["solver"] for e in board} == {"<b>Hana</b>": True, None: False}


def test_a_finished_game_replays_move_by_move(client: TestClient) -> None:
    final = win(client)
    steps = final["version"]
    first = client.get(f"/api/games/{final['id']}/replay", params={"step": 0}).json()
    assert first["steps"] == steps and first["game"]["moves"] == 0
    middle = client.get(f"/api/games/{final['id']}/replay", params={"step": 3}).json()["game"]
    assert middle["moves"] == 3
    last = client.get(f"/api/games/{final['id']}/replay", params={"step": steps}).json()["game"]
    assert last["status"] == "won"


def kind_of(move: str) -> str:
    """The kind of event a move is reported as."""
    return "draw" if move == "draw" else "recycle" if move == "recycle" else "removed"


def test_a_replay_stops_at_each_change_of_the_table_not_at_hints(client: TestClient) -> None:
    """A hint changes nothing on the table: a replay that stopped at it showed the same table twice. An undo
    and a redo change it, and are steps; the hints asked before a step are counted in it."""
    moves = winning_moves(WON_CODE)
    game = start(client, code=WON_CODE)
    assert post(client, game, "hint").status_code == 200
    post(client, game, "move", {"move": moves[0]})
    assert post(client, game, "hint").status_code == 200
    post(client, game, "undo")
    post(client, game, "redo")
    for move in moves[1:]:
        assert post(client, game, "hint").status_code == 200
        final = post(client, game, "move", {"move": move}).json()["game"]
    assert final["status"] == "won" and final["version"] == 2 * len(moves) + 3
    replay = client.get(f"/api/games/{game['id']}/replay", params={"step": 0}).json()
    steps = replay["steps"]
    assert steps == len(moves) + 2 and replay["game"]["moves"] == 0
    seen = [client.get(f"/api/games/{game['id']}/replay", params={"step": s}).json()["game"] for s in range(steps + 1)]
    assert [g["moves"] for g in seen] == [0, 1, 1, 2, *range(3, len(moves) + 2)]  # (a redo counts, as in seed 000)
    # every step shows another table than the one before it
    tables = [json.dumps([g["pyramid"], g["stock"], g["waste"], g["status"]]) for g in seen]
    assert all(a != b for a, b in itertools.pairwise(tables))
    assert seen[-1]["status"] == "won" and seen[-1]["hints"] == len(moves) + 1
    # and each step says what its action did, as the answer to it said then
    events = [
        client.get(f"/api/games/{game['id']}/replay", params={"step": s}).json()["event"] for s in range(steps + 1)
    ]
    assert [e["kind"] for e in events[:5]] == ["state", kind_of(moves[0]), "undone", "redone", kind_of(moves[1])]
    assert events[1].get("move") == moves[0] and events[-1].get("move") == moves[-1]


def test_export_and_import_round_trip_and_a_bad_file_adds_nothing(client: TestClient, db_url: str) -> None:
    win(client)
    start(client, code="PY1-R-AAAAAAC")
    exported = client.get("/api/me/export")
    assert exported.status_code == 200
    data = exported.json()
    assert data["format"] == "pyramid-solitaire-records" and len(data["games"]) == 2

    other = TestClient(client.app)
    start(other, code="CL1-R-AAAAAAB")
    assert other.post("/api/me/import", json=data).json() == {"imported": 2, "already": 0}
    mine = other.get("/api/me").json()
    assert len(mine["finished"]) == 1 and len(mine["unfinished"]) == 2
    stats = other.get("/api/stats").json()["stats"]
    assert (stats[0]["played"], stats[0]["won"], stats[0]["streak"]) == (1, 1, 1)
    # the same file again adds nothing, and the statistics do not count a copy
    assert other.post("/api/me/import", json=data).json() == {"imported": 0, "already": 2}
    assert other.get("/api/stats").json()["stats"] == stats
    assert len(other.get("/api/me").json()["unfinished"]) == 2
    # nor does importing one's own export
    assert client.post("/api/me/import", json=data).json() == {"imported": 0, "already": 2}
    # export → import → export gives the same records
    again = other.get("/api/me/export").json()
    ours = [g for g in again["games"] if g["code"] != "CL1-R-AAAAAAB"]
    assert ours == data["games"]

    tampered = {**data, "games": [dict(g) for g in data["games"]]}
    tampered["games"][1]["record"] += "Kc\n"
    tampered["games"][1]["times"] = [*tampered["games"][1]["times"], 1]
    tampered["games"][0]["result"] = "lost"
    answer = other.post("/api/me/import", json=tampered)
    assert answer.status_code == 400 and answer.json()["code"] == "bad-import"
    assert "1番目のゲーム" in answer.json()["message"]  # the game named, in the page's language
    assert "game 1" in other.post("/api/me/import?lang=en", json=tampered).json()["message"]
    assert len(other.get("/api/me").json()["finished"]) == 1  # nothing added


@pytest.mark.parametrize(
    "broken",
    [
        {"format": "something-else"},
        {"format": "pyramid-solitaire-records", "version": 9, "games": []},
        {"format": "pyramid-solitaire-records", "version": 1, "games": [{"code": "CL1-Q-AAAAAAB"}]},
        {
            "format": "pyramid-solitaire-records",
            "version": 1,
            "games": [
                {
                    "code": "CL1-N-AAAAAAB",
                    "rules": "classic",
                    "difficulty": "N",
                    "started_ms": 1,
                    "ended_ms": None,
                    "result": None,
                    "actions": [["move", "Xx+Yy", 2]],
                }
            ],
        },
        {
            "format": "pyramid-solitaire-records",
            "version": 2,
            "games": [
                {
                    "code": "CL1-N-AAAAAAB",
                    "rules": "classic",
                    "difficulty": "N",
                    "started_ms": 1,
                    "ended_ms": None,
                    "result": None,
                    "record": "Rules: classic\nDeal: CL1-N-AAAAAAB\n\nXx+Yy\n",
                }
            ],
        },
        {
            "format": "pyramid-solitaire-records",
            "version": 2,
            "games": [
                {
                    "code": "CL1-N-AAAAAAB",
                    "rules": "classic",
                    "difficulty": "N",
                    "started_ms": 1,
                    "ended_ms": None,
                    "result": None,
                    "record": "Rules: classic\nDeal: CL1-N-AAAAAAJ\n\ndraw\n",
                }
            ],
        },
        {
            "format": "pyramid-solitaire-records",
            "version": 2,
            "games": [
                {
                    "code": "CL1-N-AAAAAAB",
                    "rules": "classic",
                    "difficulty": "N",
                    "started_ms": 1,
                    "ended_ms": None,
                    "result": None,
                    "record": "Rules: classic\nDeal: CL1-N-AAAAAAB\n\ndraw\n",
                    "times": [1, 2],
                }
            ],
        },
        [1, 2, 3],
    ],
)
def test_malformed_records_are_refused_with_the_reason(client: TestClient, broken: Any) -> None:
    start(client, code=WON_CODE)
    answer = client.post("/api/me/import", json=broken)
    assert answer.status_code == 400
    body = answer.json()
    assert set(body) == {"code", "message", "details"} and body["code"] == "bad-import"
    assert body["message"].startswith("読み込めない記録です：")


def test_a_database_that_goes_away_mid_game_loses_nothing() -> None:
    from pg_server import PostgresServer

    server = PostgresServer()
    server.start()
    try:
        url = server.create_database("records")
        client = TestClient(create_app(Store(url)))
        game = start(client, code=WON_CODE)
        moves = winning_moves(WON_CODE)
        assert post(client, game, "move", {"move": moves[0]}).status_code == 200
        server.stop_server()
        down = post(client, game, "move", {"move": moves[1]})
        assert down.status_code == 503
        assert down.json()["code"] == "store-unavailable"
        assert "保存されていません" in down.json()["message"]
        server.start_server()
        state = client.get(f"/api/games/{game['id']}").json()["game"]
        assert state["version"] == 1 and state["moves"] == 1  # the refused action is not half there
        assert post(client, game, "move", {"move": moves[1]}, version=1).status_code == 200
    finally:
        server.stop()


@pytest.mark.parametrize("game_id", ["x" * 5000, "ゲーム", "../../etc/passwd", "1; DROP TABLE games"])
def test_malformed_game_ids_are_unknown_games(client: TestClient, game_id: str) -> None:
    start(client, code=WON_CODE)
    for answer in (client.get(f"/api/games/{game_id}"), client.post(f"/api/games/{game_id}/hint")):
        assert answer.status_code == 404
        if answer.headers["content-type"].startswith("text/html"):
            # "../../etc/passwd" leaves /api/ before it is sent: a page address, answered with the app's page
            assert game_id.startswith("..") and "ページが見つかりません" in answer.text
            continue
        body = answer.json()
        assert body["code"] in ("unknown-game", "not-found") and len(body["details"].get("id", "")) <= 64


@pytest.mark.parametrize(
    ("lang", "message"),
    [
        (
            "ja",
            "配札コードが正しくありません：「NOTACODE」は配札コードではありません："
            "コードは「ルール-難易度-番号」の3つの部分を「-」でつなぎます（例：CL1-N-AAAAAAJ）",
        ),
        (
            "en",
            "That deal code is not valid: 'NOTACODE' is not a deal code: a code is three parts joined by '-', "
            "rules-difficulty-number (e.g. CL1-N-AAAAAAJ)",
        ),
    ],
)
def test_a_leaderboard_of_text_that_is_no_code_is_refused_in_the_page_language(
    client: TestClient, lang: str, message: str
) -> None:
    response = client.get(f"/api/leaderboard/NOTACODE?lang={lang}")
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "bad-code"
    assert body["message"] == message
    assert body["details"]["code"] == "NOTACODE"


def test_an_export_file_of_version_1_taps_still_imports_as_moves(client: TestClient) -> None:
    """A file exported before games were kept as moves holds the page's taps; it imports, converted, with
    the figures that version showed (the schema-1 fixture of tests/store)."""
    from pathlib import Path

    fixture = json.loads((Path(__file__).parent.parent / "store" / "fixtures" / "schema1.json").read_text())
    rows = fixture["rows"]
    owner = rows["games"][0]["player_id"]
    games = [g for g in rows["games"] if g["player_id"] == owner]
    data = {
        "format": "pyramid-solitaire-records",
        "version": 1,
        "name": None,
        "games": [
            {key: g[key] for key in ("code", "rules", "difficulty", "started_ms", "ended_ms", "result", "moves")}
            | {"actions": [[a["kind"], a["arg"], a["at_ms"]] for a in rows["actions"] if a["game_id"] == g["id"]]}
            for g in games
        ],
    }
    start(client, code=WON_CODE)
    assert client.post("/api/me/import", json=data).json() == {"imported": len(games), "already": 0}
    listed = client.get("/api/me").json()
    shown = {(g["code"], g["started_ms"]): g for g in listed["finished"] + listed["unfinished"]}
    for game in games:
        mine = shown[(game["code"], game["started_ms"])]
        assert (mine["result"], mine["moves"], mine["pyramid_removed"]) == (
            game["result"],
            game["moves"],
            game["pyramid_removed"],
        )
        record = client.get(f"/api/games/{mine['id']}/record").text
        assert "tap" not in record.split("\n\n", 1)[1]


def test_a_games_record_is_what_the_replay_command_reads_and_ends_where_the_game_is(
    client: TestClient, tmp_path: Any
) -> None:
    """The record the web app gives (``/api/games/{id}/record``) is the ``Key: value`` + moves text of
    ``pyramid-solitaire replay``: replayed by the command line, through the engine alone, it ends where
    the game in the browser is — the same moves, undos, hints and cards left."""
    import subprocess
    import sys

    game = start(client, code="CL1-R-AAAAAAB")
    entries = [("move", "draw"), ("hint", None), ("move", "draw"), ("undo", None), ("redo", None), ("coach", None)]
    for kind, notation in entries:
        answer = post(client, game, kind, {"move": notation} if notation else None)
        assert answer.status_code == 200, answer.text
    shown = answer.json()["game"]
    record = client.get(f"/api/games/{game['id']}/record")
    assert record.headers["content-type"].startswith("text/plain")
    text = record.text
    assert text.startswith("Rules: classic\nDeal: CL1-R-AAAAAAB\n")
    assert text.split("\n\n", 1)[1].split() == ["draw", "hint", "draw", "undo", "redo", "coach"]
    path = tmp_path / "game.txt"
    path.write_text(text, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "pyramid_solitaire.cli", "replay", str(path), "--json"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    replayed = json.loads(done.stdout)
    assert (replayed["moves"], replayed["undos"], replayed["hints"], replayed["stock_left"]) == (
        shown["moves"],
        shown["undos"],
        shown["hints"],
        shown["stock"]["count"],
    )
    assert replayed["waste"][-1] == shown["waste"]["top"]

"""``pyramid-solitaire stats``: the same numbers as the page, export, import and reset, from the terminal."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest

from pyramid_solitaire import Deal
from pyramid_solitaire.cli import main
from pyramid_solitaire.solver import solve
from pyramid_solitaire.web.app import create_app

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

CODE = "CL1-N-AAAAAAD"


def played(db: str) -> TestClient:
    """One player who won CODE and resigned another game, through the web app."""
    client = TestClient(create_app(db))
    game = client.post("/api/games", json={"code": CODE}).json()["game"]
    solution = solve(Deal.from_code(CODE), time_limit=30).solution
    assert solution is not None
    for move in solution:
        client.post(f"/api/games/{game['id']}/move", json={"move": str(move)})
    other = client.post("/api/games", json={"code": "CL1-R-AAAAAAB"}).json()["game"]
    client.post(f"/api/games/{other['id']}/resign")
    return client


def test_stats_prints_what_the_page_shows(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    client = played(db)
    page = client.get("/api/stats").json()["stats"]
    assert main(["stats", "--db", db, "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == page
    assert main(["--lang", "en", "stats", "--db", db]) == 0
    table = capsys.readouterr().out.splitlines()
    assert table[0].split()[:4] == ["rules", "diff", "played", "won"]
    rows = [row.split()[:5] for row in table[1:]]
    assert rows == [["classic", "N", "1", "1", "100%"], ["classic", "R", "1", "0", "0%"]]


def test_export_import_and_reset(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    played(db)
    exported = tmp_path / "records.json"
    assert main(["stats", "--db", db, "--export", str(exported), "--json"]) == 0
    capsys.readouterr()
    assert len(json.loads(exported.read_text(encoding="utf-8"))["games"]) == 2
    other = f"sqlite:///{tmp_path / 'other.sqlite3'}"
    newcomer = TestClient(create_app(other))
    newcomer.post("/api/games", json={"code": CODE})
    assert main(["stats", "--db", other, "--import", str(exported), "--json"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "2ゲームを読み込みました"
    assert [s["played"] for s in json.loads(out[1])] == [1, 1]
    # the same file again adds nothing, and says so, in the language asked for
    assert main(["--lang", "en", "stats", "--db", other, "--import", str(exported), "--json"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "imported 0 games (2 already there)"
    assert [s["played"] for s in json.loads(out[1])] == [1, 1]
    assert main(["stats", "--db", other, "--reset", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == []
    # said as what it did, not "No records yet." over the games that stay
    assert main(["--lang", "en", "stats", "--db", other, "--reset"]) == 0
    assert capsys.readouterr().out == "statistics reset: they count from here (the games stay, for replays)\n"
    assert main(["stats", "--db", other, "--reset"]) == 0
    assert capsys.readouterr().out == "成績をリセットしました。ここから数え直します（ゲームは再生用に残ります）\n"


def test_an_import_on_a_fresh_install_makes_its_player_and_a_missing_file_fails(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    played(db)
    exported = tmp_path / "records.json"
    assert main(["stats", "--db", db, "--export", str(exported), "--json"]) == 0
    capsys.readouterr()
    fresh = f"sqlite:///{tmp_path / 'fresh.sqlite3'}"  # no player yet
    assert main(["stats", "--db", fresh, "--import", str(tmp_path / "missing.json")]) == 2
    assert (
        capsys.readouterr().err.strip()
        == f"pyramid-solitaire: エラー: {tmp_path / 'missing.json'} を読めません：ファイルがありません"
    )
    # a file that is no records, or a player the fresh database cannot hold: refused before it is made
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "pyramid-solitaire-records", "version": 1, "games": [{"code": "nope"}]}')
    assert main(["--lang", "en", "stats", "--db", fresh, "--import", str(broken)]) == 2
    assert "game 1: bad deal code 'nope'" in capsys.readouterr().err
    assert main(["--lang", "en", "stats", "--db", fresh, "--import", str(exported), "--player", "nobody"]) == 2
    assert "there is no database at" in capsys.readouterr().err
    assert not (tmp_path / "fresh.sqlite3").exists()
    assert main(["stats", "--db", fresh, "--import", str(exported), "--json"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "2ゲームを読み込みました"
    assert [s["played"] for s in json.loads(out[1])] == [1, 1]


def test_bad_input_exits_2_with_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    played(db)
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "pyramid-solitaire-records", "version": 1, "games": [{"code": "nope"}]}')
    for argv, says in (
        (["--import", str(broken)], "game 1: bad deal code 'nope'"),
        (["--import", str(tmp_path / "missing.json")], "cannot read"),
        (["--player", "nobody"], "no player 'nobody'"),
    ):
        assert main(["stats", "--db", db, *argv, "--lang", "en"]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and says in err[0], err


def test_a_player_id_that_starts_with_a_dash_can_be_given(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Player ids are URL-safe tokens, so about one in 64 starts with "-"; ``--player -Ab…`` names one."""
    from pyramid_solitaire.store import Store

    db = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    store = Store(db)
    ids = [store.new_player() for _ in range(400)]
    store.close()
    dashed = next(player for player in ids if player.startswith("-"))
    assert main(["stats", "--db", db, "--player", dashed, "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == []
    assert main(["stats", "--db", db, "--player", "-no-such-player"]) == 2
    assert "-no-such-player" in capsys.readouterr().err


def test_reading_a_database_that_is_not_there_says_so_and_creates_none(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A mistyped ``--db`` path names the missing file instead of showing an empty record from a new database
    made on the spot; with no ``--db``, a player who has never played yet is told there are no records."""
    missing = tmp_path / "typo" / "games.sqlite3"
    assert main(["stats", "--db", f"sqlite:///{missing}"]) == 2
    assert (
        capsys.readouterr().err.strip()
        == f"pyramid-solitaire: エラー: {missing} にデータベースはありません（そのファイルがありません）"
    )
    assert main(["--lang", "en", "stats", "--db", f"sqlite:///{missing}", "--reset"]) == 2
    assert (
        capsys.readouterr().err.strip() == f"pyramid-solitaire: error: there is no database at {missing} (no such file)"
    )
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert main(["--lang", "en", "stats"]) == 0
    assert capsys.readouterr().out.strip() == "No records yet."
    assert main(["stats", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == []
    assert not (tmp_path / "typo").exists() and not (tmp_path / "data").exists()


def test_a_file_that_is_no_database_is_named_and_left_as_it_was(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n", encoding="utf-8")
    url = f"sqlite:///{notes}"
    assert main(["--lang", "en", "stats", "--db", url]) == 2
    assert capsys.readouterr().err.strip() == (
        f"pyramid-solitaire: error: cannot use the database {url}: the file is not an SQLite database"
    )
    assert main(["stats", "--db", url, "--reset"]) == 2
    assert capsys.readouterr().err.strip() == (
        f"pyramid-solitaire: エラー: データベース {url} を使えません："
        "このファイルは SQLite のデータベースではありません"
    )
    assert notes.read_text(encoding="utf-8") == "my notes\n"


def test_export_reset_and_json_need_the_one_player_they_act_on(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With several players, ``--export``, ``--reset`` and ``--json`` each refuse (exit 2) rather than list the
    players and exit 0 having done nothing; with no records at all, an export is refused and writes no file."""
    db = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    played(db)
    TestClient(create_app(db)).post("/api/games", json={"code": CODE})  # a second player, one game
    exported = tmp_path / "records.json"
    for argv in (["--export", str(exported)], ["--reset"], ["--json"]):
        assert main(["--lang", "en", "stats", "--db", db, *argv]) == 2
        assert capsys.readouterr().err.strip() == (
            "pyramid-solitaire: error: the database holds 2 players: choose one with --player ID "
            "('stats' alone lists them)"
        )
    assert not exported.exists()
    assert main(["--lang", "en", "stats", "--db", db]) == 0
    listed = capsys.readouterr().out.splitlines()
    assert sorted(line.split("  ")[-1] for line in listed[:2]) == ["1 game", "2 games"]
    assert listed[2] == "Choose one with --player ID."
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))  # a fresh install: no database yet
    assert main(["stats", "--export", str(exported)]) == 2
    assert capsys.readouterr().err.strip() == (
        f"pyramid-solitaire: エラー: 記録はまだありません。書き出すものがないので {exported} は作っていません"
    )
    assert not exported.exists() and not (tmp_path / "data").exists()

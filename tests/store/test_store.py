"""The store on SQLite and on a real PostgreSQL server: schema, players, actions and conflicts,
statistics, leaderboards, imports, and errors that name the database."""

from __future__ import annotations

import socket
import time
import warnings
from pathlib import Path

import pytest
from sqlalchemy import create_engine, select
from sqlalchemy.exc import IntegrityError

from helpers import figures
from pyramid_solitaire.daily import Par
from pyramid_solitaire.store import Action, Conflict, GameRow, Store, StoreError
from pyramid_solitaire.store.schema import LATEST, actions, current_version, games, schema_version
from pyramid_solitaire.store.stats import compute, stats_for


def game_row(
    player: str,
    game_id: str,
    *,
    code: str = "CL1-N-AAAAAAB",
    rules: str = "classic",
    difficulty: str = "N",
    started: int = 1_000,
    ended: int | None = None,
    result: str | None = None,
    moves: int = 0,
    undos: int = 0,
    hints: int = 0,
) -> GameRow:
    return GameRow(
        id=game_id,
        player_id=player,
        rules=rules,
        preset=rules.split("(")[0],
        difficulty=difficulty,
        code=code,
        deal="(notation)",
        started_ms=started,
        ended_ms=ended,
        result=result,
        moves=moves,
        undos=undos,
        hints=hints,
        pyramid_removed=28 if result == "won" else 0,
        version=0,
    )


def finished(
    store: Store, player: str, game_id: str, result: str, started: int, seconds: float, moves: int, **options: str
) -> None:
    row = game_row(
        player, game_id, started=started, ended=started + int(seconds * 1000), result=result, moves=moves, **options
    )
    store.create_game(row)


def test_a_new_database_gets_the_latest_schema_and_reopening_changes_nothing(store: Store, db_url: str) -> None:
    engine = create_engine(store.engine.url)
    with engine.connect() as connection:
        assert current_version(connection) == LATEST
    engine.dispose()
    player = store.new_player()
    again = Store(db_url)
    assert again.player(player) is not None
    assert again.secret == store.secret  # every app process signs cookies alike
    again.close()


def test_actions_are_recorded_in_order_with_the_games_figures(store: Store) -> None:
    player = store.new_player()
    store.create_game(game_row(player, "g1"))
    store.record(
        "g1",
        0,
        "move",
        "Ks",
        figures(pyramid_removed=1),
    )
    store.record(
        "g1",
        1,
        "hint",
        None,
        figures(moves=2, pyramid_removed=1),
    )
    assert [(a.seq, a.kind, a.arg) for a in store.actions("g1")] == [(1, "move", "Ks"), (2, "hint", None)]
    row = store.game("g1")
    assert row is not None and row.version == 2 and row.moves == 2 and row.pyramid_removed == 1
    assert row.started_ms == 2000  # the game's clock, as the session keeps it (from its first entry)


def test_an_action_for_a_stale_version_is_a_conflict_and_writes_nothing(store: Store) -> None:
    player = store.new_player()
    store.create_game(game_row(player, "g1"))
    summary = figures()
    store.record("g1", 0, "move", "draw", summary)
    with pytest.raises(Conflict):
        store.record("g1", 0, "move", "Qh", {**summary, "moves": 99})
    row = store.game("g1")
    assert row is not None and row.version == 1 and row.moves == 1
    assert [a.arg for a in store.actions("g1")] == ["draw"]


def test_unfinished_and_finished_games_are_listed_apart(store: Store) -> None:
    player = store.new_player()
    other = store.new_player()
    store.create_game(game_row(player, "open", started=5))
    finished(store, player, "done", "won", 1, 60, 40)
    store.create_game(game_row(other, "theirs"))
    assert [g.id for g in store.games_of(player, finished=False)] == ["open"]
    assert [g.id for g in store.games_of(player, finished=True)] == ["done"]


def test_statistics_count_streaks_times_and_moves_per_rule_set_and_difficulty(store: Store) -> None:
    player = store.new_player()
    finished(store, player, "a", "won", 1_000, 100, 50, difficulty="E")
    finished(store, player, "b", "won", 200_000, 80, 44, difficulty="E")
    finished(store, player, "c", "lost", 400_000, 30, 70, difficulty="E")
    finished(store, player, "d", "won", 600_000, 90, 48, difficulty="E")
    finished(store, player, "e", "won", 800_000, 120, 60, difficulty="N")
    stats = stats_for(store.finished_games(player), "classic", "E").to_json()
    assert stats == {
        "rules": "classic",
        "difficulty": "E",
        "played": 4,
        "won": 3,
        "streak": 1,
        "best_streak": 2,
        "undos": 0,
        "hints": 0,
        "win_rate": 0.75,
        "average_seconds": 90.0,
        "best_seconds": 80.0,
        "average_moves": 47.3,
        "best_moves": 44,
    }
    assert [(s.difficulty, s.played) for s in compute(store.finished_games(player))] == [("E", 4), ("N", 1)]


def test_a_reset_starts_the_statistics_afresh_and_keeps_the_games(store: Store) -> None:
    player = store.new_player()
    finished(store, player, "a", "won", 1_000, 100, 50)
    store.reset_stats(player)
    assert compute(store.finished_games(player)) == []
    assert [g.id for g in store.games_of(player, finished=True)] == ["a"]


def test_the_leaderboard_ranks_wins_of_one_code_by_time_then_moves(store: Store) -> None:
    first, second, third = store.new_player(), store.new_player(), store.new_player()
    store.set_name(second, "Hana")
    finished(store, first, "slow", "won", 1_000, 200, 40)
    finished(store, second, "fast", "won", 1_000, 100, 50)
    finished(store, third, "fast-fewer", "won", 5_000, 100, 45)
    finished(store, third, "lost", "lost", 9_000, 10, 5)
    finished(store, first, "other-deal", "won", 1_000, 5, 5, code="CL1-N-AAAAAAC")
    board = store.leaderboard("CL1-N-AAAAAAB")
    assert [(e["id"], e["name"], e["ms"], e["moves"]) for e in board] == [
        ("fast-fewer", None, 100_000, 45),
        ("fast", "Hana", 100_000, 50),
        ("slow", None, 200_000, 40),
    ]


def test_a_result_screens_reads_give_one_rule_sets_games_the_leaderboard_and_the_par(store: Store) -> None:
    """What a finished game's answer reads (web/routes/games.add_records), on either database: the
    player's games of that rule set and difficulty since the last reset, and the deal's par."""
    player = store.new_player()
    finished(store, player, "old", "won", 1_000, 100, 50)
    store.reset_stats(player)
    time.sleep(0.01)  # the games below end after the reset
    now = int(time.time() * 1000)
    finished(store, player, "e", "won", now, 10, 30, difficulty="E")
    finished(store, player, "n", "lost", now + 1, 20, 40)
    finished(store, player, "n2", "won", now + 2, 30, 35)
    finished(store, player, "thirteen", "won", now + 3, 40, 20, rules="thirteen", code="TH1-N-AAAAAAB")
    assert [g.id for g in store.finished_games(player, rules="classic", difficulty="N")] == ["n", "n2"]
    assert [g.id for g in store.finished_games(player, since_reset=False, rules="classic", difficulty="N")] == [
        "old",
        "n",
        "n2",
    ]
    assert [g.id for g in store.finished_games(player, rules="thirteen")] == ["thirteen"]
    row = store.finished_games(player, difficulty="E")[0]
    assert (row.result, row.moves, row.ended_ms, row.daily, row.imported) == ("won", 30, now + 10_000, None, 0)
    assert store.par("CL1-N-AAAAAAB") is None and store.par("CL1\x00") is None
    store.save_par("CL1-N-AAAAAAB", Par(48, 0.25))
    store.save_par("CL1-N-AAAAAAC", Par(None, 60.0))  # ran out of time: unknown
    assert store.par("CL1-N-AAAAAAB") == Par(48, 0.25) and store.par("CL1-N-AAAAAAC") == Par(None, 60.0)


def test_an_import_is_all_or_nothing(store: Store) -> None:
    player = store.new_player()
    good = (game_row(player, "i1"), [Action(1, "move", "draw", 5)])
    clash = (game_row(player, "i1", started=2_000), [])  # the same id twice: the second insert fails
    with pytest.raises(IntegrityError):
        store.import_games([good, clash])
    assert store.game("i1") is None
    engine = create_engine(store.engine.url)
    with engine.connect() as connection:
        assert connection.execute(select(actions)).all() == []
        assert connection.execute(select(games)).all() == []
    engine.dispose()


def _dead_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.mark.parametrize(
    ("url", "says"),
    [
        (f"postgresql://who:hidden@127.0.0.1:{_dead_port()}/games", "cannot use the database postgresql://who:***@"),
        ("mysql://localhost/games", "unsupported kind 'mysql'"),
        ("sqlite://", "an SQLite URL is sqlite:///path"),
        ("not a url", "not a database URL"),
    ],
)
def test_a_database_that_cannot_be_used_is_named_with_the_problem(url: str, says: str) -> None:
    with pytest.raises(StoreError) as info:
        Store(url)
    assert says in str(info.value)
    assert "hidden" not in str(info.value)


def test_a_database_from_a_newer_program_is_refused_by_name(db_url: str) -> None:
    Store(db_url).close()
    engine = create_engine(Store(db_url).engine.url)
    with engine.begin() as connection:
        connection.execute(schema_version.update().values(version=LATEST + 1))
    engine.dispose()
    with pytest.raises(StoreError, match=f"schema version {LATEST + 1}, newer than this program's {LATEST}"):
        Store(db_url)


def test_an_sqlite_url_naming_a_folder_or_with_options_is_refused_by_name(tmp_path: Path) -> None:
    """A folder drew SQLite's "unable to open database file"; ``?mode=ro`` was ignored with the driver's own
    warning on stderr, and the file opened for writing all the same."""
    with pytest.raises(StoreError) as info:
        Store(f"sqlite:///{tmp_path}")
    assert str(info.value) == f"{tmp_path} is a folder: give the database's file (e.g. {tmp_path}/records.sqlite3)"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(StoreError) as info:
            Store(f"sqlite:///{tmp_path}/x.sqlite3?mode=ro")
    assert "an SQLite URL takes no options after '?' (here: mode)" in str(info.value)
    assert not (tmp_path / "x.sqlite3").exists()

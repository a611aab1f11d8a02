"""``pyramid-solitaire serve``: options, and bad ones refused at start with one line (exit 2)."""

from __future__ import annotations

import contextlib
import socket
import sys
from typing import Any

import pytest
import uvicorn

from pyramid_solitaire.cli import main
from pyramid_solitaire.web.server import DEFAULT_PORT, check_db_url, default_db_url
from pyramid_solitaire.web.wire import OneWrite


def _serve(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *argv: str
) -> tuple[int, str, str, list[dict[str, Any]]]:
    started: list[dict[str, Any]] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: started.append(options))
    monkeypatch.setattr(sys, "argv", ["pyramid-solitaire"])
    status = main(["serve", *argv])
    out, err = capsys.readouterr()
    return status, out, err, started


def test_serve_takes_host_port_and_db(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    db = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    status, out, err, started = _serve(capsys, monkeypatch, "--port", str(port), "--db", db, "--no-browser")
    assert status == 0, err
    assert started == [{"host": "127.0.0.1", "port": port, "log_level": "warning", "http": OneWrite}]
    assert f"http://127.0.0.1:{port}/" in out
    assert db in out


def test_the_default_database_is_an_sqlite_file_in_the_users_data_folder() -> None:
    url = default_db_url()
    assert url.startswith("sqlite:///") and url.endswith("pyramid-solitaire/games.sqlite3")
    assert check_db_url(url) == url


@pytest.mark.parametrize(
    ("url", "problem"),
    [
        ("mysql://localhost/games", "unknown kind 'mysql'"),
        ("games.sqlite3", "names no kind of database"),
        ("sqlite://", "an SQLite URL is sqlite:///path"),
        ("postgresql://", "names a host or a database"),
        ("mysql://hana:s3cret@db.example/games", "'mysql://hana:***@db.example/games': unknown kind 'mysql'"),
        ("postgresql://hana:s3cret@[db.example/games", "'postgresql://hana:***@[db.example/games'"),
    ],
)
def test_a_bad_database_url_stops_the_start_with_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, url: str, problem: str
) -> None:
    status, _, err, started = _serve(capsys, monkeypatch, "--db", url, "--no-browser", "--lang", "en")
    assert status == 2
    assert started == []
    lines = err.splitlines()
    assert len(lines) == 1 and problem in lines[0], err
    assert "s3cret" not in err


def test_a_taken_port_is_refused_by_name(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        status, _, err, started = _serve(capsys, monkeypatch, "--port", str(port), "--no-browser", "--lang", "en")
        japanese = _serve(capsys, monkeypatch, "--port", str(port), "--no-browser")[2]
    assert status == 2 and started == []
    assert f"127.0.0.1 のポート {port} はすでに使われています" in japanese  # Japanese by default
    expected = f"port {port} on 127.0.0.1 is already in use (choose another with --port)"
    assert err.strip() == f"pyramid-solitaire: error: {expected}"


def test_without_a_port_the_next_free_one_is_taken(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    with socket.socket() as holder:
        holder.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        with contextlib.suppress(OSError):  # already taken by something else: the point holds either way
            holder.bind(("127.0.0.1", DEFAULT_PORT))
        holder.listen()
        status, out, _, started = _serve(capsys, monkeypatch, "--no-browser")
    assert status == 0
    assert started[0]["port"] > DEFAULT_PORT
    assert f":{started[0]['port']}/" in out


def test_an_unreachable_database_stops_the_start_with_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        dead = probe.getsockname()[1]
    status, _, err, started = _serve(
        capsys,
        monkeypatch,
        "--db",
        f"postgresql://someone:secret@127.0.0.1:{dead}/games",
        "--no-browser",
        "--lang",
        "en",
    )
    assert status == 2 and started == []
    line = err.strip()
    assert "\n" not in line
    assert line.startswith(
        f"pyramid-solitaire: error: cannot use the database postgresql://someone:***@127.0.0.1:{dead}"
    )
    assert "secret" not in line  # the password is never printed
    assert "refused" in line.lower()


def test_without_a_command_the_serve_options_still_apply(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    started: list[dict[str, Any]] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: started.append(options))
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    status = main(["--port", str(port), "--no-browser", "--db", f"sqlite:///{tmp_path / 'g.sqlite3'}"])
    out, err = capsys.readouterr()
    assert status == 0, err
    assert started[0]["port"] == port and f"http://127.0.0.1:{port}/" in out

"""A private PostgreSQL server for the tests, from Debian's packages (``scripts/test`` installs them).

It lives in a temporary folder, listens on a free loopback port and is stopped at the end.  As root the
server runs as the ``postgres`` user (PostgreSQL refuses to run as root).  Missing binaries are a
failure with a message, not a skip.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from helpers import free_port

BIN_DIRS = sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True)


class PostgresServer:
    """``start()`` → URL of a fresh database; ``stop()`` removes everything.

    The tests' server skips syncing to disk (``fsync=off``): nothing they check depends on surviving a
    power cut, and it saves their time.  A benchmark passes ``durable=True`` for a server that syncs its
    log at every commit, as a real one does, so that its figures include that wait."""

    def __init__(self, durable: bool = False, max_connections: int = 100) -> None:
        self.durable = durable
        self.max_connections = max_connections
        if not BIN_DIRS:
            pytest.fail("PostgreSQL is not installed: scripts/test installs Debian's postgresql package")
        self.bin = BIN_DIRS[0]
        self.root = Path(tempfile.mkdtemp(prefix="pyramid-pg-"))
        self.data = self.root / "data"
        self.port = free_port()
        self.as_root = os.geteuid() == 0

    def _run(self, *argv: str) -> None:
        command = list(argv)
        if self.as_root:
            command = ["runuser", "-u", "postgres", "--", *command]
        result = subprocess.run(command, capture_output=True, text=True, check=False)
        if result.returncode != 0:
            pytest.fail(f"{' '.join(argv[:2])} failed: {result.stderr.strip() or result.stdout.strip()}")

    def start(self) -> str:
        if self.as_root:
            shutil.chown(self.root, "postgres", "postgres")
        self._run(
            str(self.bin / "initdb"), "-D", str(self.data), "-U", "postgres", "-A", "trust", "--no-sync", "-E", "UTF8"
        )
        self.start_server()
        return self.url("postgres")

    def start_server(self) -> None:
        """Start (or restart) the server on the same data and port."""
        sync = "on" if self.durable else "off"
        options = (
            f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync={sync}"
            f" -c max_connections={self.max_connections}"
        )
        self._run(
            str(self.bin / "pg_ctl"), "-D", str(self.data), "-o", options, "-l", str(self.root / "log"), "-w", "start"
        )

    def stop_server(self) -> None:
        """Stop the server at once (its clients see the connection go), keeping the data."""
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop")

    def url(self, database: str) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def create_database(self, name: str) -> str:
        """A new empty database; returns its URL."""
        import psycopg

        with psycopg.connect(self.url("postgres"), autocommit=True) as connection:
            connection.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def stop(self) -> None:
        if self.data.exists():
            self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop")
        shutil.rmtree(self.root, ignore_errors=True)

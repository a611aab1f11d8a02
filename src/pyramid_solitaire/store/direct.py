"""Driver connections of their own for the one-statement writes every move makes on PostgreSQL: the
action's record (:meth:`.Store.record`) and the rate limit's token (:mod:`..web.shared_limits`).

Each of those is one statement in autocommit.  Sent through SQLAlchemy (a pool checkout, its pre-ping,
the statement's compiled form looked up and its result wrapped) it cost about 160-250 µs of processor
time; sent straight with psycopg on a kept connection, about 55 µs (docs/performance.md, issue 24).
The statements are still written with SQLAlchemy, compiled once for PostgreSQL; only their sending
skips it.  Everything else keeps going through SQLAlchemy.

Instead of a ping (a round trip) before every use: a kept connection whose socket has something to
read is closed (an idle connection has nothing to read unless the server ended it: a restart, a
shutdown, an idle timeout — found by a poll of the socket, for a few microseconds); one idle for more
than :data:`PING_AFTER` seconds is pinged before it is used again (a link dropped without a word); and
when a statement fails for the connection, that one and every kept one are closed (made before the
failure, they are likely broken alike).  Such a failure is answered as a database that is away (a 503
saying nothing was saved), and nothing is written.
"""

from __future__ import annotations

import select
import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any, Final

import psycopg
from sqlalchemy import Engine
from sqlalchemy.sql import ClauseElement

#: A connection idle longer than this is pinged before it is used (a server restart or a dropped link
#: is found then, rather than by the statement).
PING_AFTER: Final = 2.0


class DirectPool:
    """Kept psycopg connections in autocommit to the database of ``engine`` (PostgreSQL only)."""

    def __init__(self, engine: Engine, keep: int, connect_args: Mapping[str, Any]) -> None:
        args, kwargs = engine.dialect.create_connect_args(engine.url)
        self._args, self._kwargs = list(args), {**kwargs, **connect_args, "autocommit": True}
        self._dialect = engine.dialect
        self._keep = keep
        self._idle: list[tuple[psycopg.Connection[Any], float]] = []
        self._lock = threading.Lock()

    def compile(self, statement: ClauseElement) -> str:
        """The statement's SQL as this pool sends it (named ``%(name)s`` parameters)."""
        return str(statement.compile(dialect=self._dialect))

    @contextmanager
    def connection(self) -> Iterator[psycopg.Connection[Any]]:
        """A connection for one statement; one that fails is closed, not kept.  Raises psycopg's errors."""
        connection = self._take()
        try:
            yield connection
        except psycopg.OperationalError:
            connection.close()
            self.close()  # the others were made before the failure: likely broken alike (SQLAlchemy's rule)
            raise
        finally:
            self._give(connection)

    def run(self, sql: str, values: Mapping[str, Any]) -> list[tuple[Any, ...]]:
        """Run one statement in autocommit; the rows it returns."""
        with self.connection() as connection:
            cursor = connection.execute(sql, values, prepare=True)
            return cursor.fetchall() if cursor.description is not None else []

    def close(self) -> None:
        with self._lock:
            idle, self._idle = self._idle, []
        for connection, _ in idle:
            connection.close()

    def _take(self) -> psycopg.Connection[Any]:
        while True:
            with self._lock:
                if not self._idle:
                    break
                connection, since = self._idle.pop()
            if select.select([connection.pgconn.socket], [], [], 0)[0]:
                # an idle connection has nothing to read unless the server closed it (a restart, a
                # shutdown, an idle timeout): found here for the price of a poll, not by a failed statement
                connection.close()
                continue
            if time.monotonic() - since <= PING_AFTER:
                return connection
            try:
                connection.execute("SELECT 1")
                return connection
            except psycopg.Error:
                connection.close()
        return psycopg.connect(*self._args, **self._kwargs)

    def _give(self, connection: psycopg.Connection[Any]) -> None:
        if connection.closed or connection.info.transaction_status != psycopg.pq.TransactionStatus.IDLE:
            connection.close()
            return
        with self._lock:
            if len(self._idle) < self._keep:
                self._idle.append((connection, time.monotonic()))
                return
        connection.close()

"""Driver connections of their own for the one-statement writes every move makes on PostgreSQL: the
action's record (:meth:`.Store.record`) and the rate limit's token (:mod:`..web.shared_limits`).

Each of those is one statement in autocommit.  Sent through SQLAlchemy (a pool checkout, its pre-ping,
the statement's compiled form looked up and its result wrapped) it cost about 160-250 µs of processor
time; sent with psycopg's cursor on a kept connection, about 55-100 µs; sent as a prepared statement
through psycopg's libpq layer (``psycopg.pq``, its public low-level interface), about 20 µs
(docs/performance.md, issue 24).  The statements are still written with SQLAlchemy and compiled once
for PostgreSQL, which writes a cast after every parameter (``%(after)s::INTEGER``); :meth:`compile`
numbers the parameters (``$2::INTEGER``) and refuses a statement with a parameter without a cast, so
that each parameter can go as text and the server reads it as the type the cast names.  Everything
else keeps going through SQLAlchemy.

Instead of a ping (a round trip) before every use: a kept connection whose socket has something to
read is closed (an idle connection has nothing to read unless the server ended it: a restart, a
shutdown, an idle timeout — found by a poll of the socket, for a few microseconds); one idle for more
than :data:`PING_AFTER` seconds is pinged before it is used again (a link dropped without a word); and
when a statement fails for the connection, that one and every kept one are closed (made before the
failure, they are likely broken alike).  Such a failure is answered as a database that is away (a 503
saying nothing was saved), and nothing is written.
"""

from __future__ import annotations

import functools
import itertools
import re
import select
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Final

import psycopg
from psycopg import pq
from psycopg.abc import ConnParam
from psycopg.rows import TupleRow
from sqlalchemy import Engine
from sqlalchemy.sql import ClauseElement

#: A connection idle longer than this is pinged before it is used (a server restart or a dropped link
#: is found then, rather than by the statement).
PING_AFTER: Final = 2.0
#: A parameter as SQLAlchemy writes it for psycopg, and the cast around it: ``%(x)s::INTEGER`` (as the
#: dialect writes a typed parameter) or ``CAST(%(x)s AS DOUBLE PRECISION)`` (as a text statement may).
_PARAMETER: Final = re.compile(r"(CAST\()?%\((\w+)\)s(::| AS )?")
#: A value a statement returns: a number, a flag or text (any other type is read as its text), or NULL.
Value = bool | int | float | str | None
#: The values the statements return, read from the text the server sends, by type (its oid).
_READ: Final[dict[int, Callable[[bytes], Value]]] = {
    16: lambda raw: raw == b"t",  # boolean
    20: int,  # bigint
    21: int,  # smallint
    23: int,  # integer
    700: float,  # real
    701: float,  # double precision
    1700: float,  # numeric
}
_names = itertools.count(1)


@dataclass(frozen=True, eq=False)
class Statement:
    """A statement as :class:`DirectPool` prepares it: its name on a connection, its SQL with numbered
    parameters, the names of the values that go in them, in order, and the values the statement holds
    itself (``games.c.result == "won"``: sent as a parameter like the others)."""

    name: bytes
    sql: bytes
    order: tuple[str, ...]
    held: dict[str, object]


def _text(value: object, encoding: str) -> bytes | None:
    """A parameter's value as the text the server reads (its cast in the statement says as what), in the
    connection's encoding.  Text holding NUL is refused as psycopg refuses it: libpq would cut it there."""
    if value is None:
        return None
    if value is True or value is False:
        return b"true" if value else b"false"
    if isinstance(value, int | float):
        return repr(value).encode()
    if isinstance(value, str):
        if "\x00" in value:
            raise psycopg.DataError("PostgreSQL text fields cannot contain NUL (0x00) bytes")
        return value.encode(encoding)
    raise TypeError(f"no text form for a parameter of type {type(value).__name__}")


class DirectPool:
    """Kept psycopg connections in autocommit to the database of ``engine`` (PostgreSQL only)."""

    def __init__(self, engine: Engine, keep: int, connect_args: Mapping[str, ConnParam]) -> None:
        args, kwargs = engine.dialect.create_connect_args(engine.url)
        self._args, self._kwargs = list(args), {**kwargs, **connect_args, "autocommit": True}
        self._dialect = engine.dialect
        self._keep = keep
        self._idle: list[tuple[psycopg.Connection[TupleRow], float]] = []
        self._lock = threading.Lock()
        #: The statements prepared on each kept connection, by the connection's id().
        self._prepared: dict[int, set[bytes]] = {}

    def compile(self, statement: ClauseElement) -> Statement:
        """The statement as this pool prepares it; ValueError if a parameter has no cast (its type would
        be the server's guess)."""
        compiled = statement.compile(dialect=self._dialect)
        sql = str(compiled)
        held = {name: value for name, value in compiled.params.items() if value is not None}
        order: list[str] = []

        def number(found: re.Match[str]) -> str:
            cast, name, after = found.groups()
            if after != (" AS " if cast else "::"):
                raise ValueError(f"parameter {name} of a direct statement has no cast")
            if name not in order:
                order.append(name)
            return f"{cast or ''}${order.index(name) + 1}{after}"

        numbered = _PARAMETER.sub(number, sql).replace("%%", "%")
        return Statement(f"pyramid_direct_{next(_names)}".encode(), numbered.encode(), tuple(order), held)

    @contextmanager
    def connection(self) -> Iterator[psycopg.Connection[TupleRow]]:
        """A connection for one statement; one that fails is closed, not kept.  Raises psycopg's errors."""
        connection = self._take()
        try:
            yield connection
        except psycopg.OperationalError:
            self._forget(connection)
            self.close()  # the others were made before the failure: likely broken alike (SQLAlchemy's rule)
            raise
        finally:
            self._give(connection)

    # The rows' values left untyped: each is a Value of the type the caller's statement selects (the rate
    # limit's numbers, web/shared_limits.py), which the type checker cannot see through the statement.
    def run(self, statement: Statement, values: Mapping[str, object]) -> list[tuple[Any, ...]]:
        """Run one statement in autocommit; the rows it returns.  Raises psycopg's errors: the class
        of the server's SQLSTATE (``psycopg.errors.UniqueViolation``…), OperationalError for a link
        that broke."""
        with self.connection() as connection:
            pgconn = connection.pgconn
            prepared: set[bytes] = self._prepared.setdefault(id(connection), set())
            if statement.name not in prepared:
                _check(pgconn, pgconn.prepare(statement.name, statement.sql))
                prepared.add(statement.name)
            held, encoding = statement.held, connection.info.encoding
            parameters = [_text(values[name] if name in values else held[name], encoding) for name in statement.order]
            pgconn.send_query_prepared(statement.name, parameters)
            result = _check(pgconn, _result(pgconn))
            if result.status != pq.ExecStatus.TUPLES_OK:
                return []
            text = functools.partial(bytes.decode, encoding=encoding)
            reads = [_READ.get(result.ftype(column), text) for column in range(result.nfields)]
            return [
                tuple(
                    None if (raw := result.get_value(row, column)) is None else read(raw)
                    for column, read in enumerate(reads)
                )
                for row in range(result.ntuples)
            ]

    def close(self) -> None:
        with self._lock:
            idle, self._idle = self._idle, []
        for connection, _ in idle:
            self._forget(connection)

    def _take(self) -> psycopg.Connection[TupleRow]:
        while True:
            with self._lock:
                if not self._idle:
                    break
                connection, since = self._idle.pop()
            if _ready(connection.pgconn.socket, select.POLLIN, 0):
                # an idle connection has nothing to read unless the server closed it (a restart, a
                # shutdown, an idle timeout): found here for the price of a poll, not by a failed statement
                self._forget(connection)
                continue
            if time.monotonic() - since <= PING_AFTER:
                return connection
            try:
                connection.execute("SELECT 1")
                return connection
            except psycopg.Error:
                self._forget(connection)
        return psycopg.connect(*self._args, **self._kwargs)

    def _give(self, connection: psycopg.Connection[TupleRow]) -> None:
        if connection.closed or connection.info.transaction_status != psycopg.pq.TransactionStatus.IDLE:
            self._forget(connection)
            return
        with self._lock:
            if len(self._idle) < self._keep:
                self._idle.append((connection, time.monotonic()))
                return
        self._forget(connection)

    def _forget(self, connection: psycopg.Connection[TupleRow]) -> None:
        connection.close()
        with self._lock:
            self._prepared.pop(id(connection), None)


def _ready(socket: int, event: int, timeout: float | None) -> bool:
    """Whether the socket is ready for ``event`` (``select.POLLIN`` or ``POLLOUT``) within ``timeout``
    seconds (None: waits).  A poll, not select(): a process with many players' connections open has
    descriptors beyond select()'s 1024."""
    poller = select.poll()
    poller.register(socket, event)
    return bool(poller.poll(None if timeout is None else timeout * 1000))


def _result(pgconn: pq.abc.PGconn) -> pq.abc.PGresult:
    """The last result of the statement sent, once the server has sent all of it (blocking, as the
    callers mean to: see web/games.py)."""
    while pgconn.flush():
        _ready(pgconn.socket, select.POLLOUT, None)
    last = None
    while True:
        while pgconn.is_busy():
            _ready(pgconn.socket, select.POLLIN, None)
            pgconn.consume_input()
        result = pgconn.get_result()
        if result is None:
            break
        last = result
    if last is None:
        raise psycopg.OperationalError("the server sent no result")
    return last


def _check(pgconn: pq.abc.PGconn, result: pq.abc.PGresult) -> pq.abc.PGresult:
    """The result, or the error it holds raised as psycopg's class for its SQLSTATE."""
    if result.status in (pq.ExecStatus.COMMAND_OK, pq.ExecStatus.TUPLES_OK):
        return result
    message = (result.error_message or pgconn.error_message).decode(errors="replace").strip()
    sqlstate = result.error_field(pq.DiagnosticField.SQLSTATE)
    if sqlstate is None or pgconn.status != pq.ConnStatus.OK:  # no answer of the server's: the link broke
        raise psycopg.OperationalError(message or "the connection to the server was lost")
    try:
        error = psycopg.errors.lookup(sqlstate.decode())
    except KeyError:
        error = psycopg.DatabaseError
    raise error(message)

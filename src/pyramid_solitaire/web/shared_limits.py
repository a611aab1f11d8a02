"""Rate limits kept in PostgreSQL, so that they hold for a player whichever app process answers.

Behind one port (``serve --workers N``) or one reverse proxy (docs/deploy.md), a player's requests land on
any process; token buckets kept in each process's memory would each allow the full rate, N times the
limit in all.  :class:`SharedRateLimiter` keeps each bucket as a row of ``rate_buckets`` and takes a token
with one statement (an upsert that refills the bucket by the time passed, on the database's clock, so
machines whose clocks differ agree), answering as :class:`.limits.RateLimiter` does.

The table is not part of the records and has no migration: it is created when missing, ``UNLOGGED``
(not written to PostgreSQL's log, emptied by a crash of the database — a bucket forgotten starts full, as
one dropped from memory does), and rows idle long enough to be full again are deleted now and then.  If
the database cannot be asked, the request is let through: the handler then answers the clear 503 of a
database that is away rather than an error of the limiter.

**Tokens are taken a few at a time.**  Asking the database for every request was a fifth of a move's
processor time in the app and a statement of PostgreSQL's (docs/performance.md, issue 24).  So a
process takes a *lease* of up to ``lease`` tokens from a bucket at once (one statement) and spends them
on that client's next requests; only when its lease is spent does it ask again.  Every request answered
still spent a token taken from the shared bucket, so no client gets more than the limit's burst at once
or its rate over time, whichever processes answer.  What a lease costs is the other way: tokens leased
by one process are not available to another, so a client whose requests move between processes may
meet its limit up to ``lease`` tokens per other process early.  The lease is a twentieth of the burst
(at most :data:`LEASE_MOST`, at least 1): a player, whose burst is 200, could lose 10 per other process
of the 200, far more than tapping uses; a limit with a burst under 40 is exact, as before.
"""

from __future__ import annotations

import hashlib
import logging
import random
import threading
from collections import OrderedDict
from typing import Final

import psycopg
from sqlalchemy import text

from ..store import Store
from .limits import ADDRESS_LIMIT, MAX_CLIENTS, PLAYER_LIMIT, Limit

LOG = logging.getLogger(__name__)
#: One take in this many also deletes the buckets idle for IDLE_SECONDS (by then any bucket is full again).
SWEEP_EVERY: Final = 2_000
IDLE_SECONDS: Final = 600
#: Serialises the creation of the table by processes starting together (schema.py's migrations use 734901).
CREATE_LOCK: Final = 734902
#: A lease is this share of a limit's burst, at most LEASE_MOST tokens and at least one.
LEASE_SHARE: Final = 20
LEASE_MOST: Final = 10

_CREATE: Final = text(
    "CREATE UNLOGGED TABLE IF NOT EXISTS rate_buckets ("
    " key VARCHAR(80) PRIMARY KEY, tokens DOUBLE PRECISION NOT NULL, at DOUBLE PRECISION NOT NULL,"
    " taken BOOLEAN NOT NULL)"
)
#: How many tokens the last take got (a table made before leases lacks the column).
_ADD_GOT: Final = text("ALTER TABLE rate_buckets ADD COLUMN IF NOT EXISTS got DOUBLE PRECISION NOT NULL DEFAULT 0")
#: The parameters of the statements below, each with its type (store/direct.py sends them as text).
_KEY, _BURST, _RATE, _LEASE, _IDLE = (
    "CAST(:key AS VARCHAR)",
    "CAST(:burst AS DOUBLE PRECISION)",
    "CAST(:rate AS DOUBLE PRECISION)",
    "CAST(:lease AS DOUBLE PRECISION)",
    "CAST(:idle AS DOUBLE PRECISION)",
)
_FULL: Final = f"LEAST({_BURST}, b.tokens + (EXCLUDED.at - b.at) * {_RATE})"
#: Refill by the time passed, take up to :lease tokens (as many whole ones as there are), and say how many
#: were taken and how many are left.
_TAKE: Final = text(
    f"""
    INSERT INTO rate_buckets AS b (key, tokens, at, taken, got)
    VALUES ({_KEY}, {_BURST} - {_LEASE}, extract(epoch from clock_timestamp()), TRUE, {_LEASE})
    ON CONFLICT (key) DO UPDATE SET
        tokens = {_FULL} - LEAST({_LEASE}, floor({_FULL})),
        got = LEAST({_LEASE}, floor({_FULL})),
        taken = {_FULL} >= 1,
        at = EXCLUDED.at
    RETURNING tokens, got
    """
)
_SWEEP: Final = text(f"DELETE FROM rate_buckets WHERE at < extract(epoch from clock_timestamp()) - {_IDLE}")


class SharedRateLimiter:
    """Token buckets by client key, in the PostgreSQL database of the app's ``store``."""

    def __init__(self, store: Store, player: Limit = PLAYER_LIMIT, address: Limit = ADDRESS_LIMIT) -> None:
        # One statement is atomic by itself: in autocommit it is one round trip to the server, not three
        # (BEGIN, the statement, COMMIT), sent on the store's own driver connections (store/direct.py).
        if store.direct is None:
            raise ValueError("rate limits are shared through PostgreSQL only")
        self.direct = store.direct
        self._take, self._sweep = self.direct.compile(_TAKE), self.direct.compile(_SWEEP)
        self.limits = {"player": player, "address": address}
        self.leases = {kind: lease_of(limit) for kind, limit in self.limits.items()}
        self._random = random.Random()
        #: The tokens this process holds, by client: taken from the shared bucket, not yet spent.
        self._held: OrderedDict[str, int] = OrderedDict()
        self._lock = threading.Lock()
        with store.engine.begin() as connection:
            connection.execute(text(f"SELECT pg_advisory_xact_lock({CREATE_LOCK})"))
            connection.execute(_CREATE)
            connection.execute(_ADD_GOT)

    def wait_needed(self, kind: str, key: str) -> float:
        """Take one token for ``key``; returns 0 if there was one, else the seconds until there is.

        A token this process holds is spent without asking; else the guard asks on the event loop: one
        short statement in autocommit, as a move's write is with PostgreSQL (web/games.py says why not on
        the thread pool)."""
        held = f"{kind}:{key}"
        with self._lock:
            if self._held.get(held, 0) > 0:
                self._held[held] -= 1
                self._held.move_to_end(held)
                return 0.0
        limit = self.limits[kind]
        # a fixed-length key whatever the client sent (a cookie may be long, or forged)
        bucket = hashlib.sha256(held.encode(errors="replace")).hexdigest()
        values = {"key": bucket, "burst": limit.burst, "rate": limit.rate, "lease": self.leases[kind]}
        try:
            ((tokens, got),) = self.direct.run(self._take, values)
            if self._random.randrange(SWEEP_EVERY) == 0:
                self.direct.run(self._sweep, {"idle": IDLE_SECONDS})
        except psycopg.Error as exc:
            LOG.warning("rate limit not checked, the database did not answer: %s", type(exc).__name__)
            return 0.0
        if got >= 1:
            with self._lock:  # one token for this request, the rest held for the next ones
                self._held[held] = self._held.get(held, 0) + int(got) - 1
                self._held.move_to_end(held)
                while len(self._held) > MAX_CLIENTS:
                    self._held.popitem(last=False)
            return 0.0
        return (1 - float(tokens)) / limit.rate if limit.rate > 0 else float("inf")


def lease_of(limit: Limit) -> int:
    """How many tokens a process takes from a bucket of ``limit`` at once (the module says why)."""
    return max(1, min(LEASE_MOST, int(limit.burst // LEASE_SHARE)))

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
"""

from __future__ import annotations

import hashlib
import logging
import random
from typing import Final

import psycopg
from sqlalchemy import text

from ..store import Store
from .limits import ADDRESS_LIMIT, PLAYER_LIMIT, Limit

LOG = logging.getLogger(__name__)
#: One take in this many also deletes the buckets idle for IDLE_SECONDS (by then any bucket is full again).
SWEEP_EVERY: Final = 2_000
IDLE_SECONDS: Final = 600
#: Serialises the creation of the table by processes starting together (schema.py's migrations use 734901).
CREATE_LOCK: Final = 734902

_CREATE: Final = text(
    "CREATE UNLOGGED TABLE IF NOT EXISTS rate_buckets ("
    " key VARCHAR(80) PRIMARY KEY, tokens DOUBLE PRECISION NOT NULL, at DOUBLE PRECISION NOT NULL,"
    " taken BOOLEAN NOT NULL)"
)
#: Refill by the time passed, take one token if there is one, and say whether it was taken.
_TAKE: Final = text(
    """
    INSERT INTO rate_buckets AS b (key, tokens, at, taken)
    VALUES (:key, :burst - 1, extract(epoch from clock_timestamp()), TRUE)
    ON CONFLICT (key) DO UPDATE SET
        tokens = LEAST(:burst, b.tokens + (EXCLUDED.at - b.at) * :rate)
            - CASE WHEN LEAST(:burst, b.tokens + (EXCLUDED.at - b.at) * :rate) >= 1 THEN 1 ELSE 0 END,
        taken = LEAST(:burst, b.tokens + (EXCLUDED.at - b.at) * :rate) >= 1,
        at = EXCLUDED.at
    RETURNING tokens, taken
    """
)
_SWEEP: Final = text("DELETE FROM rate_buckets WHERE at < extract(epoch from clock_timestamp()) - :idle")


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
        self._random = random.Random()
        with store.engine.begin() as connection:
            connection.execute(text(f"SELECT pg_advisory_xact_lock({CREATE_LOCK})"))
            connection.execute(_CREATE)

    def wait_needed(self, kind: str, key: str) -> float:
        """Take one token for ``key``; returns 0 if there was one, else the seconds until there is.  The
        guard asks on the event loop: one short statement in autocommit, as a move's write is with
        PostgreSQL (web/games.py says why not on the thread pool)."""
        limit = self.limits[kind]
        # a fixed-length key whatever the client sent (a cookie may be long, or forged)
        bucket = hashlib.sha256(f"{kind}:{key}".encode(errors="replace")).hexdigest()
        try:
            ((tokens, taken),) = self.direct.run(self._take, {"key": bucket, "burst": limit.burst, "rate": limit.rate})
            if self._random.randrange(SWEEP_EVERY) == 0:
                self.direct.run(self._sweep, {"idle": IDLE_SECONDS})
        except psycopg.Error as exc:
            LOG.warning("rate limit not checked, the database did not answer: %s", type(exc).__name__)
            return 0.0
        if taken:
            return 0.0
        return (1 - float(tokens)) / limit.rate if limit.rate > 0 else float("inf")

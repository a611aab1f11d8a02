"""Request rate limits per client: a token bucket for each player (by the player cookie) and, for
requests without one, for each address.

A player taps a few times a second at most; a script hammering the API is slowed to ``rate`` requests
a second after a ``burst``.  Only state-changing requests count (reading a game or the page does not).
Buckets are kept for the most recent ``MAX_CLIENTS`` clients; one that is forgotten starts full again.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, Protocol

MAX_CLIENTS: Final = 100_000


@dataclass(frozen=True)
class Limit:
    """``rate`` requests a second on average, up to ``burst`` at once."""

    rate: float
    burst: float


#: A player: far above what tapping can reach (a whole deal is 60-150 requests), far below what a loop
#: can send.
PLAYER_LIMIT: Final = Limit(rate=30, burst=200)
#: Requests without a player cookie, per address (a new game makes the cookie; many players may share
#: an address behind a NAT, hence the larger allowance).
ADDRESS_LIMIT: Final = Limit(rate=50, burst=300)


class Limiter(Protocol):
    """What the guard asks: :class:`RateLimiter` (this process's memory) or
    :class:`.shared_limits.SharedRateLimiter` (the database, for several app processes)."""

    def wait_needed(self, kind: str, key: str) -> float: ...


class RateLimiter:
    """Token buckets by client key, in this process's memory: right for one app process (SQLite allows no
    more); several processes on PostgreSQL share theirs in the database (:mod:`.shared_limits`)."""

    def __init__(
        self, player: Limit = PLAYER_LIMIT, address: Limit = ADDRESS_LIMIT, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.limits = {"player": player, "address": address}
        self.clock = clock
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()
        self._lock = threading.Lock()

    def wait_needed(self, kind: str, key: str) -> float:
        """Take one token for ``key``; returns 0 if there was one, else the seconds until there is."""
        limit = self.limits[kind]
        now = self.clock()
        bucket = f"{kind}:{key}"
        with self._lock:
            tokens, then = self._buckets.get(bucket, (limit.burst, now))
            tokens = min(limit.burst, tokens + (now - then) * limit.rate)
            if tokens >= 1:
                self._buckets[bucket] = (tokens - 1, now)
                wait = 0.0
            else:
                self._buckets[bucket] = (tokens, now)
                wait = (1 - tokens) / limit.rate if limit.rate > 0 else float("inf")
            self._buckets.move_to_end(bucket)
            while len(self._buckets) > MAX_CLIENTS:
                self._buckets.popitem(last=False)
        return wait

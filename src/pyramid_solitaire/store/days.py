"""The store's rows of days: the par of each deal code, the daily deal's games, and each day's set of
daily challenges (docs/daily.md, docs/challenges.md).  :class:`DayRows` is a base of
:class:`..Store`, apart so that each part of the store is read in one sitting."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Final, TypedDict

from sqlalchemy import String, and_, bindparam, select, text
from sqlalchemy.exc import IntegrityError

from ..daily import Par
from .rows import GameRow, Rows, now_ms
from .schema import challenge_days, games, pars

_PAR: Final = select(pars.c.moves, pars.c.seconds).where(pars.c.code == bindparam("code", type_=String))
#: The first key of the advisory locks on pars (the second is from the code); schema.py's migrations
#: and web/shared_limits.py use 734901 and 734902.
PAR_LOCK: Final = 734903


class _ParRow(TypedDict):
    moves: int | None
    seconds: float


def _lock(key: int) -> dict[str, int]:
    return {"k1": PAR_LOCK, "k2": key}


class DayRows(Rows):
    """The days' part of the store (a base of :class:`..Store`, which gives it the database)."""

    # --- the daily deal and par -----------------------------------------------------------------------

    def par(self, code: str) -> Par | None:
        """The stored par of a deal code, or None when it was never computed."""
        if "\x00" in code:  # as in game(): no code holds NUL
            return None
        rows = self._read("par", lambda: _PAR, {"code": code}, _ParRow)
        if not rows:
            return None
        moves = rows[0]["moves"]
        return Par(None if moves is None else int(moves), float(rows[0]["seconds"]))

    @contextmanager
    def computing_par(self, code: str) -> Iterator[bool]:
        """Whether this process may compute ``code``'s par now: on PostgreSQL, False while another process
        is computing it (an advisory lock held as long as the block lasts, released if that process
        dies), so that the workers of ``serve --workers N`` do not each run the same search; on SQLite
        (one process) always True."""
        if self.engine.dialect.name != "postgresql":
            yield True
            return
        key = int.from_bytes(hashlib.sha256(code.encode()).digest()[:4], "big", signed=True)
        with self._told(), self.engine.connect() as connection:
            locked = bool(connection.execute(text("SELECT pg_try_advisory_lock(:k1, :k2)"), _lock(key)).scalar())
            connection.commit()
            try:
                yield locked
            finally:
                if locked:
                    connection.execute(text("SELECT pg_advisory_unlock(:k1, :k2)"), _lock(key))
                    connection.commit()

    def save_par(self, code: str, par: Par) -> None:
        """Keep a deal code's par (the first one kept stays: it is the same for everyone)."""
        try:
            with self._tx() as connection:
                connection.execute(
                    pars.insert().values(code=code, moves=par.moves, seconds=par.seconds, computed_ms=now_ms())
                )
        except IntegrityError:
            pass  # another process computed it too

    def daily_finished(self, day: str, rules: str) -> list[GameRow]:
        """The finished games of one day's daily deal under ``rules`` that count for it, in the order
        they ended (a day's leaderboard keeps each player's first)."""
        query = (
            select(games)
            .where(
                and_(
                    games.c.daily == day,
                    games.c.daily_counted == 1,
                    games.c.rules == rules,
                    games.c.result.is_not(None),
                )
            )
            .order_by(games.c.ended_ms, games.c.id)
        )
        with self._tx() as connection:
            return [GameRow(**r) for r in connection.execute(query).mappings().all()]

    def daily_games_of(self, player_id: str, rules: str) -> list[GameRow]:
        """The player's games of daily deals under ``rules``, in the order they started."""
        query = (
            select(games)
            .where(and_(games.c.player_id == player_id, games.c.daily.is_not(None), games.c.rules == rules))
            .order_by(games.c.started_ms, games.c.id)
        )
        with self._tx() as connection:
            return [GameRow(**r) for r in connection.execute(query).mappings().all()]

    # --- daily challenges ----------------------------------------------------------------------------

    def challenge_day(self, day: str) -> str | None:
        """A day's set of challenges as made (JSON text), or None before anyone asked for it."""
        with self._tx() as connection:
            found = connection.execute(select(challenge_days.c.payload).where(challenge_days.c.day == day)).scalar()
        return None if found is None else str(found)

    def save_challenge_day(self, day: str, payload: str) -> str:
        """Keep a day's set; the first one kept stays (another process may have made the same set at the
        same time) and is returned."""
        try:
            with self._tx() as connection:
                connection.execute(challenge_days.insert().values(day=day, payload=payload, computed_ms=now_ms()))
        except IntegrityError:
            pass
        kept = self.challenge_day(day)
        return payload if kept is None else kept

    def challenge_games(self, player_id: str, challenge_ids: list[str] | None) -> list[GameRow]:
        """The player's games started for any of ``challenge_ids`` (None: for any challenge), in the
        order they started."""
        chosen = games.c.challenge.is_not(None) if challenge_ids is None else games.c.challenge.in_(challenge_ids)
        query = (
            select(games).where(and_(games.c.player_id == player_id, chosen)).order_by(games.c.started_ms, games.c.id)
        )
        with self._tx() as connection:
            return [GameRow(**r) for r in connection.execute(query).mappings().all()]

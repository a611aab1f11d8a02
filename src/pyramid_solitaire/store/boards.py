"""The store's statistics and leaderboards: a player's finished games, a reset, a deal's wins fastest
first, display names, and the counts tools ask for.  :class:`BoardRows` is a base of :class:`..Store`."""

from __future__ import annotations

from typing import Final

from sqlalchemy import Integer, Select, String, and_, bindparam, func, select

from ..vocabulary import Event, Outcome
from .rows import PLAYED_OFFLINE, GameRow, LeaderRow, PlayerGames, Rows, now_ms, shaped
from .schema import actions, games, players

_WIN_SECONDS: Final = games.c.ended_ms - games.c.started_ms
#: A deal's leaderboard, built once with named parameters (as store/__init__.py's writes are).
_LEADERBOARD: Final = (
    select(games.c.id, games.c.player_id, players.c.name, _WIN_SECONDS.label("ms"), games.c.moves, games.c.ended_ms)
    .join(players, players.c.id == games.c.player_id)
    .where(
        and_(
            games.c.code == bindparam("code", type_=String),
            games.c.result == Outcome.WON.value,
            games.c.imported != PLAYED_OFFLINE,
        )
    )
    .order_by(_WIN_SECONDS, games.c.moves, games.c.ended_ms)
    .limit(bindparam("limit", type_=Integer))
)


def _finished_query(since_reset: bool, rules: bool, difficulty: bool) -> Select[*tuple[object, ...]]:
    """The player's finished games (parameters ``player_id`` and, when asked for, ``rules`` and
    ``difficulty``), in the order they ended."""
    player = bindparam("player_id", type_=String)
    query = select(games).where(and_(games.c.player_id == player, games.c.result.is_not(None)))
    if rules:
        query = query.where(games.c.rules == bindparam("rules", type_=String))
    if difficulty:
        query = query.where(games.c.difficulty == bindparam("difficulty", type_=String))
    if since_reset:
        reset = select(players.c.stats_reset_ms).where(players.c.id == player).scalar_subquery()
        query = query.where(games.c.ended_ms > reset)
    return query.order_by(games.c.ended_ms, games.c.id)


class BoardRows(Rows):
    """The statistics' and leaderboards' part of the store."""

    # --- statistics and leaderboards ---------------------------------------------------------------------

    def finished_games(
        self, player_id: str, since_reset: bool = True, rules: str | None = None, difficulty: str | None = None
    ) -> list[GameRow]:
        """The player's finished games in the order they ended (counted since the last reset); only those
        of one rule set and difficulty when they are given (a result screen's figures)."""
        shape = (since_reset, rules is not None, difficulty is not None)
        values = {"player_id": player_id, "rules": rules, "difficulty": difficulty}
        return self._read(("finished", *shape), lambda: _finished_query(*shape), values, GameRow)

    def reset_stats(self, player_id: str) -> None:
        """Start the statistics afresh (the games stay, for replays)."""
        with self._tx() as connection:
            connection.execute(players.update().where(players.c.id == player_id).values(stats_reset_ms=now_ms()))

    def leaderboard(self, code: str, limit: int = 20) -> list[LeaderRow]:
        """Everyone's wins of one deal code, fastest first, then fewest moves (seed 000)."""
        if "\x00" in code:  # as in game(): no code holds NUL
            return []
        return self._read("leaderboard", lambda: _LEADERBOARD, {"code": code, "limit": limit}, LeaderRow)

    def coached(self, game_ids: list[str]) -> set[str]:
        """Those of ``game_ids`` in which the solver's hint was asked for (a leaderboard marks them: that
        hint sees the cards the player cannot)."""
        if not game_ids:
            return set()
        query = (
            select(actions.c.game_id)
            .where(and_(actions.c.game_id.in_(game_ids), actions.c.kind == Event.COACH.value))
            .distinct()
        )
        with self._tx() as connection:
            return {str(r.game_id) for r in connection.execute(query).all()}

    def names(self, player_ids: list[str]) -> dict[str, str | None]:
        """The display names of players (a leaderboard's)."""
        if not player_ids:
            return {}
        with self._tx() as connection:
            rows = connection.execute(select(players.c.id, players.c.name).where(players.c.id.in_(player_ids))).all()
        return {str(r.id): r.name for r in rows}

    def count_games(self) -> int:
        """Games recorded in all (for tools and tests)."""
        with self._tx() as connection:
            return int(connection.execute(select(func.count()).select_from(games)).scalar_one())

    def players(self) -> list[PlayerGames]:
        """Every player with the number of games (the ``stats`` command lists them)."""
        query = (
            select(players.c.id, players.c.name, func.count(games.c.id).label("games"))
            .select_from(players.outerjoin(games, games.c.player_id == players.c.id))
            .group_by(players.c.id, players.c.name)
            .order_by(players.c.created_ms)
        )
        with self._tx() as connection:
            return [shaped(PlayerGames, r) for r in connection.execute(query).mappings().all()]

"""Statistics from finished games: per rule set and difficulty, played, won, win rate, streaks, times,
moves, undos and hints.  Computed from the games themselves (never kept as separate counters), so
they always equal the recorded games."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Protocol, TypedDict

from .vocabulary import Outcome

WON = Outcome.WON.value


class Finished(Protocol):
    """What the figures read of a finished game: the store's ``Finished``, or a game the offline engine
    kept in the browser (:mod:`.web.offline`)."""

    @property
    def rules(self) -> str: ...
    @property
    def difficulty(self) -> str: ...
    @property
    def result(self) -> str | None: ...
    @property
    def started_ms(self) -> int: ...
    @property
    def ended_ms(self) -> int | None: ...
    @property
    def moves(self) -> int: ...
    @property
    def undos(self) -> int: ...
    @property
    def hints(self) -> int: ...


class StatsShown(TypedDict):
    """One rule set's figures at one difficulty (``None``: nothing to average yet)."""

    rules: str
    difficulty: str
    played: int
    won: int
    streak: int
    best_streak: int
    undos: int
    hints: int
    win_rate: float | None
    average_seconds: float | None
    best_seconds: float | None
    average_moves: float | None
    best_moves: int | None


@dataclass
class Stats:
    """The figures of one rule set at one difficulty."""

    rules: str
    difficulty: str
    played: int = 0
    won: int = 0
    streak: int = 0
    best_streak: int = 0
    undos: int = 0
    hints: int = 0
    win_seconds: list[float] = field(default_factory=list, repr=False)
    win_moves: list[int] = field(default_factory=list, repr=False)

    def add(self, game: Finished) -> None:
        """Count one finished game (games must come in the order they ended)."""
        self.played += 1
        self.undos += game.undos
        self.hints += game.hints
        if game.result == WON:
            self.won += 1
            self.streak += 1
            self.best_streak = max(self.best_streak, self.streak)
            assert game.ended_ms is not None
            self.win_seconds.append((game.ended_ms - game.started_ms) / 1000)
            self.win_moves.append(game.moves)
        else:
            self.streak = 0

    def to_json(self) -> StatsShown:
        """The figures as the API, the page and ``stats --json`` show them."""
        seconds, moves = self.win_seconds, self.win_moves
        return {
            "rules": self.rules,
            "difficulty": self.difficulty,
            "played": self.played,
            "won": self.won,
            "streak": self.streak,
            "best_streak": self.best_streak,
            "undos": self.undos,
            "hints": self.hints,
            "win_rate": round(self.won / self.played, 4) if self.played else None,
            "average_seconds": round(sum(seconds) / len(seconds), 1) if seconds else None,
            "best_seconds": round(min(seconds), 1) if seconds else None,
            "average_moves": round(sum(moves) / len(moves), 1) if moves else None,
            "best_moves": min(moves) if moves else None,
        }


def compute(finished: Iterable[Finished]) -> list[Stats]:
    """Statistics per (rules, difficulty) from finished games in the order they ended."""
    table: dict[tuple[str, str], Stats] = {}
    for game in finished:
        key = (game.rules, game.difficulty)
        if key not in table:
            table[key] = Stats(*key)
        table[key].add(game)
    return sorted(table.values(), key=lambda s: (s.rules, s.difficulty))


def stats_for(finished: Iterable[Finished], rules: str, difficulty: str) -> Stats:
    """The figures of one rule set and difficulty (zeros if none were played)."""
    for stats in compute(finished):
        if (stats.rules, stats.difficulty) == (rules, difficulty):
            return stats
    return Stats(rules, difficulty)

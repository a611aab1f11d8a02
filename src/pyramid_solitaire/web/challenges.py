"""The daily challenges on the server: a day's set made once and kept in the database, and each player's
progress read from their games of it (:mod:`pyramid_solitaire.challenges` holds the kinds and the
proofs; docs/challenges.md explains them)."""

from __future__ import annotations

import json
import threading
from datetime import date
from typing import Final

from ..challenges import KIND_BY_NAME, Challenge, Played, day_set, played, progress
from ..messages import text
from ..store import GameRow, Store
from .games import entry_of
from .shapes import ChallengeShown

#: Days whose set this process has read, so that a day's set is read from the database once.
KEPT_DAYS: Final = 8


_days: dict[str, list[Challenge]] = {}
_days_lock = threading.Lock()
#: One maker at a time in this process: two requests of a new day make its set once.
_making = threading.Lock()


def challenges_of(store: Store, day: date) -> list[Challenge]:
    """The day's set: kept in memory, else in the database, else made now (the solver proves every
    goal; about a second) and kept there, where every process of the site finds the same set."""
    key = day.isoformat()
    with _days_lock:
        kept = _days.get(key)
    if kept is not None:
        return kept
    with _making:
        payload = store.challenge_day(key)
        if payload is None:
            made = day_set(day)
            payload = store.save_challenge_day(key, json.dumps([c.to_json() for c in made]))
    found = [Challenge.from_json(item) for item in json.loads(payload)]
    with _days_lock:
        if len(_days) >= KEPT_DAYS:
            _days.pop(next(iter(_days)))
        _days[key] = found
    return found


def find(store: Store, challenge_id: str, day: date) -> Challenge | None:
    """The challenge ``challenge_id`` of ``day``'s set, or None."""
    if not challenge_id.startswith(day.isoformat() + "-"):
        return None
    return next((c for c in challenges_of(store, day) if c.id == challenge_id), None)


def games_played(store: Store, rows: list[GameRow]) -> list[Played]:
    """Each game as it comes to, replayed from its record."""
    return [played(row.code, [entry_of(action) for action in store.actions(row.id)]) for row in rows]


def shown(store: Store, challenge: Challenge, player_id: str | None, lang: str) -> ChallengeShown:
    """One challenge with the player's progress, its title in ``lang``."""
    rows = store.challenge_games(player_id, [challenge.id]) if player_id else []
    reached, done = progress(challenge, games_played(store, rows))
    kind = KIND_BY_NAME[challenge.kind]
    return {
        "id": challenge.id,
        "kind": challenge.kind,
        "title": text(lang, f"challenge.{challenge.kind}", target=challenge.target),
        "rules": kind.rules,
        "codes": list(challenge.codes),
        "target": challenge.target,
        "progress": reached,
        "needed": kind.needed(challenge.target),
        "done": done,
    }


def next_code(challenge: Challenge, games: list[Played]) -> str:
    """The deal the player plays next for ``challenge``, given their games of it (``games_played``): the
    first, or for deals in a row the one the run has reached (after a completed run, the first again)."""
    reached, done = progress(challenge, games)
    return challenge.codes[0 if done or len(challenge.codes) == 1 else reached]

"""The games being played, kept in the store and cached in memory, and the players' signed cookies.

Every move and event goes through :meth:`Games.act`: under the game's lock, the cached session is
checked against the database (another app process may have moved the game on; then it is rebuilt from
the recorded entries through the engine), the entry is played, and it is written with the game's new
figures in one transaction before anyone is answered.  If the write fails — a conflict, or the database is gone —
the cached session is dropped, so memory never holds an action the database does not.

Where an action runs (:meth:`Games.short`): with PostgreSQL, on the event loop.  A move's work is short
and bounded — a few hundred microseconds of processor time and one statement sent to the database — and
handing it to the thread pool and back cost more than the work (about 0.2 ms of processor time per
hop, and the pool's threads fighting over the interpreter's lock: docs/performance.md, issue 24).  The
processes of ``serve --workers N`` give the concurrency the threads gave.  Work that is not bounded so
(a hint's or a coach's search, an import) stays on the thread pool, and so does every action when the
game's lock is held by such work, so the loop never waits for it.  With SQLite every action stays on the
thread pool: its commit waits for the disk's sync and, behind another process's write, up to
``SQLITE_BUSY_MS``, which must not stop the one process's loop.
"""

from __future__ import annotations

import hashlib
import hmac
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Final, TypeVar

from starlette.concurrency import run_in_threadpool

from ..deal import Deal
from ..game import Game
from ..record import COACH, HINT, Entry, parse_entry
from ..store import Action, Conflict, GameRow, Store, StoreError, now_ms
from .metrics import GAMES_FINISHED, GAMES_STARTED
from .play import Session
from .shapes import EventAnswer

#: Sessions kept in memory; the oldest untouched one goes first (it is still in the database).
MAX_CACHED: Final = 2_000
#: Locks games are spread over: a fixed number, so that ids asked for (even unknown ones) cost nothing
#: kept; two games share a lock only by chance, and then merely wait for each other.
LOCK_STRIPES: Final = 256
COOKIE: Final = "pyramid_player"
COOKIE_MAX_AGE: Final = 5 * 365 * 24 * 3600

#: The actions that change nothing on the table: a replay does not stop at them.
HELP: Final = (HINT, COACH)
T = TypeVar("T")


class GameNotFound(LookupError):
    """No game with that id belongs to this player (the two are not told apart)."""


class GameConflict(RuntimeError):
    """The game moved on since the version the action was meant for."""


class Games:
    """Sessions over the store."""

    def __init__(self, store: Store, limit: int = MAX_CACHED) -> None:
        self.store = store
        self.limit = limit
        self._cache: OrderedDict[str, Session] = OrderedDict()
        self._locks = [threading.Lock() for _ in range(LOCK_STRIPES)]
        self._guard = threading.Lock()
        #: Whether short work on a game runs on the event loop (see the module's docstring).
        self.inline = store.engine.dialect.name == "postgresql"

    # --- players ----------------------------------------------------------------------------------

    def sign(self, player_id: str) -> str:
        """The cookie value for a player: the id and its signature."""
        mac = hmac.new(self.store.secret.encode(), player_id.encode(), hashlib.sha256).hexdigest()[:32]
        return f"{player_id}.{mac}"

    def player_of(self, cookie: str | None) -> str | None:
        """The player a cookie names, if its signature holds.  Only this database's secret signs, and only
        for players it made (players are never deleted), so a good signature is proof enough; the
        database is not asked again on every request."""
        if not cookie or "." not in cookie:
            return None
        player_id = cookie.rsplit(".", 1)[0]
        return player_id if hmac.compare_digest(self.sign(player_id), cookie) else None

    # --- games ------------------------------------------------------------------------------------

    def lock(self, game_id: str) -> threading.Lock:
        """The lock serialising one game's actions in this process."""
        return self._locks[hash(game_id) % LOCK_STRIPES]

    async def short(self, game_id: str, work: Callable[[], T]) -> T:
        """Run ``work`` on one game (an action, or a read of its state) with the game's lock held: on the
        event loop when :attr:`inline` and the lock is free at once, else on the thread pool."""
        lock = self.lock(game_id)
        if self.inline and lock.acquire(blocking=False):
            try:
                return work()
            finally:
                lock.release()
        return await self.slow(game_id, work)

    async def slow(self, game_id: str, work: Callable[[], T]) -> T:
        """Run ``work`` on one game with the game's lock held, on the thread pool (a search may take seconds)."""
        return await run_in_threadpool(_holding, self.lock(game_id), work)

    def create(
        self, deal: Deal, player_id: str, daily: str | None = None, counted: bool = False, challenge: str | None = None
    ) -> Session:
        """Start and record a new game (of the daily deal of day ``daily``, counted for it or not; for the
        daily challenge ``challenge``)."""
        session = Session(Game(deal), player_id=player_id, daily=daily, daily_counted=counted, challenge=challenge)
        session.started = time.time()
        self.store.create_game(
            GameRow(
                id=session.id,
                player_id=player_id,
                rules=str(deal.rules),
                preset=deal.rules.preset,
                difficulty=deal.difficulty,
                code=deal.code,
                deal=deal.notation,
                started_ms=int(session.started * 1000),
                ended_ms=None,
                result=None,
                moves=0,
                undos=0,
                hints=0,
                pyramid_removed=0,
                version=0,
                daily=daily,
                daily_counted=int(counted),
                challenge=challenge,
            )
        )
        self._keep(session)
        GAMES_STARTED.labels(deal.rules.preset or "custom").inc()
        return session

    def _keep(self, session: Session) -> None:
        with self._guard:
            self._cache[session.id] = session
            self._cache.move_to_end(session.id)
            while len(self._cache) > self.limit:
                self._cache.popitem(last=False)

    def drop(self, game_id: str) -> None:
        """Forget the cached session (the database stays the truth)."""
        with self._guard:
            self._cache.pop(game_id, None)

    def _row(self, game_id: str, player_id: str | None) -> GameRow:
        row = self.store.game(game_id)
        if row is None or player_id is None or row.player_id != player_id:
            raise GameNotFound(game_id)
        return row

    def load(self, game_id: str, player_id: str | None) -> Session:
        """The player's game, up to date with the database.  Call with the game's lock held."""
        row = self._row(game_id, player_id)
        with self._guard:
            cached = self._cache.get(game_id)
        if cached is not None and cached.version == row.version:
            return cached
        session = rebuild(row, self.store)
        self._keep(session)
        return session

    def cached(self, game_id: str, player_id: str | None) -> Session | None:
        """The player's game as this process last left it, if it is cached; it may be behind the
        database (another process may have moved it on), which :meth:`act`'s write finds out."""
        with self._guard:
            session = self._cache.get(game_id)
        return session if session is not None and player_id is not None and session.player_id == player_id else None

    def load_at(self, game_id: str, player_id: str | None, step: int) -> tuple[Session, int, EventAnswer]:
        """The player's game as it stood after its first ``step`` steps of a replay, how many it has, and
        the event of the step's own action (as its answer reported it when it was played; a ``state``
        at step 0). A step is an action that changed the table (a move, an undo, a redo, a rewind, the
        resignation); a hint changed nothing to see, and a replay that stopped at each showed the same
        table twice (a 64-move game with its hints was 125 steps). The hints asked before a step count in it."""
        row = self._row(game_id, player_id)
        recorded = self.store.actions(row.id)
        shown = [index for index, action in enumerate(recorded) if action.kind not in HELP]
        step = min(step, len(shown))
        taken = row.version if step == len(shown) else 0 if step == 0 else shown[step - 1] + 1
        session, event = replayed(row, self.store, taken, recorded, report=shown[step - 1] if step else None)
        return session, len(shown), event or {"kind": "state", "cards": []}

    def act(self, session: Session, entry: Entry) -> EventAnswer:
        """Play a move or event and record it before returning its event.  Call with the game's lock
        held.  Raises IllegalMoveError or BadCell (nothing changed, nothing written), GameConflict or
        StoreError (the session is dropped; nothing was written)."""
        before, was_over = session.version, session.over
        event = session.act(entry)
        session.after_action()
        kind, arg = (entry, None) if isinstance(entry, str) else ("move", str(entry))
        try:
            self.store.record(session.id, before, kind, arg, session.summary())
        except Conflict:
            self.drop(session.id)
            raise GameConflict(session.id) from None
        except StoreError:
            self.drop(session.id)
            raise
        if session.over and not was_over:
            GAMES_FINISHED.labels(session.status).inc()
        return event


def _holding(lock: threading.Lock, work: Callable[[], T]) -> T:
    with lock:
        return work()


def entry_of(action: Action) -> Entry:
    """The record entry a stored action holds."""
    return parse_entry(action.arg or "") if action.kind == "move" else action.kind


def rebuild(row: GameRow, store: Store) -> Session:
    """A session rebuilt from its record through the engine: the deal, then every entry."""
    return replayed(row, store)[0]


def replayed(
    row: GameRow,
    store: Store,
    steps: int | None = None,
    recorded: list[Action] | None = None,
    report: int | None = None,
) -> tuple[Session, EventAnswer | None]:
    """The session of :func:`rebuild` after the first ``steps`` entries (all without), and the event of entry
    number ``report`` among them; ``recorded``, the game's actions if they were already read."""
    session = Session(
        Game(Deal.from_code(row.code)),
        id=row.id,
        player_id=row.player_id,
        daily=row.daily,
        daily_counted=bool(row.daily_counted),
        challenge=row.challenge,
    )
    session.started = row.started_ms / 1000
    if recorded is None:
        recorded = store.actions(row.id)
    if steps is not None:
        recorded = recorded[: max(0, steps)]
    event = session.replay([entry_of(a) for a in recorded], report)
    if steps is not None and steps < row.version:
        # a step of a replay: its clock stands at that entry, not at the time since the game began
        session.finished = (recorded[-1].at_ms if recorded else row.started_ms) / 1000
    elif session.over:
        session.finished = (row.ended_ms or now_ms()) / 1000
    return session, event

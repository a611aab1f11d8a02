"""Pars computed in the background and kept in the database, once per deal code.

A par is an exact shortest search (:func:`..daily.compute_par`) that may take up to a minute of CPU
time, far too long for a request.  So a par is *wanted* — when a daily deal is asked for or started,
and when a verified deal is won — and one thread of the process works through the wanted codes one at
a time, each in a child process of its own (``python -m pyramid_solitaire.web.par_child CODE SECONDS``):
at the lowest CPU priority from its start (``nice`` 19, so that players' requests always come first),
with a memory ceiling (a search that would outgrow it is "unknown", as one that runs out of time is), and killed
if it outlives ``WALL_LIMIT``.  The answer goes to the database, where
every app process finds it; until then a par is ``pending``.

There is one worker per process (:data:`PARS`), whatever the number of apps (tests make many), so a
process never runs more than one search at a time; codes wanted while the queue is full
(``MAX_PENDING``) are dropped and wanted again by the next request that needs them.  With several
processes on PostgreSQL, one search per code runs at a time (:meth:`.Store.computing_par`), and the
processes of one machine take turns (a lock file, :data:`TURN_FILE`): one search at a time per machine,
however many workers ``serve --workers N`` starts.  Even at the lowest priority a search slows the
requests on the machine's other core (on this 2-core machine under 1,000 actions a second, the seconds
in which the workers searched side by side had a p99 of 100-300 ms instead of about 15 ms; one at a
time, 50-160 ms: docs/performance.md), so a burst of wanted pars is worked through one after another.
"""

from __future__ import annotations

import contextlib
import json
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Final, Literal

from ..daily import PAR_SECONDS, Par
from ..deal import Deal
from ..store import Store, StoreError

#: Codes waiting at most; more are dropped (and wanted again later).
MAX_PENDING: Final = 500
#: The child process's module (web/par_child.py), and the system's ``nice``, to start it at the lowest
#: priority (without it the child lowers its own priority first thing).
CHILD: Final = "pyramid_solitaire.web.par_child"
NICE: Final = shutil.which("nice")
#: The lock file the processes of one machine take turns with (one search at a time per machine).
TURN_FILE: Final = Path(tempfile.gettempdir()) / "pyramid-solitaire-par.lock"
#: Wall seconds a search may last at most (its CPU limit is PAR_SECONDS; at nice 19 on a busy machine
#: its wall time can be much longer): the child is killed after this, and the par is not kept.
WALL_LIMIT: Final = 20 * PAR_SECONDS

ParStatus = Literal["known", "unknown", "pending"]


class ParWorker:
    """The process's queue of wanted pars and the thread that computes them."""

    def __init__(self, seconds: float = PAR_SECONDS) -> None:
        self.seconds = seconds
        self._queue: queue.Queue[tuple[Store, str]] = queue.Queue(MAX_PENDING)
        self._pending: set[tuple[str, str]] = set()
        self._guard = threading.Lock()
        self._thread: threading.Thread | None = None
        self._child: subprocess.Popen[str] | None = None

    def status(self, store: Store, deal: Deal) -> tuple[int | None, ParStatus]:
        """The par of a verified deal as known now, wanting it if it is not: ``(moves, status)``."""
        try:
            found = store.par(deal.code)
        except StoreError:
            return None, "pending"  # the database is away: the answer carrying this says so elsewhere
        if found is not None:
            return found.moves, "known" if found.known else "unknown"
        self.want(store, deal.code)
        return None, "pending"

    def want(self, store: Store, code: str) -> None:
        """Compute ``code``'s par in the background unless it is already waiting."""
        key = (store.url, code)
        with self._guard:
            if key in self._pending:
                return
            try:
                self._queue.put_nowait((store, code))
            except queue.Full:
                return
            self._pending.add(key)
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._work, name="pars", daemon=True)
                self._thread.start()

    def _work(self) -> None:
        while True:
            store, code = self._queue.get()
            try:
                with store.computing_par(code) as ours:
                    # not ours: another process is at it, and will keep it (or, if it dies, the next
                    # request that wants the par wants it again)
                    if ours and store.par(code) is None:
                        with machine_turn():
                            par = self._compute(code)
                        if par is not None:
                            store.save_par(code, par)
            except StoreError:
                pass  # the database is away: wanted again by the next request that needs it
            finally:
                with self._guard:
                    self._pending.discard((store.url, code))

    def _compute(self, code: str) -> Par | None:
        """One par, in a child process of its own (a fresh interpreter: nothing of this process's
        state, threads or ``__main__`` goes with it); None if it died or outlived ``WALL_LIMIT``."""
        command = [sys.executable, "-m", CHILD, code, str(self.seconds)]
        if NICE is not None:
            command = [NICE, "-n", "19", *command]
        child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self._child = child
        try:
            out, _ = child.communicate(timeout=WALL_LIMIT)
            moves, seconds = json.loads(out)
            return Par(None if moves is None else int(moves), float(seconds))
        except (subprocess.TimeoutExpired, ValueError, TypeError):
            return None
        finally:
            if child.poll() is None:
                child.kill()
                child.wait()
            self._child = None


@contextlib.contextmanager
def machine_turn() -> Iterator[None]:
    """Wait for this machine's turn to search (an exclusive lock on :data:`TURN_FILE`, released when the
    block ends or the process dies); without the file (a read-only temporary folder) or ``fcntl``, no wait."""
    try:
        import fcntl

        turn = TURN_FILE.open("a")
    except (ImportError, OSError):
        yield
        return
    with turn:
        fcntl.flock(turn, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(turn, fcntl.LOCK_UN)


#: The one worker of this process.
PARS: Final = ParWorker()

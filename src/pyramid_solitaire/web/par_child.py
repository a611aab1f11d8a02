"""The child process of one par search (``python -m pyramid_solitaire.web.par_child CODE SECONDS``),
started by :class:`.pars.ParWorker`: lowest priority, bounded memory, one par printed as JSON
``[moves, seconds]``.

A module of its own so that the child imports only the engine and the search, not the app's store and
its database drivers (a quarter of a second of processor time that every par paid, at normal priority
before it lowered its own: docs/performance.md, issue 24).  The parent starts it under ``nice`` when
the system has it, so that not even the interpreter's start competes with players' requests."""

from __future__ import annotations

import contextlib
import os
import sys
from typing import Final

#: Bytes of memory one search may use.
MEMORY_LIMIT: Final = 6 * 1024**3


def main(code: str, seconds: float) -> None:
    import json
    import resource

    _lowest_priority()
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    from ..daily import Par, compute_par
    from ..deal import Deal

    try:
        par = compute_par(Deal.from_code(code), seconds)
    except MemoryError:
        par = Par(None, seconds)
    print(json.dumps([par.moves, par.seconds]))


def _lowest_priority() -> None:
    """Nice 19, and Linux's idle scheduling class where there is one: the search runs only on a core
    nobody else wants at that moment, and gives it up when a worker wakes.  It still slows the requests
    on the other core of a 2-core machine (the two share caches), which is why the processes of one
    machine also take turns (pars.machine_turn; docs/performance.md, issue 24)."""
    if os.getpriority(os.PRIO_PROCESS, 0) < 19:
        os.nice(19 - os.getpriority(os.PRIO_PROCESS, 0))
    idle = getattr(os, "SCHED_IDLE", None)
    if idle is not None:
        with contextlib.suppress(OSError):  # not allowed here: nice 19 stays
            os.sched_setscheduler(0, idle, os.sched_param(0))


if __name__ == "__main__":
    main(sys.argv[1], float(sys.argv[2]))

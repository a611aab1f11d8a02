"""The local engine: a study's deals solved on processes of this machine (:func:`local_results`), or in
this process alone."""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Generator, Iterable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from itertools import islice
from multiprocessing.context import BaseContext
from typing import Final

from .errors import StudyError
from .results import Job, Row

#: Deals handed to each local worker ahead of time.
IN_FLIGHT_PER_WORKER: Final = 4


def default_workers() -> int:
    """The cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _process_context() -> BaseContext:
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


def local_results(
    job: Job, numbers: Iterable[int], rules: str, time_limit: float, workers: int
) -> Generator[Row, None, None]:
    """Rows of ``numbers`` as they finish, each from ``job``, on ``workers`` processes (1: this process)."""
    if workers == 1:
        for number in numbers:
            yield job(number, rules, time_limit)
        return
    todo = iter(numbers)
    others = set(multiprocessing.active_children())
    pool = ProcessPoolExecutor(workers, mp_context=_process_context())
    try:
        try:
            pending: set[Future[Row]] = {
                pool.submit(job, n, rules, time_limit) for n in islice(todo, workers * IN_FLIGHT_PER_WORKER)
            }
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    yield future.result()
                    for number in islice(todo, 1):
                        pending.add(pool.submit(job, number, rules, time_limit))
        except BrokenProcessPool:
            # from a result, or from a submit: a worker that dies between a finished deal and the next
            # submit breaks the pool there (exit 1 with a traceback before this caught both)
            raise StudyError("study.worker-died") from None
    except BaseException:
        # Stopped early (Ctrl-C, SIGTERM, an error): the deals in flight would not be saved anyway, so
        # stop the workers now rather than wait up to a time limit for each.  (Ctrl-C in a terminal
        # reaches them too; SIGTERM sent to this process alone does not.)
        for process in set(multiprocessing.active_children()) - others:  # not the caller's own children
            process.terminate()
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


__all__ = ["IN_FLIGHT_PER_WORKER", "default_workers", "local_results"]

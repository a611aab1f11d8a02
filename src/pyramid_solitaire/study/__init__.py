"""Studies: solve many deals of the shuffle at once, on local processes or a Dask cluster.

A study solves deals ``S .. S+N-1`` of the documented shuffle under one rule set.  Every engine runs
the same function on each deal, :func:`study_deal`, so the results do not depend on the engine or on
the number of workers — except for deals whose answer is ``unknown``: the solver's time limit is CPU
time of the worker (so waiting for a core costs nothing), but a deal near the limit may still be
decided on one machine and not on a slower one.  ``retry_unknown`` solves such deals again.

The package holds one concern per module; this one holds the job every engine runs on a deal
(:func:`study_deal`) and the study that hands the deals out (:func:`run_study`), and it offers the
names the rest of the project uses:

- :mod:`.results` — the results file: a deal's :class:`Row` as a CSV line, the file read, appended to
  and sorted (:class:`ResultsFile`), and its xz archive;
- :mod:`.local` — the local engine: deals solved on processes of this machine;
- :mod:`.cluster` — the Dask engine: the client, its TLS settings, the workers' versions checked;
- :mod:`.progress` — the progress bar while a study runs;
- :mod:`.stats` — the study's :class:`Summary`, the Wilson interval and percentiles;
- :mod:`.errors` — :class:`StudyError`, raised by all of them.
"""

from __future__ import annotations

import time
from contextlib import closing
from pathlib import Path
from typing import Final, TextIO

from .. import __version__
from ..deal import MAX_NUMBER, Deal
from ..messages import text
from ..rule_strings import find_rules
from ..rules import Rules
from .cluster import check_dask_address, dask_client, dask_results
from .errors import StudyError
from .local import default_workers, local_results
from .progress import Progress
from .results import (
    FIELDS,
    HEADER,
    LOST,
    UNKNOWN,
    VERDICTS,
    WON,
    ResultsFile,
    Row,
    RowError,
    read_results,
    replace_file,
)
from .stats import Summary, percentile, wilson_interval

DEFAULT_DEALS: Final = 1000
#: Seconds the solver may spend on one deal before its answer is ``unknown``.
DEFAULT_TIME_LIMIT: Final = 30.0


# --- what runs on the workers ------------------------------------------------------------------------
# Both are sent to the workers by reference to their names here (pyramid_solitaire.study.study_deal), so
# they stay in the package itself, whose path every version of the project has; see docs/study.md.


def study_deal(number: int, rules: str, time_limit: float) -> Row:
    """Solve and rate deal ``number`` under ``rules`` (a rule-set string): the one job of every engine."""
    from ..solver import solve
    from ..solver.difficulty import rate

    started = time.monotonic()
    deal = Deal.from_number(number, find_rules(rules))
    # CPU seconds: a deal left unknown must be one the solver could not settle, not one whose worker
    # waited for a core (several workers, or other work, on a loaded machine)
    result = solve(deal, time_limit=time_limit, cpu_time=True)
    difficulty = rate(deal).rating if result.winnable else None
    return Row(
        number,
        deal.code,
        VERDICTS[result.winnable],
        result.length,
        result.max_pyramid_removed,
        difficulty,
        time.monotonic() - started,
        result.nodes,
    )


def worker_version() -> str:
    """The project's version on a Dask worker (run there to check that it can run the study)."""
    return __version__


# --- the study ---------------------------------------------------------------------------------------


def run_study(
    rules: Rules | str,
    out: Path | str,
    *,
    start: int = 0,
    deals: int = DEFAULT_DEALS,
    workers: int | None = None,
    dask: str | None = None,
    time_limit: float = DEFAULT_TIME_LIMIT,
    progress: TextIO | None = None,
    dask_timeout: float | None = None,
    retry_unknown: bool = False,
    lang: str = "en",
) -> Summary:
    """Solve deals ``start .. start+deals-1`` under ``rules`` into the results file ``out`` (resuming it),
    on ``workers`` local processes (default: every core) or the Dask scheduler at ``dask``; show
    progress on ``progress`` when given, in ``lang``.  ``retry_unknown`` solves again the deals the file
    has as unknown (with a longer ``time_limit``, say); a decided answer replaces the unknown one.  Raises
    :class:`StudyError` (or ``RulesError``) for bad input."""
    rules = find_rules(rules)
    if deals <= 0:
        raise StudyError("study.deals", deals=deals)
    if not 0 <= start <= MAX_NUMBER - deals + 1:
        raise StudyError("study.range", most=MAX_NUMBER, deals=deals, start=start)
    if workers is not None and dask is not None:
        raise StudyError("study.workers-and-dask")
    if workers is not None and workers < 1:
        raise StudyError("study.workers", workers=workers)
    if not time_limit > 0:
        raise StudyError("study.time-limit", limit=time_limit)
    if dask is not None:
        check_dask_address(dask)
    results = ResultsFile(Path(out), rules)
    numbers = range(start, start + deals)

    def wanted(number: int) -> bool:
        held = results.rows.get(number)
        return held is None or (retry_unknown and held.verdict == UNKNOWN)

    # counted, not listed: a range of a billion deals is a long study, not a billion-entry list
    done_before = sum(1 for n in results.rows if start <= n < start + deals and not wanted(n))
    left = deals - done_before
    todo = (n for n in numbers if wanted(n))
    client = dask_client(dask, dask_timeout) if dask is not None and left else None
    if left:
        try:
            results.open()
        except BaseException:
            if client is not None:
                client.close()
            raise
    bar = (
        Progress(deals, done_before, progress, text(lang, "study.progress.label", rules=str(rules)), lang)
        if progress is not None
        else None
    )
    solved = 0
    if client is not None:
        rows = dask_results(study_deal, todo, str(rules), time_limit, client)
    else:
        rows = local_results(study_deal, todo, str(rules), time_limit, workers or min(default_workers(), left or 1))
    try:
        with closing(rows):
            for row in rows:
                results.append(row)
                solved += 1
                if bar is not None:
                    bar.update(done_before + solved)
        results.finish()
    finally:
        results.close()
        if bar is not None:
            bar.close()
        if client is not None:
            client.close()
    return Summary.of(str(rules), start, (results.rows[n] for n in numbers), solved)


__all__ = [
    "DEFAULT_DEALS",
    "DEFAULT_TIME_LIMIT",
    "FIELDS",
    "HEADER",
    "LOST",
    "UNKNOWN",
    "WON",
    "Progress",
    "ResultsFile",
    "Row",
    "RowError",
    "StudyError",
    "Summary",
    "check_dask_address",
    "default_workers",
    "percentile",
    "read_results",
    "replace_file",
    "run_study",
    "study_deal",
    "wilson_interval",
]

"""Study throughput: deals per second for each preset, on one process and on every core.

    .venv/bin/python benchmarks/study.py                              # every preset, 200 deals each
    .venv/bin/python benchmarks/study.py --rules classic,msc --deals 1000
    .venv/bin/python benchmarks/study.py --dask tcp://HOST:8786       # and on a Dask cluster

Each run is a real study (``run_study``, the code behind ``pyramid-solitaire study``) of deals 0..N-1
into a temporary results file: every deal solved and, when won, rated.  Seconds per deal (median, p90,
max) come from the file's ``seconds`` column; deals/s is the deals over the run's wall-clock time,
process start-up included.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from pyramid_solitaire import native
from pyramid_solitaire.rules import PRESETS
from pyramid_solitaire.study import DEFAULT_TIME_LIMIT, default_workers, percentile, read_results, run_study


def measure(
    rules: str, deals: int, time_limit: float, folder: Path, *, workers: int | None = None, dask: str | None = None
) -> str:
    """One study; its figures as a table line."""
    engine = f"dask {dask}" if dask else f"{workers} process{'es' if workers != 1 else ''}"
    path = folder / f"{rules}-{workers}-{bool(dask)}.csv"
    started = time.monotonic()
    summary = run_study(rules, path, deals=deals, workers=workers, dask=dask, time_limit=time_limit)
    wall = time.monotonic() - started
    seconds = [row.seconds for row in read_results(path, rules).values()]
    rate = "-" if summary.win_rate is None else f"{100 * summary.win_rate:.1f}%"
    return (
        f"{rules:<12} {engine:<12} {deals:>6} {rate:>6} {summary.unknown:>4} "
        f"{statistics.median(seconds):>8.4f} {percentile(seconds, 0.9):>8.4f} {max(seconds):>8.4f} "
        f"{wall:>8.1f} {deals / wall:>8.2f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rules", default=",".join(PRESETS), help="rule sets, comma-separated (default: presets)")
    parser.add_argument("--deals", type=int, default=200, help="deals 0..N-1 of each (default 200)")
    parser.add_argument("--workers", type=int, default=default_workers(), help="the 'all cores' process count")
    parser.add_argument("--time-limit", type=float, default=DEFAULT_TIME_LIMIT)
    parser.add_argument("--dask", metavar="tcp://HOST:PORT", help="also run each study on this Dask cluster")
    args = parser.parse_args()
    print(f"engine: {native.state()}")
    print(
        f"{'rules':<12} {'engine':<12} {'deals':>6} {'won':>6} {'unkn':>4} {'median':>8} {'p90':>8} "
        f"{'max':>8} {'wall s':>8} {'deals/s':>8}"
    )
    with tempfile.TemporaryDirectory() as folder:
        for rules in args.rules.split(","):
            for workers in sorted({1, args.workers}):
                print(measure(rules, args.deals, args.time_limit, Path(folder), workers=workers), flush=True)
            if args.dask:
                print(measure(rules, args.deals, args.time_limit, Path(folder), dask=args.dask), flush=True)


if __name__ == "__main__":
    main()

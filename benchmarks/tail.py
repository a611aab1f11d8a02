r"""The solver's tail on fresh deals: how slow the slowest deal is, not only the median.

    .venv/bin/python benchmarks/tail.py --rules msc --deals 20000 --out results/tail
    .venv/bin/python benchmarks/tail.py --rules classic --rules pyramide --deals 2000 --out results/tail
    .venv/bin/python benchmarks/tail.py --rules msc --deals 20000 --out results/tail \
        --slowest tests/solver/data/slow_deals.json

The deals are numbers 1,000,000 onwards of the documented shuffle (docs/deals.md, version 1): a range
that no study, test or tuning of the solver used (the winnability studies take 0..99,999), so the
figures are those of deals nobody picked.  Each deal is solved twice, by the library call a caller
makes, each timed in CPU seconds of the worker that solves it:

* **verdict**: ``solve(deal)`` -- can it be won, and the best reachable when it cannot (``solve CODE``);
* **shortest**: ``solve(deal, shortest=True)`` -- the same, with a shortest winning line
  (``solve --shortest CODE``).

Workers (``--workers``, every core by default) each take deals in turn.  Per rule set and question it
prints the deals, how many were won, the median, p99 and maximum seconds, the positions expanded at the
maximum, and the peak resident memory of a worker; then the slowest 20 deals (by the slower of their
two solves) with their positions expanded, each solved again alone in a fresh process to give its own
peak memory.  ``--out DIR`` keeps one row per deal in ``DIR/<rules>.csv`` and is resumable: deals
already there are not solved again.  ``--slowest FILE`` adds the slowest deals of every rule set run to
a regression set (JSON: code, verdict, shortest length, best reachable; deals already in it stay), which
``tests/solver/test_slow_deals.py`` checks in every run of ``scripts/test``.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from figures import percentile

from pyramid_solitaire import Deal, native
from pyramid_solitaire.rule_strings import find_rules
from pyramid_solitaire.solver import solve

#: the first deal number of the fresh range
FRESH_START = 1_000_000
FIELDS = ("number", "code", "verdict", "length", "best", "verdict_s", "verdict_nodes", "shortest_s", "shortest_nodes")
SLOWEST = 20


def solve_both(rules: str, number: int, limit: float) -> dict[str, object]:
    """One deal's row: both solves, timed in this worker's CPU seconds."""
    deal = Deal.from_number(number, rules)
    started = time.process_time()
    verdict = solve(deal, time_limit=limit, cpu_time=True)
    verdict_s = time.process_time() - started
    started = time.process_time()
    shortest = solve(deal, shortest=True, time_limit=limit, cpu_time=True)
    shortest_s = time.process_time() - started
    answered = verdict.winnable is not None and shortest.winnable is not None
    if answered and (verdict.winnable, verdict.max_pyramid_removed) != (
        shortest.winnable,
        shortest.max_pyramid_removed,
    ):
        raise AssertionError(f"{deal.code}: the verdict and the shortest search disagree")
    word = {True: "won", False: "lost", None: "unknown"}
    return {
        "number": number,
        "code": deal.code,
        "verdict": word[verdict.winnable if shortest.winnable is None else shortest.winnable],
        "length": shortest.length if shortest.shortest else "",  # none when the shortest search ran out
        "best": max(verdict.max_pyramid_removed, shortest.max_pyramid_removed),
        "verdict_s": f"{verdict_s:.4f}",
        "verdict_nodes": verdict.nodes,
        "shortest_s": f"{shortest_s:.4f}",
        "shortest_nodes": shortest.nodes,
        "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def alone(code: str, limit: float) -> float:
    """Peak resident MB of a fresh process that solves ``code`` both ways (as :func:`solve_both`)."""
    script = (
        "import sys; from pyramid_solitaire import Deal; from pyramid_solitaire.solver import solve; "
        "d = Deal.from_code(sys.argv[1]); t = float(sys.argv[2]); "
        "solve(d, time_limit=t, cpu_time=True); solve(d, shortest=True, time_limit=t, cpu_time=True)"
    )
    child = subprocess.Popen([sys.executable, "-c", script, code, str(limit)])
    _, _, usage = os.wait4(child.pid, 0)
    return usage.ru_maxrss / 1024


def read_rows(path: Path) -> dict[int, dict[str, str]]:
    if not path.exists():
        return {}
    with path.open(newline="") as f:
        return {int(row["number"]): row for row in csv.DictReader(f)}


def run(
    rules: str, numbers: list[int], out: Path | None, workers: int, limit: float
) -> tuple[list[dict[str, str]], float]:
    """Every deal's row, solving those not in ``out`` yet (appended as they come), and the peak
    resident MB of a worker (0 when nothing was solved)."""
    path = out / f"{str(find_rules(rules)).replace('(', '-').replace(')', '').replace('=', '-')}.csv" if out else None
    rows = read_rows(path) if path else {}
    missing = [n for n in numbers if n not in rows]
    peak = 0.0
    if missing:
        writer = None
        handle = None
        if path:
            path.parent.mkdir(parents=True, exist_ok=True)
            fresh = not path.exists()
            handle = path.open("a", newline="")
            writer = csv.DictWriter(handle, FIELDS, extrasaction="ignore")
            if fresh:
                writer.writeheader()
        started = time.monotonic()
        with ProcessPoolExecutor(workers) as pool:
            chunk = max(1, min(50, len(missing) // (workers * 8) or 1))
            for done, row in enumerate(
                pool.map(solve_both, [rules] * len(missing), missing, [limit] * len(missing), chunksize=chunk), 1
            ):
                peak = max(peak, float(str(row["peak_mb"])))
                rows[int(str(row["number"]))] = {k: str(v) for k, v in row.items()}
                if writer and handle:
                    writer.writerow(row)
                    if done % 500 == 0:
                        handle.flush()
                        print(
                            f"  {rules}: {done}/{len(missing)} in {time.monotonic() - started:.0f} s", file=sys.stderr
                        )
        if handle:
            handle.close()
    return [rows[n] for n in numbers], peak


def report(rules: str, rows: list[dict[str, str]], peak: float) -> None:
    won = sum(row["verdict"] == "won" for row in rows)
    unknown = sum(row["verdict"] == "unknown" for row in rows)
    print(
        f"\n{rules}: {len(rows)} deals from {rows[0]['number']}, {won} won, {unknown} unknown"
        + (f", peak memory of a worker {peak:.0f} MB" if peak else "")
    )
    for question in ("verdict", "shortest"):
        times = [float(row[f"{question}_s"]) for row in rows]
        worst = max(rows, key=lambda row: float(row[f"{question}_s"]))
        print(
            f"  {question:8}  median {statistics.median(times):.4f} s  p99 {percentile(times, 0.99):.4f} s  "
            f"max {max(times):.3f} s ({worst['code']}, {int(worst[f'{question}_nodes']):,} positions)  "
            f"over 1 s: {sum(t > 1 for t in times)}  total {sum(times):.0f} s"
        )


def slowest(rows: list[dict[str, str]], count: int) -> list[dict[str, str]]:
    return sorted(rows, key=lambda row: -max(float(row["verdict_s"]), float(row["shortest_s"])))[:count]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rules", action="append", help="a rule set (repeatable; default msc)")
    parser.add_argument("--deals", type=int, default=2000, help="deals per rule set")
    parser.add_argument("--start", type=int, default=FRESH_START, help="the first deal number")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--time-limit", type=float, default=120.0, help="CPU seconds per solve before 'unknown'")
    parser.add_argument("--out", type=Path, help="keep the rows here (resumable)")
    parser.add_argument("--slowest", type=Path, help="add the slowest deals to this regression set")
    parser.add_argument("--keep", type=int, default=SLOWEST, help="how many slowest deals per rule set to keep")
    parser.add_argument("--no-alone", action="store_true", help="skip the slowest deals' own peak memory")
    args = parser.parse_args()
    print(f"pyramid-solitaire solver: {native.state()}; {args.workers} workers; CPU seconds per solve")
    regression: list[dict[str, object]] = []
    for rules in args.rules or ["msc"]:
        numbers = list(range(args.start, args.start + args.deals))
        rows, peak = run(rules, numbers, args.out, args.workers, args.time_limit)
        report(rules, rows, peak)
        print(f"  the slowest {SLOWEST}:")
        print(
            f"    {'code':22} {'verdict':7} {'length':>6} {'best':>4} {'verdict s':>9} {'positions':>10} "
            f"{'shortest s':>10} {'positions':>10}" + ("" if args.no_alone else f" {'peak MB':>8}")
        )
        for row in slowest(rows, SLOWEST):
            mb = "" if args.no_alone else f" {alone(row['code'], args.time_limit):8.0f}"
            print(
                f"    {row['code']:22} {row['verdict']:7} {row['length'] or '-':>6} {row['best']:>4} "
                f"{float(row['verdict_s']):9.3f} {int(row['verdict_nodes']):10,} "
                f"{float(row['shortest_s']):10.3f} {int(row['shortest_nodes']):10,}{mb}"
            )
        regression += [
            {
                "code": row["code"],
                "verdict": row["verdict"],
                "length": int(row["length"]) if row["length"] else None,
                "best": int(row["best"]),
            }
            for row in slowest(rows, args.keep)
        ]
    if args.slowest:
        add_to_regression_set(args.slowest, regression)
    return 0


def add_to_regression_set(path: Path, rows: list[dict[str, object]]) -> None:
    """Add ``rows`` to the regression set at ``path`` (deals already there are kept, so the slowest of
    several solvers, before and after a change, all stay); a deal already there with other facts is
    an error: two solvers disagree."""
    kept: list[dict[str, object]] = json.loads(path.read_text()) if path.exists() else []
    known = {str(row["code"]): row for row in kept}
    added = 0
    for row in rows:
        old = known.get(str(row["code"]))
        if old is None:
            kept.append(row)
            known[str(row["code"])] = row
            added += 1
        elif old != row:
            raise SystemExit(f"{row['code']}: {path} says {old}, this run {row}")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(kept, indent=1) + "\n")
    print(f"\n{added} deals added to {path} ({len(kept)} in all)")


if __name__ == "__main__":
    raise SystemExit(main())

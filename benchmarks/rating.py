"""Difficulty rating time: ``rate(deal)`` (32 sensible playouts) per deal, for some rule sets.

    .venv/bin/python benchmarks/rating.py                                 # pyramide and classic, 300 deals
    .venv/bin/python benchmarks/rating.py --rules tuts_tomb --rules "classic(passes=unlimited)" --deals 100

Every deal start..start+N-1 is rated, won or not (a study rates only the won ones; a lost deal's
playouts are the long ones, so this is the heavier side).  Prints CPU seconds per deal (median, p90,
max), the total, the sum of the ratings' wins (the same figure before and after a change that must not
alter ratings) and the process's peak memory.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import time

from pyramid_solitaire import Deal, native
from pyramid_solitaire.solver.difficulty import rate
from pyramid_solitaire.study import percentile


def measure(rules: str, start: int, deals: int) -> str:
    """Rate the deals; their figures as a table line."""
    seconds = []
    wins = 0
    for number in range(start, start + deals):
        deal = Deal.from_number(number, rules)
        began = time.process_time()
        wins += rate(deal).wins
        seconds.append(time.process_time() - began)
    return (
        f"{rules:<28} {deals:>6} {statistics.median(seconds):>8.4f} {percentile(seconds, 0.9):>8.4f} "
        f"{max(seconds):>8.4f} {sum(seconds):>8.2f} {wins:>8}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rules", action="append", help="a rule set (repeatable; default pyramide and classic)")
    parser.add_argument("--deals", type=int, default=300, help="deals per rule set (default 300)")
    parser.add_argument("--start", type=int, default=30_000, help="first deal number (default 30000)")
    args = parser.parse_args()
    print(f"engine: {native.state()}")
    print(f"{'rules':<28} {'deals':>6} {'median':>8} {'p90':>8} {'max':>8} {'total s':>8} {'wins':>8}")
    for rules in args.rules or ["pyramide", "classic"]:
        print(measure(rules, args.start, args.deals), flush=True)
    print(f"peak memory: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")


if __name__ == "__main__":
    main()

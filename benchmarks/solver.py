"""Solver speed and memory: per-deal time (median, p90, max), total, positions, peak memory.

    .venv/bin/python benchmarks/solver.py --msc-1500                 # verdicts, all 1,500 msc deals
    .venv/bin/python benchmarks/solver.py --msc-1500 --shortest      # shortest solutions
    .venv/bin/python benchmarks/solver.py --rules classic --deals 1000
    .venv/bin/python benchmarks/solver.py --rules pyramide --deals 1000
    .venv/bin/python benchmarks/solver.py --deals-json tests/solver/data/slow_deals.json --shortest

Each deal is solved in this one process, one after another (one core).  For msc-1500 the verdicts (and
with --shortest the lengths) are checked against the data set and any mismatch is printed.  Peak
memory is the process's maximum resident set size.  ``--deals-json`` takes the msc deals of a
regression set of ``benchmarks/tail.py`` instead, checked against its verdicts and lengths.
``--jsonl FILE`` keeps one line per deal.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import sys
import time
from pathlib import Path

from figures import MSC_1500, percentile, regression_set

from pyramid_solitaire import Deal, native
from pyramid_solitaire.solver import solve


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--msc-1500", action="store_true", help="the 1,500 deals of data/msc-1500")
    parser.add_argument("--deals-json", type=Path, help="the msc deals of a regression set of benchmarks/tail.py")
    parser.add_argument("--rules", default="msc")
    parser.add_argument("--deals", type=int, default=1000, help="deal numbers 0..N-1 of the shuffle")
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--limit", type=int, help="only the first N deals of the source")
    parser.add_argument(
        "--only",
        help="only these deals: numbers as printed (1-based), comma-separated, "
        "or @FILE with numbers separated by white space or commas",
    )
    parser.add_argument("--shortest", action="store_true")
    parser.add_argument("--no-best", action="store_true", help="skip the best-reachable search")
    parser.add_argument("--time-limit", type=float, default=None)
    parser.add_argument("--jsonl", type=Path, help="write one JSON line per deal here")
    args = parser.parse_args()

    expected: list[int] | None = None
    if args.msc_1500:
        lines = (MSC_1500 / "random-decks.txt").read_text().splitlines()
        expected = [int(x) for x in (MSC_1500 / "random-deck-solution-lengths.txt").read_text().split()]
        deals = [Deal.from_notation(line, "msc") for line in lines]
        source = "msc-1500"
    elif args.deals_json:
        notations, expected = regression_set(args.deals_json)
        deals = [Deal.from_notation(notation, "msc") for notation in notations]
        source = f"{args.deals_json.name} (msc)"
    else:
        deals = [Deal.from_number(n, args.rules) for n in range(args.start, args.start + args.deals)]
        source = f"{args.rules} deals {args.start}..{args.start + args.deals - 1}"
    numbers = list(range(1, len(deals) + 1))
    if args.only:
        text = Path(args.only[1:]).read_text() if args.only.startswith("@") else args.only
        numbers = [int(word) for word in text.replace(",", " ").split()]
    if args.limit:
        numbers = numbers[: args.limit]
    chosen = [(number, deals[number - 1]) for number in numbers]
    out = args.jsonl.open("w") if args.jsonl else None
    seconds: list[float] = []
    cpu: list[float] = []
    nodes: list[int] = []
    won = unknown = mismatches = 0
    started = time.perf_counter()
    for number, deal in chosen:
        index = number - 1
        cpu_started = time.process_time()
        result = solve(deal, shortest=args.shortest, time_limit=args.time_limit, best=not args.no_best)
        cpu.append(time.process_time() - cpu_started)
        seconds.append(result.seconds)
        nodes.append(result.nodes)
        won += result.winnable is True
        # a win whose shortest search ran out of time counts as unknown when shortest solutions are asked
        unknown += result.winnable is None or (args.shortest and result.winnable is True and not result.shortest)
        if expected is not None and result.winnable is not None:
            want = expected[index]
            if result.winnable != (want > 0) or (args.shortest and result.shortest and result.length != want):
                mismatches += 1
                print(f"MISMATCH deal {number}: got {result.winnable} {result.length}, expected {want}")
        if out:
            out.write(json.dumps({"index": index, **result.to_json(), "cpu_seconds": round(cpu[-1], 4)}) + "\n")
    total = time.perf_counter() - started
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    kind = "shortest solutions" if args.shortest else "verdicts" + ("" if args.no_best else " + best reachable")
    print(f"{source}: {kind}, {len(chosen)} deals, one process, engine {native.state()}")
    print(f"  winnable {won}, unknown {unknown}, mismatches {mismatches}")
    print(
        f"  per deal: median {statistics.median(seconds):.3f} s, p90 {percentile(seconds, 0.9):.3f} s, "
        f"max {max(seconds):.3f} s (deal {numbers[seconds.index(max(seconds))]})"
    )
    print(
        f"  CPU per deal: median {statistics.median(cpu):.3f} s, p90 {percentile(cpu, 0.9):.3f} s, "
        f"max {max(cpu):.3f} s (deal {numbers[cpu.index(max(cpu))]}), total {sum(cpu):.1f} s"
    )
    print(
        f"  positions: median {int(statistics.median(nodes))}, p90 {percentile([float(n) for n in nodes], 0.9):.0f}, "
        f"max {max(nodes)}"
    )
    print(f"  total {total:.1f} s, peak memory {peak_mb:.0f} MB")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())

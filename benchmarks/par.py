"""How long a par takes: the daily deals of many days, each worked out exactly as the server does it.

    .venv/bin/python benchmarks/par.py --days 30                      # the first 30 days, 3 rule sets
    .venv/bin/python benchmarks/par.py --days 30 --rules thirteen
    .venv/bin/python benchmarks/par.py --msc-1500 --stride 10         # every 10th msc-1500 deal, checked
    .venv/bin/python benchmarks/par.py --presets --deals 30           # every preset: its first 30 won deals
    .venv/bin/python benchmarks/par.py --presets --preset cells --deals 10 --slowest 5
    .venv/bin/python benchmarks/par.py --presets --preset "thirteen(jokers=2)" --deals 30   # any rule set

Each par runs in a child process of its own, ``python -m pyramid_solitaire.web.par_child CODE SECONDS`` —
the very command the web app's background worker runs (the child lowers itself to nice 19 either way;
the figures are its CPU seconds, the search's, not the scheduler's).  Per rule set it prints the CPU seconds per par
(median, p90, max), how many ran out of the limit (``unknown``), and the peak memory of a child (its
maximum resident set size).  With ``--msc-1500`` every par is checked against the data set's shortest
length, and any difference is printed.  With ``--presets``, every preset of the engine (not only the
three with a daily deal) takes the first ``--deals`` deals of its shuffle that the solver wins (as a
verified deal of that preset would be) and works out their pars the same way.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from datetime import timedelta

from figures import MSC_1500, percentile

from pyramid_solitaire import Deal
from pyramid_solitaire.daily import EPOCH, MAIN_RULES, PAR_SECONDS, daily_deal
from pyramid_solitaire.rule_strings import find_rules
from pyramid_solitaire.rules import PRESETS, RulesError
from pyramid_solitaire.solver import solve


def par_in_child(code: str, seconds: float) -> tuple[int | None, float, float]:
    """``(moves, cpu seconds, peak MB)`` of one par worked out by the server's own child command."""
    command = [sys.executable, "-m", "pyramid_solitaire.web.par_child", code, str(seconds)]
    child = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None
    out = child.stdout.read()
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    moves, cpu = json.loads(out)
    return moves, float(cpu), usage.ru_maxrss / 1024


def report(name: str, rows: list[tuple[int | None, float, float]], lost: int = 0) -> None:
    """One line of figures; ``lost``: how many of the rows are deals with no win at all (no par, and
    not "unknown")."""
    times = [cpu for _, cpu, _ in rows]
    unknown = sum(moves is None for moves, _, _ in rows) - lost
    print(
        f"{name:13} {len(rows):4} pars  median {statistics.median(times):6.2f} s  p90 {percentile(times, 0.9):6.2f} s  "
        f"max {max(times):6.2f} s  total {sum(times):7.1f} s  unknown {unknown}  no win {lost}  "
        f"peak {max(mb for _, _, mb in rows):6.0f} MB"
    )


def slowest(codes: list[str], rows: list[tuple[int | None, float, float]], count: int) -> None:
    """The ``count`` slowest pars of ``rows``, each with its deal code (to rerun it alone)."""
    ranked = sorted(zip(codes, rows, strict=True), key=lambda pair: -pair[1][1])[:count]
    for code, (moves, cpu, mb) in ranked:
        print(f"    {code}  {cpu:6.2f} s  par {moves}  {mb:5.0f} MB")


def rule_set(text: str) -> str:
    """A ``--preset`` value: a preset or any rule string (``thirteen(jokers=2)``), as the game reads it."""
    try:
        return str(find_rules(text))
    except (RulesError, ValueError) as error:
        raise argparse.ArgumentTypeError(f"not a rule set: {text!r} ({error})") from None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--days", type=int, default=30, help="the daily deals of the first N days")
    parser.add_argument("--rules", choices=MAIN_RULES, action="append", help="only this rule set (repeatable)")
    parser.add_argument("--msc-1500", action="store_true", help="deals of data/msc-1500 under msc rules instead")
    parser.add_argument("--stride", type=int, default=10, help="with --msc-1500: every N-th deal")
    parser.add_argument("--seconds", type=float, default=PAR_SECONDS, help="the CPU limit of one par")
    parser.add_argument("--presets", action="store_true", help="every preset's first won deals instead")
    parser.add_argument("--deals", type=int, default=30, help="with --presets: won deals per preset")
    parser.add_argument(
        "--preset",
        type=rule_set,
        action="append",
        help="with --presets: only this preset, or any rule set such as 'thirteen(jokers=2)' (repeatable)",
    )
    parser.add_argument("--slowest", type=int, default=0, help="also print the N slowest pars with their codes")
    args = parser.parse_args()
    print(f"par: CPU limit {args.seconds:.0f} s, one child process per deal, one after another")
    if args.msc_1500:
        lines = (MSC_1500 / "random-decks.txt").read_text().splitlines()[:: args.stride]
        lengths = [int(x) for x in (MSC_1500 / "random-deck-solution-lengths.txt").read_text().split()][:: args.stride]
        rows = []
        for index, (line, length) in enumerate(zip(lines, lengths, strict=True)):
            row = par_in_child(Deal.from_notation(line, "msc").code, args.seconds)
            rows.append(row)
            if row[0] != (length or None):
                print(f"deal {index * args.stride + 1}: par {row[0]}, data set {length}")
        report("msc-1500", rows, lost=sum(length == 0 for length in lengths))
        return 0
    if args.presets:
        for preset in args.preset or PRESETS:
            won: list[str] = []
            number = 0
            while len(won) < args.deals:
                deal = Deal.from_number(number, preset)
                number += 1
                if solve(deal, best=False).winnable:
                    won.append(deal.code)
            rows = [par_in_child(code, args.seconds) for code in won]
            report(preset, rows)
            slowest(won, rows, args.slowest)
        return 0
    for rules in args.rules or MAIN_RULES:
        codes = [daily_deal(rules, EPOCH + timedelta(days=n)).code for n in range(args.days)]
        rows = [par_in_child(code, args.seconds) for code in codes]
        report(rules, rows)
        slowest(codes, rows, args.slowest)
    return 0


if __name__ == "__main__":
    sys.exit(main())

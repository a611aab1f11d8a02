"""Write tests/golden/verdicts/<preset>.txt: the solver's verdict for deals 0..199 of the shuffle.

One line per deal: ``number<TAB>winnable<TAB>max_pyramid_removed`` (``true``/``false``; the most pyramid
cards any line of play removes, the pyramid size when the deal is winnable).  The files pin the solver:
``tests/solver/test_golden_verdicts.py`` solves the deals again and must get exactly these answers.

WHEN TO REGENERATE: ONLY after a DELIBERATE change to the rules of play of a preset (RULES.md, Table,
the preset's options) or to the documented shuffle — and then say so in the commit, with the lines that
changed and why.  NEVER regenerate to make a failing golden test pass after a solver change: the solver
must be fixed instead.  A verdict is a fact about the deal under its rules; a faster or cleverer solver
must give the same answers.  When you regenerate, check the diff line by line and cross-check any changed
line independently (e.g. with ``tests/solver/slow_search.py`` on positions late in the deal).

The generation uses a generous time limit per deal; it refuses to write a file with an unknown verdict
(a timeout) and names the deal instead.

    cd /work/main && .venv/bin/python tests/golden/make_verdicts.py            # every preset
    cd /work/main && .venv/bin/python tests/golden/make_verdicts.py classic    # some presets
"""

from __future__ import annotations

import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from pyramid_solitaire import Deal
from pyramid_solitaire.solver import solve

OUT_DIR = Path(__file__).with_name("verdicts")
PRESET_NAMES = ("classic", "pyramide", "thirteen", "msc", "traditional", "relaxed")
#: Deal numbers 0 .. DEALS - 1 of the shuffle.
DEALS = 200
#: Seconds per deal: far above the slowest deal (a few seconds), so a timeout means something is wrong.
TIME_LIMIT = 120.0
WORKERS = 2


def verdict(job: tuple[str, int]) -> tuple[str, int, bool | None, int, float]:
    """(rules, number, winnable, max_pyramid_removed, seconds) for one deal."""
    rules, number = job
    result = solve(Deal.from_number(number, rules), time_limit=TIME_LIMIT)
    return rules, number, result.winnable, result.max_pyramid_removed, result.seconds


def format_line(number: int, winnable: bool, max_removed: int) -> str:
    """One line of a verdict file."""
    return f"{number}\t{'true' if winnable else 'false'}\t{max_removed}"


def main(presets: list[str]) -> int:
    """Write the files of ``presets``; return the exit status (1 if any deal timed out)."""
    OUT_DIR.mkdir(exist_ok=True)
    failed = False
    with ProcessPoolExecutor(max_workers=WORKERS) as pool:
        for rules in presets:
            started = time.monotonic()
            results = sorted(pool.map(verdict, [(rules, n) for n in range(DEALS)], chunksize=4),
                             key=lambda r: r[1])
            unknown = [n for _, n, winnable, _, _ in results if winnable is None]
            slowest = max(results, key=lambda r: r[4])
            wins = sum(1 for r in results if r[2])
            print(f"{rules}: {wins}/{DEALS} winnable, {time.monotonic() - started:.1f} s wall, "
                  f"solver total {sum(r[4] for r in results):.1f} s, slowest deal {slowest[1]} "
                  f"({slowest[4]:.2f} s)")
            if unknown:
                print(f"  NOT WRITTEN: deals {unknown} timed out after {TIME_LIMIT} s", file=sys.stderr)
                failed = True
                continue
            lines = [format_line(n, bool(w), m) for _, n, w, m, _ in results]
            path = OUT_DIR / f"{rules}.txt"
            path.write_text("\n".join(lines) + "\n", encoding="utf-8")
            print(f"  wrote {len(lines)} lines to {path}")
    return 1 if failed else 0


if __name__ == "__main__":
    chosen = sys.argv[1:] or list(PRESET_NAMES)
    unknown_presets = [p for p in chosen if p not in PRESET_NAMES]
    if unknown_presets:
        sys.exit(f"unknown preset(s): {unknown_presets} (known: {', '.join(PRESET_NAMES)})")
    sys.exit(main(chosen))

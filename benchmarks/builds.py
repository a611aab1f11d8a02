"""Two builds of the solver side by side: is a change (a module split, a new term of a bound) faster
or slower, on the same machine at the same time?

    .venv/bin/python benchmarks/builds.py adc590f 3c3e38f              # before and after, 5 runs each
    .venv/bin/python benchmarks/builds.py main HEAD --runs 3 --workload c-loops

Each commit is checked out in a temporary git worktree and compiled there (``build_native``).  Each
workload then runs in a child process with that worktree's ``src`` first on the path, the two builds in
turn (A, B, A, B, …) after one warm-up run each, so that what else the machine does falls on both.
Printed per workload: the median CPU seconds of each build, and B / A as the median of the pairs' ratios
with their range (a ratio under 1: B is faster).  The workloads, one process each, verdict and shortest
solution with the best reachable (``solve(deal, shortest=True)``):

* ``python-loop``: deals 0-5 of ``tuts_tomb`` and ``limited_waste``, 0-3 of ``apophis``, 0-2 of
  ``reserve`` (rule sets the compiled Python loop searched when this was written);
* ``c-loops``: the first 150 deals of msc-1500 (the C loops).

The worktrees are removed at the end.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: per workload, the code its child runs (the deals' list is read from this checkout's data)
WORKLOADS = {
    "python-loop": (
        "from pyramid_solitaire import Deal\n"
        "from pyramid_solitaire.solver import solve\n"
        "for rules, count in (('tuts_tomb', 6), ('limited_waste', 6), ('apophis', 4), ('reserve', 3)):\n"
        "    for number in range(count):\n"
        "        solve(Deal.from_number(number, rules), shortest=True)\n"
    ),
    "c-loops": (
        "import sys\n"
        "from pyramid_solitaire import Deal\n"
        "from pyramid_solitaire.solver import solve\n"
        "lines = open(sys.argv[1]).read().splitlines()[:150]\n"
        "for line in lines:\n"
        "    solve(Deal.from_notation(line, 'msc'), shortest=True)\n"
    ),
}


def checkout(ref: str, into: Path) -> Path:
    """``ref`` in a worktree at ``into``, compiled in place; its ``src``."""
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(into), ref], check=True)
    env = {**os.environ, "PYTHONPATH": str(into / "src")}
    log = into / "build.log"
    subprocess.run(
        [sys.executable, "-m", "pyramid_solitaire.build_native", "--log", str(log)], cwd=into, env=env, check=True
    )
    return into / "src"


def cpu_seconds(src: Path, workload: str) -> float:
    """The CPU seconds of one child running ``workload`` with ``src`` first on the path."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    env = {**os.environ, "PYTHONPATH": str(src)}
    env.pop("PYRAMID_SOLITAIRE_PURE", None)
    data = ROOT / "data" / "msc-1500" / "random-decks.txt"
    subprocess.run([sys.executable, "-c", WORKLOADS[workload], str(data)], env=env, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def compare(sources: tuple[Path, Path], workload: str, runs: int) -> tuple[list[float], list[float]]:
    """Each build's CPU seconds over ``runs`` runs of ``workload``, in turn, after a warm-up each."""
    for src in sources:
        cpu_seconds(src, workload)
    a: list[float] = []
    b: list[float] = []
    for _ in range(runs):
        a.append(cpu_seconds(sources[0], workload))
        b.append(cpu_seconds(sources[1], workload))
    return a, b


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("before", help="a git commit (A)")
    parser.add_argument("after", help="a git commit (B)")
    parser.add_argument("--runs", type=int, default=5, help="runs of each build per workload (after a warm-up)")
    parser.add_argument("--workload", choices=[*WORKLOADS, "all"], default="all")
    args = parser.parse_args()
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    workloads = list(WORKLOADS) if args.workload == "all" else [args.workload]
    folder = Path(tempfile.mkdtemp(prefix="builds-"))
    trees = [folder / "a", folder / "b"]
    try:
        sources = (checkout(args.before, trees[0]), checkout(args.after, trees[1]))
        print(f"A = {args.before}, B = {args.after}; CPU seconds of one child, {args.runs} runs each, in turn")
        for workload in workloads:
            a, b = compare(sources, workload, args.runs)
            ratios = sorted(y / x for x, y in zip(a, b, strict=True))
            print(
                f"  {workload}: A median {statistics.median(a):.2f} s, B median {statistics.median(b):.2f} s, "
                f"B / A {statistics.median(ratios):.2f} ({ratios[0]:.2f}-{ratios[-1]:.2f})"
            )
    finally:
        for tree in trees:
            if tree.exists():
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], check=False)
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

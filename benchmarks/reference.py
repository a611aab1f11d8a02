"""Our shortest-solution search against the public reference solver, on the same msc-1500 deals.

    .venv/bin/python benchmarks/reference.py --reference-dir /path/to/pyramid-solver
    .venv/bin/python benchmarks/reference.py --reference-dir /path/to/pyramid-solver --every 5

The reference is mchung94/pyramid-solver (MIT; its A* search in Common Lisp, the source of the data set's
lengths), run from a checkout of it with SBCL (Debian: ``apt-get install sbcl``).  This script neither
contains nor changes any of its code: it writes a small driver of its own that loads the checkout with
ASDF, then solves the chosen deals one after another in one SBCL process and prints each deal's
solution length and seconds.  Ours runs as ``benchmarks/solver.py --msc-1500 --shortest --no-best``
in a process of its own.  The two run one after the other, or with ``--side-by-side`` at once, one
per core (on an otherwise idle 2-core machine neither then shares its core).  Seconds are wall
time around each solve (``get-internal-real-time`` there, ``perf_counter`` here), loading and
compiling left out; peak memory is each process's maximum resident set size.
Every length is checked against the data set's (and so the two solvers against each other).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from figures import MSC_1500, percentile

HERE = Path(__file__).resolve().parent

# Loads the checkout given as the first argument, then reads "number<TAB>52 cards" lines from the
# file given as the second and prints "number length seconds" for each (length 0: no solution).
DRIVER = """
(require "asdf")
(let ((dir (second sb-ext:*posix-argv*)))
  (push (uiop:ensure-directory-pathname dir) asdf:*central-registry*))
(let ((*standard-output* (make-broadcast-stream)) (*error-output* (make-broadcast-stream)))
  (asdf:load-system "pyramid-solver"))
(with-open-file (in (third sb-ext:*posix-argv*))
  (loop for line = (read-line in nil)
        while line
        do (let* ((tab (position #\\Tab line))
                  (deck (ps:string->card-list (subseq line (1+ tab))))
                  (start (get-internal-real-time))
                  (solution (ps:solve deck))
                  (elapsed (- (get-internal-real-time) start)))
             (format t "~A ~D ~,6F~%" (subseq line 0 tab) (length solution)
                     (/ elapsed internal-time-units-per-second))
             (finish-output))))
"""


def summary(name: str, seconds: list[float], numbers: list[int], peak_mb: float) -> str:
    worst = max(seconds)
    return (
        f"{name}: median {statistics.median(seconds):.3f} s, p90 {percentile(seconds, 0.9):.3f} s, "
        f"max {worst:.2f} s (deal {numbers[seconds.index(worst)]}), total {sum(seconds):.1f} s, "
        f"peak memory {peak_mb:.0f} MB"
    )


def start_one(command: list[str], env: dict[str, str], stem: Path) -> tuple[subprocess.Popen[bytes], Path, Path]:
    out, err = stem.with_suffix(".out"), stem.with_suffix(".err")
    with out.open("w") as stdout, err.open("w") as stderr:
        process = subprocess.Popen(command, env=env, stdout=stdout, stderr=stderr)
    return process, out, err


def finish_one(name: str, process: subprocess.Popen[bytes], out: Path, err: Path) -> tuple[float, str]:
    """Wait for the process; its own peak memory (wait4's rusage, which Popen.wait does not give) and
    standard output."""
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)  # reaped here: Popen must not wait for it again
    if process.returncode not in (0, 1):  # solver.py exits 1 on a mismatch, reported below
        sys.exit(f"{name} failed: {err.read_text().strip()[-2000:]}")
    return usage.ru_maxrss / 1024, out.read_text()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--reference-dir", type=Path, required=True, help="a checkout of mchung94/pyramid-solver")
    parser.add_argument("--sbcl", default="sbcl", help="the SBCL to run it with (default: sbcl on PATH)")
    parser.add_argument("--every", type=int, default=1, help="only every K-th deal (1, 1+K, ...; default all)")
    parser.add_argument(
        "--side-by-side",
        action="store_true",
        help="run the two at once, one per core (half the wall time on an idle 2-core machine)",
    )
    parser.add_argument("--time-limit", type=float, default=600.0, help="ours: seconds per deal (default 600)")
    args = parser.parse_args()
    if not (args.reference_dir / "pyramid-solver.asd").is_file():
        parser.error(f"{args.reference_dir} is not a checkout of pyramid-solver (no pyramid-solver.asd)")
    if shutil.which(args.sbcl) is None:
        parser.error(f"no {args.sbcl} to run the reference with (Debian: apt-get install sbcl)")
    if args.every < 1:
        parser.error("--every must be positive")

    decks = (MSC_1500 / "random-decks.txt").read_text().splitlines()
    expected = [int(x) for x in (MSC_1500 / "random-deck-solution-lengths.txt").read_text().split()]
    numbers = list(range(1, len(decks) + 1, args.every))

    with tempfile.TemporaryDirectory() as tmp:
        chosen = Path(tmp, "decks.txt")
        chosen.write_text("".join(f"{n}\t{decks[n - 1]}\n" for n in numbers))
        driver = Path(tmp, "driver.lisp")
        driver.write_text(DRIVER)
        only = Path(tmp, "only.txt")
        only.write_text(" ".join(map(str, numbers)))
        ours_jsonl = Path(tmp, "ours.jsonl")

        env = dict(os.environ, PYTHONPATH=str(HERE))
        commands = {
            "reference": [
                args.sbcl,
                "--dynamic-space-size",
                "8192",
                "--script",
                str(driver),
                str(args.reference_dir.resolve()),
                str(chosen),
            ],
            "ours": [
                sys.executable,
                str(HERE / "solver.py"),
                "--msc-1500",
                "--shortest",
                "--no-best",
                "--time-limit",
                str(args.time_limit),
                "--only",
                f"@{only}",
                "--jsonl",
                str(ours_jsonl),
            ],
        }
        peak_mb: dict[str, float] = {}
        outputs: dict[str, str] = {}
        if args.side_by_side:
            started = {name: start_one(command, env, Path(tmp, name)) for name, command in commands.items()}
            for name, (process, out, err) in started.items():
                peak_mb[name], outputs[name] = finish_one(name, process, out, err)
        else:
            for name, command in commands.items():
                peak_mb[name], outputs[name] = finish_one(name, *start_one(command, env, Path(tmp, name)))
        theirs = {}
        for line in outputs["reference"].split("\n"):
            if line.strip():
                number, length, seconds = line.split()
                theirs[int(number)] = (int(length), float(seconds))
        ours = {}
        for line in ours_jsonl.read_text().splitlines():
            row = json.loads(line)
            length = row["length"] if row["winnable"] else 0  # 0 for no solution, as the data set writes it
            ours[row["index"] + 1] = (length, row["seconds"], row["winnable"])

    mismatches = 0
    for n in numbers:
        want = expected[n - 1]
        if theirs[n][0] != want:
            mismatches += 1
            print(f"MISMATCH deal {n}: the reference says {theirs[n][0]}, the data set {want}")
        if ours[n][2] is None or ours[n][0] != want:
            mismatches += 1
            print(f"MISMATCH deal {n}: ours says {ours[n][0]} ({ours[n][2]}), the data set {want}")
    how = "side by side, one core each" if args.side_by_side else "one after the other"
    print(
        f"msc-1500, {len(numbers)} deals (every {args.every}), shortest solutions, {how}; "
        f"lengths that differ from the data set's: {mismatches}"
    )
    print(summary("reference (mchung94, SBCL)", [theirs[n][1] for n in numbers], numbers, peak_mb["reference"]))
    engine = outputs["ours"].partition(", engine ")[2].partition("\n")[0]
    print(summary(f"ours (pyramid-solitaire, {engine})", [ours[n][1] for n in numbers], numbers, peak_mb["ours"]))
    ratio = [theirs[n][1] / max(ours[n][1], 1e-6) for n in numbers]
    print(
        f"reference seconds / ours, per deal: median {statistics.median(ratio):.2f}, "
        f"p10 {percentile(ratio, 0.1):.2f}, p90 {percentile(ratio, 0.9):.2f}; "
        f"ours faster on {sum(r > 1 for r in ratio)} of {len(numbers)}"
    )
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())

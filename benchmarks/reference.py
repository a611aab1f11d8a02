r"""Our shortest-solution search against the public reference solvers, on the same msc-1500 deals.

    .venv/bin/python benchmarks/reference.py --reference-dir /path/to/pyramid-solver
    .venv/bin/python benchmarks/reference.py --reference-dir /path/to/pyramid-solver --every 5
    .venv/bin/python benchmarks/reference.py --java /path/to/solitaire-player --side-by-side
    .venv/bin/python benchmarks/reference.py --java /path/to/solitaire-player --side-by-side --pin \
        --deals-json tests/solver/data/slow_deals.json     # the slowest fresh deals (benchmarks/tail.py)

``--java`` takes instead a checkout of mchung94/solitaire-player (MIT; Java 17, the A* board-challenge
solver of its pyramid package), compiled here with ``javac`` against Debian's jars (``apt-get install
default-jdk-headless libtrove3-java libjackson2-databind-java``) into a temporary directory, with a
driver class of this script's own that times each ``BoardChallengeSolver.solve`` (``System.nanoTime``)
in one JVM; nothing of the checkout is copied or changed.  Deal-by-deal ratios are printed, with the
deals where ours is slower.

The Lisp reference is mchung94/pyramid-solver (MIT; its A* search in Common Lisp, the source of the data set's
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

from figures import MSC_1500, percentile, regression_set

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


# The Java driver: reads "number<TAB>52 cards" lines from the file given as its argument and prints
# "number length seconds" for each (length 0: no solution).
JAVA_DRIVER = """
import com.secondthorn.solitaireplayer.solvers.pyramid.Action;
import com.secondthorn.solitaireplayer.solvers.pyramid.BoardChallengeSolver;
import com.secondthorn.solitaireplayer.solvers.pyramid.Deck;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;

public class ReferenceDriver {
    public static void main(String[] args) throws Exception {
        for (String line : Files.readAllLines(Paths.get(args[0]))) {
            int tab = line.indexOf('\t');
            Deck deck = new Deck(line.substring(tab + 1));
            long start = System.nanoTime();
            Map<String, List<Action>> solutions = new BoardChallengeSolver().solve(deck);
            long elapsed = System.nanoTime() - start;
            int length = 0;
            for (List<Action> solution : solutions.values()) {
                length = solution.size();
            }
            System.out.println(line.substring(0, tab) + " " + length + " " + (elapsed / 1e9));
            System.out.flush();
        }
    }
}
"""
#: Debian's jars (libtrove3-java, libjackson2-databind-java) the Java solver is compiled against
JAVA_JARS = ("trove4j.jar", "jackson-databind.jar", "jackson-core.jar", "jackson-annotations.jar")
JAVA_PACKAGE = Path("src/main/java/com/secondthorn/solitaireplayer/solvers/pyramid")


def java_command(checkout: Path, tmp: Path, chosen: Path, jars: Path) -> list[str]:
    """Compile the checkout's pyramid solvers and the driver into ``tmp``; the command that runs them."""
    classpath = ":".join(str(jars / jar) for jar in JAVA_JARS)
    missing = [jar for jar in JAVA_JARS if not (jars / jar).is_file()]
    if missing:
        sys.exit(f"missing {', '.join(missing)} in {jars} (apt-get install libtrove3-java libjackson2-databind-java)")
    driver = tmp / "ReferenceDriver.java"
    driver.write_text(JAVA_DRIVER)
    classes = tmp / "classes"
    sources = sorted(str(path) for path in (checkout / JAVA_PACKAGE).glob("*.java"))
    subprocess.run(["javac", "-nowarn", "-d", str(classes), "-cp", classpath, *sources, str(driver)], check=True)
    # the solver reads its resources (the board's layout) from the classpath
    resources = checkout / "src/main/resources"
    return ["java", "-Xmx8g", "-cp", f"{classes}:{resources}:{classpath}", "ReferenceDriver", str(chosen)]


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
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--reference-dir", type=Path, help="a checkout of mchung94/pyramid-solver (Lisp, SBCL)")
    which.add_argument("--java", type=Path, help="a checkout of mchung94/solitaire-player (Java, javac)")
    parser.add_argument("--jars", type=Path, default=Path("/usr/share/java"), help="where Debian's jars are")
    parser.add_argument("--sbcl", default="sbcl", help="the SBCL to run it with (default: sbcl on PATH)")
    parser.add_argument("--every", type=int, default=1, help="only every K-th deal (1, 1+K, ...; default all)")
    parser.add_argument(
        "--side-by-side",
        action="store_true",
        help="run the two at once, one per core (half the wall time on an idle 2-core machine)",
    )
    parser.add_argument("--time-limit", type=float, default=600.0, help="ours: seconds per deal (default 600)")
    parser.add_argument(
        "--pin",
        action="store_true",
        help="with --side-by-side, pin the reference to core 0 and ours to core 1 (taskset): the JVM's "
        "compiler and collector threads then cannot take ours' core",
    )
    parser.add_argument(
        "--deals-json", type=Path, help="the msc deals of a regression set of benchmarks/tail.py instead of msc-1500"
    )
    parser.add_argument("--tsv", type=Path, help="write each deal here: number, length, ours s, reference s, ratio")
    args = parser.parse_args()
    if args.java is not None:
        if not (args.java / JAVA_PACKAGE / "BoardChallengeSolver.java").is_file():
            parser.error(
                f"{args.java} is not a checkout of solitaire-player (no {JAVA_PACKAGE}/BoardChallengeSolver.java)"
            )
        if shutil.which("javac") is None:
            parser.error("no javac to build the Java solver with (Debian: apt-get install default-jdk-headless)")
    elif not (args.reference_dir / "pyramid-solver.asd").is_file():
        parser.error(f"{args.reference_dir} is not a checkout of pyramid-solver (no pyramid-solver.asd)")
    elif shutil.which(args.sbcl) is None:
        parser.error(f"no {args.sbcl} to run the reference with (Debian: apt-get install sbcl)")
    if args.every < 1:
        parser.error("--every must be positive")

    if args.deals_json:
        decks, expected = regression_set(args.deals_json)
        source = ["--deals-json", str(args.deals_json)]
        title = f"{args.deals_json.name} (msc)"
    else:
        decks = (MSC_1500 / "random-decks.txt").read_text().splitlines()
        expected = [int(x) for x in (MSC_1500 / "random-deck-solution-lengths.txt").read_text().split()]
        source = ["--msc-1500"]
        title = "msc-1500"
    numbers = list(range(1, len(decks) + 1, args.every))

    with tempfile.TemporaryDirectory() as tmp:
        chosen = Path(tmp, "decks.txt")
        chosen.write_text("".join(f"{n}\t{decks[n - 1]}\n" for n in numbers))
        driver = Path(tmp, "driver.lisp")
        driver.write_text(DRIVER)
        only = Path(tmp, "only.txt")
        only.write_text(" ".join(map(str, numbers)))
        ours_jsonl = Path(tmp, "ours.jsonl")

        # ours runs this checkout's sources (and their compiled build), not whatever is installed
        path = [str(HERE), str(HERE.parent / "src"), *filter(None, [os.environ.get("PYTHONPATH")])]
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(path))
        if args.java is not None:
            reference = java_command(args.java.resolve(), Path(tmp), chosen, args.jars)
            label = "reference (mchung94/solitaire-player, Java)"
        else:
            reference = [
                args.sbcl,
                "--dynamic-space-size",
                "8192",
                "--script",
                str(driver),
                str(args.reference_dir.resolve()),
                str(chosen),
            ]
            label = "reference (mchung94/pyramid-solver, SBCL)"
        commands = {
            "reference": reference,
            "ours": [
                sys.executable,
                str(HERE / "solver.py"),
                *source,
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
        if args.pin:
            for core, name in enumerate(commands):
                commands[name] = ["taskset", "-c", str(core), *commands[name]]
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
        f"{title}, {len(numbers)} deals (every {args.every}), shortest solutions, {how}; "
        f"lengths that differ from the data set's: {mismatches}"
    )
    print(summary(label, [theirs[n][1] for n in numbers], numbers, peak_mb["reference"]))
    engine = outputs["ours"].partition(", engine ")[2].partition("\n")[0]
    print(summary(f"ours (pyramid-solitaire, {engine})", [ours[n][1] for n in numbers], numbers, peak_mb["ours"]))
    for kind, chosen in (
        ("won", [n for n in numbers if expected[n - 1]]),
        ("lost", [n for n in numbers if not expected[n - 1]]),
    ):
        if chosen:
            print(f"the {len(chosen)} {kind} deals:")
            print("  " + summary(label, [theirs[n][1] for n in chosen], chosen, peak_mb["reference"]))
            print("  " + summary("ours", [ours[n][1] for n in chosen], chosen, peak_mb["ours"]))
    # the ratios of deals with a solution: a lost deal is proved at once by both (microseconds
    # against a millisecond), which says nothing of the searches
    won = [n for n in numbers if expected[n - 1]]
    print_ratios(won, {n: theirs[n][1] for n in won}, {n: ours[n][1] for n in won})
    if args.deals_json:
        # the regression set's deals are slow for both, lost ones above all: every deal, one by one
        print(f"  {'deal':>4} {'length':>6} {'reference s':>11} {'ours s':>8} {'reference / ours':>16}")
        for n in numbers:
            print(
                f"  {n:4} {expected[n - 1] or '-':>6} {theirs[n][1]:11.3f} {ours[n][1]:8.3f} "
                f"{theirs[n][1] / max(ours[n][1], 1e-6):16.2f}"
            )
    if args.tsv:
        args.tsv.write_text(
            "deal\tlength\tours_s\treference_s\treference_over_ours\n"
            + "".join(
                f"{n}\t{expected[n - 1]}\t{ours[n][1]}\t{theirs[n][1]}\t{theirs[n][1] / max(ours[n][1], 1e-6):.3f}\n"
                for n in numbers
            )
        )
    return 1 if mismatches else 0


def print_ratios(numbers: list[int], theirs: dict[int, float], ours: dict[int, float]) -> None:
    """The reference's seconds over ours, deal by deal (the deals with a solution): their percentiles,
    and the deals where ours is slower (the ratio below 1), slowest first."""
    ratio = {n: theirs[n] / max(ours[n], 1e-6) for n in numbers}
    values = list(ratio.values())
    spread = ", ".join(
        f"{name} {value:.2f}"
        for name, value in (
            ("min", min(values)),
            ("p1", percentile(values, 0.01)),
            ("p10", percentile(values, 0.1)),
            ("median", statistics.median(values)),
            ("p90", percentile(values, 0.9)),
            ("max", max(values)),
        )
    )
    faster = sum(r > 1 for r in values)
    print(f"deals with a solution, reference seconds / ours: {spread}; ours faster on {faster} of {len(numbers)}")
    slower = sorted((n for n in numbers if ratio[n] < 1), key=lambda n: ratio[n])
    print(f"ours slower on {len(slower)} deals" + (":" if slower else ""))
    for n in slower[:40]:
        print(f"  deal {n}: ours {ours[n]:.3f} s, reference {theirs[n]:.3f} s (ours {1 / ratio[n]:.2f} times longer)")
    if len(slower) > 40:
        print(f"  ... and {len(slower) - 40} more")


if __name__ == "__main__":
    sys.exit(main())

"""The long-running commands of ``pyramid-solitaire``: ``study`` (one rule set's deals into a resumable
results file) and ``winnability run|table|pack`` (the plan of issue 6, ``docs/winnability.md``), with
their arguments and the handling of an interruption (Ctrl-C or SIGTERM) that keeps every finished deal.
"""

from __future__ import annotations

import argparse
import signal
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, TypeVar

from .cli_common import EXIT_INTERRUPTED, PROG, UsageError
from .messages import file_problem, text
from .study import DEFAULT_DEALS, DEFAULT_TIME_LIMIT, run_study

if TYPE_CHECKING:
    from .winnability import PlanRow, RowStatus

T = TypeVar("T")


@contextmanager
def _terminate_as_interrupt() -> Iterator[None]:
    """Let SIGTERM (``kill``, a job scheduler, a container stopping) end a long run as Ctrl-C does: every
    finished deal saved, the workers stopped, exit status 130.  Without it the process died at once
    and left its worker processes running."""

    def interrupt(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _long_run(results: str, job: Callable[[], T], lang: str) -> T | None:
    """Run a study-like ``job`` under :func:`_terminate_as_interrupt`: an interruption (Ctrl-C or
    SIGTERM) says where the results are and gives ``None``; a StudyError goes to :func:`main`."""
    try:
        with _terminate_as_interrupt():
            return job()
    except KeyboardInterrupt:
        print(f"{PROG}: " + text(lang, "cli.interrupted", results=results), file=sys.stderr)
        return None


def cmd_study(args: argparse.Namespace) -> int:
    """Solve deals S..S+N-1 into a resumable CSV file and print the win rate and times."""
    summary = _long_run(
        args.out,
        lambda: run_study(
            args.rules,
            args.out,
            start=args.start,
            deals=args.deals,
            workers=args.workers,
            dask=args.dask,
            time_limit=args.time_limit,
            progress=sys.stderr,
            retry_unknown=args.retry_unknown,
            lang=args.lang,
        ),
        args.lang,
    )
    if summary is None:
        return EXIT_INTERRUPTED
    print("\n".join(summary.lines(args.lang)))
    return 0


def cmd_winnability_run(args: argparse.Namespace) -> int:
    """Run the winnability plan (issue 6) into a folder of results files, resuming them."""
    from .winnability import default_plan, plan_status, run_plan

    plan = default_plan()

    def job() -> tuple[list[tuple[PlanRow, int]], list[RowStatus]]:
        solved = run_plan(
            plan,
            args.dir,
            upto=args.upto,
            workers=args.workers,
            dask=args.dask,
            time_limit=args.time_limit,
            progress=sys.stderr,
            retry_unknown=args.retry_unknown,
            lang=args.lang,
        )
        return solved, plan_status(plan, args.dir)

    done = _long_run(args.dir, job, args.lang)
    if done is None:
        return EXIT_INTERRUPTED
    for (row, count), status in zip(*done, strict=True):
        print(
            text(
                args.lang,
                "cli.winnability.done" if status.complete else "cli.winnability.in-progress",
                rules=row.rules,
                done=f"{status.done:,}",
                target=f"{row.target:,}",
                solved=f"{count:,}",
            )
        )
    return 0


def cmd_winnability_table(args: argparse.Namespace) -> int:
    """Write the winnability table (docs/winnability.md) from the plan's results files."""
    from .winnability import default_plan, render_table

    page = render_table(default_plan(), args.dir)  # docs/winnability.md: a page of the (English) docs
    if args.out in (None, "-"):
        sys.stdout.write(page)
        return 0
    from .study import replace_file

    try:  # through a temporary file: a failed write leaves the old page, never half of the new one
        replace_file(Path(args.out), page.encode("utf-8"))
    except OSError as exc:
        raise UsageError("cli.file", problem=file_problem("write", args.out, exc)) from None
    return 0


def cmd_winnability_pack(args: argparse.Namespace) -> int:
    """Write the .csv.xz archive of every results file of the plan (what the repository keeps)."""
    from .winnability import default_plan, pack_plan

    try:
        packed = pack_plan(default_plan(), args.dir)
    except OSError as exc:
        raise UsageError(
            "cli.pack.cannot-write", folder=args.dir, problem=file_problem("write", args.dir, exc)
        ) from None
    for name, rows, size in packed:
        print(text(args.lang, "cli.pack.file", name=name, rows=f"{rows:,}", size=f"{size:,}"))
    if not packed:
        print(text(args.lang, "cli.pack.nothing", folder=args.dir))
    return 0


def add_study_parser(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], h: Callable[..., str]
) -> list[argparse.ArgumentParser]:
    """Add ``study`` to the command's subcommands (``h``: the help in the chosen language); return its parser."""
    stu = sub.add_parser("study", help=h("study"), description=h("study"))
    stu.add_argument("--rules", required=True, metavar="R", help=h("rules"))
    stu.add_argument("--deals", type=int, default=DEFAULT_DEALS, metavar="N", help=h("deals", n=DEFAULT_DEALS))
    stu.add_argument("--start", type=int, default=0, metavar="S", help=h("start"))
    stu.add_argument("--workers", type=int, metavar="K", help=h("workers"))
    stu.add_argument("--dask", metavar="tcp://HOST:PORT", help=h("dask"))
    stu.add_argument(
        "--time-limit",
        type=float,
        default=DEFAULT_TIME_LIMIT,
        metavar="S",
        help=h("cpu-time-limit", seconds=f"{DEFAULT_TIME_LIMIT:g}"),
    )
    stu.add_argument("--out", required=True, metavar="FILE", help=h("out"))
    stu.add_argument("--retry-unknown", action="store_true", help=h("retry-unknown"))
    stu.set_defaults(func=cmd_study)
    return [stu]


def add_winnability_parser(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], h: Callable[..., str]
) -> list[argparse.ArgumentParser]:
    """Add ``winnability`` and its actions ``run``, ``table`` and ``pack`` to the command's subcommands
    (``h``: the help in the chosen language); return their parsers."""
    win = sub.add_parser("winnability", help=h("winnability"), description=h("winnability"))
    win_sub = win.add_subparsers(dest="action", required=True, metavar="{run,table,pack}")
    win_run = win_sub.add_parser("run", help=h("winnability-run"), description=h("winnability-run"))
    win_run.add_argument("--dir", required=True, metavar="DIR", help=h("dir-existing"))
    win_run.add_argument("--upto", type=int, metavar="N", help=h("upto"))
    engine = win_run.add_mutually_exclusive_group()
    engine.add_argument("--workers", type=int, metavar="K", help=h("workers"))
    engine.add_argument("--dask", metavar="tcp://HOST:PORT", help=h("dask"))
    win_run.add_argument(
        "--time-limit",
        type=float,
        default=DEFAULT_TIME_LIMIT,
        metavar="S",
        help=h("cpu-time-limit", seconds=f"{DEFAULT_TIME_LIMIT:g}"),
    )
    win_run.add_argument("--retry-unknown", action="store_true", help=h("retry-unknown"))
    win_run.set_defaults(func=cmd_winnability_run)
    win_table = win_sub.add_parser("table", help=h("winnability-table"), description=h("winnability-table"))
    win_table.add_argument("--dir", required=True, metavar="DIR", help=h("dir"))
    win_table.add_argument("--out", metavar="FILE", help=h("table-out"))
    win_table.set_defaults(func=cmd_winnability_table)
    win_pack = win_sub.add_parser("pack", help=h("winnability-pack"), description=h("winnability-pack"))
    win_pack.add_argument("--dir", required=True, metavar="DIR", help=h("dir"))
    win_pack.set_defaults(func=cmd_winnability_pack)
    return [win, win_run, win_table, win_pack]

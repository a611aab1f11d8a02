"""The ``pyramid-solitaire`` command: serve (the default: the web app), play, deal, replay, solve, study,
winnability, stats.

Bad input (notation, codes, moves, records, rule sets) prints one line naming the problem and exits 2.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import signal
import sys
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any, TypeVar

from .deal import MAX_NUMBER, Deal, DealError, parse_deal
from .game import Game
from .moves import MoveError
from .record import RecordError, read_record, replay
from .rules import RulesError, find_rules
from .study import DEFAULT_DEALS, DEFAULT_TIME_LIMIT, StudyError, run_study
from .terminal import play, render

if TYPE_CHECKING:
    from .winnability import PlanRow, RowStatus

T = TypeVar("T")

EXIT_REFUSED = 1
EXIT_BAD_INPUT = 2
EXIT_INTERRUPTED = 130
#: What a shell reports for a process ended by SIGPIPE (128 + 13); ``head`` closing early is not an error.
EXIT_BROKEN_PIPE = 141
PROG = "pyramid-solitaire"
DASK_HELP = ("run on the Dask cluster of this scheduler (a tls:// one takes its certificates from Dask's "
             "config: docs/study.md)")


class UsageError(Exception):
    """Bad input from the command line; printed as one line, exit status 2."""


def _deal_from_args(args: argparse.Namespace) -> Deal:
    rules = find_rules(args.rules) if args.rules else None
    if args.deal is not None:
        return Deal.from_notation(args.deal, rules or "classic")
    if args.code:
        return parse_deal(args.code, rules)
    number = args.number if args.number is not None else secrets.randbelow(MAX_NUMBER + 1)
    return Deal.from_number(number, rules or "classic")


def _add_deal_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("code", nargs="?", help="a deal code such as CL1-R-AAAAAAB")
    parser.add_argument("--deal", metavar="NOTATION", help="the 52 card tokens of a custom deal")
    parser.add_argument("--number", type=int, help="deal number of the shuffle")
    parser.add_argument("--random", action="store_true", help="a random deal number (the default)")
    parser.add_argument("--rules", metavar="R", help="rule set, e.g. classic or thirteen(jokers=2)")


def _labelled_deal(args: argparse.Namespace) -> Deal:
    """The deal of the arguments, labelled for what it is: a code's E or N stays only for a verified deal."""
    from .catalog import earned

    return earned(_deal_from_args(args))


def cmd_deal(args: argparse.Namespace) -> int:
    """Print a deal's layout, or its code, rules and notation as JSON."""
    deal = _labelled_deal(args)
    if args.json:
        print(json.dumps({"code": deal.code, "full_code": deal.full_code, "rules": str(deal.rules),
                          "number": deal.number, "notation": deal.notation}, ensure_ascii=False))
        return 0
    game = Game(deal)
    print(render(game, args.lang))
    print(deal.notation)
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    """Replay a record and print the final position."""
    if args.file in (None, "-"):
        text = sys.stdin.read()
    else:
        try:
            with open(args.file, encoding="utf-8") as handle:
                text = handle.read()
        except OSError as exc:
            raise UsageError(f"cannot read {args.file}: {exc.strerror}") from None
        except UnicodeDecodeError as exc:
            raise UsageError(f"cannot read {args.file}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    result = replay(read_record(text))
    game = result.game
    summary: dict[str, Any] = game.summary()
    if result.refusal is not None:
        summary["error"] = {**result.refusal.to_json(), "entry": result.failed_at, "move": result.failed_entry}
    if args.json:
        print(json.dumps(summary, ensure_ascii=False))
    else:
        print(render(game, args.lang))
        if result.refusal is not None:
            print(f"move {result.failed_at} ({result.failed_entry}) refused: {result.refusal.message(args.lang)}")
    return EXIT_REFUSED if result.refusal is not None else 0


def _solve_inputs(args: argparse.Namespace) -> list[Deal]:
    if args.deals_file is None:
        return [_deal_from_args(args)]
    try:
        with open(args.deals_file, encoding="utf-8") as handle:
            lines = handle.read().splitlines()
    except OSError as exc:
        raise UsageError(f"cannot read {args.deals_file}: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise UsageError(f"cannot read {args.deals_file}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    rules = find_rules(args.rules) if args.rules else None
    deals = []
    for number, line in enumerate(lines, start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            deals.append(parse_deal(line, rules))
        except DealError as exc:
            raise UsageError(f"{args.deals_file} line {number}: {exc}") from None
    return deals


def cmd_solve(args: argparse.Namespace) -> int:
    """Solve deals: verdict, solution (shortest with --shortest), best reachable."""
    from .solver import solve

    if args.time_limit is not None and args.time_limit <= 0:
        raise UsageError("--time-limit must be a positive number of seconds")
    for deal in _solve_inputs(args):
        result = solve(deal, shortest=args.shortest, time_limit=args.time_limit)
        if args.jsonl:
            print(json.dumps(result.to_json(), ensure_ascii=False), flush=True)
            continue
        verdict = {True: "winnable", False: "not winnable", None: "unknown (time limit)"}[result.winnable]
        print(f"{deal.code}  {verdict}  best {result.max_pyramid_removed}/{deal.rules.board_size}"
              f"  {result.seconds:.3f} s  {result.nodes} positions")
        if result.solution is not None:
            print(f"  {len(result.solution)} steps: " + "; ".join(str(m) for m in result.solution))
    return 0


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


def _long_run(results: str, job: Callable[[], T]) -> T | None:
    """Run a study-like ``job`` under :func:`_terminate_as_interrupt`: its StudyError becomes a usage
    error, and an interruption (Ctrl-C or SIGTERM) says where the results are and gives ``None``."""
    try:
        with _terminate_as_interrupt():
            return job()
    except StudyError as exc:
        raise UsageError(str(exc)) from None
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted; the results so far are in {results}: run the same command again to resume",
              file=sys.stderr)
        return None


def cmd_study(args: argparse.Namespace) -> int:
    """Solve deals S..S+N-1 into a resumable CSV file and print the win rate and times."""
    summary = _long_run(args.out, lambda: run_study(
        args.rules, args.out, start=args.start, deals=args.deals, workers=args.workers, dask=args.dask,
        time_limit=args.time_limit, progress=sys.stderr, retry_unknown=args.retry_unknown))
    if summary is None:
        return EXIT_INTERRUPTED
    print("\n".join(summary.lines()))
    return 0


def cmd_winnability_run(args: argparse.Namespace) -> int:
    """Run the winnability plan (issue 6) into a folder of results files, resuming them."""
    from .winnability import default_plan, plan_status, run_plan

    plan = default_plan()

    def job() -> tuple[list[tuple[PlanRow, int]], list[RowStatus]]:
        solved = run_plan(plan, args.dir, upto=args.upto, workers=args.workers, dask=args.dask,
                          time_limit=args.time_limit, progress=sys.stderr, retry_unknown=args.retry_unknown)
        return solved, plan_status(plan, args.dir)

    done = _long_run(args.dir, job)
    if done is None:
        return EXIT_INTERRUPTED
    for (row, count), status in zip(*done, strict=True):
        state = "done" if status.complete else "in progress"
        print(f"{row.rules}: {status.done:,} of {row.target:,} deals, {state} ({count:,} solved this run)")
    return 0


def cmd_winnability_table(args: argparse.Namespace) -> int:
    """Write the winnability table (docs/winnability.md) from the plan's results files."""
    from .winnability import default_plan, render_table

    try:
        text = render_table(default_plan(), args.dir)
    except StudyError as exc:
        raise UsageError(str(exc)) from None
    if args.out in (None, "-"):
        sys.stdout.write(text)
        return 0
    from .study import replace_file

    try:  # through a temporary file: a failed write leaves the old page, never half of the new one
        replace_file(Path(args.out), text.encode("utf-8"))
    except OSError as exc:
        raise UsageError(f"cannot write {args.out}: {exc.strerror}") from None
    return 0


def cmd_winnability_pack(args: argparse.Namespace) -> int:
    """Write the .csv.xz archive of every results file of the plan (what the repository keeps)."""
    from .winnability import default_plan, pack_plan

    try:
        packed = pack_plan(default_plan(), args.dir)
    except StudyError as exc:
        raise UsageError(str(exc)) from None
    except OSError as exc:
        raise UsageError(f"cannot write the archives in {args.dir}: {exc.strerror}") from None
    for name, rows, size in packed:
        print(f"{name}: {rows:,} deals, {size:,} bytes")
    if not packed:
        print(f"no results files in {args.dir}: nothing to pack")
    return 0


def _prompted_lines() -> Iterator[str]:
    """Lines typed at a terminal, each asked for with a ``> `` prompt."""
    while True:
        sys.stdout.write("> ")
        sys.stdout.flush()
        line = sys.stdin.readline()
        if not line:
            return
        yield line


def cmd_play(args: argparse.Namespace) -> int:
    """Play in the terminal, one command per line (with a prompt when a person is typing)."""
    game = Game(_labelled_deal(args))
    play(game, _prompted_lines() if sys.stdin.isatty() else sys.stdin, sys.stdout, args.lang)
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    """Start the web app and open the browser."""
    from .web.server import ServeError, serve

    try:
        serve(args.host, args.port, args.db, browser=not args.no_browser)
    except ServeError as exc:
        raise UsageError(str(exc)) from None
    except KeyboardInterrupt:
        pass
    return 0


def _stats_table(stats: list[dict[str, Any]], lang: str) -> str:
    """The statistics as a text table (the same numbers as the page's)."""
    ja = lang == "ja"
    heads_ja = ["ルール", "難易度", "プレイ", "勝ち", "勝率", "連勝", "最長", "平均時間", "最速", "平均手数",
                "最少", "取消", "ヒント"]
    heads_en = ["rules", "diff", "played", "won", "rate", "streak", "best", "avg time", "best time", "avg moves",
                "fewest", "undos", "hints"]
    heads = heads_ja if ja else heads_en

    def shown(value: object, suffix: str = "") -> str:
        return "-" if value is None else f"{value}{suffix}"

    rows = [[s["rules"], s["difficulty"], str(s["played"]), str(s["won"]),
             "-" if s["win_rate"] is None else f"{round(100 * s['win_rate'])}%", str(s["streak"]),
             str(s["best_streak"]), shown(s["average_seconds"], "s"), shown(s["best_seconds"], "s"),
             shown(s["average_moves"]), shown(s["best_moves"]), str(s["undos"]), str(s["hints"])] for s in stats]
    widths = [max(_width(r[i]) for r in [heads, *rows]) for i in range(len(heads))]
    return "\n".join("  ".join(cell + " " * (w - _width(cell)) for cell, w in zip(row, widths, strict=True)).rstrip()
                     for row in [heads, *rows])


def _width(text: str) -> int:
    """Columns a text takes in a terminal (wide East Asian characters take two)."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _read_import(path: str) -> Any:
    """The JSON of a records file to import; a UsageError naming the file and the problem."""
    try:
        with open(path, encoding="utf-8") as handle:
            return json.load(handle)
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise UsageError(f"cannot read {path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    except (ValueError, RecursionError) as exc:  # bad JSON, numbers past int()'s digit limit, deep nesting
        raise UsageError(f"{path} is not JSON: {exc}") from None


def cmd_stats(args: argparse.Namespace) -> int:
    """Print a player's statistics; export, import or reset their records."""
    from .store import Store, StoreError
    from .store.stats import compute
    from .web.server import default_db_url
    from .web.transfer import RecordsImportError, export_records, import_records

    try:
        store = Store(args.db or default_db_url())
    except StoreError as exc:
        raise UsageError(str(exc)) from None
    data = _read_import(args.import_file) if args.import_file else None  # a bad file fails first, whatever else
    known = store.players()
    player = args.player
    if player is None and data is not None and not known:
        player = store.new_player()  # a fresh install: the imported games become its first player's
    elif player is None and data is not None and len(known) > 1:
        raise UsageError("記録に複数のプレイヤーがいます。--player ID で読み込み先を選んでください" if args.lang == "ja"
                         else "the records hold several players: choose the one to import into with --player ID")
    if player is None:
        if len(known) != 1:
            if not known:
                print("記録はまだありません" if args.lang == "ja" else "No records yet.")
                return 0
            for entry in known:
                print(f"{entry['id']}  {entry['name'] or '-'}  {entry['games']} games")
            print("--player ID で選んでください" if args.lang == "ja" else "Choose one with --player ID.")
            return 0
        player = known[0]["id"]
    if store.player(player) is None:
        raise UsageError(f"no player {player!r} in {store.shown_url}")
    if args.import_file:
        try:
            added, already = import_records(store, player, data)
        except RecordsImportError as exc:
            raise UsageError(f"{args.import_file}: {exc}") from None
        if args.lang == "ja":
            print(f"{added}ゲームを読み込みました" + (f"（{already}ゲームは読み込み済み）" if already else ""))
        else:
            print(f"imported {added} games" + (f" ({already} were already there)" if already else ""))
    if args.export_file:
        text = json.dumps(export_records(store, player), ensure_ascii=False)
        if args.export_file == "-":
            print(text)
        else:
            with open(args.export_file, "w", encoding="utf-8") as handle:
                handle.write(text)
    if args.reset:
        store.reset_stats(player)
    stats = [s.to_json() for s in compute(store.finished_games(player))]
    if args.json:
        print(json.dumps(stats, ensure_ascii=False))
    elif args.export_file != "-":
        empty = "記録はまだありません" if args.lang == "ja" else "No records yet."
        print(_stats_table(stats, args.lang) if stats else empty)
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (its help is the command's reference)."""
    parser = argparse.ArgumentParser(prog=PROG, description="Pyramid solitaire: serve (the default), play, deal, "
                                                             "replay, solve, study, winnability, stats.")
    parser.add_argument("--lang", choices=("ja", "en"), default="ja", help="language of messages")
    sub = parser.add_subparsers(dest="command")

    deal = sub.add_parser("deal", help="print a deal")
    _add_deal_options(deal)
    deal.add_argument("--json", action="store_true", help="print {code, rules, notation} as JSON")
    deal.set_defaults(func=cmd_deal)

    rep = sub.add_parser("replay", help="replay a game record and print the final position")
    rep.add_argument("file", nargs="?", help="record file, or - for standard input (the default)")
    rep.add_argument("--json", action="store_true", help="print the final figures as JSON")
    rep.set_defaults(func=cmd_replay)

    sol = sub.add_parser("solve", help="solve deals: verdict, solution, best reachable")
    _add_deal_options(sol)
    sol.add_argument("--deals-file", metavar="FILE", help="one deal per line (notation or code)")
    sol.add_argument("--shortest", action="store_true", help="find a solution with the fewest steps")
    sol.add_argument("--time-limit", type=float, metavar="S", help="seconds per deal; past it the answer is unknown")
    sol.add_argument("--jsonl", action="store_true", help="one JSON object per deal, in input order")
    sol.set_defaults(func=cmd_solve)

    stu = sub.add_parser("study", help="solve many deals: win rate, resumable results file, local or Dask")
    stu.add_argument("--rules", required=True, metavar="R", help="rule set, e.g. classic or thirteen(jokers=2)")
    stu.add_argument("--deals", type=int, default=DEFAULT_DEALS, metavar="N", help=f"deals (default {DEFAULT_DEALS})")
    stu.add_argument("--start", type=int, default=0, metavar="S", help="first deal number (default 0)")
    stu.add_argument("--workers", type=int, metavar="K", help="local processes (default: every core)")
    stu.add_argument("--dask", metavar="tcp://HOST:PORT", help=DASK_HELP)
    stu.add_argument("--time-limit", type=float, default=DEFAULT_TIME_LIMIT, metavar="S",
                     help=f"CPU seconds per deal, then the verdict is unknown (default {DEFAULT_TIME_LIMIT:g})")
    stu.add_argument("--out", required=True, metavar="FILE", help="results CSV (resumed if it exists)")
    stu.add_argument("--retry-unknown", action="store_true",
                     help="solve again the deals the file has as unknown (e.g. with a longer --time-limit)")
    stu.set_defaults(func=cmd_study)

    win = sub.add_parser("winnability", help="the win-rate table of docs/winnability.md: run its plan, write it")
    win_sub = win.add_subparsers(dest="action", required=True, metavar="{run,table,pack}")
    win_run = win_sub.add_parser("run", help="solve the plan's deals into --dir (resumable)")
    win_run.add_argument("--dir", required=True, metavar="DIR", help="folder of the results files (must exist)")
    win_run.add_argument("--upto", type=int, metavar="N", help="take each rule set at most to N deals this time")
    engine = win_run.add_mutually_exclusive_group()
    engine.add_argument("--workers", type=int, metavar="K", help="local processes (default: every core)")
    engine.add_argument("--dask", metavar="tcp://HOST:PORT", help=DASK_HELP)
    win_run.add_argument("--time-limit", type=float, default=DEFAULT_TIME_LIMIT, metavar="S",
                         help=f"CPU seconds per deal, then the verdict is unknown (default {DEFAULT_TIME_LIMIT:g})")
    win_run.add_argument("--retry-unknown", action="store_true",
                         help="solve again the deals the files have as unknown (e.g. with a longer --time-limit)")
    win_run.set_defaults(func=cmd_winnability_run)
    win_table = win_sub.add_parser("table", help="write the table as Markdown from the results files in --dir")
    win_table.add_argument("--dir", required=True, metavar="DIR", help="folder of the results files")
    win_table.add_argument("--out", metavar="FILE", help="write here, e.g. docs/winnability.md (default: stdout)")
    win_table.set_defaults(func=cmd_winnability_table)
    win_pack = win_sub.add_parser("pack", help="snapshot every results file in --dir as FILE.csv.xz (kept in git)")
    win_pack.add_argument("--dir", required=True, metavar="DIR", help="folder of the results files")
    win_pack.set_defaults(func=cmd_winnability_pack)

    srv = sub.add_parser("serve", help="start the web app and open the browser (the default)")
    srv.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    srv.add_argument("--port", type=int, help="port (default 8765, or the next free one)")
    srv.add_argument("--db", metavar="URL", help="database URL (default: an SQLite file in the user's data folder)")
    srv.add_argument("--no-browser", action="store_true", help="do not open a browser")
    srv.set_defaults(func=cmd_serve)

    st = sub.add_parser("stats", help="a player's statistics; export, import or reset records")
    st.add_argument("--db", metavar="URL", help="database URL (default: the app's SQLite file)")
    st.add_argument("--player", metavar="ID", help="player id (needed when the database has several)")
    st.add_argument("--json", action="store_true", help="print the statistics as JSON")
    st.add_argument("--export", dest="export_file", metavar="FILE", help="write the records as JSON (- for stdout)")
    st.add_argument("--import", dest="import_file", metavar="FILE", help="add the games of an export file")
    st.add_argument("--reset", action="store_true", help="start the statistics afresh (games stay)")
    st.set_defaults(func=cmd_stats)

    pl = sub.add_parser("play", help="play in the terminal")
    _add_deal_options(pl)
    pl.set_defaults(func=cmd_play)
    for child in (deal, rep, sol, stu, win, win_run, win_table, win_pack, pl, srv, st):
        child.add_argument("--lang", choices=("ja", "en"), default=argparse.SUPPRESS,
                           help="language of messages")
    return parser


def _commands(parser: argparse.ArgumentParser) -> set[str]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return set(action.choices)
    return set()


#: Options whose value may start with "-" (a player id such as -FaWK2G…): argparse would take the value
#: for an option of its own, so ``--player -abc`` is passed to it as ``--player=-abc``.
VALUE_OPTIONS = frozenset({"--player"})


def _joined(words: list[str], options: frozenset[str]) -> list[str]:
    """``words`` with each of ``options`` joined to the word after it (``--player``, ``-x`` →
    ``--player=-x``)."""
    out: list[str] = []
    index = 0
    while index < len(words):
        word = words[index]
        if word in options and index + 1 < len(words):
            out.append(f"{word}={words[index + 1]}")
            index += 2
            continue
        out.append(word)
        index += 1
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the exit status."""
    parser = build_parser()
    words = list(argv if argv is not None else sys.argv[1:])
    commands = _commands(parser)
    if not any(word in commands for word in words) and not {"-h", "--help"} & set(words):
        # No command: serve, with whatever options were given (``pyramid-solitaire --port 8000``).
        words = ["serve", *words]
    args = parser.parse_args(_joined(words, VALUE_OPTIONS))
    try:
        status: int = args.func(args)
        sys.stdout.flush()  # here, not at exit, so a reader that went away is caught below
        return status
    except (DealError, RulesError, RecordError, MoveError, UsageError) as exc:
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:
        # The reader went away (``... | head -1``): stop quietly, as cat and grep do.  Point stdout at
        # /dev/null so the interpreter's final flush does not raise the same error again at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_BROKEN_PIPE


def entry() -> None:
    """Console-script wrapper that exits with :func:`main`'s status."""
    sys.exit(main())


if __name__ == "__main__":
    entry()

"""The ``pyramid-solitaire`` command: serve (the default: the web app), play, deal, daily, replay, solve,
study, winnability, stats.

Bad input (notation, codes, moves, records, rule sets) prints one line naming the problem and exits 2.
The long-running ``study`` and ``winnability`` commands are in :mod:`.cli_study`, ``stats`` (a
player's records) in :mod:`.cli_stats`.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import secrets
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence

from .cli_common import EXIT_BAD_INPUT, EXIT_BROKEN_PIPE, EXIT_INTERRUPTED, EXIT_REFUSED, PROG, UsageError
from .cli_stats import add_stats_parser
from .cli_study import add_study_parser, add_winnability_parser
from .daily import DEFAULT_TIMEZONE, MAIN_RULES, PAR_SECONDS
from .deal import MAX_NUMBER, CodeError, Deal, DealError, parse_deal
from .game import Game
from .messages import DEFAULT_LANG, LANGS, Problem, file_problem, speak_argparse, text
from .record import read_record, replay
from .rule_strings import find_rules
from .terminal import play, render


def _one_deal_source(args: argparse.Namespace) -> None:
    """A UsageError when the arguments name a deal more than one way (a code and --number, say): which was meant?"""
    given = [
        name
        for name, present in (
            ("CODE", args.code is not None),
            ("--deal", args.deal is not None),
            ("--number", args.number is not None),
            ("--random", args.random),
            ("--deals-file", getattr(args, "deals_file", None) is not None),
        )
        if present
    ]
    if len(given) > 1:
        raise UsageError("cli.deal-sources", given=" / ".join(given))


def _deal_from_args(args: argparse.Namespace) -> Deal:
    _one_deal_source(args)
    rules = find_rules(args.rules) if args.rules else None
    if args.deal is not None:
        return Deal.from_notation(args.deal, rules or "classic")
    if args.code is not None:  # (an empty one too: a bad code, not a random deal)
        deal = Deal.from_code(args.code)  # a code only: text that is no code is a bad code, not notation
        if rules is not None and rules != deal.rules:
            raise CodeError("code.other-rules", code=args.code.strip(), rules=str(deal.rules), asked=str(rules))
        return deal
    number = args.number if args.number is not None else secrets.randbelow(MAX_NUMBER + 1)
    return Deal.from_number(number, rules or "classic")


def _add_deal_options(parser: argparse.ArgumentParser, h: Callable[..., str]) -> None:
    parser.add_argument("code", nargs="?", help=h("code"))
    parser.add_argument("--deal", metavar="NOTATION", help=h("deal-notation"))
    parser.add_argument("--number", type=int, help=h("number"))
    parser.add_argument("--random", action="store_true", help=h("random"))
    parser.add_argument("--rules", metavar="R", help=h("rules"))


def _labelled_deal(args: argparse.Namespace) -> Deal:
    """The deal of the arguments, labelled for what it is: a code's E or N stays only for a verified deal."""
    from .catalog import earned

    return earned(_deal_from_args(args))


def cmd_deal(args: argparse.Namespace) -> int:
    """Print a deal's layout, or its code, rules and notation as JSON."""
    deal = _labelled_deal(args)
    if args.json:
        print(
            json.dumps(
                {
                    "code": deal.code,
                    "full_code": deal.full_code,
                    "rules": str(deal.rules),
                    "number": deal.number,
                    "notation": deal.notation,
                },
                ensure_ascii=False,
            )
        )
        return 0
    game = Game(deal)
    print(render(game, args.lang))
    print(deal.notation)
    return 0


def _read_text(path: str) -> str:
    """A text file's contents; a UsageError naming the file and what is wrong."""
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError("cli.file", problem=file_problem("read", path, exc)) from None


def cmd_replay(args: argparse.Namespace) -> int:
    """Replay a record and print the final position."""
    record = sys.stdin.read() if args.file in (None, "-") else _read_text(args.file)
    result = replay(read_record(record))
    game = result.game
    summary: dict[str, object] = {**game.summary()}
    if result.refusal is not None:
        summary["error"] = {**result.refusal.to_json(args.lang), "entry": result.failed_at, "move": result.failed_entry}
    if args.json:
        print(json.dumps(summary, ensure_ascii=False))
    else:
        print(render(game, args.lang))
        if result.refusal is not None:
            print(
                text(
                    args.lang,
                    "cli.replay.refused",
                    entry=result.failed_at,
                    move=result.failed_entry,
                    reason=result.refusal.message(args.lang),
                )
            )
    return EXIT_REFUSED if result.refusal is not None else 0


def _solve_inputs(args: argparse.Namespace) -> list[Deal]:
    _one_deal_source(args)
    if args.deals_file is None:
        return [_deal_from_args(args)]
    lines = _read_text(args.deals_file).splitlines()
    rules = find_rules(args.rules) if args.rules else None
    deals = []
    for number, line in enumerate(lines, start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            deals.append(parse_deal(line, rules))
        except DealError as exc:
            raise UsageError("cli.deals-file.line", path=args.deals_file, line=number, problem=exc) from None
    return deals


def cmd_solve(args: argparse.Namespace) -> int:
    """Solve deals: verdict, solution (shortest with --shortest), best reachable."""
    from .solver import solve

    if args.time_limit is not None and not (args.time_limit > 0 and math.isfinite(args.time_limit)):  # nan, inf
        raise UsageError("cli.time-limit")
    for deal in _solve_inputs(args):
        result = solve(deal, shortest=args.shortest, time_limit=args.time_limit)
        if args.jsonl:
            print(json.dumps(result.to_json(), ensure_ascii=False), flush=True)
            continue
        said = {True: "cli.solve.winnable", False: "cli.solve.lost", None: "cli.solve.unknown"}[result.winnable]
        if args.shortest and result.winnable and not result.shortest:
            said = "cli.solve.winnable-not-fewest"  # the time ran out in the shortest search, after a win
        verdict = text(args.lang, said)
        print(
            text(
                args.lang,
                "cli.solve.line",
                code=deal.code,
                verdict=verdict,
                best=result.max_pyramid_removed,
                board=deal.rules.board_size,
                seconds=f"{result.seconds:.3f}",
                nodes=result.nodes,
            )
        )
        if result.solution is not None:
            print(
                text(
                    args.lang,
                    "cli.solve.steps",
                    n=len(result.solution),
                    moves="; ".join(str(m) for m in result.solution),
                )
            )
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


def cmd_daily(args: argparse.Namespace) -> int:
    """Print a day's daily deal (and, with ``--par``, its par)."""
    from .daily import compute_par, daily_deal, parse_day, today

    day = parse_day(args.date) if args.date else today(args.timezone)
    deal = daily_deal(args.rules, day)
    par = compute_par(deal) if args.par else None
    if args.json:
        status = "not-computed" if par is None else "known" if par.known else "unknown"
        found = {"date": day.isoformat(), "rules": args.rules, "code": deal.code, "par": par and par.moves}
        print(json.dumps({**found, "par_status": status}))
        return 0
    line = text(args.lang, "cli.daily.line", date=day.isoformat(), rules=args.rules, code=deal.code)
    if par is not None:
        said = text(args.lang, "cli.daily.par", moves=par.moves) if par.known else None
        line += "  " + (said or text(args.lang, "cli.daily.par-unknown"))
    print(line)
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    """Start the web app and open the browser."""
    from .daily import TIMEZONE_VARIABLE, timezone
    from .web.server import ServeError, serve

    # given empty, it is refused as the daily command refuses it, not taken for the default
    zone = args.timezone if args.timezone is not None else os.environ.get(TIMEZONE_VARIABLE) or DEFAULT_TIMEZONE
    timezone(zone)  # a bad name stops the start with one line
    os.environ[TIMEZONE_VARIABLE] = zone  # every app process of this server reads it

    try:
        serve(args.host, args.port, args.db, browser=not args.no_browser, lang=args.lang, workers=args.workers)
    except ServeError as exc:
        raise UsageError("cli.serve", problem=exc) from None
    except KeyboardInterrupt:
        pass
    return 0


def build_parser(lang: str = DEFAULT_LANG) -> argparse.ArgumentParser:
    """The argument parser (its help, in ``lang``, is the command's reference)."""

    def h(key: str, **values: object) -> str:
        return text(lang, f"cli.help.{key}", **values)

    parser = argparse.ArgumentParser(prog=PROG, description=h("description"))
    parser.add_argument("--lang", choices=LANGS, default=lang, help=h("lang"))
    sub = parser.add_subparsers(dest="command", title=h("commands"))
    children = [
        *_add_deal_parser(sub, h),
        *_add_replay_parser(sub, h),
        *_add_solve_parser(sub, h),
        *add_study_parser(sub, h),
        *add_winnability_parser(sub, h),
        *_add_serve_parser(sub, h),
        *add_stats_parser(sub, h),
        *_add_play_parser(sub, h),
        *_add_daily_parser(sub, h),
    ]
    for child in children:
        child.add_argument("--lang", choices=LANGS, default=argparse.SUPPRESS, help=h("lang"))
    return parser


def _add_deal_parser(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], h: Callable[..., str]
) -> list[argparse.ArgumentParser]:
    deal = sub.add_parser("deal", help=h("deal"), description=h("deal"))
    _add_deal_options(deal, h)
    deal.add_argument("--json", action="store_true", help=h("deal-json"))
    deal.set_defaults(func=cmd_deal)
    return [deal]


def _add_replay_parser(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], h: Callable[..., str]
) -> list[argparse.ArgumentParser]:
    rep = sub.add_parser("replay", help=h("replay"), description=h("replay"))
    rep.add_argument("file", nargs="?", help=h("replay-file"))
    rep.add_argument("--json", action="store_true", help=h("replay-json"))
    rep.set_defaults(func=cmd_replay)
    return [rep]


def _add_solve_parser(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], h: Callable[..., str]
) -> list[argparse.ArgumentParser]:
    sol = sub.add_parser("solve", help=h("solve"), description=h("solve"))
    _add_deal_options(sol, h)
    sol.add_argument("--deals-file", metavar="FILE", help=h("deals-file"))
    sol.add_argument("--shortest", action="store_true", help=h("shortest"))
    sol.add_argument("--time-limit", type=float, metavar="S", help=h("time-limit"))
    sol.add_argument("--jsonl", action="store_true", help=h("jsonl"))
    sol.set_defaults(func=cmd_solve)
    return [sol]


def _add_serve_parser(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], h: Callable[..., str]
) -> list[argparse.ArgumentParser]:
    srv = sub.add_parser("serve", help=h("serve"), description=h("serve"))
    srv.add_argument("--host", default="127.0.0.1", help=h("host"))
    srv.add_argument("--port", type=int, help=h("port"))
    srv.add_argument("--db", metavar="URL", help=h("db"))
    srv.add_argument("--no-browser", action="store_true", help=h("no-browser"))
    srv.add_argument("--timezone", metavar="ZONE", help=h("timezone-serve"))
    srv.add_argument("--workers", type=int, default=1, metavar="N", help=h("serve-workers"))
    srv.set_defaults(func=cmd_serve)
    return [srv]


def _add_play_parser(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], h: Callable[..., str]
) -> list[argparse.ArgumentParser]:
    pl = sub.add_parser("play", help=h("play"), description=h("play"))
    _add_deal_options(pl, h)
    pl.set_defaults(func=cmd_play)
    return [pl]


def _add_daily_parser(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], h: Callable[..., str]
) -> list[argparse.ArgumentParser]:
    daily = sub.add_parser("daily", help=h("daily"), description=h("daily"))
    daily.add_argument("--rules", type=str.lower, choices=MAIN_RULES, default=MAIN_RULES[0], help=h("daily-rules"))
    daily.add_argument("--date", metavar="YYYY-MM-DD", help=h("daily-date"))
    daily.add_argument("--timezone", metavar="ZONE", default=DEFAULT_TIMEZONE, help=h("timezone"))
    daily.add_argument("--json", action="store_true", help=h("daily-json"))
    daily.add_argument("--par", action="store_true", help=h("daily-par", seconds=round(PAR_SECONDS)))
    daily.set_defaults(func=cmd_daily)
    return [daily]


def _commands(parser: argparse.ArgumentParser) -> set[str]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return set(action.choices)
    return set()


#: Options whose value may start with "-" (a player id such as -FaWK2G…): argparse would take the value
#: for an option of its own, so ``--player -abc`` is passed to it as ``--player=-abc``.
VALUE_OPTIONS = frozenset({"--player"})


def _first_word(words: list[str]) -> str | None:
    """The first of ``words`` past ``--lang X`` (the one option before a command), unless it is an option."""
    index = 0
    while index < len(words) and (words[index] == "--lang" or words[index].startswith("--lang=")):
        index += 2 if words[index] == "--lang" else 1
    if index < len(words) and not words[index].startswith("-"):
        return words[index]
    return None


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


def _lang_of(words: list[str], environ: Mapping[str, str] | None = None) -> str:
    """The language asked for with ``--lang X`` or ``--lang=X`` anywhere on the line, else the locale's
    (:func:`locale_lang`), known before the parser is built, so that its help and its errors are in that
    language too."""
    for index, word in enumerate(words):
        value = (
            word.split("=", 1)[1]
            if word.startswith("--lang=")
            else words[index + 1]
            if word == "--lang" and index + 1 < len(words)
            else None
        )
        if value in LANGS:
            return value
    return locale_lang(os.environ if environ is None else environ)


def locale_lang(environ: Mapping[str, str]) -> str:
    """The language of the terminal's locale, for a command given no ``--lang``: the first of ``LC_ALL``,
    ``LC_MESSAGES`` and ``LANG`` that is set (the order POSIX reads them in) names it.  Japanese for a
    Japanese locale and for none at all (``C``, ``POSIX``, nothing set: a container's or a server's),
    as the game is Japanese first; English for every other language, which a person reading neither
    is likelier to read than Japanese."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name, "")
        if value:
            language = value.split(".", 1)[0].split("_", 1)[0].lower()
            return DEFAULT_LANG if language in ("ja", "c", "posix") else "en"
    return DEFAULT_LANG


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the exit status."""
    words = list(argv if argv is not None else sys.argv[1:])
    lang = _lang_of(words)
    speak_argparse(lang)
    parser = build_parser(lang)
    commands = _commands(parser)
    if not any(word in commands for word in words) and not {"-h", "--help"} & set(words):
        # No command: serve, with whatever options were given (``pyramid-solitaire --port 8000``); but a
        # first word that is no option was meant as a command (``pyramid-solitaire slove``), and serve's
        # "unrecognized arguments" would not say so.
        first = _first_word(words)
        if first is not None:
            parser.error(text(lang, "cli.unknown-command", word=first, commands=", ".join(sorted(commands))))
        words = ["serve", *words]
    args = parser.parse_args(_joined(words, VALUE_OPTIONS))
    try:
        status: int = args.func(args)
        sys.stdout.flush()  # here, not at exit, so a reader that went away is caught below
        return status
    except Problem as exc:  # bad input of any kind: deals, codes, rules, records, moves, files, studies
        print(f"{PROG}: " + text(args.lang, "cli.error", problem=exc.message(args.lang)), file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        # Ctrl-C at play's prompt, during a long solve or a replay reading standard input: one line, as a
        # study says it, not the traceback of wherever it struck (a study prints its own, with its file).
        print(f"{PROG}: " + text(args.lang, "cli.stopped"), file=sys.stderr)
        return EXIT_INTERRUPTED
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

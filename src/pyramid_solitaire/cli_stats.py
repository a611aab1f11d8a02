"""The ``stats`` command of ``pyramid-solitaire``: a player's statistics from the store, printed as a table
or JSON, and their records exported, imported or reset.
"""

from __future__ import annotations

import argparse
import json
import os
import unicodedata
from collections.abc import Callable

from .cli_common import UsageError
from .messages import file_problem, text
from .stats import StatsShown


def _stats_table(stats: list[StatsShown], lang: str) -> str:
    """The statistics as a text table (the same numbers as the page's)."""
    heads = text(lang, "cli.stats.heads").split("|")

    def shown(value: object, suffix: str = "") -> str:
        return "-" if value is None else f"{value}{suffix}"

    rows = [
        [
            s["rules"],
            s["difficulty"],
            str(s["played"]),
            str(s["won"]),
            "-" if s["win_rate"] is None else f"{round(100 * s['win_rate'])}%",
            str(s["streak"]),
            str(s["best_streak"]),
            shown(s["average_seconds"], "s"),
            shown(s["best_seconds"], "s"),
            shown(s["average_moves"]),
            shown(s["best_moves"]),
            str(s["undos"]),
            str(s["hints"]),
        ]
        for s in stats
    ]
    widths = [max(_width(r[i]) for r in [heads, *rows]) for i in range(len(heads))]
    return "\n".join(
        "  ".join(cell + " " * (w - _width(cell)) for cell, w in zip(row, widths, strict=True)).rstrip()
        for row in [heads, *rows]
    )


def _width(text: str) -> int:
    """Columns a text takes in a terminal (wide East Asian characters take two)."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _read_import(path: str) -> object:
    """The JSON of a records file to import; a UsageError naming the file and the problem."""
    try:
        with open(path, encoding="utf-8") as handle:
            return json.loads(handle.read())
    # unreadable, not UTF-8, bad JSON, numbers past int()'s digit limit, deep nesting
    except (OSError, ValueError, RecursionError) as exc:
        raise UsageError("cli.file", problem=file_problem("read", path, exc)) from None


def _missing_file(url: str) -> str | None:
    """The file of a ``sqlite:///`` URL when there is none there yet (opening it would create it), else None."""
    from .store.urls import sqlite_file

    path = sqlite_file(url)
    return path if path is not None and not os.path.exists(path) else None


def _no_records(args: argparse.Namespace) -> int:
    """What ``stats`` answers where there are no records: nothing to show (0), nothing to export (an error)."""
    if args.export_file:
        raise UsageError("cli.stats.nothing-to-export", path=args.export_file)
    print("[]" if args.json else text(args.lang, "cli.stats.empty"))
    return 0


def cmd_stats(args: argparse.Namespace) -> int:
    """Print a player's statistics; export, import or reset their records."""
    from .store import Store, StoreError
    from .store.stats import compute
    from .web.server import default_db_url
    from .web.transfer import RecordsImportError, check_records, export_records, import_records

    url = default_db_url() if args.db is None else args.db  # given empty, it is named as no URL, not the default
    # the file to import is read and checked first: a bad one fails before any database is opened (or made)
    data = _read_import(args.import_file) if args.import_file else None
    if data is not None:
        try:
            check_records(data, args.player or "-")
        except RecordsImportError as exc:
            raise UsageError("cli.stats.import", path=args.import_file, problem=exc) from None
    missing = _missing_file(url)
    if missing is not None and (data is None or args.player is not None):
        # nothing there to show, export or reset, nor a player to import into: say so rather than create an
        # empty database there (a path given, or a player named, is more likely mistyped than a fresh install)
        if args.db is not None or args.player is not None:
            raise UsageError("cli.stats.no-db", path=missing)
        return _no_records(args)
    try:
        store = Store(url)
    except StoreError as exc:
        raise UsageError("cli.store", problem=exc) from None
    known = store.players()
    player = args.player
    if player is None and data is not None and not known:
        player = store.new_player()  # a fresh install: the imported games become its first player's
    elif player is None and data is not None and len(known) > 1:
        raise UsageError("cli.stats.several-players")
    if player is None:
        if not known:
            return _no_records(args)
        if len(known) > 1:
            if args.export_file or args.reset or args.json:  # each needs the one player
                raise UsageError("cli.stats.several-players-for", n=len(known))
            for entry in known:
                key = "cli.stats.player.one" if entry["games"] == 1 else "cli.stats.player"
                print(text(args.lang, key, id=entry["id"], name=entry["name"] or "-", games=entry["games"]))
            print(text(args.lang, "cli.stats.choose"))
            return 0
        player = known[0]["id"]
    if store.player(player) is None:
        raise UsageError("cli.stats.no-player", player=player, db=store.shown_url)
    if args.import_file:
        try:
            added, already = import_records(store, player, data)
        except RecordsImportError as exc:
            raise UsageError("cli.stats.import", path=args.import_file, problem=exc) from None
        key = "cli.stats.imported-already" if already else "cli.stats.imported"
        print(text(args.lang, f"{key}.one" if added == 1 else key, n=added, already=already))
    if args.export_file:
        records = json.dumps(export_records(store, player), ensure_ascii=False)
        if args.export_file == "-":
            print(records)
        else:
            try:
                with open(args.export_file, "w", encoding="utf-8") as handle:
                    handle.write(records)
            except OSError as exc:
                raise UsageError("cli.file", problem=file_problem("write", args.export_file, exc)) from None
    if args.reset:
        store.reset_stats(player)
    stats = [s.to_json() for s in compute(store.finished_games(player))]
    if args.json:
        print(json.dumps(stats, ensure_ascii=False))
    elif args.export_file != "-":
        empty = "cli.stats.reset" if args.reset else "cli.stats.empty"  # the games stay: "no records" was untrue
        print(_stats_table(stats, args.lang) if stats else text(args.lang, empty))
    return 0


def add_stats_parser(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], h: Callable[..., str]
) -> list[argparse.ArgumentParser]:
    """Add ``stats`` to the command's subcommands (``h``: the help in the chosen language); return its parser."""
    st = sub.add_parser("stats", help=h("stats"), description=h("stats"))
    st.add_argument("--db", metavar="URL", help=h("stats-db"))
    st.add_argument("--player", metavar="ID", help=h("player"))
    st.add_argument("--json", action="store_true", help=h("stats-json"))
    st.add_argument("--export", dest="export_file", metavar="FILE", help=h("export"))
    st.add_argument("--import", dest="import_file", metavar="FILE", help=h("import"))
    st.add_argument("--reset", action="store_true", help=h("reset"))
    st.set_defaults(func=cmd_stats)
    return [st]

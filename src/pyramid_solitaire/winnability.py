"""The winnability table (issue 6, ``docs/winnability.md``): a fixed plan of studies, run resumably, and
the Markdown table written from their results files.

**The plan** (:func:`default_plan`) is data: six headline rule sets of :data:`HEADLINE_TARGET` deals
each, the other games of the family (issue 8) of :data:`FAMILY_TARGET` each, then the grid over
``classic`` — passes × overlap × win condition × stock model — of :data:`GRID_TARGET` deals each.
Every row is one study of deals ``0 .. target-1`` of the documented
shuffle into its own results file in one folder, named by :func:`file_name` after the rule set's
canonical string.  A grid cell that plays exactly as a headline rule set (:func:`plays_the_same`:
equal options but for the preset's name, and the same deals) takes its figures from that rule set's
file instead of solving the same deals again: ``classic`` itself, and ``classic(stock_top=true)``,
which is ``msc``.

**Running** (:func:`run_plan`) goes through the rows in order, each up to its target or ``upto``
deals, and skips rows already done; every study resumes its file (:func:`.study.run_study`), so the
plan can be stopped at any moment and continued over many sessions.

**The table** (:func:`render_table`) is computed from the results files alone: for each row, the
deals ``0 .. n-1`` done without a gap (up to the target), their verdicts, the win rate with its 95%
Wilson interval and the seconds per deal; rows short of their target say so.

**The consistency check** (:func:`check_consistency`, shown on the page) compares the files with each
other.  Where one rule set allows every line of another and its goal is no harder
(:func:`at_least_as_free`: more passes, overlap pairs, a usable stock card, triples, free cells, more
waste uses, the pyramid alone to clear, on the same deals), it must win every deal the other wins, and
its best count can be no lower.  The files were solved one by one, so this checks the solver
against itself over hundreds of thousands of deals, at no cost; two files of the same game solved
apart (``overlap`` and ``classic(overlap=true)``) must agree deal for deal.
"""

from __future__ import annotations

import dataclasses
import platform
import re
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from itertools import product
from pathlib import Path
from typing import Final, TextIO

from . import __version__
from .deal import Deal
from .messages import text
from .rules import Rules, RulesError, find_rules
from .study import (
    DEFAULT_TIME_LIMIT,
    UNKNOWN,
    WON,
    ResultsFile,
    Row,
    StudyError,
    Summary,
    check_dask_address,
    percentile,
    run_study,
)

#: The headline rule sets, in the table's order, and the deals each must reach.
HEADLINE_RULES: Final = ("classic", "pyramide", "msc", "thirteen", "thirteen(jokers=2)", "thirteen(triples=true)")
HEADLINE_TARGET: Final = 100_000
#: The seeds' other rule sets and the other Pyramid games of the references (issue 8).  ``traditional``
#: is seed 002's strictest rules, of which it says "about 1 in 50" are won; ``relaxed`` its relaxed win.
FAMILY_RULES: Final = (
    "traditional",
    "relaxed",
    "tuts_tomb",
    "spanish",
    "fourteen",
    "overlap",
    "six_rows",
    "giza",
    "reserve",
    "triangle",
    "apophis",
    "limited_waste",
    "cells",
)
FAMILY_TARGET: Final = 20_000
#: The grid: ``GRID_BASE`` with every combination of these options, in this order (the last varies fastest).
GRID_BASE: Final = "classic"
GRID_PASSES: Final = (1, 3, None)
GRID_OVERLAP: Final = (False, True)
GRID_STRICT: Final = (False, True)
GRID_STOCK_TOP: Final = (False, True)
GRID_TARGET: Final = 20_000
#: Deal numbers whose cards two rule sets must share for one to use the other's results file.
SAME_PLAY_DEALS: Final = (0, 1, 2, 3, 4)
#: Share of deals at or under the second figure of the seconds column.
P90: Final = 0.9
#: Unknown deals listed by number for one rule set; the rest are counted.
UNKNOWN_SHOWN: Final = 100
RESULTS_SUFFIX: Final = ".csv"
#: ``classic(passes=1,strict=true)`` → ``classic-passes-1-strict-true``: each bracket, comma and ``=``
#: becomes ``-`` and the closing bracket goes (option keys and values never hold a ``-``).
_NAME_MAP: Final = str.maketrans({"(": "-", ",": "-", "=": "-", ")": None})
_SAFE_NAME_RE: Final = re.compile(r"^[a-z0-9_-]+$")
DEFAULT_DOC: Final = "docs/winnability.md"
HEADLINE, FAMILY, GRID = "headline", "family", "grid"


class WinnabilityError(StudyError):
    """A plan that cannot run or be read as asked: no such folder, a bad ``upto``, a results file of
    the wrong rule set in the folder.  Its message is the catalogue's ``winnability.*`` key (or a
    ``study.*`` one where the check is a study's)."""


# --- the plan ----------------------------------------------------------------------------------------


def file_name(rules: Rules | str) -> str:
    """The results file of ``rules`` in the plan's folder: the canonical rule-set string made safe for
    any filesystem (``classic.csv``, ``thirteen-jokers-2.csv``, ``classic-passes-1-strict-true.csv``)."""
    name = str(find_rules(rules)).translate(_NAME_MAP)
    if not _SAFE_NAME_RE.match(name):  # pragma: no cover - every option key and value is [a-z0-9_]
        raise WinnabilityError("winnability.file-name", rules=str(rules))
    return name + RESULTS_SUFFIX


def plays_the_same(a: Rules, b: Rules) -> bool:
    """True if ``a`` and ``b`` are the same game: every option equal but the preset's name and the
    drawing-only ``inverted`` (which the engine and solver never read: Triangle is the pyramid's cover
    graph drawn upside down), and the same cards for the deals :data:`SAME_PLAY_DEALS`.  Their
    results files then agree in every column the table uses (verdicts and solver figures); only the
    ``difficulty`` rating differs, its random games being seeded with the rule-set string."""
    try:
        same_options = dataclasses.replace(a, preset=b.preset, inverted=b.inverted) == b
    except RulesError:  # pragma: no cover - changing only the name breaks no rule of Rules
        return False
    return same_options and _same_deals(a, b)


def _same_deals(a: Rules, b: Rules) -> bool:
    """True if ``a`` and ``b`` deal the same cards for the deals :data:`SAME_PLAY_DEALS`."""
    return all(Deal.from_number(n, a).cards == Deal.from_number(n, b).cards for n in SAME_PLAY_DEALS)


def at_least_as_free(a: Rules, b: Rules) -> bool:
    """True if every line of play of ``a`` is one of ``b`` and ``b``'s goal is no harder, on the same
    deals: ``b`` has at least ``a``'s passes and waste uses (``None``: no limit), as many free cells,
    overlap pairs, a usable stock card and triples wherever ``a`` has them, and a strict goal only where
    ``a`` has one; every other option is equal (the preset's name and the drawing-only ``inverted``
    aside), and the two deal the same cards (:data:`SAME_PLAY_DEALS`).  True for ``a`` itself."""
    if not _at_least(a.passes, b.passes) or not _at_least(a.waste_uses, b.waste_uses) or b.cells < a.cells:
        return False
    if (b.strict and not a.strict) or any(getattr(a, name) and not getattr(b, name) for name in _ADDS_MOVES):
        return False
    try:
        freed = dataclasses.replace(
            b,
            preset=a.preset,
            inverted=a.inverted,
            passes=a.passes,
            strict=a.strict,
            cells=a.cells,
            waste_uses=a.waste_uses,
            **{name: getattr(a, name) for name in _ADDS_MOVES},
        )
    except RulesError:  # b's options with a's in their place break a rule of Rules: other games
        return False
    return freed == a and _same_deals(a, b)


#: the yes/no options that only add moves
_ADDS_MOVES: Final = ("overlap", "stock_top_usable", "triples")


def _at_least(limit: int | None, other: int | None) -> bool:
    """``other`` allows as much as ``limit`` (``None``: no limit)."""
    return other is None or (limit is not None and other >= limit)


@dataclass(frozen=True)
class PlanRow:
    """One row of the table: ``rules`` up to ``target`` deals.  ``source`` is the rule set whose results
    file holds its deals: ``rules`` itself, or a headline rule set that plays the same."""

    section: str
    rules: Rules
    target: int
    source: Rules
    #: True for a row that takes its deals from a headline row's file.
    reused: bool = False

    @property
    def file_name(self) -> str:
        """The results file the row reads (and, unless :attr:`reused`, writes)."""
        return file_name(self.source)

    def cell(self) -> str:
        """A grid cell in words: ``passes 1, overlap pairs, strict, stock card usable``."""
        return ", ".join([f"passes {_passes(self.rules)}", _overlap(self.rules), _win(self.rules), _stock(self.rules)])


def grid_rules(
    base: str = GRID_BASE,
    passes: Iterable[int | None] = GRID_PASSES,
    overlap: Iterable[bool] = GRID_OVERLAP,
    strict: Iterable[bool] = GRID_STRICT,
    stock_top: Iterable[bool] = GRID_STOCK_TOP,
) -> list[Rules]:
    """``base`` with every combination of the options, the last varying fastest."""
    rules = find_rules(base)
    return [
        rules.with_options(passes=p, overlap=o, strict=s, stock_top_usable=t)
        for p, o, s, t in product(passes, overlap, strict, stock_top)
    ]


def build_plan(
    headline: Sequence[Rules | str],
    grid: Sequence[Rules | str],
    *,
    headline_target: int = HEADLINE_TARGET,
    grid_target: int = GRID_TARGET,
    family: Sequence[Rules | str] = (),
    family_target: int = FAMILY_TARGET,
) -> tuple[PlanRow, ...]:
    """The plan: the headline rows, the family rows, then the grid rows, each family or grid row reusing
    the file of the first headline rule set that plays the same (checked with :func:`plays_the_same`)."""
    reusing = [target for rows, target in ((grid, grid_target), (family, family_target)) if rows]
    if headline and reusing and max(reusing) > headline_target:
        raise ValueError("a grid or family row reuses a headline file only up to the headline's target")
    rows = [PlanRow(HEADLINE, r, headline_target, r) for r in map(find_rules, headline)]
    for section, rule_sets, target in ((FAMILY, family, family_target), (GRID, grid, grid_target)):
        for rules in map(find_rules, rule_sets):
            same = next((row.rules for row in rows[: len(headline)] if plays_the_same(rules, row.rules)), None)
            rows.append(PlanRow(section, rules, target, same or rules, same is not None))
    return tuple(rows)


def default_plan() -> tuple[PlanRow, ...]:
    """Issue 6's plan: 6 headline rows of 100,000 deals, 24 grid rows of 20,000; and a row of 20,000 for
    each game of issue 8's family the engine plays."""
    return build_plan(HEADLINE_RULES, grid_rules(), family=FAMILY_RULES)


# --- running -----------------------------------------------------------------------------------------


def _folder(directory: Path | str) -> Path:
    path = Path(directory)
    if not path.is_dir():
        raise WinnabilityError("winnability.no-folder", path=str(path))
    return path


def _read_files(plan: Sequence[PlanRow], folder: Path) -> dict[str, dict[int, Row]]:
    """Every results file of the plan, by file name (empty when absent); raises for a file of the wrong
    rule set or of another format."""
    sources = {row.file_name: row.source for row in plan}
    return {name: ResultsFile(folder / name, rules).rows for name, rules in sources.items()}


def _say(stream: TextIO | None, line: str) -> None:
    if stream is not None:
        stream.write(line + "\n")
        stream.flush()


def run_plan(
    plan: Sequence[PlanRow],
    directory: Path | str,
    *,
    upto: int | None = None,
    workers: int | None = None,
    dask: str | None = None,
    time_limit: float = DEFAULT_TIME_LIMIT,
    progress: TextIO | None = None,
    retry_unknown: bool = False,
    lang: str = "en",
) -> list[tuple[PlanRow, int]]:
    """Run each row of ``plan`` in order — deals ``0 .. min(target, upto)-1`` into its results file in
    ``directory`` — skipping rows already done; return each row with the deals solved for it now.
    ``retry_unknown`` also solves again, once, the deals of those ranges a file has as unknown.
    ``progress`` is where each row's progress is shown, in ``lang``.

    Every file is read and checked before anything is solved; bad input raises :class:`StudyError`.
    A ``KeyboardInterrupt`` stops the run with every finished deal saved (rerun to resume)."""
    folder = _folder(directory)
    if upto is not None and upto <= 0:
        raise WinnabilityError("winnability.upto", upto=upto)
    if workers is not None and dask is not None:
        raise WinnabilityError("study.workers-and-dask")
    if workers is not None and workers < 1:
        raise WinnabilityError("study.workers", workers=workers)
    if dask is not None:
        check_dask_address(dask)
    if not time_limit > 0:
        raise WinnabilityError("study.time-limit", limit=time_limit)
    files = _read_files(plan, folder)
    done = {name: set(rows) for name, rows in files.items()}
    unknown = {
        name: {n for n, r in rows.items() if r.verdict == UNKNOWN} if retry_unknown else set()
        for name, rows in files.items()
    }
    solved: list[tuple[PlanRow, int]] = []
    for row in plan:
        deals = row.target if upto is None else min(row.target, upto)
        if done[row.file_name].issuperset(range(deals)) and not unknown[row.file_name] & set(range(deals)):
            if row.reused:
                said = text(lang, "winnability.done-in", rules=str(row.rules), last=deals - 1, file=row.file_name)
            else:
                said = text(lang, "winnability.done", rules=str(row.rules), last=deals - 1)
            _say(progress, said)
            solved.append((row, 0))
            continue
        summary = run_study(
            row.source,
            folder / row.file_name,
            deals=deals,
            workers=workers,
            dask=dask,
            time_limit=time_limit,
            progress=progress,
            retry_unknown=retry_unknown,
            lang=lang,
        )
        done[row.file_name].update(range(deals))
        unknown[row.file_name].difference_update(range(deals))  # retried once in this run
        solved.append((row, summary.solved))
    return solved


def pack_plan(plan: Sequence[PlanRow], directory: Path | str) -> list[tuple[str, int, int]]:
    """Write the xz archive of every results file of ``plan`` in ``directory`` that holds rows
    (:meth:`.study.ResultsFile.pack`: ``classic.csv.xz`` beside ``classic.csv``); return each archive's
    name, rows and bytes.  The archives are what the repository keeps of the runs: a fresh clone's
    table is computed from them, and its runs resume from them.  Packing while a run writes is safe: it
    only reads the CSV files (a line being written is left for the next pack) and replaces archives,
    which a run reads only when it starts a rule set."""
    folder = _folder(directory)
    sources = {row.file_name: row.source for row in plan}
    packed = []
    for name, rules in sources.items():
        results = ResultsFile(folder / name, rules)
        if results.rows:
            packed.append((results.archive.name, len(results.rows), results.pack()))
    return packed


# --- the table ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RowStatus:
    """Where a row stands: deals ``0 .. done-1`` are in its file without a gap; ``summary`` counts them."""

    row: PlanRow
    done: int
    summary: Summary | None
    unknown: tuple[int, ...]
    started: bool

    @property
    def complete(self) -> bool:
        """True when the row has reached its target."""
        return self.done >= self.row.target


def plan_status(plan: Sequence[PlanRow], directory: Path | str) -> list[RowStatus]:
    """Each row's state, from its results file alone."""
    return _statuses(plan, _read_files(plan, _folder(directory)))


def _statuses(plan: Sequence[PlanRow], files: dict[str, dict[int, Row]]) -> list[RowStatus]:
    out = []
    for row in plan:
        rows = files[row.file_name]
        done = 0
        while done < row.target and done in rows:
            done += 1
        counted = [rows[n] for n in range(done)]
        summary = Summary.of(str(row.rules), 0, counted) if counted else None
        unknown = tuple(r.number for r in counted if r.verdict == UNKNOWN)
        out.append(RowStatus(row, done, summary, unknown, any(n < row.target for n in rows)))
    return out


@dataclass(frozen=True)
class Breach:
    """One deal that breaks the consistency check: ``freer`` allows every line of ``rules`` (see
    :func:`at_least_as_free`), yet does worse on deal ``number``."""

    rules: Rules
    freer: Rules
    number: int
    row: Row
    freer_row: Row

    def text(self) -> str:
        """The breach in words, for the page."""
        if self.row.verdict == WON and self.freer_row.verdict != WON:
            what = f"`{self.rules}` wins it and `{self.freer}` does not ({self.freer_row.verdict})"
        else:
            what = f"`{self.freer}` removes {self.freer_row.best} pyramid cards at best, `{self.rules}` {self.row.best}"
        return f"deal {self.number}: {what}"


@dataclass(frozen=True)
class Consistency:
    """What :func:`check_consistency` found: the ordered pairs of files it compared, the deals compared
    (decided in both files), and every breach."""

    pairs: int
    deals: int
    breaches: tuple[Breach, ...]


def check_consistency(plan: Sequence[PlanRow], directory: Path | str) -> Consistency:
    """Compare every pair of the plan's results files where one rule set is :func:`at_least_as_free` as
    the other: on each deal both decided, a win of the first must be a win of the second, and the
    second's best count no lower.  (Unknown deals are left out: their best is a lower bound.)"""
    return _consistency(plan, _read_files(plan, _folder(directory)))


def _consistency(plan: Sequence[PlanRow], files: dict[str, dict[int, Row]]) -> Consistency:
    sources = {row.file_name: row.source for row in plan}
    pairs = deals = 0
    breaches = []
    for name, rules in sources.items():
        for other, freer in sources.items():
            if other == name or not at_least_as_free(rules, freer):
                continue
            pairs += 1
            theirs = files[other]
            for number, row in sorted(files[name].items()):
                freer_row = theirs.get(number)
                if freer_row is None or UNKNOWN in (row.verdict, freer_row.verdict):
                    continue
                deals += 1
                if (row.verdict == WON and freer_row.verdict != WON) or freer_row.best < row.best:
                    breaches.append(Breach(rules, freer, number, row, freer_row))
    return Consistency(pairs, deals, tuple(breaches))


def _passes(rules: Rules) -> str:
    return "unlimited" if rules.passes is None else str(rules.passes)


def _overlap(rules: Rules) -> str:
    return "overlap pairs" if rules.overlap else "no overlap"


def _win(rules: Rules) -> str:
    return f"strict (all {rules.deck} cards)" if rules.strict else "relaxed (pyramid clear)"


def _stock(rules: Rules) -> str:
    return "stock card usable" if rules.stock_top_usable else "waste top only"


def _percent(share: float) -> str:
    return f"{100 * share:.2f}%"


def _figures(status: RowStatus) -> list[str]:
    """The columns after the row's name: deals, won, lost, unknown, rate, interval, seconds, file."""
    target = status.row.target
    if status.complete:
        deals = f"{target:,}"
    elif status.done or status.started:
        deals = f"{status.done:,} of {target:,} — in progress"
    else:
        deals = "not run yet"
    file_cell = f"`{status.row.file_name}`"
    summary = status.summary
    if summary is None:
        return [deals, "—", "—", "—", "—", "—", "—", file_cell]
    rate = "—" if summary.win_rate is None else _percent(summary.win_rate)
    interval = "—" if summary.interval is None else f"{_percent(summary.interval[0])}–{_percent(summary.interval[1])}"
    seconds = f"{statistics.median(summary.seconds):.3f} / {percentile(summary.seconds, P90):.3f}"
    return [deals, f"{summary.won:,}", f"{summary.lost:,}", f"{summary.unknown:,}", rate, interval, seconds, file_cell]


_FIGURE_HEADS: Final = [
    "deals",
    "won",
    "lost",
    "unknown",
    "win rate",
    "95% interval",
    "s per deal (median / p90)",
    "results file",
]


def _table(heads: list[str], rows: list[list[str]]) -> list[str]:
    return [
        "| " + " | ".join(heads) + " |",
        "|" + "---|" * len(heads),
        *("| " + " | ".join(cells) + " |" for cells in rows),
    ]


def render_table(
    plan: Sequence[PlanRow], directory: Path | str, *, written: str | None = None, solver: str | None = None
) -> str:
    """``docs/winnability.md``: the plan's figures as Markdown, computed from the results files in
    ``directory`` (``written``: the date shown, default today; ``solver``: the solver's state shown,
    default :func:`.native.state`)."""
    from . import native

    files = _read_files(plan, _folder(directory))
    statuses = _statuses(plan, files)
    written = written or date.today().isoformat()
    solver = solver or native.state()
    short = [s for s in statuses if not s.complete]
    headline = [s for s in statuses if s.row.section == HEADLINE]
    family = [s for s in statuses if s.row.section == FAMILY]
    grid = [s for s in statuses if s.row.section == GRID]
    lines = [
        "# Winnability: how often each rule set can be won",
        "",
        f"Written by `pyramid-solitaire winnability table` on {written} (pyramid-solitaire {__version__}, "
        f"Python {platform.python_version()}, solver {solver}) from the results files of "
        "`pyramid-solitaire winnability run`; every figure is computed from those files. Do not edit by hand: "
        "regenerate it.",
        "",
        "Each row counts deals 0 .. n-1 of the documented shuffle (docs/deals.md), n being the deals done "
        "from 0 without a gap, up to the row's target. Each deal has the exact solver's verdict: *won* (it "
        "found a win), *lost* (it searched every position), *unknown* (its time limit ran out). The win rate "
        "is won / (won + lost): unknown deals are left out of it, counted in their own column and listed "
        "below. The interval is the 95% Wilson score interval. Seconds per deal (solving, and rating won "
        "deals) are the median and the nearest-rank 90th percentile, as measured on the machines that ran "
        "the studies.",
        "",
    ]
    if short:
        lines.append(
            f"**Not finished: {len(short)} of {len(statuses)} rule sets are short of their target** "
            "(marked *in progress* or *not run yet* below); their figures are over the deals done so far."
        )
    else:
        lines.append(f"Every one of the {len(statuses)} rule sets has reached its target.")
    lines += [
        "",
        "## Regenerate",
        "",
        "```sh",
        f"pyramid-solitaire winnability run --dir {directory}      # resumable; --upto N, --workers K, --dask URL",
        f"pyramid-solitaire winnability table --dir {directory} --out {DEFAULT_DOC}",
        f"pyramid-solitaire winnability pack --dir {directory}     # the .csv.xz archives the repository keeps",
        "```",
        "",
        "The first solves what is missing (stop it at any time, run it again to continue); the second "
        "writes this page; the third snapshots every results file as `.csv.xz`. The repository holds "
        "those archives, so in a fresh clone the second command rewrites this page from them without "
        "solving a deal, and the first resumes where they end. See docs/study.md, *The winnability table*.",
    ]
    if headline:
        lines += ["", f"## Rule sets ({headline[0].row.target:,} deals each)", ""]
        lines += _table(["rule set", *_FIGURE_HEADS], [[f"`{s.row.rules}`", *_figures(s)] for s in headline])
    if family:
        lines += [
            "",
            f"## The seeds' other rule sets and the rest of the Pyramid family ({family[0].row.target:,} deals each)",
            "",
        ]
        lines += _table(["rule set", *_FIGURE_HEADS], [[f"`{s.row.rules}`", *_figures(s)] for s in family])
        reused = [s.row for s in family if s.row.reused]
        if reused:
            lines += [
                "",
                "Rule sets that play exactly as one above take their deals from its file (the first "
                f"{family[0].row.target:,} of them) rather than solving them again:",
                "",
            ]
            lines += [_family_reuse_note(row) for row in reused]
    if grid:
        lines += ["", f"## The grid over `{GRID_BASE}` ({grid[0].row.target:,} deals each)", ""]
        lines += _table(
            ["passes", "overlap", "win condition", "stock model", *_FIGURE_HEADS],
            [
                [_passes(s.row.rules), _overlap(s.row.rules), _win(s.row.rules), _stock(s.row.rules), *_figures(s)]
                for s in grid
            ],
        )
        reused = [s.row for s in grid if s.row.reused]
        if reused:
            lines += [
                "",
                "Cells that are a rule set above take their deals from its file (the first "
                f"{grid[0].row.target:,} of them) rather than solving them again:",
                "",
            ]
            lines += [_reuse_note(row) for row in reused]
    lines += ["", "## Consistency", ""]
    consistency = _consistency(plan, files)
    lines.append(
        "Where one rule set allows every line of play of another, with a goal no harder (more passes, "
        "overlap pairs, a usable stock card, triples, free cells, more waste uses, the pyramid alone to "
        "clear; the same deals), it must win every deal the other wins, and remove no fewer pyramid "
        "cards at best. The files were solved one by one, so this checks the solver against "
        f"itself: {consistency.pairs:,} such pairs of results files, {consistency.deals:,} deals decided "
        "in both compared."
    )
    lines.append("")
    if not consistency.breaches:
        lines.append("No deal breaks it.")
    else:
        count = len(consistency.breaches)
        lines.append(
            f"**{count:,} {'deal breaks' if count == 1 else 'deals break'} it** — a solver fault to "
            "find before trusting the figures above:"
        )
        lines.append("")
        lines += [f"- {breach.text()}" for breach in consistency.breaches[:UNKNOWN_SHOWN]]
        if len(consistency.breaches) > UNKNOWN_SHOWN:
            lines.append(f"- and {len(consistency.breaches) - UNKNOWN_SHOWN:,} more")
    lines += ["", "## Unknown deals", ""]
    unknown = [s for s in statuses if s.unknown]
    if not unknown:
        lines.append("None: the solver decided every deal counted above.")
    for status in unknown:
        shown = ", ".join(str(n) for n in status.unknown[:UNKNOWN_SHOWN])
        more = len(status.unknown) - UNKNOWN_SHOWN
        tail = f", and {more:,} more (see `{status.row.file_name}`)" if more > 0 else ""
        lines.append(f"- `{status.row.rules}` ({len(status.unknown):,}): {shown}{tail}")
    return "\n".join(lines) + "\n"


def _family_reuse_note(row: PlanRow) -> str:
    drawn = (
        " with the pyramid drawn upside down (only the drawing reads that)"
        if row.rules.inverted != row.source.inverted
        else ""
    )
    return (
        f"- `{row.rules}`: `{row.source}`'s options{drawn} under another preset name, so the same deals "
        f"and verdicts, in `{row.file_name}`."
    )


def _reuse_note(row: PlanRow) -> str:
    if row.rules == row.source:
        return f"- {row.cell()}: `{row.rules}` itself, in `{row.file_name}`."
    return (
        f"- {row.cell()}: `{row.rules}`, which plays exactly as `{row.source}` (the same options but the "
        f"preset's name, so the same deals and verdicts), in `{row.file_name}`."
    )


__all__ = [
    "FAMILY_RULES",
    "FAMILY_TARGET",
    "GRID_TARGET",
    "HEADLINE_RULES",
    "HEADLINE_TARGET",
    "Breach",
    "Consistency",
    "PlanRow",
    "RowStatus",
    "WinnabilityError",
    "at_least_as_free",
    "build_plan",
    "check_consistency",
    "default_plan",
    "file_name",
    "grid_rules",
    "pack_plan",
    "plan_status",
    "plays_the_same",
    "render_table",
    "run_plan",
]

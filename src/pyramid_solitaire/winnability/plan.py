"""The winnability plan (see the package's docstring and ``docs/study.md``): the rule sets of the table and
their targets as data (:func:`default_plan`), when one rule set may use another's results file
(:func:`plays_the_same`) or must do at least as well (:func:`at_least_as_free`), running the plan
resumably (:func:`run_plan`) and packing its files (:func:`pack_plan`), and what the table shows of
each row: its state (:func:`plan_status`) and the consistency check (:func:`check_consistency`).
The Markdown page itself is written by :mod:`.table`.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import product
from pathlib import Path
from typing import Final, TextIO

from ..deal import Deal
from ..messages import text
from ..rule_strings import find_rules
from ..rules import Rules, RulesError
from ..study import (
    DEFAULT_TIME_LIMIT,
    UNKNOWN,
    WON,
    ResultsFile,
    Row,
    StudyError,
    Summary,
    check_dask_address,
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
#: The one-pass rows whose win rates sat 2-3 standard errors above the published figures at 20,000
#: deals (issue 36; solitairewinrates.com's Pyramid page, 100 million deals each: 9.02 %, 6.80 %,
#: 22.77 %, 15.92 %), taken further to tell whether the difference stands.
ONE_PASS_RULES: Final = (
    "relaxed",
    "traditional",
    "classic(passes=1,overlap=true,stock_top=true)",
    "classic(passes=1,strict=true,overlap=true,stock_top=true)",
)
ONE_PASS_TARGET: Final = 100_000
#: Deal numbers whose cards two rule sets must share for one to use the other's results file.
SAME_PLAY_DEALS: Final = (0, 1, 2, 3, 4)
RESULTS_SUFFIX: Final = ".csv"
#: ``classic(passes=1,strict=true)`` → ``classic-passes-1-strict-true``: each bracket, comma and ``=``
#: becomes ``-`` and the closing bracket goes (option keys and values never hold a ``-``).
_NAME_MAP: Final = str.maketrans({"(": "-", ",": "-", "=": "-", ")": None})
_SAFE_NAME_RE: Final = re.compile(r"^[a-z0-9_-]+$")
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
    longer: Sequence[Rules | str] = (),
    longer_target: int = ONE_PASS_TARGET,
) -> tuple[PlanRow, ...]:
    """The plan: the headline rows, the family rows, then the grid rows, each family or grid row reusing
    the file of the first headline rule set that plays the same (checked with :func:`plays_the_same`).
    A family or grid row of ``longer`` goes to ``longer_target`` instead of its section's target."""
    longer_rules = {find_rules(rules) for rules in longer}
    reusing = [target for rows, target in ((grid, grid_target), (family, family_target)) if rows]
    if headline and reusing and max(reusing) > headline_target:
        raise ValueError("a grid or family row reuses a headline file only up to the headline's target")
    rows = [PlanRow(HEADLINE, r, headline_target, r) for r in map(find_rules, headline)]
    for section, rule_sets, target in ((FAMILY, family, family_target), (GRID, grid, grid_target)):
        for rules in map(find_rules, rule_sets):
            same = next((row.rules for row in rows[: len(headline)] if plays_the_same(rules, row.rules)), None)
            goal = longer_target if rules in longer_rules and same is None else target
            rows.append(PlanRow(section, rules, goal, same or rules, same is not None))
    return tuple(rows)


def default_plan() -> tuple[PlanRow, ...]:
    """Issue 6's plan: 6 headline rows of 100,000 deals, 24 grid rows of 20,000; and a row of 20,000 for
    each game of issue 8's family the engine plays; issue 36's four one-pass rows of 100,000."""
    return build_plan(HEADLINE_RULES, grid_rules(), family=FAMILY_RULES, longer=ONE_PASS_RULES)


# --- running -----------------------------------------------------------------------------------------


def _folder(directory: Path | str) -> Path:
    path = Path(directory)
    if path.exists() and not path.is_dir():
        raise WinnabilityError("winnability.not-folder", path=str(path))
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


# --- the rows' state and their consistency (what the table shows) --------------------------------


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

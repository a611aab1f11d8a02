"""The winnability page, ``docs/winnability.md``, written as Markdown from the plan's results files
alone (:func:`render_table`): for each row, the deals ``0 .. n-1`` done without a gap (up to the
target), their verdicts, the win rate with its 95% Wilson interval and the seconds per deal; rows
short of their target say so; then the consistency check and the unknown deals.
"""

from __future__ import annotations

import math
import platform
import statistics
from collections.abc import Sequence
from datetime import date
from pathlib import Path
from typing import Final

from .. import __version__
from ..study import percentile
from .plan import (
    FAMILY,
    GRID,
    GRID_BASE,
    HEADLINE,
    Consistency,
    PlanRow,
    RowStatus,
    _consistency,
    _folder,
    _overlap,
    _passes,
    _read_files,
    _statuses,
    _stock,
    _win,
)

#: Share of deals at or under the second figure of the seconds column.
P90: Final = 0.9
#: Unknown deals listed by number for one rule set; the rest are counted.
UNKNOWN_SHOWN: Final = 100
DEFAULT_DOC: Final = "docs/winnability.md"


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
    from .. import native

    files = _read_files(plan, _folder(directory))
    statuses = _statuses(plan, files)
    written = written or date.today().isoformat()
    solver = solver or native.state()
    lines = _heading(statuses, written, solver)
    lines += _regenerate(directory)
    lines += _headline_section([s for s in statuses if s.row.section == HEADLINE])
    lines += _family_section([s for s in statuses if s.row.section == FAMILY])
    lines += _grid_section([s for s in statuses if s.row.section == GRID])
    lines += _published_section(statuses)
    lines += _consistency_section(_consistency(plan, files))
    lines += _unknown_section(statuses)
    return "\n".join(lines) + "\n"


def _heading(statuses: list[RowStatus], written: str, solver: str) -> list[str]:
    """The page's title, where its figures come from and how to read them, and whether every row is done."""
    short = [s for s in statuses if not s.complete]
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
    return lines


def _regenerate(directory: Path | str) -> list[str]:
    """The commands that solve, write this page and pack the results files, for ``directory``."""
    return [
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


def _headline_section(headline: list[RowStatus]) -> list[str]:
    """The headline rule sets' table (nothing when the plan has none)."""
    if not headline:
        return []
    lines = ["", f"## Rule sets ({headline[0].row.target:,} deals each)", ""]
    lines += _table(["rule set", *_FIGURE_HEADS], [[f"`{s.row.rules}`", *_figures(s)] for s in headline])
    return lines


def _family_section(family: list[RowStatus]) -> list[str]:
    """The family's table, and a note for each rule set that reads a headline file (nothing without rows)."""
    if not family:
        return []
    lines = [
        "",
        f"## The seeds' other rule sets and the rest of the Pyramid family ({_each(family)})",
        "",
    ]
    lines += _table(["rule set", *_FIGURE_HEADS], [[f"`{s.row.rules}`", *_figures(s)] for s in family])
    reused = [s.row for s in family if s.row.reused]
    if reused:
        lines += [
            "",
            "Rule sets that play exactly as one above take their deals from its file (the first "
            f"{reused[0].target:,} of them) rather than solving them again:",
            "",
        ]
        lines += [_family_reuse_note(row) for row in reused]
    return lines


def _grid_section(grid: list[RowStatus]) -> list[str]:
    """The grid's table, one cell a row, and a note for each cell that reads a headline file (nothing
    without rows)."""
    if not grid:
        return []
    lines = ["", f"## The grid over `{GRID_BASE}` ({_each(grid)})", ""]
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
            f"{reused[0].target:,} of them) rather than solving them again:",
            "",
        ]
        lines += [_reuse_note(row) for row in reused]
    return lines


#: Published win rates to compare with (solitairewinrates.com, "Pyramid", last modified 2022-04-17:
#: the same 100 million deals for each rule set; its model: one pass, the stock card most recently
#: dealt and the waste's top usable), as games won of 100 million, by the rule set that plays them.
PUBLISHED: Final = {
    "relaxed": ("pyramid only, one pass, no overlap discards", 9_019_243),
    "traditional": ("all cards, one pass, no overlap discards", 6_795_618),
    "classic(passes=1,overlap=true,stock_top=true)": ("pyramid only, one pass, overlap discards", 22_773_249),
    "classic(passes=1,strict=true,overlap=true,stock_top=true)": ("all cards, one pass, overlap discards", 15_916_049),
}
PUBLISHED_DEALS: Final = 100_000_000
#: |z| at least this: the difference stands (two-sided p below 0.3 %)
STANDS_Z: Final = 3.0


def _published_section(statuses: list[RowStatus]) -> list[str]:
    """Each row with a published win rate: the two rates, the z-score of their difference (each rate's
    binomial standard error, the published one's tiny), and whether the difference stands."""
    rows = []
    for status in statuses:
        published = PUBLISHED.get(str(status.row.rules))
        summary = status.summary
        if published is None or summary is None or summary.win_rate is None or status.row.reused:
            continue
        words, won = published
        theirs = won / PUBLISHED_DEALS
        ours = summary.win_rate
        decided = summary.won + summary.lost
        error = math.sqrt(ours * (1 - ours) / decided + theirs * (1 - theirs) / PUBLISHED_DEALS)
        z = (ours - theirs) / error
        verdict = "**stands**" if abs(z) >= STANDS_Z else "within chance"
        rows.append(
            [f"`{status.row.rules}`", words, f"{decided:,}", _percent(ours), _percent(theirs), f"{z:+.1f}", verdict]
        )
    if not rows:
        return []
    lines = ["", "## Against the published figures", ""]
    lines.append(
        "solitairewinrates.com gives win rates of one-pass Pyramid from 100 million deals each (its page "
        '"Pyramid", last modified 2022-04-17): the stock dealt once, the card most recently dealt and the '
        "waste's top usable, pairing with each other. The rows that play those rules are compared here. "
        "z is the difference over its standard error (both rates binomial; the published one's is "
        f"about 0.003 points); a difference stands when |z| is {STANDS_Z:.0f} or more."
    )
    lines.append("")
    lines += _table(["rule set", "published rules", "deals", "win rate", "published", "z", "difference"], rows)
    return lines


def _each(statuses: list[RowStatus]) -> str:
    """``20,000 deals each``, and the rows whose target is another (``; `relaxed` 100,000``)."""
    targets = [s.row.target for s in statuses]
    common = max(set(targets), key=targets.count)
    others = [f"`{s.row.rules}` {s.row.target:,}" for s in statuses if s.row.target != common]
    return f"{common:,} deals each" + (f"; {', '.join(others)}" if others else "")


def _consistency_section(consistency: Consistency) -> list[str]:
    """What the consistency check compared, and the deals that break it (the first
    :data:`UNKNOWN_SHOWN`)."""
    lines = ["", "## Consistency", ""]
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
    return lines


def _unknown_section(statuses: list[RowStatus]) -> list[str]:
    """The deals the solver left unknown, by rule set (the first :data:`UNKNOWN_SHOWN` of each)."""
    lines = ["", "## Unknown deals", ""]
    unknown = [s for s in statuses if s.unknown]
    if not unknown:
        lines.append("None: the solver decided every deal counted above.")
    for status in unknown:
        shown = ", ".join(str(n) for n in status.unknown[:UNKNOWN_SHOWN])
        more = len(status.unknown) - UNKNOWN_SHOWN
        tail = f", and {more:,} more (see `{status.row.file_name}`)" if more > 0 else ""
        lines.append(f"- `{status.row.rules}` ({len(status.unknown):,}): {shown}{tail}")
    return lines


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

"""The winnability plan and table: issue 6's plan as data, a tiny plan run in rounds and resumed, the
grid cell that reuses a headline file, the table a reader sees, and the command's bad input.

The tiny plan: ``classic`` and ``msc`` to 4 deals, and the grid passes 3 × overlap no/yes × relaxed ×
waste top / stock card to 3 deals — whose ``classic`` cell is ``classic`` itself and whose
``classic(stock_top=true)`` cell is ``msc``, so only the two overlap cells get files of their own."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import pytest

from pyramid_solitaire import native, study, winnability
from pyramid_solitaire.cli import main
from pyramid_solitaire.deal import Deal
from pyramid_solitaire.rule_strings import find_rules
from pyramid_solitaire.study import HEADER, Row, Summary, read_results, study_deal
from pyramid_solitaire.winnability import (
    PlanRow,
    at_least_as_free,
    build_plan,
    check_consistency,
    default_plan,
    file_name,
    grid_rules,
    plan_status,
    plays_the_same,
    render_table,
    run_plan,
)
from pyramid_solitaire.winnability.plan import FAMILY, RowStatus
from pyramid_solitaire.winnability.table import _published_section

#: Far above any of these deals' solving time, so that no verdict is unknown.
TIME_LIMIT = 120.0
HEADLINE_TARGET = 4
GRID_TARGET = 3
OWN_FILES = {"classic-overlap-true.csv", "classic-overlap-true-stock_top-true.csv"}
FILES = {"classic.csv", "msc.csv", *OWN_FILES}


def _tiny_plan() -> tuple[PlanRow, ...]:
    grid = grid_rules(passes=(3,), strict=(False,))
    return build_plan(["classic", "msc"], grid, headline_target=HEADLINE_TARGET, grid_target=GRID_TARGET)


def _run(folder: Path, upto: int | None = None) -> dict[str, int]:
    """Run the tiny plan; the deals solved for each row, by rule set."""
    return {
        str(row.rules) if row.section == "headline" else f"grid {row.rules}": solved
        for row, solved in run_plan(_tiny_plan(), folder, upto=upto, workers=1, time_limit=TIME_LIMIT)
    }


def _numbers(path: Path) -> list[int]:
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines[0] == HEADER
    return [Row.from_line(line).number for line in lines[1:]]


def _cells(text: str, start: str) -> list[str]:
    """The cells of the one table line that starts with ``start``."""
    lines = [line for line in text.splitlines() if line.startswith(start)]
    assert len(lines) == 1, (start, lines)
    return [cell.strip() for cell in lines[0].strip("|").split("|")]


def _rate_cells(path: Path, rules: str, deals: int) -> list[str]:
    """Won, lost, unknown, rate and interval as the table must show them, from Summary over the file."""
    rows = read_results(path, rules)
    summary = Summary.of(rules, 0, [rows[n] for n in range(deals)])
    assert summary.win_rate is not None and summary.interval is not None
    low, high = summary.interval
    return [
        str(summary.won),
        str(summary.lost),
        str(summary.unknown),
        f"{100 * summary.win_rate:.2f}%",
        f"{100 * low:.2f}%–{100 * high:.2f}%",
    ]


@pytest.fixture(scope="module")
def done(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tiny plan run to its targets."""
    folder = tmp_path_factory.mktemp("winnability")
    _run(folder)
    return folder


# --- the plan ------------------------------------------------------------------------------------------


def test_the_plan_is_issue_6_s() -> None:
    plan = default_plan()
    headline = [row for row in plan if row.section == "headline"]
    grid = [row for row in plan if row.section == "grid"]
    assert [str(row.rules) for row in headline] == [
        "classic",
        "pyramide",
        "msc",
        "thirteen",
        "thirteen(jokers=2)",
        "thirteen(triples=true)",
    ]
    assert {row.target for row in headline} == {100_000}
    # issue 36: the one-pass cells with overlap pairs and a usable stock card, against published figures
    assert {str(row.rules): row.target for row in grid if row.target != 20_000} == {
        "classic(passes=1,overlap=true,stock_top=true)": 100_000,
        "classic(passes=1,strict=true,overlap=true,stock_top=true)": 100_000,
    }
    cells = {(r.rules.passes, r.rules.overlap, r.rules.strict, r.rules.stock_top_usable) for r in grid}
    assert len(grid) == len(cells) == 24
    assert {p for p, *_ in cells} == {1, 3, None}
    assert all(
        row.rules.preset == "classic"
        and row.rules.with_options(passes=3, overlap=False, strict=False, stock_top_usable=False)
        == find_rules("classic")
        for row in grid
    )
    assert {str(row.rules): row.file_name for row in grid if row.reused} == {
        "classic": "classic.csv",
        "classic(stock_top=true)": "msc.csv",
    }
    family = [row for row in plan if row.section == "family"]
    assert [(str(row.rules), row.target) for row in family] == [
        ("traditional", 100_000),
        ("relaxed", 100_000),
        ("tuts_tomb", 20_000),
        ("spanish", 20_000),
        ("fourteen", 20_000),
        ("overlap", 20_000),
        ("six_rows", 20_000),
        ("giza", 20_000),
        ("reserve", 20_000),
        ("triangle", 20_000),
        ("apophis", 20_000),
        ("limited_waste", 20_000),
        ("cells", 20_000),
    ]
    # Triangle is classic drawn upside down: the same game, so its row reads classic's deals
    assert {str(row.rules): row.file_name for row in family if row.reused} == {"triangle": "classic.csv"}
    names = [row.file_name for row in plan if not row.reused]
    assert len(set(names)) == len(names) == 40


def test_file_names_are_the_rule_set_string_made_safe() -> None:
    assert file_name("classic") == "classic.csv"
    assert file_name("thirteen(jokers=2)") == "thirteen-jokers-2.csv"
    assert file_name("classic(passes=1,overlap=true,strict=true,stock_top=true)") == (
        "classic-passes-1-strict-true-overlap-true-stock_top-true.csv"
    )
    assert file_name("classic(passes=unlimited)") == "classic-passes-unlimited.csv"


def test_the_stock_card_cell_plays_exactly_as_msc() -> None:
    cell, msc = find_rules("classic(stock_top=true)"), find_rules("msc")
    assert cell != msc and plays_the_same(cell, msc) and plays_the_same(msc, cell)
    assert not plays_the_same(find_rules("classic(passes=unlimited)"), find_rules("pyramide"))
    assert not plays_the_same(find_rules("classic(overlap=true)"), find_rules("classic"))
    for number in (0, 1):
        a, b = study_deal(number, str(cell), TIME_LIMIT), study_deal(number, "msc", TIME_LIMIT)
        assert a.code != b.code  # each code names its rule set ...
        # ... and the solver's answer is the same; only the sensible player's rating, a sample of 32 games
        # seeded with the rule-set string, may differ (the table does not show it)
        assert (a.verdict, a.length, a.best, a.nodes) == (b.verdict, b.length, b.best, b.nodes)


@pytest.mark.parametrize(
    ("rules", "freer"),
    [
        ("classic(passes=1)", "classic"),
        ("classic", "classic(passes=unlimited)"),
        ("classic(strict=true)", "classic"),
        ("classic", "classic(overlap=true)"),
        ("classic", "msc"),
        ("classic", "cells"),
        ("limited_waste", "classic"),
        ("thirteen", "thirteen(triples=true)"),
        ("classic(overlap=true)", "overlap"),
        ("overlap", "classic(overlap=true)"),
        ("classic(passes=1,strict=true)", "classic(passes=unlimited,overlap=true,stock_top=true)"),
    ],
)
def test_a_rule_set_that_allows_more_lines_is_at_least_as_free(rules: str, freer: str) -> None:
    assert at_least_as_free(find_rules(rules), find_rules(freer))


@pytest.mark.parametrize(
    ("rules", "other"),
    [
        ("classic", "classic(passes=1)"),
        ("classic", "classic(strict=true)"),
        ("classic(overlap=true)", "classic"),
        ("msc", "classic"),
        ("cells", "classic"),
        ("classic", "limited_waste"),
        # a move more and a move fewer; other cards (jokers, another deck); another layout or target
        ("classic(passes=1,overlap=true)", "classic(stock_top=true)"),
        ("thirteen", "thirteen(jokers=2)"),
        ("classic", "pyramide"),
        ("classic", "tuts_tomb"),
        ("classic", "fourteen"),
        ("classic", "six_rows"),
    ],
)
def test_a_rule_set_that_takes_a_line_away_is_not(rules: str, other: str) -> None:
    assert not at_least_as_free(find_rules(rules), find_rules(other))


def test_the_page_checks_each_file_against_the_freer_rule_sets(done: Path) -> None:
    # classic -> msc, classic -> overlap, classic -> overlap with the stock card, msc -> that, overlap -> that:
    # five pairs; each compares the deals both files hold (4 for classic and msc, 3 with a grid file)
    text = render_table(_tiny_plan(), done)
    compared = HEADLINE_TARGET + 4 * GRID_TARGET
    assert f"itself: 5 such pairs of results files, {compared} deals decided in both compared." in text
    assert "No deal breaks it." in text
    found = check_consistency(_tiny_plan(), done)
    assert (found.pairs, found.deals, found.breaches) == (5, compared, ())


def test_a_deal_a_freer_rule_set_does_worse_on_is_shown(done: Path, tmp_path: Path) -> None:
    shutil.copytree(done, tmp_path, dirs_exist_ok=True)
    path = tmp_path / "classic-overlap-true.csv"
    rows = read_results(path, "classic(overlap=true)")
    classic = read_results(tmp_path / "classic.csv", "classic")
    won = next(n for n in sorted(rows) if classic[n].verdict == "won")
    lost = next((n for n in sorted(rows) if classic[n].verdict == "lost" and rows[n].verdict == "lost"), None)
    rows[won] = dataclasses.replace(rows[won], verdict="lost", length=None, best=classic[won].best - 3, difficulty=None)
    if lost is not None:
        rows[lost] = dataclasses.replace(rows[lost], best=classic[lost].best - 1)
    path.write_text("\n".join([HEADER, *(row.to_line() for row in rows.values())]) + "\n", encoding="utf-8")
    text = render_table(_tiny_plan(), tmp_path)
    found = check_consistency(_tiny_plan(), tmp_path)
    expected = {won: f"deal {won}: `classic` wins it and `classic(overlap=true)` does not (lost)"}
    if lost is not None:
        expected[lost] = (
            f"deal {lost}: `classic(overlap=true)` removes {classic[lost].best - 1} pyramid cards "
            f"at best, `classic` {classic[lost].best}"
        )
    assert [b.text() for b in found.breaches] == [expected[n] for n in sorted(expected)]
    count = len(found.breaches)
    assert f"**{count} {'deal breaks' if count == 1 else 'deals break'} it**" in text
    assert all(f"- {b.text()}" in text for b in found.breaches)
    assert "No deal breaks it." not in text


# --- running -------------------------------------------------------------------------------------------


def test_a_tiny_plan_runs_in_rounds_and_resumes(tmp_path: Path) -> None:
    assert _run(tmp_path, upto=2) == {
        "classic": 2,
        "msc": 2,
        "grid classic": 0,
        "grid classic(stock_top=true)": 0,
        "grid classic(overlap=true)": 2,
        "grid classic(overlap=true,stock_top=true)": 2,
    }
    assert {p.name for p in tmp_path.iterdir()} == FILES
    assert _run(tmp_path) == {
        "classic": 2,
        "msc": 2,
        "grid classic": 0,
        "grid classic(stock_top=true)": 0,
        "grid classic(overlap=true)": 1,
        "grid classic(overlap=true,stock_top=true)": 1,
    }
    assert {p.name: _numbers(p) for p in tmp_path.iterdir()} == {
        "classic.csv": [0, 1, 2, 3],
        "msc.csv": [0, 1, 2, 3],
        "classic-overlap-true.csv": [0, 1, 2],
        "classic-overlap-true-stock_top-true.csv": [0, 1, 2],
    }
    assert read_results(tmp_path / "msc.csv", "msc")[0].code == Deal.from_number(0, "msc").code
    before = {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in tmp_path.iterdir()}
    assert set(_run(tmp_path).values()) == {0}
    assert {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in tmp_path.iterdir()} == before


# --- the table -----------------------------------------------------------------------------------------


def test_the_table_shows_each_row_s_figures_from_its_file(done: Path) -> None:
    text = render_table(_tiny_plan(), done, written="2026-11-30", solver="compiled (mypyc)")
    assert "on 2026-11-30 (pyramid-solitaire" in text and "solver compiled (mypyc)" in text
    assert f"winnability run --dir {done}" in text and f"winnability table --dir {done} --out" in text
    assert "Every one of the 6 rule sets has reached its target." in text
    assert _cells(text, "| `classic` |")[1:7] == ["4", *_rate_cells(done / "classic.csv", "classic", 4)]
    assert _cells(text, "| `msc` |")[1:7] == ["4", *_rate_cells(done / "msc.csv", "msc", 4)]
    cell = _cells(text, "| 3 | no overlap | relaxed (pyramid clear) | stock card usable |")
    assert cell[4:10] == ["3", *_rate_cells(done / "msc.csv", "msc", 3)] and cell[-1] == "`msc.csv`"
    cell = _cells(text, "| 3 | overlap pairs | relaxed (pyramid clear) | waste top only |")
    path = done / "classic-overlap-true.csv"
    assert cell[4:10] == ["3", *_rate_cells(path, "classic(overlap=true)", 3)] and cell[-1] == f"`{path.name}`"
    assert "`classic(stock_top=true)`, which plays exactly as `msc`" in text
    assert "None: the solver decided every deal counted above." in text
    assert native.state() in render_table(_tiny_plan(), done)


def test_rows_short_of_their_target_say_so(done: Path, tmp_path: Path) -> None:
    shutil.copytree(done, tmp_path, dirs_exist_ok=True)
    path = tmp_path / "classic-overlap-true.csv"
    path.write_text("\n".join(path.read_text(encoding="utf-8").splitlines()[:2]) + "\n", encoding="utf-8")
    (tmp_path / "classic-overlap-true-stock_top-true.csv").unlink()
    text = render_table(_tiny_plan(), tmp_path)
    assert "**Not finished: 2 of 6 rule sets are short of their target**" in text
    cell = _cells(text, "| 3 | overlap pairs | relaxed (pyramid clear) | waste top only |")
    assert cell[4:10] == ["1 of 3 — in progress", *_rate_cells(path, "classic(overlap=true)", 1)]
    cell = _cells(text, "| 3 | overlap pairs | relaxed (pyramid clear) | stock card usable |")
    assert cell[4:11] == ["not run yet", "—", "—", "—", "—", "—", "—"]


def test_a_gap_ends_the_deals_counted_and_unknowns_are_listed(tmp_path: Path) -> None:
    rows = [
        Row(
            n,
            Deal.from_number(n, "msc").code,
            verdict,
            60 if verdict == "won" else None,
            28 if verdict == "won" else 20,
            0.5 if verdict == "won" else None,
            0.1,
            100,
        )
        for n, verdict in [(0, "won"), (1, "unknown"), (2, "lost"), (4, "won")]
    ]
    (tmp_path / "msc.csv").write_text("\n".join([HEADER, *(r.to_line() for r in rows)]) + "\n", encoding="utf-8")
    text = render_table(_tiny_plan(), tmp_path)
    assert _cells(text, "| `msc` |")[1:6] == ["3 of 4 — in progress", "1", "1", "1", "50.00%"]
    assert _cells(text, "| `classic` |")[1] == "not run yet"
    assert "- `msc` (1): 1" in text and "- `classic(stock_top=true)` (1): 1" in text


# --- the command ---------------------------------------------------------------------------------------


@pytest.fixture
def tiny(monkeypatch: pytest.MonkeyPatch) -> None:
    """The command runs the tiny plan (so that no test can start the real one)."""
    monkeypatch.setattr(winnability, "default_plan", _tiny_plan)


def test_the_command_runs_stops_resumes_and_writes_the_table(
    tiny: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    solve_deal = study.study_deal

    def interrupted(number: int, rules: str, time_limit: float) -> Row:
        if number == 1:
            raise KeyboardInterrupt
        return solve_deal(number, rules, time_limit)

    folder = tmp_path / "results"
    folder.mkdir()
    run = [
        "--lang",
        "en",
        "winnability",
        "run",
        "--dir",
        str(folder),
        "--upto",
        "2",
        "--workers",
        "1",
        "--time-limit",
        "120",
    ]
    monkeypatch.setattr(study, "study_deal", interrupted)
    assert main(run) == 130
    assert "run the same command again to resume" in capsys.readouterr().err
    assert _numbers(folder / "classic.csv") == [0]
    monkeypatch.setattr(study, "study_deal", solve_deal)
    assert main(run) == 0
    out, err = capsys.readouterr()
    assert out.splitlines()[:2] == [
        "classic: 2 of 4 deals, in progress (1 solved this run)",
        "msc: 2 of 4 deals, in progress (2 solved this run)",
    ]
    assert "classic(stock_top=true): deals 0-1 done (in msc.csv)" in err
    assert "classic(overlap=true): 2/2 (100.0%)" in err  # run_study's progress
    doc = tmp_path / "winnability.md"
    assert main(["--lang", "en", "winnability", "table", "--dir", str(folder), "--out", str(doc)]) == 0
    assert _cells(doc.read_text(encoding="utf-8"), "| `msc` |")[1] == "2 of 4 — in progress"


def test_the_packed_archives_alone_give_the_table_and_resume_the_runs(
    tiny: None, done: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """What a fresh clone has: the .csv.xz archives of the repository, no CSV file."""
    folder = tmp_path / "results"
    shutil.copytree(done, folder)
    assert main(["--lang", "en", "winnability", "pack", "--dir", str(folder)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert sorted(line.split(":")[0] for line in out) == sorted(name + ".xz" for name in FILES)
    assert "classic.csv.xz: 4 deals, " in out[0] and out[0].endswith(" bytes")
    table = render_table(_tiny_plan(), folder, written="2026-12-01", solver="compiled (mypyc)")
    for name in FILES:
        (folder / name).unlink()
    assert render_table(_tiny_plan(), folder, written="2026-12-01", solver="compiled (mypyc)") == table
    assert f"winnability pack --dir {folder}" in table
    assert set(_run(folder).values()) == {0}
    assert {p.name for p in folder.iterdir()} == {name + ".xz" for name in FILES}
    assert main(["--lang", "en", "winnability", "pack", "--dir", str(tmp_path)]) == 0
    assert capsys.readouterr().out == f"no results files in {tmp_path}: nothing to pack\n"


def test_the_table_of_the_whole_plan_before_any_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--lang", "en", "winnability", "table", "--dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# Winnability")
    assert out.count("| not run yet |") == 43
    assert "**Not finished: 43 of 43 rule sets are short of their target**" in out
    family = "## The seeds' other rule sets and the rest of the Pyramid family"
    assert f"{family} (20,000 deals each; `traditional` 100,000, `relaxed` 100,000)" in out
    assert "| `tuts_tomb` | not run yet |" in out
    assert "| `thirteen(triples=true)` | not run yet |" in out
    assert "| unlimited | overlap pairs | strict (all 52 cards) | stock card usable | not run yet |" in out
    # the family row that reads another's file says so, as the grid's cells do
    assert (
        "- `triangle`: `classic`'s options with the pyramid drawn upside down (only the drawing reads that) "
        "under another preset name, so the same deals and verdicts, in `classic.csv`."
    ) in out
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["run", "--dir", "{tmp}/missing"], "no folder"),
        (["run", "--dir", "{wrong}/classic.csv"], "classic.csv is a file, not a folder"),
        (["run", "--dir", "{tmp}", "--upto", "0"], "--upto must be a positive"),
        (["run", "--dir", "{tmp}", "--upto", "-5"], "--upto must be a positive"),
        (["run", "--dir", "{tmp}", "--workers", "0"], "workers must be positive"),
        (["run", "--dir", "{tmp}", "--time-limit", "0"], "time limit"),
        (["run", "--dir", "{tmp}", "--dask", "127.0.0.1:8786"], "not a Dask scheduler address"),
        (["run", "--dir", "{tmp}", "--dask", "tcp://127.0.0.1:0"], "a port is 1-65535"),
        (["run", "--dir", "{wrong}"], "holds deals of other rules"),
        (["table", "--dir", "{tmp}/missing"], "no folder"),
        (["table", "--dir", "{wrong}", "--out", "{tmp}/out.md"], "holds deals of other rules"),
        (["table", "--dir", "{tmp}", "--out", "{tmp}/missing/out.md"], "cannot write"),
        (["pack", "--dir", "{tmp}/missing"], "no folder"),
        (["table", "--dir", "{wrong}/classic.csv"], "is a file, not a folder"),
        (["pack", "--dir", "{wrong}"], "holds deals of other rules"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    tiny: None, args: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    wrong = tmp_path / "wrong"
    wrong.mkdir()
    msc_row = Row(0, Deal.from_number(0, "msc").code, "lost", None, 20, None, 0.1, 82)
    (wrong / "classic.csv").write_text(f"{HEADER}\n{msc_row.to_line()}\n", encoding="utf-8")
    before = {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    assert main(["--lang", "en", "winnability", *[a.format(tmp=tmp_path, wrong=wrong) for a in args]]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("pyramid-solitaire: error: ") and message in lines[0], err
    assert {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()} == before


def test_unknown_deals_are_solved_again_only_on_request(tmp_path: Path) -> None:
    plan = _tiny_plan()
    run_plan(plan, tmp_path, workers=1, time_limit=1e-9)  # past the limit at the first check
    unknown = sum(len(status.unknown) for status in plan_status(plan, tmp_path) if not status.row.reused)
    assert unknown > 0
    assert [solved for _, solved in run_plan(plan, tmp_path, workers=1, time_limit=TIME_LIMIT)] == [0] * len(plan)
    retried = run_plan(plan, tmp_path, workers=1, time_limit=TIME_LIMIT, retry_unknown=True)
    assert sum(solved for _, solved in retried) == unknown  # each once, a reused file's too
    assert all(not status.unknown for status in plan_status(plan, tmp_path))


def test_the_one_pass_rows_are_compared_with_the_published_figures() -> None:
    """Issue 36: each row with a published win rate gets the z-score of its difference from it, and
    the difference stands from |z| = 3 on (here 2,000 won of 20,000 against 9,019,243 of 100 M)."""

    def status(rules: str, won: int, deals: int) -> RowStatus:
        summary = Summary(
            rules=rules, start=0, deals=deals, won=won, lost=deals - won, unknown=0, seconds=(0.01,), solved=deals
        )
        return RowStatus(PlanRow(FAMILY, find_rules(rules), deals, find_rules(rules)), deals, summary, [], False)

    lines = _published_section([status("relaxed", 1_850, 20_000), status("traditional", 8_000, 100_000)])
    # (0.0925 - 0.09019243) / sqrt(0.0925 * 0.9075 / 20,000 + 0.0902 * 0.0980 / 1e8) = +1.1
    assert (
        "| `relaxed` | pyramid only, one pass, no overlap discards | 20,000 | 9.25% | 9.02% | +1.1 | within chance |"
        in lines
    )
    # (0.08 - 0.06795618) / sqrt(0.08 * 0.92 / 100,000 + ...) = +14.0
    assert (
        "| `traditional` | all cards, one pass, no overlap discards | 100,000 | 8.00% | 6.80% | +14.0 | **stands** |"
        in lines
    )
    assert _published_section([status("classic", 6_500, 10_000)]) == []  # no published figure

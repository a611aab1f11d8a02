"""Studies: the same results whatever the engine, resuming after an interruption, the summary's figures,
and the command's bad input.  30 classic deals, solved once in this process as the reference."""

from __future__ import annotations

import io
import logging
import lzma
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from pyramid_solitaire import study
from pyramid_solitaire.cli import main
from pyramid_solitaire.deal import Deal
from pyramid_solitaire.rule_strings import find_rules
from pyramid_solitaire.solver import solve
from pyramid_solitaire.study import HEADER, Row, StudyError, Summary, percentile, run_study, wilson_interval

RULES = "classic"
DEALS = 30
#: Far above any of these deals' solving time, so that no verdict is unknown.
TIME_LIMIT = 120.0


def _rows(path: Path) -> list[Row]:
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines[0] == HEADER
    return [Row.from_line(line) for line in lines[1:]]


def _results(path: Path) -> list[tuple[object, ...]]:
    return [row.result() for row in _rows(path)]


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The 30 deals solved in this process (workers=1)."""
    path = tmp_path_factory.mktemp("study") / "reference.csv"
    summary = run_study(RULES, path, deals=DEALS, workers=1, time_limit=TIME_LIMIT)
    assert summary.solved == DEALS
    return path


# --- rows and the file --------------------------------------------------------------------------------


def test_each_row_is_the_solver_s_answer(reference: Path) -> None:
    rows = _rows(reference)
    assert [row.number for row in rows] == list(range(DEALS))
    assert {row.verdict for row in rows} == {"won", "lost"}
    for row in rows:
        assert row.code == Deal.from_number(row.number, RULES).code
        if row.verdict == "won":
            assert row.best == 28 and row.length is not None and row.difficulty is not None
            assert 0.0 <= row.difficulty <= 1.0
        else:
            assert row.best < 28 and row.length is None and row.difficulty is None
    for row in rows[:3]:
        result = solve(Deal.from_number(row.number, RULES))
        assert (row.verdict == "won", row.length, row.best, row.nodes) == (
            result.winnable,
            result.length,
            result.max_pyramid_removed,
            result.nodes,
        )


def test_a_row_reads_back_as_written() -> None:
    row = Row(7, "CL1-R-AAAAAAH", "won", 64, 28, 0.4375, 0.25, 64)
    assert Row.from_line(row.to_line()) == row
    assert row.to_line() == "7,CL1-R-AAAAAAH,won,64,28,0.4375,0.2500,64"
    with pytest.raises(ValueError, match="length"):
        Row.from_line("7,CL1-R-AAAAAAH,lost,64,20,,0.25,64")
    with pytest.raises(ValueError, match="verdict"):
        Row.from_line("7,CL1-R-AAAAAAH,maybe,,20,,0.25,64")


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("7,CL1-R-AAAAAAI,won,64,28,0.4375,0.25,64", "is not deal 7's"),
        ("-7,CL1-R-AAAAAAH,won,64,28,0.4375,0.25,64", "is not one of 0-"),
        ("8031810176,CL1-R-AAAAAAH,won,64,28,0.4375,0.25,64", "is not one of 0-"),
        ("7,CL1-R-AAAAAAH,won,64,28,0.4375,nan,64", "seconds must be"),
        ("7,CL1-R-AAAAAAH,won,64,28,0.4375,-1.0,64", "seconds must be"),
        ("7,CL1-R-AAAAAAH,lost,,-2,,0.25,64", "below 0"),
        ("7,CL1-R-AAAAAAH,lost,,20,,0.25,-64", "below 0"),
        ("7,CL1-R-AAAAAAH,won,64,28,1.5,0.25,64", "a difficulty is 0-1"),
    ],
)
def test_a_row_out_of_range_names_its_field(line: str, message: str) -> None:
    """A hand-edited or corrupted row is refused, not read into the table (a nan would poison the
    median, a wrong code would count another deal)."""
    with pytest.raises(ValueError, match=message):
        Row.from_line(line)


# --- engines ------------------------------------------------------------------------------------------


def test_two_workers_give_the_same_results(reference: Path, tmp_path: Path) -> None:
    path = tmp_path / "two.csv"
    summary = run_study(RULES, path, deals=DEALS, workers=2, time_limit=TIME_LIMIT)
    assert summary.solved == DEALS
    assert _results(path) == _results(reference)


def test_a_dask_cluster_gives_the_same_results(
    reference: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    import distributed  # a dependency of the project: never skipped

    caplog.set_level(logging.ERROR, logger="distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        path = tmp_path / "dask.csv"
        summary = run_study(RULES, path, deals=DEALS, dask=cluster.scheduler_address, time_limit=TIME_LIMIT)
    assert summary.solved == DEALS
    assert _results(path) == _results(reference)


# --- resuming -----------------------------------------------------------------------------------------


def test_a_study_resumes_after_a_prefix(reference: Path, tmp_path: Path) -> None:
    path = tmp_path / "prefix.csv"
    first = run_study(RULES, path, deals=8, workers=1, time_limit=TIME_LIMIT)
    assert (first.deals, first.solved) == (8, 8)
    prefix_lines = path.read_text(encoding="utf-8").splitlines()
    summary = run_study(RULES, path, deals=DEALS, workers=2, time_limit=TIME_LIMIT)
    assert summary.solved == DEALS - 8
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines[: len(prefix_lines)] == prefix_lines  # kept as they were, seconds included
    assert _results(path) == _results(reference)
    again = run_study(RULES, path, deals=DEALS, workers=1, time_limit=TIME_LIMIT)
    assert again.solved == 0
    assert path.read_text(encoding="utf-8").splitlines() == lines


def test_unknown_deals_are_solved_again_on_request(
    reference: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A deal left unknown by the time limit stays so on a plain resume; --retry-unknown solves it again
    and its decided row replaces the unknown one, to the same file as a study that never timed out."""
    path = tmp_path / "retry.csv"
    first = run_study(RULES, path, deals=DEALS, workers=1, time_limit=1e-9)  # past it at the first check
    assert 0 < first.unknown < DEALS  # deals settled in under 512 positions are decided even so
    again = run_study(RULES, path, deals=DEALS, workers=1, time_limit=TIME_LIMIT)
    assert (again.solved, again.unknown) == (0, first.unknown)
    assert (
        main(
            [
                "--lang",
                "en",
                "study",
                "--rules",
                RULES,
                "--deals",
                str(DEALS),
                "--workers",
                "2",
                "--time-limit",
                str(TIME_LIMIT),
                "--out",
                str(path),
                "--retry-unknown",
            ]
        )
        == 0
    )
    verdicts = [row.verdict for row in _rows(reference)]
    out = capsys.readouterr().out
    assert f"won {verdicts.count('won')}, lost {verdicts.count('lost')}, unknown 0 (time limit)" in out
    assert _results(path) == _results(reference)


def test_the_time_limit_of_a_search_runs_on_the_clock_it_is_given() -> None:
    """Studies count CPU seconds (time.process_time), so a worker waiting for a core loses no time."""
    from pyramid_solitaire.solver.search import Counter, SearchTimeout

    now = [0.0]
    counter = Counter(deadline=5.0, clock=lambda: now[0])
    for _ in range(2048):
        counter.tick()  # the clock stands still: no timeout however many positions
    now[0] = 6.0
    with pytest.raises(SearchTimeout):
        for _ in range(512):
            counter.tick()


def test_a_study_resumes_after_a_cut_in_the_middle_of_a_line(reference: Path, tmp_path: Path) -> None:
    lines = reference.read_text(encoding="utf-8").splitlines(keepends=True)
    kept = lines[1:21]
    kept.reverse()  # rows are appended in the order deals finish, not by number
    cut = lines[21][: len(lines[21]) // 2]
    path = tmp_path / "cut.csv"
    path.write_text(lines[0] + "".join(kept) + cut, encoding="utf-8")
    summary = run_study(RULES, path, deals=DEALS, workers=1, time_limit=TIME_LIMIT)
    assert summary.solved == DEALS - 20
    after = path.read_text(encoding="utf-8").splitlines(keepends=True)
    assert after[:21] == lines[:21]
    assert _results(path) == _results(reference)


# --- the archive -------------------------------------------------------------------------------------


def test_a_study_resumes_from_its_archive_alone(reference: Path, tmp_path: Path) -> None:
    """The xz snapshot the repository keeps: read in place of a missing CSV file, extended by a rerun
    into a new CSV file (the archive untouched), and packed again to the bytes of the same rows."""
    path = tmp_path / "kept.csv"
    lines = reference.read_text(encoding="utf-8").splitlines(keepends=True)
    path.write_text("".join(lines[:13]), encoding="utf-8")  # deals 0-11
    results = study.ResultsFile(path, find_rules(RULES))
    size = results.pack()
    archive = tmp_path / "kept.csv.xz"
    assert archive.stat().st_size == size and size < path.stat().st_size
    assert lzma.decompress(archive.read_bytes()).decode("utf-8") == "".join(lines[:13])
    path.unlink()
    assert run_study(RULES, path, deals=12, workers=1, time_limit=TIME_LIMIT).solved == 0
    assert not path.exists()  # nothing solved, nothing written
    packed = archive.read_bytes()
    summary = run_study(RULES, path, deals=DEALS, workers=1, time_limit=TIME_LIMIT)
    assert summary.solved == DEALS - 12
    assert archive.read_bytes() == packed
    assert _results(path) == _results(reference)  # the finished file holds the archive's rows too
    assert path.read_text(encoding="utf-8").splitlines(keepends=True)[:13] == lines[:13]
    again = study.ResultsFile(path, find_rules(RULES))
    again.pack()
    assert lzma.decompress(archive.read_bytes()).decode("utf-8") == path.read_text(encoding="utf-8")
    first = archive.read_bytes()
    study.ResultsFile(path, find_rules(RULES)).pack()
    assert archive.read_bytes() == first  # the same rows, the same bytes: a commit only when rows change


def test_an_archive_that_is_not_one_is_refused_whole(
    reference: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.csv"
    archive = tmp_path / "bad.csv.xz"
    packed = lzma.compress(reference.read_bytes())
    for data, message in [
        (b"not xz at all", "is not an xz archive"),
        (packed[: len(packed) // 2], "is cut short (its xz data ends early)"),
        (packed + b"more", "data after its end"),
        (lzma.compress(reference.read_bytes()[:-5]), "is cut short"),
        (lzma.compress(b"deal,verdict\n1,won\n"), "is not a study's CSV file"),
    ]:
        archive.write_bytes(data)
        assert main(["--lang", "en", "study", "--rules", RULES, "--deals", "3", "--out", str(path)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and message in err and str(archive) in err, err
        assert not path.exists() and archive.read_bytes() == data
    archive.write_bytes(packed)
    assert main(["--lang", "en", "study", "--rules", "msc", "--deals", "3", "--out", str(path)]) == 2
    assert "holds deals of other rules" in capsys.readouterr().err


def test_an_interrupted_command_resumes_to_the_same_file(
    reference: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    solve_deal = study.study_deal

    def interrupted(number: int, rules: str, time_limit: float) -> Row:
        if number == 11:
            raise KeyboardInterrupt
        return solve_deal(number, rules, time_limit)

    path = tmp_path / "interrupted.csv"
    argv = [
        "--lang",
        "en",
        "study",
        "--rules",
        RULES,
        "--deals",
        str(DEALS),
        "--workers",
        "1",
        "--time-limit",
        str(TIME_LIMIT),
        "--out",
        str(path),
    ]
    monkeypatch.setattr(study, "study_deal", interrupted)
    assert main(argv) == 130
    assert "run the same command again to resume" in capsys.readouterr().err
    assert [row.number for row in _rows(path)] == list(range(11))
    monkeypatch.setattr(study, "study_deal", solve_deal)
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert f"({DEALS}, {DEALS - 11} solved this run)" in out
    assert _results(path) == _results(reference)


def _descendants(root: int, grandchildren_only: bool = False) -> set[int]:
    """The live processes under ``root`` (children, their children...), from /proc; with
    ``grandchildren_only``, those that are not ``root``'s own children."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:  # gone meanwhile
                continue
            parents[int(entry.name)] = int(fields[1])
    found: set[int] = set()
    todo = [root]
    while todo:
        parent = todo.pop()
        for pid, ppid in parents.items():
            if ppid == parent and pid not in found:
                found.add(pid)
                todo.append(pid)
    if grandchildren_only:
        found -= {pid for pid, ppid in parents.items() if ppid == root}
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _stopped_study(path: Path, stop: Callable[[subprocess.Popen[str]], set[int]]) -> tuple[int, str, set[int]]:
    """Run ``pyramid-solitaire study`` on two workers into ``path``; once the file has rows, ``stop``
    it (given the process, it signals it and gives the processes to watch).  Gives the exit status,
    the standard error and those processes."""
    script = Path(sys.executable).parent / "pyramid-solitaire"
    command = [
        str(script),
        "--lang",
        "en",
        "study",
        "--rules",
        "classic(passes=1)",
        "--deals",
        "3000",
        "--workers",
        "2",
        "--out",
        str(path),
    ]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while not (path.exists() and path.read_text(encoding="utf-8").count("\n") > 10):
            assert process.poll() is None and time.monotonic() < deadline, "the study never got going"
            time.sleep(0.1)
        watched = stop(process)
        _, err = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            process.kill()
    return process.returncode, err, watched


def test_sigterm_stops_a_study_like_ctrl_c_workers_included(tmp_path: Path) -> None:
    """kill (SIGTERM) on a study with workers: exit 130 with the resume hint, every worker gone, and the
    file resumes to the same results."""
    path = tmp_path / "terminated.csv"

    def terminate(process: subprocess.Popen[str]) -> set[int]:
        workers = _descendants(process.pid)
        assert len(workers) >= 2  # the forkserver and its workers
        process.send_signal(signal.SIGTERM)
        return workers

    returncode, err, workers = _stopped_study(path, terminate)
    assert returncode == 130
    assert "run the same command again to resume" in err
    deadline = time.monotonic() + 30
    while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [pid for pid in workers if _alive(pid)], "workers outlived the study"
    saved = {row.number for row in _rows(path)}  # in the order they finished, each once
    assert 10 <= len(saved) == len(_rows(path)) < 3000
    deals = max(saved) + 3
    summary = run_study("classic(passes=1)", path, deals=deals, workers=1, time_limit=TIME_LIMIT)
    assert summary.solved == deals - len(saved)
    assert [row.number for row in _rows(path)] == list(range(deals))


def test_a_killed_worker_ends_the_study_with_one_line_and_the_rows_kept(tmp_path: Path) -> None:
    """A worker killed mid-study (SIGKILL, as the out-of-memory killer does): one line, exit 2, and
    every row written before it whole."""
    path = tmp_path / "killed.csv"

    def kill_a_worker(process: subprocess.Popen[str]) -> set[int]:
        forkserver = _descendants(process.pid) - _descendants(process.pid, grandchildren_only=True)
        workers = _descendants(process.pid, grandchildren_only=True)
        assert forkserver and workers, "no worker processes under the study"
        os.kill(min(workers), signal.SIGKILL)
        return workers

    returncode, err, _ = _stopped_study(path, kill_a_worker)
    assert returncode == 2, err
    lines = err.splitlines()
    assert lines[-1].startswith("pyramid-solitaire: error: a worker process died"), err
    assert "run the same command again to resume" in lines[-1] and "Traceback" not in err, err
    saved = {row.number for row in _rows(path)}  # whole lines only, each deal once
    assert 10 <= len(saved) == len(_rows(path)) < 3000


@pytest.mark.parametrize("text", ["", "number,code,ver"])
def test_an_empty_file_or_a_half_written_header_starts_afresh(tmp_path: Path, text: str) -> None:
    path = tmp_path / "fresh.csv"
    path.write_text(text, encoding="utf-8")
    run_study(RULES, path, deals=2, workers=1, time_limit=TIME_LIMIT)
    assert [row.number for row in _rows(path)] == [0, 1]


# --- the summary --------------------------------------------------------------------------------------


def test_wilson_interval_matches_a_hand_computation() -> None:
    # 20 of 30, z² = 3.84146: centre (2/3 + 3.84146/60) / (1 + 3.84146/30) = 0.730691 / 1.128049 = 0.647747;
    # half 1.959964 / 1.128049 * sqrt((2/3)(1/3)/30 + 3.84146/3600) = 1.737482 * 0.0920569 = 0.159946.
    low, high = wilson_interval(20, 30)
    assert low == pytest.approx(0.487801, abs=1e-5)
    assert high == pytest.approx(0.807693, abs=1e-5)
    # None won of 10: from 0 to z² / (n + z²).
    assert wilson_interval(0, 10) == pytest.approx((0.0, 3.84146 / 13.84146), abs=1e-5)
    assert wilson_interval(10, 10) == pytest.approx((10 / 13.84146, 1.0), abs=1e-5)


def test_the_summary_leaves_unknowns_out_of_the_win_rate() -> None:
    verdicts = ["won"] * 20 + ["lost"] * 10 + ["unknown"] * 5
    rows = [
        Row(
            n,
            f"CL1-R-{n}",
            v,
            70 if v == "won" else None,
            28 if v == "won" else 20,
            0.5 if v == "won" else None,
            float(n + 1),
            100,
        )
        for n, v in enumerate(verdicts)
    ]
    summary = Summary.of(RULES, 0, rows)
    assert (summary.deals, summary.won, summary.lost, summary.unknown) == (35, 20, 10, 5)
    assert summary.win_rate == pytest.approx(20 / 30)
    assert summary.interval == pytest.approx(wilson_interval(20, 30))
    text = "\n".join(summary.lines())
    assert "won 20, lost 10, unknown 5" in text
    assert "win rate 66.67% (95% interval 48.78%-80.77%" in text
    # Seconds 1..35: median 18, nearest-rank p90 the 32nd (ceil(31.5)), max 35.
    assert "median 18.0000, p90 32.0000, max 35.0000" in text
    assert percentile([3.0, 1.0, 2.0], 0.5) == 2.0


def test_the_study_s_summary_counts_its_file(reference: Path, tmp_path: Path) -> None:
    rows = _rows(reference)
    path = Path(shutil.copy(reference, tmp_path / "done.csv"))
    summary = run_study(RULES, path, deals=DEALS, workers=1)
    assert summary.solved == 0
    won = sum(row.verdict == "won" for row in rows)
    assert (summary.won, summary.unknown) == (won, 0)
    assert summary.win_rate == won / DEALS


def test_progress_redraws_in_place_on_a_terminal() -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    stream = Terminal()
    bar = study.Progress(10, 4, stream, "classic: ")
    bar.update(5, force=True)
    bar.close()
    text = stream.getvalue()
    assert text.startswith("\rclassic: 5/10 (50.0%)") and text.rstrip(" \n").endswith("left")
    assert "deals/s" in text and text.count("\n") == 1
    plain = io.StringIO()
    line_bar = study.Progress(10, 0, plain)
    line_bar.update(1)
    line_bar.update(2)  # within a few seconds of the first: not shown
    line_bar.close()
    assert [line.split(" ")[0] for line in plain.getvalue().splitlines()] == ["1/10", "2/10"]


def test_the_summary_progress_and_errors_speak_japanese_too(tmp_path: Path) -> None:
    rows = [
        Row(n, f"CL1-R-{n}", v, 70 if v == "won" else None, 28, 0.5 if v == "won" else None, 1.0, 100)
        for n, v in enumerate(["won", "won", "lost", "unknown"])
    ]
    lines = Summary.of(RULES, 5, rows, 2).lines("ja")
    assert lines[:2] == [f"{RULES}：5〜8番の4局（今回解いたのは2局）", "勝ち 2、負け 1、不明 1（時間切れ）"]
    assert lines[2].startswith("勝率 66.67%（95%区間 ") and lines[3].startswith("1局あたりの秒数：中央値 1.0000")
    stream = io.StringIO()
    bar = study.Progress(10, 4, stream, "classic：", "ja")
    bar.update(5, force=True)
    assert stream.getvalue().startswith("classic：5/10（50.0%）  毎秒") and "残り" in stream.getvalue()
    with pytest.raises(StudyError) as refused:
        run_study(RULES, tmp_path / "x.csv", deals=0)
    assert refused.value.message("ja") == "局数は正の数です（指定された値：0）"
    (tmp_path / "row.csv").write_text(HEADER + "\n1,CL1-R-AAAAAAB,won,66\n", encoding="utf-8")
    with pytest.raises(StudyError) as bad_row:
        run_study(RULES, tmp_path / "row.csv", deals=1)
    path = tmp_path / "row.csv"
    assert bad_row.value.message("ja") == f"{path} の2行目は study の行ではありません：欄は8個のはずが4個です"
    assert str(bad_row.value) == f"{path} line 2 is not a study row: expected 8 fields, got 4"


# --- the command --------------------------------------------------------------------------------------


def test_the_command_prints_the_summary_and_progress(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "cmd.csv"
    assert (
        main(
            [
                "--lang",
                "en",
                "study",
                "--rules",
                RULES,
                "--deals",
                "3",
                "--start",
                "5",
                "--workers",
                "1",
                "--out",
                str(path),
            ]
        )
        == 0
    )
    out, err = capsys.readouterr()
    assert out.startswith(f"{RULES}: deals 5-7 (3, 3 solved this run)\n")
    assert "3/3 (100.0%)" in err
    assert [row.number for row in _rows(path)] == [5, 6, 7]


@pytest.fixture
def other_files(tmp_path: Path, reference: Path) -> Iterator[dict[str, Path]]:
    files = {"header": tmp_path / "header.csv", "row": tmp_path / "row.csv", "rules": tmp_path / "rules.csv"}
    files["header"].write_text("deal,verdict\n1,won\n", encoding="utf-8")
    files["row"].write_text(HEADER + "\n1,CL1-R-AAAAAAB,won,66\n", encoding="utf-8")
    shutil.copy(reference, files["rules"])
    yield files


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--rules", "nope"], "unknown rule set"),
        (["--rules", "classic(colour=red)"], "unknown option"),
        (["--deals", "0"], "must be positive"),
        (["--deals", "-3"], "must be positive"),
        (["--start", "-1"], "deal numbers run"),
        (["--start", "8031810175"], "deal numbers run"),
        (["--workers", "0"], "workers must be positive"),
        (["--time-limit", "0"], "time limit"),
        (["--workers", "2", "--dask", "tcp://127.0.0.1:8786"], "not both"),
        (["--dask", "127.0.0.1:8786"], "not a Dask scheduler address"),
        (["--dask", "tcp://127.0.0.1:99999"], "a port is 1-65535"),
        (["--dask", "tcp://127.0.0.1:1"], "cannot reach the Dask scheduler"),
        (["--dask", "tcp://[::1]:1"], "cannot reach the Dask scheduler at tcp://[::1]:1"),
        (["--dask", "tcp://::1:8786"], "not a Dask scheduler address"),
        (
            ["--dask", "tls://127.0.0.1:8786"],
            "set DASK_DISTRIBUTED__COMM__TLS__CA_FILE and DASK_DISTRIBUTED__COMM__TLS__CLIENT__CERT",
        ),
        (["--out", "{tmp}"], "is a folder"),
        (["--out", "{tmp}/missing/x.csv"], "no folder"),
        (["--out", "/dev/null"], "is not a regular file"),
        (["--out", "/proc/new.csv"], "cannot write /proc/new.csv"),
        (["--out", "{header}"], "not a study's CSV file"),
        (["--out", "{row}"], "line 2 is not a study row"),
        (["--rules", "msc", "--out", "{rules}"], "holds deals of other rules"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    args: list[str],
    message: str,
    tmp_path: Path,
    other_files: dict[str, Path],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    monkeypatch.setattr(study.cluster, "DASK_CONNECT_SECONDS", 0.5)
    caplog.set_level(logging.CRITICAL, logger="distributed")
    names = {"tmp": str(tmp_path), **{k: str(v) for k, v in other_files.items()}}
    given = {"--rules": RULES, "--deals": "3", "--out": str(tmp_path / "new.csv")}
    for flag, value in zip(args[::2], args[1::2], strict=True):
        given[flag] = value.format(**names)
    before = {p: p.read_bytes() for p in other_files.values()}
    assert main(["--lang", "en", "study", *[part for pair in given.items() for part in pair]]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("pyramid-solitaire: error: ") and message in lines[0], err
    assert not (tmp_path / "new.csv").exists()
    assert {p: p.read_bytes() for p in other_files.values()} == before


def test_a_finished_file_still_checks_the_dask_address(
    reference: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Nothing left to solve is no reason to accept a typing mistake silently."""
    path = tmp_path / "done.csv"
    shutil.copy(reference, path)
    assert (
        main(["--lang", "en", "study", "--rules", RULES, "--deals", "3", "--dask", "garbage", "--out", str(path)]) == 2
    )
    assert "not a Dask scheduler address: 'garbage'" in capsys.readouterr().err
    assert path.read_bytes() == reference.read_bytes()


def test_a_write_that_fails_midway_keeps_the_rows_before_it(reference: Path, tmp_path: Path) -> None:
    """A full disk (/dev/full stands in for it) after some rows: one clear error, the rows before it whole."""
    path = tmp_path / "full.csv"
    results = study.ResultsFile(path, find_rules(RULES))
    rows = _rows(reference)
    for row in rows[:3]:
        results.append(row)
    results.close()
    results._handle = open("/dev/full", "a", encoding="utf-8")  # noqa: SIM115 - closed by results.close()
    with pytest.raises(StudyError, match=r"cannot write .*full\.csv: No space left on device .*resume"):
        results.append(rows[3])
    results.close()
    assert [row.number for row in _rows(path)] == [0, 1, 2]


def test_a_tls_cluster_takes_its_certificates_from_dask_s_variables(
    reference: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The command as a user runs it, against a scheduler and workers that speak only TLS."""
    import distributed  # a dependency of the project: never skipped

    caplog.set_level(logging.ERROR, logger="distributed")
    security = distributed.Security.temporary()  # a self-signed CA and one certificate for every role
    files = {}
    for name, text in (
        ("ca", security.tls_ca_file),
        ("cert", security.tls_client_cert),
        ("key", security.tls_client_key),
    ):
        files[name] = tmp_path / f"{name}.pem"
        files[name].write_text(text, encoding="utf-8")
    command = [
        str(Path(sys.executable).with_name("pyramid-solitaire")),
        "--lang",
        "en",
        "study",
        "--rules",
        RULES,
        "--deals",
        "5",
        "--time-limit",
        str(TIME_LIMIT),
        "--out",
        str(tmp_path / "tls.csv"),
    ]
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None, protocol="tls://", security=security
    ) as cluster:
        address = cluster.scheduler_address
        assert address.startswith("tls://")
        clean = {k: v for k, v in os.environ.items() if not k.startswith("DASK_")}
        without = subprocess.run(
            [*command, "--dask", address], env=clean, capture_output=True, text=True, timeout=120, check=False
        )
        assert without.returncode == 2
        assert without.stderr.strip().splitlines() == [
            f"pyramid-solitaire: error: the Dask scheduler at {address} speaks TLS and needs certificates: set "
            "DASK_DISTRIBUTED__COMM__TLS__CA_FILE and DASK_DISTRIBUTED__COMM__TLS__CLIENT__CERT (and "
            "DASK_DISTRIBUTED__COMM__TLS__CLIENT__KEY unless the key is in the certificate file), or the same "
            "in Dask's config file"
        ]
        variables = {
            "DASK_DISTRIBUTED__COMM__TLS__CA_FILE": str(files["ca"]),
            "DASK_DISTRIBUTED__COMM__TLS__CLIENT__CERT": str(files["cert"]),
            "DASK_DISTRIBUTED__COMM__TLS__CLIENT__KEY": str(tmp_path / "gone.pem"),
        }
        gone = subprocess.run(
            [*command, "--dask", address],
            env={**clean, **variables},
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert gone.returncode == 2
        assert gone.stderr.strip().splitlines() == [
            f"pyramid-solitaire: error: the client's key for the Dask scheduler at {address} is not a file: "
            f"{tmp_path / 'gone.pem'} (given by DASK_DISTRIBUTED__COMM__TLS__CLIENT__KEY or Dask's config)"
        ]
        assert not (tmp_path / "tls.csv").exists()
        variables["DASK_DISTRIBUTED__COMM__TLS__CLIENT__KEY"] = str(files["key"])
        done = subprocess.run(
            [*command, "--dask", address],
            env={**clean, **variables},
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
    assert done.returncode == 0, done.stderr
    assert "won " in done.stdout
    assert _results(tmp_path / "tls.csv") == _results(reference)[:5]


def test_a_scheduler_without_workers_is_refused_at_once(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    import distributed  # a dependency of the project: never skipped

    caplog.set_level(logging.ERROR, logger="distributed")
    with (
        distributed.LocalCluster(n_workers=0, processes=True, dashboard_address=None) as cluster,
        pytest.raises(StudyError, match="has no workers"),
    ):
        run_study(RULES, tmp_path / "none.csv", deals=3, dask=cluster.scheduler_address, time_limit=TIME_LIMIT)
    assert not (tmp_path / "none.csv").exists()


def test_study_errors_are_value_errors() -> None:
    with pytest.raises(StudyError):
        run_study(RULES, "unused.csv", deals=0)

"""The ``pyramid-solitaire`` command, run in-process through ``cli.main`` (and once as the installed script)."""

from __future__ import annotations

import io
import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from helpers import make_notation, row_of
from pyramid_solitaire.cards import Card
from pyramid_solitaire.cli import main
from pyramid_solitaire.deal import MAX_NUMBER, Deal
from pyramid_solitaire.game import Game
from pyramid_solitaire.record import write_record
from pyramid_solitaire.solver import solve

COVERED_JA = "このカードは別のカードに覆われています"


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def _json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    status, out, err = _run(capsys, *argv)
    assert status == 0, err
    assert err == ""
    data: dict[str, Any] = json.loads(out)
    return data


def _one_error_line(err: str) -> str:
    lines = err.splitlines()
    assert len(lines) == 1, err
    return lines[0]


def _deal_with_bottom_king(rules: str = "classic") -> tuple[Deal, Card]:
    """The first numbered deal with a king in the bottom row (usable from the start), and that king."""
    for number in range(500):
        deal = Deal.from_number(number, rules, "N")
        kings = [card for card in deal.cards[21:28] if card.rank == 13]
        if kings:
            return deal, kings[0]
    raise AssertionError("no deal with a king in the bottom row")


# --- deal ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("claimed", "shown"),
    [("CL1-E-AAAAAAA", "CL1-R-AAAAAAA"), ("PY1-N-AAAAAAS", "PY1-R-AAAAAAS"), ("CL1-E-AAAAAAB", "CL1-N-AAAAAAB")],
)
def test_deal_labels_a_code_for_what_it_is_not_for_what_its_letter_claims(
    capsys: pytest.CaptureFixture[str], claimed: str, shown: str
) -> None:
    data = _json(capsys, "deal", claimed, "--json")
    assert data["code"] == shown
    assert data["notation"] == Deal.from_code(claimed).notation  # the very deal the code names
    for lang in ("ja", "en"):
        status, out, _ = _run(capsys, "deal", claimed, "--lang", lang)
        assert status == 0 and shown in out and claimed not in out


@pytest.mark.parametrize("code", ["CL1-N-AAAAAAB", "PY1-N-AAAAAAJ", "TH1J2T1-N-ZZZZZZZ", "CL1M12C48-R-AAAAAAB"])
def test_deal_code_json_prints_the_code_rules_and_notation(capsys: pytest.CaptureFixture[str], code: str) -> None:
    data = _json(capsys, "deal", code, "--json")
    deal = Deal.from_code(code)
    assert data["code"] == code
    assert data["rules"] == str(deal.rules)
    assert data["notation"] == deal.notation
    assert data["number"] == deal.number
    assert Deal.from_code(data["full_code"]).cards == deal.cards


def test_deal_with_notation_prints_a_full_code_that_decodes_back(capsys: pytest.CaptureFixture[str]) -> None:
    notation = Deal.from_number(606).notation
    data = _json(capsys, "deal", "--deal", notation, "--json")
    assert data["notation"] == notation
    assert data["number"] is None
    assert data["code"] == data["full_code"]
    assert Deal.from_code(data["code"]).notation == notation


def test_deal_with_notation_in_symbols_prints_it_canonically(capsys: pytest.CaptureFixture[str]) -> None:
    deal = Deal.from_number(606)
    data = _json(capsys, "deal", "--deal", " ".join(c.symbol for c in deal.cards), "--rules", "msc", "--json")
    assert data["notation"] == deal.notation
    assert data["rules"] == "msc"
    assert Deal.from_code(data["code"]).rules == Deal.from_notation(deal.notation, "msc").rules


def test_deal_by_number_and_rules(capsys: pytest.CaptureFixture[str]) -> None:
    data = _json(capsys, "deal", "--number", "18", "--rules", "pyramide", "--json")
    assert data["code"] == "PY1-R-AAAAAAS"
    assert data["notation"] == Deal.from_number(18, "pyramide").notation


def test_deal_random_json_prints_a_deal_its_code_names(capsys: pytest.CaptureFixture[str]) -> None:
    data = _json(capsys, "deal", "--random", "--json")
    assert 0 <= data["number"] <= MAX_NUMBER
    assert data["rules"] == "classic"
    assert Deal.from_code(data["code"]).notation == data["notation"]
    assert Deal.from_code(data["code"]).number == data["number"]


def test_deal_without_json_shows_the_board_and_the_notation(capsys: pytest.CaptureFixture[str]) -> None:
    deal = Deal.from_code("CL1-N-AAAAAAB")
    status, out, _ = _run(capsys, "deal", "CL1-N-AAAAAAB")
    assert status == 0
    lines = out.splitlines()
    assert lines[-1] == deal.notation
    assert "".join(f"[{c}]" for c in deal.cards[21:28]) in out
    assert "CL1-N-AAAAAAB" in out


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (["deal", "--deal", "Ac Ad", "--json"], "expected 52 cards, got 2"),
        (["deal", "--deal", " ".join(["Zz", *Deal.from_number(1).notation.split()[1:]])], "token 1"),
        (["deal", "CL1-Q-AAAAAAA", "--json"], "'Q'"),
        (["deal", "ZZ1-N-AAAAAAA"], "'ZZ'"),
        (["deal", "CL1-N-AAAAAA"], "7 letters"),
        (["deal", "--rules", "nope", "--json"], "nope"),
        (["deal", "--rules", "thirteen(jokers=3)"], "jokers"),
        (["deal", "CL1-N-AAAAAAS", "--rules", "thirteen"], "thirteen"),
        (["deal", "--number", "-5"], "-5"),
    ],
)
def test_bad_deal_input_exits_2_with_one_line_naming_the_problem(
    capsys: pytest.CaptureFixture[str], argv: list[str], named: str
) -> None:
    status, out, err = _run(capsys, "--lang", "en", *argv)
    assert status == 2
    assert out == ""
    line = _one_error_line(err)
    assert line.startswith("pyramid-solitaire: error:")
    assert named in line
    # the same in Japanese (the default): one line, no English sentence in it
    status, out, err = _run(capsys, *argv)
    assert status == 2 and out == ""
    line = _one_error_line(err)
    assert line.startswith("pyramid-solitaire: エラー: ")
    assert not re.search(r"[a-z]{3,} [a-z]{3,} [a-z]{3,}", line), line


@pytest.mark.parametrize(
    ("argv", "ja", "en"),
    [
        (["deal", "NOTACODE"], "「NOTACODE」は配札コードではありません", "'NOTACODE' is not a deal code"),
        (
            ["deal", "CL1-R-"],
            "配札コード「CL1-R-」の番号の部分が空です",
            "deal code 'CL1-R-': its number part is empty",
        ),
        (["solve", "zzz"], "「zzz」は配札コードではありません", "'zzz' is not a deal code"),
        (["deal", "CL1-Q-AAAAAAB"], "難易度の文字「Q」はありません", "unknown difficulty letter 'Q'"),
        (["deal", "CL1-R-AAAB"], "局番号の部分は7文字です", "a deal number has 7 letters, this one has 4"),
        # an empty code (a script's unset variable) is an empty code, not a random deal
        (["deal", ""], "配札コードが空です", "the deal code is empty"),
        (["solve", " "], "配札コードが空です", "the deal code is empty"),
    ],
)
def test_a_bad_code_is_named_a_bad_code_and_which_part_is_wrong_in_either_language(
    capsys: pytest.CaptureFixture[str], argv: list[str], ja: str, en: str
) -> None:
    status, _, err = _run(capsys, *argv)
    assert status == 2 and ja in _one_error_line(err)
    status, _, err = _run(capsys, "--lang", "en", *argv)
    assert status == 2 and en in _one_error_line(err)


@pytest.mark.parametrize("argv", [["nosuchcmd"], ["slove", "CL1-R-AAAAAAB"], ["--lang", "en", "x"]])
def test_a_word_that_is_no_command_is_named_so(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    """Without a command the program serves, with the options given; a first word that is no option was
    meant as a command, and is named as one that does not exist (it said "unrecognized arguments")."""
    with pytest.raises(SystemExit) as done:
        main(argv)
    assert done.value.code == 2
    line = capsys.readouterr().err.splitlines()[-1]
    word = next(w for w in argv if w not in ("--lang", "en"))
    if "en" in argv:
        assert line == f"pyramid-solitaire: error: there is no command '{word}' (the commands: daily, deal, play, " + (
            "replay, serve, solve, stats, study, winnability)"
        )
    else:
        assert line.startswith(
            f"pyramid-solitaire: エラー: 「{word}」というコマンドはありません（コマンド：daily, deal"
        )


ENGLISH_NUMBER_ERROR = "error: argument --number: invalid int value: 'x'"
JAPANESE_NUMBER_ERROR = "エラー: 引数 --number: 数で書いてください: 'x'"


@pytest.mark.parametrize(
    ("environment", "expected"),
    [
        ({"LANG": "en_US.UTF-8"}, ENGLISH_NUMBER_ERROR),
        ({"LANG": "de_DE.UTF-8"}, ENGLISH_NUMBER_ERROR),
        ({"LANG": "ja_JP.UTF-8"}, JAPANESE_NUMBER_ERROR),
        ({"LANG": "C.UTF-8"}, JAPANESE_NUMBER_ERROR),
        ({}, JAPANESE_NUMBER_ERROR),
        ({"LANG": "en_US.UTF-8", "LC_ALL": "ja_JP.UTF-8"}, JAPANESE_NUMBER_ERROR),
        ({"LANG": "ja_JP.UTF-8", "LC_MESSAGES": "en_GB.UTF-8"}, ENGLISH_NUMBER_ERROR),
    ],
)
def test_without_lang_the_command_speaks_the_locales_language(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, environment: dict[str, str], expected: str
) -> None:
    """A person whose terminal is in English reads English without asking; Japanese, or a locale that
    names no language (C, nothing set), gives Japanese; ``--lang`` still decides over any of them."""
    for name in ("LANG", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(SystemExit):
        main(["deal", "--number", "x"])
    assert capsys.readouterr().err.splitlines()[-1] == f"pyramid-solitaire deal: {expected}"
    other = "ja" if expected.startswith("error") else "en"
    with pytest.raises(SystemExit):
        main(["deal", "--number", "x", "--lang", other])
    assert ("error:" in capsys.readouterr().err) == (other == "en")


def test_help_and_argparse_errors_are_in_the_chosen_language(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["deal", "--help"])
    out = capsys.readouterr().out
    assert done.value.code == 0
    assert out.startswith("使い方: pyramid-solitaire deal") and "配札コード（例：CL1-R-AAAAAAB）" in out
    assert "このヘルプを表示して終わる" in out and "show this help" not in out
    with pytest.raises(SystemExit):
        main(["--lang", "en", "deal", "--help"])
    out = capsys.readouterr().out
    assert out.startswith("usage: pyramid-solitaire deal") and "a deal code such as CL1-R-AAAAAAB" in out
    with pytest.raises(SystemExit) as done:
        main(["deal", "--number", "x"])
    err = capsys.readouterr().err
    assert done.value.code == 2
    assert err.splitlines()[-1] == "pyramid-solitaire deal: エラー: 引数 --number: 数で書いてください: 'x'"
    with pytest.raises(SystemExit):
        main(["deal", "--number", "x", "--lang=en"])
    assert (
        capsys.readouterr().err.splitlines()[-1] == "pyramid-solitaire deal: error: argument --number: "
        "invalid int value: 'x'"
    )


def test_solve_speaks_the_chosen_language(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = _run(capsys, "solve", "CL1-N-AAAAAAB")
    assert status == 0
    assert out.startswith("CL1-N-AAAAAAB  クリア可能  最大 28/28  ") and "局面" in out and "手: " in out
    status, out, _ = _run(capsys, "--lang", "en", "solve", "CL1-N-AAAAAAB")
    assert out.startswith("CL1-N-AAAAAAB  winnable  best 28/28  ") and " steps: " in out


# --- replay --------------------------------------------------------------------------------------------


def _write(tmp_path: Path, text: str) -> str:
    path = tmp_path / "game.txt"
    path.write_text(text, encoding="utf-8")
    return str(path)


SUMMARY_KEYS = {"status", "score", "moves", "undos", "pyramid_left", "stock_left", "waste", "pass"}


def test_replay_json_prints_the_final_figures(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    deal = Deal.from_code("CL1-N-AAAAAAS")
    record = _write(tmp_path, "Rules: classic\nDeal: CL1-N-AAAAAAS\n\ndraw\ndraw\ndraw\nundo\nredo\n")
    data = _json(capsys, "replay", record, "--json")
    assert set(data) >= SUMMARY_KEYS
    assert "error" not in data
    assert data["status"] == "playing"
    assert data["score"] is None
    assert data["moves"] == 4
    assert data["undos"] == 1
    assert data["pyramid_left"] == 28
    assert data["stock_left"] == 21
    assert data["waste"] == [str(c) for c in deal.stock[:3]]
    assert data["pass"] == 1


def test_replay_json_shows_the_pyramide_score_after_a_king(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    deal, king = _deal_with_bottom_king("pyramide")
    record = _write(tmp_path, f"Rules: pyramide\nDeal: {deal.code}\n\n{king}\ndraw\n")
    data = _json(capsys, "replay", record, "--json")
    assert data["score"] == 10
    assert data["pyramid_left"] == 27
    assert data["moves"] == 2
    assert data["stock_left"] == 22
    assert data["waste"] == [str(c) for c in deal.stock[:2]]


def test_replay_json_matches_a_game_played_in_process(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    game = Game(Deal.from_number(21, "msc"))
    for _ in range(30):
        moves = game.legal_moves()
        removals = [m for m in moves if m.kind == "remove"]
        game.push(removals[0] if removals else moves[0])
    data = _json(capsys, "replay", _write(tmp_path, write_record(game)), "--json")
    for key in SUMMARY_KEYS:
        assert data[key] == game.summary()[key], key


def test_replay_of_a_refused_move_exits_1_with_the_reason(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    deal = Deal.from_code("CL1-N-AAAAAAS")
    apex = str(deal.cards[0])
    record = _write(tmp_path, f"Rules: classic\nDeal: {deal.code}\n\ndraw\n{apex}\ndraw\n")
    status, out, err = _run(capsys, "replay", record, "--json")
    assert status == 1
    assert err == ""
    data = json.loads(out)
    assert data["error"]["code"] == "covered"
    assert COVERED_JA in data["error"]["message"]
    status, out, err = _run(capsys, "--lang", "en", "replay", record, "--json")
    assert json.loads(out)["error"]["message"].startswith("This card is covered by")
    assert data["moves"] == 1
    assert data["stock_left"] == 23


def test_replay_of_a_refused_move_without_json_names_the_move_in_japanese(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    deal = Deal.from_code("CL1-N-AAAAAAS")
    apex = str(deal.cards[0])
    record = _write(tmp_path, f"Rules: classic\nDeal: {deal.code}\n\ndraw\n{apex}\n")
    status, out, _ = _run(capsys, "replay", record)
    assert status == 1
    assert f"2手目（{apex}）は受け付けられません：{COVERED_JA}" in out
    assert "move" not in out and "refused" not in out
    status, out, _ = _run(capsys, "--lang", "en", "replay", record)
    assert f"move 2 ({apex}) refused: This card is covered by" in out


def test_replay_reads_standard_input(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("Rules: classic\nDeal: CL1-N-AAAAAAS\n\ndraw\n"))
    data = _json(capsys, "replay", "-", "--json")
    assert data["moves"] == 1
    assert data["stock_left"] == 23


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("Rules: classic\nnot a header\n\ndraw\n", "line 2"),
        ("Rules: classic\nDeal: CL1-N-AAAAAAS\n\ndraw\nZz+3c\n", "line 5"),
        ("Rules: classic\n\ndraw\n", "Deal:"),
        ("Rules: nope\nDeal: CL1-N-AAAAAAS\n\ndraw\n", "nope"),
    ],
)
def test_an_unreadable_record_exits_2_with_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str, named: str
) -> None:
    status, out, err = _run(capsys, "--lang", "en", "replay", _write(tmp_path, text), "--json")
    assert status == 2
    assert out == ""
    assert named in _one_error_line(err)


def test_a_missing_record_file_exits_2_with_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    missing = tmp_path / "nothing-here.txt"
    status, _, err = _run(capsys, "replay", str(missing))
    assert status == 2
    assert _one_error_line(err) == f"pyramid-solitaire: エラー: {missing} を読めません：ファイルがありません"
    status, _, err = _run(capsys, "--lang", "en", "replay", str(missing))
    assert _one_error_line(err) == f"pyramid-solitaire: error: cannot read {missing}: No such file or directory"


# --- play ------------------------------------------------------------------------------------------------


def _play(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, commands: str, *argv: str
) -> tuple[int, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(commands))
    status, out, _ = _run(capsys, *argv)
    return status, out


def _boards(out: str) -> list[str]:
    """The boards the game drew: each ends with its figures line (手数 / Moves)."""
    boards, current = [], []
    for line in out.splitlines():
        current.append(line)
        if line.startswith(("手数:", "Moves:")):
            boards.append("\n".join(current))
            current = []
    return boards


def test_playing_a_king_removes_it_and_redraws_the_board(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    deal, king = _deal_with_bottom_king()
    status, out = _play(capsys, monkeypatch, f"{king}\nq\n", "play", deal.code)
    assert status == 0
    first, second = _boards(out)
    assert f"[{king}]" in first
    assert str(king) not in second
    assert "手数: 0" in first
    assert "手数: 1" in second
    assert out.rstrip().endswith("終了します")


def test_a_card_may_be_named_with_its_symbol_in_play(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    deal, king = _deal_with_bottom_king()
    _, out = _play(capsys, monkeypatch, f"{king.symbol}\nq\n", "play", deal.code)
    assert str(king) not in _boards(out)[-1]


def test_playing_a_covered_card_reports_it_in_japanese(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    deal = Deal.from_code("CL1-N-AAAAAAS")
    status, out = _play(capsys, monkeypatch, f"{deal.cards[0]}\nq\n", "play", deal.code)
    assert status == 0
    assert f"× {COVERED_JA}" in out
    assert len(_boards(out)) == 1
    _, out = _play(capsys, monkeypatch, "Zz\nq\n", "play", deal.code)
    assert "× 手「Zz」が正しくありません：「Zz」はカードではありません" in out  # all in Japanese
    assert "bad move" not in out and "unknown card" not in out


def test_playing_in_english_reports_in_english(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    deal = Deal.from_code("CL1-N-AAAAAAS")
    _, out = _play(capsys, monkeypatch, f"{deal.cards[0]}\nq\n", "--lang", "en", "play", deal.code)
    assert "This card is covered by" in out
    assert out.rstrip().endswith("Bye.")


def test_q_quits_and_ignores_what_follows(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    deal, king = _deal_with_bottom_king()
    status, out = _play(capsys, monkeypatch, f"q\n{king}\n", "play", deal.code)
    assert status == 0
    assert len(_boards(out)) == 1
    assert out.rstrip().endswith("終了します")


def test_play_draws_from_the_stock(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    deal = Deal.from_code("CL1-N-AAAAAAS")
    _, out = _play(capsys, monkeypatch, "d\nq\n", "play", deal.code)
    second = _boards(out)[1]
    assert "残り 23" in second
    assert f"[{deal.stock[0]}]" in second


def test_the_default_command_is_serve_whatever_sys_argv_holds(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # main(argv) must parse argv, not the process's own command line (here: pytest's).
    import time
    import webbrowser

    import uvicorn

    started: list[dict[str, Any]] = []
    opened: list[str] = []
    monkeypatch.setattr(sys, "argv", ["pyramid-solitaire", "deal", "CL1-N-AAAAAAS", "--json"])
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: started.append(options))
    monkeypatch.setattr(webbrowser, "open", opened.append)
    status = main([])
    out, _ = capsys.readouterr()
    assert status == 0
    assert len(started) == 1 and started[0]["host"] == "127.0.0.1"
    url = f"http://127.0.0.1:{started[0]['port']}/"
    assert url in out
    deadline = time.monotonic() + 5
    while not opened and time.monotonic() < deadline:
        time.sleep(0.05)
    assert opened == [url]  # the browser is opened at the address printed


# --- the installed console script ----------------------------------------------------------------------


def test_the_installed_console_script_prints_a_deal_and_exits_2_on_a_bad_code() -> None:
    script = Path(sys.executable).parent / "pyramid-solitaire"
    assert script.is_file(), f"console script not installed at {script} (pip install -e .)"
    good = subprocess.run(
        [str(script), "deal", "PY1-N-AAAAAAD", "--json"], capture_output=True, text=True, timeout=60, check=False
    )
    assert good.returncode == 0, good.stderr
    data = json.loads(good.stdout)
    assert data["code"] == "PY1-N-AAAAAAD"
    assert data["notation"] == Deal.from_code("PY1-N-AAAAAAD").notation
    bad = subprocess.run(
        [str(script), "deal", "PY1-Q-AAAAAAS"], capture_output=True, text=True, timeout=60, check=False
    )
    assert bad.returncode == 2
    assert bad.stdout == ""
    assert "「Q」" in _one_error_line(bad.stderr)


@pytest.mark.parametrize(
    "argv",
    [
        ["deal", "CL1-N-AAAAAAJ"],
        ["deal", "CL1-N-AAAAAAJ", "--json"],
        ["stats", "--db", "sqlite:///{tmp}/records.sqlite3"],
    ],
)
def test_a_reader_that_goes_away_ends_the_command_quietly(argv: list[str], tmp_path: Path) -> None:
    """``pyramid-solitaire deal CODE | head -1``: the reader closes the pipe before the output is written;
    the command stops without a BrokenPipeError traceback on stderr."""
    if "stats" in argv:  # a database there, with no records yet (stats on a missing file is an error)
        from pyramid_solitaire.store import Store

        Store(f"sqlite:///{tmp_path}/records.sqlite3").close()
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader is gone before anything is written, so every write meets EPIPE
    try:
        words = [word.format(tmp=tmp_path) for word in argv]  # the database goes in the test's own folder
        done = subprocess.run(
            [sys.executable, "-m", "pyramid_solitaire.cli", *words],
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
            check=False,
        )
    finally:
        os.close(write_end)
    assert done.stderr == ""
    assert done.returncode == 141


def test_daily_prints_the_days_code_and_as_json_its_par(capsys: pytest.CaptureFixture[str]) -> None:
    from datetime import date

    from pyramid_solitaire.daily import compute_par, daily_deal

    expected = daily_deal("thirteen", date(2026, 12, 1))
    assert main(["daily", "--rules", "thirteen", "--date", "2026-12-01"]) == 0
    assert capsys.readouterr().out == f"2026-12-01  thirteen  {expected.code}\n"
    assert main(["daily", "--rules", "thirteen", "--date", "2026-12-01", "--json", "--par"]) == 0
    shown = json.loads(capsys.readouterr().out)
    par = compute_par(expected)
    assert shown == {
        "date": "2026-12-01",
        "rules": "thirteen",
        "code": expected.code,
        "par": par.moves,
        "par_status": "known" if par.known else "unknown",
    }
    assert main(["daily", "--json", "--timezone", "Pacific/Kiritimati"]) == 0  # today, somewhere
    assert json.loads(capsys.readouterr().out)["par_status"] == "not-computed"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["daily", "--date", "2026-12-32"],
            "pyramid-solitaire: エラー: 2026-12-32 という日はありません",
        ),
        (["daily", "--timezone", "Nowhere/City", "--lang", "en"], "error: there is no time zone called Nowhere/City"),
        (["serve", "--timezone", "Nowhere/City", "--lang", "en"], "there is no time zone called Nowhere/City"),
        # given empty, refused alike (serve used to take it for the default)
        (["daily", "--timezone", "", "--lang", "en"], "error: no time zone given (for example Asia/Tokyo)"),
        (["serve", "--timezone", "", "--lang", "en"], "error: no time zone given (for example Asia/Tokyo)"),
        (["stats", "--db", "", "--lang", "en"], "error: not a database URL: ''"),
        (["serve", "--db", "foo", "--lang", "en"], "error: database URL 'foo' names no kind of database"),
        (["serve", "--db", "", "--lang", "en"], "error: database URL '' names no kind of database"),
    ],
)
def test_daily_names_a_bad_date_or_time_zone(capsys: pytest.CaptureFixture[str], args: list[str], message: str) -> None:
    assert main(args) == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize(
    ("rules", "named", "not_named"),
    [
        ("classic", ["d めくる", "r 山札に戻す"], ["フリーセル", "ジョーカー", "3枚"]),
        ("classic(passes=1)", ["d めくる"], ["r 山札に戻す"]),  # one pass: no recycle to offer
        ("cells", ["Qs>cell フリーセルに置く", "r 山札に戻す"], ["ジョーカー"]),
        ("giza", ["u 元に戻す"], ["山札", "めくる"]),  # no stock at all
        (
            "thirteen(jokers=2,triples=true)",
            ["3枚で取り除く (2c+4d+7h)", "ジョーカーと取り除く (X1+Tc)"],
            ["フリーセル"],
        ),
    ],
)
def test_the_terminal_lists_the_commands_of_the_rules_in_play(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    rules: str,
    named: list[str],
    not_named: list[str],
) -> None:
    """The command line under the board offers what this game takes: a park only with free cells, a recycle
    only where one is allowed, the stock's commands only with a stock, jokers and triples where they are."""
    _, out = _play(capsys, monkeypatch, "?\nq\n", "play", "--rules", rules)
    offered = [line for line in out.splitlines() if line.startswith("コマンド: ")]
    assert len(offered) == 2 and offered[0] == offered[1]  # at the start, and again on "?"
    assert all(part in offered[0] for part in named), offered[0]
    assert not any(part in offered[0] for part in not_named), offered[0]


def test_the_terminal_lists_its_commands_in_english(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, out = _play(capsys, monkeypatch, "q\n", "--lang", "en", "play", "--rules", "cells")
    offered = next(line for line in out.splitlines() if line.startswith("Commands: "))
    assert offered == (
        "Commands: name cards to remove them (Kd / Tc 3s / Tc+3s), Qs>cell park in a free cell, s tap the stock, "
        "d draw, r recycle, u undo, y redo, h hint, b rewind before the dead card, code show the code, q quit"
    )


def test_the_terminal_game_ends_with_a_win_and_not_with_a_loss(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """After the winning move there is nothing left to do (undo is refused then), so the game says so and
    ends; after a loss the player may still take a move back (seed 001), so it waits for the next command."""
    code = "CL1-R-AAAAAAB"
    line = solve(Deal.from_code(code), time_limit=30).solution
    assert line is not None
    moves = "".join(f"{move}\n" for move in line)
    _, out = _play(capsys, monkeypatch, f"{moves}u\nh\n", "play", code)
    assert out.rstrip().endswith("クリア！\n終了します")
    assert "× このゲームは終わっています" not in out  # the lines after the win were not read
    # aces and twos under every king, queen and jack: nothing is ever removed, so the last draw loses
    stuck = {**row_of(7, "Ac Ad Ah As 2c 2d 2h"), **row_of(6, "Kc Kd Kh Ks Qc Qd"), **row_of(5, "Qh Qs Jc Jd Jh")}
    lost = Deal.from_notation(make_notation({**stuck, **row_of(4, "Js")}), "classic").code
    _, out = _play(capsys, monkeypatch, "s\n" * 74 + "u\nq\n", "play", lost)
    boards = _boards(out)
    assert len(boards) == 1 + 74 + 1  # the start, each tap of the stock, and the undo after the loss
    lost_at = out.index("\n手詰まりです\n")  # the status line under the 74th board
    assert out.count("手詰まりです") == 1 and "3/3周目 · 残り 1" in out[lost_at:]  # the undo's board
    assert out.rstrip().endswith("終了します")


def test_the_terminal_takes_a_park_into_a_numbered_cell_as_records_write_it(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``Qs>cell2`` parks in the second cell, as a record and the web app write it; a cell the game lacks is
    refused in the same numbering, and the game goes on."""
    code = Deal.from_number(1, "classic(cells=2)").code
    usable = next(str(m) for m in Game(Deal.from_code(code)).legal_moves() if str(m).endswith(">cell"))[: -len(">cell")]
    _, out = _play(capsys, monkeypatch, f"{usable}>cell3\n{usable}>cell2\nq\n", "--lang", "en", "play", code)
    assert "× There is no free cell 3 (this game has 2)." in out
    assert f"Free cells: [  ] [{usable}]" in _boards(out)[-1]


@pytest.mark.parametrize(
    ("argv", "given"),
    [
        (["deal", "CL1-R-AAAAAAB", "--number", "5"], "CODE / --number"),
        (["deal", "--number", "1", "--random"], "--number / --random"),
        (["play", "--number", "1", "--deal", "Ks"], "--deal / --number"),
        (["solve", "--deals-file", "deals.txt", "CL1-R-AAAAAAB"], "CODE / --deals-file"),
    ],
)
def test_a_deal_named_two_ways_is_refused_rather_than_one_of_them_dropped(
    capsys: pytest.CaptureFixture[str], argv: list[str], given: str
) -> None:
    status, out, err = _run(capsys, "--lang", "en", *argv)
    assert (status, out) == (2, "")
    assert err.strip() == f"pyramid-solitaire: error: {given}: each names a deal; give one of them"


@pytest.mark.parametrize("limit", ["nan", "inf", "0", "-1"])
def test_solve_takes_only_a_finite_positive_time_limit(capsys: pytest.CaptureFixture[str], limit: str) -> None:
    status, out, err = _run(capsys, "solve", "--time-limit", limit, "CL1-R-AAAAAAB")
    assert (status, out) == (2, "")
    assert err.strip() == "pyramid-solitaire: エラー: --time-limit は有限の正の秒数です"


def test_the_daily_rule_set_is_named_in_any_case_as_everywhere_else(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = _run(capsys, "daily", "--rules", "THIRTEEN", "--date", "2026-12-07")
    assert status == 0 and out.split()[1] == "thirteen"


# --- Ctrl-C ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("lang", "said"), [("en", "interrupted"), ("ja", "中断しました")])
def test_ctrl_c_at_plays_prompt_ends_with_one_line_and_status_130(lang: str, said: str) -> None:
    """Ctrl-C while play waits for a command: one line, in the player's language, and no traceback."""
    process = subprocess.Popen(
        [sys.executable, "-m", "pyramid_solitaire.cli", "play", "CL1-R-AAAAAAB", "--lang", lang],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    shown = ""
    while "CL1-R-AAAAAAB" not in shown:  # the table is printed: play now reads its first command
        line = process.stdout.readline()
        assert line, "play ended before its table was printed"
        shown += line
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130
    assert err == f"pyramid-solitaire: {said}\n"


def test_ctrl_c_during_a_solve_or_a_replay_from_standard_input_ends_with_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C while the solver searches (a shortest line can take seconds) or while a record is read from
    standard input: the same one line and status 130."""

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr("pyramid_solitaire.solver.solve", interrupted)
    assert _run(capsys, "--lang", "en", "solve", "FC1-R-AAAAABC", "--shortest") == (
        130,
        "",
        "pyramid-solitaire: interrupted\n",
    )
    monkeypatch.setattr("sys.stdin", type("Typing", (), {"read": interrupted})())
    assert _run(capsys, "--lang", "ja", "replay") == (130, "", "pyramid-solitaire: 中断しました\n")

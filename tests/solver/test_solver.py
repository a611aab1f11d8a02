"""The solver against the public msc-1500 data set, the time limit, coach hints and difficulty."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from rule_sets import of_kind

from pyramid_solitaire import Deal, Game
from pyramid_solitaire.cli import main
from pyramid_solitaire.solver import solve, solve_position
from pyramid_solitaire.solver.coach import coach_hint, first_losing_move
from pyramid_solitaire.solver.difficulty import MAX_ACTIONS, rate, sensible_choice
from pyramid_solitaire.table import Table

DATA = Path(__file__).resolve().parents[2] / "data" / "msc-1500"


def _msc_data() -> tuple[list[str], list[int]]:
    decks = DATA / "random-decks.txt"
    lengths = DATA / "random-deck-solution-lengths.txt"
    assert decks.exists() and lengths.exists(), f"data set missing: expected {decks} and {lengths}"
    return decks.read_text().splitlines(), [int(x) for x in lengths.read_text().split()]


def _replays_to_win(deal: Deal, moves: list) -> bool:
    game = Game(deal)
    for move in moves:
        game.push(move)
    return game.status == "won"


def test_every_msc_1500_verdict_matches_the_data_set_and_every_solution_wins() -> None:
    decks, lengths = _msc_data()
    assert len(decks) == len(lengths) == 1500
    wrong = []
    for line, length in zip(decks, lengths, strict=True):
        deal = Deal.from_notation(line, "msc")
        result = solve(deal, best=False)
        if result.winnable != (length > 0):
            wrong.append((line, result.winnable, length))
        elif result.winnable:
            assert result.solution is not None and _replays_to_win(deal, result.solution)
    assert not wrong


@pytest.mark.parametrize("index", [0, 3, 8, 12, 22, 24, 26, 27, 28, 29])
def test_shortest_msc_solutions_have_the_data_sets_length(index: int) -> None:
    decks, lengths = _msc_data()
    deal = Deal.from_notation(decks[index], "msc")
    result = solve(deal, shortest=True, best=False)
    assert result.length == lengths[index]
    assert result.solution is not None and _replays_to_win(deal, result.solution)


def test_unwinnable_msc_deals_report_how_far_they_can_go() -> None:
    decks, lengths = _msc_data()
    for index in [i for i, length in enumerate(lengths[:60]) if length == 0][:8]:
        deal = Deal.from_notation(decks[index], "msc")
        result = solve(deal)
        assert result.winnable is False
        assert 0 <= result.max_pyramid_removed < 28
        # the best line really removes that many pyramid cards
        game = Game(deal)
        for move in result.best_line or []:
            game.push(move)
        assert 28 - game.pyramid_left == result.max_pyramid_removed


def test_time_limit_gives_unknown_never_a_guess() -> None:
    decks, _ = _msc_data()
    deal = Deal.from_notation(decks[1344], "msc")  # one of the hardest verdicts of the set
    result = solve(deal, time_limit=0.001)
    assert result.winnable is None
    assert result.solution is None and result.length is None


def test_a_win_found_before_the_shortest_search_runs_out_is_still_a_win(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The time running out in the shortest search, after the verdict's search found a win, leaves the deal
    winnable with that win's line, marked not proved the fewest; never "unknown" (it was reported unknown,
    "best 28/28", with no line). The time limit is simulated: the shortest search raises as if it ran out."""
    import pyramid_solitaire.solver as solver
    from pyramid_solitaire.daily import compute_par
    from pyramid_solitaire.solver.counter import SearchTimeout

    deal = Deal.from_code("CL1-R-AAAAAAB")
    proved = solve(deal, shortest=True)
    assert proved.winnable is True and proved.shortest is True

    def runs_out(*args: object) -> None:
        raise SearchTimeout

    monkeypatch.setattr(solver, "shortest_win", runs_out)
    result = solve(deal, shortest=True, time_limit=60)
    assert result.winnable is True and result.shortest is False
    assert result.solution is not None and _replays_to_win(deal, result.solution)
    assert result.length is not None and result.length >= proved.length  # the verdict's line, maybe longer
    assert result.to_json()["shortest"] is False and result.max_pyramid_removed == deal.rules.board_size
    assert compute_par(deal).moves is None  # a par is the fewest moves or nothing
    assert main(["--lang", "en", "solve", deal.code, "--shortest", "--time-limit", "60"]) == 0
    first, steps = capsys.readouterr().out.splitlines()
    assert first.startswith("CL1-R-AAAAAAB  winnable (the fewest steps unknown: time limit)  best 28/28")
    assert steps.startswith(f"  {result.length} steps: ")
    assert main(["--lang", "ja", "solve", deal.code, "--shortest", "--time-limit", "60"]) == 0
    assert "クリア可能（最短手数は不明：時間切れ）" in capsys.readouterr().out


def _line_until_lost(deal: Deal, seed: int) -> Game:
    """Random legal play until the game can no longer be won (or is over)."""
    rng = random.Random(seed)
    game = Game(deal)
    while game.status == "playing":
        game.push(rng.choice(game.legal_moves()))
        if solve_position(game.table, game.position, best=False).winnable is False:
            break
    return game


def test_coach_hint_keeps_a_winnable_game_winnable() -> None:
    for number in range(6):
        deal = Deal.from_number(number, "classic")
        game = Game(deal)
        if solve(deal, best=False).winnable is not True:
            continue
        for _ in range(8):
            hint = coach_hint(game)
            assert hint.winnable is True and hint.uses_hidden_cards and hint.move is not None
            game.push(hint.move)
            if game.status == "won":
                break
            assert solve_position(game.table, game.position, best=False).winnable is True


def test_coach_hint_in_a_lost_position_keeps_the_best_reachable() -> None:
    deal = Deal.from_number(0, "classic")
    game = _line_until_lost(deal, seed=3)
    hint = coach_hint(game)
    assert hint.winnable is False
    if hint.move is not None:
        game.push(hint.move)
        assert solve_position(game.table, game.position).max_pyramid_removed == hint.best_reachable


def test_first_losing_move_is_where_winnability_was_lost() -> None:
    checked = 0
    for number in range(12):
        deal = Deal.from_number(number, "classic")
        if solve(deal, best=False).winnable is not True:
            continue
        game = _line_until_lost(deal, seed=number)
        lost = first_losing_move(game)
        if game.status == "won":
            assert lost.index is None
            continue
        assert lost.index is not None and lost.move == game.history[lost.index].move
        before = game.history[lost.index].before
        after = game.history[lost.index + 1].before if lost.index + 1 < len(game.history) else game.position
        assert solve_position(game.table, before, best=False).winnable is True
        assert solve_position(game.table, after, best=False).winnable is False
        checked += 1
    assert checked >= 2


def test_difficulty_is_a_stable_share_of_sensible_wins() -> None:
    ratings = {}
    for number in range(8):
        deal = Deal.from_number(number, "classic")
        first, again = rate(deal, playouts=8), rate(deal, playouts=8)
        assert first == again and 0 <= first.wins <= 8
        ratings[number] = (first.rating, solve(deal, best=False).winnable)
    # a sensible player never wins a deal the solver proves unwinnable
    assert all(rating == 0 for rating, winnable in ratings.values() if winnable is False)
    assert any(rating > 0 for rating, _ in ratings.values())


def test_a_sensible_game_stuck_in_endless_rounds_is_lost_exactly_as_if_played_to_the_end() -> None:
    """With unlimited passes a playout stops when the same round comes back; playing every game to
    MAX_ACTIONS instead, with the same random generator, must win exactly the same games."""
    for rules in of_kind(lambda space: space.unlimited):  # the rule sets with unlimited passes
        for number in range(4):
            deal = Deal.from_number(number, rules)
            table = Table(deal)
            rng = random.Random(f"difficulty-v1:{deal.notation}:{deal.rules}")
            wins = 0
            for _ in range(8):
                pos = table.start()
                for _ in range(MAX_ACTIONS):
                    if table.won(pos):
                        break
                    action = sensible_choice(table, pos, rng)
                    if action is None:
                        break
                    pos = table.apply(pos, action)
                wins += table.won(pos)
            assert rate(deal, playouts=8).wins == wins, (rules, number)


def test_solve_jsonl_prints_one_object_per_deal_in_input_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    decks, lengths = _msc_data()
    path = tmp_path / "deals.txt"
    path.write_text("\n".join(decks[:5]) + "\n")
    assert main(["solve", "--deals-file", str(path), "--rules", "msc", "--jsonl"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [row["deal"] for row in rows] == decks[:5]
    for row, length in zip(rows, lengths[:5], strict=True):
        assert set(row) >= {"deal", "winnable", "solution", "length", "max_pyramid_removed", "seconds", "nodes"}
        assert row["winnable"] == (length > 0)
        assert (row["solution"] is None) == (length == 0)
        assert row["length"] == (len(row["solution"]) if row["solution"] else None)


def test_solve_rejects_a_bad_deals_file_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "deals.txt"
    path.write_text("Kc Kd\n")
    assert main(["--lang", "en", "solve", "--deals-file", str(path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "line 1" in err[0] and "expected 52 cards" in err[0]
    assert main(["solve", "--deals-file", str(path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    said, missing = err[0].split("不足：")
    assert said == f"pyramid-solitaire: エラー: {path} の1行目：52枚のはずが2枚です。"
    assert len(missing.split()) == 50 and "Ac" in missing.split() and "Kc" not in missing.split()

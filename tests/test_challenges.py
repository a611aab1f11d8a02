"""The daily challenges' sets and proofs: a day's set is the same whoever makes it and differs from the
day before, and every goal offered is re-checked here by replaying its proof through the engine and
reading the goal off the game with checks written apart from challenges.py."""

from __future__ import annotations

from datetime import date, timedelta
from itertools import pairwise

import pytest

from pyramid_solitaire import Deal, Game
from pyramid_solitaire.challenges import KINDS, MOVES_SLACK, Challenge, Played, day_set, progress
from pyramid_solitaire.solver import solve

DAYS = [date(2026, 12, 1) + timedelta(days=n) for n in range(6)]


@pytest.fixture(scope="module")
def sets() -> dict[date, list[Challenge]]:
    return {day: day_set(day) for day in DAYS}


def replayed(code: str, line: tuple[str, ...]) -> Game:
    game = Game(Deal.from_code(code))
    for move in line:
        game.push(move)
    return game


def test_a_day_has_every_kind_once_and_the_same_set_whoever_makes_it(sets: dict[date, list[Challenge]]) -> None:
    for day, made in sets.items():
        assert [c.kind for c in made] == [kind.name for kind in KINDS]
        assert len({c.id for c in made}) == len(made) >= 4
        assert all(c.id == f"{day.isoformat()}-{c.kind}" for c in made)
        assert day_set(day) == made  # made again from nothing but the day


def test_a_days_deals_differ_from_the_day_before(sets: dict[date, list[Challenge]]) -> None:
    for before, after in pairwise(DAYS):
        for old, new in zip(sets[before], sets[after], strict=True):
            assert old.codes != new.codes, (old.id, new.id)


def test_every_goal_is_proved_by_its_own_line(sets: dict[date, list[Challenge]]) -> None:
    for made in sets.values():
        for challenge in made:
            games = [replayed(code, line) for code, line in zip(challenge.codes, challenge.proofs, strict=True)]
            kind = challenge.kind
            if kind == "moves":
                (game,) = games
                par = solve(game.deal, shortest=True).length
                assert game.status == "won" and game.moves == par
                assert challenge.target == par + MOVES_SLACK  # within N moves, N not under par
            elif kind == "score":
                (game,) = games
                assert game.rules.preset == "pyramide" and game.score is not None
                assert game.score == challenge.target  # the line scores the target (10 a pyramid card)
                best = solve(game.deal)
                assert best.winnable is False and 10 * best.max_pyramid_removed == challenge.target
            elif kind == "one_pass":
                (game,) = games
                assert game.status == "won"
                assert all(step.move.kind != "recycle" for step in game.history)
            elif kind == "in_a_row":
                assert len(games) == challenge.target == 2
                assert all(g.status == "won" and g.undos == 0 for g in games)
                assert challenge.codes[0] != challenge.codes[1]
            else:
                assert kind == "thirteen"
                (game,) = games
                assert game.status == "won" and game.rules.preset == "thirteen" and not game.rules.open_pyramid
            verified = all(code.split("-")[1] in ("E", "N") for code in challenge.codes)
            assert verified or kind == "score"  # the score kind's deals are lost ones, proved so


def played(code: str, won: bool, undos: int = 0, over: bool = True) -> Played:
    return Played(code, won, over, moves=40, undos=undos, most_removed=28 if won else 10, recycled=False)


def test_deals_in_a_row_count_a_run_that_a_loss_or_an_undo_breaks() -> None:
    challenge = Challenge("2026-12-04-in_a_row", "in_a_row", ("A", "B"), 2, ((), ()))
    assert progress(challenge, []) == (0, False)
    assert progress(challenge, [played("A", True)]) == (1, False)
    assert progress(challenge, [played("A", True), played("B", True)]) == (2, True)
    assert progress(challenge, [played("A", True), played("B", True, undos=1)]) == (0, False)
    assert progress(challenge, [played("A", True), played("B", False)]) == (0, False)
    assert progress(challenge, [played("A", True, undos=2), played("B", True)]) == (0, False)
    # an unfinished game leaves the run as it is; a new first deal's win starts it again
    assert progress(challenge, [played("A", True), played("B", False, over=False)]) == (1, False)
    assert progress(challenge, [played("A", True), played("B", False), played("A", True)]) == (1, False)

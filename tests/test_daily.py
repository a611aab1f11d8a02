"""The daily deal's choice of deal and day, and par: a verified catalogue deal a day, the same for
everyone, turning at midnight in the server's time zone; par equal to the known shortest lengths."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest

from pyramid_solitaire.catalog import catalogue
from pyramid_solitaire.daily import (
    EPOCH,
    MAIN_RULES,
    DailyError,
    check_rules,
    compute_par,
    daily_deal,
    order,
    parse_day,
    today,
)
from pyramid_solitaire.deal import Deal
from pyramid_solitaire.game import Game
from pyramid_solitaire.rules import PRESETS
from pyramid_solitaire.solver import solve

DATA = Path(__file__).resolve().parents[1] / "data" / "msc-1500"
#: Every how many deals of the data set par is checked here (all 1,500 are timed by benchmarks/par.py).
PAR_STRIDE = 75


@pytest.mark.parametrize("rules", MAIN_RULES)
def test_a_days_deal_is_a_verified_catalogue_deal_with_its_band_letter(rules: str) -> None:
    built = catalogue(rules)
    assert built is not None
    for offset in (0, 1, 365):
        deal = daily_deal(rules, EPOCH + timedelta(days=offset))
        assert deal.rules == PRESETS[rules]
        band = "easy" if deal.difficulty == "E" else "normal"
        assert deal.number in built[band]
        assert solve(deal, best=False, time_limit=30).winnable is True


@pytest.mark.parametrize("rules", MAIN_RULES)
def test_the_same_day_gives_the_same_deal_and_no_deal_comes_back_before_all_had_their_day(rules: str) -> None:
    day = date(2027, 3, 14)
    assert daily_deal(rules, day).code == daily_deal(rules, day).code
    year = [daily_deal(rules, EPOCH + timedelta(days=n)).number for n in range(400)]
    assert len(set(year)) == 400
    cycle = len(order(rules))
    assert daily_deal(rules, EPOCH + timedelta(days=cycle)).code == daily_deal(rules, EPOCH).code


def test_each_rule_set_has_its_own_deal_each_day() -> None:
    codes = {daily_deal(rules, EPOCH).code for rules in MAIN_RULES}
    assert len(codes) == 3
    assert [code[:2] for code in sorted(codes)] == ["CL", "PY", "TH"]


def test_the_day_turns_at_midnight_in_the_servers_time_zone() -> None:
    # 2026-12-03 14:59:59 UTC is 23:59:59 in Tokyo; a second later it is the 4th there, still the 3rd in UTC.
    before = datetime(2026, 12, 3, 14, 59, 59, tzinfo=UTC).timestamp()
    assert today("Asia/Tokyo", before) == date(2026, 12, 3)
    assert today("Asia/Tokyo", before + 1) == date(2026, 12, 4)
    assert today("UTC", before + 1) == date(2026, 12, 3)
    assert today("America/New_York", before + 1) == date(2026, 12, 3)


def test_bad_dates_rule_sets_and_time_zones_are_named_in_both_languages() -> None:
    with pytest.raises(DailyError) as bad_date:
        parse_day("2026-1-1")
    assert bad_date.value.message("ja") == "日付「2026-1-1」は YYYY-MM-DD の形で書いてください"
    assert bad_date.value.message("en") == "the date 2026-1-1 is not written YYYY-MM-DD"
    # written right, but no such day: said so, not "not written YYYY-MM-DD"
    for day in ("2026-13-01", "2026-02-29", "2026-12-32"):
        with pytest.raises(DailyError) as no_day:
            parse_day(day)
        assert no_day.value.message("ja") == f"{day} という日はありません"
        assert no_day.value.message("en") == f"there is no day {day} in the calendar"
    for written in ("2026-1-1", "20261203xx", "2026-W49-4", "２０２６-１２-０３", "2026-12-03T00:00"):
        with pytest.raises(DailyError):
            parse_day(written)
    with pytest.raises(DailyError) as bad_rules:
        check_rules("msc")
    assert bad_rules.value.message("en") == "msc has no daily deal (these have one: classic, pyramide, thirteen)"
    with pytest.raises(DailyError) as bad_zone:
        today("Mars/Olympus")
    assert "Mars/Olympus" in bad_zone.value.message("ja")


def _msc_sample() -> list[tuple[Deal, int]]:
    lines = (DATA / "random-decks.txt").read_text(encoding="utf-8").splitlines()
    lengths = [int(x) for x in (DATA / "random-deck-solution-lengths.txt").read_text().split()]
    return [(Deal.from_notation(lines[i], "msc"), lengths[i]) for i in range(0, len(lines), PAR_STRIDE)]


@pytest.mark.parametrize(("deal", "length"), _msc_sample(), ids=lambda v: v.code[:10] if isinstance(v, Deal) else "")
def test_par_is_the_data_sets_shortest_length_under_msc_rules(deal: Deal, length: int) -> None:
    par = compute_par(deal)
    if length == 0:  # the data set's 0: no win at all, so no par
        assert par.moves is None
        return
    assert par.moves == length
    # and it is counted as the game counts a player's moves: playing a shortest line gives that many
    line = solve(deal, shortest=True, best=False).solution
    assert line is not None
    game = Game(deal)
    for move in line:
        game.push(move)
    assert game.status == "won"
    assert game.moves == par.moves


def test_a_par_search_that_runs_out_of_time_is_unknown_never_a_guess() -> None:
    deal = daily_deal("classic", EPOCH)
    par = compute_par(deal, seconds=0.0)
    assert par.moves is None
    assert not par.known


def _par_of_line(line: str) -> int | None:
    return compute_par(Deal.from_notation(line, "msc")).moves


@pytest.mark.slow
def test_par_of_every_msc_1500_deal_is_the_data_sets_shortest_length() -> None:
    """All 1,500 deals, two at a time (one per core): par is the data set's length, and no par for its 0s."""
    from concurrent.futures import ProcessPoolExecutor

    lines = (DATA / "random-decks.txt").read_text(encoding="utf-8").splitlines()
    lengths = [int(x) for x in (DATA / "random-deck-solution-lengths.txt").read_text().split()]
    with ProcessPoolExecutor(max_workers=2) as pool:
        pars = list(pool.map(_par_of_line, lines, chunksize=10))
    wrong = [
        (n, par, length)
        for n, (par, length) in enumerate(zip(pars, lengths, strict=True), 1)
        if par != (length or None)
    ]
    assert wrong == []

"""Verified deals by difficulty (catalog.py): what やさしい / ふつう / 完全ランダム hand out."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from pyramid_solitaire.catalog import EASY, NORMAL, RANDOM, classify, easy_threshold, measured, pick_deal
from pyramid_solitaire.deal import Deal
from pyramid_solitaire.rule_strings import find_rules
from pyramid_solitaire.rules import PRESETS
from pyramid_solitaire.solver import solve
from pyramid_solitaire.solver.difficulty import rate


@pytest.mark.parametrize("difficulty", [EASY, NORMAL])
def test_easy_and_normal_deals_are_verified_and_rated_in_their_band(difficulty: str) -> None:
    rng = random.Random(7)
    for _ in range(3):
        deal = pick_deal("classic", difficulty, rng)
        assert deal.difficulty == difficulty
        assert deal.code.startswith(f"CL1-{difficulty}-")
        assert solve(deal, time_limit=30, best=False).winnable is True
        rating = rate(deal).rating
        threshold = easy_threshold(deal.rules)
        assert rating >= threshold if difficulty == EASY else rating < threshold


def test_a_random_deal_is_labelled_unverified() -> None:
    deal = pick_deal("pyramide", RANDOM, random.Random(1))
    assert deal.difficulty == RANDOM and deal.code.startswith("PY1-R-")


def test_rules_with_options_use_their_presets_threshold() -> None:
    rules = find_rules("thirteen(jokers=1)")
    assert easy_threshold(rules) == easy_threshold(PRESETS["thirteen"])
    deal = pick_deal(rules, NORMAL, random.Random(3))
    assert deal.rules == rules and deal.code.startswith("TH1J1-N-")


def test_an_unknown_difficulty_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown difficulty 'H'"):
        pick_deal("classic", "H")


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_measured_sample_holds_verified_deals_of_each_band(preset: str) -> None:
    sample = measured()[preset]
    assert len(sample["easy"]) + len(sample["normal"]) >= 100
    # easy is at most the easiest third or so (fewer where most deals tie at the bottom, as in traditional)
    assert 0 < len(sample["easy"]) <= len(sample["normal"])
    for letter, numbers in ((EASY, sample["easy"][:2]), (NORMAL, sample["normal"][:2])):
        for number in numbers:
            assert classify(Deal.from_number(number, preset), time_limit=30) == letter


def test_when_the_search_finds_nothing_in_time_a_sample_deal_is_handed_out() -> None:
    deal = pick_deal("traditional", EASY, random.Random(5), budget=0.0)
    assert deal.number in measured()["traditional"]["easy"] or classify(deal, time_limit=30) == EASY
    assert solve(deal, time_limit=30, best=False).winnable is True


def test_a_catalogue_built_from_a_study_hands_out_its_deals_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pyramid_solitaire import catalog
    from pyramid_solitaire.study import run_study

    results = tmp_path / "classic.csv"
    run_study("classic", results, start=0, deals=24, workers=1, time_limit=30)
    built = catalog.build_catalogue("classic", results)
    won = [n for n in range(24) if solve(Deal.from_number(n, "classic"), time_limit=30, best=False).winnable]
    assert sorted(built["easy"] + built["normal"]) == won and built["verified"] == len(won)
    assert all(rate(Deal.from_number(n, "classic")).rating >= built["threshold"] for n in built["easy"])
    assert all(rate(Deal.from_number(n, "classic")).rating < built["threshold"] for n in built["normal"])

    folder = tmp_path / "catalog"
    folder.mkdir()
    (folder / "classic.json").write_text(json.dumps(built), encoding="utf-8")
    monkeypatch.setattr(catalog, "CATALOG_DIR", folder)
    catalog.catalogue.cache_clear()
    try:
        picks = {pick_deal("classic", EASY, random.Random(seed)).number for seed in range(20)}
        assert picks <= set(built["easy"])
        assert easy_threshold(PRESETS["classic"]) == built["threshold"]
        with pytest.raises(ValueError, match="catalogues are built for presets"):
            catalog.build_catalogue("classic(passes=1)", results)
    finally:
        catalog.catalogue.cache_clear()


def test_a_tie_at_the_top_is_split_by_the_careless_players_rating() -> None:
    from pyramid_solitaire.catalog import bands

    # 9 deals: 6 that sensible games always win, 3 they sometimes lose; careless play tells the 6 apart
    rated = [(1.0, n) for n in range(6)] + [(0.5, 6), (0.25, 7), (0.75, 8)]
    careless = {0: 0.5, 1: 0.0, 2: 0.25, 3: 0.75, 4: 0.0, 5: 0.125}
    split = bands(rated, careless.__getitem__)
    assert (split["threshold"], split["careless_threshold"]) == (1.0, 0.25)
    assert split["easy"] == [0, 2, 3]  # the easiest third: the top that careless play wins most
    assert split["normal"] == [1, 4, 5, 6, 7, 8]
    assert "careless_threshold" not in bands(rated[5:], careless.__getitem__)  # no tie past a third
    assert bands(rated, None)["easy"] == [0, 1, 2, 3, 4, 5]  # without the second rating the tie stays


def test_an_easy_overlap_deal_is_one_careless_play_can_win() -> None:
    sample = measured()["overlap"]
    assert sample["threshold"] == 1.0 and sample["careless_threshold"] > 0
    for number in sample["easy"][:3]:
        deal = Deal.from_number(number, "overlap")
        assert rate(deal).rating == 1.0 and rate(deal, careless=True).rating >= sample["careless_threshold"]
    for number in sample["normal"][:3]:
        deal = Deal.from_number(number, "overlap")
        assert rate(deal).rating < 1.0 or rate(deal, careless=True).rating < sample["careless_threshold"]


# --- a code's difficulty letter is a claim; earned() labels the deal for what it is -------------------


@pytest.mark.parametrize("code", ["CL1-E-AAAAAAA", "CL1-N-AAAAAAS", "PY1-N-AAAAAAS", "TH1-N-AAAAAAA"])
def test_a_code_claiming_a_deal_the_solver_refutes_is_relabelled_random(code: str) -> None:
    from pyramid_solitaire.catalog import earned

    claimed = Deal.from_code(code)
    assert solve(claimed, time_limit=10, best=False).winnable is False
    deal = earned(claimed)
    assert deal.difficulty == RANDOM
    assert deal.cards == claimed.cards and deal.number == claimed.number  # the same deal, honestly labelled
    assert deal.code == code.replace(f"-{claimed.difficulty}-", "-R-")


def test_a_verified_deal_keeps_its_label_and_a_wrong_band_is_corrected() -> None:
    from pyramid_solitaire.catalog import earned

    for number in range(10):
        claimed = Deal.from_number(number, "classic", EASY)
        band = classify(claimed, time_limit=10)
        assert earned(claimed).difficulty == (band or RANDOM)
        assert earned(Deal.from_number(number, "classic", NORMAL)).difficulty == (band or RANDOM)


def test_a_random_code_is_never_promoted_and_a_picked_deal_keeps_its_letter() -> None:
    from pyramid_solitaire.catalog import earned

    winnable = Deal.from_number(1, "classic", RANDOM)
    assert solve(winnable, time_limit=10, best=False).winnable
    assert earned(winnable).difficulty == RANDOM
    rng = random.Random(7)
    for difficulty in (EASY, NORMAL):
        picked = pick_deal("classic", difficulty, rng)
        assert earned(picked) == picked


def test_rules_with_options_are_checked_by_the_solver() -> None:
    from pyramid_solitaire.catalog import earned

    claimed = Deal.from_code("TH1J2T1-E-AAAAAAJ")  # thirteen with options: in no catalogue
    assert solve(claimed, time_limit=10, best=False).winnable
    assert earned(claimed).difficulty == classify(claimed, time_limit=10)

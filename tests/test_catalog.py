"""Verified deals by difficulty (catalog.py): what やさしい / ふつう / 完全ランダム hand out."""

from __future__ import annotations

import random

import pytest

from pyramid_solitaire.catalog import EASY, NORMAL, RANDOM, classify, easy_threshold, measured, pick_deal
from pyramid_solitaire.deal import Deal
from pyramid_solitaire.rules import PRESETS, find_rules
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

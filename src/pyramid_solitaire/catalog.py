"""Verified deals by difficulty: what `やさしい` (easy), `ふつう` (normal) and `完全ランダム` hand out.

A verified deal is one the solver proved winnable, knowing the stock order (so the game says
`クリア可能と確認済み`, never "guaranteed").  Its difficulty is the rating of
:mod:`.solver.difficulty`: the share of seeded "sensible player" games that win it.  Easy is the
easiest third of verified deals: a rating at or above the *easy threshold* of its preset, the rating
that a third of a measured sample of verified deals reach.  The thresholds are measured by
``python -m pyramid_solitaire.catalog --write`` (over ``SAMPLE`` verified deals of each preset, from
deal 0 on) and kept in ``data/difficulty.json`` with the sample's deal numbers; rule sets with options
use their preset's threshold.

**Catalogues.**  For a preset with a catalogue built from a study (``data/catalog/<preset>.json``, made
by ``python -m pyramid_solitaire.catalog --build results.csv --rules <preset>``), easy and normal deals
are drawn from its lists at once, and its threshold is the preset's.  Otherwise:

Deals are found on demand: random deal numbers are solved (with a short time limit; an unknown answer
is skipped, never guessed) and rated until one falls in the asked band.  When none turns up within
``SEARCH_SECONDS`` (rule sets rarely won, such as ``traditional``), a deal from the measured sample of
the preset is handed out.  The catalogue of issue 6 will replace this with a stored list; the letters,
the meaning and the codes stay the same.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Final, Literal, NotRequired, TypedDict, TypeVar

from .deal import MAX_NUMBER, Deal
from .messages import Problem
from .rule_strings import find_rules
from .rules import PRESETS, Rules

EASY: Final = "E"
NORMAL: Final = "N"
RANDOM: Final = "R"
#: How long the solver may take on one candidate deal before it is skipped, in seconds.
VERIFY_SECONDS: Final = 1.0
#: Candidates tried at most, and the seconds spent looking, before the measured sample is used.
MAX_TRIES: Final = 400
SEARCH_SECONDS: Final = 2.0
#: Verified deals measured per preset for the thresholds.
SAMPLE: Final = 150
#: The share of verified deals that are easy.
EASY_SHARE: Final = 1 / 3
THRESHOLDS_FILE: Final = Path(__file__).parent / "data" / "difficulty.json"
#: Catalogues built from studies: data/catalog/<preset>.json (see :func:`build_catalogue`).
CATALOG_DIR: Final = Path(__file__).parent / "data" / "catalog"


class NoVerifiedDeal(Problem, RuntimeError):
    """No verified deal of the asked difficulty was found within ``MAX_TRIES`` candidates."""


class Bands(TypedDict):
    """Rated verified deals split by :func:`bands`: the easy threshold (and the careless player's, when
    it splits a tie at the top), and the deal numbers of each band."""

    threshold: float
    careless_threshold: NotRequired[float]
    easy: list[int]
    normal: list[int]


class Sample(Bands):
    """A preset's measured sample (``data/difficulty.json``): its bands, and how many deals were tried."""

    tried: int


class Measured(TypedDict):
    """``data/difficulty.json``: how the samples were measured, and each preset's sample."""

    sample: int
    easy_share: float
    verify_seconds: float
    presets: dict[str, Sample]


class Catalogue(Bands):
    """A preset's catalogue built from a study (``data/catalog/<preset>.json``)."""

    rules: str
    study: str
    verified: int


#: A sample or a catalogue: what :func:`_rerated` splits afresh, keeping its other keys.
_Banded = TypeVar("_Banded", Sample, Catalogue)


@cache
def measured() -> dict[str, Sample]:
    """The measured sample of each preset: ``{preset: {threshold, easy: [numbers], normal: [numbers]}}``."""
    data: Measured = json.loads(THRESHOLDS_FILE.read_text(encoding="utf-8"))
    return data["presets"]


@cache
def catalogue(preset: str) -> Catalogue | None:
    """The catalogue of a preset built from a study, if there is one."""
    path = CATALOG_DIR / f"{preset}.json"
    if not path.exists():
        return None
    data: Catalogue = json.loads(path.read_text(encoding="utf-8"))
    return data


def thresholds(rules: Rules) -> tuple[float, float | None]:
    """The rating at or above which a verified deal of ``rules`` is easy, and for a deal rated exactly
    there, the careless rating it must reach too (None: no such second test; see :func:`bands`) — the
    catalogue's, else the measured sample's."""
    found = catalogue(rules.preset) or measured()[rules.preset]
    second = found.get("careless_threshold")
    return float(found["threshold"]), None if second is None else float(second)


def easy_threshold(rules: Rules) -> float:
    """The rating at or above which a verified deal of ``rules`` may be easy (:func:`thresholds`)."""
    return thresholds(rules)[0]


def careless_rating(rules: Rules) -> Callable[[int], float]:
    """Deal number -> the careless player's rating of that deal under ``rules``."""
    from .solver.difficulty import rate

    return lambda number: rate(Deal.from_number(number, rules), careless=True).rating


def build_catalogue(rules: Rules | str, results: Path | str) -> Catalogue:
    """A preset's catalogue from a study's results file: every won deal, split at the easiest third of
    their ratings (see :func:`bands`), by deal number.  Deal numbers are the shuffle's, so they stay
    the same whatever is added later."""
    from .study import WON, read_results

    rules = find_rules(rules)
    if rules != PRESETS[rules.preset]:
        raise ValueError(f"catalogues are built for presets, not {rules}")
    rows = read_results(results, rules)
    rated = [(row.difficulty, row.number) for row in rows.values() if row.verdict == WON and row.difficulty is not None]
    if not rated:
        raise ValueError(f"{results} holds no won deal")
    numbers = sorted(rows)
    return {
        "rules": str(rules),
        "study": f"deals {numbers[0]}-{numbers[-1]} ({len(rows)} deals)",
        "verified": len(rated),
        **bands(rated, careless_rating(rules)),
    }


def classify(deal: Deal, time_limit: float = VERIFY_SECONDS) -> str | None:
    """``E`` or ``N`` for a deal the solver verified winnable; ``None`` if it is not (or unknown)."""
    from .solver import solve
    from .solver.difficulty import rate

    verdict = solve(deal, time_limit=time_limit, best=False)
    if not verdict.winnable:
        return None
    threshold, careless = thresholds(deal.rules)
    rating = rate(deal).rating
    if rating < threshold:
        return NORMAL
    if careless is None or rating > threshold:
        return EASY
    return EASY if rate(deal, careless=True).rating >= careless else NORMAL


def listed(deal: Deal) -> str | None:
    """``E`` or ``N`` if the deal's number is in its preset's catalogue (or measured sample) with that
    band; ``None`` if not listed there (it may still be winnable: only :func:`classify` can say)."""
    if deal.number is None or deal.rules != PRESETS[deal.rules.preset]:
        return None
    for source in (catalogue(deal.rules.preset), measured().get(deal.rules.preset)):
        if source is None:
            continue
        if deal.number in source.get("easy", ()):
            return EASY
        if deal.number in source.get("normal", ()):
            return NORMAL
    return None


def earned(deal: Deal, time_limit: float = VERIFY_SECONDS) -> Deal:
    """The deal with the difficulty letter it has earned: the letter a code carries is a claim, not a
    fact.  ``E``/``N`` stay only for a deal in the verified catalogue or one the solver proves winnable
    (then rated as :func:`classify` does); any other deal is labelled ``R``, an unverified shuffle.  A
    ``R`` deal is left as it is (never promoted: the player asked for a random deal)."""
    if deal.difficulty == RANDOM:
        return deal
    letter = listed(deal)
    if letter is None:
        letter = classify(deal, time_limit) or RANDOM
    return deal if letter == deal.difficulty else replace(deal, difficulty=letter)


def pick_deal(
    rules: Rules | str, difficulty: str, rng: random.Random | None = None, budget: float = SEARCH_SECONDS
) -> Deal:
    """A deal of ``difficulty`` (``E``, ``N`` or ``R``) under ``rules``; its code carries the letter.

    Random deal numbers are tried for ``budget`` seconds; if none of the asked band turns up (a rule set
    rarely won, such as ``traditional``), a deal of the measured sample is handed out instead when the
    rules are exactly a preset's."""
    rules = find_rules(rules)
    rng = rng or random.SystemRandom()
    if difficulty == RANDOM:
        return Deal.from_number(rng.randint(0, MAX_NUMBER), rules, RANDOM)
    if difficulty not in (EASY, NORMAL):
        raise ValueError(f"unknown difficulty {difficulty!r} (expected E, N or R)")
    built = catalogue(rules.preset) if rules == PRESETS[rules.preset] else None
    band: Literal["easy", "normal"] = "easy" if difficulty == EASY else "normal"
    if built is not None and built[band]:
        # A preset with a catalogue: a stored verified deal at once.
        return Deal.from_number(rng.choice(built[band]), rules, difficulty)
    deadline = time.monotonic() + budget
    for _ in range(MAX_TRIES):
        number = rng.randint(0, MAX_NUMBER)
        if classify(Deal.from_number(number, rules)) == difficulty:
            return Deal.from_number(number, rules, difficulty)
        if time.monotonic() > deadline:
            break
    measured_sample = measured().get(rules.preset)
    sample = measured_sample[band] if measured_sample is not None else []
    if sample and rules == PRESETS[rules.preset]:
        return Deal.from_number(rng.choice(sample), rules, difficulty)
    raise NoVerifiedDeal("catalog.no-verified-deal", difficulty=difficulty, rules=str(rules), seconds=round(budget))


def measure(sample: int = SAMPLE, names: list[str] | None = None) -> dict[str, Sample]:
    """Rate ``sample`` verified deals of each preset (or of ``names``; deal 0 on): each easy threshold
    and the deal numbers of each band."""
    from .solver import solve
    from .solver.difficulty import rate

    out: dict[str, Sample] = {}
    for name, rules in PRESETS.items():
        if names is not None and name not in names:
            continue
        rated: list[tuple[float, int]] = []
        number = 0
        while len(rated) < sample:
            deal = Deal.from_number(number, rules)
            if solve(deal, time_limit=VERIFY_SECONDS, best=False).winnable:
                rated.append((rate(deal).rating, number))
            number += 1
        out[name] = {**bands(rated, careless_rating(rules)), "tried": number}
        print(
            f"{name}: {len(rated)} verified of {number} deals, easy at rating >= {out[name]['threshold']}",
            file=sys.stderr,
        )
    return out


def bands(rated: list[tuple[float, int]], careless: Callable[[int], float] | None = None) -> Bands:
    """Split rated deals ``(rating, number)``: the threshold is the rating the easiest third reach.

    When that is the lowest rating of all (most deals tie there, as in ``traditional``, where sensible
    games almost never win), easy means any rating above the lowest, so that easy never takes every
    deal.  When it is the highest and more than a third of the deals tie there (``overlap``: sensible
    games win most deals every time), ``careless`` (deal number -> the careless player's rating) splits
    the tie: easy is the deals at the top that careless play wins at least as often as the easiest
    third do (``careless_threshold``)."""
    ratings = sorted((r for r, _ in rated), reverse=True)
    third = max(1, int(len(ratings) * EASY_SHARE))
    threshold = ratings[third - 1]
    if (
        threshold == ratings[0]
        and threshold != ratings[-1]
        and careless is not None
        and sum(r >= threshold for r in ratings) > third
    ):
        top = sorted(((careless(n), n) for r, n in rated if r == threshold), reverse=True)
        second = top[third - 1][0]
        easy = {n for c, n in top if c >= second}
        return {
            "threshold": threshold,
            "careless_threshold": second,
            "easy": sorted(easy),
            "normal": sorted(n for _, n in rated if n not in easy),
        }
    if threshold == ratings[-1]:
        above = [r for r in ratings if r > threshold]
        threshold = min(above) if above else threshold
    return {
        "threshold": threshold,
        "easy": sorted(n for r, n in rated if r >= threshold),
        "normal": sorted(n for r, n in rated if r < threshold),
    }


def _rerated(rules: Rules, deals: _Banded) -> _Banded:
    """``deals`` (a sample or a catalogue: ``easy`` and ``normal`` lists of verified deal numbers) with
    every deal rated again and the bands split afresh.  Which deals are verified does not depend on
    the rating, so nothing needs solving."""
    from .solver.difficulty import rate

    rated = [(rate(Deal.from_number(n, rules)).rating, n) for n in deals["easy"] + deals["normal"]]
    split = bands(rated, careless_rating(rules))
    kept = deals.copy()
    kept.pop("careless_threshold", None)  # bands() says if it stays
    kept["threshold"] = split["threshold"]
    if "careless_threshold" in split:
        kept["careless_threshold"] = split["careless_threshold"]
    kept["easy"], kept["normal"] = split["easy"], split["normal"]
    return kept


def resplit(data: Measured) -> Measured:
    """Recompute every preset's bands from its sampled deals (ratings are deterministic)."""
    for name, sample in data["presets"].items():
        data["presets"][name] = _rerated(PRESETS[name], sample)
    return data


def resplit_catalogues(directory: Path = CATALOG_DIR) -> dict[str, float]:
    """Rate every catalogue's deals again and rewrite its bands: after a change to the sensible player
    (:mod:`.solver.difficulty`), without the study behind it.  Returns each preset's new threshold."""
    out = {}
    for path in sorted(directory.glob("*.json")):
        data: Catalogue = json.loads(path.read_text(encoding="utf-8"))
        new = _rerated(find_rules(data["rules"]), data)
        path.write_text(json.dumps(new) + "\n", encoding="utf-8")
        out[path.stem] = new["threshold"]
    return out


def main() -> None:
    """Print (or ``--write``) the measured easy thresholds."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=SAMPLE)
    parser.add_argument("--write", action="store_true", help=f"write {THRESHOLDS_FILE.name}")
    parser.add_argument(
        "--resplit",
        action="store_true",
        help="rate the stored sample's and the catalogues' deals again and recompute their bands",
    )
    parser.add_argument("--build", metavar="CSV", help="build data/catalog/<preset>.json from a study's results")
    parser.add_argument("--rules", default="classic", help="the preset of --build")
    parser.add_argument(
        "--preset",
        action="append",
        choices=sorted(PRESETS),
        help="measure only this preset (repeatable) and, with --write, replace only its entry",
    )
    args = parser.parse_args()
    if args.build:
        built = build_catalogue(args.rules, args.build)
        CATALOG_DIR.mkdir(parents=True, exist_ok=True)
        target = CATALOG_DIR / f"{find_rules(args.rules).preset}.json"
        target.write_text(json.dumps(built) + "\n", encoding="utf-8")
        print(
            f"{target}: {built['verified']} verified deals, {len(built['easy'])} easy, "
            f"{len(built['normal'])} normal, easy at rating >= {built['threshold']}"
        )
        return
    if args.resplit:
        data = resplit(json.loads(THRESHOLDS_FILE.read_text(encoding="utf-8")))
        THRESHOLDS_FILE.write_text(json.dumps(data) + "\n", encoding="utf-8")
        print(json.dumps({k: v["threshold"] for k, v in data["presets"].items()}))
        print(json.dumps(resplit_catalogues()))
        return
    presets = measure(args.sample, args.preset)
    if args.preset:  # keep the other presets' measured entries as they are
        data = json.loads(THRESHOLDS_FILE.read_text(encoding="utf-8"))
        if data["sample"] != args.sample:
            parser.error(f"{THRESHOLDS_FILE.name} was measured with --sample {data['sample']}")
        presets = {**data["presets"], **presets}
    text = json.dumps(
        {"sample": args.sample, "easy_share": EASY_SHARE, "verify_seconds": VERIFY_SECONDS, "presets": presets}
    )
    print(text)
    if args.write:
        THRESHOLDS_FILE.parent.mkdir(exist_ok=True)
        THRESHOLDS_FILE.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()

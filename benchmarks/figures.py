"""What the benchmarks share: the msc-1500 data set, the percentile they print, and an app that does not
slow them down."""

from __future__ import annotations

import json
from pathlib import Path

from pyramid_solitaire.web.limits import Limit, RateLimiter

#: The msc-1500 data set (data/msc-1500 in this repository).
MSC_1500 = Path(__file__).resolve().parents[1] / "data" / "msc-1500"


def regression_set(path: Path, rules: str = "msc") -> tuple[list[str], list[int]]:
    """The deals of a regression set written by ``benchmarks/tail.py --slowest`` under ``rules``, as
    52-card notations, and their shortest lengths in the data set's way (0: no solution)."""
    from pyramid_solitaire import Deal

    rows = [row for row in json.loads(path.read_text()) if str(Deal.from_code(row["code"]).rules) == rules]
    return [Deal.from_code(row["code"]).notation for row in rows], [row["length"] or 0 for row in rows]


def percentile(values: list[float], share: float) -> float:
    """The value below which ``share`` of ``values`` lie (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def unlimited() -> RateLimiter:
    """A rate limiter that never refuses: the benchmarks replay taps far faster than a person can, which
    is what the app's per-player limit is there to stop (pyramid_solitaire.web.limits)."""
    endless = Limit(rate=1e12, burst=1e12)
    return RateLimiter(player=endless, address=endless)

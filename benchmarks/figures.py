"""What the benchmarks share: the msc-1500 data set, the percentile they print, and an app that does not
slow them down."""

from __future__ import annotations

from pathlib import Path

from pyramid_solitaire.web.limits import Limit, RateLimiter

#: The msc-1500 data set (data/msc-1500 in this repository).
MSC_1500 = Path(__file__).resolve().parents[1] / "data" / "msc-1500"


def percentile(values: list[float], share: float) -> float:
    """The value below which ``share`` of ``values`` lie (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def unlimited() -> RateLimiter:
    """A rate limiter that never refuses: the benchmarks replay taps far faster than a person can, which
    is what the app's per-player limit is there to stop (pyramid_solitaire.web.limits)."""
    endless = Limit(rate=1e12, burst=1e12)
    return RateLimiter(player=endless, address=endless)

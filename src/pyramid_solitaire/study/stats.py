"""The figures of a study: its :class:`Summary` (verdicts counted, the win rate with its Wilson
interval, the time per deal) and the statistics behind it."""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from ..messages import text
from .results import LOST, UNKNOWN, WON, Row

#: z for a two-sided 95% interval.
Z95: Final = 1.959963984540054


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% with the default ``z``)."""
    if trials <= 0:
        raise ValueError("no trials")
    p = successes / trials
    scale = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / scale
    half = z / scale * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials))
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(values: Iterable[float], share: float) -> float:
    """The nearest-rank percentile: the smallest value with at least ``share`` of the values at or below."""
    ordered = sorted(values)
    if not ordered:
        raise ValueError("no values")
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


@dataclass(frozen=True)
class Summary:
    """The figures of a study over deals ``start .. start+deals-1`` (``solved``: how many this run)."""

    rules: str
    start: int
    deals: int
    won: int
    lost: int
    unknown: int
    seconds: tuple[float, ...]
    solved: int = 0

    @classmethod
    def of(cls, rules: str, start: int, rows: Iterable[Row], solved: int = 0) -> Summary:
        """Count ``rows``."""
        rows = list(rows)
        verdicts = [row.verdict for row in rows]
        return cls(
            rules,
            start,
            len(rows),
            verdicts.count(WON),
            verdicts.count(LOST),
            verdicts.count(UNKNOWN),
            tuple(row.seconds for row in rows),
            solved,
        )

    @property
    def decided(self) -> int:
        """Deals with a known verdict."""
        return self.won + self.lost

    @property
    def win_rate(self) -> float | None:
        """Won among decided deals (unknowns excluded)."""
        return self.won / self.decided if self.decided else None

    @property
    def interval(self) -> tuple[float, float] | None:
        """The 95% Wilson interval of the win rate."""
        return wilson_interval(self.won, self.decided) if self.decided else None

    def lines(self, lang: str = "en") -> list[str]:
        """The summary as printed by ``pyramid-solitaire study``, in ``lang``."""
        out = [
            text(
                lang,
                "study.summary.deals",
                rules=self.rules,
                first=self.start,
                last=self.start + self.deals - 1,
                deals=self.deals,
                solved=self.solved,
            ),
            text(lang, "study.summary.verdicts", won=self.won, lost=self.lost, unknown=self.unknown),
        ]
        if self.win_rate is not None and self.interval is not None:
            low, high = self.interval
            out.append(
                text(
                    lang,
                    "study.summary.win-rate",
                    rate=f"{100 * self.win_rate:.2f}",
                    low=f"{100 * low:.2f}",
                    high=f"{100 * high:.2f}",
                    decided=self.decided,
                )
            )
        if self.seconds:
            out.append(
                text(
                    lang,
                    "study.summary.seconds",
                    median=f"{statistics.median(self.seconds):.4f}",
                    p90=f"{percentile(self.seconds, 0.9):.4f}",
                    max=f"{max(self.seconds):.4f}",
                )
            )
        return out


__all__ = ["Z95", "Summary", "percentile", "wilson_interval"]

"""The statistics of recorded games (:mod:`pyramid_solitaire.stats`, which the offline engine shares)."""

from ..stats import Finished, Stats, compute, stats_for

__all__ = ["Finished", "Stats", "compute", "stats_for"]

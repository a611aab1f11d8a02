"""The daily deal: one verified deal a day for each main rule set, the same for every player and every
server running this version, and its par (the fewest moves a win needs).

**Which deal** (docs/daily.md).  A main rule set's verified catalogue (``data/catalog/<preset>.json``:
its easy and normal deal numbers) is put in one fixed order — the numbers sorted, then shuffled by
Python's ``random.Random`` seeded with the first eight bytes of SHA-256 of ``pyramid-solitaire daily
<preset>`` — and day ``d`` takes the deal at ``(d - EPOCH) mod n`` in that order.  So no deal comes
back before every deal of the catalogue has had its day (some five years for ``classic``), and the
choice depends on nothing but the date, the rule set and the catalogue shipped with this version.  The
deal keeps the difficulty letter of its band (``E`` or ``N``), so its code says it is verified.

**Which day.**  The day turns at midnight in the server's time zone, ``Asia/Tokyo`` unless the server
is told another (``serve --timezone``); the command line takes the same option.

**Par** is the length of a shortest win (:func:`compute_par`): every draw, recycle, removal and park
one move, as the game counts them.  The search is exact, and limited in this process's CPU time
(``PAR_SECONDS``); when it runs out the par is unknown, never guessed.
"""

from __future__ import annotations

import hashlib
import random
import re
import time
from dataclasses import dataclass
from datetime import date, datetime
from functools import cache
from typing import Final
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from .catalog import EASY, NORMAL, catalogue
from .deal import Deal
from .messages import Problem
from .rules import PRESETS

#: The rule sets that have a daily deal, the first the default.
MAIN_RULES: Final = ("classic", "pyramide", "thirteen")
DEFAULT_TIMEZONE: Final = "Asia/Tokyo"
#: The environment variable that names the server's time zone (``serve --timezone`` sets it).
TIMEZONE_VARIABLE: Final = "PYRAMID_SOLITAIRE_TIMEZONE"
#: Day 0 of the order; the first day there is a daily deal (the calendar starts there).
EPOCH: Final = date(2026, 12, 1)
_DAY: Final = re.compile(r"\d{4}-\d{2}-\d{2}", re.ASCII)
#: CPU seconds the shortest search may take for one deal's par before it is "unknown".
PAR_SECONDS: Final = 60.0


class DailyError(Problem, ValueError):
    """A daily deal that cannot be asked for: an unknown rule set or time zone, a bad or out-of-range date."""


@dataclass(frozen=True)
class Par:
    """A deal's par: ``moves`` of a shortest win, or None when the search ran out of time (``seconds``
    is the CPU time it took either way)."""

    moves: int | None
    seconds: float

    @property
    def known(self) -> bool:
        """True when the shortest win was found."""
        return self.moves is not None


def timezone(name: str) -> ZoneInfo:
    """The time zone called ``name`` (an IANA name such as ``Asia/Tokyo``); DailyError if there is none."""
    if not name.strip():
        raise DailyError("daily.no-timezone")
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise DailyError("daily.bad-timezone", name=name[:60]) from None


def today(zone: str = DEFAULT_TIMEZONE, now: float | None = None) -> date:
    """The date it is in ``zone`` (at ``now``, seconds since 1970; else now)."""
    moment = time.time() if now is None else now
    return datetime.fromtimestamp(moment, timezone(zone)).date()


def parse_day(text: str) -> date:
    """A date written ``YYYY-MM-DD``; DailyError naming the text otherwise."""
    shown = text[:40] if text[:40].isprintable() else repr(text[:40])
    if not _DAY.fullmatch(text):  # fromisoformat also takes 20261203, 2026-W49-4 and more
        raise DailyError("daily.bad-date", date=shown)
    try:
        return date.fromisoformat(text)
    except ValueError:  # written right, but no such day: 2024-02-30, 2026-13-01
        raise DailyError("daily.no-such-day", date=shown) from None


def day_asked(text: str | None, current: date) -> date:
    """The day a request asks for (``current`` when None): DailyError for a bad date, one before the first
    daily deal, or one still to come (its deal is not given away early)."""
    if text is None:
        return current
    day = parse_day(text)
    if day < EPOCH:
        raise DailyError("daily.too-early", date=text, first=EPOCH.isoformat())
    if day > current:
        raise DailyError("daily.future", date=text, today=current.isoformat())
    return day


def check_rules(name: str) -> str:
    """``name`` if it is a rule set with a daily deal; DailyError listing them otherwise."""
    if name not in MAIN_RULES:
        raise DailyError("daily.bad-rules", rules=name[:40], known=", ".join(MAIN_RULES))
    return name


@cache
def order(preset: str) -> tuple[tuple[int, str], ...]:
    """The catalogue's verified deals of ``preset`` in their daily order: ``(number, letter)``."""
    built = catalogue(preset)
    if built is None:  # every main rule set ships one; a missing file is a broken installation
        raise DailyError("daily.no-catalogue", rules=preset)
    deals = sorted([(n, EASY) for n in built["easy"]] + [(n, NORMAL) for n in built["normal"]])
    seed = int.from_bytes(hashlib.sha256(f"pyramid-solitaire daily {preset}".encode()).digest()[:8], "big")
    random.Random(seed).shuffle(deals)
    return tuple(deals)


def daily_deal(rules: str, day: date) -> Deal:
    """The daily deal of the main rule set ``rules`` on ``day`` (see the module's description)."""
    deals = order(check_rules(rules))
    number, letter = deals[(day - EPOCH).days % len(deals)]
    return Deal.from_number(number, PRESETS[rules], letter)


def compute_par(deal: Deal, seconds: float = PAR_SECONDS) -> Par:
    """The fewest moves a win of ``deal`` needs, by the exact shortest search with ``seconds`` of CPU time."""
    from .solver import solve

    started = time.process_time()
    result = solve(deal, shortest=True, best=False, time_limit=seconds, cpu_time=True)
    return Par(result.length if result.shortest else None, round(time.process_time() - started, 3))

"""Rules as data: one frozen :class:`Rules` holding every option of docs/rules.md, each option's facts
(:class:`Option`) beside its field, and the preset catalogue with each preset's manner.

A rule set is written as a string that round-trips: the preset id alone (``classic``) or the preset id
with the options that differ from it (``thirteen(jokers=2,triples=true)``).  ``str(rules)`` always
prints that canonical form; :func:`~.rule_strings.find_rules` reads it back, with the presets' other
names and a few option spellings.

Each preset also has a two-letter code and a version digit used by deal codes (see :mod:`.deal`);
the letters and versions never change once published, so that every code keeps naming the same game.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, TypeVar

from .cards import TEN, Card
from .messages import Problem

#: The sums the references play: 13 (52 cards), 14 (52 cards, no lone kings), 12 (48-card Spanish deck).
TARGETS: Final = (12, 13, 14)
DECK_SIZES: Final = (52, 48)
ROW_COUNTS: Final = (7, 6)
SCORING_SCHEMES: Final = ("none", "pyramide")
#: Points for each pyramid card removed under the ``pyramide`` scoring scheme (seed 000).
PYRAMIDE_POINTS_PER_CARD: Final = 10


class RulesError(Problem, ValueError):
    """A rule-set string or option that names no rule set."""


#: The metadata key under which each field of :class:`Rules` keeps its :class:`Option`.
OPTION: Final = "option"


def _always(rules: Rules) -> bool:
    return True


@dataclass(frozen=True)
class Option:
    """The facts of one rule option, written beside its field of :class:`Rules` and read from there by
    everything else: rule strings (:func:`find_rules`, ``str(rules)``), deal codes (:mod:`.deal`),
    ``/api/rules`` and the New Game dialog built from it.

    ``key`` names it in rule strings (``passes=2``) and ``aliases`` are other spellings read on input;
    ``letter`` names it in a deal code's rule part (``P2``).  ``unlimited`` says the field may be ``None``,
    written ``unlimited`` in strings and ``0`` in codes; a field of ``words`` (scoring) is written as
    its word, and in codes as the word's index.  An option the New Game dialog offers has the catalogue
    key of its ``label``, the values it offers (``choices``; none for an on/off option) and ``offered``,
    which says whether a preset's dialog shows it."""

    key: str
    letter: str
    aliases: tuple[str, ...] = ()
    unlimited: bool = False
    words: tuple[str, ...] = ()
    label: str = ""
    choices: tuple[int | None, ...] = ()
    offered: Callable[[Rules], bool] = _always

    def offered_by(self, rules: Rules) -> bool:
        """True if the New Game dialog offers this option for a game of ``rules``' preset."""
        return bool(self.label) and self.offered(rules)


T = TypeVar("T")


def _option(default: T, facts: Option) -> T:
    """A field of :class:`Rules` with its :class:`Option` facts."""
    return dataclasses.field(default=default, metadata={OPTION: facts})


def _never(rules: Rules) -> bool:
    # Named when a game changes it (the rules dialog), never offered by the New Game dialog.
    return False


def _has_stock(rules: Rules) -> bool:
    return rules.stock_size > 0


def _has_passes(rules: Rules) -> bool:
    # No stock (Giza), or a stock dealt once onto several waste piles (Apophis): no passes to choose.
    return rules.stock_size > 0 and rules.waste_piles == 1


def _is_thirteen(rules: Rules) -> bool:
    # Seed 001's own options (jokers, triples, the face-down rows); no other source plays them.
    return rules.preset == "thirteen"


@dataclass(frozen=True)
class Rules:
    """Every option a rule set may have.  Build one with :func:`find_rules` or ``PRESETS[id]``.

    ``passes`` is the number of passes through the stock (``None`` = unlimited); ``passes - 1`` recycles.
    ``strict`` wins only when every card of the deck is gone; otherwise clearing the pyramid wins.
    ``overlap`` lets a card pair with the one card still covering it.  ``stock_top_usable`` (msc) makes
    the stock's top card face up and usable; ``drawn_spot`` (thirteen, traditional) puts each drawn card
    in its own spot above the waste.  ``stock_waste_pairs`` lets those two stock-side cards pair with each
    other.  ``waste_start`` deals the first stock card face up to the waste at the start (pyramide).
    ``draw`` is how many stock cards one draw deals onto the waste (Tut's Tomb: 3; only the waste's top
    card is usable, so it goes with neither a drawn spot nor a usable stock top).
    ``open_pyramid`` shows every pyramid card from the start; otherwise rows above the last are face down
    until exposed.  ``target`` is the sum to make; ``lone_kings`` lets a card whose value is the target
    go alone.  ``undo_limit`` caps how many operations can be taken back (``None`` = no cap).
    ``reserve`` deals that many piles of ``reserve_depth`` cards each, face up, after the pyramid (Giza:
    8 of 3, no stock left; or a row of 7 single cards); a pile's top card is usable, and the reserve is part
    of the layout the win must clear.  ``inverted`` lays the pyramid upside down (Triangle).
    ``waste_piles`` (Apophis: 3) is the number of waste piles; a draw deals one card onto each, in turn,
    and each pile's top card is usable.  The stock is then dealt once (``passes=1``).
    ``waste_uses`` limits how many removals may take a card from the waste (seed 004; ``None`` = no
    limit); once they are used up no waste card is usable.
    ``cells`` is the number of free cells (seed 002: セル, filled from the tableau or the waste's top): a
    usable layout or stock-side card may be parked in an empty cell, and a parked card stays usable until
    it is removed.  A parked pyramid card still has to be removed for the win.
    """

    preset: str = "classic"
    passes: int | None = _option(
        3,
        Option(
            key="passes", letter="P", unlimited=True, label="passes", choices=(1, 2, 3, 4, None), offered=_has_passes
        ),
    )
    strict: bool = _option(False, Option(key="strict", letter="S", label="strict_win"))
    overlap: bool = _option(False, Option(key="overlap", letter="V", label="overlap"))
    stock_top_usable: bool = _option(False, Option(key="stock_top", letter="K", aliases=("stock_top_usable",)))
    drawn_spot: bool = _option(False, Option(key="drawn", letter="D", aliases=("drawn_spot",)))
    stock_waste_pairs: bool = _option(True, Option(key="stock_waste_pairs", letter="W"))
    waste_start: bool = _option(False, Option(key="waste_start", letter="A"))
    draw: int = _option(1, Option(key="draw", letter="B", label="guide_opt_draw", choices=(1, 2, 3), offered=_never))
    open_pyramid: bool = _option(
        True, Option(key="open", letter="O", aliases=("open_pyramid",), label="open_pyramid", offered=_is_thirteen)
    )
    jokers: int = _option(
        0, Option(key="jokers", letter="J", label="jokers_option", choices=(0, 1, 2), offered=_is_thirteen)
    )
    triples: bool = _option(False, Option(key="triples", letter="T", label="triples", offered=_is_thirteen))
    target: int = _option(13, Option(key="target", letter="M", aliases=("sum",)))
    lone_kings: bool = _option(True, Option(key="lone_kings", letter="L"))
    deck: int = _option(52, Option(key="deck", letter="C"))
    rows: int = _option(7, Option(key="rows", letter="R"))
    scoring: str = _option("none", Option(key="scoring", letter="G", words=SCORING_SCHEMES))
    undo_limit: int | None = _option(None, Option(key="undo_limit", letter="U", aliases=("undo",), unlimited=True))
    reserve: int = _option(0, Option(key="reserve", letter="Y"))
    reserve_depth: int = _option(1, Option(key="reserve_depth", letter="H"))
    inverted: bool = _option(False, Option(key="inverted", letter="I"))
    waste_piles: int = _option(1, Option(key="waste_piles", letter="Q"))
    waste_uses: int | None = _option(
        None,
        Option(
            key="waste_uses",
            letter="Z",
            unlimited=True,
            label="waste_uses_option",
            choices=(None, 8, 10, 12, 14, 16, 20),
            offered=_has_stock,
        ),
    )
    cells: int = _option(0, Option(key="cells", letter="F", label="cells_option", choices=(0, 1, 2, 3, 4)))

    def __post_init__(self) -> None:
        if self.preset not in PRESET_CODES:
            raise RulesError("rules.unknown-preset", name=self.preset)
        if self.passes is not None and not 1 <= self.passes <= MAX_PASSES:
            raise RulesError("rules.passes", most=MAX_PASSES, value=self.passes)
        if not 0 <= self.jokers <= 2:
            raise RulesError("rules.jokers", value=self.jokers)
        if self.target not in TARGETS:
            raise RulesError("rules.target", targets=list(map(str, TARGETS)), value=self.target)
        if self.deck not in DECK_SIZES:
            raise RulesError("rules.deck", value=self.deck)
        if self.rows not in ROW_COUNTS:
            raise RulesError("rules.rows", value=self.rows)
        if self.scoring not in SCORING_SCHEMES:
            raise RulesError("rules.scoring", schemes=list(SCORING_SCHEMES), value=self.scoring)
        if self.undo_limit is not None and not 1 <= self.undo_limit <= MAX_UNDO_LIMIT:
            raise RulesError("rules.undo-limit", most=MAX_UNDO_LIMIT, value=self.undo_limit)
        if (self.target == TARGETS[0]) != (self.deck == DECK_SIZES[1]):
            raise RulesError("rules.spanish")
        if (self.target == TARGETS[2]) == self.lone_kings:
            raise RulesError("rules.lone-kings")
        if self.stock_top_usable and self.drawn_spot:
            raise RulesError("rules.stock-model")
        if not 1 <= self.draw <= MAX_DRAW:
            raise RulesError("rules.draw", most=MAX_DRAW, value=self.draw)
        if self.draw > 1 and (self.stock_top_usable or self.drawn_spot):
            raise RulesError("rules.draw-model", value=self.draw)
        if not 0 <= self.reserve <= MAX_RESERVE_PILES:
            raise RulesError("rules.reserve", most=MAX_RESERVE_PILES, value=self.reserve)
        if not 1 <= self.reserve_depth <= MAX_RESERVE_DEPTH:
            raise RulesError("rules.reserve-depth", most=MAX_RESERVE_DEPTH, value=self.reserve_depth)
        if self.stock_size < 0:
            raise RulesError(
                "rules.too-few-cards",
                pyramid=self.pyramid_size,
                reserve=self.reserve,
                depth=self.reserve_depth,
                board=self.board_size,
                deck=self.deck,
            )
        if self.waste_uses is not None and not 1 <= self.waste_uses <= MAX_WASTE_USES:
            raise RulesError("rules.waste-uses", most=MAX_WASTE_USES, value=self.waste_uses)
        if self.waste_uses is not None and self.strict and self.stock_only_from_waste and self.stock_size > 0:
            # every stock card must go, and each only from the waste
            per_use = self.stock_cards_per_waste_use
            if self.waste_uses * per_use < self.stock_size:
                raise RulesError(
                    "rules.strict-waste-uses",
                    stock=self.stock_size,
                    uses=self.waste_uses,
                    most=self.waste_uses * per_use,
                )
        if not 0 <= self.cells <= MAX_CELLS:
            raise RulesError("rules.cells", most=MAX_CELLS, value=self.cells)
        if not 1 <= self.waste_piles <= MAX_WASTE_PILES:
            raise RulesError("rules.waste-piles", most=MAX_WASTE_PILES, value=self.waste_piles)
        if self.waste_piles > 1 and (
            self.passes != 1 or self.draw != 1 or self.stock_top_usable or self.drawn_spot or self.waste_start
        ):
            # In one pass the cards go round the piles in dealing order, so a card's pile follows from
            # its place in the stock; after a redeal it would depend on the cards removed meanwhile, and
            # the sources say neither how the piles are gathered nor whether they are.
            raise RulesError("rules.waste-piles-model", value=self.waste_piles)
        if self.stock_size == 0 and (
            self.passes != 1
            or self.draw != 1
            or self.waste_start
            or self.stock_top_usable
            or self.drawn_spot
            or self.waste_piles != 1
            or self.waste_uses is not None
        ):
            raise RulesError("rules.no-stock")

    # --- derived facts, each written once and used by play, hints, highlighting and the solver ---

    def value(self, card: Card) -> int:
        """What ``card`` adds to a sum.  In the 48-card deck (no tens) J=10, Q=11, K=12."""
        if self.deck == DECK_SIZES[1] and card.rank > TEN:
            return card.rank - 1
        return card.rank

    @property
    def pyramid_size(self) -> int:
        """Cards in the pyramid: 28 for 7 rows, 21 for 6."""
        return self.rows * (self.rows + 1) // 2

    @property
    def reserve_size(self) -> int:
        """Cards dealt to the reserve piles."""
        return self.reserve * self.reserve_depth

    @property
    def board_size(self) -> int:
        """Cards of the layout the win must clear: the pyramid and the reserve."""
        return self.pyramid_size + self.reserve_size

    @property
    def stock_size(self) -> int:
        """Cards that start in the stock (and waste)."""
        return self.deck - self.board_size

    @property
    def deal_count(self) -> int:
        """Stock cards one draw deals: ``draw`` onto the waste, or one onto each of ``waste_piles``."""
        return self.draw * self.waste_piles

    @property
    def stock_only_from_waste(self) -> bool:
        """True when a stock card can only be used from the waste (no usable stock top, no drawn spot):
        then a limit on waste uses bounds every use of a stock card."""
        return not self.stock_top_usable and not self.drawn_spot

    @property
    def stock_cards_per_waste_use(self) -> int:
        """The most stock cards one removal can take from the waste: its one top, or with several
        waste piles the tops of two (three in a triple)."""
        return 1 if self.waste_piles == 1 else min(self.waste_piles, TRIPLE_CARDS if self.triples else PAIR_CARDS)

    @property
    def max_recycles(self) -> int | None:
        """Recycles allowed (passes - 1); ``None`` when unlimited."""
        return None if self.passes is None else self.passes - 1

    def __str__(self) -> str:
        return self._text

    @functools.cached_property  # every state the page gets names its rules; they never change
    def _text(self) -> str:
        base = PRESETS[self.preset]
        changed = [
            f"{OPTION_KEYS[f.name]}={_format_value(getattr(self, f.name))}"
            for f in dataclasses.fields(self)
            if f.name != "preset" and getattr(self, f.name) != getattr(base, f.name)
        ]
        return f"{self.preset}({','.join(changed)})" if changed else self.preset

    def with_options(self, **options: object) -> Rules:
        """A copy with some fields changed (validated)."""
        return dataclasses.replace(self, **options)  # type: ignore[arg-type]


MAX_PASSES: Final = 9
MAX_DRAW: Final = 3
#: Giza deals the 24 cards left after the pyramid into 8 piles of 3; no layout of the references has more.
MAX_RESERVE_PILES: Final = 8
MAX_RESERVE_DEPTH: Final = 3
#: Apophis has three waste piles.
MAX_WASTE_PILES: Final = 3
#: The cards of a pair and of a triple (the most one removal takes).
PAIR_CARDS: Final = 2
TRIPLE_CARDS: Final = 3
#: The most waste uses a limit may allow (a 52-card deal has at most 48 stock cards).
MAX_WASTE_USES: Final = 48
#: The most free cells a rule set may have (FreeCell's four).
MAX_CELLS: Final = 4
#: The most undos a limit may allow (Pyramide's is 100; past this a limit is "unlimited" in all but name).
MAX_UNDO_LIMIT: Final = 9999


def options() -> list[tuple[str, Option]]:
    """Every option of :class:`Rules`: its field name and its :class:`Option`, in the fields' order
    (which is also the order of a deal code's option letters)."""
    return [(f.name, f.metadata[OPTION]) for f in dataclasses.fields(Rules) if OPTION in f.metadata]


#: Facts derived from the options, by field name.
OPTIONS: Final = dict(options())
#: Option keys of the string form, by field name.  ``open`` is the field ``open_pyramid``.
OPTION_KEYS: Final = {name: option.key for name, option in OPTIONS.items()}
FIELD_BY_KEY: Final = {key: name for name, key in OPTION_KEYS.items()}


def _format_value(value: object) -> str:
    if value is None:
        return "unlimited"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


PRESETS: Final[dict[str, Rules]] = {}
PRESET_CODES: Final = {
    "classic": "CL",
    "pyramide": "PY",
    "thirteen": "TH",
    "msc": "MS",
    "traditional": "TR",
    "relaxed": "RX",
    "tuts_tomb": "TT",
    "spanish": "SP",
    "fourteen": "FT",
    "overlap": "OV",
    "six_rows": "SR",
    "giza": "GZ",
    "reserve": "RV",
    "triangle": "TG",
    "apophis": "AP",
    "limited_waste": "LW",
    "cells": "FC",
}
#: Version digit of each preset in deal codes; bump it (and keep the old one decodable) if a preset changes.
PRESET_VERSIONS: Final = {name: 1 for name in PRESET_CODES}

PRESETS.update(
    {
        "classic": Rules(preset="classic"),
        "pyramide": Rules(preset="pyramide", passes=None, waste_start=True, scoring="pyramide", undo_limit=100),
        "thirteen": Rules(preset="thirteen", passes=4, drawn_spot=True, open_pyramid=False),
        "msc": Rules(preset="msc", stock_top_usable=True),
        "traditional": Rules(preset="traditional", passes=1, drawn_spot=True, strict=True),
        "relaxed": Rules(preset="relaxed", passes=1, drawn_spot=True),
        # Tut's Tomb / King Tut (seed 002; docs/rules.md): three cards a draw, the waste top usable, won when
        # the pyramid is clear.  The sources give no limit on passes; King Tut as usually played has
        # none, and with three cards a draw a limit would decide most deals by the stock order alone.
        "tuts_tomb": Rules(preset="tuts_tomb", passes=None, draw=3),
        # Variants the references list (seeds 002 and 004), each classic with one change: the 48-card
        # Spanish deck (no tens; J=10, Q=11, K=12) to a sum of 12, a king alone; a sum of 14, a king
        # pairing with an ace and no card going alone.  And the variant of both seeds in which a card
        # may pair with the one card still covering it (the pyramid is face up, as they require).
        "spanish": Rules(preset="spanish", deck=48, target=12),
        "fourteen": Rules(preset="fourteen", target=14, lone_kings=False),
        "overlap": Rules(preset="overlap", overlap=True),
        # The smaller pyramid of docs/rules.md's options: 6 rows, 21 cards, 31 in the stock.
        "six_rows": Rules(preset="six_rows", rows=6),
        # Giza (Michael Keller; seed 002): no stock, the 24 other cards face up in 8 piles of 3 whose top
        # cards pair with exposed pyramid cards and with each other; every card must go (nothing is
        # left over, so strict and relaxed wins are the same).
        "giza": Rules(preset="giza", passes=1, strict=True, reserve=8, reserve_depth=3),
        # The reserve row of seed 002: 7 cards face up under the pyramid, usable with exposed pyramid
        # cards, the stock side and each other; classic otherwise.  It is part of the layout the win
        # clears, as a tableau is (the stock and waste may keep cards, as in classic).
        "reserve": Rules(preset="reserve", reserve=7),
        # Triangle (seed 002): the pyramid upside down, its widest row on top and usable first.
        "triangle": Rules(preset="triangle", inverted=True),
        # Apophis (seed 002): three waste piles instead of one; a draw deals a card onto each.  One
        # pass (see the check in Rules), won when the pyramid is clear, as classic.
        "apophis": Rules(preset="apophis", passes=1, waste_piles=3),
        # Seed 004's variant that limits the uses of the waste: classic, whose stock cards are used only
        # from the waste, so at most 12 removals may take a stock card.  12 makes the limit the game
        # (classic wins about 2 deals in 3; with 12 uses under half) while a careful player still
        # wins often; any other limit is an option (waste_uses=N).
        "limited_waste": Rules(preset="limited_waste", waste_uses=12),
        # Seed 002's variant played with a cell filled from the tableau or the waste's top card: classic
        # with one free cell.  The seed says "cells" without a number; one is the smallest that changes
        # the game, and any other number is an option (cells=N, up to 4).
        "cells": Rules(preset="cells", cells=1),
    }
)


@dataclass(frozen=True)
class Manner:
    """How a preset's table behaves where the rules say nothing about what is legal: what the app the
    preset comes from does after a tap.  ``keep_second``: a refused pair keeps its second card selected
    (seed 000's app), where elsewhere the selection clears.  ``quiet_covered``: a tap on a covered card
    is explained only with the error-explanation assist on (seed 000); elsewhere always."""

    keep_second: bool = False
    quiet_covered: bool = False


#: Each preset's manner where it differs from the plain one.
PRESET_MANNERS: Final = {"pyramide": Manner(keep_second=True, quiet_covered=True)}


def manner(rules: Rules) -> Manner:
    """The manner of ``rules``' preset (options do not change it)."""
    return PRESET_MANNERS.get(rules.preset, Manner())


__all__ = ["OPTIONS", "PRESETS", "PRESET_CODES", "Manner", "Option", "Rules", "RulesError", "manner", "options"]

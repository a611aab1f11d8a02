"""The packed positions of one deal, and the facts about the deal that every part of the search reads.

A position is one integer (cheap to hash and store): the pyramid's places in the low bits, then the
stock's, the stock pointer, the recycles done, the waste uses spent, the jokers left and the places
parked in free cells (:meth:`Packing.pack`).  :class:`Packing` knows where each field sits, folds
positions that play the same into one key (:meth:`Packing.canonical`), asks the table once per pyramid
shape what that shape allows (:meth:`Packing.shape`), and keeps the per-deal tables the bounds read
(value counts, the cards that can still meet each slot).

:class:`~.space.SearchSpace` is a Packing with the moves and the cuts; its helpers — the A* bound
(:mod:`.steps`), the relaxed game (:mod:`.relaxed`) and the free cells (:mod:`.cells`) — are given the
Packing part only, so they sit below the space that owns them instead of importing it back.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from ..board import dealt_to
from ..packed import Position
from ..table import Table

PTR_BITS: Final = 6
PTR_MASK: Final = (1 << PTR_BITS) - 1
COUNT_BITS: Final = 4
COUNT_MASK: Final = (1 << COUNT_BITS) - 1
MAX_VALUE: Final = 16
#: where the relaxed game's counts keep the waste uses left (above the 16 value counts; 0: no limit)
BAG_USES_SHIFT: Final = COUNT_BITS * MAX_VALUE


@dataclass(frozen=True)
class PyramidShape:
    """Facts about one set of remaining pyramid cards, computed once."""

    exposed: tuple[int, ...]
    #: removals that use pyramid cards only: (action places, pyramid mask after)
    removals: tuple[tuple[tuple[int, ...], int], ...]
    #: forced removal (an exposed pyramid king: taking it at once is never worse), or None
    king: tuple[int, ...] | None
    #: exposed slots by the value a partner must have
    by_need: dict[int, tuple[int, ...]]


class Packing:
    """The packed positions of one deal and its facts (see the module docstring)."""

    def __init__(self, table: Table) -> None:
        rules = table.rules
        self.table = table
        self.rules = rules
        self.P = table.board_size
        self.S = table.stock_size
        self.pyramid_full = (1 << self.P) - 1
        self.values = table.values
        self.stock_values = table.values[self.P : self.P + self.S]
        self.target = rules.target
        self.lone = rules.target if rules.lone_kings else -1
        self.cells = rules.cells
        self.jokers = rules.jokers
        self.triples = rules.triples
        self.overlap = rules.overlap and rules.open_pyramid
        self.unlimited = rules.passes is None
        self.max_recycles = rules.max_recycles
        self.drawn_spot = rules.drawn_spot
        self.draw_count = table.deal_count
        self.pile_masks = table.pile_masks
        self.stock_top_usable = rules.stock_top_usable
        #: a limit on the removals that take a waste card (None: no limit), and whether every stock card
        #: is used from the waste (no usable stock top, no drawn spot): then the limit bounds the relaxed
        #: game too, each removal with stock cards costing one use
        self.waste_limit = rules.waste_uses
        self.waste_only = rules.stock_only_from_waste
        self.cards_per_use = rules.stock_cards_per_waste_use
        self.pairs_ok = rules.stock_waste_pairs
        self.strict = rules.strict
        self._shapes: dict[int, PyramidShape] = {}
        self.stock_shift = self.P
        self.ptr_shift = self.P + self.S
        # The recycles done and the waste uses spent take as many bits as the rule set's limits need
        # (none without a limit), so that a position of the rule sets the C loops play fits in their 64
        # bits: thirteen with jokers packs 28 + 24 + 6 + 2 + 2 bits, limited_waste 28 + 24 + 6 + 2 + 4.
        #: bits of the recycles done (a limit of 0 recycles, or none, needs no bits)
        self.rec_bits = (rules.max_recycles or 0).bit_length()
        self.rec_mask = (1 << self.rec_bits) - 1
        #: bits of the waste uses spent (at most rules.waste_uses)
        self.use_bits = (rules.waste_uses or 0).bit_length()
        self.use_mask = (1 << self.use_bits) - 1
        self.rec_shift = self.ptr_shift + PTR_BITS
        self.use_shift = self.rec_shift + self.rec_bits
        self.jok_shift = self.use_shift + self.use_bits
        #: the places parked in free cells, above the jokers
        self.cell_shift = self.jok_shift + rules.jokers
        self.jok_mask = (1 << rules.jokers) - 1
        self.board_places = (1 << self.P) - 1
        self.stock_mask = (1 << self.S) - 1
        self.dead_masks = self._meeting_masks(rules.cells > 0)
        #: with free cells, the meeting masks of the same layout without them (the A* bound reads them:
        #: a pair of cards one of which lies under the other needs a park to meet, see .steps)
        self.plain_meeting = self._meeting_masks(False) if self.cells else self.dead_masks
        # stock value counts: 4 bits per value, summed from per-byte tables of the stock mask
        self._count_tables = self.value_count_tables(self.P, self.S)
        # Strict rules where at most one stock-side card is ever usable (the waste top): every stock
        # card must go with a pyramid card (or alone, a king), so see :meth:`.space.SearchSpace._stock_starved`.
        self.one_stock_card = (
            rules.strict
            and not rules.drawn_spot
            and not rules.stock_top_usable
            and not rules.jokers
            and not rules.triples
            and rules.waste_piles == 1
            and not self.cells
        )
        #: value counts of pyramid masks (per-byte tables): the starved-stock cut reads them, and the
        #: relaxed game with triples (its bag cut and triple pools); neither cut exists elsewhere
        self.pyramid_tables = self.value_count_tables(0, self.P) if self.one_stock_card or rules.triples else []
        #: called for each new state of the relaxed game (the search's deadline check), if set
        self.poll: Callable[[], None] | None = None

    def release(self) -> None:
        """Empty the memo of pyramid shapes (see :meth:`.space.SearchSpace.release`)."""
        self._shapes.clear()

    # --- keys ----------------------------------------------------------------------------------------

    def pack(self, pos: Position) -> int:
        """The position as one integer (exact: ``unpack`` gives it back).  With unlimited passes the
        recycles done are left out (they change nothing, and their count is not bounded: it would spill
        out of its bits into the next field)."""
        recycles = 0 if self.unlimited else pos.recycles
        if recycles > self.rec_mask or pos.waste_used > self.use_mask:
            raise ValueError(f"a position past its rule set's limits: {recycles} recycles, {pos.waste_used} waste uses")
        return (
            pos.pyramid
            | pos.stock << self.stock_shift
            | pos.ptr << self.ptr_shift
            | recycles << self.rec_shift
            | pos.waste_used << self.use_shift
            | pos.jokers << self.jok_shift
            | pos.cells << self.cell_shift
        )

    def unpack(self, state: int) -> Position:
        """The position of a packed integer."""
        return Position(
            state & self.pyramid_full,
            state >> self.stock_shift & self.stock_mask,
            state >> self.ptr_shift & ((1 << PTR_BITS) - 1),
            state >> self.rec_shift & self.rec_mask,
            state >> self.jok_shift & self.jok_mask,
            state >> self.use_shift & self.use_mask,
            state >> self.cell_shift,
        )

    def canonical(self, state: int) -> int:
        """The one state standing for every position that plays exactly like ``state``.

        With unlimited passes the number of recycles done changes nothing, so it is set to 0.  Without
        a drawn spot, a stock pointer that sits past removed cards plays like one just past the last
        card still on the waste, so it is moved back there.  :meth:`.space.SearchSpace.successors` yields
        canonical states, so the searches use states directly as keys."""
        if self.unlimited:
            state &= ~(self.rec_mask << self.rec_shift)
        return self.settle(state)

    def alike(self, state: int) -> int:
        """The one state standing for every position whose stock side holds the same values in the
        same order: cards pair by value alone, so which of two cards of one value is gone makes no
        difference to the play from there (the shortest search with free cells keys its positions by
        this; see ``search.shortest_win``).

        For one waste pile, no drawn spot and no usable stock top, the stock side is a sequence of
        cards, the waste (before the pointer) and the cards ahead, and every move reads it by value:
        the waste's top, the next card a draw brings, the order a recycle turns over.  So the waste's
        values are laid on the stock's first places that hold them in order (each as early as it
        fits), the pointer just past them, then the values ahead likewise; and a stock card parked
        in a free cell becomes the first card of its value that is neither in play on the stock side
        nor parked.  The pyramid, the recycles and the parked pyramid cards stay as they are.  The
        state stays canonical (:meth:`canonical`: the pointer just past the waste's last card)."""
        stock = state >> self.stock_shift & self.stock_mask
        ptr = state >> self.ptr_shift & PTR_MASK
        values = self.stock_values
        laid = 0
        at = 0
        start = 0
        for side, part in enumerate((stock & ((1 << ptr) - 1), stock >> ptr << ptr)):  # the waste, then ahead
            if side:
                start = at  # the pointer: just past the waste's last card
            while part:
                low = part & -part
                part ^= low
                value = values[low.bit_length() - 1]
                while values[at] != value:  # never past the card's own place, which holds it
                    at += 1
                laid |= 1 << at
                at += 1
        cells = state >> self.cell_shift
        parked = cells >> self.P
        if parked:
            moved = 0
            while parked:
                low = parked & -parked
                parked ^= low
                value = values[low.bit_length() - 1]
                first = 0
                while values[first] != value or (laid | moved) >> first & 1:
                    first += 1
                moved |= 1 << first
            cells = cells & self.board_places | moved << self.P
        low_part = state & ((1 << self.cell_shift) - 1) & ~(self.stock_mask << self.stock_shift)
        low_part = low_part & ~(PTR_MASK << self.ptr_shift) | start << self.ptr_shift
        return low_part | laid << self.stock_shift | cells << self.cell_shift

    def recycled(self, state: int) -> int | None:
        """``state`` after a recycle (the pointer back to the stock's start, one recycle more counted
        where they are limited), or ``None`` when no recycle is left: what the successors of
        :mod:`.space` and :mod:`.cells` make of an empty stock with cards on the waste."""
        rec = state >> self.rec_shift & self.rec_mask
        if self.max_recycles is not None and rec >= self.max_recycles:
            return None
        rec = 0 if self.unlimited else rec + 1
        cleared = state & ~(((1 << (PTR_BITS + self.rec_bits)) - 1) << self.ptr_shift)
        return cleared | rec << self.rec_shift

    def settle(self, state: int) -> int:
        """``state`` with its stock pointer moved back past removed cards (see :meth:`canonical`): what
        a move that takes a stock-side card from a canonical state needs to stay canonical."""
        if self.drawn_spot:
            return state
        ptr = state >> self.ptr_shift & PTR_MASK
        stock = state >> self.stock_shift & self.stock_mask
        settled = (stock & ((1 << ptr) - 1)).bit_length()
        if settled == ptr:
            return state
        return state & ~(PTR_MASK << self.ptr_shift) | settled << self.ptr_shift

    # --- pyramid shapes --------------------------------------------------------------------------

    def shape(self, pyramid: int) -> PyramidShape:
        """Cached facts about the pyramid ``pyramid`` (asked of the table once per shape)."""
        found = self._shapes.get(pyramid)
        if found is not None:
            return found
        table = self.table
        alone = Position(pyramid, 0, 0, 0, 0)
        exposed = tuple(b for b in range(self.P) if table.exposed(alone) >> b & 1)
        removals = []
        king = None
        for action in table.removals(alone):
            after = pyramid
            for place in action:
                after &= ~(1 << place)
            removals.append((action, after))
            if len(action) == 1 and king is None:
                king = action
        by_need: dict[int, list[int]] = {}
        for slot in exposed:
            by_need.setdefault(self.target - self.values[slot], []).append(slot)
        shape = PyramidShape(exposed, tuple(removals), king, {k: tuple(v) for k, v in by_need.items()})
        self._shapes[pyramid] = shape
        return shape

    # --- the stock side ------------------------------------------------------------------------------

    def usable_stock_indices(self, stock: int, ptr: int, waste_ok: bool) -> list[int]:
        """The stock-side usable cards, as stock indices, in ``Table.usable_stock``'s order: the drawn
        card, the waste's top (each pile's) unless ``waste_ok`` is false (its uses are spent), the
        stock's top where it is usable."""
        usable: list[int] = []
        if self.drawn_spot:
            if ptr and stock >> (ptr - 1) & 1:
                usable.append(ptr - 1)
            below = stock & ((1 << (ptr - 1)) - 1) if ptr > 1 else 0
        else:
            below = stock & ((1 << ptr) - 1)
        if not waste_ok:
            pass
        elif self.pile_masks:  # several waste piles (Apophis): each pile's top
            for mask in self.pile_masks:
                if below & mask:
                    usable.append((below & mask).bit_length() - 1)
        elif below:
            usable.append(below.bit_length() - 1)
        above = stock >> ptr
        if self.stock_top_usable and above:
            usable.append(ptr + (above & -above).bit_length() - 1)
        return usable

    def dealt_after(self, stock: int, ptr: int) -> int:
        """The stock pointer after a draw from ``ptr``."""
        return dealt_to(stock, ptr, self.draw_count)

    # --- facts for the bounds -----------------------------------------------------------------------

    def _meeting_masks(self, through_cells: bool) -> list[int]:
        """For each pyramid slot, the places (as a packed-state bitmask) of the cards that could still
        meet it as a partner: cards of the value it needs that neither lie in its cover triangle (they
        go before it is exposed) nor lie under it (they are exposed only once it is gone) — with
        overlap pairs, but for the cards directly on it or under it; ``through_cells`` (free cells),
        any."""
        masks = []
        for slot in range(self.P):
            need = self.target - self.values[slot]
            mask = 0
            for place in range(self.P + self.S):
                if place == slot or self.values[place] != need:
                    continue
                if place < self.P and not through_cells and self.apart(slot, place):
                    continue
                mask |= 1 << place  # pyramid places and stock places share the packed layout
            masks.append(mask)
        return masks

    def apart(self, slot: int, place: int) -> bool:
        """True if the layout cards at ``slot`` and ``place`` can never be usable at once: one lies in
        the other's cover triangle (and overlap pairs do not join them: one directly on the other)."""
        layout = self.table.layout
        if not (layout.triangle[slot] >> place & 1 or layout.triangle[place] >> slot & 1):
            return False
        return not (self.overlap and (layout.coverers[slot] >> place & 1 or layout.coverers[place] >> slot & 1))

    def value_count_tables(self, first: int, size: int) -> list[list[int]]:
        """Per-byte tables for a bitmask over places ``first .. first+size-1``: for each byte of the mask,
        the value counts (4 bits per value) of the places its set bits stand for."""
        tables = []
        for base in range(0, size, 8):
            table = []
            for byte in range(256):
                counts = 0
                for bit in range(8):
                    if byte >> bit & 1 and base + bit < size:
                        counts += 1 << (COUNT_BITS * self.values[first + base + bit])
                table.append(counts)
            tables.append(table)
        return tables

    @staticmethod
    def summed(tables: list[list[int]], mask: int) -> int:
        """The value counts of ``mask`` from its per-byte tables."""
        counts = 0
        for table in tables:
            counts += table[mask & 0xFF]
            mask >>= 8
        return counts

    def stock_counts(self, state: int) -> int:
        """How many cards of each value are left in the stock and waste (4 bits per value)."""
        return self.summed(self._count_tables, state >> self.stock_shift & self.stock_mask)

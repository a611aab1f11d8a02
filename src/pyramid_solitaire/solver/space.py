"""The search space of one deal: positions packed into one integer, and their successors.

The rules come from :class:`~pyramid_solitaire.table.Table` — the solver never writes them again.
What this module adds is speed: positions become single integers (cheap to hash and store), the part
of move generation that depends only on the pyramid is computed once per pyramid shape (a 7-row
pyramid has only 1,430 reachable shapes) by asking the table, and positions that play the same are
folded into one key (see :meth:`SearchSpace.key`).

The generated successors are checked against ``Table.actions`` in ``tests/solver/test_space.py`` on
random positions of every preset, so the fast path and the rules cannot drift apart.

**Free cells** (``cells``): the packed state keeps the parked places above the jokers, and
:mod:`.cells` makes their moves (the per-shape tables, and what a parked card adds) and a relaxed game
with cells of its own: with a card parked, a card under it can meet it, so the cover triangle no longer
rules a partner out.  With jokers or triples as well, cells take the table's own moves (the generic
path).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from ..board import dealt_to
from ..packed import DRAW_ACTION, PAIR, RECYCLE_ACTION, TRIPLE, Action, Position
from ..table import Table

PTR_BITS: Final = 6
PTR_MASK: Final = (1 << PTR_BITS) - 1
REC_BITS: Final = 4
#: bits of the count of waste uses (rules.MAX_WASTE_USES is 48)
USE_BITS: Final = 6
USE_MASK: Final = (1 << USE_BITS) - 1
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


class SearchSpace:
    """Successors, keys, dead-card pruning and bounds for one deal (see the module docstring)."""

    def __init__(self, table: Table, generic: bool = False) -> None:
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
        #: ``generic`` asks Table.actions for every position instead (slow; the tests compare the two).
        self.generic_only = generic
        self.cells = rules.cells
        # with cells, jokers and triples take the table's own moves (CellGame does not make theirs)
        self.fast = not generic and not (self.cells and (rules.jokers or rules.triples))
        self.jokers = rules.jokers
        self.triples = rules.triples
        self.overlap = rules.overlap and rules.open_pyramid
        self.unlimited = rules.passes is None
        self.max_recycles = rules.max_recycles
        self.drawn_spot = rules.drawn_spot
        self.draw_count = table.deal_count
        self.pile_masks = table.pile_masks
        # A usable stock-side king is taken at once when that never loses anything: with one card a
        # draw, or with no recycle to come (see :meth:`successors`).
        self.king_at_once = self.draw_count == 1 or rules.max_recycles == 0
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
        self.rec_shift = self.ptr_shift + PTR_BITS
        self.use_shift = self.rec_shift + REC_BITS
        self.jok_shift = self.use_shift + USE_BITS
        #: the places parked in free cells, above the jokers
        self.cell_shift = self.jok_shift + rules.jokers
        self.jok_mask = (1 << rules.jokers) - 1
        self.board_places = (1 << self.P) - 1
        self.stock_mask = (1 << self.S) - 1
        self.dead_masks = self._meeting_masks()
        # stock value counts: 4 bits per value, summed from per-byte tables of the stock mask
        self._count_tables = self._value_count_tables(self.P, self.S)
        # Strict rules where at most one stock-side card is ever usable (the waste top): every stock
        # card must go with a pyramid card (or alone, a king), so see :meth:`_stock_starved`.
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
        self._pyramid_tables = self._value_count_tables(0, self.P) if self.one_stock_card or rules.triples else []
        #: called for each new state of the relaxed game (the search's deadline check), if set
        self.poll: Callable[[], None] | None = None
        self._hopeless: dict[int, bool] = {}
        # the A* bound and its memos (imported here: steps.py reads this module's constants)
        from .steps import StepsBound

        self._steps_bound = StepsBound(self)
        from .cells import CellGame

        self._cell_game = CellGame(self) if self.cells else None
        from .relaxed import RelaxedGame

        self._relaxed_game = RelaxedGame(self)

    def release(self) -> None:
        """Empty every memo of this space, its bound's, its relaxed game's and its cells'.  The space
        and its helpers refer to each other (a reference cycle), so without this their memos (a search's
        worth: hundreds of thousands of entries) would wait for Python's cyclic garbage collector, which
        the solver pauses while it searches (see ``solve_position``)."""
        self._shapes.clear()
        self._hopeless.clear()
        self._steps_bound.release()
        self._relaxed_game.release()
        if self._cell_game is not None:
            self._cell_game.release()

    # --- keys ----------------------------------------------------------------------------------------

    def pack(self, pos: Position) -> int:
        """The position as one integer (exact: ``unpack`` gives it back).  With unlimited passes the
        recycles done are left out (they change nothing, and their count is not bounded: it would spill
        out of its bits into the next field)."""
        recycles = 0 if self.unlimited else pos.recycles
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
            state >> self.rec_shift & ((1 << REC_BITS) - 1),
            state >> self.jok_shift & self.jok_mask,
            state >> self.use_shift & ((1 << USE_BITS) - 1),
            state >> self.cell_shift,
        )

    def canonical(self, state: int) -> int:
        """The one state standing for every position that plays exactly like ``state``.

        With unlimited passes the number of recycles done changes nothing, so it is set to 0.  Without
        a drawn spot, a stock pointer that sits past removed cards plays like one just past the last
        card still on the waste, so it is moved back there.  :meth:`successors` yields canonical
        states, so the searches use states directly as keys."""
        if self.unlimited:
            state &= ~(((1 << REC_BITS) - 1) << self.rec_shift)
        return self._settle(state)

    def _settle(self, state: int) -> int:
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

    # --- successors --------------------------------------------------------------------------------

    def successors(self, state: int, shortest: bool = False) -> list[tuple[Action, int]]:
        """Legal (action, next state) pairs, the most promising first (see :meth:`_successors`).  With a
        limit on waste uses, each removal that takes a waste card counts one use."""
        if self.waste_limit is None or not self.fast:
            return self._successors(state, shortest, True)
        used = state >> self.use_shift & USE_MASK
        out = self._successors(state, shortest, used < self.waste_limit)
        # waste cards are the stock indices under the pointer (under the drawn card with a drawn spot),
        # not parked: a removal or a park that takes one spends a use
        first = self.P
        below = first + (state >> self.ptr_shift & PTR_MASK) - (1 if self.drawn_spot else 0)
        cells = state >> self.cell_shift
        one = 1 << self.use_shift

        def waste(place: int) -> bool:
            return first <= place < below and not cells >> place & 1

        return [
            (
                action,
                after + one
                if (isinstance(action, tuple) and any(waste(p) for p in action))
                or (isinstance(action, int) and waste(action))
                else after,
            )
            for action, after in out
        ]

    def _successors(self, state: int, shortest: bool, waste_ok: bool) -> list[tuple[Action, int]]:
        """Legal (action, next state) pairs, the most promising first.

        An exposed pyramid king is taken at once (the only successor): it must go some time, it uses no
        other card, and taking it earlier only widens the choice.  When only the verdict matters
        (``shortest`` false) a usable stock-side king is also taken at once, for the same reason — but
        only when one card is dealt a draw or no recycle is left to come: with several cards a draw, a
        card left on the waste changes how the stock falls into groups after the next recycle, so keeping
        it may be better.  Nor, under a limit on waste uses, when the king is on the waste: taking it
        spends a use, and leaving it buried may be better.  ``waste_ok`` false (the uses are spent)
        leaves the waste out of the usable cards.

        For the shortest solution, a king on top of a stock whose top is usable (msc) is not drawn:
        any line after the draw can be played after removing the king instead, leaving out its steps
        that touch the king (removing it, drawing it again), so it is no longer."""
        pyramid = state & self.pyramid_full
        if not self.fast:
            return self._generic_successors(state, shortest)
        if self._cell_game is not None:
            return self._cell_game.successors(state, shortest, waste_ok)
        stock = state >> self.stock_shift & self.stock_mask
        if not pyramid and (not self.strict or not stock):
            return []
        shape = self._shapes.get(pyramid) or self.shape(pyramid)
        if shape.king is not None:
            return [(shape.king, state & ~(1 << shape.king[0]))]
        ptr = state >> self.ptr_shift & ((1 << PTR_BITS) - 1)
        out: list[tuple[Action, int]] = []
        usable = self.usable_stock_indices(stock, ptr, waste_ok)
        above = stock >> ptr
        values = self.values
        shift = self.stock_shift
        P = self.P
        settle = self._settle
        # a waste king costs a use when uses are limited, so it is not taken at once then
        waste_end = -1 if self.waste_limit is None else ptr - 1 if self.drawn_spot else ptr
        # removals of pyramid cards only come first: the verdict's depth-first search finds wins
        # sooner (msc-1500 deal 776: 311 k positions searched before, 147 after)
        rest = state & ~self.pyramid_full
        out.extend((action, rest | after) for action, after in shape.removals)
        by_need = shape.by_need
        for index in usable:
            value = values[P + index]
            if value == self.lone:
                without = settle(state & ~(1 << (index + shift)))
                if not shortest and self.king_at_once and index >= waste_end:
                    return [((P + index,), without)]
                out.append(((P + index,), without))
                continue
            slots = by_need.get(value)
            if slots:
                without = settle(state & ~(1 << (index + shift)))
                for slot in slots:
                    out.append(((slot, P + index), without & ~(1 << slot)))
        if len(usable) >= PAIR and self.pairs_ok:
            for i, a in enumerate(usable):
                for b in usable[i + 1 :]:
                    if values[P + a] + values[P + b] == self.target:
                        out.append(
                            ((P + min(a, b), P + max(a, b)), settle(state & ~(1 << (a + shift)) & ~(1 << (b + shift))))
                        )
        jokers = state >> self.jok_shift
        if jokers:
            self._joker_moves(state, jokers, shape.exposed, usable, out)
        if self.triples:
            self._triple_moves(state, shape, usable, out)
        if above:
            top = ptr + (above & -above).bit_length() - 1
            # a king on top of the stock is removed, not drawn, when steps count (see above)
            if not (shortest and self.stock_top_usable and values[P + top] == self.lone):
                dealt = top + 1 if self.draw_count == 1 else dealt_to(stock, ptr, self.draw_count)
                out.append((DRAW_ACTION, state & ~(((1 << PTR_BITS) - 1) << self.ptr_shift) | dealt << self.ptr_shift))
        elif stock & ((1 << ptr) - 1):
            rec = state >> self.rec_shift & ((1 << REC_BITS) - 1)
            if self.max_recycles is None or rec < self.max_recycles:
                rec = 0 if self.unlimited else rec + 1
                cleared = state & ~(((1 << (PTR_BITS + REC_BITS)) - 1) << self.ptr_shift)
                out.append((RECYCLE_ACTION, cleared | rec << self.rec_shift))
        return out

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

    def _joker_moves(
        self, state: int, jokers: int, exposed: tuple[int, ...], usable: list[int], out: list[tuple[Action, int]]
    ) -> None:
        """A joker with any one usable card (never with the other joker)."""
        P = self.P
        base = self.table.joker_base
        for joker in range(self.jokers):
            if not jokers >> joker & 1:
                continue
            place = base + joker
            without = state & ~(1 << (self.jok_shift + joker))
            for slot in exposed:
                out.append(((slot, place), without & ~(1 << slot)))
            for index in usable:
                out.append(((P + index, place), self._settle(without & ~(1 << (P + index)))))

    def _triple_moves(self, state: int, shape: PyramidShape, usable: list[int], out: list[tuple[Action, int]]) -> None:
        """Three usable cards summing to the target, at least one from the stock side (the pyramid-only
        triples are in the shape's removals)."""
        P = self.P
        values = self.values
        target = self.target
        exposed = shape.exposed
        stock_places = [P + index for index in usable]
        for place in stock_places:
            need = target - values[place]
            for i, a in enumerate(exposed):
                for b in exposed[i + 1 :]:
                    if values[a] + values[b] == need:
                        out.append(((a, b, place), self._settle(state & ~(1 << a) & ~(1 << b) & ~(1 << place))))
        if len(stock_places) >= PAIR and self.pairs_ok:
            ordered = sorted(stock_places)
            for i, x in enumerate(ordered):
                for y in ordered[i + 1 :]:
                    need = target - values[x] - values[y]
                    for slot in shape.by_need.get(target - need, ()):
                        out.append(((slot, x, y), self._settle(state & ~(1 << slot) & ~(1 << x) & ~(1 << y))))
            if len(ordered) == TRIPLE and sum(values[p] for p in ordered) == target:  # three waste tops
                x, y, z = ordered
                out.append(((x, y, z), self._settle(state & ~(1 << x) & ~(1 << y) & ~(1 << z))))

    def _generic_successors(self, state: int, shortest: bool = False) -> list[tuple[Action, int]]:
        table = self.table
        pos = self.unpack(state)
        actions = table.actions(pos)
        if self.cells and not self.generic_only:
            actions = self._cell_actions(pos, actions, shortest)
        out = []
        for action in actions:
            out.append((action, self.canonical(self.pack(table.apply(pos, action)))))
        return out

    def _cell_actions(self, pos: Position, actions: list[Action], shortest: bool) -> list[Action]:
        """The actions worth searching with free cells: a usable layout king, exposed or parked, is
        removed at once (as in the fast path: it must go some time, and taking it earlier only widens
        the choice), and so is a parked stock king, except when steps count and the win leaves stock
        cards (removing it may then be a wasted step); and a king is never parked (removing it
        instead is never worse: it frees the same cards and keeps the cell)."""
        values = self.values
        lone = self.lone
        stock_king_at_once = self.strict or not shortest
        for action in actions:
            if (
                isinstance(action, tuple)
                and len(action) == 1
                and values[action[0]] == lone
                and (action[0] < self.P or (pos.cells >> action[0] & 1 and stock_king_at_once))
            ):
                return [action]
        parks = [a for a in actions if isinstance(a, int) and values[a] != lone]
        return [a for a in actions if not isinstance(a, int)] + parks

    # --- pruning and bounds -------------------------------------------------------------------------

    def _meeting_masks(self) -> list[int]:
        """For each pyramid slot, the places (as a packed-state bitmask) of the cards that could still
        meet it as a partner: cards of the value it needs that neither lie in its cover triangle (they
        go before it is exposed) nor lie under it (they are exposed only once it is gone) — with
        overlap pairs, but for the cards directly on it or under it; with free cells, any."""
        rules = self.rules
        masks = []
        for slot in range(self.P):
            need = self.target - self.values[slot]
            mask = 0
            for place in range(self.P + self.S):
                if place == slot or self.values[place] != need:
                    continue
                if place < self.P and not rules.cells and self._apart(slot, place):
                    continue
                mask |= 1 << place  # pyramid places and stock places share the packed layout
            masks.append(mask)
        return masks

    def _apart(self, slot: int, place: int) -> bool:
        """True if the layout cards at ``slot`` and ``place`` can never be usable at once: one lies in
        the other's cover triangle (and overlap pairs do not join them: one directly on the other)."""
        layout = self.table.layout
        if not (layout.triangle[slot] >> place & 1 or layout.triangle[place] >> slot & 1):
            return False
        return not (self.overlap and (layout.coverers[slot] >> place & 1 or layout.coverers[place] >> slot & 1))

    def steps_bound(self, state: int) -> int:
        """A lower bound on the steps still needed to win (admissible for A*): see :mod:`.steps`."""
        return self._steps_bound.bound(state)

    # --- the relaxed game: the stock as a bag of values --------------------------------------------

    def _value_count_tables(self, first: int, size: int) -> list[list[int]]:
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
    def _summed(tables: list[list[int]], mask: int) -> int:
        """The value counts of ``mask`` from its per-byte tables."""
        counts = 0
        for table in tables:
            counts += table[mask & 0xFF]
            mask >>= 8
        return counts

    def _stock_starved(self, pyramid: int, stock_counts: int) -> bool:
        """True when some stock card can no longer be removed, in strict rules with one usable
        stock-side card: such a card never meets another stock-side card, so each stock card that is not
        a lone king needs a pyramid card of the partner value of its own — and there are fewer of them
        left than stock cards of that value.  (Pairs inside the pyramid can starve the stock so.)"""
        counts = self._summed(self._pyramid_tables, pyramid)
        target = self.target
        for value in range(1, MAX_VALUE):
            have = stock_counts >> (COUNT_BITS * value) & COUNT_MASK
            if not have or value == self.lone:
                continue
            need = target - value
            if not 0 < need < MAX_VALUE or have > counts >> (COUNT_BITS * need) & COUNT_MASK:
                return True
        return False

    def stock_counts(self, state: int) -> int:
        """How many cards of each value are left in the stock and waste (4 bits per value)."""
        return self._summed(self._count_tables, state >> self.stock_shift & self.stock_mask)

    def relaxed_max(self, pyramid: int, counts: int) -> int:
        """The most pyramid cards (in all) that could be removed if every stock card were usable at any
        time — a relaxation of every stock model, so an upper bound on what real play reaches
        (:class:`.relaxed.RelaxedGame`; the search asks it :meth:`reaches` instead)."""
        return self._relaxed_game.most(pyramid, counts)

    def bag(self, state: int) -> int:
        """See :meth:`_bag`; with free cells the stock cards parked in them join the bag (and a limit on
        waste uses is left out: parked cards are used without one, and leaving it out only relaxes)."""
        if not self.cells:
            return self._bag(state)
        counts = self.stock_counts(state) + (state >> self.jok_shift & self.jok_mask).bit_count()
        rest = state >> self.cell_shift >> self.P
        while rest:
            low = rest & -rest
            counts += 1 << (COUNT_BITS * self.stock_values[low.bit_length() - 1])
            rest ^= low
        return counts

    def _bag(self, state: int) -> int:
        """The relaxed game's counts for ``state``: stock values left and jokers left — and, when every
        stock card is used from the waste and its uses are limited, the uses left (at BAG_USES_SHIFT):
        each removal with bag cards then spends one, and with none left the bag is empty."""
        counts = self.stock_counts(state) + (state >> self.jok_shift).bit_count()
        if self.waste_limit is None or not self.waste_only:
            return counts
        left = self.waste_limit - (state >> self.use_shift & USE_MASK)
        return counts | left << BAG_USES_SHIFT if left > 0 else counts & COUNT_MASK

    def reachable_bound(self, state: int) -> int:
        """An upper bound on the pyramid cards removed in all, from ``state`` on (see relaxed_max)."""
        return self.reach(state, self.bag(state))

    def reach(self, state: int, counts: int) -> int:
        """The relaxed game's most pyramid cards removed in all from ``state`` (``counts`` its bag):
        :meth:`relaxed_max`, or with free cells :meth:`.cells.CellGame.reach`."""
        if self._cell_game is not None:
            return self._cell_game.reach(
                state & self.pyramid_full, state >> self.cell_shift & self.board_places, counts
            )
        return self.relaxed_max(state & self.pyramid_full, counts)

    def reaches(self, state: int, counts: int, k: int) -> bool:
        """True if :meth:`reach` is at least ``k`` (asked without working out the most, where it can)."""
        if self._cell_game is not None:
            return self.reach(state, counts) >= k
        return self._relaxed_game.reaches(state & self.pyramid_full, counts, k)

    def hopeless_though_cleared(self, state: int, counts: int) -> bool:
        """:meth:`hopeless` for a state whose relaxed game clears the pyramid (``counts`` its bag): then
        only the stock's own cuts can tell, as a dead card would have stopped the relaxed game."""
        if self._short_of_uses(state):
            return True
        return self.one_stock_card and self._stock_starved(state & self.pyramid_full, counts)

    def _short_of_uses(self, state: int) -> bool:
        """Strict rules with a limit on waste uses where every stock card goes through the waste: more
        stock cards are left than the uses left can take (``Rules.stock_cards_per_waste_use`` each)."""
        if not (self.strict and self.waste_limit is not None and self.waste_only):
            return False
        left = self.waste_limit - (state >> self.use_shift & USE_MASK)
        return (state >> self.stock_shift & self.stock_mask).bit_count() > left * self.cards_per_use

    def hopeless(self, state: int) -> bool:
        """True if ``state`` can certainly not be won: not even the relaxed game clears the pyramid (or,
        in strict rules with one usable stock-side card, a stock card is starved of partners).
        Memoised on (pyramid, counts), as :meth:`relaxed_max` is."""
        pyramid = state & self.pyramid_full
        counts = self.bag(state)
        if self._short_of_uses(state):
            return True
        if self.cells:
            return self.reach(state, counts) < self.P
        key = counts << self.P | pyramid
        found = self._hopeless.get(key)
        if found is None:
            found = not self._relaxed_game.reaches(pyramid, counts, self.P) or (
                self.one_stock_card and self._stock_starved(pyramid, counts)
            )
            self._hopeless[key] = found
        return found

    def won(self, state: int) -> bool:
        """True when the rule set's goal is reached."""
        if state & self.pyramid_full:
            return False
        cells = state >> self.cell_shift
        if cells & self.board_places:  # a pyramid card parked in a cell is not removed
            return False
        return not self.strict or not (state >> self.stock_shift & self.stock_mask or cells)

    def removed(self, state: int) -> int:
        """Pyramid cards removed so far (a card parked in a free cell is not)."""
        parked = state >> self.cell_shift & self.board_places
        return self.P - (state & self.pyramid_full).bit_count() - parked.bit_count()

"""The search space of one deal: positions packed into one integer, and their successors.

The rules come from :class:`~pyramid_solitaire.table.Table` — the solver never writes them again.
What this module adds is speed: positions become single integers (cheap to hash and store), the part
of move generation that depends only on the pyramid is computed once per pyramid shape (a 7-row
pyramid has only 1,430 reachable shapes) by asking the table, and positions that play the same are
folded into one key (see :meth:`SearchSpace.key`).

The generated successors are checked against ``Table.actions`` in ``tests/solver/test_space.py`` on
random positions of every preset, so the fast path and the rules cannot drift apart.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from ..table import DRAW_ACTION, RECYCLE_ACTION, Action, Position, Table

PTR_BITS: Final = 6
REC_BITS: Final = 4


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

    def __init__(self, table: Table) -> None:
        rules = table.rules
        self.table = table
        self.rules = rules
        self.P = table.pyramid_size
        self.S = table.stock_size
        self.pyramid_full = (1 << self.P) - 1
        self.values = table.values
        self.target = rules.target
        self.lone = rules.target if rules.lone_kings else -1
        #: The fast path covers the rule sets without jokers, triples or overlap pairs; the others go
        #: through Table.removals for every position (slower, same answers).
        self.fast = rules.jokers == 0 and not rules.triples and not rules.overlap
        self.unlimited = rules.passes is None
        self.max_recycles = rules.max_recycles
        self.drawn_spot = rules.drawn_spot
        self.stock_top_usable = rules.stock_top_usable
        self.pairs_ok = rules.stock_waste_pairs
        self.strict = rules.strict
        self._shapes: dict[int, PyramidShape] = {}
        self.stock_shift = self.P
        self.ptr_shift = self.P + self.S
        self.rec_shift = self.ptr_shift + PTR_BITS
        self.jok_shift = self.rec_shift + REC_BITS
        self.stock_mask = (1 << self.S) - 1
        self._dead_masks = self._meeting_masks()
        self._pairs_values = [(v, self.target - v) for v in range(1, self.target)]

    # --- keys ----------------------------------------------------------------------------------------

    def pack(self, pos: Position) -> int:
        """The position as one integer (exact: ``unpack`` gives it back)."""
        return (pos.pyramid | pos.stock << self.stock_shift | pos.ptr << self.ptr_shift
                | pos.recycles << self.rec_shift | pos.jokers << self.jok_shift)

    def unpack(self, state: int) -> Position:
        """The position of a packed integer."""
        return Position(state & self.pyramid_full, state >> self.stock_shift & self.stock_mask,
                        state >> self.ptr_shift & ((1 << PTR_BITS) - 1),
                        state >> self.rec_shift & ((1 << REC_BITS) - 1), state >> self.jok_shift)

    def key(self, state: int) -> int:
        """A key under which positions that play exactly alike fall together.

        With unlimited passes the number of recycles done changes nothing, so it is dropped.  Without a
        drawn spot, a stock pointer that sits past removed cards plays like one just past the last card
        still on the waste, so it is moved back there."""
        pos = self.unpack(state)
        ptr, rec = pos.ptr, pos.recycles
        if not self.drawn_spot:
            below = pos.stock & ((1 << ptr) - 1)
            ptr = below.bit_length()
        if self.unlimited:
            rec = 0
        return self.pack(Position(pos.pyramid, pos.stock, ptr, rec, pos.jokers))

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
        """Legal (action, next state) pairs, the most promising first.

        An exposed pyramid king is taken at once (the only successor): it must go some time, it uses no
        other card, and taking it earlier only widens the choice.  When only the verdict matters
        (``shortest`` false) a usable stock-side king is also taken at once, for the same reason."""
        pyramid = state & self.pyramid_full
        if not self.fast:
            return self._generic_successors(state)
        stock = state >> self.stock_shift & self.stock_mask
        if not pyramid and (not self.strict or not stock):
            return []
        shape = self.shape(pyramid)
        if shape.king is not None:
            return [(shape.king, state & ~(1 << shape.king[0]))]
        ptr = state >> self.ptr_shift & ((1 << PTR_BITS) - 1)
        out: list[tuple[Action, int]] = []
        # stock-side usable cards, as stock indices
        usable: list[int] = []
        if self.drawn_spot:
            if ptr and stock >> (ptr - 1) & 1:
                usable.append(ptr - 1)
            below = stock & ((1 << (ptr - 1)) - 1) if ptr > 1 else 0
        else:
            below = stock & ((1 << ptr) - 1)
        if below:
            usable.append(below.bit_length() - 1)
        above = stock >> ptr
        if self.stock_top_usable and above:
            usable.append(ptr + (above & -above).bit_length() - 1)
        values = self.values
        shift = self.stock_shift
        P = self.P
        for index in usable:
            value = values[P + index]
            bit = 1 << (index + shift)
            if value == self.lone:
                if not shortest:
                    return [((P + index,), state & ~bit)]
                out.append(((P + index,), state & ~bit))
                continue
            for slot in shape.by_need.get(value, ()):
                out.append(((slot, P + index), state & ~bit & ~(1 << slot)))
        if len(usable) == 2 and self.pairs_ok:
            a, b = usable
            if values[P + a] + values[P + b] == self.target:
                out.append(((P + min(a, b), P + max(a, b)), state & ~(1 << (a + shift)) & ~(1 << (b + shift))))
        for action, after in shape.removals:
            out.append((action, state & ~self.pyramid_full | after))
        if above:
            out.append((DRAW_ACTION, state & ~(((1 << PTR_BITS) - 1) << self.ptr_shift)
                        | (ptr + (above & -above).bit_length()) << self.ptr_shift))
        elif stock & ((1 << ptr) - 1):
            rec = state >> self.rec_shift & ((1 << REC_BITS) - 1)
            if self.max_recycles is None or rec < self.max_recycles:
                rec = 0 if self.unlimited else rec + 1
                cleared = state & ~(((1 << (PTR_BITS + REC_BITS)) - 1) << self.ptr_shift)
                out.append((RECYCLE_ACTION, cleared | rec << self.rec_shift))
        return out

    def _generic_successors(self, state: int) -> list[tuple[Action, int]]:
        table = self.table
        pos = self.unpack(state)
        out = []
        for action in table.actions(pos):
            after = table.apply(pos, action)
            if self.unlimited:
                after = after._replace(recycles=0)
            out.append((action, self.pack(after)))
        return out

    # --- pruning and bounds -------------------------------------------------------------------------

    def _meeting_masks(self) -> list[int]:
        """For each pyramid slot, the places (as a packed-state bitmask) of the cards that could still
        meet it as a partner: cards of the value it needs that do not lie in its cover triangle."""
        table = self.table
        masks = []
        for slot in range(self.P):
            need = self.target - self.values[slot]
            mask = 0
            for place in range(self.P + self.S):
                if place == slot or self.values[place] != need:
                    continue
                if place < self.P and table.layout.triangle[slot] >> place & 1:
                    continue
                mask |= 1 << place  # pyramid places and stock places share the packed layout
            masks.append(mask)
        return masks

    def dead(self, state: int) -> bool:
        """True if some pyramid card can never meet a partner (see :mod:`..analysis`); exact for the
        fast path, and False (no pruning) for the others, which :func:`analysis.dead_slots` covers."""
        if not self.fast:
            return False
        pyramid = state & self.pyramid_full
        alive = state & ((1 << (self.P + self.S)) - 1)
        masks = self._dead_masks
        lone = self.lone
        values = self.values
        rest = pyramid
        while rest:
            low = rest & -rest
            slot = low.bit_length() - 1
            if values[slot] != lone and not alive & masks[slot]:
                return True
            rest ^= low
        return False

    def removable_bound(self, state: int) -> int:
        """An upper bound on the pyramid cards that can still be removed from ``state``: every card
        except the dead ones and those they keep covered."""
        pyramid = state & self.pyramid_full
        if not self.fast:
            return pyramid.bit_count()
        alive = state & ((1 << (self.P + self.S)) - 1)
        blocked = 0
        covers_from = self.table.layout.triangle
        rest = pyramid
        while rest:
            low = rest & -rest
            slot = low.bit_length() - 1
            if self.values[slot] != self.lone and not alive & self._dead_masks[slot]:
                blocked |= low
            rest ^= low
        if not blocked:
            return pyramid.bit_count()
        # a card is stuck if a dead card lies in its cover triangle, or it is dead itself
        stuck = 0
        rest = pyramid
        while rest:
            low = rest & -rest
            slot = low.bit_length() - 1
            if low & blocked or covers_from[slot] & blocked:
                stuck |= low
            rest ^= low
        return (pyramid & ~stuck).bit_count()

    def steps_bound(self, state: int) -> int:
        """A lower bound on the steps still needed to clear the pyramid (admissible for A*): each lone
        card takes a step, and of two values that pair, the more numerous in the pyramid each needs a
        step of its own (a pair removes at most one card of each)."""
        pyramid = state & self.pyramid_full
        counts = [0] * (max(self.values, default=0) + self.target + 1)
        values = self.values
        rest = pyramid
        while rest:
            low = rest & -rest
            counts[values[low.bit_length() - 1]] += 1
            rest ^= low
        total = counts[self.target] if self.lone == self.target else 0
        half = self.target // 2
        for value in range(1, half + 1):
            other = self.target - value
            if other == value:
                total += (counts[value] + 1) // 2
            else:
                total += max(counts[value], counts[other])
        return total

    def won(self, state: int) -> bool:
        """True when the rule set's goal is reached."""
        if state & self.pyramid_full:
            return False
        return not self.strict or not (state >> self.stock_shift & self.stock_mask)

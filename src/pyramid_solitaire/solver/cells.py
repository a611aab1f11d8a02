"""Free cells in the search: the moves of a packed position, and the relaxed game with cells.

:class:`CellGame` belongs to one :class:`~.space.SearchSpace` whose rules have free cells, and reads its
packed positions (the parked places sit above the jokers, at ``cell_shift``).

**Moves** (:meth:`CellGame.successors`).  The per-shape tables of the space cover the pyramid in place;
a parked card is one more usable card that is neither in the pyramid nor on the stock side (so the
``stock_waste_pairs`` rule never applies to it).  The moves are exactly ``Table.actions`` less what
never helps (``tests/solver/test_space.py`` checks it on random positions): a usable layout king,
exposed or parked, is removed at once, and so is a parked stock king except when steps count and the
win leaves stock cards; a king is never parked.  Parks come after the draw: deal 28 of ``cells``
needed 16 M positions with parks first and 4 M with parks last.  Rule sets with cells and jokers or
triples take the table's own moves instead (``SearchSpace._generic_successors``).

**Parks in the shortest search** (:meth:`CellGame.after_park`): with one cell, A* follows a park only
with a move that needs it (a shortest line can always be reordered so), and does not push a pyramid
park that exposes nothing a usable card can take (:meth:`CellGame.park_leads`).

**The relaxed game with cells** (:meth:`CellGame.reach`): every stock card not yet removed (parked
ones too) is usable at any time, as in the relaxed game without cells, and the cells hold pyramid cards
(stock cards in the bag need none: they are usable anyway).  With a card parked, a card under it can
meet it, so the cover triangle no longer rules a partner out, and only a card with no partner left in
play is dead.  Every line of play is a line of it, so what it removes bounds what play removes.

It may also be asked with the stock cards already parked *held* (``held``, as
:meth:`.space.SearchSpace.hopeless_held` does): usable at any time too, but each keeps its cell until it
goes (with a pyramid card, with a card of the bag as it would with the waste's top, with another held
card, or alone, a king), as in play, where a parked card leaves its cell only to be removed.  Every line
of play is still a line of it (a stock card parked later is a bag card there), and it removes no more.
It matters where the pyramid needs its cell late: in FC1-R-AAAAABC every pyramid three lies on the two
top tens, so one of these takes the only stock three and the other a pyramid three kept in the cell
until the end.  With the stock three parked, the cell stays taken until a ten takes it: then the top
tens want two pyramid threes in the one cell, or the three stays to the end and a top ten has none.
Counted as a bag card, the parked three lets the relaxed game clear the pyramid.
"""

from __future__ import annotations

from ..layout import bits
from ..packed import DRAW_ACTION, PAIR, RECYCLE_ACTION, Action, Position
from .packing import BAG_USES_SHIFT, COUNT_BITS, COUNT_MASK, MAX_VALUE, PTR_MASK, Packing
from .relaxed import bag_triples

#: where the relaxed game's key keeps the held cards: above a bag's counts and its waste uses left
BAG_BITS = BAG_USES_SHIFT + 8


class CellGame:
    """Moves and the relaxed game of one deal with free cells (see the module docstring)."""

    def __init__(self, space: Packing) -> None:
        self.space = space
        self.table = space.table
        self.P = space.P
        self.cells = space.cells
        self.values = space.values
        self.target = space.target
        self.lone = space.lone
        self.triples = space.triples
        self.strict = space.strict
        self.pairs_ok = space.pairs_ok
        self.cell_shift = space.cell_shift
        self.stock_shift = space.stock_shift
        self.stock_mask = space.stock_mask
        self.ptr_shift = space.ptr_shift
        self.pyramid_full = space.pyramid_full
        self.board_places = space.board_places
        self._board_tables = space.value_count_tables(0, space.P)
        self._relaxed: dict[int, int] = {}
        self._clears: dict[int, bool] = {}
        self._shapes: dict[int, tuple[tuple[int, ...], list[tuple[int, int]]]] = {}
        self._exposed: dict[int, int] = {}
        #: the shortest search plays a park only with a move that needs it next (see :meth:`after_park`):
        #: one cell, the fast path, no overlap pairs and no limit on waste uses
        self.parks_then_use = (
            self.cells == 1
            and not space.jokers
            and not space.triples
            and not space.overlap
            and space.waste_limit is None
        )
        #: the shortest search raises a position it takes after a recycle to :meth:`draws_bound`: as
        #: :attr:`parks_then_use` (with more cells it raised none of the positions the tests sample),
        #: and only the waste's top usable, limited passes, no stock to clear (docs/performance.md)
        self.prefix_draws = (
            self.parks_then_use
            and space.draw_count == 1
            and not space.drawn_spot
            and not space.stock_top_usable
            and not space.pile_masks
            and not space.strict
            and not space.unlimited
        )

    def release(self) -> None:
        """Empty the memos (see :meth:`.space.SearchSpace.release`)."""
        self._relaxed.clear()
        self._clears.clear()
        self._shapes.clear()
        self._exposed.clear()

    # --- moves ---------------------------------------------------------------------------------------

    def successors(self, state: int, shortest: bool, waste_ok: bool) -> list[tuple[Action, int]]:
        """Legal (action, next state) pairs of ``state``, less what never helps (see the module
        docstring): removals (the pyramid's own first), then the draw or recycle, then parks.
        ``waste_ok`` false (the waste uses are spent) leaves the waste out of the usable cards."""
        space = self.space
        P = self.P
        values = self.values
        lone = self.lone
        target = self.target
        pyramid = state & self.pyramid_full
        stock = state >> self.stock_shift & self.stock_mask
        cells = state >> self.cell_shift
        if not pyramid and not cells & self.board_places and (not self.strict or not (stock or cells)):
            return []  # won
        shape = space.shape(pyramid)
        if shape.king is not None:
            return [(shape.king, state & ~(1 << shape.king[0]))]
        parked = bits(cells)
        stock_king_at_once = self.strict or not shortest
        cell_shift = self.cell_shift
        for place in parked:
            if values[place] == lone and (place < P or stock_king_at_once):
                return [((place,), state & ~(1 << (cell_shift + place)))]
        ptr = state >> self.ptr_shift & PTR_MASK
        usable = space.usable_stock_indices(stock, ptr, waste_ok)
        settle = space.settle
        shift = self.stock_shift
        out: list[tuple[Action, int]] = []
        rest = state & ~self.pyramid_full
        out.extend((action, rest | after) for action, after in shape.removals)
        by_need = shape.by_need
        for index in usable:
            value = values[P + index]
            without = settle(state & ~(1 << (index + shift)))
            if value == lone:
                out.append(((P + index,), without))
                continue
            for slot in by_need.get(value, ()):
                out.append(((slot, P + index), without & ~(1 << slot)))
        if len(usable) >= PAIR and self.pairs_ok:
            for i, a in enumerate(usable):
                for b in usable[i + 1 :]:
                    if values[P + a] + values[P + b] == target:
                        out.append(
                            ((P + min(a, b), P + max(a, b)), settle(state & ~(1 << (a + shift)) & ~(1 << (b + shift))))
                        )
        for i, place in enumerate(parked):  # a parked card: alone, with an exposed, stock-side or parked card
            value = values[place]
            without = state & ~(1 << (cell_shift + place))
            if value == lone:
                out.append(((place,), without))
                continue
            for slot in by_need.get(value, ()):
                out.append(((min(slot, place), max(slot, place)), without & ~(1 << slot)))
            for index in usable:
                if values[P + index] + value == target:
                    other = P + index
                    out.append(((min(place, other), max(place, other)), settle(without & ~(1 << (index + shift)))))
            for other in parked[i + 1 :]:
                if values[other] + value == target:
                    out.append(((place, other), without & ~(1 << (cell_shift + other))))
        stock_action = self._stock_action(state, stock, ptr)
        removals = bool(out)
        if stock_action is not None:
            out.append(stock_action)
        if len(parked) < self.cells:
            parks = [slot for slot in shape.exposed] + [P + index for index in usable]
            if parks and not removals and stock_action is None and self.table.useful_park(space.unpack(state)) is None:
                parks = []  # parks that lead to no removal are no moves (Table.parks)
            for place in parks:
                if values[place] == lone:
                    continue
                after = state & ~(1 << place) if place < P else settle(state & ~(1 << (place - P + shift)))
                out.append((place, after | 1 << (cell_shift + place)))
        return out

    def after_park(self, state: int, moves: list[tuple[Action, int]]) -> list[tuple[Action, int]]:
        """Of ``moves``, the successors of ``state`` reached by a park (one cell: the card in it is the
        one just parked), those a shortest line may play next (when :attr:`parks_then_use`).

        Take a shortest line and a park in it.  Until the first later move that needs the card gone
        from its place, the moves in between neither use that card (taking it from its place instead
        would save the park's step) nor a card it frees; so they can all be played before the park,
        with the cell still empty (with one cell nothing else was parked meanwhile), and the line is as
        long.  Moving every park so gives a shortest line in which each park is followed at once by a
        move that needs it (a move that needs a park is always in the search's moves there, as a
        removal follows it: ``Table.useful_park``).

        * A pyramid card parked: the move must use a card that the park exposed (an exposed king is
          one; it is the only move then).
        * A stock-side card parked: what needs it gone is a draw or a recycle (the card would
          otherwise stay on the stock side, under the next one drawn) or a move with a stock-side
          card.  What does not: a removal of pyramid cards only, or of the parked card with a pyramid
          card (both usable before the park)."""
        P = self.P
        place = (state >> self.cell_shift).bit_length() - 1
        if place < P:
            pyramid = state & self.pyramid_full
            freed = self._exposed_mask(pyramid) & ~self._exposed_mask(pyramid | 1 << place)
            return [
                (action, after)
                for action, after in moves
                if isinstance(action, tuple) and any(p < P and freed >> p & 1 for p in action)
            ]
        return [
            (action, after)
            for action, after in moves
            if not isinstance(action, tuple) or any(p >= P and p != place for p in action)
        ]

    def park_leads(self, state: int, place: int) -> bool:
        """False if parking the pyramid card at ``place`` from ``state`` can be followed by none of
        the moves :meth:`after_park` keeps: it exposes no card, or none that a usable card (the parked
        one among them) can take; a king exposed is always taken.  True otherwise (and for a
        stock-side card)."""
        P = self.P
        if place >= P:
            return True
        pyramid = state & self.pyramid_full
        left = pyramid & ~(1 << place)
        exposed = self._exposed_mask(left)
        freed = exposed & ~self._exposed_mask(pyramid)
        if not freed:
            return False
        values = self.values
        have = 1 << values[place]
        rest = exposed
        while rest:
            low = rest & -rest
            rest ^= low
            have |= 1 << values[low.bit_length() - 1]
        stock = state >> self.stock_shift & self.stock_mask
        for index in self.space.usable_stock_indices(stock, state >> self.ptr_shift & PTR_MASK, True):
            have |= 1 << values[P + index]
        while freed:
            low = freed & -freed
            freed ^= low
            slot = low.bit_length() - 1
            value = values[slot]
            need = self.target - value
            if value == self.lone:
                return True
            if 0 < need < MAX_VALUE and have >> need & 1:
                if need != value or self._count_value(exposed, value) > 1 or values[place] == value:
                    return True
                # its only partner of the same value is itself: not a pair
                if self._stock_has_value(stock, state >> self.ptr_shift & PTR_MASK, value):
                    return True
        return False

    def _count_value(self, mask: int, value: int) -> int:
        count = 0
        while mask:
            low = mask & -mask
            mask ^= low
            if self.values[low.bit_length() - 1] == value:
                count += 1
        return count

    def _stock_has_value(self, stock: int, ptr: int, value: int) -> bool:
        P = self.P
        return any(self.values[P + i] == value for i in self.space.usable_stock_indices(stock, ptr, True))

    def _exposed_mask(self, pyramid: int) -> int:
        found = self._exposed.get(pyramid)
        if found is None:
            found = 0
            for slot in self.space.shape(pyramid).exposed:
                found |= 1 << slot
            self._exposed[pyramid] = found
        return found

    def _stock_action(self, state: int, stock: int, ptr: int) -> tuple[Action, int] | None:
        """The draw, or the recycle, of ``state``, if either is legal."""
        space = self.space
        above = stock >> ptr
        if above:
            top = ptr + (above & -above).bit_length() - 1
            dealt = top + 1 if space.draw_count == 1 else space.dealt_after(stock, ptr)
            return DRAW_ACTION, state & ~(PTR_MASK << self.ptr_shift) | dealt << self.ptr_shift
        if stock & ((1 << ptr) - 1):
            recycled = space.recycled(state)
            if recycled is not None:
                return RECYCLE_ACTION, recycled
        return None

    def draws_bound(self, state: int, found: int, total: int, bag: int, ahead: int) -> int:
        """``found`` (the A* bound of ``state``), or ``total`` (the pyramid's removal steps) plus the
        fewest cards ahead (``ahead``, a stock mask) to draw before the pyramid can be cleared, if that
        is more (``bag``: the relaxed game's counts of the waste's and the parked stock cards).  Only the
        waste's top is usable on the stock side, so a line that draws at most ``j`` more cards (and so
        makes no recycle, which needs every card ahead drawn first) uses no stock card but the waste's,
        the parked ones and the first ``j`` ahead; if the relaxed game cannot clear the pyramid with
        that bag (:meth:`clears`), every win draws more.  Draws lower no removal step of ``total`` (it
        reads the pyramid and the cells only), so every win takes ``total`` plus the fewest ``j`` whose
        bag may clear, found by halving (a bigger bag never clears less) from the draws ``found`` counts
        already.  The C loop asks the same (``_astar.c``'s ``draws_bound``, through ``hopeless`` of the
        position with only those cards on its stock side): docs/solver.md, "The draws before the pyramid
        can be cleared"."""
        cards = bits(ahead)
        low = found - total
        if low >= len(cards):
            return found
        low = max(low, 0)
        P = self.P
        values = self.values
        pyramid = state & self.pyramid_full
        parked = state >> self.cell_shift & self.board_places
        firsts = [bag]  # the bag with the first j cards ahead, for j = 0, 1, ...
        for index in cards:
            firsts.append(firsts[-1] + (1 << (COUNT_BITS * values[P + index])))
        if self.clears(pyramid, parked, firsts[low]):
            return found
        low += 1
        high = len(cards)
        while low < high:
            middle = (low + high) // 2
            if self.clears(pyramid, parked, firsts[middle]):
                high = middle
            else:
                low = middle + 1
        return total + low

    # --- the relaxed game with cells -----------------------------------------------------------------

    def reach(self, pyramid: int, parked: int, counts: int, held: int = 0) -> int:
        """The most pyramid cards removed in all in the relaxed game with cells (see the module
        docstring) from ``pyramid`` in place, ``parked`` (pyramid cards in cells), the bag ``counts``
        (:meth:`SearchSpace.bag`, less the held cards) and ``held``, the values of the stock cards
        parked in cells (counts as the bag's).  Memoised."""
        key = self._key(pyramid, parked, counts, held)
        found = self._relaxed.get(key)
        if found is not None:
            return found
        poll = self.space.poll
        if poll is not None:
            poll()
        best = self.P - pyramid.bit_count() - parked.bit_count()
        ceiling = self._ceiling(pyramid, parked, counts + held)
        if best < ceiling:
            for candidate in self._moves(pyramid, parked, counts, held):
                best = max(best, self.reach(*candidate))
                if best >= ceiling:
                    break
        self._relaxed[key] = best
        return best

    def clears(self, pyramid: int, parked: int, counts: int, held: int = 0) -> bool:
        """True if the relaxed game with cells clears the pyramid from there (:meth:`reach` is
        ``self.P``), the question the search asks of it (:meth:`SearchSpace.hopeless`).  It needs no
        most: a position whose ceiling falls short is answered without a move, where :meth:`reach`
        plays its moves on to find how far it gets.  Memoised (and a :meth:`reach` known answers)."""
        key = self._key(pyramid, parked, counts, held)
        found = self._clears.get(key)
        if found is not None:
            return found
        most = self._relaxed.get(key)
        if most is not None:
            return most == self.P
        poll = self.space.poll
        if poll is not None:
            poll()
        if not pyramid and not parked:
            found = True
        elif self._ceiling(pyramid, parked, counts + held) < self.P:
            found = False
        else:
            found = any(self.clears(*candidate) for candidate in self._moves(pyramid, parked, counts, held))
        self._clears[key] = found
        return found

    def _key(self, pyramid: int, parked: int, counts: int, held: int) -> int:
        """The memos' key of a position of the relaxed game with cells."""
        return ((held << BAG_BITS | counts) << self.P | parked) << self.P | pyramid

    def _ceiling(self, pyramid: int, parked: int, counts: int) -> int:
        """Pyramid cards removed in all at the very most: every card but those with no partner left
        anywhere (none is dead while a joker is left, and with triples none is looked for)."""
        if self.triples or counts & COUNT_MASK:
            return self.P
        board = pyramid | parked
        have = self.space.summed(self._board_tables, board)
        values = self.values
        dead = 0
        rest = board
        while rest:
            low = rest & -rest
            value = values[low.bit_length() - 1]
            rest ^= low
            need = self.target - value
            if value == self.lone or not 0 < need < MAX_VALUE:
                continue
            partners = (have >> (COUNT_BITS * need) & COUNT_MASK) - (1 if need == value else 0)
            if not partners and not counts >> (COUNT_BITS * need) & COUNT_MASK:
                dead += 1
        return self.P - dead

    def _shape(self, pyramid: int, parked: int) -> tuple[tuple[int, ...], list[tuple[int, int]]]:
        """The usable cards (exposed and parked) of a pyramid with ``parked`` in cells, and the
        (pyramid, parked) after each removal among them (asked of the table, cached)."""
        key = parked << self.P | pyramid
        found = self._shapes.get(key)
        if found is not None:
            return found
        table = self.table
        pos = Position(pyramid, 0, 0, 0, 0, 0, parked)
        usable = tuple(table.usable(pos))
        after = []
        for action in table.removals(pos):
            left, cells = pyramid, parked
            for place in action:
                left &= ~(1 << place)
                cells &= ~(1 << place)
            after.append((left, cells))
        found = (usable, after)
        self._shapes[key] = found
        return found

    def _moves(self, pyramid: int, parked: int, counts: int, held: int) -> list[tuple[int, int, int, int]]:
        """(pyramid, parked, counts, held) after each move of the relaxed game with cells: a removal
        among the usable cards, one with cards of the bag or a held card, a held card with a card of
        the bag, or parking an exposed card while a cell is free.  A usable king is removed at once,
        and so is a held one.  The moves that take a held card (:meth:`_freeing`) are listed first;
        every move is tried until one gives the answer, so the order changes no answer (putting them
        first saved no measurable time either)."""
        usable, removals = self._shape(pyramid, parked)
        values = self.values
        target = self.target
        lone = self.lone
        for place in usable:
            if values[place] == lone:
                return [(pyramid & ~(1 << place), parked & ~(1 << place), counts, held)]
        if 0 < lone < MAX_VALUE and held >> (COUNT_BITS * lone) & COUNT_MASK:
            return [(pyramid, parked, counts, held - (1 << (COUNT_BITS * lone)))]
        out = self._freeing(pyramid, parked, counts, held, usable) if held else []
        out.extend((left, cells, counts, held) for left, cells in removals)
        for place in usable:
            need = target - values[place]
            if 0 < need < MAX_VALUE and counts >> (COUNT_BITS * need) & COUNT_MASK:
                out.append((pyramid & ~(1 << place), parked & ~(1 << place), counts - (1 << (COUNT_BITS * need)), held))
        if counts & COUNT_MASK:  # a joker takes any usable card
            out.extend((pyramid & ~(1 << p), parked & ~(1 << p), counts - 1, held) for p in usable)
        if self.triples:
            out.extend(
                (pyramid & ~taken, parked & ~taken, after, held)
                for taken, after in bag_triples(values, target, usable, counts)
            )
        if parked.bit_count() + self._held_count(held) < self.cells:
            out.extend((pyramid & ~(1 << p), parked | 1 << p, counts, held) for p in usable if pyramid >> p & 1)
        return out

    def _freeing(
        self, pyramid: int, parked: int, counts: int, held: int, usable: tuple[int, ...]
    ) -> list[tuple[int, int, int, int]]:
        """The moves of :meth:`_moves` that take a held card: with a usable pyramid card, with a card
        of the bag (or a joker), or with another held card."""
        values = self.values
        target = self.target
        out = []
        for place in usable:
            need = target - values[place]
            if 0 < need < MAX_VALUE and held >> (COUNT_BITS * need) & COUNT_MASK:
                out.append((pyramid & ~(1 << place), parked & ~(1 << place), counts, held - (1 << (COUNT_BITS * need))))
        rest = held
        value = 0
        while rest:
            if rest & COUNT_MASK:
                unit = 1 << (COUNT_BITS * value)
                need = target - value
                if counts & COUNT_MASK:
                    out.append((pyramid, parked, counts - 1, held - unit))
                if 0 < need < MAX_VALUE:
                    if counts >> (COUNT_BITS * need) & COUNT_MASK:
                        out.append((pyramid, parked, counts - (1 << (COUNT_BITS * need)), held - unit))
                    other = held >> (COUNT_BITS * need) & COUNT_MASK
                    if (need > value and other) or (need == value and other > 1):
                        out.append((pyramid, parked, counts, held - unit - (1 << (COUNT_BITS * need))))
            rest >>= COUNT_BITS
            value += 1
        return out

    @staticmethod
    def _held_count(held: int) -> int:
        """How many cards ``held`` (counts per value) holds."""
        total = 0
        while held:
            total += held & COUNT_MASK
            held >>= COUNT_BITS
        return total

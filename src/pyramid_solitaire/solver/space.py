"""The search space of one deal: the successors of its packed positions, the cuts and the bounds.

The rules come from :class:`~pyramid_solitaire.table.Table` — the solver never writes them again.
What this module adds is speed: the moves are made on positions packed into single integers, and the
part of move generation that depends only on the pyramid is asked of the table once per pyramid shape
(a 7-row pyramid has only 1,430 reachable shapes).  The packing, the keys (positions that play the same
fold into one) and those shapes are :class:`~.packing.Packing`'s; :class:`SearchSpace` is a Packing
with the moves, and it owns the helpers behind its cuts and bounds: the A* bound (:mod:`.steps`), the
relaxed game (:mod:`.relaxed`) and the free cells (:mod:`.cells`).  They are given the space as a
Packing, so they import nothing of this module.

The generated successors are checked against ``Table.actions`` in ``tests/solver/test_space.py`` on
random positions of every preset, so the fast path and the rules cannot drift apart.

**Free cells** (``cells``): the packed state keeps the parked places above the jokers, and
:mod:`.cells` makes their moves (the per-shape tables, and what a parked card adds) and a relaxed game
with cells of its own: with a card parked, a card under it can meet it, so the cover triangle no longer
rules a partner out.  With jokers or triples as well, cells take the table's own moves (the generic
path).
"""

from __future__ import annotations

from ..packed import DRAW_ACTION, PAIR, RECYCLE_ACTION, TRIPLE, Action, Position
from ..table import Table
from .cells import CellGame
from .needs import PyramidSteps
from .packing import (
    BAG_USES_SHIFT,
    COUNT_BITS,
    COUNT_MASK,
    MAX_VALUE,
    PTR_BITS,
    PTR_MASK,
    Packing,
    PyramidShape,
)
from .relaxed import RelaxedGame
from .steps import StepsBound


class SearchSpace(Packing):
    """Successors, dead-card pruning and bounds for one deal, over its packed positions (see the module
    docstring and :class:`.packing.Packing`)."""

    def __init__(self, table: Table, generic: bool = False) -> None:
        super().__init__(table)
        rules = table.rules
        #: ``generic`` asks Table.actions for every position instead (slow; the tests compare the two).
        self.generic_only = generic
        # with cells, jokers and triples take the table's own moves (CellGame does not make theirs)
        self.fast = not generic and not (self.cells and (rules.jokers or rules.triples))
        #: the shortest search with free cells keys its positions by :meth:`alike` (``search._alike``);
        #: a switch for the tests, which compare the searches with and without
        self.alike_keys = True
        # A usable stock-side king is taken at once when that never loses anything: with one card a
        # draw, or with no recycle to come (see :meth:`successors`).
        self.king_at_once = self.draw_count == 1 or rules.max_recycles == 0
        self._hopeless: dict[int, bool] = {}
        #: per start of a shortest search: the fewest recycles in all a win from it takes (as far as
        #: search._fewest_recycles proved it)
        self.fewest_recycles: dict[int, int] = {}
        # the A* bound, the relaxed game and the free cells, each with its memos
        self._steps_bound = StepsBound(self)
        self._cell_game = CellGame(self) if self.cells else None
        #: the shortest search raises positions it takes after a recycle to :meth:`draws_bound`
        #: (:attr:`.cells.CellGame.prefix_draws`); a switch the tests turn off to compare
        self.prefix_draws = self._cell_game is not None and self._cell_game.prefix_draws
        self._relaxed_game = RelaxedGame(self)

    def release(self) -> None:
        """Empty every memo of this space, its bound's, its relaxed game's and its cells'.  The space
        and its helpers refer to each other (a reference cycle), so without this their memos (a search's
        worth: hundreds of thousands of entries) would wait for Python's cyclic garbage collector, which
        the solver pauses while it searches (see ``solve_position``)."""
        super().release()
        self._hopeless.clear()
        self.fewest_recycles.clear()
        self._steps_bound.release()
        self._relaxed_game.release()
        if self._cell_game is not None:
            self._cell_game.release()

    # --- successors --------------------------------------------------------------------------------

    def successors(self, state: int, shortest: bool = False) -> list[tuple[Action, int]]:
        """Legal (action, next state) pairs, the most promising first (see :meth:`_successors`).  With a
        limit on waste uses, each removal that takes a waste card counts one use."""
        if self.waste_limit is None or not self.fast:
            return self._successors(state, shortest, True)
        used = state >> self.use_shift & self.use_mask
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
        settle = self.settle
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
                dealt = top + 1 if self.draw_count == 1 else self.dealt_after(stock, ptr)
                out.append((DRAW_ACTION, state & ~(((1 << PTR_BITS) - 1) << self.ptr_shift) | dealt << self.ptr_shift))
        elif stock & ((1 << ptr) - 1):
            recycled = self.recycled(state)
            if recycled is not None:
                out.append((RECYCLE_ACTION, recycled))
        return out

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
                out.append(((P + index, place), self.settle(without & ~(1 << (P + index)))))

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
                        out.append(((a, b, place), self.settle(state & ~(1 << a) & ~(1 << b) & ~(1 << place))))
        if len(stock_places) >= PAIR and self.pairs_ok:
            ordered = sorted(stock_places)
            for i, x in enumerate(ordered):
                for y in ordered[i + 1 :]:
                    need = target - values[x] - values[y]
                    for slot in shape.by_need.get(target - need, ()):
                        out.append(((slot, x, y), self.settle(state & ~(1 << slot) & ~(1 << x) & ~(1 << y))))
            if len(ordered) == TRIPLE and sum(values[p] for p in ordered) == target:  # three waste tops
                x, y, z = ordered
                out.append(((x, y, z), self.settle(state & ~(1 << x) & ~(1 << y) & ~(1 << z))))

    @property
    def parks_then_use(self) -> bool:
        """True if the shortest search may follow each park with only the moves that need it
        (:meth:`.cells.CellGame.after_park`)."""
        return self._cell_game is not None and self._cell_game.parks_then_use

    def after_park(self, state: int, moves: list[tuple[Action, int]]) -> list[tuple[Action, int]]:
        """Of ``state``'s ``moves`` (``state`` reached by a park), those a shortest line plays next
        (:meth:`.cells.CellGame.after_park`)."""
        assert self._cell_game is not None
        return self._cell_game.after_park(state, moves)

    def park_leads(self, state: int, place: int) -> bool:
        """False if the park of ``place`` from ``state`` is followed by none of the moves
        :meth:`after_park` keeps (:meth:`.cells.CellGame.park_leads`)."""
        assert self._cell_game is not None
        return self._cell_game.park_leads(state, place)

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

    def steps_bound(self, state: int) -> int:
        """A lower bound on the steps still needed to win (admissible for A*): see :mod:`.steps`."""
        return self._steps_bound.bound(state)

    def draws_bound(self, state: int, found: int) -> int:
        """``found`` (:meth:`steps_bound` of ``state``), or the pyramid's removal steps plus the fewest
        cards ahead to draw before the relaxed game with cells can clear the pyramid, if that is more
        (:meth:`.cells.CellGame.draws_bound`): what the shortest search asks of a position it takes
        after a recycle, where :attr:`prefix_draws`."""
        assert self._cell_game is not None
        cells = state >> self.cell_shift
        steps = self._steps_bound.pyramid_steps(state & self.pyramid_full | cells & self.pyramid_full, cells)
        ptr = state >> self.ptr_shift & PTR_MASK
        ahead = (state >> self.stock_shift & self.stock_mask) >> ptr << ptr
        # the bag of the position with none of the cards ahead: the waste's and the parked stock cards
        bag = self.bag(state & ~(ahead << self.stock_shift))
        return self._cell_game.draws_bound(state, found, steps.total, bag, ahead)

    def pyramid_steps(self, pyramid: int, cells: int) -> PyramidSteps:
        """What the bound counts for ``pyramid`` with ``cells`` parked (the parked pyramid cards counted
        in place): :meth:`.needs.PyramidNeeds.steps`, which the C loop with free cells asks per shape."""
        return self._steps_bound.pyramid_steps(pyramid, cells)

    def park_useful(self, state: int) -> bool:
        """True if some park from ``state`` leads to a removal (``Table.useful_park``): with no removal
        and no draw or recycle, the only parks :meth:`successors` makes (see :mod:`.cells`)."""
        return self.table.useful_park(self.unpack(state)) is not None

    @property
    def waste_top_only(self) -> bool:
        """Only the waste's top is usable on the stock side (see :class:`.steps.StepsBound`)."""
        return self._steps_bound.waste_top_only

    @property
    def last_pass_root(self) -> bool:
        """The bound counts the last pass's cost (see :meth:`.steps.StepsBound._last_pass`)."""
        return self._steps_bound.last_pass_root

    @property
    def min_recycles(self) -> int:
        """The fewest recycles in all of every win the bound is asked about (see :meth:`set_min_recycles`)."""
        return self._steps_bound.min_recycles

    def set_min_recycles(self, count: int) -> None:
        """Tell the bound that every position it is asked about wins only with ``count`` recycles in all
        at least (the shortest search, from a start that needs them: positions reached from it); 0 when
        nothing is known.  See :meth:`.steps.StepsBound.bound`."""
        self._steps_bound.min_recycles = count

    # --- the relaxed game: the stock as a bag of values --------------------------------------------

    def _stock_starved(self, pyramid: int, stock_counts: int) -> bool:
        """True when some stock card can no longer be removed, in strict rules with one usable
        stock-side card: such a card never meets another stock-side card, so each stock card that is not
        a lone king needs a pyramid card of the partner value of its own — and there are fewer of them
        left than stock cards of that value.  (Pairs inside the pyramid can starve the stock so.)"""
        counts = self.summed(self.pyramid_tables, pyramid)
        target = self.target
        for value in range(1, MAX_VALUE):
            have = stock_counts >> (COUNT_BITS * value) & COUNT_MASK
            if not have or value == self.lone:
                continue
            need = target - value
            if not 0 < need < MAX_VALUE or have > counts >> (COUNT_BITS * need) & COUNT_MASK:
                return True
        return False

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
        jokers = (state >> self.jok_shift & self.jok_mask).bit_count()
        return self.stock_counts(state) + jokers + self.parked_stock_counts(state)

    def parked_stock_counts(self, state: int) -> int:
        """How many stock cards of each value are parked in ``state``'s cells (4 bits per value)."""
        counts = 0
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
        left = self.waste_limit - (state >> self.use_shift & self.use_mask)
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

    def hopeless_held(self, state: int) -> bool:
        """:meth:`hopeless` with free cells, the stock cards parked in ``state``'s cells *held*: they
        keep their cells until they go (:meth:`.cells.CellGame.reach`), where :meth:`hopeless` counts
        them among the bag's cards, which need no cell.  Stronger, and dearer: A* asks it of a position
        just reached by parking a stock card, where the cell it takes is new (docs/solver.md).  With
        triples, whose relaxed game takes bag cards only, it is :meth:`hopeless`."""
        if self._cell_game is None or self.triples:
            return self.hopeless(state)
        held = self.parked_stock_counts(state)
        parked = state >> self.cell_shift & self.board_places
        return not self._cell_game.clears(state & self.pyramid_full, parked, self.bag(state) - held, held)

    def reach_now(self, state: int) -> int:
        """:meth:`reach` with ``state``'s own bag (the C verdict's loop with cells asks it)."""
        return self.reach(state, self.bag(state))

    def reaches(self, state: int, counts: int, k: int) -> bool:
        """True if :meth:`reach` is at least ``k`` (asked without working out the most, where it can)."""
        if self._cell_game is not None:
            if k >= self.P:
                return self._cell_game.clears(
                    state & self.pyramid_full, state >> self.cell_shift & self.board_places, counts
                )
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
        left = self.waste_limit - (state >> self.use_shift & self.use_mask)
        return (state >> self.stock_shift & self.stock_mask).bit_count() > left * self.cards_per_use

    def hopeless(self, state: int) -> bool:
        """True if ``state`` can certainly not be won: not even the relaxed game clears the pyramid (or,
        in strict rules with one usable stock-side card, a stock card is starved of partners).
        Memoised on (pyramid, counts), as :meth:`relaxed_max` is."""
        pyramid = state & self.pyramid_full
        counts = self.bag(state)
        if self._short_of_uses(state):
            return True
        if self._cell_game is not None:
            return not self._cell_game.clears(pyramid, state >> self.cell_shift & self.board_places, counts)
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

"""Which of the solver's three paths play each option of the rules.

The rules of play are written once, in :mod:`..table` (``Table.actions``).  The solver has two faster
paths that play them again: the fast successors of :class:`.space.SearchSpace` (``fast``), and the C
loops of the verdict and the shortest search (``c``, ``_astar.c``).  Each fast path takes a rule set only
when it plays every option the rule set sets (``SearchSpace.fast``, ``search._c_search_fits``), and falls
back to the slower path otherwise.

:data:`HANDLED` says, for every field of :class:`..rules.Rules`, which paths play it.  A field no fast
path can ignore — a new option — must be listed here before any test passes
(``tests/solver/test_paths.py``), and the tests check each claim: a rule set that sets an option a path
does not play is never given to that path, and one that sets an option a path does play (and nothing
else) is.  The same tests make their rule sets from the options' own values, not from a hand-written
list.
"""

from __future__ import annotations

from typing import Final

TABLE: Final = "table"
FAST: Final = "fast"
C: Final = "c"
#: every path: an option the C loops and the fast successors play as the table does (or one that does
#: not change play at all: a name, the scoring, the undo limit, face-down cards the solver sees anyway)
ALL: Final = frozenset({TABLE, FAST, C})
#: the table's moves and SearchSpace's own, not the C loops
NOT_C: Final = frozenset({TABLE, FAST})

HANDLED: Final[dict[str, frozenset[str]]] = {
    "preset": ALL,
    "passes": ALL,
    "strict": ALL,
    "overlap": ALL,
    "stock_top_usable": ALL,  # but not together with a drawn spot in C (search._c_search_fits)
    "drawn_spot": ALL,
    "stock_waste_pairs": ALL,
    "waste_start": ALL,
    "draw": ALL,  # any number of cards a draw, in C too (board.dealt_to)
    "open_pyramid": ALL,
    "jokers": ALL,  # up to two (_astar.c: MAX_JOKERS), each a bit of the position
    "triples": ALL,  # the shortest search's C loop, asking SearchSpace.hopeless; the verdict's runs in Python
    "target": ALL,
    "lone_kings": ALL,
    "deck": ALL,
    "rows": ALL,  # up to the 64 places of a C position
    "scoring": ALL,
    "undo_limit": ALL,
    "reserve": ALL,  # a row of single cards: more places of the layout (up to 64 in all in C)
    "reserve_depth": ALL,  # piles of several cards: more places, each covered by the one on it (the layout says)
    "inverted": ALL,
    "waste_piles": ALL,  # but in C only with several cards a draw (search._c_search_fits)
    "waste_uses": NOT_C,
    # free cells take CellGame's moves in SearchSpace, and the table's own with jokers or triples; in C
    # the wide build's loop (_astar_wide), with the classic stock side (search._c_cells_fit)
    "cells": ALL,
}

"""The layout's positions and the cover graph, computed once from the geometry.

Slots are numbered row by row from the apex, each row left to right, 0-based: slot 0 is the apex,
slots 21-27 the bottom row of a 7-row pyramid.  That is also the order of the first tokens of the deal
notation.  Card (r, c) (1-based row and column) is covered by (r+1, c) and (r+1, c+1).  Every
relation is kept as a bitmask over slots so that play and search test it in one operation.

A *reserve* (Giza's 8 piles of 3, or a row of 7 single cards under the pyramid) adds slots after the
pyramid's: pile by pile, each pile from its bottom card up, the next tokens of the notation.  In a pile
each card is covered by the one dealt on it, so the same cover graph says which reserve card is usable,
and the rules of play, the dead-card test and the solver need nothing else to know about it.

*Triangle* is the pyramid upside down: its widest row at the top is usable first and the apex, at the
bottom, last.  That is the same cover graph drawn the other way up (so the same game), which
``inverted`` tells the front ends.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache


@dataclass(frozen=True)
class Layout:
    """The geometry of an ``rows``-row pyramid and its reserve piles, if any."""

    rows: int
    #: (row, column) of each pyramid slot, both 1-based.
    coords: tuple[tuple[int, int], ...]
    #: the slots that directly cover each slot (0 or 2 of them in the pyramid, 0 or 1 in a pile), as a bitmask.
    coverers: tuple[int, ...]
    #: every slot that covers each slot, directly or through others (the "triangle" below it).
    triangle: tuple[int, ...]
    #: the slots each slot directly covers (its 1 or 2 neighbours in the row above; the card under it in a pile).
    covers: tuple[int, ...]
    #: the reserve piles, each a tuple of slots from its bottom card up (the last is the pile's top).
    piles: tuple[tuple[int, ...], ...] = ()
    #: drawn upside down (Triangle): the same cover graph, the apex at the bottom.
    inverted: bool = False

    @property
    def pyramid_size(self) -> int:
        """Number of pyramid slots."""
        return len(self.coords)

    @property
    def size(self) -> int:
        """Number of slots: the pyramid's and the reserve's."""
        return len(self.coverers)

    def slot(self, row: int, col: int) -> int:
        """Slot number of (row, col), both 1-based."""
        if not (1 <= row <= self.rows and 1 <= col <= row):
            raise ValueError(f"no slot at row {row}, column {col}")
        return row * (row - 1) // 2 + col - 1

    def exposed(self, pyramid: int) -> int:
        """The slots of ``pyramid`` (a bitmask of cards still in place) that no remaining card covers."""
        free = 0
        rest = pyramid
        coverers = self.coverers
        while rest:
            low = rest & -rest
            slot = low.bit_length() - 1
            if not coverers[slot] & pyramid:
                free |= low
            rest ^= low
        return free


@cache
def pyramid_layout(rows: int, piles: int = 0, depth: int = 1, inverted: bool = False) -> Layout:
    """The layout of a pyramid with ``rows`` rows, and ``piles`` reserve piles of ``depth`` cards each
    (cached: it never changes)."""
    coords = tuple((r, c) for r in range(1, rows + 1) for c in range(1, r + 1))
    index = {rc: i for i, rc in enumerate(coords)}
    size = len(coords) + piles * depth
    coverers = []
    covers = [0] * size
    for i, (r, c) in enumerate(coords):
        mask = 0
        if r < rows:
            for below in ((r + 1, c), (r + 1, c + 1)):
                mask |= 1 << index[below]
                covers[index[below]] |= 1 << i
        coverers.append(mask)
    pile_slots = []
    for pile in range(piles):
        slots = tuple(len(coords) + pile * depth + level for level in range(depth))
        pile_slots.append(slots)
        for level, slot in enumerate(slots):
            on_it = slots[level + 1] if level + 1 < depth else None
            coverers.append(0 if on_it is None else 1 << on_it)
            if on_it is not None:
                covers[on_it] |= 1 << slot
    triangle = [0] * size
    for i in reversed(range(size)):
        mask = coverers[i]
        rest = coverers[i]
        while rest:
            low = rest & -rest
            mask |= triangle[low.bit_length() - 1]
            rest ^= low
        triangle[i] = mask
    return Layout(rows, coords, tuple(coverers), tuple(triangle), tuple(covers), tuple(pile_slots), inverted)


def bits(mask: int) -> list[int]:
    """The indices of the set bits of ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out

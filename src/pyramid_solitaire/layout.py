"""Pyramid positions and the cover graph, computed once from the geometry.

Slots are numbered row by row from the apex, each row left to right, 0-based: slot 0 is the apex,
slots 21-27 the bottom row of a 7-row pyramid.  That is also the order of the first tokens of the deal
notation.  Card (r, c) (1-based row and column) is covered by (r+1, c) and (r+1, c+1).  Every
relation is kept as a bitmask over slots so that play and search test it in one operation.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache


@dataclass(frozen=True)
class Layout:
    """The geometry of an ``rows``-row pyramid."""

    rows: int
    #: (row, column) of each slot, both 1-based.
    coords: tuple[tuple[int, int], ...]
    #: the slots that directly cover each slot (0 or 2 of them), as a bitmask.
    coverers: tuple[int, ...]
    #: every slot that covers each slot, directly or through others (the "triangle" below it).
    triangle: tuple[int, ...]
    #: the slots each slot directly covers (its 1 or 2 neighbours in the row above).
    covers: tuple[int, ...]

    @property
    def size(self) -> int:
        """Number of slots."""
        return len(self.coords)

    @property
    def full_mask(self) -> int:
        """Bitmask with every slot set."""
        return (1 << self.size) - 1

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
def pyramid_layout(rows: int) -> Layout:
    """The layout of a pyramid with ``rows`` rows (cached: it never changes)."""
    coords = tuple((r, c) for r in range(1, rows + 1) for c in range(1, r + 1))
    index = {rc: i for i, rc in enumerate(coords)}
    coverers = []
    covers = [0] * len(coords)
    for i, (r, c) in enumerate(coords):
        mask = 0
        if r < rows:
            for below in ((r + 1, c), (r + 1, c + 1)):
                mask |= 1 << index[below]
                covers[index[below]] |= 1 << i
        coverers.append(mask)
    triangle = [0] * len(coords)
    for i in reversed(range(len(coords))):
        mask = coverers[i]
        rest = coverers[i]
        while rest:
            low = rest & -rest
            mask |= triangle[low.bit_length() - 1]
            rest ^= low
        triangle[i] = mask
    return Layout(rows, coords, tuple(coverers), tuple(triangle), tuple(covers))


def bits(mask: int) -> list[int]:
    """The indices of the set bits of ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out

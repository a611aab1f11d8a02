"""Write the card art's letters (static/art/cards.svg: the ranks, JOKER and the value badges' numbers) as
stroked SVG paths, drawn here for this project: run after changing a glyph, and commit the SVG.

    python3 scripts/make_glyphs.py

Why paths and not ``<text>``: text is laid out with the device's own fonts (a "10" in one phone's
``system-ui`` is wider than its box) and, inside ``<symbol>``s, Chromium laid it out while the deal's
animation had the card scaled down and never again, so indices were cut off on the first deal (issue 35).
A path is the same ink on every device, at every size, whenever it is drawn (docs/web.md).

Each glyph is a centre line in a cell 10 wide and 16 tall (x right, y down), drawn with a round pen: only
absolute ``M``, ``L``, ``C`` and ``Z`` commands, so every number pair is a point and the cell can be
scaled into each symbol's box by scaling its points.
"""

from __future__ import annotations

import re
from pathlib import Path

ART = Path(__file__).resolve().parent.parent / "src" / "pyramid_solitaire" / "web" / "static" / "art" / "cards.svg"

#: Glyphs as centre lines in a 10 x 16 cell, and the width each takes (a "1" is narrow).
GLYPHS: dict[str, tuple[str, float]] = {
    "0": ("M5 1C0.6 1 0.6 15 5 15C9.4 15 9.4 1 5 1Z", 10),
    "1": ("M1.2 4.2L4.6 1L4.6 15", 6.5),
    "2": ("M1.4 4.6C1.4 0.4 8.6 0.2 8.6 4.6C8.6 8.4 1.2 10.6 1.2 15L8.9 15", 10),
    "3": ("M1.4 3C2.6 0.6 8.4 0.4 8.4 4.2C8.4 6.9 6.2 7.6 4.2 7.6C6.8 7.6 8.9 8.8 8.9 11.4C8.9 15.8 2.4 16 1.1 13", 10),
    "4": ("M6.8 15L6.8 1L1 10.8L9.2 10.8", 10),
    "5": ("M8.4 1L2.2 1L1.6 7.2C3.4 5.6 8.9 5.4 8.9 10.4C8.9 15.6 2.6 16 1.1 13.2", 10),
    "6": ("M8 2.2C6.2 0.6 1.1 0.2 1.1 8.6C1.1 16 8.9 16 8.9 10.9C8.9 6.2 2 5.8 1.2 10", 10),
    "7": ("M1.1 1L8.9 1L3.8 15", 10),
    "8": ("M5 7.6C1.6 7.6 1.6 1 5 1C8.4 1 8.4 7.6 5 7.6C0.9 7.6 0.9 15 5 15C9.1 15 9.1 7.6 5 7.6Z", 10),
    "9": ("M2 13.8C3.8 15.4 8.9 15.8 8.9 7.4C8.9 0 1.1 0 1.1 5.1C1.1 9.8 8 10.2 8.8 6", 10),
    "A": ("M1 15L5 1L9 15M2.5 10.2L7.5 10.2", 10),
    "J": ("M3.4 1L9 1M7.2 1L7.2 10.8C7.2 16.2 1.2 16 1.2 11.6", 10),
    "Q": ("M5 1C0.6 1 0.6 14.2 5 14.2C9.4 14.2 9.4 1 5 1ZM5.6 10.4L9.2 15.2", 10),
    "K": ("M1.4 1L1.4 15M8.9 1L1.4 9.6M4.1 6.6L9 15", 10),
    "O": ("M5 1C0.4 1 0.4 15 5 15C9.6 15 9.6 1 5 1Z", 10),
    "E": ("M8.6 1L1.4 1L1.4 15L8.6 15M1.4 8L7 8", 10),
    "R": ("M1.4 15L1.4 1L5.4 1C9.4 1 9.4 8 5.4 8L1.4 8M5.2 8L9 15", 10),
}
#: A pen's width in the cell (a bold index, as printed cards have).
PEN = 2.5


def placed(glyph: str, x: float, y: float, scale: float, squeeze: float = 1.0) -> str:
    """The glyph's path with its cell's top-left at (x, y), scaled (and narrowed by ``squeeze``)."""
    path, _ = GLYPHS[glyph]
    out: list[str] = []
    numbers: list[float] = []
    for token in re.findall(r"[MLCZ]|-?\d+(?:\.\d+)?", path):
        if token in "MLCZ":
            out.append(token)
            continue
        numbers.append(float(token))
        if len(numbers) == 2:  # a point: x then y
            out.append(f"{x + numbers[0] * scale * squeeze:.2f} {y + numbers[1] * scale:.2f}")
            numbers = []
    assert not numbers, glyph
    text = ""
    for part in out:
        text += part if part in "MLCZ" or text[-1:] in "MLCZ" else f" {part}"
    return text


def word(text: str, box_w: float, box_h: float, height: float, squeeze: float = 1.0, gap: float = 0.8) -> str:
    """A word's glyphs side by side, centred in a box, ``height`` tall."""
    scale = height / 16
    widths = [GLYPHS[c][1] * scale * squeeze for c in text]
    total = sum(widths) + gap * scale * (len(text) - 1)
    x = (box_w - total) / 2
    y = (box_h - height) / 2
    parts = []
    for char, width in zip(text, widths, strict=True):
        offset = (GLYPHS[char][1] - 10) / 2 * scale * squeeze  # a narrow glyph's line sits in its own width
        parts.append(placed(char, x + offset, y, scale, squeeze))
        x += width + gap * scale
    return "".join(parts)


def stroke(path: str, width: float, colour: str = "currentColor") -> str:
    return (
        f'<path d="{path}" fill="none" stroke="{colour}" stroke-width="{width:.2f}" '
        'stroke-linecap="round" stroke-linejoin="round"/>'
    )


def symbols() -> dict[str, str]:
    out: dict[str, str] = {}
    rank_height = 17.0  # in the 20 x 24 box, with room for the pen all round
    for rank in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "J", "Q", "K"):
        path = word(rank, 20, 24, rank_height)
        out[f"r-{rank}"] = f'<symbol id="r-{rank}" viewBox="0 0 20 24">{stroke(path, PEN * rank_height / 16)}</symbol>'
    ten = word("10", 20, 24, rank_height, squeeze=0.78, gap=0.2)
    out["r-10"] = f'<symbol id="r-10" viewBox="0 0 20 24">{stroke(ten, PEN * 0.92 * rank_height / 16)}</symbol>'
    letters = []
    letter_height = 8.0
    for row, char in enumerate("JOKER"):
        letters.append(placed(char, 6 - 5 * letter_height / 16, 1.5 + row * 10, letter_height / 16))
    joker = "".join(letters)
    out["r-X"] = f'<symbol id="r-X" viewBox="0 0 12 52">{stroke(joker, PEN * letter_height / 16)}</symbol>'
    badge_height = 10.5
    for value in range(1, 14):
        path = word(str(value), 24, 17, badge_height, squeeze=0.9, gap=0.6)
        ink = stroke(path, PEN * 0.85 * badge_height / 16, "#333")
        out[f"b-{value}"] = f'<symbol id="b-{value}" viewBox="0 0 24 17">{ink}</symbol>'
    return out


def main() -> None:
    text = ART.read_text(encoding="utf-8")
    for name, symbol in symbols().items():
        text, count = re.subn(rf'<symbol id="{re.escape(name)}" [^\n]*</symbol>', symbol, text)
        assert count == 1, name
    text = text.replace(
        "<!-- ranks and the value badges' numbers: text kept in symbols, so a card's only name is its label -->",
        "<!-- ranks and the value badges' numbers: stroked paths (scripts/make_glyphs.py), the same ink on every\n"
        "     device whatever its fonts; in symbols, so a card's only name is its label -->",
    )
    ART.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()

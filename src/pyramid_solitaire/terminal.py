"""Terminal play: draws the player's view as text and reads commands, one per line.

The screen is built only from :func:`.view.player_view`, so the terminal shows what a player may see and
nothing else.  Usable cards are shown in brackets, face-down cards as ``##``, dead cards with ``!``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TextIO

from .game import Game
from .moves import Move, MoveError
from .reasons import IllegalMoveError

HELP = {
    "ja": ("コマンド: カード名で取り除く (Kd / Tc 3s / Tc+3s)、Qs>cell フリーセルに置く、s 山札をタップ、d めくる、"
           "r 山札に戻す、"
           "u 元に戻す、y やり直す、h ヒント、b 崩れる前に戻す、code コード、q 終了"),
    "en": ("Commands: name cards to remove them (Kd / Tc 3s / Tc+3s), Qs>cell park in a free cell, "
           "s tap the stock, d draw, r recycle, "
           "u undo, y redo, h hint, b rewind before the dead card, code show the code, q quit"),
}
TEXT = {
    "code": {"ja": "配札コード", "en": "Deal code"},
    "stock": {"ja": "山札", "en": "Stock"},
    "drawn": {"ja": "めくり札", "en": "Drawn"},
    "waste": {"ja": "捨て札", "en": "Waste"},
    "uses-left": {"ja": "捨て札を使える残り{n}回", "en": "Waste uses left: {n}"},
    "score": {"ja": "得点", "en": "Score"},
    "moves": {"ja": "手数", "en": "Moves"},
    "hint": {"ja": "ヒント", "en": "Hint"},
    "no-hint": {"ja": "取り除ける組がありません", "en": "Nothing can be removed or drawn."},
    "dead": {"ja": "詰み札", "en": "Dead card"},
    "rewind": {"ja": "「b」で崩れる前に戻せます", "en": "type b to rewind to before it"},
    "jokers": {"ja": "ジョーカー", "en": "Jokers"},
    "cells": {"ja": "フリーセル", "en": "Free cells"},
    "bye": {"ja": "終了します", "en": "Bye."},
}
CELL = 4


def _cell(slot: dict[str, Any]) -> str:
    if slot["removed"]:
        return "  . "
    if not slot["face_up"]:
        return " ## "
    card = slot["card"]
    if slot["usable"]:
        return f"[{card}]"
    mark = "!" if slot["dead"] else " "
    return f" {card}{mark}"


def render(game: Game, lang: str = "ja") -> str:
    """The board as text."""
    view = game.view()
    rows = game.rules.rows
    lines = []
    order = range(rows, 0, -1) if game.rules.inverted else range(1, rows + 1)
    for row in order:
        cells = [_cell(s) for s in view["pyramid"] if s["row"] == row]
        indent = " " * ((rows - row) * CELL // 2)
        lines.append(indent + "".join(cells).rstrip())
    # Reserve piles side by side, a line per level from the bottom card up: the last line holds the tops.
    for level in range(game.rules.reserve_depth if game.rules.reserve else 0):
        cells = [_cell(s) for s in view["pyramid"] if s["level"] == level]
        lines.append("".join(cells).rstrip())
    stock = view["stock"]
    parts = [f"{TEXT['stock'][lang]}: {stock['label'][lang]}"]
    if stock["top"]:
        parts.append(f"[{stock['top']}]")
    if view["drawn"]:
        parts.append(f"{TEXT['drawn'][lang]}: [{view['drawn']}]")
    top = view["waste"]["top"]
    usable = set(view["usable"])
    waste = f"[{top}]" if top and top in usable else (top or "-")
    if view["waste_piles"]:  # Apophis: each pile's top (all usable) and count, left to right
        waste = " ".join(f"[{p['top']}]({p['count']})" if p["top"] in usable
                         else f"{p['top']}({p['count']})" if p["top"] else "-(0)" for p in view["waste_piles"])
        parts.append(f"{TEXT['waste'][lang]}: {waste}")
    else:
        parts.append(f"{TEXT['waste'][lang]}: {waste} ({view['waste']['count']})")
    if view["waste"]["uses_left"] is not None:  # a limit on waste uses (seed 004)
        parts.append(TEXT["uses-left"][lang].format(n=view["waste"]["uses_left"]))
    if not game.table.stock_size:  # every card is in the layout (Giza): no stock, no waste
        parts = []
    if view["jokers"]:
        parts.append(f"{TEXT['jokers'][lang]}: " + " ".join(f"[{j}]" for j in view["jokers"]))
    if parts:
        lines.append("   ".join(parts))
    cells = view["cells"]
    if cells["size"]:  # each cell left to right: its card (always usable; ! when dead), or empty
        held = ["[  ]" if c is None else f"[{c['card']}]{'!' if c['dead'] else ''}" for c in cells["slots"]]
        lines.append(f"{TEXT['cells'][lang]}: " + " ".join(held))
    figures = [f"{TEXT['moves'][lang]}: {view['moves']}"]
    if view["score"] is not None:
        figures.append(f"{TEXT['score'][lang]}: {view['score']}")
    figures.append(f"{TEXT['code'][lang]}: {view['code']}")
    lines.append("   ".join(figures))
    if view["dead"]:
        note = f"{TEXT['dead'][lang]}: {' '.join(view['dead'])}"
        if view["can_rewind"]:
            note += f" — {TEXT['rewind'][lang]}"
        lines.append(note)
    message = view["status_message"][lang]
    if message:
        lines.append(message)
    return "\n".join(lines)


def play(game: Game, commands: Iterable[str], out: TextIO, lang: str = "ja",
         prompt: Callable[[], None] | None = None) -> Game:
    """Run the command loop over ``commands`` (lines), writing to ``out``."""
    out.write(render(game, lang) + "\n")
    out.write(HELP[lang] + "\n")
    for raw in commands:
        line = raw.strip()
        if not line:
            continue
        word = line.lower()
        try:
            if word in ("q", "quit", "exit"):
                out.write(TEXT["bye"][lang] + "\n")
                break
            if word in ("?", "help"):
                out.write(HELP[lang] + "\n")
                continue
            if word == "code":
                out.write(f"{game.deal.code}\n")
                continue
            if word in ("h", "hint"):
                hint = game.hint()
                out.write(f"{TEXT['hint'][lang]}: {hint if hint else TEXT['no-hint'][lang]}\n")
                continue
            if word in ("s", "stock"):
                game.tap_stock()
            elif word in ("u", "undo"):
                game.undo()
            elif word in ("y", "redo"):
                game.redo()
            elif word in ("b", "rewind"):
                game.rewind()
            else:
                game.push(Move.parse(line))
        except IllegalMoveError as exc:
            out.write(f"× {exc.refusal.message(lang)}\n")
            continue
        except MoveError as exc:
            out.write(f"× {exc}\n")
            continue
        out.write(render(game, lang) + "\n")
    return game

"""Terminal play: draws the player's view as text and reads commands, one per line.

The screen is built only from :func:`.view.player_view`, so the terminal shows what a player may see and
nothing else.  Usable cards are shown in brackets, face-down cards as ``##``, dead cards with ``!``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TextIO

from .board import WON
from .game import Game
from .messages import text
from .moves import Move, MoveError
from .reasons import IllegalMoveError
from .record import Parked, parse_entry, play_entry
from .view import Slot

CELL = 4


def _cell(slot: Slot) -> str:
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
    view = game.view(lang)

    def say(key: str, **values: object) -> str:
        return text(lang, f"terminal.{key}", **values)

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
    parts = [say("stock", label=stock["label"])]
    if stock["top"]:
        parts.append(f"[{stock['top']}]")
    if view["drawn"]:
        parts.append(say("drawn", card=view["drawn"]))
    top = view["waste"]["top"]
    usable = set(view["usable"])
    waste = f"[{top}]" if top and top in usable else (top or "-")
    if view["waste_piles"]:  # Apophis: each pile's top (all usable) and count, left to right
        waste = " ".join(
            f"[{p['top']}]({p['count']})" if p["top"] in usable else f"{p['top']}({p['count']})" if p["top"] else "-(0)"
            for p in view["waste_piles"]
        )
        parts.append(say("waste-piles", piles=waste))
    else:
        parts.append(say("waste", top=waste, count=view["waste"]["count"]))
    if view["waste"]["uses_left"] is not None:  # a limit on waste uses (seed 004)
        parts.append(say("uses-left", n=view["waste"]["uses_left"]))
    if not game.table.stock_size:  # every card is in the layout (Giza): no stock, no waste
        parts = []
    if view["jokers"]:
        parts.append(say("jokers", cards=" ".join(f"[{j}]" for j in view["jokers"])))
    if parts:
        lines.append("   ".join(parts))
    free = view["cells"]
    if free["size"]:  # each cell left to right: its card (always usable; ! when dead), or empty
        held = ["[  ]" if c is None else f"[{c['card']}]{'!' if c['dead'] else ''}" for c in free["slots"]]
        lines.append(say("cells", cards=" ".join(held)))
    figures = [say("moves", n=view["moves"])]
    if view["score"] is not None:
        figures.append(say("score", n=view["score"]))
    figures.append(say("code", code=view["code"]))
    lines.append("   ".join(figures))
    if view["dead"]:
        lines.append(say("dead-rewind" if view["can_rewind"] else "dead", cards=" ".join(view["dead"])))
    message = view["status_message"]
    if message:
        lines.append(str(message))  # a str: the view of one language
    return "\n".join(lines)


def help_line(game: Game, lang: str) -> str:
    """The commands this game's rules take, one line: a park only with free cells, the stock's commands only
    with a stock, the recycle only where the rules allow one, triples and jokers only where the deal has them."""
    rules = game.rules
    parts = ["remove"]
    if rules.triples:
        parts.append("triple")
    if rules.jokers:
        parts.append("joker")
    if rules.cells:
        parts.append("park")
    if game.table.stock_size:
        parts += ["stock", "draw"] if rules.max_recycles == 0 else ["stock", "draw", "recycle"]
    parts += ["undo", "redo", "hint", "rewind", "code", "quit"]
    listed = text(lang, "terminal.help.sep").join(text(lang, f"terminal.help.{part}") for part in parts)
    return text(lang, "terminal.help", commands=listed)


def play(
    game: Game, commands: Iterable[str], out: TextIO, lang: str = "ja", prompt: Callable[[], None] | None = None
) -> Game:
    """Run the command loop over ``commands`` (lines), writing to ``out``."""

    def say(key: str, **values: object) -> str:
        return text(lang, f"terminal.{key}", **values)

    out.write(render(game, lang) + "\n")
    out.write(help_line(game, lang) + "\n")
    for raw in commands:
        line = raw.strip()
        if not line:
            continue
        word = line.lower()
        try:
            if word in ("q", "quit", "exit"):
                out.write(say("bye") + "\n")
                break
            if word in ("?", "help"):
                out.write(help_line(game, lang) + "\n")
                continue
            if word == "code":
                out.write(f"{game.deal.code}\n")
                continue
            if word in ("h", "hint"):
                hint = game.hint()
                out.write((say("hint", move=str(hint)) if hint else say("no-hint")) + "\n")
                continue
            if word in ("s", "stock"):
                game.tap_stock()
            elif word in ("u", "undo"):
                game.undo()
            elif word in ("y", "redo"):
                game.redo()
            elif word in ("b", "rewind"):
                game.rewind()
            else:  # a move, or a park into a numbered cell (Qs>cell2) as records and the web app write it
                entry = parse_entry(line)  # an event word the commands above do not take is no move either:
                play_entry(game, entry if isinstance(entry, (Move, Parked)) else Move.parse(line))
        except IllegalMoveError as exc:
            out.write(say("refused", reason=exc.refusal.message(lang)) + "\n")
            continue
        except MoveError as exc:
            out.write(say("refused", reason=exc.message(lang)) + "\n")
            continue
        out.write(render(game, lang) + "\n")
        if game.status == WON:  # nothing is left to do (undo is refused after a win); a loss may still be undone
            out.write(say("bye") + "\n")
            break
    return game

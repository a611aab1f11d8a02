"""Free cells (seed 002: cells filled from the tableau or the waste's top), option ``cells`` and preset
``cells``: a usable card may be parked in an empty cell, stays usable there until it is removed, and a
parked pyramid card still has to go for the win.  Asserted through ``Game`` as a player meets it: the
view, the refusals and their messages, undo, dead cards, hints, the terminal, codes and the solver.
"""

from __future__ import annotations

import random

import pytest

from helpers import clearable_pyramid, make_notation, row_of
from pyramid_solitaire import CodeError, Deal, Game, IllegalMoveError, Move
from pyramid_solitaire.analysis import plain_hint
from pyramid_solitaire.moves import MoveError
from pyramid_solitaire.packed import Position
from pyramid_solitaire.rule_strings import find_rules
from pyramid_solitaire.rules import PRESETS, RulesError
from pyramid_solitaire.solver import solve, solve_position
from pyramid_solitaire.table import Table
from pyramid_solitaire.terminal import render

#: 5c (row 7) covers 8h (row 6), its partner; Kd beside it goes alone.  Stock: 4c first (pairs with 9c).
PLACED = {**row_of(7, "Kd 5c 9c Ts 3s 6h 6s"), (6, 1): "8h"}
STOCK = ["4c", "7d", "2h"]


def game(rules: str = "cells") -> Game:
    return Game(Deal.from_notation(make_notation(PLACED, STOCK), rules))


def refusal_of(g: Game, move: str) -> tuple[str, str, str]:
    before = (g.position, g.moves, g.view())
    with pytest.raises(IllegalMoveError) as info:
        g.push(move)
    assert (g.position, g.moves, g.view()) == before  # nothing changed
    refusal = info.value.refusal
    return refusal.code, refusal.message_ja, refusal.message_en


def test_a_parked_card_uncovers_its_partner_and_pairs_with_it_from_the_cell() -> None:
    g = game()
    assert Move.parse("8h+5c") not in g.legal_moves()  # 5c covers 8h
    g.push("Kd")
    g.push("5c>cell")
    view = g.view()
    assert view["cells"] == {"size": 1, "slots": [{"card": "5c", "dead": False}]}
    assert "5c" in view["usable"] and "8h" in view["usable"]  # 8h is exposed now
    assert g.pyramid_left == 27  # a parked card is not removed
    assert Move.parse("8h+5c") in g.legal_moves()
    g.push("8h+5c")
    assert g.view()["cells"]["slots"] == [None]
    assert g.pyramid_left == 25


def test_undo_takes_the_card_back_out_of_the_cell() -> None:
    g = game()
    g.push("Kd")
    before = g.view()
    g.push("5c>cell")
    g.undo()
    assert g.view()["cells"]["slots"] == [None]
    assert g.view()["pyramid"] == before["pyramid"]
    g.redo()
    assert [c and c["card"] for c in g.view()["cells"]["slots"]] == ["5c"]


def test_parking_the_waste_top_takes_it_off_the_waste_and_shows_the_card_under_it() -> None:
    g = game()
    g.push("draw")
    g.push("draw")  # 4c under 7d
    g.push("7d>cell")
    assert g.view()["waste"]["top"] == "4c"
    assert g.view()["waste"]["count"] == 1
    g.push("9c+4c")
    assert Move.parse("6h+7d") in g.legal_moves()  # the parked 7d pairs with a pyramid card


def test_parking_the_waste_top_spends_a_waste_use() -> None:
    g = game("classic(cells=1,waste_uses=2)")
    g.push("draw")
    g.push("4c>cell")
    assert g.view()["waste"]["uses_left"] == 1
    g.push("9c+4c")  # from the cell: no use spent
    assert g.view()["waste"]["uses_left"] == 1


@pytest.mark.parametrize(
    ("rules", "moves", "move", "code", "ja", "en"),
    [
        (
            "cells",
            ["Kd", "5c>cell"],
            "9c>cell",
            "cells-full",
            "空いているフリーセルがありません",
            "Every free cell is taken.",
        ),
        (
            "cells",
            [],
            "8h>cell",
            "covered",
            "このカードは別のカードに覆われています（K♦と5♣）",
            "This card is covered by K♦ and 5♣.",
        ),
        (
            "classic",
            [],
            "9c>cell",
            "no-cells",
            "このルールにはフリーセルがありません",
            "These rules have no free cells.",
        ),
        (
            "classic(cells=2)",
            ["9c>cell"],
            "9c>cell",
            "in-cell",
            "このカードはもうフリーセルにあります",
            "This card is already in a free cell.",
        ),
        (
            "cells",
            ["Kd"],
            "Kd>cell",
            "removed",
            "このカードはもう取り除かれています",
            "This card has already been removed.",
        ),
        (
            "thirteen(cells=1,jokers=1,open=true)",
            [],
            "X1>cell",
            "joker-cell",
            "ジョーカーはフリーセルに置けません（いつでも使えます）",
            "A joker cannot go to a free cell (it can be used at any time).",
        ),
        ("cells", [], "2h>cell", "not-usable", "このカードは今は使えません", "This card cannot be used now."),
    ],
)
def test_a_refused_park_names_why_and_changes_nothing(
    rules: str, moves: list[str], move: str, code: str, ja: str, en: str
) -> None:
    g = game(rules)
    for played in moves:
        g.push(played)
    assert refusal_of(g, move) == (code, ja, en)


def test_a_pyramid_card_in_a_cell_must_still_go_for_the_win() -> None:
    g = Game(Deal.from_notation(make_notation(clearable_pyramid()), "pyramide(cells=1)"))
    apex = str(g.deal.cards[0])
    while g.pyramid_left > 1:  # clear everything but the apex, row by row
        g.push(next(m for m in g.legal_moves() if m.kind == "remove" and apex not in map(str, m.cards)))
    score = g.score
    g.push(f"{apex}>cell")
    assert g.status == "playing" and g.pyramid_left == 1
    assert g.score == score  # parking scores nothing
    g.push(apex)  # the king goes alone, from the cell
    assert g.status == "won" and g.score == score + 10


def test_with_a_cell_a_card_whose_partners_all_cover_it_is_not_dead() -> None:
    # 8h at row 5 needs a 5, and all four lie on it: dead in classic, not with a cell
    placed = {(5, 1): "8h", (6, 1): "5c", (6, 2): "5d", (7, 1): "5h", (7, 2): "5s"}
    notation = make_notation(placed)
    assert "8h" in Game(Deal.from_notation(notation, "classic(open=true)")).dead_cards
    assert Game(Deal.from_notation(notation, "cells")).dead_cards == []


def test_the_terminal_shows_the_cells() -> None:
    g = game()
    assert "Free cells: [  ]" in render(g, "en")
    g.push("Kd")
    g.push("5c>cell")
    assert "Free cells: [5c]" in render(g, "en")
    assert "フリーセル: [5c]" in render(g, "ja")
    assert "Free cells" not in render(game("classic"), "en")


@pytest.mark.parametrize(
    ("text", "printed"), [("Qs>cell", "Qs>cell"), ("qs > CELL", "Qs>cell"), ("10h>cell", "Th>cell")]
)
def test_a_park_is_written_card_then_cell(text: str, printed: str) -> None:
    move = Move.parse(text)
    assert str(move) == printed and move.kind == "park"
    assert Move.parse(str(move)) == move


@pytest.mark.parametrize(
    ("text", "named"),
    [("Qs>waste", "a card goes only to a cell"), ("Zz>cell", "Zz"), ("Qs+Kd>cell", "Qs+Kd"), (">cell", "empty")],
)
def test_a_bad_park_is_refused_naming_it(text: str, named: str) -> None:
    with pytest.raises(MoveError) as info:
        Move.parse(text)
    assert named in str(info.value)


def test_the_cells_are_part_of_the_rule_set_string_and_the_deal_code() -> None:
    rules = find_rules("classic(cells=2)")
    assert str(rules) == "classic(cells=2)" and rules.cells == 2
    deal = Deal.from_number(4, rules)
    assert deal.code.startswith("CL1F2-")
    again = Deal.from_code(deal.code)
    assert again.rules == rules and again.cards == deal.cards
    preset = Deal.from_number(4, "cells")
    assert preset.code.startswith("FC1-") and Deal.from_code(preset.code).rules == PRESETS["cells"]
    assert find_rules("freecell") == PRESETS["cells"]
    with pytest.raises(RulesError, match="cells must be 0-4 free cells, not 5"):
        find_rules("classic(cells=5)")
    with pytest.raises(CodeError, match="cells must be 0-4"):
        Deal.from_code("CL1F9-R-AAAAAAB")


def test_a_parked_stock_card_is_no_longer_on_the_stock_side() -> None:
    # without stock-waste pairs the waste top may not pair with the stock top; from a cell it may
    g = Game(Deal.from_notation(make_notation(PLACED, ["6c", "7d", "2h"]), "msc(cells=1,stock_waste_pairs=false)"))
    g.push("draw")  # 6c on the waste, 7d the stock top
    assert refusal_of(g, "6c+7d")[0] == "stock-waste-pair"
    g.push("6c>cell")
    assert Move.parse("6c+7d") in g.legal_moves()
    g.push("6c+7d")


def test_the_plain_hint_parks_a_card_only_when_nothing_else_is_left_and_it_leads_to_a_removal() -> None:
    rng = random.Random(8)
    parks_hinted = 0
    for rules in ("classic(cells=1,passes=1)", "classic(cells=2,passes=1)"):
        for number in range(30):
            table = Table(Deal.from_number(number, rules))
            pos = table.start()
            while not table.won(pos):
                hint = plain_hint(table, pos)
                actions = table.actions(pos)
                if hint is None:  # only once the game is over: parks that lead nowhere are not moves
                    assert actions == [] and table.status(pos) == "lost"
                    break
                assert hint in actions
                if isinstance(hint, int):
                    parks_hinted += 1
                    assert not table.removals(pos) and not table.can_draw(pos) and not table.can_recycle(pos)
                    after = table.park(pos, hint)
                    assert table.removals(after) or table.useful_park(after) is not None
                pos = table.apply(pos, hint if rng.random() < 0.7 else rng.choice(actions))
    assert parks_hinted > 0


def test_parks_that_can_lead_to_no_removal_are_not_moves_and_the_game_is_lost() -> None:
    """Found in review: with two cells, a game stayed "playing" with only pointless parks left."""
    line = (
        "Ad+Qs; draw; Ts+3d; draw; 7h+6h; draw; draw; 5d+8d; 9h+4s; draw; draw; Tc+3c; draw; draw; draw; "
        "draw; 9s+4h; 7c+6c; 2c+Js; draw; draw; draw; draw; draw; Ks; draw; draw; draw; Jd+2s; draw; draw; "
        "draw; draw; draw; Th+3s; 5h+8c; draw; recycle"
        + "; draw" * 5
        + "; Ac+Qc"
        + "; draw" * 3
        + "; Kd"
        + "; draw" * 6
        + "; recycle"
        + "; draw" * 14
        + "; Ah>cell; Kh"
    )
    g = Game(Deal.from_number(2, "classic(cells=2)"))
    for move in line.split("; "):
        g.push(move)
    assert g.status == "lost" and g.legal_moves() == []
    assert g.status_message("ja") == "手詰まりです"
    assert refusal_of(g, "7s>cell")[0] == "game-over"  # 7s is usable, but the game is over
    g.undo()  # with Kh back there is a removal again
    assert g.status == "playing"


def test_each_card_keeps_its_cell_until_it_is_removed() -> None:
    g = game("classic(cells=2)")
    g.push("draw")
    g.push("4c>cell")  # the first cell
    g.push("Kd")
    g.push("5c>cell")  # the second, though 5c comes before 4c in the deal
    assert [c and c["card"] for c in g.view()["cells"]["slots"]] == ["4c", "5c"]
    assert "Free cells: [4c] [5c]" in render(g, "en")
    g.push("8h+5c")
    assert [c and c["card"] for c in g.view()["cells"]["slots"]] == ["4c", None]
    g.push("9c>cell")  # into the empty second cell; 4c stays in the first
    assert [c and c["card"] for c in g.view()["cells"]["slots"]] == ["4c", "9c"]
    g.undo()
    g.undo()  # 5c back in its cell
    assert [c and c["card"] for c in g.view()["cells"]["slots"]] == ["4c", "5c"]


def test_a_cell_wins_deals_classic_loses_and_never_loses_a_classic_win() -> None:
    verdicts = [
        (solve(Deal.from_number(n, "classic")).winnable, solve(Deal.from_number(n, "cells"))) for n in range(12)
    ]
    assert any(result.winnable and not classic for classic, result in verdicts)
    assert all(result.winnable for classic, result in verdicts if classic)
    # a win that needs the cell replays through the game
    result = next(r for classic, r in verdicts if r.winnable and not classic)
    assert result.solution is not None and any(m.kind == "park" for m in result.solution)
    g = Game(result.deal)
    for move in result.solution:
        g.push(move)
    assert g.status == "won"


def test_a_game_record_with_parks_reads_back_and_replays_to_the_same_game() -> None:
    from pyramid_solitaire.record import read_record, replay, write_record

    g = game()
    for move in ("Kd", "5c>cell", "draw", "8h+5c", "4c>cell"):
        g.push(move)
    text = write_record(g)
    assert "5c>cell" in text
    record = read_record(text)
    assert [str(m) for m in record.entries] == ["Kd", "5c>cell", "draw", "8h+5c", "4c>cell"]
    again = replay(record).game
    assert again.position == g.position and again.view()["cells"] == g.view()["cells"]


def _fewest_steps(table: Table, start: Position, limit: int = 300_000) -> int | None:
    """Breadth-first over the engine's own moves: the fewest steps from ``start`` to a win."""
    frontier, seen, steps = [start], {start}, 0
    while frontier:
        if any(table.won(pos) for pos in frontier):
            return steps
        steps += 1
        following = []
        for pos in frontier:
            for action in table.actions(pos):
                after = table.apply(pos, action)
                if after not in seen:
                    seen.add(after)
                    following.append(after)
        assert len(seen) < limit, "too many positions for this check"
        frontier = following
    return None


def test_the_shortest_solution_does_not_waste_a_step_on_a_parked_stock_king() -> None:
    """In a relaxed win a parked stock king need never go, so the shortest search must not force its
    removal (found in review: 17 steps instead of 16)."""
    line = (
        "draw; draw; draw; draw; 6c+7c; draw; Ks>cell; draw; draw; Jc+2h; draw; draw; 4h+9s; Kc; draw; "
        "Th+3d; 3c+Td; Qs+As; draw; 5h+8d; draw; draw; Ah+Qh; draw; draw; draw; draw; draw; 9h+4c; Kh; "
        "draw; draw; 2c+Js; draw; draw; draw; 5d+8h; Jh+2d; draw; recycle; draw; draw; draw; 7s+6s; Kd; "
        "draw; draw; draw; Ac+Qd; draw; draw; draw; draw; draw; draw; draw; draw; draw; Jd+2s"
    )
    g = Game(Deal.from_number(23, "classic(cells=1)"))
    for move in line.split("; "):
        g.push(move)
    assert g.view()["cells"]["slots"][0]["card"] == "Ks"
    fewest = _fewest_steps(g.table, g.position)
    result = solve_position(g.table, g.position, shortest=True)
    assert fewest is not None and result.length == fewest


def test_a_park_may_name_its_cell_and_keeps_it_through_undo_and_redo() -> None:
    """Which cell holds a card is for the eye: the player's choice is kept, the rules do not change."""
    g = game("classic(cells=2)")
    g.push("Kd")
    g.push(Move.parse("9c>cell"), cell=1)
    assert g.cell_slots() == [None, g.table.place_of[Move.parse("9c").cards[0]]]
    assert [c and c["card"] for c in g.view()["cells"]["slots"]] == [None, "9c"]
    g.undo()
    g.redo()
    assert [c and c["card"] for c in g.view()["cells"]["slots"]] == [None, "9c"]
    before = (g.position, g.moves, g.view())
    with pytest.raises(IllegalMoveError) as info:
        g.push(Move.parse("5c>cell"), cell=1)
    refusal = info.value.refusal
    assert (refusal.code, refusal.message_ja) == ("cell-taken", "フリーセル2にはもうカードがあります")
    for move, cell, message in [
        ("5c>cell", 2, "no free cell 2"),
        ("5c>cell", -1, "no free cell -1"),
        ("Kd", 0, "only a park"),
    ]:
        with pytest.raises(ValueError, match=message):
            g.push(Move.parse(move), cell=cell)
    assert (g.position, g.moves, g.view()) == before  # nothing changed
    g.push(Move.parse("5c>cell"))  # no cell named: the first empty one
    assert [c and c["card"] for c in g.view()["cells"]["slots"]] == ["5c", "9c"]
    g.push("8h+5c")
    assert [c and c["card"] for c in g.view()["cells"]["slots"]] == [None, "9c"]  # 9c stays where it is

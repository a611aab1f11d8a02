"""Playing a game: the seeds' worked examples, every preset's stock, statuses, score, undo, dead cards,
what the player's view shows, hints, jokers and triples.

Expected values come from docs/rules.md and the seeds (000: the Pyramide app; 001: the classic site).
"""

from __future__ import annotations

import pytest

from helpers import (
    CLEAR_PYRAMID_MOVES,
    clearable_pyramid,
    make_notation,
    pyramid_entry,
    row_of,
    slot,
    tokens_in,
    usable_slots,
)
from pyramid_solitaire import Deal, Game, IllegalMoveError, Move, Refusal
from pyramid_solitaire.packed import DRAW_ACTION, RECYCLE_ACTION, Position, kind_of
from pyramid_solitaire.solver import solve

# --- helpers -----------------------------------------------------------------------------------------

#: Seed 000's example deal (PY1-N-AAAAAAS there), as docs/rules.md writes it.
SEED_000 = (
    "Jd 6c 7h As 4d Qs 5h 3d 6h 8s Kh Kc Ad Ks 9c Qc 2c 8d Td Ts Js 7c Tc 3h 4h 3s Kd 7s 7d Ac 3c 4c 5c "
    "8c Jc 2d 5d 6d 9d Qd Ah 2h 8h 9h Th Jh Qh 2s 4s 5s 6s 9s"
)
SEED_000_ROW_7 = ["7c", "Tc", "3h", "4h", "3s", "Kd", "7s"]

#: Seed 001's worked example: the bottom row and the stock's top card.
SEED_001_ROW_7 = "Ks 6h 3c 7d Ts Qh 9c"


def game_of(
    pyramid: dict[tuple[int, int], str] | None = None, stock: list[str] | tuple[str, ...] = (), rules: str = "classic"
) -> Game:
    """A game of a custom deal (see :func:`helpers.make_notation`)."""
    return Game(Deal.from_notation(make_notation(pyramid, stock), rules))


def snapshot(game: Game) -> tuple[object, ...]:
    """Everything a refused action must leave unchanged."""
    return (game.position, game.moves, game.undos, game.hints, game.score, len(game.history), game.view())


def refused(game: Game, move: str) -> Refusal:
    """Push ``move``, expect a refusal, check that nothing changed, and return the refusal."""
    before = snapshot(game)
    checked = game.check(Move.parse(move))
    assert checked is not None, f"{move} should be refused"
    with pytest.raises(IllegalMoveError) as info:
        game.push(move)
    assert info.value.refusal == checked
    assert snapshot(game) == before
    return checked


def refused_tap(game: Game) -> Refusal:
    """Tap the stock, expect a refusal, check that nothing changed."""
    before = snapshot(game)
    with pytest.raises(IllegalMoveError) as info:
        game.tap_stock()
    assert snapshot(game) == before
    return info.value.refusal


def listed(game: Game, move: str) -> bool:
    """True if ``move`` (cards in any order) is among ``game.legal_moves()``."""
    return Move.parse(move) in game.legal_moves()


def partners(game: Game, token: str) -> set[str]:
    """The cards that light up when ``token`` is tapped: its partners in the legal removals."""
    out: set[str] = set()
    for move in game.legal_moves():
        names = {str(c) for c in move.cards}
        if token in names:
            out |= names - {token}
    return out


# --- seed 000: the Pyramide app's example ------------------------------------------------------------


def seed_000() -> Game:
    return Game(Deal.from_notation(SEED_000, "pyramide"))


def test_seed_000_start_shows_7d_on_the_waste_and_23_cards_in_the_stock() -> None:
    game = seed_000()
    view = game.view()
    assert view["waste"]["top"] == "7d"
    assert view["waste"]["count"] == 1
    assert view["stock"]["count"] == 23
    assert game.stock_left == 23
    assert view["stock"]["label"]["ja"] == "1周目 · 残り 23"
    assert game.stock_label() == "1周目 · 残り 23"
    assert view["score"] == 0
    assert view["status"] == "playing"
    # only the bottom row and the waste top are usable at the start
    assert usable_slots(view) == {(7, c) for c in range(1, 8)}
    assert sorted(view["usable"]) == sorted([*SEED_000_ROW_7, "7d"])
    # every card face up
    assert all(e["face_up"] and e["card"] for e in view["pyramid"])


def test_seed_000_tapping_the_covered_queen_of_clubs_is_refused_as_covered() -> None:
    game = seed_000()
    refusal = refused(game, "Qc")
    assert refusal.code == "covered"
    assert "このカードは別のカードに覆われています" in refusal.message_ja
    details = refusal.to_json("ja")["details"]
    assert details["card"] == "Qc"
    assert set(details["covering"]) == {"7c", "Tc"}
    # the view says the same: Qc sits at row 6, column 1, covered by row 7 columns 1 and 2
    entry = pyramid_entry(game.view(), 6, 1)
    assert entry["card"] == "Qc"
    assert not entry["usable"]
    assert set(entry["covered_by"]) == {slot(7, 1), slot(7, 2)}


def test_seed_000_first_two_moves_score_and_expose_the_ten_of_spades() -> None:
    game = seed_000()
    game.push("Kd")
    assert game.score == 10
    assert game.moves == 1
    # Kd alone uncovers nothing: Ts (6,5) and Js (6,6) each still have one coverer
    assert usable_slots(game.view()) == {(7, 1), (7, 2), (7, 3), (7, 4), (7, 5), (7, 7)}
    game.push("Tc+3s")
    assert game.score == 30
    assert game.moves == 2
    view = game.view()
    # Ts at (6,5) was covered by 3s (7,5) and Kd (7,6): both gone, so it is usable now
    assert pyramid_entry(view, 6, 5)["card"] == "Ts"
    assert pyramid_entry(view, 6, 5)["usable"]
    assert usable_slots(view) == {(7, 1), (7, 3), (7, 4), (7, 7), (6, 5)}
    assert sorted(view["usable"]) == sorted(["7c", "3h", "4h", "7s", "Ts", "7d"])
    for row, col in [(7, 2), (7, 5), (7, 6)]:
        assert pyramid_entry(view, row, col)["removed"]
        assert pyramid_entry(view, row, col)["card"] is None
    # the row-6 cards that still have one coverer name just that one
    qc = refused(game, "Qc")
    assert qc.code == "covered"
    assert [str(c) for c in qc.details["covering"]] == ["7c"]
    two = refused(game, "2c")
    assert [str(c) for c in two.details["covering"]] == ["3h"]
    # Ts can now pair with the 3h still in row 7 (3+10=13)
    assert listed(game, "3h+Ts")


def test_seed_000_seven_plus_seven_is_refused_with_the_sum() -> None:
    game = seed_000()
    refusal = refused(game, "7c+7s")
    assert refusal.code == "sum"
    assert "合計が13になる必要があります" in refusal.message_ja
    assert "7+7=14" in refusal.message_ja
    assert "7+7=14" in refusal.message_en
    assert game.moves == 0
    assert game.score == 0


def test_seed_000_a_refused_move_changes_nothing_mid_game() -> None:
    game = seed_000()
    game.push("Kd")
    game.push("Tc+3s")
    before = snapshot(game)
    for move in ["7c+7s", "Qc", "Js", "2c+Js", "7d+7c", "Tc+3s", "Kd"]:
        refused(game, move)
    assert snapshot(game) == before
    assert game.moves == 2
    assert game.score == 30


# --- seed 001: the classic site's worked example ----------------------------------------------------


def seed_001() -> Game:
    return game_of(row_of(7, SEED_001_ROW_7), ["Ad"], "classic")


def test_seed_001_worked_example() -> None:
    game = seed_001()
    view = game.view()
    assert view["waste"]["top"] is None
    assert view["waste"]["count"] == 0
    assert view["stock"]["label"]["ja"] == "1/3周目 · 残り 24"
    assert view["score"] is None
    # no other seven is usable, so 6h can only go with 7d
    assert [t for t in view["usable"] if t[0] == "7"] == ["7d"]

    assert listed(game, "Ks")
    game.push("Ks")

    assert partners(game, "6h") == {"7d"}
    game.push("6h+7d")
    view = game.view()
    # (6,1) was covered by Ks and 6h: both gone
    assert pyramid_entry(view, 6, 1)["usable"]
    assert not pyramid_entry(view, 6, 2)["usable"]

    refusal = refused(game, "Qh+9c")
    assert refusal.code == "sum"
    assert "Q(12)+9=21" in refusal.message_ja
    assert "Q(12)+9=21" in refusal.message_en
    assert refusal.details["total"] == 21

    game.push("3c+Ts")
    view = game.view()
    # (6,2) by 6h+3c, (6,3) by 3c+7d, (6,4) by 7d+Ts: all uncovered now; (6,5) still under Qh
    assert {(6, 1), (6, 2), (6, 3), (6, 4)} <= usable_slots(view)
    assert not pyramid_entry(view, 6, 5)["usable"]

    game.push("draw")
    view = game.view()
    assert view["waste"]["top"] == "Ad"
    assert "Ad" in view["usable"]
    assert view["stock"]["label"]["ja"] == "1/3周目 · 残り 23"

    game.push("Qh+Ad")
    view = game.view()
    assert view["waste"]["top"] is None
    assert pyramid_entry(view, 6, 5)["usable"]  # under Ts and Qh, both gone
    assert not pyramid_entry(view, 6, 6)["usable"]  # 9c still covers it
    assert game.pyramid_left == 28 - 6  # Ks, 6h, 7d, 3c, Ts, Qh
    assert game.moves == 5  # Ks, 6h+7d, 3c+Ts, draw, Qh+Ad; the refusal does not count
    assert game.undos == 0
    assert game.status == "playing"

    game.undo()
    assert game.undos == 1
    assert game.moves == 5
    assert game.view()["waste"]["top"] == "Ad"


# --- each preset's stock -----------------------------------------------------------------------------


def test_classic_three_passes_same_order_then_refused() -> None:
    notation = make_notation()
    game = Game(Deal.from_notation(notation, "classic"))
    stock = notation.split()[28:]
    passes: list[list[str]] = []
    for number in (1, 2, 3):
        assert game.stock_label() == f"{number}/3周目 · 残り 24"
        assert game.view()["waste"]["top"] is None
        seen = []
        for i in range(24):
            game.tap_stock()
            seen.append(game.view()["waste"]["top"])
            assert game.stock_label() == f"{number}/3周目 · 残り {23 - i}"
        passes.append(seen)
        if number < 3:
            assert str(game.tap_stock()) == "recycle"
    assert passes[0] == stock
    assert passes[1] == passes[0]
    assert passes[2] == passes[0]
    assert game.moves == 3 * 24 + 2
    assert game.stock_label() == "3/3周目 · 残り 0"
    refusal = refused_tap(game)
    assert refusal.code == "passes-used-up"
    assert refusal.message_ja == "3周めくり終えました"
    assert refused(game, "draw").code == "passes-used-up"
    assert refused(game, "recycle").code == "passes-used-up"


def test_classic_after_a_recycle_the_first_card_comes_again_and_the_label_says_pass_two() -> None:
    game = game_of(stock=["5h"], rules="classic")
    for _ in range(24):
        game.tap_stock()
    assert game.view()["waste"]["count"] == 24
    game.tap_stock()
    assert game.stock_label() == "2/3周目 · 残り 24"
    assert game.view()["waste"]["count"] == 0
    game.tap_stock()
    assert game.view()["waste"]["top"] == "5h"


def test_classic_only_the_waste_top_is_usable_not_the_card_under_it() -> None:
    game = game_of(row_of(7, "7d 2c 2d 2h 2s 3c 3d"), ["6c", "7h"], "classic")
    game.tap_stock()
    assert listed(game, "6c+7d")
    game.tap_stock()
    view = game.view()
    assert view["waste"]["top"] == "7h"
    assert "7h" in view["usable"]
    assert "6c" not in view["usable"]
    assert refused(game, "6c+7d").code == "not-usable"
    assert refused(game, "6c+7h").code == "not-usable"
    assert "6c" not in tokens_in(view)


def test_pyramide_waste_card_at_start_and_unlimited_recycles() -> None:
    notation = make_notation(stock=["9h"])
    game = Game(Deal.from_notation(notation, "pyramide"))
    stock = notation.split()[28:]
    assert game.view()["waste"]["top"] == "9h"
    assert game.stock_left == 23
    for _ in range(23):
        game.tap_stock()
    assert game.stock_left == 0
    assert game.view()["waste"]["count"] == 24
    for number in range(2, 9):  # seven recycles
        move = game.tap_stock()
        assert str(move) == "recycle"
        assert game.stock_label() == f"{number}周目 · 残り 24"
        seen = []
        for _ in range(24):
            game.tap_stock()
            seen.append(game.view()["waste"]["top"])
        # the waste card of the start comes first, then the stock in the same order
        assert seen == stock
    assert game.status == "playing"
    assert game.pass_number == 8


def thirteen_game(rules: str = "thirteen") -> Game:
    pyramid = {**row_of(7, "Kc Ac Qc 5c 9c 3d 8d"), **row_of(6, "4h 2d 9h Jh 8c 5s")}
    return game_of(pyramid, ["6c", "7h", "Th", "2s"], rules)


def test_thirteen_rows_one_to_six_are_face_down_until_exposed() -> None:
    game = thirteen_game()
    view = game.view()
    for entry in view["pyramid"]:
        if entry["row"] < 7:
            assert entry["card"] is None
            assert not entry["face_up"]
        else:
            assert entry["face_up"]
            assert entry["card"] is not None
    game.push("Kc")
    assert pyramid_entry(game.view(), 6, 1)["card"] is None  # Ac still covers it
    game.push("Ac+Qc")
    view = game.view()
    # (6,1) was under Kc and Ac, (6,2) under Ac and Qc: both exposed and face up now
    assert pyramid_entry(view, 6, 1)["card"] == "4h"
    assert pyramid_entry(view, 6, 1)["usable"]
    assert pyramid_entry(view, 6, 2)["card"] == "2d"
    assert pyramid_entry(view, 6, 3)["card"] is None  # 5c (7,4) still covers it


def test_thirteen_drawn_spot_and_waste_top_are_both_usable_and_pair() -> None:
    game = thirteen_game()
    game.tap_stock()
    view = game.view()
    assert view["drawn"] == "6c"
    assert view["waste"]["top"] is None
    game.tap_stock()
    view = game.view()
    assert view["drawn"] == "7h"
    assert view["waste"]["top"] == "6c"
    assert {"6c", "7h"} <= set(view["usable"])
    assert listed(game, "6c+7h")
    game.push("6c+7h")
    view = game.view()
    assert view["drawn"] is None
    assert view["waste"]["top"] is None
    game.tap_stock()
    assert game.view()["drawn"] == "Th"
    game.tap_stock()
    view = game.view()
    assert view["drawn"] == "2s"
    assert view["waste"]["top"] == "Th"
    # the waste top pairs with a bottom-row card (10+3) while 2s sits in the drawn spot
    game.push("3d+Th")
    assert game.view()["waste"]["top"] is None
    assert game.view()["drawn"] == "2s"


def test_thirteen_has_four_passes() -> None:
    game = thirteen_game()
    for number in (1, 2, 3, 4):
        assert game.stock_label() == f"{number}/4周目 · 残り 24"
        for _ in range(24):
            game.tap_stock()
        if number < 4:
            assert str(game.tap_stock()) == "recycle"
            assert game.view()["drawn"] is None
    refusal = refused_tap(game)
    assert refusal.code == "passes-used-up"
    assert refusal.message_ja == "4周めくり終えました"


def test_msc_stock_top_is_face_up_and_usable() -> None:
    game = game_of(row_of(7, "7d 2c 2d 2h 2s 3c 3d"), ["6c", "7h", "4s"], "msc")
    view = game.view()
    assert view["stock"]["top"] == "6c"
    assert view["stock"]["usable"]
    assert "6c" in view["usable"]
    assert listed(game, "6c+7d")
    game.tap_stock()
    view = game.view()
    assert view["waste"]["top"] == "6c"
    assert view["stock"]["top"] == "7h"
    # the stock top and the waste top pair with each other
    assert listed(game, "6c+7h")
    game.push("6c+7h")
    view = game.view()
    assert view["waste"]["top"] is None
    assert view["stock"]["top"] == "4s"
    assert game.stock_left == 22


def test_msc_has_three_passes() -> None:
    game = game_of(rules="msc")
    for _ in range(2):
        for _ in range(24):
            game.tap_stock()
        assert str(game.tap_stock()) == "recycle"
    assert game.stock_label() == "3/3周目 · 残り 24"
    for _ in range(24):
        game.tap_stock()
    assert refused_tap(game).code == "passes-used-up"


@pytest.mark.parametrize("rules", ["traditional", "relaxed"])
def test_traditional_and_relaxed_have_one_pass(rules: str) -> None:
    game = game_of(rules=rules)
    assert game.stock_label() == "1/1周目 · 残り 24"
    for _ in range(24):
        game.tap_stock()
    refusal = refused_tap(game)
    assert refusal.code == "passes-used-up"
    assert refused(game, "recycle").code == "passes-used-up"


#: The 24 cards left by :func:`clearable_pyramid`, in an order where each drawn card pairs with the last.
PAIRED_STOCK = [
    "Ah",
    "Qh",
    "2h",
    "Jh",
    "3h",
    "Th",
    "4h",
    "9h",
    "5h",
    "8h",
    "6h",
    "7h",
    "As",
    "Qs",
    "2s",
    "Js",
    "3s",
    "Ts",
    "4s",
    "9s",
    "5s",
    "8s",
    "6s",
    "7s",
]


def test_traditional_needs_every_card_gone_relaxed_only_the_pyramid() -> None:
    strict = game_of(clearable_pyramid(), PAIRED_STOCK, "traditional")
    relaxed = game_of(clearable_pyramid(), PAIRED_STOCK, "relaxed")
    for move in CLEAR_PYRAMID_MOVES:
        strict.push(move)
        relaxed.push(move)
    assert strict.pyramid_left == 0
    assert relaxed.status == "won"
    assert strict.status == "playing"
    assert strict.stock_left == 24
    # the drawn card pairs with the waste top: clear the stock two by two
    for first, second in zip(PAIRED_STOCK[::2], PAIRED_STOCK[1::2], strict=True):
        assert strict.status == "playing"
        strict.tap_stock()
        strict.tap_stock()
        assert strict.view()["drawn"] == second
        assert strict.view()["waste"]["top"] == first
        strict.push(f"{first}+{second}")
    assert strict.status == "won"


# --- statuses ----------------------------------------------------------------------------------------

#: Aces and twos at the bottom, every king, queen and jack above them: no card can ever be removed.
STUCK_PYRAMID = {
    **row_of(7, "Ac Ad Ah As 2c 2d 2h"),
    **row_of(6, "Kc Kd Kh Ks Qc Qd"),
    **row_of(5, "Qh Qs Jc Jd Jh"),
    **row_of(4, "Js"),
}


def test_classic_is_lost_when_the_passes_are_used_up_and_nothing_can_be_removed() -> None:
    game = game_of(STUCK_PYRAMID, rules="classic")
    for _ in range(3 * 24 + 2 - 1):
        assert game.status == "playing"
        assert game.status_message() is None
        assert all(m.kind != "remove" for m in game.legal_moves())
        game.tap_stock()
    assert game.status == "playing"  # the last card is still to be drawn
    game.tap_stock()
    assert game.status == "lost"
    assert game.legal_moves() == []
    assert game.view()["status"] == "lost"
    assert game.status_message("ja")
    assert refused_tap(game).code == "passes-used-up"
    # seed 001: after a loss one move can be taken back to try another way
    game.undo()
    assert game.status == "playing"
    assert game.stock_label() == "3/3周目 · 残り 1"


def test_classic_with_passes_used_up_but_a_removal_left_is_still_playing() -> None:
    game = game_of(clearable_pyramid(), rules="classic")
    for _ in range(3 * 24 + 2):
        game.tap_stock()
    assert refused_tap(game).code == "passes-used-up"
    assert game.status == "playing"
    for move in CLEAR_PYRAMID_MOVES:
        game.push(move)
    assert game.status == "won"
    assert game.stock_left == 0


@pytest.mark.parametrize("rules", ["classic", "pyramide", "thirteen", "msc", "relaxed"])
def test_clearing_the_pyramid_wins(rules: str) -> None:
    game = game_of(clearable_pyramid(), rules=rules)
    for move in CLEAR_PYRAMID_MOVES:
        assert game.status == "playing"
        game.push(move)
    assert game.status == "won"
    assert game.pyramid_left == 0
    assert game.legal_moves() == []
    assert game.view()["status"] == "won"
    assert game.status_message("ja")
    assert refused(game, "draw").code == "game-over"
    if rules == "pyramide":
        assert game.score == 280


def test_pyramide_stuck_but_with_stock_left_goes_on() -> None:
    game = game_of(STUCK_PYRAMID, rules="pyramide")
    for _ in range(10 * 24):
        assert all(m.kind != "remove" for m in game.legal_moves())
        game.tap_stock()
        assert game.status == "playing"
        assert game.status_message("ja") is None
    assert game.pass_number > 9


def stalemate_game() -> Game:
    """A pyramide deal played until stock and waste are empty, leaving 6s and 7s no move can reach:
    the three exposed cards are all sevens.  Returns the game just before the last removal (Ks)."""
    removed_order = [
        "Ac",
        "Qc",
        "2c",
        "Jc",
        "3c",
        "Tc",
        "4c",
        "9c",
        "5c",
        "8c",
        "Ad",
        "Qd",
        "2d",
        "Jd",
        "3d",
        "Td",
        "4d",
        "9d",
        "5d",
        "8d",
    ]
    placements = {**row_of(1, "6c"), **row_of(2, "6d 6h"), **row_of(3, "6s 7c 7d"), **row_of(4, "7h 7s")}
    places = [(7, c) for c in range(1, 8)] + [(6, c) for c in range(1, 7)] + [(5, c) for c in range(1, 6)]
    places += [(4, 3), (4, 4)]
    placements.update(dict(zip(places, removed_order, strict=True)))

    def partner(token: str) -> str:
        value = "A23456789TJQK".index(token[0]) + 1
        return "A23456789TJQK"[13 - value - 1] + {"c": "h", "d": "s"}[token[1]]

    stock = ["Kc", *(partner(t) for t in removed_order), "Kd", "Kh", "Ks"]
    game = game_of(placements, stock, "pyramide")
    assert game.view()["waste"]["top"] == "Kc"
    game.push("Kc")
    assert game.score == 0  # a waste king scores nothing
    for token in removed_order:
        game.tap_stock()
        game.push(f"{token}+{partner(token)}")
    for king in ("Kd", "Kh"):
        game.tap_stock()
        game.push(king)
    game.tap_stock()
    return game


def test_pyramide_stalemate_only_when_stock_and_waste_are_empty() -> None:
    game = stalemate_game()
    assert game.stock_left == 0
    assert game.view()["waste"]["top"] == "Ks"
    assert game.status == "playing"
    game.push("Ks")
    view = game.view()
    assert view["waste"]["top"] is None
    assert view["waste"]["count"] == 0
    assert view["stock"]["count"] == 0
    assert sorted(view["usable"]) == ["7d", "7h", "7s"]
    assert game.status == "stalemate"
    assert game.status_message("ja") == "可能な手がもうありません"
    assert view["status_message"]["ja"] == "可能な手がもうありません"
    assert game.legal_moves() == []
    assert game.score == 200  # 20 pyramid cards; the four waste kings scored nothing
    assert game.pyramid_left == 8


def test_pyramide_stalemate_position_set_directly() -> None:
    game = game_of(STUCK_PYRAMID, rules="pyramide")
    bottom = sum(1 << slot(7, c) for c in range(1, 8))
    game.position = Position(pyramid=bottom, stock=0, ptr=0, recycles=3, jokers=0)
    assert game.status == "stalemate"
    assert game.status_message("ja") == "可能な手がもうありません"
    # one card left on the waste (it pairs with nothing): a recycle is still possible, so play goes on
    game.position = Position(pyramid=bottom, stock=1 << 5, ptr=24, recycles=3, jokers=0)
    assert game.view()["waste"]["top"] is not None
    assert game.status == "playing"


# --- score and undo ----------------------------------------------------------------------------------


def test_pyramide_score_per_pyramid_card_and_undo_takes_points_back() -> None:
    game = game_of(row_of(7, "Kc 5c 8c 6c 2d 3d 4d"), ["7d", "Kd"], "pyramide")
    assert game.score == 0
    game.push("Kc")
    assert game.score == 10  # a pyramid king
    game.push("5c+8c")
    assert game.score == 30  # a pyramid pair: 20
    game.push("6c+7d")
    assert game.score == 40  # a pyramid card with the waste top: 10
    game.tap_stock()
    assert game.score == 40  # draws cost nothing
    assert game.view()["waste"]["top"] == "Kd"
    game.push("Kd")
    assert game.score == 40  # a waste king scores nothing
    assert game.moves == 5
    game.undo()
    assert (game.score, game.moves, game.undos) == (40, 5, 1)
    assert game.view()["waste"]["top"] == "Kd"
    game.undo()
    assert (game.score, game.moves, game.undos) == (40, 5, 2)
    game.undo()
    assert (game.score, game.moves, game.undos) == (30, 5, 3)
    assert game.view()["waste"]["top"] == "7d"
    game.undo()
    assert (game.score, game.moves, game.undos) == (10, 5, 4)
    game.push("5c+8c")
    assert (game.score, game.moves) == (30, 6)


def test_pyramide_undo_is_limited_to_the_last_100_operations() -> None:
    game = game_of(STUCK_PYRAMID, rules="pyramide")
    positions = [game.position]
    for _ in range(101):
        game.tap_stock()
        positions.append(game.position)
    for n in range(1, 101):
        game.undo()
        assert game.position == positions[101 - n]
    assert game.undos == 100
    assert game.moves == 101
    before = snapshot(game)
    with pytest.raises(IllegalMoveError) as info:
        game.undo()
    assert info.value.refusal.code == "undo-limit"
    assert "100" in info.value.refusal.message_ja
    assert snapshot(game) == before
    assert game.position == positions[1]
    assert game.view()["can_undo"] is False


def test_classic_undo_is_unlimited() -> None:
    game = game_of(STUCK_PYRAMID, rules="classic")
    start = game.position
    for _ in range(3 * 24 + 2):
        game.tap_stock()
    for _ in range(3 * 24 + 2):
        game.undo()
    assert game.position == start
    assert game.undos == 74
    assert game.moves == 74
    assert game.stock_label() == "1/3周目 · 残り 24"
    with pytest.raises(IllegalMoveError) as info:
        game.undo()
    assert info.value.refusal.code == "nothing-to-undo"


def test_undo_of_a_draw_and_a_recycle_restores_the_stock() -> None:
    game = game_of(stock=["5h"], rules="classic")
    for _ in range(24):
        game.tap_stock()
    game.tap_stock()  # recycle
    assert game.stock_label() == "2/3周目 · 残り 24"
    game.undo()
    assert game.stock_label() == "1/3周目 · 残り 0"
    assert game.view()["waste"]["count"] == 24
    for _ in range(23):
        game.undo()
    assert game.view()["waste"]["top"] == "5h"


def test_redo_is_refused_once_the_game_is_resigned_with_a_move_undone() -> None:
    game = game_of(stock=["5h"], rules="classic")
    game.tap_stock()
    game.undo()
    assert game.view()["can_redo"]
    game.resign()
    assert not game.view()["can_redo"] and not game.view()["can_undo"]
    with pytest.raises(IllegalMoveError) as info:
        game.redo()
    assert info.value.refusal.code == "game-over"


# --- dead cards (詰み札) and rewinding ---------------------------------------------------------------

#: Qc at (5,1); three aces in the triangle that covers it, the fourth (Ad) outside with Qd next to it.
DEAD_PYRAMID = {(5, 1): "Qc", (6, 1): "Ac", (6, 2): "Ah", (7, 1): "As", (7, 5): "Ad", (7, 6): "Qd"}


def test_a_move_that_buries_every_partner_makes_a_dead_card_and_rewind_goes_back() -> None:
    game = game_of(DEAD_PYRAMID, ["Qh", "Qs"], "classic")
    assert game.dead_cards == []
    game.tap_stock()
    assert game.dead_cards == []
    view = game.view()
    assert view["dead"] == []
    assert not view["can_rewind"]
    with pytest.raises(IllegalMoveError) as info:
        game.rewind()
    assert info.value.refusal.code == "no-dead-card"
    before_cause = game.position
    moves_before = game.moves

    game.push("Ad+Qd")  # the last ace Qc could meet is gone: the other three lie under it
    assert game.dead_cards == ["Qc"]
    view = game.view()
    assert view["dead"] == ["Qc"]
    assert pyramid_entry(view, 5, 1)["dead"]
    assert [e["card"] for e in view["pyramid"] if e["dead"]] == ["Qc"]
    assert view["can_rewind"]

    game.tap_stock()
    game.tap_stock()
    assert game.dead_cards == ["Qc"]  # once dead, always dead

    undos = game.undos
    game.rewind()
    assert game.position == before_cause
    assert len(game.history) == 1
    assert game.undos == undos + 1
    assert game.moves == moves_before + 3
    assert game.dead_cards == []
    assert game.view()["dead"] == []
    assert game.view()["waste"]["top"] == "Qh"


def test_a_card_whose_partners_are_gone_or_under_it_is_dead_unless_overlap_lets_it_pair() -> None:
    # Qc at (6,1) is covered by Ac (7,1) and 5c (7,2); the other three aces go with the other queens
    pyramid = {**row_of(7, "Ac 5c Ad Qd Ah Qh As"), (6, 1): "Qc"}
    plain = game_of(pyramid, ["Qs"], "classic")
    overlap = game_of(pyramid, ["Qs"], "classic(overlap=true)")
    for game in (plain, overlap):
        for move in ["Ad+Qd", "Ah+Qh", "draw"]:
            game.push(move)
            assert game.dead_cards == []
        game.push("As+Qs")
    # Ac lies in the triangle that covers Qc and every other ace is gone; and so Ac is dead too: Qc,
    # the last queen, lies under it and is exposed only once Ac is gone
    assert plain.dead_cards == ["Qc", "Ac"]
    assert plain.rewind_point == 3
    # with overlap pairs, Ac covers Qc directly and may pair with it once 5c is gone
    assert overlap.dead_cards == []


#: 5s at (7,1) and every eight on the left edge it covers: (6,1) to (3,1).
BURIED_PARTNERS = {(7, 1): "5s", (6, 1): "8c", (5, 1): "8d", (4, 1): "8h", (3, 1): "8s"}


@pytest.mark.parametrize(
    ("rules", "dead"),
    [
        ("classic", ["5s"]),
        # the eights are face down: as far as the player knows they could be in the stock
        ("thirteen", []),
        ("thirteen(open=true)", ["5s"]),
        # 5s covers 8c directly, and may pair with it once the card at (7,2) is gone
        ("classic(overlap=true)", []),
        # 5s can be parked, and then the eights come free
        ("cells", []),
    ],
)
def test_a_card_whose_partners_all_lie_under_it_is_dead_from_the_start(rules: str, dead: list[str]) -> None:
    """Seed 001's own case: 相手を表に出すには先にそのカードを消す必要があり、でもそのカードは相手と
    一緒にしか消せない — the eights come out only once 5s is gone, and 5s goes only with an eight."""
    game = game_of(BURIED_PARTNERS, rules=rules)
    assert game.dead_cards == dead
    assert [e["card"] for e in game.view()["pyramid"] if e["dead"]] == dead
    if dead:
        assert solve(game.deal).winnable is False


def test_removing_the_last_partner_outside_a_card_makes_it_dead_and_rewind_undoes_that_move() -> None:
    # 5s at (7,1) covers three eights on the left edge; the fourth, 8d, lies at (7,7) beside 5h
    pyramid = {(7, 1): "5s", (6, 1): "8c", (5, 1): "8h", (4, 1): "8s", (7, 6): "5h", (7, 7): "8d"}
    game = game_of(pyramid, ["Kd"])
    game.push("draw")
    assert game.dead_cards == []
    before = game.position
    game.push("5h+8d")  # the eights left all lie under 5s: they come out only once it is gone
    assert game.dead_cards == ["5s"]
    assert game.rewind_point == 1
    game.rewind()
    assert game.position == before
    assert game.dead_cards == []


def test_kings_are_never_dead() -> None:
    game = game_of({**row_of(7, "Ac 2c 3c 4c 5c 6c 7c"), (6, 1): "Kc"}, rules="classic")
    assert game.dead_cards == []
    assert not pyramid_entry(game.view(), 6, 1)["dead"]


def test_thirteen_open_pyramid_option_shows_every_card_but_only_exposed_ones_are_usable() -> None:
    game = thirteen_game("thirteen(open=true)")
    view = game.view()
    notation = game.deal.notation.split()
    assert [e["card"] for e in view["pyramid"]] == notation[:28]
    assert usable_slots(view) == {(7, c) for c in range(1, 8)}
    assert refused(game, "4h").code == "covered"


# --- the player's view hides what must be hidden -----------------------------------------------------


def visible_tokens(game: Game) -> set[str]:
    """Cards the player may see: face-up pyramid cards, waste top, drawn card, msc stock top."""
    view = game.view()
    out = {e["card"] for e in view["pyramid"] if e["card"]}
    out |= {view["waste"]["top"], view["drawn"], view["stock"]["top"]} - {None}
    return out


def test_thirteen_view_never_names_a_face_down_card() -> None:
    game = thirteen_game()
    notation = game.deal.notation.split()
    for move in ["Kc", "draw", "draw", "Ac+Qc", "draw"]:
        game.push(move)
        view = game.view()
        face_down = {notation[e["slot"]] for e in view["pyramid"] if not e["removed"] and not e["face_up"]}
        assert face_down
        assert not face_down & tokens_in(view)
        assert tokens_in(view) <= visible_tokens(game)


@pytest.mark.parametrize("rules", ["classic", "pyramide", "thirteen", "msc", "traditional", "relaxed"])
def test_the_view_shows_no_stock_card_but_the_visible_ones(rules: str) -> None:
    game = Game(Deal.from_number(7, rules))
    stock = set(game.deal.notation.split()[game.rules.pyramid_size :])
    for _ in range(30):
        view = game.view()
        seen = tokens_in(view) & stock
        allowed = {view["waste"]["top"], view["drawn"]}
        if rules == "msc":
            allowed.add(view["stock"]["top"])
        assert seen <= allowed - {None}
        if game.status != "playing":
            break
        removals = [m for m in game.legal_moves() if m.kind == "remove"]
        game.push(removals[0] if removals else game.legal_moves()[0])


# --- hints -------------------------------------------------------------------------------------------


def hidden_queen_game(row_6_col_1: str, apex: str) -> Game:
    """thirteen(jokers=1): every ace is gone (three with queens from the stock, the last with the joker);
    two face-down cards, (6,1) and the apex, are swapped between the two deals we compare."""
    pyramid = {**row_of(7, "3c Tc 2c 2d 2h 6h 7h"), (6, 1): row_6_col_1, (1, 1): apex}
    game = game_of(pyramid, ["Ad", "Qd", "Ah", "Qh", "As", "Qs", "Ac"], "thirteen(jokers=1)")
    for move in ["draw", "draw", "Ad+Qd", "draw", "draw", "Ah+Qh", "draw", "draw", "As+Qs", "draw", "Ac+X1"]:
        game.push(move)
    return game


def test_the_hint_depends_only_on_what_the_player_can_see() -> None:
    # Qc face down at (6,1) (3c+Tc would expose it, dead: no ace is left) or at the apex: the player
    # sees exactly the same table, so the hint must be the same.
    queen_under_3c = hidden_queen_game("Qc", "5c")
    queen_at_apex = hidden_queen_game("5c", "Qc")
    seen = [{k: v for k, v in g.view().items() if k != "code"} for g in (queen_under_3c, queen_at_apex)]
    assert seen[0] == seen[1]
    assert set(queen_under_3c.legal_moves()) == {Move.parse(m) for m in ("3c+Tc", "6h+7h", "draw")}
    assert str(queen_under_3c.hint()) == str(queen_at_apex.hint())


def test_hint_offers_a_legal_removal_and_counts() -> None:
    game = seed_001()
    before = game.position
    hint = game.hint()
    assert hint is not None
    assert hint.kind == "remove"
    assert hint in game.legal_moves()
    assert game.hints == 1
    assert game.position == before
    assert game.moves == 0
    game.hint()
    assert game.hints == 2
    assert game.view()["hints"] == 2


def test_hint_says_draw_when_nothing_can_be_removed() -> None:
    game = game_of(STUCK_PYRAMID, rules="classic")
    assert str(game.hint()) == "draw"
    assert game.hints == 1
    for _ in range(24):
        game.tap_stock()
    assert str(game.hint()) == "recycle"  # tapping the empty stock turns the waste over
    assert game.hints == 2


# --- jokers and triples (thirteen options) -----------------------------------------------------------


def test_jokers_pair_with_any_usable_card_but_not_with_each_other() -> None:
    game = thirteen_game("thirteen(jokers=2)")
    view = game.view()
    assert view["jokers"] == ["X1", "X2"]
    assert {"X1", "X2"} <= set(view["usable"])
    legal = game.legal_moves()
    for token in ["Ac", "Qc", "5c", "9c", "3d", "8d"]:
        assert Move.parse(f"{token}+X1") in legal
    assert refused(game, "X1+X2").code == "joker-pair"
    assert refused(game, "X1").code == "joker-alone"
    game.push("X1+9c")
    view = game.view()
    assert view["jokers"] == ["X2"]
    assert pyramid_entry(view, 7, 5)["removed"]
    # a joker still cannot reach a card that is not usable
    refusal = refused(game, "X2+4h")
    assert refusal.code in ("covered", "not-usable")
    game.tap_stock()
    assert listed(game, "X2+6c")


def test_triples_sum_to_13_only_with_the_option() -> None:
    pyramid = row_of(7, "2c 4d 7h 5c 9c 3d 8d")
    with_triples = game_of(pyramid, rules="thirteen(triples=true)")
    assert listed(with_triples, "2c+4d+7h")
    refusal = refused(with_triples, "2c+4d+8d")
    assert refusal.code == "sum"
    with_triples.push("2c+4d+7h")
    assert with_triples.pyramid_left == 25

    without = game_of(pyramid, rules="thirteen")
    assert all(len(m.cards) < 3 for m in without.legal_moves())
    assert refused(without, "2c+4d+7h").code == "triples-off"


def test_a_joker_is_never_part_of_a_triple() -> None:
    pyramid = row_of(7, "2c 4d 7h 5c 9c 3d 8d")
    game = game_of(pyramid, rules="thirteen(jokers=2,triples=true)")
    assert all(not (len(m.cards) == 3 and any(c.is_joker for c in m.cards)) for m in game.legal_moves())
    assert refused(game, "X1+2c+4d").code == "joker-triple"
    assert listed(game, "2c+4d+7h")


# --- options any rule set may combine ----------------------------------------------------------------


def test_overlap_lets_a_card_pair_with_its_last_coverer() -> None:
    pyramid = {**row_of(7, "6c Kc 2d 2h 2s 3c 3d"), (6, 1): "7d"}
    for rules, allowed in [("classic(overlap=true)", True), ("classic", False)]:
        game = game_of(pyramid, rules=rules)
        # both coverers still there: never
        assert refused(game, "6c+7d").code == "covered"
        game.push("Kc")
        # 7d (6,1) is now covered by 6c (7,1) alone
        assert listed(game, "6c+7d") is allowed
        if allowed:
            assert game.check(Move.parse("6c+7d")) is None
            game.push("6c+7d")
            assert pyramid_entry(game.view(), 6, 1)["removed"]
        else:
            assert refused(game, "6c+7d").code == "covered"


def test_target_14_without_lone_kings() -> None:
    game = game_of(row_of(7, "Kc Ac 7d 7h 6s 8s 2c"), rules="classic(target=14,lone_kings=false)")
    assert refused(game, "Kc").code == "no-lone"
    assert listed(game, "Kc+Ac")
    assert listed(game, "7d+7h")
    assert listed(game, "6s+8s")
    refusal = refused(game, "6s+7d")
    assert refusal.code == "sum"
    assert "14" in refusal.message_ja
    game.push("Kc+Ac")
    assert game.pyramid_left == 26


def test_spanish_deck_sums_to_12() -> None:
    notation = make_notation(row_of(7, "Kc Qc Ac Jc 2c 5d 7d"), deck=48)
    assert len(notation.split()) == 48
    assert "T" not in "".join(t[0] for t in notation.split())
    game = Game(Deal.from_notation(notation, "classic(deck=48,target=12)"))
    assert game.stock_left == 20
    assert listed(game, "Kc")  # K = 12 goes alone
    assert listed(game, "Qc+Ac")  # 11 + 1
    assert listed(game, "Jc+2c")  # 10 + 2
    assert listed(game, "5d+7d")
    assert refused(game, "Kc+Ac").code == "sum"


def test_six_row_pyramid() -> None:
    notation = make_notation(row_of(6, "Kc 6h 7h 2c 3c 4c"), rows=6)
    game = Game(Deal.from_notation(notation, "classic(rows=6)"))
    view = game.view()
    assert len(view["pyramid"]) == 21
    assert game.stock_left == 31
    assert usable_slots(view) == {(6, c) for c in range(1, 7)}
    assert game.stock_label() == "1/3周目 · 残り 31"
    game.push("Kc")
    game.push("6h+7h")
    # (5,1) under Kc+6h and (5,2) under 6h+7h are exposed; (5,3) still under 7h's neighbour 2c
    assert {(5, 1), (5, 2)} <= usable_slots(game.view())
    assert (5, 3) not in usable_slots(game.view())


def test_one_pass_refusal_reads_naturally_in_english() -> None:
    game = Game(Deal.from_number(3, "traditional"))
    while game.table.can_draw(game.position):
        game.push("draw")
    with pytest.raises(IllegalMoveError) as info:
        game.tap_stock()
    assert info.value.refusal.code == "passes-used-up"
    assert info.value.refusal.message_ja == "1周めくり終えました"
    assert info.value.refusal.message_en == "The only pass through the stock is used up."


def test_a_deal_dead_from_the_start_says_so_when_asked_to_rewind() -> None:
    # Qc at the apex of a 7-row pyramid: every ace lies in its triangle
    notation = make_notation({(1, 1): "Qc", (7, 1): "Ac", (7, 2): "Ad", (7, 3): "Ah", (7, 4): "As"})
    game = Game(Deal.from_notation(notation, "classic"))
    assert game.dead_cards == ["Qc"]
    with pytest.raises(IllegalMoveError) as info:
        game.rewind()
    assert info.value.refusal.code == "dead-from-start"
    assert "最初から" in info.value.refusal.message_ja


def test_no_hint_is_counted_when_there_is_nothing_to_hint() -> None:
    notation = make_notation({(1, 1): "Qc", (7, 1): "Ac", (7, 2): "Ad", (7, 3): "Ah", (7, 4): "As"})
    game = Game(Deal.from_notation(notation, "classic"))
    game.position = game.position._replace(pyramid=1, stock=0, ptr=0, recycles=2)  # only Qc is left
    assert game.status == "lost"
    assert game.hint() is None
    assert game.hints == 0


@pytest.mark.parametrize("rules", ["cells", "msc", "classic(triples=true,jokers=1)"])
def test_every_packed_action_reads_as_its_typed_move_and_back(rules: str) -> None:
    # the table is the one place that reads its packed actions: a move and its kind, and the way back
    game = Game(Deal.from_number(11, rules))
    table = game.table
    for _ in range(40):
        actions = table.actions(game.position)
        if not actions:
            break
        for action in actions:
            move = table.move_of(action)
            assert move.kind == kind_of(action)
            assert table.action_of(move) == action
            assert table.refusal(game.position, action) is None
        game.push(table.move_of(actions[len(actions) // 2]))
    assert game.moves > 10


def test_the_one_refusal_of_a_won_game_is_game_over_for_every_kind() -> None:
    game = Game(Deal.from_number(3, "cells"))
    game.position = game.position._replace(pyramid=0)
    table = game.table
    for action in [(table.board_size,), table.board_size, DRAW_ACTION, RECYCLE_ACTION]:
        refusal = table.refusal(game.position, action)
        assert refusal is not None and refusal.code == "game-over", action

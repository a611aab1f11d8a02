"""Game records: write, read and replay (headers, moves, undo/redo entries, refused moves)."""

from __future__ import annotations

import pytest

from pyramid_solitaire.deal import Deal
from pyramid_solitaire.game import Game
from pyramid_solitaire.moves import Move
from pyramid_solitaire.record import RecordError, read_record, replay, write_record


def _play(game: Game, count: int) -> Game:
    """Play up to ``count`` legal moves, taking a removal whenever there is one."""
    for _ in range(count):
        moves = game.legal_moves()
        if not moves:
            break
        removals = [m for m in moves if m.kind == "remove"]
        game.push(removals[0] if removals else moves[0])
    return game


def _removals(game: Game) -> int:
    return sum(1 for step in game.history if step.move.kind == "remove")


def _record(deal: str, moves: str, rules: str = "classic") -> str:
    return f"Rules: {rules}\nDeal: {deal}\n\n{moves}\n"


# --- round trip ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("rules", ["classic", "pyramide", "thirteen(jokers=2,triples=true)", "msc", "relaxed"])
def test_a_played_game_replays_from_its_record_to_the_same_position(rules: str) -> None:
    game = _play(Game(Deal.from_number(21, rules, "N")), 40)
    assert _removals(game) > 0
    result = replay(read_record(write_record(game)))
    assert result.refusal is None
    assert result.failed_at is None
    assert result.game.position == game.position
    assert [step.move for step in result.game.history] == [step.move for step in game.history]
    assert result.game.summary() == game.summary()


def test_a_record_starts_with_the_rules_and_deal_headers_and_lists_one_move_a_line() -> None:
    game = _play(Game(Deal.from_number(21, "msc")), 5)
    lines = write_record(game).splitlines()
    assert lines[0] == "Rules: msc"
    assert lines[1] == f"Deal: {game.deal.code}"
    assert lines[2] == ""
    assert lines[3:] == [str(step.move) for step in game.history]


def test_a_record_of_a_custom_deal_carries_its_full_code() -> None:
    deal = Deal.from_notation(Deal.from_number(4).notation)
    game = _play(Game(deal), 10)
    text = write_record(game)
    assert f"Deal: {deal.full_code}" in text
    result = replay(read_record(text))
    assert result.game.deal.cards == deal.cards
    assert result.game.position == game.position


def test_extra_headers_are_written_and_read_back() -> None:
    game = _play(Game(Deal.from_number(3)), 3)
    record = read_record(write_record(game, {"Player": "花子", "Date": "2024-05-01"}))
    assert record.headers["Player"] == "花子"
    assert record.headers["Date"] == "2024-05-01"


def test_undone_moves_are_left_out_of_a_written_record() -> None:
    game = Game(Deal.from_number(3))
    game.push(Move.draw())
    game.push(Move.draw())
    game.undo()
    record = read_record(write_record(game))
    assert record.entries == [Move.draw()]


def test_a_record_of_a_fresh_game_has_no_moves() -> None:
    game = Game(Deal.from_number(3))
    record = read_record(write_record(game))
    assert record.entries == []
    assert replay(record).game.position == game.position


# --- reading ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "missing"),
    [("Deal: CL1-N-AAAAAAS\n\ndraw\n", "Rules"), ("Rules: classic\n\ndraw\n", "Deal"), ("\ndraw\n", "Rules")],
)
def test_a_record_without_a_required_header_is_refused_naming_it(text: str, missing: str) -> None:
    with pytest.raises(RecordError) as excinfo:
        read_record(text)
    assert f"{missing}:" in str(excinfo.value)


def test_header_keys_may_be_written_in_lower_case() -> None:
    record = read_record("rules: pyramide\ndeal: PY1-N-AAAAAAS\n\ndraw\n")
    assert record.new_game().deal == Deal.from_code("PY1-N-AAAAAAS")


def test_a_line_that_is_not_a_header_is_refused_naming_its_line() -> None:
    with pytest.raises(RecordError) as excinfo:
        read_record("Rules: classic\nno colon here\nDeal: CL1-N-AAAAAAS\n\ndraw\n")
    message = str(excinfo.value)
    assert "line 2" in message
    assert "no colon here" in message


def test_a_header_given_twice_is_refused_rather_than_the_last_one_taken() -> None:
    with pytest.raises(RecordError) as excinfo:
        read_record("Rules: classic\nDeal: CL1-N-AAAAAAS\nrules: thirteen\n\ndraw\n")
    assert str(excinfo.value) == "line 3: a second 'Rules:' header (give it once)"
    assert excinfo.value.message("ja") == "3行目：見出し「Rules:」が2回目です（1回にしてください）"


def test_a_bad_move_token_is_refused_naming_its_line_number() -> None:
    with pytest.raises(RecordError) as excinfo:
        read_record(_record("CL1-N-AAAAAAS", "draw\ndraw; Zz\ndraw"))
    message = str(excinfo.value)
    assert "line 5" in message
    assert "Zz" in message


def test_a_removal_of_four_cards_is_refused_naming_its_line_number() -> None:
    with pytest.raises(RecordError, match="line 4"):
        read_record(_record("CL1-N-AAAAAAS", "Ac+2c+3c+7c"))


def test_a_deal_header_may_be_a_code() -> None:
    game = read_record(_record("PY1-N-AAAAAAS", "", rules="pyramide")).new_game()
    assert game.deal == Deal.from_code("PY1-N-AAAAAAS")
    assert game.rules == Deal.from_code("PY1-N-AAAAAAS").rules


def test_a_deal_header_may_be_notation_played_under_the_rules_header() -> None:
    notation = Deal.from_number(77).notation
    game = read_record(_record(notation, "draw", rules="msc")).new_game()
    assert game.deal.notation == notation
    assert str(game.rules) == "msc"


def test_a_deal_header_with_bad_notation_is_refused_naming_the_problem() -> None:
    tokens = Deal.from_number(77).notation.split()
    with pytest.raises(RecordError, match="expected 52 cards, got 51"):
        read_record(_record(" ".join(tokens[1:]), "draw"))


def test_a_deal_code_for_other_rules_than_the_rules_header_is_refused() -> None:
    with pytest.raises(RecordError, match="thirteen"):
        read_record(_record("CL1-N-AAAAAAS", "draw", rules="thirteen"))


def test_an_unknown_rules_header_is_refused_naming_it() -> None:
    with pytest.raises(RecordError, match="solitaire9"):
        read_record(_record("CL1-N-AAAAAAS", "draw", rules="solitaire9"))


def test_moves_may_share_a_line_and_comments_are_skipped() -> None:
    record = read_record(_record("CL1-N-AAAAAAS", "draw; draw\n# a comment\n  draw  ;"))
    assert record.entries == [Move.draw(), Move.draw(), Move.draw()]


# --- undo and redo entries -------------------------------------------------------------------------------

UNDO_SESSION = ["draw", "draw", "undo", "undo", "redo", "draw"]


def _replay_entries(entries: list[str]) -> Game:
    result = replay(read_record(_record("CL1-N-AAAAAAS", "\n".join(entries))))
    assert result.refusal is None
    return result.game


def test_undo_and_redo_entries_replay_to_the_position_they_describe() -> None:
    game = _replay_entries(UNDO_SESSION)
    deal = Deal.from_code("CL1-N-AAAAAAS")
    assert game.stock_left == 22
    assert game.summary()["waste"] == [str(c) for c in deal.stock[:2]]


def test_after_undo_and_redo_moves_count_every_move_and_redo_and_undos_count_each_undo() -> None:
    game = _replay_entries(UNDO_SESSION)
    assert game.moves == 4  # three draws played and one redone
    assert game.undos == 2
    assert game.summary()["moves"] == 4
    assert game.summary()["undos"] == 2


def test_the_move_counter_never_goes_down_while_a_record_is_replayed() -> None:
    counts = [_replay_entries(UNDO_SESSION[:n]).moves for n in range(1, len(UNDO_SESSION) + 1)]
    undos = [_replay_entries(UNDO_SESSION[:n]).undos for n in range(1, len(UNDO_SESSION) + 1)]
    assert counts == sorted(counts)
    assert counts == [1, 2, 2, 2, 3, 4]
    assert undos == [0, 0, 1, 2, 2, 2]


def test_undo_and_redo_entries_are_read_in_any_case() -> None:
    record = read_record(_record("CL1-N-AAAAAAS", "draw\nUNDO\nRedo"))
    assert record.entries == [Move.draw(), "undo", "redo"]


# --- refused entries ------------------------------------------------------------------------------------


def test_a_refused_move_stops_the_replay_and_is_reported_with_its_entry_number() -> None:
    deal = Deal.from_code("CL1-N-AAAAAAS")
    apex = str(deal.cards[0])
    result = replay(read_record(_record(deal.code, f"draw\n{apex}\ndraw\ndraw")))
    assert result.refusal is not None
    assert result.refusal.code == "covered"
    assert "このカードは別のカードに覆われています" in result.refusal.message_ja
    assert "covered" in result.refusal.message_en
    assert result.failed_at == 2
    assert result.failed_entry == apex


def test_after_a_refused_move_the_game_stays_at_the_position_before_it() -> None:
    deal = Deal.from_code("CL1-N-AAAAAAS")
    apex = str(deal.cards[0])
    before = replay(read_record(_record(deal.code, "draw"))).game
    result = replay(read_record(_record(deal.code, f"draw\n{apex}\ndraw\ndraw")))
    assert result.game.position == before.position
    assert result.game.moves == 1
    assert result.game.stock_left == 23


def test_drawing_after_the_third_pass_is_refused_as_passes_used_up() -> None:
    pass_through = ["draw"] * 24
    entries = [*pass_through, "recycle", *pass_through, "recycle", *pass_through, "draw"]
    result = replay(read_record(_record("CL1-N-AAAAAAS", "\n".join(entries))))
    assert result.refusal is not None
    assert result.refusal.code == "passes-used-up"
    assert result.refusal.message_ja == "3周めくり終えました"
    assert result.failed_at == len(entries)
    assert result.game.moves == len(entries) - 1


@pytest.mark.parametrize(
    ("entries", "code"),
    [("undo", "nothing-to-undo"), ("draw\nredo", "nothing-to-redo"), ("recycle", "stock-not-empty")],
)
def test_an_impossible_undo_redo_or_recycle_is_reported_not_raised(entries: str, code: str) -> None:
    result = replay(read_record(_record("CL1-N-AAAAAAS", entries)))
    assert result.refusal is not None
    assert result.refusal.code == code
    assert result.failed_at == len(entries.splitlines())


def test_a_pair_not_summing_to_13_is_refused_with_the_sum() -> None:
    deal = Deal.from_code("CL1-N-AAAAAAS")
    bottom = deal.cards[21:28]
    a, b = next((a, b) for i, a in enumerate(bottom) for b in bottom[i + 1 :] if a.rank + b.rank != 13)
    result = replay(read_record(_record(deal.code, f"{a}+{b}")))
    assert result.refusal is not None
    assert result.refusal.code == "sum"
    assert "合計が13になる必要があります" in result.refusal.message_ja
    assert f"={a.rank + b.rank}" in result.refusal.message_ja
    assert result.failed_at == 1


def test_a_comment_runs_to_the_end_of_its_line_even_past_a_semicolon() -> None:
    record = read_record("Rules: classic\nDeal: CL1-R-AAAAAAB\n\ndraw # then ; draw\ndraw\n")
    assert [str(entry) for entry in record.entries] == ["draw", "draw"]


# --- session events and numbered cells (the web app's records) ----------------------------------------------


def test_hints_coach_hints_and_a_resign_are_replayed_with_their_counts() -> None:
    deal = Deal.from_code("CL1-N-AAAAAAJ")
    result = replay(read_record(_record(deal.code, "hint\nCOACH\ndraw\nhint\nResign")))
    assert result.refusal is None
    game = result.game
    assert (game.hints, game.coach_hints, game.moves, game.status) == (2, 1, 1, "resigned")
    assert game.legal_moves() == []


def test_nothing_is_played_after_a_resign_and_the_entry_that_tries_is_named() -> None:
    deal = Deal.from_code("CL1-N-AAAAAAJ")
    for entry in ("draw", "undo", "redo", "hint", "coach", "resign"):
        result = replay(read_record(_record(deal.code, f"draw\nresign\n{entry}")))
        assert (result.failed_at, result.failed_entry) == (3, entry)
        assert result.refusal is not None and result.refusal.code == "game-over"
        assert result.game.moves == 1


def test_a_rewind_entry_goes_back_before_the_dead_card() -> None:
    from helpers import make_notation
    from test_game import DEAD_PYRAMID  # a deal whose Ad+Qd takes the last ace the Qc could meet

    deal = Deal.from_notation(make_notation(DEAD_PYRAMID, ["Qh", "Qs"]))
    game = Game(deal)
    game.push("Ad+Qd")
    assert game.rewind_refusal() is None
    result = replay(read_record(_record(deal.notation, "Ad+Qd\nrewind")))
    assert result.refusal is None
    assert result.game.position == Game(deal).position and result.game.undos == 1


def test_a_park_into_a_numbered_cell_is_read_written_and_replayed_there() -> None:
    from test_cells import game as cells_game

    played = cells_game("classic(cells=2)")
    played.push("Kd")
    played.push("5c>cell", cell=1)
    text = write_record(played)
    assert "5c>cell2" in text.splitlines()
    again = replay(read_record(text)).game
    assert again.cell_slots() == played.cell_slots() and again.cell_slots()[0] is None


@pytest.mark.parametrize(
    ("entries", "code"), [("Kd\n5c>cell3", "no-such-cell"), ("Kd\n5c>cell2\n9c>cell2", "cell-taken")]
)
def test_a_park_into_a_cell_the_game_lacks_or_that_is_taken_is_refused(entries: str, code: str) -> None:
    from test_cells import game as cells_game

    played = cells_game("classic(cells=2)")
    result = replay(read_record(_record(played.deal.notation, entries, rules="classic(cells=2)")))
    assert result.failed_at == len(entries.splitlines())
    assert result.refusal is not None and result.refusal.code == code


def test_a_cell_numbered_zero_is_bad_notation() -> None:
    with pytest.raises(RecordError, match="free cells count from 1"):
        read_record(_record("CL1-N-AAAAAAJ", "Kd>cell0"))

"""The shared words: each spelled once in vocabulary.py, and the places that must write the same word
(the solver's literal stock actions, records, the store) write it."""

from __future__ import annotations

from pyramid_solitaire import Game
from pyramid_solitaire.packed import DRAW_ACTION, RECYCLE_ACTION
from pyramid_solitaire.record import EVENTS, RESIGN, format_record, read_record
from pyramid_solitaire.store import RESULTS
from pyramid_solitaire.vocabulary import Event, MoveKind, Outcome


def test_the_solvers_stock_actions_are_the_words_of_the_move_kinds() -> None:
    assert (MoveKind.DRAW.value, MoveKind.RECYCLE.value) == (DRAW_ACTION, RECYCLE_ACTION)


def test_a_record_writes_events_and_outcomes_as_plain_words() -> None:
    game = Game("CL1-N-AAAAAAB")
    game.resign()
    assert game.status == Outcome.RESIGNED == "resigned"
    text = format_record({"Rules": str(game.rules), "Deal": game.deal.code, "Result": game.status}, [RESIGN])
    assert text.splitlines()[-2:] == ["", "resign"] and "Result: resigned" in text
    assert read_record(text).entries == ["resign"]
    assert EVENTS == ("undo", "redo", "rewind", "hint", "coach", "resign") == tuple(Event)


def test_the_store_keeps_every_finished_outcome_and_only_those() -> None:
    assert set(RESULTS) == {"won", "lost", "stalemate", "resigned"}
    assert Outcome.PLAYING not in RESULTS and all(type(result) is str for result in RESULTS)

"""Every parser of the project fuzzed with hypothesis (issue 7, bad input).

For each parser, what a caller sees: any text — random, and above all *near-valid* text (a valid notation,
code, move, record or file with characters inserted, deleted, swapped or changed) — either parses or is
refused with the parser's documented error and a one-line message; what parses prints and parses back to
the same thing; and a refused input changes nothing (the game, the store, the file).

Parsers: card tokens, deal notation, deal codes, rule-set strings, moves (text, ``Game.push``, the API,
the terminal), game records, study results files, records import (function, API, ``stats --import``),
the player's settings (the name on the server; the rest live in the browser: ``settings.js`` under Node),
new-game options of ``POST /api/games``, database URLs (``check_db_url`` and the store's checks), and the
command line's deal options and record files.  The web tests run on SQLite and on PostgreSQL, whose limits
differ (lengths, NUL characters, BIGINT).  ``event()`` notes how many inputs parsed: run with
``--hypothesis-show-statistics`` to see that both branches are exercised.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import io
import json
import os
import random
import re
import shutil
import subprocess
import tempfile
import uuid
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select
from sqlalchemy.engine import make_url

from helpers import CLEAR_PYRAMID_MOVES, clearable_pyramid, make_notation
from pyramid_solitaire.cards import Card, CardError, full_deck
from pyramid_solitaire.cli import main
from pyramid_solitaire.daily import DailyError, parse_day
from pyramid_solitaire.deal import CodeError, Deal, DealError, parse_deal, parse_rules_code, rules_code
from pyramid_solitaire.game import Game
from pyramid_solitaire.moves import Move, MoveError, parse_moves
from pyramid_solitaire.reasons import IllegalMoveError
from pyramid_solitaire.record import RecordError, parse_entry, read_record, replay, write_record
from pyramid_solitaire.rule_strings import KEY_ALIASES, PRESET_ALIASES, find_rules
from pyramid_solitaire.rules import FIELD_BY_KEY, MAX_UNDO_LIMIT, OPTION_KEYS, PRESETS, RulesError
from pyramid_solitaire.store import Store, StoreError
from pyramid_solitaire.store.schema import actions as actions_table
from pyramid_solitaire.study import HEADER, Row, StudyError, read_results
from pyramid_solitaire.terminal import play
from pyramid_solitaire.web.app import create_app
from pyramid_solitaire.web.games import Games
from pyramid_solitaire.web.limits import Limit, RateLimiter
from pyramid_solitaire.web.server import ServeError, check_db_url
from pyramid_solitaire.web.transfer import RecordsImportError, export_records, import_records

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

T = TypeVar("T")
FAST = settings(max_examples=250, deadline=None)
SLOW = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# --- near-valid text ------------------------------------------------------------------------------------

#: Characters worth inserting: every format's punctuation, look-alike letters and digits (ß → SS, ﬀ, dotless
#: and dotted i, the Kelvin sign, Arabic and full-width digits), every kind of line and space break, NUL and
#: a lone surrogate.
NEAR = list(
    "-+;,=():#/?@[]%._\\ \t\n\r\x0b\x0c\x1c\x85\u2028\u3000\x00\ud800\ufeff"
    "AKQJT0123456789cdhsCDHSXxNERUPVW♣♦♥♠ßﬀİıǰ\u212a٣１０ä"
)
#: ...and those that most often break a parser or a database, drawn more often than the rest.
TRAPS = ["\x00", "\ud800", "\n", "\u2028", " ", "ß", "9"]
CHARS = st.one_of(st.sampled_from(TRAPS), st.sampled_from(NEAR), st.characters())


@st.composite
def mutated(draw: st.DrawFn, seeds: st.SearchStrategy[str], max_edits: int = 3) -> str:
    """A seed with a few characters inserted, deleted, replaced, swapped, re-cased or a slice repeated."""
    text = draw(seeds)
    for _ in range(draw(st.integers(1, max_edits))):
        at = draw(st.integers(0, len(text)))
        op = draw(st.sampled_from(["insert", "delete", "replace", "swap", "case", "repeat", "cut"]))
        if op == "insert" or not text:
            text = text[:at] + draw(CHARS) + text[at:]
        elif op == "repeat":
            end = draw(st.integers(at, min(len(text), at + 8)))
            text = text[:end] + text[at:end] + text[end:]
        elif op == "cut":
            text = text[:at] if draw(st.booleans()) else text[at:]
        else:
            at = min(at, len(text) - 1)
            if op == "delete":
                text = text[:at] + text[at + 1 :]
            elif op == "replace":
                text = text[:at] + draw(CHARS) + text[at + 1 :]
            elif op == "swap" and at + 1 < len(text):
                text = text[:at] + text[at + 1] + text[at] + text[at + 2 :]
            else:
                text = text[:at] + text[at].swapcase() + text[at + 1 :]
    return text


def near(seeds: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    """Valid examples, mutations of them (most often) and random text."""
    return st.one_of(seeds, mutated(seeds), mutated(seeds), st.text(max_size=60))


def check_message(exc: BaseException) -> None:
    """A refusal names the problem in one line (the command line prints it as one)."""
    message = str(exc)
    assert message.strip(), f"{type(exc).__name__} without a message"
    assert "\n" not in message and "\r" not in message, f"message on several lines: {message!r}"


def parsed(parse: Callable[[str], T], text: str, error: type[Exception]) -> T | None:
    """``parse(text)``, or None when it is refused with ``error`` (any other exception fails the test)."""
    try:
        value = parse(text)
    except error as exc:
        check_message(exc)
        event("refused")
        return None
    event("parsed")
    return value


RULE_TEXTS = [
    "classic",
    "pyramide",
    "thirteen",
    "msc",
    "traditional",
    "relaxed",
    "thirteen(jokers=2,triples=true)",
    "classic(deck=48,target=12)",
    "classic(rows=6)",
    "classic(target=14,lone_kings=false)",
    "pyramide(undo_limit=3)",
    "msc(stock_waste_pairs=false,jokers=1)",
    "13(open=1, sum=14, lone_kings=no)",
    "classic(passes=unlimited,overlap=true)",
    "relaxed(recycles=2,win=strict)",
    "Microsoft( drawn = false )",
]
numbers = st.integers(0, 26**7 - 1)


#: Numbers of every size: small, long (a code holds them all) and past int()'s digit limit.
BIG = st.one_of(
    st.integers(-3, 15).map(str),
    st.integers(1, 250).map(lambda n: "9" * n),
    st.integers(4000, 5000).map(lambda n: "1" + "0" * n),
)
BOOLS = ["true", "false", "yes", "no", "on", "off", "1", "0"]
#: Values each option key takes, in every spelling find_rules reads.
OPTION_VALUES = {
    "passes": [*map(str, range(1, 10)), "unlimited", "inf", "∞"],
    "recycles": ["0", "2", "none"],
    "win": ["strict", "relaxed"],
    "jokers": ["0", "1", "2"],
    "target": ["12", "13", "14"],
    "sum": ["12", "13", "14"],
    "deck": ["48", "52"],
    "rows": ["6", "7"],
    "scoring": ["none", "pyramide"],
}


@st.composite
def rule_texts(draw: st.DrawFn) -> str:
    """A preset or alias with options: every key and alias, most often with a value of its own kind."""
    name = draw(st.sampled_from([*PRESETS, *PRESET_ALIASES]))
    keys = st.sampled_from([*FIELD_BY_KEY, *KEY_ALIASES, "win", "recycles", "preset"])
    options = []
    for key in draw(st.lists(keys, max_size=6)):
        own = OPTION_VALUES.get(key, BOOLS)
        fitting = BIG if key in ("undo_limit", "undo") else st.sampled_from(own)
        options.append(f"{key}={draw(st.one_of(fitting, fitting, fitting, BIG, st.sampled_from(['∞', 'golf'])))}")
    return f"{name}({','.join(options)})" if options else name


# --- cards, deal notation and deal codes --------------------------------------------------------------


@FAST
@given(near(st.sampled_from([str(c) for c in full_deck()] + ["10♣", "qH", "X1", "x2", "10", "K♠"])))
def test_card_tokens(text: str) -> None:
    card = parsed(Card.parse, text, CardError)
    if card is not None:
        assert Card.parse(str(card)) == card and str(Card.parse(str(card))) == str(card)


def notations(rules: str) -> st.SearchStrategy[str]:
    spelled = st.sampled_from([str.lower, str.upper, lambda t: t.replace("T", "10").replace("h", "♥"), str])
    return st.builds(lambda n, spell: spell(Deal.from_number(n, rules).notation), numbers, spelled)


@FAST
@given(
    st.sampled_from(["classic", "classic(deck=48,target=12)", "thirteen(rows=6)"]).flatmap(
        lambda rules: st.tuples(st.just(rules), near(notations(rules)))
    )
)
def test_deal_notation(case: tuple[str, str]) -> None:
    rules, text = case
    deal = parsed(lambda t: Deal.from_notation(t, rules), text, DealError)
    if deal is not None:
        assert Deal.from_notation(deal.notation, rules) == deal
        assert Deal.from_code(deal.code) == deal  # a custom deal is named by its full code
        assert parse_deal(text, rules) == deal


def codes() -> st.SearchStrategy[str]:
    deals = st.builds(
        lambda n, rules, difficulty: Deal.from_number(n, rules, difficulty),
        numbers,
        st.sampled_from(RULE_TEXTS[:12]),
        st.sampled_from("ENR"),
    )
    written = st.builds(lambda deal, full: deal.full_code if full else deal.code, deals, st.booleans())
    # rule-set parts of any shape: option letters with numbers of every size, past Python's digit limit too
    digits = st.one_of(st.integers(0, 20).map(str), st.integers(4000, 4400).map(lambda n: "1" * n))
    parts = st.builds(
        lambda head, opts, tail: head + "".join(opts) + tail,
        st.sampled_from(["CL1", "TH1", "PY1", "MS2", "ZZ1"]),
        st.lists(st.builds(str.__add__, st.sampled_from("PSVKDWAOJTMLCRGUQ"), digits), max_size=3),
        st.sampled_from(["-N-AAAAAAB", "-R-ZZZZZZZ", "-X-" + "A" * 48, "-E-AAA"]),
    )
    return st.one_of(written, parts)


@FAST
@given(near(codes()))
def test_deal_codes(text: str) -> None:
    deal = parsed(Deal.from_code, text, CodeError)
    if deal is not None:
        assert Deal.from_code(deal.code) == deal and Deal.from_code(deal.code).code == deal.code
        assert Deal.from_code(deal.full_code).cards == deal.cards
        assert parse_deal(deal.code) == deal
    either = parsed(parse_deal, text, DealError)  # a code, or else notation under classic
    assert either is None or parse_deal(either.code) == either


# --- rule sets ----------------------------------------------------------------------------------------


@FAST
@given(near(st.one_of(st.sampled_from(RULE_TEXTS), rule_texts())))
def test_rule_set_strings(text: str) -> None:
    presets = dict(PRESETS)
    rules = parsed(find_rules, text, RulesError)
    assert presets == PRESETS  # parsing never changes the catalogue
    if rules is not None:
        assert find_rules(str(rules)) == rules and str(find_rules(str(rules))) == str(rules)
        assert parse_rules_code(rules_code(rules)) == rules


# --- moves ------------------------------------------------------------------------------------------------

GAME_RULES = [
    "classic",
    "pyramide",
    "thirteen(jokers=2,triples=true)",
    "msc",
    "traditional",
    "classic(deck=48,target=12)",
    "cells",
    "thirteen(cells=2,jokers=1)",
]


def game_after(rules: str, number: int, seed: int, steps: int) -> Game:
    """A game of deal ``number`` after ``steps`` random legal moves (and sometimes an undo)."""
    rng = random.Random(seed)
    game = Game(Deal.from_number(number, rules))
    for _ in range(steps):
        legal = game.legal_moves()
        if not legal:
            break
        game.push(rng.choice(legal))
        if rng.random() < 0.2:
            game.undo()
    return game


games = st.builds(game_after, st.sampled_from(GAME_RULES), numbers, st.integers(0, 2**32), st.integers(0, 30))


def snapshot(game: Game) -> tuple[Any, ...]:
    """Everything a move could change."""
    return (
        game.position,
        game.moves,
        game.undos,
        game.hints,
        [str(s.move) for s in game.history],
        [str(s.move) for s in game.redo_stack],
        game.dead_cause,
        game.view(),
    )


def move_texts(game: Game) -> st.SearchStrategy[str]:
    cards = [str(c) for c in game.table.cards]
    some = st.lists(st.sampled_from(cards), min_size=1, max_size=4).map("+".join)
    parks = st.sampled_from(cards).map(lambda card: f"{card}>cell")
    legal = [str(m) for m in game.legal_moves()] or ["draw"]
    return near(st.one_of(st.sampled_from(legal), some, parks, st.sampled_from(["draw", "recycle", "d", "R", "Tc 3s"])))


@FAST
@given(
    near(
        st.sampled_from(
            ["Kd", "Tc+3s", "2c+4d+7h", "draw", "recycle", "X1+5c", "10♣ + 3♠", "d", "r", "Qs>cell", "10♥ > cell"]
        )
    )
)
def test_move_notation(text: str) -> None:
    move = parsed(Move.parse, text, MoveError)
    if move is not None:
        assert Move.parse(str(move)) == move and str(Move.parse(str(move))) == str(move)
        # a plain string, and a repr that reads back as the docs show it (``Move.parse('draw')``)
        assert type(str(move)) is str and eval(repr(move), {"Move": Move}) == move
    moves = parsed(parse_moves, text, MoveError)
    if moves is not None:
        assert parse_moves(";".join(map(str, moves))) == moves


@SLOW
@given(st.data(), games)
def test_a_move_pushed_as_text_is_played_or_refused_changing_nothing(data: st.DataObject, game: Game) -> None:
    text = data.draw(move_texts(game))
    before = snapshot(game)
    try:
        move = game.push(text)
    except (MoveError, IllegalMoveError) as exc:
        check_message(exc)
        event(type(exc).__name__)
        assert snapshot(game) == before
        return
    assert game.history[-1].move == move == Move.parse(str(move))
    if game.status != "won":
        game.undo()
        assert game.position == before[0]


@SLOW
@given(
    st.lists(near(st.sampled_from(["s", "u", "y", "h", "b", "code", "?", "Kd", "draw", "Tc+3s"])), max_size=12), games
)
def test_terminal_commands(lines: list[str], game: Game) -> None:
    out = io.StringIO()
    play(game, lines, out, "en")  # refusals are printed, never raised
    replayed = replay(read_record(write_record(game)))  # and the game played is a game the rules allow
    assert replayed.refusal is None and replayed.game.position == game.position


# --- game records -----------------------------------------------------------------------------------


def record_text(game: Game, extra: str, entries: str) -> str:
    return write_record(game, {"Event": extra} if extra else None) + entries


records = st.builds(
    record_text,
    games,
    st.sampled_from(["", "club night", "x: y"]),
    st.sampled_from(["", "undo\nredo\n", "draw; recycle # a comment\n", "undo\nundo\nKs\n"]),
)


@SLOW
@given(near(records))
def test_game_records(text: str) -> None:
    record = parsed(read_record, text, RecordError)
    if record is None:
        return
    result = replay(record)  # a refused entry is reported, not raised
    if result.refusal is not None:
        check_message(IllegalMoveError(result.refusal))
    extra = {k: v for k, v in record.headers.items() if k not in ("Rules", "Deal")}
    again = read_record(write_record(result.game, extra))
    assert again.headers == {**extra, "Rules": str(result.game.rules), "Deal": result.game.deal.code}
    replayed = replay(again)
    assert replayed.refusal is None and replayed.game.position == result.game.position
    assert [s.move for s in replayed.game.history] == [s.move for s in result.game.history]


# --- study results files ----------------------------------------------------------------------------

ROW_LINES = [
    "0,CL1-R-AAAAAAA,won,41,28,0.3512,0.0421,1832",
    "7,CL1-R-AAAAAAH,lost,,12,,1.5000,99",
    "12,CL1-R-AAAAAAM,unknown,,20,,30.0001,2000000",
]


DAYS = ["2026-12-01", "2026-12-31", "2027-02-28", "2028-02-29", "2099-01-01"]


@FAST
@given(near(st.sampled_from(DAYS)))
def test_daily_dates(text: str) -> None:
    day = parsed(parse_day, text, DailyError)
    if day is not None:
        assert day.isoformat() == text


@FAST
@given(near(st.sampled_from(DAYS)))
def test_daily_dates_over_http(client: TestClient, text: str) -> None:
    # no client can put a lone surrogate in an address (it is not UTF-8): it goes as "?" here
    sent = text.encode("utf-8", "replace").decode("utf-8")
    answer = client.get("/api/daily", params={"date": sent, "lang": "en"})
    assert answer.status_code in (200, 400, 422), answer.text
    if answer.status_code != 200:
        assert answer.json()["code"] in ("bad-date", "bad-request")
        assert "\n" not in answer.json()["message"]


@FAST
@given(near(st.sampled_from(ROW_LINES)))
def test_study_rows(text: str) -> None:
    row = parsed(Row.from_line, text, ValueError)
    if row is not None:
        line = row.to_line()
        assert Row.from_line(line).to_line() == line


@SLOW
@given(near(st.sampled_from([HEADER + "\n" + "\n".join(ROW_LINES) + "\n", HEADER + "\n", "", HEADER[:9]])))
def test_study_results_files(text: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "classic.csv"
        path.write_bytes(text.encode("utf-8", "surrogatepass"))
        rows = parsed(lambda _: read_results(path, "classic"), text, StudyError)
        assert path.read_bytes() == text.encode("utf-8", "surrogatepass")  # reading never writes
        for number, row in (rows or {}).items():
            assert row.number == number and row.code.startswith("CL1-R-")


# --- database URLs ---------------------------------------------------------------------------------------

PASSWORD = "hunter2"
URLS = [
    "sqlite:///games.sqlite3",
    "sqlite:///data/games.sqlite3",
    f"postgresql://who:{PASSWORD}@127.0.0.1:5432/games",
    "postgresql+psycopg://localhost/games",
    "postgresql:///games?host=/run/postgresql",
    "mysql://localhost/games",
    "sqlite://",
    "postgresql://[::1]:5432/games",
    "postgresql+psycopg2://localhost/games",
    "sqlite+aiosqlite:///games.sqlite3",
]


@pytest.fixture(scope="module")
def folder() -> Iterator[Path]:
    with tempfile.TemporaryDirectory() as name:
        yield Path(name)


def stays_inside(url: str) -> bool:
    """False if the URL names an SQLite file outside the current folder (the store creates a file's folder)."""
    try:
        parsed_url = make_url(url)
        database = (parsed_url.database or "") if parsed_url.get_backend_name() == "sqlite" else ""
    except Exception:
        return True
    return not database.startswith(("/", "~")) and ".." not in database


@FAST
@given(near(st.sampled_from(URLS)))
def test_database_urls_for_serve(text: str) -> None:
    url = parsed(check_db_url, text, ServeError)
    assert url is None or url == text


def open_store(url: str) -> Store | StoreError:
    """Store(url), or the StoreError it raised.  PostgreSQL URLs are checked without connecting (the fuzzer
    would send the driver to random hosts): the schema check and the secret are left out for them."""
    try:
        backend = make_url(url).get_backend_name()
    except Exception:
        backend = ""
    with pytest.MonkeyPatch.context() as patch:
        if backend == "postgresql":
            patch.setattr("pyramid_solitaire.store.migrate", lambda engine: 0)
            patch.setattr(Store, "_secret", lambda self: "")
        try:
            return Store(url)
        except StoreError as exc:
            return exc


@SLOW
@given(near(st.sampled_from(URLS)))
def test_database_urls_for_the_store(folder: Path, text: str) -> None:
    """Store() refuses with StoreError only (never a driver's or the URL library's exception), never shows
    the password, and opens an SQLite file where the URL says (here: inside the test's folder)."""
    if not stays_inside(text):
        return
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(folder)
        store = open_store(text)
    event(type(store).__name__)
    if isinstance(store, Store):
        store.close()
        if make_url(text).get_backend_name() == "sqlite":
            assert (folder / str(make_url(text).database)).is_file()
        return
    check_message(store)
    if text.count(PASSWORD) == 1 and f"://who:{PASSWORD}@" in text:
        assert PASSWORD not in str(store)


# --- the web app: new-game options, moves, the player's name ---------------------------------------


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest) -> Iterator[str]:
    """One database of each kind for the module (the store's limits differ: PostgreSQL checks lengths,
    NUL characters and the range of BIGINT)."""
    if request.param == "postgresql":
        yield request.getfixturevalue("postgres").create_database(f"f_{uuid.uuid4().hex[:12]}")
        return
    with tempfile.TemporaryDirectory() as folder:
        yield f"sqlite:///{folder}/games.sqlite3"


@pytest.fixture(scope="module")
def client(db: str) -> Iterator[TestClient]:
    endless = Limit(rate=1e12, burst=1e12)  # the fuzzer sends far more than a player could
    with TestClient(create_app(db, RateLimiter(endless, endless))) as test_client:
        yield test_client


def refusal_of(answer: Any, statuses: set[int]) -> dict[str, Any]:
    assert answer.status_code in statuses, (answer.status_code, answer.text[:300])
    body: dict[str, Any] = answer.json()
    assert set(body) == {"code", "message", "details"}
    check_message(ValueError(body["message"]))
    return body


def post_json(client: TestClient, path: str, body: Any, method: str = "POST") -> Any:
    """A JSON request, its text escaped as a browser's JSON.stringify does (lone surrogates too)."""
    return client.request(method, path, content=json.dumps(body), headers={"content-type": "application/json"})


def counts(store: Store) -> tuple[int, int, int]:
    """Players, games and actions in the database."""
    with store.engine.connect() as connection:
        recorded = connection.execute(select(func.count()).select_from(actions_table)).scalar_one()
    return len(store.players()), store.count_games(), recorded


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=6,
)


@st.composite
def new_game_bodies(draw: st.DrawFn) -> dict[str, Any]:
    body: dict[str, Any] = {}
    if draw(st.booleans()):
        body["rules"] = draw(near(st.one_of(st.sampled_from(RULE_TEXTS), rule_texts())))
    kind = draw(st.sampled_from(["code", "deal", "none", "both"]))
    if kind in ("code", "both"):
        body["code"] = draw(near(codes()))
    if kind in ("deal", "both"):
        body["deal"] = draw(near(notations("classic")))
    if kind != "none" or draw(st.booleans()):  # E and N search the solver for non-preset rules: R only then
        body["difficulty"] = draw(near(st.sampled_from("ENR")) if kind != "none" else st.just("R"))
    if draw(st.integers(0, 9)) == 0:
        body[draw(st.sampled_from(["rules", "code", "deal", "extra"]))] = draw(json_values)
    return body


@SLOW
@given(new_game_bodies())
def test_new_game_options(client: TestClient, body: dict[str, Any]) -> None:
    store = client.app.state.games.store  # type: ignore[attr-defined]
    before = counts(store)
    answer = post_json(client, "/api/games?lang=en", body)
    event(f"status {answer.status_code}")
    if answer.status_code != 201:
        code = refusal_of(answer, {400, 413, 422})["code"]
        assert code in {"bad-rules", "bad-code", "bad-deal", "bad-request", "too-large"}
        assert counts(store) == before  # no game, no player was made
        return
    game = answer.json()["game"]
    again = client.post("/api/games", json={"code": game["code"]}).json()["game"]  # the code deals it again
    assert (again["code"], again["pyramid"]) == (game["code"], game["pyramid"])


FLAGS = [
    "strict",
    "overlap",
    "stock_top_usable",
    "drawn_spot",
    "stock_waste_pairs",
    "waste_start",
    "open_pyramid",
    "triples",
]
SHORT_KEYS = {**OPTION_KEYS, "target": "sum", "undo_limit": "undo"}


@st.composite
def valid_rule_texts(draw: st.DrawFn) -> str:
    """A valid rule set written as short as find_rules reads it (1 and 0, sum=, undo=, inf): the canonical
    string and the code can be longer than what was sent."""
    base = PRESETS[draw(st.sampled_from(sorted(PRESETS)))]
    options: dict[str, Any] = {name: not getattr(base, name) for name in draw(st.sets(st.sampled_from(FLAGS)))}
    if options.get("stock_top_usable", base.stock_top_usable):
        options["drawn_spot"] = False
    # several cards a draw go with the waste-top model only
    options["draw"] = (
        1
        if options.get("stock_top_usable", base.stock_top_usable) or options.get("drawn_spot", base.drawn_spot)
        else draw(st.integers(1, 3))
    )
    deck, target = draw(st.sampled_from([(52, 13), (52, 14), (48, 12)]))
    options.update(
        deck=deck,
        target=target,
        lone_kings=target != 14,
        jokers=draw(st.integers(0, 2)),
        passes=draw(st.sampled_from([None, 1, 2, 3, 9])),
        rows=draw(st.sampled_from([6, 7])),
        scoring=draw(st.sampled_from(["none", "pyramide"])),
        undo_limit=draw(st.one_of(st.none(), st.integers(1, MAX_UNDO_LIMIT))),
    )
    # Giza's reserve takes the 24 cards a 7-row pyramid leaves of 52: with 48 cards only 6 rows fit, and
    # a layout that takes every card leaves no stock to set options of
    if 28 + base.reserve_size > deck:
        options["rows"] = 6
    if options["rows"] * (options["rows"] + 1) // 2 + base.reserve_size == deck or base.waste_piles > 1:
        options.update(passes=1, draw=1, waste_start=False, stock_top_usable=False, drawn_spot=False)
    # a waste-use limit fits any game with a stock, except a strict one whose stock cards, each taken from
    # the waste, outnumber what the uses can take (Rules refuses it: no deal could be won)
    uses = draw(st.sampled_from([None, base.waste_uses, 1, 8, 48]))
    unlimited = base.with_options(**options, waste_uses=None)
    if unlimited.stock_size == 0 or (
        uses is not None
        and unlimited.strict
        and unlimited.stock_only_from_waste
        and uses * unlimited.stock_cards_per_waste_use < unlimited.stock_size
    ):
        uses = None
    options["waste_uses"] = uses
    options["cells"] = draw(st.integers(0, 4))
    rules = base.with_options(**options)
    written = {"True": "1", "False": "0", "None": "inf"}
    changed = [f"{SHORT_KEYS[k]}={written.get(str(v), v)}" for k, v in options.items() if v != getattr(base, k)]
    text = f"{rules.preset}({','.join(changed)})"
    assert find_rules(text) == rules
    return text


@SLOW
@given(valid_rule_texts().filter(lambda text: len(text) <= 200))
def test_every_valid_rule_set_is_played_or_refused_by_its_length(client: TestClient, text: str) -> None:
    """Never the database's refusal (503): a rule set whose string or code is longer than the records keep is
    a bad-rules answer on every database, and changes nothing."""
    store = client.app.state.games.store  # type: ignore[attr-defined]
    before = counts(store)
    answer = post_json(client, "/api/games", {"rules": text, "difficulty": "R"})
    event(f"status {answer.status_code}")
    if answer.status_code == 201:
        assert answer.json()["game"]["rules"] == str(find_rules(text))
        return
    body = refusal_of(answer, {400})
    assert body["code"] == "bad-rules" and body["details"]["reason"] in ("store.too-long-rules", "store.too-long-code")
    assert "文字あります" in body["message"]  # the length named, in the page's language
    assert counts(store) == before


@pytest.fixture(scope="module")
def playing(client: TestClient) -> dict[str, Any]:
    """A game of the client's player (the player's name and imports need one)."""
    answer = client.post("/api/games", json={"code": "CL1-R-AAAAAAB"})
    assert answer.status_code == 201, answer.text
    game: dict[str, Any] = answer.json()["game"]
    return game


def game_in_play(client: TestClient, code: str, steps: int) -> dict[str, Any]:
    """A new game of ``code`` after its first legal move ``steps`` times: the same state for the same
    arguments (the fuzzer's choices must not depend on earlier examples)."""
    game: dict[str, Any] = client.post("/api/games", json={"code": code}).json()["game"]
    for _ in range(steps):
        if game["legal_moves"]:
            game = client.post(f"/api/games/{game['id']}/move", json={"move": game["legal_moves"][0]}).json()["game"]
    return game


@SLOW
@given(
    st.sampled_from(["TH1J2T1-R-AAAAAAB", "PY1-R-AAAAAAS", "CL1-N-AAAAAAD", "FC1-R-AAAAAAC"]),
    st.integers(0, 4),
    st.data(),
)
def test_moves_through_the_api(client: TestClient, code: str, steps: int, data: st.DataObject) -> None:
    before = game_in_play(client, code, steps)
    path = f"/api/games/{before['id']}"
    move = data.draw(
        near(st.sampled_from(before["legal_moves"] + ["draw", "Kd+Kd", "X1+X2", "Kd>cell", "Kd>cell2", "undo", "#27"]))
    )
    body: Any = {"move": move}
    if data.draw(st.booleans()):  # a free cell named, whatever the move
        body["cell"] = data.draw(st.one_of(st.integers(-1, 4), json_values))
    answer = post_json(client, f"{path}/move", body)
    event(f"status {answer.status_code}")
    if answer.status_code == 200:
        assert answer.json()["game"]["version"] == before["version"] + 1
        return
    refusal_of(answer, {400, 409, 422})
    after = client.get(path).json()["game"]
    assert {k: v for k, v in after.items() if k != "elapsed"} == {k: v for k, v in before.items() if k != "elapsed"}


@SLOW
@given(near(st.sampled_from(["Hana", "  はな  子 ", "<b>x</b>", "a" * 40, ""])))
def test_the_players_name(client: TestClient, playing: dict[str, Any], name: str) -> None:
    before = client.get("/api/me").json()["player"]
    answer = post_json(client, "/api/me", {"name": name}, "PUT")
    event(f"status {answer.status_code}")
    if answer.status_code != 200:
        refusal_of(answer, {422})
        assert client.get("/api/me").json()["player"] == before
        return
    shown = answer.json()["player"]["name"]
    assert shown == (" ".join(name.split()) or None)
    assert client.get("/api/me").json()["player"]["name"] == shown


# --- the player's other settings: kept in the browser (settings.js), run under Node ------------------------

NODE_DRIVER = """
const fs = await import("node:fs");
const readline = await import("node:readline");
// a Japanese browser (a newer Node has a navigator of its own, in the machine's language)
Object.defineProperty(globalThis, "navigator", { value: { languages: ["ja-JP", "en"] }, configurable: true });
let stored = {};
globalThis.localStorage = {
  getItem: (k) => (k in stored ? stored[k] : null), setItem: (k, v) => { stored[k] = String(v); } };
const source = fs.readFileSync(process.env.SETTINGS_JS, "utf8");
const settings = await import("data:text/javascript," + encodeURIComponent(source));
for await (const line of readline.createInterface({ input: process.stdin })) {
  const { raw, save } = JSON.parse(line);
  stored = raw === null ? {} : { "pyramid.settings": raw };
  let answer;
  try {
    if (save !== null) settings.saveSettings(save);
    const kept = JSON.stringify(stored);
    const loaded = settings.loadSettings();
    answer = { loaded, defaults: settings.DEFAULTS, unchanged: JSON.stringify(stored) === kept };
  } catch (error) { answer = { error: String(error) }; }
  process.stdout.write(JSON.stringify(answer) + "\\n");
}
"""
SETTINGS_JS = Path(__file__).resolve().parents[1] / "src/pyramid_solitaire/web/static/js/settings.js"


@pytest.fixture(scope="module")
def node_settings() -> Iterator[Callable[[str | None, Any], dict[str, Any]]]:
    """``load(raw, save)``: saveSettings(save) unless None, then loadSettings() with ``raw`` stored."""
    if shutil.which("node") is None:
        pytest.fail("node is missing: scripts/test installs npm (for axe-core), which brings Node.js")
    node = subprocess.Popen(
        ["node", "--input-type=module", "-e", NODE_DRIVER],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "SETTINGS_JS": str(SETTINGS_JS)},
    )
    assert node.stdin is not None and node.stdout is not None

    def load(raw: str | None, save: Any) -> dict[str, Any]:
        assert node.stdin is not None and node.stdout is not None
        node.stdin.write(json.dumps({"raw": raw, "save": save}) + "\n")
        node.stdin.flush()
        answer: dict[str, Any] = json.loads(node.stdout.readline())
        return answer

    yield load
    node.stdin.close()
    node.wait(timeout=10)


settings_objects = st.fixed_dictionaries(
    {},
    optional={
        "lang": st.sampled_from(["ja", "en"]),
        "badges": st.booleans(),
        "assist": st.booleans(),
        "animations": st.booleans(),
        "fourColour": st.booleans(),
        "largeCards": st.booleans(),
        "coach": st.booleans(),
        "rules": st.sampled_from(RULE_TEXTS),
        "difficulty": st.sampled_from("ENR"),
    },
)


@SLOW
@given(
    st.one_of(
        st.none(),
        near(settings_objects.map(json.dumps)),
        json_values.map(json.dumps),
        st.sampled_from(["null", "5", '"ja"', "[]", "true", "{"]),
    ),
    st.one_of(st.none(), settings_objects),
)
def test_stored_browser_settings(
    node_settings: Callable[[str | None, Any], dict[str, Any]], raw: str | None, save: dict[str, Any] | None
) -> None:
    answer = node_settings(raw, save)
    event("error" if "error" in answer else "loaded")
    assert "error" not in answer, answer
    loaded, defaults = answer["loaded"], answer["defaults"]
    assert set(loaded) == set(defaults)
    assert all(type(loaded[k]) is type(v) for k, v in defaults.items()), loaded
    assert loaded["lang"] in ("ja", "en") and loaded["difficulty"] in ("E", "N", "R")
    assert answer["unchanged"]  # loading never writes
    if save is not None:
        assert loaded == {**defaults, **save}  # what is saved loads back


# --- records import: the function, the API and the command line --------------------------------------------


def play_entries(games: Games, deal: Deal, player: str, words: list[str]) -> None:
    session = games.create(deal, player)
    for word in words:
        games.act(session, parse_entry(word))


@functools.cache
def sample_export() -> dict[str, Any]:
    """A real export: a won game, a resigned one and two unfinished ones, with every kind of entry."""
    with tempfile.TemporaryDirectory() as folder:
        store = Store(f"sqlite:///{folder}/games.sqlite3")
        games, player = Games(store), store.new_player()
        won = Deal.from_notation(make_notation(clearable_pyramid()))
        play_entries(games, won, player, ["draw", "Kc", "undo", "redo", "hint", *CLEAR_PYRAMID_MOVES[1:]])
        play_entries(games, Deal.from_code("CL1-N-AAAAAAB"), player, ["draw", "hint", "resign"])
        play_entries(games, Deal.from_code("TH1J2T1-R-AAAAAAC"), player, ["draw"])
        play_entries(games, Deal.from_code("PY1-R-AAAAAAD"), player, ["draw"] * 3)
        data = export_records(store, player)
        store.close()
    resigned = data["games"][1]  # a coach hint too, written into the record (no solver here)
    head, moves = resigned["record"].split("\n\n", 1)
    resigned["record"] = head + "\n\n" + moves.replace("hint\n", "hint\ncoach\n")
    resigned["times"].insert(2, resigned["times"][1])
    assert [g["result"] for g in data["games"]] == ["won", "resigned", None, None]
    return data


def edit(draw: st.DrawFn, node: Any) -> Any:
    """``node`` with one thing changed somewhere inside: a value replaced by a near one or any JSON, a key or
    an element removed, added, repeated or swapped."""
    if isinstance(node, dict | list) and node and draw(st.integers(0, 4)) > 0:
        key = draw(st.sampled_from(sorted(node)) if isinstance(node, dict) else st.integers(0, len(node) - 1))
        node[key] = edit(draw, node[key])
        return node
    if isinstance(node, dict) and node and draw(st.booleans()):
        node.pop(draw(st.sampled_from(sorted(node))))
        return node
    if isinstance(node, list) and node and draw(st.booleans()):
        i, j = draw(st.integers(0, len(node) - 1)), draw(st.integers(0, len(node) - 1))
        op = draw(st.sampled_from(["drop", "repeat", "swap"]))
        if op == "drop":
            node.pop(i)
        elif op == "repeat":
            node.insert(i, copy.deepcopy(node[j]))
        else:
            node[i], node[j] = node[j], node[i]
        return node
    if isinstance(node, bool) or node is None:
        return draw(json_values)
    if isinstance(node, int):
        return draw(
            st.sampled_from(
                [node + 1, node - 1, -1, 0, True, 2**63 - 1, 2**63, -(2**63) - 1, 10**30, str(node), node + 0.5]
            )
        )
    if isinstance(node, str):
        return draw(st.one_of(mutated(st.just(node)), st.just(node.lower()), json_values))
    return draw(json_values)


@st.composite
def edited_exports(draw: st.DrawFn) -> Any:
    data = copy.deepcopy(sample_export())
    for _ in range(draw(st.integers(0, 3))):
        data = edit(draw, data)
    return data


@pytest.fixture(scope="module")
def records_store(db: str) -> Iterator[Store]:
    instance = Store(db)
    yield instance
    instance.close()


GAME_KEYS = ("code", "rules", "difficulty", "started_ms", "ended_ms", "result", "record", "times")


def same_games(listed: list[dict[str, Any]]) -> list[str]:
    """Games as an export lists them, in a fixed order, their codes written canonically, their records as
    their entries (headers past Rules and Deal are free text), each entry's time (the start by default)."""
    out = []
    for g in listed:
        entries = [str(e) for e in read_record(g["record"]).entries]
        out.append(
            json.dumps(
                {
                    **{k: g.get(k) for k in GAME_KEYS},
                    "code": Deal.from_code(g["code"]).code,
                    "record": entries,
                    "times": g.get("times", [g["started_ms"]] * len(entries)),
                }
            )
        )
    return sorted(out)


@SLOW
@given(edited_exports())
def test_records_import(records_store: Store, data: Any) -> None:
    store = records_store
    player = store.new_player()
    before = counts(store)
    try:
        added, already = import_records(store, player, data)
    except RecordsImportError as exc:
        check_message(exc)
        event("refused")
        assert counts(store) == before  # all or nothing
        return
    exported = export_records(store, player)["games"]
    # a game listed twice (same code, same start) is added once
    assert added + already == len(data["games"]) and counts(store)[1] == before[1] + added == before[1] + len(exported)
    assert set(same_games(exported)) <= set(same_games(data["games"]))  # what was imported is what is exported
    other = store.new_player()
    assert import_records(store, other, {**sample_export(), "games": exported}) == (added, 0)
    assert import_records(store, other, {**sample_export(), "games": exported}) == (0, added)  # never twice
    assert same_games(export_records(store, other)["games"]) == same_games(exported)  # an export imports as is


@SLOW
@given(edited_exports())
def test_records_import_through_the_api(client: TestClient, playing: dict[str, Any], data: Any) -> None:
    store = client.app.state.games.store  # type: ignore[attr-defined]
    before = counts(store)
    answer = post_json(client, "/api/me/import", data)
    event(f"status {answer.status_code}")
    if answer.status_code == 200:
        assert counts(store)[1] == before[1] + answer.json()["imported"]
        return
    assert refusal_of(answer, {400})["code"] == "bad-import"
    assert counts(store) == before


@pytest.fixture(scope="module")
def stats_db() -> Iterator[tuple[str, str, Path]]:
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{folder}/games.sqlite3"
        store = Store(url)
        player = store.new_player()
        store.close()
        yield url, player, Path(folder)


def run_cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(list(argv))
    return status, out.getvalue(), err.getvalue()


def bad_input_line(status: int, err: str) -> None:
    if status == 2:
        lines = err.splitlines()
        # one line, in the chosen language (Japanese unless --lang en)
        prefixes = ("pyramid-solitaire: error: ", "pyramid-solitaire: エラー: ")
        assert len(lines) == 1 and lines[0].startswith(prefixes), err


@SLOW
@given(
    st.one_of(edited_exports().map(json.dumps), mutated(st.builds(lambda: json.dumps(sample_export())), max_edits=2)),
    st.sampled_from(["utf-8", "utf-16", "latin-1"]),
    st.booleans(),
)
def test_stats_import_from_the_command_line(
    stats_db: tuple[str, str, Path], text: str, encoding: str, deep: bool
) -> None:
    url, player, folder = stats_db
    path = folder / "records.json"
    depth = 10_000 if deep else 0  # nested deeper than any parser's stack
    path.write_bytes(("[" * depth + text + "]" * depth).encode(encoding, "replace"))
    store = Store(url)
    before = counts(store)
    status, out, err = run_cli("stats", "--db", url, "--player", player, "--import", str(path), "--json")
    assert status in (0, 2), err
    event(f"exit {status}")
    bad_input_line(status, err)
    if status == 2:
        assert counts(store) == before
    else:
        added = re.match(r"(\d+)ゲームを読み込みました", out.splitlines()[0])  # the default language: Japanese
        assert added is not None, out
        assert counts(store)[1] == before[1] + int(added.group(1))
    store.close()


# --- the command line's other inputs: deal options and record files ------------------------------------------


@SLOW
@given(st.sampled_from(["code", "--rules", "--deal"]), st.data())
def test_deal_options_on_the_command_line(option: str, data: st.DataObject) -> None:
    seeds = {
        "code": codes(),
        "--rules": st.one_of(st.sampled_from(RULE_TEXTS), rule_texts()),
        "--deal": notations("classic"),
    }[option]
    text = data.draw(near(seeds))
    argv = ["deal", "--json", "--", text] if option == "code" else ["deal", "--json", f"{option}={text}"]
    if option == "--rules":
        argv.append("--number=5")
    status, out, err = run_cli(*argv)
    assert status in (0, 2), err
    event(f"exit {status}")
    bad_input_line(status, err)
    if status == 0:
        shown = json.loads(out)
        assert run_cli("deal", "--json", "--", shown["code"])[1] == out  # the code it prints deals it again


@SLOW
@given(near(records), st.sampled_from(["utf-8", "utf-16", "latin-1"]))
def test_record_files_on_the_command_line(text: str, encoding: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game.txt"
        path.write_bytes(text.encode(encoding, "replace"))
        status, _, err = run_cli("replay", str(path), "--json")
    event(f"exit {status}")
    assert status in (0, 1, 2), err
    bad_input_line(status, err)

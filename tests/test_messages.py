"""The message catalogue (issue 21): one file per language, the same keys and placeholders in both, every
message in one language only, and every key the code asks for present."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from pyramid_solitaire.messages import LOCALES, Problem, catalogue, file_problem, join, shown, text

SRC = Path(__file__).resolve().parents[1] / "src" / "pyramid_solitaire"
PLACEHOLDER = re.compile(r"\{(\w+)\}")
#: Japanese script: hiragana, katakana, the CJK ideographs and the full-width forms Japanese punctuation uses.
JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uff01-\uff60\u3000-\u303f]")
#: Three English words in a row (a sentence of English), not counting words in code such as ``key=value``.
ENGLISH_RUN = re.compile(r"(?<![\w/=.<{-])[A-Za-z][a-z]+(?:[ ,]+[a-z]{2,}){2,}(?![\w/=(])")
#: Namespaces of the catalogue's keys that Python code asks for by a literal key.
NAMESPACES = (
    "refusal",
    "status",
    "card",
    "suit",
    "rank",
    "face",
    "deal",
    "code",
    "rules",
    "move",
    "record",
    "file",
    "cli",
    "terminal",
    "error",
    "request",
    "validation",
    "argparse",
    "study",
    "winnability",
    "store",
    "import",
    "serve",
    "cell",
    "catalog",
    "stock",
)
KEY_LITERAL = re.compile(r"""["']((?:""" + "|".join(NAMESPACES) + r""")\.[\w.-]+)["']""")


def placeholders(message: str) -> set[str]:
    return set(PLACEHOLDER.findall(message))


def test_both_languages_have_the_same_keys_in_the_same_order() -> None:
    ja, en = catalogue("ja"), catalogue("en")
    assert list(ja) == list(en)
    raw = [json.loads((LOCALES / f"{lang}.json").read_text(encoding="utf-8")) for lang in ("ja", "en")]
    assert raw == [ja, en]


@pytest.mark.parametrize("key", list(catalogue("ja")))
def test_each_message_has_the_same_placeholders_in_both_languages_and_fills(key: str) -> None:
    ja, en = catalogue("ja")[key], catalogue("en")[key]
    assert placeholders(ja) == placeholders(en), key
    values = {name: f"<{name}>" for name in placeholders(ja)}
    for lang in ("ja", "en"):
        filled = text(lang, key, **values)
        assert not PLACEHOLDER.search(filled.replace("<", "").replace(">", "")) or not values, (lang, key, filled)


@pytest.mark.parametrize("key", list(catalogue("en")))
def test_no_english_message_holds_japanese(key: str) -> None:
    assert not JAPANESE.search(catalogue("en")[key]), (key, catalogue("en")[key])


@pytest.mark.parametrize("key", list(catalogue("ja")))
def test_no_japanese_message_holds_an_english_sentence(key: str) -> None:
    message = PLACEHOLDER.sub("", catalogue("ja")[key])
    assert not ENGLISH_RUN.search(message), (key, message, ENGLISH_RUN.search(message))
    if JAPANESE.search(message) is None:
        # a message with no Japanese in it is a symbol, a letter or a code (K, 10, %(prog)s), never words
        assert not re.search(r"[a-z]{3,}", message.replace("%(prog)s", "")), (key, message)


def python_sources() -> list[Path]:
    return sorted(SRC.rglob("*.py"))


def test_every_key_the_python_code_names_is_in_the_catalogue() -> None:
    known = catalogue("ja")
    missing = {}
    for path in python_sources():
        for key in KEY_LITERAL.findall(path.read_text(encoding="utf-8")):
            if key not in known and not any(other.startswith(key + ".") for other in known):
                missing[key] = path.name
    assert missing == {}


def test_every_refusal_the_engine_gives_has_its_message() -> None:
    codes = set()
    for path in python_sources():
        codes.update(re.findall(r"""Refusal\(\s*["']([\w-]+)["']""", path.read_text(encoding="utf-8")))
    assert len(codes) > 25
    assert {code for code in codes if f"refusal.{code}" not in catalogue("ja")} == set()


def test_every_key_the_page_names_is_in_the_catalogue() -> None:
    known = catalogue("ja")
    used: set[str] = set()
    for path in [*sorted((SRC / "web" / "static").rglob("*.js")), SRC / "web" / "static" / "index.html"]:
        source = path.read_text(encoding="utf-8")
        used.update(re.findall(r"""\bt\(\s*["']([\w.-]+)["']""", source))
        used.update(re.findall(r"""data-t(?:-aria)?="([\w.-]+)\"""", source))
    assert used and {key for key in used if key not in known} == set()


def test_a_problem_is_written_in_the_language_asked_and_its_parts_too() -> None:
    inner = Problem("card.unknown", token="Zz")
    outer = Problem("move.bad-card", move="Zz+Qs", problem=inner)
    assert (
        outer.message("en")
        == str(outer)
        == ("bad move 'Zz+Qs': unknown card 'Zz' (expected rank A23456789TJQK and suit cdhs, e.g. Tc)")
    )
    assert outer.message("ja") == (
        "手「Zz+Qs」が正しくありません：「Zz」はカードではありません（ランク A23456789TJQK とスート cdhs、例：Tc）"
    )
    # what a person typed is quoted on one line whatever it held
    assert Problem("card.unknown", token="a\nb").message("en").startswith("unknown card 'a\\nb'")
    assert shown("Tc") == "Tc" and shown("a\tb") == "a\\tb"
    assert join("ja", ["2♣", "4♦", "8♠"]) == "2♣、4♦と8♠" and join("en", ["2♣", "4♦", "8♠"]) == "2♣, 4♦ and 8♠"


def test_file_problems_name_the_file_and_what_is_wrong_in_either_language(tmp_path: Path) -> None:
    try:
        (tmp_path / "missing.json").read_text()
    except OSError as exc:
        problem = file_problem("read", "missing.json", exc)
    assert problem.message("en") == "cannot read missing.json: No such file or directory"
    assert problem.message("ja") == "missing.json を読めません：ファイルがありません"
    try:
        json.loads("{bad")
    except ValueError as exc:
        problem = file_problem("read", "bad.json", exc)
    assert problem.message("ja") == "bad.json は JSON ではありません（1行2列目）"


def test_a_huge_input_is_quoted_by_its_start_only() -> None:
    """A 100 KB line pasted as a move (or a code) is named by its first 200 characters, not echoed whole."""
    from pyramid_solitaire.deal import CodeError, Deal
    from pyramid_solitaire.moves import Move, MoveError

    with pytest.raises(MoveError) as move:
        Move.parse("Z" * 100_000)
    assert len(move.value.message("en")) < 600 and ("Z" * 200 + "…") in move.value.message("ja")
    with pytest.raises(CodeError) as code:
        Deal.from_code("CL1-R-" + "A" * 100_000)
    assert len(code.value.message("en")) < 600
    assert code.value.message("en").startswith(f"code CL1-R-{'A' * 194}…: a deal number has 7 letters")

"""One message catalogue per language: every text a person reads, in Japanese and in English.

``locales/ja.json`` and ``locales/en.json`` hold the same keys; each value is a message whose ``{name}``
placeholders are filled from the details a caller gives.  Python reads them here (the engine's refusals,
the web app's errors, the terminal game, every command's output) and the web app serves the same files
to the browser (``/locales/<lang>.json``, read by ``static/js/i18n.js``), so no sentence lives in code and
no text mixes the two languages.  The engine, solver and store say *what* happened — a code and its
details (:class:`Problem`, :class:`~.reasons.Refusal`) — and only the edge that speaks to a person turns
that into words, in that person's language.

Keys: the page's own texts are plain words (``new_game``); the others are namespaced by where they come
from (``refusal.covered``, ``error.bad-code``, ``deal.unknown-card``, ``cli.stats.empty``).
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Final

LANGS: Final = ("ja", "en")
DEFAULT_LANG: Final = "ja"
LOCALES: Final = Path(__file__).resolve().parent / "locales"


@cache
def catalogue(lang: str) -> dict[str, str]:
    """Every message of one language, by key."""
    if lang not in LANGS:
        raise ValueError(f"no message catalogue for language {lang!r} (have: {', '.join(LANGS)})")
    data: dict[str, str] = json.loads((LOCALES / f"{lang}.json").read_text(encoding="utf-8"))
    return data


#: A placeholder: a name in braces, as the browser's i18n.js reads them too (other braces are text).
_PLACEHOLDER: Final = re.compile(r"\{(\w+)\}")


def text(lang: str, key: str, /, **values: object) -> str:
    """The message ``key`` in ``lang``, its ``{name}`` placeholders filled from ``values`` (a missing value
    is a KeyError).  A value that is a :class:`Problem` is written in the same language (a problem inside
    another's message)."""

    def fill(match: re.Match[str]) -> str:
        value = values[match.group(1)]
        return value.message(lang) if isinstance(value, Problem) else str(value)

    return _PLACEHOLDER.sub(fill, catalogue(lang)[key])


#: The most of a person's input a message quotes: a 100 KB line pasted as a move is named by its start.
QUOTED: Final = 200


def clipped(value: str, most: int = QUOTED) -> str:
    """``value``, or its first ``most`` characters and an ellipsis when it is longer."""
    return value if len(value) <= most else f"{value[:most]}…"


def shown(value: str) -> str:
    """Text a person typed, as a message may quote it: control characters escaped, so a message stays on
    one line whatever the input held (``a\\nb`` for a newline), and at most QUOTED characters of it."""
    value = clipped(value)
    return repr(value)[1:-1] if not value.isprintable() or "\\" in value else value


def join(lang: str, items: list[str]) -> str:
    """Items as a list in ``lang``: ``2♣、4♦と8♠`` / ``2♣, 4♦ and 8♠``."""
    if len(items) <= 1:
        return "".join(items)
    return text(lang, "list_sep").join(items[:-1]) + text(lang, "and") + items[-1]


class Problem(Exception):
    """Input or a state that is refused: the ``key`` of its message and the ``details`` the message is
    written from.  ``str()`` gives the English message (for logs, tracebacks and developers); a person
    is shown :meth:`message` in their own language.  The errors of bad input also derive from
    ``ValueError`` (``class DealError(Problem, ValueError)``), those of a database that is away from
    ``RuntimeError``, as they always have."""

    def __init__(self, key: str, /, **details: object) -> None:
        # object, not a union: a fact is text, a number, names, another problem, or anything written as its
        # str() — a refused move's cards among them (.reasons.Fact; cards are a layer above this module)
        self.key = key
        self.details = details
        super().__init__(self.message("en"))

    def message(self, lang: str) -> str:
        """The problem in words, in ``lang``: text from the input quoted with :func:`shown`, a list of
        names written as a list of the language (``a、b、c`` / ``a, b, c``)."""
        return text(lang, self.key, **{name: _written(lang, value) for name, value in self.details.items()})


def _written(lang: str, value: object) -> object:
    if isinstance(value, str):
        return shown(value)
    if isinstance(value, (list, tuple)):
        return text(lang, "list_sep").join(shown(str(item)) for item in value)
    return value


#: What an operating-system error is called in the catalogue, by errno name (others: ``file.other``).
_OS_KEYS: Final = {
    "ENOENT": "file.missing",
    "EACCES": "file.denied",
    "EPERM": "file.denied",
    "EISDIR": "file.is-dir",
    "ENOTDIR": "file.not-dir",
    "ENOSPC": "file.full",
    "EROFS": "file.read-only",
}


def file_problem(action: str, path: str, exc: Exception) -> Problem:
    """Why a file could not be read or written (``action``: ``read`` or ``write``), in words of the
    catalogue: the operating system's own message is English whatever the language, so the common
    errors are named here and only a rare one is quoted as the system gave it."""
    import errno
    import json as json_module

    if isinstance(exc, UnicodeDecodeError):
        return Problem("file.not-utf8", path=path, byte=exc.start)
    if isinstance(exc, json_module.JSONDecodeError):
        return Problem("file.not-json", path=path, line=exc.lineno, column=exc.colno)
    if isinstance(exc, OSError):
        name = errno.errorcode.get(exc.errno or 0, "")
        key = _OS_KEYS.get(name, "file.other")
        return Problem(f"{key}.{action}", path=path, reason=exc.strerror or name)
    return (
        Problem("file.not-json", path=path, line=0, column=0)
        if isinstance(exc, ValueError)
        else Problem(f"file.other.{action}", path=path, reason=type(exc).__name__)
    )


#: The words argparse itself writes (help headings, its errors), by the catalogue key that says them.
_ARGPARSE: Final = {
    "usage: ": "argparse.usage",
    "positional arguments": "argparse.positional",
    "options": "argparse.options",
    "show this help message and exit": "argparse.help",
    "argument %(argument_name)s: %(message)s": "argparse.argument",
    "the following arguments are required: %s": "argparse.required",
    "one of the arguments %s is required": "argparse.one-required",
    "unrecognized arguments: %s": "argparse.unrecognized",
    "not allowed with argument %s": "argparse.not-allowed",
    "expected one argument": "argparse.one-argument",
    "expected at most one argument": "argparse.at-most-one",
    "expected at least one argument": "argparse.at-least-one",
    "ambiguous option: %(option)s could match %(matches)s": "argparse.ambiguous",
    "invalid %(type)s value: %(value)r": "argparse.invalid-value",
    "invalid choice: %(value)r (choose from %(choices)s)": "argparse.invalid-choice",
    "%(prog)s: error: %(message)s\n": "argparse.error",
    "unknown parser %(parser_name)r (choices: %(choices)s)": "argparse.unknown-parser",
    "ignored explicit argument %r": "argparse.ignored",
    "unexpected option string: %s": "argparse.unexpected",
}


def speak_argparse(lang: str) -> None:
    """Have argparse write its own words (``usage:``, its error messages) in ``lang`` too: the command
    line's help and errors are then in one language.  argparse looks its words up through the module's
    ``_`` (gettext), which is pointed at the catalogue; a word not in the table stays as argparse has it."""
    import argparse

    def translated(message: str) -> str:
        key = _ARGPARSE.get(message)
        return catalogue(lang)[key] if key else message

    argparse._ = translated  # type: ignore[attr-defined]


__all__ = ["DEFAULT_LANG", "LANGS", "Problem", "catalogue", "file_problem", "join", "shown", "speak_argparse", "text"]

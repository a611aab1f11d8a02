"""A refused request as data: :class:`ApiError` (HTTP status, stable code, details, and a message in the
player's language from the catalogue) and the words for a request's validation errors.

Free of any web framework, so the offline engine (:mod:`.offline`, run by Pyodide in the browser's worker)
refuses a request with the very answer the server gives; :mod:`.errors` turns one into FastAPI's response.
"""

from __future__ import annotations

import re
from typing import Final, TypedDict, cast

from ..messages import Problem, text
from ..reasons import IllegalMoveError, Refusal
from .answers import ErrorAnswer, ErrorDetails


class Invalid(TypedDict):
    """One validation error of a request as FastAPI reports it: where, pydantic's kind, its context."""

    where: str
    type: str
    ctx: dict[str, object]


#: The kinds of reason an answer's message may give after the error's own words.
Reason = Problem | Refusal | list[Invalid] | None


class ApiError(Exception):
    """A refused request: HTTP status, stable code and details.  Its message is written in the player's
    language when the answer is made — the catalogue's ``error.<code>``, then the reason in the same
    language: a :class:`~..messages.Problem` (a bad code, deal, rule set, move…), or the request's
    validation errors — or, for a move the engine refuses, the :class:`~..reasons.Refusal` itself."""

    def __init__(self, status: int, code: str, reason: Reason = None, details: dict[str, object] | None = None) -> None:
        super().__init__(code)
        self.status = status
        self.code = code
        self.reason = reason
        self.details = dict(details or {})
        if isinstance(reason, Problem):  # what went wrong, for a program: the reason's code (its facts below)
            self.details.setdefault("reason", reason.key)
        elif isinstance(reason, Refusal):
            self.details.update(reason.to_json("en")["details"])

    def message(self, lang: str) -> str:
        """The message in ``lang``."""
        if isinstance(self.reason, Refusal):
            return self.reason.message(lang)
        error = text(lang, f"error.{self.code}")
        if isinstance(self.reason, Problem):
            return text(lang, "error.with-reason", error=error, reason=self.reason.message(lang))
        if isinstance(self.reason, list):
            return text(
                lang,
                "error.with-reason",
                error=error,
                reason=text(lang, "parts_sep").join(invalid_part(lang, part) for part in self.reason),
            )
        return error

    def body(self, lang: str) -> ErrorAnswer:
        """The answer's JSON body, ``{code, message, details}``; a reason's facts are JSON values of their
        own types, and any words among them are in ``lang`` like the message."""
        details = self.details
        if isinstance(self.reason, Problem) and "facts" not in details:
            details = {**details, "facts": {key: fact(value, lang) for key, value in self.reason.details.items()}}
        # the declared keys, and a refused move's own facts beside them (ErrorDetails is open to those)
        return {"code": self.code, "message": self.message(lang), "details": cast(ErrorDetails, details)}


def fact(value: object, lang: str) -> object:
    """One fact of a problem as JSON: numbers, text, booleans and null as they are, a list as an array, a
    nested problem or refusal as its words in ``lang``, anything else (a card) as its text."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (Problem, Refusal)):
        return value.message(lang)
    if isinstance(value, (list, tuple)):
        return [fact(item, lang) for item in value]
    if isinstance(value, (set, frozenset)):
        return sorted((fact(item, lang) for item in value), key=str)
    if isinstance(value, dict):
        return {str(key): fact(item, lang) for key, item in value.items()}
    return str(value)


#: Pydantic's validation error types the catalogue words (``validation.<type>``); others: ``validation.other``.
VALIDATION_TYPES: Final = frozenset(
    {
        "missing",
        "extra_forbidden",
        "string_too_long",
        "string_too_short",
        "string_type",
        "int_type",
        "int_parsing",
        "int_from_float",
        "greater_than_equal",
        "less_than_equal",
        "literal_error",
        "json_invalid",
        "model_type",
        "model_attributes_type",
        "dict_type",
        "bool_type",
        "bool_parsing",
        "float_type",
        "list_type",
        "none_required",
    }
)


def invalid_part(lang: str, error: Invalid) -> str:
    """One validation error in words: where in the request, and what is wrong there."""
    kind = error["type"] if error["type"] in VALIDATION_TYPES else "other"
    context = {key: value for key, value in error.get("ctx", {}).items() if isinstance(value, (int, float, str))}
    if "expected" in context:  # pydantic's English list, "'E', 'N' or 'R'", in the reader's language
        choices = re.split(r", | or ", str(context["expected"]).replace("'", ""))
        context["expected"] = (
            text(lang, "validation.choices", some=text(lang, "validation.comma").join(choices[:-1]), last=choices[-1])
            if len(choices) > 1
            else choices[0]
        )
    blanks = dict.fromkeys(("max_length", "min_length", "ge", "le", "expected"), "")
    return text(
        lang,
        f"validation.{kind}",
        where=error["where"] or text(lang, "validation.body"),
        **{**blanks, **{k: str(v) for k, v in context.items()}},
    )


def refused(exc: IllegalMoveError) -> ApiError:
    """A move or event the engine refuses, as the 409 that gives its refusal."""
    return ApiError(409, exc.refusal.code, exc.refusal)

"""Refusals and failures as answers: :class:`ApiError` (status, stable code, details, and a message in
the player's language from the catalogue), the words for a request's validation errors, and the
exception handlers :func:`install_error_handlers` puts on the app, so that every bad request is a 4xx
``{code, message, details}`` and every other failure a plain 500 that shows no internals."""

from __future__ import annotations

import logging
from typing import Any, Final

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..messages import Problem, text
from ..reasons import IllegalMoveError, Refusal
from ..store import StoreError
from .assets import browser_lang, not_found_page
from .http import SAFE_METHODS, SECURITY_HEADERS, lang_of
from .metrics import DATABASE_ERRORS

#: Paths whose answers are data for the page, not pages: a missing one is a JSON 404, never the HTML page.
DATA_PATHS: Final = ("/api/", "/static/", "/locales/", "/art/")
#: The server's log.  Failures are logged under the app module's name, as they were when its handlers
#: lived there, so that logging set up for it still catches them.
LOG: Final = logging.getLogger("pyramid_solitaire.web.app")

#: The kinds of reason an answer's message may give after the error's own words.
Reason = Problem | Refusal | list[dict[str, Any]] | None


class ApiError(Exception):
    """A refused request: HTTP status, stable code and details.  Its message is written in the player's
    language when the answer is made — the catalogue's ``error.<code>``, then the reason in the same
    language: a :class:`~..messages.Problem` (a bad code, deal, rule set, move…), or the request's
    validation errors — or, for a move the engine refuses, the :class:`~..reasons.Refusal` itself."""

    def __init__(self, status: int, code: str, reason: Reason = None, details: dict[str, Any] | None = None) -> None:
        super().__init__(code)
        self.status = status
        self.code = code
        self.reason = reason
        self.details = dict(details or {})
        if isinstance(reason, Problem):  # what went wrong, for a program: the reason's code and facts
            self.details.setdefault("reason", reason.key)
            self.details.setdefault(
                "facts",
                {
                    k: v if isinstance(v, (int, float, str, bool)) or v is None else str(v)
                    for k, v in reason.details.items()
                },
            )
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

    def response(self, lang: str) -> JSONResponse:
        """The JSON answer ``{code, message, details}``."""
        return JSONResponse(
            {"code": self.code, "message": self.message(lang), "details": self.details}, status_code=self.status
        )


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


def invalid_part(lang: str, error: dict[str, Any]) -> str:
    """One validation error in words: where in the request, and what is wrong there."""
    kind = error["type"] if error["type"] in VALIDATION_TYPES else "other"
    context = {key: value for key, value in error.get("ctx", {}).items() if isinstance(value, (int, float, str))}
    if "expected" in context:
        context["expected"] = str(context["expected"]).replace("'", "")
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


# --- the exception handlers -----------------------------------------------------------------------


async def api_error(request: Request, exc: ApiError) -> JSONResponse:
    return exc.response(lang_of(request))


async def store_down(request: Request, exc: StoreError) -> JSONResponse:
    DATABASE_ERRORS.labels("request").inc()
    return ApiError(503, "store-unavailable").response(lang_of(request))


async def internal(request: Request, exc: Exception) -> JSONResponse:
    """Any other failure: the generic 500 in the player's language, never the exception's text.
    Starlette answers this outside the middleware, so the security headers are put on here; it then
    re-raises the exception, and the server logs its traceback."""
    LOG.error("internal error answering %s %s: %s", request.method, request.url.path, type(exc).__name__)
    response = ApiError(500, "internal-error").response(lang_of(request))
    response.headers.update(SECURITY_HEADERS)
    return response


async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
    lang = lang_of(request)
    errors = [
        {"where": ".".join(str(p) for p in e.get("loc", ())), "type": e.get("type", ""), "ctx": e.get("ctx", {})}
        for e in exc.errors()
    ]
    code = "bad-json" if any(e["type"] == "json_invalid" for e in errors) else "bad-request"
    # each error for a program (where and its kind) and for a person (in the request's language)
    shown = [{"where": e["where"], "type": e["type"], "problem": invalid_part(lang, e)} for e in errors]
    return ApiError(422, code, errors, {"errors": shown}).response(lang)


async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
    if exc.status_code == 404 and request.method in SAFE_METHODS and not request.url.path.startswith(DATA_PATHS):
        return not_found_page(browser_lang(request))  # a page a person opened: the app's own page
    code = {404: "not-found", 405: "method-not-allowed"}.get(exc.status_code, "bad-request")
    return ApiError(exc.status_code, code).response(lang_of(request))


def install_error_handlers(app: FastAPI) -> None:
    """Answer every refusal and failure on ``app`` as above."""
    app.exception_handler(ApiError)(api_error)
    app.exception_handler(StoreError)(store_down)
    app.exception_handler(Exception)(internal)
    app.exception_handler(RequestValidationError)(invalid)
    app.exception_handler(StarletteHTTPException)(http_error)

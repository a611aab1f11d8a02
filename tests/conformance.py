"""Every answer checked against what ``/api/openapi.json`` declares for it (issue 38).

:func:`check` takes an answer as a client saw it — method, path, status, content type and body — finds
the operation the path is, the response its status falls under (``200``, else ``4XX``/``5XX``), and
validates the body against that response's JSON Schema, objects closed.  A path the API does not
describe (the page, its files, ``/healthz``) is not checked.  tests/conftest.py runs it on every answer
any test client receives; the browser tests run it on every API answer the page receives
(tests/web/browser.py); the offline engine's tests on the worker's answers.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from functools import cache
from typing import Any

from jsonschema_rs import Draft202012Validator  # schemathesis' own validator (Rust), installed with it

#: Whatever FastAPI app made the answer describes the same API: the description is made once.
_DOCUMENT: dict[str, Any] | None = None


def document() -> dict[str, Any]:
    """The API's OpenAPI description (of a fresh app: every app of this code declares the same)."""
    global _DOCUMENT
    if _DOCUMENT is None:
        from pyramid_solitaire.web.app import create_app  # asked for only by a test that met an answer

        _DOCUMENT = create_app().openapi()
    return _DOCUMENT


@cache
def _operations() -> list[tuple[re.Pattern[str], str, dict[str, Any]]]:
    found = []
    for template, operations in document()["paths"].items():
        pattern = re.compile("^" + re.sub(r"\{[^}]+\}", "[^/]+", template) + "$")
        for method, operation in operations.items():
            found.append((pattern, method.upper(), operation))
    return found


@cache
def _validator(ref: str) -> Draft202012Validator:
    return Draft202012Validator({"$ref": ref, "components": document()["components"]})


class NotConforming(AssertionError):
    """An answer that is not what the API declares."""


def check(method: str, path: str, status: int, content_type: str, body: bytes | str | Any) -> bool:
    """Raise :class:`NotConforming` unless the answer is one the API declares; False for a path the API
    does not describe (nothing to check), True once checked."""
    path = path.split("?")[0]
    operation = next((op for pattern, m, op in _operations() if m == method.upper() and pattern.match(path)), None)
    if operation is None:
        return False
    responses = operation["responses"]
    declared = responses.get(str(status)) or responses.get(f"{str(status)[0]}XX") or responses.get("default")
    where = f"{method.upper()} {path} → {status}"
    if declared is None:
        raise NotConforming(f"{where}: the API declares no such status ({', '.join(responses)})")
    media = content_type.split(";")[0].strip()
    content = declared.get("content", {})
    if media not in content:
        raise NotConforming(f"{where}: answered {media or 'no content type'}, declared {', '.join(content)}")
    schema = content[media].get("schema", {})
    if media != "application/json" or "$ref" not in schema:
        return True
    value = json.loads(body) if isinstance(body, (bytes, str)) else body
    errors = list(_validator(schema["$ref"]).iter_errors(value))
    if errors:
        shown = "; ".join(f"at {'/'.join(map(str, e.instance_path)) or '(top)'}: {e.message[:200]}" for e in errors[:5])
        raise NotConforming(f"{where}: not the declared {schema['$ref'].rsplit('/', 1)[-1]}: {shown}")
    return True


def checking(send: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap a test client's ``request`` so that every answer it receives is checked."""

    def request(self: Any, method: str, url: Any, *args: Any, **kwargs: Any) -> Any:
        response = send(self, method, url, *args, **kwargs)
        content_type = response.headers.get("content-type", "")
        check(method, response.request.url.path, response.status_code, content_type, response.content)
        return response

    return request


def checking_offline(handle: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap :meth:`.OfflineApi.handle` so that every answer the offline engine gives is checked too: the
    page draws both with the same code, so both must answer the declared types."""

    def checked(self: Any, method: str, path: str, query: Any, body: Any, lang: str) -> Any:
        handled = handle(self, method, path, query, body, lang)
        check(method, path, handled["status"], "application/json", handled["body"])
        return handled

    return checked

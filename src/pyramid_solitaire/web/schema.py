"""``/api/openapi.json`` declaring every answer truly: JSON Schemas made from the wire's typed dictionaries
(:mod:`.shapes`, :mod:`.answers`), put on each route with :func:`answers`.

The routes answer with :class:`.http.Answer` (JSON encoded straight from the dictionaries), so FastAPI
neither validates nor describes what they return; the routes say it instead, once, with the type the
code that builds the answer is checked against.  The schemas are made here from the types rather than by
pydantic because the wire types are the standard library's ``TypedDict`` (the offline engine has no
pydantic), which pydantic does not read on Python 3.11.  Every object is closed
(``additionalProperties: false``): a field the code adds or renames without its type fails the tests'
conformance check (tests/web/conformance.py), and the browser's types are generated from this schema
(``scripts/api_types.py``), so the page's type check fails too.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Callable
from typing import Final, Literal, NotRequired, Union, get_args, get_origin, is_typeddict

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi

from .answers import ErrorAnswer, ErrorDetails

#: A JSON Schema (a JSON object).
Schema = dict[str, object]
#: Wire types whose objects also take keys of their own beyond those declared, each a JSON value (why:
#: their docstrings): a refused move's facts, named by the move's own rules.
OPEN_ENDED: Final[frozenset[object]] = frozenset({ErrorDetails})
#: Where a route's answer types are kept until the schema is made (type name → type).
_DECLARED: dict[str, object] = {}
REF: Final = "#/components/schemas/"
JSON: Final = "application/json"


def schema_of(tp: object, defs: dict[str, Schema]) -> Schema:
    """The JSON Schema of a wire type; each typed dictionary it reaches is added to ``defs`` by name."""
    if tp is type(None) or tp is None:
        return {"type": "null"}
    if tp is bool:
        return {"type": "boolean"}
    if tp is int:
        return {"type": "integer"}
    if tp is float:
        return {"type": "number"}
    if tp is str:
        return {"type": "string"}
    if tp is object:
        return {}  # any JSON value
    if is_typeddict(tp):
        return _typed_dict(tp, defs)
    origin, args = get_origin(tp), get_args(tp)
    if origin is Literal:
        return {"enum": list(args)}
    if origin is NotRequired:
        return schema_of(args[0], defs)
    if origin in (Union, types.UnionType):
        return {"anyOf": [schema_of(arg, defs) for arg in args]}
    if origin is list:
        return {"type": "array", "items": schema_of(args[0], defs)}
    if origin is dict and args[0] is str:
        return {"type": "object", "additionalProperties": schema_of(args[1], defs)}
    raise TypeError(f"no JSON Schema for {tp!r}: write the wire's types with JSON's own types")


def _typed_dict(tp: object, defs: dict[str, Schema]) -> Schema:
    name = getattr(tp, "__name__", "")
    if name not in defs:
        defs[name] = {}  # a placeholder first: a type may reach itself
        hints = typing.get_type_hints(tp, include_extras=True)
        total = getattr(tp, "__total__", True)
        # On Python 3.11 a TypedDict written with postponed annotations does not see NotRequired itself;
        # the annotation still says it.
        required = [
            key
            for key, hint in hints.items()
            if get_origin(hint) is not NotRequired and (total or _own_required(tp, key))
        ]
        schema: Schema = {
            "title": name,
            "type": "object",
            "properties": {key: schema_of(hint, defs) for key, hint in hints.items()},
            "required": required,
            "additionalProperties": {} if tp in OPEN_ENDED else False,
        }
        doc = (getattr(tp, "__doc__", None) or "").strip()
        if doc and not doc.startswith(f"{name}("):  # the functional form's docstring is its signature
            schema["description"] = " ".join(doc.split())
        defs[name] = schema
    return {"$ref": REF + name}


def _own_required(tp: object, key: str) -> bool:
    return key in getattr(tp, "__required_keys__", frozenset())


def answers(tp: object, *statuses: int) -> dict[int | str, dict[str, object]]:
    """The ``responses`` of a route whose answer (each of ``statuses``, 200 if none is given) is ``tp``,
    and whose refusals are :class:`.answers.ErrorAnswer`: pass to the route's decorator."""
    name = getattr(tp, "__name__", "")
    _DECLARED[name] = tp
    description = (getattr(tp, "__doc__", "") or name).strip().split("\n")[0]
    return {
        **{status: {"description": description, "content": _json(name)} for status in statuses or (200,)},
        **REFUSALS,
    }


def _json(name: str) -> dict[str, object]:
    return {JSON: {"schema": {"$ref": REF + name}}}


#: Every route's refusals and failures, one shape (replacing FastAPI's own ``HTTPValidationError``).
REFUSALS: Final[dict[int | str, dict[str, object]]] = {
    "4XX": {"description": "Refused: the request is wrong, or not allowed now", "content": _json("ErrorAnswer")},
    "5XX": {"description": "A failure of the server, or its database away", "content": _json("ErrorAnswer")},
}


def install_openapi(app: FastAPI) -> Callable[[], dict[str, object]]:
    """Make ``app``'s OpenAPI description declare the wire's schemas (once, when first asked for)."""

    def openapi() -> dict[str, object]:
        if app.openapi_schema is None:
            document = get_openapi(title=app.title, version=app.version, description=app.description, routes=app.routes)
            defs: dict[str, Schema] = {}
            for tp in (ErrorAnswer, *_DECLARED.values()):
                schema_of(tp, defs)
            components = typing.cast(dict[str, dict[str, object]], document.setdefault("components", {}))
            schemas = components.setdefault("schemas", {})
            schemas.pop("HTTPValidationError", None)
            schemas.pop("ValidationError", None)
            schemas.update(defs)
            _only_refs(document)
            app.openapi_schema = document
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]  # FastAPI's documented way to customise it
    return openapi


def _only_refs(document: dict[str, object]) -> None:
    """FastAPI puts its own guess (``"type": "string"`` for an answer it does not encode) beside a
    declared ``$ref``: keep the declaration alone."""
    paths = typing.cast(dict[str, dict[str, dict[str, object]]], document.get("paths", {}))
    for operations in paths.values():
        for operation in operations.values():
            responses = typing.cast(dict[str, dict[str, object]], operation.get("responses", {}))
            for response in responses.values():
                content = typing.cast(dict[str, dict[str, dict[str, object]]], response.get("content", {}))
                for media in content.values():
                    schema = media.get("schema", {})
                    if "$ref" in schema:
                        media["schema"] = {"$ref": schema["$ref"]}

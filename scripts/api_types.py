"""Write the API's answer types for the browser's type check: every schema of ``/api/openapi.json`` as a
TypeScript declaration in the global namespace ``Wire`` (``Wire.GameAnswer``…), which the page's modules
name in their JSDoc.

scripts/check runs this before ``tsc``, into ``.cache/types/wire.d.ts`` (never committed: it is made from
the code each time, so it cannot be stale).  The schemas are the Python wire types' own
(src/pyramid_solitaire/web/schema.py), so a field renamed in Python fails the page's type check where the
page reads the old name.

    python scripts/api_types.py [OUT]
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

from pyramid_solitaire.web.app import create_app

IDENTIFIER = re.compile(r"^[A-Za-z_$][A-Za-z0-9_$]*$")


def ts_type(schema: dict[str, Any], indent: str) -> str:
    """The TypeScript type of a JSON Schema."""
    if "$ref" in schema:
        return str(schema["$ref"]).rsplit("/", 1)[-1]
    if "enum" in schema:
        return " | ".join(json.dumps(value) for value in schema["enum"])
    if "const" in schema:
        return json.dumps(schema["const"])
    if "anyOf" in schema or "oneOf" in schema:
        return " | ".join(ts_type(part, indent) for part in schema.get("anyOf") or schema["oneOf"])
    kind = schema.get("type")
    if isinstance(kind, list):
        return " | ".join(ts_type({**schema, "type": one}, indent) for one in kind)
    if kind == "array":
        item = ts_type(schema.get("items", {}), indent)
        return f"({item})[]" if "|" in item else f"{item}[]"
    if kind == "object" or "properties" in schema:
        return ts_object(schema, indent)
    return {"string": "string", "integer": "number", "number": "number", "boolean": "boolean", "null": "null"}.get(
        str(kind), "unknown"
    )


def ts_object(schema: dict[str, Any], indent: str) -> str:
    inner = indent + "  "
    required = set(schema.get("required", []))
    lines = []
    for key, part in schema.get("properties", {}).items():
        name = key if IDENTIFIER.match(key) else json.dumps(key)
        optional = "" if key in required else "?"
        lines.append(f"{inner}{name}{optional}: {ts_type(part, inner)};")
    extra = schema.get("additionalProperties", "properties" not in schema)
    if extra is not False:
        value = "unknown" if extra is True or extra == {} else ts_type(extra, inner)
        lines.append(f"{inner}[key: string]: {value};")
    return "{\n" + "\n".join(lines) + f"\n{indent}}}" if lines else "Record<string, never>"


def declarations(document: dict[str, Any]) -> str:
    out = [
        "// The API's answer types, made by scripts/api_types.py from /api/openapi.json: do not edit.",
        "declare namespace Wire {",
    ]
    for name, schema in sorted(document["components"]["schemas"].items()):
        description = schema.get("description")
        if description:
            out.append(f"  /** {' '.join(str(description).split()).replace('*/', '* /')} */")
        out.append(f"  type {name} = {ts_type(schema, '  ')};")
    out.append("}")
    return "\n".join(out) + "\n"


def main() -> int:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else ".cache/types/wire.d.ts")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(declarations(create_app().openapi()), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

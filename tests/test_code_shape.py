"""The shape issue 38 gave the code stays: modules a reader takes in one sitting, and types that say
what flows through them.

* No Python or JavaScript module in ``src`` is over MAX_LINES lines (split one along its own sections and
  say in docs/architecture.md what each part owns).
* ``typing.Any`` is named on at most MAX_ANY lines of ``src`` (the issue's own count: ``grep -rnw Any``),
  and every use that is not its import has a comment just above it, or on its line, saying why no
  narrower type will do.
"""

from __future__ import annotations

import re
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
MAX_LINES = 500
MAX_ANY = 25
#: how many lines above a use of Any its comment may start
COMMENT_REACH = 3
ANY = re.compile(r"\bAny\b")


def _sources(*suffixes: str) -> list[Path]:
    return sorted(path for suffix in suffixes for path in SRC.rglob(f"*{suffix}") if ".cache" not in path.parts)


def test_no_module_is_longer_than_a_sitting() -> None:
    long = {
        str(path.relative_to(SRC)): count
        for path in _sources(".py", ".js")
        if (count := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert not long, f"modules over {MAX_LINES} lines: {long}"


def test_any_is_rare_and_each_use_says_why() -> None:
    named: list[str] = []
    unexplained: list[str] = []
    for path in _sources(".py"):
        lines = path.read_text(encoding="utf-8").splitlines()
        for number, line in enumerate(lines):
            if not ANY.search(line):
                continue
            where = f"{path.relative_to(SRC)}:{number + 1}"
            named.append(where)
            if line.lstrip().startswith(("from typing import", "import typing", "#")):
                continue
            above = lines[max(0, number - COMMENT_REACH) : number + 1]
            if not any("#" in before for before in above):
                unexplained.append(where)
    assert len(named) <= MAX_ANY, f"Any on {len(named)} lines (at most {MAX_ANY}): {named}"
    assert not unexplained, f"Any with no comment saying why (its line or the {COMMENT_REACH} above): {unexplained}"

"""The layers docs/architecture.md draws are the layers the imports make.

The document's ``layers`` block lists every top-level module and package of ``pyramid_solitaire``, lowest
layer first.  Read from the source (every import: at the top, inside functions, and those only for the
type checker), each module may import only from lower layers, or from its own package; and no modules
import each other round in a circle.  A new module the block does not place, or an import that goes up a
layer, fails here: the picture and the code cannot drift apart.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "pyramid_solitaire"
DOC = ROOT / "docs" / "architecture.md"
#: Circles the code still has, each as its modules: none (issue 38 broke the last; the test fails when a
#: new one comes, and when one listed here goes, so that this list is kept true).
KNOWN_CIRCLES: set[frozenset[str]] = set()


def layers() -> dict[str, int]:
    """Each unit (top-level module or package) and its layer, from the document's ``layers`` block."""
    block = re.search(r"```layers\n(.*?)```", DOC.read_text(encoding="utf-8"), re.DOTALL)
    assert block is not None, "docs/architecture.md has no ```layers block"
    placed: dict[str, int] = {}
    for number, line in enumerate(block.group(1).splitlines()):
        for unit in line.split(":", 1)[1].split():
            assert unit not in placed, f"{unit} is placed twice"
            placed[unit] = number
    return placed


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(path): path for path in PACKAGE.rglob("*.py") if module_name(path)}


def imports(name: str, path: Path, known: set[str]) -> set[str]:
    """The package's modules that ``name`` imports, anywhere in its source."""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.ImportFrom):
            continue
        if node.level:
            base = package[: len(package) - node.level + 1]
        elif node.module and node.module.split(".")[0] == "pyramid_solitaire":
            base = []
        else:
            continue
        module = (node.module or "").removeprefix("pyramid_solitaire").lstrip(".") if not node.level else node.module
        stem = base + (module.split(".") if module else [])
        for alias in node.names:
            for candidate in (".".join([*stem, alias.name]), ".".join(stem)):
                if candidate in known:
                    found.add(candidate)
                    break
    # a module's own packages are imported before it whatever it says (``from . import _astar`` names a
    # compiled module, and runs only the package's __init__ that importing the module ran already)
    return {other for other in found if other != name and not name.startswith(other + ".")}


def graph() -> dict[str, set[str]]:
    found = modules()
    return {name: imports(name, path, set(found)) for name, path in found.items()}


def circles(edges: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[frozenset[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in edges[node]:
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.add(member)
                if member == node:
                    break
            if len(group) > 1:
                out.append(frozenset(group))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return out


def test_every_module_has_a_layer_and_imports_only_downward() -> None:
    placed = layers()
    edges = graph()
    units = {name.split(".")[0] for name in edges}
    assert units == set(placed), (
        f"not in the picture: {sorted(units - set(placed))}; gone: {sorted(set(placed) - units)}"
    )
    unit = {name: name.split(".")[0] for name in edges}
    upward = [
        f"{name} (layer {placed[unit[name]]}) imports {other} (layer {placed[unit[other]]})"
        for name, targets in sorted(edges.items())
        for other in sorted(targets)
        if unit[name] != unit[other] and placed[unit[other]] >= placed[unit[name]]
    ]
    assert upward == []


def test_no_modules_import_each_other_in_a_circle() -> None:
    assert set(circles(graph())) == KNOWN_CIRCLES


def test_the_reader_finds_imports_of_every_form(tmp_path: Path) -> None:
    """The graph this test reads is whole: a relative import, a deeper one, an import inside a function
    and one only for the type checker are all edges."""
    edges = graph()
    assert "table" in edges["game"] and "rules" in edges["game"]  # from .table import …
    assert "packed" in edges["solver.search"]  # from ..packed import …
    source = tmp_path / "space.py"
    source.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    from .relaxed import RelaxedGame\n"
        "def later() -> None:\n"
        "    from .steps import StepsBound\n",
        encoding="utf-8",
    )
    known = {"solver.relaxed", "solver.steps", "solver.cells"}
    assert imports("solver.space", source, known) == {"solver.relaxed", "solver.steps"}

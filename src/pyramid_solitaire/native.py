"""The engine's and solver's hot modules compiled to C with mypyc, and a guard that never lets a stale
build run.

The modules of :data:`MODULES` are ordinary typed Python, and they stay the only source: mypyc (part
of mypy) translates them to C extension modules that sit beside the ``.py`` files
(``table.cpython-311-x86_64-linux-gnu.so``).  The compiled solver searches the same positions in the
same order, 3-5 times faster (docs/performance.md); the study of issue 6 and the shortest solutions of
issue 3 need that.

Python imports an extension module in preference to a ``.py`` file of the same name, so a build left
over from older sources would silently run old code.  The build therefore writes a stamp,
``_native.json``: the SHA-256 of each source it compiled and the interpreter it compiled for.  When
the package is imported, :func:`guard` compares the stamp with the sources on disk; if any differs,
if the stamp is missing, or if ``PYRAMID_SOLITAIRE_PURE=1`` is set, every module of the group is
imported from its ``.py`` file instead (all or none: compiled modules call each other directly and
cannot be mixed with pure ones).  So an edited source is always what runs — slower until the next
build, never wrong.

``python -m pyramid_solitaire.build_native`` builds when the stamp is stale (``--force`` always,
``--status`` only reports); ``scripts/_venv.sh`` runs it after installing.  Without a C compiler the build fails,
says so in one line, and the package runs as pure Python.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
import sysconfig
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

#: The compiled group, as module names.  Only modules whose speed matters and that other modules do
#: not subclass or monkeypatch; each is imported only after ``pyramid_solitaire/__init__`` ran guard().
MODULES = (
    "pyramid_solitaire.layout",
    "pyramid_solitaire.packed",
    "pyramid_solitaire.board",
    "pyramid_solitaire.table",
    "pyramid_solitaire.analysis",
    "pyramid_solitaire.solver.packing",
    "pyramid_solitaire.solver.space",
    "pyramid_solitaire.solver.relaxed",
    "pyramid_solitaire.solver.counter",
    "pyramid_solitaire.solver.depth",
    "pyramid_solitaire.solver.search",
    "pyramid_solitaire.solver.needs",
    "pyramid_solitaire.solver.sweeps",
    "pyramid_solitaire.solver.steps",
    "pyramid_solitaire.solver.cells",
    "pyramid_solitaire.solver.difficulty",
)
#: Hand-written C extension modules built with the group (their source is ``<module>.c``), used only
#: when the group runs compiled: each has a pure-Python counterpart that gives the same results.
C_MODULES = ("pyramid_solitaire.solver._astar", "pyramid_solitaire.solver._astar_wide")
#: The shared library of the group is ``<GROUP>__mypyc...so`` inside the package.
GROUP = "pyramid_solitaire._native"
PURE_ENV = "PYRAMID_SOLITAIRE_PURE"

PACKAGE = Path(__file__).resolve().parent
SRC = PACKAGE.parent
STAMP = PACKAGE / "_native.json"

_state = "pure: not checked yet"


def source(module: str) -> Path:
    """The ``.py`` file of one module of the group (the ``.c`` file of one of :data:`C_MODULES`)."""
    return SRC.joinpath(*module.split(".")).with_suffix(".c" if module in C_MODULES else ".py")


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _interpreter() -> str:
    return f"{sys.implementation.cache_tag} {sysconfig.get_config_var('EXT_SUFFIX')}"


def stale_reason() -> str | None:
    """Why the compiled modules must not run (None: the build matches the sources on disk)."""
    try:
        stamp = json.loads(STAMP.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return "not built"
    except (OSError, ValueError) as exc:
        return f"unreadable stamp {STAMP.name}: {exc}"
    if not isinstance(stamp, dict) or stamp.get("interpreter") != _interpreter():
        return "built for another interpreter"
    sources = stamp.get("sources")
    if not isinstance(sources, dict):
        return f"unreadable stamp {STAMP.name}"
    for module in MODULES + C_MODULES:
        try:
            if sources.get(module) != _digest(source(module)):
                return f"{module} changed since the build"
        except OSError:
            return f"{module} has no source"
        if not list(source(module).parent.glob(source(module).stem + ".*" + _ext_tail())):
            return f"{module} is not compiled"
    return None


def _ext_tail() -> str:
    return str(sysconfig.get_config_var("EXT_SUFFIX") or ".so").rsplit(".", 1)[-1]


class _SourceFirst(importlib.abc.MetaPathFinder):
    """Imports the group's modules from their ``.py`` files, passing over any compiled file."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname in C_MODULES:  # no pure-Python file: the importer falls back to the Python code
            raise ModuleNotFoundError(f"{fullname} runs only with the compiled group", name=fullname)
        if fullname not in MODULES:
            return None
        return importlib.util.spec_from_file_location(fullname, source(fullname))


def guard() -> None:
    """Decide, once, whether the group runs compiled; if not, make sure the ``.py`` files are imported.

    Must run before any module of the group is imported: it runs when this module is imported, which
    ``pyramid_solitaire/__init__`` does first."""
    global _state
    if any(isinstance(finder, _SourceFirst) for finder in sys.meta_path) or _state.startswith("compiled"):
        return
    reason = "PYRAMID_SOLITAIRE_PURE is set" if os.environ.get(PURE_ENV) == "1" else stale_reason()
    if reason is None:
        _state = "compiled (mypyc)"
        return
    _state = f"pure Python: {reason}"
    sys.meta_path.insert(0, _SourceFirst())


def state() -> str:
    """``compiled (mypyc)`` or ``pure Python: <why>``, for --version, benchmarks and bug reports."""
    return _state


def compiled_now() -> bool:
    """True if the group's modules imported so far are the compiled ones."""
    loaded = [sys.modules[name] for name in MODULES if name in sys.modules]
    return bool(loaded) and all(str(getattr(m, "__file__", "")).endswith(_ext_tail()) for m in loaded)


guard()  # on import: ``pyramid_solitaire/__init__`` imports this module before any other

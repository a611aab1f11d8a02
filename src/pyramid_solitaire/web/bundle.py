"""The offline bundle: what a browser keeps to play without a network (docs/web.md, "Offline").

Two parts, both served from the app's own origin:

* **Pyodide** — CPython compiled to WebAssembly, from the ``pyodide`` package of the npm registry, which
  the set-up scripts fetch with npm into ``.cache/pyodide`` (pinned there; never committed).  Served at
  ``/pyodide/<version>/<file>``: an address that names its version is cached for a year.  Without it (a
  machine where npm could not fetch it) there is no offline play and ``/offline/files.json`` says 404;
  the game online is unchanged.
* **The engine** — this package's own pure-Python modules, its message catalogues and its deal data,
  zipped when first asked for (``/offline/<hash>/engine.zip``): the very files the server runs, so the
  browser's worker plays by the same rules.  The web edge, the store, the studies and the command line are
  left out; :mod:`.offline` is the worker's door in.

``/offline/files.json`` lists every address the worker needs and their sizes, so the page can fetch
them into the service worker's cache after the first game is on screen (docs/performance.md counts them).
"""

from __future__ import annotations

import gzip
import hashlib
import importlib.util
import io
import json
import os
import threading
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from .assets import Asset

#: Where the set-up scripts put the npm package (``scripts/_offline.sh``); ``PYRAMID_PYODIDE_DIR`` overrides.
PYODIDE_VARIABLE: Final = "PYRAMID_PYODIDE_DIR"
PACKAGE: Final = Path(__file__).resolve().parent.parent
DEFAULT_PYODIDE: Final = PACKAGE.parent.parent / ".cache" / "pyodide" / "node_modules" / "pyodide"
#: The files of the npm package that loading Pyodide reads (its console pages, maps and types are not served).
PYODIDE_FILES: Final = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
PYODIDE_TYPES: Final = {
    ".mjs": "application/javascript; charset=utf-8",
    ".wasm": "application/wasm",
    ".zip": "application/zip",
    ".json": "application/json",
}
#: Parts of the package the browser's engine never imports: folders, and top-level modules by name.
LEFT_OUT: Final = ("store/", "study/", "winnability/", "web/static/", "web/routes/")
LEFT_OUT_MODULES: Final = frozenset(
    {"cli", "cli_common", "cli_stats", "cli_study", "terminal", "build_native", "__main__"}
)
#: Of the web edge, the modules the offline engine imports (the rest need FastAPI or a database).
WEB_MODULES: Final = (
    "web/__init__.py",
    "web/offline.py",
    "web/answering.py",
    "web/apierror.py",
    "web/play.py",
    "web/shapes.py",
    "web/answers.py",
    "web/taps.py",
    "web/watch.py",
)
#: Time zones the daily deal may turn in: Pyodide's Python has no zone database, so the engine carries
#: the ``tzdata`` package's files for these (Japan's day by default).
ZONES: Final = ("Asia/Tokyo", "UTC", "Etc/UTC")
IMMUTABLE: Final = "public, max-age=31536000, immutable"


def pyodide_dir() -> Path | None:
    """The unpacked npm package, or None when it is not on this machine."""
    path = Path(os.environ.get(PYODIDE_VARIABLE) or DEFAULT_PYODIDE)
    return path if all((path / name).is_file() for name in PYODIDE_FILES) else None


def _engine_files() -> list[tuple[str, bytes]]:
    files = []
    for path in sorted(PACKAGE.rglob("*")):
        relative = path.relative_to(PACKAGE).as_posix()
        if not path.is_file() or "__pycache__" in relative or relative.startswith(LEFT_OUT):
            continue
        if "/" not in relative and path.stem in LEFT_OUT_MODULES:
            continue
        if relative.startswith("web/") and relative not in WEB_MODULES:
            continue
        if path.suffix in (".py", ".json"):
            files.append((f"pyramid_solitaire/{relative}", path.read_bytes()))
    spec = importlib.util.find_spec("tzdata")  # the zone database as a package, read where the system has none
    if spec is not None and spec.origin is not None:
        root = Path(spec.origin).parent
        files.append(("tzdata/__init__.py", (root / "__init__.py").read_bytes()))
        for zone in ZONES:
            parts = zone.split("/")
            for depth in range(len(parts)):  # each folder of the resource path is a package
                folder = "/".join(["zoneinfo", *parts[:depth]])
                init = root / folder / "__init__.py"
                if init.is_file():
                    files.append((f"tzdata/{folder}/__init__.py", init.read_bytes()))
            files.append((f"tzdata/zoneinfo/{zone}", (root / "zoneinfo" / zone).read_bytes()))
    return sorted(dict(files).items())


def engine_zip() -> bytes:
    """The engine's modules, catalogues and data as one zip (the same bytes for the same sources)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for name, data in _engine_files():
            info = zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, data)
    return buffer.getvalue()


@dataclass
class Bundle:
    """The offline bundle's files, read and compressed once, when first asked for."""

    pyodide: Path | None
    version: str = ""
    _files: dict[str, Asset] | None = None
    _engine: Asset | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @classmethod
    def find(cls) -> Bundle:
        path = pyodide_dir()
        version = ""
        if path is not None:
            version = str(json.loads((path / "package.json").read_text(encoding="utf-8")).get("version", ""))
        return cls(path, version)

    @property
    def available(self) -> bool:
        return self.pyodide is not None and bool(self.version)

    def engine(self) -> Asset:
        with self._lock:
            if self._engine is None:
                self._engine = Asset.of(engine_zip(), "application/zip")
            return self._engine

    def engine_hash(self) -> str:
        return self.engine().etag.strip('"')

    def pyodide_file(self, version: str, name: str) -> Asset | None:
        """One file of Pyodide, at its versioned address (None for another version or file)."""
        if self.pyodide is None or version != self.version or name not in PYODIDE_FILES:
            return None
        with self._lock:
            if self._files is None:
                self._files = {}
            asset = self._files.get(name)
            if asset is None:
                body = (self.pyodide / name).read_bytes()
                media = PYODIDE_TYPES[Path(name).suffix]
                # the wasm and the scripts shrink by two thirds; the stdlib zip is compressed already
                gzipped = None if name.endswith(".zip") else gzip.compress(body, compresslevel=6, mtime=0)
                asset = Asset(body, gzipped, media, f'"{hashlib.sha256(body).hexdigest()[:20]}"')
                self._files[name] = asset
            return asset

    def listing(self) -> dict[str, object]:
        """What ``/offline/files.json`` says: the addresses the worker loads, and their sizes."""
        assert self.pyodide is not None
        base = f"/pyodide/{self.version}/"
        engine = f"/offline/{self.engine_hash()}/engine.zip"
        sizes = {base + name: (self.pyodide / name).stat().st_size for name in PYODIDE_FILES}
        sizes[engine] = len(self.engine().body)
        return {
            "pyodide": base,
            "engine": engine,
            "worker": "/static/js/engine-worker.js",
            "files": list(sizes),
            "bytes": sum(sizes.values()),
        }

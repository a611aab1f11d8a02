"""Build the compiled group of :mod:`pyramid_solitaire.native` (see there): ``python -m
pyramid_solitaire.build_native [--force | --status] [--log FILE]``."""

from __future__ import annotations

import argparse
import importlib.util
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from .native import (
    C_MODULES,
    GROUP,
    MODULES,
    PACKAGE,
    SRC,
    STAMP,
    _digest,
    _ext_tail,
    _interpreter,
    source,
    stale_reason,
)

# --- --------------------------------------------------------------------------------------------

_SETUP = """
from setuptools import Extension, setup
from mypyc.build import mypycify
flags = ["-O2", "-Werror=implicit-function-declaration"]  # a missing declaration fails the build, not the import
extensions = [Extension(name, [path], extra_compile_args=flags) for name, path in {c_files!r}]
setup(
    name="pyramid-solitaire-native",
    ext_modules=mypycify({files!r}, opt_level="3", group_name={group!r}) + extensions,
)
"""


def _clean() -> None:
    for module in MODULES + C_MODULES:
        for built in source(module).parent.glob(source(module).stem + ".*" + _ext_tail()):
            built.unlink()
    for built in PACKAGE.glob("_native__mypyc.*" + _ext_tail()):
        built.unlink()
    STAMP.unlink(missing_ok=True)


def build(log: Path | None = None) -> None:
    """Compile the group in place and write the stamp; raise RuntimeError (naming the log) on failure.

    The stamp is written last, from the sources as they were read for the build, so a build that
    fails or is interrupted leaves no stamp and the package stays pure Python."""
    for tool in ("mypyc", "setuptools"):
        if importlib.util.find_spec(tool) is None:
            raise RuntimeError(f"{tool} is not installed")
    digests = {module: _digest(source(module)) for module in MODULES + C_MODULES}
    _clean()
    files = [str(source(module).relative_to(SRC)) for module in MODULES]
    c_files = [(module, str(source(module).relative_to(SRC))) for module in C_MODULES]
    with tempfile.TemporaryDirectory(prefix="pyramid-native-") as temp:
        setup = Path(temp) / "setup.py"
        setup.write_text(_SETUP.format(files=files, c_files=c_files, group=GROUP), encoding="utf-8")
        command = [sys.executable, str(setup), "build_ext", "--inplace", "--build-temp", str(Path(temp) / "t")]
        done = subprocess.run(command, cwd=SRC, capture_output=True, text=True, check=False)
        if log is not None:
            log.parent.mkdir(parents=True, exist_ok=True)
            log.write_text(done.stdout + done.stderr, encoding="utf-8")
        shutil.rmtree(SRC / "build", ignore_errors=True)  # mypyc's generated C, not needed once built
        if done.returncode != 0:
            _clean()
            where = f"see {log}" if log is not None else (done.stderr.strip().splitlines() or ["no output"])[-1]
            raise RuntimeError(f"mypyc could not compile the solver ({where})")
    if any(_digest(source(module)) != digest for module, digest in digests.items()):
        _clean()
        raise RuntimeError("a source changed during the build; run it again")
    STAMP.write_text(json.dumps({"interpreter": _interpreter(), "sources": digests}, indent=1) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m pyramid_solitaire.build_native",
        description="Compile the engine's and solver's hot modules with mypyc.",
    )
    parser.add_argument("--force", action="store_true", help="build even when the stamp is up to date")
    parser.add_argument("--status", action="store_true", help="only say whether the build is up to date")
    parser.add_argument("--log", type=Path, help="write the compiler's output here")
    options = parser.parse_args(argv)
    reason = stale_reason()
    if options.status:
        print("up to date" if reason is None else f"stale: {reason}")
        return 0 if reason is None else 1
    if reason is None and not options.force:
        return 0
    try:
        build(options.log)
    except RuntimeError as exc:
        print(f"pyramid-solitaire: {exc}; running as pure Python (slower)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

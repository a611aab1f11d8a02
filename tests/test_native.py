"""The mypyc-compiled engine and solver (src/pyramid_solitaire/native.py): they answer exactly as the
pure Python sources do, a stale build is never run, and a failed build leaves a working pure package.

scripts/test builds the compiled modules before the tests run; these tests need that build."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pyramid_solitaire import Deal, find_rules, native
from pyramid_solitaire.solver import solve

SRC = Path(native.__file__).resolve().parents[1]

#: Solves a few deals of each preset and prints what a caller sees, as JSON (run in both builds).
PROBE = """
import json, sys
from pyramid_solitaire import Deal, find_rules, native
from pyramid_solitaire.solver import solve
from pyramid_solitaire.solver.difficulty import rate
out = {"state": native.state(), "compiled": native.compiled_now(), "results": []}
for rules, numbers, shortest in json.loads(sys.argv[1]):
    for number in numbers:
        deal = Deal.from_number(number, find_rules(rules))
        result = solve(deal, shortest=shortest, time_limit=120)
        out["results"].append([deal.code, result.winnable, [str(m) for m in result.solution or []],
                               result.max_pyramid_removed, result.nodes,
                               rate(deal).wins if result.winnable else None])
print(json.dumps(out))
"""

CASES = [
    ["classic", list(range(12)), False],
    ["pyramide", list(range(6)), False],
    ["thirteen(jokers=2,triples=true)", list(range(4)), False],
    ["msc", list(range(5)), True],
    ["relaxed", list(range(4)), False],
    ["traditional", list(range(3)), False],
]


def run_probe(env: dict[str, str], path: Path | None = None) -> dict[str, object]:
    environment = {**os.environ, **env}
    if path is not None:
        environment["PYTHONPATH"] = str(path)
    done = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(CASES)],
        capture_output=True,
        text=True,
        env=environment,
        check=False,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    answer: dict[str, object] = json.loads(done.stdout)
    return answer


@pytest.fixture(scope="module")
def built() -> None:
    reason = native.stale_reason()
    assert reason is None, (
        f"the compiled build is stale ({reason}): run scripts/test or python -m pyramid_solitaire.build_native"
    )


def test_this_test_run_uses_the_compiled_engine_and_solver(built: None) -> None:
    deal = Deal.from_number(3, find_rules("classic"))
    solve(deal)
    assert native.state() == "compiled (mypyc)"
    assert native.compiled_now()
    # the shortest search's C loop is built with the group and imports (a failed import would
    # quietly leave the Python loop running)
    from pyramid_solitaire.solver import search

    assert search._C_SHORTEST is not None
    assert search._C_SHORTEST_CELLS is not None and search._C_VERDICT_CELLS is not None  # the wide build


def test_compiled_and_pure_python_find_the_same_verdicts_lines_nodes_and_ratings(built: None) -> None:
    compiled = run_probe({})
    pure = run_probe({native.PURE_ENV: "1"})
    assert compiled["compiled"] is True and pure["compiled"] is False
    assert pure["state"] == "pure Python: PYRAMID_SOLITAIRE_PURE is set"
    assert compiled["results"] == pure["results"]
    assert len(compiled["results"]) == sum(len(numbers) for _, numbers, _ in CASES)  # type: ignore[arg-type]
    won = [row for row in compiled["results"] if row[1]]  # type: ignore[union-attr]
    assert won and all(row[2] for row in won)  # the comparison covers real solution lines


def copy_package(tmp_path: Path) -> Path:
    target = tmp_path / "src"
    shutil.copytree(
        SRC / "pyramid_solitaire", target / "pyramid_solitaire", ignore=shutil.ignore_patterns("__pycache__")
    )
    return target


def import_state(path: Path) -> tuple[str, str]:
    code = (
        "from pyramid_solitaire import native; import pyramid_solitaire.table as t; "
        "print(native.state()); print(t.__file__)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": str(path)},
    )
    state, file = done.stdout.splitlines()
    return state, file


def test_an_edited_source_runs_as_python_until_it_is_built_again(built: None, tmp_path: Path) -> None:
    copy = copy_package(tmp_path)
    state, file = import_state(copy)
    assert state == "compiled (mypyc)" and str(copy) in file  # the copy itself runs compiled
    table = copy / "pyramid_solitaire" / "table.py"
    table.write_text(table.read_text(encoding="utf-8") + "\nEDITED = True\n", encoding="utf-8")
    state, file = import_state(copy)
    assert state == "pure Python: pyramid_solitaire.table changed since the build"
    assert file == str(table)


def test_a_build_without_a_c_compiler_says_so_and_leaves_a_pure_package(built: None, tmp_path: Path) -> None:
    copy = copy_package(tmp_path)
    done = subprocess.run(
        [sys.executable, "-m", "pyramid_solitaire.build_native", "--force"],
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
        env={**os.environ, "PYTHONPATH": str(copy), "CC": "/bin/false"},
    )
    assert done.returncode == 1
    assert done.stderr.startswith("pyramid-solitaire: mypyc could not compile the solver")
    assert done.stderr.strip().endswith("running as pure Python (slower)")
    assert not list(copy.rglob("*.so")) and not (copy / "pyramid_solitaire" / "_native.json").exists()
    state, file = import_state(copy)
    assert state == "pure Python: not built" and file.endswith("table.py")

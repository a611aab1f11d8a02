"""The deal codes the README and docs show: a code whose letter says verified (E or N) is one the
solver verifies, except the two the docs name as false claims — and those are indeed not winnable, so
what the docs say of them is true as well."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pyramid_solitaire.catalog import earned
from pyramid_solitaire.deal import Deal

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
CODE = re.compile(r"\b[A-Z]{2}[0-9][A-Z0-9]*-[EN]-[A-Z0-9]{7,}\b")

#: Codes the docs show to explain that a letter is a claim, not a fact (docs/deals.md).
FALSE_CLAIMS = {"CL1-E-AAAAAAA", "PY1-N-AAAAAAS"}


def _codes() -> list[str]:
    return sorted({code for page in PAGES for code in CODE.findall(page.read_text(encoding="utf-8"))})


def test_the_docs_show_verified_codes() -> None:
    assert len(_codes()) >= 5  # the pattern finds the docs' codes at all


@pytest.mark.parametrize("code", _codes())
def test_a_code_the_docs_show_is_what_its_letter_says(code: str) -> None:
    deal = Deal.from_code(code)
    if code in FALSE_CLAIMS:
        assert earned(deal).difficulty == "R", f"{code} is winnable: the docs call it a false claim"
    else:
        assert earned(deal) == deal, f"{code} in the docs is labelled verified but the solver disagrees"

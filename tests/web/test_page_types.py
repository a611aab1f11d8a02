"""The element types the page's type check knows by id (types/page.d.ts) are the page's own: every element
of index.html with an id and an interface of its own (a dialog, a button, a form control, a link) is
listed there with that interface, and nothing else is — so the map cannot drift from the page."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
INDEX = ROOT / "src" / "pyramid_solitaire" / "web" / "static" / "index.html"
TYPES = ROOT / "types" / "page.d.ts"
#: The tags whose DOM interface has members the page's modules use beyond HTMLElement's.
INTERFACES = {
    "dialog": "HTMLDialogElement",
    "button": "HTMLButtonElement",
    "input": "HTMLInputElement",
    "select": "HTMLSelectElement",
    "textarea": "HTMLTextAreaElement",
    "form": "HTMLFormElement",
    "fieldset": "HTMLFieldSetElement",
    "details": "HTMLDetailsElement",
    "a": "HTMLAnchorElement",
    "link": "HTMLLinkElement",
}


class Elements(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.found: dict[str, str] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        element_id = dict(attrs).get("id")
        if element_id and tag in INTERFACES:
            assert element_id not in self.found, f"id {element_id} is used twice in index.html"
            self.found[element_id] = INTERFACES[tag]


def test_the_page_types_list_every_typed_element_of_the_page_by_its_id() -> None:
    page = Elements()
    page.feed(INDEX.read_text(encoding="utf-8"))
    block = re.search(r"interface PageElements \{(.*?)\n\}", TYPES.read_text(encoding="utf-8"), re.DOTALL)
    assert block is not None, "types/page.d.ts has no PageElements"
    listed = dict(re.findall(r'"([^"]+)":\s*(\w+);', block.group(1)))
    assert len(page.found) > 50  # the page's dialogs, buttons and controls were read
    assert listed == page.found

"""Cards a player can read, proved by pixels (issue 35): no rank, suit index or value badge loses ink to
clipping, at every table size the table tests use and at device pixel ratios 1, 2 and 3, with motion on
(the deal's animation runs, as players have it), on the first deal and after play.

Each uncovered card is shot as the page draws it; then overflow is made visible in every SVG (a symbol's
box clips whatever is drawn past it) and the card is shot again.  Ink that appears only in the second shot
was drawn outside its box and cut off in the first: the test fails on it and names the card.
"""

from __future__ import annotations

import io

import pytest
from browser import open_context
from pages import GamePage
from PIL import Image, ImageChops, ImageDraw
from playwright.sync_api import Browser, Page
from test_browser_table import VIEWPORTS

pytestmark = pytest.mark.slow

#: The deal: its uncovered row holds an ace, two queens (badge 12), a 4, a 9 and a 5; the stock then
#: deals a 10, a king and more to the waste (checked after play).
CODE = "CL1-N-AAAAAAB"
RATIOS = (1, 2, 3)
#: Every SVG viewport (the card, and each <symbol> it uses) shows what is drawn past its edge.
UNCLIP = "svg, svg *, symbol, use { overflow: visible !important; }"
#: A channel has to move by more than this to count: the same drawing rasterised twice may differ by a
#: shade at an anti-aliased edge, never by this much; clipped ink is a full stroke of the card's colour.
TOLERANCE = 48


def uncovered(page: Page) -> list[str]:
    return list(page.eval_on_selector_all("#pyramid .card.usable", "els => els.map((e) => e.dataset.card)"))


def shoot(page: Page, selector: str) -> Image.Image:
    box = page.locator(selector).bounding_box()
    assert box is not None, selector
    return Image.open(io.BytesIO(page.screenshot(clip=box, animations="allow"))).convert("RGB")


def paper(size: tuple[int, int]) -> Image.Image:
    """The card's paper in a shot of it: its rounded rectangle (corners of 7 % of its width, as cards.js
    draws it) less a device pixel all round.  Outside it are the table and the card's rings and shadow,
    whose anti-aliased corner pixels came out a shade apart in two rasterisations of the same page (one
    pixel of a card at 360×640 and a pixel ratio of 3, now and then), which is no clipped ink."""
    width, height = size
    mask = Image.new("L", size, 0)
    inset = 1
    ImageDraw.Draw(mask).rounded_rectangle(
        (inset, inset, width - 1 - inset, height - 1 - inset), radius=round(0.07 * width), fill=255
    )
    return mask


def clipped_ink(before: Image.Image, after: Image.Image) -> int:
    """How many pixels of the card's paper the unclipped drawing inks that the page's drawing did not: only
    those it draws darker count (ink that was cut off comes back as ink). A pixel the unclipped drawing
    shows lighter is no clipped ink; two pixels of the 3♦ on the waste came out lighter so now and then
    (an edge of its corner, a rim of a pip), and the test failed on them though nothing was cut."""
    red, green, blue = ImageChops.subtract(before, after).split()
    most = ImageChops.lighter(ImageChops.lighter(red, green), blue)  # each pixel's largest channel change
    changed = most.point(lambda shade: 255 if shade > TOLERANCE else 0)
    return ImageChops.multiply(changed, paper(before.size)).histogram()[255]


def check(page: Page, selectors: dict[str, str]) -> dict[str, int]:
    shots = {name: shoot(page, selector) for name, selector in selectors.items()}
    page.add_style_tag(content=UNCLIP)
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
    found = {name: clipped_ink(shots[name], shoot(page, selector)) for name, selector in selectors.items()}
    return {name: count for name, count in found.items() if count}


@pytest.mark.parametrize("ratio", RATIOS)
@pytest.mark.parametrize(("width", "height"), VIEWPORTS, ids=[f"{w}x{h}" for w, h in VIEWPORTS])
def test_no_card_loses_ink_to_clipping_on_the_first_deal_and_after(
    browser: Browser, server: str, width: int, height: int, ratio: int
) -> None:
    # bypass_csp: the test adds its unclipping stylesheet inline, which the page's policy refuses
    context, errors = open_context(
        browser, viewport={"width": width, "height": height}, device_scale_factor=ratio, bypass_csp=True
    )
    page = context.new_page()
    game = GamePage(page, server).open(f"/play/{CODE}")  # motion on: waits for the deal's animation to end
    tokens = uncovered(page)
    assert len(tokens) == 7
    assert check(page, {t: f'#pyramid [data-card="{t}"]' for t in tokens}) == {}

    # after play: a fresh page (no unclipping style), three draws, the waste card and the uncovered row
    game.open(f"/play/{CODE}")
    for _ in range(3):
        game.tap_stock()
    game.settle()
    waste = game.waste_top()
    assert waste is not None
    selectors = {t: f'#pyramid [data-card="{t}"]' for t in uncovered(page)}
    selectors[waste] = f'#stock-area [data-card="{waste}"]'
    assert check(page, selectors) == {}
    assert not errors
    context.close()

"""Render the app's icons (static/icons/*.svg, drawn for this project) to the PNG sizes the web app manifest
names, with Debian's Chromium: run after changing a drawing, and commit the PNGs.

    .venv/bin/python scripts/make_icons.py
"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import sync_playwright

ICONS = Path(__file__).resolve().parent.parent / "src" / "pyramid_solitaire" / "web" / "static" / "icons"
#: (drawing, size): the manifest's icons (192 and 512, and a maskable 512) and the home-screen icon of iOS.
RENDERS = [("icon", 192), ("icon", 512), ("icon-maskable", 512), ("icon-maskable", 180)]


def main() -> None:
    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"])
        for name, size in RENDERS:
            page = browser.new_page(viewport={"width": size, "height": size})
            svg = (ICONS / f"{name}.svg").read_text(encoding="utf-8")
            data = svg.replace(chr(34), chr(39)).replace("#", "%23").strip()
            page.set_content(
                f'<html><body style="margin:0;background:transparent"><img src="data:image/svg+xml;utf8,{data}" '
                f'width="{size}" height="{size}"></body></html>'
            )
            page.wait_for_load_state("load")
            page.screenshot(path=str(ICONS / f"{name}-{size}.png"), omit_background=True)
            page.close()
        browser.close()


if __name__ == "__main__":
    main()

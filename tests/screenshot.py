"""Make docs/demo.png: the demo page with the full hint for README's worked example.

Run ``python tests/screenshot.py`` (needs the test extra and Debian's Chromium);
it starts ``meldwise serve``, presses Hint three times and saves the page.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from browser_support import chromium_missing, enter_rummikub, launch, press_hint
from playwright.sync_api import sync_playwright

from benchmarks.load import serve

OUT = Path(__file__).resolve().parent.parent / "docs" / "demo.png"


def main() -> int:
    missing = chromium_missing()
    if missing:
        print(missing, file=sys.stderr)
        return 1
    with (
        tempfile.TemporaryDirectory() as scratch,
        serve(workers=1, log_path=f"{scratch}/server.log") as (url, _),
        sync_playwright() as playwright,
    ):
        browser = launch(playwright)
        page = browser.new_page(viewport={"width": 1200, "height": 800})
        page.goto(url)
        enter_rummikub(page, "K8 K9 O1", "B7 K7 O7 R7\nR1 R2 R3")
        for _ in range(3):  # nudge, tile, full
            press_hint(page)
        page.get_by_label("Your rack", exact=True).focus()
        page.mouse.move(0, 0)  # no hover highlight in the picture
        page.screenshot(path=str(OUT), full_page=True)
        browser.close()
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

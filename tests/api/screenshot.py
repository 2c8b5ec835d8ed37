"""Make docs/demo.png, docs/demo-shanghai.png, docs/demo-review.png and
docs/demo-shanghai-review.png: the demo page with a hint, a Shanghai advice and a
game review of each game shown; docs/demo-ja.png and docs/demo-shanghai-ja.png: the
hint and the advice in Japanese.

Run ``python -m tests.api.screenshot [NAME ...]`` (needs the test extra and Debian's
Chromium, and its fonts-noto-cjk for the Japanese: without them the kana come out as
boxes; NAME picks some of the pictures); it starts ``meldwise serve``, asks for
README's worked example (Hint pressed three times), the Shanghai example, the
review of a strong-vs-greedy bot game and of a Shanghai game of greedy bots (seat 0
skipping a turn it could go down, tests/shanghai/review_games.py), and saves each
page.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

from api.spawn import serve
from tests.api.browser_support import chromium_missing, launch, press_hint
from tests.shanghai.review_games import game

DOCS = Path(__file__).resolve().parents[2] / "docs"


def rummikub(
    page: Page, rack: str = "Your rack", table: str = "Table sets", fourth: str = "O"
) -> None:
    """README's worked example, Hint pressed three times (nudge, tile, full); ``rack``
    and ``table`` name the fields in the page's language, ``fourth`` writes the fourth
    colour."""
    page.get_by_label(rack, exact=True).fill(f"K8 K9 {fourth}1")
    page.get_by_label(table, exact=True).fill(f"B7 K7 {fourth}7 R7\nR1 R2 R3")
    for _ in range(3):
        press_hint(page)
    page.get_by_label(rack, exact=True).focus()


def shanghai(page: Page) -> None:
    page.get_by_role("tab", name="Shanghai").click()
    page.get_by_role("button", name="Load an example").last.click()
    with page.expect_response(lambda r: r.url.endswith("/v1/shanghai/advise")):
        page.get_by_role("button", name="Advise").click()
    page.locator("#shanghai-answer .summary").wait_for()
    page.get_by_label("Your hand", exact=True).focus()


def rummikub_ja(page: Page) -> None:
    rummikub(page, "あなたの手持ち", "場のセット", fourth="Y")


def shanghai_ja(page: Page) -> None:
    page.get_by_role("tab", name="上海ラミー").click()
    page.get_by_role("button", name="例を読み込む").last.click()
    with page.expect_response(lambda r: r.url.endswith("/v1/shanghai/advise")):
        page.get_by_role("button", name="アドバイス").click()
    page.locator("#shanghai-answer .summary").wait_for()
    page.get_by_label("あなたの手札", exact=True).focus()


def review(page: Page) -> None:
    page.get_by_role("tab", name="Review").click()
    # The bot game is reviewed as soon as it is played.
    with page.expect_response(lambda r: r.url.endswith("/v1/rummikub/review")):
        page.get_by_role("button", name="Play a bot game (strong vs greedy)").click()
    page.locator("#review-output").wait_for()
    page.get_by_role("button", name="Next missed play").click()
    page.get_by_role("button", name="Next missed play").click()


def shanghai_review(page: Page) -> None:
    page.get_by_role("tab", name="Review").click()
    page.get_by_role("radio", name="Shanghai").check()
    page.get_by_label("Game record (JSON)").fill(json.dumps(game("lazy")))
    with page.expect_response(lambda r: r.url.endswith("/v1/shanghai/review")):
        page.get_by_role("button", name="Review", exact=True).click()
    page.locator("#review-output").wait_for()
    page.get_by_role("button", name="Next missed play").click()


PICTURES = {
    "demo.png": rummikub,
    "demo-shanghai.png": shanghai,
    "demo-review.png": review,
    "demo-shanghai-review.png": shanghai_review,
    "demo-ja.png": rummikub_ja,
    "demo-shanghai-ja.png": shanghai_ja,
}


def main() -> int:
    wanted = sys.argv[1:] or list(PICTURES)
    unknown = [name for name in wanted if name not in PICTURES]
    if unknown:
        print(
            f"unknown picture {unknown[0]!r}; pictures are {', '.join(PICTURES)}", file=sys.stderr
        )
        return 2
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
        for name, show in ((name, PICTURES[name]) for name in wanted):
            page = browser.new_page(viewport={"width": 1200, "height": 800})
            page.goto(f"{url}/?lang=ja" if name.endswith("-ja.png") else url)
            show(page)
            page.mouse.move(0, 0)  # no hover highlight in the picture
            page.screenshot(path=str(DOCS / name), full_page=True)
            page.close()
            print(f"wrote {DOCS / name}")
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Shared by the browser tests and the screenshot script: Debian's Chromium under
Playwright, ``meldwise serve`` to test against, and a second origin for the embed.

Playwright drives the system browser (``apt-get install chromium``); it never
downloads one of its own.
"""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from playwright.sync_api import Browser, Page, Playwright

CHROMIUM = os.environ.get("MELDWISE_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
SOLVE = "/v1/rummikub/solve"


def chromium_missing() -> str | None:
    """Why the browser cannot run here, or None when it can."""
    if shutil.which(CHROMIUM) is None:
        return f"no Chromium at {CHROMIUM}: apt-get install -y chromium (or set MELDWISE_CHROMIUM)"
    return None


def launch(playwright: Playwright) -> Browser:
    """Headless Chromium, the system's build, with nothing phoning home."""
    return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)


@contextmanager
def second_origin(pages: dict[str, str]) -> Iterator[str]:
    """Serve ``pages`` (path to HTML) on another loopback port: a different origin
    from the service's. Yields the base URL."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = pages.get(self.path)
            if body is None:
                self.send_error(404)
                return
            data = body.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: Any) -> None:
            pass  # keep test output clean

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def enter_rummikub(page: Page, rack: str, table: str) -> None:
    """Type a position into the demo page's Rummikub fields."""
    page.get_by_label("Your rack", exact=True).fill(rack)
    page.get_by_label("Table sets", exact=True).fill(table)


def press_hint(page: Page) -> tuple[dict[str, Any], dict[str, Any]]:
    """Press the hint button and wait until its answer is drawn; return the request
    the page sent and the service's response."""
    with page.expect_response(lambda r: r.url.endswith(SOLVE)) as answer:
        page.locator("meldwise-hint").get_by_role("button").click()
    page.locator("meldwise-hint[aria-busy=false]").wait_for()
    request = answer.value.request.post_data_json
    assert isinstance(request, dict)
    response: dict[str, Any] = answer.value.json()
    return request, response

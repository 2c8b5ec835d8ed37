"""The demo page (``GET /``) and the browser files under ``/static``: the
``<meldwise-hint>`` element and the page's modules, shipped inside this package.

Plain ES modules, no build step: the files are served as they are.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles
from starlette.types import Receive, Scope, Send

STATIC_DIR = Path(__file__).resolve().parent.parent / "static"
"""``api/static``: the page, its modules and styles."""

STATIC_PATH = "/static"

router = APIRouter(include_in_schema=False)


@router.get("/")
async def demo_page() -> FileResponse:
    """The demo page: enter a position, press Hint."""
    return FileResponse(STATIC_DIR / "index.html")


class StaticRoute(StaticFiles):
    """The files of :data:`STATIC_DIR`, to mount at :data:`STATIC_PATH`.

    A mount, unlike a route, puts no ``route`` in the request scope; this one does
    (itself, with its ``path``), so the request metrics count its files under
    ``/static`` instead of as unmatched."""

    def __init__(self) -> None:
        super().__init__(directory=STATIC_DIR)
        self.path = STATIC_PATH

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        scope["route"] = self
        await super().__call__(scope, receive, send)

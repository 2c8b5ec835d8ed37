"""The demo page (``GET /``), the API docs page (``GET /docs``) and the browser
files under ``/static``: the ``<meldwise-hint>`` element and the page's modules,
shipped inside this package, and Swagger UI's files under ``/static/swagger``.

Plain ES modules, no build step: the files are served as they are. Nothing is
loaded from another site, and no page has an inline script, so both pages pass
the strict Content-Security-Policy of :mod:`api.middleware`.
"""

from __future__ import annotations

from pathlib import Path

import fastapi_offline
from fastapi import APIRouter
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles
from starlette.types import Receive, Scope, Send

STATIC_DIR = Path(__file__).resolve().parent.parent / "static"
"""``api/static``: the page, its modules and styles."""

STATIC_PATH = "/static"

SWAGGER_DIR = Path(fastapi_offline.__file__).resolve().parent / "static"
"""Swagger UI's bundle and style sheet, as the ``fastapi-offline`` package ships them."""

SWAGGER_PATH = "/static/swagger"

router = APIRouter(include_in_schema=False)


@router.get("/")
async def demo_page() -> FileResponse:
    """The demo page: enter a position, press Hint."""
    return FileResponse(STATIC_DIR / "index.html")


@router.get("/docs")
async def docs_page() -> FileResponse:
    """The OpenAPI docs, drawn by Swagger UI from this server's own files."""
    return FileResponse(STATIC_DIR / "docs.html")


class StaticRoute(StaticFiles):
    """The files of ``directory`` (default :data:`STATIC_DIR`), to mount at ``path``.

    A mount, unlike a route, puts no ``route`` in the request scope; this one does
    (itself, with its ``path``), so the request metrics count its files under
    ``/static`` instead of as unmatched."""

    def __init__(self, directory: Path = STATIC_DIR, path: str = STATIC_PATH) -> None:
        super().__init__(directory=directory)
        self.path = path

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        scope["route"] = self
        await super().__call__(scope, receive, send)

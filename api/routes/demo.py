"""The demo page (``GET /``), the API docs page (``GET /docs``) and its schema
(``GET /openapi.json``), and the browser
files under ``/static``: the ``<meldwise-hint>`` element and the page's modules,
shipped inside this package, and Swagger UI's files under ``/static/swagger``.

Plain ES modules, no build step: the files are served as they are. Nothing is
loaded from another site, and no page has an inline script, so both pages pass
the strict Content-Security-Policy of :mod:`api.middleware`.
"""

from __future__ import annotations

import json
from pathlib import Path

import fastapi_offline
from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import FileResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.types import Receive, Scope, Send

STATIC_DIR = Path(__file__).resolve().parent.parent / "static"
"""``api/static``: the page, its modules and styles."""

STATIC_PATH = "/static"

SWAGGER_DIR = Path(fastapi_offline.__file__).resolve().parent / "static"
"""Swagger UI's bundle and style sheet, as the ``fastapi-offline`` package ships them."""

SWAGGER_PATH = "/static/swagger"

SCHEMA_PREFIXES_KEPT = 8
"""Path prefixes whose schema is kept written (a trusted proxy's, :mod:`api.proxies`)."""

router = APIRouter(include_in_schema=False)


@router.get("/openapi.json")
async def openapi_schema(request: Request) -> Response:
    """The OpenAPI schema, as FastAPI's own route answers it, but written as JSON once
    per path prefix: 147 KB, written at each request it cost the event loop 5 ms, 7
    times a ``/healthz``, on a route open to all and outside the rate limits."""
    return Response(
        _written_schema(request.app, request.scope.get("root_path", "").rstrip("/")),
        media_type="application/json",
    )


def _written_schema(app: FastAPI, prefix: str) -> bytes:
    written: dict[str, bytes] = app.state.openapi_json
    text = written.get(prefix)
    if text is None:
        schema = app.openapi()
        if prefix and prefix not in {server.get("url") for server in schema.get("servers", [])}:
            # Where the proxy serves it, for the "Try it out" of /docs (FastAPI's rule).
            schema = {**schema, "servers": [{"url": prefix}, *schema.get("servers", [])]}
        # As Starlette's JSONResponse writes it.
        text = json.dumps(
            schema, ensure_ascii=False, allow_nan=False, separators=(",", ":")
        ).encode()
        if len(written) >= SCHEMA_PREFIXES_KEPT:
            del written[next(iter(written))]
        written[prefix] = text
    return text


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

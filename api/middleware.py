"""ASGI middleware: request metrics and the request body limit.

Both are plain ASGI (no ``BaseHTTPMiddleware``), so they add little to each request
and never buffer a body.
"""

from __future__ import annotations

import time
from collections.abc import Mapping

from starlette.exceptions import HTTPException
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api.metrics import Metrics


class MetricsMiddleware:
    """Counts every HTTP request by method, route template and status, and times it."""

    def __init__(self, app: ASGIApp, metrics: Metrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        status = 500  # if the app raises before answering

        async def send_with_status(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, send_with_status)
        finally:
            # The route template, not the path, keeps the label set small.
            route = getattr(scope.get("route"), "path", "unmatched")
            method = scope["method"]
            self.metrics.requests.labels(method, route, str(status)).inc()
            self.metrics.latency.labels(method, route).observe(time.perf_counter() - start)


class BodyLimitMiddleware:
    """Refuses request bodies over ``limit`` bytes with 413.

    A declared ``Content-Length`` over the limit is refused before reading; a body
    without one is counted as it streams in and refused as soon as it passes the
    limit, so no more than ``limit`` bytes plus one chunk are ever held.
    """

    def __init__(
        self,
        app: ASGIApp,
        limit: int,
        metrics: Metrics,
        larger: Mapping[str, int] | None = None,
    ) -> None:
        self.app = app
        self.limit = limit
        self.metrics = metrics
        self.larger = dict(larger or {})
        """Paths with a limit of their own (a game record is bigger than a position)."""

    def _too_large(self, limit: int) -> str:
        self.metrics.rejected.labels("too_large").inc()
        return f"the request body is larger than the limit of {limit} bytes"

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.larger.get(scope["path"], self.limit)
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > limit:
            # Close the connection: the unread body must not be taken for the next request.
            answer = JSONResponse({"detail": self._too_large(limit)}, 413, {"Connection": "close"})
            await answer(scope, receive, send)
            return
        received = 0

        async def limited_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    # FastAPI lets an HTTPException raised while reading the body through.
                    raise HTTPException(413, self._too_large(limit))
            return message

        await self.app(scope, limited_receive, send)

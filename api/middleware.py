"""ASGI middleware: metrics, request IDs and the access log, security headers, the
request timeout, and the request body's size and time limits.

All are plain ASGI (no ``BaseHTTPMiddleware``), so they add little to each request
and never buffer a body.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
import uuid
from collections.abc import Mapping
from contextlib import AbstractContextManager, nullcontext
from typing import Any

from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.middleware.cors import CORSMiddleware
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api.errors import CLIENT_CLOSED, CLOSE, error_response
from api.logs import REQUEST_ID, printable
from api.metrics import Metrics
from api.pool import shutting_down
from api.proxies import route_path
from solver.i18n import _, listed

access_log = logging.getLogger("meldwise.access")

REQUEST_ID_HEADER = "X-Request-ID"
VALID_REQUEST_ID = re.compile(r"[A-Za-z0-9._:/+=@-]{1,128}")
"""A request ID the client sends is kept when it looks like one (UUIDs, trace IDs);
anything else is replaced, so logs never carry what a client chose to inject."""

CONTENT_SECURITY_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; "
    "frame-ancestors 'none'"
)
"""Only this server's own scripts, styles and calls; no inline script, no framing."""

SECURITY_HEADERS = [
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
]


METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"})
"""Methods the metrics name; any other a client sends is counted as ``other``."""


class MetricsMiddleware:
    """Counts every HTTP request by method, route template and status, and times it.

    Every label comes from a small set, whatever clients send: the method one of
    :data:`METHODS` or ``other``, the route a template (``unmatched`` for a path no
    route takes), never the raw path. A client sending 34 odd methods once grew
    ``/metrics`` to 1 MB, 100-250 ms of the event loop's time at each scrape."""

    def __init__(self, app: ASGIApp, metrics: Metrics) -> None:
        self.app = app
        self.metrics = metrics
        self._counters: dict[tuple[str, str, int], Any] = {}
        """Labelled metrics by (method, route, status): looking them up costs more."""

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
            method = scope["method"] if scope["method"] in METHODS else "other"
            key = (method, getattr(scope.get("route"), "path", "unmatched"), status)
            counters = self._counters.get(key)
            if counters is None:
                method, route, _status = key
                counters = (
                    self.metrics.requests.labels(method, route, str(status)),
                    self.metrics.latency.labels(method, route),
                )
                self._counters[key] = counters
            counters[0].inc()
            counters[1].observe(time.perf_counter() - start)


class HeadMiddleware:
    """Answers ``HEAD`` as ``GET`` (RFC 9110: the same headers, no body): the app sees
    a GET, the server (uvicorn, which knows the request was a HEAD) sends no body.
    FastAPI routes answer only the methods they name, so ``HEAD /healthz`` was 405."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD" or _static(scope):
            # Static files answer HEAD themselves, without reading the file.
            await self.app(scope, receive, send)
            return
        inner = {**scope, "method": "GET"}
        try:
            await self.app(inner, receive, send)
        finally:
            if "route" in inner:  # what the router found, for the metrics
                scope["route"] = inner["route"]


class StartEditingMiddleware:
    """A middleware that changes the start of every HTTP answer (its status and
    headers) with :meth:`edit`, each request running within :meth:`running`; anything
    but HTTP passes through. How a middleware changes the headers of every answer."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def edited(message: Message) -> None:
            if message["type"] == "http.response.start":
                self.edit(message)
            await send(message)

        with self.running(scope):
            await self.app(scope, receive, edited)

    def running(self, scope: Scope) -> AbstractContextManager[object]:  # noqa: ARG002 - a hook
        """What the request runs within (it may change ``scope`` first): nothing here."""
        return nullcontext()

    def edit(self, start: Message) -> None:
        """Change the answer's start message in place."""
        raise NotImplementedError


class WholeFilesMiddleware(StartEditingMiddleware):
    """Files are sent whole: a ``Range`` header is ignored (RFC 9110 lets a server do
    so) and ``Accept-Ranges`` is not offered. The files are small, and Starlette
    answered a bad or unsatisfiable range with an English plain-text 400 or 416,
    outside this service's JSON errors in the client's language."""

    def running(self, scope: Scope) -> AbstractContextManager[object]:
        # In place: the scope is this request's, and the router writes the route found
        # into it for the metrics.
        scope["headers"] = [(k, v) for k, v in scope["headers"] if k not in (b"range", b"if-range")]
        return nullcontext()

    def edit(self, start: Message) -> None:
        headers = start.get("headers", [])
        start["headers"] = [(k, v) for k, v in headers if k.lower() != b"accept-ranges"]


def _static(scope: Scope) -> bool:
    return route_path(scope).startswith("/static/")


class BodyLimitMiddleware:
    """Refuses request bodies over ``limit`` bytes with 413, and bodies that take more
    than ``timeout`` seconds to arrive with 408; both close the connection, so the
    rest of the body is never read.

    A declared ``Content-Length`` over the limit is refused before reading; a body
    without one is counted as it streams in and refused as soon as it passes the
    limit, so no more than ``limit`` bytes plus one chunk are ever held.
    """

    def __init__(
        self,
        app: ASGIApp,
        limit: int,
        timeout: float,
        metrics: Metrics,
        larger: Mapping[str, int] | None = None,
    ) -> None:
        self.app = app
        self.limit = limit
        self.timeout = timeout
        self.metrics = metrics
        self.larger = dict(larger or {})
        """Paths with a limit of their own (a game record is bigger than a position)."""

    def _too_large(self, limit: int) -> str:
        self.metrics.rejected.labels("too_large").inc()
        return _("the request body is larger than the limit of {limit} bytes", limit=limit)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.larger.get(route_path(scope), self.limit)
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > limit:
            # Close the connection: the unread body must not be taken for the next request.
            answer = error_response(413, self._too_large(limit), CLOSE)
            await answer(scope, receive, send)
            return
        received = 0
        complete = False
        deadline = asyncio.get_running_loop().time() + self.timeout

        async def limited_receive() -> Message:
            nonlocal received, complete
            if complete:  # only a disconnect can follow
                return await receive()
            try:
                async with asyncio.timeout_at(deadline):
                    message = await receive()
            except TimeoutError:
                self.metrics.rejected.labels("body_timeout").inc()
                # FastAPI lets an HTTPException raised while reading the body through.
                raise HTTPException(
                    408,
                    _("the request body did not arrive within {seconds:g} s", seconds=self.timeout),
                    CLOSE,
                ) from None
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                complete = not message.get("more_body", False)
                if received > limit:
                    raise HTTPException(413, self._too_large(limit), CLOSE)
            return message

        await self.app(scope, limited_receive, send)


class RequestLogMiddleware:
    """Gives each request an ID (the client's ``X-Request-ID`` when it looks like one),
    sends it back in ``X-Request-ID``, puts it on every log line written while the
    request runs, and writes one access log line per request (never a body or a
    query string; the path with its characters that do not print escaped)."""

    def __init__(self, app: ASGIApp, enabled: bool) -> None:
        self.app = app
        self.enabled = enabled

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        given = Headers(scope=scope).get(REQUEST_ID_HEADER, "")
        request_id = given if VALID_REQUEST_ID.fullmatch(given) else uuid.uuid4().hex
        REQUEST_ID.set(request_id)
        status = 500

        async def send_with_id(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message["headers"] = [
                    *message.get("headers", []),
                    (b"x-request-id", request_id.encode()),
                ]
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        finally:
            if self.enabled:
                self._log(scope, status, (time.perf_counter() - start) * 1000)

    @staticmethod
    def _log(scope: Scope, status: int, ms: float) -> None:
        host, port = scope.get("client") or ("-", 0)
        client = scope.get("state", {}).get("client", "-")
        access_log.info(
            '%s:%d - "%s %s HTTP/%s" %d %.1fms client=%s',
            host,
            port,
            scope["method"],
            printable(scope["path"]),  # decoded: %0a would forge a line
            scope["http_version"],
            status,
            ms,
            client,
            extra={
                "remote": host,
                "method": scope["method"],
                "path": scope["path"],
                "status": status,
                "ms": round(ms, 1),
                "client": client,
            },
        )


class SecurityHeadersMiddleware(StartEditingMiddleware):
    """Adds :data:`SECURITY_HEADERS` to every answer: a strict Content-Security-Policy
    (the demo page and the API docs pass it), no MIME sniffing, no framing, no
    referrer."""

    def edit(self, start: Message) -> None:
        start["headers"] = [*start.get("headers", []), *SECURITY_HEADERS]


class AnswerCutShort(Exception):
    """The request timeout struck while the answer was going out (a client reading it
    too slowly): only closing the connection is left. :mod:`api.server` does so, with
    this warning line (no traceback)."""


class RequestTimeoutMiddleware:
    """Answers 503 for a request that has not started its answer ``timeout`` seconds
    after its headers arrived (waiting for a solver worker included), and cancels it;
    cancels too a request whose client leaves once its body is read (the status
    noted is 499; nobody reads it). Either way a solver task of the request is
    dropped from the queue, or stopped with its worker (:mod:`api.pool`). A request
    that the server cancels once its graceful shutdown has run out of time
    (``app.state.stopping``, set by :func:`api.server.run`) is answered 503, as a task
    waiting for a worker then is (uvicorn answered a plain-text 500)."""

    def __init__(self, app: ASGIApp, timeout: float, retry_after_s: int, metrics: Metrics) -> None:
        self.app = app
        self.timeout = timeout
        self.retry_after = str(retry_after_s)
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False
        running = True
        gone = False
        watcher: asyncio.Task[None] | None = None
        request = asyncio.current_task()
        assert request is not None

        async def watch() -> None:
            # Only a disconnect can follow the body (ASGI): the server sends it when
            # the client closes the connection, or once the answer is out.
            message = await receive()
            nonlocal gone
            if message["type"] == "http.disconnect" and running and not started:
                gone = True
                request.cancel()

        async def receive_then_watch() -> Message:
            nonlocal watcher
            message = await receive()
            if watcher is None and not message.get("more_body", False):
                watcher = asyncio.ensure_future(watch())
            return message

        async def send_noting_start(message: Message) -> None:
            nonlocal started
            started = True
            await send(message)

        try:
            try:
                async with asyncio.timeout(self.timeout):
                    await self.app(scope, receive_then_watch, send_noting_start)
            finally:
                running = False
                if watcher is not None:
                    watcher.cancel()
        except TimeoutError:
            if started:  # half an answer is out: only closing the connection is left
                raise AnswerCutShort(
                    f"{scope['method']} {printable(scope['path'])}: the answer was cut at the "
                    f"request timeout of {self.timeout:g} s (the client read it too slowly)"
                ) from None
            self.metrics.rejected.labels("timeout").inc()
            detail = _(
                "the request took longer than {seconds:g} s; try again shortly",
                seconds=self.timeout,
            )
            answer = error_response(503, detail, {"Retry-After": self.retry_after, **CLOSE})
            await answer(scope, receive, send)
        except asyncio.CancelledError:
            if gone and not request.uncancel():  # not cancelled from outside too
                await Response(status_code=CLIENT_CLOSED)(scope, receive, send)
                return
            if started or gone or not scope["app"].state.stopping:
                raise
            # The server's shutdown ran out of time: its cancel is answered, not raised
            # (uvicorn awaits the request no more, and would answer a bare 500).
            request.uncancel()
            self.metrics.rejected.labels("shutting_down").inc()
            answer = error_response(
                503, str(shutting_down()), {"Retry-After": self.retry_after, **CLOSE}
            )
            await answer(scope, receive, send)


class CORS(CORSMiddleware):
    """Starlette's CORS middleware, whose refused preflight is an error answer like
    every other: ``{"detail": ...}`` in the request's language, naming what was not
    allowed (Starlette answers 400 in English plain text, "Disallowed CORS origin")."""

    def preflight_response(self, request_headers: Headers) -> Response:
        answer = super().preflight_response(request_headers)
        if answer.status_code != 400:
            return answer
        failures = bytes(answer.body).decode().removeprefix("Disallowed CORS ").split(", ")
        words = {
            "origin": _("its origin"),
            "method": _("its method"),
            "headers": _("its headers"),
            "private-network": _("its access to a private network"),
        }
        detail = _(
            "this cross-origin request is not allowed: {what}",
            what=listed(words.get(f, f) for f in failures),
        )
        kept = {
            name: value
            for name, value in answer.headers.items()
            if name not in ("content-length", "content-type")
        }
        return error_response(400, detail, kept)

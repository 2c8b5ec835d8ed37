"""Running the app with uvicorn, plus the connection guards uvicorn lacks.

uvicorn times out an idle kept-alive connection (``timeout_keep_alive``) and
bounds the graceful shutdown (``timeout_graceful_shutdown``), but nothing limits
how long a client may take to send a request's headers (a connection that sends
nothing, or a byte now and then, is held for ever), nor how large the headers may
grow, and its ``limit_concurrency`` counts idle connections against every client
and answers in plain text outside the app. :class:`GuardedProtocol`, a small
subclass of uvicorn's httptools protocol, adds:

* a **header timeout**: from a connection's opening (or the end of its previous
  answer) its next request line and headers must arrive within
  ``timeout_headers_s``; else the connection is closed (with a 408 when part of a
  request had arrived), at a moment drawn up to ``HEAD_TIMEOUT_SPREAD`` later, so
  that connections opened together are not all closed (and reopened) together;
* a **header size limit** (``max_header_bytes``: 431 and close);
* a **connection limit without an outage**: past ``max_connections`` open
  connections, the one that has waited longest for a request is closed to make
  room, so idle connections can never lock out a client that sends requests;
* JSON for the answers it gives itself (400 for a request that is not HTTP, 408,
  431), like every other error answer, with the same security headers and a new
  request ID (no request exists to take the client's from).

The body's timeout and the whole request's are the app's (:mod:`api.middleware`),
so those answers carry the usual headers and show in the metrics.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import resource
import uuid
from typing import Any, ClassVar

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from api.logs import logging_config
from api.metrics import Metrics
from api.middleware import SECURITY_HEADERS
from api.settings import Settings

log = logging.getLogger("meldwise.server")

RESERVED_FILES = 256
"""File descriptors kept for everything but client connections (workers, logs)."""

HEAD_TIMEOUT_SPREAD = 0.25
"""A connection's header timeout is ``timeout_headers_s`` times 1 to 1.25, drawn for
each: 1,024 idle connections opened in one burst, closed in the same instant and
reopened at once, stalled the event loop for a fraction of a second (every request
waited; abuse row 1's /healthz p99), where spread over 2.5 s they cost the same CPU
in small pieces."""


class Guards:
    """The limits one server applies, and the connections waiting for a request."""

    def __init__(self, settings: Settings, metrics: Metrics) -> None:
        self.timeout_headers = settings.timeout_headers_s
        self.max_header_bytes = settings.max_header_bytes
        self.max_connections = settings.max_connections
        self.metrics = metrics
        self.waiting: dict[GuardedProtocol, None] = {}
        """Connections waiting for a request's headers, longest waiting first."""


class GuardedProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with the guards of this module's docstring."""

    guards: ClassVar[Guards]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._head_timer: asyncio.TimerHandle | None = None
        self._head_bytes = 0
        self._refusal = (400, "the request is not valid HTTP/1.1", "bad_request")

    # --- connection life ----------------------------------------------------------

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.guards.metrics.connections.set(len(self.connections))
        self._wait_for_head()
        if len(self.connections) > self.guards.max_connections:
            oldest = next(iter(self.guards.waiting))
            if oldest is not self:
                oldest._close("idle_evicted")  # noqa: SLF001 - a connection of this class
            else:  # every other connection is busy with a request
                self._close("over_capacity")

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_waiting()
        super().connection_lost(exc)
        self.guards.metrics.connections.set(len(self.connections))

    def data_received(self, data: bytes) -> None:
        waiting = self in self.guards.waiting
        super().data_received(data)
        if waiting and self in self.guards.waiting:  # the headers are still incomplete
            self._head_bytes += len(data)
            if self._head_bytes > self.guards.max_header_bytes:
                self._answer(431, self._too_large, "header_too_large")

    def on_headers_complete(self) -> None:
        self._stop_waiting()
        size = len(self.url) + sum(len(name) + len(value) + 4 for name, value in self.headers)
        if size > self.guards.max_header_bytes:
            self._refusal = (431, self._too_large, "header_too_large")
            _OWN_REFUSAL.refusing = True  # uvicorn's "Invalid HTTP request" is not said
            raise ValueError("headers too large")  # stops the parser: see send_400_response
        super().on_headers_complete()

    @property
    def _too_large(self) -> str:
        return (
            "the request line and headers are larger than the limit of "
            f"{self.guards.max_header_bytes} bytes"
        )

    def on_response_complete(self) -> None:
        pipelined = bool(self.pipeline)  # its headers have arrived already
        super().on_response_complete()
        if not pipelined and not self.transport.is_closing():
            self._wait_for_head()

    # --- the header timeout ---------------------------------------------------------

    def _wait_for_head(self) -> None:
        self._stop_waiting()
        self._head_bytes = 0
        self.guards.waiting[self] = None
        spread = 1 + HEAD_TIMEOUT_SPREAD * random.random()
        self._head_timer = self.loop.call_later(
            self.guards.timeout_headers * spread, self._head_late
        )

    def _stop_waiting(self) -> None:
        self.guards.waiting.pop(self, None)
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_late(self) -> None:
        self._head_timer = None
        if self._head_bytes:
            detail = f"the request headers did not arrive within {self.guards.timeout_headers:g} s"
            self._answer(408, detail, "header_timeout")
        else:
            self._close("header_timeout")

    # --- answering outside the app ---------------------------------------------------

    def send_400_response(self, _msg: str) -> None:
        """uvicorn's answer to a parser error, which a callback of this class may
        raise on purpose after setting the answer it wants."""
        _OWN_REFUSAL.refusing = False
        self._answer(*self._refusal)

    def _answer(self, status: int, detail: str, reason: str) -> None:
        body = json.dumps({"detail": detail}).encode()
        head = (
            f"HTTP/1.1 {status} {_PHRASES[status]}\r\n"
            "content-type: application/json\r\n"
            f"content-length: {len(body)}\r\n"
            f"{_SECURITY_HEAD}"
            f"x-request-id: {uuid.uuid4().hex}\r\n"
            "connection: close\r\n\r\n"
        )
        if not self.transport.is_closing():
            self.transport.write(head.encode() + body)
        self._close(reason)

    def _close(self, reason: str) -> None:
        self._stop_waiting()
        if not self.transport.is_closing():
            self.guards.metrics.connections_closed.labels(reason).inc()
            self.transport.close()


class _OwnRefusal(logging.Filter):
    """Drops uvicorn's warning "Invalid HTTP request received." for a request this
    module refused on purpose (431), between the callback that refuses it and
    :meth:`GuardedProtocol.send_400_response`, which uvicorn calls right after the
    warning (one event loop, so nothing runs in between): the answer, the log line of
    the closed connection and the metric say what happened."""

    refusing = False

    def filter(self, record: logging.LogRecord) -> bool:
        return not (self.refusing and record.getMessage() == "Invalid HTTP request received.")


_OWN_REFUSAL = _OwnRefusal()
_PHRASES = {400: "Bad Request", 408: "Request Timeout", 431: "Request Header Fields Too Large"}
_SECURITY_HEAD = "".join(
    f"{name.decode()}: {value.decode()}\r\n" for name, value in SECURITY_HEADERS
)
"""The app's security headers (api.middleware), for the answers given outside it."""


def guarded_protocol(settings: Settings, metrics: Metrics) -> type[GuardedProtocol]:
    """A :class:`GuardedProtocol` class bound to one server's settings and metrics."""
    logging.getLogger("uvicorn.error").addFilter(_OWN_REFUSAL)
    return type("MeldwiseProtocol", (GuardedProtocol,), {"guards": Guards(settings, metrics)})


def raise_file_limit(connections: int) -> int:
    """Raise this process's open-file limit so ``connections`` fit with room to spare
    (up to the hard limit); return how many connections fit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = connections + RESERVED_FILES
    if soft != resource.RLIM_INFINITY and soft < wanted:
        soft = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    if soft == resource.RLIM_INFINITY:
        return connections
    return max(1, min(connections, soft - RESERVED_FILES))


def run(settings: Settings) -> None:
    """Serve the app until SIGINT or SIGTERM, then shut down gracefully: stop taking
    connections, let running requests finish for up to ``timeout_shutdown_s``, then
    stop the solver workers (each finishing its task within its time cap)."""
    # Imported here so other subcommands start without loading the web stack.
    import uvicorn

    from api.main import create_app

    fit = raise_file_limit(settings.max_connections)
    if fit < settings.max_connections:
        log.warning("the open-file limit leaves room for %d connections only", fit)
        settings = settings.model_copy(update={"max_connections": fit})
    app = create_app(settings)
    config = uvicorn.Config(
        app,
        host=settings.host,
        port=settings.port,
        http=guarded_protocol(settings, app.state.metrics),
        limit_concurrency=None,  # the guards bound connections; the pool bounds work
        backlog=2048,
        timeout_keep_alive=settings.timeout_keep_alive_s,
        timeout_graceful_shutdown=settings.timeout_shutdown_s,
        proxy_headers=bool(settings.trusted_proxies),
        forwarded_allow_ips=settings.trusted_proxies or None,
        server_header=False,
        # No WebSocket route exists: an upgrade request is answered as plain HTTP, by
        # the app (its headers, request ID and log line), not by uvicorn's bare 403.
        ws="none",
        access_log=False,  # api.middleware.RequestLogMiddleware writes the access log
        log_config=logging_config(settings.log_format),
    )
    uvicorn.Server(config).run()

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
* a **header size limit** (``max_header_bytes``: 431 and close) on every request,
  one pipelined behind another included;
* a **pipelining limit**: at most :data:`MAX_PIPELINED` requests queued behind the
  one being answered (uvicorn queues them without bound); the next one gets 503 after
  their answers, and the connection closes;
* a **write timeout** (``timeout_write_s``): a client that does not take the answer
  it is sent (writing paused, or the connection closing with bytes left) is dropped;
  asyncio would wait for ever to close it;
* a **connection limit without an outage**: past ``max_connections`` open
  connections, one closing after a refusal (below) is closed at once, else the one
  that has waited longest for a request is closed to make room (else the one whose
  client has longest left its answer unread), so idle connections and clients that
  never read can never lock out a client that sends requests;
* a **clean close** after a refusal: a connection closed with the client's bytes
  left unread (the rest of a body refused, requests behind a refused one) is not
  closed at once, which makes Linux reset it (RST) and can lose the answer written
  just before; its side is closed once the answer is out (a FIN after it), and what
  the client still sends is read and dropped until it closes its own side, for at
  most :data:`DRAIN_BYTES` and :data:`DRAIN_S` (Apache's and nginx's lingering close);
* JSON for the answers it gives itself (400 for a request that is not HTTP/1.x,
  408, 431, 503 for a request over the pipelining limit, 501 for a transfer coding
  other than ``chunked`` alone, for ``CONNECT`` or for a method httptools does not
  know in a sound request line), like every other
  error answer, with the same security headers and a new request ID (no request
  exists to take the client's from);
* quiet logs: uvicorn's warnings about what a client sent (a request that is not
  HTTP, an upgrade) are dropped: any client could fill the log with them.

The body's timeout and the whole request's are the app's (:mod:`api.middleware`),
so those answers carry the usual headers and show in the metrics.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import json
import logging
import random
import re
import resource
import signal
import socket
import struct
import sys
import termios
import uuid
from collections.abc import Callable
from typing import Any, ClassVar

import httptools
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from api.language import speaking
from api.logs import logging_config
from api.metrics import Metrics
from api.middleware import SECURITY_HEADERS, AnswerCutShort
from api.settings import Settings
from solver.i18n import _

log = logging.getLogger("meldwise.server")

RESERVED_FILES = 256
"""File descriptors kept for everything but client connections (workers, logs)."""

MAX_PIPELINED = 8
"""Requests one connection may have queued behind the one being answered (HTTP/1.1
pipelining). One more, and the connection reads nothing further: the queued ones
are answered, then that one gets 503, and the connection is closed. uvicorn queues
them without bound: 14 MB of pipelined ``GET /healthz`` on 8 connections whose
answers were never read held 600 MB in the server."""

HEAD_TIMEOUT_SPREAD = 0.25
"""A connection's header timeout is ``timeout_headers_s`` times 1 to 1.25, drawn for
each: 1,024 idle connections opened in one burst, closed in the same instant and
reopened at once, stalled the event loop for a fraction of a second (every request
waited; abuse row 1's /healthz p99), where spread over 2.5 s they cost the same CPU
in small pieces."""


DRAIN_S = 2.0
"""How long a connection closed with the client's bytes perhaps unread goes on reading
and dropping them (see :meth:`GuardedProtocol._closing`) at most, from its close: a
client sending a byte now and then cannot hold it longer."""

DRAIN_BYTES = 1 << 20
"""How many bytes such a connection reads and drops at most: twice the largest body the
service takes (a game record's 512 KiB), so a client that sent a body over a limit
has its answer and a clean close, and one that sends on without end costs a bounded
read."""

FIND_START_FANOUT = 16
"""How many times smaller each piece is than the last, as a packet is read again to
find where a request refused for its method begins, behind others in it (to tell an
unknown method, 501, from bytes that are not HTTP, 400): see :func:`_request_start`."""


class Guards:
    """The limits one server applies, and the connections waiting for a request."""

    def __init__(self, settings: Settings, metrics: Metrics) -> None:
        self.timeout_headers = settings.timeout_headers_s
        self.max_header_bytes = settings.max_header_bytes
        self.max_connections = settings.max_connections
        self.timeout_write = settings.timeout_write_s
        self.metrics = metrics
        self.waiting: dict[GuardedProtocol, None] = {}
        """Connections waiting for a request's headers, longest waiting first."""
        self.stalled: dict[GuardedProtocol, None] = {}
        """Connections whose answers the client does not read (writing paused, or
        closed with bytes left to send), longest stalled first."""
        self.draining: dict[GuardedProtocol, None] = {}
        """Connections closed, reading and dropping what their clients still send,
        longest draining first."""


class GuardedProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with the guards of this module's docstring."""

    guards: ClassVar[Guards]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _read_any_version(self.parser)
        self._head_timer = _Timer(self.guards.waiting)
        self._write_timer = _Timer(self.guards.stalled)
        self._drain_timer = _Timer(self.guards.draining)
        self._drain_left = 0
        """Bytes the drain may still read and drop."""
        self._unread = False
        """This server refused a request itself: bytes after it are never read."""
        self._unsent = 0
        """Bytes left to send when the write timer started."""
        self._head_bytes = 0
        """Bytes of the request head being read, counted in whole chunks (a chunk
        that also ends another request or begins this one is not counted: at most one
        chunk more than the limit is ever held)."""
        self._in_head = False
        """Between a request's first byte and the end of its headers."""
        self._in_body = False
        self._begun = 0
        """Requests begun on this connection."""
        self._trailer_bytes = 0
        """Bytes of the trailer of a chunked body being read."""
        self._lost = False
        self._full = False
        """Nothing more is read from this connection: its pipeline is full, or it is
        being closed."""
        self._chunk = b""
        """The bytes being parsed, while they are: an error in a request line is found
        before any header is read (see :meth:`_speaking`)."""
        self._head_seen = bytearray()
        """While a request head is incomplete after a chunk: the bytes received since
        the chunk it began in (of that one, the last ``max_header_bytes``: the head's
        part of it, unless it is over the limit), for the language of the server's own
        answer to it (see :meth:`_speaking`). Held only for a head that spans chunks,
        as the header limit allows: one chunk more than it at most. One buffer, not a
        list of the chunks, which for a head sent two bytes a packet would hold 8,192
        objects for its 16 KB (350 KB)."""
        self._head_from_start = False
        """:attr:`_head_seen` begins with the request's first byte."""
        self._chunk_from_start = False
        """:attr:`_chunk` begins with the first byte of the request it begins."""
        self._begun_before = 0
        """Requests begun on this connection before :attr:`_chunk`."""
        self._refusal: tuple[int, str, str] = (400, "", "bad_request")
        """The answer to the parser's next error: unless a callback set another, a
        request that is not HTTP (said when sent, see :meth:`send_400_response`)."""
        self._line_pending = False
        """The request line of a request httptools refused for its method is still
        arriving, in :attr:`_head_seen`: once whole it says whether the method is one
        this server does not know (501) or the bytes are not HTTP (400)."""
        self._refused_last: tuple[int, str] | None = None
        """The refusal (status, detail) of a request behind others on the connection,
        sent once they are answered."""

    # --- connection life ----------------------------------------------------------

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        self._transport = _ClosingTransport(transport, self._closing)
        super().connection_made(self._transport)
        self.guards.metrics.connections.set(len(self.connections))
        self._wait_for_head()
        if len(self.connections) > self.guards.max_connections:
            draining = next(iter(self.guards.draining), None)
            if draining is not None:  # answered already: it closes now
                draining._stop_draining()  # noqa: SLF001 - a connection of this class
                return
            victim = next(iter(self.guards.waiting))
            if victim is self:  # no other connection waits for a request: a stalled one?
                victim = next(iter(self.guards.stalled), self)
            if victim is not self:
                victim._evict()  # noqa: SLF001 - a connection of this class
            else:  # every other connection is busy with a request
                self._close("over_capacity")
                self._stop_draining()

    def connection_lost(self, exc: Exception | None) -> None:
        self._lost = True
        self._stop_waiting()
        self._stop_write_timer()
        self._drain_timer.stop(self)
        self._transport.closing = None  # it held this protocol
        super().connection_lost(exc)
        self.guards.metrics.connections.set(len(self.connections))
        # Requests queued but never started hold this protocol (their cycles' bound
        # on_response) while it holds them: a cycle that only a full garbage
        # collection frees, with every header and body byte they hold. Break it.
        for cycle, _app in self.pipeline:
            cycle.on_response = _nothing
        self.pipeline.clear()
        if self.cycle is not None:
            self.cycle.on_response = _nothing
        self.headers = []
        self._head_seen = bytearray()
        self.scope = None  # type: ignore[assignment]
        self.url = b""

    def data_received(self, data: bytes) -> None:
        if self in self.guards.draining:  # closed: dropped
            self._drain_left -= len(data)
            if self._drain_left <= 0:
                self._stop_draining()
            return
        if self._full:  # the queued requests are answered, then the connection closes
            self.flow.pause_reading()
            return
        if self._line_pending:
            self._unset_keepalive_if_required()  # as uvicorn's data_received does
            self._line_arrives(data)
            return
        between = not self._in_head and not self._in_body
        begun = self._begun
        self._chunk = data
        self._chunk_from_start, self._begun_before = between, begun
        try:
            super().data_received(data)
        finally:
            self._chunk = b""
        if self._line_pending:  # send_400_response holds the line's bytes
            return
        if self._in_head:
            if self._begun == begun:
                self._head_seen += data
            else:
                limit = self.guards.max_header_bytes
                self._head_seen = bytearray(data[-limit:])
                self._head_from_start = between and self._begun == begun + 1
                self._head_from_start &= len(data) <= limit
        # The whole chunk is head when the head began before it (or it began the head
        # of a request that followed nothing in it) and is still incomplete after it.
        if self._in_head and (self._begun == begun or (between and self._begun == begun + 1)):
            self._head_bytes += len(data)
            if self._head_bytes > self.guards.max_header_bytes:
                self._refuse(431, self._too_large(), "header_too_large")

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._in_head, self._in_body = True, False
        self._head_bytes = 0
        self._trailer_bytes = 0
        self._begun += 1

    def on_header(self, name: bytes, value: bytes) -> None:
        if not self._in_body:
            super().on_header(name, value)
            return
        # A chunked body's trailer: never a header of the request (uvicorn appended it
        # to the request's headers, those of a queued request's app too), and counted
        # against the header limit (an endless trailer held 24 times its size).
        self._trailer_bytes += len(name) + len(value) + 4
        if self._trailer_bytes > self.guards.max_header_bytes:
            self._refusal = (431, self._too_large(), "header_too_large")
            raise ValueError("trailers too large")  # stops the parser: see send_400_response

    def on_headers_complete(self) -> None:
        self._stop_waiting()
        self._head_seen = bytearray()
        # Its body is read once its cycle exists (super()): a request refused here has
        # none, and the cycle, if any, is an earlier request's (see _refuse).
        self._in_head = False
        size = len(self.url) + sum(len(name) + len(value) + 4 for name, value in self.headers)
        if size > self.guards.max_header_bytes:
            self._refusal = (431, self._too_large(), "header_too_large")
            raise ValueError("headers too large")  # stops the parser: see send_400_response
        version = self.parser.get_http_version()
        if not _HTTP_1.fullmatch(version):
            # httptools reads a request line with no version (``GET /``, HTTP/0.9) as
            # 0.9, and passes HTTP/2.0 too: the app answered them as HTTP/1.1. The
            # refusal is the parser's own (400, as for HTTP/9.9), said in the language
            # of the headers read.
            raise ValueError("not HTTP/1.x")  # stops the parser: see send_400_response
        if self.parser.get_method() == b"CONNECT":
            # httptools knows CONNECT (and reads what follows as a tunnel's bytes), but
            # this server runs no tunnel: RFC 9110's 501, as for a method it does not
            # know. It was 400 (its authority-form target is no URL to parse).
            log.debug("%s: refused a CONNECT", _peer(self.client))
            with self._speaking():
                detail = _("this server does not implement the method {method!r}", method="CONNECT")
            self._refusal = (501, detail, "unknown_method")
            raise ValueError("CONNECT")  # stops the parser: see send_400_response
        codings = b", ".join(value for name, value in self.headers if name == b"transfer-encoding")
        if codings and codings.strip().lower() != b"chunked":
            # httptools reads "gzip, chunked" as plain chunked: the body would be
            # taken for what it is not.
            with self._speaking():
                detail = _(
                    "the only transfer coding this server reads is 'chunked' alone;"
                    " got {codings!r}",
                    codings=codings[:60].decode("latin-1"),
                )
            self._refusal = (501, detail, "transfer_coding")
            raise ValueError("unsupported transfer coding")  # stops the parser
        if (
            self.cycle is not None
            and not self.cycle.response_complete
            and len(self.pipeline) >= MAX_PIPELINED
        ):
            # Not queued: answered once the queued ones are (see _refuse), and the
            # connection closes. It was closed after them without a word.
            with self._speaking():
                detail = _(
                    "this connection holds more requests than the server queues ({limit}"
                    " behind the one being answered); send this one again on a new"
                    " connection",
                    limit=MAX_PIPELINED,
                )
            self._refusal = (503, detail, "pipeline_full")
            raise ValueError("too many pipelined requests")  # stops the parser
        self._in_body = True
        super().on_headers_complete()
        if version not in ("1.0", "1.1"):
            # RFC 9112 2.6: a higher minor version of HTTP/1 is served as the highest
            # this server speaks (it was 400: httptools refuses HTTP/1.2 to 1.9). The
            # app has not run yet: it sees 1.1.
            self.scope["http_version"] = "1.1"

    def on_message_complete(self) -> None:
        self._in_body = False
        super().on_message_complete()

    def _too_large(self) -> str:
        with self._speaking():
            return _(
                "the request line and headers are larger than the limit of {limit} bytes",
                limit=self.guards.max_header_bytes,
            )

    def _speaking(self, head: bytes | None = None) -> contextlib.AbstractContextManager[str]:
        """The language of the request's ``Accept-Language`` (of its headers that have
        arrived) for the server's own answers to it, as the app's. A request refused
        for its request line (a method httptools does not know: ``FOO / HTTP/1.1``)
        has no header read, and one refused for a header line (no colon), or whose
        headers stopped coming (408), lacks the header line before it, which httptools
        hands over only once the next line begins: unless one was read, complete
        ``Accept-Language`` lines are looked for in the bytes of the head received
        (those of the chunks it spans, within the header limit, and of the one being
        parsed), or in ``head``, the request's own bytes when they are known. Before, a
        408 after ``Accept-Language: ja`` sent last was English."""
        headers = list(self.headers or ())
        if not any(name == b"accept-language" for name, _value in headers):
            seen = self._head_seen + self._chunk if head is None else head
            found = _ACCEPT_LANGUAGE.findall(seen)
            headers += [(b"accept-language", value) for value in found]
        return speaking(headers)

    def on_response_complete(self) -> None:
        pipelined = bool(self.pipeline)  # its headers have arrived already
        super().on_response_complete()
        if self.transport.is_closing():
            self._linger()
        elif pipelined:
            pass
        elif self._refused_last is not None:  # the requests before it are answered
            self._unset_keepalive_if_required()
            self._answer(*self._refused_last, reason=None)  # counted when refused
        else:
            self._wait_for_head()

    def timeout_keep_alive_handler(self) -> None:
        super().timeout_keep_alive_handler()
        self._linger()

    def shutdown(self) -> None:
        super().shutdown()
        self._linger()

    # --- the header timeout ---------------------------------------------------------

    def _wait_for_head(self) -> None:
        self._stop_waiting()
        spread = 1 + HEAD_TIMEOUT_SPREAD * random.random()
        self._head_timer.start(self, self.guards.timeout_headers * spread, self._head_late)

    def _stop_waiting(self) -> None:
        self._head_timer.stop(self)

    def _head_late(self) -> None:
        self._head_timer.fired()
        if self._in_head:
            with self._speaking():
                detail = _(
                    "the request headers did not arrive within {seconds:g} s",
                    seconds=self.guards.timeout_headers,
                )
            self._refuse(408, detail, "header_timeout")
        else:
            self._close("header_timeout")

    # --- clients that do not read their answers ------------------------------------

    def pause_writing(self) -> None:
        """The transport holds more than its high-water mark of unsent answer: the
        client must read it within ``timeout_write_s``."""
        super().pause_writing()
        self._start_write_timer()

    def resume_writing(self) -> None:
        super().resume_writing()
        if not self.transport.is_closing():
            self._stop_write_timer()

    def _linger(self) -> None:
        """The connection is closing: its last bytes must go out within
        ``timeout_write_s`` (asyncio waits for ever for a client that reads nothing)."""
        if self.transport.is_closing() and not self._lost:
            self._start_write_timer()

    def _start_write_timer(self) -> None:
        if not self._write_timer.running:
            self._unsent = self._unsent_bytes()
            self._write_timer.start(self, self.guards.timeout_write, self._write_late)

    def _stop_write_timer(self) -> None:
        self._write_timer.stop(self)

    def _unsent_bytes(self) -> int:
        """Bytes of answers the client has not taken: the transport's buffer and, on
        Linux, the kernel's send queue (which alone can hold megabytes: a client
        reading slowly drains it long before the transport's buffer moves)."""
        return self.transport.get_write_buffer_size() + self._queued(termios.TIOCOUTQ)

    def _queued(self, queue: int) -> int:
        """Bytes in the socket's send queue (``TIOCOUTQ``) or receive queue
        (``FIONREAD``), on Linux; else 0."""
        sock = self.transport.get_extra_info("socket")
        if sock is not None:
            with contextlib.suppress(OSError, ValueError, AttributeError):
                queued = fcntl.ioctl(sock.fileno(), queue, b"\0\0\0\0")
                return int(struct.unpack("i", queued)[0])
        return 0

    def _write_late(self) -> None:
        """``timeout_write_s`` without the client taking any of its answer: drop it. A
        client that took some (reading slowly) gets the time again."""
        self._write_timer.fired()
        unsent = self._unsent_bytes()
        if not self._lost and unsent < self._unsent:
            self._start_write_timer()
        elif not unsent and self in self.guards.draining:  # all taken: the drain ends it
            self._stop_write_timer()
        else:
            self._abort("write_timeout")

    def _evict(self) -> None:
        """Make room for a new connection: this one waits for a request, or its client
        does not read its answers."""
        if self in self.guards.waiting:
            self._close("idle_evicted")
            self._stop_draining()  # the room is wanted now
        else:
            self._abort("stalled_evicted")

    def _abort(self, reason: str) -> None:
        """Drop the connection and whatever it had left to send."""
        self._stop_waiting()
        self._stop_write_timer()
        if self.cycle is not None:
            self.cycle.disconnected = True  # the app's next send is a no-op
        self.guards.metrics.connections_closed.labels(reason).inc()
        self.transport.abort()

    # --- running the app --------------------------------------------------------------

    def _start_asgi_task(self, cycle: Any, app: Any) -> None:
        super()._start_asgi_task(cycle, self._guarded(cycle, app))

    def _guarded(self, cycle: Any, app: Any) -> Any:
        """``app`` for one request, whose answer to a client gone meanwhile is dropped
        quietly, and which is cut quietly at the request timeout (see
        :class:`~api.middleware.AnswerCutShort`); either closes the connection
        within ``timeout_write_s``."""

        async def send(message: Any) -> None:
            try:
                await cycle.send(message)
            except RuntimeError:
                # uvloop refuses to write to a connection the client has closed (or
                # reset) before uvicorn learns of it; asyncio drops the bytes.
                if not self.transport.is_closing():
                    raise
                cycle.disconnected = True

        async def guarded(scope: Any, receive: Any, _send: Any) -> None:
            try:
                await app(scope, receive, send)
            except AnswerCutShort as cut:
                log.warning("%s", cut)
                cycle.disconnected = True
                if not self.transport.is_closing():
                    self.transport.close()
            finally:
                self.loop.call_soon(self._linger)  # after uvicorn's own closing, if any

        return guarded

    # --- answering outside the app ---------------------------------------------------

    def send_400_response(self, _msg: str) -> None:
        """uvicorn's answer to a parser error, which a callback of this class may
        raise on purpose after setting the answer it wants."""
        status, detail, reason = self._refusal
        if reason != "bad_request":
            self._refuse(status, detail, reason)
            return
        start = self._refused_method_start()
        if (
            start is not None
            and b"\n" not in start.lstrip(b"\r\n")  # empty lines before it are skipped
            and len(start) <= self.guards.max_header_bytes
            and _REQUEST_LINE_BEGUN.fullmatch(start)
        ):
            # httptools refuses at the first byte no method it knows has: a line cut
            # there (a packet of "BR") is read on until it is whole.
            self._head_seen = bytearray(start)
            self._line_pending = True
            return
        self._refuse_request_line(start)

    def _line_arrives(self, data: bytes) -> None:
        """More of a request line refused for its method (see :attr:`_line_pending`):
        judged once whole, or once it can no longer be one (a byte no request line
        has, or over the header limit); else it waits (the header timeout holds)."""
        self._head_seen += data
        if (
            b"\n" in data
            or _NOT_IN_REQUEST_LINE.search(data)
            or len(self._head_seen) > self.guards.max_header_bytes
        ):
            self._line_pending = False
            self._refuse_request_line(bytes(self._head_seen))

    def _refuse_request_line(self, start: bytes | None) -> None:
        """Refuse a request httptools refused for its method, ``start`` its bytes from
        its first (None: not known): 501 when its request line is otherwise sound
        HTTP/1.x (``BREW / HTTP/1.1``), RFC 9110's answer to a method the server does
        not recognise; else 400, as for bytes that are not HTTP (a TLS handshake,
        ``hello``), which httptools refuses for their method too."""
        line = None if start is None else _REQUEST_LINE.match(start)
        if line is not None:
            log.debug("%s: refused an unknown method", _peer(self.client))
            with self._speaking(start):
                detail = _(
                    "this server does not implement the method {method!r}",
                    method=line[1][:60].decode("latin-1"),
                )
            self._refuse(501, detail, "unknown_method")
        else:
            log.debug("%s: refused a request that is not HTTP/1.1", _peer(self.client))
            with self._speaking(start):
                detail = _("the request is not valid HTTP/1.1")
            self._refuse(400, detail, "bad_request")

    def _refused_method_start(self) -> bytes | None:
        """The bytes received of a request refused by httptools for its method, from
        its first: the packet it begins (behind other requests in it, found by parsing
        the packet again), or the packets it spans. None for any other error, and where
        the request's start is not known: behind the rest of a request begun in an
        earlier packet."""
        # Called in uvicorn's handler of the parser's error (send_400_response).
        if not isinstance(sys.exc_info()[1], httptools.HttpParserInvalidMethodError):
            return None
        if self._begun == self._begun_before and self._head_from_start:
            return bytes(self._head_seen + self._chunk)  # the method spans packets
        if self._begun == self._begun_before + 1 and self._chunk_from_start:
            return self._chunk
        begun = self._begun - self._begun_before  # the requests begun in this packet
        if begun > 1 and self._chunk_from_start:
            start = _request_start(self._chunk, begun)
            return None if start is None else self._chunk[start:]
        return None

    def _refuse(self, status: int, detail: str, reason: str) -> None:
        """Answer ``status`` and close, also when the request refused is the one whose
        body is being read (a bad chunk, a trailer over the limit); or, while
        an earlier request on the connection is being answered or waits its turn, read
        nothing more: the requests before this one are answered (the newest,
        ``cycle``, last), then this refusal, and the connection closes (closing at
        once lost their answers; not sending the refusal left the client to guess)."""
        if self._in_body and not self.pipeline and self.cycle is not None:
            # The request refused is the one being read, its app waiting for the rest
            # of its body: it is gone (its app sees the client leave), not left to
            # wait for the body timeout.
            self.cycle.disconnected = True  # its own answer is never sent: this one is
            self._answer(status, detail, reason)
        elif (self.cycle is not None and not self.cycle.response_complete) or self.pipeline:
            self._stop_waiting()
            self._full = True
            self._refused_last = (status, detail)  # see on_response_complete
            self.flow.pause_reading()
            self.guards.metrics.connections_closed.labels(reason).inc()
        else:
            self._answer(status, detail, reason)

    def _answer(self, status: int, detail: str, reason: str | None) -> None:
        # UTF-8 as the app's answers (Starlette's JSONResponse): a Japanese detail read
        # as \u escapes. Every detail is text, a client's bytes in it read as Latin-1.
        body = json.dumps({"detail": detail}, ensure_ascii=False).encode()
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
        self._unread = True
        self._close(reason)

    def _close(self, reason: str | None) -> None:
        """Close the connection, counted as closed for ``reason`` (None: counted
        already)."""
        self._stop_waiting()
        self._full = True  # nothing more is read
        if not self.transport.is_closing():
            if reason is not None:
                self.guards.metrics.connections_closed.labels(reason).inc()
            self.transport.close()
        self._linger()

    # --- closing with the client's bytes unread -------------------------------------

    def _closing(self) -> None:
        """Every close of the connection (uvicorn's and this class's alike, through
        :class:`_ClosingTransport`). When bytes the client sent may be left unread
        (:meth:`_may_have_unread`), closing would make Linux reset the connection: an
        RST, not a FIN, which drops the answers the kernel has not sent yet and may
        make the client lose the answer it has received. So its side is closed once
        the answer is out (``write_eof``: a FIN after it), and what the client still
        sends is read and dropped, until it closes its side, or for
        :data:`DRAIN_BYTES` or :data:`DRAIN_S`, whichever comes first; the write
        timeout still holds. Otherwise it closes at once."""
        real = self._transport.real
        if self._lost or not real.can_write_eof() or not self._may_have_unread():
            real.close()
            return
        self._drain_left = DRAIN_BYTES
        real.write_eof()
        real.resume_reading()
        self._drain_timer.start(self, DRAIN_S, self._drained)

    def _may_have_unread(self) -> bool:
        """Bytes the client sent may be left unread: a request being read (its head or
        body: a refusal before its body, a timeout), requests queued, a refusal of
        this server's own (what follows it is never read), or bytes waiting in the
        socket."""
        return (
            self._unread
            or self._in_head
            or self._in_body
            or bool(self.pipeline)
            or self._queued(termios.FIONREAD) > 0
        )

    def _drained(self) -> None:
        self._drain_timer.fired()
        self._stop_draining()

    def _stop_draining(self) -> None:
        """Close a draining connection now (its limit is reached, or its room is
        wanted)."""
        if self in self.guards.draining:
            self._drain_timer.stop(self)
            self._transport.real.close()


class _ClosingTransport(asyncio.Transport):
    """A connection's transport as its protocol and uvicorn's request cycles hold it:
    the transport itself, except that ``close()``, which uvicorn calls in many
    places, goes to ``closing`` (:meth:`GuardedProtocol._closing`), and that reading
    is not paused once it is closing (a drain reads on)."""

    def __init__(self, real: asyncio.Transport, closing: Callable[[], None]) -> None:
        super().__init__()
        self.real = real
        self.closing: Callable[[], None] | None = closing
        """Called on the first close; None once closing (or once the connection is
        lost: it holds the protocol)."""

    def close(self) -> None:
        closing, self.closing = self.closing, None
        if closing is not None:
            closing()

    def is_closing(self) -> bool:
        return self.closing is None or self.real.is_closing()

    def abort(self) -> None:
        self.closing = None
        self.real.abort()

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self.real.write(data)

    def write_eof(self) -> None:
        self.real.write_eof()

    def can_write_eof(self) -> bool:
        return self.real.can_write_eof()

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return self.real.get_extra_info(name, default)

    def get_write_buffer_size(self) -> int:
        return self.real.get_write_buffer_size()

    def get_write_buffer_limits(self) -> tuple[int, int]:
        return self.real.get_write_buffer_limits()

    def set_write_buffer_limits(self, high: int | None = None, low: int | None = None) -> None:
        self.real.set_write_buffer_limits(high, low)

    def is_reading(self) -> bool:
        return self.real.is_reading()

    def pause_reading(self) -> None:
        if self.closing is not None:
            self.real.pause_reading()

    def resume_reading(self) -> None:
        if self.closing is not None:
            self.real.resume_reading()

    def set_protocol(self, protocol: asyncio.BaseProtocol) -> None:
        self.real.set_protocol(protocol)

    def get_protocol(self) -> asyncio.BaseProtocol:
        return self.real.get_protocol()


class _Timer:
    """One of a connection's timers (the header timeout, the write timeout, the drain)
    and, while it runs, the connection's place in ``registry``: the guards' connections
    of its kind (waiting for a request, stalled, or draining), longest first.

    It holds no connection and no callback, only the loop's handle, which drops the
    callback once it has run or is cancelled: a timer that kept its connection's
    bound method would make a reference cycle (connection, timer, method) holding
    every closed connection until the garbage collector's rare full pass."""

    __slots__ = ("handle", "registry")

    def __init__(self, registry: dict[GuardedProtocol, None]) -> None:
        self.registry = registry
        self.handle: asyncio.TimerHandle | None = None

    @property
    def running(self) -> bool:
        return self.handle is not None

    def start(self, connection: GuardedProtocol, delay: float, late: Callable[[], None]) -> None:
        """Call ``late`` in ``delay`` seconds; ``connection`` joins the registry (keeping
        its place if it is there already)."""
        self.registry[connection] = None
        self.handle = connection.loop.call_later(delay, late)

    def fired(self) -> None:
        """The timer has run: its callback decides whether the connection leaves the
        registry (stopped) or stays (started again)."""
        self.handle = None

    def stop(self, connection: GuardedProtocol) -> None:
        self.registry.pop(connection, None)
        if self.handle is not None:
            self.handle.cancel()
            self.handle = None


def _nothing() -> None:
    """What a request's cycle calls on its answer's end once its connection is gone."""


def _peer(client: tuple[str, int] | None) -> str:
    return f"{client[0]}:{client[1]}" if client else "-"


class _Quiet(logging.Filter):
    """Drops uvicorn's warnings about a client's request: "Invalid HTTP request
    received." for each one that is not HTTP (or that this module stopped on purpose:
    a 431, a full pipeline, a ``CONNECT``), and two for each ``Connection: Upgrade``
    (one advising ``pip install uvicorn[standard]``: no route is a WebSocket). Any
    client could fill the log with them; the answer, the access log or this
    module's debug line, and the metrics say what happened."""

    DROPPED = frozenset({"Invalid HTTP request received.", "Unsupported upgrade request."})

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        return not (message in self.DROPPED or message.startswith("No supported WebSocket library"))


_HTTP_1 = re.compile(r"1\.[0-9]")
"""The HTTP versions served (RFC 9112 2.6: HTTP/1.2 to 1.9 as HTTP/1.1)."""


def _read_any_version(parser: httptools.HttpRequestParser) -> None:
    """Let ``parser`` read any version in a request line, which
    :meth:`GuardedProtocol.on_headers_complete` judges: httptools refuses a higher minor
    version of HTTP/1 (``HTTP/1.2``) that a server should serve as HTTP/1.1."""
    parser.set_dangerous_leniencies(lenient_version=True)


_ACCEPT_LANGUAGE = re.compile(rb"\naccept-language[ \t]*:[ \t]*([^\r\n]*)\r?\n", re.IGNORECASE)
"""A complete ``Accept-Language`` header line in raw request bytes: its value (a line
still arriving may be cut short: ``ja-JP`` read as ``j``)."""

_REQUEST_LINE = re.compile(
    rb"(?:\r?\n)*([!#$%&'*+.^_`|~0-9A-Za-z-]+) [\x21-\x7e]+ HTTP/1\.[0-9]\r?\n"
)
"""An HTTP/1.x request line (after any empty lines, which a server ignores): its method,
a token of RFC 9110's characters."""

_REQUEST_LINE_BEGUN = re.compile(
    rb"(?:\r?\n)*[!#$%&'*+.^_`|~0-9A-Za-z-]+"
    rb"(?: [\x21-\x7e]*(?: (?:H(?:T(?:T(?:P(?:/(?:1(?:\.(?:[0-9]\r?)?)?)?)?)?)?)?)?)?)?"
)
"""The beginning of a request line, as far as it has come (fully matched)."""

_NOT_IN_REQUEST_LINE = re.compile(rb"[^\x21-\x7e \r\n]")
"""A byte no request line holds."""


class _Begun:
    """Counts the requests a parser begins (:func:`_request_start`)."""

    def __init__(self) -> None:
        self.count = 0

    def on_message_begin(self) -> None:
        self.count += 1


def _request_start(data: bytes, nth: int) -> int | None:
    """Where the ``nth`` request (1: the first) begun in ``data``, read from a
    request's start, begins: its first byte (httptools tells no position; it begins a
    request at its first byte), or None if it is not begun (not met). ``data`` is read
    again in pieces up to the one the request begins in, then up to that piece and it
    in pieces :data:`FIND_START_FANOUT` times smaller, down to single bytes: a few
    readings, each of at most that many pieces beyond the first. (Halving the span,
    as it was found, read a packet up to 12 times for 4 KiB; it was kept to packets
    of 4 KiB, and a refusal behind others in a larger one was 400 whatever the
    method.)"""
    view = memoryview(data)
    start, end = 0, len(data)
    step = 1
    while step * FIND_START_FANOUT < end:
        step *= FIND_START_FANOUT
    while True:
        counted, parser = _counting_parser()
        parser.feed_data(view[:start])  # read without an error before
        try:
            for start in range(start, end, step):  # noqa: B020 - narrowed here
                parser.feed_data(view[start : start + step])
                if counted.count >= nth:
                    break
            else:
                return None
        except (httptools.HttpParserError, httptools.HttpParserUpgrade):
            if counted.count < nth:  # the error came first
                return None
        if step == 1:
            return start
        end = min(start + step, len(data))
        step //= FIND_START_FANOUT


def _counting_parser() -> tuple[_Begun, httptools.HttpRequestParser]:
    """A parser that counts the requests it begins, as lenient as a connection's."""
    counted = _Begun()
    parser = httptools.HttpRequestParser(counted)
    parser.set_dangerous_leniencies(lenient_data_after_close=True)  # as uvicorn's
    _read_any_version(parser)
    return counted, parser


_QUIET = _Quiet()
_PHRASES = {
    400: "Bad Request",
    408: "Request Timeout",
    431: "Request Header Fields Too Large",
    501: "Not Implemented",
    503: "Service Unavailable",
}
_SECURITY_HEAD = "".join(
    f"{name.decode()}: {value.decode()}\r\n" for name, value in SECURITY_HEADERS
)
"""The app's security headers (api.middleware), for the answers given outside it."""


def guarded_protocol(settings: Settings, metrics: Metrics) -> type[GuardedProtocol]:
    """A :class:`GuardedProtocol` class bound to one server's settings and metrics."""
    logging.getLogger("uvicorn.error").addFilter(_QUIET)
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


def run(settings: Settings) -> int:
    """Serve the app until SIGINT or SIGTERM, then shut down gracefully: stop taking
    connections, let running requests finish for up to ``timeout_shutdown_s``, then
    stop the solver workers (each finishing its task within its time cap). Return the
    exit code: 130 after a SIGINT (Ctrl-C); after a SIGTERM the process ends as
    killed by it."""
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
        # The app reads a trusted proxy's headers itself (api/proxies.py): its prefix
        # must be judged by the peer that connected, which uvicorn's would replace.
        proxy_headers=False,
        server_header=False,
        # No WebSocket route exists: an upgrade request is answered as plain HTTP, by
        # the app (its headers, request ID and log line), not by uvicorn's bare 403.
        ws="none",
        access_log=False,  # api.middleware.RequestLogMiddleware writes the access log
        log_config=logging_config(settings.log_format),
    )

    class Server(uvicorn.Server):
        """uvicorn's server, which tells the app that it is shutting down: the
        requests it cancels when the shutdown's time runs out are then answered 503
        (:class:`api.middleware.RequestTimeoutMiddleware`)."""

        async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
            app.state.stopping = True
            await super().shutdown(sockets)

    try:
        Server(config).run()
    except KeyboardInterrupt:
        # Once shut down, uvicorn raises the signal it stopped on again, so that the
        # process ends as that signal ends it: for SIGINT, Python's KeyboardInterrupt,
        # whose traceback made a Ctrl-C look like a crash. The exit code says it alone.
        return 128 + signal.SIGINT
    return 0

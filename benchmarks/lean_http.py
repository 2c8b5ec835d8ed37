"""A lean HTTP/1.1 client for the load test: one kept-alive connection per client,
requests written as prepared bytes, answers read with httptools' C parser.

The load generator runs on the same cores as the server it measures; httpx spends
a few milliseconds of CPU per request, which at 100+ requests/s is a good share of
a core taken from the server. This client spends a small fraction of that, so the
load test measures the server. It speaks only what the load test needs: POST with
a JSON body, ``Content-Length`` answers, keep-alive, and a new connection when
the server closes one (as it does after some refusals).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

import httptools


@dataclass(frozen=True)
class Answer:
    """An HTTP answer: its status, its ``Retry-After`` header (if any) and its body."""

    status: int
    retry_after: str | None
    body: bytes


class _Connection(asyncio.Protocol):
    """One connection; at most one request in flight on it."""

    def __init__(self) -> None:
        self.parser = httptools.HttpResponseParser(self)
        self.transport: asyncio.Transport | None = None
        self.waiter: asyncio.Future[Answer] | None = None
        self.closed = False
        self._body: list[bytes] = []
        self._retry_after: str | None = None

    # asyncio.Protocol
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        try:
            self.parser.feed_data(data)
        except httptools.HttpParserError as error:
            self._fail(ConnectionError(f"bad answer: {error}"))

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        self._fail(ConnectionError(f"the connection closed: {exc or 'by the server'}"))

    # httptools callbacks
    def on_message_begin(self) -> None:
        self._body, self._retry_after = [], None

    def on_header(self, name: bytes, value: bytes) -> None:
        if name.lower() == b"retry-after":
            self._retry_after = value.decode("latin-1")

    def on_body(self, body: bytes) -> None:
        self._body.append(body)

    def on_message_complete(self) -> None:
        answer = Answer(self.parser.get_status_code(), self._retry_after, b"".join(self._body))
        if not self.parser.should_keep_alive():
            self.closed = True
            if self.transport is not None:
                self.transport.close()
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_result(answer)

    def _fail(self, error: Exception) -> None:
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_exception(error)


class LeanClient:
    """Posts JSON bodies to one server from one local address, over one kept-alive
    connection (opened again when the server closes it)."""

    def __init__(self, host: str, port: int, local_address: str | None = None) -> None:
        self.host = host
        self.port = port
        self.local_address = local_address
        self._connection: _Connection | None = None

    @staticmethod
    def request(host: str, path: str, body: bytes) -> bytes:
        """The bytes of a POST of ``body`` (JSON) to ``path``: prepare once, send often."""
        head = (
            f"POST {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n"
        )
        return head.encode("latin-1") + body

    async def send(self, request: bytes, timeout: float = 30.0) -> Answer:
        """Send a prepared request (see :meth:`request`); its answer."""
        connection = self._connection
        if connection is None or connection.closed:
            connection = self._connection = await self._connect()
        loop = asyncio.get_running_loop()
        connection.waiter = loop.create_future()
        assert connection.transport is not None
        connection.transport.write(request)
        try:
            async with asyncio.timeout(timeout):
                return await connection.waiter
        except BaseException:
            self.close()  # an answer may still come: never read it as the next one's
            raise

    async def _connect(self) -> _Connection:
        loop = asyncio.get_running_loop()
        local = (self.local_address, 0) if self.local_address else None
        _transport, protocol = await loop.create_connection(
            _Connection, self.host, self.port, local_addr=local
        )
        return protocol

    def close(self) -> None:
        if self._connection is not None and self._connection.transport is not None:
            self._connection.transport.close()
        self._connection = None

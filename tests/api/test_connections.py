"""The connection guards of :mod:`api.server` against clients that misuse HTTP/1.1:
pipelining without reading the answers, endless headers behind a request in
flight, not reading an answer at all. Each runs the guarded protocol in-process
(in a thread, on uvloop as ``meldwise serve`` does) in front of a small ASGI app,
so a test takes a second or two and can look at the protocol's own state."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
import re
import socket
import threading
import time
import weakref
from collections.abc import Iterator
from typing import Any

import httptools
import pytest
import uvicorn
import uvloop
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.types import Receive, Scope, Send
from uvicorn.server import ServerState

from api import server as server_module
from api.metrics import Metrics
from api.middleware import BodyLimitMiddleware, RequestTimeoutMiddleware
from api.server import MAX_PIPELINED, GuardedProtocol, guarded_protocol
from api.settings import Settings


async def _app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """``/bytes/N``: N bytes, sent 64 KiB at a time; ``/sleep/S``: a short answer after
    S seconds; ``/drip/S``: an answer begun, then cut by a request timeout of S
    seconds; ``/echo/0``: the names of the request's headers; ``/read/0``: a short
    answer once the whole body is read; ``/version/0``: the request's HTTP version, as
    the app sees it; ``/limit/N``: ``/read/0`` behind the service's body limit of N
    bytes (413 and close, the body unread)."""
    _, what, amount = scope["path"].split("/")
    if what == "drip":
        await RequestTimeoutMiddleware(_drip, float(amount), 1, Metrics())(scope, receive, send)
        return
    if what == "limit":
        await BodyLimitMiddleware(_read, int(amount), 5, Metrics())(scope, receive, send)
        return
    if what == "sleep":
        await asyncio.sleep(float(amount))
    body = b"x" * (int(amount) if what == "bytes" else 2)
    if what == "echo":
        body = b",".join(name for name, _ in scope["headers"])
    if what == "version":
        body = scope["http_version"].encode()
    if what == "read":
        while (await receive()).get("more_body"):
            pass
    headers = [(b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    for start in range(0, len(body), 1 << 16):
        more = start + (1 << 16) < len(body)
        piece = body[start : start + (1 << 16)]
        await send({"type": "http.response.body", "body": piece, "more_body": more})


async def _read(scope: Scope, receive: Receive, send: Send) -> None:
    await _app({**scope, "path": "/read/0"}, receive, send)


async def _drip(scope: Scope, receive: Receive, send: Send) -> None:
    headers = [(b"content-length", b"10")]
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    await send({"type": "http.response.body", "body": b"12345", "more_body": True})
    await asyncio.sleep(10)


class Served:
    """The guarded protocol on a loopback port, in a thread of its own."""

    def __init__(self, **settings: Any) -> None:
        self.settings = Settings(workers=1, **settings)
        self.metrics = Metrics()
        self.protocol = guarded_protocol(self.settings, self.metrics)
        config = uvicorn.Config(
            _app, http=self.protocol, ws="none", log_config=None, access_log=False
        )
        config.load()
        self.state = ServerState()
        self.loop = uvloop.new_event_loop()
        self.protocols: list[weakref.ref[GuardedProtocol]] = []

        def make() -> GuardedProtocol:
            made = self.protocol(
                config=config, server_state=self.state, app_state={}, _loop=self.loop
            )
            self.protocols.append(weakref.ref(made))
            return made

        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.server = self.loop.run_until_complete(
            self.loop.create_server(make, sock=self.listener)
        )
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def call(self, function: Any) -> Any:
        """``function()`` run on the server's loop; its result."""
        return asyncio.run_coroutine_threadsafe(_call(function), self.loop).result(5)

    def closed(self, reason: str) -> float:
        name = "meldwise_connections_closed_by_server_total"
        return self.metrics.registry.get_sample_value(name, {"reason": reason}) or 0.0

    def stop(self) -> None:
        # On the loop's thread: neither uvloop's server (libuv handles) nor asyncio's (its
        # selector, its waiters) may be touched from another while the loop runs.
        self.call(self.server.close)
        asyncio.run_coroutine_threadsafe(_cancel_all(), self.loop).result(5)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)
        self.loop.close()


def test_stop_closes_the_server_on_its_loops_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    """Served.stop closed the listening server from the test's thread while the loop ran
    in its own (every test here stops one)."""
    server = Served()
    listening = server.server
    closed_in: list[threading.Thread] = []

    class Closing:
        def close(self) -> None:
            closed_in.append(threading.current_thread())
            listening.close()

    monkeypatch.setattr(server, "server", Closing())
    server.stop()
    assert closed_in == [server.thread]
    assert not listening.is_serving()


def _protocols(server: Served) -> list[GuardedProtocol]:
    """The server's open connections."""
    return [p for p in server.state.connections if isinstance(p, GuardedProtocol)]


async def _call(function: Any) -> Any:
    return function()


async def _cancel_all() -> None:
    """Cancel the requests still running (a test's last answers), and let them end."""
    tasks = [task for task in asyncio.all_tasks() if task is not asyncio.current_task()]
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


@contextlib.contextmanager
def served(**settings: Any) -> Iterator[Served]:
    server = Served(**settings)
    try:
        yield server
    finally:
        server.stop()


def _slow_reader(port: int) -> socket.socket:
    """A connection whose client reads nothing (a small receive buffer)."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", port))
    return sock


def _read_to_the_end(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes its side: a clean end (a FIN), not a
    reset (ConnectionResetError goes through: the client may lose what came before)."""
    sock.settimeout(10)  # a guard: the server closes within a few seconds
    answer = b""
    while chunk := sock.recv(1 << 16):
        answer += chunk
    return answer


def _read_all(sock: socket.socket, wait: float) -> bytes:
    sock.settimeout(wait)
    answer = b""
    with contextlib.suppress(TimeoutError, ConnectionResetError):
        while chunk := sock.recv(1 << 16):
            answer += chunk
    return answer


@pytest.mark.parametrize(
    ("header", "detail"),
    [
        (
            b"",
            "this connection holds more requests than the server queues (8 behind the one"
            " being answered); send this one again on a new connection",
        ),
        (
            b"Accept-Language: ja\r\n",
            "\u3053\u306e\u63a5\u7d9a\u3067\u5f85\u305f\u305b\u3089\u308c\u308b"
            "\u30ea\u30af\u30a8\u30b9\u30c8\u306f\u5fdc\u7b54\u4e2d\u306e\u3082"
            "\u306e\u306e\u5f8c\u308d\u306b 8 \u4ef6\u307e\u3067\u3067\u3059\u3002"
            "\u3053\u306e\u30ea\u30af\u30a8\u30b9\u30c8\u306f\u65b0\u3057\u3044"
            "\u63a5\u7d9a\u3067\u9001\u308a\u76f4\u3057\u3066\u304f\u3060\u3055"
            "\u3044",
        ),
    ],
    ids=["en", "ja"],
)
def test_pipelined_requests_beyond_a_few_are_not_queued(header: bytes, detail: str) -> None:
    """uvicorn queued every pipelined request whose answer the client had not read:
    14 MB of them on 8 connections held 600 MB. The first one refused is answered 503
    after the queued ones (the connection was closed without a word)."""
    with served() as server, _slow_reader(server.port) as sock:
        sock.sendall(b"GET /sleep/0.3 HTTP/1.1\r\nHost: x\r\n\r\n")
        sock.sendall((b"GET /bytes/10 HTTP/1.1\r\nHost: x\r\n" + header + b"\r\n") * 2000)
        time.sleep(0.1)
        queued = server.call(lambda: [len(p.pipeline) for p in _protocols(server)])
        assert queued == [MAX_PIPELINED]
        # The queued requests are answered, then the first refused, and the connection
        # is closed.
        answer = _read_all(sock, 3)
        statuses = re.findall(rb"HTTP/1\.1 ([0-9]{3}) ", answer)
        assert statuses == [b"200"] * (1 + MAX_PIPELINED) + [b"503"]
        head, _, body = answer[answer.index(b"HTTP/1.1 503") :].partition(b"\r\n\r\n")
        assert head.endswith(b"\r\nconnection: close")
        assert json.loads(body) == {"detail": detail}
        assert server.closed("pipeline_full") == 1


def test_a_pipelined_request_gets_the_header_limit_too() -> None:
    """The header size was counted only on a connection waiting for a request: the
    next request's headers, sent while one was answered, could grow without end."""
    with served(max_header_bytes=4096) as server, _slow_reader(server.port) as sock:
        sock.sendall(b"GET /sleep/2 HTTP/1.1\r\nHost: x\r\n\r\nGET /bytes/1 HTTP/1.1\r\n")
        with contextlib.suppress(OSError):  # the server closes the connection meanwhile
            for _ in range(100):
                sock.sendall(b"X-Pad: a\r\n" * 1000)
                time.sleep(0.005)
        assert server.closed("header_too_large") == 1
        # The request before it is answered, then the refusal is said and the
        # connection closes (closing at once lost that answer; the refusal was not
        # said at all): the server's side, then, once the client's is, the whole.
        answer = _read_to_the_end(sock)
        assert answer.startswith(b"HTTP/1.1 200")
        assert answer.count(b"HTTP/1.1") == 2
        refusal = answer[answer.index(b"HTTP/1.1 431") :]
        assert b"\r\nconnection: close\r\n" in refusal
        assert b"larger than the limit of 4096 bytes" in refusal
        sock.shutdown(socket.SHUT_WR)
        _wait_for(lambda: server.call(lambda: len(server.state.connections)) == 0)


@pytest.mark.parametrize(
    ("behind", "status", "detail"),
    [
        (b"GET / HTTP/1.1\r\nX: " + b"a" * 5000 + b"\r\n\r\n", b"431", "larger than the limit"),
        (b"POST / HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n", b"501", "'chunked' alone"),
    ],
    ids=["headers-too-large", "transfer-coding"],
)
def test_a_request_refused_for_its_head_behind_another_in_one_packet_loses_no_answer(
    behind: bytes, status: bytes, detail: str
) -> None:
    """The refusal was taken for one of the body of the request before it, whose answer
    was dropped: the client got the refusal alone."""
    with (
        served(max_header_bytes=4096) as server,
        socket.create_connection(("127.0.0.1", server.port)) as sock,
    ):
        sock.sendall(b"GET /sleep/0.2 HTTP/1.1\r\nHost: x\r\n\r\n" + behind)
        answer = _read_all(sock, 2)
    assert answer.startswith(b"HTTP/1.1 200 OK\r\n")
    _, _, refusal = answer.partition(b"xxHTTP/1.1 ")
    head, _, body = refusal.partition(b"\r\n\r\n")
    assert head.split()[0] == status
    assert detail in json.loads(body)["detail"]


def test_chunked_trailers_are_no_headers_and_count_against_the_limit() -> None:
    """Trailer lines went into the request's headers, uncounted: an endless trailer
    held 24 times its size (and a queued request's app saw them as its headers)."""
    with (
        served(max_header_bytes=4096) as server,
        socket.create_connection(("127.0.0.1", server.port)) as sock,
    ):
        # Queued behind a slow answer, the request's app starts once its trailer is read.
        head = b"POST /echo/0 HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
        sock.sendall(b"GET /sleep/0.3 HTTP/1.1\r\nHost: x\r\n\r\n")
        sock.sendall(head + b"2\r\n{}\r\n0\r\nX-Trailer: 1\r\n\r\n")
        answer = _read_all(sock, 1.5)
        assert answer.count(b"HTTP/1.1 200") == 2
        assert b"transfer-encoding" in answer
        assert b"x-trailer" not in answer
    with (
        served(max_header_bytes=4096) as server,
        socket.create_connection(("127.0.0.1", server.port)) as sock,
    ):
        sock.sendall(b"GET /bytes/1 HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n")
        with contextlib.suppress(OSError):
            for _ in range(20):
                sock.sendall(b"X: a\r\n" * 1000)
        time.sleep(0.2)
        assert server.closed("header_too_large") == 1
    # The request refused is the one whose body was being read: answered at once, not
    # left to wait for the body timeout (a 408 after it).
    with (
        served(max_header_bytes=4096, timeout_body_s=5) as server,
        socket.create_connection(("127.0.0.1", server.port)) as sock,
    ):
        sock.sendall(b"POST /read/0 HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
        time.sleep(0.2)  # its app waits for the body
        sock.sendall(b"2\r\n{}\r\n0\r\n" + b"X: a\r\n" * 1000)
        started = time.monotonic()
        answer = _read_all(sock, 3.0)
        assert answer.startswith(b"HTTP/1.1 431")
        assert time.monotonic() - started < 2


def test_a_closed_connection_is_freed_without_waiting_for_a_full_collection() -> None:
    """Queued requests held their protocol (and all their headers) in a reference
    cycle until the garbage collector's rare full pass."""
    gc.disable()
    try:
        with served() as server:
            with _slow_reader(server.port) as sock:
                sock.sendall(b"GET /sleep/0.5 HTTP/1.1\r\nHost: x\r\n\r\n")
                sock.sendall(b"GET /bytes/1 HTTP/1.1\r\nHost: x\r\nX: y\r\n\r\n" * 4)
                time.sleep(0.1)
            time.sleep(0.8)
            assert server.call(lambda: len(server.state.connections)) == 0
            assert [ref() for ref in server.protocols] == [None]
    finally:
        gc.enable()


@pytest.mark.parametrize("close", [False, True])
def test_a_client_that_reads_no_answer_is_dropped_after_the_write_timeout(close: bool) -> None:
    """A client whose receive window stays shut held its connection for ever: asyncio
    waits for the write buffer to drain before it closes one."""
    request = b"GET /bytes/%d HTTP/1.1\r\nHost: x\r\n%s\r\n" % (
        # Under the transport's high-water mark (once the kernel's buffers are full),
        # when closing, so that only the closing's linger catches it.
        8_000_000 if not close else 4_000_000,
        b"Connection: close\r\n" if close else b"",
    )
    with served(timeout_write_s=0.5) as server, _slow_reader(server.port) as sock:
        sock.sendall(request)
        time.sleep(0.1)
        assert server.call(lambda: len(server.state.connections)) == 1
        deadline = time.monotonic() + 3
        while server.call(lambda: len(server.state.connections)) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert server.call(lambda: len(server.state.connections)) == 0
        assert server.closed("write_timeout") == 1


@pytest.mark.parametrize("close", [False, True])
def test_a_client_reading_slowly_gets_its_whole_answer(close: bool) -> None:
    """The write timeout is time without progress: a client taking its answer slowly
    but steadily was cut when the whole of it took longer than the timeout.

    The timeout never runs out on its own here (600 s): the test makes it run out,
    again and again, each time the server has seen the client take some of its answer
    since the timer started, as a steady reader does within each timeout however long
    the whole takes. (It was a real timeout of 0.5 s, which held only while the client,
    pausing 2 ms between its 2,930 reads, was never held up longer, and a cap of 20 s
    on the whole: the reads took 6 s on a quiet machine, 11-13 s on a loaded one, and
    with the process stopped 3 s in every 4 the cap ran out at 9.6 MB of the 12.)"""
    size = 12_000_000
    connection = b"Connection: close\r\n" if close else b""

    def time_runs_out() -> bool:
        """On the server's loop: the write timeout runs out now, if the timer runs
        and the client has taken part of its answer since it started."""
        for protocol in _protocols(server):
            timer = protocol._write_timer  # noqa: SLF001
            if timer.handle is not None and protocol._unsent_bytes() < protocol._unsent:  # noqa: SLF001
                timer.handle.cancel()
                protocol._write_late()  # noqa: SLF001
                return True
        return False

    with served(timeout_write_s=600) as server, _slow_reader(server.port) as sock:
        sock.sendall(b"GET /bytes/%d HTTP/1.1\r\nHost: x\r\n%s\r\n" % (size, connection))
        sock.settimeout(30)  # a guard: the server sends as the client reads
        answer = bytearray()
        whole = None
        ran_out = 0
        while whole is None or len(answer) < whole:
            chunk = sock.recv(1 << 16)
            if not chunk:  # dropped
                break
            answer += chunk
            if whole is None and b"\r\n\r\n" in answer:
                whole = answer.index(b"\r\n\r\n") + 4 + size
            ran_out += server.call(time_runs_out)
        assert whole is not None
        assert len(answer) == whole
        if close:
            assert sock.recv(1) == b""
        assert server.closed("write_timeout") == 0
        assert ran_out > 100  # the answer took many times the timeout


def test_clients_that_read_no_answers_cannot_lock_the_others_out() -> None:
    """At the connection limit, a connection whose answer is not being read makes room
    for a new one, as an idle one does: 32 such locked everyone out at a limit of 32."""
    with served(max_connections=4, timeout_write_s=60) as server:
        readers = [_slow_reader(server.port) for _ in range(4)]
        try:
            for sock in readers:
                sock.sendall(b"GET /bytes/8000000 HTTP/1.1\r\nHost: x\r\n\r\n")
            time.sleep(0.3)
            with socket.create_connection(("127.0.0.1", server.port)) as sock:
                sock.sendall(b"GET /bytes/5 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                assert _read_all(sock, 3).startswith(b"HTTP/1.1 200")
            assert server.closed("stalled_evicted") == 1
        finally:
            for sock in readers:
                sock.close()


def test_an_answer_cut_by_the_request_timeout_closes_quietly(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The request timeout striking once the answer had begun re-raised its
    TimeoutError: uvicorn logged "Exception in ASGI application" and a traceback."""
    with caplog.at_level(logging.INFO), served() as server:
        with socket.create_connection(("127.0.0.1", server.port)) as sock:
            sock.sendall(b"GET /drip/0.3 HTTP/1.1\r\nHost: x\r\n\r\n")
            answer = _read_all(sock, 3)
        assert answer.startswith(b"HTTP/1.1 200")
        assert answer.endswith(b"\r\n\r\n12345")  # cut, and the connection closed
    problems = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert [r.getMessage() for r in problems] == [
        "GET /drip/0.3: the answer was cut at the request timeout of 0.3 s (the client "
        "read it too slowly)"
    ]
    assert "Traceback" not in caplog.text


def test_a_client_that_leaves_mid_download_is_no_error(caplog: pytest.LogCaptureFixture) -> None:
    """A browser tab closed mid-download: uvloop's RuntimeError on writing to the closed
    transport was logged as "Exception in ASGI application" with a traceback."""
    with caplog.at_level(logging.INFO), served() as server:
        for _ in range(5):
            with _slow_reader(server.port) as sock:
                sock.sendall(b"GET /bytes/8000000 HTTP/1.1\r\nHost: x\r\n\r\n" * 2)
                time.sleep(0.2)
                sock.recv(100_000)
            time.sleep(0.1)
        deadline = time.monotonic() + 3
        while server.call(lambda: len(server.state.tasks)) and time.monotonic() < deadline:
            time.sleep(0.05)
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


@pytest.mark.parametrize(
    "request_bytes",
    [
        b"NOT HTTP\r\n\r\n",
        b"CONNECT example.org:443 HTTP/1.1\r\nHost: example.org:443\r\n\r\n",
        b"GET /bytes/1 HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: h2c\r\n\r\n",
        b"GET /bytes/1 HTTP/1.1\r\nHost: x\r\nX: " + b"a" * 20_000 + b"\r\n\r\n",
    ],
    ids=["not-http", "connect", "upgrade", "431"],
)
def test_what_a_client_sends_logs_no_warning(
    caplog: pytest.LogCaptureFixture, request_bytes: bytes
) -> None:
    """Each request that was not HTTP logged "Invalid HTTP request received.", and
    each Connection: Upgrade or CONNECT two warnings (one advising pip install
    'uvicorn[standard]'): any client could fill the log."""
    with caplog.at_level(logging.INFO), served() as server:
        for _ in range(3):
            with socket.create_connection(("127.0.0.1", server.port)) as sock:
                sock.sendall(request_bytes)
                assert _read_all(sock, 2).startswith(b"HTTP/1.1 ")
    assert not [r for r in caplog.records if r.levelno >= logging.INFO]


@pytest.mark.parametrize("coding", [b"gzip, chunked", b"identity, chunked"])
def test_a_transfer_coding_other_than_chunked_gets_501(coding: bytes) -> None:
    """``Transfer-Encoding: gzip, chunked`` was read as plain chunked: the body taken
    for what it was not."""
    with served() as server, socket.create_connection(("127.0.0.1", server.port)) as sock:
        sock.sendall(
            b"POST /bytes/1 HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: %s\r\n\r\n"
            b"5\r\nhello\r\n0\r\n\r\n" % coding
        )
        answer = _read_all(sock, 3)
    assert answer.startswith(b"HTTP/1.1 501 Not Implemented")
    assert b"the only transfer coding this server reads is 'chunked' alone" in answer


def test_the_servers_own_refusals_speak_the_accept_language_of_the_request() -> None:
    """The 501 for a transfer coding and the 431 for headers over the limit were
    English for a request that asked for Japanese, while the app's refusals are not."""
    coding = (
        b"POST /bytes/1 HTTP/1.1\r\nHost: x\r\nAccept-Language: ja\r\n"
        b"Transfer-Encoding: gzip\r\n\r\n"
    )
    # Over the limit once complete, and over it before the head is complete.
    huge = b"GET /bytes/1 HTTP/1.1\r\nAccept-Language: ja\r\nX: " + b"a" * 5000 + b"\r\n\r\n"
    endless = b"GET /bytes/1 HTTP/1.1\r\nAccept-Language: ja;q=0.5, en;q=0.2\r\nX: " + b"a" * 9000
    answers = []
    with served(max_header_bytes=4096) as server:
        for request in (coding, huge, endless):
            with socket.create_connection(("127.0.0.1", server.port)) as sock:
                sock.sendall(request)
                head, _, body = _read_all(sock, 2).partition(b"\r\n\r\n")
                answers.append((head.split()[1], json.loads(body)["detail"]))
                # UTF-8, as the app's answers: these were \u escapes.
                assert json.loads(body)["detail"].encode() in body
    too_large = "リクエスト行とヘッダーが上限の4096バイトを超えています"
    assert answers == [
        (
            b"501",
            "このサーバーが読める転送コーディングは 'chunked' だけです(受け取ったのは 'gzip')",
        ),
        (b"431", too_large),
        (b"431", too_large),
    ]


def test_the_header_timeout_and_a_bad_request_speak_the_accept_language_too() -> None:
    """The 408 for headers that did not arrive in time and the 400 for a request that is
    not HTTP (a bad chunk) were English whatever the headers that had arrived asked."""
    late = b"GET /bytes/1 HTTP/1.1\r\nAccept-Language: ja\r\nX: y"
    bad_chunk = (
        b"POST /read/0 HTTP/1.1\r\nHost: x\r\nAccept-Language: ja\r\n"
        b"Transfer-Encoding: chunked\r\n\r\nzz\r\n"
    )
    # Not a method at all: refused at the request line, before any header.
    bad_method = b"FO@ /bytes/1 HTTP/1.1\r\nHost: x\r\naccept-LANGUAGE:  ja\r\n\r\n"
    # A header line without a colon: the line before it is not handed over yet.
    no_colon = b"GET /bytes/1 HTTP/1.1\r\nHost: x\r\nAccept-Language: ja\r\nX\r\n\r\n"
    answers = []
    with served(timeout_headers_s=0.5) as server:
        for request in (late, bad_chunk, bad_method, no_colon):
            with socket.create_connection(("127.0.0.1", server.port)) as sock:
                sock.sendall(request)
                head, _, body = _read_all(sock, 2).partition(b"\r\n\r\n")
                answers.append((head.split()[1], json.loads(body)["detail"]))
    assert answers == [
        (b"408", "リクエストのヘッダーが0.5秒以内に届きませんでした"),
        (b"400", "リクエストが正しい HTTP/1.1 ではありません"),
        (b"400", "リクエストが正しい HTTP/1.1 ではありません"),  # old: English
        (b"400", "リクエストが正しい HTTP/1.1 ではありません"),  # old: English
    ]


def test_connections_opened_together_get_header_deadlines_spread_over_a_quarter_of_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each connection's header timeout is drawn from 1 to 1.25 times the setting, so that
    connections opened together are not closed together. Checked on the delays the
    server sets, not on when the clients see their connections close: a loop stalled
    past the deadlines (a loaded machine) closes them together whatever their delays
    (test_server's guards test saw 7 closed 5 ms apart and failed once)."""
    delays: list[float] = []
    start = server_module._Timer.start  # noqa: SLF001

    def recorded(timer: Any, connection: GuardedProtocol, delay: float, late: Any) -> None:
        if timer is connection._head_timer:  # noqa: SLF001
            delays.append(delay)
        start(timer, connection, delay, late)

    monkeypatch.setattr(server_module._Timer, "start", recorded)  # noqa: SLF001
    with served(timeout_headers_s=0.5) as server:
        idle = [socket.create_connection(("127.0.0.1", server.port)) for _ in range(12)]
        try:
            _wait_for(lambda: len(delays) == 12)
        finally:
            for sock in idle:
                sock.close()
    assert all(0.5 <= delay <= 0.625 for delay in delays), delays
    # Spread over the window: 12 delays drawn from it all fall within a quarter of it
    # (31.25 ms) once in about 450,000 runs; with no spread they are all 0.5.
    assert max(delays) - min(delays) > 0.125 / 4, delays


def test_an_accept_language_line_sent_last_is_heard_by_the_408_and_the_400() -> None:
    """httptools hands a header line over only once the next one begins: the 408 for
    headers that stopped coming right after ``Accept-Language: ja``, and the 400 for a
    bad line sent after it in a later packet, were English. A line not yet complete
    is not read (``ja`` may be ``ja-JP`` still arriving)."""
    head = b"GET /bytes/1 HTTP/1.1\r\nHost: x\r\nAccept-Language: ja\r\n"
    cases = [
        ([head], b"408", "リクエストのヘッダーが0.5秒以内に届きませんでした"),
        ([head, b"X\r\n\r\n"], b"400", "リクエストが正しい HTTP/1.1 ではありません"),
        (
            [b"GET /bytes/1 HTTP/1.1\r\n", b"Host: x\r\nAccept-", b"Language: ja\r\n"],
            b"408",
            "リクエストのヘッダーが0.5秒以内に届きませんでした",
        ),
        ([head.removesuffix(b"\r\n")], b"408", "the request headers did not arrive within 0.5 s"),
    ]
    with served(timeout_headers_s=0.5) as server:
        for parts, status, detail in cases:
            with socket.create_connection(("127.0.0.1", server.port)) as sock:
                for part in parts:
                    sock.sendall(part)
                    time.sleep(0.1)  # each part a chunk of its own
                head_, _, body = _read_all(sock, 2).partition(b"\r\n\r\n")
                assert (head_.split()[1], json.loads(body)["detail"]) == (status, detail)


@pytest.mark.parametrize(
    ("parts", "status", "detail"),
    [
        ([b"BREW /bytes/1 HTTP/1.1\r\nHost: x\r\n\r\n"], b"501", "'BREW'"),
        ([b"get /bytes/1 HTTP/1.0\r\n\r\n"], b"501", "'get'"),  # methods are case-sensitive
        ([b"B", b"REW /bytes/1 HTTP/1.1\r\nHost: x\r\n\r\n"], b"501", "'BREW'"),
        # A method httptools knows, but no tunnel runs here (it was 400: not HTTP/1.1).
        (
            [b"CONNECT example.org:443 HTTP/1.1\r\nHost: example.org:443\r\n\r\n"],
            b"501",
            "'CONNECT'",
        ),
        ([b"CONNECT / HTTP/1.1\r\n\r\n"], b"501", "'CONNECT'"),
        ([b"GET /bytes/1 HTTP/1.1\r\n\r\nCONNECT h:443 HTTP/1.1\r\n\r\n"], b"501", "'CONNECT'"),
        (
            [b"GET /bytes/1 HTTP/1.1\r\nHost: x\r\n\r\n", b"BREW / HTTP/1.1\r\n\r\n"],
            b"501",
            "'BREW'",
        ),
        # Not HTTP: refused by httptools for their method too.
        ([b"hello world\r\n\r\n"], b"400", "the request is not valid HTTP/1.1"),
        ([b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + bytes(40)], b"400", "HTTP/1.1"),
        ([b"G ET /bytes/1 HTTP/1.1\r\n\r\n"], b"400", "HTTP/1.1"),
        ([b"BREW /bytes/1 HTTP/9.9\r\n\r\n"], b"400", "HTTP/1.1"),
        # Refused at its second byte, before the line is whole: read on until it is
        # (it was 400).
        ([b"BR", b"EW /bytes/1 HTTP/1.1\r\n\r\n"], b"501", "'BREW'"),
        ([b"BR", b"EW /bytes/1", b" HTTP/1.1\r\n\r\n"], b"501", "'BREW'"),
        ([b"\r\nBR", b"EW /bytes/1 HTTP/1.1\r\n\r\n"], b"501", "'BREW'"),
        ([b"hel", b"lo world\r\n\r\n"], b"400", "HTTP/1.1"),
        ([b"BR", b"EW \x00 HTTP/1.1\r\n\r\n"], b"400", "HTTP/1.1"),
        # Behind a request in the same packet (it was not answered at all), or in the
        # packet before.
        ([b"GET /bytes/1 HTTP/1.1\r\nHost: x\r\n\r\nBREW / HTTP/1.1\r\n\r\n"], b"501", "'BREW'"),
        ([b"GET /sleep/0.3 HTTP/1.1\r\n\r\nBR", b"EW / HTTP/1.1\r\n\r\n"], b"501", "'BREW'"),
        ([b"GET /bytes/1 HTTP/1.1\r\n\r\nhello\r\n\r\n"], b"400", "HTTP/1.1"),
        # Behind others in a packet over 4 KiB (it was 400: not looked for there).
        (
            [b"GET /bytes/1 HTTP/1.1\r\nX: " + b"a" * 12_000 + b"\r\n\r\nBREW / HTTP/1.1\r\n\r\n"],
            b"501",
            "'BREW'",
        ),
    ],
    ids=[
        "brew",
        "lower-case",
        "split",
        "connect",
        "connect-path",
        "connect-pipelined",
        "after-an-answer",
        "hello",
        "tls",
        "space",
        "version",
        "cut",
        "cut-twice",
        "cut-after-an-empty-line",
        "cut-hello",
        "cut-not-http",
        "pipelined",
        "pipelined-cut",
        "pipelined-hello",
        "pipelined-large",
    ],
)
def test_an_unknown_method_gets_501(parts: list[bytes], status: bytes, detail: str) -> None:
    """RFC 9110: a method the server does not recognise is 501 Not Implemented; it was
    400 (not HTTP), which httptools says of any method it does not know, and of bytes
    that are not HTTP at all."""
    with served() as server, socket.create_connection(("127.0.0.1", server.port)) as sock:
        for part in parts:
            sock.sendall(part)
            time.sleep(0.1)  # each part a chunk of its own
        answer = _read_all(sock, 2)
    last = answer[answer.rindex(b"HTTP/1.1 ") :]
    head, _, body = last.partition(b"\r\n\r\n")
    assert head.split()[1] == status
    # A request before it is answered first.
    assert answer.count(b"HTTP/1.1 ") == 1 + parts[0].startswith(b"GET ")
    assert detail in json.loads(body)["detail"]
    if status == b"501":
        assert json.loads(body)["detail"].startswith("this server does not implement the method")
        assert server.closed("unknown_method") == 1


@pytest.mark.parametrize(
    ("request_bytes", "detail"),
    [
        (b"GET /bytes/1\r\n\r\n", "the request is not valid HTTP/1.1"),  # HTTP/0.9's
        (b"GET /bytes/1 HTTP/0.9\r\n\r\n", "the request is not valid HTTP/1.1"),
        (b"GET /bytes/1 HTTP/2.0\r\nHost: x\r\n\r\n", "the request is not valid HTTP/1.1"),
        (b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", "the request is not valid HTTP/1.1"),
        (b"GET /bytes/1 HTTP/3.1\r\nHost: x\r\n\r\n", "the request is not valid HTTP/1.1"),
        (
            b"GET /bytes/1\r\nAccept-Language: ja\r\n\r\n",
            "\u30ea\u30af\u30a8\u30b9\u30c8\u304c\u6b63\u3057\u3044 HTTP/1.1"
            " \u3067\u306f\u3042\u308a\u307e\u305b\u3093",
        ),
    ],
    ids=["no-version", "0.9", "2.0", "h2-preface", "3.1", "no-version-ja"],
)
def test_a_request_line_of_another_http_version_gets_400(request_bytes: bytes, detail: str) -> None:
    """httptools reads a request line without a version (``GET /``) as HTTP/0.9, and
    lets HTTP/2.0 pass: the app answered them 200 as HTTP/1.1 requests. They are
    refused as a TLS handshake is, alone or behind another request."""
    for before in (b"", b"GET /bytes/1 HTTP/1.1\r\nHost: x\r\n\r\n"):
        with served() as server, socket.create_connection(("127.0.0.1", server.port)) as sock:
            sock.sendall(before + request_bytes)
            answer = _read_all(sock, 2)
        statuses = re.findall(rb"HTTP/1\.1 ([0-9]{3}) ", answer)  # the Japanese too says HTTP/1.1
        assert statuses == ([b"200", b"400"] if before else [b"400"])
        _, _, body = answer[answer.index(b"HTTP/1.1 400 Bad Request\r\n") :].partition(b"\r\n\r\n")
        assert json.loads(body) == {"detail": detail}
        assert server.closed("bad_request") == 1


@pytest.mark.parametrize("minor", [b"2", b"9"])
def test_a_higher_minor_version_of_http_1_is_served_as_http_1_1(minor: bytes) -> None:
    """RFC 9112 2.6: a server should answer HTTP/1.2 to 1.9 as HTTP/1.1 (it was 400, as
    httptools refuses them): kept alive, pipelined, its method known or not."""
    line = b" HTTP/1." + minor + b"\r\nHost: x\r\n\r\n"
    with served() as server, socket.create_connection(("127.0.0.1", server.port)) as sock:
        sock.sendall(b"GET /version/0" + line + b"GET /version/0" + line + b"BREW /" + line)
        answer = _read_all(sock, 2)
    answers = answer.split(b"HTTP/1.1 ")[1:]
    assert [a.split()[0] for a in answers] == [b"200", b"200", b"501"]
    assert [a.endswith(b"\r\n\r\n1.1") for a in answers] == [True, True, False]
    assert b"'BREW'" in answers[2]


def test_an_unknown_method_is_refused_in_the_language_asked() -> None:
    request = b"BREW /bytes/1 HTTP/1.1\r\nHost: x\r\nAccept-Language: ja\r\n\r\n"
    with served() as server, socket.create_connection(("127.0.0.1", server.port)) as sock:
        sock.sendall(request)
        head, _, body = _read_all(sock, 2).partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 501 Not Implemented\r\n")
    assert json.loads(body) == {"detail": "このサーバーはメソッド 'BREW' を実装していません"}


@pytest.mark.parametrize(
    ("first", "second", "detail"),
    [
        (b"", b"Accept-Language: ja\r\n", "このサーバーはメソッド 'BREW' を実装していません"),
        # The request before it asked for Japanese; the refused one did not.
        (b"Accept-Language: ja\r\n", b"", "this server does not implement the method 'BREW'"),
    ],
    ids=["its-own", "the-one-before"],
)
def test_a_refusal_behind_a_request_speaks_its_own_accept_language(
    first: bytes, second: bytes, detail: str
) -> None:
    requests = [
        b"GET /bytes/1 HTTP/1.1\r\nHost: x\r\n" + first + b"\r\n",
        b"BR",
        b"EW / HTTP/1.1\r\nHost: x\r\n" + second + b"\r\n",
    ]
    for parts in ([b"".join(requests)], [requests[0] + requests[1], requests[2]]):
        with served() as server, socket.create_connection(("127.0.0.1", server.port)) as sock:
            for part in parts:
                sock.sendall(part)
                time.sleep(0.1)  # each part a chunk of its own
            answer = _read_all(sock, 2)
        assert answer.startswith(b"HTTP/1.1 200 OK\r\n")
        _, _, body = answer[answer.index(b"HTTP/1.1 501") :].partition(b"\r\n\r\n")
        assert json.loads(body) == {"detail": detail}
        assert server.closed("unknown_method") == 1


_PIPELINED = st.lists(
    st.sampled_from(
        [
            b"GET /a HTTP/1.1\r\nHost: x\r\n\r\n",
            b"\r\nGET /b HTTP/1.0\r\nX: " + b"y" * 300 + b"\r\n\r\n",
            b"POST /c HTTP/1.1\r\nContent-Length: 5\r\n\r\nGET /",
            b"POST /d HTTP/1.2\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n",
            b"PUT /e HTTP/1.1\r\nContent-Length: 260\r\n\r\n" + b"z" * 260,
        ]
    ),
    min_size=1,
    max_size=8,
)


@settings(max_examples=150, deadline=None)
@given(_PIPELINED, st.sampled_from([b"BREW / HTTP/1.1\r\n\r\n", b"hello\r\n", b"GET / HTTP/1.1"]))
def test_where_a_request_begins_in_a_packet_is_found_as_a_byte_by_byte_reading_finds_it(
    requests: list[bytes], last: bytes
) -> None:
    """:func:`api.server._request_start` (pieces, then bytes) against the slowest sure
    way: the shortest prefix of the packet in which a parser has begun the request."""
    data = b"".join(requests) + last

    def begun_in(prefix: bytes) -> int:
        counted = _Counted()
        parser = httptools.HttpRequestParser(counted)
        parser.set_dangerous_leniencies(lenient_data_after_close=True, lenient_version=True)
        with contextlib.suppress(httptools.HttpParserError):
            parser.feed_data(prefix)
        return counted.count

    for nth in range(1, begun_in(data) + 1):
        shortest = next(n for n in range(1, len(data) + 1) if begun_in(data[:n]) >= nth)
        assert server_module._request_start(data, nth) == shortest - 1  # noqa: SLF001
    assert server_module._request_start(data, begun_in(data) + 1) is None  # noqa: SLF001


class _Counted:
    def __init__(self) -> None:
        self.count = 0

    def on_message_begin(self) -> None:
        self.count += 1


def test_a_request_behind_a_body_that_spans_packets_is_refused_after_it() -> None:
    """Where the refused request begins is not known there (its packet begins within
    the body before it): 400, said once the request before it is answered (it was
    not said at all)."""
    with served() as server, socket.create_connection(("127.0.0.1", server.port)) as sock:
        sock.sendall(b"POST /read/0 HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n\r\nab")
        time.sleep(0.1)
        sock.sendall(b"cdBREW / HTTP/1.1\r\n\r\n")
        answer = _read_all(sock, 2)
    assert answer.startswith(b"HTTP/1.1 200 OK\r\n")
    _, _, body = answer[answer.index(b"HTTP/1.1 400") :].partition(b"\r\n\r\n")
    assert json.loads(body) == {"detail": "the request is not valid HTTP/1.1"}


def test_a_head_sent_in_pieces_is_kept_as_its_bytes_until_it_is_whole() -> None:
    """The bytes a refusal's language is looked for in: the head's own, in one buffer
    (not one object per packet), let go once the headers are complete."""
    sent = b"GET /bytes/1 HTTP/1.1\r\nHost: x\r\n"
    with served() as server, socket.create_connection(("127.0.0.1", server.port)) as sock:
        sock.sendall(sent)
        for _ in range(50):
            time.sleep(0.002)
            sock.sendall(b"X: y\r\n")
            sent += b"X: y\r\n"
        time.sleep(0.2)
        held = server.call(lambda: [bytes(p._head_seen) for p in _protocols(server)])  # noqa: SLF001
        assert held == [sent]
        sock.sendall(b"\r\n")
        assert _read_all(sock, 0.5).startswith(b"HTTP/1.1 200 OK")
        held = server.call(lambda: [bytes(p._head_seen) for p in _protocols(server)])  # noqa: SLF001
        assert held == [b""]


# --- closing with the client's bytes unread ------------------------------------------

_MORE = b"x" * 600_000
"""What a client sends on after a request the server refuses (the rest of a large body,
more pipelined requests): more than the server reads before it closes, less than the
most it reads and drops (:data:`api.server.DRAIN_BYTES`)."""


@pytest.mark.parametrize(
    ("refused", "status", "detail"),
    [
        (
            b"POST /limit/16384 HTTP/1.1\r\nHost: x\r\nContent-Length: 10000000\r\n\r\n",
            b"413",
            "the request body is larger than the limit of 16384 bytes",
        ),
        (b"GET /bytes/1 HTTP/1.1\r\nHost: x\r\nX: ", b"431", "larger than the limit of 4096 bytes"),
        (b"BREW / HTTP/1.1\r\nHost: x\r\n\r\n", b"501", "does not implement the method 'BREW'"),
        (b"hello world\r\n\r\n", b"400", "the request is not valid HTTP/1.1"),
        (
            b"GET /bytes/1 HTTP/1.1\r\nHost: x\r\n\r\nBREW / HTTP/1.1\r\nHost: x\r\n\r\n",
            b"501",
            "does not implement the method 'BREW'",
        ),
    ],
    ids=["413", "431", "501", "400", "501-behind-another"],
)
def test_a_refusal_ends_with_a_clean_close_though_the_client_sent_more(
    refused: bytes, status: bytes, detail: str
) -> None:
    """A refusal closed the connection with bytes the client had sent still unread:
    Linux then resets the connection (RST) instead of closing it, and a client may
    lose the answer written just before. The server now closes its side after the
    answer and reads on, dropping what comes, until the client closes its own."""
    with (
        served(max_header_bytes=4096) as server,
        socket.create_connection(("127.0.0.1", server.port)) as sock,
    ):
        sock.sendall(refused + _MORE)
        answer = _read_to_the_end(sock)  # old: ConnectionResetError
        last = answer[answer.rindex(b"HTTP/1.1 ") :]
        head, _, body = last.partition(b"\r\n\r\n")
        assert head.split()[1] == status
        assert b"\r\nconnection: close\r\n" in head + b"\r\n"
        assert detail in json.loads(body)["detail"]
        sock.close()
        _wait_for(lambda: not server.call(lambda: len(server.state.connections)))


def test_answers_before_a_pipeline_refusal_reach_a_client_that_sends_on() -> None:
    """A client pipelining past the limit, reading its answers slowly and sending on:
    once the server had written the 503 and closed, the client's next bytes made
    Linux reset the connection, dropping the answers still queued to be sent. The
    client got 2 of its 9 answers, and no 503."""
    with served() as server, _slow_reader(server.port) as sock:
        sock.sendall(b"GET /sleep/0.2 HTTP/1.1\r\nHost: x\r\n\r\n")
        sock.sendall(b"GET /bytes/100000 HTTP/1.1\r\nHost: x\r\n\r\n" * 200)

        def closing() -> bool:  # every answer written, the 503 too
            return bool(
                server.call(lambda: all(p.transport.is_closing() for p in _protocols(server)))
            )

        _wait_for(closing)
        sock.sendall(b"GET /bytes/1 HTTP/1.1\r\nHost: x\r\n\r\n" * 100)
        answer = _read_to_the_end(sock)  # old: ConnectionResetError
    statuses = re.findall(rb"HTTP/1\.1 ([0-9]{3}) ", answer)
    assert statuses == [b"200"] * (1 + MAX_PIPELINED) + [b"503"]
    assert len(answer.partition(b"HTTP/1.1 503")[0]) > MAX_PIPELINED * 100_000


def _refused_and_draining(server: Served) -> socket.socket:
    """A connection refused (501), its answer read to the server's FIN: draining."""
    sock = socket.create_connection(("127.0.0.1", server.port))
    sock.sendall(b"BREW / HTTP/1.1\r\nHost: x\r\n\r\n")
    assert _read_to_the_end(sock).startswith(b"HTTP/1.1 501")
    return sock


def _open(server: Served) -> int:
    return int(server.call(lambda: len(server.state.connections)))


def test_a_client_sending_a_byte_now_and_then_cannot_hold_a_drain(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(server_module, "DRAIN_S", 0.5)
    with served() as server, _refused_and_draining(server) as sock:
        assert _open(server) == 1
        started = time.monotonic()
        with contextlib.suppress(OSError):  # reset once closed
            while _open(server) and time.monotonic() - started < 10:
                sock.send(b"x")
                time.sleep(0.05)
        assert _open(server) == 0


def test_a_client_sending_on_without_end_cannot_hold_a_drain(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(server_module, "DRAIN_S", 600)
    monkeypatch.setattr(server_module, "DRAIN_BYTES", 100_000)
    with served() as server, _refused_and_draining(server) as sock:
        with contextlib.suppress(OSError):  # reset once closed
            for _ in range(100):
                sock.sendall(b"x" * 10_000)
        _wait_for(lambda: _open(server) == 0)  # not the 600 s


def test_a_connection_with_nothing_left_unread_closes_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """No drain where nothing the client sent is left: an answer that closes
    (``Connection: close``) after the whole request was read."""
    monkeypatch.setattr(server_module, "DRAIN_S", 600)
    with served() as server, socket.create_connection(("127.0.0.1", server.port)) as sock:
        sock.sendall(b"POST /read/0 HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}")
        sock.sendall(b"GET /bytes/1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        assert _read_to_the_end(sock).count(b"HTTP/1.1 200") == 2
        _wait_for(lambda: _open(server) == 0)  # the client's side still open


def test_at_the_connection_limit_a_draining_connection_makes_room_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Answered and closing, it goes before a connection waiting for a request."""
    monkeypatch.setattr(server_module, "DRAIN_S", 600)
    request = b"GET /bytes/1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    with (
        served(max_connections=2) as server,
        _refused_and_draining(server),
        socket.create_connection(("127.0.0.1", server.port)) as waiting,
    ):
        _wait_for(lambda: _open(server) == 2)
        with socket.create_connection(("127.0.0.1", server.port)) as new:
            new.sendall(request)
            assert _read_to_the_end(new).startswith(b"HTTP/1.1 200")
        waiting.sendall(request)
        assert _read_to_the_end(waiting).startswith(b"HTTP/1.1 200")
        assert server.closed("idle_evicted") == 0
        assert server.call(lambda: len(server.protocol.guards.draining)) == 0


def _wait_for(condition: Any, timeout: float = 10) -> None:
    """Wait until ``condition()`` holds (checked every 10 ms), failing after
    ``timeout`` seconds, a guard that only a broken server reaches."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "the condition did not come to hold"
        time.sleep(0.01)

"""``meldwise serve`` as a real process: it starts, answers, keeps bodies out of its
logs, refuses bad settings with a message naming them, guards its connections
(header timeout, header size, a connection limit that evicts idle ones, 413 that
closes), logs JSON with request IDs, and shuts down gracefully on a signal to its
process group."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest

from api.middleware import CONTENT_SECURITY_POLICY, VALID_REQUEST_ID
from api.settings import Settings
from api.spawn import serve
from solver.shanghai import examples
from tests.api.support import slow_request

MARKER = "SECRET-RACK-MARKER"


def test_serve_answers_and_logs_no_bodies(tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    with serve(workers=1, log_path=str(log)) as (url, _):
        solved = httpx.post(f"{url}/v1/rummikub/solve", json={"rack": ["R1", "R2", "R3"]})
        assert solved.status_code == 200
        assert solved.json()["tiles_played"] == 3
        bad = httpx.post(f"{url}/v1/rummikub/solve", json={"rack": [MARKER]})
        assert bad.status_code == 422
        advice = httpx.post(f"{url}/v1/shanghai/advise", json=examples.ADVISE_REQUEST)
        assert advice.json() == examples.ADVISE_RESPONSE
        bad = httpx.post(f"{url}/v1/shanghai/advise", json={"hand": [MARKER], "hand_number": 1})
        assert bad.status_code == 422
        docs = httpx.get(f"{url}/docs")
        assert docs.status_code == 200
    text = log.read_text()
    assert '"POST /v1/rummikub/solve HTTP/1.1" 422' in text  # the access log is on
    assert MARKER not in text
    assert "Traceback" not in text


def _serve_with(setting: str, value: str) -> subprocess.CompletedProcess[str]:
    """``meldwise serve --workers 0`` with the environment ``setting`` at ``value``."""
    return subprocess.run(
        [sys.executable, "-m", "meldwise", "serve", "--workers", "0"],
        env={**os.environ, setting: value},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_bad_settings_stop_the_server_with_their_name() -> None:
    done = _serve_with("MELDWISE_QUEUE", "-1")
    assert done.returncode == 2
    assert "MELDWISE_QUEUE" in done.stderr
    assert "--workers" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_bad_setting_says_its_validator_message_alone() -> None:
    # pydantic's "Value error, " stood before the message.
    done = _serve_with("MELDWISE_RATE_LIMIT", "zzz")
    assert done.returncode == 2
    assert (
        "error: bad setting rate_limit (MELDWISE_RATE_LIMIT): cannot read 'zzz' as rate"
        " limits ('30/second', '600/minute;20/second'; '' for none)"
    ) in done.stderr.splitlines()


def test_a_number_out_of_range_is_quoted_alike_from_the_environment_and_the_flag() -> None:
    # MELDWISE_WORKERS=0 said "got '0'" (the variable's text) where --workers 0 said
    # "got 0".
    said = []
    for argv, env in ((["--workers", "0"], {}), ([], {"MELDWISE_WORKERS": "0"})):
        done = subprocess.run(
            [sys.executable, "-m", "meldwise", "serve", *argv],
            env={**os.environ, "LANGUAGE": "en", **env},
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert done.returncode == 2
        said.append(done.stderr.splitlines()[-1])
    problem = "error: bad setting workers (MELDWISE_WORKERS / --workers): must be at least 1"
    assert said == [f"{problem}, got 0"] * 2


def test_the_operators_errors_are_said_in_the_locales_language() -> None:
    """As every other command's: they were English whatever the locale, a value out of
    range in pydantic's words, while a --port that is no number was Japanese; then a
    number of too many digits was still English (pydantic's own words)."""
    ja = {"LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": "", "LANG": "ja_JP.UTF-8"}
    bad = {"MELDWISE_PORT": "99999", "MELDWISE_LOG_FORMAT": "xml", "MELDWISE_TIMOUT": "1"}
    bad["MELDWISE_MAX_CONNECTIONS"] = "1" * 5000
    done = subprocess.run(
        [sys.executable, "-m", "meldwise", "serve", "--workers", "1"],
        env={**os.environ, **ja, **bad, "MELDWISE_QUEUE": "many"},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "\u8b66\u544a: \u8a2d\u5b9a\u3067\u306f\u306a\u3044\u305f\u3081\u7121\u8996"
        "\u3057\u307e\u3059: MELDWISE_TIMOUT",
        "\u30a8\u30e9\u30fc: \u8a2d\u5b9a port (MELDWISE_PORT / --port) \u304c\u6b63\u3057"
        "\u304f\u3042\u308a\u307e\u305b\u3093: 65535 \u4ee5\u4e0b\u3067\u6307\u5b9a\u3057"
        "\u3066\u304f\u3060\u3055\u3044(\u6307\u5b9a\u5024: 99999)",
        "\u30a8\u30e9\u30fc: \u8a2d\u5b9a queue (MELDWISE_QUEUE) \u304c\u6b63\u3057\u304f"
        "\u3042\u308a\u307e\u305b\u3093: \u6574\u6570\u3067\u6307\u5b9a\u3057\u3066"
        "\u304f\u3060\u3055\u3044(\u6307\u5b9a\u5024: 'many')",
        "\u30a8\u30e9\u30fc: \u8a2d\u5b9a max_connections (MELDWISE_MAX_CONNECTIONS)"
        " \u304c\u6b63\u3057\u304f\u3042\u308a\u307e\u305b\u3093: \u6841\u6570"
        "\u306e\u3082\u3063\u3068\u5c11\u306a\u3044\u6574\u6570\u3067\u6307"
        "\u5b9a\u3057\u3066\u304f\u3060\u3055\u3044(\u6307\u5b9a\u5024: '" + "1" * 59 + ")",
        "\u30a8\u30e9\u30fc: \u8a2d\u5b9a log_format (MELDWISE_LOG_FORMAT) \u304c\u6b63\u3057"
        "\u304f\u3042\u308a\u307e\u305b\u3093: 'text'\u3001'json' \u306e\u3044\u305a\u308c"
        "\u304b\u3067\u6307\u5b9a\u3057\u3066\u304f\u3060\u3055\u3044(\u6307\u5b9a\u5024:"
        " 'xml')",
    ]


@pytest.mark.parametrize(
    ("setting", "value", "problem"),
    [
        # Each once started: on every interface, refusing every request, or open.
        ("host", "", "must name an address"),
        ("rate_limit", "0/second", "each limit allows at least 1 request"),
        ("api_keys", ",", "',' holds no item"),
        ("cors_origins", " , ", "holds no item"),
    ],
)
def test_settings_that_would_weaken_the_service_are_refused(
    setting: str, value: str, problem: str
) -> None:
    with pytest.raises(ValueError, match=problem):
        Settings.model_validate({setting: value})


def test_an_address_it_cannot_listen_on_is_said_before_the_workers_start() -> None:
    # uvicorn said it after warming every worker up, exit 3, naming no setting.
    done = subprocess.run(
        [sys.executable, "-m", "meldwise", "serve", "--host", "192.0.2.1", "--port", "0"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "error: cannot listen on 192.0.2.1:0 (MELDWISE_HOST / --host, MELDWISE_PORT / --port):"
        " the address is not one of this machine's"
    ]


def test_a_websocket_upgrade_is_answered_as_plain_http(tmp_path: Path) -> None:
    """No route is a WebSocket: uvicorn once answered a bare 403, without the security
    headers, a request ID or a log line."""
    upgrade = {
        "Upgrade": "websocket",
        "Connection": "Upgrade",
        "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
        "Sec-WebSocket-Version": "13",
    }
    with serve(workers=1, log_path=str(tmp_path / "server.log")) as (url, _):
        answer = httpx.get(f"{url}/healthz", headers=upgrade)
    assert answer.status_code == 200
    assert VALID_REQUEST_ID.fullmatch(answer.headers["x-request-id"])
    assert answer.headers["content-security-policy"] == CONTENT_SECURITY_POLICY


def test_an_environment_variable_that_is_no_setting_is_warned_of() -> None:
    done = _serve_with("MELDWISE_TIMOUT_BODY_S", "5")  # misspelt: once ignored unseen
    assert "warning: not settings, ignored: MELDWISE_TIMOUT_BODY_S" in done.stderr


@pytest.mark.parametrize(
    ("proxies", "problem"),
    [
        ("notanip", "'notanip' is not an IP address or network"),
        ("10.0.0.1, 10.0.0.300", "'10.0.0.300' is not an IP address or network"),
        ("10.0.0.0/33", "'10.0.0.0/33' is not an IP address or network"),
        ("*,10.0.0.1", "'*' (trust every address) must stand alone"),
    ],
)
def test_a_bad_trusted_proxy_stops_the_server_naming_it(proxies: str, problem: str) -> None:
    # Uvicorn took any word as a proxy's name: a typo trusted no proxy, silently.
    done = _serve_with("MELDWISE_TRUSTED_PROXIES", proxies)
    assert done.returncode == 2
    assert "MELDWISE_TRUSTED_PROXIES" in done.stderr
    assert problem in done.stderr
    assert "Traceback" not in done.stderr


def test_trusted_proxies_take_addresses_networks_or_a_lone_star() -> None:
    good = Settings(trusted_proxies="10.0.0.1, 10.0.0.0/8,::1")  # type: ignore[arg-type]
    assert good.trusted_proxies == ["10.0.0.1", "10.0.0.0/8", "::1"]
    assert Settings(trusted_proxies="*").trusted_proxies == ["*"]  # type: ignore[arg-type]


NOT_AS_SENT = "{!r} is not an origin as a browser sends it: write {!r}"


@pytest.mark.parametrize(
    ("origins", "problem"),
    [
        # A browser's Origin is scheme://host[:port], lower case, without the default
        # port or a path: an entry written otherwise matched no page, and every embed of
        # the hint button was refused by CORS while the server started as if all was well.
        (
            "https://game.example/",
            NOT_AS_SENT.format("https://game.example/", "https://game.example"),
        ),
        (
            "http://127.0.0.1:8742/play",
            NOT_AS_SENT.format("http://127.0.0.1:8742/play", "http://127.0.0.1:8742"),
        ),
        (
            "https://Game.example",
            NOT_AS_SENT.format("https://Game.example", "https://game.example"),
        ),
        (
            "https://game.example:443",
            NOT_AS_SENT.format("https://game.example:443", "https://game.example"),
        ),
        (
            "game.example",
            "'game.example' is not an origin (scheme://host[:port], e.g. https://game.example)",
        ),
        ("*,https://game.example", "'*' (any origin) must stand alone"),
    ],
)
def test_a_cors_origin_no_browser_sends_is_refused_naming_it(origins: str, problem: str) -> None:
    with pytest.raises(ValueError, match=re.escape(problem)):
        Settings(cors_origins=origins)  # type: ignore[arg-type]


def test_cors_origins_take_origins_as_browsers_send_them_or_a_lone_star() -> None:
    origins = "https://game.example, http://127.0.0.1:8742,http://[::1]:8080"
    good = Settings(cors_origins=origins)  # type: ignore[arg-type]
    assert good.cors_origins == [
        "https://game.example",
        "http://127.0.0.1:8742",
        "http://[::1]:8080",
    ]
    assert Settings(cors_origins="*").cors_origins == ["*"]  # type: ignore[arg-type]


def _exchange(port: int, data: bytes, wait: float = 5.0) -> tuple[bytes, float]:
    """Send ``data`` on a new connection; read until the server closes it (or
    ``wait`` seconds pass); the bytes read and the seconds it took."""
    start = time.perf_counter()
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.settimeout(wait)
        if data:
            sock.sendall(data)
        answer = b""
        with contextlib.suppress(TimeoutError, ConnectionResetError):
            while chunk := sock.recv(65536):
                answer += chunk
    return answer, time.perf_counter() - start


def _json_answer(raw: bytes) -> tuple[int, dict[str, str]]:
    head, _, body = raw.partition(b"\r\n\r\n")
    assert b"content-type: application/json" in head.lower()
    # The server's own answers (400, 408, 431) carry the security headers and a
    # request ID, as the app's do (docs/http.md).
    lines = head.decode().split("\r\n")[1:]
    headers = dict(line.lower().split(": ", 1) for line in lines)
    assert headers["content-security-policy"] == CONTENT_SECURITY_POLICY.lower()
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["x-frame-options"] == "deny"
    assert headers["referrer-policy"] == "no-referrer"
    assert VALID_REQUEST_ID.fullmatch(headers["x-request-id"])
    return int(head.split()[1]), json.loads(body)


GUARDED = {
    "MELDWISE_TIMEOUT_HEADERS_S": "0.5",
    "MELDWISE_MAX_CONNECTIONS": "8",
    "MELDWISE_LOG_FORMAT": "json",
}


def test_connection_guards_and_json_logs(tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    with serve(workers=1, log_path=str(log), env=GUARDED) as (url, _):
        port = int(url.rsplit(":", 1)[1])
        # Connections that send nothing are closed after the header timeout (spread
        # over 0.5-0.625 s: test_connections checks the deadlines the server sets; when
        # these close is no measure of it, a stalled loop closed all 7 in 5 ms).
        with ThreadPoolExecutor(7) as pool:
            closed = list(pool.map(lambda _: _exchange(port, b""), range(7)))
        assert {answer for answer, _took in closed} == {b""}
        times = sorted(took for _answer, took in closed)
        assert times[0] > 0.49  # timers may fire a millisecond early
        assert times[-1] < 3
        # One that sends part of a request gets 408, and is closed too.
        status, body = _json_answer(_exchange(port, b"GET /healthz HTTP/1.1\r\nHo")[0])
        assert status == 408
        assert "within 0.5 s" in body["detail"]
        status, body = _json_answer(_exchange(port, b"NOT HTTP\r\n\r\n")[0])
        assert status == 400
        assert "not valid HTTP" in body["detail"]
        huge = b"GET / HTTP/1.1\r\nX: " + b"a" * 20_000 + b"\r\n\r\n"
        status, body = _json_answer(_exchange(port, huge)[0])
        assert status == 431
        assert "16384 bytes" in body["detail"]
        # A chunked body over the limit gets 413 and the connection closes: the rest is
        # never read.
        chunk = b"%x\r\n%s\r\n" % (65536, b"[" * 65536)
        answer, took = _exchange(
            port,
            b"POST /v1/rummikub/solve HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n" + chunk,
        )
        assert answer.startswith(b"HTTP/1.1 413")
        assert took < 3
        # Idle connections past the limit make room: a client sending requests gets in.
        idle = [socket.create_connection(("127.0.0.1", port)) for _ in range(12)]
        try:
            scored = httpx.post(
                f"{url}/v1/rummikub/score",
                json={"racks": {"x": []}},
                # No trusted proxy by default: a client cannot choose its address.
                headers={"X-Request-ID": "probe-1", "X-Forwarded-For": "203.0.113.9"},
            )
            assert scored.status_code == 200
        finally:
            for sock in idle:
                sock.close()
        metrics = httpx.get(f"{url}/metrics").text
        assert 'meldwise_connections_closed_by_server_total{reason="idle_evicted"}' in metrics
    lines = [json.loads(line) for line in log.read_text().splitlines() if line.startswith("{")]
    access = [line for line in lines if line["logger"] == "meldwise.access"]
    (probe,) = [line for line in access if line["request_id"] == "probe-1"]
    assert probe["status"] == 200
    assert probe["client"] == "ip:127.0.0.1"
    assert all({"time", "level", "message"} <= set(line) for line in lines)
    # uvicorn's warning of an invalid request is not logged, for the 431 (refused on
    # purpose) nor for the request that was not HTTP (any client could fill the log).
    assert not [line for line in lines if line["level"] == "WARNING"]


def _posted(port: int, path: str, body: dict[str, object]) -> socket.socket:
    """A connection that has sent a POST of ``body`` to ``path`` and reads nothing yet."""
    data = json.dumps(body).encode()
    sock = socket.create_connection(("127.0.0.1", port))
    sock.sendall(
        b"POST %s HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Content-Length: %d\r\n\r\n%s" % (path.encode(), len(data), data)
    )
    return sock


def test_a_client_that_leaves_frees_its_worker_and_its_place(tmp_path: Path) -> None:
    """A request whose client closed the connection ran on, and waited first, to the
    end of its solve (or the request timeout): the next client waited behind it. Its
    waiting task is now dropped, and its running one stopped with its worker."""
    log = tmp_path / "server.log"
    env = {"MELDWISE_TIME_CAP_MS": "20000", "MELDWISE_RATE_LIMIT": ""}
    with serve(workers=1, log_path=str(log), env=env) as (url, _):
        port = int(url.rsplit(":", 1)[1])
        running = _posted(port, "/v1/rummikub/solve", slow_request(20_000))
        waiting = _posted(port, "/v1/rummikub/solve", slow_request(20_000))
        while "meldwise_solves_pending 2.0" not in httpx.get(f"{url}/metrics").text:
            time.sleep(0.02)
        running.close()
        waiting.close()
        # Old: the tasks of the client gone still held its share of the pool (2) and
        # the worker, for the 20 s solves. Now the server, once it has seen them leave
        # (waited for: on a loaded machine, a request sent at once could come first
        # and get 429, and a replacement's start-up can take seconds), drops the
        # waiting one and stops the running one's worker, well within the solve.
        deadline = time.monotonic() + 15
        while not {
            "meldwise_solves_pending 0.0",
            'meldwise_worker_restarts_total{reason="abandoned"} 1.0',
            "meldwise_workers_ready 1.0",
        } <= set(httpx.get(f"{url}/metrics").text.splitlines()):
            assert time.monotonic() < deadline, "the tasks of the client gone still run"
            time.sleep(0.02)
        answer = httpx.post(f"{url}/v1/rummikub/solve", json={"rack": ["R1", "R2", "R3"]})
        assert answer.status_code == 200
        metrics = httpx.get(f"{url}/metrics").text
        # The waiting task never ran: one worker replaced, not two.
        assert 'meldwise_worker_restarts_total{reason="abandoned"} 1.0' in metrics
    text = log.read_text()
    assert text.count('"POST /v1/rummikub/solve HTTP/1.1" 499') == 2
    assert "Traceback" not in text


@pytest.mark.parametrize("signal_number", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_to_the_process_group_lets_running_solves_finish(
    tmp_path: Path, signal_number: int
) -> None:
    with serve(workers=1, log_path=str(tmp_path / "log")) as (url, pid):
        workers = _children(pid)
        with ThreadPoolExecutor(1) as pool:
            solving = pool.submit(
                httpx.post, f"{url}/v1/rummikub/solve", json=slow_request(1500), timeout=30
            )
            while "meldwise_solves_pending 1.0" not in httpx.get(f"{url}/metrics").text:
                time.sleep(0.02)
            os.killpg(pid, signal_number)  # what Ctrl-C in a terminal or systemd does
            answer = solving.result()
        assert answer.status_code == 200
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and (_alive(pid) or any(_alive(w) for w in workers)):
            time.sleep(0.05)
        assert not _alive(pid)
        assert not any(_alive(w) for w in workers)
    # The shutdown is no crash: uvicorn raised the SIGINT again once done, and Python's
    # KeyboardInterrupt printed a traceback.
    assert "Traceback" not in (tmp_path / "log").read_text()


def test_requests_cut_at_the_end_of_the_shutdown_grace_are_told_so_in_json(
    tmp_path: Path,
) -> None:
    """A request still running (or waiting for a worker) when the graceful shutdown's
    time ran out was cancelled by uvicorn, which answered its own plain-text 500
    "Internal Server Error" (no JSON, no Retry-After, none of the usual headers) and
    logged the cancellation as a crash."""
    log = tmp_path / "log"
    env = {"MELDWISE_TIMEOUT_SHUTDOWN_S": "1"}
    with serve(workers=1, log_path=str(log), env=env) as (url, pid), ThreadPoolExecutor(2) as pool:
        asked = [
            pool.submit(
                httpx.post,
                f"{url}/v1/rummikub/solve",
                json=slow_request(2000),
                headers={"Accept-Language": lang},
                timeout=30,
            )
            for lang in ("en", "ja")
        ]
        while "meldwise_solves_pending 2.0" not in httpx.get(f"{url}/metrics").text:
            time.sleep(0.02)
        os.kill(pid, signal.SIGTERM)
        answers = [future.result() for future in asked]
    for answer in answers:
        assert answer.status_code == 503, answer.text
        assert answer.headers["retry-after"] == "1"
        assert answer.headers["connection"] == "close"
        assert answer.headers["x-content-type-options"] == "nosniff"
    assert [answer.json()["detail"] for answer in answers] == [
        "the server is shutting down; try again shortly",
        "サーバーを停止しています。しばらくしてからもう一度お試しください",
    ]
    assert "Traceback" not in log.read_text()


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        with contextlib.suppress(OSError, IndexError):
            if (
                entry.name.isdigit()
                and int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == pid
            ):
                found.append(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"

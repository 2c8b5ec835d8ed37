"""deploy/nginx.conf run by a real nginx (Debian's: ``apt-get install -y nginx``), its
upstream block pointed at a real ``meldwise serve``: what a client gets through nginx
beside what the service answers the same request sent to it straight. Without nginx
these are skipped, except under ``CI=true`` (.ci/run installs it)."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import shutil
import socket
import subprocess
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import pytest

from api.spawn import free_port, serve
from solver.i18n import _, language, negotiate

ROOT = Path(__file__).resolve().parent.parent
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
_missing = None if Path(NGINX).exists() else "no nginx: apt-get install -y nginx"
if _missing and os.environ.get("CI"):
    raise RuntimeError(_missing)
pytestmark = pytest.mark.skipif(_missing is not None, reason=_missing or "")

ORIGIN = "https://game.example"
"""The one origin the service behind nginx lets call it (MELDWISE_CORS_ORIGINS)."""

SOLVE = "/v1/rummikub/solve"
REVIEW = "/v1/rummikub/review"


def deploy_config(service: int, port: int) -> str:
    """deploy/nginx.conf as deploy/run-local-replicas.sh runs it: its upstream's servers
    swapped for the service's port, listening on ``port``."""
    lines, skip = [], False
    for line in (ROOT / "deploy" / "nginx.conf").read_text(encoding="utf-8").splitlines():
        if "# servers-begin" in line:
            lines.append(f"        server 127.0.0.1:{service};")
            skip = True
        elif "# servers-end" in line:
            skip = False
        elif not skip:
            lines.append(line.replace("listen 8080;", f"listen 127.0.0.1:{port};"))
    return "\n".join(lines) + "\n"


DOCUMENTED_SECTION = "## Behind nginx, at the root or under a path prefix"
DOCUMENTED_SERVICE = "server 127.0.0.1:8102;"
DOCUMENTED_LISTEN = "listen 127.0.0.1:8180;"


def documented_config(service: int, port: int) -> str:
    """The nginx lines docs/service.md gives for serving Meldwise under ``/meldwise/``
    and at the root, as written, in an ``http`` block of their own (nothing else
    added): its upstream's address swapped for the service's, listening on ``port``."""
    text = (ROOT / "docs" / "service.md").read_text(encoding="utf-8")
    block = text.split(DOCUMENTED_SECTION, 1)[1].split("```nginx\n", 1)[1].split("```", 1)[0]
    assert DOCUMENTED_SERVICE in block
    assert DOCUMENTED_LISTEN in block
    block = block.replace(DOCUMENTED_SERVICE, f"server 127.0.0.1:{service};")
    block = block.replace(DOCUMENTED_LISTEN, f"listen 127.0.0.1:{port};")
    return "pid nginx.pid;\nerror_log stderr warn;\nevents {}\nhttp {\n" + block + "}\n"


@contextlib.contextmanager
def _behind_nginx(
    run: Path, env: dict[str, str], config: Callable[[int, int], str] = deploy_config
) -> Iterator[tuple[int, int]]:
    """``meldwise serve`` (one worker, ``env`` added) behind nginx running ``config``
    (given the service's port and nginx's: deploy/nginx.conf by default); yields
    nginx's port and the service's."""
    settings = {"MELDWISE_TRUSTED_PROXIES": "127.0.0.1", "MELDWISE_CORS_ORIGINS": ORIGIN}
    with serve(1, str(run / "service.log"), {**settings, **env}) as (url, _pid):
        service = int(url.rsplit(":", 1)[1])
        port = free_port()
        (run / "nginx.conf").write_text(config(service, port), encoding="utf-8")
        log = run / "error.log"  # a file: a pipe nobody reads fills, and nginx waits on it
        with log.open("wb") as errors:
            server = subprocess.Popen(
                [NGINX, "-p", str(run), "-c", str(run / "nginx.conf"), "-g", "daemon off;"],
                stderr=errors,
            )
        try:
            deadline = time.monotonic() + 10
            while True:
                assert server.poll() is None, log.read_text(errors="replace")
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=1).close()
                    break
                except OSError:
                    assert time.monotonic() < deadline, "nginx did not listen"
                    time.sleep(0.05)
            yield port, service
        finally:
            server.terminate()
            server.wait(10)


@pytest.fixture(scope="module")
def ports(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[int, int]]:
    """nginx's port and the service's behind it (no rate limit)."""
    with _behind_nginx(tmp_path_factory.mktemp("nginx"), {"MELDWISE_RATE_LIMIT": ""}) as both:
        yield both


Answer = tuple[int, dict[str, str], bytes]
"""An answer's status, headers (names in lower case; those that name the server, the
time or the connection left out) and body."""


def _ask(
    port: int,
    headers: Sequence[tuple[str, str]],
    path: str = SOLVE,
    body: bytes | None = None,
    chunked: bool = False,
) -> Answer:
    """A POST to ``path`` with ``headers`` (a name may come twice) declaring a body of
    10 MB and sending none; or sending ``body``, with its length or ``chunked`` (in
    chunks of 64 KiB), as far as the server reads it."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.putrequest("POST", path)
        connection.putheader("Content-Type", "application/json")
        if chunked:
            connection.putheader("Transfer-Encoding", "chunked")
        else:
            connection.putheader("Content-Length", str(10**7 if body is None else len(body)))
        for name, value in headers:
            connection.putheader(name, value)
        connection.endheaders()
        with contextlib.suppress(OSError):  # refused before all of it went: a reset
            for start in range(0, len(body or b""), 1 << 16):
                part = (body or b"")[start : start + (1 << 16)]
                connection.send(b"%x\r\n%s\r\n" % (len(part), part) if chunked else part)
            if chunked:
                connection.send(b"0\r\n\r\n")
        answer = connection.getresponse()
        kept = {
            name.lower(): value
            for name, value in answer.getheaders()
            if name.lower() not in ("date", "server", "connection")
        }
        return answer.status, kept, answer.read()
    finally:
        connection.close()


def _through_and_straight(
    ports: tuple[int, int],
    headers: Sequence[tuple[str, str]],
    path: str = SOLVE,
    body: bytes | None = None,
    chunked: bool = False,
    prefix: str = "",
) -> tuple[Answer, Answer]:
    """The answer through nginx (to ``path`` under ``prefix``) and the service's own to
    the same request (the same X-Request-ID, so that the two can be compared whole)."""
    headers = [*headers, ("X-Request-ID", "nginx-413-test")]
    nginx, service = ports
    through = _ask(nginx, headers, prefix + path, body, chunked)
    return through, _ask(service, headers, path, body, chunked)


def _detail(lang: str, limit: int = 16384) -> bytes:
    """The service's 413 body in ``lang`` for a body over ``limit`` bytes."""
    with language(lang):
        said = _("the request body is larger than the limit of {limit} bytes", limit=limit)
    return ('{"detail":"' + said + '"}').encode()


@pytest.mark.parametrize(
    "accept_language",
    [
        "ja",
        "ja-JP",
        "JA-jp",
        "en",
        "",
        "fr",
        "fr, ja;q=0.9",
        "en;q=0.1, ja",
        "ja-JP,ja;q=0.9,en-US;q=0.8,en;q=0.7",
        "en-US,en;q=0.9,ja;q=0.8",
        "ja;q=0.5, en;q=0.5",
        "en;q=0.5, ja;q=0.5",
        "ja;q=0",
        "ja;q=0, *",
        "*",
        "*;q=0.5, en;q=0.1",
        "en;q=0.1, *;q=0.5",
        "*, en",
        "*, ja",
        "ja;q=0.5, *",
        "ja;q=1.5",
        "ja;q=0.1234, en;q=0.1",
        "ja;level=1;q=0.8, en;q=0.7",
        "ja;q=0.2;q=0.9, en;q=0.5",
        "ja;Q=0.9, en;q=0.8",
        "ja ; q = 0.9 , en;q=0.8",
        "\tja;q=0.9,\ten;q=0.1",
        "jax, ja_JP, ja-toolongsubtag",
        "ja;q=1.000, en;q=0.999",
        "ja;q=0.999, en;q=1.",
        "ja;q=0., en;q=0",
        "ja;q, en;q=0.1",
        "ja;q=",
        # A language named again with a higher q than at first: the service takes its
        # highest (Japanese); nginx's maps took the first item's (English).
        "ja;q=0.1, ja-JP;q=0.9, en;q=0.5",
        "en;q=0.2, ja;q=0.1, ja-JP;q=0.9",
    ],
)
def test_nginx_says_its_413_in_the_language_the_service_chooses(
    ports: tuple[int, int], accept_language: str
) -> None:
    # A review's limit is nginx's own (512k): the body is the same words either way.
    # nginx's own 413 chose Japanese only when Accept-Language began with "ja": "fr,
    # ja;q=0.9" and "en;q=0.1, ja" got English, where the service answers in Japanese;
    # then maps that re-read the service's rule missed a language named twice.
    through, straight = _through_and_straight(
        ports, [("Accept-Language", accept_language)], path=REVIEW
    )
    assert through[0] == straight[0] == 413
    assert through[2] == straight[2]


def test_nginx_says_its_413_in_the_language_of_every_accept_language_line(
    ports: tuple[int, int],
) -> None:
    # The service reads a header sent as two lines as one list (RFC 9110): Japanese
    # here. nginx 1.22's $http_accept_language is the first line alone: English.
    lines = [("Accept-Language", "en;q=0.1"), ("Accept-Language", "ja")]
    through, straight = _through_and_straight(ports, lines, path=REVIEW)
    assert straight[:1] + straight[2:] == (413, _detail("ja", 524288))
    assert through[0] == 413
    assert through[2] == straight[2]


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("path", [SOLVE, REVIEW])
def test_nginx_answers_a_body_over_its_limit_as_the_service_answers_it(
    ports: tuple[int, int], lang: str, path: str
) -> None:
    # nginx answered its own 413: its limit's words (512k, where a solve's is 16k),
    # "Access-Control-Allow-Origin: *" whatever the service allows, and none of its
    # other headers. Now the service answers it, as it answers the request straight.
    asked = [("Accept-Language", lang), ("Origin", ORIGIN)]
    through, straight = _through_and_straight(ports, asked, path=path)
    assert through == straight
    status, headers, body = straight
    assert (status, body) == (413, _detail(lang, 524288 if path == REVIEW else 16384))
    assert headers["access-control-allow-origin"] == ORIGIN
    assert headers["content-type"] == "application/json"


@pytest.mark.parametrize("chunked", [False, True], ids=["length", "chunked"])
def test_nginx_answers_a_body_sent_over_its_limit_as_the_service_answers_it(
    ports: tuple[int, int], chunked: bool
) -> None:
    # Sent, as a browser sends it. With no length said, nginx refuses it once 512k
    # have come, and declares one byte more to the service.
    body = b"{" + b" " * (600 * 1024) + b"}"
    asked = [("Accept-Language", "ja"), ("Origin", ORIGIN)]
    through, straight = _through_and_straight(ports, asked, REVIEW, body, chunked)
    assert through == straight
    assert straight[0::2] == (413, _detail("ja", 524288))


def test_a_body_over_nginx_limit_counts_against_the_rate_limit_as_the_service_counts_it(
    tmp_path: Path,
) -> None:
    # nginx answered every such body 413 itself, uncounted; the service counts a
    # request before it looks at its body, and refuses the third of "2/minute" 429.
    with _behind_nginx(tmp_path, {"MELDWISE_RATE_LIMIT": "2/minute"}) as (nginx, _service):
        answers = [_ask(nginx, [("Accept-Language", "ja")]) for _ in range(3)]
    assert [status for status, _headers, _body in answers] == [413, 413, 429]
    with language("ja"):
        detail = _("this client sent more requests than the rate limit allows; slow down")
    assert answers[2][2] == ('{"detail":"' + detail + '"}').encode()
    assert int(answers[2][1]["retry-after"]) > 0


@pytest.fixture(scope="module")
def documented_ports(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[int, int]]:
    """nginx's port and the service's behind it, nginx running the lines
    docs/service.md gives for a path prefix (no rate limit)."""
    run = tmp_path_factory.mktemp("nginx-documented")
    with _behind_nginx(run, {"MELDWISE_RATE_LIMIT": ""}, documented_config) as both:
        yield both


@pytest.mark.parametrize("chunked", [False, True], ids=["length", "chunked"])
@pytest.mark.parametrize("path", [SOLVE, REVIEW])
@pytest.mark.parametrize("prefix", ["/meldwise", ""], ids=["prefix", "root"])
def test_the_documented_config_answers_a_body_over_its_limit_as_the_service_does(
    documented_ports: tuple[int, int], prefix: str, path: str, chunked: bool
) -> None:
    # The documented lines had no error_page: nginx answered its own HTML 413, which a
    # page of another origin cannot read. A named location takes no URI in its
    # proxy_pass, so the prefix's has to strip the prefix itself: without that, the
    # service saw /meldwise/v1/rummikub/review, no route of its own, and refused a
    # review with a solve's limit.
    body = b"{" + b" " * (600 * 1024) + b"}"
    asked = [("Accept-Language", "ja"), ("Origin", ORIGIN)]
    through, straight = _through_and_straight(documented_ports, asked, path, body, chunked, prefix)
    assert through == straight
    assert straight[0::2] == (413, _detail("ja", 524288 if path == REVIEW else 16384))
    assert straight[1]["access-control-allow-origin"] == ORIGIN


@pytest.mark.parametrize("prefix", ["/meldwise", ""], ids=["prefix", "root"])
def test_the_documented_config_passes_a_solve_on_with_its_prefix(
    documented_ports: tuple[int, int], prefix: str
) -> None:
    # The service hears of the prefix from the lines as written: its schema names it.
    nginx, _service = documented_ports
    connection = http.client.HTTPConnection("127.0.0.1", nginx, timeout=10)
    try:
        connection.request("GET", prefix + "/openapi.json", headers={"X-Forwarded-Prefix": "/evil"})
        answer = connection.getresponse()
        schema = json.loads(answer.read())
    finally:
        connection.close()
    assert answer.status == 200
    assert schema.get("servers", [{"url": ""}])[0]["url"] == prefix


SECURITY_HEADERS = (
    "content-security-policy",
    "x-content-type-options",
    "x-frame-options",
    "referrer-policy",
    "cross-origin-opener-policy",
)
"""The headers every answer of the service carries, its own 431 too."""


@pytest.mark.parametrize(
    "accept_language",
    ["en", "ja", "", "ja-JP,ja;q=0.9,en;q=0.8", "en-US,en;q=0.9,ja;q=0.8", "ja;q=0", "JA-jp"],
)
@pytest.mark.parametrize(
    ("config", "prefix"),
    [("deploy", ""), ("documented", "/meldwise"), ("documented", "")],
    ids=["deploy", "documented-prefix", "documented-root"],
)
def test_a_header_line_over_nginx_limit_gets_the_services_json_431(
    ports: tuple[int, int],
    documented_ports: tuple[int, int],
    config: str,
    prefix: str,
    accept_language: str,
) -> None:
    # A header line over large_client_header_buffers (16k) got nginx's HTML "400
    # Request Header Or Cookie Too Large", which a page reads as no answer of the
    # service's; straight, the service answers 431, JSON, in the client's language.
    asked = [("Accept-Language", accept_language), ("Origin", ORIGIN), ("X-Big", "a" * 17000)]
    both = ports if config == "deploy" else documented_ports
    through, straight = _through_and_straight(both, asked, body=b"{}", prefix=prefix)
    assert straight[0] == 431
    lang = negotiate(accept_language)
    with language(lang):
        said = _(
            "the request line and headers are larger than the limit of {limit} bytes", limit=16384
        )
    assert json.loads(straight[2]) == {"detail": said}
    assert through[0] == 431
    assert json.loads(through[2]) == json.loads(straight[2])
    for name in ("content-type", *SECURITY_HEADERS):
        assert through[1].get(name) == straight[1][name], name
    assert "access-control-allow-origin" not in straight[1]  # nor through nginx
    assert "access-control-allow-origin" not in through[1]
    assert through[1]["x-request-id"]  # nginx's: the client's came after the big line

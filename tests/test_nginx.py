"""deploy/nginx.conf run by a real nginx (Debian's: ``apt-get install -y nginx``), its
upstream block pointed nowhere: what nginx answers itself, before any replica is asked.
Without nginx these are skipped, except under ``CI=true`` (.ci/run installs it)."""

from __future__ import annotations

import http.client
import json
import os
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.i18n import _, language, negotiate

ROOT = Path(__file__).resolve().parent.parent
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
_missing = None if Path(NGINX).exists() else "no nginx: apt-get install -y nginx"
if _missing and os.environ.get("CI"):
    raise RuntimeError(_missing)
pytestmark = pytest.mark.skipif(_missing is not None, reason=_missing or "")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def nginx(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    """deploy/nginx.conf served on a port of its own (as deploy/run-local-replicas.sh
    runs it, with one upstream that is never reached); yields the port."""
    run = tmp_path_factory.mktemp("nginx")
    port = _free_port()
    lines, skip = [], False
    for line in (ROOT / "deploy" / "nginx.conf").read_text(encoding="utf-8").splitlines():
        if "# upstream-begin" in line:
            lines.append("    upstream meldwise { server 127.0.0.1:9; }")
            skip = True
        elif "# upstream-end" in line:
            skip = False
        elif not skip:
            lines.append(line.replace("listen 8080;", f"listen 127.0.0.1:{port};"))
    (run / "nginx.conf").write_text("\n".join(lines) + "\n", encoding="utf-8")
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
        yield port
    finally:
        server.terminate()
        server.wait(10)


def _too_large(port: int, accept_language: str) -> dict[str, str]:
    """nginx's 413 for a body declared over its limit, asked in ``accept_language``."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.putrequest("POST", "/v1/rummikub/solve")
        connection.putheader("Content-Type", "application/json")
        connection.putheader("Content-Length", str(10**7))
        connection.putheader("Accept-Language", accept_language)
        connection.endheaders()
        answer = connection.getresponse()
        assert answer.status == 413
        said: dict[str, str] = json.loads(answer.read())
        return said
    finally:
        connection.close()


def _in(lang: str) -> dict[str, str]:
    """The service's detail for a body over nginx's limit, in ``lang``."""
    with language(lang):
        said = _("the request body is larger than the limit of {limit} bytes", limit=524288)
        return {"detail": said}  # client_max_body_size 512k (tests/test_container.py)


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
    ],
)
def test_nginx_says_its_413_in_the_language_the_service_chooses(
    nginx: int, accept_language: str
) -> None:
    # nginx's own 413 chose Japanese only when Accept-Language began with "ja": "fr,
    # ja;q=0.9" and "en;q=0.1, ja" got English, where the service answers in Japanese.
    assert _too_large(nginx, accept_language) == _in(negotiate(accept_language))


_TAGS = ["ja", "JA", "ja-JP", "en", "en-US", "EN-gb", "fr", "de-DE", "*", "jax", "e", "ja_JP"]
_QS = ["1", "1.0", "1.000", "0", "0.", "0.5", "0.50", "0.05", "0.005", "0.999", "1.5", ".5", "x"]
_SPACE = st.sampled_from(["", " ", "\t", "  "])


@st.composite
def _headers(draw: st.DrawFn) -> str:
    """An Accept-Language header in which a language named again (ja-JP after ja) is
    first named without a q: its first item has its highest q, as in every header a
    browser sends (from the most wanted language down). nginx reads the first item of
    each; the service, the one with the highest q: the same, for these."""
    items: list[str] = []
    first_without_q: dict[str, bool] = {}
    for tag in draw(st.lists(st.sampled_from(_TAGS), max_size=6)):
        lang = tag.lower().split("-")[0]
        params = draw(st.lists(st.sampled_from(["q", "level=1"]), max_size=2))
        if lang in ("ja", "en") and not first_without_q.setdefault(lang, "q" not in params):
            continue  # named again, first with a q
        written = tag + draw(_SPACE)
        for param in params:
            value = f"q{draw(_SPACE)}={draw(_SPACE)}{draw(st.sampled_from(_QS))}"
            written += ";" + draw(_SPACE) + (value if param == "q" else param) + draw(_SPACE)
        items.append(draw(_SPACE) + written)
    return ",".join(items)


@settings(max_examples=300, deadline=None)
@given(_headers())
def test_nginx_chooses_as_the_service_does_for_a_header_as_browsers_write_them(
    nginx: int, accept_language: str
) -> None:
    assert _too_large(nginx, accept_language) == _in(negotiate(accept_language)), accept_language

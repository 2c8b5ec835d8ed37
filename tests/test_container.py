"""The container image's promises, read from the Dockerfile and deploy/ without a
container engine (CI has none; docs/service.md records a real build and run)."""

from __future__ import annotations

import re
from fnmatch import fnmatch
from pathlib import Path

import pytest

from api.settings import Settings

ROOT = Path(__file__).resolve().parent.parent


def _instructions() -> list[tuple[str, str]]:
    """The Dockerfile's instructions as (KEYWORD, arguments), continuations joined."""
    text = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if not line.lstrip().startswith("#")]
    joined = re.sub(r"\\\n\s*", " ", "\n".join(lines))
    found = []
    for line in joined.splitlines():
        if line.strip():
            keyword, _sep, arguments = line.strip().partition(" ")
            found.append((keyword.upper(), arguments.strip()))
    return found


def _runs() -> list[str]:
    return [arguments for name, arguments in _instructions() if name == "RUN"]


def _last(keyword: str) -> str:
    matches = [arguments for name, arguments in _instructions() if name == keyword]
    assert matches, f"the Dockerfile has no {keyword}"
    return matches[-1]


def test_the_image_runs_as_a_numbered_user_that_is_not_root() -> None:
    user = _last("USER").split(":")[0]
    assert user.isdigit(), user
    assert int(user) != 0
    assert any(f"--uid {user}" in run for run in _runs())  # made with that number


def test_the_healthcheck_asks_readyz_on_the_port_the_server_listens_on() -> None:
    port = re.search(r"MELDWISE_PORT=(\d+)", _last("ENV"))
    assert port is not None
    assert f"127.0.0.1:{port.group(1)}/readyz" in _last("HEALTHCHECK")
    assert _last("CMD") == '["meldwise", "serve"]'
    assert _last("STOPSIGNAL") == "SIGTERM"


def test_the_image_installs_at_the_tested_versions() -> None:
    # constraints.txt pins every dependency (tests/test_constraints.py): the image copies
    # that file, not another set, and installs with it.
    copied = [args.split()[:-1] for name, args in _instructions() if name == "COPY"]
    assert any("constraints.txt" in sources for sources in copied)
    assert any("--constraint constraints.txt" in run for run in _runs())
    ignored = (ROOT / ".dockerignore").read_text(encoding="utf-8").splitlines()
    assert not any(fnmatch("constraints.txt", pattern) for pattern in ignored)


def test_compose_waits_longer_than_a_graceful_shutdown() -> None:
    compose = (ROOT / "deploy" / "compose.yaml").read_text(encoding="utf-8")
    grace = re.search(r"stop_grace_period:\s*(\d+)s", compose)
    assert grace is not None
    assert int(grace.group(1)) > Settings().timeout_shutdown_s
    assert "condition: service_healthy" in compose  # nginx waits for the HEALTHCHECK


def test_nginx_sends_to_every_replica_of_the_compose_service() -> None:
    compose = (ROOT / "deploy" / "compose.yaml").read_text(encoding="utf-8")
    nginx = (ROOT / "deploy" / "nginx.conf").read_text(encoding="utf-8")
    port = re.search(r"MELDWISE_PORT=(\d+)", _last("ENV"))
    assert port is not None
    assert re.search(r"^  meldwise:$", compose, re.MULTILINE)  # the service's name...
    assert re.search(rf"^\s*server meldwise:{port.group(1)}\b", nginx, re.MULTILINE)
    # ...looked up by nginx's own start (any engine's DNS), not by a resolver address
    # that only Docker has (podman answered 502 to everything: docs/service.md).
    assert "resolver" not in nginx
    # podman-compose makes the replicas only when the mode is written out.
    assert re.search(r"mode: replicated\b.*\n\s*replicas: \d+", compose)


def _nginx_size(value: str) -> int:
    """An nginx size (``16k``, ``1m``, ``512``) in bytes."""
    number, unit = re.fullmatch(r"(\d+)([kKmM]?)", value).groups()  # type: ignore[union-attr]
    return int(number) * {"": 1, "k": 1024, "m": 1024 * 1024}[unit.lower()]


def test_nginx_lets_every_body_the_service_takes_through_and_waits_for_its_answer() -> None:
    # A review's record may be up to MELDWISE_RECORD_BODY_LIMIT_BYTES; nginx at 16k
    # answered a bot game's review (35 KB) with its own HTML 413, which has no CORS
    # header: an element on a game's page said the service could not be reached.
    # Bodies over the service's limits get its own 413, JSON, in the client's language.
    nginx = (ROOT / "deploy" / "nginx.conf").read_text(encoding="utf-8")
    settings = Settings()
    body = re.search(r"^\s*client_max_body_size (\w+);", nginx, re.MULTILINE)
    assert body is not None
    assert _nginx_size(body.group(1)) >= settings.record_body_limit_bytes
    # ...and so over every route's limit: a replica refuses what nginx refuses.
    assert settings.record_body_limit_bytes >= settings.body_limit_bytes
    # nginx waits longer than the service takes to answer itself (503 after the
    # request timeout): else nginx's own 504 comes first.
    read = re.search(r"^\s*proxy_read_timeout (\d+)s;", nginx, re.MULTILINE)
    assert read is not None
    assert int(read.group(1)) > settings.timeout_request_s


def test_nginx_at_the_root_passes_on_no_prefix_a_client_sends() -> None:
    # The replicas trust nginx's X-Forwarded-Prefix (MELDWISE_TRUSTED_PROXIES): passed
    # on from a client, /openapi.json named it as the server for that client's /docs.
    nginx = (ROOT / "deploy" / "nginx.conf").read_text(encoding="utf-8")
    assert re.search(r'^\s*proxy_set_header X-Forwarded-Prefix "";', nginx, re.MULTILINE)


def _nginx_block(nginx: str, opening: str) -> str:
    """The text between the braces of the block that ``opening`` (a regex) begins."""
    start = re.search(rf"^\s*{opening}\s*\{{", nginx, re.MULTILINE)
    assert start is not None, opening
    depth, end = 1, start.end()
    while depth:
        depth += {"{": 1, "}": -1}.get(nginx[end], 0)
        end += 1
    return nginx[start.end() : end - 1]


def test_nginx_has_the_service_refuse_a_body_over_its_limit() -> None:
    # Over client_max_body_size nginx answered its own HTML 413, which has no CORS
    # header: the browser hid it from an element on a game's page, which said "Could
    # not reach the service". Then its own JSON 413, its language chosen by maps that
    # re-read the service's rule and missed some headers. Now a replica refuses it, as
    # it refuses the request sent straight (tests/test_nginx.py runs it in nginx).
    nginx = (ROOT / "deploy" / "nginx.conf").read_text(encoding="utf-8")
    body = re.search(r"^\s*client_max_body_size (\w+);", nginx, re.MULTILINE)
    assert body is not None
    limit = _nginx_size(body.group(1))
    target = re.search(r"^\s*error_page 413 = (@\w+);", nginx, re.MULTILINE)
    assert target is not None, "nginx's own 413, or not the replica's status"
    location = _nginx_block(nginx, f"location {target.group(1)}")
    assert re.search(r"^\s*proxy_pass http://meldwise;", location, re.MULTILINE)
    # Nothing of the body: of one sent chunked, nginx may hold a part.
    assert re.search(r"^\s*proxy_pass_request_body off;", location, re.MULTILINE)
    # The length the client declared, or, for a chunked body, one over nginx's limit.
    length = re.search(r"^\s*proxy_set_header Content-Length \$(\w+);", location, re.MULTILINE)
    assert length is not None
    declared = _nginx_block(nginx, rf"map \$http_content_length \${length.group(1)}")
    assert re.search(r"^\s*default \$http_content_length;", declared, re.MULTILINE)
    assert re.search(rf'^\s*"" {limit + 1};', declared, re.MULTILINE)
    # Every header the server's other requests are passed with, as they are: a
    # location's own proxy_set_header lines replace the server's.
    server = _nginx_block(nginx, "server")
    passed = re.findall(r"^ {8}(proxy_set_header .*;)$", server, re.MULTILINE)
    assert {"proxy_set_header X-Request-ID $meldwise_request_id;"} < set(passed)
    assert set(passed) <= set(re.findall(r"^\s*(proxy_set_header .*;)$", location, re.MULTILINE))
    assert "proxy_set_header" not in _nginx_block(nginx, "location /")


def _documented_nginx() -> str:
    """The nginx lines docs/service.md gives for serving under a path prefix."""
    text = (ROOT / "docs" / "service.md").read_text(encoding="utf-8")
    section = text.split("## Behind nginx, at the root or under a path prefix", 1)[1]
    return section.split("```nginx\n", 1)[1].split("```", 1)[0]


@pytest.mark.parametrize(
    "nginx",
    [(ROOT / "deploy" / "nginx.conf").read_text(encoding="utf-8"), _documented_nginx()],
    ids=["deploy", "documented"],
)
def test_nginx_closes_an_idle_upstream_connection_before_the_service_does(nginx: str) -> None:
    # nginx keeps an idle connection to a replica for 60 s unless told; the service
    # closes one after MELDWISE_TIMEOUT_KEEP_ALIVE_S (5). A request nginx sent on one
    # just as the service closed it failed there ("upstream prematurely closed
    # connection", 1 in about 5,000 of a soak through nginx) and was sent again.
    upstream = _nginx_block(nginx, "upstream meldwise")
    assert re.search(r"^\s*keepalive \d+;", upstream, re.MULTILINE)
    idle = re.search(r"^\s*keepalive_timeout (\d+)s;", upstream, re.MULTILINE)
    assert idle is not None, "nginx's default, 60 s"
    assert int(idle.group(1)) < Settings().timeout_keep_alive_s

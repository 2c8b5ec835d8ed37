"""The service behind a reverse proxy that serves it under a path prefix
(``X-Forwarded-Prefix``), and the forwarded client (``X-Forwarded-For``), at the ASGI
level: believed from the peers ``MELDWISE_TRUSTED_PROXIES`` lists, and from no
other. docs/service.md, "Behind nginx", is the same walked with a real nginx."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from fastapi.testclient import TestClient

from api.main import create_app
from api.proxies import forwarded_prefix
from api.settings import Settings

PROXY = ("127.0.0.1", 40000)
SCORE = {"racks": {"ann": [], "bob": ["R5"]}}


@contextmanager
def client_at(peer: tuple[str, int], **settings: object) -> Iterator[TestClient]:
    app = create_app(Settings(workers=1, **settings))  # type: ignore[arg-type]
    with TestClient(app, client=peer) as client:
        yield client


def test_a_trusted_proxys_prefix_is_where_the_service_says_it_is() -> None:
    with client_at(PROXY, trusted_proxies=["127.0.0.1"], rate_limit="2/minute") as client:
        prefixed = {"X-Forwarded-Prefix": "/meldwise"}
        # /docs' "Try it out" calls the schema's server: the prefix, not the site's root.
        schema = client.get("/openapi.json", headers=prefixed).json()
        assert schema["servers"] == [{"url": "/meldwise"}]
        assert "servers" not in client.get("/openapi.json").json()
        # Written with nginx's trailing slash, the same prefix.
        slashed = client.get("/openapi.json", headers={"X-Forwarded-Prefix": "/meldwise/"})
        assert slashed.json()["servers"] == [{"url": "/meldwise"}]
        for path in ("/", "/docs", "/static/demo.css", "/healthz"):
            assert client.get(path, headers=prefixed).status_code == 200, path
        assert client.post("/v1/rummikub/score", json=SCORE, headers=prefixed).status_code == 200
        # A prefix that is also the start of the service's own paths.
        at_v1 = {"X-Forwarded-Prefix": "/v1"}
        assert client.post("/v1/rummikub/score", json=SCORE, headers=at_v1).status_code == 200
        # The gate still knows an API call under a prefix: the third is over the limit.
        over = client.post("/v1/rummikub/score", json=SCORE, headers=prefixed)
        assert over.status_code == 429
        metrics = client.get("/metrics").text
        assert 'route="/v1/rummikub/score",status="200"} 2.0' in metrics
        assert 'route="/v1/rummikub/score",status="429"} 1.0' in metrics


def test_a_review_under_a_prefix_keeps_its_larger_body_limit() -> None:
    with client_at(PROXY, trusted_proxies=["127.0.0.1"]) as client:
        body = b'{"record": "' + b"x" * 20_000 + b'"}'  # over 16 KiB, within 512 KiB
        answer = client.post(
            "/v1/rummikub/review",
            content=body,
            headers={"Content-Type": "application/json", "X-Forwarded-Prefix": "/meldwise"},
        )
        assert answer.status_code == 422, answer.text


@pytest.mark.parametrize(
    "settings", [{}, {"trusted_proxies": ["10.0.0.1"]}], ids=["none trusted", "another trusted"]
)
def test_a_prefix_or_client_from_a_peer_not_trusted_is_ignored(settings: dict[str, object]) -> None:
    with client_at(PROXY, rate_limit="1/minute", **settings) as client:
        schema = client.get("/openapi.json", headers={"X-Forwarded-Prefix": "/meldwise"}).json()
        assert "servers" not in schema
        # The peer is the client, whatever it says: its second request is over the limit.
        for n, status in ((1, 200), (2, 429)):
            answer = client.post(
                "/v1/rummikub/score", json=SCORE, headers={"X-Forwarded-For": f"203.0.113.{n}"}
            )
            assert answer.status_code == status


def test_a_trusted_proxys_clients_are_told_apart() -> None:
    with client_at(PROXY, trusted_proxies=["127.0.0.0/8"], rate_limit="1/minute") as client:
        for n in (1, 2):
            answer = client.post(
                "/v1/rummikub/score", json=SCORE, headers={"X-Forwarded-For": f"203.0.113.{n}"}
            )
            assert answer.status_code == 200
        again = client.post(
            "/v1/rummikub/score", json=SCORE, headers={"X-Forwarded-For": "203.0.113.1"}
        )
        assert again.status_code == 429


@pytest.mark.parametrize(
    ("value", "prefix"),
    [
        ("/meldwise", "/meldwise"),
        ("/meldwise/", "/meldwise"),
        ("/games/meld-wise_2", "/games/meld-wise_2"),
        ("/", ""),
        ("", ""),
        ("meldwise", ""),
        ("/a/../b", ""),
        ("/a/./b", ""),
        ("/a//b", ""),
        ("/x y", ""),
        ("/%2e%2e", ""),
        ("/a?b", ""),
        ("https://games.example/meldwise", ""),
        ("/" + "a" * 300, ""),
    ],
)
def test_a_prefix_is_plain_path_segments(value: str, prefix: str) -> None:
    assert forwarded_prefix([(b"x-forwarded-prefix", value.encode())]) == prefix


def test_a_prefix_sent_twice_names_none() -> None:
    twice = [(b"x-forwarded-prefix", b"/a"), (b"x-forwarded-prefix", b"/b")]
    assert forwarded_prefix(twice) == ""

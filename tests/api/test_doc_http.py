"""The docs' HTTP against the service: every setting of docs/http.md's table with the
default the code gives it, every route of the OpenAPI in its table of endpoints, each
``$ curl`` example of the docs and each request of the wire formats (docs/rummikub.md,
docs/shanghai.md) posted to the app and its answer compared with the one shown, and
the error details http.md quotes answered word for word to the requests that make
them."""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.main import create_app
from api.settings import Settings

ROOT = Path(__file__).parents[2]
HTTP_DOC = ROOT / "docs" / "http.md"
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
ELIDED = "..."


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(Settings(workers=1, rate_limit=""))) as client:
        yield client


def settings_table() -> dict[str, str]:
    """Each ``MELDWISE_*`` variable of http.md's table of settings, with its default
    as the table gives it."""
    rows = re.findall(r"^\| `MELDWISE_([A-Z_]+)` \| ([^|]+?) \|", HTTP_DOC.read_text(), re.M)
    return {f"MELDWISE_{name}": default for name, default in rows}


def test_the_settings_table_lists_every_setting_with_its_default() -> None:
    table = settings_table()
    assert set(table) == {f"MELDWISE_{name.upper()}" for name in Settings.model_fields}
    for name, field in Settings.model_fields.items():
        if field.default_factory is not None or field.default is None:
            continue  # a default found at start (the cores), or a list: said in words
        default = field.default
        written = str(default).lower() if isinstance(default, bool) else str(default)
        assert table[f"MELDWISE_{name.upper()}"] == f"`{written}`", name


def test_the_endpoints_table_lists_every_route(client: TestClient) -> None:
    text = HTTP_DOC.read_text()
    listed = set(re.findall(r"^\| `([A-Z]+ /[^`]*)` \|", text, re.M))
    spec = client.get("/openapi.json").json()
    routes = {f"{method.upper()} {path}" for path, item in spec["paths"].items() for method in item}
    assert routes <= listed, sorted(routes - listed)
    assert {"GET /", "GET /docs"} <= listed


def curl_examples(doc: Path) -> list[tuple[str, str, list[str]]]:
    """Each ``$ curl`` example of the doc's code blocks (joined over its backslashes):
    its command and the lines shown after it, up to a blank line or the block's end."""
    found: list[tuple[str, str, list[str]]] = []
    text = doc.read_text(encoding="utf-8")
    for block in re.findall(r"^```[a-z]*\n(.*?)^```", text, re.M | re.S):
        lines = block.replace("\\\n", " ").splitlines()
        for at, line in enumerate(lines):
            if line.startswith("$ curl "):
                shown = []
                for after in lines[at + 1 :]:
                    if not after or after.startswith("$ "):
                        break
                    shown.append(after)
                found.append((doc.name, line[2:], shown))
    return found


CURLS = [example for doc in DOCS for example in curl_examples(doc)]


def test_the_curl_examples_are_found() -> None:
    assert any(doc == "http.md" for doc, _, _ in CURLS)


@pytest.mark.parametrize(("doc", "command", "shown"), CURLS, ids=[c for _, c, _ in CURLS])
def test_each_curl_example_answers_as_shown(
    client: TestClient, doc: str, command: str, shown: list[str]
) -> None:
    words = shlex.split(command)
    assert words[:2] == ["curl", "-s"], command
    url = words[2]
    path = url[url.index("/") :]
    headers: dict[str, str] = {}
    body: str | None = None
    rest = words[3:]
    while rest:
        flag, value, rest = rest[0], rest[1], rest[2:]
        if flag == "-H":
            name, _, said = value.partition(": ")
            headers[name] = said
        else:
            assert flag in ("-d", "--data"), command
            body = value
    if body is None:
        answer = client.get(path, headers=headers)
    else:
        answer = client.post(path, content=body.encode(), headers=headers)
    (line,) = shown
    if line.endswith(ELIDED + "}"):
        assert answer.text.startswith(line[: -len(ELIDED + "}")]), answer.text
    else:
        assert answer.json() == json.loads(line)


# Requests that make the error details http.md quotes, and the status each gets.
QUOTED: list[tuple[str, bytes, int, str]] = [
    (
        "/v1/rummikub/solve",
        b'{"rack": ["R1","R2" "J"]}',
        400,
        "the request body is not valid JSON: Expecting ',' delimiter at character 21",
    ),
    ("/v1/rummikub/solve", b'{"rack": ["R1", "Q5"]}', 422, "unknown tile 'Q5'"),
    ("/v1/rummikub/solve", b'{"rack": [], "colour": "R"}', 422, "unknown field 'colour'"),
    ("/v1/rummikub/solve", b"{}", 422, "missing field 'rack'"),
    (
        "/v1/rummikub/solve",
        b'{"rack": [5]}',
        422,
        "rack[0]: expected a tile like 'R5' or 'J', got 5",
    ),
    (
        "/v1/rummikub/solve",
        b'{"rack": [], "rules": {"copies": 9}}',
        422,
        "rules: rule 'copies' must be between 1 and 4, got 9",
    ),
    (
        "/v1/rummikub/score",
        b'{"racks": {"ann": [], "ann": ["R5"]}}',
        422,
        "the key 'ann' is given twice in one object",
    ),
    (
        "/v1/rummikub/solve",
        b'{"rack": [], "time_limit_ms": 1234567890123456789012345}',
        422,
        "a number has 25 digits; at most 20 are accepted",
    ),
    (
        "/v1/rummikub/solve",
        b'{"rack": ["R5", "R5"], "table": [["R5", "R6", "R7"]]}',
        422,
        "too many copies of R5: 3 across rack and table, the game has 2",
    ),
    (
        "/v1/rummikub/solve",
        b'{"rack": [], "table": [["R1", "R2", "R3"], ["K1", "K2"]]}',
        422,
        "table set 1 (K1 K2) is not a valid set: ",
    ),
    (
        "/v1/rummikub/game",
        b'{"bots": ["strong", "greedy"], "settings": {"players": 3}}',
        422,
        "game setting 'players' is 3, but 2 bots are seated",
    ),
]


@pytest.mark.parametrize(("path", "body", "status", "quoted"), QUOTED, ids=[q for *_, q in QUOTED])
def test_each_error_http_md_quotes_is_the_services(
    client: TestClient, path: str, body: bytes, status: int, quoted: str
) -> None:
    assert quoted in " ".join(HTTP_DOC.read_text(encoding="utf-8").split())  # over lines too
    answer = client.post(path, content=body, headers={"Content-Type": "application/json"})
    assert answer.status_code == status, answer.text
    detail: Any = answer.json()["detail"]
    assert quoted in detail


def json_blocks(doc: str) -> list[str]:
    """The ``json`` code blocks of ``docs/<doc>``, in order."""
    text = (ROOT / "docs" / doc).read_text(encoding="utf-8")
    return re.findall(r"^```json\n(.*?)^```", text, re.M | re.S)


# The wire formats' examples: a request and the answer shown for it (the doc, the
# route, the block of the request and that of the answer; one block holding both is
# given twice, a line each).
WIRE = [
    ("rummikub.md", "/v1/rummikub/solve", 0, 1),
    ("shanghai.md", "/v1/shanghai/advise", 0, 1),
    ("shanghai.md", "/v1/shanghai/score", 2, 2),
]


@pytest.mark.parametrize(("doc", "path", "asked", "shown"), WIRE)
def test_each_wire_example_answers_as_shown(
    client: TestClient, doc: str, path: str, asked: int, shown: int
) -> None:
    blocks = json_blocks(doc)
    if asked == shown:
        request, answer = (json.loads(line) for line in blocks[asked].strip().split("\n", 1))
    else:
        request, answer = json.loads(blocks[asked]), json.loads(blocks[shown])
    got = client.post(path, json=request)
    assert got.status_code == 200, got.text
    assert got.json() == answer


# Requests that make the refusals whose places http.md's Errors gives, and those places
# (field, quoted) in order.
PLACES: list[tuple[str, dict[str, Any], list[tuple[list[Any], str]]]] = [
    (
        "/v1/rummikub/solve",
        {"rack": ["R1", "Q5"], "time_limit_ms": 0},
        [(["rack", 1], "rack[1]"), (["time_limit_ms"], "'time_limit_ms'")],
    ),
    (
        "/v1/rummikub/solve",
        {"rack": [], "table": [["R3", "R4", "R5"], ["R1", "R2"]]},
        [(["table", 1], "")],
    ),
    (
        "/v1/rummikub/validate",
        {"rack": [], "table_before": [["R3", "R4", "R5"], ["R1", "R2"]], "table_after": []},
        [(["table_before"], "table_before"), (["table_before", 1], "")],
    ),
    (
        "/v1/rummikub/game",
        {"bots": ["strong", "greedy"], "settings": {"players": 3}},
        [(["settings", "players"], "")],
    ),
    ("/v1/rummikub/solve", {"rack": [], "bogus": 1}, [(["bogus"], "'bogus'")]),
    (
        "/v1/rummikub/review",
        {
            "record": {
                "format": "meldwise-rummikub-game",
                "version": 1,
                "players": ["ann", "bob"],
                "turns": [
                    {"turn": 1, "player": 0, "rack": ["R1"], "table_before": [], "action": "play"}
                ],
            }
        },
        [
            (["record"], "record"),
            (["record", "turns", 0], "turns[0]"),
            (["record", "turns", 0, "table_after"], "'table_after'"),
        ],
    ),
]


@pytest.mark.parametrize(("path", "body", "places"), PLACES)
def test_each_refusals_places_are_as_http_md_gives_them(
    client: TestClient, path: str, body: dict[str, Any], places: list[tuple[list[Any], str]]
) -> None:
    answer = client.post(path, json=body)
    assert answer.status_code == 422, answer.text
    said = answer.json()
    assert [(place["field"], place["quoted"]) for place in said["places"]] == places
    text = " ".join(HTTP_DOC.read_text(encoding="utf-8").split())
    for field, quoted in places:
        assert json.dumps(field) in text or f"`{quoted}`" in text, (field, quoted)

"""The demo page and the browser modules as the service serves them (in process,
no browser): every file the page or a module refers to is there, scripts load
from other origins, and the metrics name the static route."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from api.main import create_app
from api.routes.demo import STATIC_DIR
from api.settings import Settings
from solver.rummikub.wire import (
    FullAnswer,
    HintAnswer,
    NudgeAnswer,
    NumberedSetOut,
    TileAnswer,
)
from solver.shanghai.wire import ShanghaiAdviseResponse

# `import ... from "./x.js"`, `import "./x.js"`: the modules' relative imports.
IMPORT = re.compile(r"""^\s*import\b[^"']*["'](\./[^"']+)["']""", re.MULTILINE)


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    # One test client sends many requests in a row: no rate limit (test_api_abuse.py tests it).
    with TestClient(create_app(Settings(workers=1, rate_limit=""))) as client:
        yield client


def test_the_root_is_the_demo_page(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    assert "<meldwise-hint" in page.text
    assert "/" not in client.get("/openapi.json").json()["paths"]


def test_every_file_the_page_and_its_modules_refer_to_is_served(client: TestClient) -> None:
    page = client.get("/").text
    wanted = set(re.findall(r'(?:src|href)="static/([^"]+)"', page))
    assert {"demo.js", "demo.css"} <= wanted
    for module in STATIC_DIR.glob("*.js"):
        wanted |= {path.removeprefix("./") for path in IMPORT.findall(module.read_text())}
    assert "meldwise-hint.js" in wanted
    for name in sorted(wanted):
        answer = client.get(f"/static/{name}")
        assert answer.status_code == 200, name
        kind = "javascript" if name.endswith(".js") else "css"
        assert kind in answer.headers["content-type"], name


def test_the_element_loads_from_another_origin(client: TestClient) -> None:
    # A module script from another origin is fetched in CORS mode.
    answer = client.get("/static/meldwise-hint.js", headers={"Origin": "https://game.example"})
    assert answer.status_code == 200
    assert answer.headers["access-control-allow-origin"] == "*"


def test_only_the_static_folder_is_served(client: TestClient) -> None:
    assert client.get("/static/missing.js").status_code == 404
    assert client.get("/static/..%2Froutes%2Fdemo.py").status_code == 404


def _requests(client: TestClient, route: str) -> float:
    """The count of GET requests answered 200 under ``route`` in /metrics."""
    wanted = f'meldwise_http_requests_total{{method="GET",route="{route}",status="200"}} '
    for line in client.get("/metrics").text.splitlines():
        if line.startswith(wanted):
            return float(line.removeprefix(wanted))
    return 0.0


def test_metrics_count_static_files_under_their_route(client: TestClient) -> None:
    static, unmatched = _requests(client, "/static"), _requests(client, "unmatched")
    client.get("/static/tiles.js")
    assert _requests(client, "/static") == static + 1
    assert _requests(client, "unmatched") == unmatched


@pytest.mark.parametrize("path", ["/", "/static/busy.js"])
@pytest.mark.parametrize("wanted", ["bytes=zz", "bytes=99999999-", "bytes=0-3"])
def test_files_are_sent_whole_whatever_range_is_asked_for(
    client: TestClient, path: str, wanted: str
) -> None:
    # A bad range was an English plain-text 400 ("Range header: range must be
    # requested"), one past the end a plain-text 416: Starlette's, outside the JSON
    # errors in the client's language.
    whole = client.get(path)
    asked = client.get(path, headers={"Range": wanted, "Accept-Language": "ja"})
    assert asked.status_code == 200
    assert asked.content == whole.content
    assert "accept-ranges" not in asked.headers
    assert "content-range" not in asked.headers


def test_the_screenshot_script_refuses_an_unknown_picture(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``python -m tests.api.screenshot --help`` (or a misspelt name) started a server and
    a browser, then ended in a KeyError's traceback."""
    pytest.importorskip("playwright")
    from tests.api import screenshot

    monkeypatch.setattr("sys.argv", ["screenshot", "--help"])
    assert screenshot.main() == 2
    assert "unknown picture '--help'; pictures are demo.png," in capsys.readouterr().err


def test_the_tabs_and_the_hint_element_share_one_request_slot() -> None:
    # One request in flight, and no answer drawn over a newer one: the tabs' logic
    # for it was copied into each tab's module, and <meldwise-hint> kept its own; it
    # is request-slot.js's alone (the element, loaded alone on a game's page, fetches
    # it beside itself, as it does busy.js and service.js).
    for name in ("repair.js", "review.js", "shanghai.js", "meldwise-hint.js"):
        source = (STATIC_DIR / name).read_text()
        assert 'from "./request-slot.js"' in source, name
        assert "AbortController" not in source, name


def test_the_shanghai_modules_and_the_shared_review_import_no_rummikub_module() -> None:
    # The note said when the clock cut a search (cappedNote) lived in
    # rummikub-answer.js, and the Shanghai tab, its review and the shared review
    # imported it from there: what both games share is found by its own file's name.
    rummikub = {"rummikub-answer.js", "review-rummikub.js", "repair.js"}
    for name in ("shanghai.js", "review-shanghai.js", "review.js"):
        source = (STATIC_DIR / name).read_text(encoding="utf-8")
        imported = set(re.findall(r'from "\./([\w-]+\.js)"', source))
        assert not imported & rummikub, name
    defined = [
        path.name
        for path in STATIC_DIR.glob("*.js")
        if "function cappedNote(" in path.read_text(encoding="utf-8")
    ]
    assert defined == ["time-capped.js"]


def test_the_docs_name_each_field_of_the_advice_the_shanghai_tab_leaves_out() -> None:
    """docs/http.md said the Shanghai tab shows the whole advice; it draws neither
    draw_options (the chances to go down and out) nor end_of_turn (it did not draw
    time_capped either, until a busy server's advice the clock cut said so)."""
    page = (STATIC_DIR / "shanghai.js").read_text(encoding="utf-8")
    drawn = set(re.findall(r"\badvice\.(\w+)", page))
    doc = (Path(__file__).parents[2] / "docs" / "http.md").read_text(encoding="utf-8")
    said = doc[doc.index("The **Shanghai** tab") :].split("Every request of the page")[0]
    left_out = set(re.findall(r"`(\w+)`", said[said.index("the notes.") :]))
    assert set(ShanghaiAdviseResponse.model_fields) - drawn == left_out - {"status"}


def test_the_element_checks_each_field_every_hint_answer_of_its_level_carries() -> None:
    # The element takes an answer for the service's only with every field of its level
    # (rummikub-answer.js): {"hint_level": "nudge"} alone was drawn as "No play found".
    source = (STATIC_DIR / "rummikub-answer.js").read_text(encoding="utf-8")
    block = source[source.index("const ALWAYS") : source.index("function kindOf")]
    always = set(re.findall(r"(\w+): \"", block[: block.index("const LEVEL_FIELDS")]))
    levels = dict(re.findall(r"(\w+): \{([^}]*)\}", block[block.index("const LEVEL_FIELDS") :]))
    asked_for = {"advice", "free_jokers"}  # only when the request asks
    assert asked_for == set(HintAnswer.model_fields) - {"status"}
    for model in (NudgeAnswer, TileAnswer, FullAnswer):
        level = model.model_fields["hint_level"].default
        checked = always | set(re.findall(r"(\w+): \"", levels[level]))
        assert checked == set(model.model_fields) - asked_for, level
    # And each set of a full answer's table.
    sets = re.search(r"const SET_FIELDS = \{([^}]*)\}", source)
    assert sets is not None
    wire = {field.alias or name for name, field in NumberedSetOut.model_fields.items()}
    assert set(re.findall(r"(\w+): \"", sets.group(1))) == wire

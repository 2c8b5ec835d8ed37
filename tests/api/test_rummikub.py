"""The HTTP service in process (FastAPI TestClient): every endpoint and error path."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import fields
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pydantic import TypeAdapter

from api import bodies, worker
from api.errors import MAX_DETAIL
from api.main import create_app
from api.settings import Settings, available_cores
from api.worker_answers import DEFAULT_TIME_LIMIT_MS, glance
from solver import (
    MeldwiseError,
    repair_rummikub,
    score_rummikub,
    solve_rummikub,
    validate_rummikub,
)
from solver.rummikub import Rules
from solver.rummikub.deal import random_position
from solver.rummikub.game_wire import bot_rummikub
from solver.rummikub.wire import RepairRequest, SolveRequest, SolveResponse
from tests.api.support import (
    BIG_RULES,
    REPAIR,
    SCORE,
    SHANGHAI_ADVISE,
    SHANGHAI_SCORE,
    SOLVE,
    VALIDATE,
    assert_legal_response,
    in_order,
)
from tests.support import spend_the_clock

EXAMPLE = {"rack": ["R1", "R2", "J"], "table": [["R3", "R4", "R5"], ["K7", "B7", "O7"]]}


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    # One test client sends many requests in a row: no rate limit (test_api_abuse.py tests it).
    with TestClient(create_app(Settings(workers=1, rate_limit=""))) as client:
        yield client


def test_solve_answers_the_wire_response_of_the_library(client: TestClient) -> None:
    response = client.post(SOLVE, json=EXAMPLE)
    assert response.status_code == 200
    body = response.json()
    assert in_order(body) == in_order(solve_rummikub(EXAMPLE))
    assert body["status"] == "optimal"
    assert body["tiles_played"] == 3
    assert_legal_response(EXAMPLE, body)


def test_a_solve_under_house_rules_is_legal_written_back_as_its_as_says(
    client: TestClient,
) -> None:
    """Found by the fuzz hunt: the answer's group J J O2 (as R2 B2 O2), written back
    plain, reads under wrap_runs as the run O5 O1 O2, which moves the table's jokers out
    of their group; written as ``as`` says (J(R2) J(B2) O2), as the docs ask, it is
    legal. The legality helper wrote it plain."""
    request = {
        "rack": ["R1", "R5", "O2", "Y3", "Y4"],
        "table": [["J", "J", "K2", "O2", "G2", "Y2"]],
        "rules": {
            "colours": 6,
            "numbers": 5,
            "opening_threshold": 0,
            "joker_retrieval": "replace",
            "max_jokers_per_set": 2,
            "wrap_runs": True,
        },
    }
    answer = client.post(SOLVE, json=request)
    assert answer.status_code == 200
    assert answer.json()["tiles_played"] > 0
    assert_legal_response(request, answer.json())


def test_solve_takes_every_wire_field(client: TestClient) -> None:
    rack = ["R12", "R13", "J", "K1", "K2", "K3"]
    request: dict[str, Any] = {
        "rack": rack,
        "table": [],
        "opened": False,
        "objective": "points",
        "rules": {"jokers": 1},
        "time_limit_ms": 1000,
        "disruption_time_limit_ms": 100,
        "hint_level": "full",
        "opponents": [{"rack_size": 9, "opened": True}],
        "lang": "en",
        "notation": "RBYK",
        "free_jokers": True,
    }
    assert set(request) == set(SolveRequest.model_fields)
    body = client.post(SOLVE, json=request).json()
    assert in_order(body) == in_order(solve_rummikub(request))
    # R12 R13 J (36) opens, K1 K2 K3 joins it: everything goes.
    assert sorted(body["played"]) == sorted(rack)


@pytest.mark.parametrize("level", ["full", "tile", "nudge"])
def test_every_hint_level_answers_in_the_libraries_key_order(
    client: TestClient, level: str
) -> None:
    """The library put the advice and the free jokers last, the HTTP answer (its
    response model) after the status: the same answer read in two orders."""
    request = {
        **EXAMPLE,
        "hint_level": level,
        "free_jokers": True,
        "opponents": [{"rack_size": 9, "opened": True}],
    }
    body = client.post(SOLVE, json=request).json()
    assert list(body)[:3] == ["status", "advice", "free_jokers"]
    assert in_order(body) == in_order(solve_rummikub(request))


def test_a_table_set_is_read_as_its_jokers_were_written(client: TestClient) -> None:
    # J J K7 alone reads as the black run 5-7; sent as printed (J(R7) J(B7) K7) it is
    # the group of 7s, and O7 joins it: the set is kept, no tile moves.
    table = [["J(R7)", "J(B7)", "K7"]]
    answer = client.post(SOLVE, json={"rack": ["O7"], "table": table}).json()
    assert (answer["sets_kept"], answer["tiles_moved"]) == (1, 0)
    assert answer["table"] == [
        {
            "kind": "group",
            "tiles": ["J", "J", "K7", "O7"],
            "as": ["R7", "B7", "K7", "O7"],
            "set": 0,
            "from_rack": ["O7"],
            "from_rack_places": [3],
        }
    ]
    refused = client.post(SOLVE, json={"rack": ["O7"], "table": [["J(R9)", "K7", "K8"]]})
    assert refused.status_code == 422
    assert refused.json()["detail"] == (
        "table set 0 (J(R9) K7 K8) is not a valid set: its joker cannot stand for R9"
    )


def test_routes_that_pass_a_request_on_keep_its_brackets(client: TestClient) -> None:
    # /bot and /repair hand the worker the request as read, written out again: the
    # bracket was lost (J(R10) R8 R9 became J R8 R9, the run 7-9), and HTTP answered
    # otherwise than the library and the CLI.
    bot = {
        "bot": "greedy",
        "rack": ["R10", "B5", "K5"],
        "table": [["J(R10)", "R8", "R9"]],
        "rules": {"joker_retrieval": "replace"},
        "opponents": [{"rack_size": 5}],
    }
    answered = client.post("/v1/rummikub/bot", json=bot).json()
    assert in_order(answered) == in_order(bot_rummikub(bot))
    assert sorted(answered["played"]) == ["B5", "K5", "R10"]
    # O7 joins the group of 7s the heap was written as (read plain: the run 5-7, given up).
    repair = {"table": [["J(R7)", "J(B7)", "K7"], ["O7"]]}
    repaired = client.post(REPAIR, json=repair).json()
    assert in_order(repaired) == in_order(repair_rummikub(repair))
    assert (repaired["arrangement"]["sets_kept"], repaired["arrangement"]["tiles_moved"]) == (1, 0)


def test_validate_and_score_delegate_to_the_library(client: TestClient) -> None:
    move = {
        "rack": ["R9", "K1"],
        "table_before": [["R3", "R4", "R5"]],
        "table_after": [["R3", "R4", "R5"], ["R9", "K1"]],
    }
    answer = client.post(VALIDATE, json=move)
    assert answer.status_code == 200
    assert in_order(answer.json()) == in_order(validate_rummikub(move))
    assert answer.json()["problems"][0]["set"] == 1
    racks = {"racks": {"ann": [], "bob": ["R5", "J"]}}
    scored = client.post(SCORE, json=racks)
    assert scored.status_code == 200
    assert in_order(scored.json()) == in_order(score_rummikub(racks))
    assert scored.json()["players"][0]["score"] == 35


def test_repair_delegates_to_the_library(client: TestClient) -> None:
    request = {
        "table": [["R1", "R2"], ["R3", "B3", "K3", "O3"], ["R4", "R5", "K9"]],
        "table_before": [["R3", "B3", "K3", "O3"]],
        "rack": ["K7", "K8"],
        "rules": {"penalty_tiles": 2},
    }
    answer = client.post(REPAIR, json=request)
    assert answer.status_code == 200
    body = answer.json()
    assert in_order(body) == in_order(repair_rummikub(request))
    assert body["repairable"] is False
    assert body["arrangement"]["left_out"] == ["K9"]
    assert body["penalty"]["tiles"] == 2
    assert body["penalty"]["back_to_rack"] == [
        "R1",
        "R2",
        "R4",
        "R5",
        "K9",
    ]
    assert body["rescue"]["play"]["played"] == ["K7", "K8"]  # K7 K8 K9 saves the table
    bad = client.post(REPAIR, json={"table": [["R1", "X9"]]})
    assert bad.status_code == 422
    assert "X9" in bad.json()["detail"]


def test_the_server_process_never_reads_a_repair_body(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server process read and checked a repair's body and its answer: two
    clients sending 16 KB of empty table sets back to back put the /healthz of
    others at p99 72 ms. The worker reads and answers it, as a solve's, within the
    server's time cap."""
    request = {"table": [["R1", "R2"], ["R4", "R5", "K9"]], "time_limit_ms": 60_000}
    expected = repair_rummikub({**request, "time_limit_ms": 2000})

    def not_here(*_: Any, **__: Any) -> Any:
        raise AssertionError("the server process read a repair body")

    monkeypatch.setattr(bodies, "read_body", not_here)
    monkeypatch.setattr(RepairRequest, "model_validate", not_here)
    answer = client.post(REPAIR, json=request)
    assert answer.status_code == 200, answer.text
    assert in_order(answer.json()) == in_order(expected)
    assert "X9" in client.post(REPAIR, json={"table": [["R1", "X9"]]}).json()["detail"]


def test_a_repair_of_an_empty_heap_is_refused_as_the_command_line_refuses_it(
    client: TestClient,
) -> None:
    # [] in 'table' was passed over without a word, where --table "R1 R2 R3 |", a
    # solve's table and table_before refuse a set of no tiles.
    bad = client.post(REPAIR, json={"table": [["R1", "R2", "R3"], [], ["B1", "B2", "B3"]]})
    assert bad.status_code == 422
    assert bad.json()["detail"] == "table heap 1 has no tiles: a heap lies on the table"
    assert bad.json()["places"] == [{"field": ["table", 1], "quoted": ""}]
    assert client.post(REPAIR, json={"table": [["R1", "R2", "R3"]]}).status_code == 200


def test_a_repair_objective_without_a_rack_is_refused_as_the_command_line_refuses_it(
    client: TestClient,
) -> None:
    # It was accepted and did nothing: there is no rescue to aim without a rack.
    bad = client.post(REPAIR, json={"table": [["R1", "R2", "R3"]], "objective": "points"})
    assert bad.status_code == 422
    assert bad.json()["detail"] == (
        "'objective' is for the rescue with a 'rack': give 'rack', or leave 'objective' out"
    )
    assert [place["field"] for place in bad.json()["places"]] == [["objective"], ["rack"]]
    aimed = {"table": [["R1", "R2", "R3"]], "objective": "points", "rack": ["R4"]}
    assert client.post(REPAIR, json=aimed).status_code == 200


def test_repair_for_a_player_who_has_not_opened(client: TestClient) -> None:
    request = {
        "table": [["R10", "R11"], ["R12", "B12", "K12", "O12"], ["R13"]],
        "table_before": [["R12", "B12", "K12", "O12"]],
        "rack": ["R12"],
        "opened": False,
    }
    answer = client.post(REPAIR, json=request)
    assert answer.status_code == 200
    assert answer.json() == repair_rummikub(request)
    assert answer.json()["repairable"] is False
    request.pop("table_before")
    for lang in ("en", "ja"):
        bad = client.post(REPAIR, json=request, headers={"Accept-Language": lang})
        assert bad.status_code == 422
        with pytest.raises(MeldwiseError) as error:
            repair_rummikub({**request, "lang": lang})
        assert bad.json()["detail"] == str(error.value)


def test_every_request_model_has_an_example_the_endpoint_accepts(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    posts = [(path, item["post"]) for path, item in spec["paths"].items() if "post" in item]
    assert {path for path, _ in posts} == {
        SOLVE,
        VALIDATE,
        REPAIR,
        SCORE,
        SHANGHAI_ADVISE,
        SHANGHAI_SCORE,
        "/v1/rummikub/bot",
        "/v1/rummikub/game",
        "/v1/rummikub/review",
        "/v1/shanghai/game",
        "/v1/shanghai/review",
    }
    for path, operation in posts:
        ref = operation["requestBody"]["content"]["application/json"]["schema"]["$ref"]
        model = spec["components"]["schemas"][ref.rsplit("/", 1)[1]]
        assert model["additionalProperties"] is False
        assert model["examples"], path
        for example in model["examples"]:
            answer = client.post(path, json=example)
            assert answer.status_code == 200, (path, answer.json())
    assert client.get("/docs").status_code == 200


def test_wrap_runs_through_http(client: TestClient) -> None:
    """The house rule travels as a rule setting: the wrapped run is played, and valid."""
    request = {
        "rack": ["O12", "O13", "K5"],
        "table": [["O1", "O2", "O3"]],
        "rules": {"wrap_runs": True},
    }
    body = client.post(SOLVE, json=request).json()
    assert in_order(body) == in_order(solve_rummikub(request))
    assert body["played"] == ["O12", "O13"]
    move = {
        "rack": request["rack"],
        "table_before": request["table"],
        "table_after": [m["tiles"] for m in body["table"]],
    }
    assert client.post(VALIDATE, json={**move, "rules": {"wrap_runs": True}}).json()["legal"]
    assert not client.post(VALIDATE, json=move).json()["legal"]


def test_rule_settings_schema_lists_every_rule() -> None:
    rules = SolveRequest.model_json_schema()["properties"]["rules"]["anyOf"][0]["properties"]
    assert set(rules) == {f.name for f in fields(Rules)}
    assert {name: setting["default"] for name, setting in rules.items()} == Rules().to_dict()


FULL_SET_PLUS_ONE = [f"{c}{n}" for c in "RBKO" for n in range(1, 14)] * 2 + ["J", "J", "R1"]


def test_a_body_may_begin_with_a_byte_order_mark(client: TestClient) -> None:
    """RFC 8259 lets a reader ignore it; it was "not valid JSON at character 1"."""
    body = "\ufeff" + json.dumps({"rack": ["R1", "R2", "R3"]})
    headers = {"Content-Type": "application/json"}
    response = client.post(SOLVE, content=body.encode(), headers=headers)
    assert response.status_code == 200
    assert response.json()["played"] == ["R1", "R2", "R3"]


@pytest.mark.parametrize(
    ("body", "status", "culprit"),
    [
        ('{"rack": ["R1", "R2"', 400, "not valid JSON"),
        ("", 422, "JSON body"),
        ("[]", 422, "must be a JSON object, got array"),  # once "got list"
        ("null", 422, "must be a JSON object, got null"),  # once "got NoneType"
        ('{"rack": ["R1"], "table": [null]}', 422, "'table[0]' must be a list, got null"),
        ('{"rack": [true]}', 422, "got true"),  # JSON's words, once Python's None/True
        ('{"rack": ["R1"], "colour": 3}', 422, "unknown field 'colour'"),
        ('{"table": []}', 422, "missing field 'rack'"),
        ('{"rack": ["Q5"]}', 422, "unknown tile 'Q5'"),
        ('{"rack": ["G5"]}', 422, "unknown tile 'G5'"),
        ('{"rack": [5]}', 422, "rack[0]"),
        ('{"rack": ["R5", "R5"], "table": [["R5", "B5", "K5"]]}', 422, "too many copies of R5"),
        (json.dumps({"rack": FULL_SET_PLUS_ONE}), 422, "too many copies of R1"),
        ('{"rack": [], "table": [["R1", "R2", "R3"], ["K1", "K2"]]}', 422, "table set 1"),
        ('{"rack": [], "rules": {"copies": 9}}', 422, "rule 'copies'"),
        ('{"rack": [], "rules": {"wild": 1}}', 422, "unknown rule 'wild'"),
        ('{"rack": [], "rules": {"numbers": 4, "min_set_len": 5}}', 422, "min_set_len"),
        ('{"rack": [], "rules": {"wrap_runs": "yes"}}', 422, "rule 'wrap_runs'"),
        ('{"rack": [], "rules": {"max_jokers_per_set": 0}}', 422, "rule 'max_jokers_per_set'"),
        (
            '{"rack": [], "table": [["R1", "J", "J"]], "rules": {"max_jokers_per_set": 1}}',
            422,
            "table set 0 (R1 J J) is not a valid set: a set holds at most 1 joker ",
        ),
        ('{"rack": [], "table": [["R12", "R13", "R1"]]}', 422, "table set 0"),
        ('{"rack": [], "opened": "yes"}', 422, "opened"),
        ('{"rack": [], "objective": "fun"}', 422, "objective"),
        ('{"rack": [], "time_limit_ms": 0}', 422, "time_limit_ms"),
        ('{"rack": [], "time_limit_ms": "5"}', 422, "time_limit_ms"),
    ],
)
def test_bad_solve_requests_get_4xx_naming_the_culprit(
    client: TestClient, body: str, status: int, culprit: str
) -> None:
    response = client.post(SOLVE, content=body, headers={"Content-Type": "application/json"})
    assert response.status_code == status
    detail = response.json()["detail"]
    assert culprit in detail
    assert "Traceback" not in response.text


@pytest.mark.parametrize(
    ("path", "body", "culprit"),
    [
        (VALIDATE, {"rack": [], "table_before": []}, "missing field 'table_after'"),
        (VALIDATE, {"rack": ["X1"], "table_before": [], "table_after": []}, "'X1'"),
        (VALIDATE, {"rack": [], "table_before": [["R1"]], "table_after": []}, "table_before"),
        (SCORE, {"racks": {}}, "racks"),
        (SCORE, {"racks": {"a": [], "b": [], "c": ["R1"]}}, "nothing left: 'a', 'b'"),
        (SCORE, {"racks": {"a": ["R1", "R1", "R1"]}}, "too many copies of R1"),
        (SCORE, {"racks": {"a": []}, "rules": {"joker_penalty": -1}}, "joker_penalty"),
    ],
)
def test_bad_validate_and_score_requests_name_the_culprit(
    client: TestClient, path: str, body: dict[str, Any], culprit: str
) -> None:
    response = client.post(path, json=body)
    assert response.status_code == 422
    assert culprit in response.json()["detail"]


@pytest.mark.parametrize(
    ("path", "body", "value"),
    [
        (SCORE, {"racks": [["R5"]]}, '[["R5"]]'),
        (SCORE, {"racks": {"ann": ["R5"]}, "rules": ["jokers", None]}, '["jokers", null]'),
        (SOLVE, {"rack": ["R1"], "opened": {"yes": "no"}}, '{"yes": "no"}'),
        (SOLVE, {"rack": ["R1"], "objective": ['say "R1"']}, '["say \\"R1\\""]'),
    ],
)
def test_a_value_is_quoted_as_json(
    client: TestClient, path: str, body: dict[str, Any], value: str
) -> None:
    # "'racks' must be an object, got [['R5']]" quoted the request's JSON as Python writes it.
    response = client.post(path, json=body)
    assert response.status_code == 422
    assert f"got {value}" in response.json()["detail"], response.json()


def test_error_answers_never_echo_the_request(client: TestClient) -> None:
    junk = "Z" * 5000
    for body in ({"rack": [junk]}, {"rack": "R1", "extra": junk}, {"rack": [], junk: 1}):
        response = client.post(SOLVE, json=body)
        assert response.status_code == 422
        assert len(response.json()["detail"]) <= MAX_DETAIL
        assert junk not in response.text
    # A player's name longer than any is no place listed whole either.
    response = client.post(SCORE, json={"racks": {junk: ["Q1"]}})
    assert response.status_code == 422
    assert junk not in response.text
    assert [place["field"] for place in response.json()["places"]] == []


@pytest.mark.parametrize(
    ("path", "body", "reason"),
    [
        (SOLVE, {"rack": ["Q" + "5" * 600]}, "'Q' is not a colour (colours are R, B, K, O)"),
        (SOLVE, {"rack": ["Z" * 5000]}, "write a colour letter and a number (R5, B13) or J"),
        (SOLVE, {"rack": ["R" + "1" * 600]}, "numbers run from 1 to 13"),
        (SOLVE, {"rack": ["J(" + "Q" * 600 + ")"]}, "J(R6) with the tile it stands for"),
        (SHANGHAI_SCORE, {"hands": {"ann": ["X" * 5000]}}, "or JK for a joker"),
    ],
)
def test_an_error_over_a_long_tile_still_says_why(
    path: str, body: dict[str, Any], reason: str, client: TestClient
) -> None:
    # The tile was quoted whole, so the detail was clipped before the reason.
    response = client.post(path, json=body)
    assert response.status_code == 422
    assert response.json()["detail"].endswith(reason)


@pytest.mark.parametrize(
    ("body", "detail"),
    [
        (
            {"rack": ["Q5"], "notation": "RBYK"},
            "rack[0]: unknown tile 'Q5': 'Q' is not a colour (colours are R, B, K, Y)",
        ),
        (
            {"rack": ["G4"], "notation": "RBYK", "lang": "ja"},
            "rack[0]: 不明なタイル 'G4': このゲームの色は R B K Y(赤・青・黒・黄)です",
        ),
    ],
)
def test_an_unknown_tile_names_the_colours_in_the_requests_notation(
    body: dict[str, Any], detail: str, client: TestClient
) -> None:
    # The body's tiles were read before its notation: "colours are R, B, K, O".
    response = client.post(SOLVE, json=body)
    assert response.status_code == 422
    assert response.json()["detail"] == detail


def test_a_body_over_16_kib_is_refused_with_413(client: TestClient) -> None:
    big = {"rack": ["R1"] * 4000}  # about 24 KiB of JSON
    declared = client.post(SOLVE, json=big)
    assert declared.status_code == 413
    assert "16384 bytes" in declared.json()["detail"]

    def chunks() -> Iterator[bytes]:  # no Content-Length: the limit is counted as it streams
        yield b'{"rack": ['
        for _ in range(2000):
            yield b'"R1", "R2", '
        yield b'"R3"]}'

    streamed = client.post(SOLVE, content=chunks(), headers={"Content-Type": "application/json"})
    assert streamed.status_code == 413


def test_health_and_readiness(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    assert client.get("/healthz").json() == {"status": "ok"}
    assert client.get("/readyz").json() == {"status": "ready"}
    pool = client.app.state.pool  # type: ignore[attr-defined]
    monkeypatch.setattr(pool, "health", lambda: "0 of 1 solver workers ready; 1 starting")
    not_ready = client.get("/readyz")
    assert not_ready.status_code == 503
    assert not_ready.json() == {
        "status": "not ready",
        "detail": "0 of 1 solver workers ready; 1 starting",
    }


def test_metrics_count_requests_solver_statuses_and_rejections(client: TestClient) -> None:
    client.post(SOLVE, json=EXAMPLE)
    client.post(SOLVE, json={"rack": ["Q5"]})
    client.post(SOLVE, json={"rack": ["R1"] * 4000})
    response = client.get("/metrics")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    text = response.text
    assert (
        'meldwise_http_requests_total{method="POST",route="/v1/rummikub/solve",status="200"}'
        in text
    )
    assert (
        'meldwise_http_request_duration_seconds_bucket{le="0.1",method="POST",route="/v1/rummikub/solve"}'
        in text
    )
    assert 'meldwise_solves_total{status="optimal"}' in text
    assert 'meldwise_rejected_requests_total{reason="invalid"}' in text
    assert 'meldwise_rejected_requests_total{reason="too_large"}' in text


def test_cors_lets_any_origin_call_without_credentials(client: TestClient) -> None:
    preflight = client.options(
        SOLVE,
        headers={
            "Origin": "https://game.example",
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "content-type",
        },
    )
    assert preflight.status_code == 200
    assert preflight.headers["access-control-allow-origin"] == "*"
    assert "access-control-allow-credentials" not in preflight.headers
    answer = client.post(SOLVE, json=EXAMPLE, headers={"Origin": "https://game.example"})
    assert answer.headers["access-control-allow-origin"] == "*"
    assert "retry-after" in answer.headers["access-control-expose-headers"].lower()


def test_cors_origins_are_configurable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MELDWISE_CORS_ORIGINS", "https://a.example, https://b.example")
    local = TestClient(create_app(Settings()))  # no `with`: no lifespan, no solver workers
    allowed = local.get("/healthz", headers={"Origin": "https://b.example"})
    refused = local.get("/healthz", headers={"Origin": "https://evil.example"})
    assert allowed.headers["access-control-allow-origin"] == "https://b.example"
    assert "access-control-allow-origin" not in refused.headers


def test_unknown_paths_and_methods(client: TestClient) -> None:
    assert client.get("/v1/nothing").status_code == 404
    wrong = client.get(SOLVE)
    assert wrong.status_code == 405
    assert "POST" in wrong.headers["allow"]


def test_settings_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    assert Settings().workers == available_cores()  # default: one solve per core
    for name, value in {
        "WORKERS": "3",
        "QUEUE": "7",
        "TIME_CAP_MS": "500",
        "BODY_LIMIT_BYTES": "2048",
        "CORS_ORIGINS": "https://a.example",
    }.items():
        monkeypatch.setenv(f"MELDWISE_{name}", value)
    settings = Settings()
    assert (settings.workers, settings.queue, settings.time_cap_ms) == (3, 7, 500)
    assert settings.cors_origins == ["https://a.example"]
    local = TestClient(create_app(settings))  # no `with`: a 413 needs no solver workers
    assert local.post(SOLVE, json={"rack": ["R1"] * 600}).status_code == 413


# --- the lean solve route (issue 14): read and answered in the worker -------------------

SOLVE_ANSWER = TypeAdapter(SolveResponse)


@pytest.mark.parametrize(
    "request_",
    [
        EXAMPLE,
        {**EXAMPLE, "hint_level": "tile"},
        {**EXAMPLE, "hint_level": "nudge"},
        {**EXAMPLE, "lang": "ja", "opponents": [{"rack_size": 2, "opened": True}]},
        {"rack": ["R1", "J"], "table": [["B5", "B6", "B7"]], "opened": False},
    ],
)
def test_solve_answer_bytes_are_the_response_models_serialisation(
    client: TestClient, request_: dict[str, Any]
) -> None:
    """The worker's bytes are what FastAPI's ``response_model`` would have made of the
    library's answer: checked against SolveResponse, by alias, only the fields set."""
    response = client.post(SOLVE, json=request_)
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/json"
    checked = SOLVE_ANSWER.validate_python(solve_rummikub(request_))
    assert response.content == SOLVE_ANSWER.dump_json(checked, by_alias=True, exclude_unset=True)


def test_the_worker_lowers_a_solve_to_the_servers_caps(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[SolveRequest] = []

    def spy(request: SolveRequest) -> dict[str, Any]:
        asked.append(request)
        return solve_rummikub(request)

    monkeypatch.setitem(worker.RAW_TASKS, "solve_rummikub", (spy, SolveRequest, SOLVE_ANSWER))
    body = {**EXAMPLE, "time_limit_ms": 5000, "disruption_time_limit_ms": 50}
    caps = {"time_limit_ms": 1000, "disruption_time_limit_ms": 300}
    data, status = worker.raw_answer("solve_rummikub", json.dumps(body), "en", caps)
    assert (asked[0].time_limit_ms, asked[0].disruption_time_limit_ms) == (1000, 50)
    assert asked[0].lang == "en"  # the header's language when the body names none
    assert status == "optimal" == json.loads(data)["status"]


def test_a_solve_the_clock_cut_says_what_its_advice_counts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The worker's answer (what /solve sends) beside a search its time limit cut: the
    advice counts the strong bot's own play as its own, not "the 3 tiles" of no play."""
    whole = solve_rummikub(EXAMPLE)
    spend_the_clock(monkeypatch, "solver.rummikub.wire")  # the bot's clock is its own
    body = {**EXAMPLE, "opponents": [{"rack_size": 9, "opened": True}]}
    data, _status = worker.raw_answer("solve_rummikub", json.dumps(body), "en", {})
    answer = json.loads(data)
    assert answer["time_capped"]
    assert answer["advice"]["text"].startswith(
        f"The strong bot's own search finds a play of {whole['tiles_played']} tiles, where"
        f" this answer places {answer['tiles_played']}"
    )


def test_a_worker_sends_a_solve_answer_as_its_size_then_its_bytes() -> None:
    message = {"task": "solve_rummikub", "body": json.dumps(EXAMPLE), "lang": "en", "caps": {}}
    line, _, data = worker.answer(message, 256 * 1024).partition(b"\n")
    assert json.loads(line) == {"answer": len(data), "status": "optimal"}
    assert json.loads(data)["tiles_played"] == 3
    assert json.loads(worker.answer(message, 100)) == {"too_large": len(data)}
    bad = {**message, "body": '{"rack": ["Q5"]}'}
    assert "Q5" in json.loads(worker.answer(bad, 256 * 1024))["invalid"]


@pytest.mark.parametrize(
    ("body", "limit", "lang"),
    [
        (b'{"rack": [], "time_limit_ms": 1500, "lang": "ja"}', 1500, "ja"),
        (b'{"rack": []}', DEFAULT_TIME_LIMIT_MS, None),
        # The worker reads 1.5e3 as 1500: so does the look (it took the default, 2 s,
        # and the fair queue charged a solve of 10 s, 1e4, as one of 2 s).
        (b'{"rack": [], "time_limit_ms": 1.5e3, "lang": "ja"}', 1500, "ja"),
        (b'{"rack": [], "time_limit_ms": 1e4}', 10_000, None),
        (b'{"rack": [], "time_limit_ms": 1e300}', DEFAULT_TIME_LIMIT_MS, None),
        (b'{"rack": [], "time_limit_ms": 1.5}', DEFAULT_TIME_LIMIT_MS, None),
        (b'{"rack": [], "time_limit_ms": "5", "lang": "fr"}', DEFAULT_TIME_LIMIT_MS, None),
        (b'{"rack": [], "time_limit_ms": true}', DEFAULT_TIME_LIMIT_MS, None),
        (b"[1, 2]", DEFAULT_TIME_LIMIT_MS, None),
        (b"{not json", DEFAULT_TIME_LIMIT_MS, None),
    ],
)
def test_the_solve_route_glances_at_the_time_limit_and_language(
    body: bytes, limit: int, lang: str | None
) -> None:
    """The watchdog and the fair queue budget a solve by its time limit, and a refusal
    speaks the body's language (the worker, not this look, refuses a bad value)."""
    assert glance(body)[:2] == (limit, lang)


def test_a_solve_with_advice_gets_a_bot_moves_budget() -> None:
    """The advice (``opponents``) is the strong bot's decision, whose solves stop at
    their deterministic work bound, not at the time limit: on a 148-tile position of a
    big variant (well within the size limit) it took 13 s of CPU, and the watchdog,
    which allowed the time cap plus its margin, killed the worker at 5 s: 503 and a
    worker restart for a valid request, every time. Here a position whose advice
    takes about a second, under a 0.1 s cap and margin."""
    rules = BIG_RULES
    position = random_position(random.Random(1545), rules, 34, 95, table_jokers=2, rack_jokers=1)
    request = {
        "rack": [str(t) for t in position.rack],
        "table": [[str(t) for t in tiles] for tiles in position.table],
        "rules": rules.to_dict(),
        "time_limit_ms": 100,
        "opponents": [{"rack_size": 5, "opened": True}],
    }
    assert glance(json.dumps(request).encode())[3]
    settings = Settings(
        workers=1, rate_limit="", time_cap_ms=100, disruption_cap_ms=0, watchdog_margin_ms=100
    )
    with TestClient(create_app(settings)) as client:
        answer = client.post(SOLVE, json=request)
    assert answer.status_code == 200, answer.text
    assert answer.json()["advice"]["text"]


def _refused_for_its_size(client: TestClient, route: str) -> dict[str, Any]:
    """A 5 KB request of the largest game (8 colours, 26 numbers, 256 table sets: 769
    tiles) to ``route`` is refused, naming its size; then the same with 20 table sets
    is answered. Returns the refused body, ``lang`` aside, for the caller to ask again."""
    rules = {"colours": 8, "numbers": 26, "copies": 4, "jokers": 4}
    table = [[f"{c}{n}" for n in range(s, s + 3)] for c in "RBKOGYPW" for s in range(1, 25, 3)]
    body: dict[str, Any] = {"rack": ["J"], "table": table * 4, "rules": rules, "time_limit_ms": 10}
    refused = client.post(route, json=body)
    assert refused.status_code == 422
    assert refused.json()["detail"] == (
        "this position holds 769 tiles on the rack and table; this server solves "
        "positions of at most 300"
    )
    assert client.post(route, json=body | {"table": table[:20]}).status_code == 200
    # The API docs say so among the route's 422s.
    responses = client.get("/openapi.json").json()["paths"][route]["post"]
    assert "MELDWISE_MAX_SOLVE_TILES" in responses["responses"]["422"]["description"]
    return body


def test_the_solve_route_counts_the_tiles_and_refuses_a_position_too_big_to_build(
    client: TestClient,
) -> None:
    """A 5 KB request of the largest game took 2-5 s to build on a loaded machine
    whatever its time limit: readiness said 503 and the watchdog killed healthy
    workers. It is now refused, naming its size."""
    assert glance(b'{"rack": ["R1", "J"], "table": [["R2", "R3", "R4"], "x"]}')[2] == 5
    body = _refused_for_its_size(client, "/v1/rummikub/solve")
    body["lang"] = "ja"
    assert "769" in client.post("/v1/rummikub/solve", json=body).json()["detail"]


def test_a_repair_too_big_to_build_is_refused_as_a_solve_is(client: TestClient) -> None:
    """Only /solve was bounded by size: a 5 KB /repair of the largest game (769 tiles)
    took 0.5 s of CPU, four times the solve /solve refuses, however small its
    time_limit_ms. It is now refused by the same check, naming its size, in the body's
    language."""
    body = _refused_for_its_size(client, "/v1/rummikub/repair")
    body["lang"] = "ja"
    ja = client.post("/v1/rummikub/repair", json=body).json()["detail"]
    assert ja == (
        "\u3053\u306e\u5c40\u9762\u306f\u624b\u6301\u3061\u3068\u5834\u3067\u5408\u8a08"
        "769\u679a\u306e\u30bf\u30a4\u30eb\u304c\u3042\u308a\u307e\u3059\u3002\u3053"
        "\u306e\u30b5\u30fc\u30d0\u30fc\u304c\u89e3\u304f\u5c40\u9762\u306f\u6700\u5927"
        "300\u679a\u3067\u3059"
    )

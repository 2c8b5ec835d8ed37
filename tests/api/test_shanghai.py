"""The Shanghai endpoints in process (FastAPI TestClient): answers equal to the
library's, response models that fit every kind of answer, and every error path."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import fields
from typing import Any

import pytest
from fastapi import Response
from fastapi.responses import JSONResponse
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st

from api import bodies, worker_answers
from api.errors import MAX_DETAIL
from api.main import create_app
from api.settings import Settings
from solver import MeldwiseError, advise_shanghai, score_shanghai
from solver.shanghai import Rules, examples
from solver.shanghai.phase_budget import TIME_FACTOR
from solver.shanghai.wire import (
    ShanghaiAdviseRequest,
    ShanghaiAdviseResponse,
    ShanghaiScoreRequest,
)
from tests.api.support import SHANGHAI_ADVISE, SHANGHAI_SCORE, in_order, shanghai_deal


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    # One test client sends many requests in a row: no rate limit (test_api_abuse.py tests it).
    with TestClient(create_app(Settings(workers=1, rate_limit=""))) as client:
        yield client


# Turns chosen so that together they give every kind of answer (see the next test).
TURNS: dict[str, dict[str, Any]] = {
    "goes-down-lays-off-discards": examples.ADVISE_REQUEST,
    "cannot-go-down-discards": examples.ADVISE_NOT_DOWN_REQUEST,
    "draw-phase-takes-and-buys": examples.ADVISE_DRAW_REQUEST,
    "swap-to-go-down": {
        "hand": ["9S", "9H", "5D", "6D", "7D", "8D", "8C", "KC", "QC"],
        "hand_number": 2,
        "table": [{"cards": ["5C", "6C", "7C", "JK"], "owner": "ann"}],
    },
    "down-swaps-and-lays-off": {
        "hand": ["8C", "9D", "KD", "4H"],
        "hand_number": 3,
        "down": True,
        "table": [{"cards": ["5C", "6C", "7C", "JK"]}, {"cards": ["9H", "9S", "9C"]}],
        "upcard": "3H",
    },
    "down-goes-out": {
        "hand": ["4D", "9D", "8S"],
        "hand_number": 3,
        "down": True,
        "table": [{"cards": ["8H", "8C", "8D"]}, {"cards": ["5D", "6D", "JK", "8D"]}],
        "upcard": "8S",
    },
    "contract-met-but-last-card-rule-blocks": {
        "hand": ["8S", "8H", "8D", "9C"],
        "contract": {"sets": [3]},
    },
    "contract-impossible": {
        "hand": ["2S", "3S"],
        "contract": {"runs": [13]},
        "rules": {"decks": 1, "jokers_per_deck": 0},
        "table": [{"cards": ["7S", "7H", "7D", "7C"], "owner": None}],
    },
    "draw-phase-no-unseen-card": {
        "hand": ["7S", "7H", "7D", "9S", "9H", "3C", "4C"],
        "contract": {"sets": [3, 3]},
        "phase": "draw",
        "upcard": "9D",
        "buys_left": 2,
        # Every other card of the one deck: the stock is empty.
        "seen": [
            f"{rank}{suit}"
            for suit in "SHDC"
            for rank in ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
            if f"{rank}{suit}" not in {"7S", "7H", "7D", "9S", "9H", "3C", "4C", "9D"}
        ],
        "rules": {"decks": 1, "jokers_per_deck": 0},
    },
    "wild-two-in-a-set": {
        "hand": ["8S", "8H", "2D", "9C", "10C"],
        "contract": {"sets": [3]},
        "rules": {"twos_wild": True, "ace_low": True},
        "time_limit_ms": 1500,
    },
}


@pytest.fixture(scope="module")
def answers(client: TestClient) -> dict[str, dict[str, Any]]:
    """Each turn of TURNS as the service answers it."""
    got = {}
    for name, turn in TURNS.items():
        response = client.post(SHANGHAI_ADVISE, json=turn)
        assert response.status_code == 200, (name, response.text)
        got[name] = response.json()
    return got


def test_advise_answers_what_the_library_answers(answers: dict[str, dict[str, Any]]) -> None:
    for name, turn in TURNS.items():
        assert in_order(answers[name]) == in_order(advise_shanghai(turn)), name


def test_the_turns_cover_every_kind_of_answer(answers: dict[str, dict[str, Any]]) -> None:
    """The response model was checked against each of these (a mismatch is a 500)."""
    found = list(answers.values())
    kinds: dict[str, Callable[[dict[str, Any]], bool]] = {
        "no going down": lambda a: a["go_down"] is None,
        "going down": lambda a: a["go_down"] is not None,
        "a swap to go down": lambda a: bool(a["go_down"] and a["go_down"]["swaps"]),
        "a swap when down": lambda a: bool(a["lay_offs"] and a["lay_offs"]["swaps"]),
        "lay-offs": lambda a: bool(a["lay_offs"] and a["lay_offs"]["plays"]),
        "no lay-offs": lambda a: a["lay_offs"] is None,
        "going out": lambda a: bool(a["lay_offs"] and a["lay_offs"]["can_go_out"]),
        "no discard": lambda a: a["discard"] is None,
        "a discard": lambda a: a["discard"] is not None,
        "no upcard": lambda a: a["take_upcard"] is None and a["buy"] is None,
        "take": lambda a: bool(a["take_upcard"] and a["take_upcard"]["take"]),
        "buy": lambda a: bool(a["buy"] and a["buy"]["buy"]),
        "no deficiency compared": lambda a: bool(a["buy"] and a["buy"]["deficiency_now"] is None),
        "deficiency unknown": lambda a: a["deficiency"] is None,
        "a wild card as a rank": lambda a: any(
            meant.isdigit() for m in (a["go_down"] or {}).get("melds", []) for meant in m["as"]
        ),
        "notes": lambda a: bool(a["notes"]),
        "draw options": lambda a: bool(a["draw_options"]),
        "a draw option without points": lambda a: any(
            o["points"] is None for o in a["draw_options"]
        ),
        "an end of turn": lambda a: a["end_of_turn"] is not None,
        "a discard's outs and danger": lambda a: bool(a["discard"] and a["discard"]["outs"]),
    }
    missing = [kind for kind, seen in kinds.items() if not any(seen(a) for a in found)]
    assert missing == []


def test_too_few_unseen_cards_give_null_figures(answers: dict[str, dict[str, Any]]) -> None:
    """Over HTTP as in the library: with no unseen card the draw and the buy have no
    expected figures (they were the hand's points and "chance 0%" over no card), and a
    note says why."""
    answer = answers["draw-phase-no-unseen-card"]
    draw, buy = answer["draw_options"][1:]
    assert (draw["action"], draw["points"], draw["go_down"], draw["go_out"]) == ("draw",) + (
        None,
    ) * 3
    assert (buy["action"], buy["points"], buy["deficiency"]) == ("buy", None, None)
    assert answer["notes"][0].startswith("No card is unseen")


def test_null_means_not_given(client: TestClient) -> None:
    request = {"hand": ["9H", "9S", "KD", "KC", "4C", "6H"], "hand_number": 1}
    nulls: dict[str, Any] = {**request, "contract": None, "upcard": None, "buys_left": None}
    nulls["table"] = [{"cards": ["5C", "6C", "7C", "8C"], "owner": None}]
    answer = client.post(SHANGHAI_ADVISE, json=nulls)
    assert answer.status_code == 200
    assert answer.json() == advise_shanghai(
        {**request, "table": [{"cards": nulls["table"][0]["cards"]}]}
    )


def test_the_server_process_never_reads_an_advice_body(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server process read and checked an advice's body (a 16 KB body of 3,200
    cards took it 7-10 ms of CPU, every other request waiting). The worker reads and
    answers it, as a solve's, within the server's time cap, with the same bytes and
    the same refusals in the same language as before."""
    request = {**examples.ADVISE_REQUEST, "time_limit_ms": 60_000}
    expected = advise_shanghai({**request, "time_limit_ms": 2000})
    bad = {"hand": ["7H", "ZZ"], "hand_number": 1, "lang": "ja"}
    with pytest.raises(MeldwiseError) as refused:
        advise_shanghai(bad)

    def not_here(*_: Any, **__: Any) -> Any:
        raise AssertionError("the server process read an advice body")

    monkeypatch.setattr(bodies, "read_body", not_here)
    monkeypatch.setattr(ShanghaiAdviseRequest, "model_validate", not_here)
    answer = client.post(SHANGHAI_ADVISE, json=request)
    assert answer.status_code == 200, answer.text
    assert in_order(answer.json()) == in_order(expected)
    # Every field, the defaults too, written as FastAPI writes a response model.
    dumped = ShanghaiAdviseResponse.model_validate(expected).model_dump(mode="json", by_alias=True)
    assert answer.content == JSONResponse(dumped).body
    refusal = client.post(SHANGHAI_ADVISE, json=bad, headers={"Accept-Language": "en"})
    assert refusal.status_code == 422
    assert refusal.json()["detail"] == str(refused.value)


@pytest.mark.parametrize("down", [False, True], ids=["not-down", "down"])
def test_response_model_fits_random_deals(down: bool) -> None:
    """Random deals of every hand: the model validates the library's answer and
    gives it back unchanged (no field lost, renamed or added)."""
    for hand_number in range(1, 11):
        answer = advise_shanghai(shanghai_deal(hand_number, hand_number, down))
        model = ShanghaiAdviseResponse.model_validate(answer)
        assert model.model_dump(mode="json", by_alias=True) == answer


RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
CARDS = st.sampled_from([rank + suit for rank in RANKS for suit in "SHDC"] + ["JK"])
TABLE_MELDS = st.sampled_from(
    [["8H", "8S", "8D"], ["5C", "6C", "7C", "JK"], ["JK", "QD", "KD", "AD"], ["9S", "JK", "9H"]]
)
RULES = st.fixed_dictionaries(
    {},
    optional={
        "decks": st.integers(1, 3),
        "jokers_per_deck": st.integers(0, 2),
        "twos_wild": st.booleans(),
        "ace_low": st.booleans(),
        "go_out_by_discard": st.booleans(),
    },
)
TURN_REQUESTS = st.fixed_dictionaries(
    {
        "hand": st.lists(CARDS, min_size=1, max_size=12),
        "time_limit_ms": st.sampled_from([1, 10, 500]),  # short ones: feasible, unknown
    },
    optional={
        "table": st.lists(st.fixed_dictionaries({"cards": TABLE_MELDS}), max_size=3),
        "down": st.booleans(),
        "upcard": CARDS,
        "rules": RULES,
    },
).flatmap(
    lambda turn: st.one_of(
        st.integers(1, 10).map(lambda n: {**turn, "hand_number": n}),
        st.fixed_dictionaries(
            {
                "sets": st.lists(st.integers(3, 4), max_size=2),
                "runs": st.lists(st.integers(4, 5), max_size=2),
            }
        ).map(lambda contract: {**turn, "contract": contract}),
    )
)


@settings(max_examples=60)
@given(TURN_REQUESTS)
def test_response_model_fits_any_answer(request: dict[str, Any]) -> None:
    """Whatever the library answers (any hand, table, rules, time limit), the model
    validates it and gives it back unchanged; anything else is a named input error."""
    try:
        answer = advise_shanghai(request)
    except MeldwiseError:
        return
    model = ShanghaiAdviseResponse.model_validate(answer)
    assert model.model_dump(mode="json", by_alias=True) == answer


def test_score_answers_what_the_library_answers(client: TestClient) -> None:
    for request in (
        examples.SCORE_REQUEST,
        {"hands": {"ann": ["2C", "*"]}, "rules": {"ace_low": True}},
    ):
        response = client.post(SHANGHAI_SCORE, json=request)
        assert response.status_code == 200
        assert in_order(response.json()) == in_order(score_shanghai(request))


def test_rule_settings_schema_lists_every_rule() -> None:
    rules = ShanghaiScoreRequest.model_json_schema()["properties"]["rules"]
    schema = rules["anyOf"][0]["properties"]
    assert set(schema) == {f.name for f in fields(Rules)}
    assert {name: setting["default"] for name, setting in schema.items()} == Rules().to_dict()


@pytest.mark.parametrize(
    ("body", "status", "culprit"),
    [
        ('{"hand": ["7H", "8H"', 400, "not valid JSON"),
        ("", 422, "JSON body"),
        ('["7H"]', 422, "must be a JSON object, got array"),
        ('{"hand": ["7H"], "hand_number": 1, "colour": 3}', 422, "unknown field 'colour'"),
        ('{"hand_number": 1}', 422, "missing field 'hand'"),
        ('{"hand": [], "hand_number": 1}', 422, "hand"),
        ('{"hand": ["QQ"], "hand_number": 1}', 422, "unknown card 'QQ'"),
        ('{"hand": [7], "hand_number": 1}', 422, "hand[0]"),
        ('{"hand": ["7H"], "hand_number": 1, "upcard": "ZZ"}', 422, "upcard: unknown card 'ZZ'"),
        ('{"hand": ["7H", "7H", "7h"], "hand_number": 1}', 422, "too many copies of 7H"),
        ('{"hand": ["JK", "JK", "JK", "*", "JK"], "hand_number": 1}', 422, "jokers"),
        (
            '{"hand": ["AH", "AH"], "hand_number": 1, "table": [{"cards": ["AH", "AS", "AC"]}]}',
            422,
            "too many copies of AH",
        ),
        ('{"hand": ["7H"]}', 422, "'hand_number'"),
        ('{"hand": ["7H"], "hand_number": 1, "contract": {"sets": [3]}}', 422, "exactly one"),
        ('{"hand": ["7H"], "hand_number": 11}', 422, "hand_number"),
        ('{"hand": ["7H"], "hand_number": null}', 422, "'hand_number'"),
        ('{"hand": ["7H"], "contract": {"sets": [2]}}', 422, "contract 'sets' size 2"),
        ('{"hand": ["7H"], "contract": {"runs": [14]}}', 422, "contract 'runs' size 14"),
        ('{"hand": ["7H"], "contract": {}}', 422, "a contract has 1 to 6 melds"),
        ('{"hand": ["7H"], "contract": {"pairs": [2]}}', 422, "unknown field 'contract.pairs'"),
        ('{"hand": ["7H"], "contract": {"sets": ["3"]}}', 422, "contract.sets[0]"),
        ('{"hand": ["7H"], "hand_number": 1, "rules": {"decks": 0}}', 422, "rule 'decks'"),
        ('{"hand": ["7H"], "hand_number": 1, "rules": {"twos_wild": 1}}', 422, "rule 'twos_wild'"),
        ('{"hand": ["7H"], "hand_number": 1, "rules": {"wild": 1}}', 422, "unknown rule 'wild'"),
        (
            '{"hand": ["7H"], "contract": {"sets": [3]}, "rules": {"min_set_len": 4}}',
            422,
            "a set holds 4 to",
        ),
        (
            '{"hand": ["7H"], "hand_number": 1, "table": [{"cards": ["3S", "5S", "7S"]}]}',
            422,
            "table meld 0 (3S 5S 7S)",
        ),
        ('{"hand": ["7H"], "hand_number": 1, "table": [{"cards": ["3S"], "who": 1}]}', 422, "who"),
        ('{"hand": ["7H"], "hand_number": 1, "down": "no"}', 422, "down"),
        ('{"hand": ["7H"], "hand_number": 9, "buys_left": 5}', 422, "'buys_left' must be 0 to 4"),
        ('{"hand": ["7H"], "hand_number": 1, "time_limit_ms": 0}', 422, "time_limit_ms"),
        ('{"hand": ["7H"], "hand_number": 1, "phase": "before"}', 422, "phase"),
        ('{"hand": ["7H"], "hand_number": 1, "seen": ["7H", "7H"]}', 422, "too many copies of 7H"),
        (
            '{"hand": ["7H"], "hand_number": 1, "next_player": {"x": 1}}',
            422,
            "unknown field 'next_player.x'",
        ),
    ],
)
def test_bad_advise_requests_get_4xx_naming_the_culprit(
    client: TestClient, body: str, status: int, culprit: str
) -> None:
    response = client.post(
        SHANGHAI_ADVISE, content=body, headers={"Content-Type": "application/json"}
    )
    assert response.status_code == status
    assert culprit in response.json()["detail"]
    assert "Traceback" not in response.text


@pytest.mark.parametrize(
    ("body", "status", "culprit"),
    [
        ('{"hands": {"ann": []}', 400, "not valid JSON"),
        ('{"hands": {}}', 422, "hands"),
        ('{"hands": {"ann": ["XX"]}}', 422, "unknown card 'XX'"),
        ('{"hands": {"ann": ["7H", "7H", "7H"]}}', 422, "too many copies of 7H"),
        ('{"hands": {"ann": []}, "extra": 1}', 422, "unknown field 'extra'"),
        ('{"hands": {"ann": []}, "rules": {"joker_points": -1}}', 422, "rule 'joker_points'"),
        ('{"hands": {"ann": [], "bo": []}}', 422, "nothing left: 'ann', 'bo'"),
    ],
)
def test_bad_score_requests_get_4xx_naming_the_culprit(
    client: TestClient, body: str, status: int, culprit: str
) -> None:
    response = client.post(
        SHANGHAI_SCORE, content=body, headers={"Content-Type": "application/json"}
    )
    assert response.status_code == status
    assert culprit in response.json()["detail"]


@pytest.mark.parametrize(
    ("request_", "detail"),
    [
        ({"hand": ["7H"]}, "のどちらか一方だけを指定してください"),
        ({"hand": ["7H"], "hand_number": 1, "buys_left": 9}, "'buys_left'"),
    ],
)
def test_a_body_in_japanese_is_refused_in_japanese(
    client: TestClient, request_: dict[str, Any], detail: str
) -> None:
    """The request's own checks across fields answered a body's lang ja in English
    (only Accept-Language: ja was heard): FastAPI reads the body before any route
    sets the language from it."""
    answer = client.post(SHANGHAI_ADVISE, json={**request_, "lang": "ja"})
    assert answer.status_code == 422
    assert detail in answer.json()["detail"]
    assert answer.json()["detail"].isascii() is False
    header = client.post(SHANGHAI_ADVISE, json=request_, headers={"Accept-Language": "ja"})
    assert header.json() == answer.json()
    assert client.post(SHANGHAI_ADVISE, json=request_).json()["detail"].isascii()


def test_error_answers_never_echo_the_request(client: TestClient) -> None:
    junk = "Z" * 5000
    for path, body in (
        (SHANGHAI_ADVISE, {"hand": [junk], "hand_number": 1}),
        (
            SHANGHAI_ADVISE,
            {"hand": ["7H"], "contract": {"sets": [3]}, "table": [{"cards": [junk]}]},
        ),
        (SHANGHAI_SCORE, {"hands": {"ann": [junk]}}),
    ):
        response = client.post(path, json=body)
        assert response.status_code == 422
        assert len(response.json()["detail"]) <= MAX_DETAIL
        assert junk not in response.text


@pytest.mark.parametrize("path", [SHANGHAI_ADVISE, SHANGHAI_SCORE])
def test_a_body_over_16_kib_is_refused_with_413(client: TestClient, path: str) -> None:
    big = {"hand": ["7H"] * 4000, "hands": {}}  # about 24 KiB of JSON
    declared = client.post(path, json=big)
    assert declared.status_code == 413
    assert "16384 bytes" in declared.json()["detail"]

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it streams
        yield b'{"hand": ['
        for _ in range(3000):
            yield b'"7H", "8H", '
        yield b'"9H"]}'

    streamed = client.post(path, content=chunks(), headers={"Content-Type": "application/json"})
    assert streamed.status_code == 413


def test_metrics_count_shanghai_requests_and_solves(client: TestClient) -> None:
    client.post(SHANGHAI_ADVISE, json=examples.ADVISE_REQUEST)
    client.post(SHANGHAI_SCORE, json=examples.SCORE_REQUEST)
    client.post(SHANGHAI_ADVISE, json={"hand": ["QQ"], "hand_number": 1})
    text = client.get("/metrics").text
    for route, status in ((SHANGHAI_ADVISE, 200), (SHANGHAI_SCORE, 200), (SHANGHAI_ADVISE, 422)):
        line = f'meldwise_http_requests_total{{method="POST",route="{route}",status="{status}"}}'
        assert line in text
    assert 'meldwise_solves_total{status="optimal"}' in text
    assert 'meldwise_rejected_requests_total{reason="invalid"}' in text


def test_openapi_documents_both_operations(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    # Both run in a solver worker, so both may be refused (429, 503).
    statuses = {"200", "400", "401", "408", "413", "415", "422", "429", "503"}
    for path in (SHANGHAI_ADVISE, SHANGHAI_SCORE):
        operation = spec["paths"][path]["post"]
        assert set(operation["responses"]) == statuses
    schemas = spec["components"]["schemas"]
    fastapi_own = {"HTTPValidationError", "ValidationError"}
    for name, schema in schemas.items():
        if name not in fastapi_own and schema.get("type") == "object":
            assert schema.get("additionalProperties") is False, name
    answer = schemas["ShanghaiAdviseResponse"]
    assert set(answer["required"]) == set(examples.ADVISE_RESPONSE)
    # Every answer has a null field, and FastAPI drops nulls from examples
    # (fastapi/fastapi#5559): the answer's examples are the library's, not OpenAPI's.
    assert "examples" not in answer
    request = schemas["ShanghaiAdviseRequest"]
    assert examples.ADVISE_DRAW_REQUEST in request["examples"]
    # A request's contract may give sets or runs alone: the answer's, whose two lists
    # are always there, is another schema of the same model.
    contract = request["properties"]["contract"]["anyOf"][0]["$ref"].rsplit("/", 1)[1]
    assert "required" not in schemas[contract]
    # The answer's is null when a player who is down gave none.
    answered = answer["properties"]["contract"]["anyOf"]
    assert {"type": "null"} in answered
    assert schemas[answered[0]["$ref"].rsplit("/", 1)[1]]["required"]


def test_the_watchdog_allows_an_advice_its_draw_phase_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    """The draw phase stops at its work budget within ten times the time limit (its
    safety cap), so the watchdog allows an advice that long (beside its margin): at
    the time limit alone it replaced a worker whose draw a loaded machine slowed
    (503) before the cap that the answer would have said."""
    allowed: list[float] = []

    async def answered(_request: Any, _solver: Any, budget_s: float, caps: Any = None) -> Any:
        allowed.append(budget_s)
        return Response(b"{}", media_type="application/json")

    monkeypatch.setattr(worker_answers, "answered", answered)
    with TestClient(create_app(Settings(workers=1, rate_limit="", time_cap_ms=1500))) as small:
        small.post("/v1/shanghai/advise", json={**examples.ADVISE_DRAW_REQUEST})
        small.post("/v1/shanghai/advise", json={**examples.ADVISE_REQUEST, "time_limit_ms": 500})
    assert allowed == [TIME_FACTOR * 1.5, TIME_FACTOR * 0.5]

"""The Shanghai game review over HTTP, in process: answered by a worker as the library
answers (the server process reads none of the record), bad records refused with 422
naming the place, a record-sized body taken, the limits documented and applied."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api import bodies, worker
from api.main import create_app
from api.settings import Settings
from api.worker import review_turn_ms
from solver import MeldwiseError
from solver.shanghai import review as shanghai_review
from solver.shanghai.game_wire import MAX_REVIEW_TURNS, ShanghaiReviewRequest, review_shanghai
from tests.api.support import in_order, seconds_allowed
from tests.shanghai.review_games import game

REVIEW = "/v1/shanghai/review"


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(Settings(workers=1, rate_limit=""))) as client:
        yield client


def _library_error(request: dict[str, Any]) -> str:
    with pytest.raises(MeldwiseError) as refused:
        review_shanghai(request)
    return str(refused.value)


def _spoilt() -> tuple[int, dict[str, Any]]:
    record = copy.deepcopy(game("lazy"))
    events = record["hands"][0]["events"]
    at = next(i for i, e in enumerate(events) if e["kind"] == "play")
    events[at]["play"]["lay_offs"] = [{"card": "KS", "meld": 0, "place": 0}]
    return at, record


def test_the_review_answers_what_the_library_answers_in_a_worker(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server process does not read the record (a worker does, as for Rummikub's
    review), and the answer is the library's, key for key."""
    asked: list[dict[str, Any]] = [
        {"record": game("lazy")},
        {"record": game("lazy"), "player": 0, "lang": "en"},
    ]
    expected = [review_shanghai(request) for request in asked]
    at, spoilt = _spoilt()
    problem = _library_error({"record": spoilt})

    def not_here(*_: Any, **__: Any) -> Any:
        raise AssertionError("the server process read a whole-game body")

    monkeypatch.setattr(bodies, "read_body", not_here)
    monkeypatch.setattr(ShanghaiReviewRequest, "model_validate", not_here)
    for request, answer in zip(asked, expected, strict=True):
        got = client.post(REVIEW, json=request)
        assert got.status_code == 200, got.text
        assert in_order(got.json()) == in_order(answer)
    assert any(turn["problems"] for turn in expected[1]["turns"])
    assert {turn["player"] for turn in expected[1]["turns"]} == {0}
    refused = client.post(REVIEW, json={"record": spoilt})
    assert refused.status_code == 422
    body = refused.json()
    assert body["detail"] == problem
    assert problem.startswith(f"record: hands[0].events[{at}] (hand 1, turn 1, seat ")
    assert ["record", "hands", 0, "events", at] in [place["field"] for place in body["places"]]


@pytest.mark.parametrize(
    ("change", "detail"),
    [
        ({"player": 2}, "'player' must be 0 to 1, got 2"),
        ({"time_limit_ms": 0}, "'time_limit_ms' must be at least 1, got 0"),
        (
            {"record": {"format": "meldwise-rummikub-game"}},
            "'record.format' is 'meldwise-rummikub-game'",
        ),
    ],
    ids=["player", "time", "format"],
)
def test_a_bad_review_request_is_refused_naming_the_culprit(
    client: TestClient, change: dict[str, Any], detail: str
) -> None:
    request = {"record": game("small"), **change}
    refused = client.post(REVIEW, json=request)
    assert refused.status_code == 422
    assert refused.json()["detail"].startswith(detail)
    assert refused.json()["detail"] == _library_error(request)


def test_a_review_takes_a_record_sized_body(client: TestClient) -> None:
    """Over the body limit of other routes, within the record limit: answered."""
    settings = Settings()
    body = json.dumps({"record": game("small")}).encode()
    padded = body[:-1] + b" " * (settings.body_limit_bytes + 1) + b"}"
    assert settings.body_limit_bytes < len(padded) <= settings.record_body_limit_bytes
    assert client.post(
        REVIEW, content=padded, headers={"Content-Type": "application/json"}
    ).is_success
    over = b" " * (settings.record_body_limit_bytes + 1)
    refused = client.post(REVIEW, content=over, headers={"Content-Type": "application/json"})
    assert refused.status_code == 413


def test_the_turns_reviewed_share_the_game_budget_and_the_docs_say_the_limits(
    client: TestClient,
) -> None:
    record = game("small")
    plays = [e for h in record["hands"] for e in h["events"] if e["kind"] == "play"]
    request = ShanghaiReviewRequest.model_validate({"record": record, "player": 1})
    players = record["settings"]["players"]
    assert request.seat_turns(players)[1] == sum(e["seat"] == 1 for e in plays)
    # Each turn's limit is the server's cap, not the budget over the turns: the turns
    # share the budget as one clock (see the tests below).
    caps = {"time_limit_ms": 1500, "game_budget_ms": 1000}
    assert review_turn_ms(request, caps) == {"time_limit_ms": 1500}
    paths = client.get("/openapi.json").json()["paths"]
    post = paths[REVIEW]["post"]
    assert f"more than {MAX_REVIEW_TURNS} turns" in post["responses"]["422"]["description"]
    assert "MELDWISE_GAME_BUDGET_MS" in post["description"]


def test_a_turn_of_a_long_review_may_use_its_whole_time_limit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The turns reviewed share the game budget as one clock, the outer cap: each
    turn's solve may run its whole time limit while the budget lasts. (Each was given
    the budget over the turns: the 406 turns of a 10-hand game had 295 ms each of the
    server's 120 s, and on a busy machine a turn needing 0.2 s was cut, ``time_capped``,
    where the library and the command line proved it.)"""
    allowed = seconds_allowed(monkeypatch, shanghai_review, "solve_turn")
    record = game("small")
    request = {"record": record, "player": 1}
    players = record["settings"]["players"]
    turns = ShanghaiReviewRequest.model_validate(request).seat_turns(players)[1]
    caps = {"time_limit_ms": 2000, "game_budget_ms": 500 * turns}  # 500 ms a turn
    worker.raw_answer("review_shanghai", json.dumps(request), "en", caps)
    assert allowed
    assert 1.5 < max(allowed) <= 2.0


def test_a_review_past_the_game_budget_says_its_turns_were_cut() -> None:
    """The budget is the whole review's: past it, the turns left are not searched, and
    the answer says the clock cut them."""
    request = {"record": game("small"), "player": 1}
    caps = {"time_limit_ms": 2000, "game_budget_ms": 1}
    data, status = worker.raw_answer("review_shanghai", json.dumps(request), "en", caps)
    answer = json.loads(data)
    assert answer["time_capped"] is True
    assert status == answer["status"] != "optimal"
    cut = [turn for turn in answer["turns"] if turn["time_capped"]]
    assert cut
    assert all(turn["status"] != "optimal" for turn in cut)

"""``POST /v1/shanghai/game`` in process: the library's game for the same request,
played in a solver worker (the server process reads no body), its record reviewed
by ``/v1/shanghai/review`` as it is, the OpenAPI example playing, bad input refused
naming its place. The library's and the command's own tests are in
tests/shanghai/test_shanghai_game.py."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi import Response
from fastapi.testclient import TestClient

from api import bodies, worker_answers
from api.main import create_app
from api.settings import Settings
from api.worker_answers import GAME_WATCHDOG_FACTOR
from solver.cpsat import game_budget
from solver.errors import MeldwiseError
from solver.shanghai.game_wire import ShanghaiGameRequest, game_shanghai, review_shanghai
from tests.api.support import in_order

GAME = "/v1/shanghai/game"
REVIEW = "/v1/shanghai/review"
SHORT: dict[str, Any] = {"bots": ["strong", "greedy"], "seed": 5, "settings": {"hands": 1}}


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(Settings(workers=1, rate_limit=""))) as client:
        yield client


def test_the_game_is_the_librarys_and_the_same_each_time(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    expected = game_shanghai(SHORT)

    def not_here(*_: Any, **__: Any) -> Any:
        raise AssertionError("the server process read a bot game's body")

    # The worker reads the body and writes the answer, as for a Rummikub game.
    monkeypatch.setattr(bodies, "read_body", not_here)
    monkeypatch.setattr(ShanghaiGameRequest, "model_validate", not_here)
    answers = [client.post(GAME, json=SHORT) for _ in range(2)]
    for answer in answers:
        assert answer.status_code == 200, answer.text
        assert in_order(answer.json()) == in_order(expected)


def test_the_record_reviews_as_it_is(client: TestClient) -> None:
    record = client.post(GAME, json=SHORT).json()["record"]
    answer = client.post(REVIEW, json={"record": record})
    assert answer.status_code == 200, answer.text
    assert answer.json() == review_shanghai({"record": record})
    assert answer.json()["turns"]


def test_the_openapi_example_plays(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    operation = schema["paths"][GAME]["post"]
    assert operation["requestBody"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/ShanghaiGameRequest"
    }
    assert {"200", "422"} <= set(operation["responses"])
    (example,) = schema["components"]["schemas"]["ShanghaiGameRequest"]["examples"]
    answer = client.post(GAME, json=example)
    assert answer.status_code == 200, answer.text
    assert answer.json()["record"]["format"] == "meldwise-shanghai-game"


@pytest.mark.parametrize(
    ("request_", "detail", "field"),
    [
        (
            {**SHORT, "bots": ["strong", "clever"]},
            "'bots[1]' must be 'greedy' or 'strong', got 'clever'",
            ["bots", 1],
        ),
        (
            {**SHORT, "settings": {"hands": 11}},
            "settings: 'hands' must be a whole number 1 to 10, got 11",
            ["settings"],
        ),
        (
            {**SHORT, "settings": {"hands": 1, "max_turns": 2001}},
            "settings: 'hands' times 'max_turns' is 2001 turns (1 hand of at most 2001);"
            " a bot game allows at most 2000",
            ["settings"],
        ),
        (
            {**SHORT, "lang": "ja", "settings": {"rules": {"decks": 0}}},
            "settings.rules: ルール 'decks' は1から8までで指定してください(指定値: 0)",
            ["settings", "rules"],
        ),
    ],
)
def test_bad_input_is_a_422_naming_its_place(
    client: TestClient, request_: dict[str, Any], detail: str, field: list[Any]
) -> None:
    answer = client.post(GAME, json=request_)
    assert answer.status_code == 422
    body = answer.json()
    assert body["detail"] == detail
    assert body["places"][0]["field"] == field


def test_a_game_past_the_game_budget_is_a_422_naming_hands_not_a_503() -> None:
    """A game longer than the server's game budget ran until the watchdog replaced its
    worker, and was answered 503 "...; try again": the same request plays the same game,
    so it never could. The margin is the watchdog's: past it a loaded worker is a 503."""
    settings = Settings(workers=1, rate_limit="", game_budget_ms=1000, watchdog_margin_ms=60_000)
    with TestClient(create_app(settings)) as small:
        answer = small.post(GAME, json={"bots": ["strong"] * 4, "seed": 1})
    assert answer.status_code == 422, answer.text[:300]
    body = answer.json()
    assert body["detail"].startswith(
        "settings: 'hands' is 10: the game ran past this server's game budget of 1000 ms of work"
        " in hand "
    )
    assert "try again" not in body["detail"]
    assert [place["field"] for place in body["places"]] == [["settings"], ["settings", "hands"]]
    # Counted in work, it is the library's refusal word for word, on any load.
    with game_budget(1000), pytest.raises(MeldwiseError) as refused:
        game_shanghai({"bots": ["strong"] * 4, "seed": 1})
    assert body["detail"] == str(refused.value)
    assert " ms counted: " in body["detail"]


def test_the_watchdog_allows_a_game_twice_its_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """The budget counts work, about an idle machine's CPU time: a kind of game may
    take up to 1.2 times its work in CPU time (benchmarks/RESULTS.md), so the
    watchdog's wall-clock allowance is twice the budget (it was the budget, when the
    budget counted CPU time)."""
    allowed: list[float] = []

    async def answered(_request: Any, _solver: Any, budget_s: float, caps: Any = None) -> Any:
        allowed.append(budget_s)
        return Response(b"{}", media_type="application/json")

    monkeypatch.setattr(worker_answers, "answered", answered)
    settings = Settings(workers=1, rate_limit="", game_budget_ms=3000)
    with TestClient(create_app(settings)) as small:
        small.post(GAME, json=SHORT)
        small.post("/v1/rummikub/game", json={"bots": ["greedy", "greedy"]})
    assert allowed == [GAME_WATCHDOG_FACTOR * 3.0] * 2
    assert GAME_WATCHDOG_FACTOR == 2

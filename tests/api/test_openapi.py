"""What the service's OpenAPI says of each route's refusals is what the route refuses:
a 422's list of culprits names only what its request can hold, and the refusals of
its own that a route makes (several players out at once, a number of bots the game
does not seat)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.main import create_app
from api.settings import Settings
from solver.rummikub.engine import GameSettings as RummikubSettings
from solver.rummikub.game_wire import MAX_BOTS
from solver.settings import FEWEST_PLAYERS
from solver.shanghai.engine import MAX_PLAYERS
from solver.shanghai.engine import GameSettings as ShanghaiSettings


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(Settings(workers=1, rate_limit=""))) as client:
        yield client


@pytest.fixture(scope="module")
def spec(client: TestClient) -> dict[str, Any]:
    answer: dict[str, Any] = client.get("/openapi.json").json()
    return answer


def refused(spec: dict[str, Any], path: str) -> str:
    """The description of ``path``'s 422."""
    description: str = spec["paths"][path]["post"]["responses"]["422"]["description"]
    return description


def fields(spec: dict[str, Any], path: str) -> set[str]:
    """The fields of ``path``'s request body."""
    body = spec["paths"][path]["post"]["requestBody"]["content"]["application/json"]
    name = body["schema"]["$ref"].rsplit("/", 1)[1]
    return set(spec["components"]["schemas"][name]["properties"])


# Words of a 422's culprits, and the fields of a request that can hold what they name.
NEEDS = {
    "table set": {"table", "table_before", "table_after", "record"},
    "table meld": {"table", "record"},
    "contract or hand number": {"contract", "hand_number"},
    "bot": {"bot", "bots"},
}


def test_each_refusal_named_is_one_the_request_can_hold(spec: dict[str, Any]) -> None:
    # The scores said they refuse "an invalid table set" (Rummikub) and "an invalid
    # table meld, a bad contract or hand number" (Shanghai): their requests hold racks
    # or hands alone.
    for path, item in spec["paths"].items():
        if "post" not in item:
            continue
        said, holds = refused(spec, path), fields(spec, path)
        for words, needed in NEEDS.items():
            if words in said:
                assert holds & needed, (path, words, sorted(holds))


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/v1/rummikub/score", {"racks": {"ann": [], "bob": []}}),
        ("/v1/shanghai/score", {"hands": {"ann": [], "bo": []}}),
    ],
)
def test_a_score_says_it_refuses_several_players_out(
    client: TestClient, spec: dict[str, Any], path: str, body: dict[str, Any]
) -> None:
    answer = client.post(path, json=body)
    assert answer.status_code == 422, answer.text
    assert "only one player goes out" in answer.json()["detail"]
    assert "more than one player out" in refused(spec, path)


@pytest.mark.parametrize(
    ("path", "most"), [("/v1/rummikub/game", MAX_BOTS), ("/v1/shanghai/game", MAX_PLAYERS)]
)
def test_a_game_says_how_many_bots_it_seats(
    client: TestClient, spec: dict[str, Any], path: str, most: int
) -> None:
    for bots in (FEWEST_PLAYERS - 1, most + 1):
        answer = client.post(path, json={"bots": ["greedy"] * bots})
        assert answer.status_code == 422, answer.text
        assert f"{FEWEST_PLAYERS} to {most} bots" in answer.json()["detail"]
    assert f"fewer than {FEWEST_PLAYERS} bots or more than {most}" in refused(spec, path)


@pytest.mark.parametrize(
    ("request_", "settings"),
    [("GameRequest", RummikubSettings()), ("ShanghaiGameRequest", ShanghaiSettings())],
)
def test_a_games_settings_are_each_described(
    spec: dict[str, Any], request_: str, settings: RummikubSettings | ShanghaiSettings
) -> None:
    # Neither named 'players', which a request may give (it must be the bots seated).
    said = spec["components"]["schemas"][request_]["properties"]["settings"]["description"]
    for name, default in settings.to_dict().items():
        assert f"{name} (" in said, name
        if type(default) is int and name != "players":  # a default the description says
            assert re.search(rf"\b{name} \([^)]*\b{default}\)", said), (name, default)


@pytest.mark.parametrize("path", ["/healthz", "/readyz"])
def test_a_probes_answer_is_the_one_its_schema_says(
    client: TestClient, spec: dict[str, Any], path: str
) -> None:
    # /readyz's 200 was Health, whose example is "ok": it answers "ready".
    body = spec["paths"][path]["get"]["responses"]["200"]["content"]["application/json"]
    name = body["schema"]["$ref"].rsplit("/", 1)[1]
    status = spec["components"]["schemas"][name]["properties"]["status"]
    answer = client.get(path)
    assert answer.status_code == 200
    assert status["const"] == answer.json()["status"]

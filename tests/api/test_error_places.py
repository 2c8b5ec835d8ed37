"""A 422's places: the request's fields its detail quotes, as the detail is sent."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st

from api.errors import MAX_DETAIL
from api.main import create_app
from api.settings import Settings
from solver import (
    MeldwiseError,
    advise_shanghai,
    repair_rummikub,
    score_rummikub,
    score_shanghai,
    solve_rummikub,
    validate_rummikub,
)
from solver.rummikub.game_wire import EXAMPLE_RECORD, bot_rummikub, game_rummikub, review_rummikub
from solver.shanghai.game_wire import game_shanghai, review_shanghai
from tests.api.support import SOLVE, listed_places
from tests.shanghai.review_games import game as shanghai_game

Wire = Callable[[Mapping[str, Any]], dict[str, Any]]

FIRST_TURN: dict[str, Any] = EXAMPLE_RECORD["turns"][0]

# Per route: the library's function, a request it accepts, and ways to spoil one field
# each (a key -> a bad value; a dotted key for a field within another), each a problem
# one of the games raises: an unknown tile or card, a wrong type, a value out of range,
# an unknown or missing field, a bad rule, too many copies, a set that is not valid, a
# check across fields.
ROUTES: dict[str, tuple[Wire, dict[str, Any], list[tuple[str, Any]]]] = {
    "/v1/rummikub/solve": (
        solve_rummikub,
        {"rack": ["R1", "R2"], "table": [["B3", "B4", "B5"]]},
        [
            ("rack", ["R1", "Q5", "rack", 7]),
            ("rack", "R1 R2"),
            ("rack", ["R1", "R1", "R1"]),
            ("table", [["R1", "R2"]]),
            ("table", [["B3", "B4", "X5"], "table"]),
            ("opened", "yes"),
            ("time_limit_ms", 0),
            ("disruption_time_limit_ms", 1.5),
            ("hint_level", "all"),
            ("objective", "fun"),
            ("rules", {"jokers": 9, "wild": 1}),
            ("rules", {"numbers": 4, "min_set_len": 5}),
            ("opponents", [{"rack_size": 0}, {"rack_size": 5, "seat": 1}]),
            ("opponents", [{"rack_size": 99}] * 3),
            ("colour", "rules"),
        ],
    ),
    "/v1/rummikub/validate": (
        validate_rummikub,
        {"rack": ["R5"], "table_before": [["B3", "B4", "B5"]], "table_after": []},
        [
            ("rack", ["R5", "seed"]),
            ("table_before", [["R1", "R2"]]),
            ("table_before", [["B3", "B4", "Q5"]]),
            ("table_after", [["R5", "R5", "R5"]]),
            ("table_after", None),
            ("opened", 1),
        ],
    ),
    "/v1/rummikub/repair": (
        repair_rummikub,
        {"table": [["R1", "R2", "R3"]], "rack": ["R4"]},
        [
            ("table_before", [["R1", "R2", "Q3"]]),
            ("table_before", [["R1", "R2", "R3", "R9"]]),
            ("table", [["R1"], "table_before"]),
            ("rack", ["table_before"]),
            ("opened", False),
            ("time_limit_ms", -5),
        ],
    ),
    "/v1/rummikub/score": (
        score_rummikub,
        {"racks": {"ann": ["R5"], "bob": []}},
        [
            ("racks", {"": [], "a\u200b": ["R1"], "bob": ["Q1"]}),
            ("racks", {"racks": "R5"}),
            ("racks", {}),
            ("rules", {"copies": 0}),
        ],
    ),
    "/v1/rummikub/bot": (
        bot_rummikub,
        {"bot": "greedy", "rack": ["R1"], "opponents": [{"rack_size": 5}]},
        [
            ("bot", "clever"),
            ("rack", []),
            ("seed", -1),
            ("opponents", [{"rack_size": 0}]),
            ("table", [["K1", "K2"]]),
        ],
    ),
    "/v1/rummikub/game": (
        game_rummikub,
        {"bots": ["greedy", "greedy"], "seed": 1},
        [
            ("bots", ["greedy", 5]),
            ("seed", 99999999999999),
            ("settings", {"hand": 60, "players": 3}),
            ("settings", []),
        ],
    ),
    "/v1/rummikub/review": (
        review_rummikub,
        {"record": EXAMPLE_RECORD},
        [
            ("player", 7),
            ("objective", "record"),
            ("record", "record"),
            ("record.version", 3),
            ("record.turns", "turns"),
            # The record reads, and does not hold a game: its places within 'record'.
            ("record.turns", [{**FIRST_TURN, "table_after": None}]),
            ("record.turns", [{**FIRST_TURN, "rack": ["R1", "Q5"]}]),
            ("record.turns", [{**FIRST_TURN, "table_before": [["R1", "X"]]}]),
            ("record.turns", [{**FIRST_TURN, "played": ["R10"]}]),
            ("record.turns", [{**FIRST_TURN, "turn": 5}]),
            ("record.players", ["ann"]),
            ("record.settings", {"rules": {"jokers": 9}}),
        ],
    ),
    "/v1/shanghai/advise": (
        advise_shanghai,
        {"hand": ["7H", "7S", "KD"], "hand_number": 1},
        [
            ("hand", ["7H", "ZZ", "hand"]),
            ("hand", ["7H", "7H", "7H"]),
            ("hand_number", 11),
            ("buys_left", 9),
            ("upcard", "ZZ"),
            ("phase", "later"),
            ("table", [{"cards": ["3S", "5S", "7S"]}, {"cards": ["JC", "XC"], "owner": 5}]),
            ("next_player", {"x": 1}),
            ("contract", {"sets": [2, "3"], "runs": [99]}),
            ("contract", {"sets": [3, 3]}),
            # Not hand_number null: with the contract above it makes a valid request (no
            # contract and no hand number is tested below, with both fields' places).
            ("hand_number", "1"),
            ("rules", {"decks": 0}),
        ],
    ),
    "/v1/shanghai/game": (
        game_shanghai,
        {"bots": ["greedy", "greedy"], "seed": 1, "settings": {"hands": 1}},
        [
            ("bots", ["greedy", 5]),
            ("seed", 99999999999999),
            ("settings", {"hands": 0, "players": 3}),
            ("settings", {"hands": 1, "rules": {"decks": 9}}),
            ("settings", {"hands": 5, "max_turns": 401}),
            ("settings", []),
        ],
    ),
    "/v1/shanghai/review": (
        review_shanghai,
        {"record": shanghai_game("small")},
        [
            ("player", 7),
            ("time_limit_ms", 0),
            ("record", "record"),
            ("record.version", 3),
            ("record.seed", -1),
            ("record.hands", "hands"),
            # The record reads, and does not agree with itself or its replay.
            ("record.players", ["ann"]),
            ("record.scores", [1, 2]),
            ("record.settings", {"players": 2, "hands": 1}),
        ],
    ),
    "/v1/shanghai/score": (
        score_shanghai,
        {"hands": {"ann": ["AS"], "bo": []}},
        [
            ("hands", {"ann": ["XX"], "bo": "hands"}),
            ("hands", {"ann": ["7H", "7H", "7H"]}),
            ("hands", {"ann": [], "bo": []}),
            ("rules", {"decks": 1, "jokers": "2"}),
        ],
    ),
}


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(Settings(workers=1, rate_limit=""))) as client:
        yield client


def spoiled(request: dict[str, Any], spoils: list[tuple[str, Any]]) -> dict[str, Any]:
    """``request`` with each of ``spoils`` (a key, dotted within a field, and its value).

    A spoil within a field an earlier one replaced by a non-object is left out: that
    field is spoilt already."""
    spoilt: dict[str, Any] = json.loads(json.dumps(request))
    for key, value in spoils:
        *outer, last = key.split(".")
        within: Any = spoilt
        for name in outer:
            within = within[name] if isinstance(within, dict) else None
        if isinstance(within, dict):
            within[last] = value
    return spoilt


def refusal(wire: Wire, request: Mapping[str, Any]) -> MeldwiseError:
    """The library's refusal of ``request``."""
    try:
        wire(request)
    except MeldwiseError as error:
        return error
    raise AssertionError(f"accepted: {request!r}")


def found_in_turn(detail: str, places: list[dict[str, Any]]) -> None:
    """Each place's quoted text is in ``detail`` after the one before it, as a client
    reads them in turn (a place quoted as "" is about the field, quoting nothing)."""
    start = 0
    for place in places:
        assert set(place) == {"field", "quoted"}, place
        field, quoted = place["field"], place["quoted"]
        assert field, place
        assert all(type(part) in (int, str) for part in field), place
        if quoted:
            at = detail.find(quoted, start)
            assert at >= 0, (quoted, detail[start:])
            start = at + len(quoted)


CASES = [
    (path, spoil, lang)
    for path, (_, _, spoils) in ROUTES.items()
    for spoil in spoils
    for lang in ("en", "ja")
]


@pytest.mark.parametrize(("path", "spoil", "lang"), CASES)
def test_a_refusal_lists_the_places_its_detail_quotes(
    client: TestClient, path: str, spoil: tuple[str, Any], lang: str
) -> None:
    wire, request, _ = ROUTES[path]
    asked = {**spoiled(request, [spoil]), "lang": lang}
    answer = client.post(path, json=asked)
    assert answer.status_code == 422, answer.text
    body = answer.json()
    found_in_turn(body["detail"], body["places"])
    # Every place the library's error quotes, none lost on the way (the worker's pipe).
    error = refusal(wire, asked)
    assert body == {"detail": str(error), "places": listed_places(error)}


@settings(max_examples=60)
@given(
    route=st.sampled_from(sorted(ROUTES)),
    picks=st.lists(st.integers(0, 20), min_size=1, max_size=4),
    lang=st.sampled_from(["en", "ja"]),
)
def test_several_problems_at_once_quote_their_places_in_turn(
    client: TestClient, route: str, picks: list[int], lang: str
) -> None:
    # Several fields spoilt at once: one detail listing problems (after "; ", a full-width slash in
    # Japanese), the places of those it lists.
    wire, request, spoils = ROUTES[route]
    chosen = [spoils[pick % len(spoils)] for pick in picks]
    asked = {**spoiled(request, chosen), "lang": lang}
    answer = client.post(route, json=asked)
    assert answer.status_code == 422, answer.text
    body = answer.json()
    found_in_turn(body["detail"], body["places"])
    error = refusal(wire, asked)
    if len(str(error)) <= MAX_DETAIL and str(error).isprintable():
        assert body == {"detail": str(error), "places": listed_places(error)}


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize(
    ("spoil", "fields"),
    [
        (
            {**FIRST_TURN, "table_after": None},
            [["record"], ["record", "turns", 0], ["record", "turns", 0, "table_after"]],
        ),
        ({**FIRST_TURN, "rack": ["R1", "Q5"]}, [["record"], ["record", "turns", 0, "rack"]]),
        (
            {**FIRST_TURN, "table_before": [["R1", "X"]]},
            [["record"], ["record", "turns", 0, "table_before", 0]],
        ),
        (
            {**FIRST_TURN, "played": ["R10"]},
            [["record"], ["record", "turns", 0], ["record", "turns", 0, "played"]],
        ),
        ({**FIRST_TURN, "turn": 5}, [["record"], ["record", "turns", 0]]),
    ],
    ids=["no table_after", "a bad tile", "a bad table tile", "played", "numbered"],
)
def test_a_record_that_does_not_hold_a_game_lists_its_places_in_the_request(
    client: TestClient, lang: str, spoil: dict[str, Any], fields: list[list[Any]]
) -> None:
    # "turns[0]: a play needs 'table_after'" listed no place, though the record's shape
    # errors of the same route name theirs ('record.turns[0].turn').
    record = {**EXAMPLE_RECORD, "turns": [spoil]}
    answer = client.post("/v1/rummikub/review", json={"record": record, "lang": lang})
    assert answer.status_code == 422, answer.text
    body = answer.json()
    assert body["detail"].startswith("record: turns[0]")
    assert [place["field"] for place in body["places"]] == fields
    found_in_turn(body["detail"], body["places"])


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_record_whose_settings_do_not_read_lists_them_in_the_request(
    client: TestClient, lang: str
) -> None:
    # Its settings were placed at ["settings", "rules"], a field the request lacks.
    record = {**EXAMPLE_RECORD, "settings": {"rules": {"jokers": 9}}}
    body = client.post("/v1/rummikub/review", json={"record": record, "lang": lang}).json()
    assert [place["field"] for place in body["places"]] == [
        ["record"],
        ["record", "settings", "rules"],
    ]
    found_in_turn(body["detail"], body["places"])


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("contract", [None, {"sets": [3, 3]}])
def test_a_shanghai_contract_given_twice_or_not_at_all_names_both_fields(
    client: TestClient, lang: str, contract: dict[str, Any] | None
) -> None:
    # "give exactly one of 'hand_number' ... or 'contract'" listed no place.
    hand_number = None if contract is None else 1
    asked = {"hand": ["7H"], "hand_number": hand_number, "contract": contract, "lang": lang}
    body = client.post("/v1/shanghai/advise", json=asked).json()
    assert [place["field"] for place in body["places"]] == [["hand_number"], ["contract"]]
    found_in_turn(body["detail"], body["places"])


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_places_clipped_away_with_the_detail_are_left_out(client: TestClient, lang: str) -> None:
    # Five unknown tiles of 60 letters: the detail naming them is clipped to 400
    # characters, and the tiles it no longer quotes are not listed.
    rack = [f"{'Q' * 60}{n}" for n in range(5)]
    answer = client.post(SOLVE, json={"rack": rack, "lang": lang})
    assert answer.status_code == 422
    body = answer.json()
    error = refusal(solve_rummikub, {"rack": rack, "lang": lang})
    assert len(str(error)) > MAX_DETAIL
    assert len(body["detail"]) == MAX_DETAIL
    found_in_turn(body["detail"], body["places"])
    listed = [place["field"] for place in body["places"]]
    assert listed == [["rack", n] for n in range(len(listed))]
    assert 0 < len(listed) < len(error.places) == 5
    # The last one listed is whole in the detail; the next one is not there whole.
    assert f"rack[{len(listed)}]" not in body["detail"]


def test_a_place_with_a_character_that_does_not_print_is_quoted_as_sent(
    client: TestClient,
) -> None:
    # A name with a zero-width space is written as its escape in the detail: its place
    # is quoted so too, and its key, never echoed either.
    answer = client.post("/v1/rummikub/score", json={"racks": {"a\u200b": []}})
    assert answer.status_code == 422
    body = answer.json()
    assert body["places"] == [{"field": ["racks", "a\\u200b"], "quoted": "racks['a\\u200b']"}]
    found_in_turn(body["detail"], body["places"])


def test_a_lone_surrogate_in_a_key_is_named_not_sent(client: TestClient) -> None:
    # JSON text may hold a lone surrogate, which UTF-8 cannot: its place is escaped.
    body = b'{"racks": {"a\\ud800": ["R1"], "": []}}'
    answer = client.post(
        "/v1/rummikub/score", content=body, headers={"Content-Type": "application/json"}
    )
    assert answer.status_code == 422, answer.text
    refused = answer.json()
    found_in_turn(refused["detail"], refused["places"])
    assert ["racks", ""] in [place["field"] for place in refused["places"]]
    assert "\ud800" not in answer.text


def test_every_refusal_lists_places_and_other_errors_none(client: TestClient) -> None:
    # A 422 decided before any game reading (a key given twice, a position over the
    # size limit) quotes no field; a 400 or 404 is no refusal of a field.
    twice = b'{"rack": ["R1"], "rack": ["R2"]}'
    answer = client.post(SOLVE, content=twice, headers={"Content-Type": "application/json"})
    assert answer.status_code == 422
    assert answer.json()["places"] == []
    answer = client.post(SOLVE, json={"rack": ["R1"] * 400})
    assert answer.status_code == 422
    assert answer.json()["places"] == []
    answer = client.post(SOLVE, content=b"{", headers={"Content-Type": "application/json"})
    assert answer.status_code == 400
    assert set(answer.json()) == {"detail"}
    assert set(client.get("/v1/nothing").json()) == {"detail"}


def test_the_schema_of_a_refusal_lists_its_places(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    for path, methods in schema["paths"].items():
        if not path.startswith("/v1/"):
            continue
        refused = methods["post"]["responses"]["422"]["content"]["application/json"]["schema"]
        assert refused == {"$ref": "#/components/schemas/RefusalBody"}, path
    body = schema["components"]["schemas"]["RefusalBody"]
    assert body["required"] == ["detail", "places"]
    place = schema["components"]["schemas"]["Place"]
    assert set(place["properties"]) == {"field", "quoted"}


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize(
    "path",
    [path for path in ROUTES if not path.endswith(("/game", "/review"))],  # no 'rules'
)
@pytest.mark.parametrize("rules", [[], "jokers=4", 5])
def test_rules_that_are_no_object_are_listed_as_their_place(
    client: TestClient, path: str, lang: str, rules: Any
) -> None:
    # "rules must be an object of settings, got []" quotes the field 'rules' (its first
    # word, in Japanese too) but listed no place, where a bad rule within it did.
    _, request, _ = ROUTES[path]
    answer = client.post(path, json={**request, "rules": rules, "lang": lang})
    assert answer.status_code == 422, answer.text
    body = answer.json()
    assert body["places"] == [{"field": ["rules"], "quoted": "rules"}], body
    found_in_turn(body["detail"], body["places"])


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("path", ["/v1/rummikub/game", "/v1/shanghai/game"])
def test_a_players_setting_the_seats_contradict_lists_its_place(
    client: TestClient, path: str, lang: str
) -> None:
    # Its place was ["settings"] quoted as "": the settings as a whole, though the detail
    # is about one setting in them.
    asked = {"bots": ["greedy", "greedy"], "settings": {"players": 3}, "lang": lang}
    body = client.post(path, json=asked).json()
    assert body["places"] == [{"field": ["settings", "players"], "quoted": ""}]
    assert "'players' " in body["detail"]


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("path", sorted(ROUTES))
def test_an_unknown_field_is_listed_as_its_place(client: TestClient, path: str, lang: str) -> None:
    # "unknown field 'bogus'; fields are ..." quoted the field but listed no place.
    _, request, _ = ROUTES[path]
    body = client.post(path, json={**request, "bogus": 1, "lang": lang}).json()
    assert body["places"] == [{"field": ["bogus"], "quoted": "'bogus'"}], body
    found_in_turn(body["detail"], body["places"])


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_an_unknown_field_within_a_field_is_listed_as_its_place(
    client: TestClient, lang: str
) -> None:
    asked = {"rack": ["R1"], "opponents": [{"rack_size": 3, "bogus": 1}], "lang": lang}
    body = client.post(SOLVE, json=asked).json()
    assert body["places"] == [
        {"field": ["opponents", 0, "bogus"], "quoted": "'opponents[0].bogus'"}
    ], body
    found_in_turn(body["detail"], body["places"])


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_record_missing_fields_lists_each_as_its_place(client: TestClient, lang: str) -> None:
    # "missing field 'seed' in record; ...; unknown field 'record.turns'" listed none.
    asked = {"record": {"turns": []}, "lang": lang}
    body = client.post("/v1/shanghai/review", json=asked).json()
    assert [place["field"] for place in body["places"]] == [
        ["record", "seed"],
        ["record", "players"],
        ["record", "hands"],
        ["record", "scores"],
        ["record", "turns"],
    ], body
    found_in_turn(body["detail"], body["places"])
    error = refusal(review_shanghai, asked)
    assert body == {"detail": str(error), "places": listed_places(error)}


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize(
    ("path", "asked", "fields"),
    [
        (SOLVE, {"rack": ["R1"], "table": [["B3", "B4", "B5"], ["R1", "R2"]]}, [["table", 1]]),
        (
            "/v1/rummikub/bot",
            {"bot": "greedy", "rack": ["R1"], "opponents": [{"rack_size": 5}], "table": [["K1"]]},
            [["table", 0]],
        ),
        (
            "/v1/rummikub/validate",
            {"rack": ["R5"], "table_before": [["B3", "B4", "B5"], ["R1", "R2"]], "table_after": []},
            [["table_before"], ["table_before", 1]],
        ),
        (
            "/v1/rummikub/repair",
            {"table": [["R1", "R2", "R3"]], "table_before": [["R1", "R2", "R3"], ["R9"]]},
            [["table_before"], ["table_before", 1]],
        ),
        ("/v1/rummikub/repair", {"table": [["R1", "R2", "R3"], [], ["R4"]]}, [["table", 1]]),
        (
            "/v1/shanghai/advise",
            {
                "hand": ["7H"],
                "hand_number": 1,
                "table": [{"cards": ["3S", "3H", "3D"]}] * 2 + [{"cards": ["JC", "QC"]}],
            },
            [["table", 2]],
        ),
    ],
    ids=["solve", "bot", "validate", "repair before", "repair heap", "shanghai"],
)
def test_an_invalid_table_set_is_placed_at_its_index(
    client: TestClient, path: str, asked: dict[str, Any], fields: list[list[Any]], lang: str
) -> None:
    # "table set 1 (R1 R2) is not a valid set" listed the place ["table"], where a bad
    # tile in a rack or a set is placed at its index (["rack", 1], ["table", 0, 2]).
    answer = client.post(path, json={**asked, "lang": lang})
    assert answer.status_code == 422, answer.text
    body = answer.json()
    assert [place["field"] for place in body["places"]] == fields, body
    found_in_turn(body["detail"], body["places"])


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_one_players_turns_over_the_review_limit_are_placed_in_the_record(
    client: TestClient, lang: str
) -> None:
    # "player 0 has 401 turns in the record; a review takes at most 400" listed no
    # place, where the route's other refusals of a record name theirs.
    turns = [
        {"turn": n, "player": (n - 1) % 2, "rack": ["R1", "R5"], "table_before": [],
         "action": "draw", "drawn": "R13"}
        for n in range(1, 802)
    ]  # fmt: skip
    answer = client.post(
        "/v1/rummikub/review", json={"record": {"turns": turns}, "player": 0, "lang": lang}
    )
    assert answer.status_code == 422, answer.text
    body = answer.json()
    assert body["detail"].startswith("record: ")
    assert "401" in body["detail"]
    assert body["places"] == [{"field": ["record"], "quoted": "record"}]

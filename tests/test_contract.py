"""One contract: the library, the CLI (``--json`` and ``--jsonl``) and the HTTP service
accept and refuse exactly the same requests, with the same message.

Each row is a request at the edge of the contract (nulls, missing fields, wrong
types, unknown fields, bad values). The library's answer is the reference: an
accepted request gets the same response from the CLI and over HTTP; a refused one
exits 2 with ``error: <message>`` on the CLI, answers ``{"error": <message>}`` in
``--jsonl``, and gets a 422 with ``<message>`` as its detail over HTTP (and the places
the message quotes).
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pydantic import TypeAdapter

from api.main import create_app
from api.settings import Settings
from solver import MeldwiseError
from solver.cli import main
from solver.rummikub.game_wire import (
    EXAMPLE_RECORD,
    BotResponse,
    GameResponse,
    ReviewResponse,
    bot_rummikub,
    game_rummikub,
    review_rummikub,
)
from solver.rummikub.wire import (
    RepairResponse,
    ScoreResponse,
    SolveResponse,
    ValidateResponse,
    repair_rummikub,
    score_rummikub,
    solve_rummikub,
    validate_rummikub,
)
from solver.shanghai.game_wire import (
    ShanghaiGameResponse,
    ShanghaiReviewResponse,
    game_shanghai,
    review_shanghai,
)
from solver.shanghai.wire import (
    ShanghaiAdviseResponse,
    ShanghaiScoreResponse,
    advise_shanghai,
    score_shanghai,
)
from tests.api.support import listed_places
from tests.rummikub.games_support import TINY_OPTIONS
from tests.shanghai.review_games import game
from tests.support import assert_declared, run_solver_cli

Wire = Callable[[Mapping[str, Any]], dict[str, Any]]

ENDPOINTS: dict[str, tuple[Wire, str, list[str] | None, TypeAdapter[Any]]] = {
    "solve": (solve_rummikub, "/v1/rummikub/solve", ["solve"], TypeAdapter(SolveResponse)),
    "validate": (
        validate_rummikub,
        "/v1/rummikub/validate",
        ["validate"],
        TypeAdapter(ValidateResponse),
    ),
    "repair": (repair_rummikub, "/v1/rummikub/repair", ["repair"], TypeAdapter(RepairResponse)),
    "score": (score_rummikub, "/v1/rummikub/score", ["score"], TypeAdapter(ScoreResponse)),
    "bot": (bot_rummikub, "/v1/rummikub/bot", ["bot"], TypeAdapter(BotResponse)),
    "game": (game_rummikub, "/v1/rummikub/game", None, TypeAdapter(GameResponse)),
    "review": (review_rummikub, "/v1/rummikub/review", None, TypeAdapter(ReviewResponse)),
    "advise": (
        advise_shanghai,
        "/v1/shanghai/advise",
        ["shanghai", "advise"],
        TypeAdapter(ShanghaiAdviseResponse),
    ),
    "shanghai score": (
        score_shanghai,
        "/v1/shanghai/score",
        ["shanghai", "score"],
        TypeAdapter(ShanghaiScoreResponse),
    ),
    "shanghai game": (
        game_shanghai,
        "/v1/shanghai/game",
        None,
        TypeAdapter(ShanghaiGameResponse),
    ),
    "shanghai review": (
        review_shanghai,
        "/v1/shanghai/review",
        None,
        TypeAdapter(ShanghaiReviewResponse),
    ),
}
"""Name -> (library function, HTTP path, CLI command or None when there is none,
response model)."""

SHANGHAI_RECORD = game("small")

ROWS: list[tuple[str, Any]] = [
    # solve: accepted, nulls taken as absent
    ("solve", {"rack": ["R1", "R2", "R3"]}),
    ("solve", {"rack": ["R1"], "rules": None}),
    (
        "solve",
        {
            "rack": ["r1", "J"],
            "table": None,
            "opened": None,
            "objective": None,
            "rules": {"jokers": None},
            "time_limit_ms": None,
            "disruption_time_limit_ms": None,
            "hint_level": None,
        },
    ),
    ("solve", {"rack": ["K13", "B13", "O13"], "opened": False, "hint_level": "tile"}),
    # solve: missing, null where required, unknown fields, not an object
    ("solve", {}),
    ("solve", {"rack": None}),
    ("solve", {"rack": ["R1"], "colour": 1}),
    ("solve", []),
    ("solve", "R1 R2"),
    # solve: wrong types
    ("solve", {"rack": "R1 R2"}),
    ("solve", {"rack": [5]}),
    ("solve", {"rack": [], "table": [["R1", None]]}),
    ("solve", {"rack": [], "table": "R1 R2 R3"}),
    ("solve", {"rack": [], "opened": "yes"}),
    ("solve", {"rack": [], "opened": 1}),
    ("solve", {"rack": [], "time_limit_ms": 1.5}),
    # A decimal whose value is whole is that whole number (JSON does not tell 100 from
    # 100.0 or 1e2): "must be a whole number, got 100.0". A fraction is still refused.
    ("solve", {"rack": ["R1"], "time_limit_ms": 1e2, "disruption_time_limit_ms": 0.0}),
    ("solve", {"rack": ["R1"], "rules": {"jokers": 2.0}, "opponents": [{"rack_size": 5.0}]}),
    ("solve", {"rack": [], "time_limit_ms": 4e5}),
    ("solve", {"rack": [], "time_limit_ms": 1e300}),
    ("solve", {"rack": [5.0]}),
    ("solve", {"rack": [], "time_limit_ms": True}),
    ("solve", {"rack": [], "time_limit_ms": "5"}),
    ("solve", {"rack": [], "rules": []}),
    ("solve", {"rack": [], "rules": {"jokers": "2"}}),
    # solve: bad values
    ("solve", {"rack": ["Q5"]}),
    ("solve", {"rack": [], "time_limit_ms": 0}),
    ("solve", {"rack": [], "disruption_time_limit_ms": 300_001}),
    ("solve", {"rack": [], "objective": "fun"}),
    ("solve", {"rack": [], "hint_level": "all", "opened": 3}),
    ("solve", {"rack": [], "rules": {"wild": 1}}),
    ("solve", {"rack": [], "rules": {"numbers": 4, "min_set_len": 5}}),
    ("solve", {"rack": ["J", "J", "J"]}),
    ("solve", {"rack": [], "table": [["R1", "R2"]]}),
    # validate
    ("validate", {"rack": [], "table_before": [], "table_after": [], "opened": None}),
    ("validate", {"rack": ["R9"], "table_before": [], "table_after": [["R9"]], "rules": None}),
    ("validate", {"rack": [], "table_before": []}),
    ("validate", {"rack": [], "table_before": None, "table_after": []}),
    ("validate", {"rack": [], "table_before": [["R1"]], "table_after": []}),
    ("validate", {"rack": [], "table_before": [], "table_after": [], "bogus": 1}),
    ("validate", {"rack": ["R5", "B9"], "table_before": [], "table_after": [["R5", "B9"]]}),
    # repair
    ("repair", {"table": [["R1", "R2"], ["R3"]], "rack": ["R4"]}),
    (
        "repair",
        {
            "table": [["R1", "R2", "R3", "B9"]],
            "table_before": None,
            "rack": None,
            "opened": None,
            "objective": None,
            "rules": {"penalty_tiles": 2},
            "time_limit_ms": None,
        },
    ),
    ("repair", {}),
    ("repair", {"table": None}),
    ("repair", {"table": [["R1"]], "opened": False}),
    ("repair", {"table": [["R1", "R2"]], "table_before": [["R1", "R2"]]}),
    ("repair", {"table": [["Q1"]]}),
    ("repair", {"table": [], "time_limit_ms": 0}),
    # score
    ("score", {"racks": {"ann": [], "bob": ["R5", "J"]}, "rules": None}),
    ("score", {"racks": {}}),
    ("score", {"racks": None}),
    ("score", {"racks": {"": []}}),
    ("score", {"racks": {"a": "R5"}}),
    ("score", {"racks": {"a": ["R1", "R1", "R1"]}}),
    ("score", {"racks": {"a\u200b": []}}),
    # bot
    ("bot", {"bot": "greedy", "rack": ["R1", "R2", "R3"], "opponents": [{"rack_size": 5}]}),
    (
        "bot",
        {
            "bot": "strong",
            "rack": ["R1", "R2", "R3", "K11"],
            "table": None,
            "opened": None,
            "opponents": [{"rack_size": 5, "opened": None}],
            "rules": None,
            "seed": None,
        },
    ),
    ("bot", {"bot": "clever", "rack": [], "opponents": [{"rack_size": 5}]}),
    ("bot", {"bot": "greedy", "rack": []}),
    ("bot", {"bot": "greedy", "rack": [], "opponents": []}),
    ("bot", {"bot": "greedy", "rack": [], "opponents": [{"rack_size": 0}]}),
    ("bot", {"bot": "greedy", "rack": [], "opponents": [{"rack_size": 5, "seat": 1}]}),
    ("bot", {"bot": "greedy", "rack": [], "opponents": [{"rack_size": 200}]}),
    ("bot", {"bot": "greedy", "rack": [], "opponents": [{"rack_size": 5}], "seed": -1}),
    # game
    ("game", {"bots": ["beginner", "greedy"], "seed": 1, "settings": TINY_OPTIONS}),
    ("game", {"bots": ["greedy"]}),
    ("game", {"bots": ["greedy", 5]}),
    ("game", {"bots": ["greedy", "greedy"], "settings": {"hand": 60}}),
    ("game", {"bots": ["greedy", "greedy"], "settings": []}),
    (
        "game",
        {"bots": ["greedy", "greedy"], "seed": 1.0, "settings": {**TINY_OPTIONS, "hand": 5.0}},
    ),
    # review
    ("review", {"record": EXAMPLE_RECORD, "player": None, "objective": None}),
    ("review", {"record": EXAMPLE_RECORD, "player": 2}),
    ("review", {"record": EXAMPLE_RECORD, "objective": "fun"}),
    ("review", {"record": {**EXAMPLE_RECORD, "version": 3}}),
    ("review", {"record": None}),
    # Shanghai advise
    ("advise", {"hand": ["7H", "7S", "7D", "8C", "8D", "8S", "KD"], "hand_number": 1}),
    (
        "advise",
        {
            "hand": ["7h", "7S", "JK"],
            "hand_number": None,
            "contract": {"sets": [3], "runs": None},
            "table": None,
            "down": None,
            "upcard": None,
            "buys_left": None,
            "seen": None,
            "next_player": {"down": None, "took": None},
            "phase": "play",
            "rules": {"decks": None},
            "time_limit_ms": None,
        },
    ),
    ("advise", {"hand": ["7H"]}),
    ("advise", {"hand": ["7H"], "hand_number": 1, "contract": {"sets": [3]}}),
    # A player who is down needs no contract (null in the answer), and gives at most one.
    ("advise", {"hand": ["7H", "8H"], "down": True, "table": [{"cards": ["7S", "7D", "7C"]}]}),
    ("advise", {"hand": ["7H"], "down": True, "hand_number": 1, "contract": {"sets": [3]}}),
    ("advise", {"hand": [], "hand_number": 1}),
    ("advise", {"hand": ["7H"], "hand_number": 1, "next_player": {"x": 1}}),
    ("advise", {"hand": ["7H"], "contract": {"sets": ["3"]}}),
    ("advise", {"hand": ["7H"], "contract": {"sets": [2]}}),
    ("advise", {"hand": ["7H"], "hand_number": 9, "buys_left": 5}),
    ("advise", {"hand": ["7H", "7S"], "hand_number": 1.0, "buys_left": 2.0, "time_limit_ms": 3e4}),
    ("advise", {"hand": ["7H", "7S"], "contract": {"sets": [3.0, 3], "runs": [4e0]}}),
    ("advise", {"hand": ["7H", "7S"], "contract": {"sets": [3.5]}}),
    ("advise", {"hand": ["7H"], "hand_number": 1, "table": [{"cards": ["3S", "5S", "7S"]}]}),
    ("advise", {"hand": ["7H", "7H", "7h"], "hand_number": 1}),
    ("advise", {"hand": ["7H"], "hand_number": 1, "upcard": "ZZ", "phase": "later"}),
    # Shanghai score
    ("shanghai score", {"hands": {"ann": ["AS", "JK"], "bo": []}, "rules": None}),
    ("shanghai score", {}),
    ("shanghai score", {"hands": {}}),
    ("shanghai score", {"hands": {"ann": [], "bo": []}}),
    ("shanghai score", {"hands": {"ann": ["XX"]}}),
    ("shanghai score", {"hands": {"ann": ["7H", "7H", "7H"]}, "rules": {"decks": 1}}),
    # Shanghai review
    # Shanghai game
    ("shanghai game", {"bots": ["strong", "greedy"], "seed": 3, "settings": {"hands": 1}}),
    ("shanghai game", {"bots": ["greedy"]}),
    ("shanghai game", {"bots": ["greedy", "clever"]}),
    ("shanghai game", {"bots": ["greedy", "greedy"], "settings": {"hands": 11}}),
    ("shanghai game", {"bots": ["greedy", "greedy"], "settings": []}),
    ("shanghai game", {"bots": ["greedy", "greedy"], "settings": {"max_turns": 201}}),
    ("shanghai game", {"bots": ["greedy", "greedy"], "notation": "RBKO"}),
    ("shanghai review", {"record": SHANGHAI_RECORD, "player": None, "time_limit_ms": None}),
    ("shanghai review", {"record": SHANGHAI_RECORD, "player": 2}),
    ("shanghai review", {"record": SHANGHAI_RECORD, "player": 1.0, "time_limit_ms": 3e4}),
    ("shanghai review", {"record": {**SHANGHAI_RECORD, "seed": float(SHANGHAI_RECORD["seed"])}}),
    ("shanghai review", {"record": SHANGHAI_RECORD, "player": "1"}),
    ("shanghai review", {"record": {**SHANGHAI_RECORD, "version": 3}}),
    ("shanghai review", {"record": {**SHANGHAI_RECORD, "seed": SHANGHAI_RECORD["seed"] + 1}}),
    ("shanghai review", {"record": None}),
]


def library(name: str, request: Any) -> dict[str, Any]:
    """The library's verdict: ``{"ok": response}`` or ``{"error": message}``."""
    try:
        return {"ok": ENDPOINTS[name][0](request)}
    except MeldwiseError as error:
        return {"error": str(error)}


def refusal(name: str, request: Any) -> MeldwiseError:
    """The library's refusal of ``request``."""
    try:
        ENDPOINTS[name][0](request)
    except MeldwiseError as error:
        return error
    raise AssertionError(f"{name} accepted {request!r}")


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(Settings(workers=1, rate_limit=""))) as client:
        yield client


@pytest.mark.parametrize(("name", "request_"), ROWS)
def test_http_agrees_with_the_library(client: TestClient, name: str, request_: Any) -> None:
    expected = library(name, request_)
    answer = client.post(ENDPOINTS[name][1], json=request_)
    if "ok" in expected:
        assert answer.status_code == 200, answer.text
        assert answer.json() == expected["ok"]
    else:
        assert answer.status_code == 422
        # The places the library's error quotes, each as it is quoted in the detail.
        places = listed_places(refusal(name, request_))
        assert answer.json() == {"detail": expected["error"], "places": places}


@pytest.mark.parametrize(
    ("name", "request_"), [(name, r) for name, r in ROWS if ENDPOINTS[name][2] is not None]
)
def test_cli_json_agrees_with_the_library(
    name: str,
    request_: Any,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    expected = library(name, request_)
    command = ENDPOINTS[name][2]
    assert command is not None
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(request_)))
    code = main([*command, "--json"])
    out, err = capsys.readouterr()
    if "ok" in expected:
        assert (code, err) == (0, "")
        assert json.loads(out) == expected["ok"]
    else:
        assert (code, out) == (2, "")
        assert err == f"error: {expected['error']}\n"


@pytest.mark.parametrize("name", [name for name, (_, _, cli, _) in ENDPOINTS.items() if cli])
def test_cli_jsonl_agrees_with_the_library(name: str) -> None:
    requests = [r for row, r in ROWS if row == name]
    command = ENDPOINTS[name][2]
    assert command is not None
    done = run_solver_cli([*command, "--jsonl"], "".join(json.dumps(r) + "\n" for r in requests))
    assert done.returncode == 0, done.stderr
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    expected = [library(name, r) for r in requests]
    # A refused line says which it is (a blank line gets no answer).
    lines = [e.get("ok", {**e, "line": n}) for n, e in enumerate(expected, 1)]
    assert answers == lines


def _numbers(value: Any) -> Iterator[int | float]:
    """Every number in a request (booleans aside)."""
    if isinstance(value, dict):
        for item in value.values():
            yield from _numbers(item)
    elif isinstance(value, list):
        for item in value:
            yield from _numbers(item)
    elif isinstance(value, int | float) and not isinstance(value, bool):
        yield value


WHOLE_DECIMALS = [
    (name, request)
    for name, request in ROWS
    if any(isinstance(number, float) for number in _numbers(request))
]


@pytest.mark.parametrize(("name", "request_"), WHOLE_DECIMALS)
def test_a_decimal_whose_value_is_whole_reads_as_that_whole_number(
    name: str, request_: Any
) -> None:
    """Wherever a whole number is asked, 100.0 and 1e2 are 100 (the CLI and HTTP agree,
    above); a fraction is refused as before, and a whole number too large by its value."""
    fractions = [n for n in _numbers(request_) if isinstance(n, float) and not n.is_integer()]
    as_ints = json.loads(json.dumps(request_), parse_float=lambda text: int(float(text)))
    verdict = library(name, request_)
    if fractions:
        assert verdict == {"error": verdict["error"]}
        assert f"must be a whole number, got {fractions[0]}" in verdict["error"]
    elif any(abs(n) >= 1e20 for n in _numbers(request_)):
        # Named, as any field's refusal is (the page shows it by the field's label).
        assert verdict == {
            "error": "'time_limit_ms' must be a whole number of fewer digits, got 1e+300"
        }
    else:
        assert verdict == library(name, as_ints)
        assert "must be a whole number" not in str(verdict)


def test_every_row_is_an_edge_both_ways() -> None:
    # The table holds accepted and refused requests of every endpoint.
    verdicts = {(name, "ok" in library(name, request)) for name, request in ROWS}
    assert verdicts == {(name, ok) for name in ENDPOINTS for ok in (True, False)}


@pytest.mark.parametrize(("name", "request_"), ROWS)
def test_answers_are_what_the_response_models_declare(name: str, request_: Any) -> None:
    answer = library(name, request_).get("ok")
    if answer is not None:
        assert_declared(ENDPOINTS[name][3], answer)

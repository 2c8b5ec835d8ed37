"""The whole-game endpoints in process: bot, game and review answer what the library
answers, bad requests name the culprit, a review takes a record-sized body."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api import bodies, worker
from api.main import create_app
from api.settings import Settings
from solver import MeldwiseError, solve_rummikub
from solver.cpsat import game_budget
from solver.rummikub import review as rummikub_review
from solver.rummikub.game_wire import (
    MAX_GAME_TILES,
    MAX_REVIEW_TURNS,
    BotRequest,
    GameRequest,
    ReviewRequest,
    bot_rummikub,
    game_rummikub,
    review_rummikub,
)
from solver.rummikub.legality import check_play
from solver.rummikub.notation import parse_tiles
from solver.rummikub.rules import Rules
from tests.api.support import in_order, seconds_allowed, slow_request
from tests.rummikub.games_support import TINY_OPTIONS, shanghai_record

BOT = "/v1/rummikub/bot"
GAME = "/v1/rummikub/game"
REVIEW = "/v1/rummikub/review"
HANDLERS = {BOT: bot_rummikub, GAME: game_rummikub, REVIEW: review_rummikub}
POSITION: dict[str, Any] = {
    "rack": ["R1", "R2", "R3", "B9", "K9", "O9", "J", "K11", "O4"],
    "table": [["R10", "R11", "R12"], ["B5", "K5", "O5"]],
    "opponents": [{"rack_size": 9, "opened": True}],
}


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(Settings(workers=1))) as client:
        yield client


@pytest.fixture(scope="module")
def record(client: TestClient) -> dict[str, Any]:
    answer = client.post(GAME, json={"bots": ["strong", "greedy"], "seed": 2})
    assert answer.status_code == 200
    body: dict[str, Any] = answer.json()
    assert in_order(body) == in_order(game_rummikub({"bots": ["strong", "greedy"], "seed": 2}))
    record: dict[str, Any] = body["record"]
    return record


@pytest.mark.parametrize("bot", ["beginner", "greedy", "strong"])
def test_bot_answers_a_legal_move_as_the_library_does(client: TestClient, bot: str) -> None:
    request = {**POSITION, "bot": bot}
    answer = client.post(BOT, json=request)
    assert answer.status_code == 200
    body = answer.json()
    assert in_order(body) == in_order(bot_rummikub(request))
    after = [parse_tiles(tiles) for tiles in body["table"]]
    before = [parse_tiles(tiles) for tiles in POSITION["table"]]
    verdict = check_play(parse_tiles(POSITION["rack"]), before, after, True, Rules())
    assert verdict.legal or body["action"] == "draw"
    assert sorted(map(str, verdict.played)) == sorted(body["played"])
    # R1 R2 R3 and B9 K9 O9 stand alone, the joker goes anywhere; K11 and O4 fit nowhere.
    assert body["best_tiles"] == 7
    if bot == "strong":
        assert body["action"] == "draw"
        assert "2 sets that stand on the rack alone" in body["reason"]
    if bot == "greedy":
        assert len(body["played"]) == body["best_tiles"]


def test_review_answers_what_the_library_answers(
    client: TestClient, record: dict[str, Any]
) -> None:
    body = json.dumps({"record": record})
    assert len(body) > Settings().body_limit_bytes, "a record is larger than a position"
    answer = client.post(REVIEW, content=body, headers={"Content-Type": "application/json"})
    assert answer.status_code == 200
    assert in_order(answer.json()) == in_order(review_rummikub({"record": record}))
    one = client.post(REVIEW, json={"record": record, "player": 1}).json()
    assert {t["player"] for t in one["turns"]} == {1}


def test_a_review_names_a_tile_the_record_lacks_in_the_requests_notation(
    client: TestClient,
) -> None:
    # The record was read before the notation: "this game's colours are R B K O".
    turn = {"player": 0, "rack": ["R1"], "table_before": [], "action": "draw", "drawn": "R13"}
    turns = [{**turn, "turn": 1}, {**turn, "turn": 2, "player": 1, "rack": ["G4"]}]
    request = {"record": {"turns": turns}, "notation": "RBYK"}
    answer = client.post(REVIEW, json=request)
    assert answer.status_code == 422
    detail = "record: turns[1].rack: unknown tile 'G4': this game's colours are R B K Y"
    assert answer.json()["detail"] == detail == _library_error(review_rummikub, request)
    refused = client.post(REVIEW, json={**request, "notation": "RBYQ"})
    assert refused.status_code == 422
    assert refused.json()["detail"] == "'notation' must be 'RBKO' or 'RBYK', got 'RBYQ'"


def test_the_server_process_never_reads_a_whole_game_body(
    client: TestClient, record: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server process read and checked the body of a bot move, a bot game or a
    review before a worker answered it: 0.8 s of its CPU (every other request
    waiting) for one record within the record limit (175,000 empty table sets), 15-20
    ms for a bot move's 16 KB of them. The worker reads them, as a solve's."""

    def not_here(*_: Any, **__: Any) -> Any:
        raise AssertionError("the server process read a whole-game body")

    asked = {
        BOT: {**POSITION, "bot": "greedy"},
        GAME: {"bots": ["greedy", "greedy"], "seed": 3, "settings": TINY_OPTIONS},
        REVIEW: {"record": record, "player": 1},
    }
    expected = {path: HANDLERS[path](request) for path, request in asked.items()}
    empty_sets = {**record, "turns": [{**record["turns"][0], "table_before": [[]] * 1000}]}
    bad = {
        BOT: {**POSITION, "bot": "greedy", "table": [[]] * 1000},
        GAME: {"bots": ["greedy", "greedy"], "settings": {"hand": [[]] * 1000}},
        REVIEW: {"record": empty_sets},
    }
    problems = {path: _library_error(HANDLERS[path], request) for path, request in bad.items()}
    monkeypatch.setattr(bodies, "read_body", not_here)
    for model in (BotRequest, GameRequest, ReviewRequest):
        monkeypatch.setattr(model, "model_validate", not_here)
    for path, request in asked.items():
        answer = client.post(path, json=request)
        assert answer.status_code == 200, answer.text
        assert in_order(answer.json()) == in_order(expected[path])
        refused = client.post(path, json=bad[path])
        assert refused.status_code == 422
        assert refused.json()["detail"] == problems[path]


def _library_error(handler: Any, request: dict[str, Any]) -> str:
    with pytest.raises(MeldwiseError) as refused:
        handler(request)
    return str(refused.value)


@pytest.mark.parametrize(
    ("record", "detail"),
    [
        (
            shanghai_record(),
            "'record.format' is 'meldwise-shanghai-game': a record of that game is reviewed with"
            " meldwise shanghai review (HTTP: POST /v1/shanghai/review)",
        ),
        # A seed no game deals from (meldwise game --seed's bounds) was read.
        ({"seed": -1, "turns": []}, "'record.seed' must be at least 0, got -1"),
    ],
    ids=["shanghai", "seed"],
)
def test_a_review_of_a_record_it_cannot_read_names_the_one_culprit(
    client: TestClient, record: dict[str, Any], detail: str
) -> None:
    """A Shanghai record was refused for its format, then for each field it lacks or
    has that Rummikub's does not."""
    answer = client.post(REVIEW, json={"record": record})
    assert answer.status_code == 422
    assert answer.json()["detail"] == detail == _library_error(review_rummikub, {"record": record})


def test_a_review_body_over_the_record_limit_is_refused(client: TestClient) -> None:
    limit = Settings().record_body_limit_bytes
    answer = client.post(
        REVIEW, content=b" " * (limit + 1), headers={"Content-Type": "application/json"}
    )
    assert answer.status_code == 413
    assert str(limit) in answer.json()["detail"]


def _turns(record: dict[str, Any], count: int) -> dict[str, Any]:
    """``record`` without its deal and result, its turns repeated up to ``count``
    (a review needs only the turns, each standing alone)."""
    turns = [{**record["turns"][n % len(record["turns"])], "turn": n + 1} for n in range(count)]
    return {
        "format": record["format"],
        "version": record["version"],
        "settings": record["settings"],
        "turns": turns,
    }


def test_a_review_within_the_documented_limits_is_answered(
    client: TestClient, record: dict[str, Any]
) -> None:
    # 350 turns in under 512 KiB: its answer (over 256 KiB) was refused as too large.
    long = _turns(record, 350)
    body = json.dumps({"record": long}).encode()
    assert len(body) <= Settings().record_body_limit_bytes
    answer = client.post(REVIEW, content=body, headers={"Content-Type": "application/json"})
    assert answer.status_code == 200, answer.text
    assert len(answer.content) > 256 * 1024
    assert len(answer.json()["turns"]) == 350


def test_the_api_docs_name_the_limits_of_a_game_and_a_review(client: TestClient) -> None:
    """A review of more than 400 turns and a bot game of more than 212 tiles get 422,
    which the API docs did not list (and they listed a record that does not read among
    the bot's)."""
    paths = client.get("/openapi.json").json()["paths"]

    def refusals(path: str) -> str:
        return str(paths[path]["post"]["responses"]["422"]["description"])

    assert f"a record of more than {MAX_REVIEW_TURNS} turns" in refusals(REVIEW)
    assert f"more than {MAX_GAME_TILES} tiles" in refusals(GAME)
    assert "record" not in refusals(BOT)
    assert "MELDWISE_GAME_BUDGET_MS" in paths[REVIEW]["post"]["description"]


@pytest.mark.parametrize(
    ("change", "unreviewed"),
    [
        ({"table_before": [["R5", "B5", "J(K6)"]]}, "its joker cannot stand for K6"),
        ({"rack": ["R5", "R5", "R5"]}, "too many copies of R5"),
    ],
)
def test_a_review_answers_the_positions_its_api_docs_do_not_list_as_refused(
    client: TestClient, change: dict[str, Any], unreviewed: str
) -> None:
    """An invalid table set and more copies of a tile than the game has make a turn
    unreviewed, answered (docs/games.md); the API docs listed them as 422's."""
    turn = {"turn": 1, "player": 0, "rack": ["R1"], "table_before": [], "action": "pass"}
    record = {"format": "meldwise-rummikub-game", "version": 1, "turns": [{**turn, **change}]}
    answer = client.post(REVIEW, json={"record": record})
    assert answer.status_code == 200, answer.text
    assert unreviewed in answer.json()["turns"][0]["unreviewed"]
    refused = client.get("/openapi.json").json()["paths"][REVIEW]["post"]["responses"]["422"]
    assert "invalid table set" not in refused["description"]
    assert "more copies of a tile" not in refused["description"]


def _hard_record(turns: int) -> dict[str, Any]:
    """A record of ``turns`` turns each facing a big-variant position whose best CP-SAT
    does not prove in its time limit (:func:`~tests.api.support.slow_request`): both
    players open with the same run, then draw."""
    position = slow_request(2000)
    rack, table = position["rack"], position["table"]
    opening = ["B24", "B25", "B26"]
    assert all(tile in rack for tile in opening)
    entries = [
        {"turn": n + 1, "player": n % 2, "rack": rack, "table_before": table}
        | (
            {"action": "play", "played": opening, "table_after": [*table, opening]}
            if n < 2
            else {"action": "draw", "drawn": "R1"}
        )
        for n in range(turns)
    ]
    settings = {"rules": position["rules"], "players": 2}
    return {
        "format": "meldwise-rummikub-game",
        "version": 1,
        "settings": settings,
        "turns": entries,
    }


def test_the_turns_of_a_review_share_the_game_budget() -> None:
    """Each turn's solve stopped at the time limit alone, and the watchdog allowed the
    game budget plus the turns times it: 20 turns of a hard position (23 KB) were
    answered 503 at the 30 s request timeout while their worker went on for 40 s, and 400
    (476 KB, within the record limit) could hold it for 13 minutes. The turns reviewed
    now share the game budget."""
    settings = Settings(workers=1, rate_limit="", game_budget_ms=1000)
    with TestClient(create_app(settings)) as small:
        start = time.monotonic()
        answer = small.post(REVIEW, json={"record": _hard_record(10), "time_limit_ms": 2000})
        took = time.monotonic() - start
    assert answer.status_code == 200, answer.text
    turns = answer.json()["turns"]
    assert len(turns) == 10
    assert {turn["best"]["status"] for turn in turns[2:]} <= {"feasible", "unknown"}
    # 8 unproven turns took 2 s each (16 s); now they share 1 s.
    assert took < 8, took


def test_a_game_past_the_game_budget_is_a_422_naming_the_rules_not_a_503() -> None:
    """A game longer than the server's game budget ran until the watchdog replaced its
    worker, and was answered 503 "...; try again": the same request plays the same game,
    so it never could. The margin is the watchdog's: past it a loaded worker is a 503."""
    settings = Settings(workers=1, rate_limit="", game_budget_ms=1000, watchdog_margin_ms=60_000)
    request = {"bots": ["strong", "strong"], "seed": 1, "settings": {"rules": {"copies": 4}}}
    with TestClient(create_app(settings)) as small:
        answer = small.post(GAME, json=request)
    assert answer.status_code == 422, answer.text[:300]
    body = answer.json()
    assert body["detail"].startswith(
        "settings: 'rules' make a game of 210 tiles, which ran past this server's game budget"
        " of 1000 ms of work at turn "
    )
    assert body["detail"].endswith("; ask for fewer tiles")
    assert [place["field"] for place in body["places"]] == [["settings"], ["settings", "rules"]]
    # Counted in work, it is the library's refusal word for word, on any load.
    with game_budget(1000), pytest.raises(MeldwiseError) as refused:
        game_rummikub(request)
    assert body["detail"] == str(refused.value)
    assert " ms counted: " in body["detail"]


def test_a_review_over_the_answer_limit_says_what_to_send_instead(
    record: dict[str, Any],
) -> None:
    settings = Settings(workers=1, rate_limit="", max_answer_bytes=8192)
    with TestClient(create_app(settings)) as small:
        answer = small.post(REVIEW, json={"record": _turns(record, 20)})
        assert answer.status_code == 422
        detail = answer.json()["detail"]
        assert "review fewer turns" in detail
        assert "8192" in detail
        assert "position" not in detail
        assert small.post(REVIEW, json={"record": _turns(record, 2)}).status_code == 200


@pytest.mark.parametrize(
    ("path", "request_body", "detail"),
    [
        (
            BOT,
            {**POSITION, "bot": "clever"},
            "'bot' must be 'beginner', 'greedy' or 'strong', got 'clever'",
        ),
        (BOT, {**POSITION, "bot": "strong", "rack": ["Q5"]}, "unknown tile 'Q5'"),
        (
            BOT,
            {"bot": "strong", "rack": ["R1"], "opponents": []},
            "'opponents' must hold at least 1, got 0",
        ),
        (
            BOT,
            {"bot": "strong", "rack": ["R1"], "opponents": [{"rack_size": 106}]},
            "the other players' racks ('opponents') hold 106 tiles, but the game leaves only"
            " 105 tiles off 'rack' and 'table'",
        ),
        (
            GAME,
            {"bots": ["strong"]},
            "bots: give one bot per seat, 2 to 4 bots (e.g. strong and greedy); got 1: strong",
        ),
        (
            GAME,
            {"bots": ["strong", "greedy"], "settings": {"hand": 60}},
            "2 hands of 60 need 120 tiles",
        ),
        (
            GAME,
            {"bots": ["strong", "greedy"], "settings": {"players": 3}},
            "game setting 'players' is 3, but 2 bots are seated",
        ),
        # '2' was once told that 2 bots are seated; [] was once the standard rules.
        (
            GAME,
            {"bots": ["strong", "greedy"], "settings": {"players": "2"}},
            "settings: 'players' must be a whole number, got '2'",
        ),
        (
            GAME,
            {"bots": ["strong", "greedy"], "settings": {"rules": []}},
            "settings.rules: rules must be an object of settings, got []",
        ),
        (
            REVIEW,
            {"record": {"turns": [], "version": 3}},
            "'record.version' is 3: the record is of a newer format (version 3) than this Meldwise"
            " reads (version 1)",
        ),
        (
            REVIEW,
            {
                "record": {
                    "turns": [
                        {
                            "turn": 1,
                            "player": 0,
                            "rack": ["R1"],
                            "table_before": [],
                            "action": "play",
                            "table_after": [["R1", "X"]],
                        }
                    ]
                }
            },
            "turns[0].table_after[0]: unknown tile 'X'",
        ),
    ],
)
def test_bad_requests_name_the_culprit(
    client: TestClient, path: str, request_body: dict[str, Any], detail: str
) -> None:
    answer = client.post(path, json=request_body)
    assert answer.status_code == 422, answer.text[:300]
    assert detail in answer.json()["detail"]
    # One contract: the library refuses the request with the same message.
    with pytest.raises(MeldwiseError) as raised:
        HANDLERS[path](request_body)
    assert str(raised.value) == answer.json()["detail"]


def test_a_small_variant_game_over_http(client: TestClient) -> None:
    request = {"bots": ["beginner", "strong", "greedy"], "seed": 4, "settings": TINY_OPTIONS}
    answer = client.post(GAME, json=request)
    assert answer.status_code == 200
    record = answer.json()["record"]
    assert record["players"] == ["beginner", "strong", "greedy"]
    assert record["settings"]["rules"] == TINY_OPTIONS["rules"]


def test_the_hint_adds_advice_when_given_opponents(client: TestClient) -> None:
    position = {"rack": ["R1", "R2", "R3", "K11", "O4", "J"], "table": [["K8", "K9", "K10"]]}
    plain = client.post("/v1/rummikub/solve", json=position).json()
    assert "advice" not in plain
    request = {**position, "opponents": [{"rack_size": 9}], "hint_level": "tile"}
    answer = client.post("/v1/rummikub/solve", json=request)
    assert answer.status_code == 200
    assert in_order(answer.json()) == in_order(solve_rummikub(request))
    assert answer.json()["advice"]["holds_back"] is True


def test_the_game_routes_take_a_notation(client: TestClient, record: dict[str, Any]) -> None:
    # Bot, game and review had no notation: a Japanese player got O11 where solve says Y11.
    request = {**POSITION, "bot": "greedy", "notation": "RBYK"}
    body = client.post(BOT, json=request).json()
    assert in_order(body) == in_order(bot_rummikub(request))
    assert any("Y5" in tiles for tiles in body["table"])
    game = client.post(GAME, json={"bots": ["greedy", "greedy"], "seed": 2, "notation": "RBYK"})
    assert '"Y' in game.text
    assert '"O' not in game.text
    review = client.post(REVIEW, json={"record": record, "player": 1, "notation": "RBYK"})
    assert in_order(review.json()) == in_order(
        review_rummikub({"record": record, "player": 1, "notation": "RBYK"})
    )
    assert '"Y' in review.text
    assert '"O' not in review.text


def test_a_bots_table_keeps_what_each_joker_stands_for(client: TestClient) -> None:
    # The answer wrote the bot's table with plain jokers (J R5 R6 for J(R4)): sent back,
    # a set such as the group J K1 (min_set_len 2) reads as the run K1 K2. The engine
    # keeps the brackets; the library answer and HTTP now do too.
    body = {
        "rack": ["B9", "B10", "B11", "K2"],
        "table": [["R5", "R6", "J(R4)"], ["O1", "O2", "O3"]],
        "opened": True,
        "bot": "greedy",
        "opponents": [{"rack_size": 9, "opened": True}],
        "rules": {"joker_retrieval": "replace"},
    }
    library = bot_rummikub(dict(body))
    # The set the bot leaves alone comes back as it was given.
    assert ["R5", "R6", "J(R4)"] in library["table"]
    answered = client.post("/v1/rummikub/bot", json=body)
    assert answered.status_code == 200
    assert answered.json() == library


def test_a_bot_move_for_an_empty_rack_is_refused(client: TestClient) -> None:
    # The player has gone out and the round is over: /bot answered "draw" (200).
    request = {"bot": "greedy", "rack": [], "opponents": [{"rack_size": 3}], "lang": "ja"}
    answer = client.post(BOT, json=request)
    assert answer.status_code == 422
    assert answer.json()["detail"] == _library_error(bot_rummikub, request)
    assert answer.json()["detail"].startswith("'rack' \u304c\u7a7a\u3067\u3059")


def test_a_turn_of_a_long_review_may_use_its_whole_time_limit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The turns reviewed share the game budget as one clock, the outer cap, as
    Shanghai's do: each turn's solve may run its whole time limit while it lasts (each
    was given the budget over the turns, a cut the load decided)."""
    allowed = seconds_allowed(monkeypatch, rummikub_review, "solve")
    request = {"record": game_rummikub({"bots": ["greedy", "greedy"], "seed": 1})["record"]}
    turns = len(request["record"]["turns"])  # every player's: the review's turns
    caps = {"time_limit_ms": 2000, "game_budget_ms": 500 * turns}  # 500 ms a turn
    worker.raw_answer("review_rummikub", json.dumps(request), "en", caps)
    assert len(allowed) == turns
    assert 1.5 < max(allowed) <= 2.0


def test_a_review_past_the_game_budget_says_its_turns_were_cut() -> None:
    request = {"record": game_rummikub({"bots": ["greedy", "greedy"], "seed": 1})["record"]}
    caps = {"time_limit_ms": 2000, "game_budget_ms": 1}
    data, status = worker.raw_answer("review_rummikub", json.dumps(request), "en", caps)
    answer = json.loads(data)
    assert answer["time_capped"] is True
    assert status == answer["status"] != "optimal"
    cut = [turn["best"] for turn in answer["turns"] if turn["best"] and turn["best"]["time_capped"]]
    assert cut
    assert all(best["status"] != "optimal" for best in cut)

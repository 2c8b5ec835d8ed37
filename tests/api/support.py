"""Shared by the HTTP service tests: app start-up, a slow position, legality checks."""

from __future__ import annotations

import random
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from benchmarks.shanghai_speed import deal
from solver.cpsat import Limit
from solver.errors import MeldwiseError
from solver.rummikub import Position, Rules
from solver.rummikub.deal import random_position
from solver.rummikub.legality import check_play
from solver.rummikub.notation import parse_tiles

SOLVE = "/v1/rummikub/solve"
VALIDATE = "/v1/rummikub/validate"
REPAIR = "/v1/rummikub/repair"
SCORE = "/v1/rummikub/score"
SHANGHAI_ADVISE = "/v1/shanghai/advise"
SHANGHAI_SCORE = "/v1/shanghai/score"

BIG_RULES = Rules(colours=6, numbers=26, copies=3, jokers=4)


def shanghai_deal(seed: int, hand_number: int, down: bool) -> dict[str, Any]:
    """A Shanghai advice request for a random deal of the speed benchmark: not down,
    12 cards and 0-4 table melds; down, 3-8 cards and 4-8 melds (jokers included)."""
    position = deal(random.Random(seed), hand_number, down)
    return {
        "hand": [str(c) for c in position.hand],
        "hand_number": hand_number,
        "table": [
            {"cards": [str(c) for c in item.meld.cards], "owner": item.owner}
            for item in position.table
        ],
        "down": position.down,
        "upcard": None if position.upcard is None else str(position.upcard),
        "buys_left": position.buys_left,
    }


def slow_request(time_limit_ms: int) -> dict[str, Any]:
    """A big-variant position (38 table tiles, 110 on the rack) whose best score CP-SAT
    does not prove within the score stage's work bound (4.8 s on this project's 2-core
    machine): every solve of it runs until its time limit (``time_limit_ms``) on any
    machine less than three times as fast, and a cap of 20 ms cuts it short. (A
    position that CP-SAT proves gets faster with the machine: the one used before took
    0.27 s on a faster machine, under a test's request timeout of 0.3 s.)"""
    position = random_position(
        random.Random(1545), BIG_RULES, 34, 110, table_jokers=2, rack_jokers=1
    )
    return {
        "rack": [str(t) for t in position.rack],
        "table": [[str(t) for t in tiles] for tiles in position.table],
        "rules": BIG_RULES.to_dict(),
        "time_limit_ms": time_limit_ms,
    }


def in_order(value: Any) -> Any:
    """``value`` with each JSON object as the list of its (key, value) pairs: two answers
    compare equal only with their keys in the same order too (``==`` of dicts ignores
    it), as a client reading the JSON text sees them."""
    if isinstance(value, dict):
        return [(key, in_order(item)) for key, item in value.items()]
    if isinstance(value, list):
        return [in_order(item) for item in value]
    return value


def listed_places(error: MeldwiseError) -> list[dict[str, Any]]:
    """The places the library's ``error`` quotes as a 422's body lists them, when its
    detail is sent whole: a key that does not print written with its escapes, as in the
    detail."""

    def sent(part: int | str) -> int | str:
        if isinstance(part, int):
            return part
        return "".join(c if c.isprintable() else ascii(c)[1:-1] for c in part)

    return [{"field": [sent(p) for p in path], "quoted": shown} for path, shown in error.places]


@asynccontextmanager
async def async_client(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    """An async client on the in-process app with its lifespan (and solver workers) running."""
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            yield client


def assert_legal_response(request: dict[str, Any], response: dict[str, Any]) -> None:
    """The answer to a solve request is a legal move from the position asked about."""
    position = Position.parse(
        request["rack"], request.get("table", []), request.get("opened", True)
    )
    rules = Rules.from_dict(request.get("rules", {}))
    # Each joker written as its "as" says, as a client writes an answer back (plain,
    # "J J O2" under wrap_runs reads as the run O5 O1 O2, not the group it is).
    after = [
        parse_tiles(
            [f"J({a})" if t == "J" else t for t, a in zip(m["tiles"], m["as"], strict=True)]
        )
        for m in response["table"]
    ]
    verdict = check_play(position.rack, position.table, after, position.opened, rules)
    assert verdict.legal, verdict.problems
    assert sorted(str(t) for t in verdict.played) == sorted(response["played"])


def seconds_allowed(monkeypatch: pytest.MonkeyPatch, module: Any, name: str) -> list[float]:
    """The wall-clock seconds each call of ``module.name`` (a solve given a ``limit``)
    is allowed from when it starts, appended as it is called."""
    solving = getattr(module, name)
    allowed: list[float] = []

    def spy(*args: Any, limit: Limit, **kwargs: Any) -> Any:
        deadline = limit.deadline  # None: each search has the whole time of its own
        allowed.append(limit.time if deadline is None else deadline - time.perf_counter())
        return solving(*args, limit=limit, **kwargs)

    monkeypatch.setattr(module, name, spy)
    return allowed

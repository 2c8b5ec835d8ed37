"""Shared by the HTTP service tests: app start-up, a slow position, legality checks."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
from fastapi import FastAPI

from benchmarks.shanghai_speed import deal
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

BIG_RULES = Rules(colours=8, numbers=26, copies=3, jokers=4)


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
    """A big-variant position (250 table tiles, 60 on the rack): about 20 ms to build
    its model and 100 ms more to prove optimal on this project's 2-core machine, so a
    20 ms cap cuts it short and a worker stays busy with it for a while."""
    position = random_position(random.Random(1), BIG_RULES, 250, 60, table_jokers=2, rack_jokers=2)
    return {
        "rack": [str(t) for t in position.rack],
        "table": [[str(t) for t in tiles] for tiles in position.table],
        "rules": BIG_RULES.to_dict(),
        "time_limit_ms": time_limit_ms,
    }


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
    after = [parse_tiles(meld["tiles"]) for meld in response["table"]]
    verdict = check_play(position.rack, position.table, after, position.opened, rules)
    assert verdict.legal, verdict.problems
    assert sorted(str(t) for t in verdict.played) == sorted(response["played"])

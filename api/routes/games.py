"""``/v1/rummikub``: whole games: a bot's move, a bot game, a game review. Each route
translates and delegates to :mod:`solver.rummikub.game_wire`, in the solver workers."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from api.deps import PoolDep, SettingsDep
from api.errors import BUSY, documented_errors
from api.schemas_games import (
    BotRequest,
    BotResponse,
    GameRequest,
    GameResponse,
    ReviewRequest,
    ReviewResponse,
)
from solver.rummikub.game_wire import bot_rummikub, game_rummikub, review_rummikub

router = APIRouter(prefix="/v1/rummikub", tags=["rummikub games"])
REVIEW_PATH = "/v1/rummikub/review"
"""The review takes a whole game record: its body limit is the record limit."""

BAD_INPUT = documented_errors(
    "an unknown field, bot or tile, more copies of a tile than the game has, an invalid "
    "table set, a bad setting, a game record that does not read"
)


@router.post("/bot", response_model=BotResponse, responses={**BAD_INPUT, **BUSY})
async def bot(body: BotRequest, pool: PoolDep) -> dict[str, Any]:
    """A bot's move for a position: beginner, greedy (the best play) or strong (plays
    to win: it may hold tiles back, and says why)."""
    return await pool.solve(bot_rummikub, body.model_dump(mode="json", exclude_unset=True))


@router.post("/game", response_model=GameResponse, responses={**BAD_INPUT, **BUSY})
async def game(body: GameRequest, pool: PoolDep) -> dict[str, Any]:
    """A whole seeded game between bots, answered as its game record."""
    return await pool.solve(game_rummikub, body.model_dump(mode="json", exclude_unset=True))


@router.post("/review", response_model=ReviewResponse, responses={**BAD_INPUT, **BUSY})
async def review(body: ReviewRequest, pool: PoolDep, settings: SettingsDep) -> dict[str, Any]:
    """Each turn of a game record beside its best play (proven), what it missed and
    whether it was legal; each player's accuracy, costliest turns and a per-turn series.
    Each turn's solve stops at ``time_limit_ms``, never later than the server's cap."""
    request = body.model_dump(mode="json", exclude_unset=True)
    request["record"] = body.record.model_dump(mode="json", exclude_none=True)
    request["time_limit_ms"] = min(body.time_limit_ms, settings.time_cap_ms)
    if body.player is None:
        request.pop("player", None)
    return await pool.solve(review_rummikub, request)

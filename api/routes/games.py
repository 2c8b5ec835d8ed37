"""``/v1/rummikub``: whole games: a bot's move, a bot game, a game review. Each route
translates and delegates to :mod:`solver.rummikub.game_wire`, in the solver workers."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse
from pydantic import BaseModel

from api.bodies import JSONRoute
from api.deps import ClientDep, PoolDep, SettingsDep
from api.errors import documented_errors
from api.language import localise
from solver.rummikub.game_wire import (
    MAX_GAME_TILES,
    MAX_REVIEW_TURNS,
    BotRequest,
    BotResponse,
    GameRequest,
    GameResponse,
    ReviewRequest,
    ReviewResponse,
    bot_rummikub,
    game_rummikub,
    review_rummikub,
)
from solver.wire import AS_WRITTEN

router = APIRouter(prefix="/v1/rummikub", tags=["rummikub games"], route_class=JSONRoute)
REVIEW_PATH = "/v1/rummikub/review"
"""The review takes a whole game record: its body limit is the record limit."""

CULPRITS = (
    "an unknown field, bot or tile, more copies of a tile than the game has, an invalid "
    "table set, a bad setting"
)
BAD_INPUT = documented_errors(CULPRITS)
GAME_BAD_INPUT = documented_errors(
    f"{CULPRITS}, rules that make a game of more than {MAX_GAME_TILES} tiles"
)
REVIEW_BAD_INPUT = documented_errors(
    f"{CULPRITS}, a game record that does not read, a record of more than {MAX_REVIEW_TURNS} turns"
)


@router.post("/bot", response_model=BotResponse, responses=BAD_INPUT)
async def bot(
    body: BotRequest, pool: PoolDep, settings: SettingsDep, client: ClientDep
) -> JSONResponse:
    """A bot's move for a position: beginner, greedy (the best play) or strong (plays
    to win: it may hold tiles back, and says why)."""
    request = localise(body)
    answer = await pool.run(
        bot_rummikub, request, client=client, budget_s=settings.game_budget_ms / 1000
    )
    return _as_written(BotResponse, answer)


@router.post("/game", response_model=GameResponse, responses=GAME_BAD_INPUT)
async def game(
    body: GameRequest, pool: PoolDep, settings: SettingsDep, client: ClientDep
) -> dict[str, Any]:
    """A whole seeded game between bots: its game record (``record``), and ``status``
    ``optimal`` when every solve the bots made was proven."""
    request = localise(body)
    return await pool.run(
        game_rummikub, request, client=client, budget_s=settings.game_budget_ms / 1000
    )


@router.post("/review", response_model=ReviewResponse, responses=REVIEW_BAD_INPUT)
async def review(
    body: ReviewRequest, pool: PoolDep, settings: SettingsDep, client: ClientDep
) -> JSONResponse:
    """Each turn of a game record beside its best play (proven), what it missed and
    whether it was legal; each player's accuracy, costliest turns and a per-turn series.
    Each turn's solve stops at ``time_limit_ms``, never later than the server's cap, and
    the turns reviewed share the server's game budget (MELDWISE_GAME_BUDGET_MS): each
    stops within that budget over their number (a turn cut short has a best whose
    ``status`` is ``feasible`` or ``unknown``)."""
    request = localise(body)
    # As written: a joker written J(R4) in the record stands for R4, which decides its
    # set's reading (the library keeps it, and echoes it so).
    request["record"] = body.record.model_dump(mode="json", exclude_none=True, context=AS_WRITTEN)
    reviewed = [t for t in body.record.turns if body.player in (None, t.player)]
    request["time_limit_ms"] = settings.review_turn_ms(body.time_limit_ms, len(reviewed))
    limit_s = request["time_limit_ms"] / 1000
    if body.player is None:
        request.pop("player", None)
    # Each turn's solve has its time limit; the rest (replay, legality) is quick.
    budget_s = settings.game_budget_ms / 1000 + len(reviewed) * limit_s
    answer = await pool.run(review_rummikub, request, client=client, budget_s=budget_s)
    return _as_written(ReviewResponse, answer)


def _as_written(model: type[BaseModel], answer: dict[str, Any]) -> JSONResponse:
    """``answer`` checked against its response ``model`` and sent with each joker as
    the library wrote it (``J(R4)``): FastAPI's own dump of the model writes a plain
    ``J``, and the table sent back would read otherwise."""
    checked = model.model_validate(answer)
    return JSONResponse(
        checked.model_dump(mode="json", by_alias=True, exclude_unset=True, context=AS_WRITTEN)
    )

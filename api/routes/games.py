"""``/v1/rummikub``: whole games: a bot's move, a bot game, a game review. Each route
translates and delegates to :mod:`solver.rummikub.game_wire`, in the solver workers."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse
from pydantic import BaseModel

from api.bodies import JSONRoute, RequestRoute, json_body
from api.deps import ClientDep, PoolDep, SettingsDep, get_client, get_pool, get_settings
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


async def review(request: Request) -> Response:
    """Each turn of a game record beside its best play (proven), what it missed and
    whether it was legal; each player's accuracy, costliest turns and a per-turn series.
    Each turn's solve stops at ``time_limit_ms``, never later than the server's cap, and
    the turns reviewed share the server's game budget (MELDWISE_GAME_BUDGET_MS): each
    stops within that budget over their number (a turn cut short has a best whose
    ``status`` is ``feasible`` or ``unknown``)."""
    # The worker reads the record, shares the budget among its turns, reviews, checks
    # the answer against ReviewResponse and sends the bytes this route answers with:
    # the server process never parses a record, whose reading took it up to 0.8 s of
    # CPU for one body within the record limit (175,000 empty table sets), every
    # other request waiting meanwhile.
    settings, pool = await get_settings(request), await get_pool(request)
    caps = {"time_limit_ms": settings.time_cap_ms, "game_budget_ms": settings.game_budget_ms}
    # The watchdog's budget: the game budget, plus the turns' solves, which share it.
    budget_s = 2 * settings.game_budget_ms / 1000
    answer = await pool.answer_body(
        review_rummikub,
        await request.body(),
        client=await get_client(request),
        budget_s=budget_s,
        caps=caps,
    )
    return Response(answer, media_type="application/json")


router.add_api_route(
    REVIEW_PATH.removeprefix(router.prefix),
    review,
    methods=["POST"],
    response_model=ReviewResponse,
    responses=REVIEW_BAD_INPUT,
    openapi_extra=json_body(ReviewRequest),
    route_class_override=RequestRoute,
)


def _as_written(model: type[BaseModel], answer: dict[str, Any]) -> JSONResponse:
    """``answer`` checked against its response ``model`` and sent with each joker as
    the library wrote it (``J(R4)``): FastAPI's own dump of the model writes a plain
    ``J``, and the table sent back would read otherwise."""
    checked = model.model_validate(answer)
    return JSONResponse(
        checked.model_dump(mode="json", by_alias=True, exclude_unset=True, context=AS_WRITTEN)
    )

"""``/v1/shanghai``: advice for a turn and a hand's score. Each route translates and
delegates to :mod:`solver`."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from api.bodies import JSONRoute, RawBody, json_body
from api.deps import ClientDep, PoolDep, SettingsDep
from api.errors import documented_errors
from api.language import localise
from solver.shanghai.wire import (
    ShanghaiAdviseRequest,
    ShanghaiAdviseResponse,
    ShanghaiScoreRequest,
    ShanghaiScoreResponse,
    advise_shanghai,
    score_shanghai,
)

router = APIRouter(prefix="/v1/shanghai", tags=["shanghai"], route_class=JSONRoute)

BAD_INPUT = documented_errors(
    "an unknown field or card, more copies of a card than the decks hold, an invalid table "
    "meld, a bad contract or hand number, a bad setting"
)


@router.post("/advise", response_model=ShanghaiAdviseResponse, responses=BAD_INPUT)
async def advise(
    body: ShanghaiAdviseRequest, pool: PoolDep, settings: SettingsDep, client: ClientDep
) -> dict[str, Any]:
    """Advice for one turn: whether and how to go down, what to lay off, what to
    discard, whether to take or buy the upcard, and what the hand costs now. The
    turn's CP-SAT solves share ``time_limit_ms``, never more than the server's time
    cap (a turn cut by it has ``status`` ``feasible`` or ``unknown``; ``play_status``
    says whether the search for the turn's plays itself finished, so whether a null
    ``go_down`` means none is possible)."""
    request = localise(body)
    request["time_limit_ms"] = settings.capped_ms(body.time_limit_ms)
    budget_s = request["time_limit_ms"] / 1000
    return await pool.run(advise_shanghai, request, client=client, budget_s=budget_s)


@router.post(
    "/score",
    response_model=ShanghaiScoreResponse,
    responses=BAD_INPUT,
    openapi_extra=json_body(ShanghaiScoreRequest),
)
async def score(body: RawBody, pool: PoolDep, client: ClientDep) -> JSONResponse:
    """A hand's end: the penalty points each player's cards left cost."""
    answer = await pool.run_body(score_shanghai, body, client=client)
    return JSONResponse(answer)

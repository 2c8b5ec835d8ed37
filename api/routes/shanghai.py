"""``/v1/shanghai``: advice for a turn and a hand's score. Each route hands its body
to :mod:`solver`, in the solver workers, which read it (the server process only
glances at an advice's, with ``json.loads``, for its time limit and language)."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse

from api.bodies import JSONRoute, RawBody, RequestRoute, json_body
from api.deps import ClientDep, PoolDep
from api.errors import documented_errors
from api.worker_answers import answered_within_cap
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


async def advise(request: Request) -> Response:
    """Advice for one turn: whether and how to go down, what to lay off, what to
    discard, whether to take or buy the upcard, and what the hand costs now. The
    turn's CP-SAT solves share ``time_limit_ms``, never more than the server's time
    cap (a turn cut by it has ``status`` ``feasible`` or ``unknown``; ``play_status``
    says whether the search for the turn's plays itself finished, so whether a null
    ``go_down`` means none is possible)."""
    # Read here, a 16 KB body of 3,200 cards took the server process 7-10 ms of CPU,
    # every other request waiting.
    return await answered_within_cap(request, advise_shanghai)


router.add_api_route(
    "/advise",
    advise,
    methods=["POST"],
    response_model=ShanghaiAdviseResponse,
    responses=BAD_INPUT,
    openapi_extra=json_body(ShanghaiAdviseRequest),
    route_class_override=RequestRoute,
)


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

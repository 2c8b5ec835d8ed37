"""``/v1/rummikub``: solve, validate, repair and score. Each route translates and delegates
to :mod:`solver`."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse

from api.bodies import JSONRoute, RawBody, RequestRoute, json_body
from api.deps import ClientDep, PoolDep, get_settings
from api.errors import documented_errors
from api.worker_answers import answered, answered_within_cap, glanced
from solver.rummikub import DEFAULT_TIME_LIMIT
from solver.rummikub.wire import (
    RepairRequest,
    RepairResponse,
    ScoreRequest,
    ScoreResponse,
    SolveRequest,
    SolveResponse,
    ValidateRequest,
    ValidateResponse,
    repair_rummikub,
    score_rummikub,
    solve_rummikub,
    validate_rummikub,
)

router = APIRouter(prefix="/v1/rummikub", tags=["rummikub"], route_class=JSONRoute)

BAD_INPUT = documented_errors(
    "an unknown field or tile, more copies of a tile than the game has, an invalid table set, "
    "a bad setting"
)
SIZED_BAD_INPUT = documented_errors(
    "an unknown field or tile, more copies of a tile than the game has, an invalid table set, "
    "a bad setting, more tiles on the rack and table than the server solves at once "
    "(MELDWISE_MAX_SOLVE_TILES)"
)
SCORE_BAD_INPUT = documented_errors(
    "an unknown field or tile, more copies of a tile than the game has, more than one player "
    "out (several empty racks: only one player goes out), a bad setting"
)


async def solve(request: Request) -> Response:
    """The best play for a position, proven optimal unless a search stops first, at its
    deterministic work bound or the time limit (then ``status`` is ``feasible`` with the
    best play found, or ``unknown`` with no play; ``time_capped`` says whether the clock
    stopped it). With ``opponents``, the strong bot's advice too: its solves stop at
    their deterministic work bound, not the time limit, within the server's budget for
    a bot move (MELDWISE_GAME_BUDGET_MS), as ``/bot``."""
    # The worker reads the body, lowers its time limits to the server's caps, solves,
    # checks the answer against SolveResponse and sends the bytes this route answers
    # with: the solve is the route clients call most, so the server process, which
    # every request goes through, does none of that (nor resolves dependencies).
    settings = await get_settings(request)
    caps = {
        "time_limit_ms": settings.time_cap_ms,
        "disruption_time_limit_ms": settings.disruption_cap_ms,
    }
    limit_ms, advised = await glanced(request, settings, sized=True)
    # The time limit covers the search (the model building before it is bounded by
    # the size limit above); the pool allows any task at least the server's time cap.
    budget_s = settings.capped_ms(limit_ms) / 1000
    if advised:
        # The advice is the strong bot's decision, as /bot makes it: solves bounded by
        # their deterministic work, not by the clock (13 s of CPU on a 148-tile position
        # of a big variant), which the watchdog cut at the time cap (503, worker lost).
        budget_s += settings.game_budget_ms / 1000
    return await answered(request, solve_rummikub, budget_s, caps)


router.add_api_route(
    "/solve",
    solve,
    methods=["POST"],
    response_model=SolveResponse,
    # Only fields the library answered: advice appears only when asked for.
    response_model_exclude_unset=True,
    responses=SIZED_BAD_INPUT,
    openapi_extra=json_body(SolveRequest),
    route_class_override=RequestRoute,
)


@router.post(
    "/validate",
    response_model=ValidateResponse,
    responses=BAD_INPUT,
    openapi_extra=json_body(ValidateRequest),
)
async def validate(body: RawBody, pool: PoolDep, client: ClientDep) -> JSONResponse:
    """Check a move: every problem with it, each with the set it concerns (at most
    50: the last then says how many more there are), and for an illegal move whether
    it can still be put right, else the penalty."""
    # The worker reads the body (a move may be 16 KB of tiles): that CPU is the
    # client's share of the workers, not the server process's. An illegal move's
    # consequence is a solve within the default time limit.
    answer = await pool.run_body(
        validate_rummikub, body, client=client, budget_s=DEFAULT_TIME_LIMIT
    )
    return JSONResponse(answer)


async def repair(request: Request) -> Response:
    """Put a table that went wrong right: whether every tile fits into valid sets
    (proven), the arrangement closest to the table before the turn with steps from the
    table as it lies, else the fewest tiles left out and the penalty; with a rack, the
    best play that rescues the table."""
    # Read here, a 16 KB body of 5,300 empty table sets put the /healthz of others at
    # p99 72 ms under two such clients. Sized as a solve: a repair builds the same
    # model (and more), no time limit bounding that.
    return await answered_within_cap(request, repair_rummikub, sized=True)


router.add_api_route(
    "/repair",
    repair,
    methods=["POST"],
    response_model=RepairResponse,
    response_model_exclude_unset=True,  # the rescue play has no advice
    responses=SIZED_BAD_INPUT,
    openapi_extra=json_body(RepairRequest),
    route_class_override=RequestRoute,
)


@router.post(
    "/score",
    response_model=ScoreResponse,
    responses=SCORE_BAD_INPUT,
    openapi_extra=json_body(ScoreRequest),
)
async def score(body: RawBody, pool: PoolDep, client: ClientDep) -> JSONResponse:
    """End-of-round scores: each rack's penalty; a player who went out scores the
    sum of the others' penalties."""
    answer = await pool.run_body(score_rummikub, body, client=client)
    return JSONResponse(answer)

"""``/v1/rummikub``: solve, validate and score. Each route translates and delegates
to :mod:`solver`."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from api.deps import PoolDep, SettingsDep
from api.errors import BUSY, documented_errors
from api.schemas import (
    ScoreRequest,
    ScoreResponse,
    SolveRequest,
    SolveResponse,
    ValidateRequest,
    ValidateResponse,
)
from solver import score_rummikub, solve_rummikub, validate_rummikub

router = APIRouter(prefix="/v1/rummikub", tags=["rummikub"])

BAD_INPUT = documented_errors(
    "an unknown field or tile, more copies of a tile than the game has, an invalid table set, "
    "a bad setting"
)


@router.post(
    "/solve",
    response_model=SolveResponse,
    # Only fields the library answered: advice appears only when asked for.
    response_model_exclude_unset=True,
    responses={**BAD_INPUT, **BUSY},
)
async def solve(body: SolveRequest, pool: PoolDep, settings: SettingsDep) -> dict[str, Any]:
    """The best play for a position, proven optimal unless the time limit runs out
    (then ``status`` is ``feasible`` and the play is the best found)."""
    request = body.model_dump(mode="json", exclude_unset=True)
    request["time_limit_ms"] = min(body.time_limit_ms, settings.time_cap_ms)
    request["disruption_time_limit_ms"] = min(
        body.disruption_time_limit_ms, settings.disruption_cap_ms
    )
    return await pool.solve(solve_rummikub, request)


@router.post("/validate", response_model=ValidateResponse, responses=BAD_INPUT)
def validate(body: ValidateRequest) -> dict[str, Any]:
    """Check a move: every problem with it, each with the set it concerns."""
    return validate_rummikub(body.model_dump(mode="json", exclude_unset=True))


@router.post("/score", response_model=ScoreResponse, responses=BAD_INPUT)
def score(body: ScoreRequest) -> dict[str, Any]:
    """End-of-round scores: each rack's penalty; a player who went out scores the
    sum of the others' penalties."""
    return score_rummikub(body.model_dump(mode="json", exclude_unset=True))

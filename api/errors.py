"""Error answers: 400/422 naming the culprit, 503 with Retry-After, never a stack trace.

Every error body is ``{"detail": "..."}``. Details quote the offending field, tile,
set or setting, clipped to :data:`MAX_DETAIL` characters so a request body is
never echoed back whole.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from api.pool import Unavailable
from api.schemas import ErrorBody
from api.settings import Settings
from solver.errors import MeldwiseError

MAX_DETAIL = 400
"""Longest error detail sent back, in characters."""

MAX_LISTED = 5
"""Most schema problems listed in one answer."""


Responses = dict[int | str, dict[str, Any]]
"""A route's ``responses``: its error answers as the OpenAPI schema lists them."""


def documented_errors(culprits: str) -> Responses:
    """The answers every route with a JSON body may give instead of 200: 400, 413 and
    422, where ``culprits`` lists what makes a well-shaped request not a real game."""
    return {
        400: {"model": ErrorBody, "description": "The body is not valid JSON."},
        413: {"model": ErrorBody, "description": "The body is larger than the body limit."},
        422: {
            "model": ErrorBody,
            "description": f"Not a request of this shape, or not a real game: {culprits}.",
        },
    }


BUSY: Responses = {
    503: {
        "model": ErrorBody,
        "description": "Every solver worker is busy and the queue is full; retry after "
        "the Retry-After header's seconds.",
        "headers": {"Retry-After": {"schema": {"type": "integer"}, "description": "seconds"}},
    },
}
"""The extra answer of a route that solves in the worker pool."""


def install_error_handlers(app: FastAPI) -> None:
    app.add_exception_handler(RequestValidationError, _invalid_request)  # type: ignore[arg-type]
    app.add_exception_handler(MeldwiseError, _invalid_game)  # type: ignore[arg-type]
    app.add_exception_handler(Unavailable, _unavailable)  # type: ignore[arg-type]
    app.add_exception_handler(Exception, _server_error)


def _answer(status: int, detail: str, headers: dict[str, str] | None = None) -> JSONResponse:
    if len(detail) > MAX_DETAIL:
        detail = detail[: MAX_DETAIL - 1] + "…"
    return JSONResponse({"detail": detail}, status_code=status, headers=headers)


async def _invalid_request(request: Request, error: RequestValidationError) -> JSONResponse:
    """The body is not JSON (400) or not of the request's shape (422)."""
    request.app.state.metrics.rejected.labels("invalid").inc()
    problems = list(error.errors())
    for problem in problems:
        if problem["type"] == "json_invalid":
            reason = problem.get("ctx", {}).get("error", "malformed")
            where = problem["loc"][-1]
            return _answer(
                400, f"the request body is not valid JSON: {reason} at character {where}"
            )
    listed = "; ".join(_describe(p) for p in problems[:MAX_LISTED])
    more = len(problems) - MAX_LISTED
    return _answer(422, listed + (f"; and {more} more" if more > 0 else ""))


def _describe(problem: Any) -> str:
    """``rack[3]: Input should be a valid string``; the input itself is left out."""
    where = ""
    for part in problem["loc"][1:]:  # loc[0] is "body"
        where += f"[{part}]" if isinstance(part, int) else f".{str(part)[:40]}"
    where = where.lstrip(".")
    kind = problem["type"]
    if kind == "extra_forbidden":
        return f"unknown field {where!r}"
    if kind == "missing":
        return f"missing field {where!r}" if where else "the request needs a JSON body"
    return f"{where}: {problem['msg']}" if where else f"the request body: {problem['msg']}"


async def _invalid_game(request: Request, error: MeldwiseError) -> JSONResponse:
    """Well-formed, but not a real game: unknown tile, too many copies, bad set or rule."""
    request.app.state.metrics.rejected.labels("invalid").inc()
    return _answer(422, str(error))


async def _unavailable(request: Request, error: Unavailable) -> JSONResponse:
    settings: Settings = request.app.state.settings
    return _answer(503, str(error), {"Retry-After": str(settings.retry_after_s)})


async def _server_error(request: Request, error: Exception) -> JSONResponse:
    # Starlette re-raises the error after this answer, so the server logs its
    # traceback for the operator; the client only learns that it failed.
    return _answer(500, "internal error")

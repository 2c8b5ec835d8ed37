"""Error answers: 400/422 naming the culprit, 429/503 with Retry-After, never a stack trace.

Every error body is ``{"detail": "..."}``. Details quote the offending field, tile,
set or setting, clipped to :data:`MAX_DETAIL` characters so a request body is
never echoed back whole, with characters that do not print (a lone surrogate
among them) written as ``\\u`` escapes, so no input character can break the answer;
the rest, Japanese included, is sent as UTF-8 text. A 422's body also lists the places
in the request its detail quotes (:func:`quoted_places`), so that a client can say them
in its own words without reading them out of the text.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from http import HTTPStatus
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect
from starlette.responses import Response
from starlette.types import Scope

from api.pool import ClientBusy, Unavailable
from api.reading import BodyError
from api.schemas import ErrorBody, RefusalBody
from api.settings import Settings
from solver.errors import MeldwiseError
from solver.i18n import _, set_language, tag_language
from solver.wire import MAX_NAME, request_error

MAX_DETAIL = 400
"""Longest error detail sent back, in characters."""

MAX_KEY = MAX_NAME
"""Longest key of a place a 422 lists: no field's name is longer than a player's."""

Responses = dict[int | str, dict[str, Any]]
"""A route's ``responses``: its error answers as the OpenAPI schema lists them."""


CLOSE = {"Connection": "close"}
"""Sent with an answer given before the body was read whole: the rest of it must
not be read, nor taken for the next request."""


def close_if_body(scope: Scope, limit: int) -> dict[str, str]:
    """:data:`CLOSE` for an answer given before the request's body was read, when that
    body could be large: sent chunked (no length said), or declared over ``limit``
    bytes (the body limit). Kept alive, the connection would read it to its end for
    nothing (a declared gigabyte, an endless chunked one); or ``Expect: 100-continue``
    was sent (see below). A request without a body,
    or with one within the limit, keeps its connection: the server drops that body
    as it arrives, and a client that waits as told loses nothing."""
    for name, value in scope["headers"]:
        if name == b"transfer-encoding":
            return CLOSE
        if name == b"content-length" and (not value.strip().isdigit() or int(value) > limit):
            return CLOSE
        if name == b"expect":
            # Told "100 Continue" never comes, the client may skip its body: the next
            # request would be read as this one's body.
            return CLOSE
    return {}


RETRY_AFTER = {"Retry-After": {"schema": {"type": "integer"}, "description": "seconds"}}


def bots_seated(game: type[BaseModel]) -> str:
    """A game request's refusal of its number of bots, as its 422 lists it: the bounds
    of its ``bots`` field, which its check says too ("2 to 4 bots")."""
    bots = game.model_json_schema()["properties"]["bots"]
    return f"fewer than {bots['minItems']} bots or more than {bots['maxItems']}"


def documented_errors(culprits: str) -> Responses:
    """The answers every route with a JSON body may give instead of 200, where
    ``culprits`` lists what makes a well-shaped request not a real game. Each runs in
    a solver worker, so it may also be refused when busy (429, 503)."""
    return {
        400: {
            "model": ErrorBody,
            "description": "The body is not valid JSON (or not UTF-8, nested too deeply, or "
            "holding NaN or Infinity).",
        },
        401: {
            "model": ErrorBody,
            "description": "No valid API key, when the server requires keys.",
        },
        408: {"model": ErrorBody, "description": "The body did not arrive in time."},
        413: {"model": ErrorBody, "description": "The body is larger than the body limit."},
        415: {
            "model": ErrorBody,
            "description": "The body is not sent as application/json, or is sent compressed "
            "(a Content-Encoding such as gzip: bodies are read uncompressed).",
        },
        422: {
            "model": RefusalBody,
            "description": "Not a request of this shape (a key given twice included), or not "
            f"a real game: {culprits}; or an answer over the answer limit. Its places "
            "list the request's fields the detail quotes.",
        },
        429: {
            "model": ErrorBody,
            "description": "This client is over its rate limit, or already has its share of "
            "requests in progress; retry after the Retry-After header's seconds.",
            "headers": RETRY_AFTER,
        },
        503: {
            "model": ErrorBody,
            "description": "Every solver worker is busy and the queue is full, the worker "
            "was lost, the request ran over the server's request timeout, or the server is "
            "shutting down; retry after the Retry-After header's seconds.",
            "headers": RETRY_AFTER,
        },
    }


def install_error_handlers(app: FastAPI) -> None:
    app.add_exception_handler(RequestValidationError, _invalid_request)  # type: ignore[arg-type]
    app.add_exception_handler(MeldwiseError, _invalid_game)  # type: ignore[arg-type]
    app.add_exception_handler(BodyError, _bad_body)  # type: ignore[arg-type]
    app.add_exception_handler(Unavailable, _unavailable)  # type: ignore[arg-type]
    app.add_exception_handler(ClientBusy, _client_busy)  # type: ignore[arg-type]
    app.add_exception_handler(HTTPException, _http_error)  # type: ignore[arg-type]
    app.add_exception_handler(ClientDisconnect, _client_gone)  # type: ignore[arg-type]
    app.add_exception_handler(Exception, _server_error)


Places = Iterable[tuple[Sequence[int | str], str]]
"""The places in a request an error's message quotes, each with its quoting text
(:attr:`solver.errors.MeldwiseError.places`)."""


def error_response(
    status: int, detail: str, headers: dict[str, str] | None = None, places: Places = ()
) -> JSONResponse:
    """The answer for an error: ``{"detail": detail}``, the detail clipped, and any
    character of it that does not print (a control, bidi or zero-width character a
    request sent, a lone surrogate) written as a ``\\u`` escape, so it is named but
    never echoed; the rest is UTF-8 text as it reads (a Japanese detail included). A
    422 also says the ``places`` its detail quotes, as sent (:func:`quoted_places`)."""
    if len(detail) > MAX_DETAIL:
        detail = detail[: MAX_DETAIL - 1] + "…"
    detail = _printable(detail)
    body: dict[str, Any] = {"detail": detail}
    if status == 422:
        body["places"] = quoted_places(detail, places)
    return JSONResponse(body, status_code=status, headers=headers)


def _printable(text: str) -> str:
    """``text`` with each character that does not print written as its ``\\u`` escape."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else ascii(c)[1:-1] for c in text)


def quoted_places(detail: str, places: Places) -> list[dict[str, Any]]:
    """``places`` as a 422's body lists them (``{"field": ["rack", 1], "quoted":
    "rack[1]"}``), each found in ``detail`` as sent after the end of the one before it,
    as a client reads them in turn; one not found there (clipped away) is left out. A
    place quoted as ``""`` (the detail is about it without quoting it) is kept. A place
    within a key longer than any name a request takes (:data:`MAX_KEY`) is left out: the
    detail clips it, and the body never echoes it whole."""
    listed = []
    start = 0
    for path, shown in places:
        if any(isinstance(part, str) and len(part) > MAX_KEY for part in path):
            continue
        sent = _printable(shown)
        if sent:
            at = detail.find(sent, start)
            if at < 0:
                continue
            start = at + len(sent)
        field = [_printable(part) if isinstance(part, str) else part for part in path]
        listed.append({"field": field, "quoted": sent})
    return listed


async def _invalid_request(request: Request, error: RequestValidationError) -> JSONResponse:
    """The body is not of the request's shape (422); a body that is not JSON is
    answered while it is read (:mod:`api.bodies`)."""
    request.app.state.metrics.rejected.labels("invalid").inc()
    body = error.body
    if isinstance(body, dict) and (lang := tag_language(body.get("lang"))) is not None:
        set_language(lang)  # the body's own language, when it could be read
    problems = list(error.errors())
    # The library's own reading of the same model gives the same message.
    for problem in problems:
        problem["loc"] = tuple(problem["loc"])[1:]  # loc[0] is "body"
    refused = request_error(problems)
    return error_response(422, str(refused), places=refused.places)


async def _invalid_game(request: Request, error: MeldwiseError) -> JSONResponse:
    """Well-formed, but not a real game: unknown tile, too many copies, bad set or rule."""
    request.app.state.metrics.rejected.labels("invalid").inc()
    return error_response(422, str(error), places=error.places)


async def _bad_body(request: Request, error: BodyError) -> JSONResponse:
    """A body a solver worker found not JSON, or JSON this API refuses (400, 422)."""
    request.app.state.metrics.rejected.labels("invalid").inc()
    return error_response(error.status, error.detail)


async def _unavailable(request: Request, error: Unavailable) -> JSONResponse:
    settings: Settings = request.app.state.settings
    wait = error.retry_after or settings.retry_after_s
    return error_response(503, str(error), {"Retry-After": str(wait)})


async def _client_busy(request: Request, error: ClientBusy) -> JSONResponse:
    settings: Settings = request.app.state.settings
    return error_response(429, str(error), {"Retry-After": str(settings.retry_after_s)})


def _status_phrase(status: int) -> str | None:
    """The words for an error the web stack raises with its status's bare phrase
    ("Not Found"), in the active language; None for any other status."""
    match status:
        case 404:
            return _("Not Found")
        case 405:
            return _("Method Not Allowed")
    return None


async def _http_error(request: Request, error: HTTPException) -> Response:
    """404, 405 and the errors raised while reading a body (400, 408, 413, 415, 422);
    the web stack's bare status phrases ("Not Found") are said in the request's
    language, as every detail of ours is. A 404 or 405 is given before any body is
    read: it closes the connection of a request whose body could be large. A client
    gone while FastAPI read a route's body model is no bad body (its 400 wraps the
    ClientDisconnect): 499, as when the route reads it."""
    if isinstance(error.__cause__, ClientDisconnect):
        return await _client_gone(request, error.__cause__)
    detail = str(error.detail)
    headers = dict(error.headers or {})
    phrase = _status_phrase(error.status_code)
    if phrase is not None:
        settings: Settings = request.app.state.settings
        headers.update(close_if_body(request.scope, settings.body_limit_bytes))
        if detail == HTTPStatus(error.status_code).phrase:
            detail = phrase
    return error_response(error.status_code, detail, headers)


CLIENT_CLOSED = 499
"""The status of a request whose client left before its body arrived (nginx's
"client closed request"): nobody reads it, but the metrics and the access log
count it as the client's doing, not the server's (it was a 500 and a traceback)."""


async def _client_gone(_request: Request, _error: ClientDisconnect) -> Response:
    return Response(status_code=CLIENT_CLOSED)


async def _server_error(_request: Request, _error: Exception) -> JSONResponse:
    # Starlette re-raises the error after this answer, so the server logs its
    # traceback for the operator; the client only learns that it failed.
    return error_response(500, _("internal error"))

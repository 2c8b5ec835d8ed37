"""Reading JSON request bodies strictly, with errors that name the problem.

:class:`JSONRoute` is the route class of the API's routers (FastAPI's documented
way to customise how a request is read): a body must be sent as
``application/json`` (else 415), be UTF-8 (else 400 naming the byte), and be JSON
without ``NaN`` or ``Infinity`` and nested less deeply than Python's recursion
limit (else 400 saying so), without a key given twice in one object (422 naming
the key: a second value must not silently replace the first) and without numbers
longer than :data:`MAX_DIGITS` digits or out of a float's range (422: valid JSON,
but no number of this API comes near). Ordinary syntax errors keep FastAPI's 400 with
the position (see :mod:`api.errors`).
"""

from __future__ import annotations

import email.message
import json
from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import Request, Response
from fastapi.routing import APIRoute
from starlette.exceptions import HTTPException

from api.errors import CLOSE
from solver.i18n import _

MAX_DIGITS = 20
"""Longest number accepted in a body: every number of the API fits easily."""


def is_json(content_type: str | None) -> bool:
    """``application/json`` or any ``application/*+json``, parameters aside."""
    if not content_type:
        return False
    message = email.message.Message()
    message["content-type"] = content_type
    subtype = message.get_content_subtype()
    return message.get_content_maintype() == "application" and (
        subtype == "json" or subtype.endswith("+json")
    )


class _BodyError(Exception):
    def __init__(self, status: int, detail: str) -> None:
        super().__init__(detail)
        self.status = status


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            shown = key if len(key) <= 40 else key[:39] + "…"
            raise _BodyError(422, f"the key {shown!r} is given twice in one object")
        result[key] = value
    return result


def _integer(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_DIGITS:
        raise _BodyError(422, f"a number has {digits} digits; at most {MAX_DIGITS} are accepted")
    return int(text)


def _decimal(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")) or len(text) > 4 * MAX_DIGITS:
        raise _BodyError(422, f"the number {text[:30]!r} is out of range")
    return value


def _constant(name: str) -> Any:
    raise _BodyError(400, f"{name} is not a JSON value")


def parse_json(body: bytes) -> Any:
    """The JSON value of ``body``, read strictly (see the module docstring).

    Raises :class:`json.JSONDecodeError` for a syntax error, :class:`HTTPException`
    (400 or 422) for the rest."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as error:
        raise HTTPException(
            400,
            _(
                "the request body is not valid UTF-8: byte 0x{byte:02x} at position {position}",
                byte=body[error.start],
                position=error.start,
            ),
        ) from None
    try:
        return json.loads(
            text,
            object_pairs_hook=_object,
            parse_int=_integer,
            parse_float=_decimal,
            parse_constant=_constant,
        )
    except _BodyError as error:
        raise HTTPException(error.status, _("the request body: {problem}", problem=error)) from None
    except RecursionError:
        raise HTTPException(
            400, _("the request body nests arrays and objects too deeply")
        ) from None


class StrictJSONRequest(Request):
    """A request whose ``json()`` is :func:`parse_json`."""

    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            self._json = parse_json(await self.body())
        return self._json


class JSONRoute(APIRoute):
    """A route whose JSON body is read by :class:`StrictJSONRequest`, and which answers
    415 to a body sent as anything but JSON."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()
        takes_body = self.body_field is not None

        async def strict_handler(request: Request) -> Response:
            if takes_body and not is_json(request.headers.get("content-type")):
                request.app.state.metrics.rejected.labels("unsupported_media_type").inc()
                given = request.headers.get("content-type")
                raise HTTPException(
                    415,
                    _("send the body as JSON with 'Content-Type: application/json'")
                    + (_("; got {given!r}", given=given[:60]) if given else _("; none was given")),
                    CLOSE,
                )
            return await handler(StrictJSONRequest(request.scope, request.receive))

        return strict_handler

"""Reading a JSON request body strictly: the rules of :mod:`api.bodies`, without the
web stack, so that a solver worker (:mod:`api.worker`) reads a body it is handed
exactly as the server would."""

from __future__ import annotations

import json
from typing import Any

from solver.i18n import _

MAX_DIGITS = 20
"""Longest number accepted in a body: every number of the API fits easily."""


class BodyError(Exception):
    """A body that does not read: the status (400 or 422) and the detail to answer."""

    def __init__(self, status: int, detail: str) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            shown = key if len(key) <= 40 else key[:39] + "…"
            raise BodyError(422, f"the key {shown!r} is given twice in one object")
        result[key] = value
    return result


def _integer(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_DIGITS:
        raise BodyError(422, f"a number has {digits} digits; at most {MAX_DIGITS} are accepted")
    return int(text)


def _decimal(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")) or len(text) > 4 * MAX_DIGITS:
        raise BodyError(422, f"the number {text[:30]!r} is out of range")
    return value


def _constant(name: str) -> Any:
    raise BodyError(400, f"{name} is not a JSON value")


def read_body(body: bytes) -> Any:
    """The JSON value of ``body``, read strictly (see the module docstring), or
    :class:`BodyError` (400 or 422) naming what is wrong."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as error:
        raise BodyError(
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
    except json.JSONDecodeError as error:
        raise BodyError(
            400,
            _(
                "the request body is not valid JSON: {reason} at character {where}",
                reason=error.msg,
                where=error.pos,
            ),
        ) from None
    except BodyError as error:  # raised by a hook above, in its own words
        raise BodyError(error.status, _("the request body: {problem}", problem=error)) from None
    except RecursionError:
        raise BodyError(400, _("the request body nests arrays and objects too deeply")) from None

"""Reading a JSON request body strictly: the rules of :mod:`api.bodies`, without the
web stack, so that a solver worker (:mod:`api.worker`) reads a body it is handed
exactly as the server would."""

from __future__ import annotations

import json
from collections.abc import Callable
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
            raise BodyError(422, _("the key {key!r} is given twice in one object", key=shown))
        result[key] = value
    return result


def _integer(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_DIGITS:
        raise BodyError(
            422,
            _(
                "a number has {digits} digits; at most {most} are accepted",
                digits=digits,
                most=MAX_DIGITS,
            ),
        )
    return int(text)


def _decimal(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")) or len(text) > 4 * MAX_DIGITS:
        raise BodyError(422, _("the number {number!r} is out of range", number=text[:30]))
    return value


def _constant(name: str) -> Any:
    raise BodyError(400, _("{name} is not a JSON value", name=name))


_JSON_REASONS: dict[str, Callable[[], str]] = {
    "Expecting value": lambda: _("Expecting value"),
    "Expecting property name enclosed in double quotes": lambda: _(
        "Expecting property name enclosed in double quotes"
    ),
    "Expecting ':' delimiter": lambda: _("Expecting ':' delimiter"),
    "Expecting ',' delimiter": lambda: _("Expecting ',' delimiter"),
    "Extra data": lambda: _("Extra data"),
    "Unterminated string starting at": lambda: _("Unterminated string starting"),
    "Invalid control character at": lambda: _("Invalid control character"),
    "Invalid \\escape": lambda: _("Invalid \\escape"),
    "Invalid \\uXXXX escape": lambda: _("Invalid \\uXXXX escape"),
    "Illegal trailing comma before end of object": lambda: _(
        "Illegal trailing comma before end of object"
    ),
    "Illegal trailing comma before end of array": lambda: _(
        "Illegal trailing comma before end of array"
    ),
}
"""What the standard library's JSON parser says (``JSONDecodeError.msg``), in the
active language; each is followed by "at character N"."""


def _json_problem(error: json.JSONDecodeError) -> str:
    """The parser's ``error`` in the active language: its reason when known (a
    reason the table lacks, from another Python, is left out, not given in English)."""
    reason = _JSON_REASONS.get(error.msg)
    if reason is None:
        return _("the request body is not valid JSON at character {where}", where=error.pos)
    return _(
        "the request body is not valid JSON: {reason} at character {where}",
        reason=reason(),
        where=error.pos,
    )


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
        raise BodyError(400, _json_problem(error)) from None
    except BodyError as error:  # raised by a hook above, in its own words
        raise BodyError(error.status, _("the request body: {problem}", problem=error)) from None
    except RecursionError:
        raise BodyError(400, _("the request body nests arrays and objects too deeply")) from None

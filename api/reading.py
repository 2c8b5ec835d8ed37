"""Reading a JSON request body strictly: the rules of :mod:`api.bodies`, without the
web stack, so that a solver worker (:mod:`api.worker`) reads a body it is handed
exactly as the server would. The JSON itself is read by the library's
:func:`solver.wire.read_json`, as the CLI reads a request."""

from __future__ import annotations

import json
from typing import Any

from solver.errors import MeldwiseError
from solver.i18n import _
from solver.wire import NotJSON, json_problem, read_json


class BodyError(Exception):
    """A body that does not read: the status (400 or 422) and the detail to answer."""

    def __init__(self, status: int, detail: str) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail


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
                position=error.start + 1,  # counted from 1, as a JSON error's character
            ),
        ) from None
    try:
        return read_json(text)
    except json.JSONDecodeError as error:
        problem = json_problem(error)
        raise BodyError(
            400, _("the request body is not valid JSON: {problem}", problem=problem)
        ) from None
    except MeldwiseError as error:  # read_json's refusal, in its own words
        status = 400 if isinstance(error, NotJSON) else 422
        raise BodyError(status, _("the request body: {problem}", problem=error)) from None
    except RecursionError:
        raise BodyError(400, _("the request body nests arrays and objects too deeply")) from None

"""Checks on the shape of wire requests, shared by every game's wire module."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from solver.errors import RequestError
from solver.i18n import _


def check_fields(request: Any, known: Sequence[str], required: Sequence[str] = ()) -> None:
    """Raise :class:`RequestError` unless ``request`` is an object with only ``known``
    fields and every ``required`` one."""
    if not isinstance(request, Mapping):
        raise RequestError(
            _("a request must be a JSON object, got {kind}", kind=type(request).__name__)
        )
    for name in request:
        if name not in known:
            raise RequestError(
                _(
                    "unknown field {name!r:.60}; fields are {known}",
                    name=name,
                    known=", ".join(known),
                )
            )
    for name in required:
        if name not in request:
            raise RequestError(_("missing field {name!r}", name=name))

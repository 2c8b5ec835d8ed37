"""Checks on the shape of wire requests, shared by every game's wire module."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from solver.errors import RequestError


def check_fields(request: Any, known: Sequence[str], required: Sequence[str] = ()) -> None:
    """Raise :class:`RequestError` unless ``request`` is an object with only ``known``
    fields and every ``required`` one."""
    if not isinstance(request, Mapping):
        raise RequestError(f"a request must be a JSON object, got {type(request).__name__}")
    for name in request:
        if name not in known:
            raise RequestError(f"unknown field {name!r:.60}; fields are {', '.join(known)}")
    for name in required:
        if name not in request:
            raise RequestError(f"missing field {name!r}")

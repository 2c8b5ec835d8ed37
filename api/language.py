"""The language of an answer: the body's ``lang``, else the ``Accept-Language`` header.

:class:`LanguageMiddleware` makes the header's language the active one
(:mod:`solver.i18n`) for everything said while the request runs, refusals and
shape errors included, and marks every answer ``Vary: Accept-Language``; the pool
hands that language on to the solver worker with the body, whose own ``lang``
overrides it there (:mod:`api.pool`).
"""

from __future__ import annotations

from collections.abc import Iterable
from contextlib import AbstractContextManager

from starlette.datastructures import MutableHeaders
from starlette.types import Message, Scope

from api.middleware import StartEditingMiddleware
from solver.i18n import language, negotiate


def speaking(headers: Iterable[tuple[bytes, bytes]]) -> AbstractContextManager[str]:
    """The language a request's ``headers`` (raw, names in lower case) ask for with
    ``Accept-Language`` spoken inside the block; the app's (:class:`LanguageMiddleware`)
    and the server's own answers (:mod:`api.server`) take it so."""
    # Header lines of one name are one list (RFC 9110): all of them, not the first.
    asked = (value.decode("latin-1") for name, value in headers if name == b"accept-language")
    return language(negotiate(", ".join(asked)))


class LanguageMiddleware(StartEditingMiddleware):
    """Speaks the ``Accept-Language`` header's language while a request runs."""

    def running(self, scope: Scope) -> AbstractContextManager[object]:
        return speaking(scope["headers"])

    def edit(self, start: Message) -> None:
        MutableHeaders(scope=start).add_vary_header("Accept-Language")

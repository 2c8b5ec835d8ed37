"""The language of an answer: the body's ``lang``, else the ``Accept-Language`` header.

:class:`LanguageMiddleware` makes the header's language the active one
(:mod:`solver.i18n`) for everything said while the request runs, refusals and
shape errors included, and marks every answer ``Vary: Accept-Language``; a route
then hands the language on to the solver worker in the request's ``lang``
(:func:`localise`), which overrides the header.
"""

from __future__ import annotations

from collections.abc import Iterable
from contextlib import AbstractContextManager
from typing import Any

from pydantic import BaseModel
from starlette.datastructures import MutableHeaders
from starlette.types import Message, Scope

from api.middleware import StartEditingMiddleware
from solver.i18n import current, language, negotiate, set_language
from solver.wire import AS_WRITTEN


def localise(body: BaseModel) -> dict[str, Any]:
    """The wire request a route's ``body`` holds (the fields sent, as JSON values) in
    the answer's language (its own ``lang``, else the header's), which is spoken for
    the rest of this request."""
    # As written: a joker's bracket (J(R7)) decides how its table set reads.
    request = body.model_dump(mode="json", exclude_unset=True, context=AS_WRITTEN)
    lang = request.get("lang") or current()
    request["lang"] = lang
    set_language(lang)
    return request


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

"""The ASGI middlewares of :mod:`api.middleware` on their own, in front of a tiny app."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from contextlib import AbstractContextManager

from starlette.types import Message, Receive, Scope, Send

from api.middleware import StartEditingMiddleware

seen: list[str] = []
"""What the app and the middleware's ``running`` saw, in order."""


async def _app(scope: Scope, receive: Receive, send: Send) -> None:
    seen.append(scope["type"])
    if scope["type"] == "http":
        await send({"type": "http.response.start", "status": 200, "headers": [(b"a", b"1")]})
        await send({"type": "http.response.body", "body": b"x"})


class _Marked(StartEditingMiddleware):
    def running(self, scope: Scope) -> AbstractContextManager[object]:
        scope["headers"] = []
        return self._noting()

    @contextlib.contextmanager
    def _noting(self) -> Iterator[None]:
        seen.append("in")
        yield
        seen.append("out")

    def edit(self, start: Message) -> None:
        start["headers"] = [*start["headers"], (b"b", b"2")]


def _call(scope: Scope) -> list[Message]:
    sent: list[Message] = []

    async def receive() -> Message:
        return {"type": "http.disconnect"}

    async def send(message: Message) -> None:
        sent.append(message)

    asyncio.run(_Marked(_app)(scope, receive, send))
    return sent


def test_a_start_editing_middleware_edits_the_start_of_each_http_answer_alone() -> None:
    seen.clear()
    start, body = _call({"type": "http", "headers": [(b"range", b"bytes=0-1")]})
    assert start["headers"] == [(b"a", b"1"), (b"b", b"2")]
    assert body == {"type": "http.response.body", "body": b"x"}
    assert seen == ["in", "http", "out"]  # the request runs within `running`
    seen.clear()
    assert _call({"type": "lifespan"}) == []
    assert seen == ["lifespan"]  # passed through, no `running`

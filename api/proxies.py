"""What a trusted reverse proxy says about a request: the client's address and scheme
(``X-Forwarded-For``, ``X-Forwarded-Proto``) and the path prefix it serves the
service under (``X-Forwarded-Prefix``), believed only from a peer listed in
``MELDWISE_TRUSTED_PROXIES``.

A proxy that serves Meldwise at ``https://games.example/meldwise/`` strips the
prefix before passing a request on (nginx: ``location /meldwise/ { proxy_pass
http://127.0.0.1:8000/; }``) and names it in ``X-Forwarded-Prefix: /meldwise``. The
request's scope then says where it was asked, as the ASGI spec has it: ``root_path``
is the prefix and ``path`` starts with it, so the OpenAPI schema lists the prefix as
its server (``/docs``' "Try it out" calls ``/meldwise/healthz``, not the site's
``/healthz``), and the access log writes the path the client asked. The service's
own middlewares read the path within the service, :func:`route_path`.
"""

from __future__ import annotations

import re

from starlette.types import ASGIApp, Receive, Scope, Send
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

PREFIX_HEADER = b"x-forwarded-prefix"

_PREFIX = re.compile(r"(/[A-Za-z0-9._~!$&'()*+,;=:@-]+)+")
"""A path prefix of plain segments (RFC 3986 ``pchar`` without ``%``): none empty,
no query, no escape to decode."""

MAX_PREFIX = 256


def forwarded_prefix(headers: list[tuple[bytes, bytes]]) -> str:
    """The prefix an ``X-Forwarded-Prefix`` header names ('' for none): sent once,
    ``/`` then plain path segments, ``.`` and ``..`` refused, a trailing ``/``
    dropped (``/meldwise/`` is ``/meldwise``). Any other value names none."""
    values = [value for name, value in headers if name == PREFIX_HEADER]
    if len(values) != 1 or len(values[0]) > MAX_PREFIX:
        return ""
    prefix = values[0].decode("latin-1").strip().rstrip("/")
    if not _PREFIX.fullmatch(prefix) or {".", ".."} & set(prefix.split("/")):
        return ""
    return prefix


def route_path(scope: Scope) -> str:
    """The request's path within the service: its ``path`` without the ``root_path``
    a proxy's prefix put in front."""
    path: str = scope["path"]
    root: str = scope.get("root_path", "")
    if root and path.startswith(root):
        return path[len(root) :] or "/"
    return path


class ForwardedHeaders:
    """uvicorn's ``X-Forwarded-For`` and ``X-Forwarded-Proto`` handling for the peers
    ``trusted`` (addresses, networks, or ``*``), and their ``X-Forwarded-Prefix``:
    see the module. A header from any other peer is ignored."""

    def __init__(self, app: ASGIApp, trusted: list[str]) -> None:
        self.forwarded = ProxyHeadersMiddleware(app, trusted_hosts=trusted)  # type: ignore[arg-type]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            peer = scope.get("client")
            # Read before uvicorn's puts the forwarded client in the peer's place.
            if peer and peer[0] in self.forwarded.trusted_hosts:
                prefix = forwarded_prefix(scope["headers"])
                if prefix:
                    raw = scope.get("raw_path") or scope["path"].encode()
                    scope["root_path"] = prefix + scope.get("root_path", "")
                    scope["path"] = prefix + scope["path"]
                    scope["raw_path"] = prefix.encode() + raw
        await self.forwarded(scope, receive, send)  # type: ignore[arg-type]

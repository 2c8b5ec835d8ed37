"""Who a request comes from, and whether it may go on: API keys, per-client rate
limits, and an early look at the solver pool's admission.

A *client* is an API key when the server has keys (``MELDWISE_API_KEYS``), else
the client's address: an IPv4 address, or the /64 network of an IPv6 one (one
host usually holds a whole /64). Behind a load balancer listed in
``MELDWISE_TRUSTED_PROXIES`` the address is the one it forwards.

Rate limits count with the ``limits`` library's sliding window counter (two
counters per client and limit) in its storage: in this process by default,
or in Redis (``MELDWISE_RATE_LIMIT_STORAGE=redis://...``) so that every replica
counts the same client together. If Redis cannot be reached, requests are let
through (and a warning logged) rather than refused. A request the solver pool
refuses before any work (503: every place taken, or shutting down) is counted apart
(:data:`REFUSED`), against limits as large: a proxy that tries it again on another
replica does not get it counted twice in the rate, and a flood on a full pool still
meets the 429.

A client that ignores a 429's ``Retry-After`` and is refused again before it ran
out is answered only once it has (at most :data:`MAX_HOLD_S` later), its body
read and dropped meanwhile, and with ``Connection: close``: a flood on many
connections then costs the server and the machine one cheap refusal per
connection and Retry-After, not one per round trip, while a client that waits
as told never notices.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import ipaddress
import logging
import math
import time
from collections.abc import Iterable
from typing import Any, cast

from limits import RateLimitItem, parse_many
from limits.aio.storage import MemoryStorage, Storage
from limits.aio.strategies import SlidingWindowCounterRateLimiter
from limits.storage import storage_from_string
from starlette.datastructures import Headers
from starlette.routing import BaseRoute, Route
from starlette.types import ASGIApp, Receive, Scope, Send

from api.errors import CLOSE, close_if_body, error_response
from api.metrics import Metrics
from api.pool import ClientBusy, SolverPool, Unavailable
from api.proxies import route_path
from api.settings import Settings
from solver.i18n import _

API_PREFIX = "/v1/"
"""Paths under this prefix are the API: keyed, rate limited and admitted."""

log = logging.getLogger("meldwise.clients")

STORE_CONNECTIONS = 32
"""Connections to a shared rate limit store (Redis) at most, per server process:
checks beyond wait their turn for one (within :data:`STORE_QUEUE_S`). redis-py's
own pool failed each check past its 100 at once, which let the request through
uncounted, and kept every connection it opened."""
STORE_QUEUE_S = 5.0
"""Longest a rate limit check may wait for one of the :data:`STORE_CONNECTIONS`; then
the request is let through. Waiting its turn is not the store failing: with the wait
counted in :data:`STORE_TIMEOUT_S`, 300 requests sent at once by one client limited to
100 a minute all passed, 236 checks failing."""

STORE_TIMEOUT_S = 0.5
"""Longest a rate limit check may wait for Redis to connect or answer; then the request
is let through."""

WARN_EVERY_S = 60.0
"""A rate limit store that keeps failing is logged at most this often."""

MAX_HOLD_S = 2.0
"""Longest a refusal to a client that came back before its Retry-After is held."""

REFUSED = "refused"
"""The counts of a client's requests that the solver pool refused before any work
(:meth:`api.pool.SolverPool.unavailable`), kept apart from its rate's."""

HELD_PER_CLIENT = 64
"""Refusals one client may have held at once; beyond, they are answered at once
(and the connection closed): a held request keeps a connection and a task."""


def key_id(key: str) -> str:
    """How a key is named in logs and in the pool: never the key itself."""
    return "key:" + hashlib.sha256(key.encode()).hexdigest()[:12]


def address_id(host: str) -> str:
    """An IPv4 address as it is; an IPv6 address as its /64 network."""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network(f"{address}/64", strict=False))
    return str(address)


def rate_limit_storage(uri: str) -> Storage:
    """The ``limits`` storage for a ``MELDWISE_RATE_LIMIT_STORAGE`` URI."""
    if uri.startswith("memory://"):
        return MemoryStorage()
    try:
        # The optional extra meldwise[redis]: `pip install .` (README's service command)
        # has no redis, which only a redis:// store needs.
        import redis.asyncio
    except ImportError:
        # Refused as limits refuses it, naming the missing prerequisite.
        return cast(Storage, storage_from_string(f"async+{uri}", implementation="redispy"))
    # Short timeouts: a Redis that does not answer must not hold requests up.
    pool = redis.asyncio.BlockingConnectionPool.from_url(
        uri,
        max_connections=STORE_CONNECTIONS,
        timeout=STORE_QUEUE_S,
        socket_connect_timeout=STORE_TIMEOUT_S,
        socket_timeout=STORE_TIMEOUT_S,
    )
    options: dict[str, Any] = {"connection_pool": pool}  # typed by limits as str | float
    storage = storage_from_string(f"async+{uri}", implementation="redispy", **options)
    return cast(Storage, storage)


class ClientGate:
    """ASGI middleware in front of the API (:data:`API_PREFIX`): names the client
    (``scope["state"]["client"]``), checks its API key (401), counts it against the
    rate limits (429 with ``Retry-After``) and, for a POST, asks the solver pool
    whether it would take one more task from it (503 or 429 with ``Retry-After``)
    before the body is read."""

    def __init__(
        self, app: ASGIApp, settings: Settings, metrics: Metrics, routes: Iterable[BaseRoute]
    ) -> None:
        self.app = app
        self.routes = {
            route.path: route
            for route in routes
            if isinstance(route, Route) and route.path.startswith(API_PREFIX)
        }
        """The API's routes by path (no API path has parameters), given by the app
        (FastAPI's ``app.routes`` holds included routers, not their routes)."""
        self.keys = {
            hashlib.sha256(key.encode()).digest(): key_id(key) for key in settings.api_keys
        }
        self.limits: list[RateLimitItem] = (
            parse_many(settings.rate_limit) if settings.rate_limit else []
        )
        self.limiter = SlidingWindowCounterRateLimiter(
            rate_limit_storage(settings.rate_limit_storage)
        )
        self.retry_after = settings.retry_after_s
        self.metrics = metrics
        self.drain_limit = settings.body_limit_bytes
        self._warned = -WARN_EVERY_S
        self._due: dict[str, float] = {}
        """Client -> when the Retry-After of its last 429 runs out (monotonic), in
        the order given: each client once, at its latest refusal."""
        self._held: dict[str, int] = {}
        """Client -> its refusals held now."""
        self._passed: dict[str, int] = {}
        """Client -> its requests for the solver pool past this gate, not yet answered."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not route_path(scope).startswith(API_PREFIX):
            await self.app(scope, receive, send)
            return
        route = self.routes.get(route_path(scope))
        if route is not None:
            # What the router would set: the metrics count this gate's refusals too by it.
            scope["route"] = route
        headers = Headers(scope=scope)
        client = self._identify(scope, headers)
        if client is None:
            self.metrics.rejected.labels("unauthorized").inc()
            detail = (
                _(
                    "this server needs an API key: send it as 'Authorization: Bearer KEY' or"
                    " 'X-API-Key: KEY'"
                )
                if not _given_key(headers)
                else _("unknown API key")
            )
            answer = error_response(
                401,
                detail,
                {"WWW-Authenticate": "Bearer", **close_if_body(scope, self.drain_limit)},
            )
            await answer(scope, receive, send)
            return
        scope.setdefault("state", {})["client"] = client
        pool: SolverPool | None = getattr(scope["app"].state, "pool", None)
        if scope["method"] != "POST" or route is None:
            pool = None  # not a task for the solver pool
        # A request the pool refuses before any work (every place taken, or shutting
        # down) is counted apart from the client's rate, against limits of its own as
        # large: behind nginx, which tries it again on another replica, counted in the
        # rate it was counted twice, and a flood on a full pool still meets the 429.
        unavailable: Unavailable | None = None
        if pool is not None and pool.full:
            wait = await self._over_rate(client, REFUSED)
            unavailable = pool.unavailable(client) if wait is None else None
            if wait is None and unavailable is None:  # room again meanwhile: it is served
                wait = await self._over_rate(client)
        else:
            wait = await self._over_rate(client)
        if wait is not None:
            self.metrics.rejected.labels("rate_limited").inc()
            detail = _("this client sent more requests than the rate limit allows; slow down")
            await self._too_many(client, detail, wait, scope, receive, send)
            return
        if pool is None:
            await self.app(scope, receive, send)
            return
        # Requests past this gate count against the client's share from here, not only
        # once their bodies are read and they reach the pool: else every connection
        # of a client would pass at once, each to be refused after its body was read.
        passed = self._passed.get(client, 0)
        refused = unavailable or pool.refusal(client)
        if refused is None and passed >= pool.client_share:
            refused = pool.client_busy()
        if isinstance(refused, ClientBusy):
            await self._too_many(client, str(refused), self.retry_after, scope, receive, send)
            return
        if refused is not None:
            wait = getattr(refused, "retry_after", None) or self.retry_after
            answer = error_response(
                503,
                str(refused),
                {"Retry-After": str(wait), **close_if_body(scope, self.drain_limit)},
            )
            await answer(scope, receive, send)
            return
        self._passed[client] = passed + 1
        try:
            await self.app(scope, receive, send)
        finally:
            _one_fewer(self._passed, client)

    async def _too_many(
        self, client: str, detail: str, wait: int, scope: Scope, receive: Receive, send: Send
    ) -> None:
        """Answer 429 with ``Retry-After: wait``; to a client back before the
        Retry-After of its last 429 ran out, only once it has (see the module
        docstring), closing the connection."""
        now = time.monotonic()
        due = self._due.get(client, now)
        headers = {"Retry-After": str(wait)}
        held = self._held.get(client, 0)
        if due > now and held < HELD_PER_CLIENT:
            self.metrics.refusals_held.inc()
            self._held[client] = held + 1
            try:
                await self._drain(receive, min(due - now, MAX_HOLD_S))
            finally:
                _one_fewer(self._held, client)
        if due > now:
            headers.update(CLOSE)
        else:  # answered before the body was read
            headers.update(close_if_body(scope, self.drain_limit))
        # Moved to the end: the entries stay in the order their Retry-Afters run out.
        self._due.pop(client, None)
        self._due[client] = time.monotonic() + wait
        self._forget_due()
        await error_response(429, detail, headers)(scope, receive, send)

    async def _drain(self, receive: Receive, seconds: float) -> None:
        """Read and drop the request's body (up to the body limit) for ``seconds``:
        so that closing the connection then leaves nothing unread."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(seconds):
                drained, more = 0, True
                while more and drained <= self.drain_limit:
                    message = await receive()
                    if message["type"] == "http.disconnect":
                        return
                    drained += len(message.get("body", b""))
                    more = message.get("more_body", False)
                await asyncio.sleep(seconds)  # the rest of the hold: the timeout ends it

    def _forget_due(self) -> None:
        """Drop the oldest refusals whose Retry-After has run out."""
        now = time.monotonic()
        while self._due:
            client = next(iter(self._due))
            if self._due[client] > now:
                break
            del self._due[client]

    def _identify(self, scope: Scope, headers: Headers) -> str | None:
        """The client's name, or None when keys are needed and a right one is missing."""
        if not self.keys:
            host = (scope.get("client") or ("unknown", 0))[0]
            return "ip:" + address_id(host)
        given = _given_key(headers)
        return self.keys.get(hashlib.sha256(given.encode()).digest()) if given else None

    async def _over_rate(self, client: str, *counted: str) -> int | None:
        """None while ``client`` is within every rate limit (counting this request,
        in the counts named ``counted``: its rate's when none); else the seconds until
        it may send again."""
        try:
            for item in self.limits:
                if not await self.limiter.hit(item, client, *counted):
                    stats = await self.limiter.get_window_stats(item, client, *counted)
                    return max(1, math.ceil(stats.reset_time - time.time()))
        except Exception as error:  # the shared store is down: serve rather than refuse
            self.metrics.rate_limit_errors.inc()
            if time.monotonic() >= self._warned + WARN_EVERY_S:
                self._warned = time.monotonic()
                log.warning("rate limit storage failed, requests let through: %r", error)
        return None


def _one_fewer(counts: dict[str, int], client: str) -> None:
    """Count one fewer for ``client`` in ``counts``, which keeps no zeros."""
    if counts[client] > 1:
        counts[client] -= 1
    else:
        del counts[client]


def _given_key(headers: Headers) -> str:
    authorization = headers.get("authorization", "")
    scheme, _sep, token = authorization.partition(" ")
    if scheme.lower() == "bearer" and token.strip():
        return token.strip()
    return headers.get("x-api-key", "").strip()

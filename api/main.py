"""The FastAPI application factory.

``create_app(settings)`` wires settings, metrics, the solver pool, routers, error
handlers and middleware; ``meldwise serve`` runs it with uvicorn (:mod:`api.server`).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib import metadata

from fastapi import FastAPI

from api.bodies import document_bodies
from api.clients import ClientGate
from api.errors import install_error_handlers
from api.language import LanguageMiddleware
from api.metrics import Metrics
from api.middleware import (
    CORS,
    BodyLimitMiddleware,
    HeadMiddleware,
    MetricsMiddleware,
    RequestLogMiddleware,
    RequestTimeoutMiddleware,
    SecurityHeadersMiddleware,
    WholeFilesMiddleware,
)
from api.pool import SolverPool
from api.proxies import ForwardedHeaders
from api.routes import demo, games, rummikub, service, shanghai
from api.settings import Settings

DESCRIPTION = """Best moves for Rummikub, proven optimal by OR-Tools CP-SAT, plus
a move checker and end-of-round scoring; advice for a Shanghai rummy turn (going
down, lay-offs, discard, upcard) and a hand's score. Errors are `{"detail": "..."}`
naming the culprit (a refused request's 422 also lists the `places` of the request its
detail quotes); a busy server answers 503, and a client over its rate limit or its
share of the solver 429, both with `Retry-After`."""


def create_app(settings: Settings | None = None) -> FastAPI:
    """Build the service. The solver workers start and warm up in the app's lifespan,
    before the first request is taken."""
    settings = settings or Settings()
    metrics = Metrics()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        pool = SolverPool(
            settings.workers,
            settings.queue,
            metrics,
            client_share=settings.share,
            floor_s=settings.time_cap_ms / 1000,
            margin_s=settings.watchdog_margin_ms / 1000,
            max_answer_bytes=settings.max_answer_bytes,
            retry_after_s=settings.retry_after_s,
        )
        app.state.pool = pool
        try:
            # Serve only once every worker has solved once: no cold first answers.
            await pool.start()
            yield
        finally:
            await pool.close(
                grace_s=settings.time_cap_ms / 1000 + settings.watchdog_margin_ms / 1000
            )

    app = FastAPI(
        title="Meldwise",
        description=DESCRIPTION,
        version=metadata.version("meldwise"),
        lifespan=lifespan,
        # Never answer with a redirect built from the Host header.
        redirect_slashes=False,
        # /docs is served from this package (api/routes/demo.py), with no CDN script.
        docs_url=None,
        redoc_url=None,
        # /openapi.json too (api/routes/demo.py): written once, not at each request.
        openapi_url=None,
    )
    app.state.settings = settings
    app.state.metrics = metrics
    app.state.stopping = False  # set once the server's shutdown begins (api.server.run)
    app.state.openapi_json = {}  # the schema written, by path prefix (api/routes/demo.py)
    app.include_router(service.router)
    app.include_router(rummikub.router)
    app.include_router(games.router)
    app.include_router(shanghai.router)
    app.include_router(demo.router)
    app.mount(
        demo.SWAGGER_PATH, demo.StaticRoute(demo.SWAGGER_DIR, demo.SWAGGER_PATH), name="swagger"
    )
    app.mount(demo.STATIC_PATH, demo.StaticRoute(), name="static")
    document_bodies(app)
    install_error_handlers(app)
    # Added innermost first: metrics see every answer; request IDs, security and
    # CORS headers go on every answer, refusals (401, 408, 413, 429, 503) included.
    app.add_middleware(WholeFilesMiddleware)
    app.add_middleware(HeadMiddleware)  # the others see the HEAD
    app.add_middleware(
        BodyLimitMiddleware,
        limit=settings.body_limit_bytes,
        timeout=settings.timeout_body_s,
        metrics=metrics,
        larger={
            games.REVIEW_PATH: settings.record_body_limit_bytes,
            shanghai.REVIEW_PATH: settings.record_body_limit_bytes,
        },
    )
    app.add_middleware(
        RequestTimeoutMiddleware,
        timeout=settings.timeout_request_s,
        retry_after_s=settings.retry_after_s,
        metrics=metrics,
    )
    app.add_middleware(
        ClientGate,
        settings=settings,
        metrics=metrics,
        routes=[*rummikub.router.routes, *games.router.routes, *shanghai.router.routes],
    )
    app.add_middleware(
        CORS,
        allow_origins=settings.cors_origins,
        allow_credentials=False,
        allow_methods=["GET", "POST"],
        allow_headers=["Content-Type", "Authorization", "X-API-Key", "X-Request-ID"],
        expose_headers=["Retry-After", "X-Request-ID"],
    )
    app.add_middleware(SecurityHeadersMiddleware)
    app.add_middleware(RequestLogMiddleware, enabled=settings.access_log)
    app.add_middleware(MetricsMiddleware, metrics=metrics)
    # Outermost: every answer, refusals included, speaks the Accept-Language header.
    app.add_middleware(LanguageMiddleware)
    if settings.trusted_proxies:
        # Outermost of all: the peer a proxy's headers are believed from is the one
        # that connected, before they name the client in its place (api/proxies.py).
        app.add_middleware(ForwardedHeaders, trusted=settings.trusted_proxies)
    return app

"""The FastAPI application factory.

``create_app(settings)`` wires settings, metrics, the solver pool, routers, error
handlers and middleware; ``meldwise serve`` runs it with uvicorn.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib import metadata

from fastapi import FastAPI
from fastapi.middleware.cors import CORSMiddleware

from api.errors import install_error_handlers
from api.metrics import Metrics
from api.middleware import BodyLimitMiddleware, MetricsMiddleware
from api.pool import SolverPool
from api.routes import demo, games, rummikub, service, shanghai
from api.settings import Settings

DESCRIPTION = """Best moves for Rummikub, proven optimal by OR-Tools CP-SAT, plus
a move checker and end-of-round scoring; advice for a Shanghai rummy turn (going
down, lay-offs, discard, upcard) and a hand's score. Errors are `{"detail": "..."}`
naming the culprit; a busy server answers 503 with `Retry-After`."""


def create_app(settings: Settings | None = None) -> FastAPI:
    """Build the service. The solver workers start and warm up in the app's lifespan,
    before the first request is taken."""
    settings = settings or Settings()
    metrics = Metrics()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        pool = SolverPool(settings.workers, settings.queue, metrics)
        app.state.pool = pool
        try:
            # Serve only once every worker has solved once: no cold first answers.
            await pool.warm_up()
            yield
        finally:
            await asyncio.to_thread(pool.close)

    app = FastAPI(
        title="Meldwise",
        description=DESCRIPTION,
        version=metadata.version("meldwise"),
        lifespan=lifespan,
    )
    app.state.settings = settings
    app.state.metrics = metrics
    app.include_router(service.router)
    app.include_router(rummikub.router)
    app.include_router(games.router)
    app.include_router(shanghai.router)
    app.include_router(demo.router)
    app.mount(demo.STATIC_PATH, demo.StaticRoute(), name="static")
    install_error_handlers(app)
    # Added innermost first: metrics see every answer, CORS headers go on 413s too.
    app.add_middleware(
        BodyLimitMiddleware,
        limit=settings.body_limit_bytes,
        metrics=metrics,
        larger={games.REVIEW_PATH: settings.record_body_limit_bytes},
    )
    app.add_middleware(
        CORSMiddleware,
        allow_origins=settings.cors_origins,
        allow_credentials=False,
        allow_methods=["GET", "POST"],
        allow_headers=["Content-Type"],
        expose_headers=["Retry-After"],
    )
    app.add_middleware(MetricsMiddleware, metrics=metrics)
    return app

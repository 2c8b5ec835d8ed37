"""Service endpoints: liveness, readiness and Prometheus metrics."""

from __future__ import annotations

from fastapi import APIRouter, Response
from fastapi.responses import JSONResponse, PlainTextResponse

from api.deps import MetricsDep, PoolDep
from api.schemas import Health

router = APIRouter(tags=["service"])


@router.get("/healthz", response_model=Health)
async def healthz() -> Health:
    """Liveness: the server answers."""
    return Health(status="ok")


@router.get(
    "/readyz",
    response_model=Health,
    responses={503: {"model": Health, "description": "A solver worker is being replaced."}},
)
async def readyz(pool: PoolDep) -> Health | JSONResponse:
    """Readiness: every solver worker has started and solved once (the server starts
    answering only then; after a worker is lost it is 503 until the pool is warm again)."""
    if pool.ready:
        return Health(status="ready")
    return JSONResponse({"status": "warming up"}, status_code=503)


@router.get(
    "/metrics",
    response_class=PlainTextResponse,
    responses={200: {"description": "Prometheus text format", "content": {"text/plain": {}}}},
)
async def metrics(metrics: MetricsDep) -> Response:
    """Requests, latency, solver status counts and rejected requests."""
    return Response(metrics.render(), media_type=metrics.content_type)

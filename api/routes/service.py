"""Service endpoints: liveness, readiness and Prometheus metrics."""

from __future__ import annotations

from fastapi import APIRouter, Response
from fastapi.responses import JSONResponse, PlainTextResponse

from api.deps import MetricsDep, PoolDep
from api.schemas import Health, NotReady, Ready

router = APIRouter(tags=["service"])


@router.get("/healthz", response_model=Health)
async def healthz() -> Health:
    """Liveness: the server answers."""
    return Health(status="ok")


@router.get(
    "/readyz",
    response_model=Ready,
    responses={
        503: {
            "model": NotReady,
            "description": "No solver worker serves: each is starting (a lost one "
            "being replaced) or running past its time cap. (A server shutting down takes "
            "no new connection, so a probe gets no answer.)",
        }
    },
)
async def readyz(pool: PoolDep) -> Ready | JSONResponse:
    """Readiness: at least one solver worker is up, warm and within its time cap, so
    a request is served (the server starts answering only once every worker is warm;
    a worker being replaced, or one past its cap, leaves it ready while another
    serves: ``meldwise_workers_ready`` in the metrics counts them)."""
    problem = pool.health()
    if problem is None:
        return Ready(status="ready")
    return JSONResponse({"status": "not ready", "detail": problem}, status_code=503)


@router.get(
    "/metrics",
    response_class=PlainTextResponse,
    responses={200: {"description": "Prometheus text format", "content": {"text/plain": {}}}},
)
async def metrics(metrics: MetricsDep) -> Response:
    """Requests, latency, solver status counts and rejected requests."""
    return Response(metrics.render(), media_type=metrics.content_type)

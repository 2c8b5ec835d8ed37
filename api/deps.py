"""Dependencies of the routes (``Annotated`` aliases), read from the app's state.

They are ``async`` so FastAPI resolves them on the event loop instead of a thread.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from api.metrics import Metrics
from api.pool import SolverPool
from api.settings import Settings


async def get_settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


async def get_pool(request: Request) -> SolverPool:
    pool: SolverPool = request.app.state.pool
    return pool


async def get_metrics(request: Request) -> Metrics:
    metrics: Metrics = request.app.state.metrics
    return metrics


async def get_client(request: Request) -> str:
    """The client's name given by :class:`api.clients.ClientGate`."""
    client: str = request.state.client
    return client


SettingsDep = Annotated[Settings, Depends(get_settings)]
PoolDep = Annotated[SolverPool, Depends(get_pool)]
MetricsDep = Annotated[Metrics, Depends(get_metrics)]
ClientDep = Annotated[str, Depends(get_client)]

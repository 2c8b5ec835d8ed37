"""Service settings, read from ``MELDWISE_*`` environment variables.

Every setting has a default that suits one machine; ``meldwise serve`` flags
override the environment. A bad value stops the service at start-up with a
message naming the variable.
"""

from __future__ import annotations

import os
from typing import Annotated

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from solver.rummikub.solve import DEFAULT_DISRUPTION_TIME_LIMIT, DEFAULT_TIME_LIMIT
from solver.rummikub.wire import MAX_TIME_LIMIT_MS

ENV_PREFIX = "MELDWISE_"


def _cores() -> int:
    return os.cpu_count() or 1


class Settings(BaseSettings):
    """What an operator may tune. Names are the environment variables without the prefix."""

    model_config = SettingsConfigDict(env_prefix=ENV_PREFIX, extra="forbid", frozen=True)

    host: str = Field(default="127.0.0.1", description="address to listen on")
    port: int = Field(default=8000, ge=0, le=65535, description="TCP port to listen on")
    workers: int = Field(
        default_factory=_cores,
        ge=1,
        le=64,
        description="solver processes, so the most solves running at once (default: cores)",
    )
    queue: int = Field(
        default=16,
        ge=0,
        le=10_000,
        description="solves that may wait for a free worker; beyond that a solve gets 503",
    )
    time_cap_ms: int = Field(
        default=round(DEFAULT_TIME_LIMIT * 1000),
        ge=1,
        le=MAX_TIME_LIMIT_MS,
        description="longest a solve may run; a request's time_limit_ms can only lower it",
    )
    disruption_cap_ms: int = Field(
        default=round(DEFAULT_DISRUPTION_TIME_LIMIT * 1000),
        ge=0,
        le=MAX_TIME_LIMIT_MS,
        description="longest a solve may search for the least disruptive play (0: never; "
        "answers then keep the best score but may rearrange more of the table)",
    )
    body_limit_bytes: int = Field(
        default=16 * 1024, ge=1024, le=1024 * 1024, description="largest request body (413 beyond)"
    )
    record_body_limit_bytes: int = Field(
        default=512 * 1024,
        ge=1024,
        le=16 * 1024 * 1024,
        description="largest request body of a game review (a whole game record)",
    )
    cors_origins: Annotated[list[str], NoDecode] = Field(
        default_factory=lambda: ["*"],
        description="origins a browser may call from, comma-separated ('*' for any)",
    )
    retry_after_s: int = Field(
        default=1, ge=1, le=3600, description="Retry-After seconds sent with a 503 when saturated"
    )
    max_connections: int = Field(
        default=1024, ge=1, description="open connections uvicorn accepts before answering 503"
    )
    access_log: bool = Field(default=True, description="log one line per request (never the body)")

    @field_validator("cors_origins", mode="before")
    @classmethod
    def _split_origins(cls, value: object) -> object:
        if isinstance(value, str):
            return [origin.strip() for origin in value.split(",") if origin.strip()]
        return value

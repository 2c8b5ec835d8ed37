"""Bodies of the service's own endpoints (errors, health). The games' requests and
responses are the library's models (``solver.*.wire``)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class Schema(BaseModel):
    model_config = ConfigDict(extra="forbid")


# --- service --------------------------------------------------------------------------


class ErrorBody(Schema):
    detail: str = Field(description="what is wrong, naming the culprit")


class Health(Schema):
    status: str = Field(examples=["ok"])


class NotReady(Schema):
    status: Literal["not ready"]
    detail: str = Field(
        description="what is missing", examples=["0 of 2 solver workers ready; 2 starting"]
    )

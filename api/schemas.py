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


class Place(Schema):
    field: list[int | str] = Field(
        description="where in the request: its keys and list indexes, outermost first",
        examples=[["rack", 1], ["buys_left"]],
    )
    quoted: str = Field(
        description="the text of the detail that quotes this place (found after the end of "
        "the place before it); empty when the detail is about the field without quoting it",
        examples=["rack[1]", "'buys_left'", ""],
    )


class RefusalBody(Schema):
    detail: str = Field(description="what is wrong, naming the culprit")
    places: list[Place] = Field(
        description="the places in the request that the detail quotes, in the order it "
        "quotes them; a client may say each in its own words (a form's label) in place of "
        "its quoted text"
    )


class Health(Schema):
    """``/healthz``: the process answers."""

    status: Literal["ok"]


class Ready(Schema):
    """``/readyz``: a solver worker serves."""

    status: Literal["ready"]


class NotReady(Schema):
    status: Literal["not ready"]
    detail: str = Field(
        description="what is missing", examples=["0 of 2 solver workers ready; 2 starting"]
    )

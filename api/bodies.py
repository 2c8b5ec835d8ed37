"""Reading JSON request bodies strictly, with errors that name the problem.

:class:`JSONRoute` is the route class of the API's routers (FastAPI's documented
way to customise how a request is read): a body must be sent as
``application/json`` without a ``Content-Encoding`` (else 415), be UTF-8 (else
400 naming the byte), and be JSON without ``NaN`` or ``Infinity`` and nested less
deeply than Python's recursion limit (else 400 saying so), without a key given
twice in one object (422 naming the key: a second value must not silently replace
the first) and without numbers longer than :data:`~solver.wire.MAX_DIGITS` digits
or out of a float's range (422: valid JSON, but no number of this API comes near);
a syntax error is 400 with its position. The reading itself is
:func:`api.reading.read_body`, which the solver workers use too for the bodies they
read (:data:`api.worker.BODY_TASKS`).
"""

from __future__ import annotations

import email.message
import json
from collections.abc import Callable, Coroutine, Iterable
from typing import Annotated, Any

from fastapi import APIRouter, Depends, FastAPI, Request, Response
from fastapi.routing import APIRoute
from pydantic import BaseModel
from starlette.exceptions import HTTPException

from api.errors import CLOSE
from api.reading import BodyError, read_body
from solver.i18n import _


def is_json(content_type: str | None) -> bool:
    """``application/json`` or any ``application/*+json``, parameters aside."""
    if not content_type:
        return False
    message = email.message.Message()
    message["content-type"] = content_type
    subtype = message.get_content_subtype()
    return message.get_content_maintype() == "application" and (
        subtype == "json" or subtype.endswith("+json")
    )


class StrictJSONRequest(Request):
    """A request whose ``json()`` is :func:`read_body`."""

    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            try:
                self._json = read_body(await self.body())
            except BodyError as error:
                raise HTTPException(error.status, error.detail) from None
        return self._json


async def _raw_body(request: Request) -> bytes:
    return await request.body()


RawBody = Annotated[bytes, Depends(_raw_body)]
"""A route's request body as it came, unread: for a route that hands it to a solver
worker to read (:meth:`api.pool.SolverPool.run_body`), declared with
``openapi_extra=json_body(Model)``."""

_BODY_MODELS: dict[str, type[BaseModel]] = {}


def json_body(model: type[BaseModel]) -> dict[str, Any]:
    """The ``openapi_extra`` of a route that takes :data:`RawBody`: its body is JSON of
    ``model``, as the docs show (with :func:`document_bodies`) and the worker reads."""
    _BODY_MODELS[model.__name__] = model
    schema = {"$ref": f"#/components/schemas/{model.__name__}"}
    return {"requestBody": {"required": True, "content": {"application/json": {"schema": schema}}}}


def add_body_routes(
    router: APIRouter,
    routes: Iterable[tuple[str, Callable[..., Any], type[BaseModel], type[BaseModel], Any]],
) -> None:
    """Add POST routes whose body a worker reads (:class:`RequestRoute`): each as
    (path, endpoint, request model, response model, documented error responses)."""
    for path, endpoint, request_model, response_model, errors in routes:
        router.add_api_route(
            path,
            endpoint,
            methods=["POST"],
            response_model=response_model,
            responses=errors,
            openapi_extra=json_body(request_model),
            route_class_override=RequestRoute,
        )


def document_bodies(app: FastAPI) -> None:
    """Add the models of :func:`json_body` routes to ``app``'s OpenAPI components
    (FastAPI adds only the models it reads itself)."""
    generate = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schemas = generate().setdefault("components", {}).setdefault("schemas", {})
            for name, model in _BODY_MODELS.items():
                found = model.model_json_schema(ref_template="#/components/schemas/{model}")
                inner = found.pop("$defs", {})
                # A model read here and also answered (ShanghaiContract) is in the
                # components already as an answer's: every field required, where a
                # request may leave some out. The request's own is NAME-Input, as
                # FastAPI names a model it reads and writes.
                taken = {n for n, d in inner.items() if schemas.get(n, d) != d}
                for inner_name, definition in inner.items():
                    key = f"{inner_name}-Input" if inner_name in taken else inner_name
                    schemas.setdefault(key, _inputs_renamed(definition, taken))
                schemas.setdefault(name, _inputs_renamed(found, taken))
        return app.openapi_schema or generate()

    app.openapi = openapi  # type: ignore[method-assign]


def _inputs_renamed(schema: dict[str, Any], taken: set[str]) -> dict[str, Any]:
    """``schema`` with each reference to a component named in ``taken`` made one to
    its ``NAME-Input``."""
    text = json.dumps(schema)
    for name in taken:
        text = text.replace(_ref(name), _ref(f"{name}-Input"))
    result: dict[str, Any] = json.loads(text)
    return result


def _ref(name: str) -> str:
    """A reference to the OpenAPI component ``name``, as it reads in JSON text."""
    return json.dumps(f"#/components/schemas/{name}")


class JSONRoute(APIRoute):
    """A route whose JSON body is read by :class:`StrictJSONRequest`, and which answers
    415 to a body sent as anything but JSON, or compressed (a ``Content-Encoding``)."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = self.plain_handler()
        takes_body = self.body_field is not None or "requestBody" in (self.openapi_extra or {})

        async def strict_handler(request: Request) -> Response:
            if takes_body and not is_json(request.headers.get("content-type")):
                request.app.state.metrics.rejected.labels("unsupported_media_type").inc()
                given = request.headers.get("content-type")
                raise HTTPException(
                    415,
                    _("send the body as JSON with 'Content-Type: application/json'")
                    + (_("; got {given!r}", given=given[:60]) if given else _("; none was given")),
                    CLOSE,
                )
            # Header lines of one name are one list (RFC 9110): all of them, not the
            # first ("identity" then "gzip" let a gzip body through).
            coding = ", ".join(request.headers.getlist("content-encoding")).strip()
            codings = {c.strip().lower() for c in coding.split(",")}
            if takes_body and not codings <= {"", "identity"}:
                # A gzip body was read as text (400: "not UTF-8 at byte 0x8b"), and a
                # body said to be compressed but sent plain was answered as if not.
                request.app.state.metrics.rejected.labels("unsupported_media_type").inc()
                raise HTTPException(
                    415,
                    _(
                        "send the body uncompressed: this server reads no content coding;"
                        " got 'Content-Encoding: {coding}'",
                        coding=coding[:60],
                    ),
                    CLOSE,
                )
            return await handler(StrictJSONRequest(request.scope, request.receive))

        return strict_handler

    def plain_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        """What answers a request once its content type is checked: FastAPI's handler."""
        return super().get_route_handler()


class RequestRoute(JSONRoute):
    """A :class:`JSONRoute` whose endpoint takes the request alone and answers it with
    a ``Response``: FastAPI resolves no dependencies for it and serialises no response
    model (the docs still show both: the body with ``openapi_extra=json_body(Model)``,
    the answer with ``response_model``). For the route clients call most, whose body
    and answer a solver worker reads and writes: each layer skipped is CPU the server
    process, which every request goes through, keeps for the others."""

    def plain_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        endpoint: Callable[[Request], Coroutine[Any, Any, Response]] = self.endpoint
        return endpoint

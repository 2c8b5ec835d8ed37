"""Property-based API fuzzing with schemathesis over the OpenAPI schema, in process.

Every check runs, over every operation (Rummikub and Shanghai alike), plus one of
our own: every error answer is JSON with a ``detail`` string.
``positive_data_acceptance`` also accepts 422 because a request can fit the schema
and still not be a real game (a tile or card the rules do not have, more copies
than exist, an invalid table set or meld, a Shanghai contract out of the rules'
range or given twice): the solver, not the schema, knows the game.
``negative_data_rejection`` also accepts 413: a generated invalid body may be over
the body limit, and that is refused first. Examples are bounded to keep the suite
fast.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from schemathesis import Case, CheckContext
from schemathesis.config import SchemathesisConfig
from schemathesis.core.result import Ok
from schemathesis.python import asgi

from api.main import create_app
from api.settings import Settings

CONFIG = SchemathesisConfig.from_dict(
    {
        "checks": {
            "positive_data_acceptance": {"expected-statuses": ["2xx", "422"]},
            "negative_data_rejection": {"expected-statuses": ["400", "405", "413", "415", "422"]},
        },
        "generation": {"max-examples": 100},
        # Whole-game endpoints make many solves per request: fewer examples.
        "operations": [
            {
                "include-path-regex": "/v1/(rummikub/(bot|review)|shanghai/review)$",
                "generation": {"max-examples": 25},
            }
        ],
        "phases": {"examples": {"enabled": True}, "coverage": {"enabled": True}},
    }
)

# A short time cap keeps any large generated position quick.
app = create_app(Settings(workers=1, time_cap_ms=100, rate_limit=""))
# A bot game is whole games of solves (about half a second each), too slow to fuzz a
# hundred times: tests/api/test_games.py and tests/api/test_shanghai_game.py cover them.
GAMES = ["/v1/rummikub/game", "/v1/shanghai/game"]
schema = schemathesis.openapi.from_asgi("/openapi.json", app, config=CONFIG).exclude(path=GAMES)


@pytest.fixture(scope="module", autouse=True)
def one_lifespan_for_every_operation() -> Iterator[None]:
    """The app's lifespan (its solver worker: Python, the imports, a warm-up solve,
    about 2 s of CPU) runs once for the module rather than once for each operation's
    test: schemathesis ends it at each test's teardown, and here only at the
    module's. The operations share the app (its metrics, its state) all the same."""
    shutdown = asgi.shutdown_lifespans
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(asgi, "shutdown_lifespans", lambda: None)
        yield
    shutdown()


@schemathesis.check
def errors_are_json_with_a_detail(ctx: CheckContext, response: Any, case: Case[Any]) -> bool | None:
    if response.status_code < 400:
        return None
    body = response.json()
    assert isinstance(body, dict), f"error answer {response.status_code} is not a JSON object"
    assert isinstance(body.get("detail"), str), f"no detail: {body!r}"
    assert body["detail"], f"no detail: {body!r}"
    return True


@schema.parametrize()
def test_api_conforms_to_its_schema(case: Case[Any]) -> None:
    case.call_and_validate()


def test_every_operation_is_fuzzed() -> None:
    found = [result for result in schema.get_all_operations() if isinstance(result, Ok)]
    operations = {(op.ok().method, op.ok().path) for op in found}
    assert {
        ("post", "/v1/rummikub/solve"),
        ("post", "/v1/rummikub/validate"),
        ("post", "/v1/rummikub/score"),
        ("post", "/v1/rummikub/bot"),
        ("post", "/v1/rummikub/review"),
        ("post", "/v1/shanghai/advise"),
        ("post", "/v1/shanghai/score"),
        ("post", "/v1/shanghai/review"),
    } <= operations

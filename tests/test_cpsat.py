"""The request-side budget :class:`solver.cpsat.Limit`: its defaults and its checks."""

import inspect
import math

import pytest

from solver.cpsat import Limit
from solver.errors import LimitError, MeldwiseError
from solver.rummikub import Position, solve
from solver.shanghai.advice import advise


def test_defaults_are_the_solve_entries_defaults() -> None:
    """A Limit() budgets what a call with no budget arguments got before it existed."""
    loose = inspect.signature(solve).parameters
    limit = Limit()
    assert limit.time == loose["time_limit"].default
    assert limit.workers == loose["workers"].default
    assert limit.disruption_time == loose["disruption_time_limit"].default
    assert limit.disruption_work == loose["disruption_work"].default
    assert inspect.signature(advise).parameters["limit"].default is None


def test_a_limit_cannot_change() -> None:
    limit = Limit()
    with pytest.raises(AttributeError):
        limit.time = 5.0  # type: ignore[misc]


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("time", 0.0),
        ("time", -1.0),
        ("time", math.inf),
        ("time", math.nan),
        ("workers", 0),
        ("workers", 1.5),
        ("workers", True),
        ("disruption_work", -0.1),
        ("disruption_time", -2.0),
        ("disruption_time", "2"),
    ],
)
def test_a_value_out_of_range_is_named(field: str, value: object) -> None:
    with pytest.raises(LimitError, match=field) as raised:
        Limit(**{field: value})  # type: ignore[arg-type]
    assert repr(value) in str(raised.value)
    assert isinstance(raised.value, MeldwiseError)


def test_zero_stage_budgets_are_allowed() -> None:
    """0 disruption time or work: the stage starts no search (the wire's 0 ms)."""
    assert Limit(disruption_work=0.0, disruption_time=0.0).disruption_time == 0.0


def test_rummikub_solve_takes_a_limit_or_the_loose_arguments() -> None:
    position = Position.parse("R1 R2 R3 J B7", "O3 O4 O5 | K5 B5 R5")
    given = solve(position, limit=Limit(time=5.0, disruption_time=4.0, disruption_work=0.2))
    loose = solve(position, time_limit=5.0, disruption_time_limit=4.0, disruption_work=0.2)
    assert given == loose
    assert given.tiles_played >= 4
    with pytest.raises(LimitError, match="workers"):
        solve(position, workers=0)

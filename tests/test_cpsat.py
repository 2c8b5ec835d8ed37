"""The request-side budget :class:`solver.cpsat.Limit`: its defaults and its checks."""

import inspect
import math

import pytest

from solver.cpsat import (
    DEFAULT_DISRUPTION_TIME_LIMIT,
    DEFAULT_DISRUPTION_WORK,
    DEFAULT_TIME_LIMIT,
    Limit,
)
from solver.errors import LimitError, MeldwiseError
from solver.rummikub import Position, solve
from solver.shanghai.advice import advise


def test_defaults_are_the_solve_entries_defaults() -> None:
    """A call with no budget gets a Limit(): the library's documented defaults."""
    limit = Limit()
    assert limit.time == DEFAULT_TIME_LIMIT
    assert limit.workers == 1
    assert limit.disruption_time == DEFAULT_DISRUPTION_TIME_LIMIT
    assert limit.disruption_work == DEFAULT_DISRUPTION_WORK
    for entry in (solve, advise):
        assert inspect.signature(entry).parameters["limit"].default is None


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


def test_rummikub_solve_takes_its_budget_as_a_limit_only() -> None:
    position = Position.parse("R1 R2 R3 J B7", "O3 O4 O5 | K5 B5 R5")
    given = solve(position, limit=Limit(time=5.0, disruption_time=4.0, disruption_work=0.2))
    assert given == solve(position)
    assert given.tiles_played >= 4
    loose = {"time_limit", "workers", "disruption_time_limit", "disruption_work"}
    assert not loose & set(inspect.signature(solve).parameters)
    with pytest.raises(TypeError, match="time_limit"):
        solve(position, time_limit=5.0)  # type: ignore[call-arg]

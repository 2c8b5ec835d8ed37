"""benchmarks.draw_load: the turns it deals, what it counts, its busy loops."""

from __future__ import annotations

import pytest

import solver.shanghai.draw as draw_module
from benchmarks.draw_load import Row, busy, counted, report, turns
from solver.shanghai import advise


def test_the_turns_are_the_same_for_a_seed() -> None:
    first, again = list(turns(7, 1)), list(turns(7, 1))
    assert len(first) == 60
    assert [t[3] for t in first] == [t[3] for t in again]
    assert {len(t[3].hand) for t in first} == {11, 15, 21}


def test_a_turn_is_counted_and_a_budget_reached_seen(monkeypatch: pytest.MonkeyPatch) -> None:
    name, rules, number, position = next(
        t for t in turns(7, 1) if t[0] == "wild3" and t[2] == 3 and len(t[3].hand) == 11
    )
    row = Row(name, number, len(position.hand))
    with counted(row):
        row.status = advise(position, rules).status.value
    assert row.searches > 1
    assert row.work > 0
    assert not row.budget
    monkeypatch.setattr(draw_module, "DRAW_WORK", 0.01)
    cut = Row(name, number, len(position.hand))
    with counted(cut):
        cut.status = advise(position, rules).status.value
    assert cut.budget
    assert cut.searches < row.searches
    assert report([row, cut])[-1] == "capped 0 of 2, budget reached 1, not optimal 1"


def test_the_busy_loops_stop() -> None:
    with busy(2) as loops:
        assert all(loop.poll() is None for loop in loops)
    assert all(loop.poll() is not None for loop in loops)

"""benchmarks.draw_load: the turns it deals, what it counts, its busy loops."""

from __future__ import annotations

import pytest

import solver.shanghai.phase_budget as phase_budget
from benchmarks.draw_load import HARD_PLAY, Row, busy, counted, report, turns
from solver.cpsat import Limit
from solver.shanghai import advise
from solver.shanghai.position import Phase


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
    monkeypatch.setattr(phase_budget, "DRAW", phase_budget.PhaseBudget(0.01, 100))
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


def test_the_play_turns_are_dealt_down_and_not_and_end_with_the_hard_ones() -> None:
    first = list(turns(7, 1, Phase.PLAY))
    assert [t[3] for t in first] == [t[3] for t in turns(7, 1, Phase.PLAY)]
    assert len(first) == 60 + len(HARD_PLAY)
    assert [t[0] for t in first[60:]] == list(HARD_PLAY)
    assert all(t[3].phase is Phase.PLAY for t in first)
    down = [t[3] for t in first[:60] if t[3].down]
    assert len(down) == 20
    assert all(2 <= len(p.hand) <= 8 and p.table for p in down)
    assert {len(t[3].hand) for t in first[:60] if not t[3].down} == {12, 16}
    for name, rules, _number, position in first:
        assert advise(position, rules, limit=Limit(0.001)).phase is Phase.PLAY, name

"""A turn's advice is as proven as its least proven stage: a search stopped by a limit
shows in the status, and nothing the advice says rests on what the search did not
find (the advice once answered ``optimal`` with ``go_down: null`` and a note that
going down would leave a card, when the search had only run out of time)."""

from __future__ import annotations

from typing import Any

import pytest
from ortools.sat.python import cp_model

import solver.cpsat as cpsat
from solver.shanghai.examples import ADVISE_REQUEST
from solver.shanghai.wire import advise_shanghai

REAL_RUN = cpsat.run


def stopped_searches(
    monkeypatch: pytest.MonkeyPatch, code: cp_model.CpSolverStatus
) -> list[cp_model.CpSolverStatus]:
    """Make every CP-SAT search stop as if a limit cut it short: ``UNKNOWN`` before
    it found anything, ``FEASIBLE`` with the solution found but not proven. Returns
    the codes the searches really ended with, as they run."""
    real: list[cp_model.CpSolverStatus] = []

    def run(model: cp_model.CpModel, limits: cpsat.Limits, *args: Any) -> cpsat.Solved:
        solved = REAL_RUN(model, limits, *args)
        real.append(solved.code)
        if code == cp_model.UNKNOWN or solved.code == cp_model.OPTIMAL:
            solved.code = code
        return solved

    monkeypatch.setattr(cpsat, "run", run)
    return real


def test_the_example_turn_is_proven_when_no_search_stops() -> None:
    answer = advise_shanghai(ADVISE_REQUEST)
    assert answer["status"] == "optimal"
    assert answer["go_down"] is not None


def test_a_turn_search_stopped_before_it_found_a_play_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real = stopped_searches(monkeypatch, cp_model.UNKNOWN)
    answer = advise_shanghai(ADVISE_REQUEST)
    assert real  # the turn needed CP-SAT
    assert answer["status"] == "unknown"
    assert answer["go_down"] is None
    assert answer["lay_offs"] is None
    assert "stopped before finding one" in " ".join(answer["notes"])
    # Nothing is claimed about what going down would leave.
    assert not any("cannot be laid off" in note for note in answer["notes"])


def test_a_turn_search_stopped_before_it_proved_its_play_is_feasible(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    stopped_searches(monkeypatch, cp_model.FEASIBLE)
    answer = advise_shanghai(ADVISE_REQUEST)
    assert answer["status"] == "feasible"
    assert answer["go_down"] is not None  # the play found stands, unproven

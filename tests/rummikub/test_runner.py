"""Rummikub's CP-SAT parameters (:mod:`solver.rummikub.runner`)."""

from typing import Any

import pytest

import solver.cpsat as cpsat
from solver.rummikub import Position, solve

# t10-r14#15 of benchmarks/positions-2026.json: the calm play, a step-3 search and a
# step-2 search, each on another model.
POSITION = Position.parse(
    "R2 B1 B2 B9 K5 K7 K7 K11 O2 O3 O5 O9 O11 J",
    "O4 O5 O6 | R7 R8 R9 R10 R11 R12 | B3 B4 B5 B6 B7 B8",
)

_RUN = cpsat.run


def _searches(monkeypatch: pytest.MonkeyPatch, extra: dict[str, Any]) -> list[Any]:
    """Each search of the default solve of POSITION: its parameters and response,
    with ``extra`` parameters set after Rummikub's."""
    found: list[Any] = []

    def spy(model: Any, limits: Any, workers: int = 1, tune: Any = None) -> Any:
        def tuned(params: Any) -> None:
            if tune is not None:
                tune(params)
            for name, value in extra.items():
                setattr(params, name, value)

        solved = _RUN(model, limits, workers, tuned)
        engine = solved.engine
        found.append((engine.parameters, list(engine.response_proto.solution), int(solved.code)))
        return solved

    monkeypatch.setattr(cpsat, "run", spy)
    solve(POSITION)
    return found


def test_every_search_skips_the_load_analyses_and_searches_the_same(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The analyses are off in every search, and turning them back on gives the same
    solutions (the search does not use them)."""
    skipped = _searches(monkeypatch, {})
    assert len(skipped) == 3
    for params, _, _ in skipped:
        assert params.transitive_precedences_work_limit == 0
        assert not params.auto_detect_greater_than_at_least_one_of
        assert not params.find_big_linear_overlap
    on = {
        "transitive_precedences_work_limit": 1_000_000,
        "auto_detect_greater_than_at_least_one_of": True,
        "find_big_linear_overlap": True,
    }
    analysed = _searches(monkeypatch, on)
    assert [s[1:] for s in analysed] == [s[1:] for s in skipped]


def test_steps_3_and_2_explain_the_lp_by_cheaper_reasons_to_the_same_answer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The calm play's search explains the LP's propagations by exact reasons, step 3's
    and step 2's by cheaper ones (about 0.96 times their CPU, the same deterministic
    work: benchmarks/RESULTS.md, Issue 14q); with exact reasons everywhere the
    searches end the same way."""
    cheaper = _searches(monkeypatch, {})
    assert [params.use_exact_lp_reason for params, _, _ in cheaper] == [True, False, False]
    exact = _searches(monkeypatch, {"use_exact_lp_reason": True})
    assert [s[2] for s in exact] == [s[2] for s in cheaper]

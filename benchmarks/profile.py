"""Where the time of a solve goes: model building in Python, CP-SAT (presolve, then
search), laying the answer out, and the rest (checking the position, assembling the play).

It runs the user's call, :func:`solver.rummikub.solve`, with timers wrapped around
the functions it calls by name (``PARTS``) and around ``CpSolver.solve``; a part
that the solver no longer calls by that name shows as 0 and its time falls into
"other". Presolve is timed by a second run of the same model and parameters
with ``stop_after_presolve`` (left out of the total; capped at the real run's
time), so "search" is CP-SAT's time minus that: search plus postsolve.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from typing import Any
from unittest import mock

from ortools.sat.python import cp_model

from benchmarks.cases import Mode
from solver.rummikub import Limit, Position, Rules, solve

PARTS = (
    ("build", "solver.rummikub.search", "build_model"),
    ("build", "solver.rummikub.disruption", "build_model"),
    ("layout", "solver.rummikub.search", "lay_out"),
    ("layout", "solver.rummikub.disruption", "lay_out"),
)
"""(part, module, function): Python functions timed by name where solve() calls them."""


@dataclass(frozen=True, slots=True)
class Split:
    """Milliseconds of one solve, by part."""

    total: float
    build: float
    presolve: float
    search: float
    layout: float

    @property
    def other(self) -> float:
        return self.total - self.build - self.presolve - self.search - self.layout


def profile_solve(
    position: Position,
    mode: Mode,
    rules: Rules,
    time_limit: float,
    least_disruption: bool = True,
) -> Split:
    """Solve ``position`` as ``mode`` asks and split its time into parts."""
    clock = dict.fromkeys(("build", "layout", "cpsat", "presolve"), 0.0)
    with _timers(clock):
        start = time.perf_counter()
        solve(
            mode.position(position),
            rules,
            mode.objective,
            limit=Limit(time_limit),
            least_disruption=least_disruption,
        )
        total = time.perf_counter() - start - clock["presolve"]
    ms = {part: seconds * 1000 for part, seconds in clock.items()}
    presolve = min(ms["presolve"], ms["cpsat"])
    return Split(total * 1000, ms["build"], presolve, ms["cpsat"] - presolve, ms["layout"])


@contextmanager
def _timers(clock: dict[str, float]) -> Iterator[None]:
    with ExitStack() as stack:
        for part, module_name, name in PARTS:
            module = importlib.import_module(module_name)
            if hasattr(module, name):
                timed = _timed(getattr(module, name), clock, part)
                stack.enter_context(mock.patch.object(module, name, timed))
        original = cp_model.CpSolver.solve
        stack.enter_context(
            mock.patch.object(cp_model.CpSolver, "solve", _timed_cpsat(original, clock))
        )
        yield


def _timed(function: Callable[..., Any], clock: dict[str, float], part: str) -> Callable[..., Any]:
    def timed(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            clock[part] += time.perf_counter() - start

    return timed


def _timed_cpsat(original: Callable[..., Any], clock: dict[str, float]) -> Callable[..., Any]:
    def timed(engine: cp_model.CpSolver, model: cp_model.CpModel, *args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        status = original(engine, model, *args, **kwargs)
        clock["cpsat"] += time.perf_counter() - start
        # Then the same model and parameters again, stopping after presolve, on
        # another solver so the caller still reads the real solve's response.
        start = time.perf_counter()
        probe = cp_model.CpSolver()
        probe.parameters.copy_from(engine.parameters)
        probe.parameters.stop_after_presolve = True
        original(probe, model)
        clock["presolve"] += time.perf_counter() - start
        return status

    return timed

"""Running CP-SAT on a turn model: the parameters, the limits, reading the solution.

Every search is bounded first by deterministic work: CP-SAT's deterministic time, a
count of the work done (propagations, LP iterations, ...) in seconds of its own
measure that does not depend on the machine or its load. With one worker the same
model and limit give the same search, so the same answer, on an idle and on a busy
machine. Wall-clock time is only the outer safety cap; a search it stops is marked
(:attr:`Limits.capped`), as its answer may then differ from one on an idle machine.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from ortools.sat.python import cp_model

from solver.rummikub.model import LinearExpr, TurnModel, goal_bound

_IntVar = cp_model.IntVar

MIN_SECONDS = 0.001
"""Wall-clock seconds below which a search is not started (CP-SAT needs a positive limit)."""


@dataclass
class Limits:
    """What the searches of a stage may still use: ``work`` in CP-SAT's deterministic
    seconds, and wall-clock time up to ``deadline`` (a :func:`time.perf_counter` value)."""

    work: float
    deadline: float
    capped: bool = False
    """Whether the wall-clock cap stopped a search or kept one from starting."""

    @classmethod
    def of(cls, work: float, seconds: float) -> Limits:
        """``work`` deterministic seconds within ``seconds`` of wall-clock time from now."""
        return cls(work, time.perf_counter() + seconds)

    def seconds_left(self) -> float:
        return self.deadline - time.perf_counter()

    @property
    def left(self) -> bool:
        """Whether another search may start: work left and the cap not reached."""
        if self.capped:
            return False
        if self.seconds_left() < MIN_SECONDS:
            self.capped = True  # a search that would have run on an idle machine does not
            return False
        return self.work > 0


@dataclass
class Solved:
    tm: TurnModel
    engine: cp_model.CpSolver
    code: cp_model.CpSolverStatus
    _solution: list[int] | None = None

    @property
    def found(self) -> bool:
        """Whether the search found a solution (proven best or not)."""
        return self.code in (cp_model.OPTIMAL, cp_model.FEASIBLE)

    @property
    def optimal(self) -> bool:
        return self.code == cp_model.OPTIMAL

    @property
    def infeasible(self) -> bool:
        return self.code == cp_model.INFEASIBLE

    @property
    def bound(self) -> float:
        """The upper bound the search proved on the goal it maximised."""
        return goal_bound(self.engine)

    def value(self, expr: LinearExpr) -> int:
        """The solved value of ``expr``: variables are read from the solution vector
        at once (the layout reads hundreds of them; CP-SAT's ``value`` costs 4x more)."""
        if type(expr) is _IntVar:
            if self._solution is None:
                self._solution = list(self.engine.response_proto.solution)
            return self._solution[expr.index]
        if type(expr) is int:
            return expr
        return self.engine.value(expr)

    def score(self) -> tuple[int, int, int]:
        """The play's score, jokers played and tiles played (what
        :func:`~solver.rummikub.model.fix_score` fixes)."""
        tm = self.tm
        return self.value(tm.objective), self.value(tm.played_jokers), self.value(tm.tiles)


@dataclass(frozen=True, slots=True)
class Search:
    """How CP-SAT searches, where it differs from the score stage's way (see run)."""

    lazy_lp: bool = False
    """Start the LP with part of the constraints, adding the others when violated."""
    pseudo_costs: bool = False
    """Branch on the variables whose changes moved the objective bound most so far,
    rather than as the LP suggests."""
    probing: bool = False
    """Probe variables (fix one, propagate, learn) before and during the search."""
    hint_phase: bool = True
    """Before searching, follow the starting solution (hint) until some conflicts; with
    False the hint is only the first solution."""


SCORE_SEARCH = Search()


def run(
    tm: TurnModel,
    limits: Limits,
    workers: int = 1,
    gap: int = 0,
    search: Search = SCORE_SEARCH,
) -> Solved:
    """Search ``tm`` within ``limits`` and charge them the work done (call only when
    ``limits.left``); stop once the bound is within ``gap`` of the best solution."""
    engine = cp_model.CpSolver()
    params = engine.parameters
    params.max_deterministic_time = limits.work
    params.max_time_in_seconds = max(limits.seconds_left(), MIN_SECONDS)
    params.num_workers = workers
    # Measured on the benchmark positions (score stage, same optima throughout):
    # the models are small, already pruned and mostly solved without a conflict.
    # Without presolve, build + solve went from median 9.6 / p95 24.6 ms to
    # 4.1 / 9.7 ms, LP-guided branching took the p95 to 8.4 ms, and skipping
    # probing, symmetry detection and inprocessing then took CP-SAT's own time
    # from median 1.8 / p95 6.4 ms to 1.4 / 4.3 ms. Then, with no cut generation
    # and every constraint in the LP from the start (the LP of the count model is
    # tight, and small), CP-SAT's median went from 1.6 to 1.2 ms and its p95 from
    # 4.1 to 2.2 ms (tiles; opening p95 1.7 -> 1.15 ms).
    params.cp_model_presolve = False
    params.cp_model_probing_level = 2 if search.probing else 0
    params.symmetry_level = 0
    params.use_sat_inprocessing = False
    params.search_branching = (
        cp_model.PSEUDO_COST_SEARCH if search.pseudo_costs else cp_model.LP_SEARCH
    )
    params.cut_level = 0
    params.add_lp_constraints_lazily = search.lazy_lp
    params.absolute_gap_limit = gap
    if not search.hint_phase:
        params.hint_conflict_limit = 0
    code = engine.solve(tm.model)
    used = engine.deterministic_time
    if code in (cp_model.FEASIBLE, cp_model.UNKNOWN) and used < params.max_deterministic_time:
        limits.capped = True  # stopped by the clock, not by the work limit
    limits.work = max(0.0, limits.work - used)
    return Solved(tm, engine, code)

"""Running CP-SAT on a turn model: Rummikub's parameters over the kernel's run.

Every search is bounded first by deterministic work, wall-clock time being only the
outer safety cap (:class:`solver.cpsat.Limits`): the same request gets the same
answer on an idle and on a busy machine.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ortools.sat.python import cp_model

import solver.cpsat as cpsat
from solver.cpsat import Limits
from solver.rummikub.model import TurnModel

__all__ = ["SCORE_SEARCH", "Limits", "Search", "Solved", "run"]


@dataclass
class Solved(cpsat.Solved):
    """A search of the turn model ``tm``."""

    tm: TurnModel = field(kw_only=True)

    def score(self) -> tuple[int, int, int]:
        """The play's score, jokers played and tiles played (what
        :func:`~solver.rummikub.model.fix_score` fixes)."""
        tm = self.tm
        return self.value(tm.objective), self.value(tm.played_jokers), self.value(tm.tiles)


@dataclass(frozen=True, slots=True)
class Search:
    """How CP-SAT searches, where it differs from the score stage's way (see run)."""

    pseudo_costs: bool = False
    """Branch on the variables whose changes moved the objective bound most so far,
    rather than as the LP suggests."""
    probing: bool = False
    """Probe variables (fix one, propagate, learn) before and during the search."""
    hint_phase: bool = True
    """Before searching, follow the starting solution (hint) until some conflicts; with
    False the hint is only the first solution."""
    first_solution: bool = False
    """Stop at the first solution found: the objective only steers the search."""
    exact_lp_reasons: bool = True
    """Explain the LP's propagations by exact (minimal) reasons; with False, by reasons
    cheaper to compute. Keep CP-SAT's own cuts off with them (``run`` sets ``cut_level``
    0): with cuts, one step-3 search of t60-r30#11 refuted a model that has a play, a
    wrong proof (benchmarks/RESULTS.md, Issue 14u)."""


SCORE_SEARCH = Search()


def _skip_load_analyses(params: Any) -> None:
    """Leave out three analyses CP-SAT makes of a model as it loads it (presolve off),
    which these models never use: the transitive closure of precedences (x <= y rows
    such as a grown run's covers), the detection of "greater than at least one of"
    and the search for big overlaps between linear rows. The search is the same: on all
    2,930 CP-SAT calls of the default solve of the 660 committed positions (tiles and
    points), the same status, solution, deterministic time and branches; about 0.97
    times the time of the calm play's search (93 positions of the corpus, fastest of
    2) and 0.98 times the whole solve (benchmarks/RESULTS.md, Issue 14j)."""
    params.transitive_precedences_work_limit = 0
    params.auto_detect_greater_than_at_least_one_of = False
    params.find_big_linear_overlap = False


def run(
    tm: TurnModel,
    limits: Limits,
    workers: int = 1,
    gap: int = 0,
    search: Search = SCORE_SEARCH,
) -> Solved:
    """Search ``tm`` within ``limits`` and charge them the work done (nothing left:
    UNKNOWN at once, see :func:`solver.cpsat.run`); stop once the bound is within
    ``gap`` of the best solution."""

    def tune(params: Any) -> None:
        # Measured on the benchmark positions (score stage, same optima throughout):
        # the models are small, already pruned and mostly solved without a conflict.
        # Without presolve, build + solve went from median 9.6 / p95 24.6 ms to
        # 4.1 / 9.7 ms, LP-guided branching took the p95 to 8.4 ms, and skipping
        # probing, symmetry detection and inprocessing then took CP-SAT's own time
        # from median 1.8 / p95 6.4 ms to 1.4 / 4.3 ms. Then, with no cut generation
        # and every constraint in the LP from the start (the LP of the count model is
        # tight, and small), CP-SAT's median went from 1.6 to 1.2 ms and its p95 from
        # 4.1 to 2.2 ms (tiles; opening p95 1.7 -> 1.15 ms).
        # The runs holding jokers laid out in slots (a binding max_jokers_per_set on a
        # large variant) are a model of another kind: without presolve, LP-guided
        # search found no play within the score stage's work on a 25-number variant
        # (0.03 s with it). Counted in pieces they are columns of the tile balance like
        # the flow's, and presolve only costs (see add_joker_pieces).
        params.cp_model_presolve = tm.joker_slots
        params.cp_model_probing_level = 2 if search.probing else 0
        params.symmetry_level = 0
        params.use_sat_inprocessing = False
        params.search_branching = (
            cp_model.PSEUDO_COST_SEARCH if search.pseudo_costs else cp_model.LP_SEARCH
        )
        params.cut_level = 0
        params.add_lp_constraints_lazily = False
        params.absolute_gap_limit = gap
        params.stop_after_first_solution = search.first_solution
        if not search.exact_lp_reasons:
            params.use_exact_lp_reason = False
        if not search.hint_phase:
            params.hint_conflict_limit = 0
        if not params.cp_model_presolve:
            _skip_load_analyses(params)

    found = cpsat.run(tm.model, limits, workers, tune)
    return Solved(found.model, found.engine, found.code, tm=tm)

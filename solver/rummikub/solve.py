"""Solve a Rummikub turn in two stages.

1. The score: the lean count model (no table sets continued) finds the best
   score, then keeps the most jokers on the rack; this is what ``status``
   speaks of.
2. Least disruption: with score and jokers fixed, a second model lets every
   table set continue (see :func:`~solver.rummikub.model.add_continuations`) and
   keeps the most sets whole, then leaves the most table tiles in place. It
   first asks whether every set can be kept (usually answered in a few ms), and
   otherwise searches within ``disruption_time_limit``; ``disruption_proven``
   says whether it finished.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass
from itertools import chain

from ortools.sat.python import cp_model

from solver.cpsat import Status
from solver.rummikub.layout import PlacedSet, jokers_beyond_runs, lay_out
from solver.rummikub.melds import Meld
from solver.rummikub.model import (
    LinearExpr,
    TileCounts,
    TurnModel,
    build_model,
    set_disruption_objective,
)
from solver.rummikub.notation import JOKER, Colour, Tile
from solver.rummikub.position import Objective, Position
from solver.rummikub.result import Play
from solver.rummikub.rules import STANDARD, Rules
from solver.rummikub.steps import plan

DEFAULT_TIME_LIMIT = 2.0
"""Seconds a solve may take unless the caller says otherwise."""

DEFAULT_DISRUPTION_TIME_LIMIT = 0.2
"""Seconds the least-disruption stage may take (within the overall limit)."""


_IntVar = cp_model.IntVar


@dataclass
class _Solved:
    tm: TurnModel
    engine: cp_model.CpSolver
    code: cp_model.CpSolverStatus
    _solution: list[int] | None = None

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


def solve(
    position: Position,
    rules: Rules = STANDARD,
    objective: Objective = Objective.TILES,
    *,
    time_limit: float = DEFAULT_TIME_LIMIT,
    workers: int = 1,
    least_disruption: bool = True,
    disruption_time_limit: float = DEFAULT_DISRUPTION_TIME_LIMIT,
) -> Play:
    """Find the best play for ``position`` under ``rules``.

    Before opening (``position.opened`` is false) the play is new sets from the
    rack alone worth at least ``rules.opening_threshold``, or nothing; the table
    is left as it is. After opening the whole table may be rearranged. Among the
    plays with the best score it returns the one that keeps the most jokers on
    the rack, then (with ``least_disruption``) keeps the most table sets whole,
    then moves the fewest table tiles; remaining ties are broken the same way on
    every call. The score is proven optimal unless ``time_limit`` (seconds) runs
    out first; see :class:`Status`.

    Raises a :class:`~solver.errors.MeldwiseError` for a position that breaks the rules.
    """
    started = time.perf_counter()
    table_melds = position.check(rules)
    opening = not position.opened
    rack = TileCounts.of(Counter(position.rack))
    table = TileCounts({}) if opening else TileCounts.of(Counter(chain(*position.table)))

    tm = build_model(rules, rack, table, objective, opening)
    # No starting solution: hinting the table as it is doubled the median solve.
    first = _run(tm, _left(started, time_limit), workers)
    if first.code == cp_model.INFEASIBLE and opening:
        return _no_play(Status.OPTIMAL, position, table_melds, rules)
    if first.code == cp_model.UNKNOWN:
        return _no_play(Status.UNKNOWN, position, table_melds, rules)
    if first.code not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        raise RuntimeError(f"CP-SAT returned {first.code} on a turn model")  # a bug
    status = Status.OPTIMAL if first.code == cp_model.OPTIMAL else Status.FEASIBLE
    played = _played_tiles(first)
    if not played:
        return _no_play(status, position, table_melds, rules)
    if opening:
        placed = _unchanged(table_melds) + lay_out(first.tm, first.value)
        return _play(status, position, played, table_melds, placed, rules, True)

    # With no table there is nothing to disturb: proven at once.
    placed, proven = lay_out(first.tm, first.value), not table_melds
    left = _left(started, time_limit)
    if least_disruption and table_melds and left > MIN_STAGE_TIME:
        calmer = _least_disruption(
            first, rules, rack, table, objective, table_melds, min(left, disruption_time_limit)
        )
        if calmer is not None:
            # As many tiles and points, but maybe other tiles: read them off the layout.
            placed, proven = calmer
            played = _played_tiles_of(placed, table_melds)
    return _play(status, position, played, table_melds, placed, rules, proven)


def _unchanged(melds: tuple[Meld, ...]) -> list[PlacedSet]:
    """The table sets as they are, each going on whole."""
    return [PlacedSet(m, i, m.tiles, ()) for i, m in enumerate(melds)]


def _no_play(status: Status, position: Position, melds: tuple[Meld, ...], rules: Rules) -> Play:
    """The answer that places nothing and leaves the table as it is."""
    return _play(status, position, [], melds, _unchanged(melds), rules, True)


def _least_disruption(
    first: _Solved,
    rules: Rules,
    rack: TileCounts,
    table: TileCounts,
    objective: Objective,
    melds: tuple[Meld, ...],
    time_limit: float,
) -> tuple[list[PlacedSet], bool] | None:
    """Stage 2: the least disruptive layout of a play as good as ``first``'s,
    and whether it is proven least disruptive; None if none was found in time."""
    started = time.perf_counter()
    score = first.value(first.tm.objective)
    jokers = first.value(first.tm.played_jokers)
    tiles = first.value(first.tm.tiles)
    tm = build_model(rules, rack, table, objective, opening=False, table_melds=melds)
    set_disruption_objective(tm, score, jokers, tiles)
    # Can every table set be kept? If so that is the least disruption there is.
    every = _run(tm, time_limit, 1, assume=[c.kept for c in tm.continuations])
    if every.code in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return lay_out(tm, every.value), True
    _hint(tm, first)
    left = _left(started, time_limit)
    if left <= MIN_STAGE_TIME:
        return None
    best = _run(tm, left, 1)
    if best.code in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return lay_out(tm, best.value), best.code == cp_model.OPTIMAL
    return None


MIN_STAGE_TIME = 0.001
"""Seconds below which a stage is not started (CP-SAT needs a positive limit)."""


def _left(started: float, time_limit: float) -> float:
    """What remains of ``time_limit`` seconds since ``started`` (at least a sliver)."""
    return max(time_limit - (time.perf_counter() - started), MIN_STAGE_TIME)


def _run(
    tm: TurnModel, time_limit: float, workers: int, assume: list[cp_model.IntVar] | None = None
) -> _Solved:
    engine = cp_model.CpSolver()
    engine.parameters.max_time_in_seconds = time_limit
    engine.parameters.num_workers = workers
    # Measured on the benchmark positions (score stage, same optima throughout):
    # the models are small, already pruned and mostly solved without a conflict.
    # Without presolve, build + solve went from median 9.6 / p95 24.6 ms to
    # 4.1 / 9.7 ms, LP-guided branching took the p95 to 8.4 ms, and skipping
    # probing, symmetry detection and inprocessing then took CP-SAT's own time
    # from median 1.8 / p95 6.4 ms to 1.4 / 4.3 ms. Then, with no cut generation
    # and every constraint in the LP from the start (the LP of the count model is
    # tight, and small), CP-SAT's median went from 1.6 to 1.2 ms and its p95 from
    # 4.1 to 2.2 ms (tiles; opening p95 1.7 -> 1.15 ms).
    params = engine.parameters
    params.cp_model_presolve = False
    params.cp_model_probing_level = 0
    params.symmetry_level = 0
    params.use_sat_inprocessing = False
    params.search_branching = cp_model.LP_SEARCH
    params.cut_level = 0
    params.add_lp_constraints_lazily = False
    tm.model.clear_assumptions()
    if assume:
        tm.model.add_assumptions(assume)
    code = engine.solve(tm.model)
    tm.model.clear_assumptions()
    return _Solved(tm, engine, code)


def _hint(tm: TurnModel, first: _Solved) -> None:
    """Start stage 2 from stage 1's play, laid out with no table set continued."""
    value = first.value
    solved = {
        family: {key: value(expr) for key, expr in exprs.items()}
        for family, exprs in first.tm.counts().items()
    }
    # Stage 1 may count jokers beyond the runs at a cell, standing in the groups
    # there (see add_runs); stage 2 bounds run jokers by runs, so they are group jokers.
    for cell in solved["run_jokers"]:
        beyond = jokers_beyond_runs(first.tm, cell, value)
        if beyond:
            solved["run_jokers"][cell] -= beyond
            solved["group_jokers"][cell[1]] += beyond
    for family, variables in tm.count_variables().items():
        for key, var in variables.items():
            tm.model.add_hint(var, solved[family].get(key, 0))
    for var in tm.continuation_variables():
        tm.model.add_hint(var, 0)


def _played_tiles(solved: _Solved) -> list[Tile]:
    tm, value = solved.tm, solved.value
    played = [
        Tile.natural(Colour.from_index(colour), number)
        for (colour, number), var in tm.played.items()
        for _ in range(value(var))
    ]
    played += [JOKER] * value(tm.played_jokers)
    return played


def _played_tiles_of(placed: list[PlacedSet], before: tuple[Meld, ...]) -> list[Tile]:
    """The rack tiles a layout places: the table after minus the table before."""
    after: Counter[Tile] = Counter(t for p in placed for t in p.meld.tiles)
    for meld in before:
        after.subtract(meld.tiles)
    return list(after.elements())


def _play(
    status: Status,
    position: Position,
    played: list[Tile],
    before: tuple[Meld, ...],
    after: list[PlacedSet],
    rules: Rules,
    disruption_proven: bool,
) -> Play:
    left = Counter(position.rack)
    left.subtract(played)
    steps = plan(before, after, played, position.table)
    stayed = sum(len(p.stayed) for p in after)
    return Play(
        status=status,
        played=tuple(sorted(played)),
        rack_left=tuple(sorted(left.elements())),
        table=tuple(p.meld for p in steps.table),
        tiles_played=len(played),
        points_played=sum(rules.value(tile) for tile in played),
        sets_kept=sum(
            1
            for p in after
            if p.origin is not None and len(p.stayed) == len(before[p.origin].tiles)
        ),
        tiles_moved=sum(len(m.tiles) for m in before) - stayed,
        steps=steps.steps,
        disruption_proven=disruption_proven,
    )

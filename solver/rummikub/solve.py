"""Solve a Rummikub turn: build the model, run CP-SAT, lay out the answer."""

from __future__ import annotations

from collections import Counter

from ortools.sat.python import cp_model

from solver.rummikub.layout import lay_out
from solver.rummikub.melds import Meld
from solver.rummikub.model import TileCounts, TurnModel, build_model
from solver.rummikub.play import Objective, Play, Status
from solver.rummikub.position import Position
from solver.rummikub.rules import STANDARD, Rules
from solver.rummikub.tiles import JOKER, Colour, Tile

DEFAULT_TIME_LIMIT = 2.0
"""Seconds a solve may take unless the caller says otherwise."""


def solve(
    position: Position,
    rules: Rules = STANDARD,
    objective: Objective = Objective.TILES,
    *,
    time_limit: float = DEFAULT_TIME_LIMIT,
    workers: int = 1,
) -> Play:
    """Find the best play for ``position`` under ``rules``.

    Before opening (``position.opened`` is false) the play is new sets from the
    rack alone worth at least ``rules.opening_threshold``, or nothing. After
    opening the whole table may be rearranged. The answer is proven optimal
    unless ``time_limit`` (seconds) runs out first; see :class:`Status`.

    Raises a :class:`~solver.errors.MeldwiseError` for a position that breaks the rules.
    """
    table_melds = position.check(rules)
    opening = not position.opened
    rack = TileCounts.of(Counter(position.rack))
    table = TileCounts({}) if opening else TileCounts.of(_table_tiles(position))
    tm = build_model(rules, rack, table, objective, opening)

    engine = cp_model.CpSolver()
    engine.parameters.max_time_in_seconds = time_limit
    engine.parameters.num_workers = workers
    code = engine.solve(tm.model)

    if code in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        status = Status.OPTIMAL if code == cp_model.OPTIMAL else Status.FEASIBLE
        played = _played_tiles(tm, engine)
        if played:
            new_sets = lay_out(tm, engine.value)
            table_after = (*table_melds, *new_sets) if opening else tuple(new_sets)
            return _play(status, position, played, table_after, rules)
    elif code == cp_model.INFEASIBLE and opening:
        status = Status.OPTIMAL  # proven: no opening exists, the player draws
    elif code == cp_model.UNKNOWN:
        status = Status.UNKNOWN
    else:
        raise RuntimeError(f"CP-SAT returned {code} on a turn model")  # a bug, not bad input
    return _play(status, position, [], table_melds, rules)


def _table_tiles(position: Position) -> Counter[Tile]:
    counts: Counter[Tile] = Counter()
    for tiles in position.table:
        counts.update(tiles)
    return counts


def _played_tiles(tm: TurnModel, engine: cp_model.CpSolver) -> list[Tile]:
    played = [
        Tile.natural(Colour.from_index(colour), number)
        for (colour, number), var in tm.played.items()
        for _ in range(engine.value(var))
    ]
    played += [JOKER] * engine.value(tm.played_jokers)
    return played


def _play(
    status: Status,
    position: Position,
    played: list[Tile],
    table: tuple[Meld, ...],
    rules: Rules,
) -> Play:
    left = Counter(position.rack)
    left.subtract(played)
    return Play(
        status=status,
        played=tuple(sorted(played)),
        rack_left=tuple(sorted(left.elements())),
        table=table,
        tiles_played=len(played),
        points_played=sum(rules.value(tile) for tile in played),
    )

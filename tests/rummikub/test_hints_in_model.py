"""The hint that starts the tiles-moved search, the calm play (sets whole or given
up), is a complete solution of the model where sets may go on with some tiles; and a
joker the score stage counts beyond the runs lays out in a group."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st
from ortools.sat.python import cp_model

from solver.rummikub import Objective, Position, Rules, Status
from solver.rummikub.disruption import calm_play, hint_from
from solver.rummikub.layout import lay_out
from solver.rummikub.melds import Meld, MeldKind
from solver.rummikub.model import TileCounts, build_model, fix_score
from solver.rummikub.notation import JOKER
from solver.rummikub.runner import Limits, run
from solver.rummikub.search import assemble_play, played_tiles
from tests.rummikub.helpers import assert_legal_answer
from tests.rummikub.strategies import dealt


@settings(max_examples=40)
@given(
    position=dealt(table=st.integers(3, 60), rack=st.integers(2, 14)),
    objective=st.sampled_from(list(Objective)),
)
def test_the_calm_play_starts_the_tiles_moved_search(
    position: Position, objective: Objective
) -> None:
    rules = Rules()
    melds = position.check(rules)
    rack = TileCounts.of(Counter(position.rack))
    table = TileCounts.of(position.all_tiles() - Counter(position.rack))
    assert_calm_play_starts_the_tiles_moved_search(rules, rack, table, melds, objective)


def test_a_joker_beyond_the_runs_at_a_cell_stands_in_a_group() -> None:
    # With fewer jokers than a set needs, stage 1 may count a joker at a cell where
    # no run uses it (run_jokers > run_tiles): it stands in a group of that number.
    # Force that for the joker at K5 (runs could pass there): the play must lay out
    # legally, and the hint built from it must still solve stage 2. In points mode,
    # since in tiles mode the model keeps no joker place at K5 (see add_runs).
    rules = Rules()
    position = Position.parse(rack="R5 B5 K5 K6 K7 J", table="O1 O2 O3")
    melds = position.check(rules)
    rack = TileCounts.of(Counter(position.rack))
    table = TileCounts.of(position.all_tiles() - Counter(position.rack))
    first_model = build_model(rules, rack, table, Objective.POINTS, False)
    cell = (2, 5)  # black 5
    first_model.model.add(first_model.run_jokers[cell] >= first_model.run_tiles(cell) + 1)
    first = run(first_model, Limits.of(10, 10))
    assert first.optimal
    assert first.value(first_model.run_jokers[cell]) > first.value(first_model.run_tiles(cell))
    played = played_tiles(first)
    placed = lay_out(first_model, first.value)
    play = assemble_play(Status.OPTIMAL, position, played, melds, placed, rules, False, False)
    assert_legal_answer(position, rules, play)
    assert any(meld.kind is MeldKind.GROUP and JOKER in meld.tiles for meld in play.table)
    assert_calm_play_starts_the_tiles_moved_search(rules, rack, table, melds, Objective.POINTS)


def assert_calm_play_starts_the_tiles_moved_search(
    rules: Rules,
    rack: TileCounts,
    table: TileCounts,
    melds: tuple[Meld, ...],
    objective: Objective,
) -> None:
    """The calm play (best score, most sets kept whole) hints a complete solution of
    the model where sets may go on with some of their tiles, with that score."""
    lean = build_model(rules, rack, table, objective, False, melds, whole=range(len(melds)))
    found = calm_play(lean, Limits.of(10, 10))
    assert found is not None
    assert found[1]
    calm = found[0]
    partial = build_model(rules, rack, table, objective, False, melds)
    fix_score(partial, *calm.score())
    hint_from(partial, calm)
    variables = partial.model.proto.variables
    free = {i for i, var in enumerate(variables) if len(set(var.domain)) > 1}
    assert free <= set(partial.model.proto.solution_hint.vars)  # complete
    engine = cp_model.CpSolver()
    engine.parameters.num_workers = 1
    engine.parameters.max_time_in_seconds = 10
    engine.parameters.fix_variables_to_their_hinted_value = True
    assert engine.solve(partial.model) in (cp_model.OPTIMAL, cp_model.FEASIBLE)

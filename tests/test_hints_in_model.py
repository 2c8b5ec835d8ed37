"""The hint that starts every search after opening (the table as it is, nothing
played) is a complete solution of the model: a search cut short always has it."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st
from ortools.sat.python import cp_model

from solver.rummikub import Objective, Rules
from solver.rummikub.deal import random_position
from solver.rummikub.model import TileCounts, build_model, hint_table_as_it_is

VARIANTS = [Rules(), Rules(jokers=4), Rules(colours=3, numbers=9, jokers=3, min_set_len=2)]


@settings(max_examples=60)
@given(
    variant=st.sampled_from(VARIANTS),
    seed=st.integers(0, 2**32),
    table_tiles=st.integers(0, 60),
    table_jokers=st.integers(0, 4),
    objective=st.sampled_from(list(Objective)),
)
def test_the_table_as_it_is_is_a_solution(
    variant: Rules, seed: int, table_tiles: int, table_jokers: int, objective: Objective
) -> None:
    rng = random.Random(seed)
    position = random_position(
        rng, variant, table_tiles, 8, table_jokers=min(table_jokers, variant.jokers)
    )
    melds = position.check(variant)
    rack = TileCounts.of(Counter(position.rack))
    table = TileCounts.of(position.all_tiles() - Counter(position.rack))
    tm = build_model(variant, rack, table, objective, opening=False)
    hint_table_as_it_is(tm, melds)
    engine = cp_model.CpSolver()
    engine.parameters.num_workers = 1
    engine.parameters.max_time_in_seconds = 10
    engine.parameters.fix_variables_to_their_hinted_value = True
    assert engine.solve(tm.model) == cp_model.OPTIMAL
    assert engine.value(tm.objective) == 0

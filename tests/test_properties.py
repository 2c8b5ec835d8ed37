"""Every answer on random standard-game positions is legal and adds up."""

from __future__ import annotations

import random

from helpers import assert_legal_answer
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.rummikub import STANDARD, Objective, Status, solve
from solver.rummikub.deal import random_position


@settings(max_examples=120)
@given(
    seed=st.integers(0, 2**32),
    table_tiles=st.sampled_from([0, 10, 20, 40, 60, 80]),
    rack_tiles=st.integers(1, 30),
    table_jokers=st.integers(0, 2),
    rack_jokers=st.integers(0, 2),
    opened=st.booleans(),
    objective=st.sampled_from(list(Objective)),
)
def test_answers_are_legal(
    seed: int,
    table_tiles: int,
    rack_tiles: int,
    table_jokers: int,
    rack_jokers: int,
    opened: bool,
    objective: Objective,
) -> None:
    rack_jokers = min(rack_jokers, 2 - table_jokers, rack_tiles)
    position = random_position(
        random.Random(seed),
        STANDARD,
        table_tiles,
        rack_tiles,
        table_jokers=table_jokers,
        rack_jokers=rack_jokers,
        opened=opened,
    )
    play = solve(position, STANDARD, objective, time_limit=30)
    assert play.status is Status.OPTIMAL
    assert_legal_answer(position, STANDARD, play)
    if not opened and play.played:
        new_sets = play.table[len(position.table) :]
        assert sum(m.value for m in new_sets) >= STANDARD.opening_threshold

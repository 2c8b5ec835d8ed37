"""The solver's optimum equals an exhaustive search's on small variants."""

from __future__ import annotations

import random

import pytest
from helpers import assert_legal_answer
from hypothesis import given, settings
from hypothesis import strategies as st
from oracle import Oracle

from solver.rummikub import Objective, Position, Rules, Status, parse_tiles, solve
from solver.rummikub.deal import random_position

VARIANTS = [
    Rules(colours=3, numbers=7, copies=2, jokers=2),
    Rules(colours=2, numbers=7, copies=2, jokers=1),
    Rules(colours=3, numbers=6, copies=1, jokers=3),  # jokers enough for a set alone
    Rules(colours=4, numbers=5, copies=1, jokers=2, opening_threshold=12),
    Rules(colours=3, numbers=6, copies=2, jokers=2, min_set_len=2, opening_threshold=10),
    Rules(colours=2, numbers=8, copies=1, jokers=4, min_set_len=4, opening_threshold=15),
]
TINY = Rules(colours=2, numbers=3, copies=1, jokers=1)
"""Small enough for a crafted case where the best play leaves a tile on the rack."""
ORACLES = {rules: Oracle(rules) for rules in [*VARIANTS, TINY]}


@settings(max_examples=300)
@given(
    variant=st.sampled_from(VARIANTS),
    seed=st.integers(0, 2**32),
    table_tiles=st.integers(0, 12),
    rack_tiles=st.integers(1, 7),
    joker_split=st.integers(0, 4),
    opened=st.booleans(),
    objective=st.sampled_from(list(Objective)),
)
def test_solver_matches_exhaustive_search(
    variant: Rules,
    seed: int,
    table_tiles: int,
    rack_tiles: int,
    joker_split: int,
    opened: bool,
    objective: Objective,
) -> None:
    rng = random.Random(seed)
    rack_jokers = min(joker_split, variant.jokers, rack_tiles)
    table_jokers = rng.randint(0, variant.jokers - rack_jokers)
    position = random_position(
        rng,
        variant,
        table_tiles,
        rack_tiles,
        table_jokers=table_jokers,
        rack_jokers=rack_jokers,
        opened=opened,
    )
    play = solve(position, variant, objective, time_limit=20)
    assert play.status is Status.OPTIMAL
    assert_legal_answer(position, variant, play)
    best = ORACLES[variant].best_score(position, objective)
    got = play.tiles_played if objective is Objective.TILES else play.points_played
    assert got == best, (position, objective)


@pytest.mark.parametrize(
    ("variant", "rack", "objective"),
    [
        # Two runs pass R3 (then R5), one with the joker, though the rack holds the tile.
        (VARIANTS[1], "R1 R2 R3 R2 R4 J", Objective.TILES),
        (VARIANTS[1], "R4 R5 R6 R6 R7 J", Objective.TILES),
        # The only run opens with the joker at a number no tile has, and ends at the top.
        (VARIANTS[1], "R6 R7 J", Objective.TILES),
        (VARIANTS[1], "R6 R7 J", Objective.POINTS),
        # Most points: the joker stands for R1 and the R1 stays on the rack.
        (TINY, "R1 R2 R3 J", Objective.POINTS),
    ],
)
def test_jokers_where_the_model_keeps_them_only_when_needed(
    variant: Rules, rack: str, objective: Objective
) -> None:
    """The model leaves some joker places out when a play as good exists without them
    (see add_runs); the best plays here need exactly such places."""
    position = Position(tuple(parse_tiles(rack)), (), opened=True)
    play = solve(position, variant, objective)
    assert_legal_answer(position, variant, play)
    got = play.tiles_played if objective is Objective.TILES else play.points_played
    assert got == ORACLES[variant].best_score(position, objective)

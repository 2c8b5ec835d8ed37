"""Least disruption: among the best plays, the one that changes the table least."""

from __future__ import annotations

import random

import pytest
from disruption_oracle import DisruptionOracle
from helpers import assert_legal_answer
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.rummikub import Objective, Position, Rules, solve
from solver.rummikub.deal import random_position

RULES = Rules()


@pytest.mark.parametrize("least_disruption", [True, False])
def test_an_empty_table_is_proven_undisturbed(least_disruption: bool) -> None:
    # Nothing is on the table, so no play can disturb it less.
    play = solve(Position.parse("R1 R2 R3 B7 J"), RULES, least_disruption=least_disruption)
    assert play.played and play.disruption_proven


def test_appending_keeps_every_set() -> None:
    # A rebuild (R3..R9 as one run, groups re-dealt) is as good on tiles, but
    # appending R9, B9 and K3 keeps every set whole.
    position = Position.parse("R9 B9 K3", "R6 R7 R8 | B6 B7 B8 | K4 K5 K6 | R5 B5 O5 | R4 B4 O4")
    play = solve(position, RULES)
    assert play.tiles_played == 3
    assert play.sets_kept == 5 and play.tiles_moved == 0 and play.disruption_proven
    assert [s.action.value for s in play.steps] == ["add", "add", "add"]
    for index, before in enumerate(position.table):
        assert set(before) <= set(play.table[index].tiles)


def test_a_group_takes_the_fourth_colour_instead_of_splitting_a_run() -> None:
    play = solve(Position.parse("R5", "R1 R2 R3 R4 R5 R6 | B5 K5 O5"), RULES)
    assert play.sets_kept == 2 and play.tiles_moved == 0
    assert_legal_answer(Position.parse("R5", "R1 R2 R3 R4 R5 R6 | B5 K5 O5"), RULES, play)


def test_the_joker_stays_on_the_rack_when_the_count_is_equal() -> None:
    # Four tiles either way: R7 B7 K7 O7, or three of them with the joker.
    play = solve(Position.parse("R7 B7 K7 O7 J"), RULES)
    assert play.tiles_played == 4
    assert [str(t) for t in play.rack_left] == ["J"]
    # In points mode the joker is worth 30, so the objective itself places it.
    by_points = solve(Position.parse("R7 B7 K7 O7 J"), RULES, Objective.POINTS)
    assert "J" in [str(t) for t in by_points.played]


DISRUPTION_RULES = Rules(colours=3, numbers=7, copies=2, jokers=2)
ORACLE = DisruptionOracle(DISRUPTION_RULES)


@settings(max_examples=150)
@given(
    seed=st.integers(0, 2**32),
    table_tiles=st.integers(3, 10),
    rack_tiles=st.integers(1, 4),
    table_jokers=st.integers(0, 2),
    objective=st.sampled_from(list(Objective)),
)
def test_disruption_matches_exhaustive_search_over_best_plays(
    seed: int, table_tiles: int, rack_tiles: int, table_jokers: int, objective: Objective
) -> None:
    rng = random.Random(seed)
    rack_jokers = rng.randint(0, DISRUPTION_RULES.jokers - table_jokers)
    position = random_position(
        rng,
        DISRUPTION_RULES,
        table_tiles,
        rack_tiles,
        table_jokers=table_jokers,
        rack_jokers=min(rack_jokers, rack_tiles),
    )
    play = solve(position, DISRUPTION_RULES, objective, time_limit=30, disruption_time_limit=30)
    assert play.disruption_proven
    assert_legal_answer(position, DISRUPTION_RULES, play)
    best = ORACLE.least_disruption(position, objective)
    reported = (play.sets_kept, -play.tiles_moved)
    # The answer's own table, matched to the old sets by the oracle, supports what it reports.
    assert ORACLE.disruption_of(position, [m.tiles for m in play.table]) >= reported
    assert reported == best, (position, objective)

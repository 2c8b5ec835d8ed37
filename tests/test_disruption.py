"""Least disruption: among the best plays, the one that changes the table least."""

from __future__ import annotations

import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st

from solver.rummikub import Objective, Position, Rules, solve
from tests.rummikub.disruption_oracle import disruption_oracle_for
from tests.rummikub.helpers import assert_legal_answer
from tests.rummikub.strategies import examples, positions, request_of, small_rules

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


@pytest.mark.variants
@settings(max_examples=examples(150))
@given(data=st.data(), rules=small_rules(), objective=st.sampled_from(list(Objective)))
def test_disruption_matches_exhaustive_search_over_best_plays(
    data: st.DataObject, rules: Rules, objective: Objective
) -> None:
    position = data.draw(positions(rules, max_rack=4, opened=True))
    note(request_of(position, rules, objective=objective.value))
    oracle = disruption_oracle_for(rules)
    play = solve(position, rules, objective, time_limit=30, disruption_time_limit=30)
    assert play.disruption_proven
    assert_legal_answer(position, rules, play)
    best = oracle.least_disruption(position, objective)
    reported = (play.sets_kept, -play.tiles_moved)
    # The answer's own table, matched to the old sets by the oracle, supports what it reports.
    assert oracle.disruption_of(position, play.table) >= reported
    assert reported == best

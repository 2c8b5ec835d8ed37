"""The solver's optimum equals an exhaustive search's on small variants."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st

from solver import solve_rummikub
from solver.rummikub import Limit, Objective, Position, Rules, Status, Tile, parse_tiles, solve
from tests.rummikub.helpers import assert_legal_answer
from tests.rummikub.oracle import oracle_for
from tests.rummikub.strategies import examples, positions, request_of, variants

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


@pytest.mark.variants
@settings(max_examples=examples(400))
@given(
    data=st.data(),
    rules=st.one_of(variants(), st.sampled_from(VARIANTS)),
    objective=st.sampled_from(list(Objective)),
)
def test_solver_matches_exhaustive_search(
    data: st.DataObject, rules: Rules, objective: Objective
) -> None:
    """On every small variant: the answer is legal, no tile appears or vanishes, and
    its score, jokers kept and tiles played are the best an exhaustive search finds."""
    position = data.draw(positions(rules))
    note(request_of(position, rules, objective=objective.value))
    play = solve(position, rules, objective, limit=Limit(20))
    assert play.status is Status.OPTIMAL
    assert_legal_answer(position, rules, play)
    oracle = oracle_for(rules)
    after = [meld.written for meld in play.table]
    assert oracle.judge(position.rack, position.table, after, position.opened)
    assert oracle.key(Counter(play.played), objective) == oracle.best_play(position, objective)


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
    assert got == oracle_for(variant).best_score(position, objective)


RUN_13 = [f"R{n}" for n in range(1, 14)]

TABLE_JOKER_CASES = [
    # The table joker has nowhere else to go: no play (the joker used to vanish).
    {"rack": ["R2"], "table": [["R1", "J", "R3"]], "rules": {"numbers": 3}},
    {"rack": ["R1"], "table": [["J", "R2", "R3", "R4"]], "rules": {"numbers": 4}},
    {"rack": ["R5"], "table": [[*RUN_13[:4], "J", *RUN_13[5:]]], "rules": {"min_set_len": 13}},
    # The same, where the solver used to fail (CP-SAT proved its model infeasible).
    {"rack": ["R2"], "table": [["R1", "J", "J", "R4"]], "rules": {"numbers": 4, "copies": 1}},
    {
        "rack": ["R2", "B2"],
        "table": [["R1", "J", "R3"]],
        "rules": {"numbers": 3, "colours": 3, "copies": 1, "jokers": 1},
    },
    {"rack": ["R1"], "table": [["J", "J", *RUN_13[2:]]], "rules": {"min_set_len": 9}},
    # One tile can be played, beside the table jokers (it used to answer no play).
    {"rack": ["R1", "R4"], "table": [["J", "R2", "J"]], "rules": {"numbers": 4}},
    {"rack": ["B3", "B1", "R2"], "table": [["J", "J", "B4"]], "rules": {"numbers": 4, "copies": 1}},
]


@pytest.mark.parametrize("request_", TABLE_JOKER_CASES)
@pytest.mark.parametrize("objective", list(Objective))
def test_table_jokers_stay_on_the_table(request_: dict[str, Any], objective: Objective) -> None:
    """A rack tile that a table joker stands for: the joker must stay on the table,
    and the answer is still the best there is."""
    rules = Rules.from_dict(request_["rules"])
    position = Position.parse(request_["rack"], request_["table"])
    answer = solve_rummikub({**request_, "objective": objective.value})
    assert answer["status"] == "optimal"
    after = [[Tile.parse(t) for t in meld["tiles"]] for meld in answer["table"]]
    played = Counter(Tile.parse(t) for t in answer["played"])
    table = position.all_tiles() - Counter(position.rack)
    assert Counter(t for tiles in after for t in tiles) == table + played
    oracle = oracle_for(rules)
    assert oracle.judge(position.rack, position.table, after, opened=True)
    assert oracle.key(played, objective) == oracle.best_play(position, objective)


@pytest.mark.parametrize(
    ("variant", "rack", "table"),
    [
        (Rules(colours=3, numbers=5, jokers=1, joker_penalty=5), "R2 R3 R4 B1 B2 K2 K5", "R3 B3 J"),
        (Rules(numbers=5, copies=1, jokers=1), "R2 R3 R5 B1 B3 K1 K3 O3", "J B5 O5"),
        (
            Rules(numbers=5, copies=1, jokers=1, joker_penalty=5),
            "R2 R4 R5 B3 K4 O1 O2 O4",
            "B1 B2 J B4 B5",
        ),
    ],
)
def test_points_mode_plays_the_most_tiles_among_the_best_plays(
    variant: Rules, rack: str, table: str
) -> None:
    # Plays of as many points with fewer tiles exist here; the score stage once
    # picked one of those (and the least-disruption stage then another).
    position = Position.parse(rack, table)
    play = solve(position, variant, Objective.POINTS)
    assert_legal_answer(position, variant, play)
    oracle = oracle_for(variant)
    best = oracle.best_play(position, Objective.POINTS)
    assert oracle.key(Counter(play.played), Objective.POINTS) == best

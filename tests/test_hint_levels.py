"""Hint levels reveal only what was asked, and agree with the full answer."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from solver import solve_rummikub
from solver.rummikub import STANDARD
from solver.rummikub.deal import random_position

NUDGE_FIELDS = {"status", "hint_level", "can_play", "tiles_played"}


def ask(request: dict, level: str) -> dict:
    return solve_rummikub({**request, "hint_level": level})


@settings(max_examples=40)
@given(
    seed=st.integers(0, 2**32), table_tiles=st.sampled_from([0, 10, 30]), rack=st.integers(1, 14)
)
def test_levels_agree_with_the_full_answer(seed: int, table_tiles: int, rack: int) -> None:
    position = random_position(random.Random(seed), STANDARD, table_tiles, rack)
    request = {
        "rack": [str(t) for t in position.rack],
        "table": [[str(t) for t in s] for s in position.table],
    }
    full = ask(request, "full")
    nudge = ask(request, "nudge")
    tile = ask(request, "tile")
    assert set(nudge) == NUDGE_FIELDS
    assert set(tile) == NUDGE_FIELDS | {"tile", "to_set", "text"}
    for answer in (nudge, tile):
        assert answer["tiles_played"] == full["tiles_played"]
        assert answer["can_play"] == (full["tiles_played"] > 0)
    if full["tiles_played"] == 0:
        assert tile["tile"] is None and tile["to_set"] is None
        return
    # The tile shown is one the full answer plays, and goes where the steps put it.
    assert tile["tile"] in full["played"]
    placing = [s for s in full["steps"] if tile["tile"] in s.get("from_rack", [])]
    assert placing, "the tile shown is placed by some step"
    if tile["to_set"] is None:  # a new set: laid down, or a part split off a run
        assert any(
            s["action"] == "new_set" or s["to_set"] >= len(request["table"]) for s in placing
        )
    else:
        assert tile["to_set"] < len(request["table"])
        assert any(s["action"] == "add" and s["to_set"] == tile["to_set"] for s in placing)
    assert tile["tile"] in tile["text"]


def test_a_tile_hint_names_the_set_it_goes_onto() -> None:
    tile = ask({"rack": ["R6", "O1"], "table": [["R3", "R4", "R5"]]}, "tile")
    assert tile == {
        "status": "optimal",
        "hint_level": "tile",
        "can_play": True,
        "tiles_played": 1,
        "tile": "R6",
        "to_set": 0,
        "text": "Your R6 goes onto set 0, the red run 3-5.",
    }


def test_nothing_to_play() -> None:
    assert ask({"rack": ["O1"], "table": [["R3", "R4", "R5"]]}, "nudge") == {
        "status": "optimal",
        "hint_level": "nudge",
        "can_play": False,
        "tiles_played": 0,
    }

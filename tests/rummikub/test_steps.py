"""Replaying the steps on the old table gives exactly the new table."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver import solve_rummikub
from solver.rummikub import STANDARD, Rules
from tests.rummikub.replay import replay, table_of
from tests.rummikub.strategies import examples, positions, request_of, small_rules


def check_replay(request: dict[str, Any]) -> dict[str, Any]:
    response = solve_rummikub(request)
    sets, used = replay(request.get("table", []), request["rack"], response["steps"])
    assert sets == table_of(response["table"])
    assert used == Counter(response["played"])
    return response


@settings(max_examples=80)
@given(data=st.data())
def test_steps_replay_to_the_new_table(data: st.DataObject) -> None:
    position = data.draw(positions(STANDARD, max_sets=12, max_rack=16, opened=True))
    check_replay(request_of(position, STANDARD, time_limit_ms=20_000))


@pytest.mark.variants
@settings(max_examples=examples(150))
@given(data=st.data(), rules=small_rules(), objective=st.sampled_from(["tiles", "points"]))
def test_steps_replay_on_every_variant(data: st.DataObject, rules: Rules, objective: str) -> None:
    # Table sets are drawn in reading order and out of it (jokers anywhere).
    position = data.draw(positions(rules, opened=True))
    check_replay(request_of(position, rules, objective=objective, time_limit_ms=20_000))


@pytest.mark.parametrize(
    ("rack", "table"),
    [
        # R12 J J reads J(R11) R12 J(R13), R8 R3 .. R7 reads R3 .. R8: the steps act
        # on each set as the request wrote it.
        (["R2", "R13", "B10", "B11", "K3", "K10", "O1", "O4", "O5", "O6"], [["R12", "J", "J"]]),
        (["R9", "R5"], [["R8", "R3", "R4", "R5", "R6", "R7"]]),
    ],
)
def test_steps_replay_on_sets_written_out_of_order(rack: list[str], table: list[list[str]]) -> None:
    response = check_replay({"rack": rack, "table": table})
    assert response["tiles_played"] > 0


def test_split_before_a_tile() -> None:
    # R5 fits only by splitting the run: R3 R4 R5 | R5 R6 R7 R8.
    response = check_replay({"rack": ["R5"], "table": [["R3", "R4", "R5", "R6", "R7", "R8"]]})
    assert [s["action"] for s in response["steps"]] == ["split", "add"]
    assert response["steps"][0]["set"] == 0


def test_take_then_new_set_reads_like_a_person_would_say_it() -> None:
    response = check_replay(
        {"rack": ["K8", "K9", "O1"], "table": [["B7", "K7", "O7", "R7"], ["R1", "R2", "R3"]]}
    )
    take, new = response["steps"]
    assert take == {
        "action": "take",
        "tiles": ["K7"],
        "from_set": 0,
        "text": "Take K7 from set 0, the group of 7s.",
    }
    assert new["action"] == "new_set"
    assert new["tiles"] == ["K7", "K8", "K9"]
    assert new["from_rack"] == ["K8", "K9"]
    assert "K7 you took" in new["text"]
    assert response["sets_kept"] == 1
    assert response["tiles_moved"] == 1


def test_a_joker_swap_is_take_and_add() -> None:
    response = check_replay({"rack": ["R4"], "table": [["R1", "R2", "R3", "J", "R5", "R6"]]})
    assert [s["action"] for s in response["steps"]] == ["take", "add"]
    assert response["steps"][0]["tiles"] == ["J"]

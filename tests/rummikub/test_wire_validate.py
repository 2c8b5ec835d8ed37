"""validate_rummikub: the "check my move" wire function behind /v1/rummikub/validate."""

from __future__ import annotations

from typing import Any

import pytest

from solver import MeldwiseError, validate_rummikub
from solver.errors import CountError, NotationError, RequestError, RulesError, TableError
from tests.support import spend_the_clock


def check(
    rack: str, before: list[str], after: list[str], opened: bool = True, **extra: Any
) -> dict[str, Any]:
    return validate_rummikub(
        {
            "rack": rack.split(),
            "table_before": [s.split() for s in before],
            "table_after": [s.split() for s in after],
            "opened": opened,
            **extra,
        }
    )


def test_a_legal_move_lists_what_was_played() -> None:
    answer = check(
        "R5 K1 B13", ["R3 R4 R5 R6 R7", "B11 B12 J"], ["R3 R4 R5", "R5 R6 R7", "B11 B12 B13 J"]
    )
    assert answer == {"legal": True, "played": ["R5", "B13"], "problems": [], "consequence": None}


def test_an_invalid_set_is_named_by_its_index_in_table_after() -> None:
    answer = check("R9 K1", ["R3 R4 R5"], ["R3 R4 R5", "R9 K1"])
    assert not answer["legal"]
    assert answer["problems"][0]["set"] == 1
    assert "R9 K1" in answer["problems"][0]["reason"]


@pytest.mark.parametrize(
    ("rack", "before", "after", "opened", "reason"),
    [
        ("", ["R3 R4 R5 R6"], ["R3 R4 R5"], True, "R6 from the table went missing"),
        ("R1", ["R3 R4 R5"], ["R2 R3 R4 R5"], True, "R2 played but not on the rack"),
        ("R1 R2 R3", [], ["R1 R2 R3"], False, "worth 6 points, under the 30"),
        (
            "R10 O13",
            ["R7 R8 R9", "B13 K13 R13"],
            ["R7 R8 R9 R10", "B13 K13 R13 O13"],
            False,
            "may not touch the table",
        ),
    ],
)
def test_each_kind_of_mistake_is_explained(
    rack: str, before: list[str], after: list[str], opened: bool, reason: str
) -> None:
    answer = check(rack, before, after, opened)
    assert not answer["legal"]
    assert any(reason in p["reason"] for p in answer["problems"]), answer["problems"]
    assert all(p["set"] is None for p in answer["problems"])


def test_a_move_must_place_a_rack_tile_or_leave_the_table_as_it_was() -> None:
    # Splitting a run and placing nothing is no turn, opened or not.
    split = check("K1", ["R1 R2 R3 R4 R5 R6"], ["R1 R2 R3", "R4 R5 R6"])
    assert not split["legal"]
    assert split["played"] == []
    reason = "a play must place at least one tile from the rack; draw instead"
    assert split["problems"] == [{"set": None, "reason": reason}]
    # The table as it was (sets and tiles reordered) is no play: the player draws.
    same = check("K1", ["R1 R2 R3", "B5 K5 O5"], ["O5 K5 B5", "R3 R2 R1"])
    assert same == {"legal": True, "played": [], "problems": [], "consequence": None}


def test_an_illegal_move_says_whether_it_can_be_put_right() -> None:
    fixable = check("R4 B9", ["R1 R2 R3"], ["R1 R2", "R3 R4"])["consequence"]
    assert fixable["repairable"]
    assert fixable["penalty_tiles"] == 0
    beyond = check("R4 B9", ["R1 R2 R3"], ["R1 R2 R3 R4 B9"], rules={"penalty_tiles": 2})
    assert beyond["consequence"] == {
        "status": "optimal",
        "repairable": False,
        "penalty_tiles": 2,
        "back_to_rack": ["R4", "B9"],
        "text": "No legal arrangement places every tile: the table goes back to how it was "
        "before the turn, the player takes back R4 B9 and draws 2 penalty tiles.",
        "time_capped": False,
    }
    # Before opening, the laid tiles must make an opening on their own.
    opening = check("R10 R11 R12 K1 K2 K3", [], ["R10 R11", "R12 K1 K2 K3"], opened=False)
    assert opening["consequence"]["repairable"]
    too_little = check("R1 R2 R3", [], ["R1 R2 R3"], opened=False)["consequence"]
    assert not too_little["repairable"]
    assert too_little["back_to_rack"] == ["R1", "R2", "R3"]


def test_a_consequence_the_clock_cut_says_time_capped(monkeypatch: pytest.MonkeyPatch) -> None:
    # Every other answer a time limit cut says time_capped; the consequence (a solve
    # within the default limit) said only "The search stopped before finding out",
    # which the work bound says too, where the answer is the same on any machine.
    move = ("R9 K1", ["R1 R2 R3"], ["R1 R2 R3 R9", "K1"])
    assert check(*move)["consequence"]["time_capped"] is False
    with monkeypatch.context() as patched:
        patched.setattr("solver.rummikub.search.SCORE_WORK", 0.0)  # the work bound stops it
        stopped = check(*move)["consequence"]
    # Not settled: repairable null (it said false, as if the move could not be put right).
    assert (stopped["status"], stopped["repairable"], stopped["time_capped"]) == (
        "unknown",
        None,
        False,
    )
    spend_the_clock(monkeypatch, "solver.rummikub.search")  # the clock stops it
    cut = check(*move)["consequence"]
    assert (cut["status"], cut["repairable"], cut["time_capped"]) == ("unknown", None, True)
    assert cut["text"].startswith("The search stopped before finding out")


def test_opened_defaults_to_true_and_rules_apply() -> None:
    request = {
        "rack": ["G1"],
        "table_before": [["G2", "G3", "G4"]],
        "table_after": [["G1", "G2", "G3", "G4"]],
        "rules": {"colours": 5},
    }
    assert validate_rummikub(request)["legal"]


@pytest.mark.parametrize(
    ("request_", "error", "culprit"),
    [
        ({"rack": ["Q5"], "table_before": [], "table_after": []}, NotationError, "'Q5'"),
        (
            {"rack": [], "table_before": [], "table_after": [["G1", "G2", "G3"]]},
            NotationError,
            "'G1'",
        ),
        (
            {"rack": ["R5", "R5"], "table_before": [["R4", "R5", "R6"]], "table_after": []},
            CountError,
            "R5: 3",
        ),
        (
            {
                "rack": ["R5"],
                "table_before": [],
                "table_after": [["R5", "R6", "R7"], ["R5", "R6", "R7"], ["R5", "R6", "R7"]],
            },
            CountError,
            "in table_after",
        ),
        (
            {"rack": [], "table_before": [["R1", "R2"]], "table_after": []},
            TableError,
            "table_before: table set 0",
        ),
        (
            {"rack": [], "table_before": [], "table_after": [], "rules": {"copies": 0}},
            RulesError,
            "copies",
        ),
        ({"rack": [], "table_before": []}, RequestError, "'table_after'"),
        ({"rack": [], "table_before": [], "table_after": [], "move": 1}, RequestError, "'move'"),
        ({"rack": [], "table_before": [], "table_after": "R1"}, RequestError, "table_after"),
        ({"rack": [], "table_before": [], "table_after": [], "opened": 1}, RequestError, "opened"),
    ],
)
def test_impossible_requests_name_the_culprit(
    request_: dict[str, Any], error: type[MeldwiseError], culprit: str
) -> None:
    with pytest.raises(error, match=culprit):
        validate_rummikub(request_)

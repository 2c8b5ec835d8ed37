"""A turn's advice is as proven as its least proven stage: a search stopped by a limit
shows in the status, and nothing the advice says rests on what the search did not
find (the advice once answered ``optimal`` with ``go_down: null`` and a note that
going down would leave a card, when the search had only run out of time)."""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any

import pytest
from ortools.sat.python import cp_model

import solver.cpsat as cpsat
from solver.cpsat import Limit, Status
from solver.shanghai.advice import advise
from solver.shanghai.cli import describe_advice
from solver.shanghai.examples import ADVISE_REQUEST
from solver.shanghai.model import HandModel
from solver.shanghai.phase_budget import TIME_FACTOR
from solver.shanghai.wire import ShanghaiAdviseRequest, ShanghaiAdviseResponse, advise_shanghai
from solver.wire import read
from tests.support import spend_the_clock

REAL_RUN = cpsat.run


def stopped_searches(
    monkeypatch: pytest.MonkeyPatch, code: cp_model.CpSolverStatus
) -> list[cp_model.CpSolverStatus]:
    """Make every CP-SAT search stop as if a limit cut it short: ``UNKNOWN`` before
    it found anything, ``FEASIBLE`` with the solution found but not proven. Returns
    the codes the searches really ended with, as they run."""
    real: list[cp_model.CpSolverStatus] = []

    def run(model: cp_model.CpModel, limits: cpsat.Limits, *args: Any) -> cpsat.Solved:
        solved = REAL_RUN(model, limits, *args)
        real.append(solved.code)
        if code == cp_model.UNKNOWN or solved.code == cp_model.OPTIMAL:
            solved.code = code
        return solved

    monkeypatch.setattr(cpsat, "run", run)
    return real


def test_the_example_turn_is_proven_when_no_search_stops() -> None:
    answer = advise_shanghai(ADVISE_REQUEST)
    assert answer["status"] == "optimal"
    assert answer["go_down"] is not None


def test_a_turn_search_stopped_before_it_found_a_play_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real = stopped_searches(monkeypatch, cp_model.UNKNOWN)
    answer = advise_shanghai(ADVISE_REQUEST)
    assert real  # the turn needed CP-SAT
    assert answer["status"] == "unknown"
    assert answer["go_down"] is None
    assert answer["lay_offs"] is None
    assert "stopped before finding one" in " ".join(answer["notes"])
    # Nothing is claimed about what going down would leave.
    assert not any("cannot be laid off" in note for note in answer["notes"])


def test_a_turn_search_stopped_before_it_proved_its_play_is_feasible(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    stopped_searches(monkeypatch, cp_model.FEASIBLE)
    answer = advise_shanghai(ADVISE_REQUEST)
    assert answer["status"] == "feasible"
    assert answer["go_down"] is not None  # the play found stands, unproven
    # Stopped by its work, not the clock: the schema said "feasible: a time limit cut
    # one short", which a search its work bound stops is not.
    assert answer["time_capped"] is False
    schema = ShanghaiAdviseResponse.model_json_schema()["properties"]
    for status in ("status", "play_status"):
        assert "work bound" in schema[status]["description"], status


EIGHT_TWOS = {
    "hand": ["2S", "2H", "2D", "2C", "2S", "2H", "2D", "2C", "JK"],
    "hand_number": 3,
    "phase": "play",
    "rules": {"twos_wild": True},
}
"""A hand of wild cards whose discard asks for many studies and solves: with the
default 2 s limit it took 4-8 s (models built and searched after the clock had run
out, each solve then stopping at once), and the service answered 503."""

DEALT_DRAW = {
    "hand": ["6S", "2C", "7D", "3S", "7C", "2H", "JK", "10D", "7D", "7H", "2S"],
    "hand_number": 9,
    "phase": "draw",
    "upcard": "KH",
    "rules": {"twos_wild": True},
}


@pytest.mark.parametrize(
    ("request_", "seconds", "cap"),
    [(EIGHT_TWOS, 0.03, 0.03 * TIME_FACTOR), (DEALT_DRAW, 0.03, 0.03 * TIME_FACTOR)],
)
def test_advice_keeps_to_its_time_limit(
    request_: dict[str, Any], seconds: float, cap: float
) -> None:
    """The whole advice ends near its wall-clock cap and says the clock cut it (the
    eight twos took 4.5 s under a 0.5 s limit): a phase's cap, ten times the time
    limit (the eight twos need 1.6 s of CPU to reach the play's work budget, the dealt
    draw 1.4 s). The bound is loose: a loaded machine must not fail it."""
    start = time.perf_counter()
    answer = advise_shanghai({**request_, "time_limit_ms": int(seconds * 1000)})
    assert time.perf_counter() - start < 3 * cap + 1.0
    assert answer["time_capped"] is True
    assert answer["status"] != "optimal"


def test_a_spent_clock_builds_no_model(monkeypatch: pytest.MonkeyPatch) -> None:
    """Once the turn's clock has run out no CP-SAT model is built: each would only be
    searched for nothing (some 300 were, for the eight twos)."""
    built: list[HandModel] = []
    real_init = HandModel.__init__

    def counted(self: HandModel, *args: Any, **kwargs: Any) -> None:
        built.append(self)
        real_init(self, *args, **kwargs)

    monkeypatch.setattr(HandModel, "__init__", counted)
    asked = read(ShanghaiAdviseRequest, EIGHT_TWOS)
    # Spent past the play phase's cap too (TIME_FACTOR times the limit).
    spent = replace(Limit(), deadline=time.perf_counter() - TIME_FACTOR * Limit().time)
    advice = advise(asked.position(), asked.rules, limit=spent)
    assert not built
    assert advice.time_capped
    assert advice.status is Status.UNKNOWN
    assert advice.discard is not None  # still an answer, from what the search knows


THREE_SETS = {
    "hand": ["AS", "AD", "AC", "KS", "KD", "KC", "5S", "5D", "5C"],
    "hand_number": 1,
    "phase": "play",
}
"""Three sets: the contract is met, and with 3 ms or more it goes down; with 1 or 2
ms the turn's search stopped at once, and the demo page said "You cannot go down
this turn." (it read a null go_down as proven; the CLI read the notes' words)."""


def test_play_status_says_the_turns_search_stopped_apart_from_the_status(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    proven = advise_shanghai(THREE_SETS)
    assert proven["play_status"] == "optimal"
    assert proven["go_down"] is not None
    spend_the_clock(monkeypatch, "solver.shanghai.wire")
    cut = advise_shanghai(THREE_SETS)
    assert cut["status"] == "unknown"
    assert cut["play_status"] == "unknown"
    assert cut["go_down"] is None
    assert cut["deficiency"] == 0
    assert cut["discard"] is not None  # the discard of a player not going down
    # The CLI reads the field, not the note's words (it once matched the note).
    quiet = {**cut, "notes": []}
    assert "Go down: none found before the search stopped\n" in describe_advice(quiet)


def test_a_turn_a_limit_cut_after_finding_plays_is_not_said_to_have_no_way_down() -> None:
    """play_status feasible: a limit cut the turn's search after it found plays, none
    going down, which proves nothing of going down; the CLI said "Go down: not this
    turn", as of a proven turn (and the demo page "You cannot go down this turn.")."""
    proven = advise_shanghai({**THREE_SETS, "hand": ["7H", "8C", "9D", "KS"]})
    assert (proven["play_status"], proven["go_down"]) == ("optimal", None)
    assert "Go down: not this turn\n" in describe_advice(proven)
    cut = {**proven, "play_status": "feasible", "status": "feasible"}
    said = describe_advice(cut)
    assert "Go down: none found before the search stopped\n" in said
    assert "not this turn" not in said


def test_play_status_is_proven_when_only_another_search_stopped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Three cards short, exact: no going down, proven without a solve; only the
    # discard's search was cut, so the status is unknown, the play's status not.
    spend_the_clock(monkeypatch, "solver.shanghai.wire")
    hand = ["QS", "JC", "6S", "10S", "2C", "10C", "4D", "KC", "7C", "2S", "5C", "JK"]
    answer = advise_shanghai({"hand": hand, "hand_number": 4, "phase": "play"})
    assert answer["status"] == "unknown"
    assert answer["play_status"] == "optimal"
    assert answer["go_down"] is None


def test_play_status_of_a_player_down_and_of_the_draw_phase(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    down = {"hand": ["7H"], "hand_number": 1, "phase": "play", "down": True}
    down["table"] = [{"cards": ["8H", "8S", "8D"]}]
    no_end = advise_shanghai(down)  # no legal end, proven
    assert (no_end["play_status"], no_end["lay_offs"]) == ("optimal", None)
    assert advise_shanghai({**THREE_SETS, "phase": "draw"})["play_status"] is None
    spend_the_clock(monkeypatch, "solver.shanghai.wire")
    cut = advise_shanghai({**down, "hand": ["7H", "8C"]})
    assert (cut["play_status"], cut["lay_offs"]) == ("unknown", None)


@pytest.mark.parametrize(
    ("phase", "buys_left", "held"),
    [("play", 3, "6 cards after the draw"), ("draw", 0, "7 cards after the draw")],
)
def test_a_contract_beyond_every_card_the_hand_can_hold_is_said(
    phase: str, buys_left: int, held: str
) -> None:
    """Hand 10 under min_run_len 13 lays 39 cards: a hand not down grows only by buys
    (a draw and a discard each turn), so 6 cards and 3 buys of 3 reach 15. The advice
    gave the deficiency (33) and a stock card's chance to lower it with no word that it
    never can reach 0."""
    request = {
        "hand": ["7H", "7S", "3S", "4S", "5S", "9C"],
        "hand_number": 10,
        "phase": phase,
        "upcard": "7D",
        "buys_left": buys_left,
        "rules": {"min_run_len": 13},
    }
    notes = advise_shanghai(request)["notes"]
    assert any("can never hold the 39 cards" in n and held in n for n in notes), notes
    reachable = {**request, "hand_number": 2, "rules": {}}
    assert not any("can never hold" in n for n in advise_shanghai(reachable)["notes"])

"""The play phase gives the same answer on a loaded machine as on an idle one: its
searches share a fixed work budget (:data:`solver.shanghai.phase_budget.PLAY`), said in
the answer when reached, the wall clock only the outer safety cap; and a figure left
unproven says what stopped it, the budget or the clock."""

from __future__ import annotations

from typing import Any

import pytest

import solver.shanghai.phase_budget as phase_budget
from solver import advise_shanghai
from solver.cpsat import Limit
from solver.i18n import language
from solver.shanghai.phase_budget import DRAW, PLAY, PhaseBudget, phase_limit, what_stopped
from tests.shanghai.test_shanghai_advice import EIGHT_TWOS
from tests.shanghai.test_shanghai_draw_load import DEFAULT_REQUEST
from tests.support import slow_machine

PLAY_REQUEST: dict[str, Any] = {**DEFAULT_REQUEST, "phase": "play"}
"""The default hand-7 request asked for the play phase (``sh-advise-s3-h7-play``:
one search, 0.08 units, 0.2-0.36 s of CPU idle)."""

BUDGET_DRAW: dict[str, Any] = {
    # The hand-3 deal of RESULTS section 5 with four wild cards: 0.86 units to prove.
    "hand": ["QS", "5C", "10D", "JK", "2S", "2H", "5D", "2H", "AH", "4H", "8D"],
    "hand_number": 3,
    "phase": "draw",
    "upcard": "QS",
    "rules": {"decks": 3, "twos_wild": True},
}


def _said(answer: dict[str, Any]) -> str:
    rules = [answer[key]["rule"] for key in ("take_upcard", "buy") if answer.get(key)]
    discard = [answer["discard"]["reason"]] if answer.get("discard") else []
    return " ".join(rules + discard + answer["notes"])


def test_the_default_play_request_answers_the_same_on_a_slow_machine(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The default play request answers the same bytes when it gets a tenth of the
    time: its 2 s clock, its only cap before, cut it beside busy loops (``feasible``)."""
    idle = advise_shanghai(PLAY_REQUEST)
    assert (idle["status"], idle["time_capped"]) == ("optimal", False)
    slow_machine(monkeypatch, 10)
    assert advise_shanghai(PLAY_REQUEST) == idle


def test_a_play_past_its_work_budget_stops_there_on_any_machine(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The eight wild twos' discard needs more work than the play budget: it stops
    there, says so and why its figure is not proven, and is not said to be cut by the
    clock (the 2 s clock cut it, even idle); the same answer with half the time (it
    takes 1.4 s of CPU)."""
    idle = advise_shanghai(EIGHT_TWOS)
    assert idle["status"] != "optimal"
    assert idle["time_capped"] is False
    said = _said(idle)
    assert f"({PLAY.work:.1f} units of CP-SAT's deterministic work" in said
    assert "the advice's fixed work budget stopped a search first" in said
    assert "in time" not in said
    slow_machine(monkeypatch, 2)
    assert advise_shanghai(EIGHT_TWOS) == idle


def test_a_figure_the_budget_left_unproven_says_the_budget_stopped_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The buy's expected deficiency left unknown by the draw's budget said "not found
    in time (a search stopped first)", as if the clock had cut it."""
    monkeypatch.setattr(phase_budget, "DRAW", PhaseBudget(0.3, DRAW.solves))
    answer = advise_shanghai(BUDGET_DRAW)
    assert answer["time_capped"] is False
    said = _said(answer)
    assert "unknown (not found: the advice's fixed work budget stopped a search first)" in said
    assert "in time" not in said
    assert "clock" not in said


def test_a_figure_the_clock_left_unproven_says_the_clock_stopped_it() -> None:
    answer = advise_shanghai({**BUDGET_DRAW, "time_limit_ms": 1})
    assert answer["time_capped"] is True
    said = _said(answer)
    assert "the clock (the time limit) stopped a search first" in said
    assert "work budget" not in said


def test_what_stopped_is_said_in_japanese() -> None:
    limit = phase_limit(Limit(), PLAY)
    assert limit.budget is not None
    limit.budget.reached = True
    with language("ja"):
        said = what_stopped(limit)
    assert said != "the advice's fixed work budget stopped a search first"
    assert "計算量" in said

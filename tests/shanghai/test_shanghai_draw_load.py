"""The draw phase gives the same answer on a loaded machine as on an idle one: its
searches stop at a fixed work budget (:func:`solver.shanghai.phase_budget.phase_limit`), said in
the answer when reached, and the wall clock is only the outer safety cap."""

from __future__ import annotations

from typing import Any

import pytest

import solver.shanghai.phase_budget as phase_budget
from solver import advise_shanghai
from solver.cpsat import Limit, Status
from solver.i18n import language
from solver.shanghai import Contract, Position, advise, parse_cards
from solver.shanghai.phase_budget import DRAW, PhaseBudget, budget_note, phase_limit
from solver.shanghai.position import Phase
from solver.shanghai.rules import Rules
from tests.support import slow_machine

WILD_TWOS = Rules(decks=3, twos_wild=True)

HAND = [
    str(c) for c in parse_cards("3H KH 2D 9D 10D 2C 7C 8C 9C JC KC 4H 2S 10S 7S 6S QD 7D 6H KS 8H")
]
SEEN = [
    str(c) for c in parse_cards("QC 4D 2H 7S JS 3S 3C JD 9C 10H JK JS AH 10C KS 6C AS JK 8D 10D")
]
DEFAULT_REQUEST: dict[str, Any] = {
    # The default hand-7 draw request of benchmarks/RESULTS.md, section 5.
    "hand": HAND,
    "hand_number": 7,
    "phase": "draw",
    "upcard": "AS",
    "seen": SEEN,
    "buys_left": 2,
    "next_player": {"down": False, "took": ["8D", "KD"]},
    "rules": {"decks": 3, "twos_wild": True},
}

BUDGET_DEAL = Position(
    # Two runs of 4 with four wild cards: 26 searches and 0.86 units of work to prove
    # every figure (38 and 1.48 before run cards shared a search), the most of 60
    # dealt draw positions but one.
    tuple(parse_cards("QS 5C 10D JK 2S 2H 5D 2H AH 4H 8D")),
    Contract.for_hand(3),
    (),
    False,
    parse_cards("QS")[0],
    2,
    Phase.DRAW,
    tuple(parse_cards("10D QD JH AS KC AC 2D 5C 6D 2C 6S 9D")),
)


def test_the_default_draw_request_answers_the_same_on_a_slow_machine(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The default hand-7 draw request (0.25 s of CPU idle) answers the same bytes when
    it gets a tenth of the time: 2 s of a tenth of a core cut it before
    (``time_capped``, another answer)."""
    idle = advise_shanghai(DEFAULT_REQUEST)
    assert (idle["status"], idle["time_capped"]) == ("optimal", False)
    slow_machine(monkeypatch, 10)
    assert advise_shanghai(DEFAULT_REQUEST) == idle


def test_a_draw_past_its_work_budget_stops_there_on_any_machine(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A draw position that needs more work than the budget (here cut to 0.3 units)
    stops at the budget, says so, and is not said to be cut by the clock; the same
    answer when the advice gets a third of the time. Within the whole budget it is
    proven, and says nothing of it."""
    whole = advise(BUDGET_DEAL, WILD_TWOS)
    assert whole.status is Status.OPTIMAL
    assert not any("work budget" in note for note in whole.notes)
    monkeypatch.setattr(phase_budget, "DRAW", PhaseBudget(0.3, DRAW.solves))
    idle = advise(BUDGET_DEAL, WILD_TWOS)
    assert idle.status is not Status.OPTIMAL
    assert not idle.time_capped
    said = f"(0.3 units of CP-SAT's deterministic work, {DRAW.solves} searches)"
    assert any(said in note for note in idle.notes)
    slow_machine(monkeypatch, 3)
    assert advise(BUDGET_DEAL, WILD_TWOS) == idle


def test_a_draw_within_its_budget_says_nothing_of_it() -> None:
    """The budget is said only where it stopped a search: the default request, every
    figure proven within it, has no such note."""
    answer = advise_shanghai(DEFAULT_REQUEST)
    assert not any("work budget" in note for note in answer["notes"])


def test_the_clock_still_cuts_a_draw_and_says_so() -> None:
    """The wall clock remains the outer safety cap: a draw given almost no time is cut
    and says so (``time_capped``), not that its budget was reached."""
    answer = advise(BUDGET_DEAL, WILD_TWOS, limit=Limit(0.001))
    assert answer.time_capped
    assert not any("work budget" in note for note in answer.notes)


def test_the_budget_note_is_said_in_japanese() -> None:
    limit = phase_limit(Limit(), DRAW)
    assert limit.budget is not None
    assert budget_note(limit, DRAW) is None
    limit.budget.reached = True
    with language("ja"):
        note = budget_note(limit, DRAW)
    assert note is not None
    assert f"決定的な計算量{DRAW.work:.1f}単位、探索{DRAW.solves}回" in note

"""Once an answer's wall clock has run out, no CP-SAT model is built for a search that
would not start (:func:`solver.cpsat.run` answers UNKNOWN at once on a spent clock):
building one of a large table costs 0.05-0.25 s, so a solve or a repair asked for 1 ms
on 90 tiles of 8 colours built three or four of them and answered 0.2-0.7 s late. The
answer is the one the searches would have given (nothing found, cut by the clock)."""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any

import pytest

import solver.rummikub.model as model_module
from solver import repair_rummikub, solve_rummikub
from solver.cpsat import Limit
from solver.rummikub.notation import Colour

RULES = {"colours": 8, "jokers": 4}
TABLE = [
    [f"{colour.value}{n}" for n in numbers]
    for colour in list(Colour)[:8]
    for numbers in (range(1, 7), range(8, 14))
]
TABLE[0][2] = "J"  # as R3
"""96 tiles: the runs 1-6 and 8-13 of every colour of 8, a joker for R3."""
RACK = ["R7", "B7", "K7", "J", "J"]


def spent(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Every request's limit starts with its time already spent; returns the CP-SAT
    models built from now on."""
    monkeypatch.setattr(
        "solver.rummikub.wire.Limit",
        lambda *args, **kwargs: replace(Limit(*args, **kwargs), deadline=time.perf_counter() - 1),
    )
    built: list[object] = []
    real = model_module.CpModel  # type: ignore[attr-defined]

    def counted(*args: Any) -> Any:
        made = real(*args)
        built.append(made)
        return made

    monkeypatch.setattr(model_module, "CpModel", counted)
    return built


@pytest.mark.parametrize("disruption", [2000, 0])
@pytest.mark.parametrize("opened", [True, False])
def test_a_solve_on_a_spent_clock_builds_no_model(
    monkeypatch: pytest.MonkeyPatch, disruption: int, opened: bool
) -> None:
    request = {
        "rack": RACK,
        "table": TABLE,
        "opened": opened,
        "rules": RULES,
        "free_jokers": True,
        "disruption_time_limit_ms": disruption,
    }
    idle = solve_rummikub(request)
    assert idle["time_capped"] is False
    assert idle["tiles_played"] > 0
    built = spent(monkeypatch)
    cut = solve_rummikub(request)
    assert built == []
    assert cut["status"] == "unknown"
    assert cut["time_capped"] is True
    assert cut["tiles_played"] == 0
    assert cut["free_jokers"] is None


@pytest.mark.parametrize("rack", [None, RACK[1:]])
def test_a_repair_on_a_spent_clock_builds_no_model(
    monkeypatch: pytest.MonkeyPatch, rack: list[str] | None
) -> None:
    broken = [list(s) for s in TABLE]
    moved = broken[0].pop()  # R6 laid beside R7, which is no set
    request: dict[str, Any] = {
        "table": [*broken, [moved, "R7"]],
        "table_before": TABLE,
        "rules": RULES,
    }
    if rack is not None:
        request["rack"] = rack
    idle = repair_rummikub(request)
    assert idle["time_capped"] is False
    assert idle["repairable"] is True
    built = spent(monkeypatch)
    cut = repair_rummikub(request)
    assert built == []
    assert cut["status"] == "unknown"
    assert cut["time_capped"] is True
    assert cut["repairable"] is not True  # not found (main says null: not decided)

"""benchmarks.repair_speed: both ways of repairing are timed side by side."""

from __future__ import annotations

from typing import Any

import pytest

from benchmarks import repair_speed
from solver.rummikub.repair import repair


def test_each_table_is_repaired_both_ways_in_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    # Every table was repaired with the table before, then every one without: a
    # change of load between the two went into their comparison.
    calls: list[bool] = []

    def recorded(heaps: Any, rules: Any, before: Any = None) -> Any:
        calls.append(before is not None)
        return repair(heaps, rules, before=before)

    monkeypatch.setattr(repair_speed, "repair", recorded)
    rows = repair_speed.run(2026, 2)
    assert calls[:4] == [True, False, False, True]
    assert [row.bucket for row in rows[:2]] == [
        "t20 with table before",
        "t20 without table before",
    ]
    assert all(row.count == 2 for row in rows)

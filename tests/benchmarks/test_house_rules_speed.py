"""benchmarks.house_rules_speed: the rule sets are timed side by side."""

from __future__ import annotations

from typing import Any

import pytest

from benchmarks import house_rules_speed
from solver.rummikub import Rules, solve


def test_rule_sets_take_turns_position_by_position(monkeypatch: pytest.MonkeyPatch) -> None:
    # Every position of a bucket was solved under one rule set, then all under the
    # next: a change of load between them went into the 'x default' ratio.
    names = {id(rules): name for name, rules in house_rules_speed.RULE_SETS.items()}
    calls: list[str] = []

    def recorded(position: Any, rules: Rules, **kwargs: Any) -> Any:
        calls.append(names[id(rules)])
        return solve(position, rules, **kwargs)

    monkeypatch.setattr(house_rules_speed, "solve", recorded)
    rows = house_rules_speed.run(2026, 2)
    count = len(house_rules_speed.RULE_SETS)
    first_bucket = calls[: 2 * count]  # the whole answer, two positions
    assert sorted(first_bucket[:count]) == sorted(house_rules_speed.RULE_SETS)
    assert sorted(first_bucket[count:]) == sorted(house_rules_speed.RULE_SETS)
    assert first_bucket[0] != first_bucket[count]  # who goes first rotates
    assert [row.rules for row in rows[:count]] == list(house_rules_speed.RULE_SETS)
    assert rows[0].median_ratio == 1.0


def test_the_table_is_whole_in_a_file_or_a_pipe(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Printed to a file or a pipe it was 80 characters wide: "buck…", "repla…",
    # "answ…", so no row said which rule set its times were of.
    rows = [
        house_rules_speed.Row("t20", name, "answer", 1, 15.0, 15.0, 15.0, 1.0, 1.0, 1.0)
        for name in house_rules_speed.RULE_SETS
    ]
    monkeypatch.setattr(house_rules_speed, "run", lambda seed, per_bucket: rows)
    assert house_rules_speed.main(["--per-bucket", "1"]) == 0
    out = capsys.readouterr().out
    for name in house_rules_speed.RULE_SETS:
        assert name in out
    for heading in ("bucket", "rules", "stage", "median", "proven"):
        assert heading in out
    assert "…" not in out

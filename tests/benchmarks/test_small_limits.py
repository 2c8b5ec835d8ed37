"""benchmarks.small_limits: each request at each limit, timed past the limit asked."""

from __future__ import annotations

from typing import Any

import pytest

from benchmarks import small_limits


def test_each_request_is_answered_at_each_limit_and_timed_past_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    asked: list[tuple[object, int | None]] = []

    def answer(request: dict[str, Any]) -> dict[str, Any]:
        asked.append((request["rules"].get("colours", "shanghai"), request.get("time_limit_ms")))
        return {"time_capped": request.get("time_limit_ms") == 1}

    monkeypatch.setattr(small_limits, "LIMITS_MS", (1, None))
    real = small_limits.requests
    monkeypatch.setattr(
        small_limits,
        "requests",
        lambda rng: [(name, answer, body) for name, _, body in real(rng)],
    )
    rows = small_limits.run(2026, 2)
    assert [(row.request, row.limit_ms) for row in rows[:4]] == [
        ("solve 80 tiles", 1),
        ("solve 80 tiles", None),
        ("solve 100 tiles", 1),
        ("solve 100 tiles", None),
    ]
    assert len(rows) == 14  # two solves, a repair and four advice requests, at 2 limits
    assert all(row.count == 2 for row in rows)
    assert [row.capped_share for row in rows[:2]] == [1.0, 0.0]
    assert asked[:2] == [(8, 1), (8, 1)]  # each dealing at a limit before the next limit

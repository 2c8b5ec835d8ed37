"""benchmarks.shanghai_speed: who goes first in a before/after run."""

from __future__ import annotations

from collections import Counter
from typing import Any

from benchmarks import shanghai_speed
from solver.shanghai import Position


def test_the_two_revisions_go_first_equally_often() -> None:
    # It rotated by the turn's index in its bucket: with one turn per bucket (or an
    # odd count) the base went first on every bucket.
    calls: list[str] = []

    def fake(name: str) -> shanghai_speed.Adviser:
        def prepare(position: Position) -> shanghai_speed.Asked:
            def advise() -> tuple[bool, tuple[Any, ...]]:
                calls.append(name)
                return True, ()

            return advise

        return prepare

    shanghai_speed.run(2026, 1, [fake("base"), fake("ours")])
    firsts = Counter(calls[0::2])
    assert firsts["base"] == firsts["ours"] > 0

"""The soak's request mix (benchmarks/soak.py): every kind is drawn, and its Rummikub
positions are real ones, so that its solves solve rather than being refused."""

from __future__ import annotations

import random

from benchmarks.soak import MIX, _position, growth, requests
from solver.rummikub import Position, Rules


def test_every_kind_of_request_is_drawn() -> None:
    drawn = requests(random.Random(1), [{"a": "record"}])
    assert {next(drawn)[3] for _ in range(3000)} == set(MIX)


def test_no_review_is_drawn_before_a_game_gave_a_record() -> None:
    drawn = requests(random.Random(1), [])
    assert "review" not in {next(drawn)[3] for _ in range(3000)}


def test_the_positions_drawn_are_legal() -> None:
    rng = random.Random(2)
    for _ in range(200):
        table, rack = _position(rng)
        position = Position.parse(rack, table)
        assert len(position.check(Rules())) == len(table)  # raises on a bad set or count


def test_growth_reads_each_server_at_the_start_middle_and_end() -> None:
    samples = [
        {"servers": {"1": {"server_kb": kb, "workers_kb": [kb, 1], "fds": 20}}}
        for kb in (100, 110, 120, 130, 140)
    ]
    assert growth(samples) == {
        "1": {"server_kb": [100, 120, 140], "workers_kb": [101, 121, 141], "fds": [20, 20, 20]}
    }

"""The same request gets the same answer, byte for byte, whatever the load on the
machine and whatever wall-clock limits it sets, as long as none is reached: every
search is bounded by deterministic work. An answer a clock did cut says so."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from solver.rummikub import solve_rummikub


def tile_lists(text: str) -> list[list[str]]:
    """``"R1 R2 | K3 K4"`` as the wire's lists of tiles."""
    return [part.split() for part in text.split("|")]


# A mid-game position (benchmark t40-r14#1) where every step of the least-disruption
# stage runs: six of eleven sets kept, tiles moved out of the other five.
REQUEST: dict[str, Any] = {
    "rack": tile_lists("R1 R2 R10 B5 B6 B7 O3 O5 O6 O9 O11 O12 J J")[0],
    "table": tile_lists(
        "R5 R6 R7 | K9 K10 K11 | R7 R8 R9 | B1 B2 B3 | B10 B11 B12 B13 | B10 B11 B12 B13"
        " | B7 B8 B9 | K9 K10 K11 K12 K13 | R8 B8 K8 O8 | O2 O3 O4 O5 | K3 K4 K5 K6"
    ),
}


def answer(request: dict[str, Any]) -> bytes:
    return json.dumps(solve_rummikub(request), sort_keys=True).encode()


@contextmanager
def busy_cores() -> Iterator[None]:
    """Every core of the machine kept busy by another process."""
    spinners = [
        subprocess.Popen([sys.executable, "-c", "while True: pass"])
        for _ in range(os.cpu_count() or 1)
    ]
    try:
        yield
    finally:
        for spinner in spinners:
            spinner.kill()
            spinner.wait()


def test_wall_clock_limits_not_reached_change_nothing() -> None:
    default = answer(REQUEST)
    reply = json.loads(default)
    assert reply["disruption_proven"]
    assert not reply["time_capped"]
    assert reply["sets_kept"] == 6
    relaxed = {**REQUEST, "time_limit_ms": 60_000, "disruption_time_limit_ms": 60_000}
    assert answer(relaxed) == default


def test_a_busy_machine_gets_the_same_answer() -> None:
    # Limits no busy machine reaches: only the work done decides the answer.
    relaxed = {**REQUEST, "time_limit_ms": 60_000, "disruption_time_limit_ms": 60_000}
    idle = answer(REQUEST)
    with busy_cores():
        busy = answer(relaxed)
    assert busy == idle


def test_an_answer_cut_by_the_clock_says_so() -> None:
    # 1 ms is less than building the first least-disruption model takes.
    reply = solve_rummikub({**REQUEST, "disruption_time_limit_ms": 1})
    assert reply["time_capped"]
    assert not reply["disruption_proven"]
    assert reply["status"] == "optimal"  # the score stage was not cut

"""Solve-time benchmark on reproducible random positions.

``python -m benchmarks`` generates positions from a seed in buckets of table
size x rack size (jokers spread over table and rack), solves each one in every
mode on one CP-SAT worker, and prints median / p95 / max solve time and the
share proven optimal per bucket. ``--json FILE`` writes the same figures.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from solver.rummikub import STANDARD, Objective, Position, Status, solve
from solver.rummikub.deal import random_position

TABLE_SIZES = (0, 10, 20, 40, 60, 80)
RACK_SIZES = (6, 14, 20, 30)
MODES = ("tiles", "points", "opening")


@dataclass(frozen=True)
class Row:
    bucket: str
    mode: str
    count: int
    median_ms: float
    p95_ms: float
    max_ms: float
    optimal_share: float


def positions(seed: int, per_bucket: int) -> dict[str, list[Position]]:
    """Reproducible positions per bucket name (``t<table>-r<rack>``)."""
    rng = random.Random(seed)
    buckets: dict[str, list[Position]] = {}
    for table in TABLE_SIZES:
        for rack in RACK_SIZES:
            found = []
            for _ in range(per_bucket):
                table_jokers = rng.randint(0, STANDARD.jokers)
                rack_jokers = rng.randint(0, STANDARD.jokers - table_jokers)
                found.append(
                    random_position(
                        rng,
                        STANDARD,
                        table,
                        rack,
                        table_jokers=table_jokers,
                        rack_jokers=rack_jokers,
                    )
                )
            buckets[f"t{table}-r{rack}"] = found
    return buckets


def time_solve(position: Position, mode: str, time_limit: float) -> tuple[float, bool]:
    objective = Objective.POINTS if mode == "points" else Objective.TILES
    if mode == "opening":
        position = Position(position.rack, position.table, opened=False)
    start = time.perf_counter()
    play = solve(position, STANDARD, objective, time_limit=time_limit, workers=1)
    return time.perf_counter() - start, play.status is Status.OPTIMAL


def percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def run(seed: int, per_bucket: int, time_limit: float) -> list[Row]:
    buckets = positions(seed, per_bucket)
    rows = []
    total = sum(len(p) for p in buckets.values()) * len(MODES)
    with Progress(transient=True) as progress:
        task = progress.add_task("solving", total=total)
        for name, found in buckets.items():
            for mode in MODES:
                times, optimal = [], 0
                for position in found:
                    seconds, proven = time_solve(position, mode, time_limit)
                    times.append(seconds * 1000)
                    optimal += proven
                    progress.advance(task)
                rows.append(
                    Row(
                        name,
                        mode,
                        len(times),
                        statistics.median(times),
                        percentile(times, 0.95),
                        max(times),
                        optimal / len(times),
                    )
                )
    return rows


def print_rows(rows: Sequence[Row], console: Console) -> None:
    table = Table(title="Rummikub solve time (ms, 1 CP-SAT worker)")
    for column in ("bucket", "mode", "n", "median", "p95", "max", "optimal"):
        table.add_column(column, justify="left" if column in ("bucket", "mode") else "right")
    for row in rows:
        table.add_row(
            row.bucket,
            row.mode,
            str(row.count),
            f"{row.median_ms:.1f}",
            f"{row.p95_ms:.1f}",
            f"{row.max_ms:.1f}",
            f"{row.optimal_share:.0%}",
        )
    console.print(table)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--per-bucket", type=int, default=10, help="positions per bucket")
    parser.add_argument("--time-limit", type=float, default=10.0, help="seconds per solve")
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    args = parser.parse_args(argv)
    rows = run(args.seed, args.per_bucket, args.time_limit)
    print_rows(rows, Console())
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump([asdict(row) for row in rows], out, indent=2)
    return 0

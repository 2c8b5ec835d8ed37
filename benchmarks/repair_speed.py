"""Table repair time on reproducible messy tables.

``python -m benchmarks.repair_speed`` deals standard positions (about 20, 40 and 60
table tiles, one table joker), lays 0-3 rack tiles on the table, then scrambles the
table into heaps of 1-5 tiles and repairs each such table twice, one way right after
the other (the first way alternating from table to table): with the table before the
turn given, and without. It prints median / p95 / max ms per bucket and the share of
answers whose verdict is proven (and of repairable tables), with the default time
limit (2 s, the outer safety cap). ``--json FILE`` writes the same figures.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass

from rich.console import Console
from rich.table import Table

from benchmarks.report import seeded_table_main
from benchmarks.stats import percentile
from solver.rummikub import STANDARD, Status, Tile
from solver.rummikub.deal import random_position
from solver.rummikub.repair import repair


@dataclass(frozen=True)
class Row:
    bucket: str
    count: int
    median_ms: float
    p95_ms: float
    max_ms: float
    proven_share: float
    repairable_share: float


def messy(rng: random.Random, table_tiles: int) -> tuple[list[list[Tile]], list[list[Tile]]]:
    """(the table scrambled into heaps with some rack tiles on it, the table before)."""
    position = random_position(rng, STANDARD, table_tiles, 6, table_jokers=1)
    tiles = [t for s in position.table for t in s] + list(position.rack[: rng.randint(0, 3)])
    rng.shuffle(tiles)
    heaps = []
    while tiles:
        size = rng.randint(1, 5)
        heaps.append(tiles[:size])
        tiles = tiles[size:]
    return heaps, [list(s) for s in position.table]


def run(seed: int, per_bucket: int) -> list[Row]:
    rng = random.Random(seed)
    rows = []
    for table_tiles in (20, 40, 60):
        # The same tables both ways: the two rows compare the table before's cost.
        tables = [messy(rng, table_tiles) for _ in range(per_bucket)]
        times: dict[bool, list[float]] = {True: [], False: []}
        proven, repairable = dict.fromkeys(times, 0), dict.fromkeys(times, 0)
        # Table by table, both ways in turn, the first way alternating: every table
        # was repaired with the table before, then every one without, so a change of
        # the machine's load between the two went into their comparison.
        for index, (heaps, before) in enumerate(tables):
            for with_before in (True, False) if index % 2 == 0 else (False, True):
                started = time.perf_counter()
                answer = repair(heaps, STANDARD, before=before if with_before else None)
                times[with_before].append((time.perf_counter() - started) * 1000)
                proven[with_before] += answer.status is Status.OPTIMAL
                repairable[with_before] += answer.repairable is True  # None: not settled
        for with_before in (True, False):
            rows.append(
                Row(
                    f"t{table_tiles} {'with' if with_before else 'without'} table before",
                    per_bucket,
                    statistics.median(times[with_before]),
                    percentile(times[with_before], 0.95),
                    max(times[with_before]),
                    proven[with_before] / per_bucket,
                    repairable[with_before] / per_bucket,
                )
            )
    return rows


def print_rows(rows: Sequence[Row], console: Console) -> None:
    table = Table(title="Table repair time (ms, 1 CP-SAT worker)")
    for column in ("bucket", "n", "median", "p95", "max", "proven", "repairable"):
        table.add_column(column, justify="left" if column == "bucket" else "right")
    for row in rows:
        table.add_row(
            row.bucket,
            str(row.count),
            f"{row.median_ms:.1f}",
            f"{row.p95_ms:.1f}",
            f"{row.max_ms:.1f}",
            f"{row.proven_share:.0%}",
            f"{row.repairable_share:.0%}",
        )
    console.print(table)


def main(argv: Sequence[str] | None = None) -> int:
    return seeded_table_main(
        argv, "python -m benchmarks.repair_speed", __doc__, (20, "tables"), run, print_rows
    )


if __name__ == "__main__":
    raise SystemExit(main())

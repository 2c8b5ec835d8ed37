"""Solve time under the house rules that change the run model, against the default.

``python -m benchmarks.house_rules_speed`` deals standard positions after opening
(about 20, 40 and 60 table tiles, 14 on the rack, one joker on the table and one on
the rack, so that a one-joker limit never refuses the table) and solves each (the
whole answer, least disruption included) under the default rules, ``wrap_runs``,
``max_jokers_per_set: 1`` and both, one after the other in the same run. It prints
median / p95 / max ms per bucket and rule set, the median's ratio to the default's,
and the share of answers proven optimal. ``--json FILE`` writes the same figures.
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
from solver.rummikub import Limit, Rules, Status, solve
from solver.rummikub.deal import random_position

RULE_SETS = {
    "default": Rules(),
    "wrap_runs": Rules(wrap_runs=True),
    "max_jokers_per_set=1": Rules(max_jokers_per_set=1),
    "both": Rules(wrap_runs=True, max_jokers_per_set=1),
}


@dataclass(frozen=True)
class Row:
    bucket: str
    rules: str
    count: int
    median_ms: float
    p95_ms: float
    max_ms: float
    median_ratio: float
    """The median over the default rules' median in the same bucket."""
    proven_share: float


def run(seed: int, per_bucket: int) -> list[Row]:
    rng = random.Random(seed)
    rows = []
    for table_tiles in (20, 40, 60):
        positions = [
            random_position(rng, Rules(), table_tiles, 14, table_jokers=1, rack_jokers=1)
            for _ in range(per_bucket)
        ]
        baseline = 0.0
        for name, rules in RULE_SETS.items():
            times, proven = [], 0
            for position in positions:
                started = time.perf_counter()
                play = solve(position, rules, limit=Limit(30))
                times.append((time.perf_counter() - started) * 1000)
                proven += play.status is Status.OPTIMAL
            median = statistics.median(times)
            baseline = baseline or median
            rows.append(
                Row(
                    f"t{table_tiles}",
                    name,
                    per_bucket,
                    median,
                    percentile(times, 0.95),
                    max(times),
                    median / baseline,
                    proven / per_bucket,
                )
            )
    return rows


def print_rows(rows: Sequence[Row], console: Console) -> None:
    table = Table(title="Solve time under house rules (ms)")
    for column in ("bucket", "rules", "n", "median", "p95", "max", "x default", "proven"):
        table.add_column(column, justify="left" if column in ("bucket", "rules") else "right")
    for row in rows:
        table.add_row(
            row.bucket,
            row.rules,
            str(row.count),
            f"{row.median_ms:.1f}",
            f"{row.p95_ms:.1f}",
            f"{row.max_ms:.1f}",
            f"{row.median_ratio:.2f}",
            f"{row.proven_share:.0%}",
        )
    console.print(table)


def main(argv: Sequence[str] | None = None) -> int:
    return seeded_table_main(
        argv, "python -m benchmarks.house_rules_speed", __doc__, (10, "positions"), run, print_rows
    )


if __name__ == "__main__":
    raise SystemExit(main())

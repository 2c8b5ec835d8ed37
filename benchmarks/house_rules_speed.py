"""Solve time under the house rules that change the run model, against the default.

``python -m benchmarks.house_rules_speed`` deals standard positions after opening
(about 20, 40 and 60 table tiles, 14 on the rack, one joker on the table and one on
the rack, so that a one-joker limit never refuses the table) and solves each under
the default rules, ``wrap_runs``, ``max_jokers_per_set: 1``, both,
``joker_retrieval: "replace"`` and replace with the one-joker limit, in the same run,
position by position (each rule set in turn, the first one rotating, so that all see
the same load): the whole answer (least disruption included), then the score stage
alone (``least_disruption=False``, as the bots solve). It prints median / p95
/ max ms per bucket, rule set and stage, the median's ratio to the default rules'
(same stage), the share of answers whose score is proven optimal and, for the whole
answer, the share whose least disruption is proven (``disruption_proven``). ``--json
FILE`` writes the same figures.
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
    "replace": Rules(joker_retrieval="replace"),
    "replace, max_jokers_per_set=1": Rules(joker_retrieval="replace", max_jokers_per_set=1),
}

STAGES = {"answer": True, "score": False}
"""Each stage's ``least_disruption`` setting."""


@dataclass(frozen=True)
class Row:
    bucket: str
    rules: str
    stage: str
    count: int
    median_ms: float
    p95_ms: float
    max_ms: float
    median_ratio: float
    """The median over the default rules' median in the same bucket."""
    proven_share: float
    calm_share: float | None
    """The share of answers with least disruption proven (None for the score stage)."""


def run(seed: int, per_bucket: int) -> list[Row]:
    rng = random.Random(seed)
    rows = []
    for table_tiles in (20, 40, 60):
        positions = [
            random_position(rng, Rules(), table_tiles, 14, table_jokers=1, rack_jokers=1)
            for _ in range(per_bucket)
        ]
        for stage, calm in STAGES.items():
            names = list(RULE_SETS)
            times: dict[str, list[float]] = {name: [] for name in names}
            proven, calm_proven = dict.fromkeys(names, 0), dict.fromkeys(names, 0)
            # Position by position, every rule set in turn, the first one rotating: the
            # rule sets ran one after the other, so a change of the machine's load
            # between them went into their ratios.
            for index, position in enumerate(positions):
                shift = index % len(names)
                for name in names[shift:] + names[:shift]:
                    started = time.perf_counter()
                    play = solve(position, RULE_SETS[name], limit=Limit(30), least_disruption=calm)
                    times[name].append((time.perf_counter() - started) * 1000)
                    proven[name] += play.status is Status.OPTIMAL
                    calm_proven[name] += play.disruption_proven
            baseline = statistics.median(times[names[0]])
            for name in names:
                median = statistics.median(times[name])
                rows.append(
                    Row(
                        f"t{table_tiles}",
                        name,
                        stage,
                        per_bucket,
                        median,
                        percentile(times[name], 0.95),
                        max(times[name]),
                        median / baseline,
                        proven[name] / per_bucket,
                        calm_proven[name] / per_bucket if calm else None,
                    )
                )
    return rows


def print_rows(rows: Sequence[Row], console: Console) -> None:
    table = Table(title="Solve time under house rules (ms)")
    columns = (
        "bucket",
        "rules",
        "stage",
        "n",
        "median",
        "p95",
        "max",
        "x default",
        "proven",
        "calm proven",
    )
    for column in columns:
        table.add_column(column, justify="left" if column in columns[:3] else "right")
    for row in rows:
        table.add_row(
            row.bucket,
            row.rules,
            row.stage,
            str(row.count),
            f"{row.median_ms:.1f}",
            f"{row.p95_ms:.1f}",
            f"{row.max_ms:.1f}",
            f"{row.median_ratio:.2f}",
            f"{row.proven_share:.0%}",
            "" if row.calm_share is None else f"{row.calm_share:.0%}",
        )
    console.print(table)


def main(argv: Sequence[str] | None = None) -> int:
    return seeded_table_main(
        argv, "python -m benchmarks.house_rules_speed", __doc__, (10, "positions"), run, print_rows
    )


if __name__ == "__main__":
    raise SystemExit(main())

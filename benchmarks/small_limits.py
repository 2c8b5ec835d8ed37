"""How late an answer asked for little time comes: the wall-clock time past its limit.

``python -m benchmarks.small_limits`` deals large positions from ``--seed`` (Rummikub,
8 colours and 4 jokers: tables of about 80 tiles numbered 1-13 with 2 table jokers and
racks of 20 with one, and of about 100 tiles numbered 1-20 in 3 copies with 3 table
jokers and racks of 30 with one; a solve of each, and a repair of the first table with
a tile moved off a set beside a rack tile; Shanghai: hands of 22
cards of 8 decks with 32 jokers and wild twos, in the play and the draw phase, for
hands 7 and 10) and answers each at time limits of 1, 10, 50 and 100 ms and at the
default (2000 ms), in this process. It prints, per request and limit, the median and
the most milliseconds past the limit (at the default: the whole time), and the share of
answers that say the clock cut them (``time_capped``). An answer cut by the clock comes
past its limit by the fixed overhead the clock does not cut: reading the request,
checking the position, building one model or studying one hand (docs/http.md).
``--json FILE`` writes the same figures.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from rich.console import Console
from rich.table import Table

from benchmarks.report import seeded_table_main
from solver import advise_shanghai, repair_rummikub, solve_rummikub
from solver.rummikub import Rules
from solver.rummikub.deal import random_position
from solver.shanghai.notation import ALL_NATURALS, JOKER

LIMITS_MS = (1, 10, 50, 100, None)
"""The limits asked (None: the default, 2000 ms)."""
RUMMIKUB = {"colours": 8, "jokers": 4}
LARGER = {**RUMMIKUB, "numbers": 20, "copies": 3}
SHANGHAI = {"decks": 8, "jokers_per_deck": 4, "twos_wild": True}


@dataclass(frozen=True)
class Row:
    request: str
    limit_ms: int | None
    count: int
    median_past_ms: float
    max_past_ms: float
    capped_share: float


def requests(rng: random.Random) -> list[tuple[str, Callable[..., Any], dict[str, Any]]]:
    """One dealing of each kind of request (without a time limit)."""
    position = random_position(
        rng, Rules.from_dict(RUMMIKUB), 80, 20, table_jokers=2, rack_jokers=1
    )
    table = [[str(t) for t in s] for s in position.table]
    rack = [str(t) for t in position.rack]
    larger = random_position(rng, Rules.from_dict(LARGER), 100, 30, table_jokers=3, rack_jokers=1)
    broken = [list(s) for s in table]
    moved = broken[0].pop()  # beside a rack tile: a heap that is no set
    deck = [str(c) for c in (*ALL_NATURALS, JOKER) for _ in range(8 if c != JOKER else 32)]
    hand = rng.sample(deck, 22)
    return [
        ("solve 80 tiles", solve_rummikub, {"rack": rack, "table": table, "rules": RUMMIKUB}),
        (
            "solve 100 tiles",
            solve_rummikub,
            {
                "rack": [str(t) for t in larger.rack],
                "table": [[str(t) for t in s] for s in larger.table],
                "rules": LARGER,
            },
        ),
        (
            "repair 80 tiles",
            repair_rummikub,
            {
                "table": [*broken, [moved, rack[0]]],
                "table_before": table,
                "rack": rack[1:],
                "rules": RUMMIKUB,
            },
        ),
        *(
            (
                f"advise {phase} hand {number}",
                advise_shanghai,
                {"hand": hand, "hand_number": number, "phase": phase, "rules": SHANGHAI},
            )
            for phase in ("play", "draw")
            for number in (7, 10)
        ),
    ]


def run(seed: int, per_bucket: int) -> list[Row]:
    rng = random.Random(seed)
    dealt = [requests(rng) for _ in range(per_bucket)]
    rows = []
    for index, (name, _answer, _body) in enumerate(dealt[0]):
        for limit in LIMITS_MS:
            past: list[float] = []
            capped = 0
            for kinds in dealt:
                _name, answer, body = kinds[index]
                asked = body if limit is None else {**body, "time_limit_ms": limit}
                started = time.perf_counter()
                said = answer(asked)
                past.append((time.perf_counter() - started) * 1000 - (limit or 0))
                capped += bool(said["time_capped"])
            median, most = statistics.median(past), max(past)
            rows.append(Row(name, limit, per_bucket, median, most, capped / per_bucket))
    return rows


def print_rows(rows: Sequence[Row], console: Console) -> None:
    table = Table(title="Milliseconds past the time limit asked (the default: the whole time)")
    for column in ("request", "limit ms", "n", "median past", "max past", "cut"):
        table.add_column(column, justify="left" if column == "request" else "right")
    for row in rows:
        table.add_row(
            row.request,
            "default" if row.limit_ms is None else str(row.limit_ms),
            str(row.count),
            f"{row.median_past_ms:.1f}",
            f"{row.max_past_ms:.1f}",
            f"{row.capped_share:.0%}",
        )
    console.print(table)


def main(argv: Sequence[str] | None = None) -> int:
    return seeded_table_main(
        argv, "python -m benchmarks.small_limits", __doc__, (5, "dealings"), run, print_rows
    )


if __name__ == "__main__":
    raise SystemExit(main())

"""Shanghai advice time on reproducible random deals, by phase and hand number.

``python -m benchmarks.shanghai_speed`` deals, for every hand 1-10 and both phases,
turns of a player not yet down (11 cards before the draw, 12 after; a table of 0-4
melds from other players) and of a player who is down (1-7 cards before the
draw, 2-8 after; a table of 4-8 melds), with 0-12 cards in the discard pile
(``seen``), then times the whole advice with the default settings (every CP-SAT
solve of the turn, one worker each) and prints median / p95 / max per bucket and
per phase. ``--json FILE`` and ``--markdown FILE`` write the same figures. CPU time
of this process (median, p95, max) is reported beside the wall-clock time, since the
machine may be shared.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass

from rich.console import Console
from rich.table import Table

from benchmarks.stats import Summary
from solver.cpsat import Limit
from solver.shanghai import STANDARD, Contract, Position, Status, TableMeld, advise, read_meld
from solver.shanghai.advice import DEFAULT_TIME_LIMIT
from solver.shanghai.contracts import HANDS
from solver.shanghai.notation import ALL_NATURALS, JOKER, Card
from solver.shanghai.position import Phase

PHASES = (Phase.PLAY, Phase.DRAW)


@dataclass(frozen=True)
class Row:
    phase: str
    bucket: str
    count: int
    median_ms: float
    p95_ms: float
    max_ms: float
    cpu_median_ms: float
    cpu_p95_ms: float
    cpu_max_ms: float
    optimal_share: float


def deck() -> list[Card]:
    return [c for c in ALL_NATURALS for _ in range(STANDARD.decks)] + [JOKER] * STANDARD.jokers


def random_meld(rng: random.Random, stock: list[Card]) -> TableMeld | None:
    """A set of 3 or a run of 4-5 taken from ``stock`` (sometimes with a joker)."""
    if rng.random() < 0.5:
        rank = rng.randint(3, 14)
        cards = [c for c in stock if c.rank == rank][:3]
    else:
        card = rng.choice([c for c in stock if not c.is_joker])
        first = min(card.rank, 10)
        wanted = [Card(r, card.suit) for r in range(first, first + rng.randint(4, 5)) if r <= 14]
        cards = [c for c in wanted if c in stock]
        if len(cards) != len(wanted):
            return None
    if len(cards) < 3 or (cards[0].rank != cards[-1].rank and len(cards) < 4):
        return None
    if JOKER in stock and rng.random() < 0.2:
        cards[1] = JOKER
    for c in cards:
        stock.remove(c)
    return TableMeld(read_meld(cards, STANDARD), "other")


def deal(rng: random.Random, hand_number: int, down: bool, phase: Phase = Phase.PLAY) -> Position:
    """A random turn; the play phase holds one card more than the draw phase."""
    stock = deck()
    rng.shuffle(stock)
    table: list[TableMeld] = []
    for _ in range(rng.randint(4, 8) if down else rng.randint(0, 4)):
        meld = random_meld(rng, stock)
        if meld is not None:
            table.append(meld)
    size = rng.randint(1, 7) if down else 11
    if phase is Phase.PLAY:
        size += 1
    hand = tuple(stock[:size])
    seen = tuple(stock[size + 1 : size + 1 + rng.randint(0, 12)])
    contract = Contract.for_hand(hand_number)
    return Position(hand, contract, tuple(table), down, stock[size], 3, phase, seen)


def run(seed: int, per_bucket: int, time_limit: float) -> list[Row]:
    rng = random.Random(seed)
    rows = []
    for phase in PHASES:
        every: list[float] = []
        cpu_every: list[float] = []
        optimal_every = 0
        for number in range(1, HANDS + 1):
            for down in (False, True):
                times, cpu, optimal = [], [], 0
                for _ in range(per_bucket):
                    position = deal(rng, number, down, phase)
                    start, start_cpu = time.perf_counter(), time.process_time()
                    advice = advise(position, STANDARD, limit=Limit(time_limit, workers=1))
                    times.append((time.perf_counter() - start) * 1000)
                    cpu.append((time.process_time() - start_cpu) * 1000)
                    optimal += advice.status is Status.OPTIMAL
                state = "down" if down else "not down"
                rows.append(_row(phase, f"hand {number} {state}", times, cpu, optimal))
                every += times
                cpu_every += cpu
                optimal_every += optimal
        rows.append(_row(phase, "all turns", every, cpu_every, optimal_every))
    return rows


def _row(phase: Phase, bucket: str, times: list[float], cpu: list[float], optimal: int) -> Row:
    wall, used = Summary.of(times), Summary.of(cpu)
    return Row(
        phase.value,
        bucket,
        wall.count,
        wall.median,
        wall.p95,
        wall.max,
        used.median,
        used.p95,
        used.max,
        optimal / len(times),
    )


def print_rows(rows: Sequence[Row], console: Console) -> None:
    table = Table(title="Shanghai advice time per turn (ms, default settings, 1 CP-SAT worker)")
    columns = ("phase", "bucket", "n", "median", "p95", "max", "cpu median", "cpu p95", "cpu max")
    for column in (*columns, "optimal"):
        table.add_column(column, justify="left" if column in ("phase", "bucket") else "right")
    for row in rows:
        table.add_row(
            row.phase,
            row.bucket,
            str(row.count),
            f"{row.median_ms:.1f}",
            f"{row.p95_ms:.1f}",
            f"{row.max_ms:.1f}",
            f"{row.cpu_median_ms:.1f}",
            f"{row.cpu_p95_ms:.1f}",
            f"{row.cpu_max_ms:.1f}",
            f"{row.optimal_share:.0%}",
        )
    console.print(table)


def markdown(rows: Sequence[Row]) -> str:
    """The figures as a Markdown table."""
    lines = [
        "| phase | bucket | n | median ms | p95 ms | max ms | CPU median ms | CPU p95 ms"
        " | CPU max ms | optimal |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        lines.append(
            f"| {row.phase} | {row.bucket} | {row.count} | {row.median_ms:.1f} |"
            f" {row.p95_ms:.1f} | {row.max_ms:.1f} | {row.cpu_median_ms:.1f} |"
            f" {row.cpu_p95_ms:.1f} | {row.cpu_max_ms:.1f} | {row.optimal_share:.0%} |"
        )
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.shanghai_speed", description=__doc__
    )
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--per-bucket", type=int, default=20, help="turns per bucket")
    parser.add_argument(
        "--time-limit",
        type=float,
        default=DEFAULT_TIME_LIMIT,
        help=f"seconds per CP-SAT solve (default {DEFAULT_TIME_LIMIT}, the library's)",
    )
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    parser.add_argument("--markdown", metavar="FILE", help="also write them as Markdown")
    args = parser.parse_args(argv)
    rows = run(args.seed, args.per_bucket, args.time_limit)
    print_rows(rows, Console())
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump([asdict(row) for row in rows], out, indent=2)
    if args.markdown:
        with open(args.markdown, "w", encoding="utf-8") as out:
            out.write(markdown(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

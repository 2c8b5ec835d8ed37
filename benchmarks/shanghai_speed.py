"""Shanghai advice time on reproducible random deals.

``python -m benchmarks.shanghai_speed`` deals, for every hand 1-10, positions of a
player not yet down (12 cards: 11 dealt plus the draw, a table of 0-4 melds from
other players) and of a player who is down (3-8 cards, a table of 4-8 melds), then
times the whole advice (every CP-SAT solve of the turn, one worker each) and
prints median / p95 / max per bucket. ``--json FILE`` writes the same figures.
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
from rich.table import Table

from solver.shanghai import STANDARD, Contract, Position, Status, TableMeld, advise, read_meld
from solver.shanghai.cards import ALL_NATURALS, JOKER, Card
from solver.shanghai.contracts import HANDS


@dataclass(frozen=True)
class Row:
    bucket: str
    count: int
    median_ms: float
    p95_ms: float
    max_ms: float
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


def deal(rng: random.Random, hand_number: int, down: bool) -> Position:
    stock = deck()
    rng.shuffle(stock)
    table: list[TableMeld] = []
    for _ in range(rng.randint(4, 8) if down else rng.randint(0, 4)):
        meld = random_meld(rng, stock)
        if meld is not None:
            table.append(meld)
    size = rng.randint(3, 8) if down else 12
    hand = tuple(stock[:size])
    return Position(hand, Contract.for_hand(hand_number), tuple(table), down, stock[size], 3)


def run(seed: int, per_bucket: int, time_limit: float) -> list[Row]:
    rng = random.Random(seed)
    rows = []
    for down in (False, True):
        for number in range(1, HANDS + 1):
            times, optimal = [], 0
            for _ in range(per_bucket):
                position = deal(rng, number, down)
                start = time.perf_counter()
                advice = advise(position, STANDARD, time_limit=time_limit, workers=1)
                times.append((time.perf_counter() - start) * 1000)
                optimal += advice.status is Status.OPTIMAL
            ordered = sorted(times)
            rows.append(
                Row(
                    f"hand {number} {'down' if down else 'not down'}",
                    len(times),
                    statistics.median(times),
                    ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))],
                    max(times),
                    optimal / len(times),
                )
            )
    return rows


def print_rows(rows: Sequence[Row], console: Console) -> None:
    table = Table(title="Shanghai advice time per turn (ms, 1 CP-SAT worker)")
    for column in ("bucket", "n", "median", "p95", "max", "optimal"):
        table.add_column(column, justify="left" if column == "bucket" else "right")
    for row in rows:
        table.add_row(
            row.bucket,
            str(row.count),
            f"{row.median_ms:.1f}",
            f"{row.p95_ms:.1f}",
            f"{row.max_ms:.1f}",
            f"{row.optimal_share:.0%}",
        )
    console.print(table)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.shanghai_speed", description=__doc__
    )
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--per-bucket", type=int, default=20, help="positions per bucket")
    parser.add_argument("--time-limit", type=float, default=10.0, help="seconds per solve")
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    args = parser.parse_args(argv)
    rows = run(args.seed, args.per_bucket, args.time_limit)
    print_rows(rows, Console())
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump([asdict(row) for row in rows], out, indent=2)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

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

``--base REV`` times another git revision's ``solver.shanghai`` (exported as
``solver_base``, see :func:`benchmarks.ab.load_base`) on the same turns in the same
run, the two taking turns going first, and counts the turns whose answers differ
(the figures, the decisions and the discard): a before/after that both see under
the same load.
"""

from __future__ import annotations

import importlib
import itertools
import json
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from types import ModuleType
from typing import Any

from rich.console import Console
from rich.table import Table

import solver.shanghai
from benchmarks.ab import load_base
from benchmarks.machine import load
from benchmarks.output import outputs_ready, table_console, write_output
from benchmarks.stats import Summary, at_least
from solver.commands import Parser, whole_number
from solver.shanghai import STANDARD, Contract, Position, TableMeld, read_meld
from solver.shanghai.advice import DEFAULT_TIME_LIMIT
from solver.shanghai.contracts import HANDS
from solver.shanghai.notation import ALL_NATURALS, JOKER, Card
from solver.shanghai.position import Phase
from solver.shanghai.rules import Rules

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


def deck(rules: Rules = STANDARD) -> list[Card]:
    """Every card of a game under ``rules``, in order."""
    return [c for c in ALL_NATURALS for _ in range(rules.decks)] + [JOKER] * rules.jokers


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


Asked = Callable[[], tuple[bool, tuple[Any, ...]]]
"""Advice for one turn, ready to time: (proven, what it says, to compare revisions)."""
Adviser = Callable[[Position], Asked]
"""The turn's position put in an adviser's own types (not timed), as an :data:`Asked`."""


def adviser(package: ModuleType, time_limit: float) -> Adviser:
    """Advice from ``package`` (this checkout's ``solver.shanghai`` or another
    revision's) with the default settings but ``time_limit``; the position is rebuilt
    from its notation in that package's own types before the clock starts."""
    limit = importlib.import_module(package.__name__.replace("shanghai", "cpsat")).Limit(
        time_limit, workers=1
    )
    phases = importlib.import_module(f"{package.__name__}.position").Phase

    def prepare(position: Position) -> Asked:
        def cards(found: Sequence[Any]) -> tuple[Any, ...]:
            return tuple(package.Card.parse(str(card)) for card in found)

        asked = package.Position(
            cards(position.hand),
            None
            if position.contract is None
            else package.Contract(position.contract.sets, position.contract.runs),
            tuple(
                package.TableMeld(package.read_meld(cards(item.meld.cards), package.STANDARD))
                for item in position.table
            ),
            position.down,
            None if position.upcard is None else cards([position.upcard])[0],
            position.buys_left,
            None if position.phase is None else phases(position.phase.value),
            cards(position.seen),
        )

        def advise() -> tuple[bool, tuple[Any, ...]]:
            advice = package.advise(asked, package.STANDARD, limit=limit)
            return advice.status.value == "optimal", _said(advice)

        return advise

    return prepare


def _said(advice: Any) -> tuple[Any, ...]:
    """What an answer says, comparable across revisions: the deficiency, the draw
    options' figures, the take and buy decisions, the discard and the hand kept."""
    options = tuple(
        (o.action, o.cards, *(None if v is None else round(v, 9) for v in _figures(o)))
        for o in advice.draw_options
    )
    return (
        advice.deficiency,
        options,
        None if advice.take_upcard is None else advice.take_upcard.yes,
        None if advice.buy is None else advice.buy.yes,
        None if advice.discard is None else str(advice.discard.card),
        None if advice.turn is None else tuple(str(card) for card in advice.turn.kept),
    )


def _figures(option: Any) -> tuple[float | None, ...]:
    return (option.deficiency, option.points, option.go_down, option.go_out)


@dataclass
class Timed:
    """Wall-clock and CPU milliseconds per turn of one adviser, and the turns proven."""

    wall: list[float]
    cpu: list[float]
    proven: int = 0


def run(
    seed: int, per_bucket: int, advisers: Sequence[Adviser]
) -> tuple[list[list[Row]], dict[str, list[str]]]:
    """Time every adviser on the same turns (they take turns going first); the rows
    of each, and per phase the turns on which the first and the last disagree."""
    rng = random.Random(seed)
    rows: list[list[Row]] = [[] for _ in advisers]
    differ: dict[str, list[str]] = {}
    # Who goes first rotates over the whole run, not by the turn's index in its bucket
    # (with one turn per bucket, or an odd count, the base went first more often).
    turns = itertools.count()
    for phase in PHASES:
        every = [Timed([], []) for _ in advisers]
        differ[phase.value] = []
        for number in range(1, HANDS + 1):
            for down in (False, True):
                state = "down" if down else "not down"
                bucket = f"hand {number} {state}"
                timed = [Timed([], []) for _ in advisers]
                for index in range(per_bucket):
                    position = deal(rng, number, down, phase)
                    said = _time_each(advisers, position, timed, next(turns))
                    if said[0] != said[-1]:
                        differ[phase.value].append(f"{bucket} #{index}")
                for found, done, total in zip(rows, timed, every, strict=True):
                    found.append(_row(phase, bucket, done))
                    total.wall += done.wall
                    total.cpu += done.cpu
                    total.proven += done.proven
        for found, total in zip(rows, every, strict=True):
            found.append(_row(phase, "all turns", total))
    return rows, differ


def _time_each(
    advisers: Sequence[Adviser], position: Position, timed: list[Timed], turn: int
) -> list[tuple[Any, ...]]:
    """Advise ``position`` with each adviser (in turn order, rotated by ``turn``),
    recording the times in ``timed``; what each said, in adviser order."""
    said: list[tuple[Any, ...]] = [() for _ in advisers]
    order = list(range(len(advisers)))
    shift = turn % len(order)
    for which in order[shift:] + order[:shift]:
        asked = advisers[which](position)
        start, start_cpu = time.perf_counter(), time.process_time()
        proven, said[which] = asked()
        timed[which].wall.append((time.perf_counter() - start) * 1000)
        timed[which].cpu.append((time.process_time() - start_cpu) * 1000)
        timed[which].proven += proven
    return said


def _row(phase: Phase, bucket: str, timed: Timed) -> Row:
    wall, used = Summary.of(timed.wall), Summary.of(timed.cpu)
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
        timed.proven / len(timed.wall),
    )


def print_rows(rows: Sequence[Row], console: Console, title: str = "this checkout") -> None:
    table = Table(
        title=f"Shanghai advice time per turn, {title} (ms, default settings, 1 CP-SAT worker)"
    )
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


def markdown(rows: Sequence[Row], title: str = "") -> str:
    """The figures as a Markdown table (under a heading line when ``title`` is given)."""
    lines = [f"**{title}**", ""] if title else []
    lines += [
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
    parser = Parser(prog="python -m benchmarks.shanghai_speed", description=__doc__)
    parser.add_argument("--seed", type=whole_number, default=2026)
    parser.add_argument("--per-bucket", type=at_least(1), default=20, help="turns per bucket")
    parser.add_argument(
        "--time-limit",
        type=at_least(0, float),
        default=DEFAULT_TIME_LIMIT,
        help=f"seconds per CP-SAT solve (default {DEFAULT_TIME_LIMIT}, the library's)",
    )
    parser.add_argument("--base", metavar="REV", help="also time this git revision (before/after)")
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    parser.add_argument("--markdown", metavar="FILE", help="also write them as Markdown")
    args = parser.parse_args(argv)
    outputs_ready(parser, ("--json", args.json), ("--markdown", args.markdown))
    titles = ["this checkout"]
    advisers = [adviser(solver.shanghai, args.time_limit)]
    if args.base:
        titles.insert(0, f"base {args.base}")
        advisers.insert(0, adviser(load_base(args.base, "shanghai"), args.time_limit))
    load_before = load()
    rows, differ = run(args.seed, args.per_bucket, advisers)
    console = table_console()
    for title, found in zip(titles, rows, strict=True):
        print_rows(found, console, title)
    console.print(f"load before: {load_before}, after: {load()}")
    if args.base:
        for phase, turns in differ.items():
            console.print(f"{phase}: {len(turns)} turns answered differently {turns[:10]}")
    if args.json:
        figures: Any = [asdict(row) for row in rows[-1]]
        if args.base:  # both revisions, by title, and the turns answered differently
            named = zip(titles, rows, strict=True)
            figures = {t: [asdict(row) for row in found] for t, found in named}
            figures["differ"] = differ
        write_output("--json", args.json, json.dumps(figures, indent=2))
    if args.markdown:
        text = "\n".join(markdown(f, t) for t, f in zip(titles, rows, strict=True))
        write_output("--markdown", args.markdown, text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

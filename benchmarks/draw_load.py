"""The Shanghai draw or play phase on dealt hands, idle or beside busy loops.

``python -m benchmarks.draw_load [--phase draw|play] [--seed 7] [--per 1] [--busy 4]
[--time-limit 2.0] [--answers FILE] [--compare FILE]`` advises one dealt turn per hand
(1-10), kind of hand and rule set (the standard rules, and 3 decks with wild twos),
``--per`` times: 60 turns at the defaults. The draw phase's kinds are hand sizes before
the draw (11, 15 and 21 cards: a hand grown by buys, not down); the play phase's are a
hand after the draw of 12 and 16 cards not down and one of 2-8 cards down (a table of
4-8 melds), followed by the hard play requests of the tests (:data:`HARD_PLAY`). For
each it prints the CP-SAT searches and their deterministic work, the CPU and
wall-clock seconds, the status, whether the clock cut it (``time_capped``) and whether
a phase's work budget stopped it; then the median, p95 and most of each. With
``--busy N`` it first starts N busy loops (``sh -c 'while :; do :; done'``) and stops
them at the end: the answers must be the same bytes as idle (``--answers`` writes them,
``--compare`` counts those that differ from a file written so). benchmarks/RESULTS.md,
section 5, "Draw phase: the same answer under load" and "Play phase: the same answer
under load", give runs.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import solver.cpsat as cpsat
from benchmarks.shanghai_speed import deck, random_meld
from solver.cpsat import Limit
from solver.shanghai import STANDARD, Contract, Position, TableMeld, advise
from solver.shanghai.notation import Card
from solver.shanghai.position import Phase
from solver.shanghai.rules import Rules
from solver.shanghai.wire import ShanghaiAdviseRequest, advice_to_dict
from solver.wire import read

RULES = {"std": STANDARD, "wild3": Rules(decks=3, twos_wild=True)}
"""The rule sets dealt, by the name the rows give."""

SIZES = (11, 15, 21)
"""Hand sizes before the draw: dealt, and grown by one and two buys."""

PLAY_KINDS = ("12", "16", "down")
"""The play phase's hands: 12 and 16 cards after the draw, not down (dealt, and grown by
a buy), and 2-8 cards down."""

HARD_PLAY: dict[str, dict[str, Any]] = {
    # The default hand-7 request of RESULTS section 5 asked for the play phase
    # (tests/shanghai/test_shanghai_draw_load.py, DEFAULT_REQUEST).
    "sh-advise-s3-h7-play": {
        "hand": [
            "3H",
            "KH",
            "2D",
            "9D",
            "10D",
            "2C",
            "7C",
            "8C",
            "9C",
            "JC",
            "KC",
            "4H",
            "2S",
            "10S",
            "7S",
            "6S",
            "QD",
            "7D",
            "6H",
            "KS",
            "8H",
        ],
        "hand_number": 7,
        "phase": "play",
        "upcard": "AS",
        "seen": [
            "QC",
            "4D",
            "2H",
            "7S",
            "JS",
            "3S",
            "3C",
            "JD",
            "9C",
            "10H",
            "JK",
            "JS",
            "AH",
            "10C",
            "KS",
            "6C",
            "AS",
            "JK",
            "8D",
            "10D",
        ],
        "buys_left": 2,
        "next_player": {"down": False, "took": ["8D", "KD"]},
        "rules": {"decks": 3, "twos_wild": True},
    },
    # tests/shanghai/test_shanghai_advice.py: a discard of many studies and searches.
    "eight-twos": {
        "hand": ["2S", "2H", "2D", "2C", "2S", "2H", "2D", "2C", "JK"],
        "hand_number": 3,
        "phase": "play",
        "rules": {"twos_wild": True},
    },
}
"""The hard play requests of the tests, advised after the dealt play turns."""


def deal(rng: random.Random, rules: Rules, hand_number: int, size: int) -> Position:
    """A draw-phase turn of a player not down: ``size`` cards from a shuffled game, the
    next card the upcard, up to 12 after it seen, no table, 2 buys left."""
    stock = _stock(rng, rules)
    hand = tuple(stock[:size])
    seen = tuple(stock[size + 1 : size + 1 + rng.randint(0, 12)])
    contract = Contract.for_hand(hand_number)
    return Position(hand, contract, (), False, stock[size], 2, Phase.DRAW, seen)


def _stock(rng: random.Random, rules: Rules) -> list[Card]:
    stock = deck(rules)
    rng.shuffle(stock)
    return stock


def deal_play(rng: random.Random, rules: Rules, hand_number: int, kind: str) -> Position:
    """A play-phase turn (after the draw) of the ``kind`` of :data:`PLAY_KINDS`: not
    down, ``kind`` cards and 0-4 melds of others on the table; or down, 2-8 cards and
    4-8 melds. Up to 12 cards seen, 2 buys left. Table melds hold no wild two (a two in
    a run would read as wild)."""
    stock = _stock(rng, rules)
    down = kind == "down"
    plain = [c for c in stock if not rules.is_wild(c) or c.is_joker]
    table: list[TableMeld] = []
    for _ in range(rng.randint(4, 8) if down else rng.randint(0, 4)):
        before = Counter(plain)
        meld = random_meld(rng, plain)
        if meld is not None:
            table.append(meld)
            for card in (before - Counter(plain)).elements():
                stock.remove(card)
    size = rng.randint(2, 8) if down else int(kind)
    hand = tuple(stock[:size])
    seen = tuple(stock[size : size + rng.randint(0, 12)])
    contract = Contract.for_hand(hand_number)
    return Position(hand, contract, tuple(table), down, None, 2, Phase.PLAY, seen)


@dataclass
class Row:
    """One turn's advice: what it cost and how it ended."""

    rules: str
    hand: int
    size: int
    searches: int = 0
    work: float = 0.0
    cpu: float = 0.0
    wall: float = 0.0
    status: str = ""
    capped: bool = False
    budget: bool = False
    down: bool = False


@contextmanager
def counted(row: Row) -> Iterator[None]:
    """Count every CP-SAT search made inside (:func:`solver.cpsat.run`) and its work in
    ``row``, and note whether a work budget (a phase's, shared by its searches) stopped
    one."""
    run = cpsat.run
    budgets: list[cpsat.Budget] = []

    def counting(model: Any, limits: cpsat.Limits, *args: Any, **kwargs: Any) -> cpsat.Solved:
        solved = run(model, limits, *args, **kwargs)
        row.searches += 1
        if limits.budget is not None:
            budgets.append(limits.budget)
        with suppress(RuntimeError):  # none started: the budget or the clock was spent
            row.work += solved.engine.deterministic_time
        return solved

    cpsat.run = counting
    try:
        yield
    finally:
        cpsat.run = run
        row.budget = any(budget.reached for budget in budgets)


def turns(
    seed: int, per: int, phase: Phase = Phase.DRAW
) -> Iterator[tuple[str, Rules, int, Position]]:
    """The turns advised, in order (the same for a seed): rule set, hand number, turn;
    for the play phase, then the :data:`HARD_PLAY` requests (named, their hand number)."""
    rng = random.Random(seed)
    for name, rules in RULES.items():
        for hand_number in range(1, 11):
            for kind in SIZES if phase is Phase.DRAW else PLAY_KINDS:
                for _ in range(per):
                    if phase is Phase.DRAW:
                        yield name, rules, hand_number, deal(rng, rules, hand_number, int(kind))
                    else:
                        yield (
                            name,
                            rules,
                            hand_number,
                            deal_play(rng, rules, hand_number, str(kind)),
                        )
    if phase is Phase.PLAY:
        for name, request in HARD_PLAY.items():
            asked = read(ShanghaiAdviseRequest, request)
            yield name, asked.rules, request["hand_number"], asked.position()


def measure(
    seed: int, per: int, phase: Phase = Phase.DRAW, seconds: float | None = None
) -> tuple[list[Row], list[str]]:
    """Each turn's row and its answer's bytes (JSON, keys sorted), each advised within
    ``seconds`` (the library's default limit when None)."""
    rows: list[Row] = []
    answers: list[str] = []
    for name, rules, hand_number, position in turns(seed, per, phase):
        row = Row(name, hand_number, len(position.hand), down=position.down)
        with counted(row):
            cpu, wall = time.process_time(), time.perf_counter()
            answer = advise(position, rules, limit=None if seconds is None else Limit(seconds))
            row.cpu = time.process_time() - cpu
            row.wall = time.perf_counter() - wall
        row.status, row.capped = answer.status.value, answer.time_capped
        rows.append(row)
        answers.append(json.dumps(advice_to_dict(answer), sort_keys=True))
    return rows, answers


@contextmanager
def busy(loops: int) -> Iterator[list[subprocess.Popen[bytes]]]:
    """``loops`` busy shell loops running inside (yielded), stopped at the end."""
    started = [subprocess.Popen(["sh", "-c", "while :; do :; done"]) for _ in range(loops)]
    try:
        time.sleep(1.0 if started else 0.0)
        yield started
    finally:
        for process in started:
            process.kill()
            process.wait()


def spread(values: Sequence[float]) -> str:
    """Median, p95 and most of ``values``."""
    ordered = sorted(values)
    picks = (ordered[len(ordered) // 2], ordered[int(len(ordered) * 0.95)], ordered[-1])
    return ", ".join(f"{v:.3f}" for v in picks)


def report(rows: Sequence[Row]) -> list[str]:
    """A line per turn, then the spreads and counts."""
    lines = [
        f"{r.rules} hand {r.hand} {r.size} cards{', down' if r.down else ''}:"
        f" {r.searches} searches, {r.work:.3f} units,"
        f" {r.cpu:.3f} s CPU, {r.wall:.3f} s wall, {r.status}"
        + (", time_capped" if r.capped else "")
        + (", budget reached" if r.budget else "")
        for r in rows
    ]
    lines += [
        f"work median, p95, max: {spread([r.work for r in rows])}",
        f"searches median, p95, max: {spread([r.searches for r in rows])}",
        f"CPU median, p95, max: {spread([r.cpu for r in rows])}",
        f"wall median, p95, max: {spread([r.wall for r in rows])}",
        f"capped {sum(r.capped for r in rows)} of {len(rows)}, budget reached"
        f" {sum(r.budget for r in rows)}, not optimal {sum(r.status != 'optimal' for r in rows)}",
    ]
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.draw_load", description=__doc__)
    parser.add_argument("--phase", choices=("draw", "play"), default="draw")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--per", type=int, default=1, help="turns per hand, size and rules")
    parser.add_argument("--busy", type=int, default=0, help="busy loops beside the run")
    parser.add_argument(
        "--time-limit", type=float, help="seconds a turn (default: the library's, 2)"
    )
    parser.add_argument("--answers", type=Path, help="write the answers (JSON) here")
    parser.add_argument("--compare", type=Path, help="count answers differing from these")
    args = parser.parse_args(argv)
    with busy(args.busy):
        rows, answers = measure(args.seed, args.per, Phase(args.phase), args.time_limit)
    for line in report(rows):
        print(line)
    if args.answers is not None:
        args.answers.write_text(json.dumps(answers))
    if args.compare is not None:
        before = json.loads(args.compare.read_text())
        differ = sum(a != b for a, b in zip(before, answers, strict=True))
        print(f"answers differing from {args.compare}: {differ} of {len(answers)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

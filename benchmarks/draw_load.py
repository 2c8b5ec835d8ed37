"""The Shanghai draw phase on dealt hands grown by buys, idle or beside busy loops.

``python -m benchmarks.draw_load [--seed 7] [--per 1] [--busy 4] [--answers FILE]
[--compare FILE]`` advises the draw phase of one dealt turn per hand (1-10), hand size
(11, 15 and 21 cards: a hand grown by buys) and rule set (the standard rules, and 3
decks with wild twos), ``--per`` times: 60 turns at the defaults, with the library's
default limit. For each it prints the CP-SAT searches and their deterministic work, the
CPU and wall-clock seconds, the status, whether the clock cut it (``time_capped``) and
whether the draw's work budget stopped it; then the median, p95 and most of each. With
``--busy N`` it first starts N busy loops (``sh -c 'while :; do :; done'``) and stops
them at the end: the answers must be the same bytes as idle (``--answers`` writes them,
``--compare`` counts those that differ from a file written so). benchmarks/RESULTS.md,
section 5, "Draw phase: the same answer under load", gives a run.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import solver.cpsat as cpsat
import solver.shanghai.advice as advice_module
from solver.cpsat import Limit
from solver.shanghai import STANDARD, Contract, Position, advise
from solver.shanghai.draw import draw_limit
from solver.shanghai.notation import ALL_NATURALS, JOKER
from solver.shanghai.position import Phase
from solver.shanghai.rules import Rules
from solver.shanghai.wire import advice_to_dict

RULES = {"std": STANDARD, "wild3": Rules(decks=3, twos_wild=True)}
"""The rule sets dealt, by the name the rows give."""

SIZES = (11, 15, 21)
"""Hand sizes before the draw: dealt, and grown by one and two buys."""


def deal(rng: random.Random, rules: Rules, hand_number: int, size: int) -> Position:
    """A draw-phase turn of a player not down: ``size`` cards from a shuffled game, the
    next card the upcard, up to 12 after it seen, no table, 2 buys left."""
    stock = [c for c in ALL_NATURALS for _ in range(rules.decks)] + [JOKER] * rules.jokers
    rng.shuffle(stock)
    hand = tuple(stock[:size])
    seen = tuple(stock[size + 1 : size + 1 + rng.randint(0, 12)])
    contract = Contract.for_hand(hand_number)
    return Position(hand, contract, (), False, stock[size], 2, Phase.DRAW, seen)


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


@contextmanager
def counted(row: Row) -> Iterator[None]:
    """Count every CP-SAT search made inside (:func:`solver.cpsat.run`) and its work in
    ``row``, and note whether the draw's work budget stopped one."""
    run = cpsat.run
    limits: list[Limit] = []

    def counting(*args: Any, **kwargs: Any) -> cpsat.Solved:
        solved = run(*args, **kwargs)
        row.searches += 1
        with suppress(RuntimeError):  # none started: the budget or the clock was spent
            row.work += solved.engine.deterministic_time
        return solved

    def kept(limit: Limit) -> Limit:
        limits.append(draw_limit(limit))
        return limits[-1]

    cpsat.run = counting
    setattr(advice_module, "draw_limit", kept)  # noqa: B010 (advice imported it)
    try:
        yield
    finally:
        cpsat.run = run
        setattr(advice_module, "draw_limit", draw_limit)  # noqa: B010
        row.budget = any(lim.budget is not None and lim.budget.reached for lim in limits)


def turns(seed: int, per: int) -> Iterator[tuple[str, Rules, int, Position]]:
    """The turns advised, in order (the same for a seed): rule set, hand number, turn."""
    rng = random.Random(seed)
    for name, rules in RULES.items():
        for hand_number in range(1, 11):
            for size in SIZES:
                for _ in range(per):
                    yield name, rules, hand_number, deal(rng, rules, hand_number, size)


def measure(seed: int, per: int) -> tuple[list[Row], list[str]]:
    """Each turn's row and its answer's bytes (JSON, keys sorted)."""
    rows: list[Row] = []
    answers: list[str] = []
    for name, rules, hand_number, position in turns(seed, per):
        row = Row(name, hand_number, len(position.hand))
        with counted(row):
            cpu, wall = time.process_time(), time.perf_counter()
            answer = advise(position, rules)
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
        f"{r.rules} hand {r.hand} {r.size} cards: {r.searches} searches, {r.work:.3f} units,"
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
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--per", type=int, default=1, help="turns per hand, size and rules")
    parser.add_argument("--busy", type=int, default=0, help="busy loops beside the run")
    parser.add_argument("--answers", type=Path, help="write the answers (JSON) here")
    parser.add_argument("--compare", type=Path, help="count answers differing from these")
    args = parser.parse_args(argv)
    with busy(args.busy):
        rows, answers = measure(args.seed, args.per)
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

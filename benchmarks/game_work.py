"""A bot game's work against its CPU time: the calibration of the service's game budget.

The HTTP service bounds a whole bot game by its work (:class:`solver.cpsat.GameWork`):
CP-SAT's deterministic time of every solve, weighed
:data:`~solver.cpsat.WORK_MS_PER_DETERMINISTIC_SECOND`, the size of each model
solved, :data:`~solver.cpsat.MODEL_ITEM_WORK_MS` a variable or constraint, and a
charge per move, :data:`~solver.cpsat.MOVE_WORK_MS`. ``python -m benchmarks.game_work`` plays games
of both games (each bot, several seeds, players and settings, long ones too) one
after another in this process, and writes one JSON line per game to ``--out``: its
CPU seconds (and those in CP-SAT's :func:`~solver.cpsat.run`), its solves'
deterministic seconds, its solves, their models' items and its moves, and the CPU
seconds of its moves that made no solve, and the sets the bots read in their own Python.
``--fit FILE`` reads such lines and prints the least-squares weights (CPU ms = a *
deterministic s + b * model items + c * moves + d * sets read) and, for the weights in
force, each kind of game's CPU time over its work: its spread is what a game near the
budget may take in CPU time on the machine measured.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy

from benchmarks.machine import load
from solver import cpsat
from solver.arena.registry import game_spec
from solver.arena.runner import bot_seed
from solver.cpsat import (
    MELD_READ_WORK_MS,
    MODEL_ITEM_WORK_MS,
    MOVE_WORK_MS,
    WORK_MS_PER_DETERMINISTIC_SECOND,
    GameWork,
    counting_work,
)

ODD_JOKERS: dict[str, Any] = {
    "wrap_runs": True,
    "joker_retrieval": "replace",
    "max_jokers_per_set": 1,
}
"""The joker and run rules furthest from the standard game's."""
EIGHT_DECKS: dict[str, Any] = {"decks": 8, "jokers_per_deck": 4}
"""Shanghai's most cards: 8 decks, 32 jokers."""
WILD_SHORT: dict[str, Any] = {
    "min_set_len": 2,
    "twos_wild": True,
    "ace_low": True,
    "go_out_by_discard": True,
}
"""Shanghai's loosest melds: sets of 2, wild twos, low aces, out by a discard."""

KINDS: list[tuple[str, tuple[str, ...], dict[str, Any]]] = [
    ("rummikub", ("beginner", "beginner"), {}),
    ("rummikub", ("greedy", "greedy"), {}),
    ("rummikub", ("strong", "strong"), {}),
    ("rummikub", ("strong", "greedy", "beginner", "strong"), {}),
    ("rummikub", ("beginner",) * 7, {}),
    ("rummikub", ("strong",) * 7, {}),
    ("rummikub", ("strong", "strong"), {"rules": {"copies": 4}}),
    ("rummikub", ("beginner", "beginner"), {"rules": {"copies": 4}}),
    ("rummikub", ("greedy",) * 4, {"rules": {"copies": 3}, "pool_empty": "end"}),
    ("shanghai", ("greedy", "greedy"), {"hands": 1}),
    ("shanghai", ("strong", "strong"), {"hands": 3}),
    ("shanghai", ("strong",) * 4, {"hands": 10}),
    ("shanghai", ("greedy",) * 8, {"hands": 2, "rules": {"decks": 3}}),
    ("shanghai", ("strong", "greedy"), {"hands": 10}),
    ("shanghai", ("strong", "greedy"), {"hands": 2, "max_turns": 1000}),
    ("shanghai", ("strong", "greedy"), {"hands": 1, "rules": {"twos_wild": True}}),
    ("rummikub", ("strong",) * 3, {"rules": {"copies": 3}}),
    ("rummikub", ("beginner",) * 4, {"rules": {"copies": 4}}),
    ("shanghai", ("greedy",) * 6, {"hands": 10}),
    (
        "shanghai",
        ("strong", "greedy"),
        {"hands": 1, "max_turns": 100, "rules": {"twos_wild": True}},
    ),
    ("shanghai", ("strong", "greedy"), {"hands": 1, "rules": {"min_run_len": 7}}),
    # The largest settings a game request takes (5 Dec 2026): 212 tiles, 8 decks, 8 seats.
    ("rummikub", ("strong", "strong"), {"rules": {"jokers": 4, "colours": 8}}),
    ("rummikub", ("beginner", "beginner"), {"rules": {"jokers": 4, "colours": 8}}),
    ("rummikub", ("strong", "strong"), {"rules": {"jokers": 4, "numbers": 26}}),
    ("rummikub", ("greedy", "greedy"), {"rules": {"jokers": 4, "numbers": 26}}),
    ("rummikub", ("beginner", "beginner"), {"rules": {"jokers": 4, "numbers": 26}}),
    ("rummikub", ("strong", "strong"), {"rules": {"copies": 4, "jokers": 4, **ODD_JOKERS}}),
    ("rummikub", ("greedy", "beginner"), {"rules": {"copies": 4, "jokers": 4, **ODD_JOKERS}}),
    ("rummikub", ("beginner",) * 4, {"rules": {"copies": 4, "jokers": 4, **ODD_JOKERS}}),
    ("shanghai", ("strong", "strong"), {"hands": 3, "rules": {"decks": 8, "jokers_per_deck": 4}}),
    ("shanghai", ("strong",) * 4, {"hands": 3, "rules": {**EIGHT_DECKS, "min_set_len": 2}}),
    ("shanghai", ("strong", "strong"), {"hands": 4, "rules": {"min_run_len": 13}}),
    ("shanghai", ("strong", "greedy"), {"hands": 7, "rules": {"min_run_len": 13}}),
    ("shanghai", ("strong",) * 8, {"hands": 2, "rules": WILD_SHORT}),
    ("shanghai", ("greedy",) * 8, {"hands": 3, "rules": {**WILD_SHORT, **EIGHT_DECKS}}),
]
"""(game, bots by seat, game settings): the kinds of game measured."""


def play(game: str, seats: tuple[str, ...], options: dict[str, Any], seed: int) -> dict[str, Any]:
    """One game played as :func:`solver.arena.runner.play_out` plays it, measured."""
    spec = game_spec(game)
    match = spec.new_match(seed, len(seats), options)
    bots = [spec.new_bot(name, bot_seed(seed, seat)) for seat, name in enumerate(seats)]
    bare_cpu: list[float] = []
    in_run = [0.0]
    run = cpsat.run

    def measured_run(*args: Any, **kwargs: Any) -> cpsat.Solved:
        clock = time.process_time()
        try:
            return run(*args, **kwargs)
        finally:
            in_run[0] += time.process_time() - clock

    cpsat.run = measured_run
    started = time.process_time()
    try:
        with counting_work() as work:
            while not match.over:
                work.note_move()
                solves = work.solves
                clock = time.process_time()
                seat = match.to_move
                match.apply(bots[seat].choose(match.view(seat)))
                if work.solves == solves:
                    bare_cpu.append(time.process_time() - clock)
        cpu = time.process_time() - started
    finally:
        cpsat.run = run
    return {
        "game": game,
        "bots": list(seats),
        "options": options,
        "seed": seed,
        "cpu_s": cpu,
        "solve_s": work.solve_seconds,
        "solves": work.solves,
        "model_items": work.model_items,
        "moves": work.moves,
        "melds_read": work.melds_read,
        "work_ms": work.ms,
        "cpu_in_cpsat_s": in_run[0],
        "bare_moves": len(bare_cpu),
        "bare_ms_max": 1000 * max(bare_cpu, default=0.0),
        "bare_ms_mean": 1000 * statistics.fmean(bare_cpu) if bare_cpu else 0.0,
    }


def measure(seeds: range, out: Path, first_kind: int = 0) -> None:
    with out.open("a") as file:
        for game, seats, options in KINDS[first_kind:]:
            for seed in seeds:
                row = play(game, seats, options, seed)
                row["load"] = load()
                file.write(json.dumps(row) + "\n")
                file.flush()
                print(
                    f"{game} {','.join(seats)} {options} seed {seed}: "
                    f"{row['cpu_s']:.2f} s CPU, {row['work_ms']:.0f} ms work",
                    file=sys.stderr,
                )


def rows(path: Path) -> Iterator[dict[str, Any]]:
    for line in path.read_text().splitlines():
        if line.strip():
            yield json.loads(line)


def fit(path: Path) -> None:
    """Least squares of CPU ms on the work's parts, no intercept, each game weighed by
    its CPU time (relative errors); then, at the weights in force, each kind of game's
    CPU ms over its work ms, and over all games."""
    data = list(rows(path))
    parts = numpy.array(
        [[r["solve_s"], r["model_items"], r["moves"], r.get("melds_read", 0)] for r in data]
    )
    cpu = numpy.array([1000 * r["cpu_s"] for r in data])
    weights, *_ = numpy.linalg.lstsq(parts / cpu[:, None], numpy.ones(len(data)), rcond=None)
    print(
        f"least squares over {len(data)} games: CPU ms = {weights[0]:.0f} * deterministic s"
        f" + {weights[1]:.4f} * model items + {weights[2]:.2f} * moves"
        f" + {weights[3]:.4f} * sets read"
    )
    print(
        f"in force: {WORK_MS_PER_DETERMINISTIC_SECOND:g} ms a deterministic second,"
        f" {MODEL_ITEM_WORK_MS:g} ms a model item, {MOVE_WORK_MS:g} ms a move,"
        f" {MELD_READ_WORK_MS:g} ms a set read"
    )
    kinds: dict[str, list[dict[str, Any]]] = {}
    for r in data:  # the work at the weights in force, whatever they were when measured
        r["work_ms"] = GameWork(
            r["solve_s"], r["solves"], r["model_items"], r["moves"], r.get("melds_read", 0)
        ).ms
        kinds.setdefault(f"{r['game']} {','.join(r['bots'])} {r['options']}", []).append(r)
    print("| game | games | moves | solves | CPU s | work ms | CPU / work |")
    print("|---|---|---|---|---|---|---|")
    ratios: list[float] = []
    for kind, games in kinds.items():
        ratio = [1000 * r["cpu_s"] / r["work_ms"] for r in games]
        ratios += ratio
        print(
            f"| {kind} | {len(games)} "
            f"| {min(r['moves'] for r in games)}-{max(r['moves'] for r in games)} "
            f"| {min(r['solves'] for r in games)}-{max(r['solves'] for r in games)} "
            f"| {min(r['cpu_s'] for r in games):.2f}-{max(r['cpu_s'] for r in games):.2f} "
            f"| {min(r['work_ms'] for r in games):.0f}-{max(r['work_ms'] for r in games):.0f} "
            f"| {min(ratio):.2f}-{max(ratio):.2f} |"
        )
    print(
        f"CPU / work over all {len(ratios)} games: {min(ratios):.2f}-{max(ratios):.2f},"
        f" median {statistics.median(ratios):.2f}"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=3, help="seeds 0.. of each kind of game")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument(
        "--first-kind", type=int, default=0, help="play KINDS from this one on (0: all)"
    )
    parser.add_argument("--out", type=Path, default=Path("game_work.jsonl"))
    parser.add_argument("--fit", type=Path, help="read measured games and print the fit")
    args = parser.parse_args(argv)
    if args.fit:
        fit(args.fit)
        return
    measure(range(args.first_seed, args.first_seed + args.seeds), args.out, args.first_kind)


if __name__ == "__main__":
    main()

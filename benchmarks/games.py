"""Whole Rummikub games: how strong the bots are, and how fast a game plays.

``python -m benchmarks.games strength --variants strong,strong:hold_sets=0 --games 400``
plays each variant (a bot name; ``strong:KNOB=VALUE;KNOB=VALUE`` changes knobs of
:class:`solver.rummikub.strategy.Strategy`, ``;`` between knobs since ``,``
separates variants) against ``--opponent`` (greedy) in tournaments of the same seed,
so every variant meets the same deals in the same seats, and prints each one's win
rate with its 95% interval, mean score, turns and time per move, with the wall and
CPU time of each run and the load of the machine.

``python -m benchmarks.games speed --games 200`` plays greedy-vs-greedy games one
after another in this process (one core) and prints the CPU time per game: the
median over all games and over the games of 100 turns or more, and per move.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from benchmarks.machine import load
from benchmarks.output import outputs_ready
from benchmarks.stats import at_least
from solver.arena.registry import game_spec
from solver.arena.runner import GameTask, local_dispatch, play_game, run_tournament, seats_of
from solver.arena.stats import percentile
from solver.commands import (
    EXIT_BAD_INPUT,
    Parser,
    add_option_flag,
    parse_options,
    whole_number,
)
from solver.errors import MeldwiseError

LONG_GAME = 100
"""Turns from which a game counts as long (the speed target's games)."""


def strength(args: argparse.Namespace, console: Console) -> None:
    options = parse_options(args.option)
    table = Table(title=f"{args.games} games, {args.players} players, seed {args.seed}")
    for header in ("variant", "win rate", "95% interval", "mean score", "turns", "CPU ms/move"):
        table.add_column(header)
    table.add_column("wall / CPU s")
    names = [variant.replace(";", ",") for variant in args.variants.split(",")]
    for flag, given in (("--variants", names), ("--opponent", [args.opponent])):
        try:  # before any game, naming the flag ("unknown bot 'foo'" named none)
            game_spec("rummikub").check_bots(given)
        except MeldwiseError as error:
            raise MeldwiseError(f"{flag}: {error}") from None
    for name in names:
        seats = seats_of([name, args.opponent], args.players)
        before = load()
        report = run_tournament(
            "rummikub",
            seats,
            args.games,
            args.seed,
            options,
            dispatch=local_dispatch(args.processes),
        )
        mine = report.by_bot[0]
        row = (
            name,
            f"{mine.win_rate:.1%}",
            f"{mine.ci95[0]:.1%} - {mine.ci95[1]:.1%}",
            f"{mine.mean_score:+.1f}",
            f"{report.turns_mean:.1f}",
            f"{mine.move_ms_median:.1f}",
            f"{report.wall_seconds:.0f} / {report.cpu_seconds:.0f}",
        )
        table.add_row(*row)
        console.print(" | ".join(row) + f" | load {before} -> {load()}")
        if args.json:
            line: dict[str, Any] = {"variant": name, "load_before": before, **report.to_dict()}
            with args.json.open("a") as out:
                out.write(json.dumps(line) + "\n")
    console.print(table)


def speed(args: argparse.Namespace, console: Console) -> None:
    options = parse_options(args.option)
    before = load()
    started = time.perf_counter()
    games = []
    for i in range(args.games):
        task = GameTask("rummikub", i, args.seed + i, ("greedy", "greedy"), options)
        games.append(play_game(task))
    wall = time.perf_counter() - started
    cpu = [g.cpu_seconds for g in games]
    long = [g.cpu_seconds for g in games if g.result.turns >= LONG_GAME]
    moves = [s * 1000 for g in games for seat in g.move_seconds for s in seat]
    console.print(
        f"{len(games)} greedy-vs-greedy games (seeds {args.seed}-{args.seed + args.games - 1}), "
        f"one process: wall {wall:.1f} s, CPU {sum(cpu):.1f} s; load {before} -> {load()}"
    )
    turns = [g.result.turns for g in games]
    console.print(
        f"turns per game: median {statistics.median(turns):g}, max {max(turns)}; "
        f"CPU per game: median {statistics.median(cpu):.3f} s, p95 {percentile(cpu, 0.95):.3f} s, "
        f"max {max(cpu):.3f} s"
    )
    if long:
        console.print(
            f"games of {LONG_GAME}+ turns: {len(long)}, CPU median "
            f"{statistics.median(long):.3f} s, max {max(long):.3f} s"
        )
    else:
        console.print(f"no game reached {LONG_GAME} turns")
    console.print(
        f"CPU per move: median {statistics.median(moves):.2f} ms, "
        f"p95 {percentile(moves, 0.95):.2f} ms, max {max(moves):.1f} ms"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = Parser(
        prog="python -m benchmarks.games",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    modes = parser.add_subparsers(dest="mode", required=True)
    strong = modes.add_parser("strength", help="variants against an opponent, same deals")
    strong.add_argument("--variants", default="strong", help="variants, comma-separated")
    strong.add_argument("--opponent", default="greedy", help="the other seats' bot (greedy)")
    strong.add_argument("--players", type=at_least(2), default=2)
    strong.add_argument("--games", type=at_least(1), default=400)
    strong.add_argument("--seed", type=whole_number, default=1000)
    strong.add_argument("--processes", type=at_least(1), default=2)
    strong.add_argument("--json", type=Path, help="append one JSON line per variant to FILE")
    fast = modes.add_parser("speed", help="CPU time of greedy-vs-greedy games, one core")
    fast.add_argument("--games", type=at_least(1), default=200)
    fast.add_argument("--seed", type=whole_number, default=0)
    for sub in (strong, fast):
        add_option_flag(sub, "rules.jokers=4")
    args = parser.parse_args(argv)
    outputs_ready(parser, ("--json", vars(args).get("json")))
    console = Console(width=160)
    console.print(f"machine: {os.cpu_count()} cores")
    try:
        (strength if args.mode == "strength" else speed)(args, console)
    except MeldwiseError as error:  # an unknown bot, players the bots do not fit: a traceback
        print(f"error: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    return 0


if __name__ == "__main__":
    sys.exit(main())

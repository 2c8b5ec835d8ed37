"""Shanghai bots against each other on the shared tournament runner (issue 18).

``python -m benchmarks.shanghai_bots --bots strong,greedy --games 200 --seed 2026``
plays seeded 4-player games (the last bot named fills the remaining seats; each
deal is played once per seat rotation) and prints, per bot, the mean score per
game (penalty points: lower is better) and the win rate with its Wilson 95%
interval, as the runner reports them, then the *paired* difference of each bot's
score from the reference bot's in the same games (same deals, same seats played
in turn), with a normal 95% interval: the figure that says whether a bot scores
lower. ``--json FILE`` writes the runner's report with every game.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
from collections.abc import Sequence
from importlib import import_module
from typing import Any


def paired(
    results: Sequence[dict[str, Any]], name: str, reference: str
) -> tuple[float, float, int]:
    """Mean of (``name``'s score - ``reference``'s mean score) over the games holding
    both, its 95% half-width, and the number of games."""
    diffs = []
    for game in results:
        mine = [s for seat, s in zip(game["seats"], game["scores"], strict=True) if seat == name]
        theirs = [
            s for seat, s in zip(game["seats"], game["scores"], strict=True) if seat == reference
        ]
        if mine and theirs:
            diffs.append(statistics.fmean(mine) - statistics.fmean(theirs))
    if len(diffs) < 2:
        return (statistics.fmean(diffs) if diffs else 0.0), math.inf, len(diffs)
    return (
        statistics.fmean(diffs),
        1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs)),
        len(diffs),
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.shanghai_bots", description=__doc__)
    parser.add_argument("--bots", default="strong,greedy", help="bot names by seat")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--reference", default="greedy", help="the bot the others are paired with")
    parser.add_argument("--json", metavar="FILE", help="write the runner's report with every game")
    args = parser.parse_args(argv)
    try:
        runner = import_module("solver.arena.runner")
    except ImportError:
        parser.error("the shared tournament runner (solver.arena, issue 18) is not installed")
    seats = runner.seats_of(args.bots.split(","), args.players)
    report = runner.run_tournament(
        "shanghai",
        seats,
        args.games,
        seed=args.seed,
        dispatch=runner.local_dispatch(args.processes),
    )
    answer = report.to_dict(with_games=True)
    for bot in answer["by_bot"]:
        low, high = bot["ci95"]
        print(
            f"{bot['name']:<40} seats {bot['seats']}  mean score {bot['mean_score']:7.1f}"
            f"  win rate {bot['win_rate']:6.1%} (95% {low:.1%}-{high:.1%}, parity"
            f" {bot['parity']:.0%})"
        )
    for name in dict.fromkeys(seats):
        if name != args.reference:
            mean, half, count = paired(answer["results"], name, args.reference)
            print(
                f"{name} - {args.reference}, paired over {count} games: {mean:+.1f} +- {half:.1f}"
            )
    print(f"wall {report.wall_seconds:.0f} s, CPU {report.cpu_seconds:.0f} s")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(answer, out, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

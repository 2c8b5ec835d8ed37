"""Shanghai bots against each other on the shared tournament runner (issue 18).

``python -m benchmarks.shanghai_bots --bots strong,greedy --games 200 --seed 2026``
plays seeded 4-player games (the last bot named fills the remaining seats; each
deal is played once per seat rotation) and prints, per bot, the mean score per
game (penalty points: **lower is better**) and the win rate with its Wilson 95%
interval, as the runner reports them, then the *paired* difference of each bot's
score from the reference bot's in the same games (same deals, same seats played
in turn), with a normal 95% interval over the deals (a deal's seat rotations are
averaged first: they share the cards, so they are not independent): the figure
that says whether a bot scores lower (negative: it does).

``--control`` also plays each deal once with the reference bot in every seat and
pairs each game with it seat by seat: the bot's score less the reference bot's
score in the same seat on the same deal (the engine deals every hand from the
seed and the hand number, so the two games meet the same ten deals). That removes
the luck of the cards from the difference, which narrows the interval at the cost
of one more game per deal. ``--json FILE`` writes the runner's report with every
game (and the control games). ``--by-hand`` keeps each game's record and prints,
per hand number, each bot's mean penalty, how often it is still not down at the
hand's end, and its buys and upcard takes per hand (the reference bot's figures
are per seat): where a bot gains or loses against the other.
"""

from __future__ import annotations

import json
import math
import statistics
import sys
from collections import defaultdict
from collections.abc import Mapping, Sequence
from importlib import import_module
from typing import Any

from benchmarks.output import outputs_ready, write_output
from benchmarks.stats import at_least
from solver.commands import EXIT_BAD_INPUT, Parser, bot_names, in_flags, whole_number
from solver.errors import MeldwiseError
from solver.i18n import _


def paired(
    results: Sequence[dict[str, Any]],
    name: str,
    reference: str,
    control: Mapping[int, Sequence[int]] | None = None,
) -> tuple[float, float, int]:
    """Mean over deals of ``name``'s score less the reference's, its normal 95%
    half-width, and the number of deals. Without ``control`` the reference is
    ``reference``'s mean score in the same game; with it (control scores by deal
    seed), the control game's score in the same seat. A deal's games are averaged
    first."""
    by_deal: dict[int, list[float]] = defaultdict(list)
    for game in results:
        seats = list(zip(game["seats"], game["scores"], strict=True))
        mine = [i for i, (seat, _score) in enumerate(seats) if seat == name]
        if control is not None:
            if mine and game["seed"] in control:
                base = control[game["seed"]]
                by_deal[game["seed"]] += [seats[i][1] - base[i] for i in mine]
            continue
        theirs = [score for seat, score in seats if seat == reference]
        if mine and theirs:
            by_deal[game["seed"]].append(
                statistics.fmean(seats[i][1] for i in mine) - statistics.fmean(theirs)
            )
    diffs = [statistics.fmean(d) for d in by_deal.values()]
    if len(diffs) < 2:
        return (statistics.fmean(diffs) if diffs else 0.0), math.inf, len(diffs)
    return (
        statistics.fmean(diffs),
        1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs)),
        len(diffs),
    )


def control_games(
    runner: Any, reference: str, players: int, seeds: Sequence[int], processes: int
) -> dict[int, list[int]]:
    """Scores by seat of each deal played with ``reference`` in every seat."""
    todo = [
        runner.GameTask("shanghai", i, seed, (reference,) * players, {})
        for i, seed in enumerate(seeds)
    ]
    return {
        played.seed: list(played.result.scores) for played in runner.local_dispatch(processes)(todo)
    }


def by_hand(records: Sequence[Mapping[str, Any]]) -> dict[str, dict[int, dict[str, float]]]:
    """Per bot name and hand number, over every seat it held in ``records`` (game
    records, :mod:`solver.shanghai.record`): mean ``points``, the share ``not_down``
    still not down at the hand's end, and mean ``buys`` and ``takes`` per hand."""
    sums: dict[str, dict[int, list[float]]] = defaultdict(lambda: defaultdict(lambda: [0.0] * 5))
    for record in records:
        for hand in record["hands"]:
            if "points" not in hand:
                continue
            for seat, name in enumerate(record["players"]):
                mine = [e for e in hand["events"] if e["seat"] == seat]
                down = any(e["kind"] == "play" and e["play"]["melds"] for e in mine)
                row = sums[name][hand["number"]]
                row[0] += 1
                row[1] += hand["points"][seat]
                row[2] += not down
                row[3] += sum(e["kind"] == "buy" for e in mine)
                row[4] += sum(e["kind"] == "take" for e in mine)
    return {
        name: {
            number: {
                "points": row[1] / row[0],
                "not_down": row[2] / row[0],
                "buys": row[3] / row[0],
                "takes": row[4] / row[0],
            }
            for number, row in sorted(hands.items())
        }
        for name, hands in sums.items()
    }


def _progress(played: Any) -> None:
    """One line per finished game on stderr (a long run's games survive an interrupt)."""
    print(
        f"game {played.index} deal {played.seed} seats {','.join(played.seats)}"
        f" scores {list(played.result.scores)} cpu {played.cpu_seconds:.1f}s",
        file=sys.stderr,
        flush=True,
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = Parser(prog="python -m benchmarks.shanghai_bots", description=__doc__)
    parser.add_argument("--bots", default="strong,greedy", help="bot names by seat")
    parser.add_argument("--players", type=at_least(2), default=4)
    parser.add_argument("--games", type=at_least(1), default=200)
    parser.add_argument("--seed", type=whole_number, default=2026)
    parser.add_argument("--processes", type=at_least(1), default=2)
    parser.add_argument("--reference", default="greedy", help="the bot the others are paired with")
    parser.add_argument(
        "--control",
        action="store_true",
        help="also play each deal with the reference bot in every seat and pair with it",
    )
    parser.add_argument("--json", metavar="FILE", help="write the runner's report with every game")
    parser.add_argument(
        "--by-hand",
        action="store_true",
        help="keep the game records and print each bot's figures per hand number",
    )
    args = parser.parse_args(argv)
    outputs_ready(parser, ("--json", args.json))
    try:
        runner = import_module("solver.arena.runner")
    except ImportError:
        parser.error("the shared tournament runner (solver.arena, issue 18) is not installed")
    try:
        seats = runner.seats_of(bot_names(args.bots), args.players)
        runner.game_spec("shanghai").check_bots(seats)  # an unknown bot first
        if args.reference not in seats:
            # Paired with a bot that sat in no game: "paired over 0 deals: +0.0 +- inf".
            raise MeldwiseError(
                _(
                    "--reference {name!r} sits in none of the games (--bots: {bots}): name"
                    " one of the bots, as the others are paired with it in the same games",
                    name=args.reference,
                    bots=", ".join(dict.fromkeys(seats)),
                )
            )
        report = runner.run_tournament(
            "shanghai",
            seats,
            args.games,
            seed=args.seed,
            dispatch=runner.local_dispatch(args.processes),
            on_game=_progress,
            keep_records=args.by_hand,
        )
    except MeldwiseError as error:  # no bot, an unknown bot, more bots than seats: a traceback
        print(f"error: {in_flags(error, {'bots': '--bots'})}", file=sys.stderr)
        return EXIT_BAD_INPUT
    answer = report.to_dict(with_games=True)
    for bot in answer["by_bot"]:
        low, high = bot["ci95"]
        print(
            f"{bot['name']:<40} seats {bot['seats']}  mean score {bot['mean_score']:7.1f}"
            " (penalty, lower is better)"
            f"  win rate {bot['win_rate']:6.1%} (95% {low:.1%}-{high:.1%}, parity"
            f" {bot['parity']:.0%})"
        )
    control = None
    if args.control:
        deals = sorted({game["seed"] for game in answer["results"]})
        control = control_games(runner, args.reference, args.players, deals, args.processes)
        answer["control"] = {str(seed): scores for seed, scores in sorted(control.items())}
    for name in dict.fromkeys(seats):
        if name == args.reference:
            continue
        mean, half, count = paired(answer["results"], name, args.reference)
        print(
            f"{name} - {args.reference} in the same games, paired over {count} deals:"
            f" {mean:+.1f} +- {half:.1f} points per game (negative: {name} scores lower)"
        )
        if control is not None:
            mean, half, count = paired(answer["results"], name, args.reference, control)
            print(
                f"{name} - {args.reference} in the same seat of the all-{args.reference}"
                f" game, paired over {count} deals: {mean:+.1f} +- {half:.1f}"
            )
    if args.by_hand:
        table = by_hand([g.record for g in report.results if g.record is not None])
        answer["by_hand"] = table
        for name, hands in table.items():
            print(f"{name} per hand (penalty, share not down at the end, buys, takes):")
            for number, row in hands.items():
                print(
                    f"  hand {number:2d}: {row['points']:6.1f}  not down {row['not_down']:5.1%}"
                    f"  buys {row['buys']:.2f}  takes {row['takes']:.2f}"
                )
    print(f"wall {report.wall_seconds:.0f} s, CPU {report.cpu_seconds:.0f} s (tournament)")
    if args.json:
        write_output("--json", args.json, json.dumps(answer, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

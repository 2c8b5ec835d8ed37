"""``meldwise tournament``: seeded games between bots, with a progress bar and a report."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any, TextIO

from rich.console import Console
from rich.measure import Measurement
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn
from rich.table import Table

from solver.arena.registry import GAMES, game_spec
from solver.arena.runner import (
    MAX_GAMES,
    MAX_PROCESSES,
    MAX_SEED,
    Dispatcher,
    GamePlayed,
    Report,
    dask_dispatch,
    local_dispatch,
    run_tournament,
    seats_of,
)
from solver.commands import (
    Commands,
    FileName,
    add_option_flag,
    bot_names,
    fields_from_flags,
    in_range,
    parse_options,
    ready_to_write,
    whole_number,
    write_file,
)
from solver.console import CommandConsole
from solver.errors import MeldwiseError
from solver.i18n import _

DEFAULT_GAMES = 100


def add_tournament_command(commands: Commands) -> None:
    """Register ``tournament`` on a subcommand parser."""
    parser = commands.add_parser(
        "tournament",
        help="play seeded games between bots and report win rates",
        description=(
            "Play seeded games between bots in parallel processes and report each bot's "
            "win rate with a 95% interval, mean score, turns per game and time per move. "
            "Each deal is played once per seat rotation, so every bot sits in every seat."
        ),
    )
    parser.add_argument(
        "--game",
        default="rummikub",
        choices=sorted(GAMES),
        help="the game (rummikub, the default, or shanghai)",
    )
    parser.add_argument(
        "--bots",
        required=True,
        help="bot names by seat, comma-separated; the last fills the remaining seats "
        "(strong,greedy with --players 4: one strong, three greedy)",
    )
    parser.add_argument("--players", type=whole_number, default=2, help="players per game (2)")
    parser.add_argument(
        "--games",
        type=whole_number,
        default=DEFAULT_GAMES,
        help=f"games to play, at most {MAX_GAMES} ({DEFAULT_GAMES})",
    )
    parser.add_argument(
        "--seed",
        type=whole_number,
        default=0,
        help=f"tournament seed, 0 to {MAX_SEED} (0); game i deals from seed + i // players",
    )
    parser.add_argument(
        "--processes",
        type=whole_number,
        default=2,
        help=f"worker processes, at most {MAX_PROCESSES} (2); more than the machine's cores "
        "only take turns on them",
    )
    parser.add_argument(
        "--dispatch",
        choices=("local", "dask"),
        default="local",
        help="local process pool (default) or a Dask cluster (pip install 'meldwise[dask]')",
    )
    parser.add_argument(
        "--scheduler", metavar="ADDRESS", help="Dask scheduler address (default: a local cluster)"
    )
    add_option_flag(parser, "--option pool_empty=end or --option rules.jokers=4")
    parser.add_argument(
        "--json", metavar="PATH", type=FileName, help="write the report as JSON ('-' for stdout)"
    )
    parser.add_argument(
        "--records",
        metavar="DIR",
        type=FileName,
        help="write every game's record as DIR/game-<index>.json",
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.set_defaults(handler=run_tournament_command)
    # The game's settings (--option) name 'players', which --players gives; their rules
    # are said as --option's NAME: "--option rules: rule 'jokers' ...", as game says them.
    # The bot names ('bots', solver.arena.runner.bot_list) are --bots's.
    fields_from_flags(
        parser,
        {
            "bots": "--bots",
            "players": "--players",
            "options": "--option",
            "options.*": "--option {}",
        },
    )


def run_tournament_command(
    args: argparse.Namespace, _stdin: TextIO, stdout: TextIO, stderr: TextIO
) -> int:
    """Carry out ``tournament``; return the exit code (bad input raises, see
    :func:`solver.commands.dispatch`)."""
    for flag, value, least, most in (
        ("--games", args.games, 1, MAX_GAMES),
        ("--processes", args.processes, 1, MAX_PROCESSES),
        # 0 read "1 bots named for 0"; 9 Shanghai players was said as the game setting
        # 'players' (an --option), not as --players.
        ("--players", args.players, 2, game_spec(args.game).max_players),
        # As meldwise game --seed, so that each game replays alone.
        ("--seed", args.seed, 0, MAX_SEED),
    ):
        in_range(flag, value, least, most)
    if args.scheduler is not None and args.dispatch != "dask":
        # The local pool has no scheduler: the address was ignored without a word.
        raise MeldwiseError(_("--scheduler is a Dask scheduler's address: add --dispatch dask"))
    if args.records == "-":
        # '-' is standard output for --json and game --out: here it made a folder named '-'.
        raise MeldwiseError(
            _(
                "--records writes a file per game into a folder, and '-' (standard output) is"
                " none: give a folder, or --json - for the report"
            )
        )
    names = bot_names(args.bots)
    seats = seats_of(names, args.players)
    options = parse_options(args.option)
    if args.records:
        ready_to_write("--records", args.records, folder=True)
    if args.json and args.json != "-":
        ready_to_write("--json", args.json)
    dispatch = _dispatcher(args)
    report = _run(args, seats, options, dispatch, stderr)
    if args.records:
        _write_records(Path(args.records), report)
    if args.json == "-":
        json.dump(report.to_dict(with_games=True), stdout, indent=2)
        stdout.write("\n")
    else:
        # The file first: a reader of the table that leaves (| head) ends the command.
        if args.json:
            write_file("--json", args.json, json.dumps(report.to_dict(with_games=True), indent=2))
        print_report(report, CommandConsole(file=stdout, width=100))
    return 0


def _dispatcher(args: argparse.Namespace) -> Dispatcher:
    if args.dispatch == "dask":
        return dask_dispatch(args.scheduler, args.processes)
    return local_dispatch(args.processes)


def _run(
    args: argparse.Namespace,
    seats: list[str],
    options: dict[str, Any],
    dispatch: Dispatcher,
    stderr: TextIO,
) -> Report:
    keep = bool(args.records)
    if args.no_progress:
        return run_tournament(
            args.game, seats, args.games, args.seed, options, dispatch=dispatch, keep_records=keep
        )
    columns = (*Progress.get_default_columns()[:1], BarColumn(), MofNCompleteColumn())
    console = Console(file=stderr)
    # A bar only on a terminal: elsewhere (a log, a pipe) it drew nothing but ended in a
    # blank line, before the error of a bad --option too.
    with Progress(
        *columns,
        TimeRemainingColumn(),
        console=console,
        transient=True,
        disable=not console.is_terminal,
    ) as progress:
        bar = progress.add_task(f"{args.game}: {','.join(seats)}", total=args.games)

        def advance(_: GamePlayed) -> None:
            progress.advance(bar)

        return run_tournament(
            args.game,
            seats,
            args.games,
            args.seed,
            options,
            dispatch=dispatch,
            keep_records=keep,
            on_game=advance,
        )


def print_report(report: Report, console: Console) -> None:
    """The report as a table for a person."""
    # In English only (docs/i18n.md), counted as words are: a tournament of one game
    # said "1 games".
    games = f"{report.games} game" + ("" if report.games == 1 else "s")
    table = Table(title=f"{report.game}: {games}, {report.players} players, seed {report.seed}")
    better = "lower" if game_spec(report.game).penalty_scores else "higher"
    mean = f"mean score ({better} is better)"
    # Seats in each game (parity's numerator), not over the tournament; a move's time
    # is the CPU time its bot took, as the line below the table counts it.
    # Each bot's name whole: two variants of a bot ("strong:hurry_rack=3",
    # "strong:hurry_rack=5") were both cut to "strong:hurr…". On one line up to 40
    # characters, folded onto more beyond; the table is as wide as that takes.
    longest = max(len(bot.name) for bot in report.by_bot)
    table.add_column("bot", min_width=min(longest, 40), overflow="fold")
    for header in ("seats/game", "wins", "win rate", "95% interval", "parity", mean):
        table.add_column(header, justify="right")
    table.add_column("CPU ms/move median / p95", justify="right")
    for bot in report.by_bot:
        table.add_row(
            bot.name,
            str(bot.seats),
            f"{bot.wins:g}",
            f"{bot.win_rate:.1%}",
            f"{bot.ci95[0]:.1%} - {bot.ci95[1]:.1%}",
            f"{bot.parity:.0%}",
            f"{bot.mean_score:+.1f}",
            f"{bot.move_ms_median:.1f} / {bot.move_ms_p95:.1f}",
        )
    # Wider than the console when it must be: rich cut off the columns beyond it.
    fits = Measurement.get(console, console.options.update(max_width=1000), table).minimum
    console.print(table, width=max(console.width, fits), crop=False)
    ends = ", ".join(f"{count} {end}" for end, count in sorted(report.ends.items()))
    if report.hand_ends:
        hands = ", ".join(f"{count} {end}" for end, count in sorted(report.hand_ends.items()))
        ends += f" (hands: {hands})"
    console.print(
        f"turns per game: mean {report.turns_mean:.1f}, median {report.turns_median:g}, "
        f"max {report.turns_max}; ends: {ends}"
    )
    console.print(
        f"wall {report.wall_seconds:.1f} s, CPU {report.cpu_seconds:.1f} s "
        f"(median {report.game_cpu_median:.2f} s per game)"
    )


def _write_records(folder: Path, report: Report) -> None:
    for played in report.results:
        if played.record is not None:
            path = folder / f"game-{played.index}.json"
            write_file("--records", path, json.dumps(played.record, indent=1))

"""Command line of whole Rummikub games: ``bot`` (a bot's move), ``game`` (a bot game
as a record) and ``review`` (a game record reviewed turn by turn)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any, TextIO

from solver.arena.cli import parse_options
from solver.cli import EXIT_BAD_INPUT, rules_from_flags, run_requests
from solver.errors import MeldwiseError
from solver.rummikub.bots import BOTS
from solver.rummikub.game_wire import bot_rummikub, game_rummikub, review_rummikub
from solver.rummikub.play import Objective


def add_bot_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``bot`` on a subcommand parser."""
    parser = commands.add_parser(
        "bot",
        help="a Rummikub bot's move for a position",
        description="What a bot (beginner, greedy, strong) plays from a position. Give it "
        "with flags, or send wire requests on stdin with --json or --jsonl.",
    )
    parser.add_argument("--bot", choices=list(BOTS), default="strong", help="the bot (strong)")
    parser.add_argument("--rack", help='tiles on the rack, e.g. "R1 R2 J"')
    parser.add_argument("--table", default="", help='sets on the table, e.g. "R3 R4 R5 | K7 B7 O7"')
    parser.add_argument("--opening", action="store_true", help="the player has not opened yet")
    parser.add_argument(
        "--opponents",
        default="14",
        metavar="SIZES",
        help="the opponents' rack sizes in playing order, e.g. 9,14 (default 14); add "
        "'o' to one that has opened: 9o,14",
    )
    parser.add_argument("--seed", type=int, default=0, help="the bot's seed (0)")
    parser.add_argument(
        "--rule", action="append", default=[], metavar="NAME=VALUE", help="a rule setting"
    )
    _add_json_modes(parser)
    parser.set_defaults(handler=run_bot)


def _add_json_modes(parser: argparse.ArgumentParser) -> None:
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--json", action="store_true", help="one request on stdin, one response")
    mode.add_argument(
        "--jsonl", action="store_true", help="one request per stdin line, one response per line"
    )


def run_bot(args: argparse.Namespace, stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    return run_requests(args, bot_rummikub, _bot_request, describe_bot, stdin, stdout, stderr)


def _bot_request(args: argparse.Namespace) -> dict[str, Any]:
    if args.rack is None:
        raise MeldwiseError("give the rack with --rack, or a request with --json")
    opponents = []
    for word in filter(None, (w.strip() for w in args.opponents.split(","))):
        size = word.removesuffix("o")
        if not size.isdigit():
            raise MeldwiseError(f"--opponents takes rack sizes like 9,14 or 9o, got {word!r}")
        opponents.append({"rack_size": int(size), "opened": word.endswith("o")})
    return {
        "bot": args.bot,
        "rack": args.rack.replace(",", " ").split(),
        "table": [part.replace(",", " ").split() for part in args.table.split("|") if part.strip()],
        "opened": not args.opening,
        "opponents": opponents,
        "rules": rules_from_flags(args.rule),
        "seed": args.seed,
    }


def describe_bot(response: dict[str, Any]) -> str:
    """A bot's move written for a person."""
    lines = []
    if response["action"] == "draw":
        lines.append(f"{response['bot']} draws a tile.")
    else:
        played = " ".join(response["played"])
        lines.append(f"{response['bot']} plays {len(response['played'])} tile(s): {played}")
        lines.append(f"Rack left: {' '.join(response['rack_left']) or '(empty)'}")
    lines.append(f"The best play places {response['best_tiles']} tile(s).")
    if response["reason"]:
        lines.append(f"Why: {response['reason']}.")
    if response["action"] == "play":
        lines.append("Table after:")
        lines += [f"  {i}. {' '.join(tiles)}" for i, tiles in enumerate(response["table"])]
    return "\n".join(lines) + "\n"


def add_game_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``game`` on a subcommand parser."""
    parser = commands.add_parser(
        "game",
        help="play one seeded Rummikub game between bots and write its record",
        description="Play one game between bots (one name per seat) and write the game "
        "record as JSON (docs/games.md), to review or replay.",
    )
    parser.add_argument("--bots", required=True, help="bot names by seat, e.g. strong,greedy")
    parser.add_argument("--seed", type=int, default=0, help="the deal's seed (0)")
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a game setting, e.g. pool_empty=end or rules.jokers=4",
    )
    parser.add_argument("--out", type=Path, help="write the record to FILE (default stdout)")
    parser.set_defaults(handler=run_game)


def run_game(args: argparse.Namespace, stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    try:
        request = {
            "bots": [name.strip() for name in args.bots.split(",")],
            "seed": args.seed,
            "settings": parse_options(args.option),
        }
        record = game_rummikub(request)["record"]
    except MeldwiseError as error:
        print(f"error: {error}", file=stderr)
        return EXIT_BAD_INPUT
    text = json.dumps(record, indent=1) + "\n"
    if args.out:
        args.out.write_text(text)
        result = record["result"]
        print(
            f"{len(record['turns'])} turns, {result['end']}; winners {result['winners']}, "
            f"scores {result['scores']}; record written to {args.out}",
            file=stdout,
        )
    else:
        stdout.write(text)
    return 0


def add_review_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``review`` on a subcommand parser."""
    parser = commands.add_parser(
        "review",
        help="review a Rummikub game record turn by turn",
        description="Solve every turn of a game record afresh and show what each turn "
        "missed, the illegal turns, and each player's accuracy.",
    )
    parser.add_argument("record", help="the game record (a JSON file; '-' for stdin)")
    parser.add_argument("--player", type=int, help="review only this seat's turns")
    parser.add_argument(
        "--objective",
        choices=[o.value for o in Objective],
        default=Objective.TILES.value,
        help="best means the most tiles (default) or the most points",
    )
    parser.add_argument("--json", action="store_true", help="write the review as JSON")
    parser.set_defaults(handler=run_review)


def run_review(args: argparse.Namespace, stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    try:
        text = stdin.read() if args.record == "-" else _read(Path(args.record))
        try:
            record = json.loads(text)
        except json.JSONDecodeError as error:
            raise MeldwiseError(f"{args.record} is not valid JSON: {error}") from None
        request: dict[str, Any] = {"record": record, "objective": args.objective}
        if args.player is not None:
            request["player"] = args.player
        review = review_rummikub(request)
    except MeldwiseError as error:
        print(f"error: {error}", file=stderr)
        return EXIT_BAD_INPUT
    if args.json:
        json.dump(review, stdout)
        stdout.write("\n")
    else:
        stdout.write(describe_review(review))
    return 0


def _read(path: Path) -> str:
    try:
        return path.read_text()
    except OSError as error:
        raise MeldwiseError(f"cannot read {path}: {error.strerror}") from None


def describe_review(review: dict[str, Any]) -> str:
    """A review written for a person: each player's summary, then the turns that fell
    short or broke the rules."""
    unit = review["objective"]
    lines = []
    for player in review["players"]:
        name = f" ({player['name']})" if player["name"] else ""
        share = player["placed_share"]
        lines.append(
            f"Player {player['player']}{name}: {player['turns_at_best']} of {player['turns']} "
            f"turns at the best; {player['placed']} of {player['possible']} {unit} placed"
            + (f" ({share:.0%})" if share is not None else "")
            + (f"; illegal turns: {player['illegal_turns']}" if player["illegal_turns"] else "")
        )
        for costly in player["costliest"]:
            lines.append(
                f"  turn {costly['turn']}: {costly['shortfall']} {unit} short, missed "
                f"{' '.join(costly['missed']) or '-'}"
            )
    lines.append("Turns below the best:")
    for turn in review["turns"]:
        if turn["at_best"]:
            continue
        did = (
            f"played {' '.join(turn['played'])}"
            if turn["action"] == "play"
            else turn["action"] + "s"
        )
        best = turn["best"]
        line = f"  turn {turn['turn']}, player {turn['player']}: {did}; " + (
            f"best {best['tiles']} tiles / {best['points']} points ({' '.join(best['played'])})"
            if best
            else f"not reviewed: {turn['unreviewed']}"
        )
        if not turn["legal"]:
            line += "; ILLEGAL: " + "; ".join(turn["problems"])
        lines.append(line)
    lines.append(f"Solver: {review['status']}")
    return "\n".join(lines) + "\n"

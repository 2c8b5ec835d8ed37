"""Command line of the solver library: ``python -m solver solve ...``.

The ``meldwise`` command (package :mod:`meldwise`) offers the same subcommands
plus the ones that need the web service or the benchmarks.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TextIO

from solver.errors import MeldwiseError
from solver.rummikub.hints import HintLevel
from solver.rummikub.play import Objective
from solver.rummikub.wire import MAX_TIME_LIMIT_MS, solve_rummikub

EXIT_BAD_INPUT = 2
Handler = Callable[[Mapping[str, Any]], dict[str, Any]]
"""A wire function of the library: request dict in, response dict out."""


def add_solve_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``solve`` on a subcommand parser."""
    parser = commands.add_parser(
        "solve",
        help="best Rummikub play for a rack and table",
        description=(
            "Find the best Rummikub play. Give the position with --rack/--table, "
            "or send wire requests on stdin with --json or --jsonl."
        ),
    )
    parser.add_argument("--rack", help='tiles on the rack, e.g. "R1 R2 J"')
    parser.add_argument("--table", default="", help='sets on the table, e.g. "R3 R4 R5 | K7 B7 O7"')
    parser.add_argument(
        "--opening", action="store_true", help="the player has not opened yet (30-point rule)"
    )
    parser.add_argument(
        "--objective",
        choices=[o.value for o in Objective],
        default=Objective.TILES.value,
        help="play the most tiles (default) or shed the most points",
    )
    parser.add_argument(
        "--hint",
        choices=[level.value for level in HintLevel],
        default=HintLevel.FULL.value,
        help="how much to reveal: nudge, tile, or the full play with steps (default)",
    )
    parser.add_argument(
        "--free-jokers", action="store_true", help="also count the table jokers no set needs"
    )
    add_common_flags(parser, "jokers=4")
    parser.set_defaults(handler=run_solve)


def add_common_flags(parser: argparse.ArgumentParser, rule_example: str) -> None:
    """The flags every Rummikub command shares: --time-limit, --rule and the wire
    modes --json / --jsonl (see :func:`run_requests`)."""
    parser.add_argument(
        "--time-limit", type=float, default=2.0, metavar="SECONDS", help="solver time limit (2)"
    )
    parser.add_argument(
        "--rule",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help=f"a rule setting, e.g. --rule {rule_example} (repeatable)",
    )
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument(
        "--json", action="store_true", help="read one request from stdin, write one response"
    )
    mode.add_argument(
        "--jsonl", action="store_true", help="one request per stdin line, one response per line"
    )


def run_solve(args: argparse.Namespace, stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    """Carry out ``solve``; return the exit code."""
    return run_requests(
        args, solve_rummikub, _request_from_flags, describe_response, stdin, stdout, stderr
    )


def run_requests(
    args: argparse.Namespace,
    handler: Handler,
    from_flags: Callable[[argparse.Namespace], dict[str, Any]],
    describe: Callable[[dict[str, Any]], str],
    stdin: TextIO,
    stdout: TextIO,
    stderr: TextIO,
) -> int:
    """Answer wire requests with ``handler`` (a dict-in, dict-out library function) and
    return the exit code; every command with ``--json`` / ``--jsonl`` runs this way.

    ``--jsonl``: one request per stdin line, one JSON response per line, in order; a
    bad line answers ``{"error": ...}`` and the batch goes on (exit 0). ``--json``:
    one request on stdin, one JSON response. Otherwise the request is built from the
    flags by ``from_flags`` and the response written for a person by ``describe``.
    Bad input (not ``--jsonl``) prints ``error: ...`` on stderr and exits 2.
    """
    if args.jsonl:
        for line in stdin:
            if not line.strip():
                continue
            try:
                answer = handler(_load_request(line))
            except MeldwiseError as error:
                answer = {"error": str(error)}
            print(json.dumps(answer), file=stdout, flush=True)
        return 0
    try:
        if args.json:
            print(json.dumps(handler(_load_request(stdin.read()))), file=stdout)
            return 0
        response = handler(from_flags(args))
    except MeldwiseError as error:
        print(f"error: {error}", file=stderr)
        return EXIT_BAD_INPUT
    stdout.write(describe(response))
    return 0


def _load_request(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise MeldwiseError(f"the request is not valid JSON: {error}") from None


def _request_from_flags(args: argparse.Namespace) -> dict[str, Any]:
    if args.rack is None:
        raise MeldwiseError("give the rack with --rack, or a request with --json")
    return {
        "rack": args.rack.replace(",", " ").split(),
        "table": parse_sets(args.table),
        "opened": not args.opening,
        "objective": args.objective,
        "rules": rules_from_flags(args.rule),
        "time_limit_ms": request_limits(args.time_limit),
        "hint_level": args.hint,
        "free_jokers": args.free_jokers,
    }


def parse_sets(text: str) -> list[list[str]]:
    """Sets written ``"R3 R4 R5 | K7 B7 O7"`` (commas or spaces) as lists of tile strings."""
    return [part.replace(",", " ").split() for part in text.split("|") if part.strip()]


def request_limits(seconds: float) -> int:
    """``--time-limit`` seconds as the wire's milliseconds, checked."""
    limit_ms = round(seconds * 1000)
    if not 1 <= limit_ms <= MAX_TIME_LIMIT_MS:
        raise MeldwiseError(f"--time-limit must be between 0.001 and {MAX_TIME_LIMIT_MS // 1000}")
    return limit_ms


def rules_from_flags(items: Sequence[str]) -> dict[str, int | bool | str]:
    """``--rule NAME=VALUE`` flags as rule settings: a whole number, true or false, or a
    word (``joker_retrieval=replace``); the rules check the value."""
    rules: dict[str, int | bool | str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        word = value.strip()
        if not sep or not word:
            raise MeldwiseError(f"--rule takes NAME=NUMBER or NAME=WORD, got {item!r}")
        if word.lstrip("-").isdigit():
            rules[name.strip()] = int(word)
        else:
            rules[name.strip()] = word == "true" if word in ("true", "false") else word
    return rules


def describe_response(response: dict[str, Any]) -> str:
    """A response written for a person: the play, the steps, the table after."""
    if response["hint_level"] != HintLevel.FULL.value:
        if not response["can_play"]:
            return "No play: draw a tile.\n"
        lines = [f"You can play {response['tiles_played']} tile(s)."]
        if response["hint_level"] == HintLevel.TILE.value:
            lines.append(response["text"])
        return "\n".join(lines) + "\n"
    played = " ".join(response["played"])
    if not played:
        lines = ["No play: draw a tile."]
    else:
        count, points = response["tiles_played"], response["points_played"]
        lines = [
            f"Play {count} tile(s), {points} points: {played}",
            f"Rack left: {' '.join(response['rack_left']) or '(empty)'}",
            f"Table sets kept whole: {response['sets_kept']}, table tiles moved: "
            f"{response['tiles_moved']}",
            "Steps:",
        ]
        lines += [f"  {i}. {step['text']}" for i, step in enumerate(response["steps"], 1)]
    if "free_jokers" in response:
        spare = response["free_jokers"]
        lines.append(
            f"Table jokers no set needs: {'not proven in time' if spare is None else spare}"
        )
    lines.append(f"Solver: {response['status']}")
    lines += describe_table(response["table"], "Table after")
    return "\n".join(lines) + "\n"


def describe_table(table: list[dict[str, Any]], title: str) -> list[str]:
    """Lines listing the sets of a wire table, jokers with what they stand for."""
    lines = [f"{title}:" if table else f"{title}: (empty)"]
    width = len(str(len(table)))
    for i, meld in enumerate(table):
        tiles = [
            f"J({meant})" if tile == "J" else tile
            for tile, meant in zip(meld["tiles"], meld["as"], strict=True)
        ]
        lines.append(f"  {i:>{width}}. {meld['kind']:<5}  {' '.join(tiles)}")
    return lines


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m solver", description="Meldwise solvers")
    # Imported here: those commands use run_requests and the helpers of this module.
    from solver.arena.cli import add_tournament_command
    from solver.rummikub.cli import add_bot_command, add_game_command, add_review_command
    from solver.rummikub.repair_cli import add_repair_command
    from solver.shanghai.cli import add_shanghai_command

    commands = parser.add_subparsers(dest="command", required=True)
    add_solve_command(commands)
    add_repair_command(commands)
    add_shanghai_command(commands)
    for add_command in (add_bot_command, add_game_command, add_review_command):
        add_command(commands)
    add_tournament_command(commands)
    return parser


def dispatch(parser: argparse.ArgumentParser, argv: Sequence[str] | None) -> int:
    """Parse ``argv`` and run the chosen subcommand on the process's streams."""
    args = parser.parse_args(argv)
    code: int = args.handler(args, sys.stdin, sys.stdout, sys.stderr)
    return code


def main(argv: Sequence[str] | None = None) -> int:
    return dispatch(build_parser(), argv)

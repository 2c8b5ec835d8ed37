"""The Rummikub command: ``meldwise solve ...`` (also ``python -m solver solve``).

Give the position with ``--rack``/``--table`` for an answer written for a person, or
send wire requests on stdin with ``--json`` (one request, one response) or
``--jsonl`` (one per line; a bad line answers ``{"error": ...}`` and the batch goes
on). Bad input exits with code 2.
"""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from solver.commands import (
    Commands,
    add_choice_flag,
    add_json_modes,
    add_rule_flag,
    add_time_limit_flag,
    rules_from_flags,
    run_requests,
    time_limit_ms,
    words,
)
from solver.errors import MeldwiseError
from solver.rummikub.hints import HintLevel
from solver.rummikub.position import Objective
from solver.rummikub.wire import solve_rummikub


def add_solve_command(commands: Commands) -> None:
    """Register ``solve`` on a subcommand parser."""
    parser = commands.add_parser(
        "solve",
        help="best Rummikub play for a rack and table",
        description=(
            "Find the best Rummikub play. Give the position with --rack/--table, "
            "or send wire requests on stdin with --json or --jsonl."
        ),
    )
    add_position_flags(parser)
    add_choice_flag(
        parser, "--objective", Objective.TILES, "play the most tiles or shed the most points"
    )
    add_time_limit_flag(parser, "solver time limit")
    add_choice_flag(
        parser, "--hint", HintLevel.FULL, "how much to reveal: nudge, tile, or the play and steps"
    )
    add_json_modes(parser)
    parser.set_defaults(handler=run_solve)


def add_position_flags(parser: argparse.ArgumentParser) -> None:
    """``--rack``, ``--table``, ``--opening`` and ``--rule``: a position and its rules."""
    parser.add_argument("--rack", help='tiles on the rack, e.g. "R1 R2 J"')
    parser.add_argument("--table", default="", help='sets on the table, e.g. "R3 R4 R5 | K7 B7 O7"')
    parser.add_argument(
        "--opening", action="store_true", help="the player has not opened yet (30-point rule)"
    )
    add_rule_flag(parser, "--rule jokers=4")


def position_from_flags(args: argparse.Namespace) -> dict[str, Any]:
    """The position and rules fields of a request, from :func:`add_position_flags`."""
    if args.rack is None:
        raise MeldwiseError("give the rack with --rack, or a request with --json")
    return {
        "rack": words(args.rack),
        "table": [words(part) for part in args.table.split("|") if part.strip()],
        "opened": not args.opening,
        "rules": rules_from_flags(args.rule),
    }


def run_solve(args: argparse.Namespace, stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    """Carry out ``solve``; return the exit code."""
    return run_requests(
        args, solve_rummikub, request_from_flags, describe_response, stdin, stdout, stderr
    )


def request_from_flags(args: argparse.Namespace) -> dict[str, Any]:
    """The solve request that the flags of ``solve`` describe."""
    return {
        **position_from_flags(args),
        "objective": args.objective,
        "time_limit_ms": time_limit_ms(args.time_limit),
        "hint_level": args.hint,
    }


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
    lines.append(f"Solver: {response['status']}")
    lines.append("Table after:" if response["table"] else "Table after: (empty)")
    width = len(str(len(response["table"])))
    for i, meld in enumerate(response["table"]):
        tiles = [
            f"J({meant})" if tile == "J" else tile
            for tile, meant in zip(meld["tiles"], meld["as"], strict=True)
        ]
        lines.append(f"  {i:>{width}}. {meld['kind']:<5}  {' '.join(tiles)}")
    return "\n".join(lines) + "\n"

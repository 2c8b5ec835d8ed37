"""The ``validate`` command: ``meldwise validate --rack "R5 K1" --before "R3 R4 R5 R6 R7"
--after "R3 R4 R5 | R5 R6 R7"``, the move check that ``POST /v1/rummikub/validate``
answers (:func:`~solver.rummikub.wire.validate_rummikub`).

Flags for a person, or wire requests on stdin with ``--json`` (one request, one
response) or ``--jsonl`` (one per line); bad input exits with code 2 (see
:func:`solver.commands.answering`).
"""

from __future__ import annotations

import argparse
from functools import partial
from typing import Any, TextIO

from solver.commands import (
    Commands,
    add_request_flags,
    add_rule_flag,
    answering,
    capped_note,
    fields_from_flags,
    rules_from_flags,
)
from solver.errors import MeldwiseError
from solver.i18n import _, _n
from solver.rummikub.cli import POSITION_FLAGS, add_notation_flag, parse_sets
from solver.rummikub.wire import validate_rummikub
from solver.written import words


def add_validate_command(commands: Commands) -> None:
    """Register ``validate`` on a subcommand parser."""
    parser = commands.add_parser(
        "validate",
        help="check a Rummikub move: is it legal, and what is wrong with it",
        description=(
            "Check a move: the rack it was played from, the table before and the table "
            "after. Says whether it is legal, every problem with it and, for an illegal "
            "move, whether it can still be put right, else the penalty."
        ),
    )
    parser.add_argument("--rack", help='the player\'s tiles before the move, e.g. "R5 K1"')
    parser.add_argument(
        "--before", default="", help='the table before the move (valid sets): "R3 R4 R5 | K7 B7 O7"'
    )
    parser.add_argument("--after", help="the table the player left, sets separated by |")
    parser.add_argument(
        "--opening", action="store_true", help="the player had not opened before this move"
    )
    add_rule_flag(parser, "--rule penalty_tiles=2")
    add_notation_flag(parser)
    add_request_flags(parser)  # the penalty's search runs in the default time limit
    parser.set_defaults(handler=_validate)
    fields_from_flags(
        parser, {**POSITION_FLAGS, "table_before": "--before", "table_after": "--after"}
    )


def _validate(args: argparse.Namespace, stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    """``validate``: the answer carries no rack, the flags do, and an empty rack is not
    told to draw (a table left as it was by a player with no tiles said "the player
    draws a tile" to a player who is out)."""
    rack_empty = args.rack is not None and not words(args.rack)
    describe = partial(describe_validation, rack_empty=rack_empty)
    return answering(validate_rummikub, _request, describe)(args, stdin, stdout, stderr)


def _request(args: argparse.Namespace) -> dict[str, Any]:
    if args.rack is None or args.after is None:
        raise MeldwiseError(
            _("give the move with --rack and --after (and --before), or a request with --json")
        )
    return {
        "rack": words(args.rack),
        "table_before": parse_sets(args.before, "--before"),
        # A set of no tiles the player left is a problem of the move, said in the
        # verdict as the wire's table_after says it; it was refused as bad input.
        "table_after": parse_sets(args.after, "--after", empty_sets=True),
        "opened": not args.opening,
        "rules": rules_from_flags(args.rule),
        "notation": args.notation,
    }


def describe_validation(response: dict[str, Any], rack_empty: bool = False) -> str:
    """A validate answer written for a person: the verdict, each problem with the set
    of the table after it concerns, and an illegal move's consequence (and that the
    clock cut its search, when it did); ``rack_empty``
    says that the rack the move was played from was empty (the answer carries none)."""
    played = response["played"]
    if response["legal"]:
        if not played and rack_empty:
            # A player whose rack is empty has gone out: there is nothing to draw for.
            return _("The move is legal: no tile is played, and the rack is empty.") + "\n"
        if not played:
            return _("The move is legal: no tile is played, the player draws a tile.") + "\n"
        return (
            _n(
                "The move is legal: it plays {n} tile: {tiles}",
                "The move is legal: it plays {n} tiles: {tiles}",
                len(played),
                tiles=" ".join(played),
            )
            + "\n"
        )
    lines = [_("The move is illegal:")]
    for problem in response["problems"]:
        index = problem["set"]
        reason = problem["reason"]
        lines.append(
            "  "
            + (reason if index is None else _("set {index}: {reason}", index=index, reason=reason))
        )
    lines.append(_("Tiles laid down: {tiles}", tiles=" ".join(played) or _("(none)")))
    consequence = response["consequence"]
    if consequence is not None:
        lines.append(consequence["text"])
        if consequence["time_capped"]:
            lines.append(capped_note())
    return "\n".join(lines) + "\n"

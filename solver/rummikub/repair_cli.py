"""The ``repair`` command: ``meldwise repair --table "R1 R2 | R3 B3 K3 O3 | R4 R5"``.

Flags for a person, or wire requests on stdin with ``--json`` (one request, one
response) or ``--jsonl`` (one per line); bad input exits with code 2 (see
:func:`solver.commands.answering`).
"""

from __future__ import annotations

import argparse
from typing import Any

from solver.commands import (
    Commands,
    add_rule_flag,
    answering,
    capped_note,
    fields_from_flags,
    rules_from_flags,
    status_text,
    time_limit_ms,
)
from solver.errors import MeldwiseError
from solver.i18n import _, _n
from solver.rummikub.cli import (
    POSITION_FLAGS,
    add_common_flags,
    describe_table,
    parse_sets,
    unproven_calm_text,
)
from solver.rummikub.position import Objective
from solver.rummikub.wire import repair_rummikub
from solver.written import words


def add_repair_command(commands: Commands) -> None:
    """Register ``repair`` on a subcommand parser."""
    parser = commands.add_parser(
        "repair",
        help="put a Rummikub table that went wrong back into valid sets",
        description=(
            "Repair a table: whether every tile fits into valid sets, the arrangement "
            "closest to the table before the turn with steps from the table as it lies, "
            "and, when none exists, the fewest tiles that cannot be placed and the penalty."
        ),
    )
    parser.add_argument(
        "--table", help='the table as it lies now, heaps separated by |: "R1 R2 | R3 B3 K3"'
    )
    parser.add_argument("--before", help="the table before the turn (valid sets), optional")
    parser.add_argument("--rack", help="the player's rack: also find the best rescue with it")
    parser.add_argument(
        "--opening",
        action="store_true",
        help="the player has not opened yet: the table before stays, the tiles laid down "
        "may only make new sets worth the opening threshold (needs --before)",
    )
    parser.add_argument(
        "--objective",
        choices=[o.value for o in Objective],
        default=Objective.TILES.value,
        help="for the rescue: play the most tiles (default) or shed the most points",
    )
    add_rule_flag(parser, "--rule penalty_tiles=2")
    add_common_flags(parser)
    parser.set_defaults(handler=answering(repair_rummikub, _request, describe_repair))
    fields_from_flags(
        parser,
        {
            **POSITION_FLAGS,
            "table_before": "--before",
            "objective": "--objective",
            "time_limit_ms": "--time-limit",
        },
    )


def _request(args: argparse.Namespace) -> dict[str, Any]:
    if args.table is None:
        raise MeldwiseError(_("give the table with --table, or a request with --json"))
    request: dict[str, Any] = {
        "table": parse_sets(args.table),
        "rules": rules_from_flags(args.rule),
        "time_limit_ms": time_limit_ms(args.time_limit),
        "notation": args.notation,
    }
    if args.opening:
        request["opened"] = False
    if args.before is not None:
        request["table_before"] = parse_sets(args.before, "--before")
    if args.rack is not None:
        request["rack"] = words(args.rack)
        request["objective"] = args.objective
    elif "objective" in vars(args).get("_given_once", set()):
        # Without a rack there is no rescue to aim: --objective points did nothing unsaid.
        raise MeldwiseError(
            _("--objective is for the rescue with --rack: give --rack, or leave --objective out")
        )
    return request


def describe_repair(response: dict[str, Any]) -> str:
    """A repair answer written for a person."""
    lines: list[str] = []
    status = response["status"]
    arranged = response["arrangement"]
    empty = arranged is not None and not arranged["table"] and not arranged["left_out"]
    if response["repairable"] is None:  # not settled (status unknown): neither claimed
        lines.append(_("The search stopped before finding out whether the table can be repaired."))
    elif empty:
        lines.append(_("There is nothing on the table."))
        arranged = None  # nothing kept, moved or laid out to tell
    elif response["repairable"]:
        lines.append(_("The table can be repaired: every tile fits into valid sets."))
    elif arranged is None:
        # Proven beyond repair, but no arrangement was found before the search stopped:
        # no tiles to name (this said "(fewest found): ?").
        lines.append(
            _(
                "The table cannot be repaired; the search stopped before it found which tiles "
                "can be placed."
            )
        )
    else:
        out = " ".join(arranged["left_out"])
        which = _("proven fewest") if status == "optimal" else _("fewest found")
        lines.append(
            _(
                "The table cannot be repaired: tiles that cannot be placed ({which}): {tiles}",
                which=which,
                tiles=out,
            )
        )
    if arranged is not None:
        # The counts are of the sets to keep (the table before's, or else the valid sets
        # now), not of every table tile: "table tiles moved: 0" stood above "Take K5
        # from set 1" when K5 lay loose.
        lines.append(
            _(
                "Of the sets to keep: {kept} kept whole, {moved} of their tiles moved",
                kept=arranged["sets_kept"],
                moved=arranged["tiles_moved"],
            )
        )
        if not arranged["disruption_proven"]:
            # As solve says it: the counts are then only what this arrangement does.
            lines.append(
                _(
                    "Not proven to disturb the table least: an arrangement as good may move"
                    " fewer of their tiles."
                )
            )
        if not arranged["steps"]:
            lines.append(_("Steps: none, the table is right as it is"))
        else:
            lines.append(
                _("Steps:") if response["repairable"] else _("Steps to place the most tiles:")
            )
        lines += [f"  {i}. {step['text']}" for i, step in enumerate(arranged["steps"], 1)]
        if response["repairable"]:
            title, none = _("Table after:"), _("Table after: (empty)")
        else:
            title, none = _("The most tiles that fit:"), _("The most tiles that fit: none")
        lines += describe_table(arranged["table"], title, none)
    if response["free_jokers"]:
        lines.append(_("Table jokers no set needs: {count}", count=response["free_jokers"]))
    penalty = response["penalty"]
    if penalty is not None:
        lines.append(_("Penalty: {text}", text=penalty["text"]))
    if response["rescue"] is not None:
        lines += _describe_rescue(response["rescue"])
    if response["time_capped"]:
        # Said by the answer, not in words: the arrangement's or the rescue's table moves
        # may then differ on an idle machine (their note names no time limit).
        lines.append(capped_note())
    return "\n".join(lines) + "\n"


def _describe_rescue(rescue: dict[str, Any]) -> list[str]:
    """A repair answer's rescue with the rack, written for a person."""
    lines: list[str] = []
    play = rescue["play"]
    if play is None and rescue["status"] == "unknown":
        lines.append(_("Rescue with the rack: none found before the search stopped"))
    elif play is None:
        lines.append(_("Rescue with the rack: none"))
    elif not play["tiles_played"] and rescue["status"] == "optimal":
        # Proven: the rack adds nothing, and its table is a repair of the same tiles
        # (said above); "play 0 tiles: (none)" and that table again said no more.
        lines.append(_("Rescue with the rack: no rack tile fits"))
    else:
        lines.append(
            _n(
                "Rescue with the rack: play {n} tile: {tiles}",
                "Rescue with the rack: play {n} tiles: {tiles}",
                play["tiles_played"],
                tiles=" ".join(play["played"]) or _("(none)"),
            )
        )
        if not play["disruption_proven"]:
            # As a solve's and the arrangement's: these steps may move tiles that
            # need not move (repair has no --disruption-time-limit to name).
            lines.append(unproven_calm_text())
        lines += [f"  {i}. {step['text']}" for i, step in enumerate(play["steps"], 1)]
        title = _("Table after the rescue:")
        lines += describe_table(play["table"], title, title)
    if rescue["status"] != "optimal":
        lines.append(_("Solver: {status}", status=status_text(rescue["status"])))
    return lines

"""The ``score`` command: ``meldwise score --rack "ann=" --rack "bob=R5 J"``, the
end-of-round scores that ``POST /v1/rummikub/score`` answers
(:func:`~solver.rummikub.wire.score_rummikub`).

Flags for a person, or wire requests on stdin with ``--json`` (one request, one
response) or ``--jsonl`` (one per line); bad input exits with code 2 (see
:func:`solver.commands.answering`).
"""

from __future__ import annotations

import argparse
from typing import Any

from solver.commands import (
    Commands,
    add_request_flags,
    add_rule_flag,
    answering,
    fields_from_flags,
    players_from_flags,
    rules_from_flags,
)
from solver.errors import MeldwiseError
from solver.i18n import _, _p, listed
from solver.rummikub.wire import score_rummikub


def add_score_command(commands: Commands) -> None:
    """Register ``score`` on a subcommand parser."""
    parser = commands.add_parser(
        "score",
        help="score a Rummikub round: each rack's penalty and each player's score",
        description=(
            "Score the end of a Rummikub round from the racks left: a player's penalty is "
            "the face values left on the rack (a joker counts joker_penalty); a player who "
            "went out (empty rack) scores the sum of the others' penalties."
        ),
    )
    parser.add_argument(
        "--rack",
        action="append",
        default=[],
        metavar="PLAYER=TILES",
        help='a player\'s rack left, e.g. --rack "ann=" --rack "bob=R5 J" (repeatable)',
    )
    add_rule_flag(parser, "--rule joker_penalty=25")
    add_request_flags(parser)  # scoring searches nothing: no --time-limit
    parser.set_defaults(handler=answering(score_rummikub, _request, describe_scores))
    # A rack's place is said with its player: --rack bob.
    fields_from_flags(parser, {"rules": "--rule", "racks": "--rack", "racks.*": "--rack {}"})


def _request(args: argparse.Namespace) -> dict[str, Any]:
    if not args.rack:
        raise MeldwiseError(_('give each player\'s rack with --rack "NAME=TILES"'))
    racks = players_from_flags(args.rack, "--rack", _p("a flag's value", "TILES"))
    return {"racks": racks, "rules": rules_from_flags(args.rule)}


def describe_scores(response: dict[str, Any]) -> str:
    """A score answer written for a person: each player's score and penalty, in the
    order given, then the winners."""
    lines = [
        _("{name}: score {score} (went out)", name=player["name"], score=player["score"])
        if player["winner"]
        else _(
            "{name}: score {score} (penalty {penalty})",
            name=player["name"],
            score=player["score"],
            penalty=player["penalty"],
        )
        for player in response["players"]
    ]
    winners = response["winners"]
    if winners:
        lines.append(_("Winners: {players}", players=listed(winners)))
    else:
        lines.append(_("Nobody went out: no winner."))
    return "\n".join(lines) + "\n"

"""Command line of the solver library: ``python -m solver solve ...``.

This module only assembles the parser from each game's ``add_*_command``
(:mod:`solver.rummikub.cli`, :mod:`solver.shanghai.cli`); what the commands share
lives in :mod:`solver.commands`. The ``meldwise`` command (:mod:`meldwise.commands`)
offers the same subcommands plus the service's and the benchmarks'.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from importlib import metadata
from typing import Any

from solver.arena.cli import add_tournament_command
from solver.commands import Commands, Parser, add_language_option, dispatch
from solver.rummikub.cli import (
    add_bot_command,
    add_game_command,
    add_review_command,
    add_solve_command,
)
from solver.rummikub.repair_cli import add_repair_command
from solver.rummikub.score_cli import add_score_command
from solver.rummikub.validate_cli import add_validate_command
from solver.shanghai.cli import add_shanghai_command

COMMANDS: tuple[Callable[[Commands], None], ...] = (
    add_solve_command,
    add_validate_command,
    add_repair_command,
    add_score_command,
    add_shanghai_command,
    add_bot_command,
    add_game_command,
    add_review_command,
    add_tournament_command,
)
"""The library's subcommands, in the order ``--help`` lists them."""


def build_parser(
    prog: str = "python -m solver",
    description: str = "Meldwise solvers",
    commands: Sequence[Callable[[Commands], None]] = COMMANDS,
) -> argparse.ArgumentParser:
    """A parser with each of ``commands`` registered as a subcommand, and ``--lang``
    before the subcommand's name for any of them."""
    parser = Parser(prog=prog, description=description)
    add_language_option(parser, every_command=True)  # meldwise --lang ja solve ...
    parser.add_argument(
        "--version", action=_Version, help="say the installed version of meldwise and exit"
    )
    subcommands = parser.add_subparsers(dest="command", required=True)
    for add_command in commands:
        add_command(subcommands)
    return parser


class _Version(argparse.Action):
    """``--version``: the installed version, looked up only when asked for (argparse's
    own action is given the text as the parser is built, and the lookup fails in a
    checkout run without installing it)."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, *_args: Any) -> None:
        print(f"meldwise {metadata.version('meldwise')}")
        parser.exit()


def main(argv: Sequence[str] | None = None) -> int:
    return dispatch(build_parser(), argv)

"""Entry point of the ``meldwise`` console script.

Each part of the project contributes its subcommands through an ``add_*_command``
function that registers itself on the subcommand parser.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from api.cli import add_serve_command
from benchmarks.cli import add_bench_command
from solver.arena.cli import add_tournament_command
from solver.cli import add_solve_command, dispatch
from solver.rummikub.cli import add_bot_command, add_game_command, add_review_command
from solver.rummikub.repair_cli import add_repair_command
from solver.shanghai.cli import add_shanghai_command

COMMANDS = [
    add_solve_command,
    add_repair_command,
    add_shanghai_command,
    add_bot_command,
    add_game_command,
    add_review_command,
    add_tournament_command,
    add_bench_command,
    add_serve_command,
]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="meldwise", description="Move solver and hint service for rummy games"
    )
    commands = parser.add_subparsers(dest="command", required=True)
    for add_command in COMMANDS:
        add_command(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    return dispatch(build_parser(), argv)

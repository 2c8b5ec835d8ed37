"""Entry point of the ``meldwise`` console script: the library's subcommands
(:data:`solver.cli.COMMANDS`) plus the service's and the benchmarks'."""

from __future__ import annotations

from collections.abc import Sequence

from api.cli import add_serve_command
from benchmarks.cli import add_bench_command
from solver.cli import COMMANDS as SOLVER_COMMANDS
from solver.cli import build_parser
from solver.commands import dispatch

COMMANDS = (*SOLVER_COMMANDS, add_bench_command, add_serve_command)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser(
        "meldwise", "Move solver and hint service for rummy games", commands=COMMANDS
    )
    return dispatch(parser, argv)

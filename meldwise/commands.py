"""The ``meldwise`` command's parser and run: the library's subcommands
(:data:`solver.cli.COMMANDS`) plus the service's and the benchmarks'. Imported by
:func:`meldwise.cli.main` once it can catch a Ctrl-C (these imports are the slow part
of the command's start)."""

from __future__ import annotations

from collections.abc import Sequence

from api.cli import add_serve_command
from benchmarks.cli import add_bench_command
from solver.cli import COMMANDS as SOLVER_COMMANDS
from solver.cli import build_parser
from solver.commands import dispatch

COMMANDS = (*SOLVER_COMMANDS, add_bench_command, add_serve_command)


def run(argv: Sequence[str] | None = None) -> int:
    """Parse ``argv`` (the process's arguments when None) and run the command it names."""
    parser = build_parser(
        "meldwise", "Move solver and hint service for rummy games", commands=COMMANDS
    )
    return dispatch(parser, argv)

"""Entry point of the ``meldwise`` console script (its parser and commands:
:mod:`meldwise.commands`).

The module imports nothing of the project's: the console script imports it before
calling :func:`main`, and a Ctrl-C during the imports of the commands (ortools,
pandas: 1 to 3 s of a busy machine's start) printed the traceback of whichever import
it landed in. :func:`main` makes them where it can end such a start as a Ctrl-C ends
a command (:data:`solver.commands.EXIT_INTERRUPTED`, no traceback)."""

from __future__ import annotations

import signal
from collections.abc import Sequence

EXIT_INTERRUPTED = 128 + signal.SIGINT
"""The exit code of a command stopped by Ctrl-C, as :mod:`solver.commands` says it
(which cannot be imported before the Ctrl-C is caught)."""


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``meldwise`` command line ``argv`` (the process's arguments when None)."""
    try:
        from meldwise.commands import run  # here, not above: see the docstring
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    return run(argv)

"""The files a benchmark writes its figures to (``--json``, ``--markdown``, ...).

Each path is checked before the run, so that a path that cannot be written is said
at once (a usage error, exit 2) rather than after minutes of measuring, and written
after it with :func:`solver.commands.write_file`: missing folders made, a refusal a
one-line error with exit 2, never a traceback that loses the figures.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rich.console import Console

from solver.commands import EXIT_BAD_INPUT, ready_to_write, write_file
from solver.errors import MeldwiseError


def outputs_ready(parser: argparse.ArgumentParser, *outputs: tuple[str, str | Path | None]) -> None:
    """Check that each ``(flag, path)`` given can be written; a usage error if not."""
    for flag, path in outputs:
        if path is None:
            continue
        try:
            ready_to_write(flag, path)
        except MeldwiseError as error:
            parser.error(str(error))


def write_output(flag: str, path: str | Path, text: str) -> None:
    """Write ``text`` to the ``path`` of ``flag``; exit 2 with a one-line error if the
    system refuses it (the path was checked before the run, but may have changed)."""
    try:
        write_file(flag, path, text)
    except MeldwiseError as error:
        print(f"error: {error}", file=sys.stderr)
        raise SystemExit(EXIT_BAD_INPUT) from None


def table_console(width: int = 160) -> Console:
    """A console for a runner's tables on standard output: as wide as the terminal, or
    ``width`` columns when the output goes to a file or a pipe, where rich's default of
    80 cut headings and names short (``buck…``, ``repla…``)."""
    return Console(width=None if sys.stdout.isatty() else width)

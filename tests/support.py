"""Shared by the tests of every part: running the library's command line."""

from __future__ import annotations

import subprocess
import sys


def run_solver_cli(args: list[str], stdin: str) -> subprocess.CompletedProcess[str]:
    """``python -m solver ARGS`` in a new process, with ``stdin``; output captured."""
    return subprocess.run(
        [sys.executable, "-m", "solver", *args],
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
    )

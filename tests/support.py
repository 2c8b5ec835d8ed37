"""Shared by the tests of every part: running the library's command line, and
holding an answer to the response model it claims."""

from __future__ import annotations

import subprocess
import sys
import time
from dataclasses import replace
from typing import Any

import pytest
from pydantic import TypeAdapter

from solver.cpsat import Limit
from solver.wire import AS_WRITTEN


def run_solver_cli(args: list[str], stdin: str) -> subprocess.CompletedProcess[str]:
    """``python -m solver ARGS`` in a new process, with ``stdin``; output captured."""
    return subprocess.run(
        [sys.executable, "-m", "solver", *args],
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
    )


def assert_declared(model: TypeAdapter[Any], answer: dict[str, Any]) -> None:
    """``answer`` is written field for field as ``model`` declares it: read and written
    back by the model it is the same (optional fields the library leaves out stay out,
    as they do in the service's answers; a joker written with its tile, ``J(R4)``,
    stays so, as the service writes the answers that hold such jokers)."""
    read = model.validate_python(answer)
    written = model.dump_python(
        read, mode="json", by_alias=True, exclude_unset=True, context=AS_WRITTEN
    )
    assert written == answer


def spend_the_clock(monkeypatch: pytest.MonkeyPatch, wire: str) -> None:
    """Every solve that the wire module ``wire`` (``"solver.shanghai.wire"``) starts
    from now on begins with its time already spent: what a clock-cut answer says."""
    spent = time.perf_counter() - 1.0
    monkeypatch.setattr(
        f"{wire}.Limit",
        lambda *args, **kwargs: replace(Limit(*args, **kwargs), deadline=spent),
    )

"""Shared by the tests of every part: running the library's command line, holding an
answer to the response model it claims, and counting CP-SAT searches."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import time
from dataclasses import replace
from types import SimpleNamespace
from typing import Any, cast

import pytest
from pydantic import TypeAdapter

import solver.cpsat as cpsat
from solver.cli import main
from solver.cpsat import Limit
from solver.wire import AS_WRITTEN


def run_solver_cli(args: list[str], stdin: str) -> subprocess.CompletedProcess[str]:
    """``python -m solver ARGS`` with ``stdin``, output captured: what the command line
    answers, not how a process starts (the tests of that run one: tests/rummikub/
    test_cli.py). It runs the module's :func:`~solver.cli.main` in this process, on
    streams as a pipe gives them with ``LANG=C.UTF-8`` (UTF-8 text over bytes; a usage
    error's SystemExit is its exit code): a process of its own spent 2 s of CPU on the
    imports alone."""
    streams = {name: getattr(sys, name) for name in ("stdin", "stdout", "stderr")}
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin.encode()), encoding="utf-8")
    out = sys.stdout = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    err = sys.stderr = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    try:
        code = main(args)
    except SystemExit as stopped:
        code = 0 if stopped.code is None else stopped.code if isinstance(stopped.code, int) else 1
    finally:
        for name, stream in streams.items():
            setattr(sys, name, stream)
    out.flush()
    err.flush()
    said = [cast(io.BytesIO, stream.buffer).getvalue().decode() for stream in (out, err)]
    return subprocess.CompletedProcess(["meldwise", *args], code, *said)


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
    from now on begins with its time already spent: what a clock-cut answer says. Spent
    long ago: a Shanghai draw phase's cap is ten times its time limit, past the limit's
    deadline. Not before 0, which :class:`Limit` refuses as a deadline: the clock counts
    from the machine's start, so on one up for less than 10,000 s these tests failed
    with "deadline must be at least 0 seconds"."""
    spent = max(0.0, time.perf_counter() - 10_000.0)
    monkeypatch.setattr(
        f"{wire}.Limit",
        lambda *args, **kwargs: replace(Limit(*args, **kwargs), deadline=spent),
    )


def examples(default: int) -> int:
    """How many examples a variant test draws: ``default``, or more with
    ``MELDWISE_EXAMPLES=N`` (the long run of the acceptance command)."""
    return max(default, int(os.environ.get("MELDWISE_EXAMPLES", "0")))


def counting_solves(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the CP-SAT searches (:func:`solver.cpsat.run`) made from here on: the
    list's one item is the count."""
    count = [0]
    run = cpsat.run

    def counted(*args: Any, **kwargs: Any) -> Any:
        count[0] += 1
        return run(*args, **kwargs)

    monkeypatch.setattr(cpsat, "run", counted)
    return count


def slow_machine(monkeypatch: pytest.MonkeyPatch, times: float) -> None:
    """From now on the solver's clock runs ``times`` as fast as the real one: an answer
    gets a ``times``-th of the CPU it gets idle in each second of its time limits, as
    beside busy processes. CP-SAT, which keeps its own clock, is given the real seconds
    left (a ``times``-th of the solver's)."""
    real = time.perf_counter
    start = real()
    fast = SimpleNamespace(perf_counter=lambda: start + (real() - start) * times)
    monkeypatch.setattr(cpsat, "time", fast)
    monkeypatch.setattr(
        cpsat.Limits, "seconds_left", lambda self: (self.deadline - fast.perf_counter()) / times
    )

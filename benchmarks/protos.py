"""Same models, same answers: every CP-SAT model the default solve builds, and each
answer, compared with another revision's; and the time ``build_model`` takes alone.

``python -m benchmarks.protos --base REV`` solves every committed position with the
``solver`` package of ``REV`` (imported as ``solver_base``, see
:func:`benchmarks.ab.load_base`) and with this tree, in tiles and points modes, the
default request through the wire (``solve_rummikub``) with generous wall-clock caps, so
that only the deterministic work bounds the searches. At every CP-SAT call it records
the SHA-256 of the model's whole proto (its text form: variables and domains,
constraints in order, objective, hints, names), in order, and the answer's wire JSON.
It prints how many protos and answers it compared and the first differences, and exits
1 on any: a change meant to build the same models faster (or to read their solutions
faster) must pass it.

``--builds`` also times ``build_model`` alone on each model the default tiles solve
builds, both revisions interleaved call by call (fastest of ``--repeat``), and prints
the sum, median and p95 of each and their ratios.
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import importlib
import json
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

from ortools.sat.python import cp_model

from benchmarks.ab import load_base
from benchmarks.cases import all_buckets, load_cases
from benchmarks.stats import at_least, percentile
from benchmarks.suite import DEFAULT_SEED
from solver import rummikub
from solver.commands import Parser

REPO = Path(__file__).resolve().parent.parent
POSITIONS = REPO / "benchmarks" / "positions-2026.json"
MODES = ("tiles", "points")
PER_BUCKET = 20
"""Positions per bucket (times its scale): all 660 committed."""
GENEROUS_MS = 300_000
"""Wall-clock caps of the requests: far above what any search takes, so no clock cuts one."""

Record = dict[str, tuple[list[str], str]]
"""Per solve (position label and mode): the hashes of the protos solved, the answer."""
Call = tuple[tuple[Any, ...], dict[str, Any]]


def positions(path: Path) -> list[tuple[str, dict[str, Any]]]:
    """The saved positions (:func:`benchmarks.cases.load_cases`, every bucket) as
    (label, wire request without its objective)."""
    return [
        (
            case.label,
            {
                "rack": [str(t) for t in case.position.rack],
                "table": [[str(t) for t in tiles] for tiles in case.position.table],
                "opened": case.position.opened,
                "time_limit_ms": GENEROUS_MS,
                "disruption_time_limit_ms": GENEROUS_MS,
            },
        )
        for case in load_cases(path, DEFAULT_SEED, all_buckets(), PER_BUCKET)
    ]


@contextmanager
def hooked(seen: list[str]) -> Iterator[None]:
    """Append the hash of each model CP-SAT is asked to solve to ``seen``."""
    original = cp_model.CpSolver.solve

    def solve(self: cp_model.CpSolver, model: cp_model.CpModel, *args: Any) -> Any:
        seen.append(hashlib.sha256(str(model.proto).encode()).hexdigest())
        return original(self, model, *args)

    cp_model.CpSolver.solve = solve  # type: ignore[method-assign, assignment]
    try:
        yield
    finally:
        cp_model.CpSolver.solve = original  # type: ignore[method-assign]


@contextmanager
def builds_recorded(package: ModuleType, calls: list[Call]) -> Iterator[None]:
    """Append the arguments of each ``build_model`` call the solve makes to ``calls``."""
    model = importlib.import_module(f"{package.__name__}.model")
    callers = [importlib.import_module(f"{package.__name__}.{m}") for m in ("disruption", "search")]

    def recording(*args: Any, **kwargs: Any) -> Any:
        calls.append((args, kwargs))
        return model.build_model(*args, **kwargs)

    for caller in callers:
        caller.build_model = recording  # type: ignore[attr-defined]
    try:
        yield
    finally:
        for caller in callers:
            caller.build_model = model.build_model  # type: ignore[attr-defined]


def record(package: ModuleType, requests: Sequence[tuple[str, dict[str, Any]]]) -> Record:
    """Solve each request in each mode with ``package`` (a ``solver.rummikub``)."""
    solve: Callable[[dict[str, Any]], dict[str, Any]]
    solve = importlib.import_module(f"{package.__name__}.wire").solve_rummikub
    found: Record = {}
    for label, request in requests:
        for mode in MODES:
            seen: list[str] = []
            with hooked(seen):
                answer = solve({**request, "objective": mode})
            found[f"{label}/{mode}"] = (seen, json.dumps(answer, sort_keys=True))
    return found


def compare(base: Record, ours: Record) -> list[str]:
    """What differs between two records (empty when every proto and answer is equal)."""
    differ = []
    for key, (base_protos, base_answer) in base.items():
        our_protos, our_answer = ours.get(key, ([], ""))
        if our_protos != base_protos:
            same = (a == b for a, b in zip(base_protos, our_protos, strict=False))
            first = next((i for i, equal in enumerate(same) if not equal), None)
            if first is None:
                first = min(len(base_protos), len(our_protos))
            differ.append(
                f"{key}: protos differ from call {first} "
                f"({len(base_protos)} base, {len(our_protos)} ours)"
            )
        if our_answer != base_answer:
            differ.append(f"{key}: answers differ")
    return differ


def time_builds(
    base: ModuleType, ours: ModuleType, requests: Sequence[tuple[str, dict[str, Any]]], repeat: int
) -> tuple[list[float], list[float]]:
    """Milliseconds of each ``build_model`` call of the default tiles solves, for the base
    and for ours, interleaved call by call (they alternate going first)."""
    calls: dict[str, list[Call]] = {}
    builders = {}
    for package in (base, ours):
        solve = importlib.import_module(f"{package.__name__}.wire").solve_rummikub
        found: list[Call] = []
        calls[package.__name__] = found
        with builds_recorded(package, found):
            for _, request in requests:
                solve({**request, "objective": "tiles"})
        builders[package.__name__] = importlib.import_module(
            f"{package.__name__}.model"
        ).build_model
    pairs = list(zip(calls[base.__name__], calls[ours.__name__], strict=True))
    times: dict[str, list[float]] = {base.__name__: [], ours.__name__: []}
    gc.collect()
    for i, (base_call, our_call) in enumerate(pairs):
        order = [(base.__name__, base_call), (ours.__name__, our_call)]
        for name, (args, kwargs) in order[:: -1 if i % 2 else 1]:
            build = builders[name]
            fastest = float("inf")
            for _ in range(repeat):
                started = time.perf_counter()
                build(*args, **kwargs)
                fastest = min(fastest, time.perf_counter() - started)
            times[name].append(fastest * 1000)
    return times[base.__name__], times[ours.__name__]


def summary(name: str, ms: list[float]) -> str:
    return (
        f"{name}: sum {sum(ms):.0f} ms, median {statistics.median(ms):.3f} ms, "
        f"p95 {percentile(ms, 0.95):.3f} ms"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = Parser(
        prog="python -m benchmarks.protos",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--base", required=True, help="git revision to compare with")
    parser.add_argument("--positions", type=Path, default=POSITIONS, metavar="FILE")
    parser.add_argument("--builds", action="store_true", help="also time build_model alone")
    parser.add_argument(
        "--repeat", type=at_least(1), default=3, help="builds per call, fastest kept"
    )
    args = parser.parse_args(argv)
    # Bad input exits 2: 1 (a traceback, or load_base's SystemExit) meant "protos differ".
    try:
        requests = positions(args.positions)
    except ValueError as error:  # a positions file that cannot be read
        parser.error(str(error))
    base = load_base(args.base)
    started = time.perf_counter()
    base_record = record(base, requests)
    our_record = record(rummikub, requests)
    protos = sum(len(seen) for seen, _ in base_record.values())
    differ = compare(base_record, our_record)
    print(
        f"{len(requests)} positions x {len(MODES)} modes: {protos} protos and "
        f"{len(base_record)} answers compared with {args.base}, {len(differ)} differences "
        f"({time.perf_counter() - started:.0f} s)"
    )
    for line in differ[:20]:
        print("  " + line)
    if args.builds:
        base_ms, our_ms = time_builds(base, rummikub, requests, args.repeat)
        print(f"{len(base_ms)} builds (tiles), fastest of {args.repeat}, interleaved:")
        print("  " + summary(args.base, base_ms))
        print("  " + summary("this tree", our_ms))
        ratios = [ours / theirs for ours, theirs in zip(our_ms, base_ms, strict=True)]
        print(
            f"  ratios: sum {sum(our_ms) / sum(base_ms):.3f}, median "
            f"{statistics.median(our_ms) / statistics.median(base_ms):.3f}, "
            f"median of per-build ratios {statistics.median(ratios):.3f}"
        )
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())

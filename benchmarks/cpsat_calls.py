"""CP-SAT's own cost per search: capture every CP-SAT call of the default solve, then
re-solve the calls as captured and as a variant, taking turns.

``python -m benchmarks.cpsat_calls capture FILE`` solves the saved positions after
opening (``--positions``, one ``--mode``) at the defaults and writes each CP-SAT call
(its model and parameters as text, its step) and each position's time and answer to
FILE (gzipped JSON). ``python -m benchmarks.cpsat_calls replay FILE --params TEXT``
re-solves the calls of the middle positions (p30-p70 by the captured time;
``--select all`` or ``tail`` for p80 on) as captured and with the parameters TEXT
added (text format, e.g. ``"linearization_level: 2"``), and ``--clauses`` with every
two-variable row over 0/1 variables written as clauses instead. Both take turns,
fastest of ``--repeat`` counts; it prints per step the ratio of the summed times, the
median of the per-call ratios, the ratio of CP-SAT's deterministic work and how many
searches stay identical (status, objective, work and branches). The same model
searched the same way gives identical searches; a variant that leaves them so can
only change the time CP-SAT takes around the search (see benchmarks/RESULTS.md,
Issue 14o).
"""

from __future__ import annotations

import argparse
import gzip
import json
import statistics
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ortools.sat.python import cp_model
from rich.progress import Progress

from benchmarks.ab import score, time_one
from benchmarks.cases import Mode, all_buckets
from benchmarks.output import outputs_ready
from benchmarks.stats import at_least
from benchmarks.suite import DEFAULT_SEED, Config, obtain_cases
from solver import rummikub
from solver.commands import Parser, not_json, unreadable
from solver.errors import MeldwiseError
from solver.i18n import _

Call = dict[str, Any]


def step(params: str) -> str:
    """Which search of the solve a call's parameters belong to (see
    solver/rummikub/disruption.py): step 3 stops at a first play, step 2 probes,
    step 1 branches by pseudo-costs, the score stage alone by the LP."""
    if "stop_after_first_solution: true" in params:
        return "step3"
    if "cp_model_probing_level: 2" in params:
        return "step2"
    return "step1" if "PSEUDO_COST" in params else "score"


@contextmanager
def recording(calls: list[Call], position: list[str]) -> Iterator[None]:
    """Record every CP-SAT solve made meanwhile in ``calls`` (``position[0]`` names it)."""
    solve = cp_model.CpSolver.solve

    def recorded(engine: cp_model.CpSolver, model: cp_model.CpModel, *args: Any) -> Any:
        started = time.perf_counter()
        code = solve(engine, model, *args)
        ms = (time.perf_counter() - started) * 1000
        params = str(engine.parameters)
        calls.append(
            {"position": position[0], "step": step(params), "ms": ms, "code": int(code)}
            | {"model": str(model.model_proto), "params": params}
        )
        return code

    cp_model.CpSolver.solve = recorded  # type: ignore[method-assign,assignment]
    try:
        yield
    finally:
        cp_model.CpSolver.solve = solve  # type: ignore[method-assign]


def capture(path: Path, positions: Path, mode: Mode) -> None:
    config = Config(DEFAULT_SEED, 20, (), positions=positions)
    with Progress(transient=True) as progress:
        cases, _ = obtain_cases(config, all_buckets(), progress)
    calls: list[Call] = []
    solves: list[dict[str, Any]] = []
    name = [""]
    with recording(calls, name):
        for case in cases:
            if not case.position.opened:
                continue
            name[0] = case.label
            ms, play = time_one(rummikub, case.position, mode, True, 10.0)
            answer = [score(play, mode), play.sets_kept, play.tiles_moved, play.disruption_proven]
            solves.append({"position": case.label, "ms": ms, "answer": answer})
    with gzip.open(path, "wt") as out:
        json.dump({"mode": mode.value, "solves": solves, "calls": calls}, out)
    print(f"{len(solves)} positions, {len(calls)} CP-SAT calls written to {path}")


def _holds(value: int, domain: Sequence[int]) -> bool:
    return any(domain[i] <= value <= domain[i + 1] for i in range(0, len(domain), 2))


def as_clauses(model: cp_model.CpModel) -> cp_model.CpModel:
    """``model`` with each linear row over two 0/1 variables (no enforcement) written as
    the clauses that exclude its infeasible assignments (x <= y as not x or y)."""
    proto = model.model_proto
    boolean = [list(v.domain) == [0, 1] for v in proto.variables]
    parts = [f"variables {{ {v} }}" for v in proto.variables]
    for ct in proto.constraints:
        text = str(ct)
        # Read ``linear`` only on a linear row: reading it elsewhere makes the row one.
        two = text.startswith("linear") and len(ct.linear.vars) == 2
        if two and all(boolean[v] for v in ct.linear.vars):
            linear = ct.linear
            (x, y), (a, b), domain = linear.vars, linear.coeffs, list(linear.domain)
            for vx in (0, 1):
                for vy in (0, 1):
                    if not _holds(a * vx + b * vy, domain):
                        lx, ly = (-x - 1 if vx else x), (-y - 1 if vy else y)
                        parts.append(
                            f"constraints {{ bool_or {{ literals: {lx} literals: {ly} }} }}"
                        )
            continue
        parts.append(f"constraints {{ {text} }}")
    if proto.has_objective():
        parts.append(f"objective {{ {proto.objective} }}")
    if proto.has_solution_hint():
        parts.append(f"solution_hint {{ {proto.solution_hint} }}")
    changed = cp_model.CpModel()
    changed.model_proto.parse_text_format("\n".join(parts))
    return changed


def _solve(model: cp_model.CpModel, params: str) -> tuple[float, tuple[Any, ...]]:
    engine = cp_model.CpSolver()
    engine.parameters.parse_text_format(params)
    started = time.perf_counter()
    code = engine.solve(model)
    ms = (time.perf_counter() - started) * 1000
    value = engine.objective_value if code in (cp_model.OPTIMAL, cp_model.FEASIBLE) else None
    return ms, (int(code), value, engine.deterministic_time, engine.num_branches)


def _model(text: str) -> cp_model.CpModel:
    model = cp_model.CpModel()
    model.model_proto.parse_text_format(text)
    return model


def read_capture(path: Path) -> dict[str, Any]:
    """The capture ``capture`` wrote to ``path``; a file that cannot be read, or is no
    such capture, is a :class:`MeldwiseError` naming it (it was a FileNotFoundError,
    BadGzipFile, JSONDecodeError or KeyError traceback)."""
    try:
        with gzip.open(path, "rt", encoding="utf-8") as source:
            saved = json.load(source)
    except (gzip.BadGzipFile, EOFError, UnicodeDecodeError):  # BadGzipFile is an OSError
        raise _not_capture(path, _("not gzip")) from None
    except OSError as error:
        raise unreadable(path, error) from None
    except (json.JSONDecodeError, RecursionError) as error:
        raise not_json(path, error) from None
    kinds = {"solves": list, "calls": list}
    if not isinstance(saved, dict) or any(
        not isinstance(saved.get(key), kind) for key, kind in kinds.items()
    ):
        raise _not_capture(path, _("no 'solves' and 'calls' lists"))
    return saved


def _not_capture(path: Path, why: str) -> MeldwiseError:
    return MeldwiseError(
        _("{path}: not a capture of benchmarks.cpsat_calls ({why})", path=path, why=why)
    )


def replay(path: Path, select: str, every: int, repeat: int, params: str, clauses: bool) -> None:
    saved = read_capture(path)
    order = sorted(saved["solves"], key=lambda s: s["ms"])
    n = len(order)
    chosen = {"mid": order[int(0.3 * n) : int(0.7 * n)], "tail": order[int(0.8 * n) :]}
    positions = {s["position"] for s in chosen.get(select, order)}
    calls = [c for c in saved["calls"] if c["position"] in positions and c["step"] != "score"]
    found: dict[str, list[tuple[float, float, tuple[Any, ...], tuple[Any, ...]]]] = {}
    with Progress(transient=True) as progress:
        task = progress.add_task("re-solving", total=len(calls[::every]))
        for i, call in enumerate(calls[::every]):
            base = _model(call["model"])
            variant = as_clauses(base) if clauses else _model(call["model"])
            times: tuple[list[float], list[float]] = ([], [])
            results: list[tuple[Any, ...]] = [(), ()]
            for turn in range(repeat):
                for side in (0, 1) if (i + turn) % 2 == 0 else (1, 0):
                    extra = f"\n{params}" if side else ""
                    ms, results[side] = _solve(variant if side else base, call["params"] + extra)
                    times[side].append(ms)
            found.setdefault(call["step"], []).append(
                (min(times[0]), min(times[1]), results[0], results[1])
            )
            progress.advance(task)
    for name, rows in sorted(found.items()):
        base_ms, ours_ms = sum(r[0] for r in rows), sum(r[1] for r in rows)
        work = sum(r[3][2] for r in rows) / max(sum(r[2][2] for r in rows), 1e-9)
        print(
            f"{name}: {len(rows)} searches, {base_ms:.1f} -> {ours_ms:.1f} ms "
            f"({ours_ms / base_ms:.3f}), median of ratios "
            f"{statistics.median(r[1] / r[0] for r in rows):.3f}, work {work:.3f}, "
            f"identical {sum(r[2] == r[3] for r in rows)}"
        )


def main(argv: Sequence[str] | None = None) -> int:
    parser = Parser(
        prog="python -m benchmarks.cpsat_calls",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = parser.add_subparsers(dest="command", required=True)
    taking = commands.add_parser("capture", help="solve the positions, save every CP-SAT call")
    taking.add_argument("file", type=Path)
    taking.add_argument("--positions", type=Path, default=Path("benchmarks/positions-2026.json"))
    taking.add_argument("--mode", type=Mode, default=Mode.TILES)
    again = commands.add_parser("replay", help="re-solve the saved calls against a variant")
    again.add_argument("file", type=Path)
    again.add_argument("--select", choices=("mid", "tail", "all"), default="mid")
    again.add_argument("--every", type=at_least(1), default=1, help="every Nth call only")
    again.add_argument(
        "--repeat", type=at_least(1), default=3, help="solves per side, fastest kept"
    )
    again.add_argument("--params", default="", help="CP-SAT parameters (text format) to add")
    again.add_argument("--clauses", action="store_true", help="two-variable 0/1 rows as clauses")
    args = parser.parse_args(argv)
    try:
        if args.command == "capture":
            outputs_ready(parser, ("FILE", args.file))
            capture(args.file, args.positions, args.mode)
        else:
            replay(args.file, args.select, args.every, args.repeat, args.params, args.clauses)
    except ValueError as error:  # a positions file or a capture it cannot read
        parser.error(str(error))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

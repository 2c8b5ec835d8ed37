"""Before and after: time another revision's solver and this one on the same positions.

``python -m benchmarks.ab --base REV`` exports the ``solver`` package of git
revision ``REV`` under the name ``solver_base`` into a temporary directory and
solves every benchmark position with both, interleaved: per position and mode each
solver runs ``--repeat`` times in a row (the fastest counts), and the two take
turns going first. So both see the same load, and the ratios hold on a shared
machine. It prints, per mode, the median and p95 of each, their ratios and the
median of the per-position ratios, and counts the positions where the two scores
differ (an exact solver fixed, or broken).
By default it times the score stage alone (``--score-only`` of the suite); ``--full``
adds the least-disruption stage.
"""

from __future__ import annotations

import argparse
import atexit
import importlib
import inspect
import io
import json
import re
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from rich.progress import Progress
from rich.table import Table

from benchmarks.cases import Case, Mode, all_buckets, select
from benchmarks.machine import load
from benchmarks.output import outputs_ready, table_console, write_output
from benchmarks.stats import at_least, percentile
from benchmarks.suite import DEFAULT_SEED, QUICK_PER_BUCKET, WARM_UP, Config, obtain_cases
from solver import rummikub
from solver.commands import EXIT_BAD_INPUT, Parser, whole_number
from solver.rummikub import STANDARD, Position
from solver.rummikub.notation import format_tiles

REPO = Path(__file__).resolve().parent.parent


def load_base(revision: str, game: str = "rummikub") -> ModuleType:
    """The ``solver.<game>`` package of ``revision``, imported as ``solver_base.<game>``."""
    done = subprocess.run(
        ["git", "archive", revision, "solver"], cwd=REPO, capture_output=True, check=False
    )
    if done.returncode:
        # A revision git does not know was a CalledProcessError traceback, then a
        # SystemExit of code 1, which protos also gives when the models differ.
        said = done.stderr.decode(errors="replace").strip()
        print(f"error: --base {revision}: {said}", file=sys.stderr)
        raise SystemExit(EXIT_BAD_INPUT)
    archive = done.stdout
    root = Path(tempfile.mkdtemp(prefix="meldwise-base-"))
    atexit.register(shutil.rmtree, root, ignore_errors=True)
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(root, filter="data")
    (root / "solver").rename(root / "solver_base")
    for path in (root / "solver_base").rglob("*.py"):
        text = re.sub(r"\b(from|import) solver\b", r"\1 solver_base", path.read_text())
        path.write_text(text)
    sys.path.insert(0, str(root))
    return importlib.import_module(f"solver_base.{game}")


@dataclass
class Timings:
    """Milliseconds per position of one mode, and the positions scored differently."""

    base: list[float] = field(default_factory=list)
    ours: list[float] = field(default_factory=list)
    differ: list[str] = field(default_factory=list)


def time_one(module: Any, position: Position, mode: Mode, full: bool, limit: float) -> Any:
    """Solve ``position`` with the solver package ``module``; (ms, play)."""
    asked = module.Position.parse(
        format_tiles(position.rack),
        " | ".join(format_tiles(tiles) for tiles in position.table),
        mode is not Mode.OPENING,
    )
    # The standard settings the revision knows (a later one may have more).
    known = module.Rules.__dataclass_fields__
    rules = module.Rules(**{k: v for k, v in STANDARD.to_dict().items() if k in known})
    objective = module.Objective(mode.objective.value)
    budget = _budget(module, limit)
    started = time.perf_counter()
    play = module.solve(asked, rules, objective, least_disruption=full, **budget)
    return (time.perf_counter() - started) * 1000, play


def _budget(module: ModuleType, seconds: float) -> dict[str, Any]:
    """The keywords giving ``module``'s solve ``seconds`` and one worker: a ``limit``
    since it takes one (its cpsat.Limit), the loose ones in older revisions."""
    if "time_limit" in inspect.signature(module.solve).parameters:
        return {"time_limit": seconds, "workers": 1}
    kernel = importlib.import_module(f"{module.__name__.partition('.')[0]}.cpsat")
    return {"limit": kernel.Limit(seconds, workers=1)}


def score(play: Any, mode: Mode) -> int:
    return int(play.points_played if mode is Mode.POINTS else play.tiles_played)


def run(
    base: Any, ours: Any, cases: Sequence[Case], modes: Sequence[Mode], args: Any
) -> dict[Mode, Timings]:
    found = {mode: Timings() for mode in modes}
    for module in (base, ours):
        for mode in modes:
            time_one(module, WARM_UP, mode, args.full, args.time_limit)
    with Progress(transient=True) as progress:
        task = progress.add_task("solving", total=len(cases) * len(modes))
        for number, case in enumerate(cases):
            for turn, mode in enumerate(modes):
                order = [(base, found[mode].base), (ours, found[mode].ours)]
                if (number + turn) % 2:  # not case.index: it restarts in every bucket
                    order.reverse()
                plays = {}
                for module, times in order:
                    runs = [
                        time_one(module, case.position, mode, args.full, args.time_limit)
                        for _ in range(args.repeat)
                    ]
                    times.append(min(ms for ms, _ in runs))
                    plays[id(module)] = runs[0][1]
                if score(plays[id(base)], mode) != score(plays[id(ours)], mode):
                    found[mode].differ.append(case.label)
                progress.advance(task)
    return found


def report(found: dict[Mode, Timings], args: Any, load_before: str) -> dict[str, Any]:
    table = Table(
        title=f"{args.base} (base) vs this checkout, ms per solve",
        caption="ratio: ours over the base's (below 1: this checkout is faster); median of "
        "ratios: the median over the positions of ours over the base's",
    )
    for column in ("mode", "n", "base median", "ours median", "ratio", "base p95", "ours p95"):
        table.add_column(column, justify="left" if column == "mode" else "right")
    table.add_column("ratio p95", justify="right")
    table.add_column("median of ratios", justify="right")
    table.add_column("scores differ", justify="right")
    figures: dict[str, Any] = {}
    for mode, t in found.items():
        median = (statistics.median(t.base), statistics.median(t.ours))
        p95 = (percentile(t.base, 0.95), percentile(t.ours, 0.95))
        ratios = statistics.median(o / b for b, o in zip(t.base, t.ours, strict=True))
        figures[mode.value] = {
            "positions": len(t.base),
            "median_ms": {"base": median[0], "ours": median[1]},
            "p95_ms": {"base": p95[0], "ours": p95[1]},
            # The table's ratios, which the JSON lacked: ours over the base's.
            "ratio_of_medians": median[1] / median[0],
            "ratio_of_p95": p95[1] / p95[0],
            "median_of_ratios": ratios,
            "scores_differ": t.differ,
        }
        table.add_row(
            mode.value,
            str(len(t.base)),
            f"{median[0]:.2f}",
            f"{median[1]:.2f}",
            f"{median[1] / median[0]:.3f}",
            f"{p95[0]:.2f}",
            f"{p95[1]:.2f}",
            f"{p95[1] / p95[0]:.3f}",
            f"{ratios:.3f}",
            f"{len(t.differ)} {' '.join(t.differ[:5])}",
        )
    console = table_console()
    console.print(table)
    console.print(f"load before: {load_before}, after: {load()}")
    return figures


def main(argv: Sequence[str] | None = None) -> int:
    parser = Parser(
        prog="python -m benchmarks.ab",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--base", required=True, help="git revision to compare with")
    parser.add_argument("--seed", type=whole_number, default=DEFAULT_SEED)
    parser.add_argument("--per-bucket", type=at_least(1), default=QUICK_PER_BUCKET, metavar="N")
    parser.add_argument("--buckets", default="", help="comma-separated shell patterns")
    parser.add_argument("--modes", default=",".join(m.value for m in Mode))
    parser.add_argument("--positions", type=Path, metavar="FILE", help="saved positions")
    parser.add_argument(
        "--repeat", type=at_least(1), default=3, help="runs per solve, fastest kept (3)"
    )
    parser.add_argument("--time-limit", type=at_least(0, float), default=10.0, metavar="SECONDS")
    parser.add_argument("--full", action="store_true", help="with the least-disruption stage")
    parser.add_argument("--json", type=Path, metavar="FILE", help="write the figures as JSON")
    args = parser.parse_args(argv)
    outputs_ready(parser, ("--json", args.json))
    patterns = tuple(p.strip() for p in args.buckets.split(",") if p.strip())
    names = dict.fromkeys(name.strip() for name in args.modes.split(",") if name.strip())
    known = ", ".join(mode.value for mode in Mode)
    try:
        modes = tuple(Mode(name) for name in names)  # each once: tiles,tiles ran twice
        buckets = select(all_buckets(), patterns)
    except ValueError as error:  # an unknown mode or bucket
        parser.error(f"{error} (modes are {known})")
    if not modes:  # an empty table and exit 0
        parser.error(f"argument --modes: names no mode (modes are {known})")
    config = Config(args.seed, args.per_bucket, patterns, positions=args.positions)
    base = load_base(args.base)  # a revision git does not know, before the positions are dealt
    load_before = load()
    try:
        with Progress(transient=True) as progress:
            cases, source = obtain_cases(config, buckets, progress)
    except ValueError as error:  # a positions file that cannot be read
        parser.error(str(error))
    print(f"{len(cases)} positions {source}; repeat {args.repeat}")
    found = run(base, rummikub, cases, modes, args)
    figures = report(found, args, load_before)
    if args.json:
        write_output("--json", args.json, json.dumps(figures, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

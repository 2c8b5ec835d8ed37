"""Reference least disruption of the committed positions, from a long-budget run.

``python -m benchmarks.reference`` solves every committed position after opening (in
the tiles and points modes) with the least-disruption stage given far more work than
by default (``--work`` deterministic seconds) and writes, per position and mode, the
sets kept, the tiles moved and whether they are proven, to ``--out`` (by default
``benchmarks/reference-2026.json``). It was run once and its output committed; the
benchmark suite compares every default answer with it: an answer that keeps fewer
sets, or as many and moves more tiles, is a defect.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.progress import Progress

from benchmarks.cases import Case, Mode, all_buckets, load_cases, select
from benchmarks.machine import describe, load
from benchmarks.output import outputs_ready, write_output
from benchmarks.stats import number
from solver.commands import Parser, not_json, unreadable
from solver.errors import MeldwiseError
from solver.i18n import _
from solver.rummikub import STANDARD, Limit, solve

POSITIONS_FILE = Path(__file__).with_name("positions-2026.json")
REFERENCE_FILE = Path(__file__).with_name("reference-2026.json")
SEED = 2026
PER_BUCKET = 20
LONG_WORK = 20.0
"""Deterministic seconds for the least-disruption stage: 200 times the default."""
LONG_SECONDS = 600.0
"""Wall-clock cap per solve (a safety net; the work bound stops first)."""
MODES = (Mode.TILES, Mode.POINTS)
"""Before opening the table is never touched: nothing to compare."""


@dataclass(frozen=True, slots=True)
class Reference:
    """The long-budget run's least disruption of one position in one mode."""

    sets_kept: int
    tiles_moved: int
    proven: bool

    def worse(self, sets_kept: int, tiles_moved: int) -> bool:
        """Whether a play keeping ``sets_kept`` sets and moving ``tiles_moved`` tiles
        disturbs the table more than this."""
        return (sets_kept, -tiles_moved) < (self.sets_kept, -self.tiles_moved)


def load_references(path: Path, seed: int) -> dict[tuple[str, str], Reference]:
    """The references in ``path`` by (position label, mode); none if the file holds
    another seed's positions. Raises ValueError naming the file when it cannot be read
    as a reference file."""
    try:
        saved = json.loads(path.read_text())
    except OSError as error:  # a file not there is no file of the wrong kind
        raise unreadable(path, error) from None
    except (json.JSONDecodeError, RecursionError) as error:  # said as every command says it
        raise not_json(path, error) from None
    except UnicodeDecodeError:  # a ValueError: said without the file's name
        raise _not_reference(path, _("not UTF-8 text")) from None
    if not isinstance(saved, dict) or "seed" not in saved or "positions" not in saved:
        # Taken for another seed's reference: nothing compared, and the run passed.
        raise _not_reference(path, _("no 'seed' and 'positions'"))
    if saved["seed"] != seed:
        return {}
    try:
        return {
            (label, mode): Reference(*values)
            for label, modes in saved["positions"].items()
            for mode, values in modes.items()
        }
    except (ValueError, TypeError, AttributeError, KeyError) as error:
        raise _not_reference(path, str(error)) from None


def _not_reference(path: Path, why: str) -> MeldwiseError:
    return MeldwiseError(_("{path}: not a reference file ({why})", path=path, why=why))


def references_for(
    cases: Sequence[Case], path: Path, seed: int
) -> dict[tuple[str, str], Reference]:
    """The references of those ``cases`` that are the committed positions themselves:
    a reference belongs to a position of :data:`POSITIONS_FILE`, and a case of the same
    label dealt afresh (self-play positions come from games the solver plays, so a
    changed solver deals others) or edited is another position, with none."""
    references = load_references(path, seed)
    if not references:
        return {}
    committed = {
        case.label: case.position
        for case in load_cases(POSITIONS_FILE, seed, all_buckets(), PER_BUCKET)
    }
    same = {case.label for case in cases if committed.get(case.label) == case.position}
    return {key: reference for key, reference in references.items() if key[0] in same}


def main(argv: Sequence[str] | None = None) -> int:
    parser = Parser(prog="python -m benchmarks.reference", description=__doc__)
    parser.add_argument("--positions", type=Path, default=POSITIONS_FILE)
    parser.add_argument("--out", type=Path, default=REFERENCE_FILE)
    parser.add_argument("--work", type=number, default=LONG_WORK, help=f"({LONG_WORK:g})")
    parser.add_argument(
        "--buckets", default="", help="comma-separated shell patterns (default: every bucket)"
    )
    args = parser.parse_args(argv)
    if not args.work >= 0:  # a LimitError traceback at the first solve
        parser.error(f"argument --work: must be at least 0, got {args.work:g}")
    outputs_ready(parser, ("--out", args.out))
    patterns = [part.strip() for part in args.buckets.split(",") if part.strip()]
    if patterns and args.out == REFERENCE_FILE:
        # Some buckets only: the committed reference of every position would be lost.
        parser.error(
            f"argument --buckets: write those positions elsewhere with --out (not {args.out})"
        )
    try:
        cases = load_cases(args.positions, SEED, select(all_buckets(), patterns), PER_BUCKET)
    except ValueError as error:  # a positions file that cannot be read, an unknown bucket
        parser.error(str(error))
    started, load_before = time.perf_counter(), load()
    positions: dict[str, dict[str, list[int | bool]]] = {}
    with Progress(transient=True) as progress:
        task = progress.add_task("long-budget solves", total=len(cases) * len(MODES))
        for case in cases:
            for mode in MODES:
                play = solve(
                    mode.position(case.position),
                    STANDARD,
                    mode.objective,
                    limit=Limit(
                        time=LONG_SECONDS, disruption_work=args.work, disruption_time=LONG_SECONDS
                    ),
                )
                if play.time_capped:
                    print(f"{case.label} {mode.value}: stopped by the clock", file=sys.stderr)
                entry = [play.sets_kept, play.tiles_moved, play.disruption_proven]
                positions.setdefault(case.label, {})[mode.value] = entry
                progress.advance(task)
    command = ["python -m benchmarks.reference", "--work", f"{args.work:g}"]
    if patterns:
        command += ["--buckets", ",".join(patterns)]
    record = {
        "seed": SEED,
        "command": " ".join(command),
        "work_s": args.work,
        "machine": describe(peer=False),
        "load_before": load_before,
        "seconds": round(time.perf_counter() - started, 1),
        "unproven": sorted(
            f"{label} {mode}"
            for label, modes in positions.items()
            for mode, (_, _, proven) in modes.items()
            if not proven
        ),
        "positions": positions,
    }
    write_output("--out", args.out, _as_json(record))
    print(f"{len(positions)} positions written to {args.out}; unproven: {record['unproven']}")
    return 0


def _as_json(record: dict[str, Any]) -> str:
    """The record as JSON, a line per position."""
    head = json.dumps({k: v for k, v in record.items() if k != "positions"}, indent=1)
    lines = [
        f" {json.dumps(label)}: {json.dumps(modes)}" for label, modes in record["positions"].items()
    ]
    return head[:-2] + ',\n "positions": {\n' + ",\n".join(lines) + "\n }\n}\n"


if __name__ == "__main__":
    sys.exit(main())

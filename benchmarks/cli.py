"""``meldwise bench`` and ``python -m benchmarks``: the solve-time suite.

Deals reproducible positions from a seed in named buckets, solves each in every
mode with one CP-SAT worker, and prints per bucket and mode: count, median / p95 /
p99 / max solve time of the default solve (least disruption on), the share proven
optimal and the share proven least disruptive, and beside it the time of the score
stage alone. ``--peer`` runs rummikub-solver on the same positions, interleaved;
``--profile`` splits our time into parts.

Exit status: 0 when every check holds, 1 when one fails (an answer of ours illegal,
its score not proven optimal, less calm than the long-budget reference, or beaten
by a legal play of the peer; the report's last lines name them) or the run crashes,
2 for bad arguments, 141 when the report's reader leaves (| head). A missed speed
target is reported, never a failure.
"""

from __future__ import annotations

import argparse
import json
import shlex
from collections.abc import Sequence
from typing import TextIO

from rich.progress import Progress

from benchmarks.cases import Mode, all_buckets, select
from benchmarks.peer import DEFAULT_BACKEND, PeerUnavailable
from benchmarks.reference import REFERENCE_FILE
from benchmarks.report import build_report, markdown, print_report, to_json
from benchmarks.suite import (
    DEFAULT_PER_BUCKET,
    DEFAULT_SEED,
    DEFAULT_TIME_LIMIT,
    MAX_PER_BUCKET,
    MAX_REPEAT,
    QUICK_PER_BUCKET,
    Config,
    run_suite,
)
from solver.commands import (
    Commands,
    Parser,
    add_time_limit_flag,
    dispatch,
    file_path,
    in_range,
    ready_to_write,
    time_limit_ms,
    whole_number,
    write_file,
)
from solver.console import CommandConsole
from solver.errors import MeldwiseError
from solver.i18n import _

EXIT_CHECK_FAILED = 1
"""A checked property of the answers failed (see :func:`benchmarks.report.failures`)."""
PEER_BACKENDS = ("SCIPY", "HIGHS")
DESCRIPTION = (__doc__ or "").replace("``", "")
"""The help's description: the module docstring as plain text, without reST's ``."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    buckets = ", ".join(bucket.name for bucket in all_buckets())
    parser.add_argument(
        "--seed",
        type=whole_number,
        default=DEFAULT_SEED,
        help=f"seed of the positions ({DEFAULT_SEED})",
    )
    parser.add_argument(
        "--per-bucket",
        type=whole_number,
        metavar="N",
        help=f"positions per bucket (default {DEFAULT_PER_BUCKET}; 1 to {MAX_PER_BUCKET};"
        " self-play deals 3N)",
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help=f"{QUICK_PER_BUCKET} positions per bucket unless --per-bucket says: under a "
        "minute, for CI",
    )
    parser.add_argument(
        "--buckets",
        default="",
        metavar="PATTERNS",
        help=f"comma-separated shell patterns of buckets to run (default all: {buckets})",
    )
    parser.add_argument(
        "--modes",
        default=",".join(mode.value for mode in Mode),
        help="comma-separated modes: tiles, points, opening (default all)",
    )
    # The range of meldwise solve's --time-limit: 1e9 was taken here.
    add_time_limit_flag(parser, "solver time limit per solve", default=DEFAULT_TIME_LIMIT)
    parser.add_argument(
        "--repeat",
        type=whole_number,
        default=1,
        metavar="N",
        help=f"run each solve N times and keep the fastest (1; 1 to {MAX_REPEAT}): steadier on"
        " a shared machine",
    )
    parser.add_argument(
        "--peer",
        action="store_true",
        help="also run rummikub-solver (pip install -c constraints.txt -e '.[bench]')",
    )
    parser.add_argument(
        "--peer-backend",
        choices=PEER_BACKENDS,
        default=DEFAULT_BACKEND,
        help=f"rummikub-solver's MILP backend (default {DEFAULT_BACKEND}: HiGHS through SciPy)",
    )
    parser.add_argument(
        "--profile", action="store_true", help="split our time into build / CP-SAT / layout"
    )
    parser.add_argument(
        "--score-only",
        action="store_true",
        help="time the best score alone, without the least-disruption stage (what the peer does)",
    )
    parser.add_argument(
        "--default-only",
        action="store_true",
        help="time the default solve alone (by default the score alone is timed beside it)",
    )
    parser.add_argument(
        "--reference",
        type=file_path,
        default=REFERENCE_FILE,
        metavar="FILE",
        help="long-budget least disruption to check the default answers against, for the "
        "committed positions only (default: the committed benchmarks/reference-2026.json)",
    )
    parser.add_argument(
        "--positions",
        type=file_path,
        metavar="FILE",
        help="read the positions from FILE if it exists, else deal them and write FILE",
    )
    parser.add_argument("--json", type=file_path, metavar="FILE", help="write the figures as JSON")
    parser.add_argument(
        "--markdown", type=file_path, metavar="FILE", help="write the figures as Markdown"
    )
    parser.add_argument(
        "--slowest",
        type=whole_number,
        default=10,
        metavar="N",
        help="list our N slowest solves (10; 0: no such table, nor 'slowest' in the JSON)",
    )


def add_bench_command(commands: Commands) -> None:
    """Register ``bench`` on a subcommand parser."""
    parser = commands.add_parser(
        "bench",
        help="solve-time benchmark suite (optionally side by side with rummikub-solver)",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_arguments(parser)
    parser.set_defaults(handler=run_bench, prog="meldwise bench")


def config_from(args: argparse.Namespace) -> Config:
    """Check the arguments and turn them into a :class:`Config`; ValueError names the culprit."""
    per_bucket = args.per_bucket
    if per_bucket is None:
        per_bucket = QUICK_PER_BUCKET if args.quick else DEFAULT_PER_BUCKET
    in_range("--per-bucket", per_bucket, 1, MAX_PER_BUCKET)
    in_range("--repeat", args.repeat, 1, MAX_REPEAT)
    in_range("--slowest", args.slowest, 0)  # more than the solves: all of them
    # In whole milliseconds, as meldwise solve sends it: the same solves.
    time_limit = time_limit_ms(args.time_limit) / 1000
    modes: list[Mode] = []
    for name in _split(args.modes):
        try:
            if Mode(name) not in modes:  # tiles,tiles solved each position twice
                modes.append(Mode(name))
        except ValueError:
            known = ", ".join(mode.value for mode in Mode)
            raise MeldwiseError(
                _("--modes: unknown mode {name!r}; modes are {known}", name=name, known=known)
            ) from None
    if not modes:
        raise MeldwiseError(_("--modes names no mode"))
    if args.score_only and args.default_only:
        # --score-only won without a word: the default solve was not timed at all.
        raise MeldwiseError(
            _(
                "--score-only and --default-only contradict each other: the first times the "
                "score alone, the second the default solve alone; give one"
            )
        )
    if not args.peer and "peer_backend" in vars(args).get("_given_once", set()):
        raise MeldwiseError(
            _(
                "--peer-backend {backend} needs --peer (the peer runs only then)",
                backend=args.peer_backend,
            )
        )
    try:
        # Checked here, not as the run begins: said without its flag, after a blank line
        # the progress bar left.
        select(all_buckets(), _split(args.buckets))
    except ValueError as error:
        raise MeldwiseError(_("{where}: {problem}", where="--buckets", problem=error)) from None
    return Config(
        seed=args.seed,
        per_bucket=per_bucket,
        buckets=tuple(_split(args.buckets)),
        modes=tuple(modes),
        time_limit=time_limit,
        repeat=args.repeat,
        peer=args.peer,
        peer_backend=args.peer_backend,
        profile=args.profile,
        positions=args.positions,
        score_only=args.score_only,
        score_beside=not args.default_only,
        reference=args.reference,
    )


def command_line(prog: str, config: Config, args: argparse.Namespace) -> str:
    """The command that repeats this run (seed and count always spelled out)."""
    words = ["--seed", str(config.seed), "--per-bucket", str(config.per_bucket)]
    if config.buckets:
        words += ["--buckets", ",".join(config.buckets)]
    if config.modes != tuple(Mode):
        words += ["--modes", ",".join(mode.value for mode in config.modes)]
    if config.time_limit != DEFAULT_TIME_LIMIT:
        words += ["--time-limit", f"{config.time_limit:g}"]
    if config.repeat != 1:
        words += ["--repeat", str(config.repeat)]
    if config.peer:
        words.append("--peer")
        if config.peer_backend != DEFAULT_BACKEND:
            words += ["--peer-backend", config.peer_backend]
    if config.profile:
        words.append("--profile")
    if config.score_only:
        words.append("--score-only")
    elif not config.score_beside:
        words.append("--default-only")
    if config.reference is not None and config.reference != REFERENCE_FILE:
        words += ["--reference", str(config.reference)]
    for flag, path in (
        ("--positions", config.positions),
        ("--json", args.json),
        ("--markdown", args.markdown),
    ):
        if path is not None:
            words += [flag, str(path)]
    return f"{prog} {shlex.join(words)}"


def _split(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


def run_bench(args: argparse.Namespace, stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    """Carry out ``bench``; return the exit code."""
    del stdin
    # Wide tables stay whole when the output goes to a file or a pipe.
    console = CommandConsole(file=stdout, width=None if stdout.isatty() else 200)
    try:
        config = config_from(args)
        # Said at once, not after the run: a bad --json path lost the whole run's figures.
        for flag, path in (("--json", args.json), ("--markdown", args.markdown)):
            if path is not None:
                ready_to_write(flag, path)
        if config.positions is not None and not config.positions.exists():
            ready_to_write("--positions", config.positions)
        bar = CommandConsole(file=stderr)
        # A bar only on a terminal, as tournament's: elsewhere (a log, a pipe) it drew
        # nothing but a blank line.
        with Progress(console=bar, transient=True, disable=not bar.is_terminal) as progress:
            results = run_suite(config, progress)
    except MeldwiseError:  # --positions unwritable: exit 2, said as every command says it
        raise
    except (ValueError, PeerUnavailable) as error:
        raise MeldwiseError(str(error)) from None
    report = build_report(results, command_line(args.prog, config, args), args.slowest)
    # The files first: a reader of the table that leaves (| head) ends the command.
    if args.json:
        write_file("--json", args.json, json.dumps(to_json(report), indent=1) + "\n")
    if args.markdown:
        write_file("--markdown", args.markdown, markdown(report))
    print_report(report, console)
    return EXIT_CHECK_FAILED if report.failures else 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = Parser(
        prog="python -m benchmarks",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_arguments(parser)
    parser.set_defaults(handler=run_bench, prog="python -m benchmarks")
    return dispatch(parser, argv)  # bad input exits 2 as for every command

"""Run the benchmark suite: deal the positions, time our solver (and the peer,
interleaved) on each in every mode, and optionally split our time into parts."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from rich.progress import Progress

from benchmarks.answers import Answer
from benchmarks.cases import (
    Bucket,
    Case,
    Mode,
    all_buckets,
    load_cases,
    save_cases,
    select,
)
from benchmarks.machine import load
from benchmarks.peer import DEFAULT_BACKEND, Peer
from benchmarks.profile import Split, profile_solve
from benchmarks.reference import REFERENCE_FILE, Reference, references_for
from benchmarks.speed import time_ours
from solver.rummikub import STANDARD, Position, Rules

DEFAULT_SEED = 2026
DEFAULT_PER_BUCKET = 10
QUICK_PER_BUCKET = 2
DEFAULT_TIME_LIMIT = 10.0
MAX_PER_BUCKET = 1000
"""Most positions per bucket (``--per-bucket``): 33,000 positions, all dealt before the
first solve, each solved in three modes (99,000 trials, about 90 MB of ``--json`` at
0.9 kB a trial, an hour or more at some 30 ms a trial); the README's figures use 20.
Unbounded, ``--per-bucket 99999999999999999999`` was taken and dealt for ever."""
MAX_REPEAT = 100
"""Most runs of each solve (``--repeat``), the fastest kept: 20 times the 5 that
docs/benchmarks.md advises with ``--peer`` (the README's figures use 2). Unbounded, a
run of ``--repeat 99999999999999999999`` solved its first position for ever."""

WARM_UP = Position.parse("R1 R2 R12 R13 J K9", "K5 K6 K7 | B9 O9 R9")
"""Solved once in every mode by each solver before timing starts (imports, caches)."""


@dataclass(frozen=True, slots=True)
class Config:
    seed: int = DEFAULT_SEED
    per_bucket: int = DEFAULT_PER_BUCKET
    buckets: tuple[str, ...] = ()
    """Shell patterns of the buckets to run; all when empty."""
    modes: tuple[Mode, ...] = tuple(Mode)
    time_limit: float = DEFAULT_TIME_LIMIT
    repeat: int = 1
    """Times each solve runs; the fastest counts (steadier on a shared machine)."""
    peer: bool = False
    peer_backend: str = DEFAULT_BACKEND
    profile: bool = False
    positions: Path | None = None
    """Read the positions from this file if it exists, else deal them and write it."""
    score_only: bool = False
    """Time the score stage alone (no least-disruption stage), as the peer answers."""
    score_beside: bool = True
    """Time the score stage alone too, beside the default solve (unless score_only)."""
    reference: Path | None = REFERENCE_FILE
    """Long-budget least disruption of the committed positions to check answers against."""


@dataclass(frozen=True, slots=True)
class Trial:
    """One position in one mode, solved by us and maybe by the peer."""

    case: Case
    mode: Mode
    ours: Answer
    """Our solve as configured: the default one, or the score stage alone."""
    peer: Answer | None = None
    score: Answer | None = None
    """Our score stage alone, beside the default solve."""


@dataclass
class Results:
    config: Config
    rules: Rules
    buckets: list[Bucket]
    positions_from: str
    peer_version: str | None = None
    load_before: str = ""
    trials: list[Trial] = field(default_factory=list)
    splits: list[tuple[Case, Mode, Split]] = field(default_factory=list)
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    """CPU time of this process: well under ``seconds`` when other work shared the cores."""
    references: dict[tuple[str, str], Reference] = field(default_factory=dict)
    """Long-budget least disruption by (position label, mode), when the file has them."""


def run_suite(config: Config, progress: Progress, rules: Rules = STANDARD) -> Results:
    """Run the suite as configured, reporting progress on ``progress``."""
    started, cpu_started, load_before = time.perf_counter(), time.process_time(), load()
    buckets = select(all_buckets(), config.buckets)
    peer = Peer(rules, config.peer_backend) if config.peer else None
    cases, source = obtain_cases(config, buckets, progress)
    results = Results(config, rules, buckets, source, peer.version if peer else None, load_before)
    if config.reference is not None and not config.score_only:
        results.references = references_for(cases, config.reference, config.seed)

    for mode in config.modes:
        time_ours(WARM_UP, mode, rules, config.time_limit, not config.score_only)
        if peer:
            peer.solve(WARM_UP, mode)
    task = progress.add_task("solving", total=len(cases) * len(config.modes))
    for number, case in enumerate(cases):
        for turn, mode in enumerate(config.modes):
            # Counted over the whole run, not by the case's index in its bucket: with an
            # odd count per bucket ours went first more often in every bucket (always,
            # in a mode, with one position per bucket).
            results.trials.append(run_trial(case, mode, rules, config, peer, number + turn))
            progress.advance(task)

    if config.profile:
        task = progress.add_task("profiling", total=len(cases) * len(config.modes))
        for case in cases:
            for mode in config.modes:
                split = profile_solve(
                    case.position, mode, rules, config.time_limit, not config.score_only
                )
                results.splits.append((case, mode, split))
                progress.advance(task)
    results.seconds = time.perf_counter() - started
    results.cpu_seconds = time.process_time() - cpu_started
    return results


def run_trial(
    case: Case, mode: Mode, rules: Rules, config: Config, peer: Peer | None, turn: int
) -> Trial:
    """Solve one position in one mode ``config.repeat`` times in a row with each
    solver (ours as configured, then, beside the default solve, our score stage
    alone) and keep each one's fastest; with the peer, it and ours take turns going
    first: ours when ``turn`` is even (the position's number in the run plus the
    mode's, so that each goes first on half of a mode's positions).

    In a row, so that each solver's fastest time is its own: when the two
    alternated run by run, every run started by refilling the caches the other
    had just used."""
    ours_first = turn % 2 == 0
    theirs: list[Answer] = []
    if peer is not None and not ours_first:
        theirs = [peer.solve(case.position, mode) for _ in range(config.repeat)]
    ours = [
        time_ours(case.position, mode, rules, config.time_limit, not config.score_only)
        for _ in range(config.repeat)
    ]
    score = []
    if config.score_beside and not config.score_only:
        score = [
            time_ours(case.position, mode, rules, config.time_limit, False)
            for _ in range(config.repeat)
        ]
    if peer is not None and ours_first:
        theirs = [peer.solve(case.position, mode) for _ in range(config.repeat)]
    return Trial(case, mode, min(ours, key=lambda a: a.ms), _fastest(theirs), _fastest(score))


def _fastest(answers: list[Answer]) -> Answer | None:
    return min(answers, key=lambda a: a.ms) if answers else None


def obtain_cases(
    config: Config, buckets: list[Bucket], progress: Progress
) -> tuple[list[Case], str]:
    """The positions and where they came from (dealt from the seed, or a file)."""
    path = config.positions
    if path is not None and path.exists():
        return load_cases(path, config.seed, buckets, config.per_bucket), f"read from {path}"
    task = progress.add_task("dealing positions", total=len(buckets))
    cases: list[Case] = []
    for bucket in buckets:
        cases += bucket.cases(config.seed, config.per_bucket)
        progress.advance(task)
    if path is None:
        return cases, f"dealt from seed {config.seed}"
    save_cases(path, config.seed, cases)
    return cases, f"dealt from seed {config.seed} and saved to {path}"

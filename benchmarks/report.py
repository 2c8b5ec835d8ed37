"""The figures of a run: built once as rows of numbers, then printed as rich
tables, written as JSON (``--json``) or as Markdown for RESULTS.md (``--markdown``)."""

from __future__ import annotations

import json
import statistics
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from rich.console import Console
from rich.table import Table

from benchmarks.answers import Answer, Calm
from benchmarks.cases import Mode
from benchmarks.compare import VALUE_MODE_REASON, Disagreement, compare
from benchmarks.machine import describe
from benchmarks.output import outputs_ready, table_console, write_output
from benchmarks.peer import MODE_NOTES
from benchmarks.profile import Split
from benchmarks.reference import MODES as REFERENCE_MODES
from benchmarks.stats import Summary, at_least
from benchmarks.suite import Config, Results, Trial
from solver.commands import Parser, whole_number
from solver.rummikub import JOKER

TARGET_MAX_MS = 250.0
TARGET_RATIO = 5.0
"""The targets of issue 4 (the score alone): every answer proven optimal, max <= 250
ms, median and p95 at least 5 times lower than the peer's."""
TARGET_DEFAULT_MEDIAN_RATIO = 3.0
TARGET_DEFAULT_P95_RATIO = 5.0
TARGET_PROVEN = 0.98
"""The targets of issue 14 (the default answer, least disruption on): the score
proven optimal, least disruption proven on 98% of the answers, never less calm than
the long-budget reference, max <= 250 ms, median at least 3 and p95 at least 5
times lower than the peer's."""

Row = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Column:
    """A column of a printed table: its header and how a row shows in it."""

    header: str
    show: Callable[[Row], str]
    numeric: bool = True


def text(key: str, header: str) -> Column:
    return Column(header, lambda row: str(row[key]), numeric=False)


def count(key: str, header: str) -> Column:
    return Column(header, lambda row: str(row[key]))


def ms(key: str, header: str) -> Column:
    return Column(header, lambda row: f"{row[key]:.1f}")


def share(key: str, header: str) -> Column:
    return Column(header, lambda row: f"{row[key]:.1%}")


def ratio(key: str, header: str) -> Column:
    return Column(header, lambda row: f"{row[key]:.2f}x")


@dataclass(frozen=True, slots=True)
class Section:
    key: str
    """Its name in the JSON output."""
    title: str
    columns: tuple[Column, ...]
    rows: list[Row]
    notes: tuple[str, ...] = ()
    block: str | None = None
    """A column whose change of value starts a new block of rows."""
    all_rows: list[Row] | None = None
    """What the JSON gets when the printed rows leave some out."""


@dataclass
class Report:
    meta: dict[str, Any]
    sections: list[Section] = field(default_factory=list)
    solves: list[Row] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    """What the run checked and found wrong (see :func:`failures`): none, or the run
    fails (exit 1)."""
    checked: str = ""
    """What the run checked, said when every check held."""


def build_report(results: Results, command: str, slowest: int = 10) -> Report:
    config = results.config
    meta = {
        "command": command,
        "machine": describe(results.peer_version is not None),
        "seed": config.seed,
        "per_bucket": config.per_bucket,
        "modes": [mode.value for mode in config.modes],
        "time_limit_s": config.time_limit,
        "repeat": config.repeat,
        "cp_sat_workers": 1,
        "stages": _stages(config),
        "positions": results.positions_from,
        "positions_total": len({trial.case.label for trial in results.trials}),
        "seconds": round(results.seconds, 1),
        "cpu_seconds": round(results.cpu_seconds, 1),
        "load_before": results.load_before,
        "buckets": {b.name: b.about for b in results.buckets},
    }
    if results.peer_version is not None:
        meta["peer"] = {
            "package": f"rummikub-solver {results.peer_version}",
            "backend": config.peer_backend,
            "modes": {mode.value: " - ".join(MODE_NOTES[mode]) for mode in config.modes},
        }
    report = Report(meta)
    report.sections.append(ours_section(results.trials))
    report.sections.append(overall_section(results))
    if not config.score_only:
        report.sections.append(calm_section(results))
    report.sections.append(jokers_section(results))
    disagreements: list[Disagreement] = []
    if results.peer_version is not None:
        disagreements = [
            found
            for trial in results.trials
            if trial.peer is not None
            and (found := compare(trial.case, trial.mode, trial.ours, trial.peer, results.rules))
        ]
        report.sections.append(peer_section(results.trials, disagreements))
        report.sections.append(peer_overall_section(results, disagreements))
        report.sections.append(disagreement_section(disagreements, results))
    if not config.score_only:
        report.sections.append(default_targets_section(results))
    if config.score_only or any(t.score for t in results.trials):
        report.sections.append(targets_section(results))
    if slowest:
        report.sections.append(slowest_section(results.trials, slowest))
    if results.splits:
        report.sections.append(profile_section(results))
    report.solves = [solve_record(trial, results) for trial in results.trials]
    report.failures = failures(results, disagreements)
    report.checked = _checked(results)
    return report


def _checked(results: Results) -> str:
    answers = sum(a is not None for t in results.trials for a in (t.ours, t.score))
    checks = [
        f"all {answers} answers legal, their scores proven optimal"
        if answers != 1
        else "the 1 answer legal, its score proven optimal"
    ]
    if compared := _calm_row(results.trials, results)["compared"]:
        checks.append(f"none of {compared} less calm than the reference")
    if results.peer_version is not None:
        checks.append("none beaten by the peer")
    return ", ".join(checks)


def failures(results: Results, disagreements: Sequence[Disagreement]) -> list[str]:
    """What the run checked and found wrong, a line each: answers of ours (the default
    solve or the score alone) that the legality checker rejects or whose score is not
    proven optimal, default answers less calm than the long-budget reference, and with
    the peer, answers of ours that a legal play of the peer beats. The speed targets
    (max, the ratios to the peer) and the share of least disruption proven are not
    checks: missed, they are reported only."""
    answers = [a for t in results.trials for a in (t.ours, t.score) if a is not None]
    found = []
    if illegal := sum(not a.legal for a in answers):
        found.append(f"{illegal} answer(s) the legality checker rejects")
    if unproven := sum(a.status != "optimal" for a in answers):
        found.append(f"{unproven} answer(s) whose score is not proven optimal")
    if worse := _calm_row(results.trials, results)["worse"]:
        found.append(f"{worse} default answer(s) less calm than the long-budget reference")
    if short := sum(d.verdict == "OURS SHORT" for d in disagreements):
        found.append(f"{short} answer(s) beaten by a legal play of the peer")
    return found


def _stages(config: Config) -> str:
    if config.score_only:
        return "score only"
    stages = "the default: score, then least disruption"
    return stages + ("; beside it the score alone" if config.score_beside else "")


def _group(trials: Iterable[Trial], key: Callable[[Trial], Any]) -> dict[Any, list[Trial]]:
    groups: dict[Any, list[Trial]] = {}
    for trial in trials:
        groups.setdefault(key(trial), []).append(trial)
    return groups


def _families(results: Results) -> dict[str, str]:
    return {bucket.name: bucket.family for bucket in results.buckets}


def _scopes(results: Results) -> dict[str, list[Trial]]:
    """Trials by family of buckets, then all together."""
    family = _families(results)
    scopes = _group(results.trials, lambda t: family[t.case.bucket])
    scopes["all"] = results.trials
    return scopes


def _times(trials: Sequence[Trial], who: Callable[[Trial], Any]) -> Summary:
    return Summary.of([who(trial).ms for trial in trials])


def _timing_row(trials: Sequence[Trial]) -> Row:
    summary = _times(trials, lambda t: t.ours)
    row: Row = {
        "n": summary.count,
        "median_ms": summary.median,
        "p95_ms": summary.p95,
        "p99_ms": summary.p99,
        "max_ms": summary.max,
        "optimal": sum(t.ours.status == "optimal" for t in trials) / len(trials),
        "illegal": sum(not t.ours.legal for t in trials),
    }
    calm = [(t, t.ours.calm) for t in trials if t.ours.calm is not None]
    if calm:
        row["proven"] = _calm_proven(calm)
    if all(t.score is not None for t in trials):
        score = _times(trials, lambda t: t.score)
        row |= {"score_median_ms": score.median, "score_p95_ms": score.p95}
        row["score_illegal"] = sum(t.score is not None and not t.score.legal for t in trials)
    return row


TIMING_COLUMNS = (
    count("n", "n"),
    ms("median_ms", "median"),
    ms("p95_ms", "p95"),
    ms("p99_ms", "p99"),
    ms("max_ms", "max"),
    share("optimal", "optimal"),
    count("illegal", "illegal"),
)
CALM_COLUMNS = (share("proven", "calm proven"),)
SCORE_COLUMNS = (ms("score_median_ms", "score med"), ms("score_p95_ms", "score p95"))
TIMING_NOTES = (
    "optimal: share proven optimal (the score); illegal: answers the legality checker "
    "rejects; calm proven: share whose least disruption is proven; score med/p95: the "
    "score stage alone on the same positions, timed beside the default solve",
)


def _timing_columns(rows: Sequence[Row]) -> tuple[Column, ...]:
    """The timing columns, then the calm and score-alone ones when every row has them."""
    columns: tuple[Column, ...] = TIMING_COLUMNS
    if rows and all("proven" in row for row in rows):
        columns += CALM_COLUMNS
    if rows and all("score_median_ms" in row for row in rows):
        columns += SCORE_COLUMNS
    return columns


def ours_section(trials: Sequence[Trial]) -> Section:
    groups = _group(trials, lambda t: (t.case.bucket, t.mode))
    rows = [
        {"bucket": bucket, "mode": mode.value, **_timing_row(group)}
        for (bucket, mode), group in groups.items()
    ]
    return Section(
        "ours",
        "Meldwise solve time per bucket (ms, 1 CP-SAT worker)",
        (text("bucket", "bucket"), text("mode", "mode"), *_timing_columns(rows)),
        rows,
        TIMING_NOTES,
        block="bucket",
    )


def overall_section(results: Results) -> Section:
    rows = []
    for scope, trials in _scopes(results).items():
        for mode, group in _group(trials, lambda t: t.mode).items():
            rows.append({"scope": scope, "mode": mode.value, **_timing_row(group)})
    return Section(
        "ours_overall",
        "Meldwise solve time by family of buckets (ms)",
        (text("scope", "buckets"), text("mode", "mode"), *_timing_columns(rows)),
        rows,
        TIMING_NOTES,
        block="scope",
    )


def calm_section(results: Results) -> Section:
    """How calm the default answers are: least disruption proven, and never less calm
    than the long-budget reference (after opening; before it the table is untouched)."""
    rows = []
    for scope, trials in _scopes(results).items():
        for mode, group in _group(trials, lambda t: t.mode).items():
            if mode is Mode.OPENING:
                continue
            rows.append({"scope": scope, "mode": mode.value, **_calm_row(group, results)})
    return Section(
        "calm",
        "Least disruption of the default answers (after opening)",
        (
            text("scope", "buckets"),
            text("mode", "mode"),
            count("n", "n"),
            share("proven", "proven"),
            count("capped", "time capped"),
            count("compared", "with reference"),
            count("worse", "worse than ref"),
            count("better", "better than ref"),
        ),
        rows,
        (
            "proven: no play as good keeps more sets whole, or as many and moves fewer tiles; "
            "time capped: a wall-clock limit stopped a search; reference: the long-budget run "
            "committed in benchmarks/reference-2026.json (python -m benchmarks.reference); "
            "worse: fewer sets kept, or as many and more tiles moved",
        ),
        block="scope",
    )


def _calm_row(trials: Sequence[Trial], results: Results) -> Row:
    calm = [(t, t.ours.calm) for t in trials if t.ours.calm is not None]
    compared = worse = better = 0
    for trial, answer in calm:
        reference = results.references.get((trial.case.label, trial.mode.value))
        if reference is None or trial.ours.status != "optimal":
            continue  # calmness is compared between plays of the best score only
        compared += 1
        worse += reference.worse(answer.sets_kept, answer.tiles_moved)
        better += (answer.sets_kept, -answer.tiles_moved) > (
            reference.sets_kept,
            -reference.tiles_moved,
        )
    return {
        "n": len(calm),
        "proven": _calm_proven(calm) if calm else 1.0,
        "capped": sum(a.time_capped for _, a in calm),
        "compared": compared,
        "worse": worse,
        "better": better,
    }


def jokers_section(results: Results) -> Section:
    """All positions again, by how many jokers the play may place."""
    peer = results.peer_version is not None
    rows = []
    for jokers, trials in sorted(_group(results.trials, _jokers_in_play).items()):
        for mode, group in _group(trials, lambda t: t.mode).items():
            row: Row = {"jokers": jokers, "mode": mode.value, **_timing_row(group)}
            if peer:
                theirs = _times(group, lambda t: t.peer)
                row |= {"peer_median_ms": theirs.median, "peer_p95_ms": theirs.p95}
            rows.append(row)
    peer_columns = (ms("peer_median_ms", "peer med"), ms("peer_p95_ms", "peer p95"))
    return Section(
        "by_jokers",
        "Solve time by jokers in play: the rack's, and the table's after opening (ms)",
        (
            count("jokers", "jokers"),
            text("mode", "mode"),
            *TIMING_COLUMNS[:5],
            *(peer_columns if peer else ()),
        ),
        rows,
        block="jokers",
    )


def _jokers_in_play(trial: Trial) -> int:
    """Jokers the play may place: the rack's, and after opening the table's too."""
    position = trial.case.position
    on_table = sum(t.is_joker for tiles in position.table for t in tiles)
    return position.rack.count(JOKER) + (0 if trial.mode is Mode.OPENING else on_table)


def _peer_row(
    trials: Sequence[Trial],
    disagreements: Sequence[Disagreement],
    who: Callable[[Trial], Answer | None] = lambda t: t.ours,
) -> Row:
    """Ours (``who``: the answer as configured, or the score alone) beside the peer."""
    ours = _times(trials, who)
    theirs = _times(trials, lambda t: t.peer)
    ratios = [t.peer.ms / answer.ms for t in trials if t.peer and (answer := who(t))]
    keys = {(t.case.label, t.mode) for t in trials}
    mine = [d for d in disagreements if (d.case.label, d.mode) in keys]
    row: Row = {
        "n": ours.count,
        "ours_median_ms": ours.median,
        "ours_p95_ms": ours.p95,
        "peer_median_ms": theirs.median,
        "peer_p95_ms": theirs.p95,
        "ratio_median": statistics.median(ratios),
        "ratio_of_medians": theirs.median / ours.median,
        "ratio_of_p95": theirs.p95 / ours.p95,
        "peer_short": sum(d.verdict == "peer short" for d in mine),
        "peer_illegal": sum(d.verdict == "peer illegal" for d in mine),
        "ours_short": sum(d.verdict == "OURS SHORT" for d in mine),
    }
    if who(trials[0]) is trials[0].ours and all(t.score is not None for t in trials):
        score = _times(trials, lambda t: t.score)
        row |= {
            "score_median_ms": score.median,
            "score_p95_ms": score.p95,
            "score_ratio_of_medians": theirs.median / score.median,
            "score_ratio_of_p95": theirs.p95 / score.p95,
        }
    return row


PEER_COLUMNS = (
    count("n", "n"),
    ms("ours_median_ms", "ours med"),
    ms("ours_p95_ms", "ours p95"),
    ms("peer_median_ms", "peer med"),
    ms("peer_p95_ms", "peer p95"),
    ratio("ratio_median", "peer/ours"),
    count("peer_short", "peer short"),
    count("peer_illegal", "peer illegal"),
    count("ours_short", "ours short"),
)
PEER_NOTE = (
    "peer/ours: median over positions of the peer's time divided by ours (above 1: ours faster)"
)


def peer_section(trials: Sequence[Trial], disagreements: Sequence[Disagreement]) -> Section:
    groups = _group(trials, lambda t: (t.case.bucket, t.mode))
    rows = [
        {"bucket": bucket, "mode": mode.value, **_peer_row(group, disagreements)}
        for (bucket, mode), group in groups.items()
    ]
    return Section(
        "peer",
        "Side by side with rummikub-solver, same positions, interleaved (ms)",
        (text("bucket", "bucket"), text("mode", "mode"), *PEER_COLUMNS, *_score_columns(rows)),
        rows,
        (PEER_NOTE, *_score_notes(rows)),
        block="bucket",
    )


def _score_columns(rows: Sequence[Row]) -> tuple[Column, ...]:
    """Our score alone beside the peer, when every row has it."""
    if not rows or not all("score_median_ms" in row for row in rows):
        return ()
    return (
        ms("score_median_ms", "score med"),
        ms("score_p95_ms", "score p95"),
        ratio("score_ratio_of_medians", "peer/score med"),
        ratio("score_ratio_of_p95", "peer/score p95"),
    )


def _score_notes(rows: Sequence[Row]) -> tuple[str, ...]:
    if not _score_columns(rows):
        return ()
    return (
        "ours: the default answer (least disruption on); score: our score stage alone, "
        "which is what the peer answers; peer/score: the peer's median (p95) over it",
    )


def peer_overall_section(results: Results, disagreements: Sequence[Disagreement]) -> Section:
    rows = []
    for scope, trials in _scopes(results).items():
        for mode, group in _group(trials, lambda t: t.mode).items():
            rows.append(
                {
                    "scope": scope,
                    "mode": mode.value,
                    "comparable": MODE_NOTES[mode][0],
                    **_peer_row(group, disagreements),
                }
            )
    notes = tuple(f"{mode.value}: {' - '.join(MODE_NOTES[mode])}" for mode in results.config.modes)
    return Section(
        "peer_overall",
        "Side by side with rummikub-solver by family of buckets (ms)",
        (
            text("scope", "buckets"),
            text("mode", "mode"),
            text("comparable", "comparable"),
            *PEER_COLUMNS[:6],
            ratio("ratio_of_medians", "med/med"),
            ratio("ratio_of_p95", "p95/p95"),
            *PEER_COLUMNS[6:],
            *_score_columns(rows),
        ),
        rows,
        (
            PEER_NOTE,
            "med/med, p95/p95: the peer's median (p95) over ours",
            *_score_notes(rows),
            *notes,
        ),
        block="scope",
    )


def disagreement_section(disagreements: Sequence[Disagreement], results: Results) -> Section:
    """Every disagreement, but in print not those of the peer's value mode that its
    objective explains (it is short on most points positions)."""
    rules = results.rules
    every = [
        {
            "position": d.case.label,
            "mode": d.mode.value,
            "ours_tiles": d.ours.tiles,
            "ours_points": d.ours.points(rules),
            "peer_tiles": d.peer.tiles,
            "peer_points": d.peer.points(rules),
            "verdict": d.verdict,
            "why": d.why,
            **d.case.notation(),
        }
        for d in disagreements
    ]
    rows = [row for row in every if not _explained_by_value_mode(row)]
    left_out = len(every) - len(rows)
    return Section(
        "disagreements",
        f"Positions where rummikub-solver and Meldwise disagree ({len(every)})",
        (
            text("position", "position"),
            text("mode", "mode"),
            count("ours_tiles", "ours tiles"),
            count("ours_points", "ours pts"),
            count("peer_tiles", "peer tiles"),
            count("peer_points", "peer pts"),
            text("verdict", "verdict"),
            text("why", "why"),
        ),
        rows,
        (
            "both plays are judged by solver.rummikub.legality.check_play; points as our "
            "rules count them (a joker 30); the objective compared is tiles (tiles, "
            "opening) or points (points)",
            f"not listed: {left_out} points-mode positions where the peer is short, "
            "explained by its value objective (all are in the JSON output)",
        ),
        all_rows=every,
    )


def _calm_proven(calm: Sequence[tuple[Trial, Calm]]) -> float:
    """The share of answers whose least disruption is proven. It is proven of a best
    play: an answer whose score is not proven (one that found nothing plays nothing,
    and "disturbs" nothing) is not."""
    return sum(a.proven and t.ours.status == "optimal" for t, a in calm) / len(calm)


def _explained_by_value_mode(row: Row) -> bool:
    return bool(
        row["mode"] == Mode.POINTS.value
        and row["verdict"] == "peer short"
        and VALUE_MODE_REASON in row["why"]
    )


def targets_section(results: Results) -> Section:
    """Issue 4: the score alone (the timing beside the default one, or a --score-only run)."""
    alone: Callable[[Trial], Answer | None] = (
        (lambda t: t.ours) if results.config.score_only else (lambda t: t.score)
    )
    rows = []
    for mode, trials in _group(results.trials, lambda t: t.mode).items():
        times = _times(trials, alone)
        row: Row = {
            "mode": mode.value,
            "optimal": sum(_status(alone(t)) == "optimal" for t in trials) / len(trials),
            "max_ms": times.max,
        }
        missed = []
        if row["optimal"] < 1:
            missed.append("optimal")
        if row["max_ms"] > TARGET_MAX_MS:
            missed.append("max")
        if results.peer_version is not None:
            row |= _peer_row(trials, [], alone)
            missed += _ratios_missed(row, mode, TARGET_RATIO, TARGET_RATIO)
        row["missed"] = _missed(missed, results, mode)
        rows.append(row)
    columns = [text("mode", "mode"), share("optimal", "optimal"), ms("max_ms", "max ms")]
    if results.peer_version is not None:
        columns += [*RATIO_COLUMNS, ratio("ratio_median", "per-position ratio")]
    columns.append(text("missed", "targets missed"))
    return Section(
        "targets",
        "Issue 4 targets over all positions: the score alone",
        tuple(columns),
        rows,
        (
            f"targets: 100% proven optimal; max <= {TARGET_MAX_MS:.0f} ms; the peer's median "
            f"and p95 at least {TARGET_RATIO:.0f}x ours (per-position ratio: the median of "
            "peer/ours over the positions, for reference)",
        ),
    )


RATIO_COLUMNS = (
    ratio("ratio_of_medians", "peer/ours median"),
    ratio("ratio_of_p95", "peer/ours p95"),
)


def _missed(missed: list[str], results: Results, mode: Mode) -> str:
    """The targets missed, and that the peer's were not checked when it did not run or
    answers another question in ``mode``."""
    said = ", ".join(missed) or "none"
    if results.peer_version is None:
        return f"{said} (peer ratios not run: --peer)"
    if not _comparable(mode):
        return f"{said} (peer ratios not judged: not comparable in this mode)"
    return said


def _comparable(mode: Mode) -> bool:
    return MODE_NOTES[mode][0] == "comparable"


def _ratios_missed(row: Row, mode: Mode, median: float, p95: float) -> list[str]:
    """The ratio targets (the peer's median and p95 over ours) a row misses; none where
    the peer answers another question (its points mode plays the most tiles)."""
    if not _comparable(mode):
        return []
    targets = (("median", "ratio_of_medians", median), ("p95", "ratio_of_p95", p95))
    return [name for name, key, target in targets if row[key] < target]


def _status(answer: Answer | None) -> str:
    return answer.status if answer is not None else "missing"


def default_targets_section(results: Results) -> Section:
    """Issue 14: the default answer (least disruption on)."""
    rows = []
    for mode, trials in _group(results.trials, lambda t: t.mode).items():
        row: Row = {"mode": mode.value, **_timing_row(trials), **_calm_row(trials, results)}
        missed = []
        if row["optimal"] < 1:
            missed.append("optimal")
        if row["proven"] < TARGET_PROVEN:
            missed.append("calm proven")
        if row["worse"]:
            missed.append("reference")
        elif not row["compared"] and mode in REFERENCE_MODES:
            # Only answers of a proven best score are compared: when none is, the
            # references exist all the same (a short --time-limit).
            referenced = any((t.case.label, mode.value) in results.references for t in trials)
            why = (
                "no answer with a reference has its best score proven"
                if referenced
                else "no reference for these positions"
            )
            missed.append(f"reference (not compared: {why})")
        if row["max_ms"] > TARGET_MAX_MS:
            missed.append("max")
        if results.peer_version is not None:
            row |= _peer_row(trials, [])
            missed += _ratios_missed(
                row, mode, TARGET_DEFAULT_MEDIAN_RATIO, TARGET_DEFAULT_P95_RATIO
            )
        row["missed"] = _missed(missed, results, mode)
        rows.append(row)
    columns = [
        text("mode", "mode"),
        share("optimal", "optimal"),
        share("proven", "calm proven"),
        count("worse", "worse than ref"),
        ms("max_ms", "max ms"),
    ]
    if results.peer_version is not None:
        columns += RATIO_COLUMNS
    columns.append(text("missed", "targets missed"))
    return Section(
        "default_targets",
        "Issue 14 targets over all positions: the default answer",
        tuple(columns),
        rows,
        (
            f"targets: the score 100% proven optimal; least disruption proven on at least "
            f"{TARGET_PROVEN:.0%} (after opening); never less calm than the reference; max <= "
            f"{TARGET_MAX_MS:.0f} ms; the peer's (score only) median at least "
            f"{TARGET_DEFAULT_MEDIAN_RATIO:.0f}x ours and its p95 at least "
            f"{TARGET_DEFAULT_P95_RATIO:.0f}x ours",
        ),
    )


def slowest_section(trials: Sequence[Trial], limit: int) -> Section:
    ranked = sorted(trials, key=lambda t: t.ours.ms, reverse=True)[:limit]
    rows = [
        {
            "position": t.case.label,
            "mode": t.mode.value,
            "ms": t.ours.ms,
            "status": t.ours.status,
            "tiles": t.ours.tiles,
            **t.case.notation(),
        }
        for t in ranked
    ]
    return Section(
        "slowest",
        f"Slowest {len(rows)} solves of ours",
        (
            text("position", "position"),
            text("mode", "mode"),
            ms("ms", "ms"),
            text("status", "status"),
            count("tiles", "tiles played"),
        ),
        rows,
        ("rack and table of each are in the JSON output (--json), under 'slowest'",),
    )


PARTS = ("build", "presolve", "search", "layout", "other")


def _split_row(splits: Sequence[Split]) -> Row:
    total = sum(s.total for s in splits)
    row: Row = {"n": len(splits), "total_median_ms": statistics.median(s.total for s in splits)}
    for part in PARTS:
        values = [getattr(s, part) for s in splits]
        row[f"{part}_median_ms"] = statistics.median(values)
        row[f"{part}_share"] = sum(values) / total if total else 0.0
    return row


def _part(part: str) -> Column:
    return Column(part, lambda row: f"{row[part + '_median_ms']:.1f} ({row[part + '_share']:.0%})")


def profile_section(results: Results) -> Section:
    family = _families(results)
    by_bucket: dict[str, list[Split]] = {}
    by_family: dict[str, list[Split]] = {}
    for case, _mode, split in results.splits:
        by_bucket.setdefault(case.bucket, []).append(split)
        by_family.setdefault(family[case.bucket], []).append(split)
    scopes = {**by_bucket, **{f"all {name}": s for name, s in by_family.items()}}
    scopes["all"] = [split for _, _, split in results.splits]
    rows = [{"scope": scope, **_split_row(splits)} for scope, splits in scopes.items()]
    return Section(
        "profile",
        "Where our time goes (median ms per solve, and share of the summed time)",
        (
            text("scope", "buckets"),
            count("n", "n"),
            ms("total_median_ms", "total"),
            *(_part(part) for part in PARTS),
        ),
        rows,
        (
            "build: build_model (Python); presolve: CP-SAT presolve (timed by a second "
            "solve with stop_after_presolve); search: the rest of CP-SAT; layout: lay_out; "
            "other: checking the position and assembling the play",
        ),
    )


def solve_record(trial: Trial, results: Results) -> Row:
    def answer(a: Answer) -> Row:
        return {
            "ms": round(a.ms, 3),
            "status": a.status,
            "tiles": a.tiles,
            "points": a.points(results.rules),
            "problems": list(a.problems),
        }

    record: Row = {
        "bucket": trial.case.bucket,
        "index": trial.case.index,
        "mode": trial.mode.value,
        **trial.case.notation(),
        "ours": answer(trial.ours),
    }
    if trial.ours.calm is not None:
        record["ours"]["calm"] = asdict(trial.ours.calm)
    if trial.score is not None:
        record["score"] = answer(trial.score)
    if trial.peer is not None:
        record["peer"] = answer(trial.peer)
    return record


def to_json(report: Report) -> dict[str, Any]:
    sections = {
        section.key: section.rows if section.all_rows is None else section.all_rows
        for section in report.sections
    }
    return {"meta": report.meta, **sections, "failures": report.failures, "solves": report.solves}


def header_lines(report: Report) -> list[str]:
    meta = report.meta
    machine = meta["machine"]
    lines = [
        f"command: {meta['command']}",
        f"machine: {machine['cpu']}, {machine['cores']} cores, {machine['os']}",
        f"load average (1/5/15 min): {meta['load_before']} before, {machine['load']} after; "
        f"took {meta['seconds']:.1f} s, {meta['cpu_seconds']:.1f} s of it on this process's "
        "CPU (the rest: other work on the cores)",
        "software: "
        + ", ".join(
            f"{name} {version}"
            for name, version in machine.items()
            if name not in ("cpu", "cores", "os", "load")
        ),
        f"positions: {meta['positions_total']} ({meta['positions']}), {meta['per_bucket']} per "
        f"bucket; modes {', '.join(meta['modes'])}; time limit {meta['time_limit_s']:g} s per "
        f"solve; 1 CP-SAT worker; each time the fastest of {meta['repeat']} run(s)",
        f"solver stages timed: {meta['stages']}",
    ]
    if "peer" in meta:
        lines.append(f"peer: {meta['peer']['package']}, backend {meta['peer']['backend']}")
    return lines


def print_report(report: Report, console: Console) -> None:
    for line in header_lines(report):
        console.print(line, highlight=False, markup=False)
    for section in report.sections:
        table = Table(title=section.title, caption="\n".join(section.notes) or None)
        for column in section.columns:
            table.add_column(column.header, justify="right" if column.numeric else "left")
        previous = None
        for i, row in enumerate(section.rows):
            if section.block and i and row[section.block] != previous:
                table.rows[-1].end_section = True
            previous = row[section.block] if section.block else None
            table.add_row(*(column.show(row) for column in section.columns))
        console.print(table)
    for line in check_lines(report):
        console.print(line, highlight=False, markup=False)


def check_lines(report: Report) -> list[str]:
    """What the checks found: that every one held, or each that failed."""
    if not report.failures:
        return [f"checks passed: {report.checked}"]
    return ["CHECKS FAILED:", *(f"  {failure}" for failure in report.failures)]


def markdown(report: Report) -> str:
    """The report as Markdown (RESULTS.md): the header, then each section as a table."""
    out = [
        "# Benchmark results",
        "",
        "Written by the benchmark runner (`--markdown`); run the command below again to",
        "refresh it. Bucket meanings are in docs/benchmarks.md.",
        "",
        *(f"- {line}" for line in header_lines(report)),
    ]
    for section in report.sections:
        out += ["", f"### {section.title}", ""]
        out.append("| " + " | ".join(c.header for c in section.columns) + " |")
        out.append("|" + "|".join("---" for _ in section.columns) + "|")
        for row in section.rows:
            cells = (c.show(row).replace("|", "\\|") for c in section.columns)
            out.append("| " + " | ".join(cells) + " |")
        out += [""] + [f"{note}." if not note.endswith(".") else note for note in section.notes]
    out += ["", *check_lines(report)]
    return "\n".join(out) + "\n"


def seeded_table_main(
    argv: Sequence[str] | None,
    prog: str,
    description: str | None,
    per_bucket: tuple[int, str],
    run: Callable[[int, int], Sequence[Any]],
    print_rows: Callable[[Sequence[Any], Console], None],
) -> int:
    """The command line of a benchmark that deals ``--per-bucket`` cases per bucket
    from ``--seed``, prints the rows of ``run(seed, per_bucket)`` and may write them
    (dataclasses) as JSON; ``per_bucket`` is its default and what it counts."""
    default, counted = per_bucket
    parser = Parser(prog=prog, description=description)
    parser.add_argument("--seed", type=whole_number, default=2026)
    parser.add_argument(
        "--per-bucket", type=at_least(1), default=default, help=f"{counted} per bucket"
    )
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    args = parser.parse_args(argv)
    outputs_ready(parser, ("--json", args.json))
    rows = run(args.seed, args.per_bucket)
    print_rows(rows, table_console())
    if args.json:
        write_output("--json", args.json, json.dumps([asdict(row) for row in rows], indent=2))
    return 0

"""The benchmark suite: its positions, its runner and its report (no timing assertions)."""

from __future__ import annotations

import argparse
import importlib
import json
import re
import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any, cast

import pytest
from rich.progress import Progress

from benchmarks import ab
from benchmarks.cases import (
    Case,
    Mode,
    all_buckets,
    grid_buckets,
    hard_buckets,
    load_cases,
    mid_game_buckets,
    save_cases,
    select,
)
from benchmarks.cli import main as bench_main
from benchmarks.compare import compare
from benchmarks.profile import profile_solve
from benchmarks.reference import POSITIONS_FILE, REFERENCE_FILE, references_for
from benchmarks.report import build_report
from benchmarks.stats import percentile
from benchmarks.suite import WARM_UP, Config, run_suite
from meldwise.cli import main
from solver.rummikub import JOKER, STANDARD, Position, Tile
from solver.rummikub.legality import check_play
from solver.rummikub.melds import MeldKind, readings

SAMPLE = ("t10-r6", "hard-jokers-edges", "selfplay")


def test_quick_sample_writes_the_documented_json(tmp_path: Path) -> None:
    out = tmp_path / "bench.json"
    args = ["bench", "--quick", "--per-bucket", "1", "--buckets", ",".join(SAMPLE)]
    assert main([*args, "--json", str(out)]) == 0
    report = json.loads(out.read_text())

    assert {"command", "machine", "seed", "positions"} <= report["meta"].keys()
    assert {"cpu", "cores", "python", "ortools"} <= report["meta"]["machine"].keys()
    assert "--seed 2026 --per-bucket 1" in report["meta"]["command"]
    rows = report["ours"]
    assert [(r["bucket"], r["mode"]) for r in rows] == [
        (bucket, mode.value) for bucket in SAMPLE for mode in Mode
    ]
    for row in rows:
        assert row["n"] == (3 if row["bucket"] == "selfplay" else 1)
        assert row["median_ms"] <= row["p95_ms"] <= row["p99_ms"] <= row["max_ms"]
        assert 0 <= row["optimal"] <= 1
    assert {r["scope"] for r in report["ours_overall"]} == {"random", "hard", "selfplay", "all"}
    assert len(report["solves"]) == 5 * len(Mode)
    for solve in report["solves"]:
        assert solve["ours"]["problems"] == []
        Position.parse(solve["rack"], solve["table"]).check(STANDARD)


def test_every_answer_of_the_quick_sample_is_legal() -> None:
    config = Config(per_bucket=1, buckets=SAMPLE, repeat=2)
    results = run_suite(config, Progress(disable=True))
    assert len(results.trials) == 5 * len(Mode)
    for trial in results.trials:
        asked = trial.mode.position(trial.case.position)
        answer = trial.ours
        verdict = check_play(asked.rack, asked.table, answer.table_after, asked.opened, STANDARD)
        assert verdict.legal, (trial.case.label, trial.mode, verdict.problems)
        assert Counter(verdict.played) == Counter(answer.played)
        assert not Counter(answer.played) - Counter(asked.rack)


def test_positions_are_reproducible_from_the_seed() -> None:
    bucket = select(all_buckets(), ["t40-r14"])[0]
    first = bucket.cases(7, 3)
    assert first == bucket.cases(7, 3)
    assert first[:2] == bucket.cases(7, 2)
    assert [c.position for c in first] != [c.position for c in bucket.cases(8, 3)]


def test_buckets_deal_what_their_names_say() -> None:
    for bucket in grid_buckets():
        table, rack = (int(part[1:]) for part in bucket.name.split("-"))
        for case in bucket.cases(1, 3):
            case.position.check(STANDARD)
            on_table = sum(map(len, case.position.table))
            assert on_table >= table
            # The rack is as big as asked unless the table left too few tiles (t80-r30).
            assert len(case.position.rack) == rack or on_table + len(case.position.rack) >= 104
    hard = {bucket.name: bucket.cases(1, 5) for bucket in hard_buckets()}
    for name, cases in hard.items():
        for case in cases:
            case.position.check(STANDARD)
            table_jokers = sum(t.is_joker for tiles in case.position.table for t in tiles)
            rack_jokers = case.position.rack.count(Tile.parse("J"))
            if name == "hard-rack30-40":
                assert 30 <= len(case.position.rack) <= 40
            if name == "hard-jokers-table":
                assert table_jokers == 2
            if name == "hard-jokers-rack":
                assert rack_jokers == 2
            if name == "hard-jokers-edges":
                assert table_jokers >= 1
                for tiles in case.position.table:
                    if any(t.is_joker for t in tiles):
                        assert _joker_at_an_edge(tiles)


def _joker_at_an_edge(tiles: tuple[Tile, ...]) -> bool:
    """Every reading puts a joker first or last in a run over 3 tiles, or in a group of 4."""
    for meld in readings(tiles, STANDARD):
        if meld.kind is MeldKind.GROUP:
            if len(tiles) != 4:
                return False
        elif len(tiles) < 4 or not (meld.tiles[0].is_joker or meld.tiles[-1].is_joker):
            return False
    return True


def test_selfplay_positions_are_positions_of_a_game() -> None:
    cases = select(all_buckets(), ["selfplay"])[0].cases(3, 4)
    assert len(cases) == 12
    for case in cases:
        case.position.check(STANDARD)
        assert sum(len(s) for s in case.position.table) + len(case.position.rack) <= 106
    assert any(c.position.opened and c.position.table for c in cases)
    assert any(not c.position.opened for c in cases)


def test_positions_file_round_trips_and_refuses_other_seeds(tmp_path: Path) -> None:
    buckets = select(all_buckets(), ["t0-r6", "hard-jokers-rack"])
    cases = [case for bucket in buckets for case in bucket.cases(5, 2)]
    path = tmp_path / "positions.json"
    save_cases(path, 5, cases)
    assert load_cases(path, 5, buckets, 2) == cases
    assert load_cases(path, 5, buckets, 1) == [c for c in cases if c.index == 0]
    with pytest.raises(ValueError, match="seed 5"):
        load_cases(path, 6, buckets, 2)
    with pytest.raises(ValueError, match="'t0-r6'"):
        load_cases(path, 5, buckets, 3)


def test_percentile_is_nearest_rank() -> None:
    hundred = [float(n) for n in range(100, 0, -1)]
    assert percentile(hundred, 0.95) == 95
    assert percentile(hundred, 0.99) == 99
    assert percentile(hundred, 0.5) == 50
    assert percentile([3.0, 1.0, 2.0], 0.95) == 3
    with pytest.raises(ValueError, match="percentile of no values"):
        percentile([], 0.5)


def test_profile_times_every_part_it_names() -> None:
    position = Position.parse("R1 R2 K9 B9 J", "R3 R4 R5 | K7 B7 O7")
    split = profile_solve(position, Mode.TILES, STANDARD, 10.0)
    assert split.build > 0
    assert split.presolve > 0
    assert split.layout > 0
    assert split.search >= 0
    assert split.build + split.presolve + split.search + split.layout <= split.total


TINY = ["--per-bucket", "1", "--buckets", "t0-r6", "--modes", "tiles"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        # Both were said without their flag.
        (["--modes", "tiles,speed"], "error: --modes: unknown mode 'speed'"),
        (["--buckets", "t99-*"], "error: --buckets: bucket pattern 't99-*' matches no bucket"),
        (["--per-bucket", "0"], "--per-bucket must be at least 1"),
        # It was said without the flag: "time must be a finite number of seconds".
        (["--time-limit", "nan"], "--time-limit must be between 0.001 and 300 seconds, got nan"),
        (["--time-limit", "0"], "--time-limit must be between 0.001 and 300 seconds, got 0"),
        # Both were taken without a word: --score-only won, the backend was unused.
        ([*TINY, "--score-only", "--default-only"], "--score-only and --default-only contradict"),
        ([*TINY, "--peer-backend", "HIGHS"], "--peer-backend HIGHS needs --peer"),
        ([*TINY, "--peer-backend", "SCIPY"], "--peer-backend SCIPY needs --peer"),
    ],
)
def test_bad_arguments_exit_2_naming_the_culprit(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["bench", *args]) == 2
    captured = capsys.readouterr()
    assert message in captured.err
    assert "Traceback" not in captured.err


@pytest.mark.parametrize(
    ("flag", "value", "said"),
    [
        # --time-limit 1e9 was taken, which every other command refuses past 300 s.
        ("--time-limit", "1e9", "must be between 0.001 and 300 seconds, got 1e9"),
        ("--time-limit", "300.0001", "must be between 0.001 and 300 seconds, got 300.0001"),
        ("--time-limit", "inf", "must be between 0.001 and 300 seconds, got inf"),
        ("--time-limit", "-1", "must be between 0.001 and 300 seconds, got -1"),
        ("--time-limit", "0.0004", "must be between 0.001 and 300 seconds, got 0.0004"),
        # Taken, and dealt or solved for ever.
        ("--per-bucket", "1001", "must be at most 1000, got 1001"),
        ("--per-bucket", "-2", "must be at least 1, got -2"),
        ("--repeat", "101", "must be at most 100, got 101"),
        ("--repeat", "99999999999999999999", "must be at most 100, got 99999999999999999999"),
        ("--repeat", "-1", "must be at least 1, got -1"),
        ("--slowest", "-5", "must be at least 0, got -5"),
    ],
)
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_bench_refuses_a_number_out_of_its_range_quoting_it(
    flag: str,
    value: str,
    said: str,
    lang: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def taken(*_args: object) -> None:
        pytest.fail(f"bench ran with {flag} {value}")  # as it did: for ever, at 1e20

    monkeypatch.setattr("benchmarks.cli.run_suite", taken)
    assert main(["--lang", lang, "bench", *TINY[2:], flag, value]) == 2  # TINY less --per-bucket
    err = capsys.readouterr().err
    if lang == "en":
        assert err == f"error: {flag} {said}\n"
    else:
        assert err.startswith(f"\u30a8\u30e9\u30fc: {flag} "), err
        assert f"{value})" in err  # (指定値: 1e9)
        assert re.search("[\u3040-\u30ff]", err.removeprefix("\u30a8\u30e9\u30fc: ")), err


@pytest.mark.parametrize(
    ("flag", "value"),
    [("--repeat", "1e9"), ("--repeat", "nan"), ("--per-bucket", "inf"), ("--slowest", "1.5")],
)
def test_bench_refuses_a_count_that_is_no_whole_number(
    flag: str, value: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LANGUAGE", "en")
    with pytest.raises(SystemExit) as exited:
        main(["bench", *TINY[2:], flag, value])
    assert exited.value.code == 2
    assert f"argument {flag}: must be a whole number, got {value!r}" in capsys.readouterr().err


def test_peer_flag_without_the_peer_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "rummikub_solver", None)  # makes the import fail
    assert main(["bench", "--peer", "--per-bucket", "1", "--buckets", "t0-r6"]) == 2
    assert "pip install -c constraints.txt -e '.[bench]'" in capsys.readouterr().err


def test_each_solver_runs_its_repeats_in_a_row_and_they_take_turns_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Every timed run of one solver follows a run of the same solver (each one's
    # fastest is its own; our score stage alone right after our default solve), and
    # who goes first, the peer or we, alternates from trial to trial.
    import benchmarks.suite as suite
    from benchmarks.answers import Answer
    from benchmarks.cases import Case
    from benchmarks.peer import Peer

    calls: list[str] = []
    times = iter(range(1, 100))

    def answer(who: str) -> Answer:
        calls.append(who)
        return Answer(float(next(times)), "optimal", (), (), ())

    class FakePeer:
        def solve(self, position: Position, mode: Mode) -> Answer:
            return answer("peer")

    def ours(*args: object) -> Answer:
        least_disruption = args[4]  # time_ours(position, mode, rules, limit, least_disruption)
        return answer("default" if least_disruption else "score")

    monkeypatch.setattr(suite, "time_ours", ours)
    config = Config(repeat=3, peer=True)
    case = Case("t0-r6", 0, Position.parse("R1 R2 R3"))
    peer = cast("Peer", FakePeer())
    first = suite.run_trial(case, Mode.TILES, STANDARD, config, peer, 0)
    second = suite.run_trial(case, Mode.TILES, STANDARD, config, peer, 1)
    ours_in_a_row = ["default"] * 3 + ["score"] * 3
    assert calls == ours_in_a_row + ["peer"] * 3 + ["peer"] * 3 + ours_in_a_row
    assert first.score is not None
    assert second.score is not None
    assert (first.ours.ms, first.score.ms, first.peer and first.peer.ms) == (1.0, 4.0, 7.0)
    assert (second.ours.ms, second.score.ms, second.peer and second.peer.ms) == (13.0, 16.0, 10.0)


def test_mid_game_buckets_deal_what_their_names_say() -> None:
    for bucket in mid_game_buckets():
        low, high = (int(n) for n in bucket.name.removeprefix("mid-t").split("-"))
        for case in bucket.cases(1, 3):
            case.position.check(STANDARD)
            table = [t for tiles in case.position.table for t in tiles]
            assert low <= len(table) <= high + 5  # the last set drawn may go past
            assert 6 <= len(case.position.rack) <= 30
            assert table.count(JOKER) == 1
            assert case.position.rack.count(JOKER) == 1


def test_default_answers_are_checked_against_the_reference(tmp_path: Path) -> None:
    # A reference that claims one more set kept than any answer can: the report
    # counts the answer worse than it and names the missed target.
    config = Config(per_bucket=1, buckets=("t10-r6",), modes=(Mode.TILES,), score_beside=False)
    first = run_suite(config, Progress(disable=True))
    [trial] = first.trials
    assert trial.ours.calm is not None
    assert trial.ours.calm.proven
    kept, moved = trial.ours.calm.sets_kept, trial.ours.calm.tiles_moved
    reference = tmp_path / "reference.json"
    entry = {trial.case.label: {"tiles": [kept + 1, moved, True]}}
    reference.write_text(json.dumps({"seed": config.seed, "positions": entry}))
    results = run_suite(replace(config, reference=reference), Progress(disable=True))
    report = build_report(results, "test")
    calm = next(s for s in report.sections if s.key == "calm")
    assert [(r["compared"], r["worse"]) for r in calm.rows] == [(1, 1), (1, 1)]
    assert report.failures == ["1 default answer(s) less calm than the long-budget reference"]
    targets = next(s for s in report.sections if s.key == "default_targets")
    assert "reference" in targets.rows[0]["missed"]
    # Run without --peer, the peer's ratio targets are not reported as met.
    assert "peer ratios not run" in targets.rows[0]["missed"]


def test_answers_not_compared_with_their_reference_are_not_said_to_have_none() -> None:
    # Answers whose best score is not proven (a short --time-limit) are not compared
    # with the reference; the target said the positions had no reference.
    config = Config(per_bucket=1, buckets=("t10-r6",), modes=(Mode.TILES,), score_beside=False)
    results = run_suite(config, Progress(disable=True))
    assert results.references
    results.trials = [replace(t, ours=replace(t.ours, status="unknown")) for t in results.trials]
    report = build_report(results, "test")
    targets = next(s for s in report.sections if s.key == "default_targets")
    missed = targets.rows[0]["missed"]
    assert "no answer with a reference has its best score proven" in missed
    assert "no reference for these positions" not in missed
    # Nor is their least disruption counted proven: a search that found nothing
    # plays nothing, which "disturbs" nothing (the share read 100% beside the clock cut).
    assert targets.rows[0]["proven"] == 0
    assert "calm proven" in missed
    # The tables per bucket and family said 100% beside it.
    for key in ("ours", "ours_overall"):
        rows = next(s for s in report.sections if s.key == key).rows
        assert [r["proven"] for r in rows] == [0] * len(rows)
    results.references = {}
    report = build_report(results, "test")
    targets = next(s for s in report.sections if s.key == "default_targets")
    assert "no reference for these positions" in targets.rows[0]["missed"]


def test_ab_times_a_revision_against_this_checkout(tmp_path: Path) -> None:
    repo = Path(__file__).resolve().parents[2]
    if subprocess.run(["git", "rev-parse", "HEAD"], cwd=repo, capture_output=True).returncode:
        pytest.skip("not a git checkout")
    out = tmp_path / "ab.json"
    args = ["--base", "HEAD", "--per-bucket", "1", "--buckets", "t10-r6", "--modes", "tiles"]
    assert ab.main([*args, "--repeat", "1", "--json", str(out)]) == 0
    figures = json.loads(out.read_text())["tiles"]
    assert figures["positions"] == 1
    assert figures["scores_differ"] == []
    assert figures["median_ms"]["base"] > 0
    assert figures["median_ms"]["ours"] > 0
    median = figures["median_ms"]
    assert figures["ratio_of_medians"] == median["ours"] / median["base"]
    assert figures["ratio_of_p95"] == figures["p95_ms"]["ours"] / figures["p95_ms"]["base"]


@pytest.mark.parametrize("flag", ["--json", "--markdown", "--positions"])
def test_every_file_flag_makes_missing_folders_and_refuses_what_it_cannot_write(
    flag: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A path that could not be written raised out of the command (FileNotFoundError).
    args = ["bench", "--per-bucket", "1", "--buckets", "t0-r6", "--modes", "tiles"]
    target = tmp_path / "new" / "folder" / "out"
    assert main([*args, flag, str(target)]) == 0
    assert target.is_file()
    blocker = tmp_path / "file"
    blocker.write_text("")
    capsys.readouterr()
    assert main([*args, flag, str(blocker / "out")]) == 2
    captured = capsys.readouterr()
    err = captured.err
    assert err.strip().startswith(f"error: {flag}: cannot write {blocker / 'out'}: ")
    assert "Traceback" not in err
    assert captured.out == ""  # said before the run, not after it (its figures lost)


@pytest.mark.parametrize("flag", ["--json", "--markdown", "--positions", "--reference"])
def test_an_empty_file_name_is_a_usage_error_naming_the_flag(
    flag: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # Path("") is the current folder: --positions '' said ".: not a positions file".
    with pytest.raises(SystemExit) as exit_:
        main(["bench", "--quick", flag, ""])
    assert exit_.value.code == 2
    assert capsys.readouterr().err.endswith(f"error: argument {flag}: the file name is empty\n")


def test_a_positions_file_not_utf8_is_refused_by_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # It said "error: 'utf-8' codec can't decode byte 0xff in position 0", naming no file.
    path = tmp_path / "positions.json"
    path.write_bytes(b'{"seed": 2026, "buckets": {}}\xff')
    assert main(["bench", "--quick", "--positions", str(path)]) == 2
    assert capsys.readouterr().err.endswith(
        f"error: {path}: not a positions file (not UTF-8 text)\n"
    )


@pytest.mark.parametrize("command", [["bench"], []])
def test_bad_input_is_said_in_the_locales_language_as_every_command_says_it(
    command: list[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # "error: " stood in English before the Japanese message (the command printed its
    # own), and python -m benchmarks spoke English under LANG=ja.
    monkeypatch.setenv("LANG", "ja_JP.UTF-8")
    blocker = tmp_path / "file"
    blocker.write_text("")
    run = main if command else bench_main
    assert run([*command, "--json", str(blocker / "out")]) == 2
    assert capsys.readouterr().err.startswith(f"エラー: --json: {blocker / 'out'} に書き込めません")


@pytest.mark.parametrize("run", [lambda: main(["bench", "--help"]), lambda: bench_main(["--help"])])
def test_the_help_is_plain_text(run: Callable[[], int], capsys: pytest.CaptureFixture[str]) -> None:
    # The description was the module docstring, reST markup (``meldwise bench``) and all.
    with pytest.raises(SystemExit):
        run()
    out = capsys.readouterr().out
    assert "meldwise bench and python -m benchmarks: the solve-time suite." in out
    assert "``" not in out


def test_references_belong_to_the_committed_positions_only() -> None:
    """Self-play positions are dealt from games the current solver plays: a changed
    solver deals others under the same labels, which were compared with the committed
    positions' references (25 answers 'worse than the reference' in a default run)."""
    committed = load_cases(POSITIONS_FILE, 2026, select(all_buckets(), ["t20-r14"]), 2)
    same = references_for(committed, REFERENCE_FILE, 2026)
    assert {label for label, _mode in same} == {case.label for case in committed}
    other = [replace(case, position=Position.parse("R1 R2 R3", "K5 K6 K7")) for case in committed]
    assert references_for(other, REFERENCE_FILE, 2026) == {}
    with pytest.raises(ValueError, match=r"test_suite\.py is not valid JSON: "):
        references_for(committed, Path(__file__), 2026)


@pytest.mark.parametrize("flag", ["--reference", "--positions"])
def test_a_file_that_is_not_json_is_said_so_as_every_command_says_it(
    flag: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # It was Python's words: "not a reference file (Expecting value: line 2 column 13
    # (char 27))", "not JSON (...)", in English whatever the language.
    path = tmp_path / "bad.json"
    path.write_text('{"seed": 2026,\n "buckets": }')
    argv = ["bench", "--quick", "--buckets", "t0-r6", "--modes", "tiles", flag, str(path)]
    monkeypatch.setenv("LANGUAGE", "en")
    assert main(argv) == 2
    said = f"error: {path} is not valid JSON: Expecting value at line 2, column 13\n"
    assert capsys.readouterr().err.endswith(said)
    monkeypatch.setenv("LANGUAGE", "ja")
    assert main(argv) == 2
    assert f"エラー: {path} は正しいJSONではありません: 2行13列目" in capsys.readouterr().err


@pytest.mark.parametrize("flag", ["--reference", "--positions"])
def test_a_file_that_cannot_be_read_is_said_so_in_words(
    flag: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A missing reference file was "not a reference file ([Errno 2] No such file or
    # directory: ...)", and a folder given as positions "not a positions file
    # (IsADirectoryError(21, 'Is a directory'))": Python's words, and no file of the
    # wrong kind.
    argv = ["bench", "--quick", "--buckets", "t0-r6", "--modes", "tiles", flag, str(tmp_path)]
    assert main(argv) == 2
    assert capsys.readouterr().err.endswith(f"error: cannot read {tmp_path}: it is a folder\n")
    if flag == "--reference":
        missing = tmp_path / "none.json"
        assert main([*argv[:-1], str(missing)]) == 2
        said = capsys.readouterr().err
        assert said.endswith(f"error: cannot read {missing}: no such file or folder\n")


@pytest.mark.parametrize(
    ("module", "argv"),
    [
        ("benchmarks.shanghai_speed", ["--per-bucket", "0"]),
        ("benchmarks.shanghai_speed", ["--time-limit", "-1"]),
        ("benchmarks.ab", ["--base", "HEAD", "--repeat", "0"]),
        ("benchmarks.ab", ["--base", "HEAD", "--per-bucket", "1", "--modes", ","]),
        ("benchmarks.load", ["--table", "40-20"]),
        ("benchmarks.repair_speed", ["--per-bucket", "-1"]),
    ],
)
def test_a_benchmark_flag_out_of_range_is_a_usage_error(
    module: str, argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    # They raised StatisticsError, LimitError or ValueError in the middle of a run
    # (here such an error fails the test). The module's main(), as `python -m` runs
    # it, in this process: a process of its own spent 2 s of CPU on the imports alone.
    with pytest.raises(SystemExit) as stopped:
        importlib.import_module(module).main(argv)
    assert stopped.value.code == 2
    said = capsys.readouterr().err
    assert "Traceback" not in said
    assert "error: argument" in said


def test_who_goes_first_alternates_over_the_run_not_within_each_bucket(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # It went by the position's index in its bucket: with one position per bucket
    # (or any odd count) ours went first on every bucket's tiles solve.
    import benchmarks.suite as suite
    from benchmarks.answers import Answer

    calls: list[str] = []

    class FakePeer:
        version = "fake"

        def __init__(self, *args: object) -> None:
            pass

        def solve(self, position: Position, mode: Mode) -> Answer:
            calls.append("peer")
            return Answer(1.0, "answered", (), (), ())

    def ours(*args: object) -> Answer:
        calls.append("ours")
        return Answer(1.0, "optimal", (), (), ())

    monkeypatch.setattr(suite, "Peer", FakePeer)
    monkeypatch.setattr(suite, "time_ours", ours)
    config = Config(
        per_bucket=1,
        buckets=("t0-*",),
        modes=(Mode.TILES,),
        peer=True,
        score_beside=False,
        reference=None,
    )
    with Progress(disable=True) as progress:
        results = run_suite(config, progress)
    trials = calls[2:]  # after the warm-up: ours, then the peer
    firsts = [trials[i] for i in range(0, len(trials), 2)]
    assert len(firsts) == len(results.trials) == 4
    assert sorted(firsts) == ["ours", "ours", "peer", "peer"]


def test_ab_alternates_who_goes_first_over_the_run(monkeypatch: pytest.MonkeyPatch) -> None:
    # As the suite: by the index in the bucket, the base went first on every bucket.
    firsts: list[str] = []

    def time_one(module: str, position: Position, *args: object) -> tuple[float, object]:
        if position is not WARM_UP and (not firsts or len(firsts[-1]) == 2):
            firsts.append("")
        if position is not WARM_UP:
            firsts[-1] += module
        return 1.0, None

    monkeypatch.setattr(ab, "time_one", time_one)
    monkeypatch.setattr(ab, "score", lambda play, mode: 0)
    cases = [
        Case(bucket, 0, Position.parse("R1 R2 R3")) for bucket in ("t0-r6", "t0-r14", "t0-r20")
    ]
    cases.append(Case("t0-r30", 0, Position.parse("R1 R2 R3")))
    args = argparse.Namespace(full=False, time_limit=1.0, repeat=1)
    ab.run("b", "o", cases, [Mode.TILES], args)
    assert sorted(firsts) == ["bo", "bo", "ob", "ob"]


@pytest.mark.parametrize("module", ["benchmarks.ab", "benchmarks.shanghai_speed"])
def test_a_base_git_does_not_know_is_bad_input_said_before_the_run(
    module: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # It exited 1 (a SystemExit with the message), ab after dealing the positions.
    import importlib

    with pytest.raises(SystemExit) as exit_:
        importlib.import_module(module).main(["--base", "no-such-revision", "--per-bucket", "1"])
    assert exit_.value.code == 2
    captured = capsys.readouterr()
    assert captured.err.startswith("error: --base no-such-revision: ")
    assert captured.out == ""


def test_the_peers_points_mode_is_not_judged_against_the_ratio_targets() -> None:
    # The peer's points mode plays the most tiles (its table says "not comparable"),
    # yet the targets judged its ratios met or missed.
    from benchmarks.answers import Answer

    config = Config(
        per_bucket=1, buckets=("t10-r6",), modes=(Mode.TILES, Mode.POINTS), score_beside=True
    )
    results = run_suite(config, Progress(disable=True))
    slow = Answer(1000.0, "optimal", (), (), ())  # ours far slower than the peer
    fast = Answer(1.0, "optimal", (), (), ())
    results.peer_version = "fake"
    results.trials = [replace(t, ours=slow, score=slow, peer=fast) for t in results.trials]
    report = build_report(results, "test")
    for key in ("targets", "default_targets"):
        rows = {
            r["mode"]: r["missed"] for r in next(s for s in report.sections if s.key == key).rows
        }
        assert "median" in rows["tiles"]
        assert "p95" in rows["tiles"]
        assert "median" not in rows["points"]
        assert "not comparable" in rows["points"]


def test_the_run_fails_on_a_failed_check_not_on_a_missed_target(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # It exited 0 whatever it found: an unproven or illegal answer, one less calm than
    # the reference, one the peer beat. A missed speed target is reported only.
    import benchmarks.suite as suite
    from benchmarks.answers import Answer
    from benchmarks.speed import time_ours as solved

    changed: dict[str, object] = {}

    def ours(*args: Any) -> Answer:
        return replace(solved(*args), **changed)  # type: ignore[arg-type]

    monkeypatch.setattr(suite, "time_ours", ours)
    argv = ["bench", "--per-bucket", "1", "--buckets", "t10-r6", "--modes", "tiles"]
    changed.update(ms=1000.0)  # every speed target missed
    assert main([*argv, "--json", str(tmp_path / "bench.json")]) == 0
    report = json.loads((tmp_path / "bench.json").read_text())
    assert "max" in report["default_targets"][0]["missed"]
    assert report["failures"] == []
    assert (
        "checks passed: all 2 answers legal, their scores proven optimal, none of 1 less calm"
        " than the reference\n"
    ) in capsys.readouterr().out
    changed.update(status="feasible")
    assert main(argv) == 1
    assert (
        "CHECKS FAILED:\n  2 answer(s) whose score is not proven optimal" in capsys.readouterr().out
    )
    changed.update(status="optimal", problems=("set R1 R2: too short",))
    assert main(argv) == 1
    assert "2 answer(s) the legality checker rejects" in capsys.readouterr().out


def test_a_peer_play_that_beats_ours_fails_the_run() -> None:
    from benchmarks.answers import Answer
    from benchmarks.report import failures

    config = Config(per_bucket=1, buckets=("t10-r6",), modes=(Mode.TILES,), score_beside=False)
    results = run_suite(config, Progress(disable=True))
    assert build_report(results, "test").failures == []
    [trial] = results.trials
    ours = replace(trial.ours, played=())  # plays nothing; the peer plays R1 R2 R3
    peer = Answer(1.0, "answered", tuple(Position.parse("R1 R2 R3").rack), (), ())
    results.trials = [replace(trial, ours=ours, peer=peer)]
    beaten = compare(trial.case, trial.mode, ours, peer, STANDARD)
    assert beaten is not None
    assert failures(results, [beaten]) == ["1 answer(s) beaten by a legal play of the peer"]


@pytest.mark.parametrize(
    "argv",
    [
        ["--per-bucket", "0"],
        ["--repeat", "0"],
        ["--time-limit", "0"],
        ["--modes", "tiles,fun"],
        ["--modes", ","],
        ["--score-only", "--default-only"],
        ["--peer-backend", "HIGHS"],
        ["--slowest", "-1"],
        ["--buckets", "zz*"],
    ],
)
def test_bench_refuses_its_flags_in_the_language_asked_for(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    # docs/i18n.md: 'meldwise --lang ja' speaks for bench's errors too; its own checks
    # were English after a Japanese "エラー: ".
    assert main(["--lang", "ja", "bench", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("\u30a8\u30e9\u30fc: "), err
    flag = next(word for word in argv if word.startswith("--") and word != "--default-only")
    assert flag in err
    assert re.search("[\u3040-\u30ff]", err.removeprefix("\u30a8\u30e9\u30fc: ")), err
    assert main(["--lang", "en", "bench", *argv]) == 2
    assert capsys.readouterr().err.startswith(f"error: {flag}")


@pytest.mark.parametrize(
    ("flag", "text", "said"),
    [
        # "holds the positions of seed None, not 2026": it holds no positions at all.
        ("--positions", '{"x": 1}', "not a positions file (no 'seed' and 'buckets')"),
        # "(AttributeError(\"'list' object has no attribute 'get'\"))": Python's words.
        ("--positions", "[]", "not a positions file (no 'seed' and 'buckets')"),
        ("--positions", '{"seed": 2026, "buckets": {"t0-r6": [{"table": ""}]}}', "lacks 'rack'"),
        # Read as a reference of another seed: nothing compared, the run passed.
        ("--reference", '{"x": 1}', "not a reference file (no 'seed' and 'positions')"),
        ("--reference", "[]", "not a reference file (no 'seed' and 'positions')"),
    ],
)
def test_a_file_of_another_kind_is_refused_as_such(
    flag: str, text: str, said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "other.json"
    path.write_text(text)
    argv = ["bench", "--per-bucket", "1", "--buckets", "t0-r6", "--modes", "tiles"]
    assert main([*argv, flag, str(path)]) == 2
    err = capsys.readouterr().err
    assert err.strip().startswith(f"error: {path}: ")
    assert "\n" not in err.strip()  # one line
    assert said in err
    assert err.count(str(path)) == 1
    assert "Error(" not in err


def test_a_run_of_one_answer_and_no_slowest_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    # One answer was "all 1 answers legal", and --slowest 0 printed an empty table of
    # the "Slowest 0 solves of ours".
    argv = ["bench", "--per-bucket", "1", "--buckets", "t0-r6", "--modes", "tiles"]
    assert main([*argv, "--default-only", "--slowest", "0"]) == 0
    out = capsys.readouterr().out
    assert "checks passed: the 1 answer legal, its score proven optimal" in out
    assert "Slowest" not in out

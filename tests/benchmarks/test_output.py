"""benchmarks.output: every benchmark refuses a file it cannot write before it runs."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

SMALL = ["--per-bucket", "1"]
RUNS = [
    ("benchmarks.repair_speed", [*SMALL, "--json"]),
    ("benchmarks.house_rules_speed", [*SMALL, "--json"]),
    ("benchmarks.shanghai_speed", [*SMALL, "--json"]),
    ("benchmarks.shanghai_speed", [*SMALL, "--markdown"]),
    ("benchmarks.ab", ["--base", "HEAD", *SMALL, "--buckets", "t0-r6", "--repeat", "1", "--json"]),
    ("benchmarks.reference", ["--buckets", "t0-r6", "--work", "1", "--out"]),
    ("benchmarks.shanghai_bots", ["--games", "1", "--processes", "1", "--json"]),
    ("benchmarks.games", ["strength", "--games", "1", "--processes", "1", "--json"]),
    (
        "benchmarks.load",
        ["--clients", "1", "--duration", "1", "--warm-up", "0", "--positions", "1", "--json"],
    ),
]


@pytest.mark.parametrize(("module", "argv"), RUNS)
def test_a_file_that_cannot_be_written_is_refused_before_the_run(
    module: str, argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # They wrote with open(): a NotADirectoryError traceback after the whole run,
    # its figures lost (the bench suite itself said so only after the run, too).
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(SystemExit) as exit_:
        importlib.import_module(module).main([*argv, str(blocker / "out")])
    assert exit_.value.code == 2
    captured = capsys.readouterr()
    assert f"{argv[-1]}: cannot write {blocker / 'out'}: a part of the path is not a folder" in (
        captured.err
    )
    assert "Traceback" not in captured.err
    assert captured.out == ""  # nothing was run


def test_a_missing_folder_is_made(tmp_path: Path) -> None:
    from benchmarks import repair_speed

    out = tmp_path / "new" / "folder" / "repair.json"
    assert repair_speed.main([*SMALL, "--json", str(out)]) == 0
    assert out.read_text().startswith("[")


@pytest.mark.parametrize(
    ("work", "said"),
    [
        ("-1", "must be at least 0"),
        # nan is no number a flag takes (benchmarks.stats.number), as inf is not.
        ("nan", "must be a finite number, got 'nan'"),
    ],
)
def test_reference_refuses_a_negative_work_budget(
    work: str, said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A LimitError traceback at the first solve.
    from benchmarks import reference

    out = tmp_path / "reference.json"
    with pytest.raises(SystemExit) as exit_:
        reference.main(["--buckets", "t0-r6", "--work", work, "--out", str(out)])
    assert exit_.value.code == 2
    assert f"argument --work: {said}" in capsys.readouterr().err
    assert not out.exists()


def test_reference_of_some_buckets_never_replaces_the_committed_one(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # --buckets t0-r6 with the default --out wrote those 20 positions over the committed
    # reference of all 660.
    from benchmarks import reference

    before = reference.REFERENCE_FILE.read_bytes()
    with pytest.raises(SystemExit) as exit_:
        reference.main(["--buckets", "t0-r6", "--work", "1"])
    assert exit_.value.code == 2
    assert "write those positions elsewhere with --out" in capsys.readouterr().err
    assert reference.REFERENCE_FILE.read_bytes() == before


@pytest.mark.parametrize(("module", "argv"), RUNS)
def test_standard_output_is_refused_not_written_as_a_file_named_dash(
    module: str,
    argv: list[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # '-' is standard output to every meldwise command (tournament --json -, game --out
    # -); these wrote a file named '-' into the current folder after the run.
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exit_:
        importlib.import_module(module).main([*argv, "-"])
    assert exit_.value.code == 2
    captured = capsys.readouterr()
    assert f"{argv[-1]}: '-' (standard output) is not taken here; give a file name" in (
        captured.err
    )
    assert captured.out == ""
    assert not (tmp_path / "-").exists()


@pytest.mark.parametrize("flag", ["--json", "--markdown", "--positions"])
def test_bench_refuses_standard_output_for_its_files(
    flag: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from meldwise.cli import main

    monkeypatch.chdir(tmp_path)
    args = ["bench", "--per-bucket", "1", "--buckets", "t0-r6", "--modes", "tiles"]
    assert main([*args, flag, "-"]) == 2
    captured = capsys.readouterr()
    assert f"{flag}: '-' (standard output) is not taken here; give a file name" in captured.err
    assert captured.out == ""
    assert not (tmp_path / "-").exists()

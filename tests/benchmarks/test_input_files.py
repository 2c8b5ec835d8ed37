"""The files a benchmark runner reads (a capture, two --json runs, saved positions): one
that cannot be read, or is not of its kind, is said in a line naming it (exit 2),
never a traceback."""

from __future__ import annotations

import gzip
import importlib
from pathlib import Path

import pytest

BAD = {
    "missing": (None, "cannot read {path}: no such file or folder"),
    "not JSON": ("{", "{path} is not valid JSON"),
    "another kind": ('{"x": 1}', "{path}: not "),
}


def _file(tmp_path: Path, text: str | None, name: str = "in.json") -> Path:
    path = tmp_path / name
    if text is not None:
        path.write_text(text)
    return path


def _refused(module: str, argv: list[str], said: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        importlib.import_module(module).main(argv)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert said in err
    assert "Traceback" not in err


@pytest.mark.parametrize("kind", BAD)
def test_abuse_compare_refuses_a_file_that_is_no_run_of_it(
    kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A FileNotFoundError, JSONDecodeError or KeyError traceback (exit 1).
    text, said = BAD[kind]
    good = _file(tmp_path, '{"rows": []}', "good.json")
    path = _file(tmp_path, text)
    argv = ["--compare", str(good), str(path)]
    _refused("benchmarks.abuse", argv, said.format(path=path), capsys)


@pytest.mark.parametrize("kind", BAD)
def test_cpsat_calls_replay_refuses_a_file_that_is_no_capture(
    kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # gzip.open's FileNotFoundError, BadGzipFile, JSONDecodeError or KeyError traceback.
    text, said = BAD[kind]
    path = tmp_path / "calls.json.gz"
    if text is not None:
        path.write_bytes(gzip.compress(text.encode()))
    _refused("benchmarks.cpsat_calls", ["replay", str(path)], said.format(path=path), capsys)


def test_cpsat_calls_replay_refuses_a_file_that_is_not_gzip(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _file(tmp_path, '{"solves": [], "calls": []}')
    said = f"{path}: not a capture of benchmarks.cpsat_calls (not gzip)"
    _refused("benchmarks.cpsat_calls", ["replay", str(path)], said, capsys)


def test_cpsat_calls_capture_refuses_bad_positions_before_solving(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The positions file's MeldwiseError came out as a traceback.
    positions = _file(tmp_path, "{")
    argv = ["capture", str(tmp_path / "calls.gz"), "--positions", str(positions)]
    _refused("benchmarks.cpsat_calls", argv, f"{positions} is not valid JSON", capsys)
    assert not (tmp_path / "calls.gz").exists()

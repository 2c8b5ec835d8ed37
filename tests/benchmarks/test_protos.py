"""The same-models check of benchmarks.protos: it sees a changed model and a changed
answer, and leaves CP-SAT as it found it."""

from __future__ import annotations

import pytest
from ortools.sat.python import cp_model

from benchmarks.protos import compare, hooked, record
from solver import rummikub
from solver.cpsat import CpModel


def test_hooked_tells_apart_the_same_row_written_the_other_way_round() -> None:
    seen: list[str] = []
    original = cp_model.CpSolver.solve
    with hooked(seen):
        for flip in (False, False, True):
            model = CpModel()
            x, y = model.new_int_var(0, 3, "x"), model.new_int_var(0, 3, "y")
            # The same constraint for CP-SAT, but another proto: y - x >= 0.
            model.add(y - x >= 0 if flip else x - y <= 0)
            cp_model.CpSolver().solve(model)
    assert cp_model.CpSolver.solve is original
    assert len(seen) == 3
    assert seen[0] == seen[1] != seen[2]


def test_compare_names_the_first_call_and_the_answer_that_differ() -> None:
    base = {"a/tiles": (["p", "q", "r"], "A"), "b/tiles": (["s"], "B")}
    assert compare(base, base) == []
    ours = {"a/tiles": (["p", "x", "r"], "A"), "b/tiles": (["s", "t"], "C")}
    assert compare(base, ours) == [
        "a/tiles: protos differ from call 1 (3 base, 3 ours)",
        "b/tiles: protos differ from call 1 (1 base, 2 ours)",
        "b/tiles: answers differ",
    ]


def test_record_hashes_every_search_of_a_default_solve() -> None:
    request = {"rack": ["R1", "R2", "R3", "B7"], "table": [["K7", "O7", "R7"]], "opened": True}
    found = record(rummikub, [("one", request)])
    assert set(found) == {"one/tiles", "one/points"}
    for protos, answer in found.values():
        assert protos  # the calm play's search at least
        assert '"tiles_played": 4' in answer


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--base", "no-such-revision"], "error: --base no-such-revision: "),
        (
            ["--base", "HEAD", "--positions", "/nonexistent.json"],
            "cannot read /nonexistent.json: no such file or folder",
        ),
        (
            ["--base", "HEAD", "--positions", "README.md"],
            "README.md is not valid JSON: Expecting value at line 1, column 1",
        ),
        (["--base", "HEAD", "--builds", "--repeat", "0"], "must be at least 1"),
    ],
)
def test_bad_input_exits_2_not_1_which_says_the_protos_differ(
    argv: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # A revision git does not know exited 1, an unreadable positions file raised a
    # traceback (1), and --repeat 0 timed every build as inf ms.
    from benchmarks.protos import main

    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert said in err
    assert "Traceback" not in err

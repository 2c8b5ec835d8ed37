"""``python -m benchmarks.game_work``: a game measured counts the work the service's
game budget counts, and the fit reads what it wrote."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks.game_work import fit, play
from solver import cpsat
from solver.cpsat import GameWork, counting_work
from solver.rummikub.game_wire import game_rummikub


def test_a_game_measured_counts_the_work_the_budget_counts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = cpsat.run
    measured = play("rummikub", ("beginner", "greedy"), {}, 1)
    assert cpsat.run is run  # its own measuring is undone
    with counting_work() as work:
        game_rummikub({"bots": ["beginner", "greedy"], "seed": 1})
    assert (
        measured["solves"],
        measured["model_items"],
        measured["moves"],
        measured["melds_read"],
    ) == (work.solves, work.model_items, work.moves, work.melds_read)
    assert work.melds_read > 0  # the beginner's tiles tried on the table
    assert measured["solve_s"] == pytest.approx(work.solve_seconds)
    assert 0 < measured["cpu_in_cpsat_s"] < measured["cpu_s"]
    path = tmp_path / "games.jsonl"
    other = play("shanghai", ("greedy", "greedy"), {"hands": 1}, 0)
    path.write_text("".join(json.dumps(row) + "\n" for row in (measured, other)))
    fit(path)
    out = capsys.readouterr().out
    ratios = [
        1000
        * row["cpu_s"]
        / GameWork(row["solve_s"], 0, row["model_items"], row["moves"], row["melds_read"]).ms
        for row in (measured, other)
    ]
    assert f"CPU / work over all 2 games: {min(ratios):.2f}-{max(ratios):.2f}" in out

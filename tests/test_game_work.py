"""A bot game's budget counted in deterministic work (:class:`solver.cpsat.GameWork`):
the same game is played, or refused at the same move with the same words, however
slow the machine; each solve and each move is counted once, nested counts included.
The service's side (the 422, the watchdog's allowance) is in tests/api/test_games.py
and tests/api/test_shanghai_game.py."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from ortools.sat.python import cp_model

from solver import cpsat
from solver.arena.runner import local_dispatch, run_tournament
from solver.cpsat import (
    MELD_READ_WORK_MS,
    MODEL_ITEM_WORK_MS,
    MOVE_WORK_MS,
    WORK_MS_PER_DETERMINISTIC_SECOND,
    CpModel,
    GameWork,
    Limits,
    counting_work,
    game_budget,
    run,
    work_said,
)
from solver.errors import MeldwiseError
from solver.i18n import language
from solver.rummikub import bots
from solver.rummikub.engine import Game as RummikubGame
from solver.rummikub.game_wire import game_rummikub
from solver.rummikub.melds import readings
from solver.shanghai.engine import Game as ShanghaiGame
from solver.shanghai.game_wire import game_shanghai, review_shanghai

Play = Callable[[dict[str, Any]], dict[str, Any]]

GAMES: list[tuple[Play, dict[str, Any]]] = [
    (game_rummikub, {"bots": ["greedy", "greedy"], "seed": 1}),
    (game_shanghai, {"bots": ["strong", "greedy"], "seed": 3, "settings": {"hands": 1}}),
]
"""A short game of each: well under a second of CPU on an idle machine, under 500 ms of
work."""


@contextmanager
def slow_cpu(monkeypatch: pytest.MonkeyPatch, factor: float) -> Iterator[None]:
    """The process's CPU time read ``factor`` times as fast as it goes: a machine as
    slow as a loaded one, to whatever counts CPU time."""
    real = time.process_time
    started = real()
    with monkeypatch.context() as patch:
        patch.setattr(time, "process_time", lambda: started + (real() - started) * factor)
        yield


def refusal(play: Play, request: dict[str, Any], budget_ms: int) -> str | None:
    """The words a game within ``budget_ms`` is refused with, or None: played."""
    with game_budget(budget_ms):
        try:
            play(request)
        except MeldwiseError as error:
            return str(error)
    return None


@pytest.mark.parametrize(("play", "request_"), GAMES, ids=["rummikub", "shanghai"])
def test_a_game_is_played_or_refused_the_same_however_slow_the_cpu(
    monkeypatch: pytest.MonkeyPatch, play: Play, request_: dict[str, Any]
) -> None:
    """The budget counted the worker's CPU time, which grows on a busy machine: a game
    within 2 s was played on an idle worker and refused on one ten times as slow, and
    a game past 50 ms refused at a later turn on the idle one. Seen failing so before
    the budget counted work."""
    idle = [refusal(play, request_, budget) for budget in (2000, 50)]
    with slow_cpu(monkeypatch, 10):
        slow = [refusal(play, request_, budget) for budget in (2000, 50)]
    assert idle == slow
    played, refused = idle
    assert played is None
    assert refused is not None
    assert "ms counted: " in refused
    assert f" moves at {MOVE_WORK_MS:g} ms, " in refused


def test_a_refusal_says_what_it_counted_in_the_requests_language() -> None:
    play, request = GAMES[1]
    with game_budget(50), counting_work() as work, pytest.raises(MeldwiseError) as refused:
        play(request)
    said = str(refused.value)
    assert "ran past this server's game budget of 50 ms of work at turn " in said
    assert (
        f"({work.ms:.0f} ms counted: {work.moves} moves at {MOVE_WORK_MS:g} ms,"
        f" {work.model_items} variables and constraints of the {work.solves} models solved at"
        f" {MODEL_ITEM_WORK_MS:g} ms, and their {work.solve_seconds:.3f} s of CP-SAT's"
        f" deterministic time at {WORK_MS_PER_DETERMINISTIC_SECOND:g} ms a second)"
    ) in said
    assert work.ms > 50
    with language("ja"), game_budget(50), pytest.raises(MeldwiseError) as japanese:
        play(request)
    assert "決定的" in str(japanese.value)
    assert f"{work.ms:.0f}" in str(japanese.value)


def _tiny_model() -> CpModel:
    model = CpModel()
    x = model.new_int_var(0, 10, "x")
    y = model.new_int_var(0, 10, "y")
    model.add(x + y <= 7)
    model.maximize(x + 2 * y)
    return model


def test_each_solve_is_noted_once_in_every_count_around_it() -> None:
    engines: list[float] = []
    with counting_work() as outer:
        engines.append(run(_tiny_model(), Limits.of(1.0, 5.0)).engine.deterministic_time)
        with counting_work() as inner:
            for _ in range(2):
                solved = run(_tiny_model(), Limits.of(1.0, 5.0))
                engines.append(solved.engine.deterministic_time)
            # A model given with nothing left to spend is built but not searched.
            assert run(_tiny_model(), Limits(0.0, time.perf_counter() + 5)).code == (
                cp_model.UNKNOWN
            )
        engines.append(run(_tiny_model(), Limits.of(1.0, 5.0)).engine.deterministic_time)
    run(_tiny_model(), Limits.of(1.0, 5.0))  # counted nowhere
    items = 2 + 1  # two variables, one constraint (the objective is no constraint)
    assert (inner.solves, inner.model_items) == (3, 3 * items)
    assert inner.solve_seconds == pytest.approx(sum(engines[1:3]))
    assert (outer.solves, outer.model_items) == (5, 5 * items)
    assert outer.solve_seconds == pytest.approx(sum(engines))
    assert outer.moves == inner.moves == 0


def test_the_work_weighs_its_parts_as_documented() -> None:
    work = GameWork(solve_seconds=0.5, solves=4, model_items=1000, moves=30)
    assert work.ms == pytest.approx(
        0.5 * WORK_MS_PER_DETERMINISTIC_SECOND + 1000 * MODEL_ITEM_WORK_MS + 30 * MOVE_WORK_MS
    )


@pytest.mark.parametrize(("play", "request_"), GAMES, ids=["rummikub", "shanghai"])
def test_a_game_counts_each_of_its_solves_and_moves_once(
    monkeypatch: pytest.MonkeyPatch, play: Play, request_: dict[str, Any]
) -> None:
    """The game's own count (its meter) inside an outer one: both see each solve once."""
    seen: list[float] = []
    applied: list[object] = []
    real_run = cpsat.run

    def counted(*args: Any, **kwargs: Any) -> cpsat.Solved:
        solved = real_run(*args, **kwargs)
        seen.append(solved.engine.deterministic_time)
        return solved

    game = RummikubGame if play is game_rummikub else ShanghaiGame
    real_apply = game.apply

    def apply(self: Any, move: Any) -> Any:
        applied.append(move)
        return real_apply(self, move)

    monkeypatch.setattr(cpsat, "run", counted)
    monkeypatch.setattr(game, "apply", apply)
    with counting_work() as work:
        play(request_)
    assert seen
    assert work.solves == len(seen)
    assert work.solve_seconds == pytest.approx(sum(seen))
    assert work.moves == len(applied)


def test_the_beginners_reading_of_the_table_is_counted_set_by_set(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The beginner tries each rack tile on each table set in Python, with no solve:
    on 26 numbers, 4 copies and 4 jokers a game of 621 moves read 552409 sets, 3.8 s
    of CPU for 1311 ms of work before each set read was counted (benchmarks/RESULTS.md,
    "A bot game's work"). Each set it reads is noted once, and weighed."""
    read: list[int] = []

    def counted(tiles: Any, rules: Any) -> Any:
        read.append(len(tiles))
        return readings(tiles, rules)

    monkeypatch.setattr(bots, "readings", counted)
    with counting_work() as work:
        game_rummikub({"bots": ["beginner", "beginner"], "seed": 1})
    assert read
    assert work.melds_read == len(read)
    assert GameWork(melds_read=len(read)).ms == pytest.approx(len(read) * MELD_READ_WORK_MS)
    assert (
        f" moves at {MOVE_WORK_MS:g} ms, {len(read)} table sets read by the bots at"
        f" {MELD_READ_WORK_MS:g} ms, {work.model_items} variables and constraints"
    ) in work_said(work)
    with language("ja"):
        assert f"{len(read)}個(1個{MELD_READ_WORK_MS:g}ミリ秒)" in work_said(work)


def test_a_game_is_bounded_by_its_own_work_not_that_counted_around_it() -> None:
    """A game played inside another count (a long question's) starts its own at 0."""
    play, request = GAMES[0]
    with counting_work() as outer:
        outer.note_solve(100.0, 0)  # 300 s of work before the game
        assert refusal(play, request, 2000) is None
    assert outer.ms > 300_000


def test_a_tournament_and_a_review_are_not_bounded_by_the_game_budget() -> None:
    """Neither is a bot game of the service: a tournament's games are the command
    line's, a review's turns share the budget as a clock (``shared_clock``)."""
    with game_budget(1):
        report = run_tournament(
            "shanghai", ["greedy", "greedy"], 1, 3, {"hands": 1}, dispatch=local_dispatch(1)
        )
        assert report.games == 1
    with game_budget(None):
        played = game_shanghai(GAMES[1][1])
    with game_budget(1):
        assert review_shanghai({"record": played["record"], "player": 0})["turns"]

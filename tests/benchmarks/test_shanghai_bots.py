"""benchmarks.shanghai_bots: the per-hand figures read from game records."""

from __future__ import annotations

import statistics

import pytest

from benchmarks.shanghai_bots import by_hand, main
from solver.commands import EXIT_BAD_INPUT
from solver.shanghai.bots import make_bot
from solver.shanghai.engine import Game, GameSettings
from solver.shanghai.record import record_to_dict


def test_by_hand_counts_what_the_game_shows() -> None:
    """One hand of four greedy bots: the mean penalty is the hand's, and the share not
    down is that of the seats owning no meld on the table at the hand's end."""
    game = Game.new(GameSettings(players=4, hands=1), 11)
    bots = [make_bot("greedy", seat) for seat in range(4)]
    while not game.over:
        game.apply(bots[game.to_move].choose(game.view()))
    figures = by_hand([record_to_dict(game, ["greedy"] * 4)])["greedy"][1]
    assert figures["points"] == statistics.fmean(game.results[0].points)
    owners = {item.owner for item in game.table}
    assert figures["not_down"] == (4 - len(owners)) / 4
    buys = sum(e.kind == "buy" for e in game.events[0])
    assert figures["buys"] == buys / 4


@pytest.mark.parametrize(
    ("bots", "said"),
    [
        ("", "--bots names no bot (got '')"),
        ("strong,,greedy", "--bots has an empty name in 'strong,,greedy'"),
        ("strong,nobody", "--bots: unknown bot 'nobody'"),
        ("greedy," * 8 + "greedy", "--bots: 9 bots named for 4 players"),
    ],
)
def test_bad_bots_are_said_in_a_line_not_a_traceback(
    bots: str, said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # Bots were split on commas and checked inside the runner: each of these ended in a
    # traceback with exit status 1.
    assert main(["--bots", bots, "--games", "1", "--processes", "1"]) == EXIT_BAD_INPUT
    error = capsys.readouterr().err
    assert error.startswith(f"error: {said}")
    assert "Traceback" not in error


def test_a_reference_bot_not_seated_is_refused_before_any_game(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # --reference foo (or strong with --bots greedy) paired every bot with a bot that
    # sat in no game: "paired over 0 deals: +0.0 +- inf points per game", exit 0,
    # after the whole tournament was played.
    argv = ["--bots", "greedy", "--players", "2", "--games", "1", "--processes", "1"]
    assert main([*argv, "--reference", "strong"]) == EXIT_BAD_INPUT
    captured = capsys.readouterr()
    assert captured.err.startswith(
        "error: --reference 'strong' sits in none of the games (--bots: greedy)"
    )
    assert "paired over" not in captured.out
    assert "game 0" not in captured.err  # refused before a game was played


def test_fewer_than_two_players_is_said_of_players(capsys: pytest.CaptureFixture[str]) -> None:
    # "--bots: 2 bots named for 1 players" blamed the default --bots.
    with pytest.raises(SystemExit) as exit_:
        main(["--players", "1", "--games", "1", "--processes", "1"])
    assert exit_.value.code == EXIT_BAD_INPUT
    assert "argument --players: must be at least 2, got 1" in capsys.readouterr().err

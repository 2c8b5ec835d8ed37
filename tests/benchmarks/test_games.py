"""benchmarks.games: bad input is a one-line error with exit 2, not a traceback."""

from __future__ import annotations

import pytest

from benchmarks.games import main


@pytest.mark.parametrize("argv", [["speed", "--games", "0"], ["strength", "--games", "-1"]])
def test_no_games_is_a_usage_error(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    # speed --games 0 raised StatisticsError; strength --games 0 a MeldwiseError traceback.
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    assert "--games: must be at least 1" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--variants", "nosuchbot"], "error: --variants: unknown bot 'nosuchbot'"),
        (["--opponent", "nosuchbot"], "error: --opponent: unknown bot 'nosuchbot'"),
    ],
)
def test_a_tournament_that_cannot_be_played_exits_2(
    argv: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["strength", "--games", "1", "--processes", "1", *argv]) == 2
    err = capsys.readouterr().err
    assert said in err
    assert "Traceback" not in err


def test_fewer_than_two_players_is_said_of_players(capsys: pytest.CaptureFixture[str]) -> None:
    # It said "error: 2 bots named for 1 players", naming no flag.
    with pytest.raises(SystemExit) as exit_:
        main(["strength", "--games", "1", "--players", "1"])
    assert exit_.value.code == 2
    assert "--players: must be at least 2, got 1" in capsys.readouterr().err

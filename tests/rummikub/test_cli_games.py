"""The whole-game commands: tournament, game, review and bot, as a person runs them."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from meldwise.cli import main
from solver.cpsat import Limit
from solver.rummikub import search
from solver.rummikub.game_wire import game_rummikub, review_rummikub
from solver.rummikub.record import read_record, replay
from solver.rummikub.result import Play

TINY = [
    "--option", "hand=5", "--option", "rules.colours=3", "--option", "rules.numbers=7",
    "--option", "rules.copies=1", "--option", "rules.jokers=1",
    "--option", "rules.opening_threshold=10",
]  # fmt: skip


def test_tournament_reports_win_rates_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["tournament", "--bots", "strong,greedy", "--players", "3", "--games", "6"]
    code = main([*argv, "--seed", "9", "--processes", "1", "--json", "-", *TINY])
    assert code == 0
    report = json.loads(capsys.readouterr().out)
    assert report["bots"] == ["strong", "greedy", "greedy"]
    assert report["games"] == 6
    strong, greedy = report["by_bot"]
    assert (strong["seats"], greedy["seats"]) == (1, 2)
    assert strong["wins"] + greedy["wins"] == 6
    assert strong["parity"] == pytest.approx(1 / 3)
    lower, upper = strong["ci95"]
    assert lower <= strong["win_rate"] <= upper
    assert [g["index"] for g in report["results"]] == list(range(6))
    assert report["turns"]["max"] >= report["turns"]["median"] > 0
    assert report["options"]["rules"]["numbers"] == 7


def test_tournament_table_and_records(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["tournament", "--bots", "beginner,greedy", "--games", "2", "--processes", "1"]
    code = main([*argv, "--no-progress", "--records", str(tmp_path), *TINY])
    assert code == 0
    out = capsys.readouterr().out
    assert "beginner" in out
    assert "95% interval" in out
    assert "turns per game" in out
    records = sorted(tmp_path.glob("game-*.json"))
    assert [p.name for p in records] == ["game-0.json", "game-1.json"]
    for path in records:
        replay(read_record(json.loads(path.read_text())))


def test_the_tournament_table_names_each_bot_whole(capsys: pytest.CaptureFixture[str]) -> None:
    # Two variants of a bot were both cut to "strong:hurr…" in the table: which won
    # could not be told (the JSON report named them).
    bots = "strong:hurry_rack=3+stuck=set,strong:hurry_rack=5+stuck=all"
    argv = ["tournament", "--bots", bots, "--games", "2", "--processes", "1", "--no-progress"]
    assert main([*argv, *TINY]) == 0
    rows = [line for line in capsys.readouterr().out.splitlines() if "strong:" in line]
    for name in bots.split(","):
        assert sum(name in row for row in rows) == 1, rows
    assert all(row.endswith("│") for row in rows), rows  # no column cut off either


def test_tournament_help_says_percent_once(capsys: pytest.CaptureFixture[str]) -> None:
    # argparse does not %-format a description: '%%' was shown as is.
    with pytest.raises(SystemExit):
        main(["tournament", "--help"])
    out = capsys.readouterr().out
    assert "95% interval" in out
    assert "%%" not in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--bots", "strong,clever"], "unknown bot 'clever'"),
        (["--bots", "a,b,c"], "3 bots named for 2 players"),
        # A bad knob value once crashed with int()'s or Enum's own ValueError.
        (
            ["--bots", "strong:hurry_rack=x,greedy"],
            "bot 'strong:hurry_rack=x': knob 'hurry_rack' is a whole number",
        ),
        (["--bots", "strong:hurry_rack,greedy"], "knob 'hurry_rack' is a whole number"),
        (["--bots", "strong:stuck=zzz"], "knob 'stuck' is one of draw, set, all, got 'zzz'"),
        (
            ["--game", "shanghai", "--bots", "strong:buy_ev=x,greedy"],
            "bot 'strong:buy_ev=x': knob 'buy_ev' is true or false, got 'x'",
        ),
        (["--bots", "greedy", "--games", "0"], "--games must be at least 1"),
        # It read "1 bots named for 0 players".
        (["--bots", "greedy", "--players", "0"], "--players must be at least 2, got 0"),
        # 10**20 games were all built before the first was played (MemoryError), and
        # 100,000 processes for a Dask cluster were a traceback.
        (
            ["--bots", "greedy", "--games", "99999999999999999999"],
            "--games must be at most 100000, got 99999999999999999999",
        ),
        (["--bots", "greedy", "--processes", "65"], "--processes must be at most 64, got 65"),
        # Accepted, while meldwise game refused such a seed: its games could not replay.
        (["--bots", "greedy", "--seed", "-1"], "--seed must be at least 0, got -1"),
        (
            ["--bots", "greedy", "--seed", "99999999999999999999"],
            "--seed must be at most 2147483648, got 99999999999999999999",
        ),
        (["--bots", "greedy", "--option", "pool_empty=never"], "'pool_empty' must be"),
        (["--bots", "greedy", "--option", "hand=--5"], "'hand' must be a whole number"),
        (["--bots", "greedy", "--option", "players=3"], "'players' is 3, but 2 bots are seated"),
        (
            ["--game", "shanghai", "--bots", "greedy", "--option", "players=4"],
            "'players' is 4, but 2 bots are seated",
        ),
    ],
)
def test_tournament_bad_input_exits_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["tournament", "--no-progress", *argv]) == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize(
    ("game", "rule", "problem"),
    [
        ("rummikub", "jokers", "rule 'jokers' must be a whole number, got 'x'"),
        ("shanghai", "jokers_per_deck", "rule 'jokers_per_deck' must be a whole number, got 'x'"),
        ("rummikub", "nosuch", "unknown rule 'nosuch'"),
    ],
)
def test_tournament_says_a_bad_rule_with_its_option(
    game: str,
    rule: str,
    problem: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # It said "rule 'jokers' must be ..." without --option, where game says "--option rules:".
    argv = ["tournament", "--no-progress", "--game", game, "--bots", "greedy"]
    monkeypatch.setenv("LANGUAGE", "en")
    assert main([*argv, "--option", f"rules.{rule}=x"]) == 2
    assert capsys.readouterr().err.startswith(f"error: --option rules: {problem}")
    monkeypatch.setenv("LANGUAGE", "ja")  # the tournament takes no --lang
    assert main([*argv, "--option", f"rules.{rule}=x"]) == 2
    assert capsys.readouterr().err.startswith("\u30a8\u30e9\u30fc: --option rules: ")
    # --players is still said as itself, never as an --option.
    monkeypatch.setenv("LANGUAGE", "en")
    assert main([*argv, "--players", "99"]) == 2
    said = capsys.readouterr().err
    assert "--option" not in said
    assert "99" in said


@pytest.mark.parametrize(
    ("argv", "flag", "problem"),
    [
        (
            ["tournament", "--bots", "greedy", "--option", "nosuch=1"],
            "--option",
            "unknown game setting 'nosuch'; known are hand, players, pool_empty, rules",
        ),
        (
            ["tournament", "--game", "shanghai", "--bots", "greedy", "--option", "nosuch=1"],
            "--option",
            "unknown game setting 'nosuch'; known are rules, players, hands, hand_size, max_turns",
        ),
        (
            ["tournament", "--bots", "greedy", "--option", "pool_empty=never"],
            "--option",
            "'pool_empty' must be 'play_on' or 'end', got 'never'",
        ),
        (
            ["tournament", "--game", "shanghai", "--bots", "greedy", "--option", "hands=0"],
            "--option",
            "'hands' must be a whole number 1 to 10, got 0",
        ),
        (
            ["tournament", "--bots", "greedy", "--option", "players=3"],
            "--option players",
            "game setting 'players' is 3, but 2 bots are seated",
        ),
        (
            ["tournament", "--game", "shanghai", "--bots", "greedy", "--option", "players=3"],
            "--option players",
            "game setting 'players' is 3, but 2 bots are seated",
        ),
        (
            ["game", "--bots", "greedy,greedy", "--option", "players=3"],
            "--option players",
            "game setting 'players' is 3, but 2 bots are seated",
        ),
    ],
)
def test_a_bad_game_setting_is_said_with_its_option(
    argv: list[str],
    flag: str,
    problem: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The tournament said these without --option (game said "--option: ..."), and a
    # 'players' setting the seats contradict was said without it by both, then as
    # "--option: ...": it is one setting, said by its NAME as "--option rules: ..." is.
    argv = [*argv, "--no-progress"] if argv[0] == "tournament" else argv
    monkeypatch.setenv("LANGUAGE", "en")
    assert main(argv) == 2
    assert capsys.readouterr().err == f"error: {flag}: {problem}\n"
    monkeypatch.setenv("LANGUAGE", "ja")  # the tournament takes no --lang
    assert main(argv) == 2
    assert capsys.readouterr().err.startswith(f"\u30a8\u30e9\u30fc: {flag}: ")


@pytest.mark.parametrize(
    ("game", "bots", "problem"),
    [
        ("rummikub", "greedy,foo", "unknown bot 'foo'; bots are beginner, greedy, strong"),
        ("shanghai", "greedy,foo", "unknown bot 'foo'; bots are greedy, strong"),
        (
            "rummikub",
            "strong:stuck=zzz",
            "bot 'strong:stuck=zzz': knob 'stuck' is one of draw, set, all, got 'zzz'",
        ),
    ],
)
def test_a_tournament_says_a_bad_bot_name_with_its_flag(
    game: str,
    bots: str,
    problem: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # "unknown bot 'foo'; ..." named no flag, where game says "--bots must be ...".
    argv = ["tournament", "--no-progress", "--game", game, "--bots", bots]
    monkeypatch.setenv("LANGUAGE", "en")
    assert main(argv) == 2
    assert capsys.readouterr().err == f"error: --bots: {problem}\n"
    monkeypatch.setenv("LANGUAGE", "ja")
    assert main(argv) == 2
    assert capsys.readouterr().err.startswith("\u30a8\u30e9\u30fc: --bots: ")


@pytest.mark.parametrize("command", [["tournament", "--no-progress"], ["game"]])
@pytest.mark.parametrize("bots", ["greedy,,strong", "greedy,", ",greedy", "greedy, ,strong"])
def test_game_and_tournament_refuse_an_empty_bot_name_alike(
    command: list[str],
    bots: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # "greedy,,strong" was two bots without a word (and played 100 games); then game said
    # "--bots must be 'beginner', 'greedy' or 'strong', got ''" where tournament said
    # the empty name: one check says it for both.
    monkeypatch.setenv("LANGUAGE", "en")
    assert main([*command, "--bots", bots]) == 2
    assert capsys.readouterr().err == (
        f"error: --bots has an empty name in {bots!r}; give each bot a name\n"
    )
    monkeypatch.setenv("LANGUAGE", "ja")
    assert main([*command, "--bots", bots]) == 2
    assert capsys.readouterr().err.startswith(f"\u30a8\u30e9\u30fc: --bots \u306e {bots!r} ")
    if command == ["game"]:  # game takes --lang too
        monkeypatch.setenv("LANGUAGE", "en")
        assert main([*command, "--bots", bots, "--lang", "ja"]) == 2
        assert capsys.readouterr().err.startswith(f"\u30a8\u30e9\u30fc: --bots \u306e {bots!r} ")


@pytest.mark.parametrize("bots", ["", " ", ",", " , ", "\u3001"])
def test_game_and_tournament_refuse_no_bot_name_alike(
    bots: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # No name at all was said twice over: game as a bad bot name ("--bots must be
    # 'beginner', 'greedy' or 'strong', got ''"), tournament as "give at least one bot
    # name". One check (solver.arena.runner.bot_list) says it for both, in either language.
    for language, said in (
        (
            "en",
            f"error: --bots names no bot (got {bots!r}); give one bot name or more, e.g. strong\n",
        ),
        (
            "ja",
            "\u30a8\u30e9\u30fc: --bots \u306b\u30dc\u30c3\u30c8\u306e\u540d\u524d"
            f"\u304c\u3042\u308a\u307e\u305b\u3093(\u6307\u5b9a\u5024: {bots!r})\u3002",
        ),
    ):
        monkeypatch.setenv("LANGUAGE", language)
        for command in (["tournament", "--no-progress"], ["game"]):
            assert main([*command, "--bots", bots]) == 2
            err = capsys.readouterr().err
            assert err == said if language == "en" else err.startswith(said), (command, err)


def test_a_tournament_error_is_one_line_with_the_progress_bar_on(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Not on a terminal the bar drew nothing but a blank line, before the error too.
    monkeypatch.setenv("LANGUAGE", "en")
    assert main(["tournament", "--bots", "greedy", "--option", "nosuch=1"]) == 2
    assert capsys.readouterr().err == (
        "error: --option: unknown game setting 'nosuch'; known are hand, players,"
        " pool_empty, rules\n"
    )
    argv = ["tournament", "--bots", "greedy", "--games", "1", "--processes", "1", *TINY]
    assert main(argv) == 0
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize(("game", "most"), [("rummikub", 8), ("shanghai", 8)])
def test_too_many_tournament_players_are_said_as_players_flag(
    game: str, most: int, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Shanghai said "'players' must be a whole number 2 to 8, got 9": the game setting,
    # not the flag typed.
    argv = ["tournament", "--no-progress", "--game", game, "--bots", "greedy"]
    monkeypatch.setenv("LANGUAGE", "en")
    assert main([*argv, "--players", str(most + 1)]) == 2
    assert capsys.readouterr().err == f"error: --players must be at most {most}, got {most + 1}\n"
    monkeypatch.setenv("LANGUAGE", "ja")
    assert main([*argv, "--players", str(most + 1)]) == 2
    assert capsys.readouterr().err.startswith("\u30a8\u30e9\u30fc: --players ")


@pytest.mark.parametrize(
    ("argv", "flag", "problem"),
    [
        (["--players", "8"], "--players", "8 hands of 14 need 112 tiles, the game has 106"),
        (
            ["--players", "8", "--option", "hand=20"],
            "--players",
            "8 hands of 20 need 160 tiles, the game has 106",
        ),
        (
            ["--game", "shanghai", "--players", "8", "--option", "hand_size=20"],
            "--players",
            "8 players dealt 20 cards each and an upcard need 161 cards; the game has 108",
        ),
        # The settings at fault whatever the number of players: --option's.
        (["--option", "hand=60"], "--option", "2 hands of 60 need 120 tiles, the game has 106"),
        # The number of players given as a setting: --option's too.
        (
            ["--players", "8", "--option", "players=8"],
            "--option",
            "8 hands of 14 need 112 tiles, the game has 106",
        ),
        (
            [
                *("--game", "shanghai", "--players", "8"),
                *("--option", "hand_size=20", "--option", "players=8"),
            ],
            "--option",
            "8 players dealt 20 cards each and an upcard need 161 cards; the game has 108",
        ),
    ],
)
def test_too_many_players_for_the_tiles_are_said_as_the_flag_that_gave_them(
    argv: list[str],
    flag: str,
    problem: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # --players 8 was said as "--option: 8 hands of 14 need 112 tiles", a flag not given.
    argv = ["tournament", "--no-progress", "--bots", "greedy", *argv]
    monkeypatch.setenv("LANGUAGE", "en")
    assert main(argv) == 2
    assert capsys.readouterr().err == f"error: {flag}: {problem}\n"
    monkeypatch.setenv("LANGUAGE", "ja")
    assert main(argv) == 2
    assert capsys.readouterr().err.startswith(f"\u30a8\u30e9\u30fc: {flag}: ")


def test_option_flags_read_true_and_false_as_rule_flags_do(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # --option once made numbers of digits alone, so no true-or-false rule could be set.
    path = tmp_path / "game.json"
    argv = ["game", "--bots", "greedy,greedy", *TINY, "--out", str(path)]
    assert main([*argv, "--option", "rules.wrap_runs=true"]) == 0
    assert json.loads(path.read_text())["settings"]["rules"]["wrap_runs"] is True
    argv = ["tournament", "--bots", "greedy", "--games", "1", "--processes", "1", "--json", "-"]
    capsys.readouterr()
    assert main([*argv, *TINY, "--option", "rules.wrap_runs=true"]) == 0
    assert json.loads(capsys.readouterr().out)["options"]["rules"]["wrap_runs"] is True


@pytest.mark.parametrize("command", ["game", "tournament"])
@pytest.mark.parametrize(
    ("options", "name"),
    [
        (["seed=1", "seed=2"], "seed"),
        (["rules.jokers=1", "rules.jokers=1"], "rules.jokers"),
        # rules=2 beside rules.jokers=1 (once a traceback) is refused as rules=2 alone
        # is: test_commands.REFUSED.
    ],
)
def test_an_option_given_twice_is_refused_by_name(
    command: str,
    options: list[str],
    name: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The last was kept without a word, as argparse kept the last of a flag given twice.
    argv = [command, "--bots", "greedy,greedy"]
    for option in options:
        argv += ["--option", option]
    monkeypatch.setenv("LANGUAGE", "en")
    assert main(argv) == 2
    assert capsys.readouterr().err == f"error: --option sets {name!r} twice; give it once\n"
    monkeypatch.setenv("LANGUAGE", "ja")  # the tournament takes no --lang
    assert main(argv) == 2
    assert capsys.readouterr().err == (
        f"エラー: --option で {name!r} が2回指定されています。1回だけ指定してください\n"
    )


@pytest.mark.parametrize(
    ("options", "end", "said"),
    [
        ([], "out", "プレイヤーが上がって終了。"),
        (
            # TINY's deal without its joker (an option is given once).
            [
                *["rules.jokers=0" if word == "rules.jokers=1" else word for word in TINY],
                "--option",
                "pool_empty=end",
            ],
            "blocked",
            "山が空になり、誰も上がらずに終了。",
        ),
    ],
)
def test_the_game_summary_says_how_the_game_ended_in_the_language_asked(
    options: list[str], end: str, said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The end reason was once printed as the record's word ('out') in any language.
    path = tmp_path / "game.json"
    argv = ["game", "--bots", "greedy,greedy", "--seed", "1", *options, "--out", str(path)]
    assert main([*argv, "--lang", "ja"]) == 0
    assert json.loads(path.read_text())["result"]["end"] == end
    assert capsys.readouterr().out.split("勝者")[0].endswith(said)


@pytest.mark.parametrize(
    ("status", "lang", "said"),
    [
        (None, "en", "Solver: every solve the bots made was proven (optimal)"),
        (None, "ja", "ソルバー: ボットの探索はすべて証明済みです(最適)"),
        (
            "feasible",
            "en",
            "Solver: not every solve the bots made was proven: feasible (a search stopped at"
            " its limit; the best found)",
        ),
        (
            "unknown",
            "ja",
            "ソルバー: ボットの探索の一部は証明されていません: 不明(手が見つかる前に探索が"
            "上限で止まりました)",
        ),
    ],
)
def test_the_game_summary_says_whether_every_bot_solve_was_proven(
    status: str | None,
    lang: str,
    said: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # POST /v1/rummikub/game answers the status; the command's summary did not say it.
    if status is not None:  # a bot's search stopped at its work bound
        monkeypatch.setattr(
            "solver.rummikub.cli.game_rummikub",
            lambda request: {**game_rummikub(request), "status": status},
        )
    path = tmp_path / "game.json"
    argv = ["game", "--bots", "greedy,greedy", "--seed", "1", *TINY, "--out", str(path)]
    assert main([*argv, "--lang", lang]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == said


@pytest.mark.parametrize(
    ("lang", "to_file", "to_stdout", "solver"),
    [
        (
            "en",
            "record written to {path}",
            "record written to standard output",
            "Solver: every solve the bots made was proven (optimal)",
        ),
        (
            "ja",
            "記録を {path} に書きました",
            "記録を標準出力に書きました",
            "ソルバー: ボットの探索はすべて証明済みです(最適)",
        ),
    ],
)
def test_a_game_to_stdout_says_its_summary_and_status_on_stderr(
    lang: str,
    to_file: str,
    to_stdout: str,
    solver: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Without --out the record went to stdout and nothing else was said: the summary,
    # and the status POST /v1/rummikub/game answers, were lost. Stdout stays the record.
    argv = ["game", "--bots", "greedy,greedy", "--seed", "1", *TINY, "--lang", lang]
    path = tmp_path / "game.json"
    assert main([*argv, "--out", str(path)]) == 0
    summary, status = capsys.readouterr().out.splitlines()
    assert main(argv) == 0
    out, err = capsys.readouterr()
    assert err.splitlines() == [summary.replace(to_file.format(path=path), to_stdout), status]
    assert status == solver
    assert json.loads(out) == json.loads(path.read_text())
    # ``meldwise game ... | meldwise review -`` reviews it.
    monkeypatch.setattr("sys.stdin", io.StringIO(out))
    assert main(["review", "-", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["status"] == "optimal"


def test_a_game_record_written_then_reviewed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.json"
    assert main(["game", "--bots", "strong,greedy", "--seed", "3", "--out", str(path)]) == 0
    assert f"record written to {path}" in capsys.readouterr().out
    record = json.loads(path.read_text())
    assert record["players"] == ["strong", "greedy"]
    assert main(["review", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Player 1 (greedy):" in out
    assert "Turns below the best:" in out
    assert main(["review", str(path), "--json", "--player", "0"]) == 0
    review = json.loads(capsys.readouterr().out)
    assert {t["player"] for t in review["turns"]} == {0}
    # With no turn below the best, no heading over an empty list; with no turn at all,
    # that said (it printed "Solver: optimal" alone).
    path.write_text(json.dumps({**record, "turns": []}))
    assert main(["review", str(path)]) == 0
    assert capsys.readouterr().out == "No turns to review.\n"
    # A seat with no turns in the record: that said, not that the record has none.
    path.write_text(json.dumps({**record, "turns": record["turns"][:1]}))
    assert main(["review", str(path), "--player", "1"]) == 0
    # Named as the summary names it (it said "Player 1" alone).
    said = "Player 1 (greedy) has no turns in the record: nothing to review.\n"
    assert capsys.readouterr().out == said
    assert main(["review", str(path), "--player", "1", "--lang", "ja"]) == 0
    assert capsys.readouterr().out == (
        "記録にはプレイヤー1(greedy)の手番がありません。振り返るものはありません。\n"
    )
    path.write_text(json.dumps({**record, "players": None, "turns": record["turns"][:1]}))
    assert main(["review", str(path), "--player", "1"]) == 0
    assert capsys.readouterr().out == "Player 1 has no turns in the record: nothing to review.\n"
    # A bad file says what is wrong.
    path.write_text("{")
    assert main(["review", str(path)]) == 2
    assert "is not valid JSON" in capsys.readouterr().err
    assert main(["review", str(tmp_path / "missing.json")]) == 2
    assert "cannot read" in capsys.readouterr().err
    # The system's reason was English under --lang ja, and a file that is no UTF-8 (or
    # read in an ASCII locale) ended in a traceback.
    assert main(["review", "--lang", "ja", str(tmp_path / "missing.json")]) == 2
    assert "そのファイルもフォルダーもありません" in capsys.readouterr().err
    path.write_bytes(b"\xff\xfe{}")
    assert main(["review", str(path)]) == 2
    assert f"cannot read {path}: it is not UTF-8 text" in capsys.readouterr().err


def test_review_takes_the_time_limit_of_each_turn(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # HTTP's review took time_limit_ms; the command had no way to give it.
    path = tmp_path / "game.json"
    assert main(["game", "--bots", "greedy,greedy", "--seed", "1", *TINY, "--out", str(path)]) == 0
    capsys.readouterr()
    limits: list[int] = []

    def review(request: dict[str, Any]) -> dict[str, Any]:
        limits.append(request["time_limit_ms"])
        return review_rummikub(request)

    monkeypatch.setattr("solver.rummikub.cli.review_rummikub", review)
    assert main(["review", str(path), "--time-limit", "0.25", "--json"]) == 0
    assert main(["review", str(path), "--json"]) == 0
    assert limits == [250, 2000]
    assert main(["review", str(path), "--time-limit", "61"]) == 2
    assert "--time-limit must be between 0.001 and 60 seconds, got 61" in capsys.readouterr().err


def test_review_json_writes_japanese_as_text_like_every_other_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # review --json wrote json.dump's \\u escapes where solve, repair and the rest write
    # the text as it reads.
    path = tmp_path / "game.json"
    assert main(["game", "--bots", "greedy,greedy", "--seed", "1", *TINY, "--out", str(path)]) == 0
    capsys.readouterr()

    def review(request: dict[str, Any]) -> dict[str, Any]:
        return {**review_rummikub(request), "problems": ["セット 0 は有効ではありません"]}

    monkeypatch.setattr("solver.rummikub.cli.review_rummikub", review)
    assert main(["review", str(path), "--json", "--lang", "ja"]) == 0
    out = capsys.readouterr().out
    assert "セット 0 は有効ではありません" in out
    assert json.loads(out)["problems"] == ["セット 0 は有効ではありません"]


def test_a_file_name_that_is_not_utf8_is_read_and_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A name the system allows (Python reads its byte as a lone surrogate): refused as
    # "the argument '...\\xff.json' is not valid UTF-8" once every argument was checked
    # as text before parsing, file names too.
    record = os.fsdecode(os.fsencode(tmp_path) + b"/game\xff.json")
    records = os.fsdecode(os.fsencode(tmp_path) + b"/records\xff")
    assert main(["game", "--bots", "greedy,greedy", *TINY, "--out", record]) == 0
    assert main(["review", record]) == 0
    tournament = ["tournament", "--bots", "greedy,greedy", "--games", "2", "--processes", "1"]
    assert main([*tournament, *TINY, "--no-progress", "--records", records]) == 0
    assert len(list(Path(records).iterdir())) == 2
    assert "not valid UTF-8" not in capsys.readouterr().err
    # The text of every other argument is still checked.
    assert main(["game", "--bots", os.fsdecode(b"greedy,gr\xffedy")]) == 2
    assert "the argument 'greedy,gr\\xffedy' is not valid UTF-8" in capsys.readouterr().err


def test_a_bot_whose_search_found_nothing_does_not_say_there_is_no_play(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # A search stopped at its work bound before finding anything: the bot draws, but
    # "there is no play" was not known.
    def stopped(*args: Any, **kwargs: Any) -> Play:
        spent = replace(Limit(), deadline=time.perf_counter() - 1.0)
        return replace(search.solve(*args, **{**kwargs, "limit": spent}), time_capped=False)

    monkeypatch.setattr("solver.rummikub.strategy.solve", stopped)
    assert main(["bot", "--rack", "R1 R2 R3"]) == 0
    out = capsys.readouterr().out
    assert out == (
        "strong draws a tile.\n"
        "The best play found places 0 tiles (a search stopped at its work bound: not proven"
        " the best).\n"
        "Why: no play was found before the search stopped: it draws.\n"
    )


def test_bot_command_from_flags_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["bot", "--bot", "strong", "--rack", "R1 R2 R3 K11 O4 J", "--table", "K8 K9 K10"]
    assert main([*argv, "--opponents", "9o"]) == 0
    out = capsys.readouterr().out
    assert "strong plays 1 tile: K11" in out
    assert "The best play places 5 tiles." in out
    assert main(["bot", "--rack", "R1", "--opponents", "nine"]) == 2
    assert "--opponents takes rack sizes" in capsys.readouterr().err


_TOURNAMENT = ["tournament", "--bots", "greedy", "--games", "1", "--processes", "1"]


@pytest.mark.parametrize(
    "argv",
    [
        ["game", "--bots", "greedy,greedy", *TINY, "--out"],
        [*_TOURNAMENT, "--no-progress", *TINY, "--json"],
        [*_TOURNAMENT, "--no-progress", *TINY, "--records"],
    ],
    ids=["game --out", "tournament --json", "tournament --records"],
)
def test_every_file_flag_makes_missing_folders_and_refuses_what_it_cannot_write(
    argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # game --out and tournament --json once raised FileNotFoundError or IsADirectoryError
    # out of the command, while --records made its missing folders.
    flag = argv[-1]
    target = tmp_path / "new" / "folder" / "out.json"
    assert main([*argv, str(target)]) == 0
    assert target.exists()
    blocker = tmp_path / "file"
    blocker.write_text("")
    bad = [blocker / "out.json"] + ([blocker] if flag == "--records" else [tmp_path])
    for path in bad:
        capsys.readouterr()
        assert main([*argv, str(path)]) == 2
        err = capsys.readouterr().err
        if path.parent == blocker:  # a file where a folder should be: "File exists" before
            assert err.rstrip().endswith(": a part of the path is not a folder")
        assert err.startswith(f"error: {flag}: cannot write {path}") or err.startswith(
            f"error: {flag}: cannot write {blocker}"
        )
        assert err.count("\n") == 1


@pytest.mark.parametrize(
    "argv",
    [
        ["review", ""],
        ["game", "--bots", "greedy,greedy", "--out", ""],
        [*_TOURNAMENT, "--no-progress", "--json", ""],
        [*_TOURNAMENT, "--no-progress", "--records", ""],
    ],
    ids=["review", "game --out", "tournament --json", "tournament --records"],
)
def test_an_empty_file_name_is_a_usage_error_naming_the_argument(
    argv: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # As a path it was the current folder (review said "cannot read .: it is a folder"),
    # and tournament --json '' or --records '' played every game and wrote nothing.
    def played(*_args: Any, **_kwargs: Any) -> Any:
        raise AssertionError("the games were played")

    monkeypatch.setattr("solver.arena.cli.run_tournament", played)
    argument = "record" if argv[0] == "review" else argv[-2]
    for lang, said in (
        ("en", f"error: argument {argument}: the file name is empty\n"),
        ("ja", f"エラー: 引数 {argument}: ファイル名が空です\n"),
    ):
        monkeypatch.setenv("LANGUAGE", lang)  # the tournament takes no --lang
        with pytest.raises(SystemExit) as exit_:
            main(argv)
        assert exit_.value.code == 2
        assert capsys.readouterr().err.endswith(said)


def test_game_out_dash_writes_the_record_to_stdout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # It wrote a file named '-', where review reads '-' as stdin.
    monkeypatch.chdir(tmp_path)
    argv = ["game", "--bots", "greedy,greedy", "--seed", "1", *TINY]
    assert main([*argv, "--out", "-"]) == 0
    dashed = capsys.readouterr()
    assert not (tmp_path / "-").exists()
    assert main(argv) == 0
    assert capsys.readouterr() == dashed
    assert json.loads(dashed.out)["format"] == "meldwise-rummikub-game"
    assert "record written to standard output" in dashed.err


def test_a_tournament_refuses_a_scheduler_without_dask(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The local pool played the games and the address was ignored without a word.
    def played(*_args: Any, **_kwargs: Any) -> Any:
        raise AssertionError("the games were played")

    monkeypatch.setattr("solver.arena.cli.run_tournament", played)
    argv = [*_TOURNAMENT, "--no-progress", "--scheduler", "tcp://127.0.0.1:8786"]
    monkeypatch.setenv("LANGUAGE", "en")
    assert main(argv) == 2
    assert capsys.readouterr().err == (
        "error: --scheduler is a Dask scheduler's address: add --dispatch dask\n"
    )
    monkeypatch.setenv("LANGUAGE", "ja")
    assert main(argv) == 2
    assert capsys.readouterr().err.startswith("エラー: --scheduler は Dask のスケジューラー")


def test_a_tournament_without_dask_names_the_dispatch_flag(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # "dispatch 'dask' needs Dask" named the value, not the flag typed.
    monkeypatch.setitem(sys.modules, "distributed", None)  # import fails
    argv = [*_TOURNAMENT, "--no-progress", "--dispatch", "dask"]
    install = "pip install 'meldwise[dask]'"
    for lang, said in (
        ("en", f"error: --dispatch dask needs Dask: {install}\n"),
        ("ja", f"エラー: --dispatch dask には Dask が必要です: {install}\n"),
    ):
        monkeypatch.setenv("LANGUAGE", lang)
        assert main(argv) == 2
        assert capsys.readouterr().err == said


@pytest.mark.parametrize("flag", ["--json", "--records"])
def test_a_tournament_refuses_an_output_path_before_playing(
    flag: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # A bad --records or --json path was said only once every game had been played,
    # and the games were lost.
    def played(*_args: Any, **_kwargs: Any) -> Any:
        raise AssertionError("the games were played")

    monkeypatch.setattr("solver.arena.cli.run_tournament", played)
    blocker = tmp_path / "file"
    blocker.write_text("")
    assert main([*_TOURNAMENT, "--no-progress", *TINY, flag, str(blocker / "out")]) == 2
    assert "a part of the path is not a folder" in capsys.readouterr().err


@pytest.mark.parametrize("game", ["rummikub", "shanghai"])
def test_a_game_refuses_an_out_path_before_playing(
    game: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # A bad --out path was said only once the whole game had been played, and the game
    # was lost.
    def played(*_args: Any, **_kwargs: Any) -> Any:
        raise AssertionError("the game was played")

    monkeypatch.setattr("solver.rummikub.cli.game_rummikub", played)
    monkeypatch.setattr("solver.rummikub.cli.shanghai_game", played)
    blocker = tmp_path / "file"
    blocker.write_text("")
    argv = ["game", "--game", game, "--bots", "greedy,greedy", "--out"]
    for path, why in (
        (blocker / "out.json", "a part of the path is not a folder"),
        (tmp_path, "it is a folder"),
    ):
        assert main([*argv, str(path)]) == 2
        assert capsys.readouterr().err == f"error: --out: cannot write {path}: {why}\n"
    assert sorted(tmp_path.iterdir()) == [blocker]


def test_a_turn_whose_best_is_to_place_nothing_says_so_in_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # An illegal turn with no legal play printed "best 0 tiles / 0 points ()".
    turn = {"turn": 1, "player": 0, "rack": ["B1", "B5", "K9"], "table_before": []}
    record = {
        "format": "meldwise-rummikub-game",
        "version": 1,
        "turns": [{**turn, "action": "play", "table_after": [["B1", "B5", "K9"]]}],
    }
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    assert main(["review", str(path)]) == 0
    out = capsys.readouterr().out
    assert "turn 1, player 0: played B1 B5 K9; best: no play was possible; ILLEGAL:" in out
    assert "()" not in out


def test_bot_game_and_review_write_tiles_in_the_notation_asked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The game commands had no --notation: a Japanese player got O11 where solve writes Y11.
    argv = ["bot", "--bot", "greedy", "--rack", "O1 O2 O3 R11", "--table", "O10 O11 O12"]
    assert main([*argv, "--notation", "RBYK"]) == 0
    out = capsys.readouterr().out
    assert "greedy plays 3 tiles: Y1 Y2 Y3" in out
    assert "  0. Y10 Y11 Y12" in out  # the table's set, kept as set 0
    path = tmp_path / "game.json"
    game = ["game", "--bots", "greedy,greedy", "--option", "hand=5", "--out", str(path)]
    assert main([*game, "--notation", "RBYK"]) == 0
    capsys.readouterr()
    written = path.read_text()
    assert '"Y' in written
    assert '"O' not in written
    assert len(replay(read_record(json.loads(written))).turns) > 0  # it reads back
    assert main(["review", str(path), "--json", "--notation", "RBYK"]) == 0
    out = capsys.readouterr().out
    assert '"Y' in out
    assert '"O' not in out
    assert main(["review", str(path), "--json"]) == 0  # RBKO by default, whatever the record
    out = capsys.readouterr().out
    assert '"O' in out
    assert '"Y' not in out


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        (
            "en",
            "error: record: turns[1].rack: unknown tile 'G4': this game's colours are R B K Y\n",
        ),
        (
            "ja",
            "エラー: record: turns[1].rack: 不明なタイル 'G4': "
            "このゲームの色は R B K Y(赤・青・黒・黄)です\n",
        ),
    ],
)
def test_review_names_a_tile_the_record_lacks_in_the_notation_asked_for(
    lang: str, said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The record was read before --notation: "this game's colours are R B K O".
    turn = {"player": 0, "rack": ["R1"], "table_before": [], "action": "draw", "drawn": "R13"}
    turns = [{**turn, "turn": 1}, {**turn, "turn": 2, "player": 1, "rack": ["G4"]}]
    path = tmp_path / "game.json"
    path.write_text(json.dumps({"turns": turns}))
    assert main(["review", str(path), "--notation", "RBYK", "--lang", lang]) == 2
    assert capsys.readouterr().err == said


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid``."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit():
                stat = (entry / "stat").read_text()
                if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                    found.append(int(entry.name))
        except (OSError, IndexError):
            continue
    return found


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc for the pool's processes")
def test_sigterm_stops_a_tournament_and_its_pool() -> None:
    # SIGTERM ended the tournament's process at once and left its pool's processes
    # running, orphaned (holding its output open: a reader waited for ever).
    command = [sys.executable, "-m", "solver", "tournament", "--bots", "greedy,greedy"]
    command += ["--games", "5000", "--processes", "2"]
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while len(pool := _children(child.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert len(pool) >= 2  # the pool is up
        time.sleep(1.0)  # its games under way
        child.send_signal(signal.SIGTERM)
        _, err = child.communicate(timeout=60)
    finally:
        child.kill()
    assert child.returncode == 128 + signal.SIGTERM
    assert b"Traceback" not in err
    deadline = time.monotonic() + 30
    while any(Path(f"/proc/{pid}").exists() for pid in pool) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(Path(f"/proc/{pid}").exists() for pid in pool)


def test_a_tournament_refuses_records_to_standard_output(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # '-' is standard output for --json and game --out: --records - played every game
    # and wrote the records into a new folder named '-'.
    def played(*_args: Any, **_kwargs: Any) -> Any:
        raise AssertionError("the games were played")

    monkeypatch.setattr("solver.arena.cli.run_tournament", played)
    monkeypatch.chdir(tmp_path)
    argv = [*_TOURNAMENT, "--no-progress", "--records", "-"]
    monkeypatch.setenv("LANGUAGE", "en")
    assert main(argv) == 2
    assert capsys.readouterr().err == (
        "error: --records writes a file per game into a folder, and '-' (standard output) is"
        " none: give a folder, or --json - for the report\n"
    )
    monkeypatch.setenv("LANGUAGE", "ja")
    assert main(argv) == 2
    assert capsys.readouterr().err.startswith("\u30a8\u30e9\u30fc: --records \u306f")
    assert not (tmp_path / "-").exists()


def test_a_knob_after_a_comma_is_said_to_be_joined_with_a_plus(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # 'strong:hurry_rack=3,stuck=set' read stuck=set as the second seat's bot: "unknown
    # bot 'stuck=set'; bots are beginner, greedy, strong" left the '+' to docs/games.md.
    argv = ["tournament", "--bots", "strong:hurry_rack=3,stuck=set", "--no-progress"]
    monkeypatch.setenv("LANGUAGE", "en")
    assert main(argv) == 2
    assert capsys.readouterr().err == (
        "error: --bots: unknown bot 'stuck=set': a strong bot's knobs are joined with '+'"
        " (strong:hurry_rack=3+stuck=set), for commas separate the seats\n"
    )
    monkeypatch.setenv("LANGUAGE", "ja")
    assert main(argv) == 2
    assert "(strong:hurry_rack=3+stuck=set)\u3002\u30ab\u30f3\u30de" in capsys.readouterr().err
    assert main(["tournament", "--bots", "strong,grredy", "--no-progress"]) == 2
    assert "grredy" in capsys.readouterr().err


def test_a_game_of_one_turn_is_said_in_the_singular(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Three tiles a hand, sets of two and no threshold: seed 6's first player lays all
    # three down at once. The summary said "1 turns, a player went out; ...".
    path = tmp_path / "game.json"
    options = ["hand=3", "rules.opening_threshold=0", "rules.min_set_len=2"]
    argv = ["game", "--bots", "strong,greedy", "--seed", "6", "--out", str(path)]
    for option in options:
        argv += ["--option", option]
    assert main(argv) == 0
    assert len(json.loads(path.read_text())["turns"]) == 1
    record = json.loads(path.read_text())
    winners, scores = record["result"]["winners"], record["result"]["scores"]
    # The seats and scores as words: it said "winners [0], scores [3, -3]", the lists' repr.
    assert capsys.readouterr().out.startswith(
        f"1 turn, a player went out; winners {winners[0]}; scores {scores[0]}, {scores[1]};"
    )
    assert main([*argv, "--lang", "ja"]) == 0
    assert capsys.readouterr().out.startswith("1\u624b\u3001")  # 1手、


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_review_lists_a_players_turns_as_words_not_a_python_list(
    lang: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # "illegal turns: [2, 4]" was the list's repr, in Japanese too ("ルール違反の手番: [2]").
    # Two openings under the threshold: both illegal, numbered as the JSON answer has them.
    turn = {"table_before": [], "action": "play", "played": ["B1", "B2", "B3"]}
    record = {
        "format": "meldwise-rummikub-game",
        "version": 1,
        "turns": [
            {"turn": 1, "player": 0, "rack": ["R9"], "table_before": [], "action": "draw",
             "drawn": "R8"},
            {"turn": 2, "player": 1, "rack": ["B1", "B2", "B3", "K5"], **turn,
             "table_after": [["B1", "B2", "B3"]]},
            {"turn": 3, "player": 0, "rack": ["R8", "R9"], "table_before": [], "action": "draw",
             "drawn": "R7"},
            {"turn": 4, "player": 1, "rack": ["B1", "B2", "B3", "K5"], **turn,
             "table_after": [["B1", "B2", "B3"]]},
        ],
    }  # fmt: skip
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    assert main(["review", str(path), "--json"]) == 0
    illegal = json.loads(capsys.readouterr().out)["players"][1]["illegal_turns"]
    assert illegal == [2, 4]
    assert main(["review", str(path), "--lang", lang]) == 0
    lines = capsys.readouterr().out.splitlines()
    line = next(s for s in lines if s.startswith(("Player 1", "プレイヤー1")))
    comma = "、" if lang == "ja" else ", "
    assert line.endswith(": " + comma.join(str(n) for n in illegal)), line


@pytest.mark.parametrize("command", [["review"], ["shanghai", "review"]])
def test_a_record_on_stdin_that_is_no_json_is_said_of_standard_input(
    command: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # It said "- is not valid JSON", where stdin that cannot be read is "cannot read
    # standard input" and a game's record is "written to standard output".
    monkeypatch.setattr("sys.stdin", io.StringIO("{"))
    assert main([*command, "-"]) == 2
    assert capsys.readouterr().err.startswith("error: standard input is not valid JSON: ")
    monkeypatch.setattr("sys.stdin", io.StringIO("{"))
    assert main([*command, "-", "--lang", "ja"]) == 2
    assert capsys.readouterr().err.startswith("エラー: 標準入力は正しいJSONではありません: ")

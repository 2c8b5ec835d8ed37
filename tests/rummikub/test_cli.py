"""The command line: human output, JSON and JSON-lines modes, exit codes."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
import time
from dataclasses import replace
from itertools import takewhile
from pathlib import Path
from typing import Any

import pytest

from meldwise.cli import main
from solver.commands import capped_note
from solver.cpsat import Limit, Status
from solver.i18n import language
from solver.rummikub.cli import opponents_from_flag
from solver.rummikub.notation import JOKER, Tile
from solver.rummikub.repair_cli import describe_repair
from solver.rummikub.validate_cli import describe_validation
from solver.rummikub.wire import (
    SolveRequest,
    no_play_text,
    repair_rummikub,
    score_rummikub,
    solve_rummikub,
    validate_rummikub,
)
from tests.rummikub.games_support import shanghai_record
from tests.support import run_solver_cli, spend_the_clock


def test_human_output_shows_jokers_with_what_they_stand_for(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = main(["solve", "--rack", "R1 R2 J", "--table", "R3 R4 R5 | K7 B7 O7"])
    out = capsys.readouterr().out
    assert code == 0
    assert "Play 3 tiles, 33 points: R1 R2 J" in out
    assert re.search(r"J\([RBKO]\d+\)", out)  # the joker with the tile it stands for
    assert "Steps:\n  1. Add your" in out


def _printed_table(out: str) -> list[list[str]]:
    """The sets under "Table after:" as printed, one list of words per set."""
    lines = out.split("Table after:\n")[1].splitlines()
    return [line.split()[2:] for line in lines if re.match(r"\s+\d+\. ", line)]


def test_a_printed_table_reads_back_as_the_same_tiles(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # J(R6) was printed but refused as input ("unknown tile 'J(R6)'").
    assert main(["solve", "--rack", "R5 J R7 J B1", "--table", "K1 K2 K3"]) == 0
    printed = _printed_table(capsys.readouterr().out)
    assert any(word.startswith("J(") for words in printed for word in words)
    pasted = " | ".join(" ".join(words) for words in printed)
    assert main(["solve", "--rack", "B13", "--table", pasted]) == 0
    again = _printed_table(capsys.readouterr().out)
    assert again == printed  # B13 fits nowhere: the same table, the same jokers
    assert Tile.parse("J(R6)") == JOKER


def test_one_point_is_said_in_the_singular(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "--rack", "R1", "--table", "R2 R3 J"]) == 0
    assert "Play 1 tile, 1 point: R1" in capsys.readouterr().out  # once "1 points"


def test_opening_and_points_flags(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "--rack", "R1 R2 R3 K4 K5 K6", "--opening"]) == 0
    assert "No play: draw a tile." in capsys.readouterr().out
    assert main(["solve", "--rack", "R1 R2 R12 R13 J", "--objective", "points"]) == 0
    assert "R12 R13 J" in capsys.readouterr().out


@pytest.mark.parametrize("command", ["solve", "bot"])
def test_the_opening_flag_names_the_rule_not_30_points(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # "--opening  the player has not opened yet (30-point rule)", whatever
    # --rule opening_threshold said; the request's 'opened' was described so too.
    with pytest.raises(SystemExit):
        main([command, "--help"])
    assert "30-point" not in capsys.readouterr().out
    assert "opening_threshold" in (SolveRequest.model_fields["opened"].description or "")


def test_bad_input_exits_2_with_the_message(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "--rack", "R1 Q5"]) == 2
    captured = capsys.readouterr()
    assert "'Q5'" in captured.err
    assert captured.out == ""
    assert main(["solve", "--rack", "R1", "--rule", "jokers"]) == 2
    assert "NAME=NUMBER or NAME=WORD" in capsys.readouterr().err
    assert main(["solve", "--rack", "R1", "--rule", "wrap_runs=yes"]) == 2
    assert "rule 'wrap_runs' must be true or false" in capsys.readouterr().err
    assert main(["solve", "--rack", "R1", "--rule", "jokers=--5"]) == 2  # once int() raised
    assert "rule 'jokers' must be a whole number, got '--5'" in capsys.readouterr().err
    assert main(["solve", "--rack", "R1", "--rule", "max_jokers_per_set=9"]) == 2
    assert "rule 'max_jokers_per_set' must be between 1 and 4, got 9" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("command", "error"),
    [
        # int() read "1_3" as 13 (so numbers=1_3 was a game of 13) and "1_0" as 10, said
        # back as "got 10"; and other scripts' digits as numbers.
        (["solve", "--rack", "R1", "--rule", "numbers=1_3"], "got '1_3'"),
        (["solve", "--rack", "R1", "--rule", "jokers=1_0"], "got '1_0'"),
        (["solve", "--rack", "R1", "--rule", "jokers=\u0663"], "got '\u0663'"),
        (["game", "--bots", "greedy,greedy", "--option", "rules.jokers=1_0"], "got '1_0'"),
        # int() refused a number past 4,300 digits, then said to be no whole number.
        (
            ["solve", "--rack", "R1", "--rule", "numbers=" + "9" * 5000],
            "--rule: a number has 5000 digits; at most 20 are accepted",
        ),
        (
            ["game", "--bots", "greedy,greedy", "--option", "hand=" + "9" * 5000],
            "--option: a number has 5000 digits; at most 20 are accepted",
        ),
    ],
)
def test_a_setting_flag_reads_a_number_of_ascii_digits_alone(
    command: list[str], error: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(command) == 2
    assert error in capsys.readouterr().err


def test_a_setting_flag_reads_full_width_digits(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "--rack", "R1", "--rule", "numbers=\uff15"]) == 0  # a full width 5
    assert main(["solve", "--rack", "R6", "--rule", "numbers=\uff15"]) == 2
    assert "numbers run from 1 to 5" in capsys.readouterr().err


NINES = "9" * 25


@pytest.mark.parametrize(
    ("command", "error"),
    [
        # int() and float() read "9_9" as 99 and "3_00" as 300, and other scripts'
        # digits as numbers: every number flag of every command.
        (["bot", "--rack", "R1", "--seed", "9_9"], "--seed: must be a whole number, got '9_9'"),
        (["game", "--bots", "greedy", "--seed", "\u0663"], "--seed: must be a whole number"),
        (["review", "-", "--player", "1_0"], "--player: must be a whole number, got '1_0'"),
        (["tournament", "--bots", "greedy", "--players", "2_0"], "--players: must be a whole"),
        (["tournament", "--bots", "greedy", "--games", "1_0"], "--games: must be a whole"),
        (["tournament", "--bots", "greedy", "--processes", "1_0"], "--processes: must be a"),
        (["tournament", "--bots", "greedy", "--seed", NINES], "--seed: a number has 25 digits;"),
        (["shanghai", "advise", "--hand-number", "1_0"], "--hand-number: must be a whole number"),
        (["shanghai", "advise", "--buys-left", "1_0"], "--buys-left: must be a whole number"),
        (["serve", "--port", "80_80"], "--port: must be a whole number, got '80_80'"),
        (["serve", "--workers", "1_0"], "--workers: must be a whole number, got '1_0'"),
        (["bench", "--seed", "9_9"], "--seed: must be a whole number, got '9_9'"),
        (["bench", "--per-bucket", "1_0"], "--per-bucket: must be a whole number"),
        (["bench", "--repeat", "1_0"], "--repeat: must be a whole number, got '1_0'"),
        (["bench", "--slowest", "1_0"], "--slowest: must be a whole number, got '1_0'"),
        (["bench", "--time-limit", "1_0"], "--time-limit: must be a number, got '1_0'"),
        (["solve", "--rack", "R1", "--time-limit", "3_00"], "--time-limit: must be a number"),
        (["solve", "--rack", "R1", "--time-limit", "\u0663"], "must be a number, got '\u0663'"),
        (["solve", "--rack", "R1", "--disruption-time-limit", "1_0"], "time-limit: must be a"),
        (["repair", "--table", "R1 R2 R3", "--time-limit", "1_0"], "--time-limit: must be a"),
        (["review", "-", "--time-limit", "1_0"], "--time-limit: must be a number, got '1_0'"),
        (["solve", "--rack", "R1", "--time-limit", "1" + NINES], "a number has 26 digits;"),
        (["solve", "--rack", "R1", "--time-limit", "1e" + NINES], "a number has 25 digits;"),
        (
            ["bot", "--lang", "ja", "--rack", "R1", "--seed", NINES],
            "--seed: \u6570\u5024\u304c25\u6841\u3042\u308a\u307e\u3059",
        ),
        (
            ["bot", "--lang", "ja", "--rack", "R1", "--seed", "9_9"],
            "--seed: \u6574\u6570\u3067\u6307\u5b9a\u3057\u3066\u304f\u3060\u3055\u3044"
            "(\u6307\u5b9a\u5024: '9_9')",
        ),
    ],
)
def test_a_number_flag_reads_ascii_digits_alone(
    command: list[str], error: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as raised:
        main(command)
    assert raised.value.code == 2
    assert error in capsys.readouterr().err


def test_a_number_flag_reads_full_width_digits_and_quotes_seconds_as_typed(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # A full width 2 (seconds) and 7 (a seed), as --rule and --option read them.
    assert main(["solve", "--rack", "R1 R2 R3", "--time-limit", "\uff12"]) == 0
    assert main(["bot", "--rack", "R1", "--seed", "\uff17"]) == 0
    # 1e-400 is not 0: float() read it so, and said "got 0" of it.
    assert main(["solve", "--rack", "R1", "--time-limit", "1e-400", "--lang", "ja"]) == 2
    assert "1e-400" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("seconds", "shown"),
    [
        ("nan", "nan"),
        ("inf", "inf"),
        ("-inf", "-inf"),
        ("1e300", "1e300"),
        # float() read it as 0, said so: "got 0" of a time limit not typed 0.
        ("1e-400", "1e-400"),
        ("0", "0"),
        ("300.1", "300.1"),
        # Said "got 300", a value in the range it gave: six digits kept of 300.0001.
        ("300.0001", "300.0001"),
        ("0.00099999999", "0.00099999999"),
    ],
)
@pytest.mark.parametrize(
    "command",
    [
        ["solve", "--rack", "R1 R2 R3"],
        ["repair", "--table", "R1 R2 R3"],
        ["shanghai", "advise", "--hand", "7H 7S 7D", "--hand-number", "1"],
    ],
)
def test_a_time_limit_out_of_range_exits_2_naming_it(
    command: list[str], seconds: str, shown: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # NaN and the infinities once reached round(), which raised out of the command.
    assert main([*command, f"--time-limit={seconds}"]) == 2
    assert f"--time-limit must be between 0.001 and 300 seconds, got {shown}\n" in (
        capsys.readouterr().err
    )


@pytest.mark.parametrize(
    ("seconds", "ms"), [("0", 0), ("-0", 0), ("0.001", 1), ("0.5", 500), ("300", 300_000)]
)
def test_solve_takes_the_disruption_time_limit_of_the_request(
    seconds: str, ms: int, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # HTTP and --json requests take disruption_time_limit_ms; the flags had no way to.
    asked: list[dict[str, Any]] = []

    def solve(request: dict[str, Any]) -> dict[str, Any]:
        asked.append(request)
        return solve_rummikub(request)

    monkeypatch.setattr("solver.rummikub.cli.solve_rummikub", solve)
    assert main(["solve", "--rack", "R1 R2 R3", "--disruption-time-limit", seconds]) == 0
    assert asked[0]["disruption_time_limit_ms"] == ms
    assert "Play 3 tiles" in capsys.readouterr().out


UNPROVEN = "Not proven to disturb the table least: a play as good may move fewer table tiles."


def test_a_play_whose_table_moves_are_not_proven_the_fewest_says_so(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # With the least-disruption stage skipped the steps split R1-R5 to play R3, and
    # nothing said that no calmer play was looked for ('Solver: optimal' speaks of the
    # score alone).
    argv = ["solve", "--rack", "R3", "--table", "R1 R2 R3 R4 R5"]
    assert main([*argv, "--disruption-time-limit", "0"]) == 0
    assert UNPROVEN in capsys.readouterr().out.splitlines()
    assert main(argv) == 0
    assert "Not proven" not in capsys.readouterr().out
    assert main([*argv, "--disruption-time-limit", "0", "--lang", "ja"]) == 0
    assert "場の動かし方が最小とは証明されていません" in capsys.readouterr().out


def test_a_time_limit_that_stopped_the_calm_search_is_said(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # time_capped and disruption_proven went unsaid: the answer of a search the clock
    # cut read as the proven calm one. Then it said "a time limit stopped the search",
    # of the calm stage, which time_capped (any search's) does not establish.
    def cut(request: dict[str, Any]) -> dict[str, Any]:
        return {**solve_rummikub(request), "time_capped": True, "disruption_proven": False}

    monkeypatch.setattr("solver.rummikub.cli.solve_rummikub", cut)
    assert main(["solve", "--rack", "R1 R2 R3", "--table", "K1 K2 K3"]) == 0
    said = [line for line in capsys.readouterr().out.splitlines() if "Not proven" in line]
    assert said == [
        "Not proven to disturb the table least (a time limit cut a search of this answer"
        " short: --time-limit, --disruption-time-limit); a play as good may move fewer table"
        " tiles."
    ]


@pytest.mark.parametrize(
    "seconds",
    ["nan", "inf", "-1", "-0.001", "300.1", "300.0001", "0.0004", "0.0005", "0.0009", "1e-300"],
)
def test_a_disruption_time_limit_out_of_range_exits_2_naming_it(
    seconds: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # A positive time below 1 ms rounded to 0 ms, which skipped the stage unsaid.
    assert main(["solve", "--rack", "R1 R2 R3", f"--disruption-time-limit={seconds}"]) == 2
    shown = seconds  # as given
    assert capsys.readouterr().err == (
        f"error: --disruption-time-limit must be 0 or between 0.001 and 300 seconds, got {shown}\n"
    )
    args = ["solve", "--rack", "R1", "--disruption-time-limit", seconds, "--lang", "ja"]
    assert main(args) == 2
    assert capsys.readouterr().err == (
        "エラー: --disruption-time-limit は 0 か、0.001 から 300 までの秒数で指定してください"
        f"(指定値: {shown})\n"
    )


@pytest.mark.parametrize("hint", ["nudge", "tile", "full"])
def test_free_jokers_are_said_at_every_hint_level(
    hint: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # Below hint level full the answer's count went unsaid: --free-jokers did nothing.
    args = ["solve", "--rack", "B1", "--table", "R1 R2 R3 J | K5 K6 J", "--free-jokers"]
    assert main([*args, "--hint", hint]) == 0
    out = capsys.readouterr().out
    assert out.startswith("No play: draw a tile.\nTable jokers no set needs: 1\n")


def test_solve_opponents_adds_the_strong_bots_advice(capsys: pytest.CaptureFixture[str]) -> None:
    # HTTP and --json took opponents; the flags could not ask for the advice.
    args = ["solve", "--rack", "R1 R2 R3 K11 O4 J", "--table", "K8 K9 K10", "--opponents", "9o"]
    asked = {
        "rack": ["R1", "R2", "R3", "K11", "O4", "J"],
        "table": [["K8", "K9", "K10"]],
        "opponents": [{"rack_size": 9, "opened": True}],
    }
    for hint in ("full", "nudge"):
        assert main([*args, "--hint", hint]) == 0
        advice = solve_rummikub({**asked, "hint_level": hint})["advice"]["text"]
        assert advice.startswith("The strong bot would play only 1 of the 5 tiles")
        assert f"\n{advice}\n" in capsys.readouterr().out
    assert main(["solve", "--rack", "R1 R2 R3"]) == 0
    assert "strong bot" not in capsys.readouterr().out  # no opponents, no advice
    assert main([*args[:-1], "9x"]) == 2
    assert "--opponents takes rack sizes like 9,14 or 9o, got '9x'" in capsys.readouterr().err


def test_solve_cut_by_the_clock_says_what_the_advice_counts(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """ "No play found before the search stopped." then "The strong bot would play only
    2 of the 5 tiles": 5 tiles of a play not shown (the walk's --time-limit 0.001)."""
    args = ["solve", "--rack", "K8 K9 O1 J B12 B13 K12", "--opponents", "9o,3"]
    args += ["--table", "B7 K7 O7 R7 | R1 R2 R3 | R5 J B5"]
    spend_the_clock(monkeypatch, "solver.rummikub.wire")  # the bot's clock is its own
    for hint in ("full", "nudge"):
        assert main([*args, "--hint", hint]) == 0
        out = capsys.readouterr().out
        assert out.startswith("No play found before the search stopped.\n")
        assert "\nThe strong bot's own search finds a play of 5 tiles, where this answer" in out
        assert "The strong bot would" not in out


def test_opponents_are_read_as_sets_and_runs_are() -> None:
    # One parser (solver.commands.sizes_from_flag): spaces part sizes, as they do
    # --sets 3 3 and the tiles, and full width digits, commas and o read as ASCII.
    nine_opened_then_fourteen = [
        {"rack_size": 9, "opened": True},
        {"rack_size": 14, "opened": False},
    ]
    for given in ("9o,14", "9o 14", " 9o , 14 ", "\uff19\uff4f\uff0c\uff11\uff14"):
        assert opponents_from_flag(given) == nine_opened_then_fourteen


@pytest.mark.parametrize("command", ["solve", "bot"])
@pytest.mark.parametrize("given", ["", " , ", "9,,14", "9,"])
def test_opponents_with_an_empty_size_names_the_flag(
    capsys: pytest.CaptureFixture[str], command: str, given: str
) -> None:
    # "" was refused as the request's field ('opponents' must hold at least 1, got 0)
    # and "9,,14" read as two players.
    for lang, said in (
        ("en", f"error: --opponents takes rack sizes like 9,14 or 9o, got {given!r}\n"),
        (
            "ja",
            "エラー: --opponents は 9,14 や 9o のように手持ちの枚数で指定してください"
            f"(指定値: {given!r})\n",
        ),
    ):
        assert main([command, "--rack", "R1 R2 R3", "--opponents", given, "--lang", lang]) == 2
        assert capsys.readouterr().err == said


@pytest.mark.parametrize(
    "argv",
    [
        ["solve", "--rack", "R1"],
        ["validate", "--rack", "R1", "--after", ""],
        ["repair", "--table", "R1 R2 R3"],
        ["score", "--rack", "a=R1"],
        ["shanghai", "score", "--hand", "a=AS"],
        ["shanghai", "advise", "--hand", "AS", "--hand-number", "1"],
    ],
)
def test_a_rule_given_twice_is_refused_by_name(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    # The last was kept without a word: --rule jokers=2 --rule jokers=3 was 3 jokers.
    rules = ["--rule", "jokers=2", "--rule", "jokers =3"]
    if argv[0] == "shanghai":
        rules = ["--rule", "decks=2", "--rule", "decks =3"]
    name = rules[1].partition("=")[0]
    assert main([*argv, *rules]) == 2
    assert capsys.readouterr().err == f"error: --rule sets {name!r} twice; give it once\n"
    assert main([*argv, *rules, "--lang", "ja"]) == 2
    assert capsys.readouterr().err == (
        f"エラー: --rule で {name!r} が2回指定されています。1回だけ指定してください\n"
    )


def test_wrap_runs_rule(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["solve", "--rack", "O12 O13 K5", "--table", "O1 O2 O3", "--rule", "wrap_runs=true"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "Add your O12 O13 to set 0, making the orange run 12-3: O12 O13 O1 O2 O3." in out


def test_json_mode_reads_one_request() -> None:
    done = run_solver_cli(["solve", "--json"], json.dumps({"rack": ["R1", "R2", "R3"]}))
    assert done.returncode == 0
    assert json.loads(done.stdout)["tiles_played"] == 3


def test_json_mode_errors_exit_2() -> None:
    done = run_solver_cli(["solve", "--json"], "{not json")
    assert done.returncode == 2
    assert "not valid JSON" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize(
    ("argv", "body", "message"),
    [
        (
            ["shanghai", "score", "--json"],
            '{"hands": {"ann": ["AS", "KD"], "ann": []}}',
            "the key 'ann' is given twice in one object",
        ),
        (["solve", "--json"], '{"rack": ["R1", "R2", "R3"], "rack": []}', "'rack' is given twice"),
        (["review", "-"], '{"turns": [], "turns": []}', "'turns' is given twice"),
        (["solve", "--json"], '{"rack": [' + "9" * 5000 + "]}", "a number has 5000 digits"),
        (["solve", "--json"], "[" * 5000 + "]" * 5000, "not valid JSON"),
        # Worded in the language asked for: the parser's own English ("Expecting ','
        # delimiter", "maximum recursion depth") used to stand in the Japanese sentence.
        (["solve", "--json", "--lang", "ja"], '{"rack": ["R1" "R2"]}', "16文字目で区切りの ','"),
        (["review", "-", "--lang", "ja"], "[" * 5000 + "]" * 5000, "入れ子が深すぎます"),
    ],
)
def test_json_input_is_read_as_strictly_as_over_http(
    argv: list[str],
    body: str,
    message: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # A key given twice once had its second value silently replace the first (HTTP
    # refused it), and numbers too long or nesting too deep raised out of the command.
    monkeypatch.setattr("sys.stdin", io.StringIO(body))
    assert main(argv) == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize(
    ("record", "message"),
    [
        (
            # It said only "'record.format' must be 'meldwise-rummikub-game', got
            # 'meldwise-shanghai-game'": which command reads it was left to be found.
            shanghai_record(),
            "error: 'record.format' is 'meldwise-shanghai-game': a record of that game is"
            " reviewed with meldwise shanghai review (HTTP: POST /v1/shanghai/review)\n",
        ),
        ({"seed": 2**31 + 1, "turns": []}, "error: 'record.seed' must be at most 2147483648, got"),
    ],
    ids=["shanghai", "seed"],
)
def test_review_names_the_one_field_that_makes_a_record_unreadable(
    record: dict[str, Any],
    message: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A Shanghai record was refused for its format, then for its missing 'turns' and
    its unknown 'hands' and 'scores'; a seed no game deals from was read."""
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(record)))
    assert main(["review", "-"]) == 2
    assert capsys.readouterr().err.startswith(message)


def test_jsonl_mode_answers_in_order_and_goes_on_after_errors() -> None:
    lines = [
        json.dumps({"rack": ["R1", "R2", "R3"]}),
        json.dumps({"rack": ["Q5"]}),
        "nonsense",
        json.dumps({"rack": ["K13", "B13", "O13"], "opened": False}),
        json.dumps({"rack": ["Q5", "R\ud800"], "lang": "ja"}),
        "",  # no answer: a refused line says its number
    ]
    done = run_solver_cli(["solve", "--jsonl"], "\n".join(lines) + "\n")
    assert done.returncode == 0
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(answers) == 5
    assert answers[0]["tiles_played"] == 3
    assert "'Q5'" in answers[1]["error"]
    assert "not valid JSON" in answers[2]["error"]
    assert [a.get("line") for a in answers] == [None, 2, 3, None, 5]
    assert answers[3]["tiles_played"] == 3
    # Japanese as text, not \u escapes; an echoed lone surrogate does not stop the stream.
    assert "不明なタイル 'Q5'" in done.stdout
    assert "'R\\ud800'" in answers[4]["error"]


def test_input_that_is_not_utf8_is_named_by_its_byte() -> None:
    # It read as "unknown tile 'R1\udcff'" or "not valid JSON" on stdin (HTTP named the byte).
    def run(args: list[str], stdin: bytes) -> subprocess.CompletedProcess[bytes]:
        command = [sys.executable, "-m", "solver", *args]
        return subprocess.run(command, input=stdin, capture_output=True, check=False)

    done = run(["solve", "--json"], b'{"rack": ["R1\xff"]}')
    assert done.returncode == 2
    assert done.stderr == b"error: the input is not valid UTF-8: byte 0xff at position 14\n"
    done = run(["review", "-"], b"\xff\xfe{}")
    assert b"the input is not valid UTF-8: byte 0xff at position 1" in done.stderr
    # Counted from 1, as a JSON syntax error's character is: it said position 0 here.
    done = run(["solve", "--json"], b'{"rack": [x]}')
    assert done.stderr == b"error: the request is not valid JSON: Expecting value at character 11\n"
    done = run(["solve", "--json"], b'{"rack": [\xff]}')
    assert done.stderr == b"error: the input is not valid UTF-8: byte 0xff at position 11\n"
    # An argument read as "unknown tile 'R\\udcff'" (Python's surrogate for the byte).
    done = run(["solve", "--rack", os.fsdecode(b"R\xff")], b"")
    assert done.returncode == 2
    assert done.stderr == b"error: the argument 'R\\xff' is not valid UTF-8: byte 0xff\n"


@pytest.mark.parametrize(
    ("rack", "lang", "said"),
    [
        (
            "Q5",
            "en",
            "error: --rack: unknown tile 'Q5': 'Q' is not a colour (colours are R, B, K, Y)\n",
        ),
        (
            "Q5",
            "ja",
            "エラー: --rack: 不明なタイル 'Q5': 'Q' は色ではありません"
            "(色は R、B、K、Y、または赤・青・黒・黄)\n",
        ),
        ("G4", "en", "error: --rack: unknown tile 'G4': this game's colours are R B K Y\n"),
        (
            "G4",
            "ja",
            "エラー: --rack: 不明なタイル 'G4': このゲームの色は R B K Y(赤・青・黒・黄)です\n",
        ),
    ],
)
def test_an_unknown_tile_names_the_colours_in_the_notation_asked_for(
    rack: str, lang: str, said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # The rack was read before --notation: "colours are R, B, K, O" under RBYK.
    assert main(["solve", "--notation", "RBYK", "--lang", lang, "--rack", rack]) == 2
    assert capsys.readouterr().err == said


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["solve", "--lang", "\udcff"], "argument --lang: invalid choice: '\\xff' (choose"),
        (["solve", "--notation", "R\udcff"], "invalid choice: 'R\\xff' (choose from 'RBKO'"),
        (["\udcff"], "argument command: invalid choice: '\\xff' (choose from 'solve'"),
        (["solve", "--time-limit", "\udcff"], "must be a number, got '\\xff'\n"),
        (["solve", "--rack", "R1", "--\udcff"], "unrecognized arguments: --\\xff\n"),
        (["bench", "--peer-backend", "\udcff"], "invalid choice: '\\xff' (choose from 'SCIPY'"),
        # A value given to a flag that takes none: "ignored explicit argument '\\udcff'".
        (["solve", "--json=\udcff"], "argument --json: ignored explicit argument '\\xff'\n"),
        (["solve", "--json=\udcff", "--lang", "ja"], "値を取らないオプションに値 '\\xff' が"),
        (["shanghai", "score", "-h\udcff"], "ignored explicit argument '\\xff'\n"),
        (["solve", "--free-jokers=a'\udcff"], 'ignored explicit argument "a\'\\xff"\n'),
        # What reads as a byte's surrogate, written so, is said as written.
        (["solve", "--lang", "\\udcff"], "invalid choice: '\\\\udcff' (choose"),
        (["solve", "--rack", "R1", "\\udcff"], "unrecognized arguments: \\udcff\n"),
        (["solve", "--json=\\udcff"], "ignored explicit argument '\\\\udcff'\n"),
    ],
)
def test_a_usage_error_names_a_byte_not_utf8_as_every_other_error(
    args: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # argparse quoted it as Python's surrogate for it: '\udcff'.
    with pytest.raises(SystemExit) as raised:
        main(args)
    assert raised.value.code == 2
    assert said in capsys.readouterr().err


def test_a_usage_error_beside_a_long_word_quotes_in_linear_time(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Every rest of every word was tried as a quoted value: 3,000 tries for this rack,
    # and a 96 KB rack took 133 s before the one-line error about --objective.
    import solver.commands

    tries = 0
    shown = solver.commands._shown  # noqa: SLF001 - the quoting counted

    def counted(message: str, value: str) -> str:
        nonlocal tries
        tries += 1
        return shown(message, value)

    monkeypatch.setattr(solver.commands, "_shown", counted)
    with pytest.raises(SystemExit) as raised:
        main(["solve", "--rack", "R5 " * 1000, "--objective", "bogus", "--json=\udcff"])
    assert raised.value.code == 2
    assert "invalid choice: 'bogus'" in capsys.readouterr().err
    assert tries < 10


def test_a_closed_stdin_reads_as_empty_and_a_closed_stdout_takes_no_traceback() -> None:
    # Python leaves a stream the shell closed None: sys.stdin.read() and stdout.write()
    # were AttributeError tracebacks (exit 1).
    command = f"{sys.executable} -m solver"
    for line, code, said in (
        ("solve --json <&-", 2, "error: standard input is empty: a JSON document was expected"),
        ("review - <&-", 2, "error: standard input is empty: a JSON document was expected"),
        ("solve --rack R1 >&-", 0, ""),
    ):
        done = subprocess.run(
            ["bash", "-c", f"{command} {line}"], capture_output=True, text=True, check=False
        )
        assert (done.returncode, done.stderr[: len(said)]) == (code, said)
        assert "Traceback" not in done.stderr


def test_input_over_the_cap_is_refused_not_read_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # meldwise review /dev/zero, solve --json < /dev/zero and solve --jsonl < /dev/zero
    # read until memory ran out (a MemoryError traceback, exit 1).
    monkeypatch.setattr("solver.commands.MAX_INPUT_BYTES", 1 << 20)
    request = '{"rack": ["R1", "R2", "R3"]}'
    at_cap = request + " " * ((1 << 20) - len(request))
    # Fewer characters than the cap, more bytes: U+3000 is 3 bytes of UTF-8.
    over = [at_cap + " ", request + "\u3000" * (1 << 19)]
    for text in [at_cap, *over]:
        monkeypatch.setattr("sys.stdin", io.StringIO(text))
        code = main(["solve", "--json"])
        said = capsys.readouterr()
        if text == at_cap:
            assert code == 0
            assert json.loads(said.out)["tiles_played"] == 3
        else:
            assert (code, said.err) == (
                2,
                "error: cannot read standard input: it is larger than 1 MiB\n",
            )
    lines = f"{over[0]}\n{request}\n{over[1]}{at_cap}\n{at_cap}"
    monkeypatch.setattr("sys.stdin", io.StringIO(lines))
    assert main(["solve", "--jsonl"]) == 0
    answers = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    # The rest of a line over the cap is read past: the next line is answered.
    too_large = "the line is larger than 1 MiB"
    assert [answers[0], answers[2]] == [
        {"error": too_large, "line": 1},
        {"error": too_large, "line": 3},
    ]
    assert answers[1]["tiles_played"] == answers[3]["tiles_played"] == 3
    assert len(answers) == 4
    path = tmp_path / "game.json"
    path.write_text(at_cap + "\n")
    assert main(["review", str(path), "--lang", "ja"]) == 2
    assert capsys.readouterr().err == f"エラー: {path} を読めません: 1 MiB を超えています\n"
    monkeypatch.setattr("sys.stdin", io.StringIO(over[0]))
    assert main(["review", "-"]) == 2
    assert capsys.readouterr().err == (
        "error: cannot read standard input: it is larger than 1 MiB\n"
    )


@pytest.mark.parametrize("objective", ["points", "tiles"])
def test_repair_objective_without_a_rack_is_refused(
    objective: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # Without --rack there is no rescue: --objective points was ignored without a word.
    argv = ["repair", "--table", "R1 R2", "--objective", objective]
    assert main(argv) == 2
    assert capsys.readouterr().err == (
        "error: --objective is for the rescue with --rack: give --rack, or leave --objective out\n"
    )
    assert main([*argv, "--lang", "ja"]) == 2
    assert "--objective は手持ちで救う手(--rack)のための指定です" in capsys.readouterr().err
    assert main([*argv, "--rack", "R3"]) == 0
    assert "Rescue with the rack: play 1 tile: R3" in capsys.readouterr().out


def test_a_rescue_that_plays_no_rack_tile_says_so_once(capsys: pytest.CaptureFixture[str]) -> None:
    # It said "Rescue with the rack: play 0 tiles: (none)" and printed the table again.
    assert main(["repair", "--table", "R1 R2 R3", "--rack", "K9"]) == 0
    out = capsys.readouterr().out
    assert "Rescue with the rack: no rack tile fits\n" in out
    assert "play 0 tiles" not in out
    assert "Table after the rescue" not in out
    assert main(["repair", "--table", "R1 R2 R3", "--rack", "K9", "--lang", "ja"]) == 0
    assert "no rack tile fits" not in capsys.readouterr().out


def test_repair_command(capsys: pytest.CaptureFixture[str]) -> None:
    table = ["--table", "R1 R2 | R3 B3 K3 O3 | R4 R5", "--before", "R3 B3 K3 O3"]
    assert main(["repair", *table, "--rack", "R6"]) == 0
    out = capsys.readouterr().out
    assert "The table can be repaired" in out
    assert "0. run    R1 R2 R3 R4 R5\n" in out
    assert "Rescue with the rack: play 1 tile: R6" in out
    assert main(["repair", "--table", "R1 R2 R3 B9", "--rule", "penalty_tiles=2"]) == 0
    out = capsys.readouterr().out
    assert "cannot be placed (proven fewest): B9" in out
    assert "draws 2 penalty tiles" in out
    assert main(["repair", "--table", "R1 R2", "--before", "R1 R2"]) == 2
    assert "error: --before: table set 0 (R1 R2)" in capsys.readouterr().err
    # Nothing fits (two jokers may not share a set): the heading says so, not a bare title.
    assert main(["repair", "--table", "J J R5", "--rule", "max_jokers_per_set=1"]) == 0
    assert "The most tiles that fit: none\n" in capsys.readouterr().out
    # An empty table was "repaired: every tile fits into valid sets".
    assert main(["repair", "--table", ""]) == 0
    assert capsys.readouterr().out == "There is nothing on the table.\n"


def test_a_repair_whose_moves_are_not_proven_the_fewest_says_so() -> None:
    # Its arrangement's disruption_proven false (a search stopped: seen at a 24 ms limit
    # on a 43-tile table) went unsaid under "Of the sets to keep: ...", as solve's did.
    request = {"table": [["R1", "R2"], ["R3", "B3", "K3", "O3"], ["R4", "R5"]]}
    answer = repair_rummikub({**request, "table_before": [["R3", "B3", "K3", "O3"]]})
    assert answer["arrangement"]["disruption_proven"]
    assert "Not proven" not in describe_repair(answer)
    unproven = {**answer["arrangement"], "disruption_proven": False}
    lines = describe_repair({**answer, "arrangement": unproven}).splitlines()
    kept = lines.index("Of the sets to keep: 0 kept whole, 1 of their tiles moved")
    assert lines[kept + 1] == (
        "Not proven to disturb the table least: an arrangement as good may move fewer of"
        " their tiles."
    )


def test_a_rescue_whose_moves_are_not_proven_the_fewest_says_so() -> None:
    # The rescue's disruption_proven false went unsaid, where the arrangement's, a
    # solve's and the page's rescue say it: its steps may move tiles that need not move.
    request = {
        "table": [["R1", "R2"], ["R3", "B3", "K3", "O3"], ["R4", "R5"]],
        "table_before": [["R3", "B3", "K3", "O3"]],
        "rack": ["R6"],
    }
    answer = repair_rummikub(request)
    play = answer["rescue"]["play"]
    assert play["disruption_proven"]
    assert "Not proven" not in describe_repair(answer)
    rescue = {**answer["rescue"], "play": {**play, "disruption_proven": False}}
    lines = describe_repair({**answer, "rescue": rescue}).splitlines()
    found = lines.index("Rescue with the rack: play 1 tile: R6")
    assert lines[found + 1] == (
        "Not proven to disturb the table least: a play as good may move fewer table tiles."
    )
    assert sum("Not proven" in line for line in lines) == 1  # the arrangement's is proven


def test_repair_beyond_repair_with_no_arrangement_found_names_no_tiles() -> None:
    """A table proven beyond repair whose search stopped before any arrangement (the
    service answers arrangement null: a 60-tile heap with --time-limit 0.006): the
    command said "tiles that cannot be placed (fewest found): ?", as if some were found."""
    answer = {
        "status": "feasible",
        "repairable": False,
        "time_capped": True,  # the clock stopped the search, as it did at 0.006 s
        "arrangement": None,
        "free_jokers": None,
        "penalty": None,
        "rescue": None,
    }
    text = describe_repair(answer)
    assert "?" not in text
    assert "fewest" not in text
    assert text.startswith("The table cannot be repaired; the search stopped before it found")


def test_a_repair_cut_before_its_verdict_says_so_and_answers_null(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """R1 R2 | R3 can be repaired (the run R1 R2 R3); with no work for its search the
    verdict is not known: the text says the search stopped, never that the table cannot
    be repaired, and --json answers repairable null (it answered false), in English and
    Japanese."""
    monkeypatch.setattr("solver.rummikub.repair.SCORE_WORK", 0.0)
    assert main(["repair", "--table", "R1 R2 | R3"]) == 0
    out = capsys.readouterr().out
    assert out == "The search stopped before finding out whether the table can be repaired.\n"
    assert main(["repair", "--table", "R1 R2 | R3", "--lang", "ja"]) == 0
    assert "場が直せるかわかる前に" in capsys.readouterr().out
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps({"table": [["R1", "R2"], ["R3"]]})))
    assert main(["repair", "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert (answer["status"], answer["repairable"], answer["penalty"]) == ("unknown", None, None)
    assert describe_repair(answer) == out


def _numbered_sets(out: str, title: str) -> dict[int, str]:
    """The sets listed under ``title`` in a command's text, by their numbers."""
    lines = out.split(title + "\n", 1)[1].splitlines()
    listed = [line.split(".", 1) for line in takewhile(lambda ln: ln.startswith("  "), lines)]
    return {int(number): " ".join(meld.split()[1:]) for number, meld in listed}


def test_the_table_after_numbers_its_sets_as_the_steps_do(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The steps keep the request's set numbers and give new sets the next ones; the
    table after was numbered by place, so "Lay down the group of 1s ... as set 4" sat
    above a table of sets 0 to 3, its set 1 that group. Each set a step lays down or adds
    to is now listed under the number the step gives it."""
    assert (
        main(["solve", "--rack", "O1 O3", "--table", "R1 R2 R3 | B1 B2 B3 | K1 K2 K3 | R9 R10 R11"])
        == 0
    )
    out = capsys.readouterr().out
    listed = _numbered_sets(out, "Table after:")
    assert listed[3] == "R9 R10 R11"  # untouched: its number in the request
    laid = re.findall(r"Lay down the group of \d+s, ([A-Z0-9 ]+), as set (\d+)", out)
    assert len(laid) == 3
    for meld, number in laid:
        assert listed[int(number)] == meld
    # A repair and its rescue: "Add ... to set 1, making the red run" lists set 1 as it.
    assert main(["repair", "--table", "R4 | R1 R2 R3 | B7 K7 O7 | R7", "--rack", "R5"]) == 0
    out = capsys.readouterr().out
    for title in ("Table after:", "Table after the rescue:"):
        steps = out.split(title)[0].rsplit("Steps:", 1)[-1]
        made = re.findall(r"to set (\d+), making the [a-z0-9 -]+: ([A-Z0-9 ]+)\.", steps)
        assert made
        listed = _numbered_sets(out, title)
        for number, meld in made[-2:]:
            assert listed[int(number)] == meld


def test_repair_counts_the_sets_to_keep_not_a_loose_tile_taken(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Without the table before, the sets to keep are the valid sets now: a loose K5
    taken off the table is not one of their tiles. The line read "table tiles moved: 0"
    above "Take K5 from set 1", as if K5 were not a table tile."""
    assert main(["repair", "--table", "R1 R2 R3 | K5"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "  1. Take K5 from set 1, the loose tile K5." in out
    counts = out[out.index("Steps to place the most tiles:") - 1]
    assert counts == "Of the sets to keep: 1 kept whole, 0 of their tiles moved"


def test_repair_under_replace_names_the_tiles_left_out(capsys: pytest.CaptureFixture[str]) -> None:
    """The reviewer's command: beyond repair under "replace", the list of tiles left
    out is not empty and the joker stays in the group of 10s."""
    table = "B3 B6 | O10 R10 B5 | B4 J B2 B3 K10"
    before = "J O10 R10 K10 | B2 B3 B4 B5 B6"
    args = ["repair", "--table", table, "--before", before, "--rule", "joker_retrieval=replace"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "tiles that cannot be placed (proven fewest): B3\n" in out
    assert "group  J(B10) O10 R10 K10" in out
    assert "takes back B3 and draws 3 penalty tiles" in out


def test_validate_command(capsys: pytest.CaptureFixture[str]) -> None:
    # HTTP's /v1/rummikub/validate had no command.
    move = ["--rack", "R5 K1", "--before", "R3 R4 R5 R6 R7"]
    assert main(["validate", *move, "--after", "R3 R4 R5 | R5 R6 R7"]) == 0
    assert capsys.readouterr().out == "The move is legal: it plays 1 tile: R5\n"
    assert main(["validate", *move, "--after", "R7 R6 R5 R4 R3"]) == 0
    assert "no tile is played, the player draws a tile" in capsys.readouterr().out
    assert main(["validate", *move, "--after", "R3 R4 | R5 R6 R7 K1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("The move is illegal:\n  set 0: R3 R4: a set needs at least 3 tiles")
    assert "Tiles laid down: K1\n" in out
    assert "the player takes back K1 and draws 3 penalty tiles." in out
    opening = ["validate", "--rack", "R1 R2 R3", "--after", "R1 R2 R3", "--opening"]
    assert main([*opening, "--rule", "penalty_tiles=2", "--lang", "ja"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("ルール違反の手です:\n  最初の出しが6点で")
    assert "ペナルティとして山から2枚引きます" in out
    assert main(["validate", "--rack", "R1"]) == 2
    assert "give the move with --rack and --after" in capsys.readouterr().err
    assert main(["validate", "--rack", "Q1", "--after", "R1 R2 R3"]) == 2
    assert "--rack: unknown tile 'Q1'" in capsys.readouterr().err


def test_validate_says_a_consequence_the_clock_cut(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The answer's time_capped, said as every other answer the clock cut says it.
    move = ["validate", "--rack", "R9 K1", "--before", "R1 R2 R3", "--after", "R1 R2 R3 R9 | K1"]
    assert main(move) == 0
    assert "cut a search short" not in capsys.readouterr().out
    spend_the_clock(monkeypatch, "solver.rummikub.search")
    assert main(move) == 0
    out = capsys.readouterr().out
    assert out.endswith(
        "The search stopped before finding out whether the move can still be put right.\n"
        "The time limit, not the fixed work bound, cut a search short: the answer holds what "
        "that search had found by then.\n"
    )
    assert main([*move, "--lang", "ja"]) == 0
    with language("ja"):
        assert capsys.readouterr().out.endswith(capped_note() + "\n")


def test_validate_does_not_tell_an_empty_rack_to_draw(capsys: pytest.CaptureFixture[str]) -> None:
    # A player whose rack is empty has gone out, as solve says: the table left as it
    # was was "legal: no tile is played, the player draws a tile".
    move = ["validate", "--rack", "", "--before", "R1 R2 R3", "--after", "R1 R2 R3"]
    assert main(move) == 0
    said = "The move is legal: no tile is played, and the rack is empty.\n"
    assert capsys.readouterr().out == said
    assert main([*move, "--lang", "ja"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("\u6b63\u3057\u3044\u624b\u3067\u3059\u3002")  # 正しい手です。
    assert "\u5c71\u304b\u3089" not in out  # 山から (draws from the pool)
    # A rack with tiles is still told to draw.
    assert main(["validate", "--rack", "K1", "--before", "R1 R2 R3", "--after", "R1 R2 R3"]) == 0
    assert "no tile is played, the player draws a tile" in capsys.readouterr().out


def test_score_command(capsys: pytest.CaptureFixture[str]) -> None:
    # HTTP's /v1/rummikub/score had no command.
    racks = ["--rack", "ann=", "--rack", "bob=R5 J", "--rack", "cy=K13 O2"]
    assert main(["score", *racks]) == 0
    assert capsys.readouterr().out == (
        "ann: score 50 (went out)\nbob: score -35 (penalty 35)\n"
        "cy: score -15 (penalty 15)\nWinners: ann\n"
    )
    assert main(["score", "--rack", "bob=R5 J", "--rule", "joker_penalty=25", "--lang", "ja"]) == 0
    assert (
        capsys.readouterr().out
        == "bob: 得点 -30(ペナルティ 30点)\n上がったプレイヤーはいません。勝者なし。\n"
    )
    assert main(["score", "--rack", "bob=R5", "--rack", "bob="]) == 2
    assert "--rack names the player 'bob' twice" in capsys.readouterr().err
    assert main(["score", "--rack", "bob"]) == 2
    assert "--rack takes PLAYER=TILES, got 'bob'" in capsys.readouterr().err
    assert main(["score"]) == 2
    assert 'give each player\'s rack with --rack "NAME=TILES"' in capsys.readouterr().err
    assert main(["score", "--rack", "bob=R5 X9"]) == 2
    assert "--rack bob: unknown tile 'X9'" in capsys.readouterr().err
    assert main(["score", "--rack", "ann=", "--rack", "bob=", "--lang", "ja"]) == 2
    assert capsys.readouterr().err == (
        "\u30a8\u30e9\u30fc: --rack: "
        "\u4e0a\u304c\u308c\u308b\u306e\u306f1\u4eba\u3060\u3051\u3067\u3059\u304c\u3001"
        "\u624b\u306b\u4f55\u3082\u6b8b\u3063\u3066\u3044\u306a\u3044\u30d7\u30ec\u30a4\u30e4\u30fc"
        "\u304c2\u4eba\u3044\u307e\u3059: 'ann'\u3001'bob'\n"
    )


@pytest.mark.parametrize(
    ("command", "answer", "request_"),
    [
        (
            "validate",
            validate_rummikub,
            {"rack": ["R5", "B9"], "table_before": [["R3", "R4", "R5", "R6", "R7"]],
             "table_after": [["R3", "R4"], ["R5", "R6", "R7", "B9"]], "lang": "ja"},
        ),
        ("score", score_rummikub, {"racks": {"ann": [], "bob": ["R5", "J"]}}),
    ],
)  # fmt: skip
def test_validate_and_score_answer_the_librarys_json(
    command: str, answer: Any, request_: dict[str, Any]
) -> None:
    done = run_solver_cli([command, "--json"], json.dumps(request_))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == answer(request_)
    lines = [json.dumps(request_), '{"rack": 1}', json.dumps(request_)]
    done = run_solver_cli([command, "--jsonl"], "\n".join(lines))
    said = [json.loads(line) for line in done.stdout.splitlines()]
    assert said[0] == said[2] == answer(request_)
    assert said[1]["line"] == 2


def test_repair_json_mode() -> None:
    done = run_solver_cli(["repair", "--json"], json.dumps({"table": [["R1", "R2"], ["R3"]]}))
    assert done.returncode == 0
    assert json.loads(done.stdout)["repairable"] is True


def _out_of_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every solve of a request starts with its time already spent: status unknown."""
    monkeypatch.setattr(
        "solver.rummikub.wire.Limit",
        lambda *args, **kwargs: replace(Limit(*args, **kwargs), deadline=time.perf_counter() - 1.0),
    )


@pytest.mark.parametrize(
    ("args", "said"),
    [
        # Read as two sets without a word, where Shanghai's --table refuses it.
        (["solve", "--rack", "R1", "--table", "R1 R2 R3 || K1 K2 K3"], "--table: table set 1"),
        (["solve", "--rack", "R1", "--table", "R1 R2 R3 |"], "--table: table set 1"),
        (["solve", "--rack", "R1", "--table", ","], "--table: table set 0"),
        (["repair", "--table", "R1 R2 R3", "--before", "| R1 R2 R3"], "--before: table set 0"),
    ],
)
def test_an_empty_set_between_bars_is_refused_by_its_place(
    args: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(args) == 2
    flag, index = said.split(": ")
    assert capsys.readouterr().err == (
        f"error: {flag}: {index} of {args[-1]!r} has no tiles; separate sets with one |\n"
    )
    # Japanese too, the bar typed full width (U+FF5C).
    table = "R1 R2 R3 \uff5c\uff5c"
    assert main(["solve", "--rack", "R1", "--table", table, "--lang", "ja"]) == 2
    set_1 = "\u5834\u306e\u30bb\u30c3\u30c81"  # the table's set 1
    assert capsys.readouterr().err.startswith(
        f"\u30a8\u30e9\u30fc: --table: {table!r} \u306e{set_1}\u306b"
    )
    # No text is no sets.
    assert main(["solve", "--rack", "R1", "--table", " "]) == 0


@pytest.mark.parametrize(
    ("after", "sets"),
    [
        ("R1 R2 R3 R4 | |", [["R1", "R2", "R3", "R4"], [], []]),
        ("| R1 R2 R3 R4", [[], ["R1", "R2", "R3", "R4"]]),
        (",", [[]]),
    ],
)
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_validate_says_an_empty_set_left_in_its_verdict_as_the_wire_does(
    after: str, sets: list[list[str]], lang: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # --after refused it as bad input (exit 2), where /validate's table_after judges
    # it: a problem of the move, in the verdict. The wire's verdict is the contract.
    argv = ["validate", "--rack", "R4", "--before", "R1 R2 R3", "--after", after]
    assert main([*argv, "--lang", lang]) == 0
    request = {"rack": ["R4"], "table_before": [["R1", "R2", "R3"]], "table_after": sets}
    verdict = validate_rummikub({**request, "lang": lang})
    assert not verdict["legal"]
    assert any(problem["set"] == sets.index([]) for problem in verdict["problems"])
    with language(lang):
        assert capsys.readouterr().out == describe_validation(verdict)
    # --before still refuses one: the wire refuses a table before that is not valid.
    assert main(["validate", "--rack", "R4", "--before", "R1 R2 R3 |", "--after", "R4"]) == 2


@pytest.mark.parametrize(
    ("args", "flag"),
    [
        (["solve", "--rack", "R1", "--table", "R5 R6 R7 | R1 R2"], "--table: "),
        (["solve", "--rack", "R1", "--table", "R5 R6 R7 | R1 R2", "--hint", "nudge"], "--table: "),
        (["bot", "--rack", "R1", "--table", "R5 R6 R7 | R1 R2"], "--table: "),
        # Said with its flag before, and once.
        (
            ["validate", "--rack", "R1", "--before", "R5 R6 R7 | R1 R2", "--after", "R1"],
            "--before: ",
        ),
    ],
)
def test_a_table_set_that_is_not_valid_is_said_with_its_flag(
    args: list[str], flag: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # It said "table set 1 (R1 R2) is not a valid set" without naming --table.
    assert main(args) == 2
    said = "table set 1 (R1 R2) is not a valid set: a set needs at least 3 tiles, this one has 2"
    assert capsys.readouterr().err == f"error: {flag}{said}\n"
    assert main([*args, "--lang", "ja"]) == 2
    set_1 = "\u5834\u306e\u30bb\u30c3\u30c81(R1 R2)"  # the table's set 1 (R1 R2)
    assert capsys.readouterr().err.startswith(f"\u30a8\u30e9\u30fc: {flag}{set_1}")


def test_a_table_set_that_is_not_valid_is_said_alike_over_the_wire(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The request's field is no flag: the wire's words are unchanged.
    body = '{"rack": ["R1"], "table": [["R5", "R6", "R7"], ["R1", "R2"]]}'
    monkeypatch.setattr("sys.stdin", io.StringIO(body))
    assert main(["solve", "--json"]) == 2
    assert capsys.readouterr().err.startswith("error: table set 1 (R1 R2) is not a valid set")


@pytest.mark.parametrize("hint", ["full", "tile", "nudge"])
def test_a_search_that_found_nothing_in_time_does_not_say_draw(
    hint: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # "No play: draw a tile." was said above "Solver: unknown (time ran out ...)".
    _out_of_time(monkeypatch)
    assert main(["solve", "--rack", "R1 R2 R3", "--hint", hint]) == 0
    out = capsys.readouterr().out
    assert out.startswith("No play found before the search stopped.\n")
    assert "draw" not in out
    if hint == "tile":  # the library's own text too
        answer = solve_rummikub({"rack": ["R1", "R2", "R3"], "hint_level": "tile"})
        assert answer["text"] == "No play found before the search stopped."


def test_only_a_proven_empty_play_says_draw() -> None:
    """A search stopped with nothing placed but not proven (feasible) said "draw" too."""
    assert no_play_text(Status.OPTIMAL) == "No play: draw a tile."
    for status in (Status.FEASIBLE, Status.UNKNOWN):
        assert no_play_text(status) == "No play found before the search stopped."


def test_shanghai_score_takes_no_time_limit(capsys: pytest.CaptureFixture[str]) -> None:
    # Scoring searches nothing: the flag was taken and ignored.
    with pytest.raises(SystemExit):
        main(["shanghai", "score", "--hand", "ann=AS", "--time-limit", "2"])
    assert "unrecognized arguments: --time-limit 2" in capsys.readouterr().err


def test_a_repair_that_found_no_rescue_in_time_does_not_say_none(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _out_of_time(monkeypatch)
    assert main(["repair", "--table", "R1 R2 | R3", "--rack", "R4"]) == 0
    out = capsys.readouterr().out
    assert "Rescue with the rack: none found before the search stopped\n" in out
    assert "Rescue with the rack: none\n" not in out


@pytest.mark.parametrize(
    ("argv", "flags"),
    [
        (["solve", "--json", "--rack", "R5"], "--rack"),
        (["solve", "--jsonl", "--table", "R1 R2 R3", "--time-limit", "1"], "--table, --time-limit"),
        (["repair", "--json", "--table", "R1 R2 R3"], "--table"),
        (["bot", "--json", "--bot", "greedy", "--opening"], "--bot, --opening"),
        (["shanghai", "advise", "--json", "--hand", "AS", "--down"], "--hand, --down"),
        (["shanghai", "score", "--jsonl", "--hand", "ann=AS"], "--hand"),
        # At its default value too: it would lose to the request without a word.
        (["solve", "--json", "--objective", "tiles"], "--objective"),
        (["repair", "--json", "--time-limit", "2"], "--time-limit"),
        (["validate", "--json", "--before", "R1 R2 R3"], "--before"),
        (["solve", "--json", "--opponents", "9"], "--opponents"),
        (["score", "--jsonl", "--rack", "ann="], "--rack"),
    ],
)
def test_flags_beside_a_request_on_stdin_are_refused(
    argv: list[str],
    flags: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # solve --json --rack R5 answered the request on stdin and silently ignored --rack.
    monkeypatch.setattr("sys.stdin", io.StringIO('{"rack": ["R1", "R2", "R3"]}\n'))
    assert main(argv) == 2
    mode = "--json" if "--json" in argv else "--jsonl"
    assert capsys.readouterr().err == (
        f"error: {mode} reads the request from stdin; leave out {flags}\n"
    )


def test_a_request_on_stdin_still_takes_the_language_flag(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO('{"rack": ["Q5"]}'))
    assert main(["solve", "--json", "--lang", "ja"]) == 2
    assert capsys.readouterr().err.startswith("エラー: ")


@pytest.mark.parametrize(("lang", "prefix"), [("en", "error: "), ("ja", "エラー: ")])
def test_the_error_prefix_speaks_the_language_of_the_message(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], lang: str, prefix: str
) -> None:
    # With LANG=ja and a request saying "lang": "en", the English message stood after
    # a Japanese "エラー: " (and the other way round with --lang).
    monkeypatch.setattr("sys.stdin", io.StringIO(f'{{"rack": ["Q5"], "lang": "{lang}"}}'))
    other = "en" if lang == "ja" else "ja"
    assert main(["solve", "--json", "--lang", other]) == 2
    said = capsys.readouterr().err
    assert said.startswith(prefix + "rack[0]: ")
    assert ("不明なタイル" in said) == (lang == "ja")


def test_a_terminal_that_cannot_show_japanese_gets_it_escaped() -> None:
    # An ASCII stream raised UnicodeEncodeError: a traceback instead of the error line.
    env = {**os.environ, "PYTHONIOENCODING": "ascii"}
    args = [sys.executable, "-m", "solver", "solve", "--lang", "ja", "--rack", "Q5"]
    done = subprocess.run(args, capture_output=True, text=True, env=env, check=False)
    assert done.returncode == 2
    assert done.stderr.startswith("\\u30a8\\u30e9\\u30fc: --rack:")  # エラー
    assert "Traceback" not in done.stderr


def test_the_c_locale_reads_utf8_records_on_stdin_and_escapes_what_it_cannot_show(
    tmp_path: Path,
) -> None:
    # Under LC_ALL=C (UTF-8 mode off) stdin was read as ASCII with surrogateescape: a
    # record's Japanese names were refused, and printing Japanese raised a traceback.
    record = tmp_path / "game.json"
    assert main(["game", "--bots", "greedy,greedy", "--seed", "3", "--option", "hand=5",
                 "--out", str(record)]) == 0  # fmt: skip
    named = {**json.loads(record.read_text()), "players": ["太郎", "花子"]}
    env = {**os.environ, "LC_ALL": "C", "PYTHONUTF8": "0"}
    env.pop("PYTHONIOENCODING", None)
    done = subprocess.run(
        [sys.executable, "-m", "solver", "review", "-"],
        input=json.dumps(named, ensure_ascii=False).encode(),
        capture_output=True,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.decode().startswith("Player 0 (\\u592a\\u90ce):")


@pytest.mark.parametrize(
    "argv",
    [
        ["solve", "--rack", "R1", "--rack", "R2"],
        ["shanghai", "advise", "--hand", "7H 8H", "--hand-number", "1", "--hand-number", "2"],
        ["game", "--bots", "greedy,greedy", "--seed", "1", "--seed", "2"],
    ],
)
def test_a_flag_that_takes_one_value_is_refused_twice(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    # argparse kept the last value without a word: --hand-number 1 --hand-number 2 was 2.
    with pytest.raises(SystemExit) as raised:
        main(argv)
    assert raised.value.code == 2
    assert "is given twice; give it once" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main([*argv, "--lang", "ja"])
    assert "が2回指定されています" in capsys.readouterr().err


def test_ctrl_c_ends_a_command_with_the_shells_code_and_no_traceback(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # A tournament stopped by Ctrl-C ended in a traceback.
    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr("solver.rummikub.cli.solve_rummikub", interrupted)
    assert main(["solve", "--rack", "R1 R2 R3"]) == 130
    assert capsys.readouterr().err == ""


def test_a_reader_that_leaves_ends_the_command_without_a_traceback() -> None:
    # `meldwise solve --jsonl ... | head -c 100` ended in a BrokenPipeError traceback.
    command = [sys.executable, "-m", "solver", "solve", "--jsonl"]
    lines = b'{"rack": ["R1", "R2", "R3"]}\n' * 1000  # within the pipe's buffer
    done = subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert done.stdin is not None
    assert done.stdout is not None
    assert done.stderr is not None
    done.stdin.write(lines)
    done.stdin.close()
    assert done.stdout.read(100)
    done.stdout.close()
    assert done.wait(timeout=120) == 141
    assert b"Traceback" not in done.stderr.read()


@pytest.mark.parametrize("hint", ["full", "tile", "nudge"])
def test_an_empty_rack_is_not_told_to_draw(hint: str, capsys: pytest.CaptureFixture[str]) -> None:
    # A player whose rack is empty has gone out: "No play: draw a tile." was said to it
    # (by a nudge, whose answer carries no rack, until the command told it the rack).
    assert main(["solve", "--rack", "", "--table", "R1 R2 R3", "--hint", hint]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first == "Your rack is empty: there is nothing to play."
    # In Japanese a tile is タイル, as in every other message (it was 牌, mahjong's word).
    argv = ["solve", "--rack", "", "--table", "R1 R2 R3", "--hint", hint, "--lang", "ja"]
    assert main(argv) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first == "手持ちが空です。出せるタイルはありません。"
    # A rack that cannot play is still told to draw.
    assert main(["solve", "--rack", "R1", "--hint", hint]) == 0
    assert capsys.readouterr().out.startswith("No play: draw a tile.\n")


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "error: cannot write standard output: no space is left on the device\n"),
        ("ja", "エラー: 標準出力 に書き込めません: ディスクの空きがありません\n"),
    ],
)
def test_an_answer_that_cannot_be_written_is_said_without_a_traceback(lang: str, said: str) -> None:
    # `meldwise solve ... > /dev/full` (a full disk) ended in an OSError traceback.
    with Path("/dev/full").open("w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "solver", "solve", "--rack", "R1 R2 R3", "--lang", lang],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
        )
    assert (done.returncode, done.stderr) == (1, said)


CUT_RACK = "R2 R2 R5 B1 B12 B13 K4 K5 K8 K13 O1 O2 O12 J"
CUT_TABLE = (
    "R10 B10 K10 O10 | O7 O8 O9 O10 O11 | O2 J O4 | B5 B6 B7 B8 B9 B10 | R11 B11 K11 O11"
    " | K1 K2 K3 K4 K5 | R4 B4 O4 | R5 R6 R7 | K10 K11 K12 | R6 R7 R8 R9 R10"
    " | B3 B4 B5 B6 B7 B8 | R12 B12 K12 O12 | R13 B13 K13 O13 | O6 O7 O8 O9"
)


CAPPED_NOTE = (
    "The time limit, not the fixed work bound, cut a search short: the answer holds"
    " what that search had found by then."
)


@pytest.mark.parametrize("level", ["tile", "nudge"])
def test_a_hint_the_clock_cut_says_so_in_words(
    capsys: pytest.CaptureFixture[str], level: str
) -> None:
    """The least-disruption stage given 1 ms, less than its model takes to build: the
    clock keeps its search from starting, the score stage proves the play (status
    optimal) and the answer says ``time_capped``, which the words did not: a busy
    machine's tile may differ from an idle one's, and nothing said so."""
    flags = ["solve", "--rack", CUT_RACK, "--table", CUT_TABLE, "--hint", level]
    main([*flags, "--disruption-time-limit", "0.001"])
    assert CAPPED_NOTE in capsys.readouterr().out
    # With time to spare, the fixed work bound decides, and nothing is said.
    main([*flags, "--time-limit", "60", "--disruption-time-limit", "60"])
    assert CAPPED_NOTE not in capsys.readouterr().out


def test_a_repair_the_clock_cut_says_so_in_words() -> None:
    """A busy server's repair (seen under load): the verdict proven, the rescue's table
    moves cut by the clock, ``time_capped``; the words said only that the moves were not
    proven the fewest, not that the clock cut a search."""
    table = [set_.split() for set_ in CUT_TABLE.split("|")]
    heaps = [*table[:-1], table[-1] + ["R2", "R2", "R5"]]
    answer = repair_rummikub({"table": heaps, "table_before": table, "rack": CUT_RACK.split()[3:]})
    answer["rescue"]["play"]["disruption_proven"] = False
    answer["time_capped"] = False  # the work bound stopped the search: nothing to say
    assert CAPPED_NOTE not in describe_repair(answer)
    answer["time_capped"] = True
    assert CAPPED_NOTE in describe_repair(answer)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_shanghai_review_names_the_command_for_a_rummikub_record(
    lang: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("LANGUAGE", lang)
    assert main(["game", "--bots", "greedy,greedy", "--seed", "1"]) == 0
    monkeypatch.setattr("sys.stdin", io.StringIO(capsys.readouterr().out))
    assert main(["shanghai", "review", "-"]) == 2
    said = {
        "en": "error: 'record.format' is 'meldwise-rummikub-game': a record of that game is"
        " reviewed with meldwise review (HTTP: POST /v1/rummikub/review)\n",
        "ja": "エラー: 'record.format' が 'meldwise-rummikub-game' です。この形式の記録は"
        " meldwise review (HTTP では POST /v1/rummikub/review) で振り返ります\n",
    }
    assert capsys.readouterr().err == said[lang]

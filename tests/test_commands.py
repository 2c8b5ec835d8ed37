"""The command line names the flag a request field came from (solver.commands.in_flags)."""

from __future__ import annotations

import errno
import io
import json
import os
import re
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

from meldwise.cli import main
from solver.cli import main as solver_main
from solver.rummikub.engine import GameSettings
from solver.rummikub.record import record_to_dict
from tests.rummikub.games_support import TINY, play, shanghai_record

OPTION_RULES = "--option sets a rule as rules.NAME=VALUE (e.g. rules.jokers=4)"

# Each was refused in the request field's words ('seed', 'buys_left'...), which a
# person at the command line never wrote.
REFUSED = [
    # A rule of no name in --option was "unknown rule ''".
    (
        ["game", "--bots", "greedy,greedy", "--option", "rules.=3"],
        "error: --option takes NAME=VALUE, got 'rules.=3'\n",
        "エラー: --option は 名前=値 で指定してください(指定値: 'rules.=3')\n",
    ),
    # A rule without a name was "unknown rule ''".
    (
        ["solve", "--rack", "R1", "--rule", "=3"],
        "error: --rule takes NAME=NUMBER or NAME=WORD, got '=3'\n",
        "エラー: --rule は 名前=数 か 名前=語 で指定してください(指定値: '=3')\n",
    ),
    (
        ["game", "--bots", "greedy,greedy", "--seed", "-1"],
        "error: --seed must be at least 0, got -1\n",
        "エラー: --seed は 0 以上で指定してください(指定値: -1)\n",
    ),
    # "--bots must hold at least 2, got 1" did not say what the 2 counts.
    (
        ["game", "--bots", "strong"],
        "error: --bots: give one bot per seat, 2 to 4 bots (e.g. strong and greedy); got 1:"
        " strong\n",
        "エラー: --bots: 席ごとに1つずつ、2〜4個のボットを指定してください(例: strong と greedy)"
        "(指定: 1個、strong)\n",
    ),
    (
        ["game", "--game", "shanghai", "--bots", "strong"],
        "error: --bots: give one bot per seat, 2 to 8 bots (e.g. strong and greedy); got 1:"
        " strong\n",
        None,
    ),
    (
        ["game", "--bots", "strong,greedy,greedy,greedy,beginner"],
        "error: --bots: give one bot per seat, 2 to 4 bots (e.g. strong and greedy); got 5:"
        " strong, greedy, greedy, greedy, beginner\n",
        None,
    ),
    # A table set's error is placed at the set (table_before[1]) within the field the
    # message names: the flag is said once ("--before: --before: table set 1").
    (
        ["validate", "--rack", "R5", "--before", "B3 B4 B5 | R1 R2", "--after", ""],
        "error: --before: table set 1 (R1 R2) is not a valid set: a set needs at least 3 tiles,"
        " this one has 2\n",
        None,
    ),
    (
        ["solve", "--rack", "R1", "--table", "B3 B4 B5 | R1 R2"],
        "error: --table: table set 1 (R1 R2) is not a valid set: a set needs at least 3 tiles,"
        " this one has 2\n",
        None,
    ),
    (
        ["solve", "--rack", "R1", "--opponents", "0"],
        "error: --opponents must be at least 1, got 0\n",
        "エラー: --opponents は 1 以上で指定してください(指定値: 0)\n",
    ),
    (
        ["bot", "--rack", "R1", "--opponents", "0"],
        "error: --opponents must be at least 1, got 0\n",
        None,
    ),
    (
        ["shanghai", "advise", "--hand", "7H 7S", "--hand-number", "1", "--buys-left", "99"],
        "error: --buys-left must be 0 to 3 in this hand, got 99\n",
        "エラー: このハンドの --buys-left は0から3までです(指定値: 99)\n",
    ),
    (
        ["shanghai", "advise", "--hand", "7H 7S", "--hand-number", "1", "--buys-left", "-1"],
        "error: --buys-left must be at least 0, got -1\n",
        None,
    ),
    # A parser's message named the field before it: "rack[0]: unknown tile 'Q1'...".
    (
        ["validate", "--rack", "Q1", "--after", "R1"],
        "error: --rack: unknown tile 'Q1': 'Q' is not a colour (colours are R, B, K, O)\n",
        "エラー: --rack: 不明なタイル 'Q1': 'Q' は色ではありません"
        "(色は R、B、K、O、または赤・青・黒・黄)\n",
    ),
    (
        ["solve", "--rack", "R1", "--rule", "jokers=99"],
        "error: --rule: rule 'jokers' must be between 0 and 4, got 99\n",
        None,
    ),
    (
        ["shanghai", "advise", "--hand", "7H 7S", "--hand-number", "1", "--seen", "ZZ"],
        "error: --seen: unknown card 'ZZ': write a rank (2-10, T, J, Q, K, A) and a suit"
        " (S, H, D, C), e.g. 7H or 10S, or JK for a joker\n",
        None,
    ),
    # A player's place named the request's field: "racks.bob[1]: unknown tile 'X9'".
    (
        ["score", "--rack", "ann=", "--rack", "bob=R5,X9"],
        "error: --rack bob: unknown tile 'X9': 'X' is not a colour (colours are R, B, K, O)\n",
        "エラー: --rack bob: 不明なタイル 'X9': 'X' は色ではありません"
        "(色は R、B、K、O、または赤・青・黒・黄)\n",
    ),
    (
        ["shanghai", "score", "--hand", "ann=", "--hand", "bob=ZZ"],
        "error: --hand bob: unknown card 'ZZ': write a rank (2-10, T, J, Q, K, A) and a suit"
        " (S, H, D, C), e.g. 7H or 10S, or JK for a joker\n",
        None,
    ),
    # A name's own error named the field with the name: racks['xxx...'].
    (
        ["score", "--rack", "ann=", "--rack", "x" * 65 + "="],
        f"error: --rack {'x' * 40}: a player name must be 1-64 characters, got '{'x' * 59}\n",
        None,
    ),
    # validate's --before said as the request's field: "table_before: table set 0 ...".
    (
        ["validate", "--rack", "R1", "--before", "R2 R3", "--after", "R1 R2 R3"],
        "error: --before: table set 0 (R2 R3) is not a valid set: a set needs at least 3"
        " tiles, this one has 2\n",
        None,
    ),
    (
        ["repair", "--table", "R1 R2 R3", "--opening"],
        "error: a repair for a player who has not opened needs the table before the turn"
        " (--before): only with it is it known which tiles they laid down\n",
        "エラー: まだ最初の出しを済ませていないプレイヤーの場を直すには、手番の前の場(--before)"
        "が必要です。それがあって初めて、出したタイルがどれかが分かります\n",
    ),
    (
        ["repair", "--table", "R1 R2 R3", "--before", "R1 R2"],
        "error: --before: table set 0 (R1 R2) is not a valid set: a set needs at least 3"
        " tiles, this one has 2\n",
        None,
    ),
    (
        ["repair", "--table", "R1 R2 R3", "--before", "R1 R2 R3 | K1 K2 K3"],
        "error: --before holds K1 K2 K3, which the table now lacks: a tile on the table stays"
        " on it; put it back\n",
        "エラー: --before にあるK1 K2 K3が今の場にありません。場のタイルは場に残ります。"
        "戻してください\n",
    ),
    (
        ["validate", "--rack", "R1", "--after", "R1 R1 R1"],
        "error: too many copies of R1: 3 in --after, the game has 2\n",
        "エラー: R1が多すぎます: --after に3枚ありますが、このゲームには2枚しかありません\n",
    ),
    # A name that does not show as it is, quoted: "--rack R1<U+200B>R2: ...".
    (
        ["score", "--rack", "ann=", "--rack", "b\u200bob=R1"],
        "error: --rack 'b\\u200bob': a player name must be printable text: no control, format"
        " (bidi, zero-width) or other invisible characters\n",
        None,
    ),
    # --option's settings were said at the request's place: "settings.rules: ...".
    (
        ["game", "--bots", "greedy,greedy", "--option", "rules.jokers=9"],
        "error: --option rules: rule 'jokers' must be between 0 and 4, got 9\n",
        "エラー: --option rules: ルール 'jokers' は0から4までで指定してください(指定値: 9)\n",
    ),
    (
        ["game", "--bots", "greedy,greedy", "--option", "players=abc"],
        "error: --option: 'players' must be a whole number, got 'abc'\n",
        None,
    ),
    # A custom contract's errors named neither --sets nor --runs.
    (
        ["shanghai", "advise", "--hand", "7H", "--sets", "3,3,3,3,3", "--runs", "4,4,4,4"],
        "error: a contract has 1 to 6 melds, --sets and --runs give 9\n",
        "エラー: コントラクトのメルドは1\uff5e6個ですが、--sets と --runs で9個です\n",
    ),
    (
        ["shanghai", "advise", "--hand", "7H", "--sets", "3", "--runs", "2"],
        "error: contract --runs size 2 is out of range: a run holds 4 to 13 cards under these"
        " rules\n",
        None,
    ),
    # bot's default --opponents (14) under rules of few tiles: the flag went unnamed.
    (
        ["bot", "--rack", "R1", "--rule", "numbers=3", "--rule", "copies=1"],
        "error: the other players' racks (--opponents) hold 14 tiles, but the game leaves"
        " only 13 tiles off --rack and --table\n",
        "エラー: 相手の手持ち(--opponents)が合計14枚になっていますが、--rack と --table"
        " 以外のタイルは13枚しかありません\n",
    ),
    # A size of more than 4,300 digits was a ValueError traceback (int()'s limit).
    (
        ["solve", "--rack", "R1", "--opponents", "9" * 5000],
        "error: --opponents: a number has 5000 digits; at most 20 are accepted\n",
        "エラー: --opponents: 数値が5000桁あります: 受け付けるのは20桁までです\n",
    ),
    (
        ["shanghai", "advise", "--hand", "7H", "--sets", "3," + "3" * 5000],
        "error: --sets: a number has 5000 digits; at most 20 are accepted\n",
        None,
    ),
    # "--opponents may hold at most 7, got 10" read like tiles.
    (
        ["solve", "--rack", "R1", "--opponents", ",".join(map(str, range(1, 11)))],
        "error: --opponents names at most 7 opponents, got 10\n",
        "エラー: --opponents に指定できる相手は7人までです(指定: 10人)\n",
    ),
    # It was "--upcard: unknown card ''", where an empty --hand "names no card".
    (
        ["shanghai", "advise", "--hand", "7H", "--hand-number", "1", "--upcard", " "],
        "error: --upcard names no card, got ' '\n",
        "エラー: --upcard にカードがありません(指定値: ' ')\n",
    ),
    # "--option rules: rules must be an object of settings, got 2" gave no hint.
    (
        ["game", "--bots", "greedy,greedy", "--option", "rules=2"],
        f"error: {OPTION_RULES}, got 'rules=2'\n",
        "エラー: --option でルールを設定するには rules.名前=値 と指定してください"
        "(例: rules.jokers=4)(指定値: 'rules=2')\n",
    ),
    # Once a traceback: rules=2 holds no settings to set jokers in.
    (
        ["game", "--bots", "greedy,greedy", "--option", "rules=2", "--option", "rules.jokers=1"],
        f"error: {OPTION_RULES}, got 'rules=2'\n",
        None,
    ),
    (
        ["game", "--bots", "greedy,greedy", "--option", "rules.jokers=1", "--option", "rules=2"],
        f"error: {OPTION_RULES}, got 'rules=2'\n",
        None,
    ),
]


@pytest.mark.parametrize(("argv", "english", "japanese"), REFUSED)
def test_a_refusal_names_the_flag(
    capsys: pytest.CaptureFixture[str], argv: list[str], english: str, japanese: str | None
) -> None:
    assert solver_main([*argv, "--lang", "en"]) == 2
    assert capsys.readouterr().err == english
    if japanese is not None:
        assert solver_main([*argv, "--lang", "ja"]) == 2
        assert capsys.readouterr().err == japanese


def test_review_names_player_but_not_the_records_fields(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.json"
    assert main(["game", "--bots", "greedy,greedy", "--seed", "1", "--out", str(path)]) == 0
    capsys.readouterr()
    for lang, said in (
        ("en", "error: --player must be 0 to 1, got 5\n"),
        ("ja", "エラー: --player は0から1までで指定してください(指定値: 5)\n"),
    ):
        assert main(["review", str(path), "--player", "5", "--lang", lang]) == 2
        assert capsys.readouterr().err == said


def test_a_request_on_stdin_keeps_the_field_names(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # --json: the person wrote the request, so its fields are named as they wrote them.
    monkeypatch.setattr(
        "sys.stdin", io.StringIO('{"rack": ["R1"], "opponents": [{"rack_size": 0}]}')
    )
    assert solver_main(["solve", "--json"]) == 2
    assert capsys.readouterr().err == "error: 'opponents[0].rack_size' must be at least 1, got 0\n"
    monkeypatch.setattr("sys.stdin", io.StringIO('{"rack": ["Q1"]}'))
    assert solver_main(["solve", "--json"]) == 2
    assert capsys.readouterr().err.startswith("error: rack[0]: unknown tile 'Q1'")


def test_a_problem_of_two_values_of_one_flag_is_said_once(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Each size of --opponents is its own field: "--opponents must be at least 1, got 0;
    # --opponents must be at least 1, got 0".
    for lang, said in (
        ("en", "error: --opponents must be at least 1, got 0\n"),
        ("ja", "エラー: --opponents は 1 以上で指定してください(指定値: 0)\n"),
    ):
        assert solver_main(["solve", "--rack", "R1", "--opponents", "0,0", "--lang", lang]) == 2
        assert capsys.readouterr().err == said
    # One problem of six sizes is one: it was said, then counted as "and 1 more" (of
    # the five listed, four were said once; the sixth was counted unseen).
    for lang, said in (
        ("en", "error: --opponents must be at least 1, got 0\n"),
        ("ja", "エラー: --opponents は 1 以上で指定してください(指定値: 0)\n"),
    ):
        argv = ["bot", "--rack", "R1", "--opponents", "0,0,0,0,0,0", "--lang", lang]
        assert solver_main(argv) == 2
        assert capsys.readouterr().err == said
    # Problems that differ are each said, and those left unlisted counted once each: it
    # said "and 2 more" of the same --opponents problem.
    assert solver_main(["solve", "--rack", "R1 Q1", "--opponents", "0,0,0,0,0,0"]) == 2
    assert capsys.readouterr().err == (
        "error: --rack: unknown tile 'Q1': 'Q' is not a colour (colours are R, B, K, O);"
        " --opponents must be at least 1, got 0\n"
    )
    rack = "R1 Q1 Q2 Q3 Q4 Q5"
    assert solver_main(["solve", "--rack", rack, "--opponents", "0,0,0,0,0,0"]) == 2
    said = capsys.readouterr().err
    assert said.count("unknown tile") == 5
    assert "--opponents" not in said
    assert said.endswith("; and 1 more\n")
    assert solver_main(["solve", "--rack", rack, "--opponents", "0,0,0,0,0,0", "--lang", "ja"]) == 2
    assert capsys.readouterr().err.endswith("\u3001\u307b\u304b1\u4ef6\n")  # "and 1 more"
    # A request on stdin names each field.
    request = '{"rack": ["R1"], "opponents": [{"rack_size": 0}, {"rack_size": 0}]}'
    monkeypatch.setattr("sys.stdin", io.StringIO(request))
    assert solver_main(["solve", "--json"]) == 2
    assert capsys.readouterr().err == (
        "error: 'opponents[0].rack_size' must be at least 1, got 0;"
        " 'opponents[1].rack_size' must be at least 1, got 0\n"
    )


class _Failing(io.RawIOBase):
    """Standard input whose reads fail as a terminal that went away fails them (EIO)."""

    def readable(self) -> bool:
        return True

    def readinto(self, _buffer: object) -> int:
        raise OSError(errno.EIO, "Input/output error")


@pytest.mark.parametrize(
    "argv", [["solve", "--json"], ["solve", "--jsonl"], ["bot", "--json"], ["review", "-"]]
)
@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "error: cannot read standard input: an input/output error\n"),
        (
            "ja",
            "\u30a8\u30e9\u30fc: \u6a19\u6e96\u5165\u529b\u3092\u8aad\u3081\u307e\u305b\u3093:"
            " \u5165\u51fa\u529b\u30a8\u30e9\u30fc\u304c\u767a\u751f\u3057\u307e\u3057\u305f\n",
        ),
    ],
)
def test_standard_input_that_cannot_be_read_is_said_as_a_read_failure(
    argv: list[str],
    lang: str,
    said: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # An EIO reading stdin was said as "cannot write standard output: Input/output
    # error" (exit 1, a write that failed): it is input that could not be read (exit 2,
    # as one over 64 MiB is).
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BufferedReader(_Failing())))
    monkeypatch.setenv("LANGUAGE", lang)
    assert solver_main(argv) == 2
    assert capsys.readouterr().err == said


@pytest.mark.parametrize(
    "argv",
    [
        ["review", "-"],
        ["shanghai", "review", "-"],
        ["solve", "--json"],
        ["shanghai", "advise", "--json"],
    ],
)
@pytest.mark.parametrize("text", ["", " \n", "\ufeff"], ids=["empty", "blank", "a bom alone"])
def test_empty_standard_input_is_said_to_be_empty(
    argv: list[str], text: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # It was said in the JSON parser's words: "standard input is not valid JSON:
    # Expecting value at character 1" (--json: "the request is not valid JSON: ...").
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    monkeypatch.setenv("LANGUAGE", "en")
    assert main(argv) == 2
    assert capsys.readouterr().err == (
        "error: standard input is empty: a JSON document was expected\n"
    )


def test_an_empty_file_is_said_to_be_empty(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("LANGUAGE", "en")
    (tmp_path / "game.json").write_text("")
    assert main(["review", str(tmp_path / "game.json")]) == 2
    said = f"error: {tmp_path}/game.json is empty: a JSON document was expected\n"
    assert capsys.readouterr().err == said
    monkeypatch.setattr("sys.stdin", io.StringIO("\u3000"))  # not JSON's blank: not empty
    assert main(["review", "-"]) == 2
    assert capsys.readouterr().err.startswith("error: standard input is not valid JSON: ")


@pytest.mark.parametrize(
    ("lang", "said"),
    [("en", "Expecting ',' delimiter at line 3, column 3"), ("en", None), ("ja", "3行3列目")],
)
def test_a_file_of_several_lines_is_placed_by_line_and_column(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    lang: str,
    said: str | None,
) -> None:
    # A record or a file is read in an editor, by line: "at character 21" of a
    # pretty-printed record had to be counted out by hand. One line stays by character.
    monkeypatch.setenv("LANGUAGE", lang)
    text = '{\n  "turns": []\n  "players": 2\n}' if said else '{"turns": [] "players": 2}'
    (tmp_path / "game.json").write_text(text)
    assert main(["review", str(tmp_path / "game.json")]) == 2
    err = capsys.readouterr().err
    assert (said or "Expecting ',' delimiter at character 14") in err, err


def test_a_file_name_not_utf8_is_named_with_its_bytes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Its byte 0xff (which Python holds as "\udcff") was said as "\udcff", where every
    # other argument's is said as "\xff".
    monkeypatch.setenv("LANGUAGE", "en")
    missing = tmp_path / "\udcff.json"
    assert main(["review", str(missing)]) == 2
    said = f"{tmp_path}/\\xff.json"
    assert capsys.readouterr().err == f"error: cannot read {said}: no such file or folder\n"
    missing.write_bytes(b"{")
    assert main(["review", str(missing)]) == 2
    assert capsys.readouterr().err.startswith(f"error: {said} is not valid JSON: ")
    folder = tmp_path / "\udcff"
    folder.write_text("a file, not a folder")
    assert main(["game", "--bots", "greedy,greedy", "--out", str(folder / "x.json")]) == 2
    assert capsys.readouterr().err == (
        f"error: --out: cannot write {tmp_path}/\\xff/x.json: a part of the path is not a folder\n"
    )


# Ctrl-C as the command starts: a KeyboardInterrupt raised by the import of ortools
# (the slowest, 1 to 3 s of a busy machine's start-up), as `from meldwise.cli import
# main` of the console script runs it.
_INTERRUPTED_START = """
import sys

class Interrupt:
    def find_spec(self, name, path=None, target=None):
        if name == "ortools":
            raise KeyboardInterrupt
        return None

sys.meta_path.insert(0, Interrupt())
from meldwise.cli import main
sys.exit(main(["solve", "--rack", "R1"]))
"""


def test_ctrl_c_as_the_command_starts_ends_it_without_a_traceback() -> None:
    # It printed the traceback of whichever import it landed in, and the process died
    # of SIGINT: the imports were made before main() could catch anything.
    done = subprocess.run(
        [sys.executable, "-c", _INTERRUPTED_START], capture_output=True, text=True, timeout=120
    )
    assert (done.returncode, done.stderr) == (130, "")


# The commands that print a rich table: a short run of each.
TABLE_COMMANDS = pytest.mark.parametrize(
    "argv",
    [
        [
            "tournament", "--bots", "greedy", "--games", "1", "--processes", "1",
            "--no-progress", "--option", "hand=5", "--option", "rules.numbers=7",
        ],
        ["bench", "--quick", "--buckets", "t0-r6", "--modes", "tiles", "--slowest", "0"],
    ],
    ids=["tournament", "bench"],
)  # fmt: skip


@TABLE_COMMANDS
def test_a_reader_gone_before_a_table_is_written_ends_the_command_as_sigpipe(
    argv: list[str],
) -> None:
    # `meldwise tournament ... | head -1`: rich's console, finding the pipe closed, ended
    # the process with exit code 1, which bench's help says is a failed check, without a
    # word; every other command exits as SIGPIPE ends a program (128 + 13).
    command = [sys.executable, "-m", "meldwise", *argv]
    started = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert started.stdout is not None
    assert started.stderr is not None
    started.stdout.close()  # the reader is gone before anything is written
    assert started.wait(timeout=300) == 141
    assert started.stderr.read() == b""


@pytest.mark.parametrize(
    ("argv", "prog"),
    [
        (["solve", "--rack", "R1", "--bogus"], "meldwise solve"),
        (["shanghai", "advise", "--hand", "7H", "--bogus", "x"], "meldwise shanghai advise"),
        (["tournament", "--bots", "greedy", "extra"], "meldwise tournament"),
    ],
)
@pytest.mark.parametrize(
    ("lang", "error"),
    [("en", "error: unrecognized arguments"), ("ja", "エラー: 読めない引数があります")],
)
def test_a_word_the_command_does_not_take_is_refused_with_its_usage(
    argv: list[str],
    prog: str,
    lang: str,
    error: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # It was refused by the parser of every command, with its usage ("usage: meldwise
    # [-h] [--lang {en,ja}] {solve,validate,...}") and "meldwise: error:", where every
    # other usage error of a command shows that command's.
    monkeypatch.setenv("LANGUAGE", lang)
    with pytest.raises(SystemExit) as raised:
        main(argv)
    assert raised.value.code == 2
    said = capsys.readouterr().err.splitlines()
    assert said[0].startswith(f"usage: {prog} [-h]")
    extra = " ".join(argv[argv.index("--bogus") :] if "--bogus" in argv else argv[-1:])
    assert said[-1] == f"{prog}: {error}: {extra}"


@TABLE_COMMANDS
def test_the_report_file_is_written_though_the_reader_of_the_table_left(
    argv: list[str], tmp_path: Path
) -> None:
    # `meldwise bench --json bench.json | head -3` lost the whole run's figures when the
    # table filled the pipe: the file was written after the table.
    report = tmp_path / "report.json"
    command = [sys.executable, "-m", "meldwise", *argv, "--json", str(report)]
    started = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert started.stdout is not None
    started.stdout.close()
    assert started.wait(timeout=300) == 141
    assert report.read_text().startswith("{")


def _record_with_japanese_names() -> str:
    game = play(GameSettings(rules=TINY, hand=5), ["greedy", "greedy"], 3)
    return json.dumps(record_to_dict(game, ["太郎", "花子"]))


@pytest.mark.parametrize(
    ("argv", "request_text"),
    [
        (["solve", "--json", "--lang", "ja"], '{"rack": ["R1", "R2", "R3"]}'),
        (["score", "--jsonl"], '{"racks": {"José": [], "\U0001f600": ["R1"]}}\n'),
        (["review", "--json", "-"], None),
    ],
    ids=["solve", "score", "review"],
)
@pytest.mark.parametrize("encoding", ["euc_jp", "latin-1"])
def test_json_is_written_in_utf8_whatever_the_locale(
    argv: list[str], request_text: str | None, encoding: str
) -> None:
    # In a locale of another encoding (ja_JP.eucJP, Latin-1) the answers to --json and
    # --jsonl were written in it, which a reader of JSON (UTF-8, as the requests on
    # stdin are read) could not decode, and what it could not encode was escaped as
    # \U0001f600, which is no JSON.
    text = request_text if request_text is not None else _record_with_japanese_names()
    done = subprocess.run(
        [sys.executable, "-m", "meldwise", *argv],
        input=text.encode(),
        capture_output=True,
        env={**os.environ, "PYTHONIOENCODING": encoding},
        timeout=120,
    )
    assert done.returncode == 0, done.stderr.decode(encoding)
    answer = json.loads(done.stdout.decode("utf-8"))
    said = json.dumps(answer, ensure_ascii=False)
    assert any(word in said for word in ("出します", "\U0001f600", "太郎")), said


def test_version_says_the_installed_version(capsys: pytest.CaptureFixture[str]) -> None:
    # `meldwise --version`, a newcomer's first command, said "the following arguments
    # are required: command", naming neither --version nor a version.
    with pytest.raises(SystemExit) as raised:
        main(["--version"])
    assert raised.value.code == 0
    assert capsys.readouterr().out == f"meldwise {metadata.version('meldwise')}\n"


def test_a_checkout_not_installed_runs_its_commands(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The version is looked up for --version alone: looked up as the parser was built,
    # a checkout run without installing it (PYTHONPATH=.) failed every command.
    def not_installed(name: str) -> str:
        raise metadata.PackageNotFoundError(name)

    monkeypatch.setattr(metadata, "version", not_installed)
    assert main(["solve", "--rack", "R1 R2 R3"]) == 0
    assert capsys.readouterr().out.startswith("Play 3 tiles")


@pytest.mark.parametrize(
    ("command", "given"),
    [
        (["solve"], ["--rack", "R1"]),
        (["repair"], ["--table", "R1 R2 R3"]),
        (["shanghai", "advise"], ["--hand", "7H 8H", "--hand-number", "1"]),
        (["review"], ["-"]),
        (["shanghai", "review"], ["-"]),
        # It took --time-limit 1e9, and its help said no range.
        (["bench"], ["--per-bucket", "1", "--buckets", "t0-r6", "--modes", "tiles"]),
    ],
    ids=["solve", "repair", "shanghai advise", "review", "shanghai review", "bench"],
)
def test_the_help_says_the_time_limits_the_command_takes(
    command: list[str],
    given: list[str],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The help said "solver time limit (2)"; the range (300 s, a review's turn 60 s)
    # was learnt from the refusal.
    monkeypatch.setenv("LANGUAGE", "en")
    with pytest.raises(SystemExit):
        main([*command, "--help"])
    helped = " ".join(capsys.readouterr().out.split())
    default = "10" if command == ["bench"] else "2"  # bench's solves are given longer
    found = re.search(rf"--time-limit SECONDS [^(]*\({default}; 0\.001 to (\d+)\)", helped)
    assert found is not None, helped
    highest = int(found.group(1))
    shanghai = command[0] == "shanghai"
    record = json.dumps(shanghai_record()) if shanghai else _record_with_japanese_names()
    monkeypatch.setattr("sys.stdin", io.StringIO(record))  # for review -
    assert main([*command, *given, "--time-limit", str(highest + 1)]) == 2
    said = capsys.readouterr().err
    assert f"--time-limit must be between 0.001 and {highest} seconds" in said, said


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        (
            "en",
            "error: --peer needs rummikub-solver: pip install -c constraints.txt -e '.[bench]'\n",
        ),
        (
            "ja",
            "エラー: --peer には rummikub-solver が必要です:"
            " pip install -c constraints.txt -e '.[bench]'\n",
        ),
    ],
)
def test_bench_says_a_peer_not_installed_in_the_language_asked_for(
    lang: str, said: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # It was said in English whatever --lang asked (i18n.md: the --lang before the
    # command's name speaks for bench's errors), with an install line unlike
    # benchmarks.md's, which installs at the tested versions.
    monkeypatch.setitem(sys.modules, "rummikub_solver", None)  # import fails
    argv = ["--lang", lang, "bench", "--quick", "--peer", "--buckets", "t0-r6", "--modes", "tiles"]
    assert main(argv) == 2
    assert capsys.readouterr().err == said


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (
            ["--verison"],
            "meldwise: error: a command is needed: solve, validate, repair, score, shanghai,"
            " bot, game, review, tournament, bench or serve;"
            " unrecognized arguments: --verison",
        ),
        (
            ["shanghai", "--down"],
            "meldwise shanghai: error: a command is needed: advise, score or review;"
            " unrecognized arguments: --down",
        ),
        (
            [],
            "meldwise: error: a command is needed: solve, validate, repair, score, shanghai,"
            " bot, game, review, tournament, bench or serve",
        ),
    ],
)
def test_a_missing_command_is_said_with_the_words_not_taken(
    argv: list[str], said: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # `meldwise --verison` said only that a command is required: the word mistyped was
    # not named.
    monkeypatch.setenv("LANGUAGE", "en")
    with pytest.raises(SystemExit) as raised:
        main(argv)
    assert raised.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == said


def test_a_missing_command_names_its_choices_in_japanese(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # It said "required: action", argparse's name for the place, not the choices.
    monkeypatch.setenv("LANGUAGE", "ja")
    with pytest.raises(SystemExit):
        main(["shanghai"])
    assert capsys.readouterr().err.splitlines()[-1] == (
        "meldwise shanghai: エラー: コマンドを指定してください: advise、score、review のいずれか"
    )

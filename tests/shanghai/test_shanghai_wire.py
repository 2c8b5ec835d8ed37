"""advise_shanghai / score_shanghai: schema, crafted turns, errors that name the
culprit, and the shanghai CLI command."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest

from meldwise.cli import main
from solver import MeldwiseError, advise_shanghai, score_shanghai
from solver.commands import status_text
from solver.errors import CountError, NotationError, RequestError, RulesError, TableError
from solver.shanghai import STANDARD, Contract, Position, examples, parse_cards
from solver.shanghai.position import NextPlayer
from tests.support import run_solver_cli, spend_the_clock


def test_examples_are_what_the_solver_answers() -> None:
    """The documented examples (README, OpenAPI) stay in step with behaviour."""
    assert advise_shanghai(examples.ADVISE_REQUEST) == examples.ADVISE_RESPONSE
    assert advise_shanghai(examples.ADVISE_NOT_DOWN_REQUEST) == examples.ADVISE_NOT_DOWN_RESPONSE
    assert advise_shanghai(examples.ADVISE_DRAW_REQUEST) == examples.ADVISE_DRAW_RESPONSE
    assert score_shanghai(examples.SCORE_REQUEST) == examples.SCORE_RESPONSE


def test_no_swap_without_the_card_the_joker_stands_for() -> None:
    """The table joker stands for 8C; without 8C the set of nines stays one short."""
    response = advise_shanghai(
        {
            "hand": ["9S", "9H", "5D", "6D", "7D", "8D", "4D", "KC", "QC"],
            "hand_number": 2,
            "table": [{"cards": ["5C", "6C", "7C", "JK"], "owner": "ann"}],
        }
    )
    assert response["deficiency"] == 1
    assert response["go_down"] is None


def test_swap_makes_going_down_possible() -> None:
    response = advise_shanghai(
        {
            "hand": ["9S", "9H", "5D", "6D", "7D", "8D", "8C", "KC", "QC"],
            "hand_number": 2,
            "table": [{"cards": ["5C", "6C", "7C", "JK"], "owner": "ann"}],
        }
    )
    assert response["deficiency"] == 1
    go = response["go_down"]
    assert go is not None
    assert go["swaps"] == [{"meld": 0, "position": 3, "give": "8C", "take": "JK"}]
    nines = next(m for m in go["melds"] if m["kind"] == "set")
    assert sorted(nines["cards"]) == ["9H", "9S", "JK"]
    assert nines["as"][-1] == "9"


def test_last_card_may_not_be_discarded_by_default() -> None:
    """After going down, 10C fits the table run, but laying it would leave KD as the
    only card to discard; by default that is not allowed."""
    request: dict[str, Any] = {
        "hand": ["7H", "7S", "7D", "3S", "4S", "5S", "JK", "10C", "KD"],
        "hand_number": 2,
        "table": [{"cards": ["JC", "QC", "KC", "AC"]}],
    }
    strict = advise_shanghai(request)
    assert strict["lay_offs"]["plays"] == []
    assert strict["lay_offs"]["can_go_out"] is False
    loose = advise_shanghai({**request, "rules": {"go_out_by_discard": True}})
    assert loose["lay_offs"]["plays"] == [{"card": "10C", "meld": 0, "as": "10C"}]
    assert loose["lay_offs"]["can_go_out"] is True
    assert loose["discard"]["card"] == "KD"


def test_down_player_lays_off_on_run_ends_and_goes_out() -> None:
    response = advise_shanghai(
        {
            "hand": ["4D", "9D", "8S"],
            "hand_number": 3,
            "down": True,
            "table": [{"cards": ["8H", "8C", "8D"]}, {"cards": ["5D", "6D", "JK", "8D"]}],
            "upcard": "8S",
        }
    )
    laid = response["lay_offs"]
    assert laid["can_go_out"] is True
    assert laid["left"] == []
    assert {(p["card"], p["meld"]) for p in laid["plays"]} == {("4D", 1), ("9D", 1), ("8S", 0)}
    assert response["discard"] is None
    assert response["take_upcard"]["take"] is True  # 8S fits the set of eights
    assert response["buy"]["buy"] is False


def test_take_and_buy_follow_the_deficiency() -> None:
    request = {"hand": ["9H", "9S", "KD", "KC", "4C", "6H"], "hand_number": 1, "upcard": "9D"}
    response = advise_shanghai(request)
    assert response["deficiency"] == 2
    assert response["take_upcard"]["take"] is True
    assert response["take_upcard"]["deficiency_with"] == 1
    assert response["buy"]["buy"] is True
    no_buys = advise_shanghai({**request, "buys_left": 0})
    assert no_buys["buy"]["buy"] is False
    useless = advise_shanghai({**request, "upcard": "5S"})
    assert useless["take_upcard"]["take"] is False


def test_discard_keeps_the_contract_cards() -> None:
    response = advise_shanghai(
        {"hand": ["9H", "9S", "9D", "KD", "KC", "4C", "7H"], "hand_number": 1}
    )
    assert response["go_down"] is None
    assert response["discard"]["card"] in ("4C", "7H")
    assert "1 card short" in response["discard"]["reason"]


def test_score() -> None:
    response = score_shanghai({"hands": {"ann": ["AS", "JK", "7D"], "bo": []}})
    assert response["scores"] == [
        {"player": "ann", "cards": ["AS", "7D", "JK"], "points": 45, "went_out": False},
        {"player": "bo", "cards": [], "points": 0, "went_out": True},
    ]


def test_score_refuses_several_players_out() -> None:
    """Only one player goes out in a hand (it ends there): two empty hands were each
    scored ``went_out: true``; now refused, naming the players."""
    with pytest.raises(MeldwiseError) as raised:
        score_shanghai({"hands": {"ann": [], "bo": ["7H"], "cy": []}})
    assert str(raised.value) == (
        "only one player goes out, but 2 players have nothing left: 'ann', 'cy'"
    )
    many: dict[str, list[str]] = {f"p{n}": [] for n in range(8)}
    with pytest.raises(MeldwiseError, match=r"8 players .*'p4' and 3 more players$"):
        score_shanghai({"hands": many})
    # One empty hand, or none (the hand ended otherwise), is scored.
    accepted: list[dict[str, list[str]]] = [
        {"ann": [], "bo": ["7H"]},
        {"ann": ["2C"], "bo": ["7H"]},
        {"ann": []},
    ]
    for hands in accepted:
        scores = score_shanghai({"hands": hands})["scores"]
        assert [s["went_out"] for s in scores] == [not cards for cards in hands.values()]


@pytest.mark.parametrize(
    ("request_", "error", "culprit"),
    [
        ({"hand": ["QQ"], "hand_number": 1}, NotationError, "'QQ'"),
        ({"hand": ["7H", "7H", "7H"], "hand_number": 1}, CountError, "7H: 3"),
        ({"hand": ["JK"] * 5, "hand_number": 1}, CountError, "jokers"),
        ({"hand": ["7H"]}, RequestError, "hand_number"),
        (
            {"hand": ["7H"], "hand_number": 1, "contract": {"sets": [3]}},
            RequestError,
            "exactly one",
        ),
        ({"hand": ["7H"], "hand_number": 11}, RequestError, "hand_number"),
        ({"hand": ["7H"], "contract": {"sets": [2]}}, RequestError, "size 2"),
        ({"hand": ["7H"], "hand_number": 1, "colour": 1}, RequestError, "'colour'"),
        ({"hand_number": 1}, RequestError, "'hand'"),
        ({"hand": [], "hand_number": 1}, RequestError, "'hand' must hold at least 1"),
        ({"hand": "7H", "hand_number": 1}, RequestError, "hand"),
        (
            {"hand": ["7H"], "hand_number": 1, "table": [{"cards": ["3S", "5S", "7S"]}]},
            TableError,
            "table meld 0",
        ),
        ({"hand": ["7H"], "hand_number": 1, "table": [["3S"]]}, RequestError, "'table[0]' must be"),
        (
            {"hand": ["7H"], "hand_number": 1, "table": [{"cards": [], "who": "x"}]},
            RequestError,
            "'table[0].who'",
        ),
        ({"hand": ["7H"], "hand_number": 1, "down": "no"}, RequestError, "down"),
        ({"hand": ["7H"], "hand_number": 1, "upcard": "ZZ"}, NotationError, "upcard"),
        ({"hand": ["7H"], "hand_number": 9, "buys_left": 5}, RequestError, "0 to 4"),
        ({"hand": ["7H"], "hand_number": 1, "rules": {"decks": 0}}, RulesError, "decks"),
        ({"hand": ["7H"], "hand_number": 1, "time_limit_ms": 0}, RequestError, "time_limit_ms"),
        ({"hand": ["7H"], "hand_number": 1, "phase": "before"}, RequestError, "'phase'"),
        ({"hand": ["7H"], "hand_number": 1, "seen": ["ZZ"]}, NotationError, "seen"),
        ({"hand": ["7H"], "hand_number": 1, "seen": ["7H", "7H"]}, CountError, "7H: 3"),
        ({"hand": ["7H"], "hand_number": 1, "next_player": [1]}, RequestError, "next_player"),
        (
            {"hand": ["7H"], "hand_number": 1, "next_player": {"down": 1}},
            RequestError,
            "'next_player.down' must be true or false",
        ),
        (
            {"hand": ["7H"], "hand_number": 1, "next_player": {"took": ["QQ"]}},
            NotationError,
            "next_player.took[0]: unknown card",
        ),
        (
            {"hand": ["7H"], "hand_number": 1, "next_player": {"hand": []}},
            RequestError,
            "unknown field 'next_player.hand'",
        ),
        (
            {"hand": ["AH", "2H"], "hand_number": 1, "rules": {"decks": 1}, "upcard": "AH"},
            CountError,
            "AH: 2",
        ),
    ],
)
def test_bad_requests_name_the_culprit(
    request_: dict[str, Any], error: type[MeldwiseError], culprit: str
) -> None:
    with pytest.raises(error) as raised:
        advise_shanghai(request_)
    assert culprit in str(raised.value)


@pytest.mark.parametrize(
    ("request_", "culprit"),
    [
        ({}, "'hands'"),
        ({"hands": {"ann": ["7H"] * 3}}, "7H: 3"),
        ({"hands": {"ann": ["XX"]}}, "'XX'"),
        ({"hands": {"ann": []}, "extra": 1}, "'extra'"),
    ],
)
def test_bad_score_requests(request_: dict[str, Any], culprit: str) -> None:
    with pytest.raises(MeldwiseError, match=culprit):
        score_shanghai(request_)


def test_cli_human_output(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        [
            "shanghai",
            "advise",
            "--hand",
            "7H 7S 7D 3S 4S 5S JK 10C KD",
            "--hand-number",
            "2",
            "--table",
            "ann: JC QC KC AC",
            "--rule",
            "go_out_by_discard=true",
        ]
    )
    out = capsys.readouterr().out
    assert code == 0
    assert "run  3S 4S 5S JK(6S)" in out
    assert "10C on meld 0" in out
    assert "go out this turn: yes" in out
    # A player who is down was once told "Go down: not this turn".
    table = ["--table", "ann: 7C 7D 7S | ann: 8H 8S 8D"]
    assert (
        main(["shanghai", "advise", "--hand", "7H 9D", "--hand-number", "1", "--down", *table]) == 0
    )
    out = capsys.readouterr().out
    assert "Go down" not in out
    assert "Lay off" in out
    assert main(["shanghai", "advise", "--hand", "7H 9D", "--hand-number", "1", *table]) == 0
    assert "Go down: not this turn" in capsys.readouterr().out
    assert main(["shanghai", "score", "--hand", "ann=AS JK", "--hand", "bo="]) == 0
    assert "ann: 40 points" in capsys.readouterr().out


def test_cli_says_one_point_in_the_singular(capsys: pytest.CaptureFixture[str]) -> None:
    """Under low_points=1 a card left costs 1 point: the score, the cards left after going
    down and those kept at the turn's end said "1 points"."""
    one = ["--rule", "low_points=1"]
    assert main(["shanghai", "score", "--hand", "ann=7S", "--hand", "bo=8S 9S", *one]) == 0
    assert capsys.readouterr().out == "ann: 1 point  7S\nbo: 2 points  8S 9S\n"
    hand = ["--hand", "7S 7H 7D 8S 8H 8D 4H 9C", "--hand-number", "1", "--phase", "play"]
    assert main(["shanghai", "advise", *hand, *one]) == 0
    out = capsys.readouterr().out
    assert "  left: 4H 9C (2 points)\n" in out
    assert "End of turn: keep 9C (1 point)\n" in out
    hand = ["--hand", "7S 7H 7D 8S 8H 8D 4H KC", "--hand-number", "1", "--phase", "play"]
    assert main(["shanghai", "advise", *hand, *one, "--rule", "ten_points=0"]) == 0
    assert "  left: 4H KC (1 point)\n" in capsys.readouterr().out


def test_cli_custom_contract_and_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["shanghai", "advise", "--hand", "8S 8H 2D 9C 10C", "--sets", "3"]
    assert main([*args, "--rule", "twos_wild=true"]) == 0
    assert "set  8S 8H 2D(8)" in capsys.readouterr().out
    assert main(args) == 0  # twos not wild: one card short
    assert "Cards short of the contract: 1" in capsys.readouterr().out
    assert main(["shanghai", "advise", "--hand", "8S QQ", "--hand-number", "1"]) == 2
    captured = capsys.readouterr()
    assert "'QQ'" in captured.err
    assert captured.out == ""
    assert main(["shanghai", "advise", "--hand", "8S", "--hand-number", "1", "--rule", "x"]) == 2
    assert "NAME=NUMBER" in capsys.readouterr().err
    # A player named twice once kept the second hand alone and scored it, exit 0.
    args = ["shanghai", "score", "--hand", "ann=AS", "--hand", " ann =7D"]
    assert main(args) == 2
    captured = capsys.readouterr()
    assert "--hand names the player 'ann' twice" in captured.err
    assert captured.out == ""
    # Two players out in one hand: refused by the flags that gave them, exit 2.
    assert main(["shanghai", "score", "--hand", "ann=", "--hand", "bo=5H", "--hand", "cy="]) == 2
    captured = capsys.readouterr()
    assert captured.err == (
        "error: --hand: only one player goes out, but 2 players have nothing left: 'ann', 'cy'\n"
    )
    assert captured.out == ""


@pytest.mark.parametrize(
    ("flags", "next_player"),
    [
        ([], None),
        (["--next-down", "yes", "--next-took", "10H 9C"], {"down": True, "took": ["10H", "9C"]}),
        (["--next-down", "no"], {"down": False, "took": []}),
        (["--next-took", "9C"], {"down": None, "took": ["9C"]}),
    ],
)
def test_cli_next_player_flags(
    flags: list[str],
    next_player: dict[str, Any] | None,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # HTTP and --json took next_player (the discard's danger); the flags could not say it.
    asked: list[dict[str, Any]] = []

    def advise(request: dict[str, Any]) -> dict[str, Any]:
        asked.append(request)
        return advise_shanghai(request)

    monkeypatch.setattr("solver.shanghai.cli.advise_shanghai", advise)
    args = ["shanghai", "advise", "--hand", "7H 7S 7D KD 10C", "--hand-number", "1"]
    assert main([*args, "--phase", "play", *flags]) == 0
    assert asked[0].get("next_player") == next_player
    assert "Discard" in capsys.readouterr().out
    assert main([*args, "--next-took", "QQ", "--lang", "ja"]) == 2
    assert "--next-took: 不明なカード 'QQ'" in capsys.readouterr().err


def test_a_wire_table_meld_without_cards_says_so() -> None:
    """An empty table meld over the wire was said to hold only wild cards; the CLI
    already said it has no cards."""
    request = {"hand": ["7H"], "hand_number": 1, "table": [{"cards": []}]}
    with pytest.raises(TableError, match=r"table meld 0 \(empty\).*: it has no cards") as error:
        advise_shanghai(request)
    assert "wild" not in str(error.value)


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        # Neither given once ended "..., not both".
        ([], "give the contract: --hand-number (1-10), or its melds with --sets and --runs"),
        (["--hand-number", "2", "--runs", "4"], "or with --sets/--runs, not both"),
        (["--hand-number", "11"], "--hand-number takes 1 to 10, got 11"),
    ],
)
def test_cli_contract_errors_name_the_flags(
    flags: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The CLI's contract errors name its flags, not the wire's fields."""
    assert main(["shanghai", "advise", "--hand", "7H 7S 7D", *flags]) == 2
    err = capsys.readouterr().err
    assert message in err
    assert "hand_number" not in err


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--table", "|"], "--table: table meld 0 of '|' has no cards"),
        (["--table", "8H 8S 8D ||"], "--table: table meld 1 of '8H 8S 8D ||' has no cards"),
        (["--table", "ann: "], "--table: table meld 0 of 'ann: ' has no cards"),
        (["--table", "8H 8S 8D | bo:"], "--table: table meld 1 of '8H 8S 8D | bo:' has no"),
        (["--sets", "3", "--runs", "4", "--runs", "5"], "--runs is given 2 times"),
        (["--sets", "3", "--sets", "3"], "--sets is given 2 times"),
        # "3,,3" was read as 3,3, and "" as no sets at all.
        (["--sets", "3,,3"], "--sets has an empty size in '3,,3'"),
        (["--sets", "3,"], "--sets has an empty size in '3,'"),
        (["--runs", ""], "--runs has an empty size in ''"),
    ],
)
def test_cli_refuses_empty_melds_and_repeated_contract_flags(
    flags: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """'|' and '8H 8S 8D ||' once dropped their empty melds while 'ann: ' was refused;
    a repeated --runs kept the last alone (set of 3 + run of 5)."""
    contract = [] if {"--sets", "--runs"} & set(flags) else ["--hand-number", "1"]
    assert main(["shanghai", "advise", "--hand", "7H 7S 7D", *contract, *flags]) == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize(
    ("table", "index", "meld"),
    [(": 8H 8S 8D", 0, ": 8H 8S 8D"), ("ann: 9H 9S 9D |  :8H 8S 8D", 1, ":8H 8S 8D")],
)
def test_cli_refuses_an_empty_owner_as_the_wire_does(
    table: str,
    index: int,
    meld: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """': 8H 8S 8D' was read as a meld of no owner, while the wire refuses an 'owner'
    of ''."""
    with pytest.raises(MeldwiseError, match="owner: a player name must be 1-64 characters"):
        advise_shanghai(
            {
                "hand": ["7H"],
                "hand_number": 1,
                "table": [{"cards": ["8H", "8S", "8D"], "owner": ""}],
            }
        )
    argv = ["shanghai", "advise", "--hand", "7H 7S 7D", "--hand-number", "1", "--table", table]
    monkeypatch.setenv("LANGUAGE", "en")
    assert main(argv) == 2
    assert capsys.readouterr().err == (
        f"error: --table: table meld {index} has an empty owner before ':' in {meld!r}; give a"
        " player's name, or no ':' for a meld of no owner\n"
    )
    assert main([*argv, "--lang", "ja"]) == 2
    assert capsys.readouterr().err.startswith("\u30a8\u30e9\u30fc: --table: ")
    assert main([*argv[:-1], table.replace(meld, f"bo{meld}")]) == 0  # a name: read


def test_cli_a_table_meld_that_is_not_valid_names_the_flag(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # It said "table meld 1 (AS 2S) is not a valid meld" without naming --table.
    argv = ["shanghai", "advise", "--hand", "7H 7S 7D", "--hand-number", "1"]
    assert main([*argv, "--table", "KH KD KS | AS 2S"]) == 2
    said = "table meld 1 (AS 2S) is not a valid meld: a run needs at least 4 cards"
    assert capsys.readouterr().err.startswith(f"error: --table: {said}")
    assert main([*argv, "--table", "KH KD KS | AS 2S", "--lang", "ja"]) == 2
    meld_1 = "\u5834\u306e\u30e1\u30eb\u30c91(AS 2S)"  # the table's meld 1 (AS 2S)
    assert capsys.readouterr().err.startswith(f"\u30a8\u30e9\u30fc: --table: {meld_1}")


@pytest.mark.parametrize("hand", ["", " ", "　"])
def test_cli_an_empty_hand_names_the_flag(hand: str, capsys: pytest.CaptureFixture[str]) -> None:
    # It was refused in the request field's words: 'hand' must hold at least 1, got 0.
    argv = ["shanghai", "advise", "--hand", hand, "--hand-number", "1"]
    assert main(argv) == 2
    assert capsys.readouterr().err == f"error: --hand names no card, got {hand!r}\n"
    assert main([*argv, "--lang", "ja"]) == 2
    assert capsys.readouterr().err == f"エラー: --hand にカードがありません(指定値: {hand!r})\n"


def test_cli_help_of_phase_names_only_what_it_takes(capsys: pytest.CaptureFixture[str]) -> None:
    # It said "none: the older mixed question", and --phase none is refused: leaving
    # the flag out asks that question.
    with pytest.raises(SystemExit):
        main(["shanghai", "advise", "--help"])
    said = " ".join(capsys.readouterr().out.split())
    assert "not given: the older mixed question" in said
    with pytest.raises(SystemExit) as exit_:
        main(["shanghai", "advise", "--hand", "7H", "--hand-number", "1", "--phase", "none"])
    assert exit_.value.code == 2


def test_cli_contract_sizes_read_digits_as_the_cards_do(capsys: pytest.CaptureFixture[str]) -> None:
    # Typed full width, as a card is read; "³" passed isdigit() and int() refused it (a
    # ValueError traceback, exit 1), then NFKC read it as 3: no card reads it so now.
    assert main(["shanghai", "advise", "--hand", "7H 7S 7D", "--sets", "\uff13,\uff13"]) == 0
    assert "Contract: set of 3 + set of 3\n" in capsys.readouterr().out
    assert main(["shanghai", "advise", "--hand", "7H 7S 7D", "--sets", "³"]) == 2
    assert capsys.readouterr().err == "error: --sets takes sizes like 3,3, got '³'\n"
    assert main(["shanghai", "advise", "--hand", "7H", "--sets", "3", "--runs", "٤x"]) == 2
    assert capsys.readouterr().err == "error: --runs takes sizes like 3,3, got '٤x'\n"


def test_cli_empty_table_is_no_meld(capsys: pytest.CaptureFixture[str]) -> None:
    for table in ("", " "):
        args = ["shanghai", "advise", "--hand", "7H 7S 7D", "--sets", "3", "--table", table]
        assert main(args) == 0
        assert "Contract: set of 3" in capsys.readouterr().out


def test_cli_json_and_jsonl_modes() -> None:
    done = run_solver_cli(["shanghai", "advise", "--json"], json.dumps(examples.ADVISE_REQUEST))
    assert done.returncode == 0
    assert json.loads(done.stdout) == examples.ADVISE_RESPONSE
    bad = run_solver_cli(["shanghai", "advise", "--json"], "{oops")
    assert bad.returncode == 2
    assert "not valid JSON" in bad.stderr
    assert "Traceback" not in bad.stderr
    lines = [json.dumps(examples.SCORE_REQUEST), json.dumps({"hands": {"a": ["QQ"]}}), "nope"]
    done = run_solver_cli(["shanghai", "score", "--jsonl"], "\n".join(lines) + "\n")
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert done.returncode == 0
    assert len(answers) == 3
    assert answers[0] == examples.SCORE_RESPONSE
    assert "'QQ'" in answers[1]["error"]
    assert "not valid JSON" in answers[2]["error"]


def test_jokers_go_where_fewest_unseen_cards_could_take_them() -> None:
    """The spare joker could extend the set of eights (5 unseen eights could be
    swapped for it) or the diamond run (at 3D or 8D: 2 unseen copies each); the
    points left are the same, so it goes on the run."""
    response = advise_shanghai(
        {"hand": ["8S", "8H", "8C", "4D", "5D", "6D", "7D", "JK"], "hand_number": 2}
    )
    go = response["go_down"]
    assert go["left"] == []
    assert response["lay_offs"]["can_go_out"] is True
    run = next(m for m in go["melds"] if m["kind"] == "run")
    assert "JK" in run["cards"]
    assert len(run["cards"]) == 5


def test_contract_met_but_blocked_by_the_turn_end_rule_is_explained() -> None:
    request = {"hand": ["8S", "8H", "8D", "9C"], "contract": {"sets": [3]}}
    blocked = advise_shanghai(request)
    assert blocked["deficiency"] == 0
    assert blocked["go_down"] is None
    assert "may not be discarded" in blocked["notes"][0]
    allowed = advise_shanghai({**request, "rules": {"go_out_by_discard": True}})
    assert allowed["go_down"] is not None
    assert allowed["discard"]["card"] == "9C"


# --- next_player.took: cards known to be out of the unseen pool -----------------------

TOOK_TURN: dict[str, Any] = {
    "hand": ["7H", "8H"],
    "hand_number": 1,
    "phase": "draw",
    "upcard": "7H",
}


def _unseen(answer: dict[str, Any]) -> str:
    rule: str = answer["take_upcard"]["rule"]
    return rule.rpartition("over the ")[2]


def test_a_card_taken_more_often_than_the_decks_hold_it_is_no_card_too_many() -> None:
    """Taken, discarded again and taken again: a real game's took list may hold a card
    three times in two decks. It was refused as too many copies (a CountError, 422),
    and the engine's own views counted -1 unseen copies of it."""
    thrice = advise_shanghai({**TOOK_TURN, "next_player": {"took": ["7H", "7H", "7H"]}})
    twice = advise_shanghai({**TOOK_TURN, "next_player": {"took": ["7H", "7H"]}})
    assert _unseen(thrice) == _unseen(twice)
    took = NextPlayer(took=tuple(parse_cards("7H 7H 7H")))
    position = Position(tuple(parse_cards("7H 7H")), Contract.for_hand(1), next_player=took)
    assert min(position.unseen(STANDARD).values()) == 0
    # But only a card the game has.
    no_jokers = {"rules": {"jokers_per_deck": 0}, "next_player": {"took": ["JK"]}}
    with pytest.raises(CountError, match=r"too many jokers \(JK\): 1 in next_player\.took"):
        advise_shanghai({**TOOK_TURN, **no_jokers})


def test_cards_the_next_player_took_leave_the_unseen_pool_once() -> None:
    assert _unseen(advise_shanghai(TOOK_TURN)) == "105 unseen cards)."
    took_qd = advise_shanghai({**TOOK_TURN, "next_player": {"took": ["QD"]}})
    assert _unseen(took_qd) == "104 unseen cards)."
    # A 7H they took may be the upcard now (discarded again): counted once, not refused.
    took_7h = advise_shanghai({**TOOK_TURN, "next_player": {"took": ["7H"]}})
    assert _unseen(took_7h) == "105 unseen cards)."
    both = advise_shanghai({**TOOK_TURN, "next_player": {"took": ["7H", "7H", "QD", "QD"]}})
    assert _unseen(both) == "103 unseen cards)."


def test_advice_the_clock_cut_says_so(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Under load the advice changed (optimal to unknown, another discard) and nothing
    said the clock had cut it."""
    assert advise_shanghai(examples.ADVISE_REQUEST)["time_capped"] is False
    assert advise_shanghai(examples.ADVISE_DRAW_REQUEST)["time_capped"] is False
    spend_the_clock(monkeypatch, "solver.shanghai.wire")
    cut = advise_shanghai(examples.ADVISE_REQUEST)
    assert cut["time_capped"] is True
    assert cut["status"] == "unknown"
    assert advise_shanghai(examples.ADVISE_DRAW_REQUEST)["time_capped"] is True
    args = ["shanghai", "advise", "--hand", "7H 7S 7D 3S 4S 5S JK 10C KD", "--hand-number", "2"]
    assert main(args) == 0
    assert "The time limit, not the fixed work bound, cut a search short" in capsys.readouterr().out


def test_too_many_jokers_names_the_setting() -> None:
    """'the game has 0 (2 decks)' left jokers_per_deck 0 to be guessed."""
    request = {"hand": ["JK", "7H"], "hand_number": 1, "rules": {"jokers_per_deck": 0}}
    with pytest.raises(CountError, match=r"has 0 \(2 decks, jokers_per_deck 0\)"):
        advise_shanghai(request)


def test_draw_option_figures_are_numbers_of_one_type() -> None:
    # A take's figures came out as ints (1, 0) beside the draw's floats (1.0, 84.18).
    hand = ["9C", "9D", "5H", "9S", "5S", "5D", "KD", "2C", "3C", "4H", "7S"]
    answer = advise_shanghai({"hand": hand, "hand_number": 1, "phase": "draw", "upcard": "6S"})
    figures = [
        option[name]
        for option in answer["draw_options"]
        for name in ("deficiency", "points", "go_down", "go_out")
        if option[name] is not None
    ]
    assert figures
    assert all(type(figure) is float for figure in figures)


def test_the_cli_status_of_advice_the_clock_cut_does_not_deny_its_answer(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A Shanghai status is the worst of the turn's searches: cut by the clock, the
    advice still names a discard, and the status line said "time ran out before
    anything was found" under it. Rummikub's words stay where they are true."""
    spend_the_clock(monkeypatch, "solver.shanghai.wire")
    args = ["shanghai", "advise", "--hand", "2S 2H 2D 2C 2S 2H 2D 2C JK", "--hand-number", "3"]
    assert main([*args, "--rule", "twos_wild=true", "--phase", "play"]) == 0
    out = capsys.readouterr().out
    assert "Discard " in out
    assert "before anything was found" not in out
    assert "Solver: partly unknown (a search stopped at its limit" in out
    assert (
        status_text("unknown")
        == "unknown (a search stopped at its limit before anything was found)"
    )


def test_a_play_the_clock_cut_is_not_said_not_to_go_down(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # "Go down: not this turn" came of a search stopped at once.
    advise = ["shanghai", "advise", "--hand", "AS AD AC KS KD KC 5S 5D 5C", "--hand-number", "1"]
    assert main([*advise, "--phase", "play"]) == 0
    assert "Go down:\n" in capsys.readouterr().out
    spend_the_clock(monkeypatch, "solver.shanghai.wire")
    assert main([*advise, "--phase", "play"]) == 0
    out = capsys.readouterr().out
    assert "Go down: not this turn" not in out
    assert "Go down: none found before the search stopped" in out


@pytest.mark.parametrize(
    ("lang", "not_now", "cut"),
    [
        ("en", "Go down: not this turn", "Go down: none found before the search stopped"),
        ("ja", "ダウン: この手番ではしない", "ダウン: 探索が止まるまでに見つかりませんでした"),
    ],
)
def test_a_go_down_proven_impossible_is_not_said_cut_when_another_search_is(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    lang: str,
    not_now: str,
    cut: str,
) -> None:
    # Three cards short (exact), so no going down, proven without a solve; only the
    # discard's search was cut by the clock, and the CLI said "Go down: none found
    # before the search stopped" (it read the status, the worst of every search).
    spend_the_clock(monkeypatch, "solver.shanghai.wire")
    hand = "QS JC 6S 10S 2C 10C 4D KC 7C 2S 5C JK"
    advise = ["shanghai", "advise", "--hand", hand, "--hand-number", "4", "--phase", "play"]
    assert main([*advise, "--lang", lang]) == 0
    out = capsys.readouterr().out
    if lang == "en":
        assert "Cards short of the contract: 3\n" in out
        assert "Solver: partly unknown" in out
    assert not_now in out
    assert cut not in out


def test_a_player_down_is_not_told_of_going_down(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # No legal end (7H cannot be laid off and may not be discarded): the CLI said
    # "Go down: not this turn" to a player down; with the clock cut, "Go down: none
    # found before the search stopped".
    advise = ["shanghai", "advise", "--down", "--table", "8H 8S 8D", "--hand-number", "1"]
    assert main([*advise, "--hand", "7H", "--phase", "play"]) == 0
    out = capsys.readouterr().out
    assert "Go down" not in out
    assert "No play ends this turn legally: 7H cannot be laid off" in out
    assert "Discard: none\n" in out
    spend_the_clock(monkeypatch, "solver.shanghai.wire")
    assert main([*advise, "--hand", "7H 8C", "--phase", "play"]) == 0
    out = capsys.readouterr().out
    assert "Go down" not in out
    assert "Lay off: none found before the search stopped\n" in out
    assert "Discard: none found before the search stopped\n" in out
    assert main([*advise, "--hand", "7H 8C", "--phase", "play", "--lang", "ja"]) == 0
    out = capsys.readouterr().out
    assert "付け札: 探索が止まるまでに見つかりませんでした\n" in out
    assert "ダウン" not in out


def test_cli_notes_say_the_phase_flag(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The notes told a command-line user to send the request's "phase 'draw'".
    last = ["shanghai", "advise", "--hand", "7H", "--hand-number", "1"]
    legacy = ["shanghai", "advise", "--hand", "7H 7S 8D 9C", "--hand-number", "1", "--upcard", "7D"]
    for argv, lang, said in (
        (last, "en", "before the draw, ask with --phase draw)."),
        (last, "ja", "引く前なら --phase draw で聞いてください"),
        (legacy, "en", "Send --phase draw or play to ask one question."),
        (legacy, "ja", "一つの質問にするには --phase draw か play を送ってください。"),
    ):
        assert main([*argv, "--lang", lang]) == 0
        out = capsys.readouterr().out
        assert said in out
        assert "phase 'draw'" not in out
    # A request on stdin, and the library, keep the field's words.
    monkeypatch.setattr("sys.stdin", io.StringIO('{"hand": ["7H"], "hand_number": 1}'))
    assert main(["shanghai", "advise", "--json"]) == 0
    assert "ask with phase 'draw')" in capsys.readouterr().out
    notes = advise_shanghai({"hand": ["7H"], "hand_number": 1})["notes"]
    assert any("ask with phase 'draw')" in note for note in notes)


def test_a_standard_contract_the_rules_cannot_meet_names_the_fields_sent() -> None:
    """Hand 1's two sets under min_set_len 8 with one deck (a set holds at most 6 cards)
    named the place ["sets"], a field the request does not have."""
    request = {"hand": ["7H"], "hand_number": 1, "rules": {"decks": 1, "min_set_len": 8}}
    with pytest.raises(RequestError, match="contract 'sets' size 8 cannot be met") as refused:
        advise_shanghai(request)
    assert refused.value.places == ((("rules",), ""), (("hand_number",), ""))


DOWN_REQUEST: dict[str, Any] = {
    "hand": ["9S", "10S", "QC", "5D", "8H", "2C"],
    "table": [
        {"cards": ["8S", "8H", "8D"], "owner": "me"},
        {"cards": ["JC", "QC", "KC", "AC"], "owner": "bo"},
        {"cards": ["5S", "6S", "7S", "8S"], "owner": "me"},
    ],
    "down": True,
    "upcard": "JS",
    "seen": ["4H"],
}


@pytest.mark.parametrize("phase", ["play", "draw", None])
def test_a_player_who_is_down_is_advised_without_a_contract(phase: str | None) -> None:
    """Once down, the turn is solved without the contract (the player lays off and
    discards, and cannot buy), yet a request had to give one: 'give exactly one of
    'hand_number' ... or 'contract''. Given or not, the advice is the same; a contract
    given is still echoed, and still checked."""
    request = {**DOWN_REQUEST, "phase": phase}
    alone = advise_shanghai(request)
    assert alone["contract"] is None
    assert alone["deficiency"] == 0
    for given in ({"hand_number": 3}, {"hand_number": 10}, {"contract": {"sets": [3, 4]}}):
        told = advise_shanghai({**request, **given})
        assert told["contract"] is not None
        assert {**told, "contract": None} == alone, given
    with pytest.raises(RequestError, match="give at most one of 'hand_number'"):
        advise_shanghai({**request, "hand_number": 3, "contract": {"sets": [3, 4]}})
    with pytest.raises(RequestError, match="size 2 is out of range"):
        advise_shanghai({**request, "contract": {"sets": [2]}})
    with pytest.raises(RequestError, match="give exactly one of 'hand_number'"):
        advise_shanghai({**request, "down": False})


def test_the_command_line_advises_a_player_who_is_down_without_a_contract(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ["shanghai", "advise", "--hand", "9S 10S QC 5D 8H 2C", "--phase", "play"]
    table = ["--table", "me: 8S 8H 8D | bo: JC QC KC AC | me: 5S 6S 7S 8S"]
    assert main([*args, *table, "--down"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert "Contract:" not in out
    assert "Lay off:" in out
    assert main([*args, *table, "--down", "--hand-number", "3"]) == 0
    with_contract = capsys.readouterr().out
    assert with_contract.startswith("Contract: run of 4 + run of 4\n")
    assert with_contract.endswith(out)
    assert main([*args, *table]) == 2  # not down: the contract is asked for
    assert "give the contract: --hand-number" in capsys.readouterr().err

"""A seeded Shanghai bot game (``game_shanghai``, ``meldwise game --game shanghai``):
the same seed plays the same game, its record replays and reviews, its status says
whether every solve the bots made was proven, bad input is refused naming its place.
Short games (two players, one hand) keep the tests quick; the HTTP route's are in
tests/api/test_shanghai_game.py."""

from __future__ import annotations

import io
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from ortools.sat.python import cp_model

import solver.shanghai.bots as bots_module
import solver.shanghai.model as model_module
import solver.shanghai.search as search_module
from solver.cli import main
from solver.cpsat import Limit, game_budget, solve_statuses
from solver.errors import MeldwiseError
from solver.shanghai import STANDARD, Contract, parse_cards
from solver.shanghai.deficiency import deficiency
from solver.shanghai.game_wire import ShanghaiGameRequest, game_shanghai, review_shanghai
from solver.shanghai.model import solve_model
from solver.shanghai.record import read_record, replay

SHORT: dict[str, Any] = {"bots": ["strong", "greedy"], "seed": 3, "settings": {"hands": 1}}
"""A game of one hand between two bots: under a second."""


@pytest.fixture(scope="module")
def played() -> dict[str, Any]:
    return game_shanghai(SHORT)


def test_the_same_seed_plays_the_same_game(played: dict[str, Any]) -> None:
    assert game_shanghai(SHORT) == played
    assert game_shanghai({**SHORT, "seed": 4})["record"] != played["record"]


def test_the_record_replays_and_reviews(played: dict[str, Any]) -> None:
    record = played["record"]
    assert record["format"] == "meldwise-shanghai-game"
    assert record["players"] == ["strong", "greedy"]
    assert (record["seed"], record["settings"]["players"], len(record["hands"])) == (3, 2, 1)
    game = replay(read_record(record))
    assert game.over
    assert list(game.scores) == record["scores"]
    assert record["winners"] == list(game.result().winners)
    review = review_shanghai({"record": record})
    plays = sum(event["kind"] == "play" for hand in record["hands"] for event in hand["events"])
    assert len(review["turns"]) == plays > 0
    assert [p["name"] for p in review["players"]] == ["strong", "greedy"]
    assert [p["score"] for p in review["players"]] == record["scores"]


def test_the_status_says_every_solve_was_proven(
    played: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert played["status"] == "optimal"
    real = solve_model

    def unproven(*args: Any, **kwargs: Any) -> tuple[Any, Any]:
        code, engine = real(*args, **kwargs)
        return (cp_model.FEASIBLE if code == cp_model.OPTIMAL else code), engine

    # A turn's search stopped at its work bound: the same game, not proven.
    monkeypatch.setattr(search_module, "solve_model", unproven)
    answer = game_shanghai(SHORT)
    assert answer["status"] == "feasible"
    assert answer["record"] == played["record"]


def test_a_move_the_safety_cap_stopped_is_refused_in_words(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # A bot's solve stopped by its 10 s wall-clock cap (a loaded machine, a heavy
    # variant: 8 decks, 30 cards dealt, wild twos had 2.7 s solves) was played all the
    # same: a game another machine would not repeat, its status "unknown" read as a
    # deterministic bound's stop. The cap is patched tiny here to stop every solve.
    monkeypatch.setattr(bots_module, "LIMIT", Limit(1e-6))
    with pytest.raises(MeldwiseError, match=r"^the bot's search was stopped by its 1e-06 s"):
        game_shanghai(SHORT)
    with pytest.raises(MeldwiseError) as refused:
        game_shanghai({**SHORT, "lang": "ja"})
    assert "安全上限" in str(refused.value)
    assert main([*ARGV, "--option", "hands=1"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("error: the bot's search was stopped by its 1e-06 s safety cap")
    assert len(err.splitlines()) == 1


def test_a_draw_solve_is_noted_for_the_game_status(monkeypatch: pytest.MonkeyPatch) -> None:
    # A bot that is down asks, before drawing, which cards would let it go out
    # (drawn_cards): those solves were not noted, so a game in which they all stopped
    # before their proof was said to have had every solve proven (optimal).
    real = model_module.solve_model
    asked: list[int] = []

    def stopped(*args: Any, **kwargs: Any) -> tuple[Any, Any]:
        asked.append(1)
        _code, engine = real(*args, **kwargs)
        return cp_model.UNKNOWN, engine

    monkeypatch.setattr(model_module, "solve_model", stopped)
    answer = game_shanghai(SHORT)
    assert asked
    assert answer["status"] == "unknown"


def test_a_deficiency_solve_is_noted_for_the_game_status() -> None:
    # Standard games rarely ask CP-SAT a deficiency (the analysis answers most): asked
    # directly, its status is noted as a turn's search's is.
    hand = Counter(parse_cards("3H 3S 7D 8C KD"))
    unseen = Counter(parse_cards("3D 3C 7C 7S 8D 8S KH KS"))
    with solve_statuses() as statuses:
        _value, status = deficiency(
            hand, Contract.for_hand(1, STANDARD), unseen, STANDARD, search=False
        )
    assert statuses == [status]


def test_a_game_past_its_budget_names_the_setting_that_asks_too_much() -> None:
    """The HTTP service's game budget (tests/api/test_shanghai_game.py has the hands): a
    first hand past it names 'max_turns', as fewer hands cannot help; none without one."""
    short = {"bots": ["strong", "greedy"], "seed": 5, "settings": {"hands": 1}}
    with game_budget(1), pytest.raises(MeldwiseError) as refused:
        game_shanghai(short)
    assert str(refused.value).startswith(
        "settings: 'max_turns' is 200: the first hand ran past this server's game budget of 1 ms"
        " of work at turn "
    )
    assert refused.value.places[-1][0] == ("settings", "max_turns")
    with game_budget(None):
        assert game_shanghai(short)["record"]["hands"]


def test_the_request_example_plays_and_reviews() -> None:
    (example,) = ShanghaiGameRequest.model_json_schema()["examples"]
    answer = game_shanghai(example)
    assert answer["status"] == "optimal"
    assert review_shanghai({"record": answer["record"]})["turns"]


@pytest.mark.parametrize(
    ("request_", "place"),
    [
        ({"bots": ["strong", "clever"]}, ("bots", 1)),
        ({"bots": ["strong"]}, ("bots",)),
        ({"bots": ["strong"] * 9}, ("bots",)),
        ({**SHORT, "seed": -1}, ("seed",)),
        ({**SHORT, "settings": {"hands": 11}}, ("settings",)),
        # The one setting the seats contradict (it was the settings as a whole).
        ({**SHORT, "settings": {"players": 3}}, ("settings", "players")),
        # More turns than a bot game allows (20,000 turns took 5 s and 3.6 MB).
        ({**SHORT, "settings": {"max_turns": 201}}, ("settings",)),
        ({**SHORT, "settings": {"rules": {"decks": 0}}}, ("settings", "rules")),
    ],
)
def test_bad_input_is_refused_naming_its_place(
    request_: dict[str, Any], place: tuple[Any, ...]
) -> None:
    with pytest.raises(MeldwiseError) as refused:
        game_shanghai(request_)
    assert refused.value.places[0][0] == place


ARGV = ["game", "--game", "shanghai", "--bots", "strong,greedy", "--seed", "3"]


def test_the_command_writes_the_library_record(
    played: dict[str, Any],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    path = tmp_path / "game.json"
    assert main([*ARGV, "--option", "hands=1", "--out", str(path)]) == 0
    assert json.loads(path.read_text()) == played["record"]
    scores = ", ".join(str(score) for score in played["record"]["scores"])
    summary, status = capsys.readouterr().out.splitlines()
    assert summary.startswith("1 hand, a player went out of every hand; winners ")
    assert summary.endswith(f"scores {scores}; record written to {path}")
    assert status == "Solver: every solve the bots made was proven (optimal)"
    # To stdout the record alone, for ``meldwise shanghai review -``.
    assert main([*ARGV, "--option", "hands=1"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out) == played["record"]
    assert err.splitlines()[0].endswith("record written to standard output")
    monkeypatch.setattr("sys.stdin", io.StringIO(out))
    assert main(["shanghai", "review", "-", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == review_shanghai({"record": played["record"]})


def test_the_summary_says_a_blocked_hand_in_japanese(capsys: pytest.CaptureFixture[str]) -> None:
    argv = [*ARGV, "--option", "hands=1", "--option", "max_turns=2", "--lang", "ja"]
    assert main(argv) == 0
    summary = capsys.readouterr().err.splitlines()[0]
    assert summary.startswith("1ハンド、1ハンドが手番の上限までに誰も上がらず終了。")


def test_the_summary_says_why_each_hand_was_blocked(capsys: pytest.CaptureFixture[str]) -> None:
    # Four players, one deck, four turns a hand: hand 1 ends after three turns, the
    # buys having emptied the stock and the pile; hand 2 plays its four turns. Both
    # were said to be blocked with "no one went out within their turns".
    argv = ["game", "--game", "shanghai", "--bots", "greedy,greedy,greedy,greedy", "--seed", "3"]
    argv += ["--option", "rules.decks=1", "--option", "hands=2", "--option", "max_turns=4"]
    assert main(argv) == 0
    out, err = capsys.readouterr()
    plays = [
        sum(event["kind"] == "play" for event in hand["events"])
        for hand in json.loads(out)["hands"]
    ]
    assert plays == [3, 4]
    assert err.startswith(
        "2 hands, 1 hand blocked: no one went out within its turns, 1 hand blocked: no card"
        " was left to draw; winners "
    )
    assert main([*argv, "--lang", "ja"]) == 0
    assert capsys.readouterr().err.startswith(
        "2ハンド、1ハンドが手番の上限までに誰も上がらず終了、"
        "1ハンドが誰も上がらないまま引けるカードが尽きて終了。勝者 "
    )


def test_too_few_cards_are_said_by_players_not_hands() -> None:
    # It said "settings: 2 hands of 26 and an upcard need 53 cards" of a game whose
    # 'hands' setting, the hands played, was 1.
    settings = {"hands": 1, "hand_size": 26, "rules": {"decks": 1, "jokers_per_deck": 0}}
    with pytest.raises(MeldwiseError) as refused:
        game_shanghai({**SHORT, "settings": settings})
    assert str(refused.value) == (
        "settings: 2 players dealt 26 cards each and an upcard need 53 cards; the game has 52"
    )


BAD_FLAGS = [
    (["--bots", "strong,clever"], "error: --bots must be 'greedy' or 'strong', got 'clever'"),
    (
        ["--bots", "strong", "--seed", "-1"],
        "error: --bots: give one bot per seat, 2 to 8 bots (e.g. strong and greedy); got 1:"
        " strong; --seed",
    ),
    (["--bots", "strong,greedy", "--option", "hands=11"], "error: --option: 'hands' must be"),
    (["--bots", "strong,greedy", "--option", "rules.decks=0"], "error: --option rules: rule"),
    (["--bots", "strong,greedy", "--notation", "RBYK"], "error: --notation writes Rummikub"),
    (
        ["--bots", "greedy,greedy", "--option", "max_turns=1000"],
        "error: --option: 'hands' times 'max_turns' is 10000 turns (10 hands of at most 1000)",
    ),
]


def test_too_many_turns_are_said_at_the_settings_in_words() -> None:
    # It was "'settings' allow 2001 turns (1 hands of at most 2001)", which the command
    # line said as "--option allow 2001 turns".
    request = {**SHORT, "settings": {"hands": 1, "max_turns": 2001}}
    with pytest.raises(MeldwiseError) as refused:
        game_shanghai(request)
    assert str(refused.value) == (
        "settings: 'hands' times 'max_turns' is 2001 turns (1 hand of at most 2001);"
        " a bot game allows at most 2000"
    )
    with pytest.raises(MeldwiseError) as refused:
        game_shanghai({**request, "lang": "ja"})
    assert str(refused.value) == (
        "settings: 'hands' と 'max_turns' を掛けると2001手番です(1ハンド、各最大2001手番)。"
        "ボット同士のゲームは最大2000手番までです"
    )


@pytest.mark.parametrize(("flags", "said"), BAD_FLAGS)
def test_bad_input_is_said_on_one_line_naming_its_flag(
    flags: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["game", "--game", "shanghai", *flags]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert len(err.splitlines()) == 1
    assert err.startswith(said), err

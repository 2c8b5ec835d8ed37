"""docs/games.md shows the game record the program writes: its example, abridged with
``...``, is the record of the game the doc's first command plays; and the strong bot's
policy as it plays."""

from __future__ import annotations

import json
import re
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest

from meldwise.cli import main
from solver.rummikub.engine import GameSettings as RummikubSettings
from solver.rummikub.engine import View
from solver.rummikub.game_wire import game_rummikub, review_rummikub
from solver.rummikub.position import Position
from solver.rummikub.rules import Rules
from solver.rummikub.strategy import Strategy, decide
from solver.shanghai.engine import GameSettings as ShanghaiSettings

DOC = Path(__file__).parents[2] / "docs" / "games.md"
ELIDED = "..."


def shown_record() -> Any:
    """The doc's record example, each ``...`` read as a marker: the items before it
    in a list are the record's first ones."""
    text = DOC.read_text(encoding="utf-8")
    block = re.search(r'```json\n(\{"format": "meldwise-rummikub-game".*?)```', text, re.DOTALL)
    assert block is not None
    return json.loads(re.sub(r'(?<!")\.\.\.(?!")', json.dumps(ELIDED), block.group(1)))


def matches(shown: Any, written: Any, where: str = "record") -> None:
    if isinstance(shown, dict):
        assert isinstance(written, dict), where
        assert set(shown) == set(written), where
        for key, value in shown.items():
            matches(value, written[key], f"{where}.{key}")
    elif isinstance(shown, list):
        assert isinstance(written, list), where
        elided = bool(shown) and shown[-1] == ELIDED
        items = shown[:-1] if elided else shown
        assert len(written) >= len(items) if elided else len(written) == len(items), where
        for index, value in enumerate(items):
            matches(value, written[index], f"{where}[{index}]")
    else:
        assert shown == written, where


def test_the_record_example_is_the_record_of_the_docs_game() -> None:
    # The example said seed 7, strong against greedy, but showed another game (turn 1 a
    # play of K10 K11 K12, a result of 8 points) and the rules of before penalty_tiles,
    # joker_retrieval, max_jokers_per_set and wrap_runs.
    assert "meldwise game --bots strong,greedy --seed 7" in DOC.read_text(encoding="utf-8")
    record = game_rummikub({"bots": ["strong", "greedy"], "seed": 7})["record"]
    matches(shown_record(), record)


def test_the_strong_bots_policy_says_it_hurries_once_the_pool_is_empty() -> None:
    # The policy left the empty pool out and called hurry_pool=0 "never": with the pool
    # empty the strong bot (hurry_pool=0, the default) lays down the set it keeps back.
    rules = Rules(colours=2, numbers=6, copies=1, jokers=0, opening_threshold=0)
    position = Position.parse(["R1", "R2", "R3", "B4", "B6"], [["B1", "B2", "B3"]], True)
    for opponent, pool, played in ((4, 0, ["B4", "R1", "R2", "R3"]), (3, 1, ["B4"])):
        view = View.facing(position, rules, [(opponent, True)])
        assert view.pool_size == pool
        for strategy in (Strategy(), Strategy(hurry_pool=0)):
            assert sorted(map(str, decide(view, strategy).played)) == played
    text = " ".join(DOC.read_text(encoding="utf-8").split())
    policy = text[text.index("**The strong bot's policy**") : text.index("`strong:hurry_rack=3")]
    assert "making the best play, once the pool is empty" in policy
    assert "`hurry_pool=0`, the default, hurries once the pool is empty" in text


@pytest.mark.parametrize(
    ("settings", "doc"),
    [
        (RummikubSettings, DOC),
        (ShanghaiSettings, DOC.parent / "shanghai.md"),
    ],
    ids=["rummikub", "shanghai"],
)
def test_every_game_setting_the_option_flag_takes_is_documented(
    settings: type[RummikubSettings | ShanghaiSettings], doc: Path
) -> None:
    """``meldwise tournament --option NAME=VALUE`` (and ``game``) take each field of the
    game's settings; Shanghai's ``hands``, ``hand_size`` and ``max_turns`` were taken but
    said nowhere (a user found them only in the error naming the known settings)."""
    text = doc.read_text(encoding="utf-8")
    # Fields outside what the settings are (compare=False: Shanghai's ``recorded``, a
    # record's flag) are no option.
    for field in (f for f in fields(settings) if f.compare):
        assert f"`{field.name}`" in text, (doc.name, field.name)
        assert f"--option {field.name}=" in text or field.name in ("rules", "players"), (
            doc.name,
            field.name,
        )


@pytest.mark.parametrize(
    ("doc", "argv"),
    [
        ("games.md", ["--bots", "strong", "--players", "8"]),
        ("shanghai.md", ["--game", "shanghai", "--bots", "strong", "--players", "8"]),
    ],
)
def test_the_docs_quote_the_refusal_of_too_many_seats_as_the_command_says_it(
    doc: str, argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    # shanghai.md quoted "8 hands of 20 and an upcard need 161 cards, the game has 108";
    # the command says "8 players dealt 20 cards each and an upcard need ...".
    if doc == "shanghai.md":
        argv = [*argv, "--option", "hand_size=20"]
    assert main(["tournament", *argv, "--games", "1"]) == 2
    said = capsys.readouterr().err.strip().removeprefix("error: ")
    text = " ".join((DOC.parent / doc).read_text(encoding="utf-8").split())
    assert f"`{said}`" in text


def _size(value: Any) -> int:
    """Bytes of ``value`` as the service writes JSON: compact, UTF-8."""
    return len(json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode())


def test_a_reviewed_turns_answer_is_within_the_multiple_of_its_record_the_docs_give() -> None:
    """The docs bound a turn's review answer by a multiple of its record, and from it
    that the answer limit (4 MiB) holds the review of any legal record within the body
    limit (512 KiB) and the 400 turns. They said 4 times: a rack whose every tile goes
    down is written six times over (the rack, the best play, its table, ``from_rack``,
    its places and ``missed``), 6.5 times its record."""
    said = re.search(
        r"a turn's answer is at most (\d+) times its record plus ~(\d+) bytes",
        DOC.read_text(encoding="utf-8"),
    )
    assert said is not None
    factor, per_turn = int(said.group(1)), int(said.group(2))
    # 8 colours of 1-9, 4 copies: 288 tiles, every one laid in runs and groups.
    rules = {"colours": 8, "numbers": 26, "copies": 4, "jokers": 4}
    rack = [f"{colour}{n}" for colour in "RBKOGYPW" for n in range(1, 10)] * 4
    record: dict[str, Any] = {
        "format": "meldwise-rummikub-game",
        "version": 1,
        "settings": {"players": 2, "rules": rules},
        "turns": [],
    }
    empty = _size(review_rummikub({"record": record}))
    bare = _size(record)
    record["turns"] = [{"turn": 1, "player": 0, "rack": rack, "table_before": [], "action": "pass"}]
    answer = review_rummikub({"record": record})
    assert answer["status"] == "optimal"
    assert answer["turns"][0]["best"]["tiles"] == len(rack)
    turn, answered = _size(record) - bare, _size(answer) - empty
    assert answered > 6 * turn  # the shape the bound is for
    assert answered <= factor * turn + per_turn
    assert factor * 512 * 1024 + per_turn * 400 <= 4 * 1024 * 1024

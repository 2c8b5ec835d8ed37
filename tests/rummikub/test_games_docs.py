"""docs/games.md shows the game record the program writes: its example, abridged with
``...``, is the record of the game the doc's first command plays."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from solver.rummikub.game_wire import game_rummikub

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

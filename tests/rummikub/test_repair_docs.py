"""docs/repair.md's table of house rules: each is a setting with the default it gives
(its ``$ meldwise ...`` examples are run by tests/test_doc_examples.py)."""

from __future__ import annotations

import json
import re
from dataclasses import fields
from pathlib import Path

from solver.rummikub.rules import Rules

DOC = Path(__file__).parents[2] / "docs" / "repair.md"


def test_every_house_rule_in_the_table_is_a_setting() -> None:
    text = DOC.read_text(encoding="utf-8")
    table = text[text.index("## House rules") : text.index("### joker_retrieval")]
    rows = re.findall(r"^\| `(\w+)` \| `?([^`|]+?)`? \|", table, flags=re.MULTILINE)
    names = {item.name for item in fields(Rules)}
    assert {name for name, _ in rows} >= {"wrap_runs", "max_jokers_per_set"}
    for name, default in rows:
        assert name in names
        assert json.loads(default) == getattr(Rules(), name)

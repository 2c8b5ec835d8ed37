"""docs/repair.md's table of house rules: each is a setting with the default it gives
(its ``$ meldwise ...`` examples are run by tests/test_doc_examples.py)."""

from __future__ import annotations

import json
import re
from dataclasses import fields
from pathlib import Path

from solver import validate_rummikub
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


# Each house rule's section quotes validate on the first answer of its worked example:
# the move (rack, table before, table after) and the rules the quote is said under.
QUOTED_VERDICTS = {
    "`validate` under `replace` rejects the first answer": (
        "K9 O9",
        "R7 B7 K7 J",
        "R7 B7 K7 | J(R9) K9 O9",
        {"joker_retrieval": "replace"},
    ),
    "`validate` without the rule rejects the first answer": (
        "O12 O13 K5",
        "O1 O2 O3",
        "O12 O13 O1 O2 O3",
        {},
    ),
    '`validate` with `"rules": {"max_jokers_per_set": 1}` rejects the first answer': (
        "J J B7 K7",
        "R1 R2 R3",
        "R1 R2 R3 | J B7 K7 J",
        {"max_jokers_per_set": 1},
    ),
}


def _sets(text: str) -> list[list[str]]:
    return [tiles.split() for tiles in text.split("|")]


def test_the_validate_verdicts_quoted_for_the_house_rules_are_what_it_says() -> None:
    """docs/repair.md quotes validate's problem with each house rule's worked example:
    the quote is one of the problems validate says of that move, word for word (the
    joker rule's quote was a message validate no longer says)."""
    text = " ".join(DOC.read_text(encoding="utf-8").split())
    for lead, (rack, before, after, rules) in QUOTED_VERDICTS.items():
        match = re.search(re.escape(lead) + r': "([^"]+)"', text)
        assert match is not None, lead
        verdict = validate_rummikub(
            {
                "rack": rack.split(),
                "table_before": _sets(before),
                "table_after": _sets(after),
                "rules": rules,
            }
        )
        assert not verdict["legal"], lead
        assert match.group(1) in [p["reason"] for p in verdict["problems"]], (lead, verdict)

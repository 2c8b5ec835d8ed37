"""docs/repair.md shows what the program prints: every ``$ meldwise ...`` example is
run and its output compared line for line, and each house rule its table lists is a
setting with the default it gives."""

from __future__ import annotations

import json
import re
import shlex
from dataclasses import fields
from pathlib import Path

import pytest

from meldwise.cli import main
from solver.rummikub.rules import Rules

DOC = Path(__file__).parents[2] / "docs" / "repair.md"


def examples() -> list[tuple[str, list[str]]]:
    """Each command of the doc's code blocks with the lines shown after it (up to a
    blank line or the block's end)."""
    found: list[tuple[str, list[str]]] = []
    current: list[str] | None = None
    inside = False
    command = ""
    for line in DOC.read_text(encoding="utf-8").splitlines():
        if command:  # a command going on over a line ending in a backslash
            command += " " + line.strip()
        elif line.startswith("```"):
            inside, current = not inside, None
        elif inside and line.startswith("$ meldwise "):
            command = line[2:]
        elif inside and current is not None:
            if line:
                current.append(line)
            else:
                current = None
        if command.endswith("\\"):
            command = command[:-1].rstrip()
        elif command:
            current = []
            found.append((command, current))
            command = ""
    return found


EXAMPLES = examples()


def test_the_doc_has_its_examples() -> None:
    assert len(EXAMPLES) == DOC.read_text(encoding="utf-8").count("\n$ meldwise ")


@pytest.mark.parametrize(("command", "shown"), EXAMPLES, ids=[c for c, _ in EXAMPLES])
def test_each_example_prints_what_the_doc_shows(
    command: str, shown: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(shlex.split(command)[1:])
    printed = capsys.readouterr().out.splitlines()
    assert code == 0
    assert printed == shown


def test_every_house_rule_in_the_table_is_a_setting() -> None:
    text = DOC.read_text(encoding="utf-8")
    table = text[text.index("## House rules") : text.index("### joker_retrieval")]
    rows = re.findall(r"^\| `(\w+)` \| `?([^`|]+?)`? \|", table, flags=re.MULTILINE)
    names = {item.name for item in fields(Rules)}
    assert {name for name, _ in rows} >= {"wrap_runs", "max_jokers_per_set"}
    for name, default in rows:
        assert name in names
        assert json.loads(default) == getattr(Rules(), name)

"""The documents show what the program prints: every ``$ meldwise ...`` example of
README.md, README.ja.md and docs/*.md is run and its output compared line for line
with the lines shown after it. A line ``...`` stands for lines left out, a line ending
in ``...`` for the rest of that line; an example shown printing an error (or argparse's
usage lines and error) must exit with code 2, every other one with 0. The ``meldwise``
lines of a block without a prompt (a list of commands, their output not shown) are
read by the command's parser, not run."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from meldwise.cli import main
from meldwise.commands import COMMANDS
from solver.cli import build_parser

ROOT = Path(__file__).parents[1]
DOCS = [ROOT / "README.md", ROOT / "README.ja.md", *sorted((ROOT / "docs").glob("*.md"))]
PROMPT = re.compile(r"^\$ (?:[A-Z_]+=\S+ )*meldwise ")
ELIDED = "..."
# argparse's refusal: its usage lines, then "meldwise solve: error: ...".
USAGE_ERROR = re.compile(r"meldwise[a-z ]*: (?:error|\u30a8\u30e9\u30fc): ")


def examples(doc: Path) -> list[tuple[str, list[str]]]:
    """Each command of the doc's code blocks with the lines shown after it (up to a
    blank line, the next command or the block's end)."""
    found: list[tuple[str, list[str]]] = []
    current: list[str] | None = None
    inside = False
    command = ""
    for line in doc.read_text(encoding="utf-8").splitlines():
        if command:  # a command going on over a line ending in a backslash
            command += " " + line.strip()
        elif line.startswith("```"):
            inside, current = not inside, None
        elif inside and PROMPT.match(line):
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


EXAMPLES = [(doc, command, shown) for doc in DOCS for command, shown in examples(doc)]


def shows(shown: list[str], printed: list[str]) -> bool:
    """Whether ``printed`` is what ``shown`` shows, its ``...`` read as above."""
    if not shown:
        return not printed
    first, rest = shown[0], shown[1:]
    if first == ELIDED:
        return any(shows(rest, printed[skip:]) for skip in range(len(printed) + 1))
    if not printed:
        return False
    if first.endswith(ELIDED):
        alike = printed[0].startswith(first[: -len(ELIDED)])
    else:
        alike = printed[0] == first
    return alike and shows(rest, printed[1:])


def test_every_doc_example_is_found() -> None:
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        prompts = len(re.findall(r"^\$ (?:[A-Z_]+=\S+ )*meldwise ", text, re.MULTILINE))
        assert len(examples(doc)) == prompts, doc.name
    assert {doc.name for doc, _, _ in EXAMPLES} >= {"README.md", "README.ja.md", "repair.md"}


@pytest.mark.parametrize(
    ("doc", "command", "shown"),
    EXAMPLES,
    ids=[f"{doc.name}: {command}" for doc, command, _ in EXAMPLES],
)
def test_each_example_prints_what_the_doc_shows(
    doc: Path,
    command: str,
    shown: list[str],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    words = shlex.split(command)
    while words[0] != "meldwise":  # LANG=ja_JP.UTF-8 meldwise ...
        name, _, value = words.pop(0).partition("=")
        monkeypatch.setenv(name, value)
    code: int | str | None
    try:
        code = main(words[1:])
    except SystemExit as exit_:  # argparse refuses a command line by exiting
        code = exit_.code
    captured = capsys.readouterr()
    printed = captured.out.splitlines() + captured.err.splitlines()
    if shown and shown[0].startswith("usage: "):
        error = bool(USAGE_ERROR.match(shown[-1]))
    else:
        error = bool(shown) and shown[0].startswith(("error: ", "エラー: "))
    assert code == (2 if error else 0)
    assert shows(shown, printed), "\n".join(printed)


def listed(doc: Path) -> list[str]:
    """The ``meldwise`` command lines of the doc's code blocks without a prompt (lists of
    commands to run, such as games.md's first block, whose output is not shown), each
    joined over its backslashes, its ``#`` comment cut."""
    found: list[str] = []
    for block in re.findall(r"^```[a-z]*\n(.*?)^```", doc.read_text(encoding="utf-8"), re.M | re.S):
        if re.search(r"^\$ ", block, re.MULTILINE):
            continue  # a block of examples with their output: see examples()
        for command in re.findall(r"^meldwise (?:.*\\\n)*.*", block, re.MULTILINE):
            found.append(shlex.join(shlex.split(command.replace("\\\n", " "), comments=True)))
    return found


LISTED = [(doc, command) for doc in DOCS for command in listed(doc)]


def test_the_listed_commands_are_found() -> None:
    assert {doc.name for doc, _ in LISTED} >= {"games.md", "shanghai.md", "benchmarks.md"}


@pytest.mark.parametrize(
    ("doc", "command"), LISTED, ids=[f"{doc.name}: {command}" for doc, command in LISTED]
)
def test_each_listed_command_is_one_meldwise_takes(doc: Path, command: str) -> None:
    # Not run (a tournament of 2000 games, a benchmark): read as the command reads it,
    # so that a flag renamed or a value refused in the code cannot stay in the docs.
    parser = build_parser("meldwise", commands=COMMANDS)
    args = parser.parse_args(shlex.split(command)[1:])
    assert args.handler is not None

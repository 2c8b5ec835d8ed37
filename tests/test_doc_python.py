"""The documents' Python examples run as written: every ```` ```python ```` block of
README.md, README.ja.md and docs/*.md is run on its own, and one that ends in comment
lines (``# optimal ...``) must print exactly those lines (without the ``# ``).
tests/test_doc_examples.py does the same for the ``$ meldwise ...`` examples."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

from tests.test_doc_examples import DOCS

BLOCK = re.compile(r"^```python\n(.*?)^```", re.MULTILINE | re.DOTALL)


def blocks(doc: Path) -> list[str]:
    """The Python code blocks of ``doc``."""
    return BLOCK.findall(doc.read_text(encoding="utf-8"))


EXAMPLES = [(doc, code) for doc in DOCS for code in blocks(doc)]


def shown(code: str) -> list[str]:
    """The lines the block says it prints: its closing ``# `` comment lines."""
    lines = code.rstrip("\n").splitlines()
    said: list[str] = []
    while lines and lines[-1].startswith("# "):
        said.insert(0, lines.pop()[2:])
    return said


def test_the_python_examples_are_found() -> None:
    assert {doc.name for doc, _ in EXAMPLES} >= {"README.ja.md", "rummikub.md", "shanghai.md"}


@pytest.mark.parametrize(
    ("doc", "code"),
    EXAMPLES,
    ids=[f"{doc.name}: {code.splitlines()[0]}" for doc, code in EXAMPLES],
)
def test_each_python_example_runs_and_prints_what_the_doc_shows(doc: Path, code: str) -> None:
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code, str(doc), "exec"), {"__name__": "__doc_example__"})
    if shown(code):
        assert printed.getvalue().splitlines() == shown(code)

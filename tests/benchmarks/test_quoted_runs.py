"""The documents quote one benchmark run: the README's Speed section, docs/http.md and
docs/benchmarks.md's summary name the same commit, and the summary the README's figures."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).parents[2]


def _readme_run() -> tuple[str, list[str]]:
    """The commit of the README's default-answer figures and those figures."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    commit = re.search(r"The default answer .*?\nat ([0-9a-f]{7}) on ", readme, re.DOTALL)
    row = re.search(r"^\| default answer \|(.*)\|$", readme, re.MULTILINE)
    assert commit, "README.md's Speed section no longer says the run's commit"
    assert row, "README.md's Speed section has no default answer row"
    figures = re.findall(r"\d+(?:\.\d+)?(?:x| ms)", row.group(1))
    assert len(figures) == 5, row.group(0)
    return commit.group(1), figures


def test_the_benchmarks_summary_quotes_the_readmes_run() -> None:
    # docs/benchmarks.md's "In short" quoted the 1 Dec run at 7a79913 (7.1 ms, 2.70x)
    # while the README quoted the AMD run at cd21b19 (9.5 ms, 2.43x).
    commit, figures = _readme_run()
    text = (ROOT / "docs" / "benchmarks.md").read_text(encoding="utf-8")
    summary = re.search(r"In short, (.*?)\n\n", text, re.DOTALL)
    assert summary, "docs/benchmarks.md has no 'In short' summary"
    said = " ".join(summary.group(1).split())
    assert f"at {commit}" in said
    for figure in figures:  # "134 ms" is said "(max 134 ms)", "2.43x / 5.30x" as "2.43x and 5.30x"
        assert re.search(rf"(?<![\d.]){re.escape(figure)}", said), figure


def test_the_http_doc_quotes_the_readmes_run() -> None:
    commit, _ = _readme_run()
    http = (ROOT / "docs" / "http.md").read_text(encoding="utf-8")
    assert f"at {commit}," in " ".join(http.split())

"""The messages of the demo page and the <meldwise-hint> element (api/static): the
English ids its catalogues (api/static/locale/<lang>.json) translate."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

STATIC = Path(__file__).resolve().parents[2] / "api" / "static"
_STRING = r'"((?:[^"\\]|\\.)*)"'
# tr.t("message", ...), tr.tn("one", "other", n, ...), N_("message")
_CALL = re.compile(rf"\b(?:tr\.t|tr\.tn|N_)\(\s*{_STRING}(?:\s*,\s*{_STRING})?")


def _decode(literal: str) -> str:
    decoded: str = json.loads(f'"{literal}"')
    return decoded


def script_messages() -> set[str]:
    """Every message the modules look up; a plural message by its ``other`` form."""
    found = set()
    for path in STATIC.glob("*.js"):
        for match in _CALL.finditer(path.read_text()):
            first, second = match.groups()
            plural = match.group(0).startswith("tr.tn")
            found.add(_decode(second if plural and second is not None else first))
    return found


class _Marked(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: set[str] = set()
        self._open: list[tuple[str, list[str]]] = []  # (tag, text) of open data-i18n elements

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        for name in (named.get("data-i18n-attrs") or "").split():
            value = named.get(name)
            if value:
                self.found.add(value)
        if "data-i18n" in named:
            self._open.append((tag, []))

    def handle_endtag(self, tag: str) -> None:
        if self._open and self._open[-1][0] == tag:
            _tag, text = self._open.pop()
            self.found.add(" ".join("".join(text).split()))

    def handle_data(self, data: str) -> None:
        if self._open:
            self._open[-1][1].append(data)


def page_messages() -> set[str]:
    """The English of index.html that the page translates (``data-i18n``)."""
    parser = _Marked()
    parser.feed((STATIC / "index.html").read_text())
    return parser.found


def web_messages() -> set[str]:
    return script_messages() | page_messages()

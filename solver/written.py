"""How people write lists of tiles and cards, for both games' notations.

The separators are read in ASCII and in the forms a Japanese keyboard types: the
full-width comma, colon, equals sign and vertical line (U+FF0C, U+FF1A, U+FF1D,
U+FF5C) and the ideographic comma (U+3001); spaces include the ideographic space.
Emoji variation selectors, which phone keyboards add to a suit symbol (a heart as
U+2665 U+FE0F), mean nothing and are dropped. The pieces keep the writing they came
with, so that an error quotes a tile or card as it was sent.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from solver.arguments import text_or_listed

_WIDE = {",": ",\uff0c\u3001", "|": "|\uff5c", "=": "=\uff1d", ":": ":\uff1a"}
"""Each separator and the ways it is written."""

_WORD_BREAK = re.compile(f"[\\s{re.escape(_WIDE[','])}]+")
_VARIATION_SELECTORS = re.compile("[\ufe0e\ufe0f]")


def words(text: str) -> list[str]:
    """The words of ``text``, between spaces or commas: ``"R1, R2 R3"`` is three."""
    return [word for word in _WORD_BREAK.split(text) if word]


def split(text: str, separator: str) -> list[str]:
    """``text`` split at ``separator`` (``|``, ``=`` or ``:``) however it is written."""
    return re.split(f"[{re.escape(_WIDE[separator])}]", text)


def partition(text: str, separator: str) -> tuple[str, str, str]:
    """:meth:`str.partition` at the first ``separator`` however it is written."""
    head, *rest = re.split(f"([{re.escape(_WIDE[separator])}])", text, maxsplit=1)
    return (head, rest[0], rest[1]) if rest else (head, "", "")


def without_variation_selectors(text: str) -> str:
    """``text`` without emoji variation selectors (U+FE0E, U+FE0F)."""
    return _VARIATION_SELECTORS.sub("", text)


def words_or_items(text: object, name: str = "text") -> Sequence[Any]:
    """The :func:`words` of ``text`` when it is a string (``"R1 R2 J"``), else the
    items of a list of them (``["R1", "R2", "J"]``), each read by the caller. Anything
    else (None, a number) raises :class:`~solver.errors.RequestError` naming the
    argument ``name``."""
    value = text_or_listed(text, name)
    return words(value) if isinstance(value, str) else value

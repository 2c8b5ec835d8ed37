"""How people write lists of tiles and cards, for both games' notations.

The separators are read in ASCII and in the forms a Japanese keyboard types: the
full-width comma, colon, equals sign and vertical line (U+FF0C, U+FF1A, U+FF1D,
U+FF5C) and the ideographic comma (U+3001); spaces include the ideographic space.
Emoji variation selectors, which phone keyboards add to a suit symbol (a heart as
U+2665 U+FE0F), mean nothing and are dropped. The pieces keep the writing they came
with, so that an error quotes a tile or card as it was sent.

One tile or card is read by one rule for both games (:func:`piece`): in any case, what
a Japanese keyboard types folded to ASCII, spaces around it ignored, none inside it.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from solver.arguments import text_or_listed
from solver.i18n import _

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


_TYPED_WIDE = re.compile("[\u3000\uff01-\uffef]")
"""What a Japanese keyboard (an IME) types in place of ASCII: the Halfwidth and
Fullwidth Forms block (full-width letters, digits and signs, half-width katakana) and
the ideographic space."""


def typed(text: str) -> str:
    """``text`` with what a Japanese keyboard types in place of ASCII
    (:data:`_TYPED_WIDE`: full-width letters, digits and signs, half-width katakana,
    the ideographic space) folded as NFKC folds it, and no other look-alike: a
    superscript ``¹``, a circled ``①`` or a mathematical bold digit stays as it is,
    though NFKC reads it as a digit. What every tile, card and number typed is read as."""
    if text.isascii():
        return text
    wide = _TYPED_WIDE.sub(lambda found: unicodedata.normalize("NFKC", found[0]), text)
    # Composed again: a half-width voiced mark (ｼﾞ) folds to a combining one.
    return unicodedata.normalize("NFC", wide)


def piece(text: str) -> str | None:
    """One tile or card as both games' notations read it, the one rule of its writing:
    upper case; what a Japanese keyboard types folded (:func:`typed`: R5 or 07H typed
    full width, ジョーカー in half-width katakana), and no other look-alike; emoji
    variation selectors dropped; the spaces around it ignored. None when a space is
    left inside (``10 S``, ``赤 5``): a tile or card never holds one, a list puts spaces
    between them."""
    norm = typed(without_variation_selectors(text)).strip().upper()
    return None if any(c.isspace() for c in norm) else norm


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


MOST_QUOTED = 30
"""Most tiles or cards of a list a message quotes: a list padded by hand (50,000 cards
added to a record's dealt hand) was quoted whole, an error of 150 KB."""

_Piece = TypeVar("_Piece")


def shortened(pieces: Sequence[_Piece], write: Callable[[Sequence[_Piece]], str]) -> str:
    """``pieces`` (tiles or cards) as a message quotes them, written by ``write``
    (``format_tiles``, ``format_cards``): a list of more than :data:`MOST_QUOTED` by its
    first ones and its count, ``R1 R1 … (50000 in all)``."""
    if len(pieces) <= MOST_QUOTED:
        return write(pieces)
    return _("{pieces} … ({n} in all)", pieces=write(pieces[:MOST_QUOTED]), n=len(pieces))

"""How people write a tile or a card: one rule for both games (:func:`solver.written.piece`),
each game's every tile and card typed as people type them, and mistyped."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from solver.errors import NotationError
from solver.rummikub.notation import JOKER as TILE_JOKER
from solver.rummikub.notation import Colour, Tile
from solver.shanghai.notation import ALL_NATURALS, Card
from solver.shanghai.notation import JOKER as CARD_JOKER

FULL_WIDTH = {chr(c): chr(c + 0xFEE0) for c in range(0x21, 0x7F)}
"""Each printable ASCII character and its full-width form (U+FF01-U+FF5E), as a
Japanese IME types it."""

LOOK_ALIKES = {
    **{str(d): ["⁰¹²³⁴⁵⁶⁷⁸⁹"[d], "₀₁₂₃₄₅₆₇₈₉"[d], chr(0x1D7CE + d)] for d in range(10)},
    **{str(d): [chr(0x2460 + d - 1)] for d in range(1, 10)},  # circled 1-9
}
"""Digits NFKC would fold but no keyboard types for one: superscript, subscript,
mathematical bold, circled."""

SPACES = " \t\u3000"
"""Spaces typed around a tile or card: ASCII, a tab, the ideographic space."""


@st.composite
def typed(draw: st.DrawFn, text: str) -> str:
    """``text`` (a tile's or card's canonical writing) as a person may type it: each
    character in either case, in ASCII or full width, spaces around it."""
    ways = [
        draw(st.sampled_from(sorted({c, c.lower(), FULL_WIDTH[c], FULL_WIDTH[c.lower()]})))
        for c in text
    ]
    around = st.text(alphabet=SPACES, max_size=2)
    return draw(around) + "".join(ways) + draw(around)


@st.composite
def mistyped(draw: st.DrawFn, text: str) -> str:
    """``text`` with a space inside it (a list puts spaces between tiles or cards, never
    within one) or one digit written as a look-alike (``R¹``), in any case."""
    digits = [i for i, c in enumerate(text) if c in LOOK_ALIKES]
    look_alike: bool = draw(st.booleans())
    if digits and look_alike:
        at = draw(st.sampled_from(digits))
        text = text[:at] + draw(st.sampled_from(LOOK_ALIKES[text[at]])) + text[at + 1 :]
    else:
        at = draw(st.integers(1, len(text) - 1))
        text = text[:at] + draw(st.sampled_from(SPACES)) + text[at:]
    return text if draw(st.booleans()) else text.lower()


PIECES: list[tuple[Callable[[str], object], object]] = [
    *((Tile.parse, Tile.natural(c, n)) for c in Colour for n in range(1, 27)),
    (Tile.parse, TILE_JOKER),
    *((Card.parse, card) for card in (*ALL_NATURALS, CARD_JOKER)),
]
"""Every tile and card of both games, each with its game's reader."""


@given(st.sampled_from(PIECES), st.data())
def test_a_tile_or_card_typed_as_people_type_it_reads_back(
    piece: tuple[Callable[[str], object], object], data: st.DataObject
) -> None:
    parse, value = piece
    assert parse(data.draw(typed(str(value)))) == value


@given(st.sampled_from(PIECES), st.data())
def test_a_tile_or_card_with_a_space_inside_or_a_digit_look_alike_is_refused(
    piece: tuple[Callable[[str], object], object], data: st.DataObject
) -> None:
    # R\u00b9 (a superscript one) read as R1, through NFKC; "10 S" was the card 10S,
    # where Rummikub refused "R 5". One rule for both games now refuses both.
    parse, value = piece
    if len(str(value)) < 2:
        return  # J: no inside, no digit
    text = data.draw(mistyped(str(value)))
    with pytest.raises(NotationError) as refused:
        parse(text)
    assert repr(text) in str(refused.value)

"""Rummikub tiles and their notation.

A tile is written as a colour letter followed by its number (``R5``, ``b13``)
or ``J`` for a joker. Input is case-insensitive; ``str(tile)`` gives the
canonical uppercase form, and ``Tile.parse(str(tile)) == tile`` always holds.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import Enum

from solver.errors import NotationError

MAX_NUMBER = 26
"""The largest tile number any rule set may use."""


class Colour(Enum):
    """Tile colours in their canonical order; the standard game uses the first four."""

    RED = "R"
    BLUE = "B"
    BLACK = "K"
    ORANGE = "O"
    GREEN = "G"
    YELLOW = "Y"
    PURPLE = "P"
    WHITE = "W"

    @property
    def index(self) -> int:
        """Position of the colour in canonical order (0 for red)."""
        return _COLOUR_INDEX[self]

    @property
    def letter(self) -> str:
        return self.value

    @classmethod
    def from_index(cls, index: int) -> Colour:
        return _COLOURS[index]

    @classmethod
    def first(cls, count: int) -> tuple[Colour, ...]:
        """The first ``count`` colours in canonical order."""
        return _COLOURS[:count]


_COLOURS: tuple[Colour, ...] = tuple(Colour)
_COLOUR_INDEX = {colour: i for i, colour in enumerate(_COLOURS)}
_TILE_RE = re.compile(r"([A-Z])([0-9]{1,2})")


@dataclass(frozen=True, slots=True)
class Tile:
    """One tile: a colour and a number, or a joker (``colour is None``).

    Tiles order canonically: by colour, then number, jokers last.
    """

    colour: Colour | None
    number: int = 0
    _key: int = field(init=False, repr=False, compare=False)
    """A small int per tile, computed once: tiles are hashed a lot (counting, sets)."""
    _text: str = field(init=False, repr=False, compare=False)
    """The tile's notation, computed once: answers write every tile in their steps."""

    def __post_init__(self) -> None:
        colour = len(_COLOURS) if self.colour is None else _COLOUR_INDEX[self.colour]
        object.__setattr__(self, "_key", colour * 64 + self.number)
        text = "J" if self.colour is None else f"{self.colour.value}{self.number}"
        object.__setattr__(self, "_text", text)

    def __hash__(self) -> int:
        return self._key

    @classmethod
    def natural(cls, colour: Colour, number: int) -> Tile:
        """The tile of this colour and number (one shared object per tile)."""
        tile = _NATURALS.get((colour, number))
        if tile is None:
            tile = _NATURALS[colour, number] = _BY_TEXT[f"{colour.value}{number}"] = cls(
                colour, number
            )
        return tile

    @classmethod
    def parse(cls, text: str) -> Tile:
        """Read one tile such as ``"R5"``, ``"o13"`` or ``"J"``.

        Raises :class:`NotationError` quoting the text when it is not a tile.
        Whether the tile exists under a given rule set is checked by
        :meth:`solver.rummikub.rules.Rules.check_tile`.
        """
        if not isinstance(text, str):
            raise NotationError(f"unknown tile {text!r}: a tile is a string like 'R5' or 'J'")
        known = _BY_TEXT.get(text)  # canonical text, as answers write it: read at once
        if known is not None:
            return known
        norm = text.strip().upper()
        if norm == "J":
            return JOKER
        match = _TILE_RE.fullmatch(norm)
        if match is None:
            raise NotationError(
                f"unknown tile {text!r}: write a colour letter and a number (R5, B13) or J"
            )
        letter, digits = match.groups()
        try:
            colour = Colour(letter)
        except ValueError:
            letters = ", ".join(c.letter for c in Colour)
            raise NotationError(
                f"unknown tile {text!r}: {letter!r} is not a colour (colours are {letters})"
            ) from None
        number = int(digits)
        if not 1 <= number <= MAX_NUMBER:
            raise NotationError(f"unknown tile {text!r}: numbers run from 1 to {MAX_NUMBER}")
        return cls.natural(colour, number)

    @property
    def is_joker(self) -> bool:
        return self.colour is None

    @property
    def sort_key(self) -> int:
        """Orders tiles by colour, then number, jokers last."""
        return self._key

    def __lt__(self, other: Tile) -> bool:
        return self._key < other._key

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Tile.parse({str(self)!r})"


JOKER = Tile(None, 0)
_NATURALS: dict[tuple[Colour, int], Tile] = {}
_BY_TEXT: dict[str, Tile] = {"J": JOKER}
"""Tiles met so far by their canonical text."""


def parse_tiles(text: str | Iterable[str]) -> list[Tile]:
    """Read tiles from ``"R1 R2 J"`` (spaces or commas) or from a list of strings."""
    words = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [Tile.parse(word) for word in words]


def format_tiles(tiles: Iterable[Tile]) -> str:
    """Write tiles in canonical notation separated by spaces."""
    return " ".join(str(tile) for tile in tiles)

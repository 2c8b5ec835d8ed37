"""Rummikub tiles and their notation.

A tile is written as a colour letter followed by its number (``R5``, ``b13``)
or ``J`` for a joker. Input is case-insensitive; ``str(tile)`` gives the
canonical uppercase form, and ``Tile.parse(str(tile)) == tile`` always holds.

Japanese input is read too: the colour in kanji (``赤5``, ``青13``, ``黒7``,
``黄1``; ``橙`` or ``オレンジ`` for orange), ``ジョーカー`` for a joker, and full-width
letters and digits (``R5`` typed full-width). ``Y`` and ``黄`` name yellow; a game with orange
but no yellow reads them as its fourth colour (:meth:`Rules.canonical
<solver.rummikub.rules.Rules.canonical>`), as Japanese players call it 黄.
Output is canonical unless a :class:`Notation` asks for ``Y`` (:func:`spelling`).
How a tile may be written (case, full width, spaces, look-alikes of a digit) is the
rule both games share: :func:`solver.written.piece`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import total_ordering

from solver.arguments import checked_items, not_one_of
from solver.errors import NotationError, TableError, quoted
from solver.i18n import _, _p, listed
from solver.values import Pasted
from solver.written import piece, split, words, words_or_items

MAX_NUMBER = 26
"""The largest tile number any rule set may use."""


class Colour(Pasted):
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
_TILE_RE = re.compile(r"([A-Z])([0-9]+)")
_KANJI = {
    "赤": "R",
    "青": "B",
    "黒": "K",
    "黄": "Y",
    "橙": "O",
    "オレンジ": "O",
    "緑": "G",
    "紫": "P",
    "白": "W",
}
"""Colour names Japanese players write before the number, read as the colour letter."""
_JOKER_NAMES = ("J", "ジョーカー", "JOKER")


def _normalise(text: str) -> str:
    """The tile as written, read as :func:`~solver.written.piece` reads a tile or card
    (``""`` for one with a space inside, which no tile matches), a kanji colour as its
    letter."""
    norm = piece(text) or ""
    for name, letter in _KANJI.items():
        if norm.startswith(name):
            return letter + norm[len(name) :]
    return norm


class UnknownColour(NotationError):
    """A tile whose colour letter no game has; a reader that knows the rules words it
    with the game's own colours (:meth:`~solver.rummikub.rules.Rules.read_tile`)."""

    def __init__(self, message: str, letter: str) -> None:
        super().__init__(message)
        self.letter = letter


class NumberOutOfRange(NotationError):
    """A tile whose number no game has (0, or beyond :data:`MAX_NUMBER`); a reader
    that knows the rules words it with the game's own range
    (:meth:`~solver.rummikub.rules.Rules.read_tile`)."""


@total_ordering
@dataclass(frozen=True, slots=True)
class Tile:
    """One tile: a colour and a number, or a joker (``colour is None``).

    Tiles order canonically: by colour, then number, jokers last.
    """

    colour: Colour | None
    number: int = 0
    meant: Tile | None = field(default=None, compare=False, repr=False)
    """For a joker written with the tile it stands for (``J(R6)``): that tile, which
    the reading of its table set honours (:func:`~solver.rummikub.melds.read_meld`).
    Not part of the tile: it is equal to every other joker, and a solve places
    every joker afresh."""
    _key: int = field(init=False, repr=False, compare=False)
    """A small int per tile, computed once: tiles are hashed a lot (counting, sets)."""
    _text: str = field(init=False, repr=False, compare=False)
    """The tile's notation, computed once: answers write every tile in their steps."""

    def __post_init__(self) -> None:
        # A tile made directly (not parsed) is checked too: Tile(RED, 0) printed R0,
        # which no parse reads back, and Tile.natural cached it for every later parse.
        number = self.number
        if self.colour is None:
            meant = self.meant
            valid = number == 0 and (meant is None or (type(meant) is Tile and not meant.is_joker))
        else:
            whole = isinstance(number, int) and not isinstance(number, bool)
            valid = self.colour in _COLOUR_INDEX and whole and 1 <= number <= MAX_NUMBER
            valid = valid and self.meant is None
        if not valid:
            raise NotationError(
                _(
                    "no such tile: colour {colour!r}, number {number!r:.60}",
                    colour=self.colour,
                    number=quoted(number),
                )
            )
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

    @staticmethod
    def meant_by(text: str) -> Tile | None:
        """The tile that a joker written with the tile it stands for (``J(R6)``, as
        answers print one) stands for; None for any other text. Raises
        :class:`NotationError` quoting ``text`` when the brackets hold no numbered tile.
        :meth:`parse` keeps it as the joker's :attr:`meant`; :meth:`Rules.read_tile
        <solver.rummikub.rules.Rules.read_tile>` checks it in the game's terms."""
        name, bracket, meant = _normalise(text).partition("(")
        if not bracket or name not in _JOKER_NAMES:
            return None
        inner = meant[:-1] if meant.endswith(")") else ""
        try:
            # Never a bracket within: J(J(J(...))) recursed past Python's limit.
            stands_for = Tile.parse(inner) if inner and "(" not in inner else None
        except NumberOutOfRange:
            # Worded as the numbered tile's, the game's range given by read_tile: J(R27)
            # said "a joker is J, or J(R6)" in a game of 26 numbers, J(R14) of 13 the range.
            raise NumberOutOfRange(
                _(
                    "unknown tile {tile!r:.60}: numbers run from 1 to {highest}",
                    tile=text,
                    highest=MAX_NUMBER,
                )
            ) from None
        except NotationError:
            stands_for = None
        if stands_for is None or stands_for.colour is None:
            raise NotationError(
                _(
                    "unknown tile {tile!r:.60}: a joker is J, or J(R6) with the tile it stands for",
                    tile=text,
                )
            )
        return stands_for

    @classmethod
    def parse(cls, text: str) -> Tile:
        """Read one tile such as ``"R5"``, ``"o13"``, ``"J"`` or ``"J(R6)"`` (a joker, as
        answers print one with the tile it stands for).

        Raises :class:`NotationError` quoting the text when it is not a tile (the
        numbers any game may have, 1 to :data:`MAX_NUMBER`). Whether the tile exists
        under a given rule set is checked by
        :meth:`solver.rummikub.rules.Rules.check_tile`; :meth:`Rules.read_tile
        <solver.rummikub.rules.Rules.read_tile>` does both, in the game's words.
        """
        if not isinstance(text, str):
            raise NotationError(
                _("unknown tile {tile!r:.60}: a tile is a string like 'R5' or 'J'", tile=text)
            )
        known = _BY_TEXT.get(text)  # canonical text, as answers write it: read at once
        if known is not None:
            return known
        norm = _normalise(text)
        if norm in _JOKER_NAMES:
            return JOKER
        meant = cls.meant_by(text)
        if meant is not None:
            return cls(None, 0, meant)
        match = _TILE_RE.fullmatch(norm)
        if match is None:
            raise NotationError(
                _(
                    "unknown tile {tile!r:.60}: write a colour letter and a number (R5, B13) or J",
                    tile=text,
                )
            )
        letter, digits = match.groups()
        try:
            colour = Colour(letter)
        except ValueError:
            raise UnknownColour(not_a_colour(text, letter, Colour), letter) from None
        # Leading zeros do not count (R05 and R005 are R5); past two digits left the
        # number is out of range (int() of thousands of digits is refused, and slow).
        digits = digits.lstrip("0") or "0"
        number = int(digits) if len(digits) <= 2 else MAX_NUMBER + 1
        if not 1 <= number <= MAX_NUMBER:
            raise NumberOutOfRange(
                _(
                    "unknown tile {tile!r:.60}: numbers run from 1 to {highest}",
                    tile=text,
                    highest=MAX_NUMBER,
                )
            )
        return cls.natural(colour, number)

    @property
    def is_joker(self) -> bool:
        return self.colour is None

    @property
    def sort_key(self) -> int:
        """Orders tiles by colour, then number, jokers last."""
        return self._key

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Tile):
            return NotImplemented
        return self._key < other._key

    def __str__(self) -> str:
        return self._text

    @property
    def written(self) -> str:
        """The tile as :meth:`parse` reads it back with its :attr:`meant`: ``J(R7)`` for
        a joker written so, else its notation."""
        return self._text if self.meant is None else f"J({self.meant})"

    def __repr__(self) -> str:
        # Code that makes the tile again, a joker with what it stands for (J(R7)).
        return f"Tile.parse({self.written!r})"


JOKER = Tile(None, 0)
_NATURALS: dict[tuple[Colour, int], Tile] = {}
_BY_TEXT: dict[str, Tile] = {"J": JOKER}
"""Tiles met so far by their canonical text."""


def parse_tiles(text: str | Iterable[str]) -> list[Tile]:
    """Read tiles from ``"R1 R2 J"`` (spaces or commas) or from a list of strings.

    Raises :class:`NotationError` quoting a word that is no tile (:meth:`Tile.parse`),
    and :class:`~solver.errors.RequestError` naming ``text`` when it is neither a
    string nor a list (None, a number)."""
    return [Tile.parse(word) for word in words_or_items(text)]


def parse_sets(text: str, *, empty_sets: bool = False) -> list[list[str]]:
    """Read table sets from ``"R3 R4 R5 | K7 B7 O7"`` (tiles between spaces or commas,
    sets between ``|``) as lists of tile strings; an empty text is no sets. A set of no
    tiles (``"R1 R2 R3 || K1 K2 K3"``, a ``|`` at the end) raises :class:`TableError`
    naming its place (:meth:`Position.parse <solver.rummikub.position.Position.parse>`
    skipped it, while the command line's ``--table`` refused it), unless ``empty_sets``
    reads it as a set of no tiles: a table a player left, whose check says it is not a
    valid set (``validate --after``, as the wire's ``table_after``)."""
    if not text.strip():
        return []
    sets = [words(part) for part in split(text, "|")]
    for index, tiles in enumerate(sets):
        if not tiles and not empty_sets:
            raise TableError(
                _(
                    "table set {index} of {sets!r:.60} has no tiles; separate sets with one |",
                    index=index,
                    sets=text,
                )
            )
    return sets


class Notation(Pasted):
    """How answers write the fourth colour of the standard game: ``O`` (orange, the
    default) or ``Y`` (黄, as Japanese players write it)."""

    RBKO = "RBKO"
    RBYK = "RBYK"

    @classmethod
    def read(cls, value: object) -> Notation:
        """``value`` as a notation: one, or its word (``"RBKO"``, ``"RBYK"``).

        Raises :class:`~solver.errors.RequestError` naming the argument ``notation`` and
        quoting anything else."""
        try:
            return cls(value)
        except ValueError:
            raise not_one_of("notation", [n.value for n in cls], value) from None

    def fits(self, colours: int) -> bool:
        """Whether this notation can write a game of ``colours`` colours: ``RBYK`` cannot
        once yellow (``Y``) is a colour of its own."""
        return self is not Notation.RBYK or colours <= Colour.YELLOW.index


_notation: ContextVar[Notation] = ContextVar("meldwise_notation", default=Notation.RBKO)
_yellow_in_play: ContextVar[bool] = ContextVar("meldwise_yellow_in_play", default=False)


@contextmanager
def spelling(notation: Notation = Notation.RBKO, colours: int = 4) -> Iterator[None]:
    """Write tiles in ``notation`` (:func:`spell`, :func:`format_tiles`) inside the block,
    naming colours for a game of ``colours`` colours (:func:`colour_name`)."""
    tokens = _notation.set(notation), _yellow_in_play.set(colours > Colour.YELLOW.index)
    try:
        yield
    finally:
        _notation.reset(tokens[0])
        _yellow_in_play.reset(tokens[1])


def colour_name(colour: Colour) -> str:
    """The colour's name in the active language. Japanese calls the fourth colour,
    orange, 黄 (yellow), except in a game where yellow is a colour of its own."""
    if colour is Colour.ORANGE and _yellow_in_play.get():
        return _p("in a game with yellow", "orange")
    # Only this colour's name is looked up: a solve's steps name a dozen runs.
    match colour:
        case Colour.RED:
            return _("red")
        case Colour.BLUE:
            return _("blue")
        case Colour.BLACK:
            return _("black")
        case Colour.ORANGE:
            return _("orange")
        case Colour.GREEN:
            return _("green")
        case Colour.YELLOW:
            return _("yellow")
        case Colour.PURPLE:
            return _("purple")
        case Colour.WHITE:
            return _("white")


def spell(tile: Tile) -> str:
    """A tile in the active notation: ``str(tile)``, or with ``Y`` for orange."""
    if tile.colour is Colour.ORANGE and _notation.get() is Notation.RBYK:
        return f"Y{tile.number}"
    return str(tile)


def letter_of(colour: Colour) -> str:
    """The colour's letter in the active notation: ``Y`` for orange under ``RBYK``."""
    if colour is Colour.ORANGE and _notation.get() is Notation.RBYK:
        return Colour.YELLOW.letter
    return colour.letter


def format_tiles(tiles: Iterable[Tile]) -> str:
    """Write tiles in the active notation separated by spaces.

    Raises :class:`~solver.errors.RequestError` naming ``tiles`` when it is no list of
    :class:`Tile` (a string, the other game's cards)."""
    return " ".join(spell(tile) for tile in checked_items(tiles, Tile, "tiles"))


def spell_written(tile: Tile) -> str:
    """:func:`spell`, a joker written with the tile it stands for as written (``J(R7)``,
    see :attr:`Tile.meant`): a message quoting a set quotes it as the player wrote it
    (answers' tile codes place every joker afresh and keep :func:`spell`)."""
    return spell(tile) if tile.meant is None else f"J({spell(tile.meant)})"


def format_written(tiles: Iterable[Tile]) -> str:
    """:func:`format_tiles` with :func:`spell_written`: a set quoted as written."""
    return " ".join(spell_written(tile) for tile in tiles)


def written_sets(sets: Iterable[Iterable[Tile]]) -> list[list[str]]:
    """Sets as an answer or a record lists a table: each tile with
    :func:`spell_written`, a joker with the tile it stands for when it was written so
    (``J(R4)``): under ``joker_retrieval: "replace"`` its set's reading, and so the
    turns after, depend on it (``R5 R6 J(R4)`` written ``R5 R6 J`` reads the joker as
    R7)."""
    return [[spell_written(tile) for tile in tiles] for tiles in sets]


def not_a_colour(text: str, letter: str, colours: Iterable[Colour]) -> str:
    """Why ``text`` is no tile: ``letter`` is none of ``colours``, named in the active
    notation (:func:`letter_of`; the Japanese message names them in kanji too,
    :func:`kanji_names`)."""
    colours = tuple(colours)
    return _(
        "unknown tile {tile!r:.60}: {letter!r} is not a colour (colours are {letters})",
        tile=text,
        letter=letter,
        letters=listed(letter_of(c) for c in colours),
        names=kanji_names(colours),
    )


def kanji_names(colours: Sequence[Colour]) -> str:
    """The names Japanese players write ``colours`` with (see :data:`_KANJI`): orange
    is 黄 where yellow is no colour of the game, as it is read there."""
    name = {letter: kanji for kanji, letter in reversed(_KANJI.items())}  # the first of each
    yellow = Colour.YELLOW in colours
    return "・".join("黄" if c is Colour.ORANGE and not yellow else name[c.letter] for c in colours)

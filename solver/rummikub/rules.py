"""Rummikub rule settings.

Every number of the game is a setting of :class:`Rules`; the defaults are the
standard game (4 colours, numbers 1-13, 2 copies, 2 jokers).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from solver.errors import NotationError, RulesError
from solver.i18n import _
from solver.rummikub.notation import (
    MAX_NUMBER,
    Colour,
    NumberOutOfRange,
    Tile,
    UnknownColour,
    kanji_names,
    letter_of,
    not_a_colour,
)
from solver.settings import Settings, choice, flag, setting


@dataclass(frozen=True, slots=True)
class Rules(Settings):
    """The rules of one Rummikub variant (each field's meaning is declared with it)."""

    colours: int = setting(4, 2, len(Colour), "colours in play (the first ones of R B K O G Y P W)")
    numbers: int = setting(13, 3, MAX_NUMBER, "tiles are numbered 1..numbers")
    copies: int = setting(2, 1, 4, "copies of each coloured tile")
    jokers: int = setting(2, 0, 4, "jokers in the game")
    min_set_len: int = setting(
        3, 2, MAX_NUMBER, "fewest tiles in a run or a group (at most numbers)"
    )
    opening_threshold: int = setting(30, 0, 1000, "points the first play of a player must reach")
    joker_penalty: int = setting(
        30, 0, 1000, "points a joker left on a rack costs (and is worth played in points mode)"
    )
    penalty_tiles: int = setting(
        3, 0, 30, "tiles drawn when a turn leaves a table that cannot be put right"
    )
    joker_retrieval: str = choice(
        "free",
        ("free", "replace"),
        "free: a table joker may move to any set while every set stays valid; replace: it "
        "leaves its set only when the tile it stands for takes its place there, in a turn "
        "that plays a rack tile",
    )
    max_jokers_per_set: int = setting(
        4,
        1,
        4,
        "most jokers one set may hold (4, the most a game has: no limit); a set always "
        "holds a numbered tile",
    )
    wrap_runs: bool = flag(
        False,
        "runs may go round from the top number to 1 (12-13-1, 13-1-2), each number once, "
        "at most 'numbers' tiles",
    )

    def __post_init__(self) -> None:
        Settings.__post_init__(self)
        if self.min_set_len > self.numbers:
            raise RulesError(
                _(
                    "rule 'min_set_len' ({min_set_len}) exceeds 'numbers' ({numbers})",
                    min_set_len=self.min_set_len,
                    numbers=self.numbers,
                )
            )

    def limits_jokers(self, jokers: int) -> bool:
        """Whether ``max_jokers_per_set`` binds with ``jokers`` jokers in play (one set
        could otherwise hold more of them)."""
        return self.max_jokers_per_set < jokers

    @property
    def replace_jokers(self) -> bool:
        """Whether a table joker leaves its set only for the tile it stands for."""
        return self.joker_retrieval == "replace"

    def run_number(self, position: int) -> int:
        """The number a run shows ``position - start`` places after its start: the
        position itself, or under ``wrap_runs`` the position taken round (14 is 1 in a
        game numbered 1..13). A run covers the positions start..start+size-1."""
        return (position - 1) % self.numbers + 1 if self.wrap_runs else position

    def run_starts(self, size: int) -> range:
        """Where a run of ``size`` tiles may start: so that it ends at the top number at
        the latest, or under ``wrap_runs`` anywhere (a run of every number starts at 1,
        its one reading)."""
        if self.wrap_runs and size < self.numbers:
            return range(1, self.numbers + 1)
        return range(1, self.numbers - size + 2)

    @property
    def colour_list(self) -> tuple[Colour, ...]:
        """Colours in play, in canonical order."""
        return Colour.first(self.colours)

    @property
    def max_group_len(self) -> int:
        """A group holds each colour at most once."""
        return self.colours

    def canonical(self, tile: Tile) -> Tile:
        """The tile of this game that ``tile`` names: in a game with orange but no
        yellow (4 or 5 colours, the standard game included), yellow (``Y``, ``黄``) is
        the fourth colour, orange, which Japanese players call 黄; with 6 or more
        colours ``Y`` is yellow, a colour of its own."""
        orange_not_yellow = Colour.ORANGE.index < self.colours <= Colour.YELLOW.index
        if tile.colour is Colour.YELLOW and orange_not_yellow:
            return Tile.natural(Colour.ORANGE, tile.number)
        if tile.meant is not None and (meant := self.canonical(tile.meant)) is not tile.meant:
            return Tile(None, 0, meant)  # J(Y7): the joker stands for orange 7
        return tile

    def in_game(self, sets: Sequence[Sequence[Tile]]) -> Sequence[Sequence[Tile]]:
        """``sets`` (a table; a rack as one set) with each tile as this game names it
        (:meth:`canonical`): the sets themselves when that changes no tile, as with
        every tile read by the wire."""
        if Colour.YELLOW not in {(tile.meant or tile).colour for tiles in sets for tile in tiles}:
            return sets
        return tuple(tuple(self.canonical(tile) for tile in tiles) for tiles in sets)

    def check_tile(self, tile: Tile, text: str | None = None) -> Tile:
        """Return ``tile`` if it exists in this game, else raise :class:`NotationError`
        quoting ``text``, what the tile was written as (``str(tile)`` when None), and
        naming the game's colours in the active notation
        (:func:`~solver.rummikub.notation.spelling`)."""
        quoted = str(tile) if text is None else text
        if tile.is_joker:
            if self.jokers == 0:
                raise NotationError(
                    _("unknown tile {tile!r:.60}: this game has no jokers", tile=quoted)
                )
            return tile
        assert tile.colour is not None
        if tile.colour.index >= self.colours:
            letters = " ".join(letter_of(c) for c in self.colour_list)
            raise NotationError(
                _(
                    "unknown tile {tile!r:.60}: this game's colours are {letters}",
                    tile=quoted,
                    letters=letters,
                    names=kanji_names(self.colour_list),
                )
            )
        if tile.number > self.numbers:
            raise self._out_of_range(quoted)
        return tile

    def read_tile(self, text: str) -> Tile:
        """``text`` read as a tile of this game (:meth:`Tile.parse`, then
        :meth:`canonical` and :meth:`check_tile`); every error quotes ``text`` and
        gives this game's colours and numbers."""
        try:
            tile = Tile.parse(text)
        except NumberOutOfRange:
            raise self._out_of_range(text) from None
        except UnknownColour as error:
            raise NotationError(not_a_colour(text, error.letter, self.colour_list)) from None
        tile = self.check_tile(self.canonical(tile), text)
        if tile.meant is not None:
            self.check_tile(tile.meant, text)  # J(R14) in a game of 13 numbers
        return tile

    def _out_of_range(self, text: str) -> NotationError:
        return NotationError(
            _(
                "unknown tile {tile!r:.60}: numbers run from 1 to {highest}",
                tile=text,
                highest=self.numbers,
            )
        )

    def value(self, tile: Tile) -> int:
        """Penalty value of a tile left on a rack: its number, or the joker penalty."""
        return self.joker_penalty if tile.is_joker else tile.number


STANDARD = Rules()

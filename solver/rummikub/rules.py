"""Rummikub rule settings.

Every number of the game is a setting of :class:`Rules`; the defaults are the
standard game (4 colours, numbers 1-13, 2 copies, 2 jokers).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, Literal

from solver.errors import NotationError, RulesError
from solver.i18n import _
from solver.rummikub.tiles import MAX_NUMBER, Colour, Tile
from solver.settings import check_settings, settings_from_mapping

# name -> (lowest, highest) allowed value of each setting
RANGES: dict[str, tuple[int, int]] = {
    "colours": (2, len(Colour)),
    "numbers": (3, MAX_NUMBER),
    "copies": (1, 4),
    "jokers": (0, 4),
    "min_set_len": (2, MAX_NUMBER),  # and at most ``numbers``: see Rules
    "opening_threshold": (0, 1000),
    "joker_penalty": (0, 1000),
    "penalty_tiles": (0, 30),
}
CHOICES: dict[str, tuple[str, ...]] = {"joker_retrieval": ("free", "replace")}
"""name -> the words a house-rule setting may take (the first is the default)."""

JokerRetrieval = Literal["free", "replace"]


@dataclass(frozen=True, slots=True)
class Rules:
    """The rules of one Rummikub variant.

    Attributes:
        colours: how many colours are in play (the first ones of :class:`Colour`).
        numbers: tiles are numbered 1..numbers.
        copies: copies of each coloured tile.
        jokers: jokers in the game.
        min_set_len: fewest tiles in a run or a group.
        opening_threshold: points the first play of a player must reach.
        joker_penalty: points a joker left on a rack costs (and is worth when played
            in ``points`` mode).
        penalty_tiles: tiles a player draws from the pool when their turn leaves a
            table that cannot be put right (see :mod:`solver.rummikub.repair`).
        joker_retrieval: ``"free"``: a table joker may move to any set as long as
            every set stays valid; ``"replace"`` (tournament rule): a table joker
            leaves its set only when the tile it stands for takes its place there
            (see :mod:`solver.rummikub.house_rules`).
    """

    colours: int = 4
    numbers: int = 13
    copies: int = 2
    jokers: int = 2
    min_set_len: int = 3
    opening_threshold: int = 30
    joker_penalty: int = 30
    penalty_tiles: int = 3
    joker_retrieval: JokerRetrieval = "free"

    def __post_init__(self) -> None:
        check_settings(self, RANGES, choices=CHOICES)
        if self.min_set_len > self.numbers:
            raise RulesError(
                _(
                    "rule 'min_set_len' ({min_set_len}) exceeds 'numbers' ({numbers})",
                    min_set_len=self.min_set_len,
                    numbers=self.numbers,
                )
            )

    @classmethod
    def from_dict(cls, settings: Mapping[str, Any] | None) -> Rules:
        """Build rules from a (possibly partial) mapping of setting names to values;
        None means the defaults. Anything else that is not a mapping (a list, a
        string, false, 0) raises :class:`RulesError`."""
        if settings is None:
            return cls()
        if not isinstance(settings, Mapping):
            raise RulesError(
                _("rules must be an object of settings, got {settings!r:.60}", settings=settings)
            )
        return settings_from_mapping(cls, settings)

    def to_dict(self) -> dict[str, int | str]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @property
    def replace_jokers(self) -> bool:
        """Whether a table joker leaves its set only for the tile it stands for."""
        return self.joker_retrieval == "replace"

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
        return tile

    def check_tile(self, tile: Tile) -> Tile:
        """Return ``tile`` if it exists in this game, else raise :class:`NotationError`."""
        if tile.is_joker:
            if self.jokers == 0:
                raise NotationError(_("unknown tile 'J': this game has no jokers"))
            return tile
        assert tile.colour is not None
        if tile.colour.index >= self.colours:
            letters = " ".join(c.letter for c in self.colour_list)
            raise NotationError(
                _(
                    "unknown tile {tile!r}: this game's colours are {letters}",
                    tile=str(tile),
                    letters=letters,
                )
            )
        if tile.number > self.numbers:
            raise NotationError(
                _(
                    "unknown tile {tile!r}: numbers run from 1 to {highest}",
                    tile=str(tile),
                    highest=self.numbers,
                )
            )
        return tile

    def value(self, tile: Tile) -> int:
        """Penalty value of a tile left on a rack: its number, or the joker penalty."""
        return self.joker_penalty if tile.is_joker else tile.number


STANDARD = Rules()

"""A position to solve: the player's rack, the sets on the table, and whether the
player has opened; and what "best" means for a play. Checking a position against
the rules lives here too."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from solver.arguments import listed, text_or_listed
from solver.errors import CountError, RequestError, TableError, quoted
from solver.i18n import _
from solver.rummikub.melds import InvalidMeld, Meld, read_meld
from solver.rummikub.notation import (
    Tile,
    format_written,
    parse_sets,
    parse_tiles,
    spell,
)
from solver.rummikub.rules import Rules
from solver.values import Pasted


class Objective(Pasted):
    """What "best" means for a play."""

    TILES = "tiles"
    """Most rack tiles played (a joker counts as one tile)."""
    POINTS = "points"
    """Most penalty points moved off the rack (face value; a joker its penalty)."""

    @classmethod
    def read(cls, value: object) -> Objective:
        """``value`` as an objective: one, or its word (``"tiles"``, ``"points"``).

        Raises :class:`~solver.errors.RequestError` quoting anything else."""
        try:
            return cls(value)
        except ValueError:
            raise RequestError(
                _(
                    "'objective' must be 'tiles' or 'points', got {value!r:.60}",
                    value=quoted(value),
                )
            ) from None


@dataclass(frozen=True, slots=True)
class Position:
    """What one player sees on their turn.

    Attributes:
        rack: the player's tiles.
        table: the sets on the table, each a tuple of tiles in any order.
        opened: whether the player has already made their opening play.
    """

    rack: tuple[Tile, ...]
    table: tuple[tuple[Tile, ...], ...] = ()
    opened: bool = True

    def __post_init__(self) -> None:
        # Made directly, a rack of strings failed deep in the solver (AttributeError)
        # and opened="false" counted as opened: refused here, naming the field. A rack
        # or table not a list of the kind (None, a table of tiles) is said by its name.
        object.__setattr__(self, "rack", listed(self.rack, "rack"))
        table = listed(self.table, "table")
        sets = tuple(listed(tiles, f"table[{index}]") for index, tiles in enumerate(table))
        object.__setattr__(self, "table", sets)
        tiles = [*self.rack, *(tile for tiles in self.table for tile in tiles)]
        if not all(isinstance(tile, Tile) for tile in tiles):
            raise RequestError(
                _(
                    "a position holds Tile objects (Position.parse reads notation), got"
                    " {value!r:.60}",
                    value=quoted(next(t for t in tiles if not isinstance(t, Tile))),
                )
            )
        if not isinstance(self.opened, bool):
            raise RequestError(
                _("'opened' must be true or false, got {value!r:.60}", value=quoted(self.opened))
            )

    @classmethod
    def parse(
        cls,
        rack: str | Iterable[str],
        table: str | Iterable[Iterable[str]] = (),
        opened: bool = True,
    ) -> Position:
        """Read a position from notation: ``rack="R1 R2 J"`` and
        ``table="R3 R4 R5 | K7 B7 O7"`` (or lists of tile strings); a set of no tiles
        between two ``|`` raises :class:`~solver.errors.TableError` (:func:`parse_sets`)."""
        sets = parse_sets(table) if isinstance(table, str) else listed(table, "table")
        return cls(
            rack=tuple(parse_tiles(text_or_listed(rack, "rack"))),
            table=tuple(tuple(parse_tiles(s)) for s in sets),
            opened=opened,
        )

    def all_tiles(self) -> Counter[Tile]:
        """Every tile of the rack and the table, counted."""
        counts = Counter(self.rack)
        for tiles in self.table:
            counts.update(tiles)
        return counts

    def in_game(self, rules: Rules) -> Position:
        """This position with each tile as ``rules`` name it (:meth:`Rules.canonical
        <solver.rummikub.rules.Rules.canonical>`: Japanese players' yellow, Y or 黄, is
        the standard game's orange), as the wire reads a request's tiles."""
        sets = (self.rack, *self.table)
        named = rules.in_game(sets)
        if named is sets:
            return self  # the usual case, every tile read by the wire
        rack, *table = named
        return Position(tuple(rack), tuple(map(tuple, table)), self.opened)

    def check(self, rules: Rules) -> tuple[Meld, ...]:
        """Check the position against ``rules`` and return the table sets as read.

        Raises a :class:`~solver.errors.MeldwiseError` naming the culprit: a tile
        not in the game, more copies of a tile than exist, or an invalid table set.
        """
        counts = self.all_tiles()
        for tile in counts:
            rules.check_tile(tile)
        check_counts(counts, rules, _("across rack and table"))
        return tuple(read_table_set(i, tiles, rules) for i, tiles in enumerate(self.table))


def check_counts(counts: Counter[Tile], rules: Rules, where: str) -> None:
    """Raise :class:`CountError` if any tile appears more often than the game has it."""
    if max(counts.values(), default=0) <= min(rules.copies, rules.jokers):
        return  # no tile can be over its limit
    for tile in sorted(counts):
        limit = rules.jokers if tile.is_joker else rules.copies
        if counts[tile] > limit:
            if tile.is_joker:
                raise CountError(
                    _(
                        "too many jokers (J): {count} {where}, the game has {limit}",
                        count=counts[tile],
                        where=where,
                        limit=limit,
                    )
                )
            raise CountError(
                _(
                    "too many copies of {tile}: {count} {where}, the game has {limit}",
                    tile=spell(tile),
                    count=counts[tile],
                    where=where,
                    limit=limit,
                )
            )


def read_table_set(index: int, tiles: Sequence[Tile], rules: Rules) -> Meld:
    """Read table set number ``index``; raise :class:`TableError` saying which and why."""
    try:
        return read_meld(tiles, rules)
    except InvalidMeld as error:
        raise TableError(
            _(
                "table set {index} ({tiles}) is not a valid set: {reason}",
                index=index,
                tiles=format_written(tiles) or _("empty"),
                reason=error,
            )
        ).about(f"[{index}]") from None  # the set's place in the table read

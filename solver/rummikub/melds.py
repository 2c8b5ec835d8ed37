"""Sets on the table (runs and groups) and how a list of tiles is read as one.

A run is ``min_set_len`` or more tiles of one colour with consecutive numbers
(no wrap from the top number to 1, unless ``wrap_runs``: then 12-13-1 is a run,
at most one tile of each number); a group is ``min_set_len`` up to one tile
per colour of a single number, all colours distinct. A joker may stand for any
tile, but a set must hold at least one numbered tile.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass

from solver.arguments import checked, checked_items
from solver.errors import TableError
from solver.i18n import _, _n
from solver.rummikub.notation import JOKER, Colour, Tile, spell
from solver.rummikub.rules import Rules
from solver.values import Pasted


class MeldKind(Pasted):
    """The two kinds of Rummikub set: a run (one colour, consecutive numbers) or a
    group (one number, distinct colours); the value is the answer's ``kind``."""

    RUN = "run"
    GROUP = "group"


@dataclass(frozen=True, slots=True)
class Meld:
    """A set read one way: its tiles in reading order and what each stands for.

    ``stands_for[i]`` is ``tiles[i]`` for a numbered tile and the tile a joker
    represents for a joker. Runs read from low to high.
    """

    kind: MeldKind
    tiles: tuple[Tile, ...]
    stands_for: tuple[Tile, ...]

    @property
    def value(self) -> int:
        """Sum of the numbers the tiles stand for (what counts towards an opening)."""
        return sum(tile.number for tile in self.stands_for)

    @property
    def jokers(self) -> int:
        return sum(tile.is_joker for tile in self.tiles)

    @property
    def written(self) -> tuple[Tile, ...]:
        """The tiles as a table writes this reading: each joker with the tile it stands
        for (``J(R1) K1``; see :attr:`Tile.meant
        <solver.rummikub.notation.Tile.meant>`), so :func:`read_meld` reads it so
        (plain, ``J K1`` reads as the run K1 K2, not the group of 1s)."""
        return tuple(
            Tile(None, 0, meant) if tile.is_joker else tile
            for tile, meant in zip(self.tiles, self.stands_for, strict=True)
        )

    def __str__(self) -> str:
        parts = []
        for tile, meant in zip(self.tiles, self.stands_for, strict=True):
            parts.append(f"J({spell(meant)})" if tile.is_joker else spell(tile))
        return " ".join(parts)


class InvalidMeld(TableError):
    """A list of tiles that is neither a run nor a group; the message says why."""


def run_readings(tiles: Sequence[Tile], rules: Rules) -> list[Meld]:
    """Every way to read ``tiles`` as a run, lowest start first (empty if none)."""
    naturals = [t for t in tiles if not t.is_joker]
    size = len(tiles)
    if not naturals or size < rules.min_set_len or size > rules.numbers:
        return []
    colour = naturals[0].colour
    numbers = sorted(t.number for t in naturals)
    if any(t.colour != colour for t in naturals) or len(set(numbers)) != len(numbers):
        return []
    assert colour is not None
    low, high = numbers[0], numbers[-1]
    if rules.wrap_runs:
        # Every start whose stretch, taken round, holds every natural.
        starts = [
            start
            for start in rules.run_starts(size)
            if set(numbers) <= {rules.run_number(p) for p in range(start, start + size)}
        ]
    else:
        # The run covers start..start+size-1, which must hold every natural.
        starts = list(range(max(1, high - size + 1), min(low, rules.numbers - size + 1) + 1))
    return [_run_from(colour, start, naturals, size, rules) for start in starts]


def _run_from(
    colour: Colour, start: int, naturals: Sequence[Tile], size: int, rules: Rules
) -> Meld:
    present = {t.number for t in naturals}
    tiles: list[Tile] = []
    meant: list[Tile] = []
    for position in range(start, start + size):
        number = rules.run_number(position)
        natural = Tile.natural(colour, number)
        tiles.append(natural if number in present else JOKER)
        meant.append(natural)
    return Meld(MeldKind.RUN, tuple(tiles), tuple(meant))


def joker_colours(taken: Collection[Colour | None], rules: Rules) -> Iterator[Colour]:
    """The colours a group's jokers written plain stand for, in the order they take
    them (the first joker the first colour): the colours in play that ``taken`` (the
    colours of the group's other tiles) lacks, in canonical order. Every group read,
    laid out or written uses this one order."""
    return (c for c in rules.colour_list if c not in taken)


def group_reading(tiles: Sequence[Tile], rules: Rules) -> Meld | None:
    """Read ``tiles`` as a group (jokers take the missing colours in order), or None."""
    naturals = [t for t in tiles if not t.is_joker]
    size = len(tiles)
    if not naturals or not rules.min_set_len <= size <= rules.max_group_len:
        return None
    number = naturals[0].number
    colours = [t.colour for t in naturals]
    if any(t.number != number for t in naturals) or len(set(colours)) != len(colours):
        return None
    missing = joker_colours(colours, rules)
    meant = [t if not t.is_joker else Tile.natural(next(missing), number) for t in tiles]
    return Meld(MeldKind.GROUP, tuple(tiles), tuple(meant))


def readings(tiles: Sequence[Tile], rules: Rules) -> list[Meld]:
    """All valid readings of ``tiles`` as a set: run readings, then the group reading
    (none when the set holds more jokers than ``max_jokers_per_set``); of those, only
    the ones where each joker written with a tile (``J(R7)``, see :attr:`Tile.meant
    <solver.rummikub.notation.Tile.meant>`) stands for it."""
    found = _readings(tiles, rules)
    said = _said(tiles)
    if said:
        found = [m for m in (_as_said(m, said, rules) for m in found) if m is not None]
    return found


def _readings(tiles: Sequence[Tile], rules: Rules) -> list[Meld]:
    """:func:`readings`, whatever the jokers were written with."""
    if sum(t.is_joker for t in tiles) > rules.max_jokers_per_set:
        return []
    found = run_readings(tiles, rules)
    group = group_reading(tiles, rules)
    if group is not None:
        found.append(group)
    return found


def _said(tiles: Sequence[Tile]) -> list[Tile]:
    """What the jokers of ``tiles`` written with a tile (``J(R7)``) stand for."""
    return [t.meant for t in tiles if t.meant is not None]


def best_value(tiles: Sequence[Tile], rules: Rules) -> int:
    """The highest opening value of ``tiles`` over all readings (jokers count as what
    they stand for). Raises :class:`InvalidMeld` when the tiles are not a set."""
    return max(m.value for m in _readings_or_raise(tiles, rules))


def read_meld(tiles: Sequence[Tile], rules: Rules) -> Meld:
    """Read ``tiles`` as a set, its jokers standing for the tiles they were written
    with (``J(R7) J(B7) K7`` is the group of 7s, ``J(K5) J(K6) K7`` the run; see
    :attr:`Tile.meant <solver.rummikub.notation.Tile.meant>`); then keeping the order
    written when it is a run read low to high, each joker written with a tile standing
    at that tile's place (so ``R3 J R5`` puts the joker at R4, and ``J(R3) R2 J``,
    written R3 R2 ?, is no run in order); otherwise the reading worth most
    (``J(R3) R2 J``: R2 R3 R4, not R1 R2 R3).

    Raises :class:`InvalidMeld` with the reason when the tiles form no set, or no
    reading has the jokers stand for what they were written with, and a
    :class:`~solver.errors.RequestError` naming the argument that is not a list of
    tiles or not the rules.
    """
    tiles = checked_items(tiles, Tile, "tiles")
    rules = checked(rules, Rules, "rules")
    plain = _plain_reading(tiles, rules)
    if plain is not None:
        return plain
    options = _readings_or_raise(tiles, rules)
    for meld in options:
        if meld.kind is MeldKind.RUN and _written_in_order(tiles, meld):
            return meld
    return max(options, key=lambda m: m.value)


def read_meld_or_none(tiles: Sequence[Tile], rules: Rules) -> Meld | None:
    """``tiles`` read as a set as :func:`read_meld` reads it (as the table reads a
    set), or None when they form none."""
    try:
        return read_meld(tiles, rules)
    except InvalidMeld:
        return None


def _as_said(meld: Meld, said: list[Tile], rules: Rules) -> Meld | None:
    """``meld`` with its jokers standing for the tiles in ``said`` (what some of them
    were written with), or None when this reading cannot have them so: in a run each
    joker stands where the reading puts it; in a group a joker may take any colour
    the numbered tiles lack, the jokers written plain taking the rest in colour order."""
    if meld.kind is MeldKind.RUN:
        free = Counter(m for t, m in zip(meld.tiles, meld.stands_for, strict=True) if t.is_joker)
        return None if Counter(said) - free else meld
    number = meld.stands_for[0].number
    taken = {t.colour for t in meld.tiles if not t.is_joker}
    if len(set(said)) < len(said) or any(
        t.number != number or t.colour in taken or t.colour not in rules.colour_list for t in said
    ):
        return None
    taken |= {t.colour for t in said}
    spare = joker_colours(taken, rules)
    meant = tuple(
        stands if not tile.is_joker else tile.meant or Tile.natural(next(spare), number)
        for tile, stands in zip(meld.tiles, meld.stands_for, strict=True)
    )
    return Meld(meld.kind, meld.tiles, meant)


def _plain_reading(tiles: Sequence[Tile], rules: Rules) -> Meld | None:
    """The only reading of a set without jokers written as it reads (a run low to
    high, or a group), found without trying every reading; None otherwise."""
    size = len(tiles)
    if size < rules.min_set_len or any(t.is_joker for t in tiles):
        return None
    first = tiles[0]
    if all(t.colour is first.colour for t in tiles):
        kind = MeldKind.RUN
        fits = (
            first.number in rules.run_starts(size)
            and size <= rules.numbers
            and all(t.number == rules.run_number(first.number + i) for i, t in enumerate(tiles))
        )
    else:
        kind = MeldKind.GROUP
        fits = (
            size <= rules.max_group_len
            and all(t.number == first.number for t in tiles)
            and len({t.colour for t in tiles}) == size
        )
    return Meld(kind, tuple(tiles), tuple(tiles)) if fits else None


def _written_in_order(tiles: Sequence[Tile], meld: Meld) -> bool:
    """Whether ``tiles`` are written in the order ``meld`` reads: each numbered tile,
    and each joker written with a tile (``J(R3)``), at the place of that tile; a joker
    written plain at any place. ``J(R3) R2 J`` is written R3 R2 ?, so it is not the run
    R1 R2 R3 in order (whose first place is R1)."""
    return all(
        t == m if not t.is_joker else t.meant is None or t.meant == m
        for t, m in zip(tiles, meld.stands_for, strict=True)
    )


def _readings_or_raise(tiles: Sequence[Tile], rules: Rules) -> list[Meld]:
    options = readings(tiles, rules)
    if not options:
        raise InvalidMeld(why_not_a_set(tiles, rules))
    return options


def why_not_a_set(tiles: Sequence[Tile], rules: Rules) -> str:
    """A sentence saying why ``tiles`` form no valid set (for error messages)."""
    said = _said(tiles)
    if said and _readings(tiles, rules):  # a set, but not with its jokers as written
        return _n(
            "its joker cannot stand for {tiles}",
            "its jokers cannot stand for {tiles}",
            len(said),
            tiles=" ".join(spell(t) for t in said),
        )
    naturals = [t for t in tiles if not t.is_joker]
    size = len(tiles)
    if size < rules.min_set_len:
        return _(
            "a set needs at least {least} tiles, this one has {size}",
            least=rules.min_set_len,
            size=size,
        )
    if not naturals:
        return _("a set needs at least one numbered tile, not only jokers")
    if size - len(naturals) > rules.max_jokers_per_set:
        return _n(
            "a set holds at most {n} joker (rule 'max_jokers_per_set'), this one has {jokers}",
            "a set holds at most {n} jokers (rule 'max_jokers_per_set'), this one has {jokers}",
            rules.max_jokers_per_set,
            jokers=size - len(naturals),
        )
    colours = {t.colour for t in naturals}
    numbers = {t.number for t in naturals}
    if len(numbers) == 1 and len(naturals) > 1:
        return _why_not_group(naturals, size, rules)
    if len(colours) == 1:
        return _why_not_run(naturals, size, rules)
    return _("tiles differ in both colour and number: a run needs one colour, a group one number")


def _why_not_group(naturals: Sequence[Tile], size: int, rules: Rules) -> str:
    seen: set[Tile] = set()
    for tile in naturals:
        if tile in seen:
            return _("{tile} appears twice; a group needs distinct colours", tile=spell(tile))
        seen.add(tile)
    return _(
        "a group has at most {most} tiles (one per colour), this one has {size}",
        most=rules.max_group_len,
        size=size,
    )


def _why_not_run(naturals: Sequence[Tile], size: int, rules: Rules) -> str:
    seen: set[Tile] = set()
    for tile in sorted(naturals):
        if tile in seen:
            return _("{tile} appears twice; a run needs distinct numbers", tile=spell(tile))
        seen.add(tile)
    if size > rules.numbers:
        return _(
            "a run has at most {most} tiles, this one has {size}", most=rules.numbers, size=size
        )
    low = min(t.number for t in naturals)
    high = max(t.number for t in naturals)
    if rules.wrap_runs:
        low, high = _shortest_round(sorted({t.number for t in naturals}), rules.numbers)
        return _n(
            "numbers {low} to {high} (going round from {top} to 1 where shorter) need"
            " {places} places but the run has {n} tile; jokers must fill every gap",
            "numbers {low} to {high} (going round from {top} to 1 where shorter) need"
            " {places} places but the run has {n} tiles; jokers must fill every gap",
            size,
            low=low,
            high=high,
            top=rules.numbers,
            places=(high - low) % rules.numbers + 1,
        )
    return _n(
        "numbers {low} to {high} need {places} places but the run has {n} tile;"
        " jokers must fill every gap",
        "numbers {low} to {high} need {places} places but the run has {n} tiles;"
        " jokers must fill every gap",
        size,
        low=low,
        high=high,
        places=high - low + 1,
    )


def _shortest_round(numbers: Sequence[int], top: int) -> tuple[int, int]:
    """The first and last number of the shortest stretch holding ``numbers`` (sorted,
    distinct) when the numbers go round from ``top`` to 1: it leaves out the widest gap
    between two of them that follow each other."""
    gaps = [(numbers[0] + top - numbers[-1], 0)]
    gaps += [(numbers[i] - numbers[i - 1], i) for i in range(1, len(numbers))]
    _, after = max(gaps)
    return numbers[after], numbers[after - 1]

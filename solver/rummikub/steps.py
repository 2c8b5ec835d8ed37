"""Step-by-step instructions: how a person turns the old table into the new one.

Every step is one physical action on the table:

* ``take``: pick tiles up from a set (they are held until placed);
* ``split``: cut a run in two before a tile; the tiles from there on become a new set;
* ``add``: put tiles (from the rack, or held) onto a set;
* ``new_set``: lay down a new set (from the rack, or held).

Sets keep the index they had in the request's table; each set created by
``split`` or ``new_set`` gets the next free index. Replaying the steps in order
on the old table, each set in the order the request wrote its tiles, gives
exactly the new table, in index order (empty sets gone).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from solver.i18n import _, _n, listed
from solver.rummikub.layout import PlacedSet
from solver.rummikub.melds import Meld, MeldKind
from solver.rummikub.notation import JOKER, Tile, colour_name, format_tiles, spell
from solver.values import Pasted


class Action(Pasted):
    TAKE = "take"
    SPLIT = "split"
    ADD = "add"
    NEW_SET = "new_set"


@dataclass(frozen=True, slots=True)
class Step:
    """One action. ``set`` is the set taken from, split, added to or created."""

    action: Action
    set: int
    tiles: tuple[Tile, ...] = ()
    at: Tile | None = None
    """For ``split``: the first tile of the part that becomes a new set."""
    at_index: int | None = None
    """For ``split``: that tile's place in the set as the request wrote it (0 = first),
    as jokers may repeat."""
    new_set: int | None = None
    """For ``split``: the index of the new set."""
    from_rack: tuple[Tile, ...] = ()
    """For ``add`` and ``new_set``: which of the tiles come from the rack."""
    text: str = ""


@dataclass(frozen=True, slots=True)
class Plan:
    steps: tuple[Step, ...]
    table: tuple[PlacedSet, ...]
    """The new table in index order, as replaying the steps leaves it."""
    numbers: tuple[int, ...]
    """The number the steps give each set of ``table``: the old table's numbers, new
    sets the next ones, so a set emptied leaves a gap ("as set 4" in a table of 4)."""
    rack_places: tuple[tuple[int, ...], ...] = ()
    """Set by set of ``table``, the places in its tiles (0 = first) of the tiles the
    steps lay from the rack (see :func:`rack_places`)."""
    left_in_hand: tuple[Tile, ...] = ()
    """Tiles taken off the table that no new set holds (a repair that cannot place
    every tile); empty for a play."""


def plan(
    before: Sequence[Meld | None],
    after: Sequence[PlacedSet],
    played: Sequence[Tile],
    written: Sequence[Sequence[Tile]],
) -> Plan:
    """Turn the old table ``before`` (as read) into ``after`` with ``played`` from the
    rack. ``written`` is the old table as the request wrote it: a set's tiles need not
    be in reading order (``R12 J J`` reads ``J R12 J``), and the steps act on the sets
    as they lie. A None in ``before`` is a heap of tiles that is no valid set (a table
    being repaired); its tiles are those written. Tiles taken that no set of ``after``
    holds stay in hand (see :attr:`Plan.left_in_hand`)."""
    planner = _Planner(before, played, written)
    continuing = {p.origin: p for p in after if p.origin is not None}
    new_sets = [p for p in after if p.origin is None]

    # 1. Tiles that leave their old set: split off whole end parts that go on
    #    together into one new set, take the others.
    built_on: dict[int, int] = {}  # position in new_sets -> index of the split-off part
    for index, meld in enumerate(before):
        kept = continuing.get(index)
        tiles = written[index] if meld is None else meld.tiles
        if kept is not None and len(kept.stayed) == len(tiles):
            continue  # the whole set stays
        leaving = Counter(tiles)
        if kept is not None:
            leaving -= Counter(kept.stayed)
        if not leaving:
            continue
        split = _split_off(meld, planner.contents[index], leaving, new_sets, built_on, kept)
        if split is not None:
            target, cut, first_part_leaves = split
            built_on[target] = planner.split(index, cut, first_part_leaves)
            continue
        planner.take(index, leaving)

    # 2. Tiles joining the sets that go on.
    for index, placed in sorted(continuing.items()):
        planner.add(planner.where[index], placed)

    # 3. New sets: grow a split-off part, or lay a new set down.
    for position, placed in enumerate(new_sets):
        if position in built_on:
            planner.add(built_on[position], placed)
        else:
            planner.new_set(placed)

    numbers = tuple(sorted(planner.holds))
    table = tuple(planner.holds[i] for i in numbers)
    return Plan(
        tuple(planner.steps),
        table,
        numbers,
        rack_places(before, [p.meld for p in table], numbers, planner.steps),
        tuple(sorted(planner.held.elements())),
    )


def rack_tiles(steps: Sequence[Step], numbers: Sequence[int]) -> list[tuple[Tile, ...]]:
    """The rack tiles the ``steps`` lay on each set numbered as in ``numbers`` (a
    table after them, see :attr:`Plan.numbers`): those of the ``add`` and ``new_set``
    steps naming it. A rack tile never moves once laid."""
    laid: dict[int, list[Tile]] = {}
    for step in steps:
        if step.action in (Action.ADD, Action.NEW_SET):
            laid.setdefault(step.set, []).extend(step.from_rack)
    return [tuple(laid.get(number, ())) for number in numbers]


def rack_places(
    before: Sequence[Meld | None],
    table: Sequence[Meld],
    numbers: Sequence[int],
    steps: Sequence[Step],
) -> tuple[tuple[int, ...], ...]:
    """Set by set of ``table`` (the table after ``steps``, its sets numbered
    ``numbers``), the places in its tiles of those the steps lay from the rack
    (:func:`rack_tiles`), ascending. A set holds no two equal numbered tiles, so theirs
    are exact; of its jokers, one standing where a joker of the table set it carries on
    stood (``before``; a part split off carries its set on too) is that joker, lying
    where it lay: the rack's go to the others first (a table joker kept in its run
    and one laid beside it from the rack, R3 J(R4) R5 J(R6) R7, mark J(R6), not the
    first joker)."""
    carries = {i: i for i in range(len(before))}
    for step in steps:
        if step.action is Action.SPLIT:
            assert step.new_set is not None  # a split names the set it makes
            carries[step.new_set] = carries[step.set]
    places = []
    for meld, number, laid in zip(table, numbers, rack_tiles(steps, numbers), strict=True):
        old = before[carries[number]] if number in carries else None
        stood = (
            Counter(m for t, m in zip(old.tiles, old.stands_for, strict=True) if t.is_joker)
            if old is not None
            else Counter()
        )
        lying = {
            p
            for p, (t, m) in enumerate(zip(meld.tiles, meld.stands_for, strict=True))
            if t.is_joker and _use(stood, m)
        }
        left = Counter(laid)
        order = [p for p in range(len(meld.tiles)) if p not in lying] + sorted(lying)
        places.append(tuple(sorted(p for p in order if _use(left, meld.tiles[p]))))
    return tuple(places)


def _split_off(
    meld: Meld | None,
    tiles: Sequence[Tile],
    leaving: Counter[Tile],
    new_sets: Sequence[PlacedSet],
    built_on: dict[int, int],
    continued: PlacedSet | None,
) -> tuple[int, int, bool] | None:
    """If the leaving tiles of a run that goes on are one end of it as it lies
    (``tiles``) and all go into one new set, return (that set's position, the place
    to split before, whether the first part is the one leaving)."""
    if meld is None or meld.kind is not MeldKind.RUN or continued is None:
        return None
    size = sum(leaving.values())
    if Counter(tiles[size:]) == Counter(tiles) - leaving:
        first_part_leaves, cut = True, size
    elif Counter(tiles[:-size]) == Counter(tiles) - leaving:
        first_part_leaves, cut = False, len(tiles) - size
    else:
        return None
    part = tiles[:cut] if first_part_leaves else tiles[cut:]
    for position, placed in enumerate(new_sets):
        if position not in built_on and not Counter(part) - Counter(placed.joined):
            return position, cut, first_part_leaves
    return None


class _Planner:
    """Keeps the table as replaying the steps so far leaves it."""

    def __init__(
        self,
        before: Sequence[Meld | None],
        played: Sequence[Tile],
        written: Sequence[Sequence[Tile]],
    ) -> None:
        self.steps: list[Step] = []
        self.before = before
        self.written = written
        self.contents: dict[int, list[Tile]] = {i: list(t) for i, t in enumerate(written)}
        self.where: dict[int, int] = {i: i for i in range(len(before))}
        """Old set index -> index of the set that now carries it on."""
        self.holds: dict[int, PlacedSet] = {}
        self.rack = Counter(played)
        self.held: Counter[Tile] = Counter()
        self.next_index = len(before)

    def take(self, index: int, tiles: Counter[Tile]) -> None:
        taken = sorted(tiles.elements())
        lying = self.contents[index]
        if len(taken) == len(lying):
            self.contents[index] = []  # the whole set
        else:
            self.contents[index] = left_in_order(lying, Counter(lying) - tiles)
        self.held.update(taken)
        text = self._take_text(index, lying, taken, Counter(self.contents[index]))
        self.steps.append(Step(Action.TAKE, index, tuple(taken), text=text))

    def _take_text(
        self, index: int, lying: Sequence[Tile], taken: list[Tile], staying: Counter[Tile]
    ) -> str:
        """The text of a take of ``taken`` from set ``index`` as it lies (``lying``),
        leaving ``staying``: when jokers stay behind, it says which are taken (a take
        keeps the first ones, see :func:`left_in_order`), as the set reads (``J(R6)``)
        when it lies in its reading order, else by their places in it. Under the joker
        rule "replace" which one leaves decides how the rest reads: of J R4 R5 J
        (J(R3) R4 R5 J(R6)), the first taken leaves R4 R5 J, a joker standing for R6."""
        if not any(t.is_joker for t in taken) or not staying[JOKER]:
            return _(
                "Take {tiles} from set {index}, {set}.",
                tiles=format_tiles(taken),
                index=index,
                set=self._name(index),
            )
        places = [p for p, t in enumerate(lying) if t.is_joker and not _use(staying, t)]
        meld = self.before[index]
        if meld is not None and tuple(lying) == meld.tiles:
            naturals = [t for t in taken if not t.is_joker]
            named = [spell(t) for t in naturals] + [_placed(meld, lying, p) for p in places]
            return _(
                "Take {tiles} from set {index}, {set}.",
                tiles=" ".join(named),
                index=index,
                set=self._name(index),
            )
        return _n(
            "Take {tiles} from set {index}, {set}: the joker at place {places}.",
            "Take {tiles} from set {index}, {set}: the jokers at places {places}.",
            len(places),
            tiles=format_tiles(taken),
            index=index,
            set=self._name(index),
            places=listed(p + 1 for p in places),
        )

    def split(self, index: int, cut: int, first_part_leaves: bool) -> int:
        """Split set ``index`` before its tile at place ``cut``; return the index of
        the part that leaves."""
        tiles = self.contents[index]
        at = tiles[cut]
        new = self.next_index
        self.next_index += 1
        self.contents[index], self.contents[new] = tiles[:cut], tiles[cut:]
        if first_part_leaves:
            self.where[index] = new  # the second part carries the old set on
        self.steps.append(
            Step(
                Action.SPLIT,
                index,
                at=at,
                at_index=cut,
                new_set=new,
                text=_(
                    "Split set {index}, {set}, before {at}: {tiles} becomes set {new}.",
                    index=index,
                    set=self._name(index),
                    at=_placed(self.before[index], tiles, cut),
                    tiles=format_tiles(tiles[cut:]),
                    new=new,
                ),
            )
        )
        return index if first_part_leaves else new

    def _name(self, index: int) -> str:
        """How the steps name old set ``index``: as a person would, or by its tiles
        when it is no valid set."""
        meld = self.before[index]
        if meld is None:
            tiles = self.written[index]
            return _n(
                "the loose tile {tiles}",
                "the loose tiles {tiles}",
                len(tiles),
                tiles=format_tiles(tiles),
            )
        return describe(meld)

    def add(self, index: int, placed: PlacedSet) -> None:
        self.holds[index] = placed
        if not placed.joined and placed.origin is not None:
            return  # a set that goes on with only the tiles that stayed in it
        adding = sorted((Counter(placed.meld.tiles) - Counter(self.contents[index])).elements())
        if not adding:
            return
        sources, from_rack = self._draw(adding)
        self.contents[index] += adding
        self.steps.append(
            Step(
                Action.ADD,
                index,
                tuple(adding),
                from_rack=from_rack,
                text=_(
                    "Add {sources} to set {index}, making {set}: {tiles}.",
                    sources=sources,
                    index=index,
                    set=describe(placed.meld),
                    tiles=str(placed.meld),
                ),
            )
        )

    def new_set(self, placed: PlacedSet) -> None:
        index = self.next_index
        self.next_index += 1
        tiles = list(placed.meld.tiles)
        sources, from_rack = self._draw(tiles)
        self.contents[index] = tiles
        self.holds[index] = placed
        self.steps.append(
            Step(
                Action.NEW_SET,
                index,
                placed.meld.tiles,
                from_rack=from_rack,
                text=_(
                    "Lay down {set}, {tiles}, as set {index} with {sources}.",
                    set=describe(placed.meld),
                    tiles=str(placed.meld),
                    index=index,
                    sources=sources,
                ),
            )
        )

    def _draw(self, tiles: Sequence[Tile]) -> tuple[str, tuple[Tile, ...]]:
        """Take ``tiles`` from the held tiles first, then the rack; say where from
        and return the rack's share."""
        from_held, from_rack = [], []
        for tile in tiles:
            if _use(self.held, tile):
                from_held.append(tile)
            else:
                self.rack[tile] -= 1
                from_rack.append(tile)
        rack = _("your {tiles}", tiles=format_tiles(from_rack))
        held = _("the {tiles} you took", tiles=format_tiles(from_held))
        if from_rack and from_held:
            sources = _("{rack} and {taken}", rack=rack, taken=held)
        else:
            sources = rack if from_rack else held
        return sources, tuple(from_rack)


def _placed(meld: Meld | None, tiles: Sequence[Tile], place: int) -> str:
    """The tile at ``place`` of a set as it lies (``tiles``); a joker with what it
    stands for, "J(B5)", when the set lies in reading order."""
    tile = tiles[place]
    if tile.is_joker and meld is not None and tuple(tiles) == meld.tiles:
        return f"J({spell(meld.stands_for[place])})"
    return spell(tile)


def left_in_order(tiles: Sequence[Tile], staying: Counter[Tile]) -> list[Tile]:
    """The tiles of ``tiles`` that ``staying`` counts, in their order: of a tile held
    more than once, the first ones, as a take leaves a set."""
    remaining = Counter(staying)
    return [t for t in tiles if _use(remaining, t)]


def _use(counts: Counter[Tile], tile: Tile) -> bool:
    """Use one ``tile`` from ``counts`` if there is one."""
    if counts[tile] > 0:
        counts[tile] -= 1
        return True
    return False


def describe(meld: Meld) -> str:
    """A set as a person names it: "the group of 7s", "the red run 3-8"."""
    first = meld.stands_for[0]
    if meld.kind is MeldKind.GROUP:
        return _("the group of {number}s", number=first.number)
    assert first.colour is not None
    last = meld.stands_for[-1]
    return _(
        "the {colour} run {low}-{high}",
        colour=colour_name(first.colour),
        low=first.number,
        high=last.number,
    )

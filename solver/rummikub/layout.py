"""Lay the solved counts of a :class:`~solver.rummikub.model.TurnModel` out as real sets.

The model only fixes how many runs start and go on, how many groups each number
has and where jokers stand in; this module turns those counts into the list of
runs and groups a person would put on the table. It follows the constructive
arguments stated in :mod:`solver.rummikub.model`, so any feasible solution lays out.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from solver.rummikub.melds import Meld, MeldKind
from solver.rummikub.model import LinearExpr, TurnModel
from solver.rummikub.tiles import JOKER, Colour, Tile

Value = Callable[[LinearExpr], int]


class LayoutError(RuntimeError):
    """Solved counts that do not lay out: a bug in the model, never bad input."""


@dataclass(eq=False)
class _Run:
    """A run being laid out (compared by identity)."""

    colour: Colour
    start: int
    tiles: list[Tile] = field(default_factory=list)
    first_natural_at: int | None = None
    """For a run opened by jokers: where its first numbered tile goes."""
    segment_start: int = 0
    """Where the model's run that this one now carries on began (see joining below)."""

    def __post_init__(self) -> None:
        self.segment_start = self.start

    def meld(self) -> Meld:
        meant = tuple(
            Tile.natural(self.colour, n) for n in range(self.start, self.start + len(self.tiles))
        )
        return Meld(MeldKind.RUN, tuple(self.tiles), meant)


def lay_out(tm: TurnModel, value: Value) -> list[Meld]:
    """All sets of the solved table: runs by colour and start, then groups by number."""
    melds: list[Meld] = []
    for colour in range(tm.rules.colours):
        melds += lay_out_runs(tm, colour, value)
    for number in range(1, tm.rules.numbers + 1):
        melds += lay_out_groups(tm, number, value)
    return melds


def lay_out_runs(tm: TurnModel, colour_index: int, value: Value) -> list[Meld]:
    """Replay the run flow of one colour number by number."""
    colour = Colour.from_index(colour_index)
    size = tm.rules.min_set_len
    active: list[_Run] = []
    done: list[_Run] = []
    for number in range(1, tm.rules.numbers + 1):
        cell = (colour_index, number)
        # Runs shorter than L go on; of the long ones, `extend` go on and the rest stop.
        # Runs still waiting for their first numbered tile must be among those going on.
        short = [r for r in active if number - r.segment_start < size]
        long = sorted(
            (r for r in active if number - r.segment_start >= size),
            key=lambda r: r.first_natural_at is None,
        )
        going_on = value(tm.extend.get(cell, 0))
        stopping = long[going_on:]
        active = short + long[:going_on]
        new_runs = [_Run(colour, number) for _ in range(value(tm.start.get(cell, 0)))]
        opened_by_jokers = [
            (lead, value(var)) for (c, n, lead), var in tm.joker_heads.items() if (c, n) == cell
        ]
        for run, first in zip(new_runs, _expand(opened_by_jokers), strict=False):
            run.first_natural_at = number + first
        # A run that stops just where another of its colour begins is one longer run:
        # joining them reads better and is always legal (the counts stay the same).
        # The joined run takes over the new run's place in the flow.
        joined = min(len(stopping), len(new_runs))
        for i in range(joined):
            stopping[i].segment_start = number
            stopping[i].first_natural_at = new_runs[i].first_natural_at
            new_runs[i] = stopping[i]
        done += stopping[joined:]
        active += new_runs
        _place_tiles(
            active,
            number,
            value(tm.run_naturals(cell)),
            value(tm.run_jokers.get(cell, 0)),
            Tile.natural(colour, number),
            new_runs if tm.heads_tracked else [],
        )
    done += active
    for run in done:
        if len(run.tiles) < size or all(t.is_joker for t in run.tiles):
            raise LayoutError(f"run of {colour.name} from {run.start} does not lay out")
    return [run.meld() for run in sorted(done, key=lambda r: (r.start, len(r.tiles)))]


def _expand(counts: list[tuple[int, int]]) -> list[int]:
    return [item for item, count in counts for _ in range(count)]


def _place_tiles(
    runs: list[_Run],
    number: int,
    naturals: int,
    jokers: int,
    tile: Tile,
    opened_here: list[_Run],
) -> None:
    """Give every run one tile at ``number``: a joker to runs still waiting for their
    first numbered tile, a numbered tile to runs whose first one is due or that must
    open with one (``opened_here`` and not waiting), and what is left to the others."""
    waiting = [r for r in runs if r.first_natural_at is not None and r.first_natural_at > number]
    due = [
        r for r in runs if r not in waiting and (r.first_natural_at == number or r in opened_here)
    ]
    free = [r for r in runs if r not in waiting and r not in due]
    naturals -= len(due)
    jokers -= len(waiting)
    if naturals < 0 or jokers < 0 or naturals + jokers != len(free):
        raise LayoutError(f"run tiles at {tile} do not add up")
    for run in waiting:
        run.tiles.append(JOKER)
    for run in due:
        run.tiles.append(tile)
        run.first_natural_at = None
    for i, run in enumerate(free):
        run.tiles.append(tile if i < naturals else JOKER)


def lay_out_groups(tm: TurnModel, number: int, value: Value) -> list[Meld]:
    """Deal the numbered tiles round-robin by colour into the groups, then top the
    groups up with jokers: first to the minimum size, then wherever a colour is free."""
    rules = tm.rules
    count = value(tm.groups.get(number, 0))
    if count == 0:
        return []
    members: list[list[Colour]] = [[] for _ in range(count)]
    dealt = 0
    for colour in rules.colour_list:
        for _ in range(value(tm.group_naturals((colour.index, number)))):
            members[dealt % count].append(colour)
            dealt += 1
    jokers = value(tm.group_jokers.get(number, 0))
    extra = [0] * count
    for i, group in enumerate(members):
        extra[i] = max(0, rules.min_set_len - len(group))
    jokers -= sum(extra)
    for i, group in enumerate(members):
        room = rules.max_group_len - len(group) - extra[i]
        take = max(0, min(room, jokers))
        extra[i] += take
        jokers -= take
    if jokers != 0:
        raise LayoutError(f"group jokers at number {number} do not lay out")
    melds = []
    for group, wild in zip(members, extra, strict=True):
        if not group or len(set(group)) != len(group):
            raise LayoutError(f"groups of number {number} do not lay out")
        filled = [c for c in rules.colour_list if c not in group][:wild]
        tiles, meant = [], []
        for colour in rules.colour_list:
            if colour in group or colour in filled:
                tiles.append(Tile.natural(colour, number) if colour in group else JOKER)
                meant.append(Tile.natural(colour, number))
        melds.append(Meld(MeldKind.GROUP, tuple(tiles), tuple(meant)))
    return melds

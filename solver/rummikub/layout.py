"""Lay the solved counts of a :class:`~solver.rummikub.model.TurnModel` out as real sets.

The model only fixes how many runs start and go on, how many groups each number
has and where jokers stand in; this module turns those counts into the list of
runs and groups a person would put on the table. It follows the constructive
arguments stated in :mod:`solver.rummikub.model`, so any feasible solution lays out.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from itertools import islice

from solver.cpsat import LinearExpr
from solver.errors import ModelError
from solver.rummikub.melds import Meld, MeldKind, joker_colours
from solver.rummikub.model import Cell, Continuation, TurnModel
from solver.rummikub.notation import JOKER, Colour, Tile
from solver.rummikub.rules import Rules

Value = Callable[[LinearExpr], int]


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

    def meld(self, row: Sequence[Tile]) -> Meld:
        """The run as a set; ``row[n]`` is the tile of its colour numbered n."""
        meant = tuple(row[self.start : self.start + len(self.tiles)])
        return Meld(MeldKind.RUN, tuple(self.tiles), meant)


@dataclass(frozen=True, slots=True)
class PlacedSet:
    """A set of the new table and where its tiles come from."""

    meld: Meld
    origin: int | None
    """Index of the table set this one continues, or None for a new set."""
    stayed: tuple[Tile, ...]
    """Tiles of the origin set that stayed in it."""
    joined: tuple[Tile, ...]
    """Tiles that came from the rack or from other sets."""


def lay_out(tm: TurnModel, value: Value) -> list[PlacedSet]:
    """All sets of the solved table: continued table sets in table order, then new
    runs by colour and start, then new groups by number."""
    placed = lay_out_continuations(tm, value)
    started = {cell for cell, var in tm.start.items() if value(var)}
    runs = [m for c in range(tm.rules.colours) for m in lay_out_runs(tm, c, value, started)]
    runs = join_joker_runs(tm.rules, runs, lay_out_joker_runs(tm, value))
    placed += [_new(_from_one(m, tm.rules)) for m in runs]
    for number in range(1, tm.rules.numbers + 1):
        placed += [_new(m) for m in lay_out_groups(tm, number, value)]
    return placed


def _new(meld: Meld) -> PlacedSet:
    return PlacedSet(meld, None, (), meld.tiles)


def _from_one(run: Meld, rules: Rules) -> Meld:
    """A run of every number read from 1, its one reading (see
    :meth:`~solver.rummikub.rules.Rules.run_starts`): under ``wrap_runs`` the flow may
    begin it at any number."""
    if len(run.tiles) < rules.numbers:
        return run
    k = next(i for i, meant in enumerate(run.stands_for) if meant.number == 1)
    tiles, meant = run.tiles, run.stands_for
    return Meld(MeldKind.RUN, tiles[k:] + tiles[:k], meant[k:] + meant[:k])


def lay_out_continuations(tm: TurnModel, value: Value) -> list[PlacedSet]:
    """The table sets that go on, each with the tiles that stayed and joined."""
    joining_jokers: dict[Cell, int] = {cell: value(var) for cell, var in tm.joining_jokers.items()}
    placed = []
    for cont in tm.continuations:
        if value(cont.active):
            if cont.meld.kind is MeldKind.RUN:
                placed.append(_continued_run(tm, cont, value, joining_jokers))
            else:
                placed.append(_continued_group(tm, cont, value))
    if any(joining_jokers.values()):
        raise ModelError("jokers joining continued runs do not lay out")
    return placed


def _continued_run(
    tm: TurnModel, cont: Continuation, value: Value, joining_jokers: dict[Cell, int]
) -> PlacedSet:
    if not cont.begins and value(cont.kept) and not any(value(c) for c in cont.joins.values()):
        # Kept whole (its old numbers where they were) and nothing joins: the run as
        # read, without reading each number back (most runs of a typical layout).
        return PlacedSet(cont.meld, cont.index, cont.meld.tiles, ())
    first = cont.meld.stands_for[0]
    assert first.colour is not None
    old = {
        m.number: (t, value(s))
        for t, m, s in zip(cont.meld.tiles, cont.meld.stands_for, cont.stays, strict=True)
    }
    tiles: list[Tile] = []
    meant: list[Tile] = []
    stayed: list[Tile] = []
    joined: list[Tile] = []
    for position, cover in sorted(cont.cover.items()):
        if not value(cover):
            continue
        number = tm.rules.run_number(position)
        natural = Tile.natural(first.colour, number)
        cell = (first.colour.index, number)
        if number in old:
            # A joker takes the place of a numbered tile that left, and the other
            # way round (see add_run_continuation).
            tile, stays = old[number]
            if not stays:
                tile = natural if tile.is_joker else JOKER
        else:
            tile, stays = natural, 0
            # The jokers joining this run, where the model counts them run by run;
            # else any of those joining continued runs at the cell.
            by_run = cont.joining_jokers.get(position)
            if value(by_run) if by_run is not None else joining_jokers.get(cell, 0) > 0:
                joining_jokers[cell] -= 1
                tile = JOKER
        (stayed if stays else joined).append(tile)
        tiles.append(tile)
        meant.append(natural)
    # A run of every number that wrapped round is read from 1, as a new one is: the
    # order written is how a table reads a joker's place (R3 J J would be a group).
    run = _from_one(Meld(MeldKind.RUN, tuple(tiles), tuple(meant)), tm.rules)
    return PlacedSet(run, cont.index, tuple(stayed), tuple(joined))


def _continued_group(tm: TurnModel, cont: Continuation, value: Value) -> PlacedSet:
    number = cont.meld.stands_for[0].number
    stayed = [t for t, s in zip(cont.meld.tiles, cont.stays, strict=True) if value(s)]
    joined = [
        Tile.natural(Colour.from_index(c), number) for c, var in cont.added.items() if value(var)
    ]
    joined += [JOKER] * value(cont.added_jokers)
    # A joker that stays keeps the colour it stood for where that colour is still free:
    # the table's K7 B7 J(O7) going on is not written back as J(R7).
    was = [
        m.colour
        for t, m, s in zip(cont.meld.tiles, cont.meld.stands_for, cont.stays, strict=True)
        if t.is_joker and value(s)
    ]
    placed = _group(tm, number, stayed + joined, was)
    return PlacedSet(placed, cont.index, tuple(stayed), tuple(joined))


def _group(
    tm: TurnModel, number: int, tiles: list[Tile], was: Sequence[Colour | None] = ()
) -> Meld:
    """A group of ``tiles`` in colour order, jokers standing for the free colours: first
    those in ``was`` (what jokers that stayed stood for), then those
    :func:`~solver.rummikub.melds.joker_colours` gives them."""
    present = {t.colour for t in tiles if t.colour is not None}
    jokers = sum(t.is_joker for t in tiles)
    kept = [c for c in dict.fromkeys(was) if c is not None and c not in present][:jokers]
    rest = joker_colours(present | set(kept), tm.rules)
    chosen = present | set(kept) | set(islice(rest, jokers - len(kept)))
    colours = [c for c in tm.rules.colour_list if c in chosen]
    if len(colours) != len(tiles):
        raise ModelError(f"a group of number {number} does not lay out")
    meant = tuple(Tile.natural(c, number) for c in colours)
    ordered = tuple(t if t.colour in present else JOKER for t in meant)
    return Meld(MeldKind.GROUP, ordered, meant)


def lay_out_runs(tm: TurnModel, colour_index: int, value: Value, started: set[Cell]) -> list[Meld]:
    """Replay the run flow of one colour number by number (``started``: the cells
    where runs begin)."""
    if not any(cell[0] == colour_index for cell in started):
        return []
    if tm.rules.wrap_runs:
        return lay_out_wrapped_runs(tm, colour_index, value)
    colour = Colour.from_index(colour_index)
    size = tm.rules.min_set_len
    row = _row(colour, tm.rules.numbers)
    heads = tm.jokers_make_a_set  # runs may open with jokers (see add_joker_headed_runs)
    active: list[_Run] = []
    done: list[_Run] = []
    for number in range(1, tm.rules.numbers + 1):
        cell = (colour_index, number)
        if not active and cell not in started:
            continue  # no run here
        # Runs shorter than L go on; of the long ones, `extend` go on and the rest stop.
        # Runs still waiting for their first numbered tile must be among those going on.
        short = [r for r in active if number - r.segment_start < size]
        long = [r for r in active if number - r.segment_start >= size]
        if heads:
            long.sort(key=lambda r: r.first_natural_at is None)
        going_on = value(tm.extend.get(cell, 0))
        stopping = long[going_on:]
        active = short + long[:going_on]
        new_runs = [_Run(colour, number) for _ in range(value(tm.start.get(cell, 0)))]
        if heads:
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
        # Every run through the cell holds one tile there: run_tiles = len(active).
        # Jokers beyond the runs here stand in groups (see add_runs).
        jokers = min(value(tm.run_jokers.get(cell, 0)), len(active))
        _place_tiles(
            active,
            number,
            len(active) - jokers,
            jokers,
            row[number],
            new_runs if heads else [],
        )
    done += active
    for run in done:
        if len(run.tiles) < size or all(t.is_joker for t in run.tiles):
            raise ModelError(f"run of {colour.name} from {run.start} does not lay out")
    return [run.meld(row) for run in sorted(done, key=lambda r: (r.start, len(r.tiles)))]


def lay_out_wrapped_runs(tm: TurnModel, colour_index: int, value: Value) -> list[Meld]:
    """Replay the run flow of one colour under ``wrap_runs`` (see
    :func:`~solver.rummikub.model.add_wrapped_runs`): runs begin at positions 1..N and
    go on over positions up to 2N-1 (position p is number p taken round); of the long
    runs, those going on are the ones still waiting for their first numbered tile, then
    the youngest, so that none holds more than N tiles. Then each number's tiles are
    dealt to the runs through it (at p and p+N): a joker to runs waiting for their
    first numbered tile, a numbered tile to runs whose first one is due there, the
    rest in turn."""
    rules = tm.rules
    colour, size, top = Colour.from_index(colour_index), rules.min_set_len, rules.numbers
    heads = tm.jokers_make_a_set
    active: list[_Run] = []
    done: list[_Run] = []
    where: dict[int, list[tuple[_Run, int]]] = {}
    """Per number: the runs through it and their position there."""
    went_on: Counter[int] = Counter()
    """Per number: the runs that went on there so far."""
    for position in range(1, 2 * top):
        cell = (colour_index, rules.run_number(position))

        def order(run: _Run, position: int = position) -> tuple[bool, int]:
            waiting = run.first_natural_at is not None and run.first_natural_at >= position
            return (not waiting, -run.start)

        short = [r for r in active if position - r.start < size]
        long = sorted((r for r in active if position - r.start >= size), key=order)
        # extend[c,n] counts the runs going on at number n over both rounds: those
        # going on at n (position n) leave the rest to position n + N.
        going_on = min(len(long), value(tm.extend.get(cell, 0)) - went_on[cell[1]])
        went_on[cell[1]] += going_on
        done += long[going_on:]
        active = short + long[:going_on]
        if position <= top:
            new_runs = [_Run(colour, position) for _ in range(value(tm.start.get(cell, 0)))]
            opened_by_jokers = [
                (lead, value(var)) for (c, n, lead), var in tm.joker_heads.items() if (c, n) == cell
            ]
            for run, lead in zip(new_runs, _expand(opened_by_jokers), strict=False):
                run.first_natural_at = position + lead
            active += new_runs
        where.setdefault(cell[1], []).extend((run, position) for run in active)
    done += active
    placed: dict[int, dict[int, Tile]] = {id(run): {} for run in done}
    for number, through in where.items():
        cell = (colour_index, number)
        jokers = min(value(tm.run_jokers.get(cell, 0)), len(through))
        naturals = len(through) - jokers
        natural = Tile.natural(colour, number)
        waiting = [(r, p) for r, p in through if (r.first_natural_at or 0) > p]
        due = [
            (r, p)
            for r, p in through
            if (r, p) not in waiting and (r.first_natural_at == p or (heads and r.start == p))
        ]
        free = [item for item in through if item not in waiting and item not in due]
        naturals -= len(due)
        jokers -= len(waiting)
        if naturals < 0 or jokers < 0:
            raise ModelError(f"run tiles at {natural} do not add up")
        for i, (run, position) in enumerate(waiting + due + free):
            in_free = i - len(waiting) - len(due)
            joker = i < len(waiting) or (in_free >= 0 and in_free >= naturals)
            placed[id(run)][position] = JOKER if joker else natural
    melds = []
    for run in sorted(done, key=lambda r: r.start):
        tiles = [placed[id(run)][p] for p in sorted(placed[id(run)])]
        if not size <= len(tiles) <= top or all(t.is_joker for t in tiles):
            raise ModelError(f"run of {colour.name} from {run.start} does not lay out")
        meant = [Tile.natural(colour, rules.run_number(run.start + i)) for i in range(len(tiles))]
        melds.append(Meld(MeldKind.RUN, tuple(tiles), tuple(meant)))
    return melds


def lay_out_joker_runs(tm: TurnModel, value: Value) -> list[Meld]:
    """The runs holding jokers that the model lays out one by one (see
    :func:`~solver.rummikub.model.add_joker_runs`): each covered position in order,
    a joker where one stands."""
    melds = []
    for run in tm.joker_runs:
        copies = value(run.active)
        if not copies:
            continue
        covered = sorted(key for key, var in run.cover.items() if value(var))
        colour = Colour.from_index(covered[0][0])
        tiles, meant = [], []
        for key in covered:
            natural = Tile.natural(colour, tm.rules.run_number(key[1]))
            tiles.append(JOKER if value(run.jokers[key]) else natural)
            meant.append(natural)
        melds += [Meld(MeldKind.RUN, tuple(tiles), tuple(meant))] * copies
    return melds


def join_joker_runs(rules: Rules, runs: list[Meld], joker_runs: list[Meld]) -> list[Meld]:
    """``runs`` and ``joker_runs``, each joker run joined to a run of its colour that
    ends just before it or begins just after it, as long as the joined run holds at
    most ``max_jokers_per_set`` jokers (and under ``wrap_runs`` at most N tiles): the
    model lays a long run holding jokers out in pieces (see
    :func:`~solver.rummikub.model.add_joker_pieces`); joined, they read as one set
    of the same tiles."""
    melds, pending = list(runs), list(joker_runs)
    while pending:
        piece = pending.pop()
        for i, other in enumerate(melds):
            joined = _joined(rules, other, piece) or _joined(rules, piece, other)
            if joined is not None:
                del melds[i]
                pending.append(joined)
                break
        else:
            melds.append(piece)
    return melds


def join_new_runs(
    rules: Rules, placed: Sequence[PlacedSet], opening: bool = False
) -> list[PlacedSet]:
    """``placed``, every set new (an opening's, or a play on an empty table), with each
    two runs of a colour that one run can hold laid as one: with no table set to carry
    on no least-disruption search lays the sets out, and the score stage's counts may
    begin a run at several numbers (under ``wrap_runs``, R2-R7 and a joker as
    ``J(R1) R2 R3``, ``R4 R5`` and ``R6 R7``). Runs where one ends just before the other
    begins are joined with each tile standing for what it stood for (:func:`_joined`);
    then a run holding jokers takes on any run of its colour that one run of both
    their tiles can hold, its jokers moved where the numbered tiles leave room
    (:func:`_merged`: ``R4 R5 R6`` and ``J(R5) J(R6) R7 R8 R9`` are
    ``R4 R5 R6 R7 R8 R9 J(R10) J(R11)``, the jokers where the run is worth most). The
    same tiles are played, so the play and its score are the same; for an
    ``opening``, a join that moves jokers is made only while the new sets, as laid,
    are still worth the opening threshold. Groups stay."""
    runs = [p.meld for p in placed if p.meld.kind is MeldKind.RUN]
    # Each run in turn takes on the runs that begin just after it. One pass finds every
    # join: no run's first tile changes, and runs only grow, so a run that could not
    # follow another when that one's turn came cannot later either. (Trying every pair
    # again after each join took 0.68 s for 416 runs of two; this, 0.015 s.)
    i = 0
    while i < len(runs):
        for j, other in enumerate(runs):
            joined = None if j == i else _joined(rules, runs[i], other)
            if joined is not None:
                runs[i] = joined
                del runs[j]
                if j < i:
                    i -= 1
                break
        else:
            i += 1
    groups = [p for p in placed if p.meld.kind is not MeldKind.RUN]
    worth = sum(m.value for m in runs) + sum(p.meld.value for p in groups)
    spare = worth - rules.opening_threshold if opening else None
    runs = _merge_joker_runs(rules, runs, spare)
    return [_new(_from_one(m, rules)) for m in runs] + groups


def _merge_joker_runs(rules: Rules, runs: list[Meld], spare: int | None) -> list[Meld]:
    """``runs``, each that holds a joker merged with every run of its colour that one
    run can hold with it (:func:`_merged`), until none can; a merge that lowers what
    the runs are worth takes it from ``spare`` (None: no bound). Two runs without a
    joker that one run holds meet, and are joined already. At most ``jokers`` runs
    hold one, so this tries few pairs."""
    runs = list(runs)
    while (merge := _a_merge(rules, runs, spare)) is not None:
        i, j, one = merge
        if spare is not None:
            spare += one.value - runs[i].value - runs[j].value
        runs[min(i, j)] = one
        del runs[max(i, j)]
    return runs


def _a_merge(rules: Rules, runs: list[Meld], spare: int | None) -> tuple[int, int, Meld] | None:
    """The first run ``i`` holding a joker and run ``j`` that one run holds with it
    (:func:`_merged`), and that run, whose worth less theirs ``spare`` covers (None:
    any); None when there is no such pair."""
    for i, run in enumerate(runs):
        if not run.jokers:
            continue
        for j, other in enumerate(runs):
            one = None if j == i else _merged(rules, run, other)
            if one is not None and (
                spare is None or spare + one.value - run.value - other.value >= 0
            ):
                return i, j, one
    return None


def _merged(rules: Rules, first: Meld, second: Meld) -> Meld | None:
    """The runs ``first`` and ``second`` as one run, or None when no run holds them
    both: one colour, no number twice, at most ``max_jokers_per_set`` jokers and N
    tiles. Where one ends just before the other begins each tile stands for what it
    stood for (:func:`_joined`); else the jokers stand where the numbered tiles leave
    room, in the reading worth most (``rules.run_starts``)."""
    joined = _joined(rules, first, second) or _joined(rules, second, first)
    if joined is not None:
        return joined
    colour = first.stands_for[0].colour
    if colour is None or second.stands_for[0].colour != colour:
        return None
    tiles = first.tiles + second.tiles
    numbers = {t.number for t in tiles if not t.is_joker}
    size = len(tiles)
    if len(numbers) + first.jokers + second.jokers != size:
        return None  # a number held twice
    if first.jokers + second.jokers > rules.max_jokers_per_set or size > rules.numbers:
        return None
    best: list[int] | None = None
    for start in rules.run_starts(size):
        reading = [rules.run_number(start + k) for k in range(size)]
        if numbers <= set(reading) and (best is None or sum(reading) > sum(best)):
            best = reading
    if best is None:
        return None
    meant = tuple(Tile.natural(colour, n) for n in best)
    return Meld(MeldKind.RUN, tuple(m if m.number in numbers else JOKER for m in meant), meant)


def _joined(rules: Rules, first: Meld, second: Meld) -> Meld | None:
    """Run ``first`` then run ``second`` as one run, when ``second`` begins at the number
    after the last of ``first`` (taken round under ``wrap_runs``) in the same colour and
    the two hold at most ``max_jokers_per_set`` jokers and N tiles; else None."""
    last, begin = first.stands_for[-1], second.stands_for[0]
    if last.colour != begin.colour or rules.run_number(last.number + 1) != begin.number:
        return None
    if first.jokers + second.jokers > rules.max_jokers_per_set:
        return None
    if len(first.tiles) + len(second.tiles) > rules.numbers:
        return None
    return Meld(MeldKind.RUN, first.tiles + second.tiles, first.stands_for + second.stands_for)


@cache
def _row(colour: Colour, numbers: int) -> tuple[Tile, ...]:
    """The tiles of one colour by number (``row[n]``; a joker at 0)."""
    return (JOKER, *(Tile.natural(colour, n) for n in range(1, numbers + 1)))


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
    if not opened_here and all(r.first_natural_at is None for r in runs):
        # No run opened by jokers: the common case, every run takes what comes.
        if naturals < 0 or jokers < 0:
            raise ModelError(f"run tiles at {tile} do not add up")
        for i, run in enumerate(runs):
            run.tiles.append(tile if i < naturals else JOKER)
        return
    waiting = [r for r in runs if r.first_natural_at is not None and r.first_natural_at > number]
    due = [
        r for r in runs if r not in waiting and (r.first_natural_at == number or r in opened_here)
    ]
    free = [r for r in runs if r not in waiting and r not in due]
    naturals -= len(due)
    jokers -= len(waiting)
    if naturals < 0 or jokers < 0 or naturals + jokers != len(free):
        raise ModelError(f"run tiles at {tile} do not add up")
    for run in waiting:
        run.tiles.append(JOKER)
    for run in due:
        run.tiles.append(tile)
        run.first_natural_at = None
    for i, run in enumerate(free):
        run.tiles.append(tile if i < naturals else JOKER)


def jokers_beyond_runs(tm: TurnModel, cell: Cell, value: Value) -> int:
    """Jokers the solution counts at ``cell`` beyond the runs there: they stand in a
    group of that number (see :func:`~solver.rummikub.model.add_runs`)."""
    in_runs = value(tm.run_jokers.get(cell, 0))
    return max(0, in_runs - value(tm.run_tiles(cell))) if in_runs else 0


def lay_out_groups(tm: TurnModel, number: int, value: Value) -> list[Meld]:
    """Deal the numbered tiles round-robin by colour into the groups, then top the
    groups up with jokers: first to the minimum size, then wherever a colour is free,
    at most ``max_jokers_per_set`` a group (dealt so, they fit as the model counts
    them: see :func:`~solver.rummikub.model.add_groups`).

    The jokers are the group jokers and those beyond the runs at a cell of this
    number, which the model counts among the group's tiles of that colour (see
    :func:`~solver.rummikub.model.add_runs`)."""
    rules = tm.rules
    count = value(tm.groups.get(number, 0))
    if count == 0:
        return []
    members: list[list[Colour]] = [[] for _ in range(count)]
    dealt = 0
    jokers = value(tm.group_jokers.get(number, 0))
    for index, colour in enumerate(rules.colour_list):
        cell = (index, number)
        if tm.jokers_only(cell):
            continue  # no numbered tile of this colour to deal
        stand_ins = jokers_beyond_runs(tm, cell, value)
        jokers += stand_ins
        for _ in range(value(tm.group_naturals(cell)) - stand_ins):
            members[dealt % count].append(colour)
            dealt += 1
    extra = [0] * count
    for i, group in enumerate(members):
        extra[i] = max(0, rules.min_set_len - len(group))
    jokers -= sum(extra)
    for i, group in enumerate(members):
        room = min(rules.max_group_len - len(group), rules.max_jokers_per_set) - extra[i]
        take = max(0, min(room, jokers))
        extra[i] += take
        jokers -= take
    if jokers != 0:
        raise ModelError(f"group jokers at number {number} do not lay out")
    melds = []
    for group, wild in zip(members, extra, strict=True):
        if not group or len(set(group)) != len(group):
            raise ModelError(f"groups of number {number} do not lay out")
        tiles = [Tile.natural(c, number) for c in group]
        if wild:
            melds.append(_group(tm, number, tiles + [JOKER] * wild))
        else:  # dealt in colour order already
            melds.append(Meld(MeldKind.GROUP, tuple(tiles), tuple(tiles)))
    return melds

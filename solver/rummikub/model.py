"""The CP-SAT model of one Rummikub turn.

Instead of enumerating candidate sets (thousands once jokers may sit anywhere),
the model describes the table after the turn by counts that every arrangement of
runs and groups reduces to, and that can always be laid back out as real sets
(:mod:`solver.rummikub.layout` does that):

* runs of colour ``c`` are a flow over the numbers: ``start[c,n]`` runs begin at
  ``n``; a run shorter than ``L = min_set_len`` must go on to ``n+1``;
  ``extend[c,n]`` of the runs already ``L`` long at ``n-1`` go on to ``n``
  (under ``wrap_runs`` the numbers go round, see :func:`add_wrapped_runs`).
* groups of number ``n`` are a count ``groups[n]`` with the numbered tiles and
  jokers they hold; distinct colours and 1..colours tiles each is a question of
  counts alone (see :func:`add_groups`).
* a joker is a stand-in: ``run_jokers[c,n]`` jokers play tile ``(c,n)`` in a run,
  ``group_jokers[n]`` jokers fill groups of ``n``. With fewer than ``L`` jokers and
  no table set continued, jokers beyond the runs at ``(c,n)`` stand for ``(c,n)``
  in a group (see :func:`add_runs`).

So the model has a few hundred small integer variables and no symmetric copies
of the same set, whatever the position.

To say how much a play disturbs the table, each table set may also *continue*
as one set of the new table (:func:`add_continuations`): some of its tiles stay
where they are and tiles may join it (at the ends of a run, in the free colours
of a group). Tiles that stay are taken out of the counts above; tiles that join
come from the same pool as every other placed tile.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from ortools.sat.python import cp_model

from solver.cpsat import CpModel, LinearExpr, is_zero, maximize, total
from solver.rummikub.melds import Meld, MeldKind
from solver.rummikub.notation import Tile
from solver.rummikub.position import Objective
from solver.rummikub.rules import Rules

Cell = tuple[int, int]
"""(colour index, number): one kind of numbered tile."""

Flag = cp_model.IntVar | int
"""A 0/1 variable, or 1 where a table set is fixed to go on whole (see add_fixed_continuation)."""


@dataclass(frozen=True, slots=True)
class TileCounts:
    """A multiset of tiles as counts: numbered tiles per cell, and jokers."""

    naturals: dict[Cell, int]
    jokers: int = 0

    @classmethod
    def of(cls, tiles: Counter[Tile]) -> TileCounts:
        naturals: dict[Cell, int] = {}
        for tile, count in tiles.items():
            if tile.colour is not None and count:
                naturals[tile.colour.index, tile.number] = count
        return cls(naturals, sum(c for t, c in tiles.items() if t.is_joker))

    def __getitem__(self, cell: Cell) -> int:
        return self.naturals.get(cell, 0)


@dataclass
class Continuation:
    """Table set ``index`` going on as one set of the new table.

    ``stays[i]`` says whether ``meld.tiles[i]`` stays in it; a run covers the
    numbers in ``cover`` (one stretch), a group gains the numbered tiles in
    ``added`` (by colour index) and ``added_jokers`` jokers. A set fixed to go on
    whole has the constant 1 for ``active``, ``kept``, ``stays`` and its old numbers.
    """

    index: int
    meld: Meld
    active: Flag
    kept: Flag
    stays: list[Flag]
    cover: dict[int, Flag] = field(default_factory=dict)
    begins: dict[int, cp_model.IntVar] = field(default_factory=dict)
    """For a run that may go on with some of its tiles: where its stretch begins."""
    added: dict[int, cp_model.IntVar] = field(default_factory=dict)
    added_jokers: cp_model.IntVar | int = 0
    joins: dict[int, Flag] = field(default_factory=dict)
    """For a run: the cover of each position where a tile may join it."""
    joining_jokers: dict[int, cp_model.IntVar] = field(default_factory=dict)
    """Under a binding ``max_jokers_per_set``: the jokers joining this run, by position."""


@dataclass
class JokerRun:
    """Runs holding jokers, under a binding ``max_jokers_per_set``: ``active`` of them,
    ``cover[c, p]`` of them cover position p in colour c, ``jokers[c, p]`` hold a joker
    there. A slot of :func:`add_joker_runs` is one run or none, with its own covers;
    a piece of :func:`add_joker_pieces` is a count, its covers and jokers that count
    on its places (0 where a numbered tile stands)."""

    active: cp_model.IntVar
    cover: dict[tuple[int, int], cp_model.IntVar] = field(default_factory=dict)
    jokers: dict[tuple[int, int], LinearExpr] = field(default_factory=dict)


@dataclass
class TurnModel:
    """A built model and handles on its variables (absent variables are 0)."""

    model: cp_model.CpModel
    rules: Rules
    rack: TileCounts
    table: TileCounts
    played: dict[Cell, cp_model.IntVar] = field(default_factory=dict)
    played_jokers: cp_model.IntVar | int = 0
    start: dict[Cell, cp_model.IntVar] = field(default_factory=dict)
    extend: dict[Cell, cp_model.IntVar] = field(default_factory=dict)
    run_jokers: dict[Cell, LinearExpr] = field(default_factory=dict)
    """Per cell: jokers in runs there (run_tiles itself where only jokers can be)."""
    joker_heads: dict[tuple[int, int, int], cp_model.IntVar] = field(default_factory=dict)
    groups: dict[int, cp_model.IntVar] = field(default_factory=dict)
    group_jokers: dict[int, cp_model.IntVar] = field(default_factory=dict)
    continuations: list[Continuation] = field(default_factory=list)
    continued: dict[Cell, list[LinearExpr]] = field(default_factory=dict)
    """Per cell: numbered tiles in continued sets there: staying, joining a group, or
    taking the place a joker left in a run."""
    joining: dict[Cell, list[LinearExpr]] = field(default_factory=dict)
    """Per cell: tiles (numbered or jokers) joining continued runs there."""
    joining_jokers: dict[Cell, cp_model.IntVar] = field(default_factory=dict)
    """Per cell: how many of the tiles joining continued runs there are jokers."""
    continued_jokers: list[LinearExpr] = field(default_factory=list)
    """Jokers in continued sets: staying, joining a run (see above) or a group, and
    jokers in the runs of :attr:`joker_runs`."""
    joker_runs: list[JokerRun] = field(default_factory=list)
    """Under a binding ``max_jokers_per_set``, the runs that hold jokers (the run flow
    then holds none): pieces of runs counted (see :func:`add_joker_pieces`) or, when
    ``joker_slots``, one slot a run (see :func:`add_joker_runs`)."""
    joker_slots: bool = False
    """Whether :attr:`joker_runs` are slots, one run each, rather than pieces."""
    objective: LinearExpr = 0
    goal: LinearExpr = 0
    """The score stage's goal: the score, then the jokers kept, then (points) the tiles
    played (see set_score_objective)."""
    goal_top: int = 0
    """The most the goal can be: every rack tile played, none kept."""
    tiles: LinearExpr = 0
    """Tiles played, jokers included."""
    fixed_tiles: int = 0
    """Tiles of the table sets fixed to go on whole: out of ``table`` and the counts."""
    fixed_jokers: int = 0
    """Jokers among the fixed sets' tiles: still in play for ``max_jokers_per_set``."""
    supply: dict[Cell, int] = field(init=False)
    """Per cell: numbered tiles that may end up on the table (the table's and the rack's)."""
    _run_tiles: dict[Cell, LinearExpr] = field(default_factory=dict)
    _group_naturals: dict[Cell, LinearExpr] = field(default_factory=dict)
    """Per-cell expressions, built once their variables all exist (see below)."""
    _group_limit: dict[int, int] = field(default_factory=dict)
    must_play: TileCounts = field(default_factory=lambda: TileCounts({}))
    """Rack tiles that must all be played (a repair's tiles laid down this turn)."""

    def __post_init__(self) -> None:
        self.supply = dict(self.table.naturals)
        for cell, count in self.rack.naturals.items():
            self.supply[cell] = self.supply.get(cell, 0) + count

    @property
    def jokers(self) -> int:
        """Jokers that may end up on the table: the table's and the rack's."""
        return self.table.jokers + self.rack.jokers

    @property
    def joker_runs_apart(self) -> bool:
        """Whether runs holding jokers are laid out one by one (:func:`add_joker_runs`):
        when ``max_jokers_per_set`` binds, as the run flow cannot count the jokers of
        each run. The fixed sets' jokers count: a joker may join a fixed set that
        holds one."""
        return self.rules.limits_jokers(self.jokers + self.fixed_jokers)

    @property
    def flow_jokers(self) -> int:
        """Jokers the run flow may hold: none when the runs holding jokers are apart."""
        return 0 if self.joker_runs_apart else self.jokers

    @property
    def jokers_make_a_set(self) -> bool:
        """Whether the jokers alone could make a set (at least L of them). Only then
        must the model say that every set holds a numbered tile, and runs where their
        first numbered tile is (see add_joker_headed_runs)."""
        return self.jokers >= self.rules.min_set_len

    def jokers_only(self, cell: Cell) -> bool:
        """Whether only jokers can stand at ``cell``: no numbered tile of it exists
        and no continued set holds or gains one there."""
        return not self.supply.get(cell) and cell not in self.joining and cell not in self.continued

    def groups_only(self, cell: Cell) -> bool:
        """Whether only groups can hold tiles of ``cell``: no run passes it and no
        continued set holds or gains one there (call once the runs exist)."""
        return (
            is_zero(self.run_tiles(cell))
            and cell not in self.continued
            and cell not in self.joining
        )

    def group_limit(self, number: int) -> int:
        """The most groups of ``number`` the tiles allow: each needs a numbered tile
        and L tiles in all."""
        limit = self._group_limit.get(number)
        if limit is None:
            rules = self.rules
            naturals = sum(self.supply.get((c, number), 0) for c in range(rules.colours))
            limit = min(naturals, (naturals + self.jokers) // rules.min_set_len)
            if rules.min_set_len > rules.max_group_len:
                limit = 0
            self._group_limit[number] = limit
        return limit

    def available(self, cell: Cell) -> int:
        """Numbered tiles of ``cell`` that may end up on the table."""
        return self.supply.get(cell, 0)

    def run_tiles(self, cell: Cell) -> LinearExpr:
        """Runs passing through ``cell``: those begun in the last L numbers, plus
        those extended into it (run_tiles[c,n] = sum_{k<L} start[c,n-k] + extend[c,n]).

        Call it only once the starts and extensions of the cell's colour exist: the
        expression is built once and kept.
        """
        expr = self._run_tiles.get(cell)
        if expr is None:
            colour, number = cell
            start = self.start
            cells = [
                (colour, self.rules.run_number(n))
                for n in range(number - self.rules.min_set_len + 1, number + 1)
            ]
            terms: list[LinearExpr] = [start[c] for c in cells if c in start]
            if cell in self.extend:
                terms.append(self.extend[cell])
            expr = self._run_tiles[cell] = total(terms)
        return expr

    def long_runs(self, cell: Cell) -> LinearExpr:
        """Runs through ``cell`` that are already at least L long there:
        long[c,n] = start[c,n-L+1] + extend[c,n]."""
        colour, number = cell
        terms: list[LinearExpr] = []
        first = (colour, self.rules.run_number(number - self.rules.min_set_len + 1))
        if first in self.start:
            terms.append(self.start[first])
        if cell in self.extend:
            terms.append(self.extend[cell])
        return total(terms)

    def run_naturals(self, cell: Cell) -> LinearExpr:
        return self.run_tiles(cell) - self.run_jokers.get(cell, 0)

    def continued_naturals(self, cell: Cell) -> LinearExpr:
        """Numbered tiles of ``cell`` in continued sets: staying, or joining a run or a group."""
        if cell not in self.continued and cell not in self.joining:
            return 0
        return total(
            [
                *self.continued.get(cell, []),
                *self.joining.get(cell, []),
                -self.joining_jokers.get(cell, 0),
            ]
        )

    def group_naturals(self, cell: Cell) -> LinearExpr:
        """Numbered tiles of ``cell`` neither in runs nor in continued sets are in
        groups (the tile balance). Built once, when every other use of the cell exists."""
        expr = self._group_naturals.get(cell)
        if expr is None:
            # One weighted sum rather than a chain of operators: built for every cell.
            terms = [
                self.played.get(cell, 0),
                self.run_jokers.get(cell, 0),
                self.run_tiles(cell),
                self.continued_naturals(cell),
            ]
            expr = cp_model.LinearExpr.weighted_sum(terms, (1, 1, -1, -1))
            if self.table[cell]:
                expr += self.table[cell]
            self._group_naturals[cell] = expr
        return expr

    def counts(self) -> dict[str, dict[Any, LinearExpr]]:
        """The counts (all but the continuations) by family and key: variables, and
        the run_jokers that are run_tiles themselves (see :func:`add_runs`)."""
        counts: dict[str, dict[Any, LinearExpr]] = {
            "played": dict(self.played),
            "start": dict(self.start),
            "extend": dict(self.extend),
            "run_jokers": dict(self.run_jokers),
            "joker_heads": dict(self.joker_heads),
            "groups": dict(self.groups),
            "group_jokers": dict(self.group_jokers),
        }
        if not isinstance(self.played_jokers, int):
            counts["played"]["J"] = self.played_jokers
        return counts

    def count_variables(self) -> dict[str, dict[Any, cp_model.IntVar]]:
        """The variables among :meth:`counts`."""
        return {
            family: {
                key: var
                for key, var in terms.items()
                if isinstance(var, cp_model.IntVar)
                and not (family == "run_jokers" and self.jokers_only(key))
            }
            for family, terms in self.counts().items()
        }

    def continuation_variables(self) -> list[cp_model.IntVar]:
        """Every variable that says how table sets continue."""
        found: list[Flag] = list(self.joining_jokers.values())
        for cont in self.continuations:
            found += [cont.active, cont.kept, *cont.stays, *cont.cover.values()]
            found += cont.begins.values()
            found += cont.added.values()
            found.append(cont.added_jokers)
        return [var for var in found if not isinstance(var, int)]

    def value_placed(self) -> LinearExpr:
        """Sum of the numbers that the tiles placed from the rack stand for."""
        # One weighted sum: a chain of products and additions costs 20x more.
        terms: list[LinearExpr] = [*self.played.values(), *self.run_jokers.values()]
        numbers = [n for _, n in self.played] + [n for _, n in self.run_jokers]
        terms += self.group_jokers.values()
        numbers += self.group_jokers
        for run in self.joker_runs:
            terms += run.jokers.values()
            numbers += [self.rules.run_number(p) for _, p in run.jokers]
        return cp_model.LinearExpr.weighted_sum(terms, numbers)


def build_model(
    rules: Rules,
    rack: TileCounts,
    table: TileCounts,
    objective: Objective,
    opening: bool,
    table_melds: tuple[Meld, ...] = (),
    whole: Collection[int] = (),
    must_play: TileCounts | None = None,
    fixed: Collection[int] = (),
    going_on: Collection[int] | None = None,
) -> TurnModel:
    """Build the model of a turn.

    With ``opening`` the table is left alone: pass an empty ``table`` and the
    rack's new sets must be worth at least ``rules.opening_threshold``.
    ``table_melds`` (the table as read, after opening) may continue into the new
    table; pass none to let the table be rebuilt from counts alone. The sets whose
    index is in ``whole`` go on whole or not at all, those in ``fixed`` go on whole
    for sure (see :func:`add_continuations`); with ``going_on``, only the sets whose
    index is in it go on, the tiles of the others are counted with the table.
    ``must_play`` (part of the rack) must all be played (see :func:`add_played`).
    """
    fixed_melds = [table_melds[i] for i in sorted(fixed)]
    kept_by_constraint: Collection[int] = ()
    rest = _without(table, fixed_melds)
    if rest is None:
        # A repair's reference sets may hold tiles that now lie elsewhere (off the
        # table, on the rack): those sets are kept by a constraint instead, the
        # same plays in a bigger model.
        whole, kept_by_constraint, fixed, fixed_melds = {*whole, *fixed}, fixed, (), []
        rest = table
    tm = TurnModel(CpModel(), rules, rack, rest)
    tm.fixed_tiles = sum(len(meld.tiles) for meld in fixed_melds)
    tm.fixed_jokers = sum(t.is_joker for meld in fixed_melds for t in meld.tiles)
    if must_play is not None:
        tm.must_play = must_play
    add_continuations(tm, table_melds, whole, fixed, going_on)
    for cont in tm.continuations:
        if cont.index in kept_by_constraint:
            tm.model.add(cont.kept == 1)
    if tm.joker_runs_apart:
        pieces = joker_pieces(tm)
        if pieces is None:
            tm.joker_slots = True
            add_joker_runs(tm)
        else:
            add_joker_pieces(tm, pieces)
        add_jokers_per_continued_set(tm)
    for colour in range(rules.colours):
        add_runs(tm, colour, objective)
    if tm.jokers_make_a_set and not tm.joker_runs_apart:
        for colour in range(rules.colours):
            add_joker_headed_runs(tm, colour)
    add_played(tm)
    for number in range(1, rules.numbers + 1):
        add_groups(tm, number)
    # Cells with no numbered tile have nothing to balance (see add_tile_balance).
    for cell in sorted(tm.supply.keys() | tm.continued.keys() | tm.joining.keys()):
        add_tile_balance(tm, cell)
    add_joker_balance(tm)
    if opening:
        add_opening_threshold(tm)
    set_score_objective(tm, objective)
    if rules.replace_jokers and not opening:
        add_joker_replacement(tm)
    return tm


def _without(table: TileCounts, melds: Sequence[Meld]) -> TileCounts | None:
    """``table`` less the tiles of ``melds``, or None when it lacks one of them."""
    naturals = dict(table.naturals)
    jokers = table.jokers
    for tile in (tile for meld in melds for tile in meld.tiles):
        if tile.colour is None:
            jokers -= 1
        else:
            cell = (tile.colour.index, tile.number)
            naturals[cell] = naturals.get(cell, 0) - 1
            if naturals[cell] < 0:
                return None
            if not naturals[cell]:
                del naturals[cell]
    return TileCounts(naturals, jokers) if jokers >= 0 else None


def add_played(tm: TurnModel) -> None:
    """must[c,n] <= played[c,n] <= rack[c,n]; must jokers <= played_jokers <= rack
    jokers (``must`` is :attr:`TurnModel.must_play`, usually nothing).

    A rack tile that no run, group or continued set can hold is not played: it
    gets no variable (call this once the runs and continuations exist), unless it
    must be (then the tile balance finds no place for it: infeasible)."""
    must = tm.must_play
    for cell, count in sorted(tm.rack.naturals.items()):
        if tm.groups_only(cell) and tm.group_limit(cell[1]) == 0 and not must[cell]:
            continue
        tm.played[cell] = tm.model.new_int_var(must[cell], count, f"play_{cell[0]}_{cell[1]}")
    if tm.rack.jokers:
        tm.played_jokers = tm.model.new_int_var(must.jokers, tm.rack.jokers, "play_J")


def add_continuations(
    tm: TurnModel,
    melds: tuple[Meld, ...],
    whole: Collection[int] = (),
    fixed: Collection[int] = (),
    going_on: Collection[int] | None = None,
) -> None:
    """Let each table set continue as one set of the new table: the sets whose
    index is in ``whole`` go on whole or not at all (:func:`add_whole_continuation`),
    those in ``fixed`` go on whole (:func:`add_fixed_continuation`), the others with
    any of their tiles (:func:`add_partial_continuation`); with ``going_on``, only the
    sets whose index is in it (the tiles of the others are counted with the table).

    Of two table sets alike (same tiles, same reading) the first is kept whenever
    the second is, kept[i] >= kept[j] for i < j: a play keeping only the second is
    the same play with the two swapped.

    Under ``joker_retrieval: "replace"`` a set holding a joker always goes on in
    part (see :func:`add_joker_replacement`).
    """
    first_alike: dict[Meld, Continuation] = {}
    for index, meld in enumerate(melds):
        if going_on is not None and index not in going_on:
            continue
        if index in fixed:
            cont = add_fixed_continuation(tm, index, meld)
        # A joker held in place goes on with its set: the set goes on in part.
        elif index in whole and not (tm.rules.replace_jokers and meld.jokers):
            cont = add_whole_continuation(tm, index, meld)
        else:
            cont = add_partial_continuation(tm, index, meld)
        tm.continuations.append(cont)
        alike = first_alike.setdefault(meld, cont)
        if alike is not cont:
            tm.model.add(alike.kept >= cont.kept)
    _add_joining_jokers(tm)


def add_partial_continuation(tm: TurnModel, index: int, meld: Meld) -> Continuation:
    """Table set ``index`` may go on with some of its tiles: kept <= stays[i] for each
    tile i, sum stays - kept <= tiles - 1 (kept means every tile stays),
    stays[i] <= active, and at least one numbered tile stays in an active
    continuation (so it is never a set of jokers alone)."""
    model = tm.model
    active = model.new_bool_var(f"cont_{index}")
    kept = model.new_bool_var(f"kept_{index}")
    stays: list[Flag] = [model.new_bool_var(f"stays_{index}_{i}") for i in range(len(meld.tiles))]
    cont = Continuation(index, meld, active, kept, stays)
    for tile, stay in zip(meld.tiles, stays, strict=True):
        model.add(kept <= stay)
        model.add(stay <= active)
        if tile.is_joker:
            tm.continued_jokers.append(stay)
        else:
            assert tile.colour is not None
            tm.continued.setdefault((tile.colour.index, tile.number), []).append(stay)
    model.add(total(stays) - kept <= len(stays) - 1)
    naturals = [s for t, s in zip(meld.tiles, stays, strict=True) if not t.is_joker]
    model.add(total(naturals) >= active)
    if meld.kind is MeldKind.RUN:
        add_run_continuation(tm, cont)
    else:
        add_group_continuation(tm, cont)
    return cont


def add_whole_continuation(tm: TurnModel, index: int, meld: Meld) -> Continuation:
    """Table set ``index`` goes on whole or gives all its tiles up: one variable,
    kept = active = stays[i] for every tile. A kept run may grow at its ends (a
    covered number beyond the old ones holds a joining tile: cover[n] <= cover[n+1]
    below them, cover[n] <= cover[n-1] above them, cover <= kept); a kept group may
    gain numbered tiles of the colours it lacks and jokers:
    sum added + added_jokers <= (colours - size) * kept.

    The lean form for the question which sets can be kept whole: a set not kept
    holds nothing, its tiles are free for any set.
    """
    kept = tm.model.new_bool_var(f"kept_{index}")
    cont = Continuation(index, meld, kept, kept, [kept] * len(meld.tiles))
    for tile in meld.tiles:
        if tile.is_joker:
            tm.continued_jokers.append(kept)
        else:
            assert tile.colour is not None
            tm.continued.setdefault((tile.colour.index, tile.number), []).append(kept)
    if meld.kind is MeldKind.RUN:
        _grow_run(tm, cont)
    else:
        _grow_group(tm, cont)
    return cont


def add_fixed_continuation(tm: TurnModel, index: int, meld: Meld) -> Continuation:
    """Table set ``index`` goes on whole: kept = active = stays[i] = 1, constants. Its
    tiles are out of the table's counts (build_model takes them off), so they are in
    no other set; it may grow as in :func:`add_whole_continuation` with kept = 1.

    The same plays as a whole continuation with kept = 1, in a model only as big as
    what may change: no count variable for the cells only this set's tiles fill.
    """
    cont = Continuation(index, meld, 1, 1, [1] * len(meld.tiles))
    if meld.kind is MeldKind.RUN:
        _grow_run(tm, cont)
    else:
        _grow_group(tm, cont)
    return cont


def _grow_run(tm: TurnModel, cont: Continuation) -> None:
    first = cont.meld.stands_for[0]
    assert first.colour is not None
    colour = first.colour.index
    old = range(first.number, first.number + len(cont.meld.tiles))
    low, high = _run_reach(tm, colour, old.start, old.stop - 1)
    for number in old:
        cont.cover[number] = cont.kept
    for numbers, step in ((range(old.start - 1, low - 1, -1), 1), (range(old.stop, high + 1), -1)):
        for number in numbers:
            cover = tm.model.new_bool_var(f"cover_{cont.index}_{number}")
            tm.model.add(cover <= cont.cover[number + step])
            cont.cover[number] = cover
            cont.joins[number] = cover
            tm.joining.setdefault((colour, tm.rules.run_number(number)), []).append(cover)
    cont.cover = dict(sorted(cont.cover.items()))
    _at_most_every_number(tm, cont)


def _grow_group(tm: TurnModel, cont: Continuation) -> None:
    model, rules = tm.model, tm.rules
    number = cont.meld.stands_for[0].number
    room = rules.max_group_len - len(cont.meld.tiles)
    if room <= 0:
        return
    present = {t.colour.index for t in cont.meld.tiles if t.colour is not None}
    added: list[LinearExpr] = []
    for colour in range(rules.colours):
        if colour in present or tm.available((colour, number)) == 0:
            continue
        var = model.new_bool_var(f"added_{cont.index}_{colour}")
        cont.added[colour] = var
        tm.continued.setdefault((colour, number), []).append(var)
        added.append(var)
    if tm.jokers:
        cont.added_jokers = model.new_int_var(0, min(tm.jokers, room), f"added_J_{cont.index}")
        tm.continued_jokers.append(cont.added_jokers)
        added.append(cont.added_jokers)
    if added:
        model.add(total(added) <= room * cont.kept)


def _run_reach(tm: TurnModel, colour: int, low: int, high: int) -> tuple[int, int]:
    """How far a run of ``colour`` over positions ``low..high`` may grow: over
    neighbouring numbers while tiles could fill them (a numbered tile, or one joker
    each). A position is a number, or under ``wrap_runs`` one taken round (14 is 1 in
    a game of 13 numbers: :meth:`~solver.rummikub.rules.Rules.run_number`); the run
    then grows at most to N = numbers positions on either side of its old ones."""
    rules = tm.rules
    # A stretch of at most N positions that holds one of the old ones.
    lowest, highest = (low - rules.numbers + 1, high + rules.numbers - 1)
    if not rules.wrap_runs:
        lowest, highest = 1, rules.numbers

    def tiles(position: int) -> int:
        return tm.available((colour, rules.run_number(position)))

    jokers_left = tm.jokers
    while low > lowest and (tiles(low - 1) or jokers_left):
        jokers_left -= not tiles(low - 1)
        low -= 1
    jokers_left = tm.jokers
    while high < highest and (tiles(high + 1) or jokers_left):
        jokers_left -= not tiles(high + 1)
        high += 1
    return low, high


def _add_joining_jokers(tm: TurnModel) -> None:
    """joining_J[c,n] <= tiles joining continued runs at (c,n): how many of them are jokers."""
    if not tm.jokers:
        return
    if tm.joker_runs_apart:
        _add_joining_jokers_by_run(tm)
        return
    for cell, joining in tm.joining.items():
        jokers = tm.model.new_int_var(0, min(tm.jokers, len(joining)), f"joining_J_{cell}")
        tm.model.add(jokers <= total(joining))
        tm.joining_jokers[cell] = jokers
        tm.continued_jokers.append(jokers)


def _add_joining_jokers_by_run(tm: TurnModel) -> None:
    """joining_J[k,p] <= cover[k,p] for each continued run k and position p where a tile
    may join it, and joining_J[c,n] = sum of those at (c,n): the jokers each run gains,
    so that :func:`add_jokers_per_continued_set` can count them."""
    by_cell: dict[Cell, list[cp_model.IntVar]] = {}
    for cont in tm.continuations:
        colour = cont.meld.stands_for[0].colour
        assert colour is not None
        for position, cover in cont.joins.items():
            joker = tm.model.new_bool_var(f"joining_J_{cont.index}_{position}")
            tm.model.add(joker <= cover)
            cont.joining_jokers[position] = joker
            cell = (colour.index, tm.rules.run_number(position))
            by_cell.setdefault(cell, []).append(joker)
    for cell, jokers in by_cell.items():
        var = tm.model.new_int_var(0, len(jokers), f"joining_J_{cell}")
        tm.model.add(var == sum(jokers))
        tm.joining_jokers[cell] = var
        tm.continued_jokers.append(var)


def add_run_continuation(tm: TurnModel, cont: Continuation) -> None:
    """A continued run covers one stretch of numbers holding every tile that stays:
    stays[i] <= cover[n_i]; begins[n] >= cover[n] - cover[n-1]; sum begins = active;
    sum cover >= L * active. A covered number beyond the old ones holds a joining
    tile: joining[c,n] += cover[n]. Where an old tile leaves a covered number, a
    joker takes the place of a numbered tile and a numbered tile of the cell that of
    a joker (cover[n] - stays counts among the jokers, or the cell's tiles, in
    continued sets): a tile like the one that left would be the same play with that
    tile staying, which is never worse.

    A row a position and a domain, true of every play, tighten the LP: a run
    beginning at one of the L positions up to n covers n, cover[n] >= sum
    begins[n-L+1..n] (at most one begins is 1), and none begins in the last L-1
    positions of its reach (begins is 0 there). Without them the LP lets a stretch
    too short to be a run mix with a long one whose surplus makes up the length (O5
    O6 O7 going on as O5 O6 in part, O5..O11 in part), and step 2 of the
    least-disruption stage, which leaves the most tiles in place, needs many more
    conflicts to rule such mixes out (t60-r14#15: 100 against 33).
    On the 279 step-2 searches of the 561 committed positions with a table after
    opening (tiles, each solved at the defaults, one-off script): 1.195 -> 0.910 s
    of deterministic work (0.76x), the ten dearest 0.400 -> 0.156 s (t60-r14#15
    0.127 -> 0.043, t40-r30#16 0.063 -> 0.037, mid-t40-60#17 0.060 -> 0.020),
    median of the per-search ratios 1.00. The default solve against the one without
    them: the same score, sets kept, tiles moved and proofs on all 1,320 answers
    (660 positions, tiles and points), its median 0.97 and p95 0.97 times as long
    (tiles, interleaved), the 20 slowest 0.91-0.92 times the CPU (benchmarks/RESULTS.md,
    Issue 14t).
    """
    model, rules = tm.model, tm.rules
    first = cont.meld.stands_for[0]
    assert first.colour is not None
    colour = first.colour.index
    low, high = _run_reach(tm, colour, first.number, first.number + len(cont.meld.tiles) - 1)
    old = {
        meant.number: (tile, stay)
        for tile, meant, stay in zip(cont.meld.tiles, cont.meld.stands_for, cont.stays, strict=True)
    }
    length = rules.min_set_len
    previous: LinearExpr = 0
    for position in range(low, high + 1):
        cover = model.new_bool_var(f"cover_{cont.index}_{position}")
        cont.cover[position] = cover
        model.add(cover <= cont.active)
        room = int(position + length - 1 <= high)  # can a run begin here?
        begin = model.new_int_var(0, room, f"begins_{cont.index}_{position}")
        model.add(begin >= cover - previous)
        cont.begins[position] = begin
        previous = cover
        cell = (colour, rules.run_number(position))
        if cell[1] not in old:
            cont.joins[position] = cover
            tm.joining.setdefault(cell, []).append(cover)
    for number, (tile, stay) in old.items():
        # The old tile's place: its number at whichever position the stretch has it.
        here = covers(tm, cont, number)
        model.add(stay <= here)
        if tile.is_joker:
            tm.continued.setdefault((colour, number), []).append(here - stay)
        else:
            tm.continued_jokers.append(here - stay)
    model.add(total(list(cont.begins.values())) == cont.active)
    model.add(total(list(cont.cover.values())) >= length * cont.active)
    for position, covered in cont.cover.items():
        starts = range(position - length + 1, position + 1)
        model.add(covered >= total([cont.begins[p] for p in starts if p in cont.begins]))
    _at_most_every_number(tm, cont)


def covers(tm: TurnModel, cont: Continuation, number: int) -> LinearExpr:
    """Whether a continued run covers ``number``: its cover at the positions showing
    that number (one position, or under ``wrap_runs`` up to three of which the
    stretch holds at most one)."""
    return total([c for p, c in cont.cover.items() if tm.rules.run_number(p) == number])


def _at_most_every_number(tm: TurnModel, cont: Continuation) -> None:
    """Under ``wrap_runs`` a continued run's stretch (over positions, see
    :func:`_run_reach`) covers at most N = numbers of them: sum cover <= N, so no
    number twice."""
    if tm.rules.wrap_runs and len(cont.cover) > tm.rules.numbers:
        tm.model.add(total(list(cont.cover.values())) <= tm.rules.numbers)


def add_group_continuation(tm: TurnModel, cont: Continuation) -> None:
    """A continued group keeps the tiles that stay and gains numbered tiles of the
    colours it lacks and jokers; L * active <= stays + added + added_jokers <=
    colours * active. No tile like one that left joins (a numbered tile of an old
    colour, or a joker while an old joker leaves): that play is the same with the
    tile staying. Nor does a joker join in place of a numbered tile that left, unless
    the jokers alone could make a set or ``max_jokers_per_set`` binds: the two could
    swap places (the joker standing for that tile where it went), keeping the tile in
    the group; with L jokers or more that could leave a set of jokers alone, and under
    a binding joker limit the set the tile went to may already hold its most jokers
    (R1 leaving R1 B1 K1 O1 for R1 R2 J, a rack joker taking its place, at most one
    joker a set), so a joker may then take any free place."""
    model, rules = tm.model, tm.rules
    number = cont.meld.stands_for[0].number
    size: list[LinearExpr] = list(cont.stays)
    present = {t.colour.index for t in cont.meld.tiles if t.colour is not None}
    for colour in range(rules.colours):
        if colour in present or tm.available((colour, number)) == 0:
            continue
        added = model.new_bool_var(f"added_{cont.index}_{colour}")
        model.add(added <= cont.active)
        cont.added[colour] = added
        tm.continued.setdefault((colour, number), []).append(added)
        size.append(added)
    naturals = sum(not t.is_joker for t in cont.meld.tiles)
    # A continued group keeps a numbered tile (see add_continuations).
    room = rules.max_group_len - (1 if tm.jokers_make_a_set or tm.joker_runs_apart else naturals)
    if tm.jokers and room > 0:
        cont.added_jokers = model.new_int_var(0, min(tm.jokers, room), f"added_J_{cont.index}")
        for tile, stay in zip(cont.meld.tiles, cont.stays, strict=True):
            if tile.is_joker:
                model.add(cont.added_jokers <= room * stay)
        tm.continued_jokers.append(cont.added_jokers)
        size.append(cont.added_jokers)
    held = total(size)
    model.add(held >= rules.min_set_len * cont.active)
    model.add(held <= rules.max_group_len * cont.active)


def add_runs(tm: TurnModel, colour: int, objective: Objective) -> None:
    """Runs of one colour as a flow over numbers.

    start[c,n] <= fewest tiles available over n..n+L-1 (a run needs all of them);
    extend[c,n] <= long[c,n-1]: only runs already L long may stop, so the others
    go on by construction of run_tiles (and none goes on over more gaps in
    n-L..n than there are jokers); 0 <= run_jokers[c,n] <= run_tiles[c,n],
    and run_jokers[c,n] = run_tiles[c,n] where no numbered tile (c,n) exists.

    With fewer than L jokers in play and no table set continued, the bound
    run_jokers <= run_tiles is left out: the jokers beyond the runs go to the
    groups of n as members of colour c (the tile balance counts them there), which
    is as good as a group joker. No set can then be all jokers, so any solution
    still lays out (:func:`~solver.rummikub.layout.lay_out_groups`); it is a row
    less per cell. Two kinds of play are then left out too, since every play that
    uses them can be rearranged into one as good that does not:

    * a run opening with a joker at a number with no numbered tile, unless it can
      reach the top number: the joker can move to the run's other end;
    * a joker in a run at a cell with numbered tiles, unless more runs than there
      are such tiles may pass there (see :func:`_runs_through`), or the rack holds
      one that may not take the joker's place. Else a tile of the cell is in a
      group, where it can swap places with the joker, or on the rack, where in
      tiles mode it can take the joker's place if the joker goes back to the rack
      (one joker more kept). That needs the joker to come from the rack: sure only
      when the table holds no joker, as a table joker must stay on the table, and no
      joker must be played (:attr:`TurnModel.must_play`).
    """
    rules, model, jokers = tm.rules, tm.model, tm.flow_jokers
    size = rules.min_set_len
    supply = [tm.supply.get((colour, n), 0) for n in range(rules.numbers + 2)]
    if not jokers and sum(supply) < size:
        return  # not enough tiles of this colour for a run
    if rules.wrap_runs:
        add_wrapped_runs(tm, colour)
        return
    capacity = [count + jokers for count in supply]
    bounded = tm.jokers_make_a_set or bool(tm.continuations)
    for number in range(1, rules.numbers - size + 2):
        window = supply[number : number + size]
        # Each number of the window without a numbered tile needs a joker of its own.
        if window.count(0) > jokers:
            continue
        if not (bounded or supply[number]) and supply[number : rules.numbers + 1].count(0) > jokers:
            continue  # opens with a joker and cannot reach the top number
        upper = min(window) + jokers
        tm.start[colour, number] = model.new_int_var(0, upper, f"start_{colour}_{number}")
    for number in range(size + 1, rules.numbers + 1):
        # A run going on to n covers n-L..n at least: a joker for each gap there.
        if supply[number - size : number + 1].count(0) > jokers:
            continue
        previous = tm.long_runs((colour, number - 1))
        if not is_zero(previous):
            var = model.new_int_var(0, capacity[number], f"extend_{colour}_{number}")
            tm.extend[colour, number] = var
            model.add(var <= previous)
    add_run_jokers(tm, colour, objective, bounded, supply)


def add_run_jokers(
    tm: TurnModel, colour: int, objective: Objective, bounded: bool, supply: list[int]
) -> None:
    """0 <= run_jokers[c,n] <= run_tiles[c,n] (the bound left out where ``bounded`` is
    false, see :func:`add_runs`), and run_jokers[c,n] = run_tiles[c,n] where no
    numbered tile (c,n) exists."""
    rules, model, jokers = tm.rules, tm.model, tm.flow_jokers
    size = rules.min_set_len
    capacity = [count + jokers for count in supply]
    if not jokers:
        return
    # A rack tile may take a joker's place only if the joker may go back to the rack:
    # not a table joker, nor one that must be played.
    rack_swaps = objective is Objective.TILES and not tm.table.jokers and not tm.must_play.jokers
    for number in range(1, rules.numbers + 1):
        cell = (colour, number)
        tiles = tm.run_tiles(cell)
        if is_zero(tiles):
            continue
        if tm.jokers_only(cell):
            tm.run_jokers[cell] = tiles
            continue
        swappable = not bounded and (rack_swaps or not tm.rack[cell])
        if swappable and _runs_through(supply, number, size, jokers) <= supply[number]:
            continue
        var = model.new_int_var(0, min(jokers, capacity[number]), f"run_jokers_{colour}_{number}")
        tm.run_jokers[cell] = var
        if bounded:
            model.add(var <= tiles)


def add_wrapped_runs(tm: TurnModel, colour: int) -> None:
    """Runs of one colour under ``wrap_runs``: the flow of :func:`add_runs` on the
    numbers taken round (after the top number N comes 1), with every index below read
    round too:

      run_tiles[c,n] = sum_{k<L} start[c,n-k] + extend[c,n],
      extend[c,n] <= long[c,n-1] = start[c,n-L] + extend[c,n-1],
      extend[c,n] <= sum_{L <= k <= N-1} start[c,n-k]   (a run holds at most N tiles).

    The last row makes the flow exact. Lay the runs out round and round, the runs that
    go on always the youngest ones (begun last): then the runs through n that are more
    than L long are the extend[c,n] youngest of those begun at n-L or before, so they
    all began at n-N+1 or later by the last row, and no run is longer than N. Without
    it, runs could go on round for ever (extend = k everywhere with no start). Each
    run is then a stretch of L..N numbers taken round; a run of all N numbers may begin
    anywhere, as every start reads the same tiles.

    The jokers are bounded as in :func:`add_runs` with a table set continued (the
    shortcuts there follow the numbers in a line).
    """
    rules, model, jokers = tm.rules, tm.model, tm.flow_jokers
    size, top = rules.min_set_len, rules.numbers
    supply = [tm.supply.get((colour, n), 0) for n in range(top + 2)]

    def window(last: int, length: int) -> list[int]:
        """The colour's numbered tiles at the ``length`` numbers up to ``last``, round."""
        return [supply[rules.run_number(n)] for n in range(last - length + 1, last + 1)]

    for number in rules.run_starts(size):
        # Each number of the run's first L without a numbered tile needs a joker of its own.
        tiles = window(number + size - 1, size)
        if tiles.count(0) <= jokers:
            upper = min(tiles) + jokers
            tm.start[colour, number] = model.new_int_var(0, upper, f"start_{colour}_{number}")
    if size < top:
        for number in range(1, top + 1):
            if window(number, size + 1).count(0) <= jokers:
                tm.extend[colour, number] = model.new_int_var(
                    0, supply[number] + jokers, f"extend_{colour}_{number}"
                )
    for (c, number), var in list(tm.extend.items()):
        if c != colour:
            continue
        model.add(var <= tm.long_runs((colour, rules.run_number(number - 1))))
        began = [
            tm.start[cell]
            for k in range(size, top)
            if (cell := (colour, rules.run_number(number - k))) in tm.start
        ]
        model.add(var <= total(began))
    add_run_count(tm, colour, supply)
    add_run_jokers(tm, colour, Objective.TILES, True, supply)


def add_run_count(tm: TurnModel, colour: int, supply: list[int]) -> None:
    """runs[c] = sum_n start[c,n] <= (numbered tiles of c + jokers) // L: each run holds
    at least L tiles, each a numbered tile of its colour or a joker.

    The LP relaxation implies the bound, but the cyclic flow of :func:`add_wrapped_runs`
    leaves fractional run counts that CP-SAT's branching does not close: e.g. four full
    runs on 7 numbers (one copy, L = 5) and one more tile stayed unproven after 20 s.
    As a variable with this domain it settles that at the root."""
    starts = [var for (c, _), var in tm.start.items() if c == colour]
    if starts:
        most = (sum(supply) + tm.flow_jokers) // tm.rules.min_set_len
        tm.model.add(tm.model.new_int_var(0, most, f"runs_{colour}") == total(starts))


def _runs_through(supply: list[int], number: int, size: int, jokers: int) -> int:
    """At most how many runs of a colour pass ``number`` while one of them holds a
    joker there (``supply[n]``: the colour's numbered tiles at n).

    Each such run holds a tile at n-1, or begins at n and holds one at every number
    up to n+L-1: at most supply[n-1] + min(supply[n+1..n+L-1]) runs, and one more
    for each of the other J-1 jokers. The same holds mirrored."""
    after = supply[number - 1] + min(supply[number + 1 : number + size])
    before = supply[number + 1] + min(supply[max(0, number - size + 1) : number])
    return min(after, before) + jokers - 1


def add_joker_headed_runs(tm: TurnModel, colour: int) -> None:
    """Every run holds a numbered tile, even when the jokers could fill one alone.

    head[c,n,d] of the runs started at n open with d jokers and have their first
    numbered tile at n+d. Then, per cell:
      run naturals >= (start - sum_d head[c,n,d]) + sum_d head[c,n-d,d]
      run_jokers   >= sum_d sum_{k<d} head[c,n-k,d]
    and a run whose first numbered tile comes after it is L long must not stop
    before it: extend[c,m] >= sum of head[c,n,d] with n+L <= m <= n+d.
    """
    rules, model = tm.rules, tm.model
    size = rules.min_set_len
    for (c, start_at), start in tm.start.items():
        if c != colour:
            continue
        heads = []
        for lead in range(1, tm.jokers + 1):
            # The first numbered tile is in the run: at most N-1 places after its start,
            # and at most the top number unless the run may go round.
            if lead >= rules.numbers or (start_at + lead > rules.numbers and not rules.wrap_runs):
                break
            var = model.new_int_var(0, tm.jokers // lead, f"head_{colour}_{start_at}_{lead}")
            tm.joker_heads[colour, start_at, lead] = var
            heads.append(var)
        model.add(total(heads) <= start)
    for number in range(1, rules.numbers + 1):
        cell = (colour, number)
        natural_needed: list[LinearExpr] = []
        joker_needed: list[LinearExpr] = []
        must_extend: list[LinearExpr] = []
        if cell in tm.start:
            natural_needed.append(tm.start[cell])
        for (c, start_at, lead), var in tm.joker_heads.items():
            if c != colour:
                continue
            # How far the cell lies after the run's start (round, under wrap_runs).
            after = (number - start_at) % rules.numbers if rules.wrap_runs else number - start_at
            if after == 0:
                natural_needed.append(-var)
            if after == lead:
                natural_needed.append(var)
            if 0 <= after < lead:
                joker_needed.append(var)
            if size <= after <= lead:
                must_extend.append(var)
        if natural_needed:
            model.add(tm.run_naturals(cell) >= total(natural_needed))
        if joker_needed:
            model.add(tm.run_jokers.get(cell, 0) >= total(joker_needed))
        if must_extend:
            model.add(tm.extend.get(cell, 0) >= total(must_extend))


def add_groups(tm: TurnModel, number: int) -> None:
    """Groups of one number, from counts alone.

    With G groups holding A numbered tiles (a_c of colour c) and j jokers, the
    tiles can be dealt into G groups of distinct colours, each with a numbered
    tile and L..colours tiles, exactly when
      a_c <= G,   G <= A,   L*G <= A + j <= colours*G
    (deal the numbered tiles round-robin by colour, then top up with jokers).
    Rows that the others imply are left out: with fewer than L jokers in play,
    G <= A (for G >= 1, A >= L*G - j >= L*G - (L-1) >= G); with no joker,
    A <= colours*G (each a_c <= G).
    """
    rules, model = tm.rules, tm.model
    upper = tm.group_limit(number)
    if upper == 0:
        return
    groups = model.new_int_var(0, upper, f"groups_{number}")
    tm.groups[number] = groups
    held = total(
        [
            tm.group_naturals((c, number))
            for c in range(rules.colours)
            if not tm.jokers_only((c, number))
        ]
    )
    size: LinearExpr = held
    if tm.jokers:
        jokers = model.new_int_var(0, tm.jokers, f"group_jokers_{number}")
        tm.group_jokers[number] = jokers
        size = held + jokers
    if tm.jokers_make_a_set:
        model.add(groups <= held)
    model.add(size >= rules.min_set_len * groups)
    if tm.jokers:
        model.add(size <= rules.max_group_len * groups)
    if tm.jokers and tm.joker_runs_apart:
        # At most M jokers a group: dealt evenly, the groups can hold
        # sum_i min(M, colours - a_i) = min(M*G, colours*G - A) of them. (With every
        # joker in a set fixed whole, the limit binds there but no new group has one.)
        model.add(tm.group_jokers[number] <= rules.max_jokers_per_set * groups)


def add_tile_balance(tm: TurnModel, cell: Cell) -> None:
    """Every numbered tile on the table after the turn is in a run, a group or a
    continued set: run naturals + group naturals + continued naturals
    = table[c,n] + played[c,n], with 0 <= group naturals <= groups[n] (one tile of a
    colour per group)."""
    if tm.jokers_only(cell):
        return  # nothing to balance: run_jokers = run_tiles there
    groups_only = tm.groups_only(cell)
    if groups_only and cell not in tm.played and tm.table[cell] == 0:
        return  # a rack tile nothing can hold, left on the rack
    in_groups = tm.group_naturals(cell)
    groups = tm.groups.get(cell[1])
    if groups is None:
        tm.model.add(in_groups == 0)
        return
    if not groups_only:
        tm.model.add(in_groups >= 0)  # else it is table + played, never negative
    tm.model.add(in_groups <= groups)


def add_joker_balance(tm: TurnModel) -> None:
    """Every joker on the table after the turn stands in somewhere:
    sum run_jokers + sum group_jokers + continued jokers = table jokers + played jokers."""
    placed = [*tm.run_jokers.values(), *tm.group_jokers.values(), *tm.continued_jokers]
    if not placed and isinstance(tm.played_jokers, int) and not tm.table.jokers:
        return  # no joker anywhere
    # With no place for a joker this says that none is played, and that the table
    # has none: a table joker never vanishes (the table as it is always has places
    # for its jokers, so that would be a bug in the model, reported as infeasible).
    tm.model.add(total(placed) - tm.played_jokers == tm.table.jokers)


def add_opening_threshold(tm: TurnModel) -> None:
    """An opening play is worth at least the threshold, each joker counting as the
    tile it stands for: sum n*played[c,n] + sum n*(jokers standing at n) >= threshold."""
    tm.model.add(tm.value_placed() >= tm.rules.opening_threshold)


def set_score_objective(tm: TurnModel, objective: Objective) -> None:
    """Maximise the score, then (lexicographically) the jokers kept on the rack, then
    (in points mode) the tiles played:
    tiles:  goal = (rack jokers + 1) * score - played_jokers, score = tiles played;
    points: goal = ((rack jokers + 1) * score - played_jokers) * (rack tiles + 1) + tiles,
            score = sum n*played[c,n] + joker_penalty*played_jokers,
    where tiles = sum played + played_jokers."""
    played = [*tm.played.values(), tm.played_jokers]
    jokers = tm.rack.jokers
    rack_tiles = sum(tm.rack.naturals.values()) + jokers
    tm.tiles = total(played)
    if objective is Objective.TILES:
        tm.objective = tm.tiles
        tm.goal = (jokers + 1) * tm.objective - tm.played_jokers
        tm.goal_top = (jokers + 1) * rack_tiles
    else:
        values = [n for _, n in tm.played] + [tm.rules.joker_penalty]
        tm.objective = cp_model.LinearExpr.weighted_sum(played, values)
        best = sum(n * c for (_, n), c in tm.rack.naturals.items())
        best += tm.rules.joker_penalty * jokers
        kept = (jokers + 1) * tm.objective - tm.played_jokers
        tm.goal = (rack_tiles + 1) * kept + tm.tiles
        tm.goal_top = (rack_tiles + 1) * (jokers + 1) * best + rack_tiles
    maximize(tm.model, tm.goal)


def fix_score(tm: TurnModel, score: int, played_jokers: int, tiles: int) -> None:
    """Only plays as good as the best one found: objective = score, played_jokers =
    jokers and, in points mode, tiles played = tiles (the score stage's optimum, see
    :func:`set_score_objective`)."""
    tm.model.add(tm.objective == score)
    tm.model.add(tm.played_jokers == played_jokers)
    if tm.tiles is not tm.objective:
        tm.model.add(tm.tiles == tiles)


def table_sets(tm: TurnModel) -> LinearExpr:
    """Sets on the table after the turn: continued sets + runs begun + groups."""
    return total(
        [c.active for c in tm.continuations]
        + [run.active for run in tm.joker_runs]
        + [*tm.start.values(), *tm.groups.values()]
    )


@dataclass(frozen=True, slots=True)
class Levels:
    """Goals maximised in order, each from 0 to its top, then the fewest sets on the
    table (0 to ``most``), as one weighted goal: sum weights[i] * goals[i] - sets,
    where the last goal weighs 2 * most + 1 and each other one its successor's weight
    times (its successor's top + 1).

    A search may stop once its bound is within ``most`` of its best solution (CP-SAT's
    absolute gap limit): every goal is then proven best (:meth:`proven`), and the sets
    are the fewest the search met, not always the fewest there are.
    """

    goals: tuple[LinearExpr, ...]
    weights: tuple[int, ...]
    most: int

    def proven(self, values: Sequence[int], bound: float) -> int:
        """How many goals, first ones first, are proven best at ``values`` given the
        search's ``bound``: a solution as good on the goals before goal i and better on
        goal i scores at least sum(weights[j] * values[j], j < i) +
        weights[i] * (values[i] + 1) - most."""
        before = 0
        for i, (weight, value) in enumerate(zip(self.weights, values, strict=True)):
            if bound >= before + weight * (value + 1) - self.most:
                return i
            before += weight * value
        return len(self.weights)


def set_kept_objective(tm: TurnModel, score_first: bool = False) -> Levels:
    """Maximise the table sets kept whole (sum kept), then the fewest sets; with
    ``score_first``, the score stage's goal (:attr:`TurnModel.goal`) before them."""
    kept = (total([c.kept for c in tm.continuations]), len(tm.continuations))
    return _set_levels(tm, [(tm.goal, tm.goal_top), kept] if score_first else [kept])


def set_stays_objective(tm: TurnModel) -> Levels:
    """Maximise the table tiles that stay in the set carrying their old one on
    (sum stays), then the fewest sets."""
    stays = [s for c in tm.continuations for s in c.stays]
    return _set_levels(tm, [(total(stays), len(stays))])


def _set_levels(tm: TurnModel, goals: list[tuple[LinearExpr, int]]) -> Levels:
    """Set the goal of :class:`Levels` for ``goals`` (each with its top)."""
    tiles = sum(tm.table.naturals.values()) + tm.jokers + sum(tm.rack.naturals.values())
    most = (tiles + tm.fixed_tiles) // tm.rules.min_set_len
    weights = [2 * most + 1]
    for _, top in reversed(goals[1:]):
        weights.insert(0, weights[0] * (top + 1))
    levels = Levels(tuple(goal for goal, _ in goals), tuple(weights), most)
    terms = [*levels.goals, table_sets(tm)]
    maximize(tm.model, cp_model.LinearExpr.weighted_sum(terms, [*levels.weights, -1]))
    return levels


def add_joker_replacement(tm: TurnModel) -> None:
    """A table joker leaves its set only for the tile it stands for, in a turn that
    places a rack tile (``joker_retrieval: "replace"``).

    Each table set holding a joker goes on in part (never "whole or not at all",
    see :func:`~solver.rummikub.model.add_continuations`): active = 1. In a run, the
    number each joker stands for stays covered, cover[n_j] = 1: a joker that leaves
    (stays_j = 0) then has the numbered tile (c, n_j) in its place (cover - stays
    counts among that cell's tiles in continued sets, see
    :func:`add_run_continuation`). In a group, the jokers that
    leave are at most the numbered tiles that join it, each of a colour the group
    lacked: sum_j (1 - stays_j) <= sum_c added[c]. And a joker leaves only if a rack
    tile is played: 1 - stays_j <= tiles played.
    """
    model = tm.model
    for cont in tm.continuations:
        meld = cont.meld
        jokers = [
            (meant, stay)
            for tile, meant, stay in zip(meld.tiles, meld.stands_for, cont.stays, strict=True)
            if tile.is_joker
        ]
        if not jokers:
            continue
        model.add(cont.active == 1)
        if cont.meld.kind is MeldKind.RUN:
            for meant, _ in jokers:
                model.add(covers(tm, cont, meant.number) == 1)
        else:
            model.add(total([1 - stay for _, stay in jokers]) <= total(list(cont.added.values())))
        for _, stay in jokers:
            model.add(tm.tiles >= 1 - stay)


def add_joker_runs(tm: TurnModel) -> None:
    """The runs that hold jokers, one by one, when ``max_jokers_per_set`` binds (the run
    flow counts jokers per number, not per run, and then holds none).

    At most J runs hold a joker (J = jokers in play); run r, in order
    active[r] >= active[r+1] and, the slots being interchangeable, key[r+1] >= key[r]
    - C*N*(1 - active[r+1]) with key[r] = sum_{c,p} (c*N + p) begins[r,c,p] (its colour,
    then where it begins; 0 when inactive), has for each colour c a flag u[r,c], sum_c u[r,c] =
    active[r], and over the positions p (numbers; under ``wrap_runs`` 1..2N-1, p read
    round) cover[r,c,p] <= u[r,c] in one stretch (begins[r,c,p] >= cover[r,c,p] -
    cover[r,c,p-1] for p <= N, cover[r,c,p] <= cover[r,c,p-1] beyond, sum_p begins =
    u[r,c]) of L..N positions, joker[r,c,p] <=
    cover[r,c,p] (= cover where no numbered tile (c,p) exists), and
      active[r] <= sum jokers <= M * active[r],  sum cover - sum jokers >= active[r]
    (a joker, at most M, and a numbered tile). Its numbered tiles cover - joker count
    among the cell's tiles in continued sets, its jokers among theirs.
    """
    rules, model = tm.rules, tm.model
    top, size = rules.numbers, rules.min_set_len
    positions = range(1, 2 * top) if rules.wrap_runs else range(1, top + 1)
    previous: cp_model.IntVar | None = None
    previous_key: LinearExpr = 0
    for r in range(tm.jokers):
        run = JokerRun(model.new_bool_var(f"jrun_{r}"))
        used = []
        key: list[LinearExpr] = []
        for colour in range(rules.colours):
            flag = model.new_bool_var(f"jrun_{r}_{colour}")
            used.append(flag)
            last: LinearExpr = 0
            begins, covers = [], []
            for position in positions:
                cell = (colour, rules.run_number(position))
                cover = model.new_bool_var(f"jrun_{r}_{colour}_{position}")
                model.add(cover <= flag)
                if position > top:  # a stretch begins at 1..N (read round beyond N)
                    model.add(cover <= last)
                else:
                    begin = model.new_bool_var(f"jrun_begins_{r}_{colour}_{position}")
                    model.add(begin >= cover - last)
                    begins.append(begin)
                    key.append((colour * top + position) * begin)
                last = cover
                covers.append(cover)
                run.cover[colour, position] = cover
                if not tm.supply.get(cell):
                    run.jokers[colour, position] = cover
                    continue
                joker = model.new_bool_var(f"jrun_J_{r}_{colour}_{position}")
                model.add(joker <= cover)
                run.jokers[colour, position] = joker
                tm.continued.setdefault(cell, []).append(cover - joker)
            model.add(sum(begins) == flag)
            model.add(sum(covers) >= size * flag)
            if rules.wrap_runs:
                model.add(sum(covers) <= top * flag)
        model.add(sum(used) == run.active)
        jokers = total(list(run.jokers.values()))
        model.add(jokers >= run.active)
        model.add(jokers <= rules.max_jokers_per_set * run.active)
        model.add(total(list(run.cover.values())) - jokers >= run.active)
        tm.continued_jokers.append(jokers)
        if previous is not None:
            model.add(previous >= run.active)
            model.add(total(key) >= previous_key - rules.colours * top * (1 - run.active))
        previous, previous_key = run.active, total(key)
        tm.joker_runs.append(run)


@dataclass(frozen=True, slots=True)
class JokerPiece:
    """A run of colour ``colour`` over the positions ``places`` (read round under
    ``wrap_runs``) with jokers at the places whose offsets are in ``jokers`` and
    numbered tiles elsewhere; at most ``most`` such runs fit the tiles."""

    colour: int
    places: range
    jokers: frozenset[int]
    most: int


MOST_JOKER_PIECES = 10_000
"""The most pieces :func:`add_joker_pieces` lays out; beyond (long runs on many
numbers, a high limit), the slots of :func:`add_joker_runs` are the smaller model.
On the standard game one joker a set makes at most 472 pieces, two at most 1204;
10,000 build in about 0.2 s. Solving the same random sequence of positions of any
variant where the limit binds for 300 s (default answer): with a cap of 2,000, 3,705
positions, 157 in slots, 30 of them with the score unproven; with 10,000, 5,904
positions, 32 in slots, 10 unproven. No position in pieces was left unproven."""


def joker_pieces(tm: TurnModel) -> list[JokerPiece] | None:
    """Every piece :func:`add_joker_pieces` may lay out when ``max_jokers_per_set``
    binds: runs of L..max(2L-1, L+M) places (M: the most jokers a run may hold, the
    limit or the jokers in play) with 1..M jokers and a numbered tile, a joker on each
    place with no numbered tile; None when there are more than
    :data:`MOST_JOKER_PIECES`."""
    rules = tm.rules
    size, top = rules.min_set_len, rules.numbers
    most = min(rules.max_jokers_per_set, tm.jokers)
    found: list[JokerPiece] = []
    for colour in range(rules.colours):
        for length in range(size, min(max(2 * size - 1, size + most), top) + 1):
            for begin in rules.run_starts(length):
                places = range(begin, begin + length)
                supply = [tm.supply.get((colour, rules.run_number(p)), 0) for p in places]
                gaps = [i for i, count in enumerate(supply) if not count]
                others = [i for i, count in enumerate(supply) if count]
                for extra in range(0 if gaps else 1, min(most, length - 1) - len(gaps) + 1):
                    for chosen in combinations(others, extra):
                        jokers = frozenset((*gaps, *chosen))
                        tiles = [count for i, count in enumerate(supply) if i not in jokers]
                        fits = min(tm.jokers // len(jokers), *tiles)
                        found.append(JokerPiece(colour, places, jokers, fits))
                        if len(found) > MOST_JOKER_PIECES:
                            return None
    return found


def add_joker_pieces(tm: TurnModel, pieces: list[JokerPiece]) -> None:
    """The runs that hold jokers, when ``max_jokers_per_set`` binds, as counts of
    ``pieces`` (see :func:`joker_pieces`): 0 <= piece[k] <= most[k] runs of piece k.
    Its numbered tiles count among the cells' tiles in continued sets, its jokers,
    |jokers[k]| * piece[k], among theirs.

    Exact: a run of l tiles, l >= 2L and l >= L+M+1, splits into two runs of L or
    more tiles, each with a numbered tile. With f and g the places (from 0) of its
    first and last numbered tiles, a cut before any place c with max(L, f+1) <= c <=
    min(l-L, g) does, and there is one: f <= M and g >= l-1-M (at most M jokers lie
    outside them), and f < g (it holds at least l-M >= L+1 numbered tiles). Each
    part holds no more jokers than the whole; so every run holding jokers is a chain
    of pieces and of joker-free runs (in the flow), which the layout joins again
    (:func:`~solver.rummikub.layout.join_joker_runs`).
    Unlike the slots of :func:`add_joker_runs` the pieces are counts, with no
    interchangeable copies, and each is one column of the tile balance: on 78
    mid-game and joker-heavy positions with one joker a set, least disruption proven
    on 77 instead of 52 within the default work, median answer 21 ms instead of 160."""
    rules, model = tm.rules, tm.model
    for piece in pieces:
        first, length = piece.places.start, len(piece.places)
        name = f"piece_{piece.colour}_{first}_{length}_{sorted(piece.jokers)}"
        count = model.new_int_var(0, piece.most, name)
        run = JokerRun(count)
        for i, place in enumerate(piece.places):
            run.cover[piece.colour, place] = count
            if i in piece.jokers:
                run.jokers[piece.colour, place] = count
            else:
                run.jokers[piece.colour, place] = 0
                cell = (piece.colour, rules.run_number(place))
                tm.continued.setdefault(cell, []).append(count)
        tm.continued_jokers.append(len(piece.jokers) * count)
        tm.joker_runs.append(run)


def add_jokers_per_continued_set(tm: TurnModel) -> None:
    """Each continued table set holds at most M = ``max_jokers_per_set`` jokers: in a
    run, the jokers that stay, those that take the place of a numbered tile that left
    (cover - stays there) and those that join; in a group, those that stay and those
    that join: sum <= M * active."""
    most = tm.rules.max_jokers_per_set
    for cont in tm.continuations:
        meld = cont.meld
        held: list[LinearExpr] = []
        for tile, meant, stay in zip(meld.tiles, meld.stands_for, cont.stays, strict=True):
            if tile.is_joker:
                held.append(stay)
            elif meld.kind is MeldKind.RUN and cont.begins:  # a run going on in part
                held.append(covers(tm, cont, meant.number) - stay)
        held += cont.joining_jokers.values()
        held.append(cont.added_jokers)
        tm.model.add(total(held) <= most * cont.active)

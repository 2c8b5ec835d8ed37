"""Table repair: put a table that went wrong back into valid sets.

The rules Meldwise follows: a rearrangement that cannot be completed must be undone
as far as possible; a player who cannot leave a valid table takes
``rules.penalty_tiles`` tiles from the pool, and the tiles that could not be placed
go back to the pool (the tiles the player laid down this turn go back to their rack
when the table before the turn is known and put back).

Given the table as it lies now (loose tiles and broken sets allowed), and optionally
the table before the turn and the rack, :func:`repair` answers:

* whether every table tile can be arranged into valid sets, with the table before
  the turn given in a legal turn from it: yes (an arrangement found), no (proven by
  CP-SAT: an infeasible model), or not known (a search stopped before either);
* the arrangement closest to the *reference* table, by the solve's own
  least-disruption stage (:func:`~solver.rummikub.disruption.least_disruption`, same
  tie-breaks): the most reference sets kept whole, then the most tiles in place, then
  the fewest sets. The reference is the table before the turn when given, else the
  sets of the table now that are valid. Steps lead from the table as it lies now;
* when no arrangement places every tile: the fewest tiles that cannot be placed,
  an arrangement of the others (as close to the reference), and the consequence.
  With the table before the turn given, the joker rule holds there too: under
  ``joker_retrieval: "replace"`` each of its sets holding a joker goes on with the
  joker in place or replaced by the tile it stands for, as in a turn;
* with a rack: the best play (most tiles or points, as in solve) that places every
  table tile and some rack tiles, which may rescue a table the table tiles alone
  cannot.

For a player who has not opened (``opened=False``, the table before the turn
required) the turn may not touch the table: the table before stays as it was, and
the tiles laid down (with the rack's, for a rescue) may only make new sets worth
``rules.opening_threshold`` together, as in an opening solve.

Each question is a turn of the same model and stages as a solve: the reference sets'
tiles on the table and the other tiles on the rack, which must all be played
(:attr:`~solver.rummikub.model.TurnModel.must_play`; a rescue adds the rack's tiles,
which may be); the most tiles that fit are a turn with every tile on the rack and
nothing on the table. The joker rule
(``joker_retrieval``) applies to every one of these turns when the table before the
turn is given, and to none without it: only then is it known where a joker came from.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import chain

from ortools.sat.python import cp_model

from solver.cpsat import Limit, Status
from solver.errors import CountError, RequestError, TableError
from solver.i18n import _, _n
from solver.rummikub.disruption import least_disruption
from solver.rummikub.free_jokers import free_jokers
from solver.rummikub.house_rules import sets_holding_jokers_in_place
from solver.rummikub.layout import PlacedSet, lay_out
from solver.rummikub.legality import TileSets
from solver.rummikub.melds import Meld, MeldKind, read_meld_or_none, readings
from solver.rummikub.model import TileCounts, TurnModel, build_model
from solver.rummikub.notation import Tile, format_tiles
from solver.rummikub.position import Objective, Position, check_counts, read_table_set
from solver.rummikub.rematch import carried_on, heaviest_matching
from solver.rummikub.result import Play
from solver.rummikub.rules import STANDARD, Rules
from solver.rummikub.runner import run
from solver.rummikub.search import SCORE_WORK, solve
from solver.rummikub.steps import Step, left_in_order, plan


@dataclass(frozen=True, slots=True)
class Arrangement:
    """Tiles laid out as valid sets, and the steps from the table as it lies now."""

    table: tuple[Meld, ...]
    """The sets, in the order replaying ``steps`` leaves them."""
    set_numbers: tuple[int, ...]
    """The number the steps give each set of ``table``."""
    rack_places: tuple[tuple[int, ...], ...]
    """Set by set of ``table``, the places of the rack tiles laid on it (a rescue)."""
    steps: tuple[Step, ...]
    played: tuple[Tile, ...]
    """Rack tiles laid down (a rescue), sorted."""
    left_out: tuple[Tile, ...]
    """Table tiles no set holds (the steps take them off the table), sorted."""
    sets_kept: int
    """Reference sets that stay whole (tiles may join them)."""
    tiles_moved: int
    """Reference tiles that leave the set carrying their old one on."""
    disruption_proven: bool
    """Whether no arrangement as good keeps more reference sets whole, or as many and
    moves fewer reference tiles."""


@dataclass(frozen=True, slots=True)
class Penalty:
    """What the rules say happens to a turn that leaves a table that cannot be put right."""

    tiles: int
    """Tiles the player draws from the pool (``rules.penalty_tiles``)."""
    restore: tuple[tuple[Tile, ...], ...] | None
    """The table before the turn, put back as it was; None when it is not known."""
    back_to_rack: tuple[Tile, ...]
    """Tiles the player laid down this turn, which go back to their rack (with the
    table before the turn known: the table now minus the table before)."""
    to_pool: tuple[Tile, ...] | None
    """Tiles that cannot be placed and go back to the pool (table before not known);
    None when the search stopped before it found which (no arrangement found)."""
    text: str


@dataclass(frozen=True, slots=True)
class Repair:
    """The answer of :func:`repair`."""

    status: Status
    """OPTIMAL: ``repairable`` is settled and, when false, so is the fewest tiles left
    out; FEASIBLE: ``repairable`` is proven false, but the search stopped before
    proving that no arrangement leaves fewer tiles out; UNKNOWN: the search stopped
    before finding whether the table can be repaired (``repairable`` None)."""
    repairable: bool | None
    """Whether every table tile fits into valid sets; with the table before the turn
    given, in a legal turn from it (the joker rule applies): True, an arrangement was
    found; False, proven that none exists; None, not settled (the search stopped
    before finding either)."""
    arrangement: Arrangement | None
    """Every tile when repairable, else the most tiles that fit (None: unknown); with
    the table before the turn given, under the joker rule either way."""
    penalty: Penalty | None
    """The consequence when the table is proven beyond repair."""
    rescue: Play | None
    """With a rack: the best play placing every table tile and rack tiles (its steps
    from the table now), or None when no play does or no rack was given."""
    rescue_status: Status | None
    """With a rack: whether the rescue (or that there is none) is proven; None without."""
    free_jokers: int | None
    """When repairable: the table's jokers that no set needs (see
    :mod:`solver.rummikub.free_jokers`); None otherwise or when not proven (its search
    stopped first)."""
    time_capped: bool
    """Whether a wall-clock limit, not the work bound, stopped a search."""


@dataclass(frozen=True, slots=True)
class _Found:
    status: Status
    """OPTIMAL: ``placed`` is a best arrangement, or there is none (``placed`` None);
    FEASIBLE: the best found; UNKNOWN: none found, none proven impossible."""
    placed: list[PlacedSet] | None
    proven: bool
    """Whether the least disruption of ``placed`` is proven."""


def repair(
    table: TileSets,
    rules: Rules = STANDARD,
    before: TileSets | None = None,
    rack: Sequence[Tile] | None = None,
    objective: Objective = Objective.TILES,
    *,
    opened: bool = True,
    limit: Limit | None = None,
) -> Repair:
    """Repair ``table`` (the table as it lies now; any heaps of tiles) under ``rules``;
    see the module docstring. ``before``: the table before the turn (valid sets, every
    tile of it still on the table); ``rack``: the player's tiles, for a rescue;
    ``opened``: whether the player had opened before the turn (when not, ``before``
    is required, and only new sets from the tiles laid down and the rack are made).

    Every search is bounded by deterministic work, with ``limit.time`` wall-clock
    seconds (the default when ``limit`` is None) as the outer safety cap for the whole
    repair; each least-disruption stage does at most ``limit.disruption_work`` within
    ``limit.disruption_time``, as in :func:`~solver.rummikub.search.solve`. Raises a
    :class:`~solver.errors.MeldwiseError` for a tile not in the game, more copies than
    exist, an invalid ``before``, or ``opened`` false without ``before``.
    """
    limit = (limit or Limit()).started()
    # Y1 (黄1) is the standard game's orange, as in solve
    table = rules.in_game(table)
    for index, tiles in enumerate(table):
        if not tiles:
            # It was passed over without a word, where the command line's --table,
            # a solve's table and table_before refuse one.
            raise TableError(
                _("table heap {index} has no tiles: a heap lies on the table", index=index)
            ).about(f"table[{index}]")
    before = None if before is None else rules.in_game(before)
    rack = None if rack is None else rules.in_game((rack,))[0]
    now = Counter(chain.from_iterable(table))
    _check_tiles(now, before, rack or (), rules)
    if not opened and before is None:
        # Which tiles were laid down this turn, and so what an opening may hold, is
        # known only from the table before it.
        raise RequestError(
            _(
                "a repair for a player who has not opened needs the table before the turn "
                "(table_before): only with it is it known which tiles they laid down"
            )
        ).naming("table_before", quoted=False)
    heaps = [read_meld_or_none(tiles, rules) for tiles in table]
    reference = _reference(before, heaps, now, rules)
    # Where a table joker came from is known only from the table before the turn:
    # without it the joker rule cannot apply. With it, every search (the most tiles
    # that fit too) keeps the rule: a joker moved without its tile is no repair.
    turn_rules = rules if before is not None else dataclasses.replace(rules, joker_retrieval="free")
    capped: list[bool] = []

    def laid(placed: list[PlacedSet], played: Counter[Tile], found: _Found) -> Arrangement:
        return _arrangement(
            placed, played, reference, heaps, table, found.proven, turn_rules, opened
        )

    def arrange(
        rack: Counter[Tile], table: Counter[Tile], must: Counter[Tile], objective: Objective
    ) -> _Found:
        if not opened:  # the table before stays; the rack's tiles only make new sets
            return _open(rules, rack, must, objective, reference, limit, capped)
        return _arrange(turn_rules, rack, table, must, objective, reference, limit, capped)

    # The reference sets' tiles stay on the table; the others (loose tiles, broken
    # sets, tiles laid down this turn) are rack tiles the turn must all play.
    strays = now - Counter(chain.from_iterable(meld.tiles for meld in reference))
    kept = now - strays
    whole = arrange(strays, kept, strays, Objective.TILES)
    penalty = None
    arrangement = None
    if whole.placed is not None:
        status, repairable = Status.OPTIMAL, True
        arrangement = laid(whole.placed, Counter(), whole)
    elif whole.status is not Status.OPTIMAL:
        # No arrangement found, none proven impossible: not known (False said that none
        # exists).
        status, repairable = Status.UNKNOWN, None
    else:  # the model is infeasible: proven that no arrangement exists
        repairable = False
        if opened:
            most = _fewest_left_out(arrange, now, reference)
        else:  # the table before, and the tiles laid down that make an opening
            most = arrange(strays, kept, Counter(), Objective.TILES)
        status = Status.OPTIMAL if most.status is Status.OPTIMAL else Status.FEASIBLE
        if before is not None:
            most = _at_least_as_it_was(most, reference)
        if most.placed is not None:
            arrangement = laid(most.placed, Counter(), most)
        penalty = _penalty(rules, now, before, arrangement, status is Status.OPTIMAL)

    rescue, rescue_status = None, None
    if rack is not None:
        found = arrange(strays + Counter(rack), kept, strays, objective)
        rescue_status = found.status
        if found.placed is not None:
            played = _tiles(found.placed) - now
            rescue = _rescue(found.status, laid(found.placed, played, found), rack, rules)
    if penalty is not None and rescue is not None:
        # Rack tiles make the table right: the penalty is what playing none of them means.
        text = _("Unless the rack's tiles rescue the table: {penalty}", penalty=penalty.text)
        penalty = dataclasses.replace(penalty, text=text)
    spare = None
    if repairable:
        spare, spare_capped = free_jokers(rules, now, limit)
        capped.append(spare_capped)
    return Repair(
        status, repairable, arrangement, penalty, rescue, rescue_status, spare, any(capped)
    )


def _fewest_left_out(
    arrange: Callable[[Counter[Tile], Counter[Tile], Counter[Tile], Objective], _Found],
    tiles: Counter[Tile],
    reference: tuple[Meld, ...],
) -> _Found:
    """The most of ``tiles`` that fit (every one a rack tile, none a must), the
    closest to ``reference``.

    The solve's score prefers a joker kept on the rack, which here means a joker left
    out, before any closeness: ``R5 B5 K5 J | O5`` left the joker out and broke the
    group, where leaving O5 out keeps it. For a table a joker left out is a tile like
    any other, so each count of jokers placed that fits as many tiles is asked for
    (a must-play of that many jokers: the score then places exactly that many), and
    the calmest answer is taken: the most reference sets kept whole, then the most
    tiles in place."""
    found = arrange(tiles, Counter(), Counter(), Objective.TILES)
    if found.placed is None or not reference:
        return found
    jokers = [tile for tile in tiles.elements() if tile.is_joker]
    placed = _tiles(found.placed)
    answers = [found]
    for count in range(sum(t.is_joker for t in placed.elements()) + 1, len(jokers) + 1):
        more = arrange(tiles, Counter(), Counter(jokers[:count]), Objective.TILES)
        answers.append(more)
        if more.placed is None or _tiles(more.placed).total() < placed.total():
            break  # fewer tiles fit with this many jokers, so with more too
    most = max(_tiles(a.placed).total() for a in answers if a.placed)
    fits = [a for a in answers if a.placed and _tiles(a.placed).total() == most]
    calmest = max(fits, key=lambda a: _calm(a.placed or [], reference))
    # How many tiles fit is proven by the first search alone (it places the most
    # tiles, with any jokers); the other searches only look for a calmer way to
    # place as many, so one of them cut leaves the closeness unproven, not the count.
    settled = all(a.status is Status.OPTIMAL for a in answers)
    return _Found(
        found.status if most == placed.total() else Status.FEASIBLE,
        calmest.placed,
        settled and all(a.proven for a in answers),
    )


def _calm(placed: list[PlacedSet], reference: tuple[Meld, ...]) -> tuple[int, int]:
    """Sets of ``reference`` kept whole and its tiles that stay in place."""
    kept = sum(
        1
        for p in placed
        if p.origin is not None and len(p.stayed) == len(reference[p.origin].tiles)
    )
    return kept, sum(len(p.stayed) for p in placed)


def _at_least_as_it_was(found: _Found, before: tuple[Meld, ...]) -> _Found:
    """The most tiles that fit, with the table before the turn known: ``found``, or
    that table as it was when ``found`` holds no more tiles than it (or none was found).

    The table before places all its tiles legally, keeps every set whole and moves
    nothing, so no arrangement of as many tiles is closer (proven). It is also where
    the joker rule needs it: the model of the most tiles has every tile on the rack,
    so "a joker leaves only in a turn that lays down a tile" always holds there. An
    arrangement that lays down none (placed <= before, as multisets) holds at most
    the table before's tiles, and is then replaced by it; one that holds more lays
    down a tile, and a joker may leave for the tile it stands for."""
    if found.placed is not None and _tiles(found.placed).total() > _tiles_in(before):
        return found
    kept = [PlacedSet(meld, index, meld.tiles, ()) for index, meld in enumerate(before)]
    return _Found(found.status, kept, True)


def _tiles(placed: list[PlacedSet]) -> Counter[Tile]:
    return Counter(t for p in placed for t in p.meld.tiles)


def _tiles_in(melds: Sequence[Meld]) -> int:
    return sum(len(meld.tiles) for meld in melds)


def _check_tiles(
    now: Counter[Tile], before: TileSets | None, rack: Sequence[Tile], rules: Rules
) -> None:
    """Every tile is one of the game's, none more often than the game has it."""
    everything = now + Counter(rack)
    for tile in chain(everything, *(before or ())):
        rules.check_tile(tile)
    if rack:
        check_counts(everything, rules, _("across rack and table"))
        return
    # No rack: the tiles counted are the table's ("across rack and table" said a
    # rack that was not sent), and the message names that field.
    try:
        check_counts(everything, rules, _("in table"))
    except CountError as error:
        raise error.naming("table", quoted=False) from None


def _reference(
    before: TileSets | None,
    heaps: Sequence[Meld | None],
    now: Counter[Tile],
    rules: Rules,
) -> tuple[Meld, ...]:
    """The sets closeness is measured against: ``before`` read, or the valid sets of
    the table now (``heaps``, each read or None)."""
    if before is None:
        return tuple(meld for meld in heaps if meld is not None)
    melds = []
    for index, tiles in enumerate(before):
        try:
            melds.append(read_table_set(index, tiles, rules))
        except TableError as error:
            raise TableError(_("table_before: {error}", error=error)).placed(
                "table_before", error
            ) from None
    gone = Counter(chain.from_iterable(before)) - now
    if gone:
        raise TableError(
            _(
                "table_before holds {tiles}, which the table now lacks: a tile on the table "
                "stays on it; put it back",
                tiles=format_tiles(sorted(gone.elements())),
            )
        ).naming("table_before", quoted=False)
    return tuple(melds)


def _arrange(
    rules: Rules,
    rack: Counter[Tile],
    table: Counter[Tile],
    must: Counter[Tile],
    objective: Objective,
    reference: tuple[Meld, ...],
    limit: Limit,
    capped: list[bool],
) -> _Found:
    """The best play placing every tile of ``table`` and rack tiles, ``must`` (part
    of the rack) among them, the least disruptive to ``reference`` (the solve's
    stages: see :func:`solver.rummikub.search.solve`)."""
    rack_counts, table_counts = TileCounts.of(rack), TileCounts.of(table)
    must_play = TileCounts.of(must)
    if reference and not limit.clock_stops_searches():
        stage = limit.account(limit.disruption_work, limit.disruption_time)
        calmer = least_disruption(
            rules, rack_counts, table_counts, objective, reference, stage, must_play
        )
        capped.append(stage.capped)
        if calmer is not None:
            return _Found(Status.OPTIMAL, calmer.placed, calmer.proven)
    # The score alone: no reference, or not proven within the least-disruption work
    # (which is also where a table beyond repair ends up: its model is infeasible).
    if limit.clock_stops_searches():
        return _no_search(capped)
    held = sets_holding_jokers_in_place(rules, reference)
    tm = build_model(
        rules, rack_counts, table_counts, objective, False, reference, (), must_play, going_on=held
    )
    found = _score(tm, limit, capped, _Found(Status.OPTIMAL, None, True), [], not reference)
    if found.placed is None:
        return found
    # The score alone lays most sets out as new ones (or carries a set on with
    # another's tiles): "0 kept whole, 4 of their tiles moved" stood above steps that
    # moved one tile (the steps match sets to heaps themselves). Read it as a least
    # disruption is counted.
    melds = [p.meld for p in found.placed]
    return dataclasses.replace(found, placed=carried_on(reference, melds, rules))


def _open(
    rules: Rules,
    rack: Counter[Tile],
    must: Counter[Tile],
    objective: Objective,
    before: tuple[Meld, ...],
    limit: Limit,
    capped: list[bool],
) -> _Found:
    """The turn of a player who has not opened: ``before`` (the table before the
    turn) as it was, and new sets from ``rack`` worth the opening threshold holding
    every tile of ``must`` (part of ``rack``; ``placed`` None when there are none);
    with ``must`` empty, playing nothing is such a turn too. Nothing on the table
    moves, so the least disruption is proven."""
    as_it_was = [PlacedSet(meld, index, meld.tiles, ()) for index, meld in enumerate(before)]
    # No opening: with nothing that must be played, the table as it was is the turn.
    none = _Found(Status.OPTIMAL, None if must else as_it_was, True)
    if not rack:
        return none
    if limit.clock_stops_searches():
        return _no_search(capped)
    tm = build_model(
        rules, TileCounts.of(rack), TileCounts({}), objective, True, must_play=TileCounts.of(must)
    )
    return _score(tm, limit, capped, none, as_it_was, True)


def _no_search(capped: list[bool]) -> _Found:
    """What a search answers that the clock keeps from starting (none found, capped),
    without building its model: one of a large table takes 0.05-0.25 s."""
    capped.append(True)
    return _Found(Status.UNKNOWN, None, False)


def _score(
    tm: TurnModel,
    limit: Limit,
    capped: list[bool],
    infeasible: _Found,
    placed: list[PlacedSet],
    proven: bool,
) -> _Found:
    """Search ``tm`` within the score stage's work: its sets after ``placed``
    (``proven``: whether their least disruption is), ``infeasible`` when it has
    none."""
    limits = limit.account(SCORE_WORK)
    first = run(tm, limits)
    capped.append(limits.capped)
    if first.code == cp_model.UNKNOWN:
        return _Found(Status.UNKNOWN, None, False)
    if first.infeasible:
        return infeasible
    status = Status.OPTIMAL if first.optimal else Status.FEASIBLE
    return _Found(status, placed + lay_out(tm, first.value), proven)


def _arrangement(
    placed: list[PlacedSet],
    played: Counter[Tile],
    reference: tuple[Meld, ...],
    heaps: list[Meld | None],
    table: TileSets,
    proven: bool,
    rules: Rules,
    opened: bool,
) -> Arrangement:
    """``placed`` laid out from the heaps of ``table`` (read as ``heaps``), with the
    steps there and its closeness to ``reference``; ``rules``: the turn's (the joker
    rule decides whether a set may be read as its heap lies, see :func:`_as_it_lies`).
    ``opened``: whether the player had opened; when not, the sets of ``reference``
    (the table before) go on from their heaps first and the new sets keep a reading
    worth what the opening counted (see :func:`_from_heaps`, :func:`_as_it_lies`)."""
    kept, stayed = _calm(placed, reference)
    # The sets an opening is made of: those carrying no set of the table before on,
    # known by their place in ``placed`` (not by their meld: a set laid as the copy
    # of a table set, R3 R4 J beside R3 R4 J, made the table's set one of the opening,
    # its joker laid anew by a step).
    going_on = [
        _as_it_lies(p, table, rules, opening=not opened and placed[i].origin is None)
        for i, p in _from_heaps(placed, table, untouched=None if opened else rules)
    ]
    steps = plan(heaps, going_on, list(played.elements()), table)
    return Arrangement(
        table=tuple(p.meld for p in steps.table),
        set_numbers=steps.numbers,
        rack_places=steps.rack_places,
        steps=steps.steps,
        played=tuple(sorted(played.elements())),
        left_out=steps.left_in_hand,
        sets_kept=kept,
        tiles_moved=sum(len(m.tiles) for m in reference) - stayed,
        disruption_proven=proven,
    )


def _from_heaps(
    placed: list[PlacedSet], table: TileSets, *, untouched: Rules | None = None
) -> list[tuple[int, PlacedSet]]:
    """The same sets, each going on from a heap of the table now (each heap carried on
    by one set at most), matched so that the most tiles stay in their heap (the steps
    then pick up the fewest tiles), then each set goes on from the earliest heap; each
    with its index in ``placed`` (its ``origin`` there is replaced by the heap's).

    ``untouched`` (the rules, for a player who has not opened): the sets carrying a set
    of the table before on (``origin`` not None) keep the most of their tiles in their
    heaps first, so each takes the heap it lies in whole, even beside a new set of the
    same tiles (a copy of it laid down); then, of heaps holding as many, the one that
    reads it as it was (see :func:`_reads_as`). A new set matched
    to the heap holding such a set took that set's tiles, jokers included: with
    ``R3 J R4`` lying where ``R3 J`` was, the new set ``R4 J`` went on from the heap
    and ``R3 J`` was laid anew with the rack's joker, steps in which the player took
    the table's joker before opening."""
    common = {
        (i, j): shared
        for i, p in enumerate(placed)
        for j, tiles in enumerate(table)
        if (shared := Counter(p.meld.tiles) & Counter(tiles))
    }
    # The most tiles in place, then the earliest heaps (steps in the order of the table).
    earliest = len(placed) * len(table) + 1
    weights = {(i, j): shared.total() * earliest - j for (i, j), shared in common.items()}
    if untouched is not None:
        # Each tile of a set of the table before staying in its heap weighs more than
        # all the other weights together: those tiles stay first. A flat weight for
        # any heap tied a table set's own heap with a new set's: with the table's
        # J(R2) R3 R4 beside a laid R3 R4 and J, the new set R3 R4 J took the table's
        # heap, its joker laid anew by a step. Then a heap reading the set as it was
        # (more than the other weights, less than a tile): with the table's J B2 (the
        # run 1-2) beside a laid B2 J under "replace", the table's set took B2 J and
        # both heaps' jokers were laid anew.
        second = (sum(len(p.meld.tiles) for p in placed) + 1) * earliest
        first = (len(placed) + 1) * second
        weights = {
            (i, j): weight
            + (
                first * common[i, j].total()
                + second * _reads_as(placed[i].meld, table[j], common[i, j], untouched)
                if placed[i].origin is not None
                else 0
            )
            for (i, j), weight in weights.items()
        }
    origin = heaviest_matching(weights, range(len(placed)), len(table))
    remapped = []
    for i, p in enumerate(placed):
        if i not in origin:
            remapped.append((i, PlacedSet(p.meld, None, (), p.meld.tiles)))
            continue
        j = origin[i]
        stayed = common[i, j]
        joined = Counter(p.meld.tiles) - stayed
        stays, joins = tuple(sorted(stayed.elements())), tuple(sorted(joined.elements()))
        remapped.append((i, PlacedSet(p.meld, j, stays, joins)))
    # The planner lays continued sets out by the heap they go on from.
    return sorted(remapped, key=lambda ip: (ip[1].origin is None, ip[1].origin or 0))


def _reads_as(meld: Meld, heap: Sequence[Tile], stayed: Counter[Tile], rules: Rules) -> bool:
    """Whether the tiles ``stayed`` of ``heap``, in its order once the steps have
    taken the others, read as ``meld`` (its kind, and a run's jokers where they stand:
    what the table before keeps under "replace", see :func:`_as_it_lies`)."""
    lies = read_meld_or_none(left_in_order(heap, stayed), rules)
    return _same_reading(lies, meld)


def _same_reading(lies: Meld | None, meld: Meld) -> bool:
    """Whether ``lies`` is ``meld`` as "replace" tells jokers apart: the same kind, and
    for a run each joker at the same place (a group's jokers are not told apart)."""
    return (
        lies is not None
        and lies.kind is meld.kind
        and (meld.kind is MeldKind.GROUP or lies.stands_for == meld.stands_for)
    )


def _as_it_lies(
    placed: PlacedSet, table: TileSets, rules: Rules, *, opening: bool = False
) -> PlacedSet:
    """``placed``, going on from a heap of ``table`` with no tile joining it, read as
    the heap lies once the steps have taken the other tiles off it, when the reading
    of its jokers differs (no step lays it out, so a person sees it as it lies).

    Under "free" any reading of its tiles is legal: the heap's own; for a set of an
    opening (``opening``: a new set of a player who has not opened) one worth as much
    as ``placed``, as the opening counted it: ``J R4`` read first as the run
    ``J(R3) R4`` (7) is the group ``J(B4) R4`` (8) there, and a heap whose jokers were
    written for less (``J(R3) R4``) is laid out anew by a step. ``R4 R5 J`` was
    answered ``J(R3) R4 R5`` (the table before's reading) with no steps, a joker said
    to sit where it does not. Under "replace" the reading decides the joker rule:
    ``R4 R5 J`` (the joker R6) is not the set ``J(R3) R4 R5``, though it holds its
    tiles (the steps said "none, the table is right as it is" where validate refuses
    that table), so its jokers are put in place anew by a step, which writes the set
    whole. A set that tiles join is laid out anew by its step."""
    meld = placed.meld
    if placed.origin is None or placed.joined or not meld.jokers:
        return placed
    # The tiles the steps' takes leave in the heap, in its order.
    in_order = left_in_order(table[placed.origin], Counter(placed.stayed))
    lies = read_meld_or_none(in_order, rules)
    if not rules.replace_jokers:
        if opening and lies is not None and lies.value < meld.value:
            # The opening counted the set at its reading's worth.
            lies = max(readings(in_order, rules), key=lambda m: m.value)
            if lies.value < meld.value:
                return _jokers_anew(placed)
        return placed if lies is None else PlacedSet(lies, placed.origin, placed.stayed, ())
    return placed if _same_reading(lies, meld) else _jokers_anew(placed)


def _jokers_anew(placed: PlacedSet) -> PlacedSet:
    """``placed`` with its jokers joining it from its heap: a step puts them in place
    anew and writes the set whole."""
    stayed = tuple(t for t in placed.stayed if not t.is_joker)
    jokers = tuple(t for t in placed.stayed if t.is_joker)
    return PlacedSet(placed.meld, placed.origin, stayed, jokers)


def _penalty(
    rules: Rules,
    now: Counter[Tile],
    before: TileSets | None,
    arrangement: Arrangement | None,
    fewest: bool = True,
) -> Penalty:
    """What the rules say happens (see :class:`Penalty`); ``fewest``: whether the
    tiles ``arrangement`` leaves out are proven the fewest."""
    draw = rules.penalty_tiles
    drawing = (
        _n("draws {n} penalty tile", "draws {n} penalty tiles", draw)
        if draw
        else _("draws no tile")
    )
    if before is not None:
        back = now - Counter(chain.from_iterable(before))
        tiles = tuple(sorted(back.elements()))
        text = _(
            "No legal arrangement places every tile: the table goes back to how it was "
            "before the turn, the player takes back {tiles} and {drawing}.",
            tiles=format_tiles(tiles) or _("nothing"),
            drawing=drawing,
        )
        return Penalty(draw, tuple(tuple(s) for s in before), tiles, (), text)
    if arrangement is None:
        text = _(
            "No legal arrangement places every tile: the tiles that cannot be placed go back "
            "to the pool (the search stopped before it found which), and the player {drawing}.",
            drawing=drawing,
        )
        return Penalty(draw, None, (), None, text)
    left_out = len(arrangement.left_out)
    text = (
        _n(
            "No legal arrangement places every tile: the fewest that cannot be placed is one "
            "tile, {tiles}, which goes back to the pool, and the player {drawing}.",
            "No legal arrangement places every tile: the fewest that cannot be placed, {tiles}, "
            "go back to the pool, and the player {drawing}.",
            left_out,
            tiles=format_tiles(arrangement.left_out),
            drawing=drawing,
        )
        if fewest
        else _n(
            "No legal arrangement places every tile: the tile that cannot be placed, {tiles} "
            "(the fewest found: a search stopped before proving none fewer), goes back to the "
            "pool, and the player {drawing}.",
            "No legal arrangement places every tile: the tiles that cannot be placed, {tiles} "
            "(the fewest found: a search stopped before proving none fewer), go back to the "
            "pool, and the player {drawing}.",
            left_out,
            tiles=format_tiles(arrangement.left_out),
            drawing=drawing,
        )
    )
    return Penalty(draw, None, (), arrangement.left_out, text)


def _rescue(status: Status, arranged: Arrangement, rack: Sequence[Tile], rules: Rules) -> Play:
    """The rescue as a play: the rack tiles placed, its steps from the table now."""
    return Play(
        status=status,
        played=arranged.played,
        rack_left=tuple(sorted((Counter(rack) - Counter(arranged.played)).elements())),
        table=arranged.table,
        set_numbers=arranged.set_numbers,
        rack_places=arranged.rack_places,
        tiles_played=len(arranged.played),
        points_played=sum(rules.value(t) for t in arranged.played),
        sets_kept=arranged.sets_kept,
        tiles_moved=arranged.tiles_moved,
        steps=arranged.steps,
        disruption_proven=arranged.disruption_proven,
    )


@dataclass(frozen=True, slots=True)
class Consequence:
    """What the rules say about an illegal move (see :func:`consequence`)."""

    status: Status
    """OPTIMAL: ``repairable`` is settled; UNKNOWN: the search stopped first
    (``repairable`` None)."""
    repairable: bool | None
    """Whether the player can still put the move right this turn (the tiles they laid
    down from the rack fit, with the table before, into a legal move): True, such a
    move was found; False, proven that none exists; None, not settled (the search
    stopped before finding either)."""
    penalty: Penalty | None
    """When proven beyond repair: the table goes back as it was, the tiles laid
    down go back to the rack, and ``rules.penalty_tiles`` are drawn."""
    text: str
    time_capped: bool
    """Whether the time limit, not the work bound, stopped its solve: on an idle
    machine the answer may then differ (false with no solve)."""


def consequence(
    rack: Sequence[Tile],
    before: TileSets,
    after: TileSets,
    opened: bool,
    rules: Rules,
    *,
    limit: Limit | None = None,
) -> Consequence:
    """For an illegal move from ``before`` to ``after``: can the player still put it
    right, and if not, the penalty under ``rules``.

    The tiles laid down are those of ``after`` not in ``before`` that were on the
    rack (others go back where they came from). The move can be put right when a
    legal move from ``before`` places all of them: a solve of that turn (the same
    rules, opening included) with them as the rack plays them all."""
    came = Counter(chain.from_iterable(after)) - Counter(chain.from_iterable(before))
    laid = came & Counter(rack)
    if not laid:
        # A table moved about with no rack tile laid: no tiles to fit anywhere; the
        # table before is there to go back to (proven so, with no solve).
        text = _(
            "The move can still be put right: no tile was laid down from the rack, so the "
            "table can go back to how it was before the turn."
        )
        return Consequence(Status.OPTIMAL, True, None, text, time_capped=False)
    turn = Position(tuple(sorted(laid.elements())), tuple(map(tuple, before)), opened)
    play = solve(turn, rules, limit=limit, least_disruption=False)
    if play.tiles_played == laid.total():
        # Only the rack's tiles were fitted (others go back where they came from):
        # when some laid down were not on the rack, say which fitted.
        others = came - laid
        text = (
            _n(
                "The move can still be put right: the tile laid down from the rack, "
                "{tiles}, fits into a legal move ({others} did not come from the rack).",
                "The move can still be put right: the tiles laid down from the rack, "
                "{tiles}, fit into a legal move ({others} did not come from the rack).",
                laid.total(),
                tiles=format_tiles(sorted(laid.elements())),
                others=format_tiles(sorted(others.elements())),
            )
            if others
            else _("The move can still be put right: the tiles laid down fit into a legal move.")
        )
        return Consequence(play.status, True, None, text, play.time_capped)
    if play.status is not Status.OPTIMAL:
        # Its score stage stops at a work bound too (SCORE_WORK), not only at the clock.
        text = _("The search stopped before finding out whether the move can still be put right.")
        return Consequence(Status.UNKNOWN, None, None, text, play.time_capped)
    now = Counter(chain.from_iterable(before)) + laid
    penalty = _penalty(rules, now, before, None)
    return Consequence(Status.OPTIMAL, False, penalty, penalty.text, play.time_capped)

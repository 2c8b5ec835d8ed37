"""Solve a Rummikub turn: the best score, then the least disruptive play reaching it.

1. The score: the count model finds the best score, then keeps the most jokers on
   the rack; this is what ``status`` speaks of.
2. Least disruption: keep the most table sets whole, then leave the most table
   tiles in place, then lay out the fewest sets (:mod:`solver.rummikub.disruption`);
   ``disruption_proven`` says whether the first two are proven.

After opening, with a table, the score comes out of the first least-disruption
search (the calm play's model, with the score as its first goal): one search fewer.
The score stage runs alone when least disruption is not asked for, before opening,
with no table, or when that search does not prove the score within its work. When
the score stage's count model does not prove the score either (some house rules), the
calm play's model (step 1 alone) tries, with work of its own; a play it finds but does
not prove best is the answer (``feasible``) when the count model found none or a worse
one.

Every search is bounded by deterministic work (see :mod:`solver.rummikub.runner`),
so the same request gets the same answer under any load; wall-clock limits are only
the outer safety cap, and ``time_capped`` says when one stopped a search.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from itertools import chain

from ortools.sat.python import cp_model

from solver.arguments import checked, checked_or_none
from solver.cpsat import DEFAULT_DISRUPTION_TIME_LIMIT as DEFAULT_DISRUPTION_TIME_LIMIT
from solver.cpsat import DEFAULT_DISRUPTION_WORK as DEFAULT_DISRUPTION_WORK
from solver.cpsat import DEFAULT_TIME_LIMIT as DEFAULT_TIME_LIMIT
from solver.cpsat import Limit, Limits, Status
from solver.rummikub.disruption import CALM_SHARE, calm_score
from solver.rummikub.disruption import least_disruption as calmest
from solver.rummikub.free_jokers import free_jokers as count_free_jokers
from solver.rummikub.house_rules import sets_holding_jokers_in_place
from solver.rummikub.layout import PlacedSet, join_new_runs, lay_out
from solver.rummikub.melds import Meld
from solver.rummikub.model import TileCounts, build_model
from solver.rummikub.notation import JOKER, Colour, Tile
from solver.rummikub.position import Objective, Position
from solver.rummikub.rematch import carried_on
from solver.rummikub.result import Play
from solver.rummikub.rules import STANDARD, Rules
from solver.rummikub.runner import Solved, run
from solver.rummikub.steps import plan

SCORE_WORK = 2.0
"""Deterministic seconds of CP-SAT work the score stage may do when it runs alone:
hundreds of times what any benchmark position needs, so in practice it stops when
the score is proven; the bound makes even a pathological position stop at the same
point under any load."""


def solve(
    position: Position,
    rules: Rules = STANDARD,
    objective: Objective = Objective.TILES,
    *,
    limit: Limit | None = None,
    least_disruption: bool = True,
    free_jokers: bool = False,
) -> Play:
    """Find the best play for ``position`` under ``rules``.

    Before opening (``position.opened`` is false) the play is new sets from the
    rack alone worth at least ``rules.opening_threshold``, or nothing; the table
    is left as it is. After opening the whole table may be rearranged. Among the
    plays with the best score it returns the one that keeps the most jokers on
    the rack, then (with ``least_disruption``) keeps the most table sets whole,
    then moves the fewest table tiles, then lays out the fewest sets; remaining ties
    are broken the same way on every call.

    ``limit`` is the whole budget (:class:`~solver.cpsat.Limit`; its defaults when
    None). The score is proven optimal unless its search stops at its work bound or
    at ``limit.time`` (wall-clock seconds, the outer safety cap) first; see
    :class:`Status`. The least-disruption stage does at most ``limit.disruption_work``
    (CP-SAT deterministic seconds) within at most ``limit.disruption_time`` wall-clock
    seconds; ``disruption_proven`` says whether it proved the sets kept and tiles
    moved, ``time_capped`` whether a wall-clock limit (not the work bound) stopped a
    search. A solve that no clock stopped gives the same answer on any machine load;
    ``limit.workers`` CP-SAT workers search the score when it is searched alone (with
    more than one that no longer holds), the least-disruption searches use one.

    With ``free_jokers`` the play also counts the table jokers that no set needs
    (:attr:`Play.free_jokers`, see :mod:`solver.rummikub.free_jokers`), within the
    same time limit: one search more, so only when asked.

    Raises a :class:`~solver.errors.MeldwiseError` for a position that breaks the
    rules (a budget out of its range is refused when its ``Limit`` is made).
    """
    position = checked(position, Position, "position")
    rules = checked(rules, Rules, "rules")
    limit = (checked_or_none(limit, Limit, "limit") or Limit()).started()
    objective = Objective.read(objective)  # its word ("tiles") read as the mode, not as points
    position = position.in_game(rules)  # Y1 (黄1) made by Position.parse is orange here
    play = _solve(position, rules, objective, limit, least_disruption)
    if free_jokers:
        # What the table needs, whoever asks: a player who has not opened gets the same
        # count (it said 0 of R1 R2 R3 J, "Table jokers no set needs: 0").
        table = Counter(chain(*position.table))
        spare, capped = count_free_jokers(rules, table, limit)
        play = replace(play, free_jokers=spare, time_capped=play.time_capped or capped)
    return play


def _solve(
    position: Position,
    rules: Rules,
    objective: Objective,
    limit: Limit,
    least_disruption: bool,
) -> Play:
    """:func:`solve` but the free jokers, under ``limit`` (started)."""
    table_melds = position.check(rules)
    if not position.rack:
        # Nothing to place: the empty play is the only one, proven with no search (a
        # search cut short by the clock called it "unknown").
        return _no_play(Status.OPTIMAL, position, table_melds, rules, False)
    opening = not position.opened
    rack = TileCounts.of(Counter(position.rack))
    table = TileCounts({}) if opening else TileCounts.of(Counter(chain(*position.table)))

    capped = False
    stage: Limits | None = None
    # Once the clock has run out no search would start: their models, 0.05-0.25 s each
    # on a large table, are not built (the answer is what the searches would give).
    if least_disruption and table_melds and not opening and not limit.clock_stops_searches():
        stage = limit.account(limit.disruption_work, limit.disruption_time)
        calmer = calmest(rules, rack, table, objective, table_melds, stage, calm_share=CALM_SHARE)
        capped = stage.capped
        if calmer is not None:
            return _proven_play(position, table_melds, calmer.placed, rules, calmer.proven, capped)

    # The score alone: asked for, or not proven within the least-disruption work.
    # Table jokers held in place need their sets to go on (see house_rules).
    if limit.clock_stops_searches():
        return _no_play(Status.UNKNOWN, position, table_melds, rules, True)
    held = [] if opening else sets_holding_jokers_in_place(rules, table_melds)
    tm = build_model(rules, rack, table, objective, opening, table_melds, going_on=held)
    limits = limit.account(SCORE_WORK)
    first = run(tm, limits, limit.workers)
    capped = capped or limits.capped
    unproven: list[PlacedSet] | None = None
    if first.code in (cp_model.UNKNOWN, cp_model.FEASIBLE) and table_melds and not opening:
        if limit.clock_stops_searches():
            capped = True  # the second formulation's search would not start either
        else:
            # On some house rules (a binding max_jokers_per_set over long runs) the count
            # model alone proves less than the calm play's model, which also gives the best
            # score: a second formulation, with work of its own (3 tiles proven in 0.5 s
            # where the count model found no play in its 2 s of work).
            again = limit.account(SCORE_WORK)
            calm = calm_score(rules, rack, table, objective, table_melds, again)
            capped = capped or again.capped
            if calm is not None:
                placed, proven = calm
                if proven:
                    return _proven_play(position, table_melds, placed, rules, False, capped)
                unproven = placed
    if first.code == cp_model.UNKNOWN:
        if unproven is not None and (played := _played_tiles_of(unproven, table_melds)):
            # The count model found nothing, the calm play's model a play it did not
            # prove best: that play, legal, rather than none (status unknown said no
            # play was found, and dropped a play of 14 tiles on a variant of runs of 12).
            return assemble_play(
                Status.FEASIBLE, position, played, table_melds, unproven, rules, False, capped
            )
        return _no_play(Status.UNKNOWN, position, table_melds, rules, capped)
    if first.code == cp_model.INFEASIBLE and opening:
        return _no_play(Status.OPTIMAL, position, table_melds, rules, capped)
    first.require("a turn model")
    # The stage's step 1 did not prove the score, this search did: the stage again,
    # the score fixed, on the work it has left (see disruption.CALM_SHARE).
    later = _calmest_again(rules, rack, table, objective, table_melds, first, stage)
    if later is not None:
        capped = capped or later.capped
        return _proven_play(position, table_melds, later.placed, rules, later.proven, capped)
    status = Status.OPTIMAL if first.optimal else Status.FEASIBLE
    played = played_tiles(first)
    if unproven is not None:
        # Neither search proved its play best: the better of the two, so that the
        # answer never scores less than a play the code found (231 points rather than
        # 230 with the score stage's work cut to 0.005 s on a 1-joker-a-set variant).
        theirs = _played_tiles_of(unproven, table_melds)
        if _rank(theirs, rules, objective) > _rank(played, rules, objective):
            return assemble_play(
                status, position, theirs, table_melds, unproven, rules, False, capped
            )
    if not played:
        return _no_play(status, position, table_melds, rules, capped)
    placed = _score_layout(first, opening, table_melds, rules)
    # A table left in place (or none) is disturbed least: proven at once.
    proven = sum(len(p.stayed) for p in placed) == sum(len(m.tiles) for m in table_melds)
    return assemble_play(status, position, played, table_melds, placed, rules, proven, capped)


def _calmest_again(
    rules: Rules,
    rack: TileCounts,
    table: TileCounts,
    objective: Objective,
    melds: tuple[Meld, ...],
    first: Solved,
    stage: Limits | None,
) -> _Again | None:
    """The least-disruption stage (its account ``stage``, None if it did not run) on
    the work it has left, the score fixed to ``first``'s if proven; None when the
    score is not proven, no work is left or the stage finds no play."""
    if stage is None or not first.optimal or not stage.left:
        return None
    calmer = calmest(rules, rack, table, objective, melds, stage, score=first.score())
    return None if calmer is None else _Again(calmer.placed, calmer.proven, stage.capped)


@dataclass(frozen=True, slots=True)
class _Again:
    """What the least-disruption stage found once the score stage had proven the score:
    the layout, whether its least disruption is proven, whether the clock cut a search."""

    placed: list[PlacedSet]
    proven: bool
    capped: bool


def _score_layout(
    first: Solved, opening: bool, table_melds: tuple[Meld, ...], rules: Rules
) -> list[PlacedSet]:
    """The score stage's play laid out as the table after it: the sets of a player who
    has not opened left as they are, beside the new ones; else every set read as
    carrying the old ones on. With no table set to carry on, two runs that one run
    holds are one (:func:`~solver.rummikub.layout.join_new_runs`)."""
    placed = lay_out(first.tm, first.value)
    if opening or not table_melds:
        placed = join_new_runs(rules, placed, opening)
    if opening:
        return _unchanged(table_melds) + placed
    # The score alone lays most table sets out as new ones ("kept 0, moved 9" to add
    # R4 to R1 R2 R3): read as carrying the old sets on, as a least disruption is
    # counted.
    return carried_on(table_melds, [p.meld for p in placed], rules)


def _proven_play(
    position: Position,
    melds: tuple[Meld, ...],
    placed: list[PlacedSet],
    rules: Rules,
    calm_proven: bool,
    capped: bool,
) -> Play:
    """The play laid out as ``placed`` from the table ``melds``, its score proven: the
    tiles played are read off the layout."""
    played = _played_tiles_of(placed, melds)
    if not played:
        return _no_play(Status.OPTIMAL, position, melds, rules, capped)
    status = Status.OPTIMAL
    return assemble_play(status, position, played, melds, placed, rules, calm_proven, capped)


def _unchanged(melds: tuple[Meld, ...]) -> list[PlacedSet]:
    """The table sets as they are, each going on whole."""
    return [PlacedSet(m, i, m.tiles, ()) for i, m in enumerate(melds)]


def _no_play(
    status: Status, position: Position, melds: tuple[Meld, ...], rules: Rules, capped: bool
) -> Play:
    """The answer that places nothing and leaves the table as it is."""
    return assemble_play(status, position, [], melds, _unchanged(melds), rules, True, capped)


def played_tiles(solved: Solved) -> list[Tile]:
    """The rack tiles the solved counts play."""
    tm, value = solved.tm, solved.value
    played = [
        Tile.natural(Colour.from_index(colour), number)
        for (colour, number), var in tm.played.items()
        for _ in range(value(var))
    ]
    played += [JOKER] * value(tm.played_jokers)
    return played


def _rank(played: list[Tile], rules: Rules, objective: Objective) -> tuple[int, int, int]:
    """How the score stage orders plays (see
    :func:`~solver.rummikub.model.set_score_objective`): the score, then the fewest
    jokers played, then the most tiles."""
    jokers = played.count(JOKER)
    if objective is Objective.TILES:
        return len(played), -jokers, 0
    return sum(rules.value(tile) for tile in played), -jokers, len(played)


def _played_tiles_of(placed: list[PlacedSet], before: tuple[Meld, ...]) -> list[Tile]:
    """The rack tiles a layout places: the table after minus the table before."""
    after: Counter[Tile] = Counter(t for p in placed for t in p.meld.tiles)
    for meld in before:
        after.subtract(meld.tiles)
    return list(after.elements())


def assemble_play(
    status: Status,
    position: Position,
    played: list[Tile],
    before: tuple[Meld, ...],
    after: list[PlacedSet],
    rules: Rules,
    disruption_proven: bool,
    time_capped: bool,
) -> Play:
    """The play that lays ``played`` from the rack, turning the table ``before`` into
    ``after``, with the steps to get there."""
    left = Counter(position.rack)
    left.subtract(played)
    steps = plan(before, after, played, position.table)
    stayed = sum(len(p.stayed) for p in after)
    return Play(
        status=status,
        played=tuple(sorted(played)),
        rack_left=tuple(sorted(left.elements())),
        table=tuple(p.meld for p in steps.table),
        set_numbers=steps.numbers,
        rack_places=steps.rack_places,
        tiles_played=len(played),
        points_played=sum(rules.value(tile) for tile in played),
        sets_kept=sum(
            1
            for p in after
            if p.origin is not None and len(p.stayed) == len(before[p.origin].tiles)
        ),
        tiles_moved=sum(len(m.tiles) for m in before) - stayed,
        steps=steps.steps,
        disruption_proven=disruption_proven,
        time_capped=time_capped,
    )

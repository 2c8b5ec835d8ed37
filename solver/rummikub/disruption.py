"""Stage 2 of a solve: of the best plays, the one that disturbs the table least.

Of the plays with the best score (then the most jokers kept on the rack), this stage
keeps the most table sets whole, then leaves the most table tiles in place, then lays
out the fewest sets. It goes in steps, each a small CP-SAT search, all charged to one
budget of deterministic work (:class:`~solver.rummikub.runner.Limits`):

1. **The calm play.** Every table set goes on whole (perhaps grown at its ends or by
   colours it lacks) or gives all its tiles up
   (:func:`~solver.rummikub.model.add_whole_continuation`); the search finds the best
   score (the score stage's goal, see :func:`~solver.rummikub.model.set_score_objective`)
   and then keeps the most sets whole. With one variable per set this lean model
   proves that most within a few milliseconds. If every set is kept no play disturbs
   the table less. Where it does not prove the score within :data:`CALM_SHARE` of
   the work (in :func:`~solver.rummikub.search.solve`), the score stage proves it and
   the stage runs again with the score fixed (the ``score`` of
   :func:`least_disruption`), on the work left.
2. **Tiles moved.** With the sets kept in every calmest play (step 3) going on
   whole, those kept in none free to go on with some of their tiles
   (:func:`~solver.rummikub.model.add_partial_continuation`) and the others either
   way, the search leaves the most table tiles in place, more than the calmest
   play step 3 found read with the most tiles in place; where there is no such
   play (the search infeasible), that one is the answer, proven. On the 279 step-2
   searches of the 641 benchmark positions after opening (tiles mode) asking for
   more rather than as many took 0.87 times the deterministic work (1.364 -> 1.191
   s), the same sets kept, tiles moved and proofs on each (benchmarks/RESULTS.md,
   Issue 14q); a floor of as many had taken 0.94 times the work of none.
3. **Which sets a calmest play keeps** (run before step 2). The lean model is
   asked for plays keeping as many sets but another choice of them, until there is
   none (within a share of the work left); each search is steered towards the play
   that settles the most sets and stops at the first one it finds. When the share
   runs out first, step 2 runs for the calm play's choice and each other choice
   found (a small search each, its sets fixed whole) and then, with the work left,
   for every set either way, starting from the calmest play found.
   It stops, the answer proven, when one of its plays, read with the most tiles in
   place, moves one tile from each set given up: a set not kept moves at least
   one, so no play keeping as many sets moves fewer (on 24 of the 282 benchmark
   positions that reach step 3, tiles mode: 1470 instead of 1552 searches in all,
   the same answers).
   Step 3 used to run after a step 2 for the calm play's choice of sets (which
   then ended the stage when it moved one tile per set given up, or when step 3
   found no other choice); on the 92 of 660 committed positions where step 3 then
   found another choice, tiles mode, step 2 ran twice. Step 3 first, step 2 once:
   the default solve's p95 0.82 (tiles) and 0.87 (points) times as long, its median
   1.00 and 0.97 times (interleaved with the old order on the 660 positions,
   ``python -m benchmarks.ab --base e800aea --full``; benchmarks/RESULTS.md, Issue
   14i), the same answers; the 58 positions where that first step 2 ended the stage
   now run step 3 first (a few small searches each). Running step 2 first within a small
   work cap (0.002 s: the first step 2 of 55 of those 58 fits) and step 3 first
   beyond it: p95 1.07 times as long, the searches cut at the cap wasted. Skipping
   step 3 (one step 2 with every set either way): 1.43 times the work on the 120
   slowest positions, 5 of them left unproven (1 before).

Steps 1 and 2 prefer, among their best plays, the fewest sets on the table, as far
as the search goes once the first level is proven (see
:class:`~solver.rummikub.model.Levels`). The answer is the best play found, its
layout read with the most tiles in place, so never less calm than the calm play. It
is proven least disruptive when step 1 proves the most sets kept, step 3 finishes
and step 2 proves the most tiles in place; the fewest sets are a preference that
the proof does not cover.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from ortools.sat.python import cp_model

from solver.cpsat import LinearExpr, add_hints, maximize, total
from solver.rummikub.layout import PlacedSet, lay_out
from solver.rummikub.melds import Meld
from solver.rummikub.model import (
    TileCounts,
    TurnModel,
    build_model,
    fix_score,
    set_kept_objective,
    set_stays_objective,
)
from solver.rummikub.position import Objective
from solver.rummikub.rematch import rematch
from solver.rummikub.rules import Rules
from solver.rummikub.runner import Limits, Search, Solved, run


@dataclass(frozen=True, slots=True)
class Calmest:
    """The least disruptive layout found of a best-score play (the score proven), and
    whether no play as good disturbs the table less."""

    placed: list[PlacedSet]
    proven: bool


@dataclass(frozen=True, slots=True)
class _Turn:
    """What every model of the stage is built from."""

    rules: Rules
    rack: TileCounts
    table: TileCounts
    objective: Objective
    melds: tuple[Meld, ...]
    must_play: TileCounts | None = None

    def model(
        self,
        whole: range | frozenset[int] = range(0),
        best: Solved | None = None,
        fixed: frozenset[int] = frozenset(),
    ) -> TurnModel:
        """A model of the turn where the sets in ``whole`` go on whole or not at all,
        those in ``fixed`` go on whole, the others with any of their tiles; only plays
        as good as ``best``'s if given."""
        tm = build_model(
            self.rules,
            self.rack,
            self.table,
            self.objective,
            opening=False,
            table_melds=self.melds,
            whole=whole,
            must_play=self.must_play,
            fixed=fixed,
        )
        if best is not None:
            fix_score(tm, *best.score())
        return tm


def least_disruption(
    rules: Rules,
    rack: TileCounts,
    table: TileCounts,
    objective: Objective,
    melds: tuple[Meld, ...],
    limits: Limits,
    must_play: TileCounts | None = None,
    *,
    score: tuple[int, int, int] | None = None,
    calm_share: float = 1.0,
) -> Calmest | None:
    """The best score and, of the plays that reach it, the least disruptive layout
    (see the module docstring), within ``limits``; None if the best score was not
    proven first (or there is no play: ``must_play``, rack tiles that must all be
    played, can make the turn impossible). ``score``: the best score (what
    :meth:`~solver.rummikub.runner.Solved.score` reads) if another search proved it,
    fixed in step 1, which then keeps the most sets alone; ``calm_share``: the most of
    the work step 1 may take (a caller that proves the score by another search when
    step 1 does not, and asks again with it, keeps some work back, see
    :data:`CALM_SHARE`)."""
    turn = _Turn(rules, rack, table, objective, melds, must_play)
    lean, found = _step_one(turn, limits, score, calm_share)
    if found is None:
        return None
    calm, proven = found
    # The calm play read with the most tiles in place: its layout may lay some
    # tiles of a set given up out again where they were.
    fallback = rematch(melds, lay_out(lean, calm.value))
    calmness = _calmness(melds, fallback)
    kept, unmoved = calmness
    if kept == len(melds) or (proven and -unmoved == len(melds) - kept):
        # Nothing moves, or one tile per set given up: a set not kept moves at least
        # one, so no play keeping as many sets moves fewer.
        return Calmest(fallback, True)
    if not proven or not limits.left:
        return Calmest(fallback, False)

    def answer(solved: Solved, proven: bool) -> Calmest:
        placed = rematch(melds, lay_out(solved.tm, solved.value))
        if not proven and calmness > _calmness(melds, placed):
            placed = fallback
        return Calmest(placed, proven)

    fewest = (kept, kept - len(melds))  # one tile moved per set given up

    def settles(other: Solved) -> bool:
        """Whether ``other`` (a play of step 3), read with the most tiles in place,
        moves the fewest tiles: then no play keeping as many sets moves fewer. The
        calmest play so read is the fallback; of plays read as calm, the one laying out
        the fewest sets (the answer when step 2 finds no calmer play)."""
        nonlocal fallback, calmness
        placed = rematch(melds, lay_out(other.tm, other.value))
        read = _calmness(melds, placed)
        if read > calmness or (read == calmness and len(placed) < len(fallback)):
            fallback, calmness = placed, read
        return calmness >= fewest

    # Step 3 first, then step 2 once, for the sets it leaves either way.
    alternatives: list[Solved] = []
    with _share(limits, BACKBONE_SHARE) as part:
        backbone = _kept_in_every_and_none(lean, calm, part, alternatives, settles)
    if calmness >= fewest:
        return Calmest(fallback, True)
    if not limits.left:
        return Calmest(fallback, False)
    start, (always, never) = calm, backbone or (frozenset(), frozenset())
    if backbone is None:
        # Unfinished: step 2 for the calm play's choice and each other one found (a
        # small search each, its sets fixed), so the answer is at least the calmest
        # of them; then every set either way, from that one.
        start = _calmest_choice(turn, [calm, *alternatives], calm, limits)
        if not limits.left:
            return answer(start, False)
    # More tiles in place than the calmest play read, a play of every model here (it
    # keeps as many sets as the calm play): where there is none, that play is the
    # answer, proven.
    floor = sum(len(m.tiles) for m in melds) + calmness[1] + 1
    tm = turn.model(best=calm, fixed=always)
    moved, proven = _fewest_moved(tm, never, start, limits, floor)
    if moved is None:
        return Calmest(fallback, True) if proven else answer(start, False)
    return answer(moved, proven)


def _step_one(
    turn: _Turn, limits: Limits, score: tuple[int, int, int] | None, share: float
) -> tuple[TurnModel, tuple[Solved, bool] | None]:
    """Step 1 (:func:`calm_play`) on its lean model, the ``score`` fixed if given, within
    ``share`` of the work in ``limits``: the model and what it found. When the share ran
    out with the score proven, not the sets kept, it searches again on the work left, the
    score fixed; once that proves the most sets kept, its play if it keeps more, else
    the first one (then as many as any: proven too)."""
    lean = turn.model(range(len(turn.melds)))
    if score is not None:
        fix_score(lean, *score)
    with _share(limits, share) as part:
        found = calm_play(lean, part)
    if found is None or found[1] or not limits.left:
        return lean, found
    again = turn.model(range(len(turn.melds)))
    fix_score(again, *found[0].score())
    surer = calm_play(again, limits)
    if surer is None or not surer[1]:
        return lean, found
    if _kept(surer[0]) > _kept(found[0]):
        return again, surer
    return lean, (found[0], True)


def calm_score(
    rules: Rules,
    rack: TileCounts,
    table: TileCounts,
    objective: Objective,
    melds: tuple[Meld, ...],
    limits: Limits,
) -> tuple[list[PlacedSet], bool] | None:
    """Step 1 alone: the best play found in the calm play's model, laid out with the
    most tiles in place, and whether its score is proven within ``limits``; None when
    the search found no play. A second formulation of the score stage (see
    :func:`solver.rummikub.search.solve`)."""
    lean = _Turn(rules, rack, table, objective, melds).model(range(len(melds)))
    found = _calm_search(lean, limits)
    if found is None:
        return None
    calm, proven = found
    return rematch(melds, lay_out(lean, calm.value)), proven > 0


def _calmest_choice(turn: _Turn, choices: list[Solved], best: Solved, limits: Limits) -> Solved:
    """Step 2 for each play in ``choices``, its sets kept fixed, while work is left: the
    play moving the fewest tiles of those and ``best``."""
    for other in choices:
        if not limits.left:
            break
        kept_there = _chosen(other)
        tm = turn.model(best=other, fixed=kept_there)
        given_up = frozenset(range(len(turn.melds))) - kept_there
        tried, _ = _fewest_moved(tm, given_up, other, limits)
        if tried is not None and _stays(tried) > _stays(best):
            best = tried
    return best


def _calmness(melds: tuple[Meld, ...], placed: list[PlacedSet]) -> tuple[int, int]:
    """(sets kept whole, -tiles moved) of a layout grown from ``melds``: the larger,
    the calmer."""
    kept = sum(p.origin is not None and len(p.stayed) == len(melds[p.origin].tiles) for p in placed)
    return kept, sum(len(p.stayed) for p in placed) - sum(len(m.tiles) for m in melds)


def _fewest_moved(
    tm: TurnModel,
    given_up: frozenset[int],
    start: Solved,
    limits: Limits,
    floor: int = 0,
) -> tuple[Solved | None, bool]:
    """Step 2 on ``tm`` (where the sets kept for sure are fixed to go on whole): the
    sets in ``given_up`` not kept, as many in all as in ``start`` (the play it starts
    from), and the most table tiles in place, at least ``floor``. The play found
    (never less calm than ``start``) and whether that most is proven; (None, True)
    when no play has ``floor`` tiles in place, (None, False) if the work ran out
    first."""
    for cont in tm.continuations:
        if cont.index in given_up:
            tm.model.add(cont.kept == 0)
    tm.model.add(sum(c.kept for c in tm.continuations) >= _kept(start))
    levels = set_stays_objective(tm)
    if floor > _stays(start):
        # ``start`` is no longer a play of tm: not hinted (the same searches, measured
        # on the 340 first step-2 searches of the benchmark positions, tiles mode).
        tm.model.add(levels.goals[0] >= floor)
    else:
        hint_from(tm, start)
    moved = run(tm, limits, gap=levels.most, search=TILES_MOVED_SEARCH)
    if not moved.found or _stays(moved) < _stays(start):
        return None, moved.infeasible
    return moved, levels.proven([_stays(moved)], moved.bound) == 1


CALM_SEARCH = Search(pseudo_costs=True)
"""Branching by pseudo-costs: 0.82 times the deterministic work of LP-guided
branching on 84 positions of 40-80 table tiles (the lazy LP and probing: more)."""

TILES_MOVED_SEARCH = Search(
    pseudo_costs=True, probing=True, hint_phase=False, exact_lp_reasons=False
)
"""Branching by pseudo-costs: on 60 positions of 40-80 table tiles 0.87 times the
deterministic work of LP-guided branching (0.45 on the seven hardest); then
probing, on 106 searches of t20-t60, mid and hard positions, 0.93 times the work
and 0.82 times the CPU (0.6 times the work on the hardest). Then no phase following
the hint (the calm play, already a solution, from which the search is pulled away
anyway): on the 355 such searches of the t40-t60, mid and hard positions, 0.70 times
the work and 0.76 times the CPU, none left unproven.

The LP is built at once, as in every other search. Built lazily it takes 0.70 times
the deterministic work but 1.21 times the CPU: on the 182 step-2 searches of the
200 slowest positions (tiles; each re-solved both ways, fastest of two), at once
1.43 times the work and 0.82 times the CPU (t40-r30#16's one step 2: 0.049 against
0.093 s of work, 74 against 203 ms), the same tiles in place on each. CP-SAT's
measure of work undercounts the lazy LP's rounds (3.2 ms of CPU per ms of work,
against 1.9 at once and 2.1 in step 3's searches); no feature of the model (its
size, the sets either way) marks the searches where lazily is cheaper. The stage's
default work went from 0.15 to 0.2 s with it (see
:data:`~solver.cpsat.DEFAULT_DISRUPTION_WORK`).

The LP's propagations are explained by cheaper reasons than exact ones: on the 279
step-2 searches of the 641 benchmark positions after opening (tiles, re-solved as
captured, fastest of 3) 0.96 times the CPU (0.92 on the 30 dearest), the same
deterministic work and ends (benchmarks/RESULTS.md, Issue 14q)."""

BACKBONE_SEARCH = Search(pseudo_costs=True, first_solution=True, exact_lp_reasons=False)
"""Each search of step 3 stops at its first play, steered by pseudo-costs towards
plays that differ most from those found (see :func:`_kept_in_every_and_none`): on
the 282 positions of the benchmark corpus that reach step 3 (tiles mode), 1198
instead of 1237 searches, 0.91 times the deterministic work and 0.90 times the CPU,
the same sets kept and tiles moved on each. The LP's propagations are explained by
cheaper reasons than exact ones: on the 525 step-3 searches of the 641 benchmark
positions after opening (tiles, re-solved as captured) 0.965 times the CPU (0.90 on
the 30 dearest), the same deterministic work; 5 of them find another first play, the
answers the same (benchmarks/RESULTS.md, Issue 14q)."""

CALM_SHARE = 0.5
"""The most of the stage's work that :func:`~solver.rummikub.search.solve` lets step 1
take to prove the best score: where it does not, the score stage's own search (the
count model) proves it and the stage runs again with it fixed, on the work left. A
variant of runs of 12 under a binding ``max_jokers_per_set`` (tests/rummikub/
test_disruption.py): the lean model left 13 points unproven in 2 s of work, the count
model proved them in 0.72 s of its own, and step 1 with them fixed proved the sets
kept in 0.0005 s (before, the stage spent its 0.2 s in step 1 and the answer was left
unproven). On the committed positions step 1 takes a few milliseconds of the 0.2 s."""

BACKBONE_SHARE = 0.5
"""The most of the work left that step 3 may take to find which sets every calmest
play keeps: when it has not finished by then, step 2 runs with every set free to go
on whole or in part. Since step 3 runs first, 0.5 rather than 0.4: at 0.4 the last
search of mid-t40-60#17 (tiles), the one position then left unproven, was cut 0.009
s of work short; at 0.5 it is proven with 0.117 of its 0.15 s (the reference's
answer); every other of the 240 solves of the 120 slowest positions (tiles and
points) does the same work to the same answer, and on all 660, in both modes, least
disruption is proven, none less calm than the reference."""


@contextmanager
def _share(limits: Limits, share: float) -> Iterator[Limits]:
    """``share`` of the work left in ``limits``, charged back to them when done."""
    part = Limits(limits.work * share, limits.deadline, budget=limits.budget)
    given = part.work
    try:
        yield part
    finally:
        limits.work -= given - part.work
        limits.capped = limits.capped or part.capped


def calm_play(lean: TurnModel, limits: Limits) -> tuple[Solved, bool] | None:
    """Step 1: the best score, then the most table sets kept whole, in ``lean`` (a
    model where each set goes on whole or gives all its tiles up); the play found and
    whether no play as good keeps more; None if the work ran out before the best
    score was proven."""
    found = _calm_search(lean, limits)
    if found is None:
        return None
    calm, proven = found
    return (calm, proven == 2) if proven else None


def _calm_search(lean: TurnModel, limits: Limits) -> tuple[Solved, int] | None:
    """Search step 1 in ``lean``: the play found and how many of its goals (the score,
    then the sets kept whole) are proven; None if it found no play."""
    levels = set_kept_objective(lean, score_first=True)
    calm = run(lean, limits, gap=levels.most, search=CALM_SEARCH)
    if not calm.found:
        return None
    return calm, levels.proven([calm.value(goal) for goal in levels.goals], calm.bound)


def _chosen(solved: Solved) -> frozenset[int]:
    """The table sets that ``solved`` keeps whole."""
    return frozenset(c.index for c in solved.tm.continuations if solved.value(c.kept))


def _kept(solved: Solved) -> int:
    return sum(solved.value(c.kept) for c in solved.tm.continuations)


def _stays(solved: Solved) -> int:
    return sum(solved.value(s) for c in solved.tm.continuations for s in c.stays)


def _kept_in_every_and_none(
    lean: TurnModel,
    calm: Solved,
    limits: Limits,
    found: list[Solved],
    settles: Callable[[Solved], bool],
) -> tuple[frozenset[int], frozenset[int]] | None:
    """The sets kept in every play that keeps as many sets whole as ``calm``, and
    those kept in none; None if the work ran out first, or once ``settles`` is true
    of a play found. The plays found on the way, each with another choice of sets,
    go to ``found``.

    Each search asks for such a play that gives up a set kept in all found so far or
    keeps one kept in none: differ = sum (1 - kept[i], i in every) + sum (kept[j], j in
    none) >= 1, steered towards the largest ``differ`` (one play then settles more
    sets) but stopping at the first play found. When ``calm`` keeps no set, no play
    as good keeps one: no search."""
    kept = [c.kept for c in lean.continuations]
    if not _kept(calm):
        return frozenset(), frozenset(range(len(kept)))
    fix_score(lean, *calm.score())
    lean.model.add(sum(kept) == _kept(calm))
    every = {i for i, var in enumerate(kept) if calm.value(var)}
    ever = set(every)
    while every or len(ever) < len(kept):
        terms: list[LinearExpr] = [1 - kept[i] for i in every]
        terms += [var for j, var in enumerate(kept) if j not in ever]
        differ = total(terms)
        lean.model.add(differ >= 1)
        maximize(lean.model, differ)  # only to guide the search: it stops at a first play
        other = run(lean, limits, search=BACKBONE_SEARCH)
        if other.infeasible:
            break
        if not other.found:
            return None
        found.append(other)
        if settles(other):
            return None
        chosen = {i for i, var in enumerate(kept) if other.value(var)}
        every &= chosen
        ever |= chosen
    return frozenset(every), frozenset(range(len(kept))) - ever


def hint_from(tm: TurnModel, source: Solved) -> None:
    """Start ``tm`` from the play solved in another model of the same turn with the
    same table sets (each going on whole, or in part, in either)."""
    value = source.value
    solved = source.tm.counts()
    hints: dict[int, tuple[cp_model.IntVar, int]] = {}  # by index: the last hint counts

    def hint(var: LinearExpr, hinted: int) -> None:
        if isinstance(var, cp_model.IntVar):  # not a constant of a set fixed whole
            hints[var.index] = (var, hinted)

    for family, variables in tm.count_variables().items():
        exprs = solved[family]
        for key, var in variables.items():
            hint(var, value(exprs.get(key, 0)))
    for var in tm.continuation_variables():
        hint(var, 0)
    sources = {c.index: c for c in source.tm.continuations}
    for cont in tm.continuations:
        was = sources.get(cont.index)
        if was is None or not value(was.active):
            continue
        covered = [n for n, var in was.cover.items() if value(var)]
        hint(cont.active, 1)
        hint(cont.kept, value(was.kept))
        for stay, old in zip(cont.stays, was.stays, strict=True):
            hint(stay, value(old))
        for number, cover in cont.cover.items():
            hint(cover, int(number in covered))
        if covered and covered[0] in cont.begins:
            hint(cont.begins[covered[0]], 1)
        for colour, var in cont.added.items():
            hint(var, value(was.added.get(colour, 0)))
        hint(cont.added_jokers, value(was.added_jokers))
    for cell, var in tm.joining_jokers.items():
        hint(var, value(source.tm.joining_jokers.get(cell, 0)))
    add_hints(tm.model, hints.values())

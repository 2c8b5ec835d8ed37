"""Which new sets carry the table sets on: a layout read with the most tiles in place.

A layout says which table set each continued set carries on
(:attr:`~solver.rummikub.layout.PlacedSet.origin`); the other sets of the new table
are new. A new set may still hold tiles of a table set that no set carries on, where
they lie: the calm play's layout gives up whole sets, and lays some of their tiles
out again as they were. :func:`rematch` reads such a set as that table set's
continuation, choosing, among all ways to match those table sets to the new sets
one to one, one that keeps the most of them whole, then leaves the most tiles in
place (an assignment problem).

A tile stays as the model counts it (see
:func:`~solver.rummikub.model.add_partial_continuation`): in a run, the same tile
standing for the same number (a joker, at the number it stood for); in a group, the
same numbered tile, or a joker for a joker; the set must keep a numbered tile. The
table after the turn is the same, only the steps to reach it change.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence

from ortools.graph.python import linear_sum_assignment

from solver.errors import ModelError
from solver.rummikub.layout import PlacedSet
from solver.rummikub.legality import jokers_taken
from solver.rummikub.melds import Meld, MeldKind
from solver.rummikub.melds import readings as readings_of
from solver.rummikub.notation import Tile
from solver.rummikub.rules import Rules


def rematch(before: Sequence[Meld], placed: Sequence[PlacedSet]) -> list[PlacedSet]:
    """``placed`` (a new table grown from ``before``) with each table set that no set
    carries on matched to a new set, when one holds some of its tiles in place, so
    that the most sets are kept whole, then the most tiles stay: continued sets in
    table order, then the new ones."""
    carried = {p.origin for p in placed if p.origin is not None}
    free = [i for i in range(len(before)) if i not in carried]
    new = [p for p in placed if p.origin is None]
    pairs = {
        (i, j): stay
        for i in free
        for j, p in enumerate(new)
        if (stay := staying(before[i], p.meld))
    }
    if not pairs:
        return list(placed)
    whole = {i: len(before[i].tiles) for i in free}
    matched = _calmest_match(pairs, whole, len(new))
    continued = [p for p in placed if p.origin is not None]
    for i, j in matched.items():
        stayed = pairs[i, j]
        joined = Counter(new[j].meld.tiles) - Counter(stayed)
        continued.append(PlacedSet(new[j].meld, i, stayed, tuple(joined.elements())))
    continued.sort(key=_origin)
    taken = set(matched.values())
    return continued + [p for j, p in enumerate(new) if j not in taken]


def carried_on(before: Sequence[Meld], after: Sequence[Meld], rules: Rules) -> list[PlacedSet]:
    """The sets ``after`` (a new table of ``before``'s tiles and others, laid out with
    no regard to ``before``) read as carrying ``before``'s sets on, as a least
    disruption is counted: matched one to one so that the most sets are kept whole,
    then the most tiles stay (:func:`staying`). A set of exactly an old set's tiles
    (as multisets) is that set as it was, in the old set's reading: any reading of a
    valid set's tiles is valid, and this one keeps each joker where it stood; another
    set holding jokers is read the way that keeps the most of the old set's tiles in
    place (``J J B2`` as ``B2 J(B3) J(B4)`` carries ``B2 J(B3)`` on whole). Under
    ``joker_retrieval: "replace"`` each old set holding a joker goes on only as a set
    that may carry it on (:func:`~solver.rummikub.legality.jokers_taken`), and one
    is found for each when there is one, as the rule and the least disruption's
    count both need (matching an old run with a joker to the only set that could
    carry it on counts fewer kept than a match that leaves it none). Continued sets
    in table order, then the new ones."""
    readings: dict[tuple[int, int], Meld] = {}
    pairs: dict[tuple[int, int], tuple[Tile, ...]] = {}
    must: set[int] = set()
    # A new set holding jokers may be read any valid way (J J B2 as B2 J(B3) J(B4),
    # which keeps B2 J(B3) whole), its own reading first. Each reading's place (a
    # run's colour, a group's number) and each set's tiles are read once, not for
    # every pair: a new set carries an old one on only in the old one's place or, read
    # as the old one, with exactly its tiles (R1 J J laid out as a group of 1s).
    options = [
        [new] + [m for m in readings_of(new.tiles, rules) if m != new] if new.jokers else [new]
        for new in after
    ]
    places: dict[tuple[object, ...], list[tuple[int, Meld]]] = {}
    same: dict[tuple[Tile, ...], list[int]] = {}
    for j, read in enumerate(options):
        for reading in read:
            places.setdefault(_place(reading), []).append((j, reading))
        same.setdefault(_key(after[j]), []).append(j)
    for i, old in enumerate(before):
        holds_jokers = rules.replace_jokers and old.jokers > 0
        if holds_jokers:
            must.add(i)
        exact = set(same.get(_key(old), []))
        candidates: dict[int, list[Meld]] = {j: [old] for j in exact}
        for j, reading in places.get(_place(old), []):
            if j not in exact:
                candidates.setdefault(j, []).append(reading)
        for j in sorted(candidates):
            scored = [
                (staying(old, reading), reading)
                for reading in candidates[j]
                if not (holds_jokers and jokers_taken(old, reading) is None)
            ]
            stay, reading = max(scored, key=lambda pair: len(pair[0]), default=((), old))
            if stay:
                readings[i, j], pairs[i, j] = reading, stay
    whole = {i: len(old.tiles) for i, old in enumerate(before)}
    matched = _calmest_match(pairs, whole, len(after), must)
    continued = []
    for i, j in sorted(matched.items()):
        joined = Counter(readings[i, j].tiles) - Counter(pairs[i, j])
        continued.append(PlacedSet(readings[i, j], i, pairs[i, j], tuple(joined.elements())))
    taken = set(matched.values())
    return continued + [
        PlacedSet(new, None, (), new.tiles) for j, new in enumerate(after) if j not in taken
    ]


def _key(meld: Meld) -> tuple[Tile, ...]:
    """``meld``'s tiles as a multiset."""
    return tuple(sorted(meld.tiles))


def _place(meld: Meld) -> tuple[object, ...]:
    """Where ``meld`` lies: a run by its colour, a group by its number."""
    meant = meld.stands_for[0]
    return (meld.kind, meant.colour if meld.kind is MeldKind.RUN else meant.number)


def staying(old: Meld, new: Meld) -> tuple[Tile, ...]:
    """The tiles of table set ``old`` that stay in place if ``new`` carries it on
    (none unless a numbered tile stays)."""
    if old.kind is not new.kind:
        return ()
    if old.kind is MeldKind.RUN:
        # A tile and what it stands for; two tiles of a run never stand for the same.
        places = set(zip(new.tiles, new.stands_for, strict=True))
        stayed = [t for t, m in zip(old.tiles, old.stands_for, strict=True) if (t, m) in places]
    elif old.stands_for[0].number != new.stands_for[0].number:
        return ()
    else:
        stayed = list((Counter(old.tiles) & Counter(new.tiles)).elements())
    return tuple(stayed) if any(not t.is_joker for t in stayed) else ()


def _calmest_match(
    pairs: dict[tuple[int, int], tuple[Tile, ...]],
    whole: dict[int, int],
    new: int,
    must: Collection[int] = (),
) -> dict[int, int]:
    """Table set -> new set, one to one over the ``pairs`` (the tiles staying, by
    table set and new set), matching first as many of the table sets ``must`` as can
    be, then keeping the most table sets whole (``whole``: their sizes), then the
    most tiles in place: a pair weighs its stayed tiles plus, when that is the whole
    set, more than all tiles together, plus for a set of ``must`` more than all that."""
    bonus = sum(whole.values()) + 1
    weights = {
        (i, j): len(stayed) + bonus * (len(stayed) == whole[i]) + bonus * bonus * (i in must)
        for (i, j), stayed in pairs.items()
    }
    return heaviest_matching(weights, list(whole), new)


def heaviest_matching(
    weights: dict[tuple[int, int], int], left: Sequence[int], right: int
) -> dict[int, int]:
    """``left`` nodes -> right nodes ``0..right-1``, one to one over the pairs of
    ``weights``, of the most total weight; any node may be left unmatched (the
    assignment problem, each node having a stand-in on the other side)."""
    solver = linear_sum_assignment.SimpleLinearSumAssignment()
    rows = {i: r for r, i in enumerate(left)}
    # Left nodes: the left ones (r), then each right one's stand-in (len(left) + j);
    # right nodes: the right ones (j), then each left one's stand-in (right + r). A
    # left node alone takes its own stand-in, a right one alone its own; r matched to
    # j leaves j's stand-in to take r's.
    for (i, j), weight in weights.items():
        r = rows[i]
        solver.add_arc_with_cost(r, j, -weight)
        solver.add_arc_with_cost(len(left) + j, right + r, 0)
    for r in range(len(left)):
        solver.add_arc_with_cost(r, right + r, 0)
    for j in range(right):
        solver.add_arc_with_cost(len(left) + j, j, 0)
    if solver.solve() != solver.OPTIMAL:
        raise ModelError("a matching of sets failed")
    matched = {}
    for r, i in enumerate(left):
        j = solver.right_mate(r)
        if j < right:
            matched[i] = j
    return matched


def _origin(placed: PlacedSet) -> int:
    assert placed.origin is not None
    return placed.origin

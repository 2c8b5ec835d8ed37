"""Verdicts and answers depend on what is on the table, not on how it is listed: the
order of the sets, of the rack, of the tiles of a set where the rules give that order
no meaning, and jokers written with the tile they are read as (``J(R5)``)."""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from collections.abc import Sequence

import pytest
from hypothesis import event, given, note, settings
from hypothesis import strategies as st

from solver import validate_rummikub
from solver.errors import MeldwiseError
from solver.rummikub import Limit, Objective, Position, Rules, Status, Tile, solve
from solver.rummikub.deal import full_set
from solver.rummikub.legality import Verdict, check_play
from solver.rummikub.melds import Meld, MeldKind, read_meld_or_none, readings
from solver.rummikub.notation import JOKER, written_sets
from solver.rummikub.repair import repair
from tests.rummikub.oracle import oracle_for
from tests.rummikub.strategies import claimed_moves, examples, positions, shapes, small_rules

Sets = list[list[Tile]]


TILES = re.compile(r"(?:J\([A-Z]\d+\)|J|[A-Z]\d+)(?: (?:J\([A-Z]\d+\)|J|[A-Z]\d+))*")


def _unplaced(reason: str) -> str:
    """``reason`` without where things are listed: "table set N" (of the table before)
    without N, the tiles a reason quotes (a set as written) sorted."""
    reason = re.sub(r"table set \d+", "table set #", reason)
    return TILES.sub(lambda m: " ".join(sorted(m.group().split())), reason)


def _summary(verdict: Verdict) -> tuple[bool, Counter[str]]:
    """The verdict without the places the sets are listed at: set indices (of the
    table after, and of the table before) left out, the tiles a reason quotes sorted."""
    return verdict.legal, Counter(_unplaced(p.reason) for p in verdict.problems)


def _order_free(tiles: Sequence[Tile], rules: Rules, judged: bool = True) -> bool:
    """Whether the order ``tiles`` are written in means nothing: to a verdict under
    "free" it never does (a set is valid, and worth its best reading, in any order);
    under "replace" it decides where a run's joker stands, and for a solve's or a
    repair's closeness (``judged`` false) which set an old one is (``J B3`` the run
    B2 B3, ``B3 J`` the group of 3s: docs/rummikub.md, Tile notation), so there only
    a set read one way at most."""
    return (judged and not rules.replace_jokers) or len(readings(tiles, rules)) <= 1


@st.composite
def moves(draw: st.DrawFn, rules: Rules, opened: bool | None = None) -> tuple[Position, Sets]:
    """A position and a claimed move from it: any (:func:`claimed_moves`), or one
    laying sets beside table sets of the same tiles (:func:`twin_moves`)."""
    if draw(st.booleans()):
        return draw(twin_moves(rules, opened))
    position = draw(positions(rules, opened=opened))
    return position, draw(claimed_moves(position, rules))


@st.composite
def shuffled(
    draw: st.DrawFn, sets: Sequence[Sequence[Tile]], rules: Rules, judged: bool = True
) -> Sets:
    """``sets`` in another order, each set's tiles too where that order means nothing."""
    out = [
        list(draw(st.permutations(tiles))) if _order_free(tiles, rules, judged) else list(tiles)
        for tiles in sets
    ]
    return list(draw(st.permutations(out)))


@pytest.mark.variants
@settings(max_examples=examples(200))
@given(data=st.data(), rules=small_rules())
def test_a_verdict_does_not_depend_on_the_order_things_are_listed_in(
    data: st.DataObject, rules: Rules
) -> None:
    """The sets before and after, the rack, and the tiles of a set where their order
    means nothing, listed another way: the same verdict and the same problems."""
    position, after = data.draw(moves(rules))
    verdict = check_play(position.rack, position.table, after, position.opened, rules)
    note(f"verdict: {verdict}")
    rack = data.draw(st.permutations(position.rack))
    before2 = data.draw(shuffled(position.table, rules))
    after2 = data.draw(shuffled(after, rules))
    note(f"listed: rack {rack}, before {before2}, after {after2}")
    again = check_play(rack, before2, after2, position.opened, rules)
    assert _summary(again) == _summary(verdict)
    assert again.played == verdict.played


def _bracketed(tiles: Sequence[Tile], rules: Rules, best: bool) -> list[Tile]:
    """``tiles`` in their order, each joker written with the tile it is read as: the
    reading the table keeps (:func:`read_meld`), or with ``best`` the reading worth
    most (what a new set counts under "free"). A set that is none stays as it is."""
    if best:
        options = readings(tiles, rules)
        meld = max(options, key=lambda m: m.value) if options else None
    else:
        meld = read_meld_or_none(tiles, rules)
    if meld is None or not any(t.is_joker for t in tiles):
        return list(tiles)
    # The meld's tiles are in reading order, a group's as written: a group's jokers
    # take what the meld reads them as in place; a run's jokers written plain take the
    # places of its jokers that no joker written with a tile names, in the order written.
    if meld.kind is MeldKind.GROUP:
        return list(meld.written)
    said = Counter(t.meant for t in tiles if t.is_joker and t.meant is not None)
    places = []  # in reading order: a run written in order has its jokers so
    for t, m in zip(meld.tiles, meld.stands_for, strict=True):
        if t.is_joker and not said[m]:
            places.append(m)
        elif t.is_joker:
            said[m] -= 1
    free = iter(places)
    return [
        t if not t.is_joker or t.meant is not None else Tile(None, 0, next(free)) for t in tiles
    ]


@pytest.mark.variants
@settings(max_examples=examples(200))
@given(data=st.data(), rules=small_rules())
def test_jokers_written_as_they_are_read_change_no_verdict(
    data: st.DataObject, rules: Rules
) -> None:
    """Every joker of the table before written with the tile the table reads it as,
    and every joker after with the tile it counts as (its best reading under "free",
    the reading the table keeps under "replace"): the same verdict."""
    position, after = data.draw(moves(rules))
    verdict = check_play(position.rack, position.table, after, position.opened, rules)
    before2 = [_bracketed(tiles, rules, best=False) for tiles in position.table]
    after2 = [_bracketed(tiles, rules, best=not rules.replace_jokers) for tiles in after]
    note(f"verdict: {verdict}; written: before {before2}, after {after2}")
    again = check_play(position.rack, before2, after2, position.opened, rules)
    assert again.legal == verdict.legal
    assert len(again.problems) == len(verdict.problems)


def _listed(data: st.DataObject, position: Position, rules: Rules) -> Position:
    """``position`` with its rack and table sets listed in another order (each set's
    own tiles too, where their order means nothing)."""
    rack = tuple(data.draw(st.permutations(position.rack)))
    table = tuple(
        tuple(tiles) for tiles in data.draw(shuffled(position.table, rules, judged=False))
    )
    return Position(rack, table, position.opened)


@pytest.mark.variants
@settings(max_examples=examples(100))
@given(data=st.data(), rules=small_rules(), objective=st.sampled_from(list(Objective)))
def test_a_solve_does_not_depend_on_the_order_things_are_listed_in(
    data: st.DataObject, rules: Rules, objective: Objective
) -> None:
    """The best play of a position listed another way scores the same, keeps as many
    jokers, and (both proven) is as calm; its sets, jokers written with the tiles they
    stand for, listed in any order with their tiles in any order, are a legal play
    from either listing."""
    position = data.draw(st.one_of(positions(rules), twin_moves(rules).map(lambda m: m[0])))
    listed = _listed(data, position, rules)
    note(f"listed: {listed}")
    play = solve(position, rules, objective, limit=Limit(20))
    again = solve(listed, rules, objective, limit=Limit(20))
    assert play.status is again.status is Status.OPTIMAL
    # What the objective ranks: most tiles alone leaves the points open (R1 R2 R3 K1 K2
    # K3 and R2 R3 B2 B3 K2 K3 are both six tiles); most points then most tiles.
    ranked = (
        ("tiles_played",) if objective is Objective.TILES else ("points_played", "tiles_played")
    )
    for key in ranked:
        assert getattr(again, key) == getattr(play, key), key
    assert Counter(t.is_joker for t in again.played) == Counter(t.is_joker for t in play.played)
    if play.disruption_proven and again.disruption_proven:
        assert (again.sets_kept, again.tiles_moved) == (play.sets_kept, play.tiles_moved)
    written = [list(data.draw(st.permutations(meld.written))) for meld in play.table]
    after = list(data.draw(st.permutations(written)))
    note(f"written: {after}")
    for start in (position, listed):
        verdict = check_play(start.rack, start.table, after, start.opened, rules)
        assert verdict.legal, verdict.problems


def _request(
    rack: Sequence[Tile], before: Sets, after: Sets, position: Position, rules: Rules
) -> dict[str, object]:
    """The validate request, each joker written with its tile when it has one (``J(R4)``)."""
    return {
        "rack": [str(t) for t in rack],
        "table_before": written_sets(before),
        "table_after": written_sets(after),
        "opened": position.opened,
        "rules": rules.to_dict(),
    }


@pytest.mark.variants
@settings(max_examples=examples(100))
@given(data=st.data(), rules=small_rules())
def test_validate_does_not_depend_on_the_order_things_are_listed_in(
    data: st.DataObject, rules: Rules
) -> None:
    """The wire form: the same verdict, and for an illegal move the same consequence
    (whether it can be put right, the tiles back to the rack)."""
    position, after = data.draw(moves(rules))
    before = [list(tiles) for tiles in position.table]
    rack = data.draw(st.permutations(position.rack))
    before2, after2 = data.draw(shuffled(before, rules)), data.draw(shuffled(after, rules))
    try:
        answer = validate_rummikub(_request(position.rack, before, after, position, rules))
    except MeldwiseError as error:  # a joker from nowhere in a game of none: refused
        with pytest.raises(type(error)):
            validate_rummikub(_request(rack, before2, after2, position, rules))
        return
    note(f"answer: {answer}")
    again = validate_rummikub(_request(rack, before2, after2, position, rules))
    note(f"again: {again}")

    def summary(answer: dict[str, object]) -> object:
        found = answer["consequence"]
        problems = answer["problems"]
        assert isinstance(problems, list)
        reasons = Counter(_unplaced(p["reason"]) for p in problems)
        if not isinstance(found, dict):
            return answer["legal"], answer["played"], reasons, found
        penalty = found.get("penalty") or {}
        return (
            answer["legal"],
            answer["played"],
            reasons,
            found["repairable"],
            sorted(penalty.get("back_to_rack", [])),
        )

    assert summary(again) == summary(answer)


@pytest.mark.variants
@settings(max_examples=examples(60))
@given(data=st.data(), rules=small_rules())
def test_a_repair_does_not_depend_on_the_order_things_are_listed_in(
    data: st.DataObject, rules: Rules
) -> None:
    """A claimed move's table after repaired, its heaps and the table before listed
    another way (and the rack): as repairable, as many tiles left out, the same
    rescue's score; an arrangement's sets, jokers written with their tiles and
    shuffled, are a legal play from the table before."""
    position, after = data.draw(moves(rules, opened=True))
    before = [list(tiles) for tiles in position.table]
    came = Counter(t for tiles in after for t in tiles) - Counter(
        t for tiles in before for t in tiles
    )
    if came - Counter(position.rack) or Counter(t for s in before for t in s) - Counter(
        t for s in after for t in s
    ):
        return  # a repair asks for every tile of the table before still on it, from the rack
    rack = [t for t in (Counter(position.rack) - came).elements()]
    fixed = repair(after, rules, before, rack, limit=Limit(20))
    again = repair(
        data.draw(shuffled(after, rules)),
        rules,
        data.draw(shuffled(before, rules)),
        list(data.draw(st.permutations(rack))),
        limit=Limit(20),
    )
    note(f"repair: {fixed}\nagain: {again}")
    assert (again.status, again.repairable) == (fixed.status, fixed.repairable)
    if fixed.arrangement is not None and again.arrangement is not None:
        assert len(again.arrangement.left_out) == len(fixed.arrangement.left_out)
    assert (again.rescue is None) == (fixed.rescue is None)
    if fixed.rescue is not None and again.rescue is not None:
        assert again.rescue.tiles_played == fixed.rescue.tiles_played
    for found in (fixed, again):
        if found.repairable and found.arrangement is not None:
            written = [list(data.draw(st.permutations(m.written))) for m in found.arrangement.table]
            table = list(data.draw(st.permutations(written)))
            laid = list(
                (
                    Counter(t for s in after for t in s) - Counter(t for s in before for t in s)
                ).elements()
            )
            verdict = check_play(laid, before, table, True, rules)
            assert verdict.legal or not laid, verdict.problems


def _written_as(draw: st.DrawFn, tiles: list[Tile], rules: Rules) -> list[Tile]:
    """``tiles`` in any order, its jokers written plain or with what one reading of
    the set has them stand for (``J(R4)``)."""
    tiles = list(draw(st.permutations(tiles)))
    options = readings(tiles, rules)
    if not options or not any(t.is_joker for t in tiles) or draw(st.booleans()):
        return tiles
    return _with_reading(tiles, draw(st.sampled_from(options)))


def _with_reading(tiles: list[Tile], meld: Meld) -> list[Tile]:
    """``tiles`` (jokers plain) with each joker written with a tile ``meld`` has a
    joker stand for, in the order ``meld`` reads them."""
    meant = iter(m for t, m in zip(meld.tiles, meld.stands_for, strict=True) if t.is_joker)
    return [Tile(None, 0, next(meant)) if t.is_joker else t for t in tiles]


@st.composite
def twin_moves(draw: st.DrawFn, rules: Rules, opened: bool | None = None) -> tuple[Position, Sets]:
    """A position whose rack holds sets of the same tiles as table sets (another copy,
    the jokers in other places, written plain or with what they stand for), and a move
    that lays them beside those sets, perhaps with a set of other tiles: the case where
    which set is the new one is the table's to say, whatever order it lists them in."""
    pool = full_set(rules)
    jokers = pool.pop(JOKER, 0)
    table: Sets = []
    laid: Sets = []
    for _ in range(draw(st.integers(1, 3))):
        tiles = draw(shapes(rules))
        need = Counter(tiles)
        if any(pool[t] < n for t, n in need.items()):
            continue
        pool.subtract(need)
        count = draw(st.integers(0, min(jokers, rules.max_jokers_per_set, len(tiles) - 1)))
        for spot in draw(st.permutations(range(len(tiles))))[:count]:
            pool[tiles[spot]] += 1
            tiles[spot] = JOKER
        jokers -= count
        table.append(_written_as(draw, tiles, rules))
        naturals = Counter(t for t in tiles if not t.is_joker)
        twins = draw(st.integers(0, 2))
        while twins and jokers >= count and not naturals - pool:
            pool.subtract(naturals)
            jokers -= count
            laid.append(_written_as(draw, tiles, rules))
            twins -= 1
    if draw(st.booleans()):  # a set of other tiles
        tiles = draw(shapes(rules))
        if not Counter(tiles) - pool:
            pool.subtract(Counter(tiles))
            laid.append(tiles)
    rack = [t for tiles in laid for t in tiles]
    rest = sorted(pool.elements())
    rack += (
        [rest[i] for i in draw(st.sets(st.sampled_from(range(len(rest))), max_size=2))]
        if rest
        else []
    )
    rack = [JOKER if t.is_joker else t for t in rack]
    kept = [list(tiles) for tiles in table]
    opened = draw(st.booleans()) if opened is None else opened
    position = Position(tuple(sorted(rack)), tuple(tuple(s) for s in table), opened)
    return position, kept + laid


@pytest.mark.variants
@settings(max_examples=examples(300))
@given(data=st.data(), rules=small_rules())
def test_sets_laid_beside_sets_of_the_same_tiles_are_judged_in_any_order(
    data: st.DataObject, rules: Rules
) -> None:
    """Sets laid beside table sets of the same tiles (the case of 5c6c19a): the
    verdict is the rules' (the oracle's) and the same listed any way."""
    position, after = data.draw(twin_moves(rules))
    oracle = oracle_for(rules)
    if not position.opened and data.draw(st.booleans()):
        # A threshold at what the sets laid are worth, or a point above: where the
        # worth of which set is the new one decides.
        worth = sum(oracle.opening_value(tiles) or 0 for tiles in after[len(position.table) :])
        threshold = worth + data.draw(st.sampled_from([0, 1, -1, -2, 2]))
        rules = dataclasses.replace(rules, opening_threshold=max(0, threshold))
        oracle = oracle_for(rules)
    note(f"position: {position}, after: {after}")
    verdict = check_play(position.rack, position.table, after, position.opened, rules)
    assert verdict.legal == oracle.judge(position.rack, position.table, after, position.opened)
    listed = data.draw(shuffled(after, rules))
    note(f"listed: {listed}")
    again = check_play(position.rack, position.table, listed, position.opened, rules)
    assert _summary(again) == _summary(verdict)
    assert again.legal == oracle.judge(position.rack, position.table, listed, position.opened)
    event(f"legal: {verdict.legal}, opened: {position.opened}, {rules.joker_retrieval}")

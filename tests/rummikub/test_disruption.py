"""Least disruption: among the best plays, the one that changes the table least."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from hypothesis import assume, given, note, settings
from hypothesis import strategies as st
from hypothesis.errors import UnsatisfiedAssumption
from ortools.sat.python import cp_model

from solver.cpsat import LinearExpr, total
from solver.rummikub import (
    JOKER,
    Limit,
    Objective,
    Play,
    Position,
    Rules,
    Tile,
    parse_tiles,
    solve,
)
from solver.rummikub.disruption import BACKBONE_SEARCH, TILES_MOVED_SEARCH, calm_play
from solver.rummikub.layout import PlacedSet, lay_out
from solver.rummikub.melds import Meld
from solver.rummikub.model import TileCounts, TurnModel, build_model
from solver.rummikub.rematch import rematch
from solver.rummikub.runner import Limits, Search, Solved, run
from solver.rummikub.search import DEFAULT_DISRUPTION_WORK
from solver.rummikub.steps import Action
from tests.rummikub import disruption_oracle
from tests.rummikub.disruption_oracle import DisruptionOracle, disruption_oracle_for
from tests.rummikub.helpers import assert_legal_answer
from tests.rummikub.strategies import (
    dealt,
    examples,
    positions,
    request_of,
    small_rules,
    variants,
)

RULES = Rules()
REFERENCE = Path(__file__).parents[2] / "benchmarks" / "reference-2026.json"


@pytest.mark.parametrize("least_disruption", [True, False])
def test_an_empty_table_is_proven_undisturbed(least_disruption: bool) -> None:
    # Nothing is on the table, so no play can disturb it less.
    play = solve(Position.parse("R1 R2 R3 B7 J"), RULES, least_disruption=least_disruption)
    assert play.played
    assert play.disruption_proven


def test_appending_keeps_every_set() -> None:
    # A rebuild (R3..R9 as one run, groups re-dealt) is as good on tiles, but
    # appending R9, B9 and K3 keeps every set whole.
    position = Position.parse("R9 B9 K3", "R6 R7 R8 | B6 B7 B8 | K4 K5 K6 | R5 B5 O5 | R4 B4 O4")
    play = solve(position, RULES)
    assert play.tiles_played == 3
    assert play.sets_kept == 5
    assert play.tiles_moved == 0
    assert play.disruption_proven
    assert [s.action.value for s in play.steps] == ["add", "add", "add"]
    for index, before in enumerate(position.table):
        assert set(before) <= set(play.table[index].tiles)


def test_a_group_takes_the_fourth_colour_instead_of_splitting_a_run() -> None:
    play = solve(Position.parse("R5", "R1 R2 R3 R4 R5 R6 | B5 K5 O5"), RULES)
    assert play.sets_kept == 2
    assert play.tiles_moved == 0
    assert_legal_answer(Position.parse("R5", "R1 R2 R3 R4 R5 R6 | B5 K5 O5"), RULES, play)


@pytest.mark.parametrize(
    ("rack", "table", "joker_as"),
    [
        ("R1 R2 R3", "K7 B7 J(O7)", ["O7"]),  # left alone
        ("R1 R2 R3 R9", "K7 B7 J(O7) | R10 R11 R12", ["O7"]),  # another set grows
        ("O7 R1 R2 R3", "K7 B7 J(O7)", ["R7"]),  # O7 joins: the joker takes the free colour
        ("R4 R5 R6", "K7 B7 J(O7) J(R7)", ["R7", "O7"]),
    ],
)
def test_a_group_joker_that_stays_keeps_the_colour_it_stood_for(
    rack: str, table: str, joker_as: list[str]
) -> None:
    # The table's K7 B7 J(O7), left alone, came back as J B7 K7 read as R7 B7 K7: the
    # joker written as standing elsewhere, though the answer said no tile moved.
    position = Position.parse(rack, table)
    play = solve(position, RULES)
    assert play.tiles_moved == 0
    group = next(s for s in play.table if s.kind.value == "group")
    read = [str(m) for t, m in zip(group.tiles, group.stands_for, strict=True) if t.is_joker]
    assert sorted(read) == sorted(joker_as)
    assert_legal_answer(position, RULES, play)


def test_a_group_carries_on_only_as_a_group() -> None:
    """docs/rummikub.md, tie-break 4: the R2 of the group R2 B2 J left where it lay in
    the new run R1 R2 R3 is moved (counted as staying, 2 would move, not 3); the
    exhaustive oracle counts so too."""
    rules = Rules(colours=3, numbers=3, copies=2, jokers=1, opening_threshold=5, joker_penalty=0)
    position = Position.parse("R1 B3 R3 R1 B1 B1", "R2 B2 J | K1 K2 K3 | R2 B2 K2")
    play = solve(position, rules, Objective.POINTS)
    assert_legal_answer(position, rules, play)
    expected = disruption_oracle_for(rules).least_disruption(position, Objective.POINTS)
    assert (play.sets_kept, -play.tiles_moved) == expected == (2, -3)
    assert play.disruption_proven


def test_the_joker_stays_on_the_rack_when_the_count_is_equal() -> None:
    # Four tiles either way: R7 B7 K7 O7, or three of them with the joker.
    play = solve(Position.parse("R7 B7 K7 O7 J"), RULES)
    assert play.tiles_played == 4
    assert [str(t) for t in play.rack_left] == ["J"]
    # In points mode the joker is worth 30, so the objective itself places it.
    by_points = solve(Position.parse("R7 B7 K7 O7 J"), RULES, Objective.POINTS)
    assert "J" in [str(t) for t in by_points.played]


def _listed(oracle: DisruptionOracle, tiles: str) -> list[Any] | None:
    """The oracle's splits of ``tiles`` into sets, or None when it rejects them as too
    big to list."""
    try:
        return oracle.layouts(tuple(sorted(Counter(parse_tiles(tiles)).items())))
    except UnsatisfiedAssumption:
        return None


@settings(max_examples=1)  # hypothesis.reject belongs in a property test
@given(rules=st.just(Rules(colours=2, numbers=5, copies=2, min_set_len=2, max_jokers_per_set=2)))
def test_the_oracles_bound_judges_an_example_alone(rules: Rules) -> None:
    """Whether the layout oracle rejects tiles as too many to list is theirs alone, not
    what it listed before: it counted only the sets tried on multisets not listed yet,
    so after the tiles left by the group R1 B1 the whole came within a bound that
    rejects it asked first, and hypothesis called a failure's replay flaky. The bound
    here is between what a listing from nothing tries on the part and on the whole."""
    whole, part = "R1 R2 R3 R4 B1 B2 B3 B4 J J", "R2 R3 R4 B2 B3 B4 J J"
    unbounded = DisruptionOracle(rules)
    assert _listed(unbounded, whole) == _listed(DisruptionOracle(rules), whole)
    with mock.patch.object(disruption_oracle, "MAX_TRIES", 1000):
        assert _listed(DisruptionOracle(rules), whole) is None
        oracle = DisruptionOracle(rules)
        assert _listed(oracle, part) == _listed(unbounded, part)
        assert _listed(oracle, whole) is None
        assert _listed(oracle, part) == _listed(unbounded, part)
        # Listed within the bound, tiles stay so, as a listing from nothing says.
        first = DisruptionOracle(rules)
        assert (
            _listed(first, part) == _listed(first, part) == _listed(DisruptionOracle(rules), part)
        )


@pytest.mark.variants
@settings(max_examples=examples(150))
@given(data=st.data(), rules=variants(), objective=st.sampled_from(list(Objective)))
def test_disruption_matches_exhaustive_search_over_best_plays(
    data: st.DataObject, rules: Rules, objective: Objective
) -> None:
    position = data.draw(positions(rules, max_rack=4, opened=True))
    note(request_of(position, rules, objective=objective.value))
    oracle = disruption_oracle_for(rules)
    play = solve(position, rules, objective, limit=Limit(30, disruption_time=30))
    assert play.disruption_proven
    assert_legal_answer(position, rules, play)
    best = oracle.least_disruption(position, objective)
    reported = (play.sets_kept, -play.tiles_moved)
    # The answer's own table, matched to the old sets by the oracle, supports what it reports.
    assert oracle.disruption_of(position, play.table) >= reported
    assert reported == best
    # With little work the searches may stop early: then the answer may be less calm,
    # but only an answer as calm as the best one may say it is proven.
    little_work = data.draw(st.sampled_from([0.0002, 0.001, 0.003]), label="little_work")
    hurried = solve(position, rules, objective, limit=Limit(disruption_work=little_work))
    assert hurried.tiles_played == play.tiles_played
    if hurried.disruption_proven:
        assert (hurried.sets_kept, -hurried.tiles_moved) == best
    else:
        assert (hurried.sets_kept, -hurried.tiles_moved) <= best


def test_a_joker_freed_by_the_top_tile_of_a_long_run_is_proven_calmest() -> None:
    """Found by the wide variant test at seed 33 (MELDWISE_EXAMPLES=100): the answer
    (R13 in place of the joker of the red run 2-13, the joker to its 1) was as calm as
    the exhaustive search's best, (1 set kept, 1 tile moved), but not proven. Step 1's
    lean model did not prove the score (13 points) in the stage's work (nor in 2 s);
    the count model proves it, and with it fixed step 1 proves the sets kept at once
    (see disruption.CALM_SHARE)."""
    rules = Rules(
        colours=3,
        numbers=13,
        jokers=4,
        min_set_len=12,
        opening_threshold=18,
        joker_penalty=0,
        max_jokers_per_set=3,
    )
    position = Position.parse(
        "R1 R5 R13 B6",
        "B3 B13 B12 B4 B1 J B10 B7 B2 B9 B5 B8 B11 | R11 R4 R9 J J R6 R3 R8 R10 R12 R2 J",
        opened=True,
    )
    assert _proven_as_calm_as_the_oracle(position, rules, Objective.POINTS) == (1, -1)


def test_step_one_cut_by_its_share_still_proves_the_sets_kept() -> None:
    """Drawn from the wide variants: step 1 needs 0.106 s of work to prove the score and
    the sets kept, more than its share (disruption.CALM_SHARE), which ends with the
    score proven; searching again with the score fixed proves the sets kept (0.004 s).
    Every set is a full run going round that nothing can join, so a play breaks one and
    moves a tile of it at least: 2 kept, 1 moved is the calmest."""
    rules = Rules(
        colours=2,
        numbers=9,
        copies=3,
        jokers=2,
        min_set_len=3,
        joker_penalty=1,
        joker_retrieval="replace",
        max_jokers_per_set=1,
        wrap_runs=True,
    )
    position = Position.parse(
        "R9 J J",
        "R1 R2 R3 R4 R5 R6 R7 R8 R9 | B1 B2 B3 B4 B5 B6 B7 B8 B9 | B9 B6 B5 B1 B4 B7 B8 B3 B2",
        opened=True,
    )
    play = solve(position, rules, Objective.POINTS, limit=Limit(30, disruption_time=30))
    assert_legal_answer(position, rules, play)
    assert play.played
    assert (play.sets_kept, play.tiles_moved) == (2, 1)
    assert play.disruption_proven


@pytest.mark.xfail(strict=True, reason="step 2 needs more than the work left: open, see the test")
def test_a_joker_freed_beside_two_full_runs_going_round_is_proven_calmest() -> None:
    """Found by the wide variant test at seed 6070: G4 goes into a group of 4s made of
    the run J J J O4 J's tiles (read O1-O5), whose other joker then breaks one of the
    two full runs going round. With the default work the answer moves 8 tiles,
    unproven; the exhaustive search's best moves 7. Step 2 (both full runs either way)
    needs 0.27 s of work to prove 7 with pseudo-cost branching (0.15-0.99 over 8 random
    seeds), 0.19 s are left; LP-guided branching needs 0.02-0.03, but is not cheaper on
    other positions; without ``wrap_runs`` the same step takes 0.007."""
    rules = Rules(
        colours=5,
        numbers=9,
        copies=2,
        jokers=4,
        min_set_len=5,
        opening_threshold=29,
        joker_penalty=30,
        penalty_tiles=3,
        joker_retrieval="free",
        max_jokers_per_set=4,
        wrap_runs=True,
    )
    position = Position.parse(
        "G4",
        "J J J O4 J | R1 R2 R3 R4 R5 R6 R7 R8 R9 | O1 O2 O3 O4 O5 O6 O7 O8 O9",
        opened=True,
    )
    _proven_as_calm_as_the_oracle(position, rules, Objective.TILES)


def _proven_as_calm_as_the_oracle(
    position: Position, rules: Rules, objective: Objective
) -> tuple[int, int]:
    """Check that the answer with the time limit far off is legal, as calm as the
    exhaustive search's best and proven so; that best (sets kept, -tiles moved)."""
    play = solve(position, rules, objective, limit=Limit(30, disruption_time=30))
    assert_legal_answer(position, rules, play)
    best = disruption_oracle_for(rules).least_disruption(position, objective)
    assert (play.sets_kept, -play.tiles_moved) == best
    assert play.disruption_proven
    return best


@pytest.mark.parametrize("objective", list(Objective))
def test_jokers_that_make_a_set_alone_do_not_make_a_group_seem_calmer(
    objective: Objective,
) -> None:
    """Found by the variant tests after issue 14's merge: with jokers enough for a set
    of their own, a joker may take a group's free place, so the room counted for a
    continued group must not shrink by the tiles that stay (it claimed 3 tiles
    moved as proven while the calmest play moves 1)."""
    rules = Rules(colours=3, numbers=3, copies=1, jokers=3, min_set_len=2)
    position = Position.parse("J J J", "R1 B1 K1")
    play = solve(position, rules, objective)
    assert_legal_answer(position, rules, play)
    best = disruption_oracle_for(rules).least_disruption(position, objective)
    assert (play.sets_kept, -play.tiles_moved) == best
    assert play.disruption_proven


DISRUPTION_RULES = Rules(colours=3, numbers=7, copies=2, jokers=2)
ORACLE = disruption_oracle_for(DISRUPTION_RULES)


@pytest.mark.parametrize("objective", list(Objective))
def test_a_run_split_and_a_joker_moved_are_least_disruption(objective: Objective) -> None:
    # B4 K4 need the red 4 from the middle of the long run (which splits: its 5-7
    # part stays, 1-3 goes on apart) and B2 K2 need the joker of R5 J R7, whose place
    # the rack's R6 takes. Only B5 B6 B7 stays whole.
    position = Position.parse("B4 K4 R6 B2 K2", "R1 R2 R3 R4 R5 R6 R7 | R5 J R7 | B5 B6 B7")
    play = solve(position, DISRUPTION_RULES, objective)
    assert play.tiles_played == 5
    assert play.disruption_proven
    assert_legal_answer(position, DISRUPTION_RULES, play)
    assert (play.sets_kept, -play.tiles_moved) == ORACLE.least_disruption(position, objective)
    assert (play.sets_kept, play.tiles_moved) == (1, 5)
    taken = [t for step in play.steps if step.action is Action.TAKE for t in step.tiles]
    assert JOKER in taken
    assert Tile.parse("R4") in taken


def test_a_joker_leaves_a_group_for_the_tile_it_stood_for() -> None:
    position = Position.parse("R4 K4 B1", "B1 B2 B3 B4 B5 B6 B7 | R1 J K1")
    play = solve(position, DISRUPTION_RULES)
    assert (play.sets_kept, -play.tiles_moved) == ORACLE.least_disruption(position, Objective.TILES)
    assert (play.sets_kept, play.tiles_moved) == (1, 1)
    assert_legal_answer(position, DISRUPTION_RULES, play)


def _kept_and_moved(melds: tuple[Meld, ...], placed: list[PlacedSet]) -> tuple[int, int]:
    kept = sum(p.origin is not None and len(p.stayed) == len(melds[p.origin].tiles) for p in placed)
    return kept, sum(len(m.tiles) for m in melds) - sum(len(p.stayed) for p in placed)


@settings(max_examples=25)
@given(
    position=dealt(table=st.integers(20, 70), rack=st.integers(4, 20)),
    work=st.sampled_from([0.002, DEFAULT_DISRUPTION_WORK]),
)
def test_the_answer_is_never_less_calm_than_the_calm_play(position: Position, work: float) -> None:
    # The calm play (every set whole or given up, the most kept; its layout read with
    # the most tiles in place) starts the search for the fewest tiles moved and is the
    # fallback: whatever the work allowed, the answer keeps at least as many sets and,
    # keeping as many, moves no more tiles.
    calm: list[tuple[int, int]] = []

    def spy(lean: TurnModel, limits: Limits) -> tuple[Solved, bool] | None:
        found = calm_play(lean, limits)
        melds = position.check(RULES)
        if found is not None:
            calm.append(_kept_and_moved(melds, rematch(melds, lay_out(lean, found[0].value))))
        elif not calm:  # no work left even for that: the score stage's play, every set given up
            assert work < DEFAULT_DISRUPTION_WORK
            calm.append((0, sum(len(m.tiles) for m in melds)))
        return found

    with mock.patch("solver.rummikub.disruption.calm_play", spy):
        play = solve(position, RULES, limit=Limit(disruption_work=work))
    assert_legal_answer(position, RULES, play)
    if play.played:
        # Step 1 may run twice (see disruption.CALM_SHARE): the first play it found.
        kept, moved = calm[0]
        assert (play.sets_kept, -play.tiles_moved) >= (kept, -moved)


@pytest.mark.variants
@settings(max_examples=examples(100))
@given(data=st.data(), rules=small_rules(), objective=st.sampled_from(list(Objective)))
def test_sets_fixed_whole_allow_the_plays_of_sets_kept_by_a_constraint(
    data: st.DataObject, rules: Rules, objective: Objective
) -> None:
    # Step 2 fixes the sets it keeps (their tiles out of the counts) instead of
    # asking kept = 1 of a set that may go on whole or not: the same plays, so the
    # same best score and, with it, the same most tiles in place.
    position = data.draw(positions(rules, max_sets=4, max_rack=4, opened=True))
    melds = position.check(rules)
    fixed = data.draw(st.sets(st.sampled_from(range(len(melds))))) if melds else set()
    note(request_of(position, rules, objective=objective.value))
    note(f"fixed: {sorted(fixed)}")
    best: list[tuple[int, int]] = []
    for form in ("constraint", "fixed"):
        tm, stays, solved = _most_in_place(rules, position, objective, fixed, form, work=2.0)
        # Nothing to compare where the search cannot prove its best within the work:
        # rare, e.g. 3 jokers at most one per set in wrapping runs of 4+ over 5
        # numbers (R3 R4 B1 B1 J | J B4 B3 B5 B2 | K1-K5 | J R5 R1 R2 | R1-R5) stays
        # unproven after 10 s (the default solve proves that position in 0.25 s).
        assume(solved.optimal)
        best.append((solved.value(tm.goal), solved.value(stays)))
        placed = lay_out(tm, solved.value)
        for index in fixed:  # every fixed set on the new table, whole
            [mine] = [p for p in placed if p.origin == index]
            assert len(mine.stayed) == len(melds[index].tiles)
    assert best[0] == best[1]


def _most_in_place(
    rules: Rules,
    position: Position,
    objective: Objective,
    fixed: set[int],
    form: str,
    work: float,
) -> tuple[TurnModel, LinearExpr, Solved]:
    """The best score, then the most table tiles in place, with the sets in ``fixed``
    kept whole: by a constraint on sets that may go on whole or not (``form``
    "constraint"), or fixed whole in the model ("fixed"). The model, its tiles in
    place and the search (within ``work`` deterministic seconds)."""
    melds = position.check(rules)
    table = TileCounts.of(Counter(t for s in position.table for t in s))
    tm = build_model(
        rules,
        TileCounts.of(Counter(position.rack)),
        table,
        objective,
        opening=False,
        table_melds=melds,
        whole=fixed if form == "constraint" else (),
        fixed=fixed if form == "fixed" else (),
    )
    for cont in tm.continuations:
        if cont.index in fixed:
            tm.model.add(cont.kept == 1)
    stays = total([s for c in tm.continuations for s in c.stays])
    tm.model.maximize(tm.goal * (sum(table.naturals.values()) + table.jokers + 1) + stays)
    return tm, stays, run(tm, Limits.of(work, 30.0))


@pytest.mark.parametrize("form", ["constraint", "fixed"])
def test_a_joker_takes_the_place_a_tile_left_in_a_group_under_a_joker_limit(form: str) -> None:
    """Found by the property above: at most one joker a set, R1 leaves R1 B1 K1 for
    R1 R2 J(R3) and a rack joker takes its place in the group, B1 K1 staying. The
    tile staying and the joker going to the run instead would put two jokers in the
    run. With J B2 K2 fixed whole (its joker then out of the jokers in play: fewer
    than a set) the model used to forbid that joker, and found 3 tiles in place."""
    rules = Rules(colours=3, numbers=3, copies=1, jokers=3, max_jokers_per_set=1)
    position = Position.parse("R2 J J", "R1 B1 K1 | J B2 K2")
    tm, stays, solved = _most_in_place(rules, position, Objective.TILES, {1}, form, work=10.0)
    assert solved.optimal
    # The least disruption over every play (the oracle) keeps J B2 K2: the most in place.
    kept, unmoved = disruption_oracle_for(rules).least_disruption(position, Objective.TILES)
    assert kept == 1
    assert solved.value(stays) == 6 + unmoved
    assert solved.value(tm.tiles) == 3


def _solve_counting_searches(position: Position) -> tuple[Play, list[Search]]:
    """The default answer, and the searches of the least-disruption stage in order."""
    searches: list[Search] = []

    def spy(tm: TurnModel, limits: Limits, **kwargs: Any) -> Solved:
        searches.append(kwargs["search"])
        return run(tm, limits, **kwargs)

    with mock.patch("solver.rummikub.disruption.run", spy):
        return solve(position, RULES), searches


def test_a_play_of_step_3_moving_a_tile_per_set_given_up_ends_the_stage() -> None:
    # The calm play's choice of sets moves more tiles than sets given up; step 3 finds
    # another choice whose play, read with the most tiles in place, moves one tile per
    # set given up: no play keeping as many sets moves fewer, so it is the answer,
    # proven, with no tiles-moved search at all (t20-r30#12 of the benchmarks).
    position = Position.parse(
        "R2 R4 R6 R7 R8 R8 R11 R12 R12 B1 B6 B8 B10 B12 K1 K2 K3 K4 K5 K6 K7 K11"
        " O1 O2 O3 O4 O5 O8 O11 O12",
        "R10 B10 K10 O10 | R13 B13 K13 O13 | R9 B9 K9 O9 | R2 B2 O2 | R9 B9 K9 O9"
        " | O10 O11 O12 O13",
    )
    play, searches = _solve_counting_searches(position)
    assert_legal_answer(position, RULES, play)
    assert play.disruption_proven
    assert play.tiles_moved == len(position.table) - play.sets_kept
    assert searches.count(TILES_MOVED_SEARCH) == 0


def test_step_2_runs_once_after_step_3() -> None:
    # Step 3 finds another choice of sets keeping as many as the calm play's, so the
    # sets kept in every such play differ from the calm play's choice: step 2 runs
    # once, for them, not first for the calm play's choice too (t20-r6#6 of the
    # benchmarks).
    position = Position.parse(
        "R5 R12 K7 K7 K8 K9",
        "R12 B12 K12 O12 | B2 K2 O2 | O7 J O9 O10 O11 O12 | J B2 B3 B4 B5 B6 | R2 K2 O2",
    )
    play, searches = _solve_counting_searches(position)
    assert_legal_answer(position, RULES, play)
    assert play.disruption_proven
    assert searches.count(BACKBONE_SEARCH) >= 2  # another choice found, then no more
    assert searches.count(TILES_MOVED_SEARCH) == 1


def test_no_step_3_search_when_no_set_can_be_kept() -> None:
    # The best play keeps no table set whole (proven by step 1), so every play as
    # good keeps none: step 3 has nothing to search (t10-r6#19 of the benchmarks).
    position = Position.parse("R5 R10 B5 B13 K5 K10", "R2 B2 J J | R7 B7 K7 O7 | B8 B9 B10 B11")
    play, searches = _solve_counting_searches(position)
    assert_legal_answer(position, RULES, play)
    assert play.sets_kept == 0
    assert play.disruption_proven
    assert BACKBONE_SEARCH not in searches
    assert searches.count(TILES_MOVED_SEARCH) == 1


def test_step_2_searches_only_plays_as_calm_as_the_calm_play_read_in_place() -> None:
    # The calm play gives every tile of a set given up away; read with the most tiles
    # in place it moves fewer. Step 2 for its choice of sets looks only at plays with
    # at least that many tiles in place (t10-r6#0 of the benchmarks).
    position = Position.parse(
        "R11 B5 B9 B11 K13 O10", "R13 B13 O13 | K3 J K5 K6 K7 | O1 O2 O3 J O5"
    )
    melds = position.check(RULES)
    calm: list[int] = []
    moved: list[TurnModel] = []

    def spy_calm(lean: TurnModel, limits: Limits) -> tuple[Solved, bool] | None:
        found = calm_play(lean, limits)
        assert found is not None
        calm.append(_kept_and_moved(melds, rematch(melds, lay_out(lean, found[0].value)))[1])
        return found

    def spy_run(tm: TurnModel, limits: Limits, **kwargs: Any) -> Solved:
        if kwargs["search"] is TILES_MOVED_SEARCH:
            moved.append(tm)
        return run(tm, limits, **kwargs)

    with (
        mock.patch("solver.rummikub.disruption.calm_play", spy_calm),
        mock.patch("solver.rummikub.disruption.run", spy_run),
    ):
        play = solve(position, RULES)
    assert play.disruption_proven
    [tm] = moved
    stays = sum(s for c in tm.continuations for s in c.stays)
    in_place = sum(len(m.tiles) for m in melds) - calm[0]
    tm.model.add(stays <= in_place - 1)
    assert run(tm, Limits.of(10.0, 30.0)).infeasible


def test_step_2_asks_for_more_tiles_in_place_than_the_calm_play_read_in_place() -> None:
    # The calm play read with the most tiles in place is already the answer here
    # (t10-r6#0 of the benchmarks): step 2 asks only for plays with more tiles in
    # place, finds none, and that proves the calm play's reading least disruptive
    # (0.87 times the deterministic work of step 2 over the benchmark positions,
    # benchmarks/RESULTS.md, Issue 14q). It used to search for a play as calm and
    # then prove no better one exists.
    position = Position.parse(
        "R11 B5 B9 B11 K13 O10", "R13 B13 O13 | K3 J K5 K6 K7 | O1 O2 O3 J O5"
    )
    melds = position.check(RULES)
    calm: list[tuple[int, int]] = []
    moved: list[Solved] = []

    def spy_calm(lean: TurnModel, limits: Limits) -> tuple[Solved, bool] | None:
        found = calm_play(lean, limits)
        assert found is not None
        calm.append(_kept_and_moved(melds, rematch(melds, lay_out(lean, found[0].value))))
        return found

    def spy_run(tm: TurnModel, limits: Limits, **kwargs: Any) -> Solved:
        solved = run(tm, limits, **kwargs)
        if kwargs["search"] is TILES_MOVED_SEARCH:
            moved.append(solved)
        return solved

    with (
        mock.patch("solver.rummikub.disruption.calm_play", spy_calm),
        mock.patch("solver.rummikub.disruption.run", spy_run),
    ):
        play = solve(position, RULES)
    assert_legal_answer(position, RULES, play)
    assert [search.infeasible for search in moved] == [True]
    assert play.disruption_proven
    assert [(play.sets_kept, play.tiles_moved)] == calm


def test_of_step_3_plays_read_as_calm_the_answer_lays_out_the_fewest_sets() -> None:
    # Step 3 reads plays keeping as many sets as calm as each other; when step 2 then
    # finds no play with more tiles in place, the answer is the calmest so read, and of
    # those equally calm the one laying out the fewest sets (mid-t40-60#14 of the
    # benchmarks: 15 sets, the first one read lays out 16).
    position = Position.parse(
        "R1 R1 R2 R2 R3 R4 R7 R7 R8 R9 R12 R12 B7 B9 B10 B12 B13 K4 K5 K13 O2 O11 J",
        "R6 B6 K6 | K7 K8 K9 K10 K11 | R4 K4 O4 | O9 O10 O11 O12 | K9 K10 K11 K12 K13"
        " | O2 O3 O4 O5 O6 O7 | O5 O6 O7 O8 O9 O10 | J K5 K6 | R8 B8 K8 O8"
        " | B2 B3 B4 B5 B6 B7",
    )
    melds = position.check(RULES)
    read: list[tuple[int, int, int]] = []

    def spy(tm: TurnModel, limits: Limits, **kwargs: Any) -> Solved:
        solved = run(tm, limits, **kwargs)
        if kwargs["search"] is BACKBONE_SEARCH and solved.found:
            placed = rematch(melds, lay_out(tm, solved.value))
            read.append((*_kept_and_moved(melds, placed), len(placed)))
        return solved

    with mock.patch("solver.rummikub.disruption.run", spy):
        play = solve(position, RULES, limit=Limit(time=60, disruption_time=60))
    assert_legal_answer(position, RULES, play)
    assert play.disruption_proven
    calm = [
        sets for kept, moved, sets in read if (kept, moved) == (play.sets_kept, play.tiles_moved)
    ]
    assert len(set(calm)) > 1
    assert len(play.table) <= min(calm)


MID_T40_60_17 = Position.parse(
    "R2 R2 R5 B1 B12 B13 K4 K5 K8 K13 O1 O2 O12 J",
    "R10 B10 K10 O10 | O7 O8 O9 O10 O11 | O2 J O4 | B5 B6 B7 B8 B9 B10"
    " | R11 B11 K11 O11 | K1 K2 K3 K4 K5 | R4 B4 O4 | R5 R6 R7 | K10 K11 K12"
    " | R6 R7 R8 R9 R10 | B3 B4 B5 B6 B7 B8 | R12 B12 K12 O12 | R13 B13 K13 O13"
    " | O6 O7 O8 O9",
)
"""mid-t40-60#17 of the benchmarks: the slowest position to prove least disruption on."""


def test_step_3_has_the_share_of_work_it_needs_on_the_slowest_position() -> None:
    # Step 3's fifth search on mid-t40-60#17 (tiles) needs 0.015 s of work; with 0.4
    # of the work left it was cut at 0.006 and the answer stayed unproven. With half,
    # step 3 finishes and step 2 proves the reference's answer (7 sets kept, 10
    # tiles moved: benchmarks/reference-2026.json, a long-budget run) within the
    # default work.
    play = solve(MID_T40_60_17, RULES, limit=Limit(time=60, disruption_time=60))
    assert_legal_answer(MID_T40_60_17, RULES, play)
    assert play.disruption_proven
    assert (play.sets_kept, play.tiles_moved) == _reference("mid-t40-60#17")


def test_the_answer_is_never_less_calm_than_a_play_of_step_3_read_in_place() -> None:
    # Step 3 finds plays keeping as many sets with other choices of them; read with
    # the most tiles in place, the calmest of them is a fallback too, should the work
    # run out before a later search beats it. Here (points, mid-t40-60#17 of the
    # benchmarks, where step 3 meets several other choices) the answer is at least as
    # calm as every one of them.
    position = MID_T40_60_17
    melds = position.check(RULES)
    found: list[tuple[int, int]] = []

    def spy(tm: TurnModel, limits: Limits, **kwargs: Any) -> Solved:
        solved = run(tm, limits, **kwargs)
        if kwargs["search"] is BACKBONE_SEARCH and solved.found:
            found.append(_kept_and_moved(melds, rematch(melds, lay_out(tm, solved.value))))
        return solved

    with mock.patch("solver.rummikub.disruption.run", spy):
        # The default work, and no clock to cut it on a loaded machine.
        play = solve(position, RULES, Objective.POINTS, limit=Limit(time=60, disruption_time=60))
    assert_legal_answer(position, RULES, play)
    assert found
    assert all((play.sets_kept, -play.tiles_moved) >= (kept, -moved) for kept, moved in found)


T40_R30_16 = Position.parse(
    "R3 R7 R10 R12 B1 B1 B2 B4 B7 B8 B10 B11 B13 K7 K8 K9 K10 K11 K12 K12 K13 K13"
    " O1 O2 O6 O6 O7 O10 O13 O13",
    "K2 K3 K4 K5 K6 | R3 B3 K3 O3 | R9 J R11 R12 R13 | B3 B4 J B6 B7 | B9 B10 B11 B12"
    " | O7 O8 O9 O10 O11 O12 | R2 B2 K2 O2 | R6 R7 R8 | R5 B5 O5 | K5 K6 K7 K8 K9 K10",
)
"""t40-r30#16 of the benchmarks: its one step 2 (eight sets either way) did most of
the stage's work."""


def test_step_2_proves_t40_r30_16_within_0_12_s_of_work() -> None:
    # Step 2's search builds its LP at once: t40-r30#16's one step 2 takes 0.049 s of
    # work instead of 0.093 with the LP built lazily, the stage 0.099 instead of
    # 0.143. So 0.12 s of work proves the reference's answer (3 sets kept, 13 tiles
    # moved); with the lazy LP the search was cut there at 14 tiles moved, unproven.
    play = solve(T40_R30_16, RULES, limit=Limit(time=60, disruption_time=60, disruption_work=0.12))
    assert_legal_answer(T40_R30_16, RULES, play)
    assert play.disruption_proven
    assert (play.sets_kept, play.tiles_moved) == _reference("t40-r30#16")


def _reference(name: str) -> tuple[int, int]:
    """(sets kept, tiles moved) of a benchmark position in tiles mode, from the
    long-budget reference (benchmarks/reference-2026.json, proven there)."""
    kept, moved, proven = json.loads(REFERENCE.read_text())["positions"][name]["tiles"]
    assert proven
    return kept, moved


def _violated_rows(tm: TurnModel, values: dict[int, float]) -> list[int]:
    """The linear rows of ``tm`` over the variables in ``values`` (by index) alone that
    the point ``values`` breaks (within its variables' domains too: -1 for a domain)."""
    proto = tm.model.proto
    broken = []
    for index, value in values.items():
        domain = list(proto.variables[index].domain)
        if not domain[0] - 1e-9 <= value <= domain[-1] + 1e-9:
            broken.append(-1)
    for number, constraint in enumerate(proto.constraints):
        if not constraint.has_linear():
            continue
        row = constraint.linear
        variables = list(row.vars)
        if not all(v in values for v in variables):
            continue
        level = sum(values[v] * k for v, k in zip(variables, list(row.coeffs), strict=True))
        low, *_, high = list(row.domain)
        if not low - 1e-9 <= level <= high + 1e-9:
            broken.append(number)
    return broken


def test_a_continued_run_too_short_is_not_made_up_by_a_long_one_in_the_lp() -> None:
    # Step 2's LP (the most tiles in place) let O5 O6 O7 go on 0.4 whole, 0.45 as O5
    # O6 alone (too short) and 0.15 as O5..O11, the long stretch making up the length
    # (sum cover >= 3): a fractional point no mix of real runs gives. Rows true of
    # every play (a run beginning at p covers p..p+2; none begins at the last two
    # places it can reach) cut it off: t60-r14#15's step 2 took 0.34 times the
    # deterministic work (benchmarks/RESULTS.md, Issue 14t).
    position = Position.parse("O8 O9 O10 O11 J", "O5 O6 O7")
    melds = position.check(RULES)
    tm = build_model(
        RULES,
        TileCounts.of(Counter(position.rack)),
        TileCounts.of(Counter(t for s in position.table for t in s)),
        Objective.TILES,
        opening=False,
        table_melds=melds,
    )
    [cont] = tm.continuations
    active, kept_var = cont.active, cont.kept
    assert isinstance(active, cp_model.IntVar)
    assert isinstance(kept_var, cp_model.IntVar)
    assert sorted(cont.cover) == list(range(4, 13))  # as far as tiles could fill it

    def point(cover: dict[int, float], begins: dict[int, float], kept: float) -> dict[int, float]:
        values = {active.index: 1.0, kept_var.index: kept}
        for stay, number in zip(cont.stays, (5, 6, 7), strict=True):
            assert isinstance(stay, cp_model.IntVar)
            values[stay.index] = min(1.0, cover.get(number, 0.0)) if number < 7 else kept
        for position_, var in cont.cover.items():
            assert isinstance(var, cp_model.IntVar)
            values[var.index] = cover.get(position_, 0.0)
        for position_, var in cont.begins.items():
            values[var.index] = begins.get(position_, 0.0)
        return values

    mixed = point({5: 1, 6: 1, 7: 0.4, 8: 0.15, 9: 0.15, 10: 0.15, 11: 0.15}, {5: 1}, kept=0.4)
    assert _violated_rows(tm, mixed)
    # A real run (O5..O8, O8 joining) breaks none of them.
    assert not _violated_rows(tm, point({5: 1, 6: 1, 7: 1, 8: 1}, {5: 1}, kept=1.0))
    # Nor does a mix of real ones: O5..O7 kept, or O5 O6 and a joker for O7, O8 joining.
    assert not _violated_rows(tm, point({5: 1, 6: 1, 7: 1, 8: 0.6}, {5: 1}, kept=0.4))
    # A run begins no later than the third place from the end of its reach.
    assert _violated_rows(tm, point({11: 1, 12: 1}, {11: 1}, kept=0.0))

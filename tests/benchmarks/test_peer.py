"""The peer comparison: what rummikub-solver can build, how its answers are mapped
and judged, and the two exact solvers agreeing where their rules are the same."""

from __future__ import annotations

import random

import pytest

from benchmarks.answers import Answer
from benchmarks.cases import Case, Mode
from benchmarks.compare import compare
from benchmarks.peer import Peer, peer_can_form, peer_opening_precheck
from benchmarks.speed import time_ours
from solver.rummikub import STANDARD, Position, parse_tiles
from solver.rummikub.deal import random_position


@pytest.mark.parametrize(
    ("tiles", "formable"),
    [
        ("R5 R6 R7", True),
        ("J R6 R7", True),  # a joker anywhere in a set of minimum length
        ("R5 J R7 R8", True),  # inside a longer run
        ("R5 R6 R7 J", False),  # ending a longer run (any reading has it at an end)
        ("R1 R2 R3 R4 R5 R6 J", True),  # cut as R1-R4 and R5 R6 J
        ("R5 B5 K5 O5", True),
        ("R5 B5 J", True),
        ("R5 B5 K5 J", False),  # a joker in a group of four
    ],
)
def test_peer_set_list(tiles: str, formable: bool) -> None:
    assert peer_can_form(parse_tiles(tiles), STANDARD) is formable


def test_peer_opening_precheck_counts_each_value_once() -> None:
    assert peer_opening_precheck(parse_tiles("R2 B1 K1 K11 K13 J"), STANDARD) == 27
    assert peer_opening_precheck(parse_tiles("R13 R13 B13 B13 K13 K13 O13 O13 J"), STANDARD) == 25


def _answer(position: Position, played: str, table_after: str, status: str) -> Answer:
    sets = tuple(tuple(parse_tiles(part)) for part in table_after.split("|") if part.strip())
    return Answer(1.0, status, tuple(parse_tiles(played)), sets, ())


def test_compare_calls_a_better_legal_peer_play_a_bug_in_ours() -> None:
    position = Position.parse("R1 R2 R3 K9", "")
    case = Case("crafted", 0, position)
    ours = _answer(position, "", "", "optimal")
    theirs = _answer(position, "R1 R2 R3", "R1 R2 R3", "answered")
    found = compare(case, Mode.TILES, ours, theirs, STANDARD)
    assert found is not None
    assert found.verdict == "OURS SHORT"
    assert compare(case, Mode.TILES, theirs, theirs, STANDARD) is None


@pytest.fixture(scope="module")
def peer() -> Peer:
    pytest.importorskip("rummikub_solver")
    return Peer(STANDARD)


def test_peer_is_short_where_the_joker_must_end_a_long_run(peer: Peer) -> None:
    position = Position.parse("K1 K2 K3", "R5 R6 R7 J")
    ours = time_ours(position, Mode.TILES, STANDARD, 10.0)
    theirs = peer.solve(position, Mode.TILES)
    assert ours.legal
    assert ours.tiles == 3
    assert theirs.legal
    assert theirs.tiles == 2
    found = compare(Case("crafted", 0, position), Mode.TILES, ours, theirs, STANDARD)
    assert found is not None
    assert found.verdict == "peer short"
    assert "outside its list" in found.why


def test_peer_misses_openings_its_precheck_refuses(peer: Peer) -> None:
    position = Position.parse("R2 B1 K1 K11 K13 J", "R3 R4 R5")
    ours = time_ours(position, Mode.OPENING, STANDARD, 10.0)
    theirs = peer.solve(position, Mode.OPENING)
    assert ours.legal
    assert ours.tiles == 3
    assert theirs.legal
    assert theirs.tiles == 0
    found = compare(Case("crafted", 0, position), Mode.OPENING, ours, theirs, STANDARD)
    assert found is not None
    assert "pre-check sums distinct rack values (27)" in found.why


def test_peer_plays_are_mapped_back_legally(peer: Peer) -> None:
    rng = random.Random(11)
    for _ in range(8):
        position = random_position(rng, STANDARD, 30, 12, table_jokers=1, rack_jokers=1)
        for mode in Mode:
            answer = peer.solve(position, mode)
            assert answer.legal, (position, mode, answer.problems)


def test_both_exact_solvers_agree_without_jokers(peer: Peer) -> None:
    """Without jokers the two models have the same sets and objective: the
    independent MILP must reach our optimum in tiles and opening modes."""
    rng = random.Random(5)
    for table, rack in [(0, 14), (20, 10), (40, 14), (60, 20), (10, 30)]:
        position = random_position(rng, STANDARD, table, rack)
        for mode in (Mode.TILES, Mode.OPENING):
            ours = time_ours(position, mode, STANDARD, 10.0)
            assert ours.status == "optimal"
            assert peer.solve(position, mode).tiles == ours.tiles, (position, mode)


def test_peer_value_mode_ranks_by_tile_count(peer: Peer) -> None:
    """Its value objective is (tiles placed) x (sum of all values): it returns a
    most-tiles play, so its tile count in points mode is our tiles-mode optimum."""
    rng = random.Random(8)
    for _ in range(6):
        position = random_position(rng, STANDARD, 30, 14)
        most_tiles = time_ours(position, Mode.TILES, STANDARD, 10.0).tiles
        assert peer.solve(position, Mode.POINTS).tiles == most_tiles

"""Reading a layout with the most table tiles in place (solver.rummikub.rematch), and
the least-disruption stage proving the calm play's layout so read."""

from __future__ import annotations

from itertools import chain
from unittest import mock

import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st

from solver.rummikub import Objective, Position, Rules, solve
from solver.rummikub.layout import PlacedSet
from solver.rummikub.melds import Meld, read_meld
from solver.rummikub.notation import parse_tiles
from solver.rummikub.rematch import rematch
from tests.rummikub.disruption_oracle import disruption_oracle_for
from tests.rummikub.helpers import assert_legal_answer
from tests.rummikub.strategies import examples, positions, request_of, small_rules

RULES = Rules()


def _sets(text: str, rules: Rules = RULES) -> list[Meld]:
    return [read_meld(parse_tiles(part), rules) for part in text.split("|")]


def _new(melds: list[Meld]) -> list[PlacedSet]:
    return [PlacedSet(m, None, (), m.tiles) for m in melds]


def test_a_new_set_holding_tiles_of_a_set_given_up_carries_it_on() -> None:
    before = _sets("R3 R4 R5 R6 | K6 K7 K8 | B9 B10 J")
    # Set 1 goes on whole; R3-R5 stay where they were, R6 goes to a group; the joker
    # of set 2 moves to the 8s, so B9 B10 stay only if the new run still holds them.
    after = [PlacedSet(before[1], 1, before[1].tiles, ())]
    after += _new(_sets("R6 B6 O6 | R3 R4 R5 | B8 J B10 B11"))
    read = rematch(before, after)
    assert [(p.origin, str(p.meld)) for p in read] == [
        (0, "R3 R4 R5"),
        (1, "K6 K7 K8"),
        (2, "B8 J(B9) B10 B11"),
        (None, "R6 B6 O6"),
    ]
    assert [p.stayed for p in read[:3]] == [
        tuple(parse_tiles("R3 R4 R5")),
        before[1].tiles,
        tuple(parse_tiles("B10")),  # the joker stood for B11: it did not stay
    ]
    assert sorted(read[2].joined) == sorted(parse_tiles("B8 J B11"))


def test_a_set_kept_whole_comes_before_more_tiles_in_place() -> None:
    # The long run holds set 0 whole, and six tiles of set 1 in place: matching it to
    # set 1 leaves more tiles in place (6 against 3 + 1), but keeps no set whole.
    before = _sets("R1 R2 R3 | R2 R3 R4 R5 R6 R7 R8")
    after = _new(_sets("R1 R2 R3 R4 R5 R6 R7 | R8 R9 R10 | R2 B2 K2 | R3 B3 K3"))
    read = rematch(before, after)
    assert [(p.origin, str(p.meld)) for p in read[:2]] == [
        (0, "R1 R2 R3 R4 R5 R6 R7"),
        (1, "R8 R9 R10"),
    ]
    assert [p.origin for p in read[2:]] == [None, None]


@pytest.mark.variants
@settings(max_examples=examples(60))
@given(data=st.data(), rules=small_rules(), objective=st.sampled_from(list(Objective)))
def test_rematch_finds_the_best_match_of_the_exhaustive_oracle(
    data: st.DataObject, rules: Rules, objective: Objective
) -> None:
    # The score stage alone lays the table out anew, no set carrying an old one on;
    # reading that layout, rematch matches old sets to new ones as well as trying
    # every matching does.
    position = data.draw(positions(rules, max_rack=4, opened=True))
    note(request_of(position, rules, objective=objective.value))
    before = position.check(rules)
    play = solve(position, rules, objective, least_disruption=False)
    read = rematch(before, _new(list(play.table)))
    kept = sum(p.origin is not None and len(p.stayed) == len(before[p.origin].tiles) for p in read)
    moved = sum(len(m.tiles) for m in before) - sum(len(p.stayed) for p in read)
    best = disruption_oracle_for(rules).disruption_of(position, play.table)
    assert (kept, -moved) == best
    # The answer's own counts read its table so too ("kept 0, moved 9" stood above
    # steps taking up every table set to add R4 to R1 R2 R3), but under "replace" a
    # set that held a joker goes on only as a set that may carry it (the matching the
    # oracle, free of that rule, finds may count such a set given up, its joker gone).
    ours = (play.sets_kept, -play.tiles_moved)
    held = rules.replace_jokers and any(t.is_joker for t in chain(*position.table))
    assert ours <= best if held else ours == best
    # No calm search ran: only a table left in place is proven disturbed least.
    assert play.disruption_proven == (play.tiles_moved == 0)
    for p in read:
        assert sorted(p.stayed + p.joined) == sorted(p.meld.tiles)


def test_the_calm_play_read_anew_is_proven_without_the_tiles_moved_search() -> None:
    # Group R6 B6 K6 plays both rack tiles; the calm play keeps K3-K5 and gives up
    # the red run, whose R3-R5 its layout lays out again: one tile moved for the one
    # set given up, so no tiles-moved search is needed to prove it.
    rules = Rules(colours=3, numbers=7, copies=2, jokers=2)
    position = Position.parse("B6 K6", "R3 R4 R5 R6 | K3 K4 K5")

    def no_search(*args: object) -> None:
        raise AssertionError("the tiles-moved search ran")

    with mock.patch("solver.rummikub.disruption._fewest_moved", no_search):
        play = solve(position, rules)
    assert_legal_answer(position, rules, play)
    assert play.disruption_proven
    assert (play.sets_kept, play.tiles_moved) == (1, 1)
    oracle = disruption_oracle_for(rules).least_disruption(position, Objective.TILES)
    assert (play.sets_kept, -play.tiles_moved) == oracle

"""The legality checker finds each kind of illegal move and names it."""

from __future__ import annotations

from dataclasses import replace as replace_rules

import pytest
from hypothesis import event, given, note, settings
from hypothesis import strategies as st

from solver import validate_rummikub
from solver.rummikub import Objective, Position, Rules, Tile, parse_tiles, solve
from solver.rummikub.legality import Verdict, check_play
from solver.rummikub.repair import repair
from tests.rummikub.oracle import oracle_for
from tests.rummikub.strategies import claimed_moves, examples, positions, variants

RULES = Rules()


def judge(rack: str, before: str, after: str, opened: bool = True) -> Verdict:
    def sets(text: str) -> list[list[Tile]]:
        return [parse_tiles(part) for part in text.split("|") if part.strip()]

    return check_play(parse_tiles(rack), sets(before), sets(after), opened, RULES)


def reasons(verdict: Verdict) -> str:
    return " / ".join(p.reason for p in verdict.problems)


def test_a_legal_rearrangement() -> None:
    verdict = judge("R5 K1", "R3 R4 R5 R6 R7", "R3 R4 R5 | R5 R6 R7")
    assert verdict.legal
    assert [str(t) for t in verdict.played] == ["R5"]


def test_an_invalid_set_is_named_by_index() -> None:
    verdict = judge("R9", "R3 R4 R5", "R3 R4 R5 | R9")
    assert not verdict.legal
    assert verdict.problems[0].set == 1
    assert "R9" in verdict.problems[0].reason


def test_a_missing_table_tile_is_named() -> None:
    verdict = judge("", "R3 R4 R5 R6", "R3 R4 R5")
    assert not verdict.legal
    assert "R6 from the table went missing" in reasons(verdict)


def test_a_tile_not_on_the_rack_is_named() -> None:
    verdict = judge("R1", "R3 R4 R5", "R2 R3 R4 R5")
    assert "R2 played but not on the rack" in reasons(verdict)


def test_an_opening_under_the_threshold() -> None:
    verdict = judge("R1 R2 R3", "", "R1 R2 R3", opened=False)
    assert not verdict.legal
    assert "worth 6 points, under the 30" in reasons(verdict)


def test_an_opening_counts_jokers_at_their_best_reading() -> None:
    assert judge("K10 B10 J", "", "K10 B10 J", opened=False).legal
    assert judge("R12 R13 J", "", "R12 R13 J", opened=False).legal  # J as R11: 36


def test_table_touched_during_the_opening() -> None:
    verdict = judge("R10 B13 K13 O13", "R7 R8 R9", "R7 R8 R9 R10 | B13 K13 O13", opened=False)
    assert not verdict.legal
    assert "may not touch the table" in reasons(verdict)


def test_drawing_is_always_legal() -> None:
    assert judge("R1", "R3 R4 R5", "R5 R4 R3", opened=False).legal


def test_rearranging_without_playing_before_opening() -> None:
    # Moving the joker from the run to the group touches the table: not allowed
    # before opening, even though nothing is played.
    verdict = judge("", "R1 R2 R3 J | B5 K5 O5", "R1 R2 R3 | B5 K5 O5 J", opened=False)
    assert not verdict.legal
    assert "table set 0 (R1 R2 R3 J) was changed" in reasons(verdict)


@pytest.mark.parametrize(
    ("rack", "before", "after", "reason"),
    [
        ("K1", "R1 R2 R3 R4 R5 R6", "R1 R2 R3 | R4 R5 R6", "; draw instead"),
        ("K1", "R1 R2 R3 J | B5 K5 O5", "R1 R2 R3 | B5 K5 O5 J", "; draw instead"),
        # A player whose rack is empty has gone out: it was told to draw.
        ("", "R1 R2 R3 J | B5 K5 O5", "R1 R2 R3 | B5 K5 O5 J", ", and the rack is empty"),
    ],
)
def test_a_play_must_place_a_rack_tile(rack: str, before: str, after: str, reason: str) -> None:
    # After opening too: rearranging the table alone is not a turn.
    verdict = judge(rack, before, after)
    assert not verdict.legal
    assert verdict.played == ()
    assert reasons(verdict) == "a play must place at least one tile from the rack" + reason


def test_the_table_left_as_it_was_is_no_play_unless_a_play_is_due() -> None:
    # Its sets in another order, and their tiles: drawing, which is legal...
    assert judge("K1", "R1 R2 R3 | B5 K5 O5", "O5 K5 B5 | R3 R2 R1").legal
    # ...but not as a turn that says it plays (the engine's and the review's checks).
    table = [parse_tiles("R1 R2 R3")]
    verdict = check_play(parse_tiles("K1"), table, table, True, RULES, must_place=True)
    assert not verdict.legal
    assert "must place at least one tile" in reasons(verdict)


def test_splitting_a_run_before_opening() -> None:
    verdict = judge("", "R1 R2 R3 R4 R5 R6", "R1 R2 R3 | R4 R5 R6", opened=False)
    assert not verdict.legal
    assert "may not touch the table" in reasons(verdict)
    with_an_opening = judge(
        "B10 K10 O10", "R1 R2 R3 R4 R5 R6", "R1 R2 R3 | R4 R5 R6 | B10 K10 O10", opened=False
    )
    assert not with_an_opening.legal
    assert "table set 0 (R1 R2 R3 R4 R5 R6) was changed" in reasons(with_an_opening)


@pytest.mark.variants
@settings(max_examples=examples(200))
@given(data=st.data(), rules=variants(), objective=st.sampled_from(list(Objective)))
def test_the_validator_agrees_with_exhaustive_rules(
    data: st.DataObject, rules: Rules, objective: Objective
) -> None:
    """On every variant the validator judges moves as the rules do: the solver's
    answers (legal) and claimed moves drawn at random (mostly not)."""
    position = data.draw(positions(rules))
    oracle = oracle_for(rules)
    answer = solve(position, rules, objective, least_disruption=False)
    for after in ([list(m.tiles) for m in answer.table], data.draw(claimed_moves(position, rules))):
        note(f"table after: {after}")
        verdict = check_play(position.rack, position.table, after, position.opened, rules)
        assert verdict.legal == oracle.judge(position.rack, position.table, after, position.opened)
        assert verdict.legal or verdict.problems
        event(f"legal: {verdict.legal}, opened: {position.opened}")


@pytest.mark.parametrize(
    ("rules", "written", "kept", "best"),
    [
        # docs/rummikub.md: K3 J with wrap and 3 numbers reads K3 K1, 4 points; its best
        # reading is the group of 3s, 6. J R4 R5 counts the joker as R3, R4 R5 J as R6;
        # the best reading of both is R4 R5 R6.
        (Rules(numbers=3, min_set_len=2, wrap_runs=True), "K3 J", 4, 6),
        (Rules(), "J R4 R5", 12, 15),
        (Rules(), "R4 R5 J", 15, 15),
    ],
)
def test_an_opening_counts_its_jokers_as_the_rules_say(
    rules: Rules, written: str, kept: int, best: int
) -> None:
    """An opening's jokers count as the reading the table keeps under "replace", their
    best reading under "free" (the oracle counted the best under "replace" too): the
    validator and the oracle accept the set at that worth and refuse it one above."""
    tiles = parse_tiles(written)
    for retrieval, worth in (("replace", kept), ("free", best)):
        for threshold, legal in ((worth, True), (worth + 1, False)):
            variant = replace_rules(rules, joker_retrieval=retrieval, opening_threshold=threshold)
            assert oracle_for(variant).judge(tiles, [], [tiles], opened=False) is legal
            assert check_play(tiles, [], [tiles], False, variant).legal is legal


def test_sets_after_a_move_are_read_as_their_jokers_were_written() -> None:
    # validate judged J(K5) J(R6) K7 a set (read plain, the run 5-7), and an opening of
    # J(K8) K9 K10 worth 33 (read as K9-K11), though solve reads both as written.
    wrong = validate_rummikub(
        {"rack": ["K7", "J", "J"], "table_before": [], "table_after": [["J(K5)", "J(R6)", "K7"]]}
    )
    assert wrong["legal"] is False
    assert wrong["problems"] == [
        {"set": 0, "reason": "J(K5) J(R6) K7: its jokers cannot stand for K5 R6"}
    ]
    short = validate_rummikub(
        {
            "rack": ["J", "K9", "K10"],
            "table_before": [],
            "table_after": [["J(K8)", "K9", "K10"]],
            "opened": False,
        }
    )
    assert short["problems"] == [
        {"set": None, "reason": "the opening is worth 27 points, under the 30 needed"}
    ]


def test_an_opening_beside_a_set_of_the_same_tiles_counts_the_new_one_at_its_worth() -> None:
    """Sets of the same tiles are interchangeable, so an opening counts the new one at
    its reading whichever place the table lists it in: R2 R3 J(R4) (9) and K6 K7 K8
    (21) beside the old J(R1) R2 R3 make 30. Before, the first set of those tiles was
    taken for the new one, so the same play was 27 points (6 + 21) listed one way and
    legal listed the other."""
    old, new, more = "J(R1) R2 R3", "R2 R3 J(R4)", "K6 K7 K8"
    for after in (f"{old} | {new} | {more}", f"{new} | {old} | {more}"):
        assert judge("R2 R3 J K6 K7 K8", old, after, opened=False).legal, after
    # Both read low, the new set is worth 6 wherever it lies.
    low = judge("R2 R3 J K6 K7 K8", old, f"{old} | {more} | {old}", opened=False)
    assert reasons(low) == "the opening is worth 27 points, under the 30 needed"


def test_the_oracle_counts_an_opening_beside_a_set_of_the_same_tiles_in_any_order() -> None:
    """The oracle took the first sets listed of the tiles of an old one for the new
    ones, as check_play did before 5c6c19a: the new B1 J (4 with runs going round, as
    B3 B1) beside the old B1 J(B2) (3) was counted 3 listed after it, and a 4-point
    opening refused. Both judges count the new set at its worth, listed either way."""
    rules = Rules(
        colours=2, numbers=3, jokers=2, min_set_len=2, opening_threshold=4, wrap_runs=True
    )
    old, new = parse_tiles("B1 J(B2)"), parse_tiles("B1 J")
    for after in ([old, new], [new, old]):
        assert oracle_for(rules).judge(new, [old], after, opened=False), after
        assert check_play(new, [old], after, False, rules).legal, after


def test_yellow_is_the_standard_games_orange_in_check_play_and_repair_as_in_solve() -> None:
    """Y1 (黄1) names orange 1 in a game without yellow: solve read it so, while
    check_play and repair, called from Python, refused it as an unknown tile. With 6
    colours Y is yellow, a colour of its own."""
    rack = parse_tiles("Y1 Y2 Y3")
    after = [parse_tiles("O1 O2 O3")]
    assert check_play(rack, [], after, True, RULES).legal
    assert solve(Position(tuple(rack), (), opened=True)).played == tuple(after[0])
    assert not check_play(rack, [], after, True, Rules(colours=6)).legal  # yellow, not orange
    fixed = repair([parse_tiles("Y1 Y2"), parse_tiles("O3")])
    assert fixed.repairable
    assert fixed.arrangement is not None
    assert fixed.arrangement.table[0].tiles == tuple(after[0])

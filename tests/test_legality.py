"""The legality checker finds each kind of illegal move and names it."""

from __future__ import annotations

from solver.rummikub import Rules, parse_tiles
from solver.rummikub.legality import Verdict, check_play

RULES = Rules()


def judge(rack: str, before: str, after: str, opened: bool = True) -> Verdict:
    def sets(text: str) -> list[list]:
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

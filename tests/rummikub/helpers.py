"""Checks shared by the Rummikub tests: an answer is legal and its multisets add up."""

from __future__ import annotations

from collections import Counter

from solver.rummikub import Play, Position, Rules
from solver.rummikub.legality import check_play, meld_problem
from solver.rummikub.steps import Action


def assert_legal_answer(position: Position, rules: Rules, play: Play) -> None:
    """The play passes the independent legality checker (its sets written with their
    jokers as the answer reads them, as a table keeps them), every set is read
    correctly, and played/rack_left/table satisfy the multiset equations. Before
    opening its steps lay rack tiles into new sets alone: the checker cannot see a
    table joker swapped for a rack joker (the tables are the same), the steps can."""
    after = [meld.written for meld in play.table]
    verdict = check_play(position.rack, position.table, after, position.opened, rules)
    assert verdict.legal, verdict.problems
    for meld in play.table:
        assert meld_problem(meld, rules) is None, meld_problem(meld, rules)
    rack = Counter(position.rack)
    played = Counter(play.played)
    assert not played - rack, "played tiles must come from the rack"
    assert Counter(play.rack_left) == rack - played
    before = Counter(t for tiles in position.table for t in tiles)
    assert Counter(t for tiles in after for t in tiles) == before + played
    assert play.tiles_played == len(play.played)
    assert play.points_played == sum(rules.value(t) for t in play.played)
    assert Counter(verdict.played) == played
    if not position.opened:
        for step in play.steps:
            assert step.action in (Action.NEW_SET, Action.ADD), step
            assert step.set >= len(position.table), step
            assert Counter(step.tiles) == Counter(step.from_rack), step

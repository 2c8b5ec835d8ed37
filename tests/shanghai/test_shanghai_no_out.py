"""The counting proof that a hand cannot go out (:mod:`solver.shanghai.no_out`): never
said of a hand the turn solved whole lets go out, and it spares the draw phase the
search that proves no stock card goes out."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks.shanghai_speed import deal
from solver.cpsat import Limit, Status
from solver.shanghai import STANDARD, Contract, Position, parse_cards
from solver.shanghai.no_out import cannot_go_out
from solver.shanghai.position import Phase
from solver.shanghai.rules import Rules
from solver.shanghai.search import drawn_cards, solve_turn, turn_reach
from tests.shanghai.strategies import HAND_NUMBERS, RANDOMS
from tests.support import counting_solves

LIMIT = Limit(20.0)
RULES = (
    STANDARD,
    Rules(decks=3, twos_wild=True),
    Rules(go_out_by_discard=True),
    Rules(decks=3, twos_wild=True, go_out_by_discard=True, min_set_len=2, min_run_len=3),
)


@settings(max_examples=30)
@given(
    rng=RANDOMS,
    number=HAND_NUMBERS,
    down=st.booleans(),
    more=st.integers(0, 4),
    rules=st.sampled_from(RULES),
)
def test_a_hand_proven_not_to_go_out_never_goes_out(
    rng: random.Random, number: int, down: bool, more: int, rules: Rules
) -> None:
    """Whenever counting says a hand cannot go out, the turn solved whole by CP-SAT
    (:func:`solve_turn`) does not go out; hands not down are cut to a few cards more
    than their contract, so that some of them go out."""
    position = deal(rng, number, down, Phase.PLAY)
    contract = None if down else position.contract
    if contract is not None:
        position = replace(position, hand=position.hand[: contract.cards + more])
    hand = Counter(position.hand)
    table = tuple(item.meld for item in position.table)
    if not cannot_go_out(hand, contract, table, rules):
        return
    unseen = +position.unseen(rules)
    turn, status = solve_turn(hand, contract, table, unseen, rules, limit=LIMIT)
    assert status is Status.OPTIMAL
    assert turn is None or not turn.goes_out, position.hand


@pytest.mark.parametrize(
    ("cards", "runs", "proven"),
    [
        # Four suits under three runs, no table: the fourth suit has no place.
        ("3H 4H 5H 6H 7C 8C 9C 10C JD QD KD AD 9S", 3, True),
        # Three suits under three runs: counting cannot tell.
        ("3H 4H 5H 6H 7C 8C 9C 10C JD QD KD AD 9D", 3, False),
        # Two copies of 5H under one run of hearts: one copy has no place.
        ("3H 4H 5H 5H 6H", 1, True),
    ],
)
def test_counting_proves_what_it_can(cards: str, runs: int, proven: bool) -> None:
    hand = Counter(parse_cards(cards))
    contract = Contract(runs=(4,) * runs)
    assert cannot_go_out(hand, contract, (), STANDARD) is proven


def test_no_search_proves_that_no_stock_card_goes_out(monkeypatch: pytest.MonkeyPatch) -> None:
    """A 21-card hand of every suit under three runs goes out with no stock card
    (the draw's question of the default hand-7 request): counting proves it for every
    card, so :func:`drawn_cards` makes no search, where it made one infeasible search
    of the whole turn (0.13 units of work, half the request's); the turn with the
    upcard is asked only whether a play exists, and answers as the turn solved whole."""
    rules = Rules(decks=3, twos_wild=True)
    hand = Counter(parse_cards("3H KH 2D 9D 10D 2C 7C 8C 9C JC KC 4H 2S 10S 7S 6S QD 7D 6H KS 8H"))
    contract = Contract.for_hand(7, rules)
    unseen = +Position(tuple(hand.elements()), contract).unseen(rules)
    solves = counting_solves(monkeypatch)
    found, status = drawn_cards(hand, contract, (), unseen, rules, sorted(unseen), out=True)
    assert (found, status, solves[0]) == (set(), Status.OPTIMAL, 0)
    monkeypatch.undo()
    taken = hand + Counter(parse_cards("AS"))
    out, status = turn_reach(taken, contract, (), unseen, rules, LIMIT)
    turn, _ = solve_turn(taken, contract, (), unseen, rules, limit=LIMIT)
    assert status is Status.OPTIMAL
    assert out is (None if turn is None else turn.goes_out)

"""Go-down verdicts, the points left, deficiency and lay-offs equal an independent
brute force (tests/shanghai/brute.py) on random small hands."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.cpsat import Limit
from solver.errors import CountError
from solver.shanghai.contracts import STANDARD_CONTRACTS, Contract
from solver.shanghai.deficiency import deficiency
from solver.shanghai.melds import Meld, MeldKind, TableMeld, read_meld
from solver.shanghai.notation import JOKER, Card, Suit
from solver.shanghai.position import Position
from solver.shanghai.rules import Rules
from solver.shanghai.search import solve_turn
from tests.shanghai.brute import (
    Brute,
    Laid,
    TurnBrute,
    best_lay_offs,
    fits_all,
    run_extras,
    set_extras,
)
from tests.shanghai.strategies import RANDOMS

VARIANTS = [
    Rules(decks=4),
    Rules(decks=4, ace_low=True),
    Rules(decks=4, twos_wild=True),
    Rules(decks=4, go_out_by_discard=True, ace_low=True),
]
CONTRACTS = [
    Contract(sets=(3,)),
    Contract(runs=(4,)),
    Contract(sets=(3, 3)),
    Contract(sets=(3,), runs=(4,)),
    Contract(runs=(4, 4)),
]
BRUTES = {(r, c): Brute(r, c.sets, c.runs) for r in VARIANTS for c in CONTRACTS}
LIMIT = Limit(20.0)


def random_hand(rng: random.Random, size: int, jokers: int) -> list[Card]:
    """Cards from a window of 6 ranks in 2 suits (so melds are likely), at most two
    copies of each, plus jokers."""
    low = rng.choice([2, 3, 5, 8, 9, 10])
    ranks = [14 if r == 15 else r for r in range(low, low + 6)]
    if low == 2:
        ranks[-1] = 14  # A-2-3-4-5 window for ace-low runs
    suits = rng.sample(list(Suit), 2)
    pool = [Card(r, s) for r in ranks for s in suits for _ in range(2)]
    return rng.sample(pool, size - jokers) + [JOKER] * jokers


def unseen(hand: list[Card], contract: Contract, rules: Rules) -> Counter[Card]:
    return Position(tuple(hand), contract).unseen(rules)


@settings(max_examples=60)
@given(
    variant=st.sampled_from(VARIANTS),
    contract=st.sampled_from(CONTRACTS),
    rng=RANDOMS,
    size=st.integers(3, 8),
    jokers=st.integers(0, 2),
    search=st.booleans(),
)
def test_deficiency_matches_brute_force(
    variant: Rules,
    contract: Contract,
    rng: random.Random,
    size: int,
    jokers: int,
    search: bool,
) -> None:
    """Both methods: the search (with CP-SAT behind it) and the CP-SAT model alone."""
    hand = random_hand(rng, size, min(jokers, size))
    found, _ = deficiency(
        Counter(hand),
        contract,
        unseen(hand, contract, variant),
        variant,
        limit=LIMIT,
        search=search,
    )
    assert found == BRUTES[variant, contract].deficiency(hand), hand


@settings(max_examples=60)
@given(
    variant=st.sampled_from(VARIANTS),
    contract=st.sampled_from(CONTRACTS),
    rng=RANDOMS,
    size=st.integers(3, 9),
    jokers=st.integers(0, 3),
)
def test_go_down_verdict_and_points_left_match_brute_force(
    variant: Rules, contract: Contract, rng: random.Random, size: int, jokers: int
) -> None:
    hand = random_hand(rng, size, min(jokers, size))
    brute = BRUTES[variant, contract]
    turn, _ = solve_turn(
        Counter(hand), contract, (), unseen(hand, contract, variant), variant, limit=LIMIT
    )
    expected = brute.go_down_points(hand)
    if expected is None:
        assert turn is None, hand
        return
    assert turn is not None, hand
    assert turn.go_down is not None, hand
    plan = turn.go_down
    assert plan.penalty_left == expected
    laid = [c for m in plan.melds for c in m.cards]
    assert Counter(laid) + Counter(plan.left) == Counter(hand)
    kinds = sorted(m.kind.value for m in plan.melds)
    assert kinds == sorted(["set"] * len(contract.sets) + ["run"] * len(contract.runs))
    for meld in plan.melds:
        _assert_meld_meets(meld, contract, variant)


def _assert_meld_meets(meld: Meld, contract: Contract, rules: Rules) -> None:
    """Judged by the brute force's own meld test, not the library's reader."""
    if meld.kind is MeldKind.SET:
        assert set_extras(meld.cards, min(contract.sets), rules) == 0, meld
    else:
        assert run_extras(meld.cards, min(contract.runs), rules) == 0, meld
        # runs are written low to high: each card is what it stands for, or wild
        for card, meant in zip(meld.cards, meld.stands_for, strict=True):
            assert card == meant or card.is_joker or (rules.twos_wild and card.rank == 2)


def random_table(rng: random.Random, rules: Rules) -> list[Meld]:
    melds = []
    for _ in range(rng.randint(1, 3)):
        suit = rng.choice(list(Suit))
        if rng.random() < 0.5:
            rank = rng.randint(3, 13)
            suits = [rng.choice(list(Suit)) for _ in range(3)]
            melds.append(read_meld([Card(rank, s) for s in suits], rules))
        else:
            first = rng.randint(3, 10)
            melds.append(read_meld([Card(r, suit) for r in range(first, first + 4)], rules))
    return melds


def hand_near(rng: random.Random, table: list[Meld], size: int, jokers: int) -> list[Card]:
    """Cards that often fit the table: the ranks around each meld, in its suit."""
    pool = []
    for meld in table:
        if meld.kind is MeldKind.SET:
            pool += [Card(meld.rank, s) for s in Suit]
        else:
            for q in (meld.first_place - 2, meld.first_place - 1, meld.last_place + 1):
                if 2 <= q <= 14:
                    pool.append(Card(q, meld.suit))
    pool += [Card(rng.randint(3, 13), rng.choice(list(Suit))) for _ in range(3)]
    return [rng.choice(pool) for _ in range(size - jokers)] + [JOKER] * jokers


@settings(max_examples=60)
@given(
    variant=st.sampled_from(VARIANTS),
    rng=RANDOMS,
    size=st.integers(1, 5),
    jokers=st.integers(0, 2),
)
def test_lay_offs_match_brute_force(
    variant: Rules, rng: random.Random, size: int, jokers: int
) -> None:
    table = random_table(rng, variant)
    hand = hand_near(rng, table, size, min(jokers, size))
    seen = Position(tuple(hand), Contract(sets=(3,)))
    turn, _ = solve_turn(
        Counter(hand), None, tuple(table), seen.unseen(variant), variant, limit=LIMIT
    )
    brute_table = [(m.stands_for, m.first_place, m.kind.value) for m in table]
    out, shed = best_lay_offs(hand, brute_table, variant)
    if len(hand) == 1 and not out and not variant.go_out_by_discard:
        assert turn is None  # one card that cannot be laid off: no legal end
        return
    assert turn is not None
    result = turn.lay_offs
    assert (result.can_go_out, result.points_shed) == (out, shed), (hand, table)
    assert Counter(p.card for p in result.plays) + Counter(result.left) == Counter(hand)


# --- the whole turn, every contract --------------------------------------------------

TURN_VARIANTS = [Rules(), Rules(ace_low=True), Rules(twos_wild=True), Rules(go_out_by_discard=True)]
TURN_BRUTES = {rules: TurnBrute(rules) for rules in TURN_VARIANTS}


def near_contract(rng: random.Random, contract: Contract, rules: Rules) -> list[Card]:
    """The contract's melds at their minimum sizes (a run sometimes one longer), some
    cards turned into jokers, sometimes one card missing, plus a stray card or two."""
    cards: list[Card] = []
    suits = list(Suit)
    for size in contract.sets:
        rank = rng.randint(3, 14)
        offset = rng.randrange(4)
        cards += [Card(rank, suits[(offset + i) % 4]) for i in range(size)]
    for size in contract.runs:
        suit = rng.choice(suits)
        length = size + rng.choice([0, 0, 1])
        first = rng.randint(rules.lowest_place, 15 - length)
        cards += [Card(14 if q == 1 else q, suit) for q in range(first, first + length)]
    for _ in range(rng.choice([0, 1, 1, 2])):
        cards[rng.randrange(len(cards))] = JOKER
    rng.shuffle(cards)
    if rng.random() < 0.3:
        cards.pop()
    cards += [Card(rng.randint(3, 14), rng.choice(suits)) for _ in range(rng.randint(0, 2))]
    return cards


def table_melds(rng: random.Random, rules: Rules) -> list[Meld]:
    """1-3 melds of other players, a third of them holding a joker."""
    melds = []
    for _ in range(rng.randint(1, 3)):
        if rng.random() < 0.5:
            cards = [Card(rng.randint(3, 14), s) for s in rng.sample(list(Suit), 3)]
            cards = [Card(cards[0].rank, c.suit) for c in cards]
        else:
            suit, first = rng.choice(list(Suit)), rng.randint(3, 10)
            cards = [Card(q, suit) for q in range(first, first + 4)]
        if rng.random() < 0.35:
            cards[1] = JOKER
        melds.append(read_meld(cards, rules))
    return melds


def check_turn(
    rules: Rules, hand: list[Card], contract: Contract | None, table: list[Meld]
) -> None:
    """solve_turn equals the brute force: whether a play exists, going out, and the
    points left after the plays; the discard is the costliest dead card (the costliest
    card when none is dead), so the points at the end of the turn are the brute
    force's less that card's."""
    position = Position(tuple(hand), contract or Contract((3,)), tuple(TableMeld(m) for m in table))
    try:
        position.check(rules)
    except CountError:
        return
    turn, _ = solve_turn(
        Counter(hand), contract, tuple(table), position.unseen(rules), rules, limit=LIMIT
    )
    slots = None
    if contract is not None:
        slots = [("set", n) for n in contract.sets] + [("run", n) for n in contract.runs]
    laid = [Laid(m.kind.value, m.cards, m.stands_for, m.first_place) for m in table]
    expected = TURN_BRUTES[rules].best(hand, slots, laid)
    if expected is None:
        assert turn is None, (hand, table)
        return
    assert turn is not None, (hand, table)
    left = turn.lay_offs.left
    assert (turn.goes_out, sum(rules.points(c) for c in left)) == expected, (hand, table)
    after = [Laid(m.kind.value, m.cards, m.stands_for, m.first_place) for m in turn.table]
    dead = [c for c in left if not any(fits_all(m, Counter([c]), rules) for m in after)]
    if turn.goes_out:
        assert (turn.kept, turn.points) == ((), 0), (hand, table)
        return
    assert turn.discard is not None, (hand, table)
    assert len(turn.kept) >= 1, (hand, table)
    pool = dead or list(left)
    assert turn.discard.card in pool, (hand, table, turn.discard)
    most = max(rules.points(c) for c in pool)
    assert rules.points(turn.discard.card) == most, (hand, table, turn.discard)
    assert turn.points == expected[1] - most, (hand, table)


@pytest.mark.parametrize("number", range(1, 11))
@settings(max_examples=8)
@given(rng=RANDOMS, variant=st.sampled_from(TURN_VARIANTS))
def test_whole_turn_matches_brute_force(number: int, rng: random.Random, variant: Rules) -> None:
    """A player not yet down, hands near every standard contract, tables with jokers."""
    contract = STANDARD_CONTRACTS[number]
    check_turn(variant, near_contract(rng, contract, variant), contract, table_melds(rng, variant))


@settings(max_examples=40)
@given(rng=RANDOMS, variant=st.sampled_from(TURN_VARIANTS), size=st.integers(1, 6))
def test_down_turn_matches_brute_force(rng: random.Random, variant: Rules, size: int) -> None:
    """A player who is down: swaps and lay-offs on tables with jokers."""
    table = table_melds(rng, variant)
    hand = hand_near(rng, table, size, rng.choice([0, 0, 1]))
    check_turn(variant, hand, None, table)

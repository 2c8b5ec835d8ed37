"""Hypothesis strategies shared by the Shanghai property tests.

The dealing helpers (the benchmarks' ``deal``, the brute-force tests' hands and
tables) take a ``random.Random``; the tests hand them one drawn from ``RANDOMS``
instead of seeding one from a drawn integer, so each choice the helpers make is a
hypothesis draw and a failing example shrinks (fewer melds, smaller ranks, the
first cards of the deck) instead of jumping to an unrelated seed.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from hypothesis import strategies as st

from solver.shanghai.contracts import Contract
from solver.shanghai.notation import ACE, ALL_NATURALS, JOKER, Card, Suit
from solver.shanghai.position import Position
from solver.shanghai.rules import MAX_RUN_LEN, Rules
from tests.support import examples as examples  # the variant tests' count, shared

RANDOMS = st.randoms(use_true_random=False)
"""A random source hypothesis controls and shrinks."""

HAND_NUMBERS = st.integers(1, 10)
"""The ten hands of a Shanghai game, each with its standard contract."""


POINTS = st.one_of(st.sampled_from([0, 1, 1000]), st.integers(0, 1000))
"""A card's points: the extremes the settings allow, or anything between."""


@st.composite
def variants(draw: st.DrawFn) -> Rules:
    """Any variant the settings allow: 1-8 decks, 0-4 jokers a deck, wild twos, low
    aces, going out by discarding, sets of 2-8 and runs of 3-13 at least, and any
    point values (0 and 1000 among them). Shrinks to one deck and the shortest melds."""
    return Rules(
        decks=draw(st.integers(1, 8)),
        jokers_per_deck=draw(st.integers(0, 4)),
        twos_wild=draw(st.booleans()),
        ace_low=draw(st.booleans()),
        go_out_by_discard=draw(st.booleans()),
        min_set_len=draw(st.integers(2, 8)),
        min_run_len=draw(st.one_of(st.integers(3, 5), st.integers(3, MAX_RUN_LEN))),
        buys=draw(st.integers(0, 20)),
        buy_penalty_cards=draw(st.integers(0, 10)),
        low_points=draw(POINTS),
        ten_points=draw(POINTS),
        ace_points=draw(POINTS),
        two_points=draw(POINTS),
        joker_points=draw(POINTS),
    )


def largest_set(rules: Rules) -> int:
    """The most cards a set can hold: the rank's naturals, and as many wild cards."""
    naturals = 4 * rules.decks
    return naturals + min(naturals, rules.jokers + (naturals if rules.twos_wild else 0))


Sizes = tuple[tuple[int, ...], tuple[int, ...]]
"""A contract as (set sizes, run sizes)."""


@st.composite
def contracts(draw: st.DrawFn, rules: Rules) -> Sizes:
    """One or two melds the rules allow, at or just above their minimum sizes (small
    enough for the exhaustive search: two melds of 18 cards at most)."""
    can_set = rules.min_set_len <= largest_set(rules)
    kinds = draw(
        st.lists(st.sampled_from(["set", "run"] if can_set else ["run"]), min_size=1, max_size=2)
    )
    sets: list[int] = []
    runs: list[int] = []
    for kind in kinds:
        if kind == "set":
            sets.append(
                draw(st.integers(rules.min_set_len, min(rules.min_set_len + 1, largest_set(rules))))
            )
        else:
            runs.append(
                draw(st.integers(rules.min_run_len, min(rules.min_run_len + 1, MAX_RUN_LEN)))
            )
    if sum(sets) + sum(runs) > 18:
        sets, runs = (sets[:1], []) if sets else ([], runs[:1])
    return tuple(sorted(sets)), tuple(sorted(runs))


TableMelds = tuple[tuple[str, tuple[Card, ...], tuple[Card, ...]], ...]
"""Table melds as (kind, cards in order, what each card plays as)."""


def card_at(place: int, suit: Suit) -> Card:
    return Card(ACE if place == 1 else place, suit)


def wild_cards(rules: Rules) -> list[Card]:
    """The wild cards of the game, one of each kind."""
    wild = [JOKER] if rules.jokers else []
    return wild + ([Card(2, s) for s in Suit] if rules.twos_wild else [])


class Stock:
    """The cards of the game not yet dealt to the table or the hand."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.used: Counter[Card] = Counter()

    def take(self, card: Card) -> bool:
        if self.used[card] >= self.rules.copies(card):
            return False
        self.used[card] += 1
        return True

    def deal(self, cards: list[Card], at_least: int) -> tuple[Card, ...]:
        """The cards of ``cards`` the game still has, then the first it has in card
        order up to ``at_least`` cards."""
        hand = [c for c in cards if self.take(c)]
        spare = (c for c in ALL_NATURALS if self.take(c))
        while len(hand) < at_least:
            hand.append(next(spare))
        return tuple(hand)


@st.composite
def tables(draw: st.DrawFn, rules: Rules, at_least: int = 0) -> TableMelds:
    """0-3 melds of other players at or just above the minimum sizes, some holding a
    wild card (at most as many as natural cards)."""
    stock = Stock(rules)
    melds: list[tuple[str, tuple[Card, ...], tuple[Card, ...]]] = []
    wilds = wild_cards(rules)
    for _ in range(draw(st.integers(at_least, 3))):
        with_wild = bool(wilds) and draw(st.booleans())
        if rules.min_set_len <= largest_set(rules) and draw(st.booleans()):
            rank = draw(st.integers(2, ACE))
            size = draw(st.integers(rules.min_set_len, rules.min_set_len + 1))
            cards: list[Card] = []
            meant: list[Card] = []
            for i in range(size):
                wild = draw(st.sampled_from(wilds)) if with_wild and i % 2 else None
                if wild is not None and wild.rank != rank and stock.take(wild):
                    cards.append(wild)
                    meant.append(Card(rank, None))
                    continue
                card = Card(rank, draw(st.sampled_from(list(Suit))))
                if stock.take(card):
                    cards.append(card)
                    meant.append(card)
            kind = "set"
        else:
            suit = draw(st.sampled_from(list(Suit)))
            length = draw(st.integers(rules.min_run_len, min(rules.min_run_len + 1, MAX_RUN_LEN)))
            first = draw(st.integers(rules.lowest_place, 15 - length))
            cards, meant = [], []
            gap = draw(st.integers(0, length - 1)) if with_wild else -1
            for i in range(length):
                card = card_at(first + i, suit)
                wild = draw(st.sampled_from(wilds)) if i == gap else None
                if wild is not None and wild != card and stock.take(wild):
                    cards.append(wild)
                elif stock.take(card):
                    cards.append(card)
                else:
                    break
                meant.append(card)
            kind = "run"
        naturals = sum(
            c == m or (kind == "set" and c.rank == m.rank)
            for c, m in zip(cards, meant, strict=True)
        )
        short = len(cards) < (rules.min_set_len if kind == "set" else rules.min_run_len)
        if short or 2 * naturals < len(cards):
            for card in cards:  # not a meld after all: give its cards back
                stock.used[card] -= 1
            continue
        melds.append((kind, tuple(cards), tuple(meant)))
    return tuple(melds)


def used_by(table: TableMelds, rules: Rules) -> Stock:
    stock = Stock(rules)
    for _, cards, _ in table:
        for card in cards:
            stock.take(card)
    return stock


@st.composite
def hand_near_contract(
    draw: st.DrawFn, rules: Rules, contract: Sizes, table: TableMelds, missing: int = 1
) -> tuple[Card, ...]:
    """The contract's melds at or just above their sizes, some cards turned wild, up to
    ``missing`` cards taken out, and a stray card or two; only cards the game still has."""
    cards: list[Card] = []
    for size in contract[0]:
        rank = draw(st.integers(2, ACE))
        offset = draw(st.integers(0, 3))
        cards += [Card(rank, list(Suit)[(offset + i) % 4]) for i in range(size)]
    for size in contract[1]:
        suit = draw(st.sampled_from(list(Suit)))
        length = min(size + draw(st.integers(0, 1)), MAX_RUN_LEN)
        first = draw(st.integers(rules.lowest_place, 15 - length))
        cards += [card_at(q, suit) for q in range(first, first + length)]
    wilds = wild_cards(rules)
    if wilds:
        for _ in range(draw(st.integers(0, 2))):
            cards[draw(st.integers(0, len(cards) - 1))] = draw(st.sampled_from(wilds))
    for _ in range(draw(st.integers(0, missing))):
        if len(cards) > 1:
            cards.pop(draw(st.integers(0, len(cards) - 1)))
    cards += draw(
        st.lists(st.builds(Card, st.integers(2, ACE), st.sampled_from(list(Suit))), max_size=2)
    )
    stock = used_by(table, rules)
    return stock.deal(cards, 2)


@st.composite
def hand_near_table(draw: st.DrawFn, rules: Rules, table: TableMelds) -> tuple[Card, ...]:
    """1-6 cards that often fit the table: a set's rank, the places beyond a run's ends,
    the card a joker stands for, wild cards, strays; only cards the game still has."""
    pool: list[Card] = wild_cards(rules)
    for kind, cards, meant in table:
        if kind == "set":
            pool += [Card(meant[0].rank, s) for s in Suit]
        else:
            low = (
                1
                if meant[0].rank == ACE and len(meant) > 1 and meant[1].rank == 2
                else meant[0].rank
            )
            high = low + len(meant) - 1
            suit = meant[0].suit
            assert suit is not None
            pool += [
                card_at(q, suit)
                for q in (low - 2, low - 1, high + 1, high + 2)
                if rules.lowest_place <= q <= ACE
            ]
        pool += [m for c, m in zip(cards, meant, strict=True) if c.is_joker and m.suit is not None]
    pool.append(Card(draw(st.integers(2, ACE)), draw(st.sampled_from(list(Suit)))))
    stock = used_by(table, rules)
    picked = draw(st.lists(st.sampled_from(pool), min_size=1, max_size=6))
    return stock.deal(picked, 1)


@dataclass(frozen=True)
class Drawn:
    """A drawn play-phase question: the rules, a contract, the table, the hand, and
    whether the player is down."""

    rules: Rules
    contract: Sizes
    table: TableMelds
    hand: tuple[Card, ...]
    down: bool


def contract_of(position: Position) -> Contract:
    """The contract of ``position``, one of a player not down (a position of a player
    who is down may have none)."""
    assert position.contract is not None, position
    return position.contract

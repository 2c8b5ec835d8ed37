"""An independent brute force for Shanghai questions on small hands.

It shares nothing with the CP-SAT model or the library's meld reader: it judges a
meld by trying every rank, suit and stretch of places, and searches every way to
split a hand among the contract melds (and the table melds) by recursion over
sub-multisets. Exponential, so only for hands of a handful of cards.

Deficiency here assumes extra cards are never short (the tests use 4 decks and
hands with at most two copies of a card, so that holds) and are natural cards.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator
from functools import lru_cache

from solver.shanghai.cards import Card, Suit
from solver.shanghai.rules import Rules

INFINITE = 10**6
Cards = tuple[Card, ...]


def wild(card: Card, rules: Rules) -> bool:
    return card.rank == 0 or (rules.twos_wild and card.rank == 2)


def places(rules: Rules) -> list[int]:
    return list(range(1 if rules.ace_low else 2, 15))


def card_at(place: int, suit: Suit) -> Card:
    return Card(14 if place == 1 else place, suit)


def set_extras(cards: Cards, size: int, rules: Rules) -> int:
    """Fewest natural cards to add so ``cards`` form a set of at least ``size``."""
    best = INFINITE
    for rank in range(2, 15):
        naturals = sum(1 for c in cards if c.rank == rank)
        wilds = len(cards) - naturals
        if any(c.rank != rank and not wild(c, rules) for c in cards):
            continue
        best = min(best, max(0, size - naturals - wilds, wilds - naturals))
    return best


def run_extras(cards: Cards, size: int, rules: Rules) -> int:
    """Fewest natural cards to add so ``cards`` form a run of at least ``size``."""
    best = INFINITE
    spots = places(rules)
    for suit in Suit:
        for length in range(max(size, len(cards)), 14):
            for first in spots:
                stretch = [card_at(p, suit) for p in range(first, first + length)]
                if first + length - 1 > 14:
                    continue
                naturals = _naturals_fitting(cards, stretch, rules)
                if naturals is None:
                    continue
                wilds = len(cards) - naturals
                extras = length - len(cards)
                if wilds <= naturals + extras:
                    best = min(best, extras)
    return best


def _naturals_fitting(cards: Cards, stretch: list[Card], rules: Rules) -> int | None:
    """Most cards that can sit in their own place of ``stretch`` (the rest must be
    wild), or None when some card fits nowhere."""
    free = Counter(stretch)
    naturals = 0
    for card in sorted(cards, key=lambda c: wild(c, rules)):
        if free[card] > 0:
            free[card] -= 1
            naturals += 1
        elif not wild(card, rules):
            return None
    return naturals


def _sub_multisets(cards: Cards) -> Iterator[tuple[Cards, Cards]]:
    counts = Counter(cards)
    kinds = sorted(counts)
    for choice in itertools.product(*(range(counts[k] + 1) for k in kinds)):
        taken: list[Card] = []
        rest: list[Card] = []
        for kind, n in zip(kinds, choice, strict=True):
            taken += [kind] * n
            rest += [kind] * (counts[kind] - n)
        yield tuple(taken), tuple(rest)


class Brute:
    """Exhaustive answers for one rule set and contract."""

    def __init__(self, rules: Rules, sets: tuple[int, ...], runs: tuple[int, ...]) -> None:
        self.rules = rules
        self.slots = [("set", n) for n in sets] + [("run", n) for n in runs]
        self.cost = lru_cache(maxsize=None)(self._cost)
        self.deficiency_of = lru_cache(maxsize=None)(self._deficiency)
        self.fewest_points = lru_cache(maxsize=None)(self._fewest_points)

    def _cost(self, slot: int, cards: Cards) -> int:
        kind, size = self.slots[slot]
        if kind == "set":
            return set_extras(cards, size, self.rules)
        return run_extras(cards, size, self.rules)

    def _deficiency(self, slot: int, cards: Cards) -> int:
        if slot == len(self.slots):
            return 0
        best = INFINITE
        for taken, rest in _sub_multisets(cards):
            cost = self.cost(slot, taken)
            if cost < best:
                best = min(best, cost + self.deficiency_of(slot + 1, rest))
        return best

    def deficiency(self, hand: list[Card]) -> int:
        return self.deficiency_of(0, tuple(sorted(hand)))

    def _fewest_points(self, slot: int, cards: Cards) -> int:
        """Fewest penalty points left after laying every slot exactly from ``cards``,
        with a legal turn end (no single card left unless it may be discarded)."""
        if slot == len(self.slots):
            if len(cards) == 1 and not self.rules.go_out_by_discard:
                return INFINITE
            return sum(self.rules.points(c) for c in cards)
        best = INFINITE
        for taken, rest in _sub_multisets(cards):
            if taken and self.cost(slot, taken) == 0:
                best = min(best, self.fewest_points(slot + 1, rest))
        return best

    def go_down_points(self, hand: list[Card]) -> int | None:
        """Fewest points left after going down (empty table), None if impossible."""
        best = self.fewest_points(0, tuple(sorted(hand)))
        return None if best >= INFINITE else best


def lay_off_fits(meld: Cards, first_place: int, kind: str, added: Cards, rules: Rules) -> bool:
    """Whether ``added`` can all be laid on the table meld ``meld`` (given as the
    cards it stands for, all natural) keeping its order."""
    if not added:
        return True
    if kind == "set":
        rank = meld[0].rank
        naturals = len(meld) + sum(1 for c in added if c.rank == rank)
        if any(c.rank != rank and not wild(c, rules) for c in added):
            return False
        return len(meld) + len(added) - naturals <= naturals
    suit = meld[0].suit
    assert suit is not None
    last = first_place + len(meld) - 1
    low_end = 1 if rules.ace_low else 2
    for below in range(len(added) + 1):
        above = len(added) - below
        first, top = first_place - below, last + above
        if first < low_end or top > 14 or top - first + 1 > 13:
            continue
        spots = [card_at(p, suit) for p in range(first, first_place)]
        spots += [card_at(p, suit) for p in range(last + 1, top + 1)]
        naturals = _naturals_fitting(added, spots, rules)
        if naturals is not None and len(added) - naturals <= len(meld) + naturals:
            return True
    return False


def best_lay_offs(
    hand: list[Card], table: list[tuple[Cards, int, str]], rules: Rules
) -> tuple[bool, int]:
    """(goes out, most points shed) over every way to lay the hand's cards on the
    table melds, with a legal turn end. Table melds hold no wild cards."""
    best: tuple[bool, int] | None = None
    cards = sorted(hand)
    for target in itertools.product(range(len(table) + 1), repeat=len(cards)):
        groups: list[list[Card]] = [[] for _ in table]
        kept = []
        for card, where in zip(cards, target, strict=True):
            if where == len(table):
                kept.append(card)
            else:
                groups[where].append(card)
        if len(kept) == 1 and not rules.go_out_by_discard and len(cards) > 1:
            continue
        if not all(
            lay_off_fits(meld, first, kind, tuple(g), rules)
            for (meld, first, kind), g in zip(table, groups, strict=True)
        ):
            continue
        out = len(kept) <= (1 if rules.go_out_by_discard else 0)
        shed = sum(rules.points(c) for g in groups for c in g)
        if best is None or (out, shed) > best:
            best = (out, shed)
    assert best is not None
    return best

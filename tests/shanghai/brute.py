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
from collections.abc import Iterator, Set
from dataclasses import dataclass
from functools import cache, lru_cache

from solver.shanghai.notation import Card, Suit
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


@cache  # the same few cards come back in every example
def run_extras(cards: Cards, size: int, rules: Rules) -> int:
    """Fewest natural cards to add so ``cards`` form a run of at least ``size``."""
    best = INFINITE
    naturals = [c for c in cards if not wild(c, rules)]
    for suit in Suit:
        # A natural card of another suit, or a second copy of one, fits no stretch of
        # this suit (_naturals_fitting finds no place for it): no stretch to try.
        if any(c.suit != suit for c in naturals) or len(set(naturals)) < len(naturals):
            continue
        # The extras grow with the length: the shortest stretch that fits is the best
        # of its suit, and none as long as the best so far can beat it.
        for length in range(max(size, len(cards)), min(14, len(cards) + best)):
            if any(_fits(cards, suit, first, length, rules) for first in places(rules)):
                best = length - len(cards)
                break
    return best


def _fits(cards: Cards, suit: Suit, first: int, length: int, rules: Rules) -> bool:
    """Whether ``cards``, with natural cards added, fill the ``length`` places of
    ``suit`` from ``first``, with no more wild cards than natural ones."""
    if first + length - 1 > 14:
        return False
    stretch = [card_at(p, suit) for p in range(first, first + length)]
    naturals = _naturals_fitting(cards, stretch, rules)
    return naturals is not None and len(cards) - naturals <= naturals + length - len(cards)


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
        fitting = _naturals_fitting(added, spots, rules)
        if fitting is not None and len(added) - fitting <= len(meld) + fitting:
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


# --- a whole turn: going down, joker swaps, lay-offs ------------------------------

Counts = tuple[tuple[Card, int], ...]
"""A multiset of cards as sorted (card, count) pairs, so it can key a cache."""


def counts(cards: Counter[Card]) -> Counts:
    return tuple(sorted((c, n) for c, n in cards.items() if n > 0))


@dataclass(frozen=True)
class Laid:
    """A meld on the table as the brute force sees it: its cards, what each stands
    for, and the run place of the first card (0 for a set)."""

    kind: str
    cards: Cards
    meant: Cards
    first: int = 0

    def naturals(self, rules: Rules) -> int:
        return sum(
            1 for c, m in zip(self.cards, self.meant, strict=True) if _natural(c, m, self.kind)
        )


def _natural(card: Card, meant: Card, kind: str) -> bool:
    """A card plays as itself: a run's exact card, or a set's rank (never a joker)."""
    if card.rank == 0:
        return False
    return card == meant if kind == "run" else card.rank == meant.rank


def _sub_counts(cards: Counter[Card], pick: list[Card]) -> Iterator[Counter[Card]]:
    """Every sub-multiset of ``cards`` restricted to the kinds in ``pick``."""
    kinds = sorted(k for k in set(pick) if cards[k] > 0)
    for choice in itertools.product(*(range(cards[k] + 1) for k in kinds)):
        yield Counter({k: n for k, n in zip(kinds, choice, strict=True) if n})


def new_melds(cards: Counter[Card], kind: str, size: int, rules: Rules) -> Iterator[Counter[Card]]:
    """Every multiset of ``cards`` that can be laid as one meld of ``kind`` with at
    least ``size`` cards, by the rules: a set is one rank (wild cards at most as many
    as natural ones); a run is consecutive places of one suit, each its own card or a
    wild card, at most 13, wild cards at most as many as natural ones."""
    wilds = [c for c in cards if wild(c, rules)]
    seen: set[Counts] = set()
    if kind == "set":
        for rank in range(2, 15):
            natural = [c for c in cards if c.rank == rank and (rank == 2 or not wild(c, rules))]
            for nat in _sub_counts(cards, natural):
                n = sum(nat.values())
                if n == 0:
                    continue
                rest = cards - nat
                for w in _sub_counts(rest, [c for c in wilds if c.rank != rank or c.rank == 0]):
                    m = sum(w.values())
                    if m <= n and n + m >= size:
                        key = counts(nat + w)
                        if key not in seen:
                            seen.add(key)
                            yield nat + w
        return
    wild_cards = Counter({c: n for c, n in cards.items() if n > 0 and wild(c, rules)})
    spare = sum(wild_cards.values())
    for suit in Suit:
        for first in places(rules):
            held: list[Card] = []
            gaps = 0
            for last in range(first, min(14, first + 12) + 1):
                card = card_at(last, suit)
                if cards[card] > 0 and card not in held:
                    held.append(card)
                else:
                    gaps += 1
                if gaps > spare:
                    break
                if last - first + 1 >= size:
                    for used in _fill(list(held), gaps, wild_cards):
                        key = counts(used)
                        if key not in seen:
                            seen.add(key)
                            yield used


def _fill(held: list[Card], gaps: int, wild_cards: Counter[Card]) -> Iterator[Counter[Card]]:
    """Ways to fill a stretch of run places: ``held`` the places whose own card the
    hand holds, ``gaps`` the others, which take wild cards. A held place may still
    take a wild card (keeping its natural card for something else); wild cards at
    most as many as natural ones."""
    spare = sum(wild_cards.values())
    for omitted in range(min(len(held), spare - gaps) + 1):
        for skip in itertools.combinations(held, omitted):
            naturals = [c for c in held if c not in skip]
            if gaps + omitted > len(naturals):
                continue
            base = Counter(naturals)
            left = wild_cards - base  # a two placed as itself is not also a wild card
            for chosen in _choose(left, gaps + omitted):
                yield base + chosen


def _choose(cards: Counter[Card], k: int) -> Iterator[Counter[Card]]:
    """Every sub-multiset of ``cards`` with ``k`` cards."""
    kinds = sorted(c for c in cards if cards[c] > 0)

    def walk(i: int, k: int, got: Counter[Card]) -> Iterator[Counter[Card]]:
        if k == 0:
            yield got
            return
        if i == len(kinds):
            return
        for n in range(min(k, cards[kinds[i]]), -1, -1):
            yield from walk(i + 1, k - n, got + Counter({kinds[i]: n}) if n else got)

    yield from walk(0, k, Counter())


def fits_all(meld: Laid, added: Counter[Card], rules: Rules) -> bool:
    """Whether ``added`` can all be laid off on ``meld``: a set takes its rank and wild
    cards; a run takes places beyond its ends, outwards, each its own card or a wild
    card, never past the ace nor beyond 13 cards; wild cards at most as many as
    natural ones afterwards."""
    if not added:
        return True
    cards = sorted(added.elements())
    naturals = meld.naturals(rules)
    wilds = len(meld.cards) - naturals
    if meld.kind == "set":
        rank = meld.meant[0].rank
        if any(c.rank != rank and not wild(c, rules) for c in cards):
            return False
        more = sum(1 for c in cards if c.rank == rank and c.rank != 0)
        return wilds + len(cards) - more <= naturals + more
    suit = meld.meant[0].suit
    assert suit is not None
    last = meld.first + len(meld.cards) - 1
    low = 1 if rules.ace_low else 2
    for below in range(len(cards) + 1):
        above = len(cards) - below
        start, top = meld.first - below, last + above
        if start < low or top > 14 or top - start + 1 > 13:
            continue
        spots = [card_at(p, suit) for p in range(start, meld.first)]
        spots += [card_at(p, suit) for p in range(last + 1, top + 1)]
        got = _naturals_fitting(tuple(cards), spots, rules)
        if got is not None and wilds + len(cards) - got <= naturals + got:
            return True
    return False


class TurnBrute:
    """The best play phase by exhaustive search, from the rules: every set of joker
    swaps, every way to lay the contract (a player not yet down), every way to lay
    off the rest, a legal end. Returns (goes out, fewest points left after the plays)
    or None when no play ends the turn legally (or, not down, none goes down)."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self._contract = lru_cache(maxsize=None)(self._contract_leftovers)

    def best(
        self, hand: list[Card], slots: list[tuple[str, int]] | None, table: list[Laid]
    ) -> tuple[bool, int] | None:
        found: tuple[bool, int] | None = None
        for held, after in self._swapped(Counter(hand), table):
            leftovers: Set[tuple[tuple[Card, int], ...]]
            if slots is None:
                leftovers = {counts(held)}
            else:
                leftovers = self._contract(0, counts(held), tuple(slots))
            for left in leftovers:
                result = self._lay_off(Counter(dict(left)), after, 0)
                if result is not None and (found is None or _better(result, found)):
                    found = result
        return found

    def _swapped(
        self, hand: Counter[Card], table: list[Laid]
    ) -> Iterator[tuple[Counter[Card], list[Laid]]]:
        """Every choice of swaps: each table joker stays, or is taken for a natural card
        of the hand that it stands for (a run's card; a set's rank, any suit)."""
        spots = [
            (m, i) for m, meld in enumerate(table) for i, c in enumerate(meld.cards) if c.rank == 0
        ]

        def walk(
            k: int, held: Counter[Card], melds: list[Laid]
        ) -> Iterator[tuple[Counter[Card], list[Laid]]]:
            if k == len(spots):
                yield held, melds
                return
            yield from walk(k + 1, held, melds)
            m, i = spots[k]
            meant = melds[m].meant[i]
            for card in sorted(held):
                if held[card] <= 0 or card.rank == 0:
                    continue
                if (melds[m].kind == "run" and card != meant) or card.rank != meant.rank:
                    continue
                cards = list(melds[m].cards)
                cards[i] = card
                changed = list(melds)
                changed[m] = Laid(melds[m].kind, tuple(cards), melds[m].meant, melds[m].first)
                yield from walk(k + 1, held - Counter([card]) + Counter([JOKER_CARD]), changed)

        yield from walk(0, hand, list(table))

    def _contract_leftovers(
        self, slot: int, held: Counts, slots: tuple[tuple[str, int], ...]
    ) -> frozenset[Counts]:
        """Every multiset left after laying contract slots ``slot`` onwards from ``held``."""
        if slot == len(slots):
            return frozenset([held])
        cards = Counter(dict(held))
        kind, size = slots[slot]
        found: set[Counts] = set()
        for meld in new_melds(cards, kind, size, self.rules):
            found |= self._contract(slot + 1, counts(cards - meld), slots)
        return frozenset(found)

    def _lay_off(
        self, left: Counter[Card], table: list[Laid], index: int
    ) -> tuple[bool, int] | None:
        """The best legal end laying off ``left`` on table melds ``index`` onwards."""
        if index == len(table):
            n = sum(left.values())
            if n == 1 and not self.rules.go_out_by_discard:
                return None
            out = n <= (1 if self.rules.go_out_by_discard else 0)
            return out, sum(self.rules.points(c) * k for c, k in left.items())
        best: tuple[bool, int] | None = None
        for added in _sub_counts(left, list(left)):
            if not fits_all(table[index], added, self.rules):
                continue
            result = self._lay_off(left - added, table, index + 1)
            if result is not None and (best is None or _better(result, best)):
                best = result
        return best


def _better(a: tuple[bool, int], b: tuple[bool, int]) -> bool:
    """Going out first, then fewer points."""
    return (a[0], -a[1]) > (b[0], -b[1])


JOKER_CARD = Card(0, None)

"""Read solved :class:`~solver.shanghai.model.HandModel` values back as cards:
contract melds, lay-offs and joker swaps.

The model counts wild twos as one pool (any two will do); here each wild role gets
an actual two from the hand, in card order, once the twos playing as themselves
are taken out.
"""

from __future__ import annotations

from collections import Counter

from solver.errors import ModelError
from solver.shanghai.melds import Meld, MeldKind
from solver.shanghai.model import HandModel, RunSlot, SetSlot, Value
from solver.shanghai.notation import JOKER, Card
from solver.shanghai.result import LayOff, Swap
from solver.shanghai.rules import Rules


class TwoPool:
    """The twos of the hand not playing as themselves, handed out to wild roles."""

    def __init__(self, hm: HandModel, value: Value) -> None:
        spare = Counter({c: n for c, n in hm.hand.items() if c.rank == 2 and not c.is_joker})
        for card in list(spare):
            spare[card] -= sum(value(e) for _, e in hm.uses.get(card, []))
        self._cards = sorted(spare.elements())

    def take(self) -> Card:
        if not self._cards:
            raise ModelError("more wild twos placed than the hand holds")
        return self._cards.pop(0)


def set_meld(slot: SetSlot, value: Value, twos: TwoPool) -> Meld:
    """The set a solved slot holds: naturals in card order, then wild cards."""
    rank = next(r for r, var in slot.rank.items() if value(var))
    cards: list[Card] = []
    for card, var in sorted(slot.naturals.items()):
        cards += [card] * value(var)
    cards += [JOKER] * value(slot.jokers.get(rank, 0))
    cards += [twos.take() for _ in range(value(slot.twos.get(rank, 0)))]
    place = Card(rank, None)
    meant = tuple(card if card.rank == rank else place for card in cards)
    return Meld(MeldKind.SET, tuple(cards), meant)


def run_meld(slot: RunSlot, value: Value, twos: TwoPool) -> Meld:
    """The run a solved slot holds, low to high."""
    cells = sorted((cell for cell, var in slot.occ.items() if value(var)), key=lambda c: c[1])
    cards: list[Card] = []
    meant: list[Card] = []
    for suit, q in cells:
        card = Card(Rules.rank_at(q), suit)
        if value(slot.naturals.get((suit, q), 0)):
            cards.append(card)
        elif value(slot.jokers.get((suit, q), 0)):
            cards.append(JOKER)
        elif value(slot.twos.get((suit, q), 0)):
            cards.append(twos.take())
        else:
            raise ModelError(f"run place {card} is covered but not filled")
        meant.append(card)
    return Meld(MeldKind.RUN, tuple(cards), tuple(meant), cells[0][1])


def contract_melds(hm: HandModel, value: Value, twos: TwoPool) -> list[Meld]:
    """Every contract meld of the solution: sets, then runs."""
    melds = [set_meld(slot, value, twos) for slot in hm.sets]
    return melds + [run_meld(slot, value, twos) for slot in hm.runs]


def swaps(hm: HandModel, value: Value) -> list[Swap]:
    """The joker swaps of the solution (a set's jokers are taken in order)."""
    found: list[Swap] = []
    for slot in hm.table:
        jokers = iter(slot.meld.joker_places())
        for (position, card), var in slot.swaps.items():
            for _ in range(value(var)):
                found.append(Swap(slot.index, next(jokers) if position < 0 else position, card))
    return found


def swapped_meld(meld: Meld, done: list[Swap]) -> Meld:
    """``meld`` with the swapped jokers replaced by the cards given for them."""
    cards = list(meld.cards)
    for swap in done:
        cards[swap.position] = swap.give
    return Meld(meld.kind, tuple(cards), meld.stands_for, meld.first_place)


def lay_offs(hm: HandModel, value: Value, twos: TwoPool) -> list[LayOff]:
    """Cards laid on each table meld: a set's naturals then wild cards; a run's new
    places from the ends outwards."""
    found: list[LayOff] = []
    for slot in hm.table:
        meld = slot.meld
        if meld.kind is MeldKind.SET:
            place = Card(meld.rank, None)
            for card, var in sorted(slot.naturals.items()):
                found += [LayOff(card, slot.index, card)] * value(var)
            found += [LayOff(JOKER, slot.index, place)] * value(slot.jokers)
            found += [LayOff(twos.take(), slot.index, place) for _ in range(value(slot.twos))]
            continue
        # Each card next to the run as laid so far: below it from the low end down,
        # then above it from the high end up (place order listed 9C before 10C onto
        # JC-QC-KC-AC, a card that cannot be laid first).
        outwards = sorted(
            slot.places, key=lambda q: (q > meld.first_place, abs(q - meld.first_place))
        )
        for q in outwards:
            fill = slot.places[q]
            if not value(fill.filled):
                continue
            meant = Card(Rules.rank_at(q), meld.suit)
            if value(fill.natural):
                card = meant
            elif value(fill.joker):
                card = JOKER
            else:
                card = twos.take()
            found.append(LayOff(card, slot.index, meant, q))
    return found


def cards_left(hm: HandModel, gone: list[Card], done: list[Swap]) -> list[Card]:
    """The hand after ``gone`` left it and the swapped jokers came in."""
    left = hm.hand.copy()
    left.subtract(gone)
    left.subtract(swap.give for swap in done)
    left[JOKER] += len(done)
    if any(n < 0 for n in left.values()):
        raise ModelError("the solution uses cards the hand does not hold")
    return sorted(left.elements())


def laid_table(table: tuple[Meld, ...], plays: list[LayOff]) -> tuple[Meld, ...]:
    """``table`` with the lay-offs ``plays`` added: a set takes its cards at the end,
    a run its new places below and above its ends."""
    after = list(table)
    for index, meld in enumerate(table):
        added = [p for p in plays if p.meld == index]
        if not added:
            continue
        if meld.kind is MeldKind.SET:
            cards = meld.cards + tuple(p.card for p in added)
            meant = meld.stands_for + tuple(p.stands_for for p in added)
            after[index] = Meld(MeldKind.SET, cards, meant)
            continue
        low = sorted((p for p in added if p.place < meld.first_place), key=_place)
        high = sorted((p for p in added if p.place > meld.last_place), key=_place)
        cards = tuple(p.card for p in low) + meld.cards + tuple(p.card for p in high)
        meant = (
            tuple(p.stands_for for p in low) + meld.stands_for + tuple(p.stands_for for p in high)
        )
        after[index] = Meld(MeldKind.RUN, cards, meant, meld.first_place - len(low))
    return tuple(after)


def _place(play: LayOff) -> int:
    return play.place

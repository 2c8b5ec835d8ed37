"""Laying off: which cards fit which table melds.

Rules as interpreted here: a set takes any card of its rank and wild cards; a run
takes cards only beyond its ends, in order (a run keeps its order: nothing is
inserted and its jokers do not move), never past the ace and never more than 13
cards; every meld keeps at most as many wild cards as natural ones. A table joker
may be swapped for the natural card it stands for (the joker then comes into the
hand and may be laid off too).

The lay-offs of a turn are chosen together with going down in one model
(:mod:`~solver.shanghai.search`); this module answers the simpler question the
discard and the upcard advice ask: does one card fit a meld as the table stands?
"""

from __future__ import annotations

from collections.abc import Iterable

from solver.shanghai.melds import Meld, MeldKind
from solver.shanghai.notation import Card
from solver.shanghai.rules import MAX_RUN_LEN, Rules


def fits(card: Card, meld: Meld, rules: Rules) -> bool:
    """Whether ``card`` alone can be laid off on ``meld`` (see the module docstring).

    A wild card fits where the meld has room for one more wild card
    (wilds + 1 <= naturals); a two in its own place plays as a natural card.
    """
    wild_room = meld.wilds + 1 <= meld.naturals
    if meld.kind is MeldKind.SET:
        if card.rank == meld.rank and not card.is_joker:
            return True
        return rules.is_wild(card) and wild_room
    if len(meld.cards) >= MAX_RUN_LEN:
        return False
    for place in (meld.first_place - 1, meld.last_place + 1):
        if not rules.lowest_place <= place <= 14:
            continue
        if card == Card(rules.rank_at(place), meld.suit):
            return True
        if rules.is_wild(card) and wild_room:
            return True
    return False


def fits_table(card: Card, table: Iterable[Meld], rules: Rules) -> bool:
    """Whether ``card`` alone can be laid off on some meld of ``table``."""
    return any(fits(card, meld, rules) for meld in table)

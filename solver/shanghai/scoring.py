"""Penalty points: what the cards left in a hand cost at the end of a hand.

By default 3-9 cost 5, 10-K 10, an ace 15, a two 20 and a joker 25 (each a setting).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from solver.arena.game import check_one_out
from solver.arguments import checked, checked_lists_by_name
from solver.i18n import _
from solver.shanghai.notation import Card
from solver.shanghai.position import check_counts
from solver.shanghai.rules import Rules


def penalty(cards: Iterable[Card], rules: Rules) -> int:
    """Penalty points of ``cards`` left in hand."""
    return sum(rules.points(card) for card in cards)


@dataclass(frozen=True, slots=True)
class HandScore:
    """One player's score for a hand: the cards left and what they cost."""

    player: str
    cards: tuple[Card, ...]
    points: int

    @property
    def went_out(self) -> bool:
        return not self.cards


def score_hands(hands: Mapping[str, Sequence[Card]], rules: Rules) -> tuple[HandScore, ...]:
    """Score every player's cards left at a hand's end (in the order given), a tuple as
    Rummikub's :func:`~solver.rummikub.scoring.score_round` answers.

    Raises :class:`~solver.errors.CountError` when the hands together hold more
    copies of a card than the game has, and :class:`~solver.errors.MeldwiseError` when
    several hands are empty: a hand ends as soon as one player goes out, so no hand
    ends with two players out (each would be reported as having gone out), or naming
    the argument that is no mapping of names to lists of cards, or no :class:`Rules`.
    """
    hands = checked_lists_by_name(hands, Card, "hands")
    rules = checked(rules, Rules, "rules")
    check_one_out(hands, "hands")
    total: Counter[Card] = Counter()
    for cards in hands.values():
        total.update(cards)
    check_counts(total, rules, _("across the hands"))
    return tuple(
        HandScore(player, tuple(sorted(cards)), penalty(cards, rules))
        for player, cards in hands.items()
    )

"""What one player knows on their turn, and checking it against the rules."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from solver.errors import CountError
from solver.i18n import _, _n
from solver.shanghai.cards import ALL_NATURALS, JOKER, Card
from solver.shanghai.contracts import Contract
from solver.shanghai.melds import TableMeld
from solver.shanghai.rules import Rules


@dataclass(frozen=True, slots=True)
class Position:
    """A player's view of the game.

    Attributes:
        hand: the player's cards, as they are when the advice is asked for (for the
            going-down, lay-off and discard advice: after drawing).
        contract: the melds this hand's contract asks for.
        table: melds already down.
        down: whether this player has already gone down this hand.
        upcard: the top card of the discard pile, if any.
        buys_left: buys the player has left this hand.
    """

    hand: tuple[Card, ...]
    contract: Contract
    table: tuple[TableMeld, ...] = ()
    down: bool = False
    upcard: Card | None = None
    buys_left: int = 0

    def seen(self) -> Counter[Card]:
        """Every card the player can see: hand, table and upcard."""
        counts = Counter(self.hand)
        for item in self.table:
            counts.update(item.meld.cards)
        if self.upcard is not None:
            counts[self.upcard] += 1
        return counts

    def unseen(self, rules: Rules) -> Counter[Card]:
        """Copies of each card the player cannot see (in the stock, discards or other hands)."""
        seen = self.seen()
        return Counter({card: rules.copies(card) - seen[card] for card in (*ALL_NATURALS, JOKER)})

    def check(self, rules: Rules) -> None:
        """Raise :class:`CountError` naming the card if any card appears more often
        than the game has it (``decks`` copies; ``decks * jokers_per_deck`` jokers)."""
        check_counts(self.seen(), rules, _("across hand, table and upcard"))


def check_counts(counts: Counter[Card], rules: Rules, where: str) -> None:
    """Raise :class:`CountError` if any card appears more often than the game has it."""
    for card in sorted(counts):
        limit = rules.copies(card)
        if counts[card] > limit:
            decks = _n("{n} deck", "{n} decks", rules.decks)
            if card.is_joker:
                raise CountError(
                    _(
                        "too many jokers (JK): {count} {where}, the game has {limit} ({decks})",
                        count=counts[card],
                        where=where,
                        limit=limit,
                        decks=decks,
                    )
                )
            raise CountError(
                _(
                    "too many copies of {card}: {count} {where}, the game has {limit} ({decks})",
                    card=card,
                    count=counts[card],
                    where=where,
                    limit=limit,
                    decks=decks,
                )
            )

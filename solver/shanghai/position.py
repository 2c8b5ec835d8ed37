"""What one player knows on their turn, and checking it against the rules."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from solver.arguments import checked, checked_items, listed
from solver.errors import CountError, RequestError, quoted
from solver.i18n import _, _n
from solver.shanghai.contracts import Contract
from solver.shanghai.melds import TableMeld
from solver.shanghai.notation import ALL_NATURALS, JOKER, Card
from solver.shanghai.rules import Rules
from solver.values import Pasted

_NATURALS = frozenset(ALL_NATURALS)


class Phase(Pasted):
    """Where in the turn the advice is asked for."""

    DRAW = "draw"
    """Before drawing: take the upcard, draw from the stock, or buy the upcard."""
    PLAY = "play"
    """After drawing: go down, swap, lay off, discard."""


@dataclass(frozen=True, slots=True)
class NextPlayer:
    """What the player to the left (who may take this turn's discard) is known to
    want: whether they are down, and the cards they took from the discard pile."""

    down: bool | None = None
    took: tuple[Card, ...] = ()


@dataclass(frozen=True, slots=True)
class Position:
    """A player's view of the game.

    Attributes:
        hand: the player's cards, as they are at ``phase`` (before drawing in the draw
            phase, after drawing in the play phase).
        contract: the melds this hand's contract asks for.
        table: melds already down.
        down: whether this player has already gone down this hand.
        upcard: the top card of the discard pile, if any.
        buys_left: buys the player has left this hand.
        phase: the part of the turn asked about; None is the older mixed request
            (play-phase advice for ``hand``, and, with an upcard, draw-phase advice
            for the same hand as if it were before the draw).
        seen: cards known to be out of play besides the table and the upcard (the
            discard pile under the upcard, dead cards): they leave the unseen pool.
        next_player: what is known of the next player, for the discard's danger.
    """

    hand: tuple[Card, ...]
    contract: Contract
    table: tuple[TableMeld, ...] = ()
    down: bool = False
    upcard: Card | None = None
    buys_left: int = 0
    phase: Phase | None = None
    seen: tuple[Card, ...] = ()
    next_player: NextPlayer | None = None

    def __post_init__(self) -> None:
        # Made directly with None for a hand or a contract, it failed deep in the
        # advice (AttributeError): said by the argument's name.
        object.__setattr__(self, "hand", listed(self.hand, "hand"))
        object.__setattr__(self, "table", checked_items(self.table, TableMeld, "table"))
        object.__setattr__(self, "seen", listed(self.seen, "seen"))
        checked(self.contract, Contract, "contract")
        # A phase given as its word ("draw") was compared with the enum by identity:
        # the play phase's advice came back for a draw-phase position.
        if isinstance(self.phase, str) and not isinstance(self.phase, Phase):
            try:
                object.__setattr__(self, "phase", Phase(self.phase))
            except ValueError:
                raise RequestError(
                    _(
                        "'phase' must be 'draw' or 'play', got {value!r:.60}",
                        value=quoted(self.phase),
                    )
                ) from None
        # Made directly, Card(15, SPADES) was advised on ("Discard 15S"), and a string
        # failed deep in the search: every card must be one of the game's.
        upcard = () if self.upcard is None else (self.upcard,)
        for card in (*self.hand, *upcard, *self.seen):
            if not (isinstance(card, Card) and (card == JOKER or card in _NATURALS)):
                raise RequestError(
                    _(
                        "a position holds the game's cards (Card.parse reads notation), got"
                        " {value!r:.60}",
                        value=quoted(card),
                    )
                )

    def in_view(self) -> Counter[Card]:
        """Every card the player can see or knows: hand, table, upcard and ``seen``."""
        counts = Counter(self.hand)
        for item in self.table:
            counts.update(item.meld.cards)
        if self.upcard is not None:
            counts[self.upcard] += 1
        counts.update(self.seen)
        return counts

    def took(self) -> Counter[Card]:
        """The cards the next player is known to have taken from the discard pile: one
        card may be there more often than the decks have it (taken, discarded again,
        taken again)."""
        return Counter(() if self.next_player is None else self.next_player.took)

    def known(self) -> Counter[Card]:
        """Copies of each card known to be out of the unseen pool: those in view, and
        those the next player took. A card they took may since be on the table or in
        the pile (melded, or discarded again), so each card counts as often as the
        larger of the two lists has it, never as their sum."""
        return self.in_view() | self.took()

    def unseen(self, rules: Rules) -> Counter[Card]:
        """Copies of each card the player cannot see or know of (in the stock or other
        hands): every card but :meth:`known`."""
        known = self.known()
        return Counter(
            {card: max(0, rules.copies(card) - known[card]) for card in (*ALL_NATURALS, JOKER)}
        )

    def check(self, rules: Rules) -> None:
        """Raise :class:`CountError` naming the card if any card appears more often
        than the game has it (``decks`` copies; ``decks * jokers_per_deck`` jokers),
        and a :class:`~solver.errors.RequestError` for a contract the rules do not
        allow (:meth:`Contract.check`: e.g. a set of 3 where sets hold at least 4)."""
        self.contract.check(rules)
        where = (
            _("across hand, table, upcard and seen")
            if self.seen
            else _("across hand, table and upcard")
        )
        check_counts(self.in_view(), rules, where)
        # A card may be in took more often than the decks hold it (taken, discarded and
        # taken again), but only a card the game has: none of a joker without jokers.
        absent = Counter({card: 1 for card in self.took() if rules.copies(card) == 0})
        check_counts(absent, rules, _("in next_player.took"))


def check_counts(counts: Counter[Card], rules: Rules, where: str) -> None:
    """Raise :class:`CountError` if any card appears more often than the game has it."""
    for card in sorted(counts):
        limit = rules.copies(card)
        if counts[card] > limit:
            decks = _n("{n} deck", "{n} decks", rules.decks)
            if card.is_joker:
                # The setting is named: "the game has 0 (2 decks)" left jokers_per_deck
                # 0 to be guessed.
                raise CountError(
                    _(
                        "too many jokers (JK): {count} {where}, the game has {limit} ({decks},"
                        " jokers_per_deck {per_deck})",
                        count=counts[card],
                        where=where,
                        limit=limit,
                        decks=decks,
                        per_deck=rules.jokers_per_deck,
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

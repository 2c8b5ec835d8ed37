"""What one player knows on their turn, and checking it against the rules."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from solver.arguments import checked, checked_items, listed, text_or_listed
from solver.cpsat import Limit
from solver.errors import CountError, RequestError, quoted
from solver.i18n import _, _n
from solver.shanghai.contracts import Contract
from solver.shanghai.deficiency import check_layable
from solver.shanghai.melds import TableMeld, read_table_meld
from solver.shanghai.notation import ALL_NATURALS, JOKER, Card, parse_cards, parse_melds
from solver.shanghai.rules import STANDARD, Rules
from solver.values import Pasted
from solver.written import words_or_items

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
        contract: the melds this hand's contract asks for; None for a player who is
            down, whose turn is solved without it (a player not down needs one).
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
    contract: Contract | None
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
        if self.contract is not None or not self.down:
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

    @classmethod
    def parse(
        cls,
        hand: str | Iterable[str],
        table: str | Iterable[str | Iterable[str]] = (),
        down: bool = False,
        *,
        contract: Contract | None = None,
        rules: Rules = STANDARD,
        upcard: str | None = None,
        buys_left: int = 0,
        phase: Phase | str | None = None,
        seen: str | Iterable[str] = (),
        next_player: NextPlayer | None = None,
    ) -> Position:
        """Read a position from notation, as Rummikub's :meth:`Position.parse
        <solver.rummikub.position.Position.parse>` does: ``hand="7H 7S JK"`` and
        ``table="ann: 8H 8S 8D | JC QC KC AC"`` (melds between ``|``, each optionally
        after its owner's name and ``:``; :func:`~solver.shanghai.notation.parse_melds`),
        or lists: of card strings for the hand, of melds for the table (each a string, or
        a list of card strings). Each table meld is read under ``rules``, a run in the
        order written. ``contract`` is the first hand's standard one (``Contract.for_hand(1,
        rules)``) when not given, and None for a player who is ``down`` (advised
        without one, as the wire and the command line take them); ``upcard`` and
        ``seen`` are cards in notation too, and the other arguments are
        :class:`Position`'s own.

        Raises :class:`~solver.errors.NotationError` quoting a word that is no card,
        :class:`~solver.errors.TableError` quoting a meld of no cards, an empty owner, or
        a meld the rules do not allow (naming its index), and
        :class:`~solver.errors.RequestError` naming an argument of the wrong kind."""
        rules = checked(rules, Rules, "rules")
        written: list[tuple[str | None, Sequence[str]]] = []
        if isinstance(table, str):
            written.extend(parse_melds(table))
        else:
            for index, meld in enumerate(listed(table, "table")):
                if isinstance(meld, str):
                    written.extend(parse_melds(meld))
                else:
                    written.append((None, words_or_items(meld, f"table[{index}]")))
        melds = tuple(
            TableMeld(read_table_meld(index, parse_cards(cards), rules), owner)
            for index, (owner, cards) in enumerate(written)
        )
        return cls(
            tuple(parse_cards(text_or_listed(hand, "hand"))),
            Contract.for_hand(1, rules) if contract is None and not down else contract,
            melds,
            down,
            None if upcard is None else Card.parse(upcard),
            buys_left,
            phase,  # type: ignore[arg-type]  # its word is read in __post_init__
            tuple(parse_cards(text_or_listed(seen, "seen"))),
            next_player,
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

    def check(self, rules: Rules, limit: Limit | None = None) -> str | None:
        """Raise :class:`CountError` naming the card if any card appears more often
        than the game has it (``decks`` copies; ``decks * jokers_per_deck`` jokers),
        and a :class:`~solver.errors.RequestError` for a contract the rules do not
        allow (:meth:`Contract.check`: e.g. a set of 3 where sets hold at least 4; or one
        not even the whole game's cards lay at once, :func:`check_layable`, within
        ``limit``'s time; a contract given is checked, down or not). Return what the
        answer must say when that check did not settle and let the contract through,
        else None."""
        unsettled = None
        if self.contract is not None:  # a player who is down may give none
            self.contract.check(rules)
            unsettled = check_layable(self.contract, rules, limit)
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
        return unsettled


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

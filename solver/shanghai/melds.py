"""Melds (sets and runs) and how a list of cards is read as one.

* A **set** is ``min_set_len`` (3) or more cards of one rank; suits are free and
  duplicates are allowed.
* A **run** is ``min_run_len`` (4) or more cards of one suit in consecutive ranks.
  Places run 2..14 (the ace is high, ...Q-K-A); with ``ace_low`` place 1 is the ace
  too (A-2-3-4). Runs never wrap (no K-A-2) and hold each rank at most once.
* Wild cards (jokers, and twos when ``twos_wild``) stand for any card, but a meld
  never holds more wild cards than natural ones (``8 8 JK`` and ``8 8 JK JK`` are
  fine, ``8 JK JK`` is not). A two that sits in its own place (a set of twos, or
  the 2 of its suit in a run) is a natural card.

A run on the table is read in the order written, low to high, so each joker's
place is clear (``5H JK 7H 8H``: the joker is 6H). A run written out of order is
accepted only when it has no wild cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from solver.arguments import checked, checked_items
from solver.errors import TableError
from solver.i18n import _
from solver.shanghai.notation import ACE, Card, Suit, format_cards
from solver.shanghai.rules import MAX_RUN_LEN, Rules
from solver.values import Pasted


class MeldKind(Pasted):
    """The two kinds of Shanghai meld: a set (one rank, suits free) or a run (one
    suit, consecutive ranks); the value is the answer's ``kind``."""

    SET = "set"
    RUN = "run"


@dataclass(frozen=True, slots=True)
class Meld:
    """A meld read one way: its cards in order and what each stands for.

    ``stands_for[i]`` is the card itself for a natural card; for a wild card it is
    the card it plays as in a run, or the rank alone (a *place*, e.g. ``8``) in a
    set, where the suit is free. Runs read low to high; ``first_place`` is the run
    place of the first card (1 for a low ace), 0 for a set.
    """

    kind: MeldKind
    cards: tuple[Card, ...]
    stands_for: tuple[Card, ...]
    first_place: int = 0

    @property
    def rank(self) -> int:
        """The rank of a set."""
        return self.stands_for[0].rank

    @property
    def suit(self) -> Suit:
        """The suit of a run."""
        suit = self.stands_for[0].suit
        assert suit is not None, "only runs have a suit"
        return suit

    @property
    def last_place(self) -> int:
        return self.first_place + len(self.cards) - 1

    def is_natural(self, index: int) -> bool:
        """Whether the card at ``index`` plays as itself (not as a wild card)."""
        card, meant = self.cards[index], self.stands_for[index]
        if card.is_joker:
            return False
        return card.rank == meant.rank and (meant.suit is None or card.suit == meant.suit)

    @property
    def naturals(self) -> int:
        return sum(self.is_natural(i) for i in range(len(self.cards)))

    @property
    def wilds(self) -> int:
        return len(self.cards) - self.naturals

    def joker_places(self) -> list[int]:
        """Indexes of the jokers (only jokers may be swapped out, not wild twos)."""
        return [i for i, card in enumerate(self.cards) if card.is_joker]

    def __str__(self) -> str:
        parts = []
        for i, (card, meant) in enumerate(zip(self.cards, self.stands_for, strict=True)):
            parts.append(str(card) if self.is_natural(i) else f"{card}({meant})")
        return " ".join(parts)


class InvalidMeld(TableError):
    """Cards that form neither a set nor a run; the message says why."""


def read_set(cards: Sequence[Card], rules: Rules) -> Meld | None:
    """Read ``cards`` as a set, or None."""
    naturals = [c for c in cards if not rules.is_wild(c)]
    twos = [c for c in cards if not c.is_joker and c.rank == 2]
    if naturals:
        rank = naturals[0].rank
    elif twos:
        rank = 2  # only twos and jokers: a set of twos, the twos natural
    else:
        return None
    if any(c.rank != rank for c in naturals):
        return None
    meld = Meld(MeldKind.SET, tuple(cards), tuple(_set_place(c, rank) for c in cards))
    if len(cards) < rules.min_set_len or meld.wilds > meld.naturals:
        return None
    return meld


def _set_place(card: Card, rank: int) -> Card:
    return card if card.rank == rank else Card(rank, None)


def read_run_in_order(cards: Sequence[Card], rules: Rules) -> Meld | None:
    """Read ``cards`` as a run exactly in the order given (low to high), or None."""
    size = len(cards)
    if not rules.min_run_len <= size <= MAX_RUN_LEN:
        return None
    best: Meld | None = None
    for suit in Suit:
        for first in range(rules.lowest_place, 14 - size + 2):
            meant = tuple(Card(rules.rank_at(first + i), suit) for i in range(size))
            if not all(_fits_run_place(c, m, rules) for c, m in zip(cards, meant, strict=True)):
                continue
            meld = Meld(MeldKind.RUN, tuple(cards), meant, first)
            valid = meld.naturals and meld.wilds <= meld.naturals
            if valid and (best is None or meld.naturals > best.naturals):
                best = meld
    return best


def _fits_run_place(card: Card, meant: Card, rules: Rules) -> bool:
    return card == meant or rules.is_wild(card)


def read_meld(cards: Sequence[Card], rules: Rules) -> Meld:
    """Read ``cards`` as a set or a run (see the module docstring).

    Raises :class:`InvalidMeld` with the reason when the cards form no meld, and a
    :class:`~solver.errors.RequestError` naming the argument that is not a list of
    cards or not the rules.
    """
    cards = checked_items(cards, Card, "cards")
    rules = checked(rules, Rules, "rules")
    meld = read_run_in_order(cards, rules) or read_set(cards, rules)
    if meld is None and not any(rules.is_wild(c) for c in cards):
        for ace_low in (False, True) if rules.ace_low else (False,):
            ordered = sorted(cards, key=lambda c: 1 if ace_low and c.rank == 14 else c.rank)
            meld = meld or read_run_in_order(ordered, rules)
    if meld is None:
        raise InvalidMeld(why_not_a_meld(cards, rules))
    return meld


def why_not_a_meld(cards: Sequence[Card], rules: Rules) -> str:
    """A sentence saying why ``cards`` form no meld (for error messages)."""
    naturals = [c for c in cards if not rules.is_wild(c)]
    wilds = len(cards) - len(naturals)
    if not cards:
        return _("it has no cards")  # not "only wild cards", as it once said
    if not naturals:
        return _("a meld needs natural cards, not only wild cards")
    if wilds > len(naturals):
        return _(
            "it holds more wild cards ({wilds}) than natural cards ({naturals}); a meld may not",
            wilds=wilds,
            naturals=len(naturals),
        )
    if len({c.rank for c in naturals}) == 1 and len(naturals) > 1:
        return _(
            "a set needs at least {least} cards, this one has {size}",
            least=rules.min_set_len,
            size=len(cards),
        )
    if len({c.suit for c in naturals}) > 1:
        return _("cards differ in rank and suit: a set needs one rank, a run one suit")
    if len(cards) < rules.min_run_len:
        return _(
            "a run needs at least {least} cards, this one has {size}",
            least=rules.min_run_len,
            size=len(cards),
        )
    if len(cards) > MAX_RUN_LEN:
        return _("a run holds each rank once, so at most {most} cards", most=MAX_RUN_LEN)
    if _a_low_ace_run(cards, rules):
        if not any(c.rank == ACE for c in cards):  # a wild card in the ace's place
            return _(
                "its first card would stand for a low ace, and the ace is high only (Q-K-A)"
                " unless the rule 'ace_low' is on (A-2-3-4)"
            )
        return _(
            "its ranks are not consecutive with the ace high, and the ace is high only"
            " (Q-K-A) unless the rule 'ace_low' is on (A-2-3-4)"
        )
    if wilds:
        return _(
            "its cards are not consecutive in the order written; write a run low to high"
            " with each wild card in the place it stands for"
        )
    return _("its ranks are not consecutive (runs never wrap from K-A to 2)")


def _a_low_ace_run(cards: Sequence[Card], rules: Rules) -> bool:
    """Whether ``cards``, no meld under ``rules``, would be one with ``ace_low`` on
    (an ace, or a wild card, at its low place)."""
    if rules.ace_low or not any(c.rank == ACE or rules.is_wild(c) for c in cards):
        return False
    try:
        read_meld(cards, replace(rules, ace_low=True))
    except InvalidMeld:
        return False
    return True


@dataclass(frozen=True, slots=True)
class TableMeld:
    """A meld already on the table and who laid it (None when not said)."""

    meld: Meld
    owner: str | None = None


def read_table_meld(index: int, cards: Sequence[Card], rules: Rules) -> Meld:
    """Read table meld number ``index``; raise :class:`TableError` saying which and why."""
    try:
        return read_meld(cards, rules)
    except InvalidMeld as error:
        raise TableError(
            _(
                "table meld {index} ({cards}) is not a valid meld: {reason}",
                index=index,
                cards=format_cards(cards) or _("empty"),
                reason=error,
            )
        ).about(f"[{index}]") from None  # the meld's place in the table read

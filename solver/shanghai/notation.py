"""Playing cards and their notation.

A card is a rank followed by a suit: ``7H``, ``10S`` (also ``TS``), ``QD``,
``AC``; a joker is ``JK`` (also ``*``). Input is case-insensitive;
``str(card)`` is the canonical form (``10S``, ``JK``) and
``Card.parse(str(card)) == card`` always holds. The suit may also be a symbol,
before or after the rank (``7♥``, ``♠10``; ``♤♡♢♧`` too), the joker ``ジョーカー``,
and letters and digits typed full-width. How a card may be written (case, full width,
spaces, leading zeros, look-alikes of a digit) is the rule both games share:
:func:`solver.written.piece`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import total_ordering

from solver.arguments import checked_items
from solver.errors import NotationError, TableError
from solver.i18n import _
from solver.values import Pasted
from solver.written import partition, piece, split, words, words_or_items

ACE = 14
"""Ranks run 2..14: J = 11, Q = 12, K = 13, A = 14."""
RANKS = tuple(range(2, ACE + 1))
_RANK_NAMES = {11: "J", 12: "Q", 13: "K", ACE: "A"}
_RANK_BY_NAME = {
    **{str(r): r for r in range(2, 11)},
    "T": 10,
    "J": 11,
    "Q": 12,
    "K": 13,
    "A": ACE,
}


class Suit(Pasted):
    """Suits in their canonical order."""

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def index(self) -> int:
        return _SUIT_INDEX[self._value_]

    @classmethod
    def from_index(cls, index: int) -> Suit:
        return _SUITS[index]


_SUITS: tuple[Suit, ...] = tuple(Suit)
_SUIT_SYMBOLS = {
    **dict.fromkeys("♠♤", "S"),
    **dict.fromkeys("♥♡❤", "H"),
    **dict.fromkeys("♦♢", "D"),
    **dict.fromkeys("♣♧", "C"),
}
_SUIT_INDEX = {suit.value: i for i, suit in enumerate(_SUITS)}


_JOKER_NAMES = ("JK", "*", "ジョーカー", "JOKER")


def rank_name(rank: int) -> str:
    """``10`` for ten, ``J`` for jack, ... ``A`` for ace."""
    return _RANK_NAMES.get(rank, str(rank))


@total_ordering
@dataclass(frozen=True, slots=True)
class Card:
    """A card: a rank (2..14) and a suit, or the joker (rank 0, no suit).

    ``Card(rank, None)`` with a rank is not a card but a *place*: what a wild card
    stands for in a set, where the suit is free. It prints as the rank alone (``8``).
    Cards order by suit, then rank, jokers last.
    """

    rank: int
    suit: Suit | None = None

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read one card such as ``"7H"``, ``"10s"``, ``"TS"``, ``"JK"`` or ``"*"``.

        Raises :class:`NotationError` quoting the text when it is not a card.
        """
        if not isinstance(text, str):
            raise NotationError(
                _("unknown card {card!r:.60}: a card is a string like '7H' or 'JK'", card=text)
            )
        norm = piece(text) or ""  # a space inside: no card
        if norm in _JOKER_NAMES:
            return JOKER
        name, bracket, meant = norm.partition("(")
        if bracket:
            # A wild card with what it stands for, as melds print it: JK(6H), 2C(6H), or a
            # rank in a set, JK(8). Not kept (the meld is read afresh), but it must read.
            inner = meant[:-1] if meant.endswith(")") else ""
            try:
                card = cls.parse(name)
                wild = card.is_joker or card.rank == 2  # a two when the rules make it wild
                place = inner in _RANK_BY_NAME  # a set's place: a rank alone
                ok = wild and (place or ("(" not in inner and not cls.parse(inner).is_joker))
            except NotationError:
                ok = False
            if ok:
                return card
            raise NotationError(
                _(
                    "unknown card {card!r:.60}: a wild card is written alone, or with what it"
                    " stands for in brackets: JK(6H), JK(8)",
                    card=text,
                )
            )
        if norm[:1] in _SUIT_SYMBOLS:  # ♠10: the suit symbol first
            norm = norm[1:] + norm[:1]
        norm = norm[:-1] + _SUIT_SYMBOLS.get(norm[-1:], norm[-1:])
        # Leading zeros do not count, as in a Rummikub tile (07H, R07); 0 is no rank.
        ranked = norm[:-1].lstrip("0") if norm[:-1].isdigit() else norm[:-1]
        rank = _RANK_BY_NAME.get(ranked)
        try:
            suit = Suit(norm[-1:])
        except ValueError:
            suit = None
        if rank is None or suit is None:
            raise NotationError(
                _(
                    "unknown card {card!r:.60}: write a rank (2-10, T, J, Q, K, A) and a suit"
                    " (S, H, D, C), e.g. 7H or 10S, or JK for a joker",
                    card=text,
                )
            )
        return cls(rank, suit)

    @property
    def is_joker(self) -> bool:
        return self.rank == 0

    @property
    def is_place(self) -> bool:
        """A rank without a suit: what a wild card stands for in a set."""
        return self.rank != 0 and self.suit is None

    @property
    def sort_key(self) -> tuple[int, int]:
        if self.suit is None:
            return (len(_SUITS), self.rank)
        return (self.suit.index, self.rank)

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.sort_key < other.sort_key

    def __str__(self) -> str:
        if self.is_joker:
            return "JK"
        if self.suit is None:
            return rank_name(self.rank)
        return f"{rank_name(self.rank)}{self.suit.value}"

    def __repr__(self) -> str:
        # Code that makes the card again: a place (a rank alone) is no card to parse.
        if self.suit is None and not self.is_joker:
            return f"Card({self.rank}, None)"
        return f"Card.parse({str(self)!r})"


JOKER = Card(0, None)

ALL_NATURALS = tuple(Card(rank, suit) for suit in Suit for rank in RANKS)
"""The 52 natural cards in canonical order."""


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Read cards from ``"7H 8H JK"`` (spaces or commas) or from a list of strings.

    Raises :class:`NotationError` quoting a word that is no card (:meth:`Card.parse`),
    and :class:`~solver.errors.RequestError` naming ``text`` when it is neither a
    string nor a list (None, a number)."""
    return [Card.parse(word) for word in words_or_items(text)]


def format_cards(cards: Iterable[Card]) -> str:
    """Write cards in canonical notation separated by spaces.

    Raises :class:`~solver.errors.RequestError` naming ``cards`` when it is no list of
    :class:`Card` (a string, the other game's tiles)."""
    return " ".join(str(card) for card in checked_items(cards, Card, "cards"))


def parse_melds(text: str) -> list[tuple[str | None, list[str]]]:
    """Read table melds from ``"ann: 8H 8S 8D | JC QC KC AC"`` (cards between spaces or
    commas, melds between ``|``, each optionally after its owner's name and ``:``) as
    pairs of the owner (None when not said) and the meld's card strings; an empty text
    is no melds.

    Raises :class:`~solver.errors.TableError` quoting the text for a meld of no cards
    (``"8H 8S 8D ||"``, ``"ann: "``) and quoting the meld for an empty owner before a
    ``:`` (``": 8H 8S 8D"``), as the wire refuses an ``owner`` of ``""``."""
    if not text.strip():
        return []
    melds = []
    for index, part in enumerate(split(text, "|")):
        owner, sep, cards = partition(part, ":")
        if sep and not owner.strip():
            raise TableError(
                _(
                    "table meld {index} has an empty owner before ':' in {meld!r:.60}; give a"
                    " player's name, or no ':' for a meld of no owner",
                    index=index,
                    meld=part.strip(),
                )
            )
        written = words(cards if sep else part)
        if not written:
            raise TableError(
                _(
                    "table meld {index} of {melds!r:.60} has no cards; separate melds with one |",
                    index=index,
                    melds=text,
                )
            )
        melds.append((owner.strip() if sep else None, written))
    return melds

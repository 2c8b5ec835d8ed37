"""Shanghai rummy rule settings.

Every rule the solver depends on is a setting of :class:`Rules`; the defaults are
the standard game: two 54-card decks, twos not wild, ace high only, and going out
only by playing every card (the last card may not be discarded).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from solver.errors import RulesError
from solver.i18n import _
from solver.settings import check_settings, settings_from_mapping
from solver.shanghai.cards import ACE, Card

# name -> (lowest, highest) allowed value, for the whole-number settings
RANGES: dict[str, tuple[int, int]] = {
    "decks": (1, 8),
    "jokers_per_deck": (0, 4),
    "min_set_len": (2, 8),
    "min_run_len": (3, 13),
    "buys": (0, 20),
    "buys_last_two_hands": (0, 20),
    "buy_penalty_cards": (0, 10),
    "low_points": (0, 1000),
    "ten_points": (0, 1000),
    "ace_points": (0, 1000),
    "two_points": (0, 1000),
    "joker_points": (0, 1000),
}
FLAGS = ("twos_wild", "ace_low", "go_out_by_discard")

MAX_RUN_LEN = 13
"""A run holds each rank at most once, so it has at most 13 cards (no wrap)."""


@dataclass(frozen=True, slots=True)
class Rules:
    """The rules of one Shanghai variant.

    Attributes:
        decks: 54-card decks shuffled together; each natural card exists ``decks`` times.
        jokers_per_deck: jokers in each deck.
        twos_wild: twos are wild like jokers (a two in its own place, in a set of
            twos or at the 2 of its suit's run, still counts as a natural card).
        ace_low: the ace may also be low (A-2-3-4) as well as high (Q-K-A); runs never wrap.
        go_out_by_discard: a player may go out by discarding the last card; by default
            going out means playing every card, so a turn may not end with one card
            left to discard.
        min_set_len: fewest cards in a set (melds already on the table).
        min_run_len: fewest cards in a run (melds already on the table).
        buys: buys per player in hands 1-8.
        buys_last_two_hands: buys per player in hands 9 and 10.
        buy_penalty_cards: cards from the stock a buyer takes with the upcard.
        low_points, ten_points, ace_points, two_points, joker_points: what a card left
            in hand costs: 3-9, 10-K, ace, two, joker.
    """

    decks: int = 2
    jokers_per_deck: int = 2
    twos_wild: bool = False
    ace_low: bool = False
    go_out_by_discard: bool = False
    min_set_len: int = 3
    min_run_len: int = 4
    buys: int = 3
    buys_last_two_hands: int = 4
    buy_penalty_cards: int = 2
    low_points: int = 5
    ten_points: int = 10
    ace_points: int = 15
    two_points: int = 20
    joker_points: int = 25

    def __post_init__(self) -> None:
        check_settings(self, RANGES, FLAGS)

    @classmethod
    def from_dict(cls, settings: Mapping[str, Any] | None) -> Rules:
        """Build rules from a (possibly partial) mapping of setting names to values."""
        if settings is None:
            return cls()
        if not isinstance(settings, Mapping):
            raise RulesError(
                _("rules must be an object of settings, got {settings!r:.60}", settings=settings)
            )
        return settings_from_mapping(cls, settings)

    def to_dict(self) -> dict[str, int | bool]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @property
    def jokers(self) -> int:
        """Jokers in the game."""
        return self.decks * self.jokers_per_deck

    def copies(self, card: Card) -> int:
        """How many of ``card`` the game has."""
        return self.jokers if card.is_joker else self.decks

    def is_wild(self, card: Card) -> bool:
        """Jokers, and twos when ``twos_wild`` (a wild two may still play as itself)."""
        return card.is_joker or (self.twos_wild and card.rank == 2)

    def points(self, card: Card) -> int:
        """What ``card`` costs when left in hand at the end of a hand."""
        if card.is_joker:
            return self.joker_points
        if card.rank == 2:
            return self.two_points
        if card.rank == ACE:
            return self.ace_points
        return self.ten_points if card.rank >= 10 else self.low_points

    @property
    def lowest_place(self) -> int:
        """Run places run ``lowest_place``..14; place 1 is the low ace (only with ace_low)."""
        return 1 if self.ace_low else 2

    @staticmethod
    def rank_at(place: int) -> int:
        """The rank of run place ``place`` (1 and 14 are both the ace)."""
        return ACE if place == 1 else place


STANDARD = Rules()

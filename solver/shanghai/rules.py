"""Shanghai rummy rule settings.

Every rule the solver depends on is a setting of :class:`Rules`; the defaults are
the standard game: two 54-card decks, twos not wild, ace high only, and going out
only by playing every card (the last card may not be discarded).
"""

from __future__ import annotations

from dataclasses import dataclass

from solver.settings import Settings, flag, setting
from solver.shanghai.notation import ACE, Card

MAX_RUN_LEN = 13
"""A run holds each rank at most once, so it has at most 13 cards (no wrap)."""


@dataclass(frozen=True, slots=True)
class Rules(Settings):
    """The rules of one Shanghai variant (each field's meaning is declared with it).

    A wild two in its own place (in a set of twos, or at the 2 of its suit's run)
    still counts as a natural card. Runs never wrap. By default going out means
    playing every card, so a turn may not end with one card left to discard.
    """

    decks: int = setting(2, 1, 8, "54-card decks; each natural card exists decks times")
    jokers_per_deck: int = setting(2, 0, 4, "jokers in each deck")
    twos_wild: bool = flag(False, "twos are wild too")
    ace_low: bool = flag(False, "the ace may also be low (A-2-3-4) as well as high (Q-K-A)")
    go_out_by_discard: bool = flag(False, "a player may go out by discarding the last card")
    min_set_len: int = setting(3, 2, 8, "fewest cards in a set on the table")
    min_run_len: int = setting(4, 3, MAX_RUN_LEN, "fewest cards in a run on the table")
    buys: int = setting(3, 0, 20, "buys per player in hands 1-8")
    buys_last_two_hands: int = setting(4, 0, 20, "buys per player in hands 9 and 10")
    buy_penalty_cards: int = setting(2, 0, 10, "stock cards a buyer takes with the upcard")
    low_points: int = setting(5, 0, 1000, "what a 3-9 left in hand costs")
    ten_points: int = setting(10, 0, 1000, "what a 10, J, Q or K left in hand costs")
    ace_points: int = setting(15, 0, 1000, "what an ace left in hand costs")
    two_points: int = setting(20, 0, 1000, "what a two left in hand costs")
    joker_points: int = setting(25, 0, 1000, "what a joker left in hand costs")

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

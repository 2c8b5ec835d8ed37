"""What the Shanghai solvers return: melds to lay, lay-offs, swaps, the turn's end
(each with its :class:`~solver.cpsat.Status`)."""

from __future__ import annotations

from dataclasses import dataclass

from solver.cpsat import Status
from solver.shanghai.melds import Meld
from solver.shanghai.notation import Card


@dataclass(frozen=True, slots=True)
class Swap:
    """Give ``give`` for the joker at ``position`` of table meld ``meld``."""

    meld: int
    position: int
    give: Card


@dataclass(frozen=True, slots=True)
class LayOff:
    """Lay ``card`` on table meld ``meld``, where it plays as ``stands_for`` (on a run,
    at run place ``place``: 1 is the low ace; 0 on a set)."""

    card: Card
    meld: int
    stands_for: Card
    place: int = 0


@dataclass(frozen=True, slots=True)
class GoDown:
    """The contract melds to lay now.

    ``left`` is the hand after laying them (and after any joker swaps);
    ``table`` is the table after the swaps, followed by the new melds.
    """

    melds: tuple[Meld, ...]
    swaps: tuple[Swap, ...]
    left: tuple[Card, ...]
    penalty_left: int
    table: tuple[Meld, ...]
    status: Status


@dataclass(frozen=True, slots=True)
class LayOffs:
    """Cards to lay on table melds, shedding the most points.

    ``can_go_out`` says whether the player goes out this turn: no card left, or
    (when the rules allow going out by discarding) one card left to discard.
    """

    plays: tuple[LayOff, ...]
    swaps: tuple[Swap, ...]
    left: tuple[Card, ...]
    points_shed: int
    can_go_out: bool
    status: Status


@dataclass(frozen=True, slots=True)
class Discard:
    """The card to throw and why."""

    card: Card
    reason: str
    deficiency_after: int | None = None
    outs: int | None = None
    danger: int | None = None


@dataclass(frozen=True, slots=True)
class Turn:
    """The play phase of one turn, solved as a whole (see :mod:`~solver.shanghai.search`).

    ``go_down`` is None for a player already down; ``lay_offs.left`` is the hand
    after every play; ``kept`` the hand at the end of the turn, after the discard.
    """

    go_down: GoDown | None
    lay_offs: LayOffs
    discard: Discard | None
    kept: tuple[Card, ...]
    points: int
    """Penalty points of ``kept``: what the hand costs if another player goes out next."""
    table: tuple[Meld, ...]
    """The table after the turn: the melds given, with swaps and lay-offs, then the
    melds laid this turn."""
    status: Status

    @property
    def goes_out(self) -> bool:
        return self.lay_offs.can_go_out

"""What a solve returns: the objective asked for, the solver status and the play."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from solver.rummikub.melds import Meld
from solver.rummikub.tiles import Tile


class Objective(Enum):
    """What "best" means for a play."""

    TILES = "tiles"
    """Most rack tiles played (a joker counts as one tile)."""
    POINTS = "points"
    """Most penalty points moved off the rack (face value; a joker its penalty)."""


class Status(Enum):
    OPTIMAL = "optimal"
    """Proven best, including a proven-empty play."""
    FEASIBLE = "feasible"
    """Time ran out; the best play found so far (always legal)."""
    UNKNOWN = "unknown"
    """Time ran out before any play was found; the play is empty."""


@dataclass(frozen=True, slots=True)
class Play:
    """A solved turn.

    ``played`` is a sub-multiset of the rack, ``rack_left`` the rest, and
    ``table`` the complete table after the play.
    """

    status: Status
    played: tuple[Tile, ...]
    rack_left: tuple[Tile, ...]
    table: tuple[Meld, ...]
    tiles_played: int
    points_played: int

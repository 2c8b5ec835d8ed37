"""What a solve returns: the play, with the solver's status."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from solver.cpsat import Status
from solver.rummikub.melds import Meld
from solver.rummikub.notation import Tile

if TYPE_CHECKING:
    from solver.rummikub.steps import Step


@dataclass(frozen=True, slots=True)
class Play:
    """A solved turn.

    ``played`` is a sub-multiset of the rack, ``rack_left`` the rest, and
    ``table`` the complete table after the play, in the order that replaying
    ``steps`` on the old table leaves it, ``set_numbers`` the number the steps give
    each of those sets (see :attr:`~solver.rummikub.steps.Plan.numbers`).
    ``sets_kept`` counts table sets that stay whole (tiles may join them),
    ``tiles_moved`` the table tiles that leave the set carrying their old one on.
    """

    status: Status
    played: tuple[Tile, ...]
    rack_left: tuple[Tile, ...]
    table: tuple[Meld, ...]
    set_numbers: tuple[int, ...]
    rack_places: tuple[tuple[int, ...], ...]
    """Set by set of ``table``, the places in its tiles of those laid from the rack
    (see :func:`~solver.rummikub.steps.rack_places`): a table joker beside one from
    the rack is told apart only so."""
    tiles_played: int
    points_played: int
    sets_kept: int
    tiles_moved: int
    steps: tuple[Step, ...]
    disruption_proven: bool
    """Whether no play with the same score and jokers keeps more table sets whole, or
    as many and moves fewer table tiles."""
    time_capped: bool = False
    """Whether a wall-clock limit, rather than the work bound, stopped a search: the
    answer may then differ from one found on an idle machine."""
    free_jokers: int | None = None
    """When asked for: the table jokers (before the play) that no set needs, the
    table's other tiles lay out as valid sets without them; None when not asked for or
    not proven (its search stopped at its work bound or the clock)."""

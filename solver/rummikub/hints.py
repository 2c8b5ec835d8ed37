"""Progressive hints: how much of the best play to reveal.

The solver's work is the same at every level; only the answer shrinks:

* ``nudge``: whether a play exists and how many tiles it places;
* ``tile``: one rack tile of the best play and where it goes;
* ``full``: the whole play and the steps to make it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from solver.i18n import _
from solver.rummikub.melds import Meld
from solver.rummikub.notation import Tile, spell
from solver.rummikub.result import Play
from solver.rummikub.steps import Action, Step, describe


class HintLevel(Enum):
    NUDGE = "nudge"
    TILE = "tile"
    FULL = "full"


@dataclass(frozen=True, slots=True)
class TileHint:
    """One rack tile of the play and where it goes: onto table set ``to_set`` (an
    index into the request's table), or into a new set (``to_set`` is None)."""

    tile: str
    to_set: int | None
    text: str


def tile_hint(play: Play, table: Sequence[Meld]) -> TileHint | None:
    """The easiest rack tile to show: one added to a set already on the table
    (``table``, as the request gave it) that no earlier step takes tiles from, if
    any; else one that goes into a new set (laid down, or a part split off a run);
    else one added to a table set once tiles are taken from it (the text says so:
    the set is then no longer the one ``table`` describes). None when nothing is
    played."""
    changed: set[int] = set()
    onto_changed: tuple[Step, Tile] | None = None
    for step in play.steps:
        if step.action in (Action.TAKE, Action.SPLIT):
            changed.add(step.set)
        elif step.action is Action.ADD and step.set < len(table) and step.from_rack:
            tile = step.from_rack[0]
            if step.set not in changed:
                return TileHint(
                    spell(tile),
                    step.set,
                    _(
                        "Your {tile} goes onto set {index}, {set}.",
                        tile=spell(tile),
                        index=step.set,
                        set=describe(table[step.set]),
                    ),
                )
            onto_changed = onto_changed or (step, tile)
    for step in play.steps:
        if step.from_rack and (step.action is Action.NEW_SET or step.set >= len(table)):
            tile = step.from_rack[0]
            return TileHint(
                spell(tile), None, _("Your {tile} goes into a new set.", tile=spell(tile))
            )
    if onto_changed is not None:
        step, tile = onto_changed
        return TileHint(
            spell(tile),
            step.set,
            _(
                "Your {tile} goes onto set {index}, {set}, once tiles are taken from it.",
                tile=spell(tile),
                index=step.set,
                set=describe(table[step.set]),
            ),
        )
    return None

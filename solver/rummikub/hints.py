"""Progressive hints: how much of the best play to reveal.

The solver's work is the same at every level; only the answer shrinks:

* ``nudge``: whether a play exists and how many tiles it places;
* ``tile``: one rack tile of the best play and where it goes;
* ``full``: the whole play and the steps to make it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from solver.i18n import _
from solver.rummikub.melds import Meld
from solver.rummikub.notation import Tile, spell
from solver.rummikub.result import Play
from solver.rummikub.steps import Action, Step, describe
from solver.values import Pasted


class HintLevel(Pasted):
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
    (``table``, as the request gave it) that no earlier step takes tiles from and no
    table tile joins, if any; else one that goes into a new set (laid down, or a part
    split off a run); else one added to a table set that has changed (the text says
    how: the set is then no longer the one ``table`` describes). None when nothing is
    played."""
    robbed: set[int] = set()
    joined: set[int] = set()
    onto_changed: tuple[Step, Tile] | None = None
    for step in play.steps:
        if step.action in (Action.TAKE, Action.SPLIT):
            robbed.add(step.set)
        elif step.action is Action.ADD and step.set < len(table):
            if Counter(step.tiles) - Counter(step.from_rack):
                joined.add(step.set)  # table tiles join it in this step
            if not step.from_rack:
                continue
            tile = step.from_rack[0]
            if step.set not in robbed | joined:
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
        if step.set in joined:
            text = _(
                "Your {tile} goes onto set {index}, {set}, with tiles moved there from other sets.",
                tile=spell(tile),
                index=step.set,
                set=describe(table[step.set]),
            )
        else:
            text = _(
                "Your {tile} goes onto set {index}, {set}, once tiles are taken from it.",
                tile=spell(tile),
                index=step.set,
                set=describe(table[step.set]),
            )
        return TileHint(spell(tile), step.set, text)
    return None

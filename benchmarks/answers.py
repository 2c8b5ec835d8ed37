"""What a solver answered on one benchmark position, and whether it is legal.

Both our solver and the peer are judged by the same independent checker,
:func:`solver.rummikub.legality.check_play`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from solver.rummikub import Position, Rules, Tile
from solver.rummikub.legality import check_play
from solver.rummikub.notation import format_tiles

TileSets = tuple[tuple[Tile, ...], ...]


@dataclass(frozen=True, slots=True)
class Calm:
    """How much a play disturbs the table, and whether that is proven least."""

    sets_kept: int
    tiles_moved: int
    proven: bool
    time_capped: bool
    """A wall-clock limit stopped a search (the answer may depend on the load)."""


@dataclass(frozen=True, slots=True)
class Answer:
    """One timed solve: how long it took and the play it claims."""

    ms: float
    status: str
    """Ours: optimal / feasible / unknown. The peer: answered / no play."""
    played: tuple[Tile, ...]
    table_after: TileSets
    problems: tuple[str, ...]
    """Why the play is not legal; empty when it is."""
    calm: Calm | None = None
    """Ours with the least-disruption stage: how calm the play is."""

    @property
    def tiles(self) -> int:
        return len(self.played)

    @property
    def legal(self) -> bool:
        return not self.problems

    def points(self, rules: Rules) -> int:
        """Penalty points played, as our rules count them (a joker: its penalty)."""
        return sum(rules.value(tile) for tile in self.played)


def judge(
    position: Position,
    played: Sequence[Tile],
    table_after: Sequence[Sequence[Tile]],
    rules: Rules,
) -> tuple[str, ...]:
    """Problems with a claimed play: what the legality checker finds, and a claim of
    played tiles that differs from what the table after gained."""
    verdict = check_play(position.rack, position.table, table_after, position.opened, rules)
    problems = [
        f"set {p.set}: {p.reason}" if p.set is not None else p.reason for p in verdict.problems
    ]
    if Counter(verdict.played) != Counter(played):
        problems.append(
            f"claims to play {format_tiles(sorted(played)) or 'nothing'} but the table "
            f"gained {format_tiles(verdict.played) or 'nothing'}"
        )
    return tuple(problems)

"""End-of-round scoring: what the tiles left on each rack cost.

A player's *penalty* is the sum of the face values on their rack, a joker
counting ``rules.joker_penalty``. Under the official rule the round's winner (the
player who emptied their rack) scores the sum of the others' penalties and every
other player scores minus their own penalty, so the scores add up to zero.

The rule is applied to the racks given:

* the player with an empty rack is the winner and scores the sum of the other
  players' penalties; several empty racks are refused (a round ends as soon as one
  player goes out);
* with no empty rack (the pool ran out and nobody could go out) nobody wins and
  every player scores minus their penalty.

The wire request and response are :func:`solver.rummikub.wire.score_rummikub`'s.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from solver.arena.game import check_one_out
from solver.arguments import checked, checked_lists_by_name
from solver.i18n import _
from solver.rummikub.notation import Tile
from solver.rummikub.position import check_counts
from solver.rummikub.rules import Rules


@dataclass(frozen=True, slots=True)
class PlayerScore:
    """One player's result for the round."""

    name: str
    penalty: int
    """Face values left on the rack; a joker counts the rules' joker penalty."""
    score: int
    """Sum of the others' penalties for a winner, minus the own penalty otherwise."""
    winner: bool
    """The player emptied their rack."""


def penalty(rack: Sequence[Tile], rules: Rules) -> int:
    """What the tiles left on a rack cost at the end of a round."""
    return sum(rules.value(tile) for tile in rack)


def score_round(racks: Mapping[str, Sequence[Tile]], rules: Rules) -> tuple[PlayerScore, ...]:
    """Score a finished round from the racks left, in the order given.

    Raises a :class:`~solver.errors.MeldwiseError` when a tile does not exist in
    the game, the racks hold more copies of a tile than the game has, or several
    racks are empty (a round ends as soon as one player goes out), or naming the
    argument that is no mapping of names to lists of tiles, or no :class:`Rules`.
    """
    racks = checked_lists_by_name(racks, Tile, "racks")
    rules = checked(rules, Rules, "rules")
    check_one_out(racks, "racks")
    counts: Counter[Tile] = Counter()
    for rack in racks.values():
        for tile in rack:
            rules.check_tile(tile)
        counts.update(rack)
    check_counts(counts, rules, _("across the racks"))
    penalties = {name: penalty(rack, rules) for name, rack in racks.items()}
    total = sum(penalties.values())
    return tuple(
        PlayerScore(name, cost, total - cost if not rack else -cost, not rack)
        for (name, rack), cost in zip(racks.items(), penalties.values(), strict=True)
    )

"""Danger: a stated heuristic for how much a discard could help the next player.

Only the next player may take a discard in turn (the others may buy it, and a
player who is down cannot buy), so a discard's danger counts what is known of
that player:

* **+2** when the next player is down and the card can be laid off on a table meld
  as it stands (they take it and lay it off, a step towards going out); **+1**
  when it can be laid off and whether the next player is down is not known;
* **+1** when the card is related to a card the next player took from the discard
  pile: the same rank (a set they may be building) or the same suit within two
  ranks (a run; with ``ace_low`` the ace is next to the two as well as to the king).

So the figure runs 0-3. It is a heuristic: a card of danger 0 may still complete
something in a hand nobody can see.
"""

from __future__ import annotations

from collections.abc import Sequence

from solver.shanghai.lay_offs import fits_table
from solver.shanghai.melds import Meld
from solver.shanghai.notation import ACE, Card
from solver.shanghai.position import NextPlayer
from solver.shanghai.rules import Rules


def danger(card: Card, table: Sequence[Meld], nxt: NextPlayer, rules: Rules) -> int:
    """The danger of discarding ``card`` onto ``table`` (see the module docstring)."""
    score = 0
    if nxt.down is not False and fits_table(card, table, rules):
        score += 2 if nxt.down else 1
    if any(_related(card, taken, rules) for taken in nxt.took):
        score += 1
    return score


def _related(card: Card, taken: Card, rules: Rules) -> bool:
    if card.is_joker or taken.is_joker:
        return False  # a joker fits nearly anywhere: the table part counts it
    if card.rank == taken.rank:
        return True
    return card.suit == taken.suit and any(
        abs(a - b) <= 2 for a in _places(card, rules) for b in _places(taken, rules)
    )


def _places(card: Card, rules: Rules) -> tuple[int, ...]:
    """The run places of ``card``: a low ace is place 1 as well as 14."""
    return (1, ACE) if rules.ace_low and card.rank == ACE else (card.rank,)

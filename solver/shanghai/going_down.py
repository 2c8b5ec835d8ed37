"""Going down and the turn's legal end.

Rules as interpreted here:

* The contract melds come from the hand; extra cards may extend them (a set of 3
  may be laid with 5 cards, a run of 4 with 6).
* A player not yet down may swap a natural card from the hand for a table joker
  that stands for it (a run joker: that exact card; a set joker: any card of the
  set's rank) and must then go down this turn, so swaps are only ever part of a
  going-down plan. Only jokers are swapped, never wild twos.
* After going down the player may lay off on any meld this same turn.
* The turn ends with a discard unless the player has gone out. By default the last
  card may not be discarded (``go_out_by_discard`` false), so a plan must leave
  either no card (out) or at least two (discard one, keep one) once the lay-offs
  are made; with ``go_out_by_discard`` any count is fine.

The whole turn (going down, swaps, lay-offs) is chosen in one model by
:func:`~solver.shanghai.search.solve_turn`; this module holds the turn-end rule.
"""

from __future__ import annotations

from ortools.sat.python import cp_model

from solver.shanghai.model import HandModel, LinearExpr


def add_turn_end(hm: HandModel) -> cp_model.IntVar:
    """The turn ends legally: with ``n`` cards left after every play,
    out => n == 0 (or n <= 1 when going out by discarding is allowed), and,
    unless going out by discarding is allowed, not out => n >= 2. Returns ``out``."""
    left = cards_after(hm)
    out = hm.model.new_bool_var("goes_out")
    hm.model.add(left <= (1 if hm.rules.go_out_by_discard else 0)).only_enforce_if(out)
    if not hm.rules.go_out_by_discard:
        hm.model.add(left >= 2).only_enforce_if(~out)
    return out


def cards_after(hm: HandModel) -> LinearExpr:
    """Cards in hand after every play: hand - cards played + jokers swapped in."""
    return hm.size() - hm.total() + hm.swaps()

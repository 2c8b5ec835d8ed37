"""Going down: lay the whole contract at once, chosen by lexicographic goals.

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

Among the plans, the goals in order are: the fewest penalty points left in hand
after laying the contract melds; then the most of those left cards that can be
laid off on the table this turn; then the jokers least exposed (the sum, over
jokers placed, of the unseen cards that could be swapped for them: for a run
joker, unseen copies of the card it stands for; for a set joker, unseen cards of
its rank); then the fewest swaps. CP-SAT solves all four at once with weights
that keep them strictly ordered.
"""

from __future__ import annotations

from collections import Counter

from ortools.sat.python import cp_model

from solver.shanghai.cards import Card
from solver.shanghai.contracts import Contract
from solver.shanghai.layout import TwoPool, cards_left, contract_melds, swapped_meld, swaps
from solver.shanghai.melds import Meld
from solver.shanghai.model import (
    HandModel,
    LinearExpr,
    Use,
    add_card_balance,
    add_table_slot,
    build_contract,
    found_status,
    lexicographic,
    solve_model,
    tie_breaks,
)
from solver.shanghai.plays import GoDown
from solver.shanghai.rules import Rules


def go_down(
    hand: Counter[Card],
    contract: Contract,
    table: tuple[Meld, ...],
    unseen: Counter[Card],
    rules: Rules,
    *,
    time_limit: float,
    workers: int = 1,
) -> GoDown | None:
    """The best way to go down now, or None when the contract cannot be met this turn
    (see the module docstring for the goals). ``status`` says whether it is proven."""
    hm = HandModel(rules, hand, unseen)
    hm.swappable = sum(len(meld.joker_places()) for meld in table)
    for index, meld in enumerate(table):
        add_table_slot(hm, index, meld, swaps=True)
    build_contract(hm, contract.sets, contract.runs)
    add_card_balance(hm)
    add_turn_end(hm)
    penalty_left = hm.hand_points() - hm.points(Use.MELD) - hm.points(Use.SWAP)
    penalty_left += rules.joker_points * hm.swaps()
    hand_size = sum(hand.values())
    hm.model.minimize(
        lexicographic(
            [
                (penalty_left, hm.hand_points() + rules.joker_points * hm.swappable),
                (-hm.total(Use.LAY_OFF), hand_size + hm.swappable),
                *tie_breaks(hm),
            ]
        )
    )

    code, engine = solve_model(hm, time_limit, workers)
    if code == cp_model.INFEASIBLE:
        return None
    if code not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None  # time ran out before any plan was found; the caller reports it
    value = engine.value
    twos = TwoPool(hm, value)
    melds = contract_melds(hm, value, twos)
    done = swaps(hm, value)
    left = cards_left(hm, value, [c for m in melds for c in m.cards], done)
    after = tuple(swapped_meld(m, [s for s in done if s.meld == i]) for i, m in enumerate(table))
    return GoDown(
        melds=tuple(melds),
        swaps=tuple(done),
        left=tuple(left),
        penalty_left=sum(rules.points(c) for c in left),
        table=after + tuple(melds),
        status=found_status(code),
    )


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
    return sum(hm.hand.values()) - hm.total() + hm.swaps()

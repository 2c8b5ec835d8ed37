"""Laying off: the cards a player who is down (or going down this turn) lays on
table melds, and whether the player goes out.

Rules as interpreted here: a set takes any card of its rank and wild cards; a run
takes cards only beyond its ends, in order (a run keeps its order: nothing is
inserted and its jokers do not move), never past the ace and never more than 13
cards; every meld keeps at most as many wild cards as natural ones. A table joker
may be swapped for the natural card it stands for (the joker then comes into the
hand and may be laid off too). The turn must end legally (see
:func:`~solver.shanghai.going_down.add_turn_end`).

Goals in order: go out if at all possible; then shed the most penalty points; then
lay the most cards; then the jokers least exposed; then the fewest swaps.
"""

from __future__ import annotations

from collections import Counter

from ortools.sat.python import cp_model

from solver.shanghai.cards import Card
from solver.shanghai.going_down import add_turn_end, cards_after
from solver.shanghai.layout import TwoPool, cards_left, lay_offs, swaps
from solver.shanghai.melds import Meld
from solver.shanghai.model import (
    HandModel,
    Use,
    add_card_balance,
    add_table_slot,
    found_status,
    lexicographic,
    solve_model,
    tie_breaks,
)
from solver.shanghai.plays import LayOffs, Status
from solver.shanghai.rules import Rules


def best_lay_offs(
    hand: Counter[Card],
    table: tuple[Meld, ...],
    unseen: Counter[Card],
    rules: Rules,
    *,
    time_limit: float,
    workers: int = 1,
    turn_end: bool = True,
) -> LayOffs:
    """The lay-offs that shed the most points (see the module docstring).

    With ``turn_end`` false the plan need not end the turn legally (used to ask
    whether one card could be laid off at all).
    """
    hm = HandModel(rules, hand, unseen)
    hm.swappable = sum(len(meld.joker_places()) for meld in table)
    for index, meld in enumerate(table):
        add_table_slot(hm, index, meld, swaps=True)
    add_card_balance(hm)
    out: cp_model.IntVar | int = add_turn_end(hm) if turn_end else 0
    shed = hm.points(Use.LAY_OFF) + hm.points(Use.SWAP) - rules.joker_points * hm.swaps()
    hand_size = sum(hand.values())
    hm.model.minimize(
        lexicographic(
            [
                (-out, 1),
                (-shed, hm.hand_points() + rules.joker_points * hm.swappable),
                (-hm.total(Use.LAY_OFF), hand_size + hm.swappable),
                *tie_breaks(hm),
            ]
        )
    )
    code, engine = solve_model(hm, time_limit, workers)
    if code not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        # Infeasible only when a single card is held and cannot be laid off: the turn
        # cannot end yet (the player must draw first), so nothing is laid.
        status = Status.OPTIMAL if code == cp_model.INFEASIBLE else Status.UNKNOWN
        return LayOffs((), (), tuple(sorted(hand.elements())), 0, False, status)
    value = engine.value
    plays = lay_offs(hm, value, TwoPool(hm, value))
    done = swaps(hm, value)
    left = cards_left(hm, value, [p.card for p in plays], done)
    limit = 1 if rules.go_out_by_discard else 0
    return LayOffs(
        plays=tuple(plays),
        swaps=tuple(done),
        left=tuple(left),
        points_shed=value(shed),
        can_go_out=turn_end and value(cards_after(hm)) <= limit,
        status=found_status(code),
    )

"""Deficiency: the fewest extra cards a hand needs to meet its contract, exactly.

The extra cards are natural cards or jokers the player cannot see (not in the
hand, not on the table, not the upcard), so a card whose copies are all in view
cannot be wished for. Table jokers are not counted here: swaps belong to going
down. Deficiency 0 means the hand meets the contract.

The discard is the card that leaves the lowest deficiency; then the most *outs*;
then the most penalty points. Outs are a documented heuristic: the unseen natural
cards that would fill a gap of the best completion of the kept hand (a gap in a
set: any card of its rank; in a run: that exact card), counted with their unseen
copies, maximised over the completions with the fewest extra cards. It is a lower
bound of the unseen cards that lower the deficiency (jokers are not counted: they
fill any gap). CP-SAT answers the whole choice in one solve.
"""

from __future__ import annotations

from collections import Counter

from ortools.sat.python import cp_model

from solver.shanghai.cards import Card, Suit
from solver.shanghai.contracts import Contract
from solver.shanghai.model import (
    HandModel,
    LinearExpr,
    add_card_balance,
    add_discard,
    build_contract,
    extras_used,
    lexicographic,
    solve_model,
)
from solver.shanghai.plays import Discard, Status
from solver.shanghai.rules import Rules


def deficiency(
    hand: Counter[Card],
    contract: Contract,
    unseen: Counter[Card],
    rules: Rules,
    *,
    time_limit: float,
    workers: int = 1,
) -> tuple[int | None, Status]:
    """The fewest extra cards ``hand`` needs to meet ``contract`` (None when no
    cards still unseen can complete it) and whether that is proven."""
    hm = HandModel(rules, hand, unseen, with_extras=True)
    build_contract(hm, contract.sets, contract.runs)
    add_card_balance(hm)
    needed = extras_used(hm)
    hm.model.minimize(needed)
    code, engine = solve_model(hm, time_limit, workers)
    if code == cp_model.INFEASIBLE:
        return None, Status.OPTIMAL
    if code not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None, Status.UNKNOWN
    status = Status.OPTIMAL if code == cp_model.OPTIMAL else Status.FEASIBLE
    return engine.value(needed), status


def best_discard(
    hand: Counter[Card],
    contract: Contract,
    unseen: Counter[Card],
    rules: Rules,
    *,
    time_limit: float,
    workers: int = 1,
) -> tuple[Discard | None, Status]:
    """The discard for a player who is not going down this turn (see the module
    docstring); None when the hand is empty or no answer was found in time."""
    if not hand:
        return None, Status.OPTIMAL
    hm = HandModel(rules, hand, unseen, with_extras=True)
    build_contract(hm, contract.sets, contract.runs)
    add_discard(hm)
    add_card_balance(hm)
    needed = extras_used(hm)
    outs = add_outs(hm)
    thrown = sum(rules.points(card) * var for card, var in hm.discard.items())
    top_points = max(rules.points(card) for card in hand)
    unseen_naturals = sum(n for c, n in unseen.items() if not c.is_joker)
    hm.model.minimize(lexicographic([(needed, 0), (-outs, unseen_naturals), (-thrown, top_points)]))
    code, engine = solve_model(hm, time_limit, workers)
    if code not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        # Infeasible: no discard leaves a hand that unseen cards could complete.
        return _costliest(hand, rules), Status.OPTIMAL if code == cp_model.INFEASIBLE else (
            Status.UNKNOWN
        )
    value = engine.value
    card = next(c for c, var in hm.discard.items() if value(var))
    short, out_count = value(needed), value(outs)
    status = Status.OPTIMAL if code == cp_model.OPTIMAL else Status.FEASIBLE
    return Discard(card, _reason(card, short, out_count, rules), short, out_count), status


def add_outs(hm: HandModel) -> LinearExpr:
    """outs = sum_t unseen[t] * fills[t] over natural cards t, where
    fills[t] <= extras of t's rank in sets + extras of t in runs: t fills a gap."""
    terms: list[LinearExpr] = []
    for suit in Suit:
        for rank in range(2, 15):
            card = Card(rank, suit)
            if not hm.unseen[card]:
                continue
            gaps: list[LinearExpr] = [slot.extras[rank] for slot in hm.sets if rank in slot.extras]
            for run in hm.runs:
                gaps += [
                    var
                    for (s, q), var in run.extras.items()
                    if s is suit and hm.rules.rank_at(q) == rank
                ]
            if gaps:
                fills = hm.model.new_bool_var(f"fills_{card}")
                hm.model.add(fills <= sum(gaps))
                terms.append(hm.unseen[card] * fills)
    return sum(terms)


def _reason(card: Card, short: int, outs: int, rules: Rules) -> str:
    if short == 0:
        where = "the rest of the hand still meets the contract"
    else:
        where = (
            f"the rest of the hand is {short} card{'s' if short > 1 else ''} short of the"
            " contract, the fewest any discard leaves"
        )
    return (
        f"Discard {card}: {where}; among such discards it keeps the most outs ({outs} unseen"
        f" card{'s' if outs != 1 else ''} would fill a gap) and then sheds the most points"
        f" ({rules.points(card)})."
    )


def _costliest(hand: Counter[Card], rules: Rules) -> Discard:
    card = max(sorted(hand), key=rules.points)
    return Discard(
        card,
        f"Discard {card}: the contract cannot be completed from the unseen cards,"
        f" so shed the most points ({rules.points(card)}).",
    )

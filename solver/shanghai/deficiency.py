"""Deficiency: the fewest extra cards a hand needs to meet its contract, exactly.

The extra cards are natural cards or jokers the player cannot see (not in the
hand, not on the table, not the upcard), so a card whose copies are all in view
cannot be wished for. Table jokers are not counted here: swaps belong to going
down. Deficiency 0 means the hand meets the contract.

The discard is the card that leaves the lowest deficiency; then the most *outs*;
then the most penalty points (then the highest rank, so ties never depend on the
search). Outs are a documented heuristic: the unseen natural
cards that would fill a gap of the best completion of the kept hand (a gap in a
set: any card of its rank; in a run: that exact card), counted with their unseen
copies, maximised over the completions with the fewest extra cards. It is a lower
bound of the unseen cards that lower the deficiency (jokers are not counted: they
fill any gap). CP-SAT first finds the lowest deficiency any discard leaves
(exact), then, among those discards, searches the most outs and then points for a
fixed deterministic effort (:data:`OUTS_EFFORT`): the same answer on every run,
but the outs are the best found, not proven the most.
"""

from __future__ import annotations

from collections import Counter

from ortools.sat.python import cp_model

from solver.i18n import _, _n
from solver.shanghai.cards import Card, Suit
from solver.shanghai.contracts import Contract
from solver.shanghai.model import (
    HandModel,
    LinearExpr,
    add_card_balance,
    add_discard,
    build_contract,
    extras_used,
    found_status,
    hint_solution,
    lexicographic,
    solve_model,
)
from solver.shanghai.plays import Discard, Status
from solver.shanghai.rules import Rules

OUTS_EFFORT = 0.02
"""Deterministic-time budget (CP-SAT units, roughly seconds) for the outs stage."""


def deficiency(
    hand: Counter[Card],
    contract: Contract,
    unseen: Counter[Card],
    rules: Rules,
    *,
    time_limit: float,
    workers: int = 1,
    known: tuple[int, int] | None = None,
) -> tuple[int | None, Status]:
    """The fewest extra cards ``hand`` needs to meet ``contract`` (None when no
    cards still unseen can complete it) and whether that is proven.

    ``known`` = (low, high) bounds the answer when the caller knows them (adding
    one card lowers the deficiency by at most one); they only speed up the proof.
    """
    hm, needed = completion_model(hand, contract, unseen, rules, known, discard=False)
    hm.model.minimize(needed)
    code, engine = solve_model(hm, time_limit, workers)
    if code == cp_model.INFEASIBLE:
        return None, Status.OPTIMAL
    if code not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None, Status.UNKNOWN
    status = found_status(code)
    return engine.value(needed), status


def best_discard(
    hand: Counter[Card],
    contract: Contract,
    unseen: Counter[Card],
    rules: Rules,
    *,
    time_limit: float,
    workers: int = 1,
    short: int | None = None,
) -> tuple[Discard | None, Status]:
    """The discard for a player who is not going down this turn (see the module
    docstring); None when the hand is empty or no answer was found in time.

    ``short``, the deficiency of the whole hand when known, bounds the answer:
    discarding a card raises it by at most one.
    """
    if not hand:
        return None, Status.OPTIMAL
    known = None if short is None else (short, short + 1)
    hm, needed = completion_model(hand, contract, unseen, rules, known, discard=True)
    outs = add_outs(hm)
    hm.model.minimize(needed)
    code, engine = solve_model(hm, time_limit, workers)
    if code not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        # Infeasible: no discard leaves a hand that unseen cards could complete.
        status = Status.OPTIMAL if code == cp_model.INFEASIBLE else Status.UNKNOWN
        return _costliest(hand, rules), status
    status = found_status(code)
    least = engine.value(needed)
    # Second stage, a heuristic: among the discards leaving `least`, the most outs,
    # then the most points, searched for a fixed deterministic effort.
    hint_solution(hm, engine)
    hm.model.add(needed == least)
    thrown = sum(rules.points(card) * var for card, var in hm.discard.items())
    unseen_naturals = sum(n for c, n in unseen.items() if not c.is_joker)
    top_points = max(rules.points(card) for card in hand)
    # Last tie-break, so that the answer never depends on the search: the highest rank.
    order = {card: i for i, card in enumerate(sorted(hand, key=lambda c: (c.rank, c.sort_key)))}
    highest = sum(order[card] * var for card, var in hm.discard.items())
    hm.model.minimize(
        lexicographic([(-outs, unseen_naturals), (-thrown, top_points), (-highest, len(order))])
    )
    code, better = solve_model(hm, time_limit, workers, effort=OUTS_EFFORT)
    if code in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        engine = better
    value = engine.value
    card = next(c for c, var in hm.discard.items() if value(var))
    out_count = value(outs)
    return Discard(card, _reason(card, least, out_count, rules), least, out_count), status


def completion_model(
    hand: Counter[Card],
    contract: Contract,
    unseen: Counter[Card],
    rules: Rules,
    known: tuple[int, int] | None,
    *,
    discard: bool,
) -> tuple[HandModel, LinearExpr]:
    """The contract filled from ``hand`` (less one discard, with ``discard``) and
    unseen extra cards; returns the model and the count of extras.

    With ``known`` = (low, high), low <= extras <= high: bounds an earlier solve
    proved (the low one spares CP-SAT the hardest part, proving that no cheaper
    completion exists).
    """
    hm = HandModel(rules, hand, unseen, with_extras=True)
    build_contract(hm, contract.sets, contract.runs)
    if discard:
        add_discard(hm)
    add_card_balance(hm)
    needed = extras_used(hm)
    if known is not None:
        hm.model.add(needed >= known[0])
        hm.model.add(needed <= known[1])
    return hm, needed


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
        where = _("the rest of the hand still meets the contract")
    else:
        where = _n(
            "the rest of the hand is {n} card short of the contract, the fewest any discard leaves",
            "the rest of the hand is {n} cards short of the contract, the fewest any discard"
            " leaves",
            short,
        )
    return _n(
        "Discard {card}: {where}; among such discards it keeps the most outs ({n} unseen card"
        " would fill a gap) and then sheds the most points ({points}).",
        "Discard {card}: {where}; among such discards it keeps the most outs ({n} unseen cards"
        " would fill a gap) and then sheds the most points ({points}).",
        outs,
        card=card,
        where=where,
        points=rules.points(card),
    )


def _costliest(hand: Counter[Card], rules: Rules) -> Discard:
    card = max(sorted(hand), key=rules.points)
    return Discard(
        card,
        _(
            "Discard {card}: the contract cannot be completed from the unseen cards,"
            " so shed the most points ({points}).",
            card=card,
            points=rules.points(card),
        ),
    )

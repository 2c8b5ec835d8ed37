"""Hint advice for one Shanghai turn: go down? lay off what? discard what? take or
buy the upcard?

The exact parts (going down, lay-offs, deficiency and the discard's deficiency)
are CP-SAT solves; taking and buying the upcard follow a documented heuristic:

* **take the upcard** (not down) when adding it to the hand lowers the exact
  deficiency; a stock card is unknown, so it is not weighed against it. A player
  who is down takes it when it can be laid off at once.
* **buy** when taking would lower the deficiency and a buy is left; the penalty
  cards that come with a buy are unknown and not counted. Players who are down
  cannot buy.
* **discard** (not going down this turn) the card leaving the lowest deficiency,
  then the most outs, then the most points (:mod:`~solver.shanghai.deficiency`).
  Once down (or going down now) the contract no longer matters: the discard is
  the costliest card left after the lay-offs (ties: the first in card order), or
  none when the player goes out.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TypedDict

from solver.i18n import _
from solver.shanghai.cards import Card
from solver.shanghai.contracts import Contract
from solver.shanghai.deficiency import best_discard, deficiency
from solver.shanghai.going_down import go_down
from solver.shanghai.lay_offs import best_lay_offs
from solver.shanghai.melds import Meld
from solver.shanghai.plays import Discard, GoDown, LayOffs, Status
from solver.shanghai.position import Position
from solver.shanghai.rules import STANDARD, Rules
from solver.shanghai.scoring import penalty


class Budget(TypedDict):
    """Seconds and threads for each CP-SAT solve."""

    time_limit: float
    workers: int


DEFAULT_TIME_LIMIT = 2.0
"""Seconds each CP-SAT solve may take unless the caller says otherwise."""


@dataclass(frozen=True, slots=True)
class UpcardAdvice:
    """Whether to take (or buy) the upcard, the rule used, and the deficiencies
    compared (None when not used)."""

    yes: bool
    rule: str
    deficiency_now: int | None = None
    deficiency_with: int | None = None


@dataclass(frozen=True, slots=True)
class Advice:
    """Everything the solver says about one turn (see :func:`advise`)."""

    contract: Contract
    deficiency: int | None
    penalty: int
    go_down: GoDown | None
    lay_offs: LayOffs | None
    discard: Discard | None
    take_upcard: UpcardAdvice | None
    buy: UpcardAdvice | None
    notes: tuple[str, ...]
    status: Status


def advise(
    position: Position,
    rules: Rules = STANDARD,
    *,
    time_limit: float = DEFAULT_TIME_LIMIT,
    workers: int = 1,
) -> Advice:
    """Advice for ``position``: ``time_limit`` seconds and ``workers`` threads per
    CP-SAT solve (a turn takes two to five solves).

    Raises a :class:`~solver.errors.MeldwiseError` when the position breaks the rules.
    """
    position.check(rules)
    hand = Counter(position.hand)
    unseen = position.unseen(rules)
    table = tuple(item.meld for item in position.table)
    solve = Budget(time_limit=time_limit, workers=workers)
    notes: list[str] = []
    status = Status.OPTIMAL
    short: int | None = None
    plan: GoDown | None = None
    if position.down:
        laid: LayOffs | None = best_lay_offs(hand, table, unseen, rules, **solve)
    else:
        short, found = deficiency(hand, position.contract, unseen, rules, **solve)
        status = status.worst(found)
        swappable = sum(len(meld.joker_places()) for meld in table)
        if short is not None and short <= swappable:
            plan = go_down(hand, position.contract, table, unseen, rules, **solve)
            if plan is None and short == 0:
                notes.append(
                    _(
                        "The hand meets the contract, but going down now would leave one card"
                        " that cannot be laid off, and the last card may not be discarded."
                    )
                )
        laid = None
        if plan is not None:
            status = status.worst(plan.status)
            laid = best_lay_offs(Counter(plan.left), plan.table, unseen, rules, **solve)
    if laid is not None:
        status = status.worst(laid.status)
        discard: Discard | None = _discard_when_down(laid, rules)
    else:
        discard, found = best_discard(hand, position.contract, unseen, rules, short=short, **solve)
        status = status.worst(found)
    take, buy = _upcard(position, short, table, unseen, rules, solve)
    return Advice(
        contract=position.contract,
        deficiency=0 if position.down else short,
        penalty=penalty(position.hand, rules),
        go_down=plan,
        lay_offs=laid,
        discard=discard,
        take_upcard=take,
        buy=buy,
        notes=tuple(notes),
        status=status,
    )


def _discard_when_down(laid: LayOffs, rules: Rules) -> Discard | None:
    if not laid.left:
        return None
    card = max(laid.left, key=rules.points)
    if len(laid.left) == 1:
        return Discard(card, _("Discard {card}, your last card, and go out.", card=card))
    return Discard(
        card,
        _(
            "Discard {card}: once down the contract is met, so throw the costliest card"
            " that cannot be laid off ({points} points).",
            card=card,
            points=rules.points(card),
        ),
    )


def _upcard(
    position: Position,
    short: int | None,
    table: tuple[Meld, ...],
    unseen: Counter[Card],
    rules: Rules,
    solve: Budget,
) -> tuple[UpcardAdvice | None, UpcardAdvice | None]:
    upcard = position.upcard
    if upcard is None:
        return None, None
    if position.down:
        laid = best_lay_offs(Counter([upcard]), table, unseen, rules, turn_end=False, **solve)
        fits = bool(laid.plays)
        if fits:
            rule = _(
                "Heuristic: once down, take the upcard only if it can be laid off at once;"
                " {card} can.",
                card=upcard,
            )
        else:
            rule = _(
                "Heuristic: once down, take the upcard only if it can be laid off at once;"
                " {card} cannot.",
                card=upcard,
            )
        take = UpcardAdvice(fits, rule)
        return take, UpcardAdvice(False, _("Players who are down cannot buy."))
    with_up = (*position.hand, upcard)
    if short == 0:
        after: int | None = 0  # nothing to lower
    else:
        known = None if short is None else (short - 1, short)
        after, _status = deficiency(
            Counter(with_up), position.contract, unseen, rules, known=known, **solve
        )
    lowers = after is not None and (short is None or after < short)
    now = "?" if short is None else str(short)
    then = "?" if after is None else str(after)
    rule = _(
        "Heuristic: take the upcard when it lowers the exact deficiency (cards still"
        " needed for the contract); with {card} it goes from {now} to {then}. A stock card"
        " is unknown, so it is not weighed.",
        card=upcard,
        now=now,
        then=then,
    )
    take = UpcardAdvice(lowers, rule, short, after)
    if position.buys_left <= 0:
        buy = UpcardAdvice(False, _("No buys are left this hand."), short, after)
    else:
        buy = UpcardAdvice(
            lowers,
            _(
                "Heuristic: buy when taking the upcard would lower the deficiency ({now} to"
                " {then}) and a buy is left ({buys}); the {penalty} penalty cards are unknown"
                " and not counted.",
                now=now,
                then=then,
                buys=position.buys_left,
                penalty=rules.buy_penalty_cards,
            ),
            short,
            after,
        )
    return take, buy

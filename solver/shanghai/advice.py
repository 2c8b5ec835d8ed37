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

from solver.shanghai.cards import JOKER, Card, format_cards
from solver.shanghai.contracts import Contract
from solver.shanghai.deficiency import Study, best_discard, deficiency
from solver.shanghai.lay_offs import fits_table
from solver.shanghai.melds import Meld
from solver.shanghai.plays import Discard, GoDown, LayOffs, Status, Turn
from solver.shanghai.position import Position
from solver.shanghai.rules import STANDARD, Rules
from solver.shanghai.scoring import penalty
from solver.shanghai.search import Shape, lower_bound
from solver.shanghai.turn import solve_turn


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
    turn: Turn | None = None
    """The play phase solved as a whole (None when the player does not go down)."""


def advise(
    position: Position,
    rules: Rules = STANDARD,
    *,
    time_limit: float = DEFAULT_TIME_LIMIT,
    workers: int = 1,
) -> Advice:
    """Advice for ``position``: ``time_limit`` seconds and ``workers`` threads per
    CP-SAT solve.

    Raises a :class:`~solver.errors.MeldwiseError` when the position breaks the rules.
    """
    position.check(rules)
    hand = Counter(position.hand)
    unseen = position.unseen(rules)
    table = tuple(item.meld for item in position.table)
    solve = Budget(time_limit=time_limit, workers=workers)
    notes: list[str] = []
    status = Status.OPTIMAL
    short: int | None = 0
    turn: Turn | None = None
    discard: Discard | None = None
    if position.down:
        turn, found = solve_turn(hand, None, table, unseen, rules, **solve)
        status = status.worst(found)
        if turn is None:
            notes.append(_no_turn_end(position.hand, found))
    else:
        study = Study(hand, position.contract, unseen, rules, **solve)
        short = study.value
        if could_go_down(hand, position.contract, table, rules):
            turn, found = solve_turn(hand, position.contract, table, unseen, rules, **solve)
            status = status.worst(found)
            if turn is None and found is Status.UNKNOWN:
                notes.append("The search for a way to go down stopped before finding one.")
            elif turn is None and short == 0:
                notes.append(
                    "The hand meets the contract, but every way of going down now leaves"
                    " exactly one card that cannot be laid off, and the last card may not"
                    " be discarded."
                )
        if turn is None:
            discard = best_discard(study)
        status = status.worst(study.status)
    if turn is not None:
        discard = turn.discard
    take, buy = _upcard(position, short, table, unseen, rules, solve)
    return Advice(
        contract=position.contract,
        deficiency=short,
        penalty=penalty(position.hand, rules),
        go_down=None if turn is None else turn.go_down,
        lay_offs=None if turn is None else turn.lay_offs,
        discard=discard,
        take_upcard=take,
        buy=buy,
        notes=tuple(notes),
        status=status,
        turn=turn,
    )


def could_go_down(
    hand: Counter[Card], contract: Contract, table: tuple[Meld, ...], rules: Rules
) -> bool:
    """False when no way of going down exists, proven without a solve: each joker
    swap gives a card and takes a joker, so with ``k`` table jokers whose card the
    hand holds, the hand plus ``k`` jokers must have a deficiency bound of 0."""
    swappable = sum(
        1
        for meld in table
        for i in meld.joker_places()
        if any(n > 0 and _stands_in(c, meld.stands_for[i]) for c, n in hand.items())
    )
    more = hand.copy()
    more[JOKER] += swappable
    return lower_bound(more, Shape(contract, rules)) == 0


def _stands_in(card: Card, place: Card) -> bool:
    """Whether ``card`` is the natural card for a joker's ``place`` (a set place takes
    any card of its rank)."""
    if card.is_joker:
        return False
    return card == place or (place.suit is None and card.rank == place.rank)


def _no_turn_end(hand: tuple[Card, ...], found: Status) -> str:
    if found is Status.UNKNOWN:
        return "The search for the turn's plays stopped before finding a legal end of turn."
    what = (
        f"{hand[0]} cannot be laid off"
        if len(hand) == 1
        else (f"{format_cards(hand)} cannot all be laid off")
    )
    return (
        f"No play ends this turn legally: {what}, and the last card may not be discarded"
        " (a hand after drawing holds at least two cards; before the draw, ask with phase"
        " 'draw')."
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
        fits = fits_table(upcard, table, rules)
        take = UpcardAdvice(
            fits,
            f"Heuristic: once down, take the upcard only if it can be laid off at once;"
            f" {upcard} {'can' if fits else 'cannot'}.",
        )
        return take, UpcardAdvice(False, "Players who are down cannot buy.")
    with_up = (*position.hand, upcard)
    if short == 0:
        after: int | None = 0  # nothing to lower
    else:
        known = None if short is None else (short - 1, short)
        after, _ = deficiency(
            Counter(with_up), position.contract, unseen, rules, known=known, **solve
        )
    lowers = after is not None and (short is None or after < short)
    now = "?" if short is None else str(short)
    rule = (
        f"Heuristic: take the upcard when it lowers the exact deficiency (cards still"
        f" needed for the contract); with {upcard} it goes from {now} to"
        f" {'?' if after is None else after}. A stock card is unknown, so it is not weighed."
    )
    take = UpcardAdvice(lowers, rule, short, after)
    if position.buys_left <= 0:
        buy = UpcardAdvice(False, "No buys are left this hand.", short, after)
    else:
        buy = UpcardAdvice(
            lowers,
            f"Heuristic: buy when taking the upcard would lower the deficiency ({now} to"
            f" {'?' if after is None else after}) and a buy is left ({position.buys_left});"
            f" the {rules.buy_penalty_cards} penalty cards are unknown and not counted.",
            short,
            after,
        )
    return take, buy

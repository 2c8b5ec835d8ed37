"""Hint advice for one Shanghai turn, by phase.

* **draw** (before drawing, :mod:`~solver.shanghai.draw`): take the upcard, draw
  from the stock, or buy the upcard, with the expected deficiency and points after
  each and the chances that the play right after goes down or out.
* **play** (after drawing): the turn solved as a whole (:mod:`~solver.shanghai.search`):
  go down with any swaps and lay-offs, going out whenever the rules allow, and the
  discard. A player who does not go down discards the card leaving the lowest
  exact deficiency, then the lowest danger (:mod:`~solver.shanghai.danger`), then
  the most outs, then the most points (:mod:`~solver.shanghai.deficiency`).
* **no phase** (the older request): the play phase for the hand as given and, when
  an upcard is given, the draw phase for the same hand as if it were before the
  draw. A note says so.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from contextvars import ContextVar
from dataclasses import dataclass

import solver.shanghai.phase_budget as phase_budget
from solver.arguments import checked, checked_or_none
from solver.cpsat import DEFAULT_TIME_LIMIT as DEFAULT_TIME_LIMIT
from solver.cpsat import Limit, Status
from solver.i18n import _, _n
from solver.shanghai.contracts import Contract, most_cards
from solver.shanghai.danger import danger
from solver.shanghai.deficiency import Study, best_discard
from solver.shanghai.draw import Draw, DrawOption, UpcardAdvice, draw_advice
from solver.shanghai.melds import Meld
from solver.shanghai.notation import Card, format_cards
from solver.shanghai.position import NextPlayer, Phase, Position
from solver.shanghai.result import Discard, GoDown, LayOffs, Turn
from solver.shanghai.rules import STANDARD, Rules
from solver.shanghai.scoring import penalty
from solver.shanghai.search import could_go_down, solve_turn

PHASE_ASKED: ContextVar[tuple[str, str]] = ContextVar("PHASE_ASKED", default=("phase {!r}", "{!r}"))
"""How a note says to ask for a phase: a format for the phase named (``phase
'draw'``, the request's field) and one for a value alone (``'play'``). The command
line sets its flag's (``--phase draw``, ``play``) while it advises."""


def _phase(value: str, *, named: bool = True) -> str:
    """The phase ``value`` as :data:`PHASE_ASKED` says to ask for it."""
    return PHASE_ASKED.get()[0 if named else 1].format(value)


def _legacy_note() -> str:
    return _(
        "No phase was given: the play advice treats the hand as after the draw, the upcard"
        " advice as before it. Send {draw} or {play} to ask one question.",
        draw=_phase("draw"),
        play=_phase("play", named=False),
    )


@dataclass(frozen=True, slots=True)
class Advice:
    """Everything the solver says about one turn (see :func:`advise`)."""

    contract: Contract | None
    """The position's contract; None when a player who is down gave none."""
    deficiency: int | None
    penalty: int
    go_down: GoDown | None
    lay_offs: LayOffs | None
    discard: Discard | None
    take_upcard: UpcardAdvice | None
    buy: UpcardAdvice | None
    notes: tuple[str, ...]
    status: Status
    phase: Phase | None = None
    turn: Turn | None = None
    """The play phase solved as a whole (None when the player does not go down)."""
    draw_options: tuple[DrawOption, ...] = ()
    time_capped: bool = False
    """Whether a wall-clock limit (not the deterministic work bound) stopped one of the
    turn's solves or kept one from starting: on an idle machine, or with more time,
    the same position may get other advice."""
    play_status: Status | None = None
    """How the search for the turn's plays ended (None when the play phase was not
    asked): OPTIMAL, the plays proven best and a missing ``go_down`` (or, once down, a
    missing ``turn``) proven impossible; FEASIBLE, the plays legal, not proven best;
    UNKNOWN, it stopped before finding any, so a missing ``go_down`` or ``turn`` says
    nothing of what the turn allows. ``status`` is the worst of every search."""


def advise(
    position: Position,
    rules: Rules = STANDARD,
    *,
    limit: Limit | None = None,
) -> Advice:
    """Advice for ``position`` at its phase within ``limit`` (the defaults when None):
    its CP-SAT solves share the phase's fixed work budget
    (:mod:`~solver.shanghai.phase_budget`), which stops them, within
    :data:`~solver.shanghai.phase_budget.TIME_FACTOR` times ``limit.time`` wall-clock
    seconds, the outer safety cap, on ``limit.workers`` threads.

    Raises a :class:`~solver.errors.MeldwiseError` when the position breaks the rules,
    or names the argument that is no :class:`Position`, :class:`Rules` or ``Limit``.
    """
    position = checked(position, Position, "position")
    rules = checked(rules, Rules, "rules")
    limit = (checked_or_none(limit, Limit, "limit") or Limit()).started()
    # The contract check is part of the answer's time (a first request's check of a
    # contract that needs a solve outlasted the service's watchdog).
    unsettled = position.check(rules, limit)
    upcard_asked = position.phase is None and position.upcard is not None
    drawing = position.phase is Phase.DRAW or upcard_asked
    # Stopped by its work budget, not by the clock (see phase_budget.phase_limit): the
    # older request, both phases, under the draw's.
    budget = phase_budget.DRAW if drawing else phase_budget.PLAY
    limit = phase_budget.phase_limit(limit, budget)
    hand = Counter(position.hand)
    unseen = position.unseen(rules)
    table = tuple(item.meld for item in position.table)
    nxt = position.next_player or NextPlayer()

    def rate(card: Card, melds: Sequence[Meld] = table) -> int:
        return danger(card, melds, nxt, rules)

    # The contract of a player not down (Position requires it then); once down the turn
    # is solved without one, given or not.
    contract = None if position.down else position.contract
    study = None if contract is None else Study(hand, contract, unseen, rules, limit=limit)
    status = Status.OPTIMAL if study is None else study.status
    notes: list[str] = []
    if unsettled is not None:
        # Let through, not proven layable: nothing the answer says of the contract rests
        # on that check, but it is one search of the answer's, stopped early.
        status = status.worst(Status.UNKNOWN)
        notes.append(unsettled)
    turn: Turn | None = None
    play_status: Status | None = None
    discard: Discard | None = None
    if position.phase is not Phase.DRAW:
        short = None if study is None else study.value
        turn, play_status, note = _play(position, hand, table, unseen, rules, limit, rate, short)
        status = status.worst(play_status)
        notes += note
        if turn is not None:
            discard = turn.discard
        elif study is not None and len(position.hand) == 1:
            # Discarding the last card goes out, which needs the contract down: so not
            # even go_out_by_discard lets a player who is not down discard it.
            notes.append(_last_card_not_down(position.hand[0]))
        elif study is not None:
            discard = best_discard(study, rate)
    take = buy = None
    options: tuple[DrawOption, ...] = ()
    if drawing:
        draw = Draw(hand, contract, position.down, table, unseen, rules, limit, study)
        found_draw = draw_advice(draw, position.upcard, position.buys_left)
        take, buy, options = found_draw.take, found_draw.buy, found_draw.options
        status = status.worst(found_draw.status)
        notes += found_draw.notes
        if position.phase is None:
            notes.append(_legacy_note())
    if study is not None and contract is not None:
        status = status.worst(study.status)
        notes += _out_of_reach(position, contract, rules)
    if (reached := phase_budget.budget_note(limit, budget)) is not None:
        notes.append(reached)
    return Advice(
        contract=position.contract,
        # The answer says its deficiency is exact: one a search left as the fewest
        # found (stopped on its work or time limit) is not given.
        deficiency=0 if study is None else (study.value if study.settled else None),
        penalty=penalty(position.hand, rules),
        go_down=None if turn is None else turn.go_down,
        lay_offs=None if turn is None else turn.lay_offs,
        discard=discard,
        take_upcard=take,
        buy=buy,
        notes=tuple(notes),
        status=status,
        phase=position.phase,
        turn=turn,
        draw_options=options,
        time_capped=limit.capped,
        play_status=play_status,
    )


def _play(
    position: Position,
    hand: Counter[Card],
    table: tuple[Meld, ...],
    unseen: Counter[Card],
    rules: Rules,
    limit: Limit,
    rate: Callable[[Card, Sequence[Meld]], int],
    short: int | None,
) -> tuple[Turn | None, Status, list[str]]:
    """The play phase: the turn solved as a whole, or None (with notes saying why);
    ``short`` is the hand's deficiency (None once down)."""
    contract = None if position.down else position.contract
    if contract is not None and not could_go_down(hand, contract, table, rules):
        return None, Status.OPTIMAL, []
    turn, found = solve_turn(
        hand,
        contract,
        table,
        unseen,
        rules,
        limit=limit,
        danger=rate,
    )
    if turn is not None:
        return turn, found, []
    if found is Status.UNKNOWN:
        return None, found, [turn_search_stopped()]
    if position.down:
        return None, found, [_no_turn_end(position.hand)]
    if short == 0:
        return (
            None,
            found,
            [
                _(
                    "The hand meets the contract, but every way of going down now leaves exactly"
                    " one card that cannot be laid off, and the last card may not be discarded."
                )
            ],
        )
    return None, found, []


def _out_of_reach(position: Position, contract: Contract, rules: Rules) -> list[str]:
    """A note when the hand, not down, can never hold as many cards as its ``contract``
    lays (:func:`~solver.shanghai.contracts.most_cards`): its deficiency is exact, but
    no card drawn or bought brings it to 0."""
    held = len(position.hand) + (1 if position.phase is Phase.DRAW else 0)
    most = most_cards(held, position.buys_left, rules)
    if most >= contract.cards:
        return []
    return [
        _n(
            "This hand can never hold the {cards} cards the contract lays: a hand not down"
            " grows only by buys, and it holds {held} cards after the draw, {most} at most"
            " with its {buys} buy left (the upcard and {penalty} penalty cards each).",
            "This hand can never hold the {cards} cards the contract lays: a hand not down"
            " grows only by buys, and it holds {held} cards after the draw, {most} at most"
            " with its {buys} buys left (the upcard and {penalty} penalty cards each).",
            position.buys_left,
            cards=contract.cards,
            held=held,
            most=most,
            buys=position.buys_left,
            penalty=rules.buy_penalty_cards,
        )
    ]


def turn_search_stopped() -> str:
    """The note of advice whose search for the turn's plays stopped before finding
    one (in the active language), for a person: programs read
    :attr:`Advice.play_status` (UNKNOWN then), never this text."""
    return _("The search for the turn's plays stopped before finding one.")


def _last_card_not_down(card: Card) -> str:
    return _(
        "No play ends this turn legally: the contract cannot be met this turn, and {card},"
        " the last card, may not be discarded (a hand after drawing holds at least two cards;"
        " before the draw, ask with {draw}).",
        card=card,
        draw=_phase("draw"),
    )


def _no_turn_end(hand: tuple[Card, ...]) -> str:
    if len(hand) == 1:
        what = _("{card} cannot be laid off", card=hand[0])
    else:
        what = _("{cards} cannot all be laid off", cards=format_cards(hand))
    return _(
        "No play ends this turn legally: {what}, and the last card may not be discarded"
        " (a hand after drawing holds at least two cards; before the draw, ask with"
        " {draw}).",
        what=what,
        draw=_phase("draw"),
    )

"""A turn's play phase solved as a whole: going down, joker swaps, lay-offs and the
turn's legal end in one CP-SAT model, then the discard.

The plays, chosen together (:func:`solve_turn`), by these goals in order:

1. **go out** whenever the rules allow it this turn (no card left; with
   ``go_out_by_discard``, at most one, which is then discarded);
2. the **fewest penalty points** in hand after the plays (before the discard);
3. the fewest cards in hand after the plays;
4. the jokers least exposed, then the fewest swaps (see
   :func:`~solver.shanghai.model.tie_breaks`).

A player not yet down plays only by going down: the whole contract at once (its
melds may hold more cards than the contract asks), with any swaps and lay-offs on
the table melds in the same turn; None means the contract cannot be met this turn
(a player who is down gets None only when no legal end exists: one card in hand
that cannot be laid off). Laying a card on a meld laid this same turn is the same
as laying that meld one card bigger, so the contract melds absorb those lay-offs.

The discard (:func:`choose_discard`), when the player does not go out: the
costliest card left that cannot be laid off on the table as it stands after the
turn (a dead card), so the cards that can still be laid off stay for the next
turn; when every card left could be laid off on its own, the costliest of them.
Ties go to the first in card order.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

from ortools.sat.python import cp_model

from solver.cpsat import Limit, Status, lexicographic, note_status
from solver.i18n import _, _n
from solver.shanghai.bound import lower_bound, shape_of
from solver.shanghai.contracts import Contract
from solver.shanghai.going_down import add_turn_end, cards_after
from solver.shanghai.lay_offs import fits_table
from solver.shanghai.layout import (
    TwoPool,
    cards_left,
    contract_melds,
    laid_table,
    lay_offs,
    swapped_meld,
    swaps,
)
from solver.shanghai.melds import Meld
from solver.shanghai.model import (
    EFFORT,
    HandModel,
    Use,
    add_card_balance,
    add_drawn_card,
    add_table_slot,
    build_contract,
    drawn_cards_found,
    solve_model,
    tie_breaks,
)
from solver.shanghai.no_out import cannot_go_out
from solver.shanghai.notation import JOKER, Card, format_cards
from solver.shanghai.result import Discard, GoDown, LayOffs, Turn
from solver.shanghai.rules import Rules
from solver.shanghai.scoring import penalty


def add_turn(hm: HandModel, contract: Contract | None, table: tuple[Meld, ...]) -> cp_model.IntVar:
    """The play phase's constraints: lay-offs on and swaps out of each table meld, the
    contract (a player not yet down), the card balance and the turn's legal end.
    Returns the ``goes_out`` variable."""
    hm.swappable = sum(len(meld.joker_places()) for meld in table)
    for index, meld in enumerate(table):
        add_table_slot(hm, index, meld, swaps=True)
    if contract is not None:
        build_contract(hm, contract.sets, contract.runs)
    add_card_balance(hm)
    return add_turn_end(hm)


def solve_turn(
    hand: Counter[Card],
    contract: Contract | None,
    table: tuple[Meld, ...],
    unseen: Counter[Card],
    rules: Rules,
    *,
    limit: Limit | None = None,
    effort: float = EFFORT,
    danger: Callable[[Card, Sequence[Meld]], int] | None = None,
    cards_first: bool = False,
) -> tuple[Turn | None, Status]:
    """The best play phase for ``hand`` (see the module docstring): ``contract`` is
    the contract to lay for a player not yet down, None for a player who is down.
    ``limit`` bounds the CP-SAT solve (the defaults when None); ``danger`` rates a
    discard onto the table after the turn (lower is safer);
    ``cards_first`` puts the fewest cards left before the fewest points (a bot knob).

    Returns (None, OPTIMAL) when no play ends the turn legally (proven), (None,
    UNKNOWN) when the search stopped before finding one (or the clock had run out).
    """
    limit = Limit() if limit is None else limit
    if limit.out_of_time():
        # Not worth building a model no solve will search.
        return None, note_status(Status.UNKNOWN)
    hm = HandModel(rules, hand, unseen)
    out = add_turn(hm, contract, table)
    played = sum(hm.points(use) for use in Use)
    points_left = hm.hand_points() - played + rules.joker_points * hm.swaps()
    most_points = hm.hand_points() + rules.joker_points * hm.swappable
    goals = [
        (points_left, most_points),
        (cards_after(hm), sum(hand.values()) + hm.swappable),
    ]
    if cards_first:
        goals.reverse()
    hm.model.minimize(lexicographic([(-out, 1), *goals, *tie_breaks(hm)]))
    code, engine = solve_model(hm, limit, effort)
    if code == cp_model.INFEASIBLE:
        return None, Status.OPTIMAL
    # Noted for a bot game's status (solver.cpsat.solve_statuses).
    status = note_status(Status.of(code))
    if status is Status.UNKNOWN:
        return None, status
    value = engine.value
    twos = TwoPool(hm, value)
    melds = contract_melds(hm, value, twos)
    done = swaps(hm, value)
    plays = lay_offs(hm, value, twos)
    laid = [c for m in melds for c in m.cards]
    after_melds = cards_left(hm, laid, done)
    left = cards_left(hm, laid + [p.card for p in plays], done)
    swapped = tuple(swapped_meld(m, [s for s in done if s.meld == i]) for i, m in enumerate(table))
    go: GoDown | None = None
    before_lay_offs = sorted(hand.elements())
    if contract is not None:
        before_lay_offs = after_melds
        go = GoDown(
            melds=tuple(melds),
            swaps=tuple(done),
            left=tuple(after_melds),
            penalty_left=penalty(after_melds, rules),
            table=swapped + tuple(melds),
            status=status,
        )
    most_left = 1 if rules.go_out_by_discard else 0
    goes_out = len(left) <= most_left
    lay = LayOffs(
        plays=tuple(plays),
        swaps=() if contract is not None else tuple(done),
        left=tuple(left),
        points_shed=penalty(before_lay_offs, rules) - penalty(left, rules),
        can_go_out=goes_out,
        status=status,
    )
    after = laid_table(swapped, plays) + tuple(melds)
    proven = status is Status.OPTIMAL
    rate = None if danger is None else (lambda card: danger(card, after))
    discard = None if not left else choose_discard(left, after, rules, goes_out, proven, rate)
    kept = list(left)
    if discard is not None:
        kept.remove(discard.card)
    return Turn(go, lay, discard, tuple(kept), penalty(kept, rules), after, status), status


def turn_reach(
    hand: Counter[Card],
    contract: Contract | None,
    table: tuple[Meld, ...],
    unseen: Counter[Card],
    rules: Rules,
    limit: Limit,
) -> tuple[bool | None, Status]:
    """Whether the play phase for ``hand`` goes out, where only that is asked (the
    draw phase's questions): the model of :func:`solve_turn` with its first goal
    alone, so the search stops once it has proven whether a play goes out, without
    ordering the plays by points, cards, jokers and swaps it would not report.

    Returns (None, OPTIMAL) when no play ends the turn legally (proven), (None,
    UNKNOWN) when the search stopped before finding one; else (goes out, status), a
    FEASIBLE status when the search stopped before proving that no play goes out.
    ``limit`` bounds the solve as in :func:`solve_turn`.
    """
    if limit.out_of_time():
        return None, note_status(Status.UNKNOWN)
    hm = HandModel(rules, hand, unseen)
    out = add_turn(hm, contract, table)
    if cannot_go_out(hand, contract, table, rules):
        # Proven by counting: only whether any play ends the turn is left to search,
        # a question of feasibility, which ends at the first play found.
        hm.model.add(out == 0)
    else:
        hm.model.maximize(out)
    code, engine = solve_model(hm, limit)
    if code == cp_model.INFEASIBLE:
        return None, Status.OPTIMAL
    status = note_status(Status.of(code))
    if status is Status.UNKNOWN:
        return None, status
    # As solve_turn's Turn.goes_out says it: of the plays found (the same at the
    # optimum; a search stopped early may have found a play that goes out by discarding
    # with ``out`` left unset).
    most_left = 1 if rules.go_out_by_discard else 0
    return engine.value(cards_after(hm)) <= most_left, status


def drawn_cards(
    hand: Counter[Card],
    contract: Contract | None,
    table: tuple[Meld, ...],
    unseen: Counter[Card],
    rules: Rules,
    candidates: list[Card],
    *,
    out: bool,
    limit: Limit | None = None,
) -> tuple[set[Card], Status]:
    """Which of ``candidates`` (unseen cards), drawn into ``hand``, let the play phase
    go out (``out``), or go down at all (not ``out``; ``contract`` given).

    One model with the drawn card as a choice
    (:func:`~solver.shanghai.model.add_drawn_card`), solved again with each card
    found ruled out until none is left: as many solves as cards found, plus one,
    each within ``limit`` (the defaults when None). UNKNOWN when a solve stopped
    early (the set found is then a subset), or when the clock had run out before.
    """
    if out:
        # The cards proven by counting not to let the play go out need no search: the
        # search that proves the last of them cannot is the costliest.
        candidates = [
            c for c in candidates if not cannot_go_out(hand + Counter((c,)), contract, table, rules)
        ]
    if not candidates:
        return set(), Status.OPTIMAL
    limit = Limit() if limit is None else limit
    if limit.out_of_time():
        # Not worth building a model no solve will search.
        return set(), note_status(Status.UNKNOWN)
    hm = HandModel(rules, hand + Counter(candidates), unseen)
    add_drawn_card(hm, hand, candidates)
    goes_out = add_turn(hm, contract, table)
    if out:
        hm.model.add(goes_out == 1)
    found, status = drawn_cards_found(hm, limit)
    # Noted for a bot game's status (solver.cpsat.solve_statuses), as the turn's and the
    # deficiency's solves are: a down bot's draw asks this, and a game whose solves here
    # stopped early was said to have had every solve proven.
    return found, note_status(status)


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
        if any(n > 0 and stands_in(c, meld.stands_for[i]) for c, n in hand.items())
    )
    more = hand.copy()
    more[JOKER] += swappable
    return lower_bound(more, shape_of(contract, rules)) == 0


def stands_in(card: Card, place: Card) -> bool:
    """Whether ``card`` is the natural card for a joker's ``place`` (a set place takes
    any card of its rank)."""
    if card.is_joker:
        return False
    return card == place or (place.suit is None and card.rank == place.rank)


def choose_discard(
    left: Sequence[Card],
    table: Sequence[Meld],
    rules: Rules,
    goes_out: bool = False,
    proven: bool = True,
    danger: Callable[[Card], int] | None = None,
) -> Discard:
    """The discard from ``left``, the cards in hand after the plays, with ``table`` the
    melds as they stand after the turn (see the module docstring). ``proven`` says
    whether the plays are proven best (else the reason says less); ``danger``, when
    given, ranks the candidates before their points (lowest first)."""
    if goes_out:
        card = left[0]
        return Discard(
            card,
            _(
                "Discard {card}, your last card, and go out (these rules allow going out by"
                " discarding).",
                card=card,
            ),
        )
    dead = [c for c in left if not fits_table(c, table, rules)]
    live = [c for c in left if c not in dead]
    pool = dead or list(left)
    rate = {c: danger(c) if danger else 0 for c in pool}
    card = min(pool, key=lambda c: (rate[c], -rules.points(c), pool.index(c)))
    points = rules.points(card)
    if danger:
        order = _(
            "the lowest danger ({danger}, a heuristic), then the most points ({points})",
            danger=rate[card],
            points=points,
        )
    else:
        order = _("the most points ({points})", points=points)
    if dead:
        values = {"card": card, "left": format_cards(left), "dead": format_cards(dead)}
        if live:
            reason = _n(
                "Discard {card}: of the cards left after the plays ({left}), {dead} cannot be"
                " laid off on any meld as the table stands after this turn; of those it has"
                " {order}; {live} can be laid off, so keep it.",
                "Discard {card}: of the cards left after the plays ({left}), {dead} cannot be"
                " laid off on any meld as the table stands after this turn; of those it has"
                " {order}; {live} can be laid off, so keep them.",
                len(live),
                order=order,
                live=format_cards(live),
                **values,
            )
        else:
            reason = _(
                "Discard {card}: of the cards left after the plays ({left}), {dead} cannot be"
                " laid off on any meld as the table stands after this turn; of those it has"
                " {order}.",
                order=order,
                **values,
            )
        return Discard(card, reason, danger=rate[card] if danger else None)
    if proven:
        reason = _(
            "Discard {card}: each card left after the plays ({left}) could be laid off on the"
            " table on its own, but they cannot all be laid this turn; of them it has {order}.",
            card=card,
            left=format_cards(left),
            order=order,
        )
    else:
        reason = _(
            "Discard {card}: each card left after the plays ({left}) could be laid off on the"
            " table on its own, but the search found no way to lay all; of them it has"
            " {order}.",
            card=card,
            left=format_cards(left),
            order=order,
        )
    return Discard(
        card,
        reason,
        danger=rate[card] if danger else None,
    )

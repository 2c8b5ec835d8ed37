"""The draw phase: take the upcard, draw from the stock, or buy the upcard.

The hand is the hand *before* drawing. Each option is weighed by what follows it,
with figures computed exactly unless a search stops at its limit (expectations are
over the unseen cards, each equally likely to be the stock card drawn):

* ``take``: the upcard joins the hand; the deficiency after, and whether the play
  phase that follows can go down and go out (solved).
* ``draw``: a stock card joins the hand; the expected deficiency, and the chances
  that the play phase can go down and go out (each unseen card solved where it
  could make a difference; for a player who is down, the cards that can never be
  laid off alike, one solved for all under ``go_out_by_discard``, since such a card
  is discarded to go out when the rest is laid off).
* ``buy`` (out of turn, a player not down with a buy left): the upcard and
  ``buy_penalty_cards`` stock cards join the hand; the expected deficiency after
  all of them, and the points they bring (no play follows a buy).

The decisions are stated heuristics over those figures:

* **take** (not down): when taking lets the player go out this turn; else when it
  lets them go down this turn and a stock card might not; else when it lowers the
  deficiency. **take** (down): when taking goes out; else draw when a stock card
  could go out; else take when the upcard can be laid off on the table.
* **buy**: when a buy is left and the upcard lowers the deficiency; players who are
  down cannot buy.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

from solver.cpsat import Limit, Status
from solver.i18n import _, _n, percent_text
from solver.shanghai.bound import lower_bound, shape_of
from solver.shanghai.contracts import Contract
from solver.shanghai.deficiency import Study
from solver.shanghai.lay_offs import fits_table
from solver.shanghai.melds import Meld, MeldKind
from solver.shanghai.notation import ACE, JOKER, Card, Suit
from solver.shanghai.phase_budget import what_stopped
from solver.shanghai.rules import Rules
from solver.shanghai.scoring import penalty
from solver.shanghai.search import could_go_down, drawn_cards, stands_in, turn_reach


@dataclass(frozen=True, slots=True)
class UpcardAdvice:
    """Whether to take (or buy) the upcard, the rule used with its figures, and the
    deficiencies compared (None when not used)."""

    yes: bool
    rule: str
    deficiency_now: int | None = None
    deficiency_with: int | None = None


@dataclass(frozen=True, slots=True)
class DrawOption:
    """What one way of drawing leads to (expected values over the unseen cards).

    ``deficiency``: expected deficiency once the cards are in (None once down, or
    when not worked out); ``points``: expected penalty points of the hand then (None
    when the unseen cards are fewer than the stock cards the option draws: the stock
    is then made again from the discard pile, cards in ``seen``, which the advice does
    not model); ``go_down`` and ``go_out``: chances that the play phase right after
    goes down and goes out (None for a buy, after which no play follows, and for a
    draw with no unseen card); ``chances_proven``:
    False when a search stopped at its limit, the chances then counting only the
    cards found in time to let the play go down or out (at least that much).
    """

    action: str
    cards: int
    deficiency: float | None
    points: float | None
    go_down: float | None
    go_out: float | None
    chances_proven: bool = True

    def __post_init__(self) -> None:
        # Floats even where sure (a take's goes-out is True or False): the answer's
        # model declares them so, and JSON wrote 1 beside the draw's 1.0.
        for name in ("deficiency", "points", "go_down", "go_out"):
            if (value := getattr(self, name)) is not None:
                object.__setattr__(self, name, float(value))


@dataclass(frozen=True, slots=True)
class DrawAdvice:
    take: UpcardAdvice | None
    buy: UpcardAdvice | None
    options: tuple[DrawOption, ...]
    status: Status
    notes: tuple[str, ...] = ()
    """Why figures are missing: the unseen cards cannot supply the stock cards."""


@dataclass
class Draw:
    """One draw-phase question: the hand before drawing and what the player knows."""

    hand: Counter[Card]
    contract: Contract | None
    """The contract of a player not down; None once down (the turn is solved without
    it)."""
    down: bool
    table: tuple[Meld, ...]
    unseen: Counter[Card]
    rules: Rules
    limit: Limit
    """Seconds and threads for each CP-SAT solve."""
    study: Study | None
    status: Status = Status.OPTIMAL

    @property
    def stopped(self) -> str:
        """What stopped a search of this advice first, for a figure left unproven
        (:func:`~solver.shanghai.phase_budget.what_stopped`)."""
        return what_stopped(self.limit)

    @property
    def needed(self) -> Contract:
        """The contract of a player not down, which every question of going down asks
        (:class:`~solver.shanghai.advice.advise` gives one then)."""
        assert self.contract is not None, "a player not down has a contract"
        return self.contract

    def study_of(self, hand: Counter[Card], unseen: Counter[Card]) -> Study:
        study = Study(hand, self.needed, unseen, self.rules, limit=self.limit)
        self.status = self.status.worst(study.status)
        return study

    def reach(self, hand: Counter[Card], unseen: Counter[Card]) -> tuple[bool | None, Status]:
        """Whether the play phase for ``hand`` after the draw goes out (None: no play),
        and its status (None, OPTIMAL: no play, proven); only that is searched
        (:func:`~solver.shanghai.search.turn_reach`), not the best plays."""
        contract = None if self.down else self.needed
        if contract is not None and not could_go_down(hand, contract, self.table, self.rules):
            return None, Status.OPTIMAL
        out, status = turn_reach(hand, contract, self.table, unseen, self.rules, self.limit)
        self.status = self.status.worst(status)
        return out, status

    def play(self, hand: Counter[Card], unseen: Counter[Card]) -> tuple[bool, bool, bool]:
        """(goes down, goes out, proven) in the play phase for ``hand`` after the draw:
        not proven when the search stopped before finding a play (none was found, but
        one may exist)."""
        out, status = self.reach(hand, unseen)
        found = out is not None
        return (found and not self.down, bool(out), found or status is Status.OPTIMAL)

    def which(
        self, contract: Contract | None, candidates: list[Card], *, out: bool
    ) -> tuple[set[Card], Status]:
        """The ``candidates`` that, drawn, let the play go out (or go down)."""
        found, status = drawn_cards(
            self.hand,
            contract,
            self.table,
            self.unseen,
            self.rules,
            candidates,
            out=out,
            limit=self.limit,
        )
        self.status = self.status.worst(status)
        return found, status

    @cached_property
    def hopeless(self) -> bool:
        """No single card lets a player not down go down (proven): even the hand plus
        a joker for the card and one for every table joker it could swap has a
        deficiency bound above 0."""
        more = self.hand.copy()
        more[JOKER] += 1 + sum(len(m.joker_places()) for m in self.table)
        return lower_bound(more, shape_of(self.needed, self.rules)) > 0


def draw_advice(draw: Draw, upcard: Card | None, buys_left: int) -> DrawAdvice:
    """The draw-phase advice (see the module docstring)."""
    rules = draw.rules
    # The upcard's option first: one search of the turn settles it, where the stock's
    # may take one for each drawn card that could matter; on the phase's shared budget
    # (phase_budget.DRAW) those asked first would otherwise leave the take unproven
    # (2S JK AH 2H 3H 4H with AS up, twos wild, two runs of 3: ten searches of the
    # stock's outs spent the budget before the take's one).
    take_option: DrawOption | None = None
    after: Study | None = None
    if upcard is not None:
        taken = draw.hand.copy()
        taken[upcard] += 1
        after = draw.study_of(taken, draw.unseen) if not draw.down else None
        down, out, proven = draw.play(taken, draw.unseen)
        points = penalty(draw.hand.elements(), rules) + rules.points(upcard)
        short = None if after is None else after.value
        take_option = DrawOption("take", 1, short, points, None if draw.down else down, out, proven)
    stock = _stock_option(draw)
    options = [stock]
    take: UpcardAdvice | None = None
    buy: UpcardAdvice | None = None
    notes: list[str] = []
    if not draw.unseen.total():
        notes.append(_no_stock_note())
    if upcard is not None:
        assert take_option is not None
        options.insert(0, take_option)
        take = _take(draw, upcard, take_option, stock, after, take_option.chances_proven)
        if draw.down:
            buy = UpcardAdvice(False, _("Players who are down cannot buy."))
        else:
            assert after is not None
            buy_option = buy_option_of(draw, upcard, after)
            options.append(buy_option)
            buy = _buy(draw, upcard, after, buy_option, buys_left)
            if buy_option.points is None:
                notes.append(_short_penalty_note(draw))
    return DrawAdvice(take, buy, tuple(options), draw.status, tuple(notes))


def _no_stock_note() -> str:
    return _(
        "No card is unseen (hand, table, upcard, seen and next_player.took hold every card"
        " of the game), so the stock is empty: a draw would take a card of the discard pile"
        " shuffled into a new stock, and which cards of seen that pile holds is not known."
        " The draw's expected figures and chances are not given."
    )


def _short_penalty_note(draw: Draw) -> str:
    return _n(
        "The unseen cards ({unseen}) are fewer than the {n} penalty card a buy takes from"
        " the stock: the rest would come from the discard pile shuffled into a new stock"
        " (cards of seen), and which ones is not known. The buy's expected deficiency and"
        " points are not given.",
        "The unseen cards ({unseen}) are fewer than the {n} penalty cards a buy takes from"
        " the stock: the rest would come from the discard pile shuffled into a new stock"
        " (cards of seen), and which ones is not known. The buy's expected deficiency and"
        " points are not given.",
        draw.rules.buy_penalty_cards,
        unseen=draw.unseen.total(),
    )


def _expect(unseen: Counter[Card], value: Callable[[Card], float]) -> float:
    total = unseen.total()
    return sum(n * value(card) for card, n in sorted(unseen.items())) / total if total else 0.0


def _stock_option(draw: Draw) -> DrawOption:
    unseen = +draw.unseen
    rules = draw.rules
    if not unseen:
        # No unseen card: the stock is empty and would be made again from the discard
        # pile, whose cards ``seen`` holds among others: no figure over it is honest
        # (the hand's points unchanged, "chance 0%" of going down).
        return DrawOption("draw", 1, None, None, None, None)
    points = penalty(draw.hand.elements(), rules) + _expect(unseen, rules.points)
    short: float | None = None
    study = draw.study
    # Only of a proven deficiency: "lowers it" of a figure a search left as the fewest
    # found is not checked (the chance read "100% (exact ...)" beside "at most 10").
    if study is not None and study.value is not None and study.settled:
        lowered = {card: study.lowered_by(card) for card in unseen}
        draw.status = draw.status.worst(study.status)
        if all(v is not None for v in lowered.values()):
            short = study.value - _expect(unseen, lambda c: float(bool(lowered[c])))
    outcomes, proven = _outcomes(draw, unseen)
    go_down = None if draw.down else _expect(unseen, lambda c: float(outcomes[c][0]))
    go_out = _expect(unseen, lambda c: float(outcomes[c][1]))
    return DrawOption("draw", 1, short, points, go_down, go_out, proven)


def _outcomes(draw: Draw, unseen: Counter[Card]) -> tuple[dict[Card, tuple[bool, bool]], bool]:
    """(goes down, goes out) after drawing each unseen card: the cards that could
    change anything solved together (:func:`~solver.shanghai.search.drawn_cards`), the
    rest settled by the rules (see the helpers); and whether every solve finished
    (if not, the cards found are only some of those that let the play go down or
    out)."""
    cards = sorted(unseen)
    if not draw.down and draw.hopeless:
        return dict.fromkeys(cards, (False, False)), True
    every_down = False
    related = cards
    dead: list[Card] = []
    contract = None if draw.down else draw.needed
    if draw.down:
        reach = reachable(draw.hand, draw.table, draw.rules)
        related = [c for c in cards if draw.rules.is_wild(c) or c in reach]
        if draw.rules.go_out_by_discard:
            # A card that can never be laid off can still be discarded to go out, when
            # the rest of the hand is all laid off: every such card alike, so the first
            # is solved for all of them.
            dead = [c for c in cards if c not in related]
            related += dead[:1]
    else:
        out, _status = draw.reach(draw.hand, unseen)
        if out is False:
            # The hand alone goes down keeping two cards or more: with one card more it
            # still can (the same plays, that card kept), and it can go out only if the
            # new card joins a meld with cards of the hand: not only those the best
            # plays leave, for the hand may be laid out anew (5H 2H 2S 3H 2D 4S JK JK,
            # twos wild, a set and a run of 3, leaves 3H 5H; a 4D drawn goes out with
            # 4S and a wild card, which frees another for 3H JK 5H).
            every_down = True
            held = tuple(draw.hand.elements())
            wilds = sum(1 for c in held if draw.rules.is_wild(c))
            related = [c for c in cards if _near(c, held, wilds, draw.table, draw.rules)]
    downs: set[Card] = set(cards) if every_down or draw.down else set()
    status = Status.OPTIMAL
    if not every_down and not draw.down:
        downs, undecided = _downs_from_deficiency(draw, cards)
        if undecided:
            found, status = draw.which(contract, undecided, out=False)
            downs |= found
        related = sorted(downs)
    outs, out_status = draw.which(contract, related, out=True)
    if dead and dead[0] in outs:
        outs |= set(dead)
    outcomes = {c: (c in downs and not draw.down, c in outs) for c in cards}
    return outcomes, status.worst(out_status) is Status.OPTIMAL


def _downs_from_deficiency(draw: Draw, cards: list[Card]) -> tuple[set[Card], list[Card]]:
    """The cards that, drawn, let a player not down go down, as far as the deficiency
    tells (the cards proven to), and the cards it leaves undecided (for a solve):
    a hand that meets the contract with its melds at their minimum sizes goes down
    legally unless exactly one card would be left, so a card after which the
    deficiency is 0 lets it, when the hand and the card hold at most one wild card
    (then every meld shrinks to its minimum size within the wild-card limit; with two
    the limit may ask a longer meld, ``3C JK 5C JK JK 8C`` for a run of 5, which may
    leave exactly one card: such a card is undecided); without a table joker to swap,
    going down needs a deficiency of 0, so no other card does; with one, a card that passes
    :func:`~solver.shanghai.search.could_go_down` is undecided."""
    study = draw.study
    swaps = any(m.joker_places() for m in draw.table)
    wilds = sum(n for card, n in draw.hand.items() if n > 0 and draw.rules.is_wild(card))
    lowered: dict[Card, bool | None] = dict.fromkeys(cards)
    if (
        study is not None
        and study.value is not None
        and draw.hand.total() + 1 - draw.needed.cards != 1
    ):
        if study.value == 0:
            lowered = dict.fromkeys(cards, True)
        elif study.value == 1:
            lowered = {card: study.lowered_by(card) for card in cards}
        elif not swaps:
            return set(), []
        else:
            lowered = dict.fromkeys(cards, False)

    def minimal(card: Card) -> bool:
        return wilds + draw.rules.is_wild(card) <= 1

    found = {card for card, lowers in lowered.items() if lowers and minimal(card)}
    undecided = [
        card
        for card, lowers in lowered.items()
        if (lowers is None or (lowers and not minimal(card)) or (lowers is False and swaps))
        # Past the clock a card is left to the solve, which then does not start (the
        # answer cut) rather than read in Python: 55 of these took 0.1 s of 8 decks.
        and (
            draw.limit.clock_ran_out()
            or could_go_down(draw.hand + Counter([card]), draw.needed, draw.table, draw.rules)
        )
    ]
    return found, undecided


def _near(
    card: Card, cards: tuple[Card, ...], wilds: int, table: tuple[Meld, ...], rules: Rules
) -> bool:
    """Whether ``card`` could be placed together with one of ``cards``: a wild card,
    the same rank, or the same suit close enough (in run places: with ``ace_low`` an
    ace is next to the two) for a run through the hand's wild cards and the cards
    themselves. A wild card among ``cards`` goes with any card (``8D`` drawn to ``3D
    2S 5D JK JK`` under twos_wild takes the wild ``2S`` left over into the run), and so
    does a table joker that ``card`` or one of ``cards`` could be swapped for: the
    joker taken is a wild card in hand (``6H`` drawn, swapped for the joker of ``5H
    JK 7H 8H``, fills ``QD`` for ``KD AD`` left beside ``8D 9D 10D JD``)."""
    if rules.is_wild(card) or any(rules.is_wild(c) for c in cards):
        return True
    if any(_swaps_in(c, table) for c in (card, *cards)):
        return True
    reach = wilds + len(cards) + 1
    return any(
        c.rank == card.rank or (c.suit == card.suit and _apart(c, card, rules) <= reach)
        for c in cards
        if not c.is_joker
    )


def _swaps_in(card: Card, table: tuple[Meld, ...]) -> bool:
    """Whether ``card`` could be given for a joker on ``table``."""
    return any(stands_in(card, meld.stands_for[i]) for meld in table for i in meld.joker_places())


def _apart(one: Card, other: Card, rules: Rules) -> int:
    """How many run places apart two cards of one suit stand at the closest (an ace
    is place 14 and, with ``ace_low``, place 1)."""

    def places(card: Card) -> tuple[int, ...]:
        return (1, 14) if card.rank == ACE and rules.ace_low else (card.rank,)

    return min(abs(a - b) for a in places(one) for b in places(other))


def reachable(hand: Counter[Card], table: tuple[Meld, ...], rules: Rules) -> set[Card]:
    """Every natural card a player who is down could lay off this turn, holding
    ``hand`` and that card (a superset, which is what matters: a card outside it can
    never be laid off): any card of a table set's rank; on a run, the places beyond
    each end up to the first place that neither a card of the hand nor one of its
    wild cards (or a joker swapped from the table) could fill; and the card a table
    joker stands for (a swap)."""
    found: set[Card] = set()
    wilds = sum(n for c, n in hand.items() if rules.is_wild(c))
    wilds += sum(len(m.joker_places()) for m in table)
    for meld in table:
        for i in meld.joker_places():
            if meld.stands_for[i].suit is not None:
                found.add(meld.stands_for[i])
        if meld.kind is MeldKind.SET:
            found.update(Card(meld.rank, suit) for suit in Suit)
            continue
        for step, start in ((-1, meld.first_place - 1), (1, meld.last_place + 1)):
            spare, held = wilds, hand.copy()
            place = start
            while rules.lowest_place <= place <= 14:
                card = Card(rules.rank_at(place), meld.suit)
                found.add(card)
                if held[card] > 0:
                    held[card] -= 1
                elif spare:
                    spare -= 1
                else:
                    break
                place += step
    return found


def buy_option_of(draw: Draw, upcard: Card, after: Study) -> DrawOption:
    """The upcard and the penalty cards: the deficiency with the upcard (exact), less,
    for each penalty card, the chance that one stock card lowers it (an estimate: a
    second card may open or close outs the first did not)."""
    rules = draw.rules
    unseen = +draw.unseen
    extra = rules.buy_penalty_cards
    if unseen.total() < extra:
        # The stock cannot hold the penalty cards: the rest come from the discard pile
        # shuffled into a new stock (or none), not from the unseen cards.
        return DrawOption("buy", 1 + extra, None, None, None, None)
    points = (
        penalty(draw.hand.elements(), rules)
        + rules.points(upcard)
        + extra * _expect(unseen, rules.points)
    )
    short: float | None = None
    if after.value is not None:
        lowers = [after.lowered_by(card) for card in sorted(unseen)]
        draw.status = draw.status.worst(after.status)
        if None not in lowers:
            chance = _expect(unseen, lambda c: float(bool(after.lowered_by(c))))
            short = max(0.0, after.value - extra * chance)
    return DrawOption("buy", 1 + extra, short, points, None, None)


def _percent(chance: float | None, *, at_least: bool = False) -> str:
    return "?" if chance is None else percent_text(chance, at_least=at_least)


def _take(
    draw: Draw,
    upcard: Card,
    take: DrawOption,
    stock: DrawOption,
    study: Study | None,
    proven: bool,
) -> UpcardAdvice:
    """``study``: of the hand with the upcard (None once down); ``proven``: whether the
    take's play phase was solved (not stopped before finding a play)."""
    now = None if draw.study is None else draw.study.value
    after = None if take.deficiency is None else round(take.deficiency)
    if take.go_out:
        return UpcardAdvice(
            True, _("Take {card}: with it you go out this turn (solved).", card=upcard), now, after
        )
    if draw.down:
        return _take_when_down(draw, upcard, stock, proven)
    if take.go_down and (stock.go_down or 0) < 1:
        if not draw.unseen.total():
            rule = _(
                "Take {card}: with it you can go down this turn (solved); no card is unseen"
                " to weigh a stock card by.",
                card=upcard,
            )
        elif stock.chances_proven:
            rule = _(
                "Take {card}: with it you can go down this turn (solved); a stock card would"
                " let you with chance {chance}.",
                card=upcard,
                chance=_percent(stock.go_down),
            )
        else:
            # The cards found in time only: "with chance 9%" where every card decided
            # gave 11%.
            rule = _(
                "Take {card}: with it you can go down this turn (solved); a stock card would"
                " let you with chance at least {chance} (a search stopped before every"
                " unseen card was decided).",
                card=upcard,
                chance=_percent(stock.go_down, at_least=True),
            )
        return UpcardAdvice(True, rule, now, after)
    lowers = now is not None and after is not None and after < now
    if now is None and after is not None:
        lowers = True
    assert draw.study is not None  # not down
    assert study is not None
    change = _change(draw.study, study, draw.stopped)
    chance = _chance_lower(now, stock.deficiency)
    if chance is None and draw.study.beyond_reach:
        chance = 0.0  # proven: no card completes it, so none lowers it
    if not draw.unseen.total():
        odds = _("no card is unseen to weigh a stock card by")
    elif chance is None:
        odds = _(
            "whether a stock card lowers it was not decided for every unseen card ({why})",
            why=draw.stopped,
        )
    else:
        odds = _n(  # "exact over the 1 unseen cards" was said of one
            "a stock card lowers it with chance {chance} (exact over the {n} unseen card)",
            "a stock card lowers it with chance {chance} (exact over the {n} unseen cards)",
            draw.unseen.total(),
            chance=_percent(chance),
        )
    if lowers:
        rule = _("Take: {card} {change}; {odds}.", card=upcard, change=change, odds=odds)
    elif take.go_down:
        rule = _("Draw: {card} {change}; {odds}.", card=upcard, change=change, odds=odds)
    else:
        if proven:
            down = _("{card} does not let you go down this turn (solved)", card=upcard)
        else:
            down = _(
                "whether {card} lets you go down this turn was not decided ({why})",
                card=upcard,
                why=draw.stopped,
            )
        rule = _(
            "Draw: {card} {change}; {odds}, and {down}.",
            card=upcard,
            change=change,
            odds=odds,
            down=down,
        )
    return UpcardAdvice(lowers, rule, now, after)


def _take_when_down(draw: Draw, upcard: Card, stock: DrawOption, proven: bool) -> UpcardAdvice:
    """:func:`_take` for a player who is down, once taking was found not to go out."""
    if not proven or draw.status is not Status.OPTIMAL:
        # A search stopped first: "no card lets you go out" would be no proof.
        return UpcardAdvice(
            False,
            _(
                "Draw: whether {card} or a stock card lets you go out this turn was not"
                " decided ({why}).",
                card=upcard,
                why=draw.stopped,
            ),
        )
    if not draw.unseen.total():
        # No stock card to weigh: "no card lets you go out (every unseen card
        # checked)" would be said of none.
        if fits_table(upcard, draw.table, draw.rules):
            rule = _(
                "Take: {card} does not let you go out this turn (solved), and no card is"
                " unseen to weigh a stock card by; {card} can be laid off on the table as"
                " it stands.",
                card=upcard,
            )
            return UpcardAdvice(True, rule)
        rule = _(
            "Draw: {card} does not let you go out this turn (solved), and no card is"
            " unseen to weigh a stock card by; {card} cannot be laid off on the table as"
            " it stands.",
            card=upcard,
        )
        return UpcardAdvice(False, rule)
    if stock.go_out:
        return UpcardAdvice(
            False,
            _(
                "Draw: {card} does not let you go out this turn (solved); a stock card"
                " does with chance {chance} (every unseen card checked).",
                card=upcard,
                chance=_percent(stock.go_out),
            ),
        )
    if fits_table(upcard, draw.table, draw.rules):
        return UpcardAdvice(
            True,
            _(
                "Take: no card lets you go out this turn (every unseen card and {card}"
                " checked); {card} can be laid off on the table as it stands.",
                card=upcard,
            ),
        )
    return UpcardAdvice(
        False,
        _(
            "Draw: no card lets you go out this turn (every unseen card and {card}"
            " checked); {card} cannot be laid off on the table as it stands.",
            card=upcard,
        ),
    )


def _change(before: Study, after: Study, why: str) -> str:
    """How the deficiency changes from ``before`` to ``after``, said to be exact only
    when both are proven (else ``why`` not: :attr:`Draw.stopped`)."""
    now = _figure(before.value, before.settled, why)
    then = _figure(after.value, after.settled, why)
    if before.settled and after.settled:
        if now == then:
            return _("leaves the deficiency (cards still needed, exact) at {value}", value=now)
        return _(
            "takes the deficiency (cards still needed, exact) from {now} to {after}",
            now=now,
            after=then,
        )
    if now == then:
        return _(
            "leaves the deficiency (cards still needed; not proven: {why}) as it was: {value}",
            value=now,
            why=why,
        )
    return _(
        "takes the deficiency (cards still needed; not every figure proven: {why}) from {now}"
        " to {after}",
        now=now,
        after=then,
        why=why,
    )


def _chance_lower(now: int | None, expected: float | None) -> float | None:
    if now is None or expected is None:
        return None
    return now - expected


def _figure(value: int | float | None, proven: bool = True, why: str = "") -> str:
    """A deficiency figure; not ``proven``: None was not found (``why``: what stopped the
    search before it, :attr:`Draw.stopped`), a number is the best found (at most)."""
    if value is None:
        if proven:
            return _("unknown (the unseen cards cannot complete the contract)")
        return _("unknown (not found: {why})", why=why)
    figure = f"{value:.2f}" if isinstance(value, float) else str(value)
    return figure if proven else _("at most {value}", value=figure)


def _expected(value: float | None, beyond_reach: bool, why: str) -> str:
    """An expected deficiency: "about 1.96", or why there is none (:func:`_figure`)."""
    if value is None:
        return _figure(None, beyond_reach, why)
    return _("about {value}", value=_figure(value))


def _buy(
    draw: Draw, upcard: Card, after: Study, option: DrawOption, buys_left: int
) -> UpcardAdvice:
    now = None if draw.study is None else draw.study.value
    with_up = after.value
    extra = draw.rules.buy_penalty_cards
    if option.points is None:
        figures = _n(
            "with it and the {n} penalty card the expected deficiency and points are not"
            " given (too few unseen cards: see the notes)",
            "with it and the {n} penalty cards the expected deficiency and points are not"
            " given (too few unseen cards: see the notes)",
            extra,
        )
    else:
        figures = _buy_figures(option, after.beyond_reach, extra, draw.stopped)
    if buys_left <= 0:
        return UpcardAdvice(
            False, _("No buys are left this hand; {figures}.", figures=figures), now, with_up
        )
    lowers = with_up is not None and (now is None or with_up < now)
    values = {"card": upcard, "buys": buys_left, "figures": figures}
    assert draw.study is not None  # a player not down
    if not (draw.study.settled and after.settled) or now == with_up:
        # _change words a deficiency left as it was ("leaves ... at 1"), not "from 1 to 1".
        values["change"] = _change(draw.study, after, draw.stopped)
        if lowers:
            rule = _(
                "Buy: {card} {change} (buy when it lowers it and a buy is left, {buys} here);"
                " {figures}.",
                **values,
            )
        else:
            rule = _(
                "Do not buy: {card} {change} (buy when it lowers it and a buy is left, {buys}"
                " here); {figures}.",
                **values,
            )
        return UpcardAdvice(lowers, rule, now, with_up)
    values["now"] = _figure(now)
    values["after"] = _figure(with_up)
    if lowers:
        rule = _(
            "Buy: {card} takes the deficiency (exact) from {now} to {after} (buy when it"
            " lowers it and a buy is left, {buys} here); {figures}.",
            **values,
        )
    else:
        rule = _(
            "Do not buy: {card} takes the deficiency (exact) from {now} to {after} (buy when"
            " it lowers it and a buy is left, {buys} here); {figures}.",
            **values,
        )
    return UpcardAdvice(lowers, rule, now, with_up)


def _buy_figures(option: DrawOption, beyond_reach: bool, extra: int, why: str) -> str:
    """The buy option's expected deficiency and points, for its rule."""
    return _n(
        "with it and the {n} penalty card the expected deficiency is {deficiency}"
        " (each penalty card counted with the chance that one stock card lowers it, an"
        " estimate) and the hand holds {points:.1f} expected points",
        "with it and the {n} penalty cards the expected deficiency is {deficiency}"
        " (each penalty card counted with the chance that one stock card lowers it, an"
        " estimate) and the hand holds {points:.1f} expected points",
        extra,
        deficiency=_expected(option.deficiency, beyond_reach, why),
        points=option.points,
    )

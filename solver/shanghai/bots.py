"""Shanghai bots: ``greedy`` and ``strong`` behind one interface, ``choose(view)``.

A bot sees only a :class:`~solver.shanghai.engine.View` (its own hand, the table,
who is down, hand sizes, buys left, the upcard and the discard pile, the cards each
player took) and answers a :class:`~solver.shanghai.engine.Draw`,
:class:`~solver.shanghai.engine.Buy` or :class:`~solver.shanghai.engine.Play`.
Bots are deterministic: every search they make is bounded by counts or by CP-SAT's
deterministic time (:data:`~solver.shanghai.model.EFFORT`), never by the clock
alone; a move one of whose searches the wall-clock safety cap (:data:`LIMIT`) stopped
is refused (:class:`BotError`), as a Rummikub bot's is.

* ``greedy`` goes down as soon as it can (the turn solved as a whole: swaps,
  lay-offs, going out whenever possible), takes or buys the upcard whenever it
  lowers the deficiency, and discards as the advice does (the lowest deficiency,
  then the lowest danger, then the most outs, then the most points; once down, a
  dead card).
* ``strong`` plays the same exact turns with the knobs :data:`STRONG`: once an
  opponent is down (someone may go out soon) it discards the costliest card that
  keeps its deficiency rather than the one keeping the most outs, and it plans
  each turn for the fewest cards left (then the fewest points), so that it goes
  out sooner. It buys by expected value: what greedy buys, every upcard while
  its hand after a draw is too small to hold the contract (``buy_starved``: hands
  8-10), and an upcard that leaves the deficiency when the buy's penalty cards
  lower the expected penalty at the hand's end (``buy_ev``,
  :func:`expected_penalty`, with stated guesses of the chance that the hand ends
  each turn). Out of reach of the contract (:func:`out_of_reach`) it takes an
  upcard cheaper than a stock card in expectation (``take_low``, :func:`takes_low`).

Knobs for experiments (``strong:KNOB=VALUE+...``), not in :data:`STRONG` because
together they did not measure better (benchmarks/RESULTS.md, section 6):
``live_discards`` (once down, of the dead cards the safest, then the one of the
most expected penalty: its points times the chance that no unseen card that would
open a place for it on a run comes in :data:`DRAWS_AHEAD` draws), ``outs_first``
(not down and no opponent down: most outs before lowest danger),
``closing_cards`` with ``abandon_short`` (an opponent down with few cards: buy only
an upcard that meets the contract; shed the costliest card when far short), and
the buy knobs. ``python -m benchmarks.shanghai_bots`` measures any of them against
``greedy``.
"""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from solver.arguments import checked
from solver.cpsat import Budget, Limit
from solver.errors import MeldwiseError
from solver.i18n import _, listed
from solver.settings import read_knobs
from solver.shanghai.contracts import most_cards
from solver.shanghai.danger import danger
from solver.shanghai.deficiency import Study, best_discard
from solver.shanghai.draw import Draw as DrawQuestion
from solver.shanghai.draw import buy_option_of, draw_advice
from solver.shanghai.engine import Buy, Draw, LayOffMove, Move, Play, Step, SwapMove, View
from solver.shanghai.lay_offs import fits_table
from solver.shanghai.melds import Meld, MeldKind
from solver.shanghai.notation import ACE, JOKER, Card
from solver.shanghai.position import NextPlayer
from solver.shanghai.result import Turn
from solver.shanghai.rules import MAX_RUN_LEN, Rules
from solver.shanghai.scoring import penalty
from solver.shanghai.search import could_go_down, solve_turn

LIMIT = Limit(10.0)
"""Wall-clock cap of a bot's CP-SAT solve: a safety net far above the deterministic
effort that really bounds it (a turn of 8 decks, 30 cards dealt and wild twos took
2.7 s); a solve it stops makes the move a :class:`BotError`."""

MOVE_SOLVES = 32
"""CP-SAT solves the deficiency questions of one bot move may start (its own play's
solve aside): a deterministic bound on a move (the kernel's
:class:`~solver.cpsat.Budget`). In the standard
game a move asks at most one; a discard far from a contract of 13-card runs asked 166."""
MOVE_WORK = 0.5
"""CP-SAT deterministic work those solves may share (a solve may take up to
:data:`~solver.shanghai.model.EFFORT`, 1.0): a discard of ``min_run_len=13`` hand 9
spent up to 1.4 s on a dozen of them."""


class UnknownBot(MeldwiseError):
    """A bot name this game does not have."""


class BotError(MeldwiseError):
    """A bot could not decide deterministically: a solve its move needs was stopped
    by the wall-clock safety cap (:data:`LIMIT`), which a rerun on another machine or
    load might not repeat. A refusal in words, as bad input is (exit code 2, a 422).
    The move was once made all the same, the game's status saying only that a search
    had stopped at its limit, as a deterministic bound's stop is said."""


def move_limit(budget: Budget | None) -> Limit:
    """The limit of one move's solves, drawing on ``budget``: each solve within
    :data:`LIMIT`'s seconds, as before, under a shared clock set past what all of a
    move's solves could take (so it never binds), which lets :attr:`Limit.capped` say
    whether the cap stopped any of them."""
    never = time.perf_counter() + LIMIT.time * (MOVE_SOLVES + 2)
    return Limit(LIMIT.time, deadline=never, budget=budget)


@dataclass(frozen=True, slots=True)
class Policy:
    """The knobs of a bot (``greedy`` is the default of every knob but the first)."""

    buy_short: int = 99
    """Buy only when the deficiency with the upcard is at most this."""
    threat_cards: int = 0
    """Discard by points before outs once an opponent who is down holds at most this
    many cards (0: never)."""
    take_to_lay: bool = False
    """With the contract met, take an upcard that the play right after lays down."""
    buy_early: bool = False
    """While no opponent is down, buy any upcard (a buy left, the contract not met)."""
    points_first: bool = False
    """Always discard by points before outs (among discards keeping the deficiency)."""
    cards_first: bool = False
    """Plan turns for the fewest cards left, then the fewest points (not the reverse)."""
    abandon_short: int = 0
    """Once the hand is closing (``closing_cards``), discard the costliest card
    outright while this many cards or more short (0: never)."""
    closing_cards: int = 0
    """An opponent who is down holding at most this many cards closes the hand (they
    may go out any turn): then buy only an upcard that meets the contract, since the
    two extra cards are likely to count against you (0: never closing)."""
    buy_any: bool = False
    """Buy any upcard offered while the contract is not met (a buy left)."""
    buy_threat_cards: int = 0
    """Buy nothing once an opponent who is down holds at most this many cards (0:
    buy regardless)."""
    live_discards: bool = False
    """Once down, discard the dead card of the most expected penalty (its points times
    the chance no bridging card comes in :data:`DRAWS_AHEAD` draws), not simply the
    costliest."""
    outs_first: bool = False
    """Not down and not threatened, rank discards keeping the deficiency by their outs
    before their danger (the advice ranks danger first)."""
    buy_starved: bool = False
    """Buy every upcard while the hand after a draw is smaller than the contract
    (hands 8-10 with 11 cards: no play goes down without buying)."""
    shed_safely: bool = True
    """Out of reach of the contract (:func:`out_of_reach`), shed the costliest card of
    the lowest danger (False: the first costliest card in card order, whatever its
    danger)."""
    take_low: bool = False
    """Out of reach of the contract (:func:`out_of_reach`), take the upcard when that
    leaves the hand fewer points in expectation than a stock card
    (:func:`takes_low`), rather than always drawing."""
    buy_ev: bool = False
    """Buy by expected value (False: greedy's rule alone): what greedy buys (the
    upcard lowers the deficiency), and an upcard that leaves the deficiency when its
    penalty cards lower the expected penalty at the hand's end
    (:func:`expected_penalty`; the deficiency after the buy from the draw advice's
    buy option: each penalty card counted by its chance of lowering it)."""

    @classmethod
    def parse(cls, text: str, base: Policy | None = None) -> Policy:
        """``base`` (the defaults if None) with the knobs of ``name=value+...`` set
        (numbers, or true/false; ``+`` separates them, since a tournament's bot list is
        comma-separated; see :func:`~solver.settings.read_knobs`)."""
        return replace(cls() if base is None else base, **read_knobs(cls, text))


STRONG = Policy(threat_cards=99, cards_first=True, buy_ev=True, buy_starved=True, take_low=True)
"""The knobs ``strong`` plays with (its score against ``greedy``: benchmarks/shanghai_bots.py)."""


class Bot:
    """A Shanghai bot playing exact turns with a :class:`Policy`."""

    def __init__(self, name: str, policy: Policy) -> None:
        self.name = name
        self.policy = policy
        self.limit: Limit = LIMIT
        """The limit of this move's deficiency questions (:data:`MOVE_SOLVES`)."""

    def choose(self, view: View) -> Move:
        view = checked(view, View, "view")
        self.limit = move_limit(Budget(MOVE_SOLVES, MOVE_WORK))
        move = self._choose(view)
        if self.limit.capped:
            raise BotError(
                _(
                    "the bot's search was stopped by its {seconds} s safety cap before its"
                    " fixed amount of work: a move then depends on the machine's speed, so"
                    " none is made",
                    seconds=f"{LIMIT.time:g}",
                )
            )
        return move

    def _choose(self, view: View) -> Move:
        if out_of_reach(view):
            # Proven: this hand's contract is beyond the cards the player can still
            # hold, so no question of the deficiency matters: shed points.
            if view.step is Step.PLAY:
                return Play(discard=shed(view, self.policy.shed_safely))
            if view.step is Step.DRAW:
                return Draw(self.policy.take_low and takes_low(view))
            return Buy(False)
        if view.step is Step.DRAW:
            return Draw(self.take(view))
        if view.step is Step.BUY:
            return Buy(self.buy(view))
        return self.play(view)

    # --- the draw ---------------------------------------------------------------------

    def _study(self, view: View, hand: Counter[Card]) -> Study:
        return Study(
            hand,
            view.contract,
            view.position().unseen(view.rules),
            view.rules,
            limit=self.limit,
        )

    def take(self, view: View) -> bool:
        upcard = view.upcard
        if upcard is None:
            return False
        hand = Counter(view.hand)
        more = hand.copy()
        more[upcard] += 1
        table = tuple(item.meld for item in view.table)
        unseen = view.position().unseen(view.rules)
        if view.down[view.seat]:
            # The advice's rule: take to go out; else draw when a stock card could go out;
            # else take an upcard that can be laid off. Taking one whenever it could be
            # laid off took AS beside the AS in hand, only to discard it again.
            question = DrawQuestion(
                hand, view.contract, True, table, unseen, view.rules, self.limit, None
            )
            take = draw_advice(question, upcard, 0).take
            return take is not None and take.yes
        now = self._study(view, hand).value
        after = self._study(view, more).value
        if after is not None and (now is None or after < now):
            return True
        if self.policy.take_to_lay and now == 0:
            # The contract is met: take the upcard when the play right after lays it.
            turn = self._turn(view, more)
            return turn is not None and upcard not in turn.kept and _played(turn, upcard)
        return False

    def buy(self, view: View) -> bool:
        upcard = view.upcard
        if upcard is None or view.down[view.seat] or view.buys_left[view.seat] <= 0:
            return False
        hand = Counter(view.hand)
        more = hand.copy()
        more[upcard] += 1
        if _threatened(view, self.policy.buy_threat_cards):
            return False
        if self.policy.buy_starved and len(view.hand) + 1 < view.contract.cards:
            # The hand after a draw is too small to hold the contract: no play goes
            # down without a buy, and each buy adds the upcard and the penalty cards.
            return True
        if self.policy.buy_ev:
            return self._buy_by_value(view, hand, more, upcard)
        now = self._study(view, hand).value
        if now != 0 and (
            self.policy.buy_any or (self.policy.buy_early and not _opponents_down(view))
        ):
            return True
        after = self._study(view, more).value
        lowers = after is not None and (now is None or after < now)
        if _threatened(view, self.policy.closing_cards) and after != 0:
            return False
        return lowers and after is not None and after <= self.policy.buy_short

    def _buy_by_value(
        self, view: View, hand: Counter[Card], more: Counter[Card], upcard: Card
    ) -> bool:
        """Whether the buy lowers the expected penalty (see :attr:`Policy.buy_ev`);
        ``more`` is ``hand`` with ``upcard``."""
        now = self._study(view, hand)
        after = self._study(view, more)
        if after.value is None:
            return False
        question = DrawQuestion(
            hand,
            view.contract,
            False,
            tuple(item.meld for item in view.table),
            view.position().unseen(view.rules),
            view.rules,
            self.limit,
            now,
        )
        option = buy_option_of(question, upcard, after)
        if option.deficiency is None or option.points is None:
            return False
        if now.value is None or after.value < now.value:
            return True  # greedy's rule: the upcard itself lowers the deficiency
        points = penalty(hand.elements(), view.rules)
        ends = end_chance(view)
        keep = expected_penalty(now.value, _lowering_chance(now), ends, points, 0.0)
        added = option.points - points
        buy = expected_penalty(
            option.deficiency, _lowering_chance(after), ends, option.points, added
        )
        return buy < keep

    # --- the play ---------------------------------------------------------------------

    def _turn(self, view: View, hand: Counter[Card]) -> Turn | None:
        table = tuple(item.meld for item in view.table)
        down = view.down[view.seat]
        if not down and not could_go_down(hand, view.contract, table, view.rules):
            return None
        nxt = NextPlayer(view.down[view.next_seat], view.took[view.next_seat])

        def rate(card: Card, melds: Sequence[Meld]) -> int:
            return danger(card, melds, nxt, view.rules)

        turn, _ = solve_turn(
            hand,
            None if down else view.contract,
            table,
            view.position().unseen(view.rules),
            view.rules,
            # The move's clock (watched for the safety cap), not its budget of questions.
            limit=replace(self.limit, budget=None),
            danger=rate,
            cards_first=self.policy.cards_first,
        )
        return turn

    def play(self, view: View) -> Play:
        hand = Counter(view.hand)
        turn = self._turn(view, hand)
        if turn is not None:
            move = play_of(turn)
            if self.policy.live_discards and turn.discard is not None:
                move = replace(move, discard=_live_discard(turn, turn.discard.card, view))
            return move
        study = self._study(view, hand)
        threatened = _threatened(view, self.policy.threat_cards)
        short = study.value
        if (
            _threatened(view, self.policy.closing_cards)
            and self.policy.abandon_short
            and (short is None or short >= self.policy.abandon_short)
        ):
            card = max(sorted(study.hand), key=view.rules.points)
        elif threatened or self.policy.points_first:
            card = _costliest_keeping(study, view)
        elif self.policy.outs_first and (livest := _livest_keeping(study, view)) is not None:
            card = livest
        else:
            found = best_discard(study, _danger_now(view))
            card = found.card if found is not None else max(view.hand, key=view.rules.points)
        return Play(discard=card)


def out_of_reach(view: View) -> bool:
    """Proven: the player to move, not down, can never hold as many cards as the
    contract lays this hand. A turn's draw and discard leave the hand's size as it is
    after the draw, so the most it can reach is that size plus, for each buy it can
    still make (:attr:`View.buys_ahead`), the upcard and the penalty cards (the 13-card
    runs of ``min_run_len=13`` in hand 7 ask 39 cards of at most 21; every turn of its
    200 asked the deficiency). With two players only the hand's first upcard can be
    bought: in hands 8-10 the player who did not buy it holds 12 cards after a draw,
    short of 13-15, and every one of its turns asked the deficiency all the same."""
    if view.down[view.seat]:
        return False
    drawn = 0 if view.step is Step.PLAY else 1
    return most_cards(len(view.hand) + drawn, view.buys_ahead, view.rules) < view.contract.cards


def shed(view: View, safely: bool = True) -> Card:
    """The discard of a player whose contract is out of reach (:func:`out_of_reach`):
    caught at the hand's end whatever it does, it sheds the costliest card; of those,
    ``safely``, the one of the lowest danger to the next player (:func:`_danger_now`),
    which costs no points, then the first in card order."""
    hand = sorted(view.hand)
    if not safely:
        return max(hand, key=view.rules.points)
    rate = _danger_now(view)
    return min(hand, key=lambda card: (-view.rules.points(card), rate(card)))


def takes_low(view: View) -> bool:
    """Whether a player out of reach of the contract (:func:`out_of_reach`) keeps
    fewer points in expectation by taking the upcard than by drawing a stock card
    (one of the unseen cards). It sheds its costliest card after either (``top``
    points, or the new card if that costs more), so a new card of ``p`` points
    changes the hand's points by ``min(p, top) - top``: it takes the upcard when its
    ``min(p, top)`` is below the mean of ``min(p, top)`` over the unseen cards. Never
    an upcard costing as much as its costliest card (nothing to gain); with no card
    unseen it draws."""
    upcard = view.upcard
    unseen = view.position().unseen(view.rules)
    total = unseen.total()
    if upcard is None or not view.hand or not total:
        return False
    points = view.rules.points
    top = max(points(card) for card in view.hand)
    # The mean test without division: min(p_up, top) < capped_sum / total.
    capped_sum = sum(n * min(points(card), top) for card, n in unseen.items())
    return min(points(upcard), top) * total < capped_sum


END_CHANCE = ((2, 0.35), (4, 0.2), (99, 0.08))
"""(cards, chance): the chance, a stated guess, that an opponent who is down holding
at most that many cards goes out before this player's next turn."""
CALM_END = 0.09
"""The chance that the hand ends before this player's next turn while no opponent
is down: a hand of greedy bots lasts about 43 turns, 11 of each player's (48 dev
games, seeds 5000-5047), so about 1 in 11 (the hand's end comes, even if nobody is
down yet)."""
DOWN_POINTS = 10.0
"""Penalty points a player who got down holds at the hand's end (greedy's mean is
6-14 by hand number in the same 48 dev games)."""
EXTRA_KEPT = 0.25
"""Share of a buy's added points still in hand at the end for a player who got down
(a stated guess: more cards to shed)."""


def end_chance(view: View) -> float:
    """The chance (from the stated guesses :data:`END_CHANCE` and :data:`CALM_END`)
    that the hand ends before this player's next turn: an opponent who is down goes
    out, the more likely the fewer cards they hold."""
    stay = 1.0 - CALM_END
    for seat, down in enumerate(view.down):
        if seat == view.seat or not down:
            continue
        stay *= 1.0 - next(p for cards, p in END_CHANCE if view.hand_sizes[seat] <= cards)
    return 1.0 - stay


def down_chance(short: float, lowers: float, ends: float) -> float:
    """The chance of getting down before the hand ends, ``short`` cards short of the
    contract (asked between this player's turns), when each of this player's turns
    first ends the hand with chance ``ends`` (an opponent goes out before it), else
    lowers the shortfall by one with chance ``lowers``; the turn that brings the last
    card goes down. Met already (0 short): the next turn must come, ``1 - ends``;
    ``k`` short: each card must come before the end, ``s**k`` with
    ``s = (1 - ends) lowers / (ends + (1 - ends) lowers)``. A fractional ``short`` (an
    expectation) is interpolated linearly between its whole neighbours."""
    if short <= 0:
        return 1.0 - ends
    whole = math.floor(short)
    low, high = _down_whole(whole, lowers, ends), _down_whole(whole + 1, lowers, ends)
    return low + (high - low) * (short - whole)


def _down_whole(short: int, lowers: float, ends: float) -> float:
    if short == 0:
        return 1.0 - ends
    if lowers <= 0:
        return 0.0
    step = (1 - ends) * lowers / (ends + (1 - ends) * lowers)
    return float(step**short)


def expected_penalty(
    short: float | None, lowers: float, ends: float, points: float, added: float
) -> float:
    """The expected penalty at the hand's end of a hand of ``points`` (``added`` of
    them just bought): caught not down it scores them all, down it scores
    :data:`DOWN_POINTS` and :data:`EXTRA_KEPT` of ``added``. ``short`` None (the
    contract cannot be completed): caught for sure."""
    down = 0.0 if short is None else down_chance(short, lowers, ends)
    return (1 - down) * points + down * (DOWN_POINTS + EXTRA_KEPT * added)


def _lowering_chance(study: Study) -> float:
    """The chance that a turn lowers the deficiency: that the stock card drawn does
    (exact over the unseen cards; 0 when unknown). Upcards taken are further chances,
    not counted: the figure is a floor."""
    if not study.value:
        return 0.0
    verdicts = study.exact_verdicts()
    total = study.unseen.total()
    if not total:
        return 0.0
    return sum(n for card, n in study.unseen.items() if verdicts.get(card)) / total


def _threatened(view: View, cards: int) -> bool:
    """Whether an opponent who is down holds at most ``cards`` cards."""
    return any(
        view.down[seat] and view.hand_sizes[seat] <= cards
        for seat in range(len(view.down))
        if seat != view.seat
    )


def _opponents_down(view: View) -> bool:
    return any(down for seat, down in enumerate(view.down) if seat != view.seat)


def _costliest_keeping(study: Study, view: View) -> Card:
    """The costliest card whose loss keeps the deficiency (else the costliest card)."""
    keepers = [card for card in sorted(study.hand) if study.keeps(card)]
    return max(keepers or sorted(study.hand), key=view.rules.points)


def _livest_keeping(study: Study, view: View) -> Card | None:
    """Of the cards whose loss keeps the deficiency, the one leaving the most outs,
    then the lowest danger, then the most points; None when no card keeps it."""
    keepers = [card for card in sorted(study.hand) if study.keeps(card)]
    if not keepers:
        return None
    rate = _danger_now(view)
    outs = {card: study.outs(card).count for card in keepers}
    return min(keepers, key=lambda c: (-outs[c], rate(c), -view.rules.points(c)))


def _danger_now(view: View) -> Callable[[Card], int]:
    """The danger of a discard onto the table as it stands (the next player's view)."""
    table = tuple(item.meld for item in view.table)
    nxt = NextPlayer(view.down[view.next_seat], view.took[view.next_seat])
    return lambda card: danger(card, table, nxt, view.rules)


DRAWS_AHEAD = 3
"""Draws a down player's dead card is given to become playable (:func:`_live_discard`)."""


def _live_discard(turn: Turn, chosen: Card, view: View) -> Card:
    """A down player's discard: of the cards left after the plays that no meld takes
    as the table stands (the *dead* ones), the lowest danger, then the most expected
    penalty: points times the chance that none of the unseen cards that would open a
    place for it on a run (the card between it and a run's end) comes in
    :data:`DRAWS_AHEAD` draws. ``chosen`` (the solver's discard) when none is dead."""
    rules = view.rules
    left = sorted([*turn.kept, chosen])
    dead = [card for card in left if not fits_table(card, turn.table, rules)]
    if not dead:
        return chosen
    unseen = view.position().unseen(rules)
    total = max(1, sum(unseen.values()))
    nxt = NextPlayer(view.down[view.next_seat], view.took[view.next_seat])

    def cost(card: Card) -> tuple[int, float]:
        stuck = (1 - _bridges(card, turn.table, unseen, rules) / total) ** DRAWS_AHEAD
        return danger(card, turn.table, nxt, rules), -rules.points(card) * stuck

    return min(dead, key=cost)


def _bridges(card: Card, table: Sequence[Meld], unseen: Counter[Card], rules: Rules) -> int:
    """Unseen cards that, laid off first, would let ``card`` follow on a run: the
    natural card between it and a run's end, and the jokers where the run has room."""
    if rules.is_wild(card):
        return 0
    places = (1, 14) if card.rank == ACE and rules.ace_low else (card.rank,)
    count = 0
    for meld in table:
        if meld.kind is not MeldKind.RUN or meld.suit != card.suit:
            continue
        if len(meld.cards) + 2 > MAX_RUN_LEN:
            continue
        for place in places:
            if place == meld.last_place + 2:
                bridge = meld.last_place + 1
            elif place == meld.first_place - 2:
                bridge = meld.first_place - 1
            else:
                continue
            count += unseen[Card(rules.rank_at(bridge), card.suit)]
            if meld.wilds + 1 <= meld.naturals:
                count += unseen[JOKER]
    return count


def _played(turn: Turn, card: Card) -> bool:
    laid = [c for meld in (turn.go_down.melds if turn.go_down else ()) for c in meld.cards]
    laid += [p.card for p in turn.lay_offs.plays]
    return card in laid


def play_of(turn: Turn) -> Play:
    """The engine's move for a turn the solver chose."""
    swaps = turn.go_down.swaps if turn.go_down else turn.lay_offs.swaps
    return Play(
        melds=tuple(m.cards for m in turn.go_down.melds) if turn.go_down else (),
        swaps=tuple(SwapMove(s.meld, s.position, s.give) for s in swaps),
        lay_offs=tuple(LayOffMove(p.card, p.meld, p.place) for p in turn.lay_offs.plays),
        discard=None if turn.discard is None else turn.discard.card,
    )


BOTS: dict[str, Callable[[int], Bot]] = {
    "greedy": lambda _seed: Bot("greedy", Policy()),
    "strong": lambda _seed: Bot("strong", STRONG),
}
"""Bot name -> a factory taking the bot's seed."""


def make_bot(name: str, seed: int = 0) -> Bot:
    """The bot called ``name``; ``strong:KNOB=VALUE+...`` (or ``greedy:...``) changes
    some :class:`Policy` knobs (for experiments).

    Raises :class:`~solver.arena.game.UnknownBot` for a name of no bot, and a
    :class:`~solver.errors.RequestError` for a name that is no string or a seed that is
    no whole number."""
    name, seed = checked(name, str, "name"), checked(seed, int, "seed")
    base, _sep, knobs = name.partition(":")
    factory = BOTS.get(base)
    if factory is None:
        raise UnknownBot(_("unknown bot {name!r}; bots are {bots}", name=name, bots=listed(BOTS)))
    bot = factory(seed)
    if knobs:
        try:
            policy = Policy.parse(knobs, bot.policy)
        except MeldwiseError as error:
            raise UnknownBot(_("bot {name!r}: {error}", name=name, error=error)) from None
        bot = Bot(name, policy)
    return bot

"""Deficiency: the fewest extra cards a hand needs to meet its contract, exactly,
and the questions built on it (what to discard, which cards would help).

The extra cards are natural cards or jokers the player cannot see (not in the
hand, not on the table, not the upcard, not in ``seen``), so a card whose copies
are all in view cannot be wished for. Table jokers are not counted here: swaps
belong to going down. Deficiency 0 means the hand meets the contract.

Every figure is exact: the search of :mod:`~solver.shanghai.bound` settles most
hands with a bound and a construction that meet, and the CP-SAT model of
:func:`completion_model` decides the rest, started from what the search proved.

* **Outs** of a hand are the unseen natural cards that would each lower its
  deficiency by one, counted with their unseen copies (jokers, and twos when
  wild, are left out). A card is counted only when a completion of the hand with
  that card, one extra card cheaper, was built; every other card is shown not to
  lower the bound, or the count is said to be a lower bound ("at least"), as when
  the search stops after :data:`MAX_OUT_CHECKS` constructions.
* **The discard** of a player not going down: the card whose loss leaves the
  lowest deficiency; among those, the lowest ``danger`` (a heuristic given by the
  caller); then the most outs found (of what each of the safest discards leaves, at
  the deficiency it leaves, every unseen card decided: :meth:`Study.outs_after`);
  then the most points; then the highest rank (so ties never depend on the search).
"""

from __future__ import annotations

import threading
from collections import Counter, OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, replace
from enum import Enum

from ortools.sat.python import cp_model

from solver.cpsat import Limit, Status, note_status
from solver.errors import MeldwiseError, RequestError
from solver.i18n import _, _n
from solver.shanghai.bound import (
    Analysis,
    Skeleton,
    analyse,
    best_skeletons,
    card_index,
    gap_cards,
    match,
    rechoose_sets,
    shape_of,
)
from solver.shanghai.bound import construct as build
from solver.shanghai.contract_bound import counted_out, counted_out_by_suit
from solver.shanghai.contracts import Contract
from solver.shanghai.model import (
    HandModel,
    LinearExpr,
    add_card_balance,
    add_drawn_card,
    add_suit_order,
    build_contract,
    drawn_cards_found,
    extras_used,
    solve_model,
)
from solver.shanghai.notation import ALL_NATURALS, JOKER, Card, format_cards
from solver.shanghai.phase_budget import what_stopped
from solver.shanghai.result import Discard
from solver.shanghai.rules import Rules

MAX_OUT_CHECKS = 600
"""Most constructions spent on proving outs for one hand."""


def deficiency(
    hand: Counter[Card],
    contract: Contract,
    unseen: Counter[Card],
    rules: Rules,
    *,
    limit: Limit | None = None,
    known: tuple[int, int | None] | None = None,
    search: bool = True,
) -> tuple[int | None, Status]:
    """The fewest extra cards ``hand`` needs to meet ``contract`` (None when no cards
    still unseen can complete it) and whether that is proven; ``limit`` bounds each
    CP-SAT solve (the defaults when None).

    ``known`` = (low, high) bounds the answer when the caller knows them (high None:
    no upper bound); they only speed up the proof. With ``search`` false the CP-SAT
    model alone answers (a second method, for tests). UNKNOWN at once when ``limit``'s
    clock has run out.
    """
    if limit is not None and limit.out_of_time():
        # Its solve would stop at once, and the search and the model cost more than the
        # solve: a turn asked some 300 of these after its clock ran out, overrunning it
        # two to four times.
        return None, note_status(Status.UNKNOWN)
    if search:
        analysis = analyse(hand, shape_of(contract, rules), unseen)
        if analysis.exact is not None:
            return analysis.exact, Status.OPTIMAL
        cheapest = analysis.cheapest
        low = analysis.bound if known is None else max(known[0], analysis.bound)
        high = None if cheapest is None else cheapest.cost
        if known is not None and known[1] is not None:
            high = known[1] if high is None else min(high, known[1])
        known = (low, high)
    limit = Limit() if limit is None else limit
    value, status = _solve(hand, contract, unseen, rules, limit, known)
    return value, note_status(status)  # for a bot game's status (solver.cpsat.solve_statuses)


def cannot_be_laid(contract: Contract, rules: Rules, limit: Limit | None = None) -> bool:
    """Whether not even every card of the game can lay ``contract`` at once (each meld
    with no more wild cards than natural ones), proven (:func:`layable`)."""
    return layable(contract, rules, limit) is False


def layable(contract: Contract, rules: Rules, limit: Limit | None = None) -> bool | None:
    """Whether every card of the game can lay ``contract`` at once: True, False (proven
    not: each meld may fit the rules alone and the whole not, as three sets of 6 from
    one deck need six wild cards beyond their ranks' fours), or None when not settled
    (:func:`contract_verdict`)."""
    return contract_verdict(contract, rules, limit).layable


@dataclass(frozen=True, slots=True)
class Verdict:
    """What the contract check found: ``layable`` as :func:`layable` says it; ``cut``,
    whether the wall clock (not the fixed work) stopped its solve first; ``done``, the
    deterministic work (CP-SAT's units) its solve did before it stopped, measured."""

    layable: bool | None
    cut: bool = False
    done: float = 0.0

    def note(self) -> str | None:
        """What an answer that lets the contract through unsettled must say (None when
        settled)."""
        if self.layable is not None:
            return None
        if self.cut:
            return _(
                "The clock (the time limit) stopped the check of whether all the game's cards"
                " can lay the contract at once after {done:.2f} of its {work:g} units of fixed"
                " work (CP-SAT's work), so the contract was not refused.",
                done=self.done,
                work=CONTRACT_EFFORT,
            )
        return _(
            "The check of whether all the game's cards can lay the contract at once did not"
            " settle within its fixed work, so the contract was not refused."
        )

    def refusal(self, contract: Contract) -> str:
        """Why a new game is not started on ``contract``, whose check did not settle
        (:func:`check_settled`): the fixed work stopped it (the same on any machine), or
        the wall-clock safety cap of :data:`CONTRACT_TIME` did, after the work it says
        (:attr:`done`); a verdict the cap cut is not remembered (:func:`contract_verdict`),
        which the refusal says, not why the clock ran out (nothing measures that)."""
        if self.cut:
            why = _(
                "its check's safety cap of {seconds:g} s stopped it after {done:.2f} of its"
                " {work:g} units of fixed work (CP-SAT's work); a check the cap stopped is not"
                " remembered, so the same settings are checked again when asked again",
                seconds=CONTRACT_TIME,
                done=self.done,
                work=CONTRACT_EFFORT,
            )
        else:
            why = _(
                "its check stopped at its fixed work ({work:g} units of CP-SAT's work), the"
                " same on any machine",
                work=CONTRACT_EFFORT,
            )
        return _(
            "whether all the game's cards can lay the contract ({contract}) at once was not"
            " settled: {why}; a new game is not started on a contract that may be impossible"
            " to lay (no player could ever go down in that hand)",
            contract=contract,
            why=why,
        )


_VERDICTS: OrderedDict[tuple[Contract, Rules], Verdict] = OrderedDict()
"""The verdicts found, by contract and rules, the most recent last: each settled one and
each the fixed work left unsettled (the same on any machine), never one the clock cut."""

MAX_VERDICTS = 256
"""Most verdicts remembered."""

_LOCK = threading.Lock()


def contract_verdict(contract: Contract, rules: Rules, limit: Limit | None = None) -> Verdict:
    """Whether every card of the game can lay ``contract`` at once, found once per
    contract and rules and remembered (unless the clock cut it).

    Counting settles most impossible contracts without a solve
    (:func:`~solver.shanghai.contract_bound.counted_out`: all 613 of the variant
    test's drawn contracts that are not layable, and six 13-card runs from one deck
    with four jokers and wild twos, the hardest seen, 3.2 units of CP-SAT's work
    before); the search's construction most layable ones (a completion built); counting
    by rank and suit (:func:`~solver.shanghai.contract_bound.counted_out_by_suit`) some
    of the impossible ones left, as a set of 5 and runs of 8, 8, 10, 10 and 12 from one
    deck with two jokers and wild twos (1.1 units of work to the solve). The rest go
    to the completion model as a question of whether any completion exists, within
    :data:`CONTRACT_EFFORT` of deterministic work, its runs taking their suits in order
    of first use (:func:`~solver.shanghai.model.add_suit_order`, every suit of the game
    being alike). That solve runs within the wall-clock time ``limit`` has left (a
    request's own limit, started: the check is part of the request's time), else
    within :data:`CONTRACT_TIME`; only an outer safety cap: a verdict it cut is
    :attr:`Verdict.cut`, unsettled, and not remembered: the same question asked again
    is checked again. A check that starts with ``limit``'s clock already run out is cut
    at once (no work done)."""
    key = (contract, rules)
    with _LOCK:
        found = _VERDICTS.get(key)
        if found is not None:
            _VERDICTS.move_to_end(key)
            return found
    found = _verdict(contract, rules, limit)
    if not found.cut:
        with _LOCK:
            _VERDICTS[key] = found
            if len(_VERDICTS) > MAX_VERDICTS:
                _VERDICTS.popitem(last=False)
    return found


def _verdict(contract: Contract, rules: Rules, limit: Limit | None) -> Verdict:
    if counted_out(contract, rules):
        return Verdict(False)
    game = Counter({card: rules.copies(card) for card in (*ALL_NATURALS, JOKER)})
    if analyse(Counter(), shape_of(contract, rules), game).cheapest is not None:
        return Verdict(True)
    if counted_out_by_suit(contract, rules):
        return Verdict(False)
    # No budget: the verdict is the contract's and the rules', not cut short by what a
    # bot's move has left of its work. The copy shares the limit's accounts, so that
    # a cut counts towards the answer's ``capped``.
    limit = replace((Limit(CONTRACT_TIME) if limit is None else limit).started(), budget=None)
    if limit.out_of_time():
        return Verdict(None, cut=True)  # no solve would start: spare building its model
    hm, _ = completion_model(Counter(), contract, game, rules, None)
    add_suit_order(hm)  # every suit of the game is alike
    own = replace(limit, accounts=[])  # to tell whether the clock cut this solve
    code, _ = solve_model(hm, own, effort=CONTRACT_EFFORT)
    if code == cp_model.INFEASIBLE:
        return Verdict(False)
    if code in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return Verdict(True)
    if own.capped:
        limit.account(0.0).capped = True  # the answer under ``limit`` was cut too
    assert own.accounts  # the solve's account: the work it had left when it stopped
    done = max(0.0, CONTRACT_EFFORT - own.accounts[-1].work)
    return Verdict(None, cut=own.capped, done=done)


def check_layable(contract: Contract, rules: Rules, limit: Limit | None = None) -> str | None:
    """Raise :class:`~solver.errors.RequestError` saying so when not even every card of
    the game can lay ``contract`` at once (:func:`cannot_be_laid`); the sizes of its
    melds one by one are :meth:`Contract.check`'s. Else return what an answer must say
    when the check did not settle and let the contract through (:meth:`Verdict.note`),
    or None. ``limit``: see :func:`contract_verdict`."""
    verdict = contract_verdict(contract, rules, limit)
    if verdict.layable is not False:
        return verdict.note()
    raise _not_layable(contract, rules)


def check_settled(contract: Contract, rules: Rules) -> None:
    """The contract check of a new game, which has no request limit and no answer to
    carry a note: raise :class:`~solver.errors.RequestError` when not even every card of
    the game can lay ``contract`` at once, as :func:`check_layable` does, and also when
    the check did not settle (:meth:`Verdict.refusal`), so that no game is started on a
    hand no player may ever be able to meet. Within :data:`CONTRACT_EFFORT` of
    deterministic work (the same verdict on any machine, remembered), with
    :data:`CONTRACT_TIME` only as the outer safety cap, which the refusal names."""
    verdict = contract_verdict(contract, rules)
    if verdict.layable is False:
        raise _not_layable(contract, rules)
    if verdict.layable is None:
        raise RequestError(verdict.refusal(contract)).about("contract")


def _not_layable(contract: Contract, rules: Rules) -> MeldwiseError:
    """The error saying that not even every card of the game lays ``contract`` at once."""
    decks = _n("{n} deck", "{n} decks", rules.decks)
    jokers = _n("{n} joker", "{n} jokers", rules.jokers)
    cards = (
        _("{decks}, {jokers}, twos wild", decks=decks, jokers=jokers)
        if rules.twos_wild
        else _("{decks}, {jokers}", decks=decks, jokers=jokers)
    )
    return RequestError(
        _(
            "the contract ({contract}) cannot be met under these rules: not even all the"
            " game's cards ({cards}) lay its melds at once, with no meld holding more wild"
            " cards than natural ones",
            contract=contract,
            cards=cards,
        )
    ).about("contract")


CONTRACT_EFFORT = 10.0
"""The deterministic work (CP-SAT's units) of the solve of :func:`contract_verdict`:
six 13-card runs from one deck with four jokers and wild twos, the hardest contract
seen, took about 3.2 units to prove impossible before counting settled it; of the 613
drawn contracts of the variant test, the layable ones neither counted nor built take
0.1 at most. It is done once per contract and rules (remembered)."""

CONTRACT_TIME = 30.0
"""The wall-clock cap (seconds) on that solve when no limit is given: only a safety
cap, the solve stopping first at its deterministic work."""


def _solve(
    hand: Counter[Card],
    contract: Contract,
    unseen: Counter[Card],
    rules: Rules,
    limit: Limit,
    known: tuple[int, int | None] | None,
) -> tuple[int | None, Status]:
    hm, needed = completion_model(hand, contract, unseen, rules, known)
    hm.model.minimize(needed)
    code, engine = solve_model(hm, limit)
    if code == cp_model.INFEASIBLE:
        if known is not None and known[1] is not None:
            # The upper bound came from a built completion, so infeasible cannot be.
            return None, Status.UNKNOWN
        return None, Status.OPTIMAL
    if code not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None, Status.UNKNOWN
    return engine.value(needed), Status.of(code)


def lowering_cards(
    hand: Counter[Card],
    contract: Contract,
    unseen: Counter[Card],
    rules: Rules,
    candidates: list[Card],
    target: int,
    *,
    limit: Limit | None = None,
) -> tuple[set[Card], Status]:
    """Which of ``candidates`` (unseen cards), one more in ``hand``, leave a deficiency
    of at most ``target``: one model with the drawn card as a choice, solved again
    with each card found ruled out until none is left (as many solves as cards found,
    plus one, each within ``limit``, the defaults when None). UNKNOWN when a solve
    stopped early (the set is then a subset), or when the clock had run out before."""
    if not candidates:
        return set(), Status.OPTIMAL
    limit = Limit() if limit is None else limit
    if limit.out_of_time():
        return set(), Status.UNKNOWN  # not worth building a model no solve will search
    hm = HandModel(rules, hand + Counter(candidates), unseen, with_extras=True)
    add_drawn_card(hm, hand, candidates)
    build_contract(hm, contract.sets, contract.runs)
    add_card_balance(hm)
    hm.model.add(extras_used(hm) <= target)
    return drawn_cards_found(hm, limit)


def completion_model(
    hand: Counter[Card],
    contract: Contract,
    unseen: Counter[Card],
    rules: Rules,
    known: tuple[int, int | None] | None,
) -> tuple[HandModel, LinearExpr]:
    """The contract filled from ``hand`` and unseen extra cards; returns the model and
    the count of extras.

    With ``known`` = (low, high), low <= extras <= high: bounds proved earlier (the
    low one spares CP-SAT the hardest part, proving that no cheaper completion
    exists).
    """
    hm = HandModel(rules, hand, unseen, with_extras=True)
    build_contract(hm, contract.sets, contract.runs)
    add_card_balance(hm)
    needed = extras_used(hm)
    if known is not None:
        hm.model.add(needed >= known[0])
        if known[1] is not None:
            hm.model.add(needed <= known[1])
    return hm, needed


class OutsCut(Enum):
    """What left unseen cards undecided in :class:`Outs` when the search for outs reached
    its count of constructions (:data:`MAX_OUT_CHECKS`), noted where it happened (outs
    a search under the advice's limit left incomplete carry none: what stopped that is
    :func:`~solver.shanghai.phase_budget.what_stopped`'s to say)."""

    COUNT = "count"
    """The count stopped the search, and nothing was asked after it (:meth:`Study.outs`)."""
    COUNT_THEN_BUDGET = "count_then_budget"
    """The count stopped the search, then the advice's work budget was spent before a
    CP-SAT study could decide the rest (:meth:`Study.outs_after`)."""
    COUNT_THEN_CLOCK = "count_then_clock"
    """The count stopped the search, then the clock had run out before a CP-SAT study
    could decide the rest (:meth:`Study.outs_after`)."""

    def says(self) -> str:
        """What stopped the search for outs, said of a count left "at least"."""
        if self is OutsCut.COUNT_THEN_BUDGET:
            return _(
                "the search for outs reached its fixed count of {n} completions built for the"
                " hand's discards together, and the advice's work budget was spent before"
                " CP-SAT could decide the rest",
                n=MAX_OUT_CHECKS,
            )
        if self is OutsCut.COUNT_THEN_CLOCK:
            return _(
                "the search for outs reached its fixed count of {n} completions built for the"
                " hand's discards together, and the clock (the time limit) had run out before"
                " CP-SAT could decide the rest",
                n=MAX_OUT_CHECKS,
            )
        return _(
            "the search for outs reached its fixed count of {n} completions built for the"
            " hand's discards together",
            n=MAX_OUT_CHECKS,
        )


@dataclass(frozen=True, slots=True)
class Outs:
    """Unseen cards proven to lower a deficiency by one: the cards and the count
    with their unseen copies; ``complete`` when every unseen card was decided; ``cut``,
    when not, whether the count of constructions stopped the search (else None)."""

    cards: tuple[Card, ...]
    count: int
    complete: bool
    cut: OutsCut | None = None


class Study:
    """Deficiency questions about one hand, answered exactly and remembered.

    ``limit`` bounds each CP-SAT solve the search needs (the defaults when None);
    ``value``, when not None, is the deficiency already proven by the caller (it
    spares the solve that would prove it again). ``larger``, when given, is a study of
    this hand and one card more (same contract, unseen cards and rules) with the same
    deficiency: a card that does not lower its deficiency does not lower this one's
    (:meth:`exact_verdicts` asks it before solving).
    """

    def __init__(
        self,
        hand: Counter[Card],
        contract: Contract,
        unseen: Counter[Card],
        rules: Rules,
        *,
        limit: Limit | None = None,
        value: int | None = None,
        larger: Study | None = None,
    ) -> None:
        self.hand = +hand
        self.contract = contract
        self.unseen = +unseen
        self.rules = rules
        self.limit = Limit() if limit is None else limit
        self.shape = shape_of(contract, rules)
        self.naturals = self.shape.naturals(self.hand)
        self.wilds = self.shape.wilds(self.hand)
        self.analysis: Analysis = analyse(self.hand, self.shape, self.unseen, build_all=True)
        self.pool = self.analysis.pool
        self.cards = sorted(c for c, n in self.unseen.items() if n > 0)
        """The unseen cards, each once, in card order."""
        self.status = Status.OPTIMAL
        self.value = self._value() if value is None else value
        self.settled = self.status is Status.OPTIMAL
        """Whether :attr:`value` is proven: the deficiency, or None proven (beyond
        reach); else a solve stopped first (None: nothing found; a number: at most)."""
        self.beyond_reach = self.value is None and self.settled
        """Proven: not even every unseen card completes the contract. One more of
        them (drawn from those) then completes it no more: no card lowers it."""
        self.checks = 0
        self._counted: set[Card | None] = set()
        """The discards (None: none) whose :meth:`verdicts` the count of
        constructions (:data:`MAX_OUT_CHECKS`) stopped."""
        self._gaps: dict[tuple[int, Card | None], frozenset[int]] = {}
        self._verdicts: dict[Card | None, dict[Card, bool | None]] = {}
        self._exact: dict[Card, bool | None] | None = None
        self._keeps: dict[Card, bool | None] = {}
        self.larger = larger

    def _value(self) -> int | None:
        if self.analysis.exact is not None:
            return self.analysis.exact
        found = self.analysis.cheapest
        known = (self.analysis.bound, None if found is None else found.cost)
        return self._deficiency(self.hand, self.unseen, known)[0]

    def _deficiency(
        self, hand: Counter[Card], unseen: Counter[Card], known: tuple[int, int | None]
    ) -> tuple[int | None, Status]:
        """The deficiency of ``hand`` (None if not found) and how its search ended,
        which the study's status takes in."""
        value, status = deficiency(
            hand,
            self.contract,
            unseen,
            self.rules,
            limit=self.limit,
            known=known,
        )
        self.status = self.status.worst(status)
        return value, status

    @property
    def tight(self) -> bool:
        """The bound equals the deficiency and every best skeleton is known."""
        return self.analysis.complete and self.value == self.analysis.bound

    def proven(self, discard: Card | None = None) -> list[Skeleton]:
        """Best skeletons whose construction meets the deficiency (and, with
        ``discard``, leaves that card out)."""
        found = []
        for skeleton, done in self.analysis.built.items():
            if done is None or done.cost != self.value:
                continue
            if discard is not None:
                if self.rules.is_wild(discard):
                    if done.wilds_used >= self.wilds:
                        continue
                elif not done.spare[card_index(discard)]:
                    continue
            found.append(skeleton)
        return found

    def _naturals(self, discard: Card | None) -> list[int]:
        naturals = list(self.naturals)
        if discard is not None and not self.rules.is_wild(discard):
            naturals[card_index(discard)] -= 1
        return naturals

    def _wilds(self, discard: Card | None) -> int:
        return self.wilds - (1 if discard is not None and self.rules.is_wild(discard) else 0)

    # --- one card less -----------------------------------------------------------

    def keeps(self, card: Card) -> bool | None:
        """Whether the hand less one ``card`` (a discard: the card goes to the discard
        pile, not back among the unseen) has the same deficiency; None when the
        deficiency is unknown, or a search stopped before deciding it. Losing a card
        never lowers it."""
        if self.value is None:
            return None
        if card not in self._keeps:
            if self.proven(card):
                self._keeps[card] = True
            elif self.tight and self.analysis.slack >= 0 and not self._spare_anywhere(card):
                self._keeps[card] = False  # the bound rises by one, and it is the deficiency
            else:
                self._keeps[card] = self._keeps_by_search(card, self.value)
        return self._keeps[card]

    def _keeps_by_search(self, card: Card, low: int) -> bool | None:
        # A search cut short is no proof that the card raises the deficiency: it was
        # once taken as one, and the discard's reason counted one such discard short.
        value, status = self.without_status(card, low)
        if value == low:
            return True  # found at its lower bound (losing a card never lowers it): proven
        return False if status is Status.OPTIMAL else None

    def without(self, card: Card, low: int) -> int | None:
        """The deficiency of the hand less one ``card``, known to be at least ``low``."""
        return self.without_status(card, low)[0]

    def without_status(self, card: Card, low: int) -> tuple[int | None, Status]:
        """:meth:`without` and how its search ended (OPTIMAL: the figure is proven;
        else None, or the fewest found)."""
        less = self.hand.copy()
        less[card] -= 1
        return self._deficiency(+less, self.unseen, (low, None))

    def _spare_anywhere(self, card: Card) -> bool:
        """Whether some best skeleton matches as many cards without ``card`` (its set
        ranks chosen again); a wild card: whether the bound has room to lose one."""
        return any(self._leaves(s, card) for s in self.analysis.skeletons)

    # --- one card more -----------------------------------------------------------

    def gaps(self, skeleton: Skeleton, discard: Card | None = None) -> frozenset[int]:
        """The natural cards (by index) one more of which raises ``skeleton``'s match
        for the hand (less ``discard``)."""
        key = (id(skeleton), discard)
        if key not in self._gaps:
            self._gaps[key] = frozenset(gap_cards(skeleton, self._naturals(discard), self.shape))
        return self._gaps[key]

    def _is_out(self, skeleton: Skeleton, card: Card, discard: Card | None) -> bool:
        """Whether ``skeleton`` built for the hand (less ``discard``) with one more
        ``card`` (a wild card, or one of its gaps) needs one extra card fewer than the
        deficiency: a proof that ``card`` lowers it (counted in ``checks``)."""
        naturals, wilds = self._naturals(discard), self._wilds(discard)
        pool = self.pool.less(card, self.rules)
        if self.rules.is_wild(card):
            wilds += 1
        else:
            naturals[card_index(card)] += 1
            skeleton = rechoose_sets(skeleton, naturals, self.shape, pool)
        self.checks += 1
        done = build(skeleton, naturals, wilds, self.shape, pool)
        assert self.value is not None
        return done is not None and done.cost == self.value - 1

    def verdicts(self, discard: Card | None = None, budget: bool = True) -> dict[Card, bool | None]:
        """For every unseen card, whether one more of it lowers the deficiency of the
        hand (less ``discard``, a discard that keeps the deficiency) by one, from the
        search alone: True and False are proven, None is undecided (also once
        :data:`MAX_OUT_CHECKS` constructions are spent, with ``budget``)."""
        key = discard
        if key in self._verdicts:
            return self._verdicts[key]
        cards = self.cards
        found: dict[Card, bool | None] = dict.fromkeys(cards)
        if self.value is None:
            return dict.fromkeys(cards, False) if self.beyond_reach else found
        if self.value == 0:
            return dict.fromkeys(cards, False)
        by_index = {card_index(c): c for c in cards if not self.rules.is_wild(c)}
        wild = [c for c in cards if self.rules.is_wild(c)]
        for skeleton in self.proven(discard):
            if self.clock_out():
                break
            candidates = [
                by_index[i] for i in sorted(self.gaps(skeleton, discard)) if i in by_index
            ]
            for card in candidates + wild:
                if found[card] is None:
                    if budget and self.checks >= MAX_OUT_CHECKS:
                        self._counted.add(key)  # said by the outs left undecided (OutsCut)
                        break
                    if self.clock_out():
                        break
                    if self._is_out(skeleton, card, discard):
                        found[card] = True
        if self.clock_out():
            # The rest would be decided past the clock (a 22-card hand of 8 decks built
            # 500 completions for the outs of its tied discards, 0.5 s after a 10 ms
            # limit); the cards left undecided make the count "at least".
            self._verdicts[key] = found
            return found
        if self.tight:
            skeletons = self.analysis.skeletons
            if discard is not None:
                skeletons = [s for s in skeletons if self._leaves(s, discard)]
            reach = set().union(*(self.gaps(s, discard) for s in skeletons))
            for index, card in by_index.items():
                if found[card] is None and index not in reach:
                    found[card] = False  # the bound cannot move, and it is the deficiency
        self._verdicts[key] = found
        return found

    def clock_out(self) -> bool:
        """Whether the study's clock has run out (:meth:`Limit.clock_ran_out`, which marks
        the answer cut): the search in Python checks it between its steps, as CP-SAT
        does within its solves, and what it leaves undecided makes the study unproven."""
        if not self.limit.clock_ran_out():
            return False
        self.status = self.status.worst(Status.UNKNOWN)
        return True

    def _leaves(self, skeleton: Skeleton, card: Card) -> bool:
        """Whether ``skeleton`` (its set ranks chosen again) matches as many of the
        hand's natural cards without ``card``: the bound does not rise without it."""
        if self.rules.is_wild(card):
            return self.analysis.slack < 0
        less = list(self.naturals)
        less[card_index(card)] -= 1
        return match(skeleton.windows, less, self.shape) == skeleton.matched

    def lowered_by(self, card: Card, *, unseen: bool = True) -> bool | None:
        """Whether one more ``card`` lowers the deficiency by one, exactly (CP-SAT when
        the search cannot tell); None when the deficiency is unknown, or when there is
        none and the card is in view (not among the unseen cards). ``unseen``: the
        card comes from the unseen cards (a draw), else it is in view (the upcard)."""
        if self.value is None:
            return False if unseen and self.beyond_reach else None
        if unseen and card in self.unseen:
            return self.exact_verdicts()[card]
        return self._solve_one_more(card, unseen=unseen)

    def _solve_one_more(self, card: Card, *, unseen: bool) -> bool | None:
        """Whether one more ``card`` lowers the deficiency, by CP-SAT on the hand with
        that card alone (started from the bounds value - 1 and value): True when a
        cheaper completion is found, False when the solve proves none, else None."""
        assert self.value is not None
        more, pool = self.hand.copy(), self.unseen.copy()
        more[card] += 1
        if unseen:
            pool[card] -= 1
        known = (max(0, self.value - 1), self.value)
        value, status = deficiency(
            more, self.contract, +pool, self.rules, limit=self.limit, known=known
        )
        self.status = self.status.worst(status)
        if value is not None and value < self.value:
            return True
        return False if status is Status.OPTIMAL else None

    def exact_verdicts(self) -> dict[Card, bool | None]:
        """For every unseen card, whether one more of it lowers the deficiency: the
        search's verdicts, then those of the :attr:`larger` study where they rule a
        card out, the undecided ones settled together by CP-SAT
        (:func:`lowering_cards`), and those that one model could not rule out within
        its work limit settled one card at a time; None only where a solve stopped
        early."""
        if self._exact is not None:
            return self._exact
        found = dict(self.verdicts(budget=False))
        if self.value is not None and self.value > 0:
            for card, lowers in found.items():
                if lowers is None:
                    if self.limit.out_of_time():
                        # What is left would go to solves that no longer start.
                        self.status = self.status.worst(Status.UNKNOWN)
                        break
                    found[card] = self._one_more(card)
        if self.larger is not None and None in found.values():
            # More cards never need more extra cards: d(larger + c) <= d(this + c) <= d,
            # both hands being d short. So a card proven not to lower the larger hand's
            # (d(larger + c) = d) does not lower this one's. The larger study is shared
            # by every discard that keeps the deficiency: a play turn with six tied
            # discards took six CP-SAT proofs of 0.1 s of work each, now one.
            wider = self.larger.exact_verdicts()
            for card, lowers in found.items():
                if lowers is None and wider[card] is False:
                    found[card] = False
        open_cards = [card for card, lowers in found.items() if lowers is None]
        if open_cards and self.value is not None and self.value > 0:
            lowering, status = lowering_cards(
                self.hand,
                self.contract,
                self.unseen,
                self.rules,
                open_cards,
                self.value - 1,
                limit=self.limit,
            )
            for card in open_cards:
                if card in lowering:
                    found[card] = True
                elif status is Status.OPTIMAL:
                    found[card] = False
                else:
                    # The last solve, proving that no card left lowers it, has all of
                    # them to rule out at once and may run out of work where a solve
                    # per card does not.
                    found[card] = self._solve_one_more(card, unseen=True)
        self._exact = found
        return found

    def _one_more(self, card: Card) -> bool | None:
        """Whether one more unseen ``card`` lowers the deficiency, from the hand with
        that card alone: False when its bound is still the deficiency (one card more
        raises the best match by at most one, so the bound falls by at most one); True
        when a best skeleton of the new hand is built with fewer extra cards than the
        deficiency; else None (CP-SAT decides)."""
        assert self.value is not None
        more = self.hand.copy()
        more[card] += 1
        naturals, wilds = self.shape.naturals(more), self.shape.wilds(more)
        pool = self.pool.less(card, self.rules)
        best, skeletons, _ = best_skeletons(naturals, self.shape, list(pool.by_rank), keep=False)
        if self.shape.places - wilds - best >= self.value:
            return False
        done = build(skeletons[0], naturals, wilds, self.shape, pool)
        return True if done is not None and done.cost < self.value else None

    def outs(self, discard: Card | None = None) -> Outs:
        """The outs of the hand less ``discard`` (of the hand itself when None), for a
        discard that keeps the deficiency: the unseen natural cards proven to lower it
        (wild cards are left out), within the check budget."""
        verdicts = self.verdicts(discard)
        natural = {c: v for c, v in verdicts.items() if not self.rules.is_wild(c)}
        found = tuple(card for card, lowers in natural.items() if lowers)
        complete = all(v is not None for v in natural.values())
        cut = OutsCut.COUNT if not complete and discard in self._counted else None
        return Outs(found, sum(self.unseen[c] for c in found), complete, cut)

    def outs_after(self, discard: Card, short: int) -> Outs:
        """The outs of the hand less ``discard`` (any discard; ``short``: the deficiency
        it leaves, proven), decided for every unseen card: from this hand's skeletons
        when they decide them all (a discard that keeps the deficiency), else from a
        study of the rest, its undecided cards settled by CP-SAT
        (:meth:`exact_verdicts`). A lower bound (not ``complete``) only where a solve
        stopped early or the clock ran out first, which shows in ``status``."""
        found = Outs((), 0, False)
        if self.keeps(discard):
            found = self.outs(discard)
            if found.complete:
                return found
        # Limit.out_of_time, asked in its two parts so as to say which one it was.
        budget = self.limit.budget
        spent = budget is not None and budget.refuse()
        if spent or self.limit.clock_ran_out():
            # The study of the rest would search and solve on a spent clock.
            self.status = self.status.worst(Status.UNKNOWN)
            if found.cut is OutsCut.COUNT:
                then = OutsCut.COUNT_THEN_BUDGET if spent else OutsCut.COUNT_THEN_CLOCK
                found = replace(found, cut=then)
            return found
        rest = self.hand.copy()
        rest[discard] -= 1
        larger = self if self.value == short else None
        other = Study(
            +rest,
            self.contract,
            self.unseen,
            self.rules,
            limit=self.limit,
            value=short,
            larger=larger,
        )
        verdicts = other.exact_verdicts()
        self.status = self.status.worst(other.status)
        natural = {c: v for c, v in verdicts.items() if not self.rules.is_wild(c)}
        cards = tuple(card for card, lowers in natural.items() if lowers)
        complete = all(v is not None for v in natural.values())
        return Outs(cards, sum(self.unseen[c] for c in cards), complete)


def best_discard(study: Study, danger: Callable[[Card], int] | None = None) -> Discard | None:
    """The discard for a player who is not going down this turn (see the module
    docstring); None when the hand is empty."""
    hand = study.hand
    rules = study.rules
    if not hand:
        return None
    cards = sorted(hand)
    if study.value is None:
        return _costliest(cards, rules, study)
    least: int | None = study.value
    # Whether ``least`` is proven the fewest any discard leaves: a figure a search left
    # as an upper bound (it stopped on its work or time limit) is no "exact" one.
    proven = study.settled
    verdicts = {card: study.keeps(card) for card in cards}
    choices = [card for card in cards if verdicts[card]]
    undecided = [card for card in cards if verdicts[card] is None]
    if not choices and undecided:
        # No discard proven to keep the deficiency, some not decided: no figure of what
        # the fewest a discard leaves is proven.
        return _undecided(cards, undecided, rules)
    if not choices:
        # Every card is needed: each discard costs at least one more extra card.
        low = study.value + 1
        solved = {card: study.without_status(card, low) for card in cards}
        after = {card: d for card, (d, _status) in solved.items()}
        reachable = [d for d in after.values() if d is not None]
        if not reachable:
            return _costliest(cards, rules, study)
        least = min(reachable)
        choices = [card for card, d in after.items() if d == least]
        # Each figure is at least ``low`` (when the study's own is proven): the least is
        # proven when found at that bound, or when every solve was proven.
        proven = proven and (
            least == low or all(status is Status.OPTIMAL for _d, status in solved.values())
        )
    assert least is not None
    risk = {card: (danger(card) if danger else 0) for card in choices}
    # Outs break ties of danger only, so only the safest discards need them, each
    # judged the same way: decided for every unseen card.
    safest = [card for card in choices if risk[card] == min(risk.values())]
    # Past the clock a discard's outs are not searched (the answer says it was cut):
    # the 23 tied discards of a 30-card hand of 8 decks took 0.3 s after a 1 ms limit.
    outs = {
        card: Outs((), 0, False) if study.clock_out() else study.outs_after(card, least)
        for card in safest
    }
    order = sorted(hand, key=lambda c: (c.rank, c.sort_key))
    card = min(safest, key=lambda c: (-outs[c].count, -rules.points(c), -order.index(c)))
    reason = _reason(
        card,
        least,
        outs[card],
        risk[card] if danger else None,
        len(choices),
        rules,
        proven,
        what_stopped(study.limit),
    )
    if undecided:
        note = _(
            "A search stopped before deciding whether discarding {cards} would keep the"
            " deficiency too.",
            cards=format_cards(undecided),
        )
        reason = f"{reason} {note}"
    return Discard(
        card,
        reason,
        least if proven else None,
        outs[card].count if proven else None,
        risk[card] if danger else None,
    )


def _undecided(cards: list[Card], undecided: list[Card], rules: Rules) -> Discard:
    card = max(cards, key=rules.points)
    reason = _(
        "Discard {card}: a search stopped before finding which discards keep the deficiency"
        " (not decided: {cards}), so shed the most points ({points}).",
        card=card,
        cards=format_cards(undecided),
        points=rules.points(card),
    )
    return Discard(card, reason)


def _reason(
    card: Card,
    short: int,
    outs: Outs,
    danger: int | None,
    tied: int,
    rules: Rules,
    proven: bool = True,
    why: str = "",
) -> str:
    """Why ``card`` is discarded; ``proven``: whether ``short`` is proven the fewest any
    discard leaves (else it is only the fewest found); ``why``: what stopped a search
    first (:func:`~solver.shanghai.phase_budget.what_stopped`), said of a figure not
    proven, unless the count of constructions stopped the search for ``outs`` (its
    :attr:`Outs.cut`, which says so instead)."""
    if short == 0:
        where = _("the rest of the hand still meets the contract")
    elif not proven:
        where = _n(
            "the rest of the hand is at most {n} card short of the contract (not proven the"
            " fewest any discard leaves: {why})",
            "the rest of the hand is at most {n} cards short of the contract (not proven the"
            " fewest any discard leaves: {why})",
            short,
            why=why,
        )
    else:
        where = _n(
            "the rest of the hand is {n} card short of the contract (exact), the fewest any"
            " discard leaves",
            "the rest of the hand is {n} cards short of the contract (exact), the fewest any"
            " discard leaves",
            short,
        )
    undecided = why if outs.cut is None else outs.cut.says()
    if tied > 1:
        parts = []
        if danger is not None:
            parts.append(_("the lowest danger ({danger}, a heuristic)", danger=danger))
        if short > 0 and outs.complete:
            parts.append(
                _n(
                    "the most outs found ({count} unseen natural card would each lower that by"
                    " one, each checked)",
                    "the most outs found ({count} unseen natural cards would each lower that by"
                    " one, each checked)",
                    outs.count,
                    count=outs.count,
                )
            )
        elif short > 0:
            parts.append(
                _n(
                    "the most outs found (at least {n} unseen natural card would lower that by"
                    " one; not every card was decided: {why})",
                    "the most outs found (at least {n} unseen natural cards would each lower"
                    " that by one; not every card was decided: {why})",
                    outs.count,
                    why=undecided,
                )
            )
        parts.append(_("the most points ({points})", points=rules.points(card)))
        return _(
            "Discard {card}: {where}; of the {tied} such discards it has {parts}.",
            card=card,
            where=where,
            tied=tied,
            parts=_(", then ").join(parts),
        )
    if short > 0 and not outs.complete:
        # "at least" said why, as of tied discards (it once said it of those alone).
        return _n(
            "Discard {card}: {where}; at least {n} unseen natural card would lower it by one"
            " (not every card was decided: {why}).",
            "Discard {card}: {where}; at least {n} unseen natural cards would each lower it by"
            " one (not every card was decided: {why}).",
            outs.count,
            card=card,
            where=where,
            why=undecided,
        )
    if short > 0:
        return _n(
            "Discard {card}: {where}; {count} unseen natural card would each lower it by one.",
            "Discard {card}: {where}; {count} unseen natural cards would each lower it by one.",
            outs.count,
            card=card,
            where=where,
            count=outs.count,
        )
    return _("Discard {card}: {where}.", card=card, where=where)


def _costliest(cards: list[Card], rules: Rules, study: Study) -> Discard:
    card = max(cards, key=rules.points)
    if study.status is Status.OPTIMAL:
        reason = _(
            "Discard {card}: the contract cannot be completed from the unseen cards,"
            " so shed the most points ({points}).",
            card=card,
            points=rules.points(card),
        )
    else:
        reason = _(
            "Discard {card}: the search found no way to complete the contract ({why}),"
            " so shed the most points ({points}).",
            card=card,
            points=rules.points(card),
            why=what_stopped(study.limit),
        )
    return Discard(card, reason)

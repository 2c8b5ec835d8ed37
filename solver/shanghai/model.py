"""The CP-SAT model shared by every exact Shanghai question.

One :class:`HandModel` describes what a hand can do this turn, by counts over the
cards it holds (no enumeration of candidate melds):

* a **contract set** slot picks one rank (``rank[r]`` one-hot) and counts the
  natural cards of that rank, the jokers and the wild twos it holds;
* a **contract run** slot marks, for each suit ``s`` and run place ``q``, whether
  the run covers ``(s, q)`` (``occ``) and what fills it: the natural card, a joker
  or a wild two; ``start`` marks the lowest place, so the run is one unbroken
  stretch of one suit;
* a **lay-off** on a table meld counts the cards added to a set, or fills the
  places beyond each end of a run outwards from the end (runs keep their order);
* a **joker swap** gives the natural card a table joker stands for and takes the
  joker into the hand;
* for the deficiency, **extra cards** (not in the hand, but still unseen) may fill
  set and run places;
* for the draw phase, **one drawn card**, chosen among unseen candidates, may join
  the hand (:func:`add_drawn_card`).

Every card used comes out of the hand (or the extras): the balance equations are in
:func:`add_card_balance`. The question-specific objectives live in
:mod:`~solver.shanghai.search` (the play phase) and :mod:`~solver.shanghai.deficiency`.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum

from ortools.sat.python import cp_model

import solver.cpsat as cpsat
from solver.cpsat import CpModel, Limit, Status
from solver.shanghai.melds import Meld, MeldKind
from solver.shanghai.notation import JOKER, RANKS, Card, Suit
from solver.shanghai.rules import MAX_RUN_LEN, Rules

LinearExpr = cp_model.LinearExpr | cp_model.IntVar | int
Value = Callable[[LinearExpr], int]


class Use(Enum):
    """Why a card leaves the hand."""

    MELD = "meld"
    LAY_OFF = "lay_off"
    SWAP = "swap"


@dataclass
class SetSlot:
    """A contract set: its rank and the cards it holds, by kind."""

    min_size: int
    rank: dict[int, cp_model.IntVar] = field(default_factory=dict)
    naturals: dict[Card, cp_model.IntVar] = field(default_factory=dict)
    extras: dict[int, cp_model.IntVar] = field(default_factory=dict)
    jokers: dict[int, cp_model.IntVar] = field(default_factory=dict)
    twos: dict[int, cp_model.IntVar] = field(default_factory=dict)


@dataclass
class RunSlot:
    """A contract run: which (suit, place) it covers and what fills each place."""

    min_size: int
    occ: dict[tuple[Suit, int], cp_model.IntVar] = field(default_factory=dict)
    start: dict[tuple[Suit, int], cp_model.IntVar] = field(default_factory=dict)
    naturals: dict[tuple[Suit, int], cp_model.IntVar] = field(default_factory=dict)
    extras: dict[tuple[Suit, int], cp_model.IntVar] = field(default_factory=dict)
    jokers: dict[tuple[Suit, int], cp_model.IntVar] = field(default_factory=dict)
    twos: dict[tuple[Suit, int], cp_model.IntVar] = field(default_factory=dict)


@dataclass
class PlaceFill:
    """What fills one new place of a run (a lay-off at an end)."""

    filled: cp_model.IntVar
    natural: LinearExpr = 0
    joker: LinearExpr = 0
    two: LinearExpr = 0


@dataclass
class TableSlot:
    """Lay-offs on, and joker swaps out of, one table meld."""

    index: int
    meld: Meld
    naturals: dict[Card, cp_model.IntVar] = field(default_factory=dict)
    jokers: LinearExpr = 0
    twos: LinearExpr = 0
    places: dict[int, PlaceFill] = field(default_factory=dict)
    swaps: dict[tuple[int, Card], cp_model.IntVar] = field(default_factory=dict)
    """(index of the joker in the meld, card given) -> swapped or not (sets: any joker)."""


@dataclass
class HandModel:
    """A model under construction and handles on its variables.

    ``hand`` is what the player holds; ``unseen`` the copies of each card the player
    cannot see (used for extras and for how exposed a joker is).
    """

    rules: Rules
    hand: Counter[Card]
    unseen: Counter[Card]
    model: cp_model.CpModel = field(default_factory=CpModel)
    with_extras: bool = False
    swappable: int = 0
    """Jokers on the table the player may swap for (set before adding slots)."""
    sets: list[SetSlot] = field(default_factory=list)
    runs: list[RunSlot] = field(default_factory=list)
    table: list[TableSlot] = field(default_factory=list)
    extra_jokers: LinearExpr = 0
    extra_twos: LinearExpr = 0
    uses: dict[Card, list[tuple[Use, LinearExpr]]] = field(
        default_factory=lambda: defaultdict(list)
    )
    """Natural cards leaving the hand, by card (jokers and wild twos are counted apart)."""
    joker_uses: list[tuple[Use, LinearExpr]] = field(default_factory=list)
    two_uses: list[tuple[Use, LinearExpr]] = field(default_factory=list)
    """Twos used as wild cards (any two will do, so they are pooled)."""
    joker_gains: list[LinearExpr] = field(default_factory=list)
    exposure_terms: list[LinearExpr] = field(default_factory=list)
    """Jokers placed times the unseen cards that could be swapped for them."""
    drawn: dict[Card, cp_model.IntVar] = field(default_factory=dict)
    """With :func:`add_drawn_card`: which one card of the unseen joins the hand."""
    base: Counter[Card] | None = None
    """With a drawn card: the hand without it (``hand`` then holds every candidate)."""
    any_suit: set[int] = field(default_factory=set)
    """Indices of the variables placing a natural card where any card of its rank
    would do: in a contract set, laid off on a table set, swapped for a set's joker."""

    @property
    def jokers_possible(self) -> int:
        """Most jokers the hand could have this turn (held, swapped in, or extra)."""
        extra = self.unseen[JOKER] if self.with_extras else 0
        return self.hand[JOKER] + self.swappable + extra

    @property
    def twos_possible(self) -> int:
        """Most twos the hand could play as wild cards."""
        if not self.rules.twos_wild:
            return 0
        held = sum(n for c, n in self.hand.items() if c.rank == 2)
        return held + (self.unseen_rank(2) if self.with_extras else 0)

    def unseen_rank(self, rank: int) -> int:
        return sum(self.unseen[Card(rank, suit)] for suit in Suit)

    def holds(self, card: Card) -> int:
        return self.hand[card]

    def held(self, card: Card) -> LinearExpr:
        """Copies of ``card`` in hand this turn (a drawn card included)."""
        if self.base is None:
            return self.hand[card]
        return self.base[card] + self.drawn.get(card, 0)

    def size(self) -> int:
        """Cards in hand this turn."""
        if self.base is None:
            return sum(self.hand.values())
        return sum(self.base.values()) + 1

    def new_int(self, upper: int, name: str) -> cp_model.IntVar:
        return self.model.new_int_var(0, upper, name)

    def exposure(self, jokers: LinearExpr, card: Card) -> None:
        """A joker standing for ``card`` (a run place) or a rank (a set place) can be
        taken by whoever holds a matching unseen card."""
        unseen = self.unseen[card] if card.suit is not None else self.unseen_rank(card.rank)
        if unseen:
            self.exposure_terms.append(unseen * jokers)

    def total(self, use: Use | None = None) -> LinearExpr:
        """Cards leaving the hand for ``use`` (all uses when None)."""
        terms = [e for items in self.uses.values() for u, e in items if use in (None, u)]
        terms += [e for u, e in (*self.joker_uses, *self.two_uses) if use in (None, u)]
        return sum(terms)

    def points(self, use: Use) -> LinearExpr:
        """Penalty points of the cards leaving the hand for ``use``."""
        rules = self.rules
        terms: list[LinearExpr] = [
            rules.points(card) * e
            for card, items in self.uses.items()
            for u, e in items
            if u is use
        ]
        terms += [rules.joker_points * e for u, e in self.joker_uses if u is use]
        terms += [rules.two_points * e for u, e in self.two_uses if u is use]
        return sum(terms)

    def hand_points(self) -> int:
        return sum(self.rules.points(card) * n for card, n in self.hand.items())

    def swaps(self) -> LinearExpr:
        return sum(self.joker_gains)


def add_set_slot(hm: HandModel, min_size: int) -> SetSlot:
    """One contract set of at least ``min_size`` cards.

    sum_r rank[r] = 1; naturals[c] <= copies * rank[rank(c)];
    size = naturals + extras + jokers + twos >= min_size;
    jokers + twos <= naturals + extras (never more wild than natural cards).
    A rank is only offered when the cards that could reach it can fill half the set.
    """
    model = hm.model
    slot = SetSlot(min_size)
    k = len(hm.sets)
    wild_pool = hm.jokers_possible + hm.twos_possible
    for rank in RANKS:
        held = {c: n for c, n in hm.hand.items() if c.rank == rank and not c.is_joker}
        extra = hm.unseen_rank(rank) if hm.with_extras else 0
        natural_cap = sum(held.values()) + extra
        if 2 * natural_cap < min_size or natural_cap + wild_pool < min_size:
            continue
        chosen = model.new_bool_var(f"set{k}_rank{rank}")
        slot.rank[rank] = chosen
        naturals: list[LinearExpr] = []
        for card, count in sorted(held.items()):
            var = hm.new_int(count, f"set{k}_{card}")
            model.add(var <= count * chosen)
            slot.naturals[card] = var
            hm.uses[card].append((Use.MELD, var))
            hm.any_suit.add(var.index)
            naturals.append(var)
        if extra:
            var = hm.new_int(extra, f"set{k}_extra{rank}")
            model.add(var <= extra * chosen)
            slot.extras[rank] = var
            naturals.append(var)
        wilds: list[LinearExpr] = []
        if hm.jokers_possible:
            var = hm.new_int(hm.jokers_possible, f"set{k}_jokers{rank}")
            model.add(var <= hm.jokers_possible * chosen)
            slot.jokers[rank] = var
            hm.joker_uses.append((Use.MELD, var))
            hm.exposure(var, Card(rank, None))
            wilds.append(var)
        if hm.twos_possible and rank != 2:
            var = hm.new_int(hm.twos_possible, f"set{k}_twos{rank}")
            model.add(var <= hm.twos_possible * chosen)
            slot.twos[rank] = var
            hm.two_uses.append((Use.MELD, var))
            wilds.append(var)
        model.add(sum(naturals) + sum(wilds) >= min_size * chosen)
        model.add(sum(wilds) <= sum(naturals))
    _exactly_one(model, list(slot.rank.values()))
    if hm.sets and hm.sets[-1].min_size == min_size:
        # Identical slots: take them in order of rank (symmetry breaking).
        model.add(_rank_key(hm.sets[-1]) <= _rank_key(slot))
    hm.sets.append(slot)
    return slot


def _exactly_one(model: cp_model.CpModel, choices: list[cp_model.IntVar]) -> None:
    """sum choices = 1 (no choices: the slot cannot be filled, the model is infeasible)."""
    if choices:
        model.add_exactly_one(choices)
    else:
        model.add_bool_or([])


def _rank_key(slot: SetSlot) -> LinearExpr:
    return sum(rank * var for rank, var in slot.rank.items())


def add_run_slot(hm: HandModel, min_size: int) -> RunSlot:
    """One contract run of at least ``min_size`` cards.

    For each suit s and place q: occ[s,q] = natural + extra + joker + two;
    occ[s,q] <= occ[s,q-1] + start[s,q] and occ[s,q-1] + start[s,q] <= 1, with
    sum start = 1: one unbroken stretch of one suit; min_size <= sum occ <= 13;
    sum jokers + twos <= sum naturals + extras. Suits whose cards cannot fill half
    the run are left out, and so are places farther from every natural card the run
    could hold than the wild cards could bridge (a run crosses no such place).
    """
    model, rules = hm.model, hm.rules
    slot = RunSlot(min_size)
    k = len(hm.runs)
    places = range(rules.lowest_place, 15)
    wilds: list[LinearExpr] = []
    naturals: list[LinearExpr] = []
    bridge = hm.jokers_possible + hm.twos_possible
    for suit in Suit:
        natural = [
            q
            for q in places
            if hm.holds(card := Card(rules.rank_at(q), suit))
            or (hm.with_extras and hm.unseen[card])
        ]
        if 2 * len(natural) < min_size:
            continue
        previous: LinearExpr = 0
        for q in places:
            if not any(abs(q - p) <= bridge for p in natural):
                previous = 0
                continue
            cell = (suit, q)
            card = Card(rules.rank_at(q), suit)
            occ = model.new_bool_var(f"run{k}_{card}@{q}")
            start = model.new_bool_var(f"run{k}_start_{card}@{q}")
            slot.occ[cell], slot.start[cell] = occ, start
            fill: list[LinearExpr] = []
            if hm.holds(card):
                var = model.new_bool_var(f"run{k}_nat_{card}@{q}")
                slot.naturals[cell] = var
                hm.uses[card].append((Use.MELD, var))
                naturals.append(var)
                fill.append(var)
            if hm.with_extras and hm.unseen[card]:
                var = model.new_bool_var(f"run{k}_extra_{card}@{q}")
                slot.extras[cell] = var
                naturals.append(var)
                fill.append(var)
            if hm.jokers_possible:
                var = model.new_bool_var(f"run{k}_joker_{card}@{q}")
                slot.jokers[cell] = var
                hm.joker_uses.append((Use.MELD, var))
                hm.exposure(var, card)
                wilds.append(var)
                fill.append(var)
            if hm.twos_possible:
                var = model.new_bool_var(f"run{k}_two_{card}@{q}")
                slot.twos[cell] = var
                hm.two_uses.append((Use.MELD, var))
                wilds.append(var)
                fill.append(var)
            model.add(occ == sum(fill))
            model.add(occ <= previous + start)
            model.add(previous + start <= 1)
            model.add(start <= occ)
            previous = occ
    _exactly_one(model, list(slot.start.values()))
    length = sum(slot.occ.values())
    model.add(length >= min_size)
    model.add(length <= MAX_RUN_LEN)
    model.add(sum(wilds) <= sum(naturals))
    if hm.runs and hm.runs[-1].min_size == min_size:
        model.add(_start_key(hm.runs[-1]) <= _start_key(slot))
    hm.runs.append(slot)
    return slot


def _start_key(slot: RunSlot) -> LinearExpr:
    return sum((suit.index * 16 + q) * var for (suit, q), var in slot.start.items())


def add_suit_order(hm: HandModel) -> None:
    """Number the suits of the contract runs in order of first use: a run (in slot
    order) is in a suit past the first only if an earlier run is in the suit before
    it. Sound only where every suit is alike (the hand and the unseen cards hold as
    many of each card in every suit, as all the game's cards do), so that any plan
    with its suits renamed is a plan too; then it is the only change, and it leaves
    the order of like runs (suit, then first place) intact. Without it, proving that
    three sets of 2 and runs of 12, 13 and 13 do not fit in one deck with wild twos
    went through every naming of the suits and did not end within 10 units of work;
    with it, 1."""
    for k, slot in enumerate(hm.runs):
        for suit in Suit:
            if suit.index == 0:
                continue
            here = [v for (s, _q), v in slot.start.items() if s is suit]
            before = Suit.from_index(suit.index - 1)
            earlier = [v for run in hm.runs[:k] for (s, _q), v in run.start.items() if s is before]
            if here:
                hm.model.add(sum(here) <= sum(earlier))


def add_table_slot(hm: HandModel, index: int, meld: Meld, swaps: bool) -> TableSlot:
    """Lay-offs on table meld ``index`` and, with ``swaps``, joker swaps out of it.

    A set takes naturals of its rank, jokers and wild twos. A run takes new places
    beyond each end, filled outwards: below the run filled[q] <= filled[q+1], above
    it filled[q] <= filled[q-1]; filled = natural + joker + two; length <= 13.
    A swap gives the natural card a joker stands for (in a set: any card of its rank)
    and puts the joker in the hand. Afterwards, still: wilds <= naturals, that is
    (wilds - swapped) + added wilds <= (naturals + swapped) + added naturals.
    """
    slot = TableSlot(index, meld)
    model = hm.model
    added_naturals: list[LinearExpr] = []
    added_wilds: list[LinearExpr] = []
    swapped: list[LinearExpr] = []
    name = f"t{index}"
    if meld.kind is MeldKind.SET:
        for card, count in sorted(hm.hand.items()):
            if card.rank == meld.rank and not card.is_joker:
                var = hm.new_int(count, f"{name}_{card}")
                slot.naturals[card] = var
                hm.uses[card].append((Use.LAY_OFF, var))
                hm.any_suit.add(var.index)
                added_naturals.append(var)
        if hm.jokers_possible:
            var = hm.new_int(hm.jokers_possible, f"{name}_jokers")
            slot.jokers = var
            hm.joker_uses.append((Use.LAY_OFF, var))
            hm.exposure(var, Card(meld.rank, None))
            added_wilds.append(var)
        if hm.twos_possible and meld.rank != 2:
            var = hm.new_int(hm.twos_possible, f"{name}_twos")
            slot.twos = var
            hm.two_uses.append((Use.LAY_OFF, var))
            added_wilds.append(var)
        jokers = len(meld.joker_places())
        if swaps and jokers:
            for card in slot.naturals:
                var = hm.new_int(min(jokers, hm.hand[card]), f"{name}_swap_{card}")
                slot.swaps[-1, card] = var
                hm.uses[card].append((Use.SWAP, var))
                hm.any_suit.add(var.index)
                swapped.append(var)
            model.add(sum(swapped) <= jokers)
    else:
        room = MAX_RUN_LEN - len(meld.cards)
        lowest = max(hm.rules.lowest_place, meld.first_place - room)
        below = range(meld.first_place - 1, lowest - 1, -1)
        above = range(meld.last_place + 1, min(14, meld.last_place + room) + 1)
        for side in (below, above):
            previous: LinearExpr | None = None
            for q in side:
                place = _add_place(hm, slot, q, previous, added_naturals, added_wilds)
                slot.places[q] = place
                previous = place.filled
        model.add(sum(p.filled for p in slot.places.values()) <= room)
        if swaps:
            for i in meld.joker_places():
                card = meld.stands_for[i]
                if hm.hand[card]:
                    var = model.new_bool_var(f"{name}_swap{i}_{card}")
                    slot.swaps[i, card] = var
                    hm.uses[card].append((Use.SWAP, var))
                    swapped.append(var)
    hm.joker_gains += swapped
    model.add(
        meld.wilds - sum(swapped) + sum(added_wilds)
        <= meld.naturals + sum(swapped) + sum(added_naturals)
    )
    hm.table.append(slot)
    return slot


def _add_place(
    hm: HandModel,
    slot: TableSlot,
    q: int,
    previous: LinearExpr | None,
    added_naturals: list[LinearExpr],
    added_wilds: list[LinearExpr],
) -> PlaceFill:
    model = hm.model
    card = Card(hm.rules.rank_at(q), slot.meld.suit)
    name = f"t{slot.index}_{card}@{q}"
    place = PlaceFill(model.new_bool_var(name))
    fill: list[LinearExpr] = []
    if hm.hand[card]:
        place.natural = model.new_bool_var(f"{name}_nat")
        hm.uses[card].append((Use.LAY_OFF, place.natural))
        added_naturals.append(place.natural)
        fill.append(place.natural)
    if hm.jokers_possible:
        place.joker = model.new_bool_var(f"{name}_joker")
        hm.joker_uses.append((Use.LAY_OFF, place.joker))
        hm.exposure(place.joker, card)
        added_wilds.append(place.joker)
        fill.append(place.joker)
    if hm.twos_possible:
        place.two = model.new_bool_var(f"{name}_two")
        hm.two_uses.append((Use.LAY_OFF, place.two))
        added_wilds.append(place.two)
        fill.append(place.two)
    model.add(place.filled == sum(fill))
    if previous is not None:
        model.add(place.filled <= previous)
    return place


def add_drawn_card(hm: HandModel, base: Counter[Card], candidates: list[Card]) -> None:
    """One of ``candidates`` joins ``base`` to make the hand: sum drawn[c] = 1. Call
    it on a model whose ``hand`` is ``base`` plus one of each candidate, before
    adding any slot."""
    hm.base = base
    for card in candidates:
        hm.drawn[card] = hm.model.new_bool_var(f"drawn_{card}")
    _exactly_one(hm.model, list(hm.drawn.values()))


def add_card_balance(hm: HandModel) -> None:
    """Every card used comes from the hand, the swaps or the extras.

    For each natural card c: sum uses[c] <= hand[c] (hand[c] includes drawn[c] with a
    drawn card).
    Twos as wild cards: sum_twos uses + wild twos <= held twos + extra twos.
    Jokers: jokers used <= held jokers + swapped in + extra jokers.
    Extras: per card, run extras <= unseen[c]; per rank, set extras + run extras
    <= unseen cards of that rank (sets take any suit); extra wild twos take from
    the unseen twos too. A drawn card leaves the unseen: drawn[c] comes off both
    bounds (and off the unseen jokers).
    """
    model, rules = hm.model, hm.rules
    for card, items in hm.uses.items():
        model.add(sum(e for _, e in items) <= hm.held(card))
    if hm.two_uses:
        twos = [c for c in hm.hand if c.rank == 2 and not c.is_joker]
        natural = sum(e for c in twos for _, e in hm.uses.get(c, []))
        if hm.with_extras and hm.unseen_rank(2):
            hm.extra_twos = hm.new_int(hm.unseen_rank(2), "extra_twos")
        held = sum(hm.held(c) for c in twos)
        model.add(natural + sum(e for _, e in hm.two_uses) <= held + hm.extra_twos)
    if hm.joker_uses:
        if hm.with_extras and hm.unseen[JOKER]:
            hm.extra_jokers = hm.new_int(hm.unseen[JOKER], "extra_jokers")
        used = sum(e for _, e in hm.joker_uses)
        model.add(used <= hm.held(JOKER) + hm.swaps() + hm.extra_jokers)
    if not hm.with_extras:
        return
    by_rank: dict[int, list[LinearExpr]] = defaultdict(list)
    by_card: dict[Card, list[LinearExpr]] = defaultdict(list)
    for slot in hm.sets:
        for rank, var in slot.extras.items():
            by_rank[rank].append(var)
    for run in hm.runs:
        for (suit, q), var in run.extras.items():
            card = Card(rules.rank_at(q), suit)
            by_card[card].append(var)
            by_rank[card.rank].append(var)
    drawn_rank: dict[int, list[LinearExpr]] = defaultdict(list)
    for card, var in hm.drawn.items():
        drawn_rank[card.rank].append(var)
    for card, terms in by_card.items():
        model.add(sum(terms) + hm.drawn.get(card, 0) <= hm.unseen[card])
    by_rank[2].append(hm.extra_twos)
    for rank, terms in by_rank.items():
        model.add(sum(terms) + sum(drawn_rank[rank]) <= hm.unseen_rank(rank))
    if JOKER in hm.drawn:
        model.add(hm.extra_jokers + hm.drawn[JOKER] <= hm.unseen[JOKER])


def extras_used(hm: HandModel) -> LinearExpr:
    """Extra cards the plan needs (the deficiency when minimised)."""
    terms: list[LinearExpr] = [hm.extra_jokers, hm.extra_twos]
    for slot in hm.sets:
        terms += slot.extras.values()
    for run in hm.runs:
        terms += run.extras.values()
    return sum(terms)


def build_contract(hm: HandModel, sets: tuple[int, ...], runs: tuple[int, ...]) -> None:
    """Add one slot per contract meld (largest first, so symmetric slots sit together)."""
    for size in sorted(sets, reverse=True):
        add_set_slot(hm, size)
    for size in sorted(runs, reverse=True):
        add_run_slot(hm, size)


def tie_breaks(hm: HandModel) -> list[tuple[LinearExpr, int]]:
    """The last goals of every plan: jokers least exposed, then fewest swaps
    (as (expression to minimise, its range) pairs for :func:`solver.cpsat.lexicographic`)."""
    exposure_range = hm.jokers_possible * 4 * hm.rules.decks
    return [(sum(hm.exposure_terms), exposure_range), (hm.swaps(), hm.swappable)]


EFFORT = 1.0
"""Deterministic work each CP-SAT solve may do (CP-SAT's deterministic time units,
roughly seconds of one core). The hardest solves of the speed benchmark use about
0.2, so this bound is what stops a search, the same way on every machine; the
wall-clock ``limit.time`` is only the outer safety cap."""


def solve_model(
    hm: HandModel, limit: Limit, effort: float = EFFORT
) -> tuple[cp_model.CpSolverStatus, cp_model.CpSolver]:
    """Run CP-SAT (:func:`solver.cpsat.run`) on ``hm``: at most ``effort`` of
    deterministic work (see :data:`EFFORT`), so that a search stops at the same point
    on every run and machine, within the wall-clock time ``limit`` has left behind it
    (:meth:`~solver.cpsat.Limit.account`), on ``limit.workers`` threads; return
    (status code, solver). Under a limit with a :class:`~solver.cpsat.Budget` (a bot's
    move) the solve also stops at what the budget has left, and none starts once it is
    spent (UNKNOWN)."""
    solved = cpsat.run(hm.model, limit.account(effort), limit.workers)
    return solved.code, solved.engine


def drawn_cards_found(hm: HandModel, limit: Limit) -> tuple[set[Card], Status]:
    """Every drawn card (:func:`add_drawn_card`) with which ``hm`` is feasible: solve,
    rule out the card found and the candidates the same plan shows feasible
    (:func:`same_plan`), solve again until infeasible (at most as many solves as
    cards found, plus one). UNKNOWN when a solve stopped early (the set is then a
    subset)."""
    found: set[Card] = set()
    while True:
        code, engine = solve_model(hm, limit)
        if code == cp_model.INFEASIBLE:
            return found, Status.OPTIMAL
        if code not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return found, Status.UNKNOWN
        card = next(c for c, var in hm.drawn.items() if engine.value(var))
        for other in same_plan(hm, engine.value, card):
            found.add(other)
            hm.model.add(hm.drawn[other] == 0)


def same_plan(hm: HandModel, value: Value, card: Card) -> list[Card]:
    """The candidates that, drawn instead of ``card``, the plan found (``value``) also
    works with, ``card`` among them. Nothing else changes: the cards in hand, the
    melds' natural and wild counts, the extra cards.

    * A natural ``card`` whose drawn copy the plan leaves in hand: every candidate
      (only without extra cards: an extra may take the candidate's last unseen copy).
    * A natural ``card`` filling a place where any card of its rank would do
      (:attr:`HandModel.any_suit`): every natural candidate of its rank.
    * A wild two whose drawn copy the plan uses as a wild card or not at all: every
      two among the candidates (the twos' wild cards are pooled; a joker is not).
    * A natural ``card`` in a contract run that a wild card helps fill: every natural
      candidate for a place a wild card fills there (it takes that place, the wild
      card moves to ``card``'s: the run the same).

    With extra cards, a candidate shares the plan only while its unseen copies cover
    the drawn one and the run extras the plan takes of it, and, of another rank than
    ``card``'s, the extras the plan takes of its rank.
    """
    if hm.base is None or card.is_joker:
        return [card]
    uses = [(var, value(var)) for _, var in hm.uses.get(card, [])]
    kept = sum(n for _, n in uses) <= hm.base[card]
    alike: list[Card] = []
    if hm.rules.is_wild(card):
        alike = [c for c in hm.drawn if c.rank == card.rank and not c.is_joker] if kept else []
    elif kept and not hm.with_extras:
        return list(hm.drawn)
    elif any(isinstance(var, cp_model.IntVar) and var.index in hm.any_suit for var, n in uses if n):
        alike = [
            c
            for c in hm.drawn
            if c.rank == card.rank and not c.is_joker and not hm.rules.is_wild(c)
        ]
    if not hm.rules.is_wild(card):
        alike += [c for c in _wild_places(hm, value, card) if c not in alike]
    if card not in alike:
        alike.insert(0, card)
    if hm.with_extras:
        alike = [c for c in alike if c == card or _extras_leave(hm, value, c, card)]
    return alike


def _wild_places(hm: HandModel, value: Value, card: Card) -> list[Card]:
    """The natural candidates for the places that wild cards fill in a contract run
    where the plan (``value``) puts a copy of ``card``: drawn instead of ``card``, such
    a candidate takes its place in the run and the wild card moves to ``card``'s,
    the run the same places, as many natural and wild cards."""
    rules = hm.rules
    found: list[Card] = []
    for run in hm.runs:
        if not any(
            value(var) and Card(rules.rank_at(q), suit) == card
            for (suit, q), var in run.naturals.items()
        ):
            continue
        for cell in run.occ:
            wild = (cell in run.jokers and value(run.jokers[cell])) or (
                cell in run.twos and value(run.twos[cell])
            )
            other = Card(rules.rank_at(cell[1]), cell[0])
            if wild and other in hm.drawn and not rules.is_wild(other):
                found.append(other)
    return found


def _extras_leave(hm: HandModel, value: Value, other: Card, card: Card) -> bool:
    """Whether the unseen copies of ``other`` cover it, drawn, beside the extra cards
    the plan (``value``, found with ``card`` drawn) takes: of it in runs, and of its
    rank, when that is not ``card``'s (the drawn card leaves the unseen)."""
    if _run_extras(hm, value, other) >= hm.unseen[other]:
        return False
    if other.rank == card.rank:
        return True
    return _rank_extras(hm, value, other.rank) < hm.unseen_rank(other.rank)


def _rank_extras(hm: HandModel, value: Value, rank: int) -> int:
    """Extra cards of ``rank`` the plan (``value``) takes: in sets, in runs, and the
    extra wild twos for rank 2."""
    taken = sum(value(var) for slot in hm.sets for r, var in slot.extras.items() if r == rank)
    taken += sum(
        value(var)
        for run in hm.runs
        for (_suit, q), var in run.extras.items()
        if hm.rules.rank_at(q) == rank
    )
    if rank == 2:
        taken += value(hm.extra_twos)
    return taken


def _run_extras(hm: HandModel, value: Value, card: Card) -> int:
    """Extra copies of ``card`` the plan (``value``) puts in its runs."""
    return sum(
        value(var)
        for run in hm.runs
        for (suit, q), var in run.extras.items()
        if suit == card.suit and hm.rules.rank_at(q) == card.rank
    )


def hint_solution(hm: HandModel, engine: cp_model.CpSolver) -> None:
    """Start the next solve of ``hm`` from the solution ``engine`` found."""
    for index in range(len(hm.model.proto.variables)):
        var = hm.model.get_int_var_from_proto_index(index)
        hm.model.add_hint(var, engine.value(var))

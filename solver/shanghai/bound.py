"""Deficiency by search: a bound and a construction that meet, with CP-SAT behind.

The deficiency of a hand (:mod:`~solver.shanghai.deficiency`) is the fewest unseen
cards it needs to meet its contract. Most hands are settled here without CP-SAT:

* **The bound.** Lay the contract as *skeletons*: each set slot at one rank with
  its minimum size, each run slot on one stretch of one suit with its minimum
  length. A skeleton *matches* the hand's natural cards that stand in their own
  places (runs first, card by card; what is left of each rank goes to the sets).
  With ``places`` the cards the contract needs, ``wilds`` the hand's wild cards
  and ``M`` the most any skeleton matches, every completion of the hand needs at
  least ``max(0, places - wilds - M)`` extra cards: shrinking each meld of a
  completion to its minimum size (ignoring the wild-card limit and which unseen
  cards exist) gives a skeleton, and shrinking never adds an extra card.
* **The construction.** For skeletons matching ``M``, fill the gaps for real:
  the hand's wild cards first (at most half of each meld, gaps that too few unseen
  natural cards can fill first), then unseen natural cards, then unseen wild cards
  within the same limit. A construction that uses as many extra cards as the bound
  proves the deficiency.

When no construction meets the bound (many jokers in one meld, or the cards a
gap needs are all in view) the CP-SAT model decides, started from both figures
(:func:`~solver.shanghai.deficiency.deficiency` with ``known``). The search visits
run windows best first and keeps every skeleton that reaches ``M`` (up to
:data:`MAX_SKELETONS`): a card that fills a gap in none of them cannot raise
``M``, which settles most "would this card help?" questions (outs, a draw's
expected deficiency) without a solve. The work is bounded by counts, never by
the clock, so an answer does not depend on the machine.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

from solver.shanghai.contracts import Contract
from solver.shanghai.notation import JOKER, RANKS, Card, Suit
from solver.shanghai.rules import Rules

MAX_SKELETONS = 400
"""Most skeletons kept at the best match; beyond it the list is marked incomplete."""


def card_index(card: Card) -> int:
    """0..51 for the natural cards: suit-major, rank 2..14."""
    assert card.suit is not None, "only natural cards have an index"
    return card.suit.index * 13 + card.rank - 2


INDEXED = tuple(Card(rank, suit) for suit in Suit for rank in RANKS)
"""The natural cards, in :func:`card_index` order."""


@dataclass(frozen=True, slots=True, eq=False)
class Window:
    """A stretch of run places of one suit: the skeleton of a run slot."""

    suit: Suit
    first: int
    size: int
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True, eq=False)
class Skeleton:
    """One rank per set slot and one window per run slot (slots in the order of
    :class:`Shape`), with the natural cards of the hand it matches. Compared by
    identity: the search makes each one once."""

    ranks: tuple[int, ...]
    windows: tuple[Window, ...]
    matched: int


class Shape:
    """A contract under some rules: the slots and the windows each run slot may take."""

    def __init__(self, contract: Contract, rules: Rules) -> None:
        self.contract = contract
        self.rules = rules
        self.set_sizes = tuple(sorted(contract.sets, reverse=True))
        self.run_sizes = tuple(sorted(contract.runs, reverse=True))
        self.places = contract.cards
        self.windows = {size: _windows(size, rules) for size in set(self.run_sizes)}

    def naturals(self, hand: Counter[Card]) -> list[int]:
        """The hand's natural cards by index (wild twos count as wild cards)."""
        counts = [0] * 52
        for card, n in hand.items():
            if n > 0 and not self.rules.is_wild(card):
                counts[card_index(card)] += n
        return counts

    def wilds(self, hand: Counter[Card]) -> int:
        return sum(n for card, n in hand.items() if n > 0 and self.rules.is_wild(card))


@lru_cache(maxsize=256)
def shape_of(contract: Contract, rules: Rules) -> Shape:
    """The :class:`Shape` of ``contract`` under ``rules`` (made once, then shared)."""
    return Shape(contract, rules)


def _windows(size: int, rules: Rules) -> tuple[Window, ...]:
    found = []
    for suit in Suit:
        for first in range(rules.lowest_place, 14 - size + 2):
            places = range(first, first + size)
            cards = tuple(card_index(Card(rules.rank_at(q), suit)) for q in places)
            found.append(Window(suit, first, size, cards))
    return tuple(found)


@dataclass(frozen=True, slots=True)
class Built:
    """A real completion: the unseen cards it adds, the hand's wild cards it uses,
    and the hand's natural cards it leaves out (by index)."""

    extras: Counter[Card]
    wilds_used: int
    spare: tuple[int, ...]

    @property
    def cost(self) -> int:
        return self.extras.total()


@dataclass(slots=True)
class Analysis:
    """What the search found for one hand."""

    bound: int
    """No completion needs fewer extra cards."""
    slack: int
    """``places - wilds - M``: the bound before it is clipped at 0."""
    built: dict[Skeleton, Built | None]
    """The construction of each best skeleton tried (None: it could not be filled)."""
    skeletons: list[Skeleton]
    """Skeletons reaching the best match ``M``: all of them when ``complete``."""
    complete: bool
    pool: Pool

    @property
    def cheapest(self) -> Built | None:
        done = [b for b in self.built.values() if b is not None]
        return min(done, key=lambda b: b.cost) if done else None

    @property
    def exact(self) -> int | None:
        """The deficiency when a construction meets the bound, else None."""
        best = self.cheapest
        return self.bound if best is not None and best.cost == self.bound else None


def analyse(
    hand: Counter[Card], shape: Shape, unseen: Counter[Card], *, build_all: bool = False
) -> Analysis:
    """The bound, and constructions of the best skeletons (see the module docstring):
    until one meets the bound, or of every one with ``build_all``."""
    naturals = shape.naturals(hand)
    wilds = shape.wilds(hand)
    pool = Pool.of(unseen, shape.rules)
    best, skeletons, complete = best_skeletons(naturals, shape, list(pool.by_rank))
    slack = shape.places - wilds - best
    bound = max(0, slack)
    built: dict[Skeleton, Built | None] = {}
    for skeleton in skeletons:
        done = construct(skeleton, naturals, wilds, shape, pool)
        built[skeleton] = done
        if not build_all and done is not None and done.cost == bound:
            break
    return Analysis(bound, slack, built, skeletons, complete, pool)


def set_match(
    leftover: list[int], sizes: tuple[int, ...], supply: list[int]
) -> tuple[int, tuple[int, ...]]:
    """Most natural cards the set slots (``sizes``, largest first) match from
    ``leftover`` (cards per rank, index rank - 2), and the rank of each slot: each
    slot takes the rank with the most cards up to its size (ties: the most unseen
    ``supply``, then the higher rank)."""
    total = 0
    ranks = []
    left = list(leftover)
    for size in sizes:
        # The largest (cards up to the size, supply, rank): ranks are distinct, so no
        # tie (one C-level max over tuples: this runs for every card a study weighs).
        rank = max(zip([min(n, size) for n in left], supply, range(13), strict=True))[2]
        take = min(left[rank], size)
        total += take
        left[rank] -= take
        ranks.append(rank + 2)
    return total, tuple(ranks)


def leftover_by_rank(naturals: list[int], windows: tuple[Window, ...]) -> list[int]:
    """Natural cards per rank that the runs of ``windows`` leave (runs match first)."""
    rest = list(naturals)
    for window in windows:
        for index in window.cards:
            rest[index] -= 1
    return [sum(n for n in rest[rank::13] if n > 0) for rank in range(13)]


def lower_bound(hand: Counter[Card], shape: Shape) -> int:
    """The bound alone: no completion of ``hand`` needs fewer extra cards."""
    best = best_skeletons(shape.naturals(hand), shape, [0] * 13, keep=False)[0]
    return max(0, shape.places - shape.wilds(hand) - best)


def best_skeletons(
    naturals: list[int], shape: Shape, supply: list[int], *, keep: bool = True
) -> tuple[int, list[Skeleton], bool]:
    """The best match and the skeletons reaching it (up to :data:`MAX_SKELETONS`, then
    the flag says the list is incomplete; with ``keep`` false only the first). Run
    windows are tried best first and cut off once even the best of what is left
    cannot reach the best match (without ``keep``: cannot beat it)."""
    used = [0] * 52
    found: list[Skeleton] = []
    best = -1
    complete = True
    run_sizes, set_sizes = shape.run_sizes, shape.set_sizes
    per_rank = [sum(naturals[r::13]) for r in range(13)]
    set_cap = set_match(per_rank, set_sizes, supply)[0]
    options = [_ordered(shape.windows[size], naturals) for size in run_sizes]
    tops = [opts[0][0] for opts in options]
    rest = [sum(tops[i:]) for i in range(len(tops) + 1)]

    def leaf(chosen: list[Window], matched: int) -> None:
        nonlocal best, complete
        left = [sum(naturals[rank::13]) - sum(used[rank::13]) for rank in range(13)]
        got, ranks = set_match(left, set_sizes, supply)
        total = matched + got
        if total > best:
            best = total
            found.clear()
            complete = True
        if total == best:
            if len(found) < (MAX_SKELETONS if keep else 1):
                found.append(Skeleton(ranks, tuple(chosen), total))
            else:
                complete = False

    def visit(slot: int, start: int, chosen: list[Window], matched: int) -> None:
        if slot == len(run_sizes):
            leaf(chosen, matched)
            return
        same = slot > 0 and run_sizes[slot] == run_sizes[slot - 1]
        for position in range(start if same else 0, len(options[slot])):
            value, window = options[slot][position]
            # A tie is worth walking only while it may still be kept (``complete``: no
            # tie passed over yet), as the empty hand of the contract check has every
            # window tie (11,700 skeletons walked for 400 kept, 0.3 s).
            ties = keep and complete
            if matched + value + rest[slot + 1] + set_cap < best + (0 if ties else 1):
                break  # windows come in decreasing value: the rest are no better
            gained = []
            for index in window.cards:
                if used[index] < naturals[index]:
                    used[index] += 1
                    gained.append(index)
            chosen.append(window)
            visit(slot + 1, position, chosen, matched + len(gained))
            chosen.pop()
            for index in gained:
                used[index] -= 1

    visit(0, 0, [], 0)
    return best, found, complete


def _ordered(windows: tuple[Window, ...], naturals: list[int]) -> list[tuple[int, Window]]:
    """Each window with the natural cards it matches alone, best first (ties keep
    the window order)."""
    scored = [(sum(1 for i in w.cards if naturals[i]), w) for w in windows]
    return sorted(scored, key=lambda item: -item[0])


def match(windows: tuple[Window, ...], naturals: list[int], shape: Shape) -> int:
    """The natural cards a skeleton with these run ``windows`` matches, its set ranks
    chosen at best (runs first, card by card; the rest of each rank to the sets)."""
    used = Counter(i for window in windows for i in window.cards)
    runs = sum(min(naturals[i], n) for i, n in used.items())
    if not shape.set_sizes:
        return runs
    return runs + set_match(leftover_by_rank(naturals, windows), shape.set_sizes, [0] * 13)[0]


def rechoose_sets(skeleton: Skeleton, naturals: list[int], shape: Shape, pool: Pool) -> Skeleton:
    """``skeleton`` with its set ranks chosen again for ``naturals`` (the runs kept):
    one more card of a rank tied with the chosen ones makes its rank the better one."""
    if not shape.set_sizes:
        return skeleton
    left = leftover_by_rank(naturals, skeleton.windows)
    got, ranks = set_match(left, shape.set_sizes, list(pool.by_rank))
    if ranks == skeleton.ranks:
        return skeleton
    used = Counter(i for window in skeleton.windows for i in window.cards)
    runs = sum(min(naturals[i], n) for i, n in used.items())
    return Skeleton(ranks, skeleton.windows, runs + got)


def gap_cards(skeleton: Skeleton, naturals: list[int], shape: Shape) -> set[int]:
    """Natural cards (by index) that one more copy of in the hand would raise the
    skeleton's match: a run place the hand lacks, or a rank whose sets would take it."""
    demand = Counter(i for window in skeleton.windows for i in window.cards)
    found = {i for i, n in demand.items() if n > naturals[i]}
    if shape.set_sizes:
        left = leftover_by_rank(naturals, skeleton.windows)
        zero = [0] * 13
        base = set_match(left, shape.set_sizes, zero)[0]
        for rank in range(13):
            left[rank] += 1
            if set_match(left, shape.set_sizes, zero)[0] > base:
                found.update(i for i in range(rank, 52, 13) if demand[i] <= naturals[i])
            left[rank] -= 1
    return found


@dataclass(frozen=True, slots=True)
class Pool:
    """The unseen cards as a construction draws on them: natural cards by index and
    by rank, and the wild cards (jokers last)."""

    naturals: tuple[int, ...]
    by_rank: tuple[int, ...]
    wilds: tuple[Card, ...]

    @classmethod
    def of(cls, unseen: Counter[Card], rules: Rules) -> Pool:
        naturals = [0] * 52
        twos: list[Card] = []
        for card, n in unseen.items():
            if n <= 0 or card.is_joker:
                continue
            if rules.is_wild(card):
                twos += [card] * n
            else:
                naturals[card_index(card)] += n
        wilds = sorted(twos) + [JOKER] * max(0, unseen[JOKER])
        by_rank = tuple(sum(naturals[r::13]) for r in range(13))
        return cls(tuple(naturals), by_rank, tuple(wilds))

    def less(self, card: Card, rules: Rules) -> Pool:
        """The pool with one copy of ``card`` (an unseen card) taken out."""
        if rules.is_wild(card):
            wilds = list(self.wilds)
            wilds.remove(card)
            return Pool(self.naturals, self.by_rank, tuple(wilds))
        index = card_index(card)
        naturals = list(self.naturals)
        by_rank = list(self.by_rank)
        naturals[index] -= 1
        by_rank[index % 13] -= 1
        return Pool(tuple(naturals), tuple(by_rank), self.wilds)


def construct(
    skeleton: Skeleton, naturals: list[int], wilds: int, shape: Shape, pool: Pool
) -> Built | None:
    """``skeleton`` filled for real (see the module docstring), or None when a gap can
    be filled by no card the player could still get."""
    spare, gaps, sizes = assign(skeleton, naturals, shape)
    supply = list(pool.naturals)
    by_rank = list(pool.by_rank)
    room = [size // 2 for size in sizes]  # wild cards each meld may still take
    # Hand wild cards: first to gaps that fewer unseen cards can fill than ask for them.
    demand = Counter(gap for _, gap in gaps)
    scarce = sorted(gaps, key=lambda g: (_available(g[1], supply, by_rank) - demand[g[1]], g))
    wild_left = wilds
    open_gaps = []
    for meld, gap in scarce:
        if wild_left and room[meld]:
            room[meld] -= 1
            wild_left -= 1
        else:
            open_gaps.append((meld, gap))
    # Then unseen natural cards (run gaps first: they need one exact card), then
    # unseen wild cards.
    wild_supply = list(pool.wilds)
    extras: Counter[Card] = Counter()
    for meld, gap in sorted(open_gaps, key=lambda g: (g[1] < 0, g)):
        taken = _take(gap, supply, by_rank)
        if taken is None and wild_supply and room[meld]:
            room[meld] -= 1
            taken = wild_supply.pop()
        if taken is None:
            return None
        extras[taken] += 1
    return Built(extras, wilds - wild_left, spare)


def assign(
    skeleton: Skeleton, naturals: list[int], shape: Shape
) -> tuple[tuple[int, ...], list[tuple[int, int]], list[int]]:
    """The hand's natural cards put in their places of ``skeleton`` (runs first, then
    each set takes its rank's cards in suit order): what is left unmatched (by
    index), the gaps as (meld, card index of a run place or -rank of a set place),
    and the size of each meld."""
    spare = list(naturals)
    gaps: list[tuple[int, int]] = []
    sizes: list[int] = []
    for window in skeleton.windows:
        for index in window.cards:
            if spare[index]:
                spare[index] -= 1
            else:
                gaps.append((len(sizes), index))
        sizes.append(window.size)
    for size, rank in zip(shape.set_sizes, skeleton.ranks, strict=True):
        need = size
        for index in range(rank - 2, 52, 13):
            take = min(spare[index], need)
            spare[index] -= take
            need -= take
        gaps += [(len(sizes), -rank)] * need
        sizes.append(size)
    return tuple(spare), gaps, sizes


def _available(gap: int, supply: list[int], by_rank: list[int]) -> int:
    return supply[gap] if gap >= 0 else by_rank[-gap - 2]


def _take(gap: int, supply: list[int], by_rank: list[int]) -> Card | None:
    """An unseen natural card for ``gap``, taken out of the supply (None: none left)."""
    index = gap if gap >= 0 else max(range(-gap - 2, 52, 13), key=lambda i: (supply[i], -i))
    if not supply[index]:
        return None
    supply[index] -= 1
    by_rank[index % 13] -= 1
    return INDEXED[index]

"""A counting bound: proof, without a solve, that not even all the game's cards can
lay a contract at once.

Every card a contract lays sits at a rank: a set's cards at its rank, a run's at the
ranks of its places, one card a rank (a run of at most 13 places never holds both
aces, so a run of ``L`` cards covers ``L`` ranks). A place is filled by a natural card
of its rank or by a *flexible* card: a joker, or, when twos are wild, a two (wild, or
natural in its own place; either way one of the game's ``4 * decks`` twos). So the
cards laid at a rank beyond its natural cards (``4 * decks``; none counted at rank 2
when twos are wild, all of whose cards are flexible) are flexible, and all of them
together are at most the game's flexible cards.

The bound relaxes a layout: runs may cover any ``L`` ranks (not only consecutive
ones, and in any suit), sets any rank, each meld exactly its size, and asks for the
fewest flexible cards any such choice needs. Every real layout is one of these
choices (a longer meld only lays more), so when even that fewest exceeds the game's
flexible cards the contract cannot be laid. Two more facts are kept: the sets sharing
a rank need at least half their cards natural (no meld holds more wild cards than
natural ones), so their halves fit in that rank's ``4 * decks``.

For each way to group the sets by rank (at most :data:`~solver.shanghai.contracts.MAX_MELDS`
sets: 203 groupings), the runs' fewest flexible cards is a maximum flow (each run one
card to each of ``L`` distinct ranks, each rank taking its natural cards left), whose
minimum cut has a closed form. Microseconds a contract, against CP-SAT's seconds for
the hardest: six 13-card runs from one deck with four jokers and wild twos need 30
flexible cards of the 8 (each rank is laid six times from its four naturals).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator

from solver.shanghai.contracts import Contract
from solver.shanghai.rules import Rules

RANKS = 13
"""Ranks a run can cover (2 to ace)."""

SUITS = 4


def counted_out(contract: Contract, rules: Rules) -> bool:
    """Whether counting alone proves that not even every card of the game lays
    ``contract`` at once (see the module docstring). False says nothing: the contract
    may still not be layable."""
    naturals = 4 * rules.decks  # natural cards of each rank
    flexible = rules.jokers + (naturals if rules.twos_wild else 0)
    plain = RANKS - 1 if rules.twos_wild else RANKS  # ranks with natural cards of their own
    return all(
        _flexible_needed(groups, at_two, contract.runs, naturals, plain) > flexible
        for groups, at_two in _groupings(contract.sets, plain, rules.twos_wild, naturals)
    )


def _groupings(
    sets: tuple[int, ...], plain: int, twos_wild: bool, naturals: int
) -> Iterator[tuple[list[int], int]]:
    """Each way to put the sets on ranks, as the cards laid at each plain rank holding
    a set and those laid at rank 2 when twos are wild (0: none); a grouping whose sets
    at one rank need more natural cards than it has is left out."""
    for partition in _partitions(list(sets)):
        if any(sum((s + 1) // 2 for s in group) > naturals for group in partition):
            continue  # more wild than natural cards in some set of the group
        loads = [sum(group) for group in partition]
        choices = range(len(loads)) if twos_wild else ()
        if len(loads) <= plain:
            yield loads, 0
        for i in choices:
            rest = loads[:i] + loads[i + 1 :]
            if len(rest) <= plain:
                yield rest, loads[i]


def _partitions(items: list[int]) -> Iterator[list[list[int]]]:
    """Every partition of ``items`` into non-empty groups (by position)."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for partition in _partitions(rest):
        yield [[first], *partition]
        for i in range(len(partition)):
            yield [*partition[:i], [first, *partition[i]], *partition[i + 1 :]]


def _flexible_needed(
    groups: list[int], at_two: int, runs: tuple[int, ...], naturals: int, plain: int
) -> int:
    """The fewest flexible cards laid: the sets' cards beyond their ranks' naturals
    (all those at rank 2 when twos are wild, ``at_two``), and the runs' cards that
    the naturals left cannot take."""
    spare = [max(0, naturals - load) for load in groups]
    spare += [naturals] * (plain - len(groups))
    spare += [0] * (RANKS - plain)  # rank 2 when twos are wild: every card flexible
    over = sum(max(0, load - naturals) for load in groups) + at_two
    return over + sum(runs) - _most_natural(sorted(runs), spare)


def _most_natural(runs: list[int], spare: list[int]) -> int:
    """The most run cards the ranks' spare natural cards take, each run one card at each
    of its length of distinct ranks: the maximum flow from runs to ranks, equal to its
    minimum cut, min over the ``a`` longest runs kept (the rest cut whole) of the cut
    rest plus ``min(spare, a)`` at each rank. ``runs`` sorted ascending."""
    best = sum(runs)
    for kept in range(len(runs) + 1):
        cut = sum(runs[: len(runs) - kept]) + sum(min(s, kept) for s in spare)
        best = min(best, cut)
    return best


def counted_out_by_suit(contract: Contract, rules: Rules) -> bool:
    """Whether counting by rank and suit proves that not even every card of the game
    lays ``contract`` at once: as :func:`counted_out`, each run now in one suit, so
    each natural card (a rank of a suit, ``decks`` copies) goes to one meld. For each
    way to group the runs by suit and the sets by rank, the most natural cards laid is
    a maximum flow (runs and sets to the cards they may hold); the rest are flexible.
    Five runs of 10 from one deck without wild cards (two share a suit of 13 cards),
    and a set of 5 and runs of 8, 8, 10, 10 and 12 from one deck with two jokers and
    wild twos (1.1 units of CP-SAT's work), are counted out so; :func:`counted_out`
    counts neither. Dearer (a flow per grouping, milliseconds), so asked after the
    search's construction, and only when it builds nothing."""
    naturals = 4 * rules.decks
    flexible = rules.jokers + (naturals if rules.twos_wild else 0)
    plain = RANKS - 1 if rules.twos_wild else RANKS
    runs = list(contract.runs)
    for groups, at_two in _groupings(contract.sets, plain, rules.twos_wild, naturals):
        for blocks in _partitions(list(range(len(runs)))):
            if len(blocks) > SUITS:
                continue
            suit_of = {j: b for b, block in enumerate(blocks) for j in block}
            laid = _cells_flow(groups, [(runs[j], suit_of[j]) for j in suit_of], rules.decks, plain)
            if at_two + sum(groups) + sum(runs) - laid <= flexible:
                return False  # this grouping may fit: nothing proven
    return True


def _cells_flow(groups: list[int], runs: list[tuple[int, int]], decks: int, plain: int) -> int:
    """The most natural cards the melds hold: each set group (its cards) at a rank of
    its own, any suits; each run (length, suit) one card at each of distinct ranks of
    its suit; each card of the ``plain`` ranks and four suits ``decks`` times."""
    source, sink = 0, 1
    cell = {(r, s): 2 + r * SUITS + s for r in range(plain) for s in range(SUITS)}
    first = 2 + plain * SUITS
    capacity: dict[int, dict[int, int]] = {}

    def edge(a: int, b: int, c: int) -> None:
        capacity.setdefault(a, {})[b] = capacity.get(a, {}).get(b, 0) + c
        capacity.setdefault(b, {}).setdefault(a, 0)

    for node in cell.values():
        edge(node, sink, decks)
    for g, load in enumerate(groups):
        edge(source, first + g, load)
        for s in range(SUITS):
            edge(first + g, cell[g, s], decks)
    for j, (length, suit) in enumerate(runs):
        node = first + len(groups) + j
        edge(source, node, length)
        for r in range(plain):
            edge(node, cell[r, suit], 1)
    return _max_flow(capacity, source, sink)


def _max_flow(capacity: dict[int, dict[int, int]], source: int, sink: int) -> int:
    """The maximum flow from ``source`` to ``sink`` (augmenting shortest paths; the
    residual capacities are left in ``capacity``)."""
    flow = 0
    while True:
        parent = {source: source}
        queue = deque([source])
        while queue and sink not in parent:
            a = queue.popleft()
            for b, c in capacity[a].items():
                if c > 0 and b not in parent:
                    parent[b] = a
                    queue.append(b)
        if sink not in parent:
            return flow
        push, b = None, sink
        while b != source:
            a = parent[b]
            push = capacity[a][b] if push is None else min(push, capacity[a][b])
            b = a
        assert push is not None
        b = sink
        while b != source:
            a = parent[b]
            capacity[a][b] -= push
            capacity[b][a] += push
            b = a
        flow += push

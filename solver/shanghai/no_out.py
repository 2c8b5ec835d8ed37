"""A proof by counting, without a solve, that a hand cannot go out this turn.

Going out places every card of the hand (but one, with ``go_out_by_discard``): each
natural card goes into a contract meld or onto a table meld. Wild cards (jokers,
wild twos) fit anywhere, so only the natural cards are counted, and every other
rule is left out (meld sizes, wild cards per meld, the places of a run), which only
widens what counts as placed:

* a natural card that some table meld could take (a set of its rank, a run of its
  suit, a joker it could be swapped for) is placed, every copy of it;
* a contract run holds at most one copy of a card, so with ``k`` contract runs in a
  suit, the copies of a card of that suit beyond ``k`` go into contract sets of its
  rank;
* the contract sets take at most as many ranks as there are sets.

When no way of giving the contract runs their suits leaves the contract sets enough
ranks for the copies that are left, no play goes out: a proof, cheap enough to ask
of each stock card before a search for the cards that go out. (The standard
contracts of three or four runs hold natural cards of at most three or four suits
when they go out without a table: a 21-card hand of all four suits under three runs
cannot go out, whatever it draws.)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from solver.shanghai.contracts import Contract
from solver.shanghai.melds import Meld, MeldKind
from solver.shanghai.notation import Card, Suit
from solver.shanghai.rules import Rules


def cannot_go_out(
    hand: Counter[Card], contract: Contract | None, table: tuple[Meld, ...], rules: Rules
) -> bool:
    """True when no play of ``hand`` (the hand after the draw) goes out this turn,
    proven by counting (see the module docstring); False when counting cannot tell.
    ``contract``: the contract of a player not down, None once down (no contract
    melds: every card goes onto the table)."""
    loose = _loose(hand, table, rules)
    if not loose:
        return False
    sets = 0 if contract is None else len(contract.sets)
    runs = 0 if contract is None else len(contract.runs)
    left = 1 if rules.go_out_by_discard else 0
    return not any(_fits(loose, share, sets, left) for share in _shares(runs))


def _loose(hand: Counter[Card], table: tuple[Meld, ...], rules: Rules) -> Counter[Card]:
    """The natural cards of ``hand`` no table meld could take (wild cards fit anywhere)."""
    set_ranks = {meld.rank for meld in table if meld.kind is MeldKind.SET}
    run_suits = {meld.suit for meld in table if meld.kind is MeldKind.RUN}
    stand_ins = {meld.stands_for[i] for meld in table for i in meld.joker_places()}
    return Counter(
        {
            card: n
            for card, n in hand.items()
            if n > 0
            and not rules.is_wild(card)
            and card.rank not in set_ranks
            and card.suit not in run_suits
            and card not in stand_ins
        }
    )


def _shares(runs: int) -> Iterator[dict[Suit, int]]:
    """Every way of giving ``runs`` contract runs their suits (how many in each)."""
    suits = list(Suit)

    def split(left: int, first: int) -> Iterator[dict[Suit, int]]:
        if first == len(suits) - 1:
            yield {suits[first]: left}
            return
        for n in range(left + 1):
            for rest in split(left - n, first + 1):
                yield {suits[first]: n, **rest}

    return split(runs, 0)


def _fits(loose: Counter[Card], share: dict[Suit, int], sets: int, left: int) -> bool:
    """Whether, with ``share`` runs in each suit, the copies no run holds fit in
    ``sets`` ranks, with at most ``left`` card left over."""
    beyond: Counter[int] = Counter()
    for card, n in loose.items():
        assert card.suit is not None  # natural cards only
        if n > share[card.suit]:
            beyond[card.rank] += n - share[card.suit]
    if len(beyond) <= sets:
        return True
    # One card left over (going out by discarding) spares a rank with one copy beyond.
    return left > 0 and len(beyond) == sets + 1 and 1 in beyond.values()

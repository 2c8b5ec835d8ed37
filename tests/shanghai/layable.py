"""Whether every card of a game can lay a contract at once: a small CP-SAT model of its
own, written from the rules (it shares nothing with ``solver/shanghai/model.py``), to
check the library's refusal of a contract that no hand could ever meet.

Each meld picks a frame (a set's rank; a run's suit, first place and length, 13 at
most, no wrap) and how many copies of each natural card it holds; the rest of its
cards are wild, never more than its natural ones. The copies of a card used across
the melds are at most the game's, and the wild cards at most the jokers plus the
twos (under ``twos_wild``) that no meld holds as a natural card.
"""

from __future__ import annotations

from ortools.sat.python import cp_model

from solver.shanghai.notation import ACE, Card, Suit
from solver.shanghai.rules import MAX_RUN_LEN, Rules

CARDS = [Card(rank, suit) for suit in Suit for rank in range(2, ACE + 1)]


def layable(sets: tuple[int, ...], runs: tuple[int, ...], rules: Rules) -> bool:
    model = cp_model.CpModel()
    used: dict[Card, list[cp_model.IntVar]] = {card: [] for card in CARDS}
    wilds = []
    for i, size in enumerate(sets):
        rank = {r: model.new_bool_var(f"s{i}r{r}") for r in range(2, ACE + 1)}
        model.add_exactly_one(rank.values())
        naturals = []
        for card in CARDS:
            n = model.new_int_var(0, rules.decks, f"s{i}{card}")
            model.add(n == 0).only_enforce_if(~rank[card.rank])
            used[card].append(n)
            naturals.append(n)
        wild = model.new_int_var(0, 4 * rules.decks + rules.jokers, f"s{i}w")
        model.add(sum(naturals) + wild >= size)
        model.add(wild <= sum(naturals))
        wilds.append(wild)
    for i, size in enumerate(runs):
        frames = {
            (suit, first, length): model.new_bool_var(f"r{i}{suit}{first}{length}")
            for suit in Suit
            for length in range(size, MAX_RUN_LEN + 1)
            for first in range(rules.lowest_place, ACE - length + 2)
        }
        model.add_exactly_one(frames.values())
        naturals = []
        for card in CARDS:
            places = [1, ACE] if card.rank == ACE else [card.rank]
            covering = [
                f
                for (suit, first, length), f in frames.items()
                if suit == card.suit and any(first <= p < first + length for p in places)
            ]
            n = model.new_bool_var(f"r{i}{card}")
            model.add(n <= sum(covering))
            used[card].append(n)
            naturals.append(n)
        length = sum(length * f for (_, _, length), f in frames.items())
        wild = model.new_int_var(0, MAX_RUN_LEN, f"r{i}w")
        model.add(sum(naturals) + wild == length)
        model.add(wild <= sum(naturals))
        wilds.append(wild)
    spare_twos = []
    for card in CARDS:
        model.add(sum(used[card]) <= rules.decks)
        if rules.twos_wild and card.rank == 2:
            spare_twos.append(rules.decks - sum(used[card]))
    model.add(sum(wilds) <= rules.jokers + sum(spare_twos))
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    status = solver.solve(model)
    assert status in (cp_model.OPTIMAL, cp_model.FEASIBLE, cp_model.INFEASIBLE)
    return status != cp_model.INFEASIBLE

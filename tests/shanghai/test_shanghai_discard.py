"""The discard of a player who does not go down, checked against the brute force of
``brute.py``: the lowest deficiency left, then (danger being equal) the most outs of
what is left, each unseen natural card tried, then the most points, then the highest
rank. The outs used to be counted only for discards spare in a skeleton already built
(others got "at least 0"), and not at all when every discard raised the deficiency."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from functools import cache
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import solver.shanghai.deficiency as deficiency_module
import solver.shanghai.phase_budget as phase_budget
from solver import advise_shanghai
from solver.cpsat import Budget, Limit
from solver.shanghai import STANDARD, Contract, Position, parse_cards
from solver.shanghai.cli import describe_advice
from solver.shanghai.deficiency import Outs, OutsCut, Study, _reason, deficiency
from solver.shanghai.melds import TableMeld, read_meld
from solver.shanghai.model import solve_model
from solver.shanghai.notation import ALL_NATURALS, JOKER, Card
from solver.shanghai.phase_budget import PhaseBudget
from solver.shanghai.rules import Rules
from tests.shanghai.brute import Brute, wild
from tests.shanghai.strategies import RANDOMS, contract_of
from tests.support import spend_the_clock

FOUR_DECKS = Rules(decks=4)
"""Four decks: the brute force assumes extra cards are never short."""


@cache
def brute_for(rules: Rules, contract: Contract) -> Brute:
    return Brute(rules, contract.sets, contract.runs)


def brute_discard(hand: list[Card], number: int, rules: Rules) -> tuple[Card, int, int]:
    """(card, deficiency after, outs after) by the documented order, from the brute
    force alone (no table, so every discard's danger is 0)."""
    contract = Contract.for_hand(number, rules)
    brute = brute_for(rules, contract)
    unseen = +Position(tuple(hand), contract).unseen(rules)
    after: dict[Card, int] = {}
    outs: dict[Card, int] = {}
    for card in set(hand):
        rest = list(hand)
        rest.remove(card)
        short = after[card] = brute.deficiency(rest)
        outs[card] = sum(
            copies
            for extra, copies in unseen.items()
            if not wild(extra, rules) and brute.deficiency([*rest, extra]) == short - 1
        )
    least = min(after.values())
    order = sorted(hand, key=lambda c: (c.rank, c.sort_key))
    card = min(
        (c for c in after if after[c] == least),
        key=lambda c: (-outs[c], -rules.points(c), -order.index(c)),
    )
    return card, least, outs[card]


def advised(hand: list[Card], number: int, rules: Rules) -> dict[str, object]:
    request = {
        "hand": [str(c) for c in hand],
        "hand_number": number,
        "phase": "play",
        "rules": {"decks": rules.decks},
    }
    answer = advise_shanghai(request)
    assert answer["go_down"] is None
    discard = answer["discard"]
    assert isinstance(discard, dict)
    return discard


@pytest.mark.parametrize(
    ("cards", "number"),
    [
        # Every discard raises the deficiency to 5: 9S keeps the most outs; the
        # joker went on points, the reason claiming 0 outs, each checked.
        ("5H 6H 9S JK", 3),
        # JS leaves 36 outs, 4D 34: JS's were not counted ("at least 0").
        ("4D JS 8H", 2),
        ("KD 7C JK 6C 6S", 4),
    ],
)
def test_the_discard_keeps_the_most_outs_as_the_brute_force_counts_them(
    cards: str, number: int
) -> None:
    hand = parse_cards(cards)
    card, short, outs = brute_discard(hand, number, FOUR_DECKS)
    discard = advised(hand, number, FOUR_DECKS)
    assert (discard["card"], discard["deficiency_after"], discard["outs"]) == (
        str(card),
        short,
        outs,
    )
    assert f"({outs} unseen natural cards would each lower that by one, each checked)" in str(
        discard["reason"]
    )


@settings(max_examples=15, deadline=None)
@given(rng=RANDOMS, number=st.integers(1, 7), size=st.integers(3, 4))
def test_the_discard_matches_the_brute_force(rng: random.Random, number: int, size: int) -> None:
    """Small random hands, no table: the card, the deficiency it leaves and its outs."""
    hand = rng.sample([*ALL_NATURALS] * 2 + [JOKER] * 2, size)
    if max(Counter(hand).values()) > 2:
        return
    card, short, outs = brute_discard(hand, number, FOUR_DECKS)
    discard = advised(hand, number, FOUR_DECKS)
    assert (discard["card"], discard["deficiency_after"]) == (str(card), short)
    if short > 0:
        assert discard["outs"] == outs


def test_outs_of_a_discard_no_built_skeleton_spares_are_counted_with_a_table() -> None:
    """7H and 8S both leave 3 short; 8S can be laid off on the eights (danger 1, the
    next player's state not known), so 7H goes. Its outs were "at least 0 ..., each
    checked"; they are the unseen natural cards after which the CP-SAT model alone
    finds the rest one card shorter."""
    request = {
        "hand": ["7H", "8S", "KD", "KC"],
        "hand_number": 1,
        "table": [{"cards": ["8H", "8D", "8C"]}],
        "phase": "play",
    }
    discard = advise_shanghai(request)["discard"]
    assert (discard["card"], discard["deficiency_after"], discard["danger"]) == ("7H", 3, 0)
    position = Position(
        tuple(parse_cards("7H 8S KD KC")),
        Contract.for_hand(1),
        table=(TableMeld(read_meld(parse_cards("8H 8D 8C"), STANDARD)),),
    )
    unseen = +position.unseen(STANDARD)
    rest = Counter(parse_cards("8S KD KC"))
    outs = 0
    for card, copies in unseen.items():
        if wild(card, STANDARD):
            continue
        more, fewer = rest.copy(), unseen.copy()
        more[card] += 1
        fewer[card] -= 1
        found, _ = deficiency(more, contract_of(position), +fewer, STANDARD, search=False)
        outs += copies * (found == 2)
    assert outs == discard["outs"] == 10
    assert "at least" not in discard["reason"]
    assert (
        "(10 unseen natural cards would each lower that by one, each checked)"
        in (discard["reason"])
    )
    # Told the next player is not down, both are safe and 8S keeps more outs.
    discard = advise_shanghai(request | {"next_player": {"down": False}})["discard"]
    assert (discard["card"], discard["outs"]) == ("8S", 13)


def test_a_count_cut_short_is_not_said_to_be_checked() -> None:
    reason = _reason(Card.parse("7H"), 3, Outs((), 4, False), 0, 2, STANDARD)
    assert "at least 4" in reason
    assert "each checked" not in reason


@pytest.mark.parametrize("tied", [1, 2])
def test_a_count_cut_short_says_what_stopped_it_of_one_discard_too(tied: int) -> None:
    """Outs left "at least" say why whether or not the discard was tied: of the only
    discard keeping the deficiency the reason said "at least 4 unseen natural cards
    would each lower it by one." and nothing of why."""
    outs = Outs((), 4, False, OutsCut.COUNT)
    reason = _reason(Card.parse("7H"), 3, outs, 0, tied, STANDARD, why="never said here")
    assert "at least 4" in reason
    assert "not every card was decided: the search for outs reached its fixed count" in reason
    assert "never said here" not in reason
    searched = _reason(Card.parse("7H"), 3, Outs((), 4, False), 0, tied, STANDARD, why="X")
    assert "not every card was decided: X" in searched


def test_discards_that_keep_the_deficiency_share_the_proof_of_the_whole_hand(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Hand 10 (three runs of 5), 9 cards short, every discard but three leaving 9:
    the outs of what each leaves needed a CP-SAT proof that no card left undecided
    lowers it (0.1 s of work each; the turn took 1.2 s). A card that does not lower
    the whole hand's deficiency does not lower that of the hand less a card, when
    both are as short: the whole hand's proof, made once, settles every such discard.
    The outs are those that a study of each rest alone proves."""
    position = Position(
        tuple(parse_cards("2S 8C 8D 9D JS 3S 2S 6S 3H KD 3D 2C")),
        Contract.for_hand(10),
        table=tuple(
            TableMeld(read_meld(parse_cards(meld), STANDARD))
            for meld in ("4C 4S 4S", "AS AC AH", "JD JK JH", "10D 10H 10D")
        ),
        upcard=Card.parse("5S"),
        seen=tuple(parse_cards("JK 8H 8D")),
    )
    hand, unseen = Counter(position.hand), +position.unseen(STANDARD)
    # The work bounds decide; a long clock keeps a loaded machine (the suite on two
    # cores beside other jobs) from stopping a solve early (it failed so once).
    roomy = Limit(time=60)
    study = Study(hand, contract_of(position), unseen, STANDARD, limit=roomy)
    assert study.value == 9
    keeping = [card for card in sorted(hand) if study.keeps(card)]
    assert len(keeping) == 8
    solves: list[int] = []
    real = deficiency_module.lowering_cards

    def counted(*args: Any, **kwargs: Any) -> Any:
        solves.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(deficiency_module, "lowering_cards", counted)
    shared = {card: study.outs_after(card, 9) for card in keeping}
    assert len(solves) == 1  # seven before
    for card in keeping:
        rest = hand.copy()
        rest[card] -= 1
        alone = Study(
            +rest, contract_of(position), unseen, STANDARD, value=9, limit=roomy
        ).exact_verdicts()
        natural = {c: lowers for c, lowers in alone.items() if not wild(c, STANDARD)}
        assert None not in natural.values()
        assert shared[card].cards == tuple(c for c, lowers in natural.items() if lowers)
        assert shared[card].complete


def test_a_discard_the_clock_left_undecided_is_not_counted_as_raising_the_deficiency(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Cut by the clock, a discard whose deficiency was not found (KC keeps it at 3)
    was taken as one that raises it: "of the 6 such discards" where there are 7."""
    request = {
        "hand": ["QS", "JC", "6S", "10S", "2C", "10C", "4D", "KC", "7C", "2S", "5C", "JK"],
        "hand_number": 4,
        "phase": "play",
    }
    assert "of the 7 such discards" in advise_shanghai(request)["discard"]["reason"]
    spend_the_clock(monkeypatch, "solver.shanghai.wire")
    answer = advise_shanghai(request)
    assert answer["deficiency"] == 3
    reason = answer["discard"]["reason"]
    assert "(exact), the fewest any discard leaves; of the 6 such discards" in reason
    assert reason.endswith(
        "A search stopped before deciding whether discarding KC would keep the deficiency too."
    )


def test_no_discard_decided_by_the_clock_is_not_said_to_find_no_way_to_the_contract(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The deficiency is found (7) but no discard's before the clock ran out: the reason
    said "the search found no way to complete the contract in time"."""
    request = {"hand": ["5S", "6H", "7H", "JK", "JK"], "hand_number": 7, "phase": "play"}
    spend_the_clock(monkeypatch, "solver.shanghai.wire")
    answer = advise_shanghai(request)
    assert answer["deficiency"] == 7
    assert answer["discard"]["reason"] == (
        "Discard JK: a search stopped before finding which discards keep the deficiency"
        " (not decided: 5S 6H 7H JK), so shed the most points (25)."
    )


def test_a_deficiency_the_work_limit_left_as_the_fewest_found_is_not_said_exact(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A deficiency solve that stops on its work limit leaves the fewest found (10) as an
    upper bound (the bound is 8): the discard said "10 cards short of the contract
    (exact)", and the answer gave 10 as the exact deficiency."""
    request = {
        "hand": ["6S", "9S", "JH", "QH", "AH", "2D", "8D", "KC", "JK", "JK"],
        "hand_number": 8,
        "phase": "play",
        "seen": ["10H", "9D", "JD"],
        "rules": {"decks": 1, "min_set_len": 4},
    }
    monkeypatch.setattr(
        deficiency_module,
        "solve_model",
        lambda hm, limit, effort=1.0: solve_model(hm, limit, 0.01),
    )
    answer = advise_shanghai(request)
    assert answer["status"] == "unknown"
    assert answer["deficiency"] is None
    discard = answer["discard"]
    assert "(exact)" not in discard["reason"]
    assert "at most 10 cards short of the contract (not proven" in discard["reason"]
    assert discard["deficiency_after"] is None
    assert discard["outs"] is None


def test_a_low_ace_is_related_to_the_two_the_next_player_took() -> None:
    """Under ace_low a next player who took 2S may be building A-2-3-4 of spades, yet
    AS was rated danger 0 (related only within two ranks of 14) and thrown to them for
    its 15 points; it now has danger 1 and KD goes. With the ace high only, AS is no
    closer to 2S than any other spade, and goes."""
    ask = {"hand": ["AS", "KD"], "hand_number": 1, "down": True, "phase": "play"}
    ask["next_player"] = {"took": ["2S"]}
    low = advise_shanghai({**ask, "rules": {"ace_low": True}})["discard"]
    assert (low["card"], low["danger"]) == ("KD", 0)
    assert "lowest danger (0" in low["reason"]
    high = advise_shanghai(ask)["discard"]
    assert (high["card"], high["danger"]) == ("AS", 0)


LONG_HAND = {
    "hand": [
        "2C", "3S", "3C", "9D", "5S", "9C", "QD", "5S", "4C", "JS", "8C",
        "5S", "QS", "9H", "QS", "QH", "4C", "JS", "QH", "10C", "10C", "3D",
    ],
    "hand_number": 10,
    "phase": "play",
    "upcard": "KS",
    "rules": {"decks": 8, "jokers_per_deck": 4, "twos_wild": True},
}  # fmt: skip
"""A 22-card hand of 8 decks, 32 jokers and wild twos that does not go down: its discard
is found by the search alone (no CP-SAT solve), which built some 500 completions for the
outs of its 12 tied discards, 0.3-0.7 s, after a 1 ms or 10 ms limit had run out."""


def test_a_spent_clock_stops_the_search_for_outs_and_the_answer_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The outs of the tied discards are searched in Python, outside CP-SAT: that search
    checks the clock before each completion it builds. Once the clock has run out it
    builds none and the answer says the clock cut it (``time_capped``, the outs counted
    "at least"); it said ``optimal`` and not cut, 0.5 s after a 10 ms limit."""
    idle = advise_shanghai(LONG_HAND)
    assert idle["time_capped"] is False
    assert "at least" not in idle["discard"]["reason"]
    built: list[object] = []
    build = deficiency_module.build  # type: ignore[attr-defined]

    def counted(*args: Any, **kwargs: Any) -> Any:
        built.append(args)
        return build(*args, **kwargs)

    monkeypatch.setattr(deficiency_module, "build", counted)
    spend_the_clock(monkeypatch, "solver.shanghai.wire")
    cut = advise_shanghai(LONG_HAND)
    assert built == []
    assert cut["time_capped"] is True
    assert cut["status"] != "optimal"
    assert cut["discard"] is not None
    assert "at least" in cut["discard"]["reason"]
    japanese = advise_shanghai({**LONG_HAND, "lang": "ja"})
    assert japanese["time_capped"] is True
    assert japanese["discard"]["card"] == cut["discard"]["card"]


def test_outs_the_count_of_constructions_cut_say_that_count_stopped_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The search for outs stops at its count of constructions (``MAX_OUT_CHECKS``, here
    20 of the some 300 the long hand's 12 tied discards build), and the advice's work
    budget (none) keeps CP-SAT from deciding the rest: the outs are "at least", and the
    reason said that the work budget stopped a search first, naming neither the count
    nor what the budget did. It names both, in English and Japanese, on the library's
    reason and the command line's lines; nothing was cut by the clock."""
    monkeypatch.setattr(deficiency_module, "MAX_OUT_CHECKS", 20)
    monkeypatch.setattr(phase_budget, "PLAY", PhaseBudget(work=0.0, solves=0))
    answer = advise_shanghai(LONG_HAND)
    assert answer["time_capped"] is False
    reason = answer["discard"]["reason"]
    assert "at least" in reason
    said = (
        "not every card was decided: the search for outs reached its fixed count of 20"
        " completions built for the hand's discards together, and the advice's work budget"
        " was spent before CP-SAT could decide the rest)"
    )
    assert said in reason
    assert "stopped a search first" not in reason
    assert said in describe_advice(answer)
    japanese = advise_shanghai({**LONG_HAND, "lang": "ja"})
    assert japanese["discard"]["card"] == answer["discard"]["card"]
    assert "20通り" in japanese["discard"]["reason"]
    assert "search" not in japanese["discard"]["reason"]


def test_outs_the_count_cut_say_so_as_data() -> None:
    """:meth:`Study.outs` of a hand whose search for outs reached its count carries that
    cut (:class:`OutsCut`), the outs of a hand it did not reach none; and
    :meth:`Study.outs_after`, when a spent budget or a spent clock then keeps CP-SAT from
    deciding the rest, says which of the two followed."""
    rules = Rules(decks=8, jokers_per_deck=4, twos_wild=True)
    contract = Contract.for_hand(10, rules)
    cards = LONG_HAND["hand"]
    assert isinstance(cards, list)
    hand = Counter(parse_cards(" ".join(cards)))
    upcard = parse_cards("KS")[0]  # LONG_HAND's
    unseen = +Position(tuple(hand.elements()), contract, upcard=upcard).unseen(rules)
    study = Study(hand, contract, unseen, rules)
    whole = [study.outs(card) for card in sorted(hand) if study.keeps(card)]
    assert whole
    assert all(o.complete and o.cut is None for o in whole)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(deficiency_module, "MAX_OUT_CHECKS", 20)
        study = Study(hand, contract, unseen, rules)
        cut = [study.outs(card) for card in sorted(hand) if study.keeps(card)]
    assert any(not o.complete for o in cut)
    assert all(o.cut is OutsCut.COUNT for o in cut if not o.complete)
    short = study.value
    assert short is not None
    [card, *_] = [c for c in sorted(hand) if study.keeps(c) and not study.outs(c).complete]
    spent = {
        OutsCut.COUNT_THEN_BUDGET: Limit(budget=Budget(0, 0.0)),
        OutsCut.COUNT_THEN_CLOCK: replace(Limit(), deadline=0.0),
    }
    for then, limit in spent.items():
        study.limit = limit
        after = study.outs_after(card, short)
        assert (after.complete, after.cut) == (False, then)

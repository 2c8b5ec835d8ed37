"""The draw phase's figures checked by a second method: the search's verdicts
against the CP-SAT model alone, the one-model enumeration of drawn cards against a
solve per card, and the filter of cards a down player could lay off."""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import solver.cpsat as cpsat
import solver.shanghai.deficiency as deficiency_module
import solver.shanghai.draw as draw_module
from benchmarks.shanghai_speed import deal
from meldwise.cli import main as meldwise_main
from solver import advise_shanghai, i18n
from solver.cpsat import Limit, Status
from solver.i18n import language, percent_text
from solver.shanghai import STANDARD, Contract, Position, advise, parse_cards
from solver.shanghai.cli import describe_advice
from solver.shanghai.deficiency import Study, deficiency, lowering_cards
from solver.shanghai.draw import _expected, reachable
from solver.shanghai.melds import TableMeld, read_meld
from solver.shanghai.model import solve_model
from solver.shanghai.notation import Card
from solver.shanghai.phase_budget import TIME_FACTOR
from solver.shanghai.position import Phase
from solver.shanghai.rules import Rules
from solver.shanghai.search import drawn_cards, solve_turn, turn_reach
from tests.shanghai.strategies import HAND_NUMBERS, RANDOMS, contract_of
from tests.support import counting_solves, spend_the_clock

LIMIT = Limit(20.0)


@settings(max_examples=8)
@given(rng=RANDOMS, number=HAND_NUMBERS)
def test_search_verdicts_agree_with_the_cp_sat_model(rng: random.Random, number: int) -> None:
    """Whether one more card lowers the deficiency, and whether a discard keeps it:
    every answer the search gives (True or False, never None) is what the CP-SAT
    model alone finds, and so are the exact verdicts (the search, the bound and a
    construction per card, then one model) and the one-model enumeration of the
    cards that lower it (every card it finds lowers it; once it says OPTIMAL, it
    finds them all)."""
    position = deal(rng, number, False, Phase.DRAW)
    contract = contract_of(position)
    unseen = position.unseen(STANDARD)
    hand = Counter(position.hand)
    study = Study(hand, contract, unseen, STANDARD, limit=LIMIT)
    value, _ = deficiency(hand, contract, unseen, STANDARD, limit=LIMIT, search=False)
    assert study.value == value
    cards = rng.sample(study.cards, 4)
    together: set[Card] = set()
    complete = True  # with no deficiency to lower, no card lowers it: none found
    if value:
        together, status = lowering_cards(
            hand, contract, unseen, STANDARD, cards, value - 1, limit=LIMIT
        )
        # Stopped at its work bound (one hand-9 deal of a random run, 9 s), the
        # enumeration says UNKNOWN and gives the cards found so far.
        complete = status is Status.OPTIMAL
    verdicts = study.verdicts(budget=False)
    exact = study.exact_verdicts()
    for card in cards:
        more, fewer = hand.copy(), unseen.copy()
        more[card] += 1
        fewer[card] -= 1
        found, _ = deficiency(more, contract, +fewer, STANDARD, limit=LIMIT, search=False)
        lowers = found is not None and value is not None and found < value
        assert verdicts[card] in (None, lowers), card
        assert exact[card] == lowers, card
        assert lowers or card not in together, card
        assert not complete or (card in together) == lowers, card
    for card in rng.sample(sorted(hand), 2):
        keeps = study.keeps(card)
        less = hand.copy()
        less[card] -= 1
        found, _ = deficiency(+less, contract, unseen, STANDARD, limit=LIMIT, search=False)
        assert keeps == (found == value), card


@settings(max_examples=6)
@given(rng=RANDOMS, number=HAND_NUMBERS, down=st.booleans())
def test_drawn_cards_equal_one_solve_per_card(rng: random.Random, number: int, down: bool) -> None:
    """The cards that, drawn, let the play go out (and, not down, go down), found in
    one model, equal those found by solving the turn once per unseen card (each card
    found, and ten others); and a
    down player goes out only with a card the reach filter keeps."""
    position = deal(rng, number, down, Phase.DRAW)
    if not down:  # a hand a card or two from going down, so there is something to find
        position = deal(rng, rng.choice([1, 2, 4]), False, Phase.DRAW)
    unseen = +position.unseen(STANDARD)
    hand = Counter(position.hand)
    table = tuple(item.meld for item in position.table)
    contract = None if down else position.contract
    cards = sorted(unseen)
    outs, _ = drawn_cards(hand, contract, table, unseen, STANDARD, cards, out=True, limit=LIMIT)
    downs: set[Card] = set()
    if not down:
        downs, _ = drawn_cards(
            hand, contract, table, unseen, STANDARD, cards, out=False, limit=LIMIT
        )
    reach = reachable(hand, table, STANDARD)
    others = [c for c in cards if c not in outs and c not in downs]
    for card in sorted(outs | downs) + rng.sample(others, min(10, len(others))):
        more, fewer = hand.copy(), unseen.copy()
        more[card] += 1
        fewer[card] -= 1
        turn, _ = solve_turn(more, contract, table, +fewer, STANDARD, limit=LIMIT)
        assert (turn is not None and turn.goes_out) == (card in outs), card
        if not down:
            assert (turn is not None) == (card in downs), card
        elif card in outs:
            assert card.is_joker or card in reach, card


def _chances(position: Position) -> tuple[float | None, float | None]:
    """The stock option's (go down, go out) chances of the draw-phase advice."""
    answer = advise(position, STANDARD, limit=LIMIT)
    stock = next(o for o in answer.draw_options if o.action == "draw")
    return stock.go_down, stock.go_out


def _chances_by_solving(position: Position) -> tuple[float | None, float | None]:
    """The same chances from the play phase solved on its own for every unseen card
    drawn (each card weighed by its unseen copies)."""
    unseen = +position.unseen(STANDARD)
    hand = Counter(position.hand)
    table = tuple(item.meld for item in position.table)
    contract = None if position.down else position.contract
    downs = outs = 0
    for card, copies in unseen.items():
        more, fewer = hand.copy(), unseen.copy()
        more[card] += 1
        fewer[card] -= 1
        turn, _ = solve_turn(more, contract, table, +fewer, STANDARD, limit=LIMIT)
        downs += copies * (turn is not None)
        outs += copies * (turn is not None and turn.goes_out)
    total = unseen.total()
    return None if position.down else downs / total, outs / total


@settings(max_examples=6)
@given(rng=RANDOMS, number=HAND_NUMBERS, down=st.booleans(), cut=st.integers(0, 5))
def test_stock_chances_equal_one_turn_solve_per_card(
    rng: random.Random, number: int, down: bool, cut: int
) -> None:
    """The draw option's chances to go down and to go out (the deficiency, the reach
    filter and the one-model enumeration together) equal those of the play phase
    solved once per unseen card; hands not down are a card or two from going down,
    some cut to a few cards more than the contract."""
    position = deal(rng, number, down, Phase.DRAW)
    if not down:
        position = deal(rng, rng.choice([1, 2, 4]), False, Phase.DRAW)
        size = max(contract_of(position).cards - 1 + cut, 1)
        position = replace(position, hand=position.hand[:size])
    found, expected = _chances(position), _chances_by_solving(position)
    assert found == pytest.approx(expected), [str(c) for c in position.hand]


def test_a_hand_that_meets_the_contract_goes_down_with_any_card_drawn() -> None:
    """Seven cards meeting two sets of three: alone they would leave one card (no
    going down), with any card drawn two (go down, discard one). The stock option
    once said 0%."""
    hand = tuple(parse_cards("5S 5D 5C 9S 9D 9C KH"))
    position = Position(hand, Contract.for_hand(1), upcard=parse_cards("3H")[0], phase=Phase.DRAW)
    assert _chances(position) == pytest.approx(_chances_by_solving(position))
    assert _chances(position)[0] == 1


def test_a_hand_whose_jokers_ask_a_longer_run_goes_down_only_with_a_card_that_joins() -> None:
    """3C JK 5C JK JK 8C meets a run of 5 only as one run of 6 (no five of them keep
    the wild-card limit), so with a card drawn that cannot join it one card is left
    and it cannot go down; the stock option once said 100%, taking every card that
    keeps the deficiency at 0 to go down as if the run could be laid at 5."""
    hand = tuple(parse_cards("3C JK 5C JK JK 8C"))
    position = Position(hand, Contract(runs=(5,)), upcard=parse_cards("KH")[0], phase=Phase.DRAW)
    found, expected = _chances(position), _chances_by_solving(position)
    assert found == pytest.approx(expected)
    assert found[0] is not None
    assert found[0] < 0.2


def test_a_wild_card_the_best_plays_leave_goes_out_with_a_card_not_near_the_rest() -> None:
    """Twos wild, going out by discarding: JK 3D 3C JK 2S 5D goes down as 3D JK 5D JK
    leaving 3C 2S; drawn, 4D, 7D or 8D lets the wild 2S join the run too (3D 2S 5D JK
    JK 8D) and 3C go out as the discard. The stock option counted only 2D (1 in 47),
    as the cards near the cards left were taken to be those of their rank or suit."""
    rules = Rules(decks=1, twos_wild=True, go_out_by_discard=True, min_run_len=3)
    hand = Counter(parse_cards("JK 3D 3C JK 2S 5D"))
    position = Position(
        tuple(hand.elements()),
        Contract(runs=(3,)),
        upcard=parse_cards("6D")[0],
        phase=Phase.DRAW,
    )
    stock = next(o for o in advise(position, rules, limit=LIMIT).draw_options if o.action == "draw")
    unseen = +position.unseen(rules)
    outs = set()
    for card in unseen:
        more, fewer = hand + Counter([card]), unseen - Counter([card])
        turn, _ = solve_turn(more, Contract(runs=(3,)), (), fewer, rules, limit=LIMIT)
        if turn is not None and turn.goes_out:
            outs.add(str(card))
    assert outs == {"2D", "4D", "7D", "8D"}
    assert stock.go_out == pytest.approx(4 / unseen.total())


def test_a_card_that_joins_a_card_the_best_plays_use_can_go_out() -> None:
    """Twos wild: 5H 2H 2S 3H 2D 4S JK JK goes down to a set and a run of 3 leaving
    3H 5H; drawn, 4D goes out with 4S and a wild card, which frees another wild card
    for 3H JK 5H. The stock option looked for going out only among the cards near
    those left (4H), and said 1 in 45 for the 3 in 45 (4H, 4D, 4C) that go out."""
    rules = Rules(decks=1, twos_wild=True, go_out_by_discard=False, min_run_len=3)
    hand = Counter(parse_cards("5H 2H 2S 3H 2D 4S JK JK"))
    contract = Contract(sets=(3,), runs=(3,))
    position = Position(
        tuple(hand.elements()), contract, upcard=parse_cards("AC")[0], phase=Phase.DRAW
    )
    stock = next(o for o in advise(position, rules, limit=LIMIT).draw_options if o.action == "draw")
    unseen = +position.unseen(rules)
    outs = set()
    for card in unseen:
        more, fewer = hand + Counter([card]), unseen - Counter([card])
        turn, _ = solve_turn(more, contract, (), fewer, rules, limit=LIMIT)
        if turn is not None and turn.goes_out:
            outs.add(str(card))
    assert outs == {"4H", "4D", "4C"}
    assert stock.go_out == pytest.approx(3 / unseen.total())


def _outs_by_solving(position: Position, rules: Rules) -> set[str]:
    """The unseen cards after which the play phase goes out, one solve per card."""
    hand, contract = Counter(position.hand), position.contract
    table = tuple(item.meld for item in position.table)
    unseen = +position.unseen(rules)
    outs = set()
    for card in unseen:
        more, fewer = hand + Counter([card]), unseen - Counter([card])
        turn, _ = solve_turn(more, contract, table, fewer, rules, limit=LIMIT)
        if turn is not None and turn.goes_out:
            outs.add(str(card))
    return outs


def _stock_go_out(position: Position, rules: Rules) -> float | None:
    options = advise(position, rules, limit=LIMIT).draw_options
    return next(o for o in options if o.action == "draw").go_out


def test_a_card_swapped_for_a_table_joker_can_go_out() -> None:
    """QC QS QD 8D 9D 10D JD KD AD goes down (a set and a run of 4) keeping KD AD;
    a 6H drawn is swapped for the joker of 5H JK 7H 8H, which fills QD: out. A queen
    or a joker drawn goes out too (QH or a second QS/QC makes the set, the hand's QD
    fills the run). The stock option looked for going out only among the cards of
    the hand's ranks and suits, and said 8 in 95 for the 10 in 95."""
    rules = Rules()
    table = (TableMeld(read_meld(parse_cards("5H JK 7H 8H"), rules), "ann"),)
    hand = tuple(parse_cards("QC QS QD 8D 9D 10D JD KD AD"))
    position = Position(hand, Contract.for_hand(2), table, phase=Phase.DRAW)
    unseen = position.unseen(rules).total()
    assert _outs_by_solving(position, rules) == {"6H", "QS", "QH", "QD", "QC", "JK"}
    assert _stock_go_out(position, rules) == pytest.approx(10 / unseen)


def test_a_low_ace_is_next_to_the_two() -> None:
    """Ace low, going out by discarding: KC KD KH QC QD QH AS 9H goes down keeping
    AS 9H; a 2S drawn is laid off below 3S 4S 5S 6S with AS below it, and 9H goes
    out as the discard. The stock option measured AS to 2S as 12 ranks apart, not
    one place, and counted only the jokers (4 in 96, not 6 in 96)."""
    rules = Rules(ace_low=True, go_out_by_discard=True)
    table = (TableMeld(read_meld(parse_cards("3S 4S 5S 6S"), rules), "ann"),)
    hand = tuple(parse_cards("KC KD KH QC QD QH AS 9H"))
    position = Position(hand, Contract.for_hand(1), table, phase=Phase.DRAW)
    unseen = position.unseen(rules).total()
    assert _outs_by_solving(position, rules) == {"2S", "JK"}
    assert _stock_go_out(position, rules) == pytest.approx(6 / unseen)


def _solving_draw_turn() -> Position:
    """A draw-phase turn whose advice makes CP-SAT solves (the first of a seeded
    stream: most turns are settled by the searches alone)."""
    rng = random.Random(2026)
    while True:
        position = deal(rng, rng.randint(1, 10), rng.random() < 0.3, Phase.DRAW)
        made: list[float] = []
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(cpsat, "run", _recording(made))
            advise(position, STANDARD, limit=LIMIT)
        if len(made) >= 2:
            return position


def _recording(deadlines: list[float]) -> Callable[..., cpsat.Solved]:
    run = cpsat.run

    def recorded(model: Any, limits: cpsat.Limits, *args: Any) -> cpsat.Solved:
        deadlines.append(limits.deadline)
        return run(model, limits, *args)

    return recorded


def test_a_turns_solves_share_its_time_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every CP-SAT solve of one advice ends by the deadline of its started limit, the
    draw phase's stretched to its cap (:data:`~solver.shanghai.draw.TIME_FACTOR`
    times the time limit): the turn's solves share the cap, as the service's watchdog
    assumes; each solve with a cap of its own would end later."""
    position = _solving_draw_turn()
    deadlines: list[float] = []
    monkeypatch.setattr(cpsat, "run", _recording(deadlines))
    limit = Limit(time=30.0).started()
    assert limit.deadline is not None
    advise(position, STANDARD, limit=limit)
    assert len(deadlines) >= 2
    assert max(deadlines) <= limit.deadline + (TIME_FACTOR - 1) * limit.time


def test_a_turn_cut_by_its_clock_does_not_claim_proof() -> None:
    """With its shared clock already spent, the advice still answers, and its status
    says the solves were cut (not optimal)."""
    position = _solving_draw_turn()
    assert advise(position, STANDARD, limit=LIMIT).status is Status.OPTIMAL
    # Spent, the draw phase's cap (ten times the limit) too.
    spent = replace(LIMIT, deadline=time.perf_counter() - TIME_FACTOR * LIMIT.time)
    assert advise(position, STANDARD, limit=spent).status is not Status.OPTIMAL


def test_exact_verdicts_settle_cards_the_one_model_could_not(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """When the one model of :func:`lowering_cards` stops early (its last solve must
    rule out every card left at once, within one solve's work: on a rare dealt hand,
    11 cards for 3 sets of 3 and a run of 5, deficiency 7, it stopped with 8H and 14
    others undecided), each card left is settled by a solve of its own, and agrees
    with the CP-SAT model alone; the exact verdicts said None for them."""
    hand = Counter(parse_cards("5S 5D 9S KH 3C 7H JD"))
    contract = Contract.for_hand(1)
    unseen = +Position(tuple(hand.elements()), contract).unseen(STANDARD)
    study = Study(hand, contract, unseen, STANDARD, limit=LIMIT)
    value = study.value
    assert value
    left: list[Card] = []

    def stopped(*args: Any, **kwargs: Any) -> tuple[set[Card], Status]:
        left.extend(args[4])
        return set(), Status.UNKNOWN

    # Leave every card to CP-SAT (the search and the one-card construction settle
    # all of this small hand's), and let the one model stop before finding any.
    monkeypatch.setattr(study, "verdicts", lambda budget: dict.fromkeys(study.cards))
    monkeypatch.setattr(study, "_one_more", lambda card: None)
    monkeypatch.setattr("solver.shanghai.deficiency.lowering_cards", stopped)
    exact = study.exact_verdicts()
    assert left == study.cards
    for card in study.cards:
        more, fewer = hand.copy(), unseen.copy()
        more[card] += 1
        fewer[card] -= 1
        found, _ = deficiency(more, contract, +fewer, STANDARD, limit=LIMIT, search=False)
        assert exact[card] == (found is not None and found < value), card
    assert any(exact.values())
    assert not all(exact.values())
    assert study.status is Status.OPTIMAL


def test_no_unseen_card_lowers_a_deficiency_they_cannot_meet_at_all() -> None:
    """When not even every unseen card completes the contract (proven), one more of
    any of them completes it no more: every verdict is False and the outs are
    complete with no card, where they used to be all undecided. A card in view (not
    among the unseen) could still help: undecided."""
    hand = Counter(parse_cards("5S 5D 9S"))
    contract = Contract.for_hand(1)  # two sets of 3
    unseen = Counter(parse_cards("9H KD 5H"))
    study = Study(hand, contract, unseen, STANDARD, limit=LIMIT)
    assert study.value is None
    assert study.beyond_reach
    for card in study.cards:
        more, fewer = hand.copy(), unseen.copy()
        more[card] += 1
        fewer[card] -= 1
        found, status = deficiency(more, contract, +fewer, STANDARD, limit=LIMIT, search=False)
        assert found is None, card
        assert status is Status.OPTIMAL, card
    assert study.exact_verdicts() == dict.fromkeys(study.cards, False)
    outs = study.outs()
    assert outs.complete
    assert outs.count == 0
    assert study.lowered_by(Card.parse("KD")) is False
    assert study.lowered_by(Card.parse("9D"), unseen=False) is None


RULES_BY_DISCARD = Rules(decks=1, jokers_per_deck=0, go_out_by_discard=True)
BY_DISCARD = {"decks": 1, "jokers_per_deck": 0, "go_out_by_discard": True}


@pytest.mark.parametrize(
    ("hand", "table"),
    [
        (["6S"], [["6D", "6H", "6C"]]),
        (["6S", "9H"], [["6D", "6H", "6C"], ["10H", "JH", "QH", "KH"]]),
        (["6S", "8H"], [["6D", "6H", "6C"], ["10H", "JH", "QH", "KH"]]),
    ],
)
def test_a_down_player_goes_out_by_discarding_a_card_no_meld_takes(
    hand: list[str], table: list[list[str]]
) -> None:
    """Under go_out_by_discard, a player who is down and can lay off the whole hand
    goes out with any card drawn: the card is discarded when no meld takes it. The
    stock's chance to go out counted only the cards that can be laid off (0% for a
    lone 6S beside the sixes); it equals the play-phase advice asked once per unseen
    card drawn (the wire rounds chances to 4 places). With 8H, which no meld takes
    without 9H, only 9H (8H laid off too) and AH (laid off, 8H discarded) go out."""
    request: dict[str, Any] = {
        "hand": hand,
        "table": [{"cards": cards} for cards in table],
        "down": True,
        "hand_number": 1,
        "upcard": "2C",
        "rules": BY_DISCARD,
    }
    answer = advise_shanghai(request | {"phase": "draw"})
    stock = next(o for o in answer["draw_options"] if o["action"] == "draw")
    position = Position(
        tuple(parse_cards(" ".join(hand))),
        Contract.for_hand(1),
        tuple(TableMeld(read_meld(parse_cards(" ".join(m)), RULES_BY_DISCARD)) for m in table),
        True,
        parse_cards("2C")[0],
    )
    unseen = +position.unseen(RULES_BY_DISCARD)
    out = 0
    for card, copies in unseen.items():
        play = advise_shanghai(request | {"phase": "play", "hand": [*hand, str(card)]})
        out += copies * play["end_of_turn"]["goes_out"]
    assert stock["go_out"] == pytest.approx(out / unseen.total(), abs=1e-4)
    assert stock["go_out"] > 0


BEYOND_REACH = {
    "hand": ["2S", "3S", "4S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS"],
    "contract": {"runs": [13]},
    "phase": "draw",
    "upcard": "AS",
    "seen": ["5S", "5H", "5D", "5C"],
    "rules": {"decks": 1, "jokers_per_deck": 0},
}
"""A run of 13 with every five in view: no unseen card completes it, which the search
alone cannot tell (CP-SAT proves it)."""


def _rules_of(answer: dict[str, Any]) -> str:
    return f"{answer['take_upcard']['rule']} {answer['buy']['rule']}"


def test_a_figure_the_clock_cut_is_neither_impossible_nor_exact(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A deficiency left unknown because the search stopped was worded as a proof that
    the unseen cards cannot complete the contract, and called exact; so was a stock
    card's chance ("?"). Proven, the same figures still say so."""
    proven = advise_shanghai(BEYOND_REACH)
    assert proven["time_capped"] is False
    said = _rules_of(proven)
    assert "cannot complete the contract" in said
    assert "(cards still needed, exact)" in said
    assert "chance 0% (exact" in said  # proven: no card completes it, so none lowers it
    assert "not found" not in said
    spend_the_clock(monkeypatch, "solver.shanghai.wire")
    cut = advise_shanghai(BEYOND_REACH)
    assert cut["time_capped"] is True
    assert cut["deficiency"] is None
    said = _rules_of(cut)
    assert "cannot complete" not in said
    assert "exact" not in said
    assert "the clock (the time limit) stopped a search first" in said
    assert "?" not in said


def test_an_expected_deficiency_missing_is_not_about_anything() -> None:
    # A buy's figures read "the expected deficiency is about unknown (...)".
    assert _expected(1.96, False, "why") == "about 1.96"
    assert _expected(None, False, "why") == "unknown (not found: why)"
    assert _expected(None, True, "why") == "unknown (the unseen cards cannot complete the contract)"


DOWN_WITH_TWO_CARDS = {
    "hand": ["9S", "10S"],
    "hand_number": 2,
    "down": True,
    "table": [
        {"owner": "me", "cards": ["8H", "8S", "8D"]},
        {"owner": "me", "cards": ["JC", "QC", "KC", "AC"]},
        {"owner": "me", "cards": ["4S", "5S", "6S", "7S", "8S"]},
    ],
    "upcard": "JS",
    "phase": "draw",
}


def test_a_player_down_is_not_told_no_card_goes_out_when_the_clock_cut_the_search(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # "Draw: no card lets you go out this turn (every unseen card and JS checked)" came
    # of a search stopped at once; given its time, JS lets the player go out.
    request = DOWN_WITH_TWO_CARDS
    assert "Take JS: with it you go out this turn (solved)." in _rules_of(advise_shanghai(request))
    spend_the_clock(monkeypatch, "solver.shanghai.wire")
    cut = advise_shanghai(request)
    assert cut["time_capped"] is True
    said = _rules_of(cut)
    assert "checked" not in said
    assert "(solved)" not in said
    assert "was not decided (the clock (the time limit) stopped a search first)" in said


def test_draw_options_the_clock_cut_give_their_chances_as_at_least(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The options printed "go out 0%" for chances a search stopped at once never
    worked out (given its time, taking JS goes out for sure): a cut chance counts only
    the cards found, and says so."""
    proven = advise_shanghai(DOWN_WITH_TWO_CARDS)
    options = {o["action"]: o for o in proven["draw_options"]}
    assert options["take"]["go_out"] == 1.0
    assert options["draw"]["go_out"] > 0
    assert all(o["chances_proven"] for o in options.values())
    lines = describe_advice(proven)
    assert "go out 100%" in lines
    assert "at least" not in lines
    spend_the_clock(monkeypatch, "solver.shanghai.wire")
    cut = advise_shanghai(DOWN_WITH_TWO_CARDS)
    options = {o["action"]: o for o in cut["draw_options"]}
    assert not options["take"]["chances_proven"]
    assert not options["draw"]["chances_proven"]
    lines = describe_advice(cut)
    assert "go out 0%" not in lines
    assert "go out at least 0%" in lines


def test_no_chance_of_lowering_a_deficiency_the_work_limit_left_unproven(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The hand's deficiency solve stops on its work limit (at most 10 found, the bound
    is 8): the advice said "a stock card lowers it with chance 100% (exact over the 40
    unseen cards)" of that unproven figure, and "at at most 10"."""
    monkeypatch.setattr(
        deficiency_module,
        "solve_model",
        lambda hm, limit, effort=1.0: solve_model(hm, limit, 0.01),
    )
    request = {
        "hand": ["6S", "9S", "JH", "QH", "AH", "2D", "8D", "KC", "JK", "JK"],
        "hand_number": 8,
        "phase": "draw",
        "upcard": "KH",
        "seen": ["10H", "9D", "JD"],
        "rules": {"decks": 1, "min_set_len": 4},
    }
    answer = advise_shanghai(request)
    rule = answer["take_upcard"]["rule"]
    assert "exact" not in rule
    assert "at at most" not in rule
    assert "not decided for every unseen card (a search stopped at its own work bound" in rule
    draw = next(o for o in answer["draw_options"] if o["action"] == "draw")
    assert draw["deficiency"] is None


def test_a_take_rule_gives_a_stock_chance_cut_short_as_at_least(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The solve deciding which stock cards let the hand go down stops first (a table
    joker leaves cards to it): the take rule said "a stock card would let you with
    chance 9%" (the cards found in time; every card decided gives 11%), as if proven."""
    request = {
        "hand": ["7H", "7S", "7D", "9C", "9S", "2D", "4H", "5S", "JC", "QD", "KH"],
        "hand_number": 1,
        "phase": "draw",
        "upcard": "9H",
        "table": [{"cards": ["10H", "JH", "JK", "KH"], "owner": "ann"}],
    }
    full = advise_shanghai(request)["take_upcard"]["rule"]
    assert full.endswith("a stock card would let you with chance 11%.")
    which = drawn_cards

    def cut(*args: Any, **kwargs: Any) -> tuple[set[Card], Status]:
        found, status = which(*args, **kwargs)
        return (found, status) if kwargs.get("out") else (set(), Status.UNKNOWN)

    monkeypatch.setattr(draw_module, "drawn_cards", cut)
    answer = advise_shanghai(request)
    assert answer["draw_options"][1]["chances_proven"] is False
    # The cards found in time give 8.7%: a lower bound is rounded down ("at least 9%"
    # claimed more than was found).
    assert answer["draw_options"][1]["go_down"] == pytest.approx(0.087)
    assert answer["take_upcard"]["rule"] == (
        "Take 9H: with it you can go down this turn (solved); a stock card would let you"
        " with chance at least 8% (a search stopped before every unseen card was decided)."
    )


# --- the unseen cards fewer than the stock cards an option takes ------------------------

ONE_DECK = {"decks": 1, "jokers_per_deck": 0}


def _all_but(cards: str, *unseen: str) -> list[str]:
    """Every card of one deck without jokers but ``cards`` and ``unseen``: a ``seen``
    that leaves exactly ``unseen`` unseen."""
    held = set(cards.split()) | set(unseen)
    return [str(c) for c in sorted(parse_cards(" ".join(ALL_CARDS))) if str(c) not in held]


ALL_CARDS = [
    f"{rank}{suit}"
    for suit in "SHDC"
    for rank in ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
]


def _stock_request(unseen: tuple[str, ...], **rules: Any) -> dict[str, Any]:
    hand, up = "7S 7H 7D 9S 9H 3C 4C", "9D"
    return {
        "hand": hand.split(),
        "contract": {"sets": [3, 3]},
        "phase": "draw",
        "upcard": up,
        "buys_left": 2,
        "seen": _all_but(f"{hand} {up}", *unseen),
        "rules": {**ONE_DECK, **rules},
    }


def _option(answer: dict[str, Any], action: str) -> dict[str, Any]:
    return next(o for o in answer["draw_options"] if o["action"] == action)


def test_no_unseen_card_gives_no_figure_for_the_stock() -> None:
    """With every other card in ``seen`` the stock is empty and would be made again
    from the discard pile: the draw gave the hand's points unchanged (no card counted)
    and "chance 0%" over no card; the buy counted its penalty cards as 0 points."""
    answer = advise_shanghai(_stock_request(()))
    draw = _option(answer, "draw")
    assert (draw["deficiency"], draw["points"], draw["go_down"], draw["go_out"]) == (None,) * 4
    buy = _option(answer, "buy")
    assert (buy["deficiency"], buy["points"]) == (None, None)
    take = _option(answer, "take")
    assert (take["points"], take["go_down"]) == (40.0, 1.0)  # the take stays exact
    rule = answer["take_upcard"]["rule"]
    assert answer["take_upcard"]["take"]
    assert "%" not in rule
    assert "no card is unseen" in rule
    assert "not given" in answer["buy"]["rule"]
    assert "expected points" not in answer["buy"]["rule"]
    assert any(n.startswith("No card is unseen") for n in answer["notes"])
    assert any("The unseen cards (0) are fewer than the 2 penalty" in n for n in answer["notes"])
    text = describe_advice(answer)
    assert "No card is unseen" in text
    assert "points 40.0" in text


def test_no_unseen_card_odds_say_so() -> None:
    """The rule that compares deficiencies said "chance 0% (exact over the 0 unseen
    cards)"."""
    request = _stock_request(())
    request["hand"] = ["7S", "7H", "9S", "3C", "4C", "KD"]
    request["seen"] = _all_but("7S 7H 9S 3C 4C KD 7D")
    request["upcard"] = "7D"
    answer = advise_shanghai(request)
    rule = answer["take_upcard"]["rule"]
    assert "no card is unseen to weigh a stock card by" in rule, rule
    assert "%" not in rule, rule


def test_no_unseen_card_when_down() -> None:
    """A player who is down was told "no card lets you go out (every unseen card ...
    checked)" of no card at all."""
    request = {
        "hand": ["3S", "KH", "QC"],
        "hand_number": 3,
        "down": True,
        "phase": "draw",
        "table": [{"cards": ["8H", "8C", "8D"]}, {"cards": ["4D", "5D", "6D", "7D"]}],
        "upcard": "QS",
        "rules": ONE_DECK,
    }
    request["seen"] = _all_but("3S KH QC 8H 8C 8D 4D 5D 6D 7D QS")
    answer = advise_shanghai(request)
    draw = _option(answer, "draw")
    assert (draw["points"], draw["go_out"]) == (None, None)
    rule = answer["take_upcard"]["rule"]
    assert rule.startswith("Draw: QS does not let you go out")
    assert "no card is unseen" in rule


def test_penalty_cards_beyond_the_unseen_ones_give_no_figure() -> None:
    """One unseen card and two penalty cards: the buy counted two cards that are not
    there (points 35 + 5 + 2 x 10). The draw over that one card stays exact."""
    answer = advise_shanghai(_stock_request(("KC",), buy_penalty_cards=2))
    buy = _option(answer, "buy")
    assert (buy["cards"], buy["deficiency"], buy["points"]) == (3, None, None)
    assert _option(answer, "draw")["points"] == 35.0 + 10
    assert [n for n in answer["notes"] if "(1) are fewer than the 2 penalty cards" in n]
    assert not any(n.startswith("No card is unseen") for n in answer["notes"])
    # As many unseen cards as penalty cards: the figure is given, as before.
    enough = advise_shanghai(_stock_request(("KC",), buy_penalty_cards=1))
    assert _option(enough, "buy")["points"] == 35.0 + 5 + 10
    assert enough["notes"] == []


def test_cli_says_why_the_stock_figures_are_missing(capsys: pytest.CaptureFixture[str]) -> None:
    """The command line writes no points for an option without them, and the notes in
    the language asked for (it wrote "points 40.0" for a draw over no card)."""
    request = _stock_request(("KC",))
    args = ["shanghai", "advise", "--hand", " ".join(request["hand"]), "--sets", "3,3"]
    args += ["--phase", "draw", "--upcard", "9D", "--buys-left", "2"]
    args += ["--rule", "decks=1", "--rule", "jokers_per_deck=0"]
    assert meldwise_main([*args, "--seen", " ".join(request["seen"])]) == 0
    out = capsys.readouterr().out
    buy = next(line for line in out.splitlines() if line.strip().startswith("buy "))
    assert buy.strip() == "buy  (+3)", out
    assert "The unseen cards (1) are fewer than the 2 penalty cards" in out
    everything = " ".join([*request["seen"], "KC"])
    assert meldwise_main([*args, "--seen", everything, "--lang", "ja"]) == 0
    out = capsys.readouterr().out
    assert "見えていないカードがありません" in out
    assert "見えていないカード(0枚)が、買い(バイ)で山札から引くペナルティの2枚より少なく" in out


def test_a_chance_between_0_and_1_is_never_said_as_0_or_100_percent() -> None:
    # One unseen 8 of 385 unseen cards lets a stock card go down (0.26%): the take
    # rule said "a stock card would let you with chance 0%", and the option line "go
    # down 0%", as if it never could.
    seen = ["8S"] * 7 + ["8H"] * 6 + ["8D"] * 7 + ["8C"] * 8
    request = {
        "hand": ["7S", "7H", "7D", "8S", "8H", "KD", "4C"],
        "hand_number": 1,
        "phase": "draw",
        "upcard": "8D",
        "seen": seen,
        "rules": {"decks": 8, "jokers_per_deck": 0},
    }
    answer = advise_shanghai(request)
    stock = next(o for o in answer["draw_options"] if o["action"] == "draw")
    assert stock["chances_proven"]
    assert 0 < stock["go_down"] < 0.005
    rule = answer["take_upcard"]["rule"]
    assert rule.endswith("a stock card would let you with chance under 1%.")
    assert "go down under 1%" in describe_advice(answer)
    japanese = advise_shanghai({**request, "lang": "ja"})["take_upcard"]["rule"]
    assert "1%\u672a\u6e80" in japanese  # 1%未満
    assert "0%" not in japanese


@pytest.mark.parametrize(
    ("chance", "at_least", "said"),
    [
        (0.0, False, "0%"),
        (0.0026, False, "under 1%"),
        (0.005, False, "1%"),  # half up: f"{0.5:.0f}" is "0"
        (0.37, False, "37%"),
        (0.994, False, "99%"),
        (0.996, False, "over 99%"),
        (1.0, False, "100%"),
        (0.996, True, "99%"),  # at least 99.6% found: not "at least 100%"
        (0.29, True, "29%"),  # 28.999...% in floats
        (0.0026, True, "0%"),
        (1.0, True, "100%"),
    ],
)
def test_a_chance_in_words(chance: float, at_least: bool, said: str) -> None:
    assert percent_text(chance, at_least=at_least) == said


def test_one_unseen_card_is_said_in_the_singular() -> None:
    # One deck, no jokers, every card but 5D seen or held: the take rule said "exact
    # over the 1 unseen cards".
    ranks = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    hand, upcard = ["7S", "7H", "7D", "9S", "QH", "3C", "4C"], "KD"
    seen = [r + s for s in "SHDC" for r in ranks if r + s not in {*hand, upcard, "5D"}]
    request = {
        "hand": hand,
        "hand_number": 1,
        "phase": "draw",
        "upcard": upcard,
        "seen": seen,
        "rules": {"decks": 1, "jokers_per_deck": 0},
    }
    rule = advise_shanghai(request)["take_upcard"]["rule"]
    assert "a stock card lowers it with chance 0% (exact over the 1 unseen card)," in rule


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_buy_that_leaves_the_deficiency_says_so(lang: str) -> None:
    # KD fits nothing of two sets of three: the buy rule said "takes the deficiency
    # (exact) from 1 to 1", as if it changed; it now words it as the take rule does.
    request = {
        "hand": ["7S", "7H", "7D", "9S", "9H", "3C", "4C"],
        "contract": {"sets": [3, 3]},
        "phase": "draw",
        "upcard": "KD",
        "buys_left": 2,
        "lang": lang,
    }
    answer = advise_shanghai(request)
    assert answer["deficiency"] == 1
    assert answer["buy"]["buy"] is False
    with language(lang):
        left = i18n._("leaves the deficiency (cards still needed, exact) at {value}", value=1)
    assert left in answer["take_upcard"]["rule"]
    assert left in answer["buy"]["rule"]
    assert "1 to 1" not in answer["buy"]["rule"]


WILD_TWOS = Rules(decks=3, twos_wild=True)


def _kinds(cards: set[Card]) -> int:
    """The cards' ranks, the joker apart: what alike cards share."""
    return len({(c.rank, c.is_joker) for c in cards})


def test_alike_stock_cards_share_one_deficiency_solve(monkeypatch: pytest.MonkeyPatch) -> None:
    """With wild twos, every K, every 5, every two and the joker lower the deficiency
    of KH KS 5C 5D 9H (2 sets of 3, deficiency 2): the one model of
    :func:`lowering_cards` finds them with one solve per rank (the cards of a set's
    rank alike, the twos used as wild cards alike), plus the last, and they are the
    cards that lower it solved one at a time. It made one solve per card found (a
    model with extra cards shared none)."""
    hand = Counter(parse_cards("KH KS 5C 5D 9H"))
    contract = Contract.for_hand(1)
    unseen = +Position(tuple(hand.elements()), contract).unseen(WILD_TWOS)
    value, _ = deficiency(hand, contract, unseen, WILD_TWOS, limit=LIMIT, search=False)
    assert value == 2
    cards = sorted(unseen)
    solves = counting_solves(monkeypatch)
    found, status = lowering_cards(hand, contract, unseen, WILD_TWOS, cards, 1, limit=LIMIT)
    assert status is Status.OPTIMAL
    assert solves[0] <= _kinds(found) + 1 < len(found)
    for card in cards:
        more, fewer = hand.copy(), unseen.copy()
        more[card] += 1
        fewer[card] -= 1
        after, _ = deficiency(more, contract, +fewer, WILD_TWOS, limit=LIMIT, search=False)
        assert (card in found) == (after is not None and after < value), card


def test_alike_stock_cards_share_one_going_down_solve(monkeypatch: pytest.MonkeyPatch) -> None:
    """KH KS 5C 5D 5H 9H 8C goes down (2 sets of 3) with any K, any two (wild) or a
    joker drawn: :func:`drawn_cards` finds them with one solve per rank, plus the
    last, and they are the cards with which the turn solved on its own goes down. It
    made one solve per two (the twos were not taken as alike)."""
    found, solves = _going_down_cards(monkeypatch, "KH KS 5C 5D 5H 9H 8C", 1)
    assert solves <= _kinds(found) + 1 < len(found)


def _going_down_cards(
    monkeypatch: pytest.MonkeyPatch, cards: str, number: int
) -> tuple[set[Card], int]:
    """The stock cards with which ``cards`` goes down under hand ``number``'s contract
    (3 decks, wild twos), found by :func:`drawn_cards`, and its solves; checked against
    the turn solved on its own once per card."""
    hand = Counter(parse_cards(cards))
    contract = Contract.for_hand(number)
    unseen = +Position(tuple(hand.elements()), contract).unseen(WILD_TWOS)
    solves = counting_solves(monkeypatch)
    found, status = drawn_cards(
        hand, contract, (), unseen, WILD_TWOS, sorted(unseen), out=False, limit=LIMIT
    )
    assert status is Status.OPTIMAL
    count = solves[0]
    monkeypatch.undo()
    for card in sorted(unseen):
        more, fewer = hand.copy(), unseen.copy()
        more[card] += 1
        fewer[card] -= 1
        turn, _ = solve_turn(more, contract, (), +fewer, WILD_TWOS, limit=LIMIT)
        assert (card in found) == (turn is not None), card
    return found, count


@settings(max_examples=8)
@given(rng=RANDOMS, number=HAND_NUMBERS, down=st.booleans())
def test_turn_reach_says_what_the_whole_turn_solved_says(
    rng: random.Random, number: int, down: bool
) -> None:
    """The draw phase's yes/no question of a turn (:func:`turn_reach`: a play exists?
    it goes out?), searched for the going out alone, answers as the turn solved whole
    (:func:`solve_turn`) does, on dealt hands and on hands made to go down keeping
    cards and to go out (wild twos)."""
    position = deal(rng, number, down, Phase.PLAY)
    made = [("KH KS KD 5C 5D 5H 9H 8C", False), ("KH KS 2D 5C 5D 5H", True)]
    cases = [
        (Counter(position.hand), None if down else position.contract, position, STANDARD),
        *(
            (Counter(parse_cards(cards)), Contract.for_hand(1), None, WILD_TWOS)
            for cards, _ in made
        ),
    ]
    outs = []
    for hand, contract, dealt, rules in cases:
        table = () if dealt is None else tuple(item.meld for item in dealt.table)
        held = dealt or Position(tuple(hand.elements()), Contract.for_hand(1))
        unseen = +held.unseen(rules)
        turn, status = solve_turn(hand, contract, table, unseen, rules, limit=LIMIT)
        out, reach_status = turn_reach(hand, contract, table, unseen, rules, LIMIT)
        assert status is reach_status is Status.OPTIMAL
        assert out == (None if turn is None else turn.goes_out), hand
        outs.append(out)
    assert outs[1:] == [goes_out for _, goes_out in made]


def test_run_cards_for_wild_places_share_one_going_down_solve(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """QS 5C 10D JK 2S 2H 5D 2H AH 4H 8D (two runs of 4, four wild cards) goes down
    with 31 of the cards it may draw, most of them run cards beside wild cards: a plan
    that puts the drawn card in a run a wild card helps fill works with the card of
    each wild card's place too (the wild card moves), so :func:`drawn_cards` finds them
    with at most two solves for three cards, and they are the cards with which the turn
    solved on its own goes down. It made one solve per card found but the twos (30)."""
    found, solves = _going_down_cards(monkeypatch, "QS 5C 10D JK 2S 2H 5D 2H AH 4H 8D", 3)
    assert solves <= len(found) * 2 // 3


THIRTY_CARDS = {
    "hand": [
        "10D", "8S", "2S", "8D", "9S", "QD", "2S", "3D", "7D", "2C", "AH", "QS", "7S", "3H", "QC",
        "8H", "KH", "10S", "10S", "9S", "8S", "4S", "QC", "JD", "3S", "4C", "5H", "JC", "10D", "3D",
    ],
    "hand_number": 7,
    "phase": "draw",
    "upcard": "6H",
    "rules": {"decks": 8, "jokers_per_deck": 4, "twos_wild": True},
}  # fmt: skip
"""A 30-card hand of 8 decks, 32 jokers and wild twos, one card short: whether each of
its 53 kinds of unseen card could let it go down was read in Python, 0.1 s, after a
1 ms limit had run out."""


def test_a_spent_clock_reads_no_drawn_card_for_going_down(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Past the clock the cards the deficiency leaves undecided go to the solve, which
    does not start (the answer cut), without a check in Python of each."""
    checked: list[object] = []
    real = draw_module.could_go_down  # type: ignore[attr-defined]

    def counted(*args: Any) -> bool:
        checked.append(args)
        return real(*args)

    monkeypatch.setattr(draw_module, "could_go_down", counted)
    spend_the_clock(monkeypatch, "solver.shanghai.wire")
    answer = advise_shanghai(THIRTY_CARDS)
    assert answer["time_capped"] is True
    assert answer["status"] == "unknown"
    assert len(checked) <= 2  # the hand's own reach and the upcard's; 55 before

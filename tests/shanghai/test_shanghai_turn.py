"""The six wrong answers of issue 20 as regression tests, and the property that no
advice discards the last card under the default rules."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks.shanghai_speed import deal
from meldwise.cli import main
from solver import advise_shanghai
from solver.cpsat import Limit
from solver.shanghai import STANDARD, Contract, Position, advise, examples, parse_cards
from solver.shanghai.deficiency import Study, deficiency
from solver.shanghai.position import Phase
from tests.shanghai.strategies import HAND_NUMBERS, RANDOMS, contract_of

GO_OUT: dict[str, Any] = {
    "hand": ["AS", "AD", "AC", "KS", "KD", "KC", "5S", "5D", "5C"],
    "hand_number": 1,
    "table": [{"cards": ["AH", "AH", "AD"]}],
}


@pytest.mark.parametrize("phase", ["play", None])
def test_goes_out_by_laying_off_on_the_table(phase: str | None) -> None:
    """Laying the kings and fives, then the three aces on the table's aces, goes out
    (the advice used to lay the kings and aces and keep 5S 5D 5C)."""
    request = GO_OUT | ({"phase": phase} if phase else {})
    answer = advise_shanghai(request)
    assert answer["lay_offs"]["can_go_out"] is True
    assert answer["lay_offs"]["left"] == []
    assert answer["discard"] is None
    assert answer["end_of_turn"] == {"goes_out": True, "kept": [], "points": 0}
    laid = [card for meld in answer["go_down"]["melds"] for card in meld["cards"]]
    laid += [play["card"] for play in answer["lay_offs"]["plays"]]
    assert Counter(laid) == Counter(GO_OUT["hand"])


LAST_CARD = {
    "hand": ["KD"],
    "hand_number": 3,
    "down": True,
    "table": [{"cards": ["4C", "5C", "6C", "7C"]}, {"cards": ["9H", "9S", "9D"]}],
}


def test_the_last_card_is_never_discarded_by_default(capsys: pytest.CaptureFixture[str]) -> None:
    """A down player holding one card that cannot be laid off may not go out by
    discarding it: no discard, and a note says why (library, CLI; HTTP answers what
    the library answers, tests/api/test_shanghai.py)."""
    for request in (LAST_CARD, LAST_CARD | {"phase": "play"}):
        answer = advise_shanghai(request)
        assert answer["discard"] is None
        assert answer["end_of_turn"] is None
        assert any("last card may not be discarded" in note for note in answer["notes"])
    flags = ["--hand", "KD", "--hand-number", "3", "--down", "--table", "4C 5C 6C 7C | 9H 9S 9D"]
    code = main(["shanghai", "advise", *flags])
    out = capsys.readouterr().out
    assert code == 0
    assert "your last card" not in out
    assert "Discard KD" not in out
    allowed = advise_shanghai(LAST_CARD | {"rules": {"go_out_by_discard": True}})
    assert allowed["discard"]["card"] == "KD"
    assert allowed["end_of_turn"]["goes_out"] is True


@pytest.mark.parametrize("phase", ["play", None])
def test_a_player_not_down_never_discards_the_last_card(
    phase: str | None, capsys: pytest.CaptureFixture[str]
) -> None:
    """A player not down holding one card after the draw may not discard it either (the
    advice used to answer "Discard AH", leaving no card): no discard, and a note says
    why. Nor under go_out_by_discard: discarding it would go out, and going out needs
    the contract down (the advice said "Discard AH" there)."""
    request: dict[str, Any] = {"hand": ["AH"], "hand_number": 10}
    if phase:
        request["phase"] = phase
    answer = advise_shanghai(request)
    assert answer["discard"] is None
    assert answer["deficiency"] == 14
    assert any("AH, the last card, may not be discarded" in n for n in answer["notes"])
    code = main(["shanghai", "advise", "--hand", "AH", "--hand-number", "10", "--phase", "play"])
    out = capsys.readouterr().out
    assert code == 0
    assert "Discard AH" not in out
    assert "Cards short of the contract: 14" in out
    assert "the last card, may not be discarded" in out
    by_discard = advise_shanghai(request | {"rules": {"go_out_by_discard": True}})
    assert by_discard["discard"] is None
    assert by_discard["end_of_turn"] is None
    assert any("AH, the last card, may not be discarded" in n for n in by_discard["notes"])


def test_a_swap_that_enables_going_down_beyond_the_deficiency() -> None:
    """No nine and no joker is unseen (the other joker and the other nines are in
    ``seen``), so the deficiency, which ignores swaps, is 2, more than the one
    table joker; swapping 8C for it makes the set of nines and goes down."""
    answer = advise_shanghai(
        {
            "hand": ["9S", "9H", "5D", "6D", "7D", "8D", "8C", "KC", "QC"],
            "hand_number": 2,
            "phase": "play",
            "table": [{"cards": ["5C", "6C", "7C", "JK"], "owner": "ann"}],
            "seen": ["JK", "9S", "9H", "9D", "9D", "9C", "9C"],
            "rules": {"jokers_per_deck": 1},
        }
    )
    assert answer["deficiency"] == 2
    go = answer["go_down"]
    assert go is not None
    assert go["swaps"] == [{"meld": 0, "position": 3, "give": "8C", "take": "JK"}]


def test_take_the_upcard_that_makes_going_out_certain_with_the_contract_met() -> None:
    answer = advise_shanghai(
        {
            "hand": ["7S", "7H", "7D", "9S", "9H", "9D", "KC", "KD"],
            "hand_number": 1,
            "phase": "draw",
            "upcard": "KS",
            "table": [{"cards": ["KH", "KH", "KC"]}],
        }
    )
    assert answer["deficiency"] == 0
    assert answer["take_upcard"]["take"] is True
    take = next(o for o in answer["draw_options"] if o["action"] == "take")
    stock = next(o for o in answer["draw_options"] if o["action"] == "draw")
    assert take["go_out"] == 1
    assert stock["go_out"] < 1


@pytest.mark.parametrize("phase", ["draw", None])
def test_once_down_the_upcard_is_tried_with_the_hand(phase: str | None) -> None:
    """9C cannot be laid off alone, but with 8C in hand both extend the run: out."""
    request: dict[str, Any] = {
        "hand": ["8C"],
        "hand_number": 3,
        "down": True,
        "upcard": "9C",
        "table": [{"cards": ["4C", "5C", "6C", "7C"]}, {"cards": ["QH", "QS", "QD"]}],
    }
    answer = advise_shanghai(request | ({"phase": phase} if phase else {}))
    assert answer["take_upcard"]["take"] is True
    assert "go out this turn" in answer["take_upcard"]["rule"]


def test_a_down_player_discards_the_dead_card_and_keeps_the_live_one() -> None:
    """Laying AS off would leave KD alone, which may not be discarded; of AS KD the
    discard is KD, which fits nowhere, and AS stays to be laid off next turn."""
    answer = advise_shanghai(
        {
            "hand": ["AS", "KD"],
            "hand_number": 1,
            "down": True,
            "phase": "play",
            "table": [{"cards": ["AH", "AH", "AD"]}, {"cards": ["5S", "5D", "5C"]}],
        }
    )
    assert answer["discard"]["card"] == "KD"
    assert answer["end_of_turn"]["kept"] == ["AS"]
    assert "KD cannot be laid off" in answer["discard"]["reason"]


def test_outs_claimed_are_real_on_an_all_run_contract() -> None:
    """The old advice said "0 unseen cards would fill a gap" here; each out now
    claimed lowers the deficiency, checked by the CP-SAT model alone."""
    position = Position(
        tuple(parse_cards("KH JS 2D 4H 3D QC 5C 5C 4C 5D 8C 9S")),
        Contract.for_hand(7),
        upcard=parse_cards("7D")[0],
        phase=Phase.PLAY,
    )
    advice = advise(position)
    discard = advice.discard
    assert discard is not None
    assert discard.outs is not None
    assert discard.outs > 0
    assert f"{discard.outs} unseen natural card" in discard.reason
    unseen = position.unseen(STANDARD)
    contract = contract_of(position)
    kept = Counter(position.hand)
    kept[discard.card] -= 1
    study = Study(Counter(position.hand), contract, unseen, STANDARD, limit=Limit(10))
    outs = study.outs(discard.card)
    assert outs.count == discard.outs
    base, _ = deficiency(+kept, contract, unseen, STANDARD, limit=Limit(10), search=False)
    assert base == discard.deficiency_after
    for card in outs.cards[:5]:
        more, fewer = kept.copy(), unseen.copy()
        more[card] += 1
        fewer[card] -= 1
        found, _ = deficiency(+more, contract, +fewer, STANDARD, limit=Limit(10), search=False)
        assert base is not None
        assert found == base - 1, card


PLAY_PARTS = ("go_down", "lay_offs", "discard", "end_of_turn")
DRAW_PARTS = ("take_upcard", "buy")


def test_each_phase_answers_only_its_own_questions() -> None:
    """Before the draw: take, draw or buy, and no go-down plan for a hand that has not
    drawn; after it: the plays and the discard, and no upcard advice as if adding a
    card. A request without phase answers both for the same hand, with a note. The
    buy's option holds the upcard and the penalty cards, and their points."""
    hand = ["9H", "9S", "9C", "KD", "KS", "JK", "4C", "QH", "5D"]  # meets the contract
    before = examples.ADVISE_DRAW_REQUEST | {"hand": hand, "upcard": "4D"}
    draw = advise_shanghai(before)
    assert draw["deficiency"] == 0
    assert all(draw[part] is None for part in PLAY_PARTS)
    assert draw["take_upcard"] is not None
    assert draw["buy"] is not None
    options = {option["action"]: option for option in draw["draw_options"]}
    assert sorted(options) == ["buy", "draw", "take"]
    assert options["take"]["cards"] == 1
    assert options["buy"]["cards"] == 1 + STANDARD.buy_penalty_cards
    # each penalty card adds at least the lowest card's points (5) to the hand's
    assert options["buy"]["points"] >= options["take"]["points"] + 5 * STANDARD.buy_penalty_cards

    play = advise_shanghai(before | {"phase": "play"})
    assert all(play[part] is None for part in DRAW_PARTS)
    assert play["draw_options"] == []
    assert play["go_down"] is not None
    assert play["end_of_turn"] is not None

    mixed = advise_shanghai({k: v for k, v in before.items() if k != "phase"})
    assert mixed["phase"] is None
    assert all(mixed[part] == play[part] for part in PLAY_PARTS)
    assert all(mixed[part] == draw[part] for part in DRAW_PARTS)
    assert any("No phase was given" in note for note in mixed["notes"])
    assert not any("No phase was given" in note for note in draw["notes"] + play["notes"])


@settings(max_examples=40)
@given(
    rng=RANDOMS,
    number=HAND_NUMBERS,
    down=st.booleans(),
    phase=st.sampled_from([Phase.PLAY, None]),
)
def test_no_advice_discards_the_last_card(
    rng: random.Random, number: int, down: bool, phase: Phase | None
) -> None:
    """Under the default rules a discard always leaves a card in hand, and a hand
    the plays leave with exactly one card gets no discard."""
    position = deal(rng, number, down)
    if down or rng.random() < 0.25:  # small hands too, down to a single card
        position = Position(
            position.hand[: rng.randint(1, len(position.hand))],
            position.contract,
            position.table,
            down,
            position.upcard,
            position.buys_left,
            phase,
        )
    answer = advise(position)
    if answer.discard is None:
        return
    after = answer.lay_offs.left if answer.lay_offs is not None else position.hand
    assert len(after) >= 2, json.dumps([str(c) for c in position.hand])
    assert answer.turn is None or len(answer.turn.kept) >= 1


def test_lay_offs_on_a_run_are_listed_from_its_ends_outwards() -> None:
    """Each lay-off listed can be laid when its turn comes: below a run from its low
    end down, then above it from its high end up. Place order listed 9C before 10C onto
    JC-QC-KC-AC, and AD first onto JK 7D 8D 9D (ace low)."""
    plays = advise_shanghai(examples.ADVISE_REQUEST)["lay_offs"]["plays"]
    assert [p["as"] for p in plays] == ["10C", "9C"]
    request = {
        "hand": ["AD", "JK", "JK", "4D", "5D", "KS", "KH"],
        "contract": {"sets": [3]},
        "down": True,
        "phase": "play",
        "table": [{"cards": ["JK", "7D", "8D", "9D"]}],
        "rules": {"ace_low": True, "jokers_per_deck": 3},
    }
    plays = advise_shanghai(request)["lay_offs"]["plays"]
    assert [(p["card"], p["as"]) for p in plays] == [
        ("5D", "5D"),
        ("4D", "4D"),
        ("JK", "3D"),
        ("JK", "2D"),
        ("AD", "AD"),
    ]

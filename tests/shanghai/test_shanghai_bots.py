"""The Shanghai bots' policy knobs, each on a position where it changes the move:
the down player's discard by expected penalty, and the closing hand (an opponent
down with few cards: buy only to meet the contract, shed the costliest card when
far short)."""

from __future__ import annotations

from collections import Counter
from dataclasses import fields, replace
from pathlib import Path
from typing import Any

import pytest
from ortools.sat.python import cp_model

import solver.shanghai.bots as bots
from solver.cpsat import Budget, Limit
from solver.shanghai import Rules, advise_shanghai, parse_cards
from solver.shanghai.bots import (
    MOVE_SOLVES,
    MOVE_WORK,
    Bot,
    Policy,
    down_chance,
    end_chance,
    make_bot,
    out_of_reach,
)
from solver.shanghai.contracts import Contract
from solver.shanghai.engine import Buy, Draw, Game, GameSettings, Play, Step, View
from solver.shanghai.melds import TableMeld, read_meld
from solver.shanghai.model import HandModel, build_contract, solve_model
from tests.support import counting_solves


def _view(hand: str, table: tuple[str, ...] = (), **changes: object) -> View:
    """Seat 1 of a 4-player hand 1 (two sets), after taking the upcard, with ``hand``
    and ``table``; ``changes`` replace other view fields."""
    game = Game.new(GameSettings(players=4, hands=1), 5)
    game.apply(Draw(take=True))
    game.hands[1] = sorted(parse_cards(hand))
    game.table = [TableMeld(read_meld(parse_cards(m), Rules()), "0") for m in table]
    return replace(game.view(1), **changes)  # type: ignore[arg-type]


def test_a_down_player_keeps_the_dead_card_a_drawn_card_could_free() -> None:
    """Of two dead ten-point cards, the one two places beyond a run's end (a drawn
    bridging card lays both) is kept, whichever suit the run is in."""
    bot = Bot("live", Policy(live_discards=True))
    for run, keep, throw in (("8S 9S 10S JS", "KS", "QD"), ("8D 9D 10D JD", "KD", "QS")):
        view = _view(f"{keep} {throw}", (run, "5C 5D 5H"), down=(True, True, False, False))
        move = bot.play(view)
        assert (move.lay_offs, move.discard) == ((), parse_cards(throw)[0]), run


def test_a_closing_hand_buys_only_to_meet_the_contract() -> None:
    """An opponent down with two cards: an upcard leaving the hand one card short is
    not bought (greedy buys it), one meeting the contract is."""
    closing = Bot("closing", Policy(closing_cards=3))
    greedy = Bot("greedy", Policy())
    threat: dict[str, Any] = {
        "step": Step.BUY,
        "down": (False, False, True, False),
        "hand_sizes": (11, 11, 2, 11),
    }
    one_short = _view("AS AD KS KD 5C 7H 9D JC 3S 4H 6D", upcard=parse_cards("AC")[0], **threat)
    assert greedy.buy(one_short)
    assert not closing.buy(one_short)
    calm = replace(one_short, down=(False,) * 4, hand_sizes=(11,) * 4)
    assert closing.buy(calm)
    meets = _view("AS AD AC KS KD 5C 7H 9D JC 3S 4H", upcard=parse_cards("KC")[0], **threat)
    assert closing.buy(meets)


def test_a_closing_hand_far_short_sheds_the_costliest_card() -> None:
    """Three cards short with an opponent about to go out: throw a 20-point two even
    though the pair of twos is the hand's best start (greedy keeps it)."""
    threat: dict[str, Any] = {"down": (False, False, True, False), "hand_sizes": (12, 12, 2, 11)}
    view = _view("2S 2D 9C 3H 4S 6D 7C 8H 10S JD QC KH", **threat)
    assert Bot("greedy", Policy()).play(view).discard not in parse_cards("2S 2D")
    shed = Bot("shed", Policy(closing_cards=3, abandon_short=3)).play(view)
    assert shed.discard in parse_cards("2S 2D")


def _chain_down_chance(short: int, lowers: float, ends: float) -> float:
    """The chance of getting down from ``short`` short, by value iteration of the
    turn-by-turn chain (written from the rule, not from the closed form): a turn
    first ends the hand with chance ``ends``, else brings a card with chance
    ``lowers``; at 0 short the player goes down on reaching a turn."""
    chance = [1.0 - ends] + [0.0] * short
    for _round in range(5000):
        for k in range(1, short + 1):
            after_card = 1.0 if k == 1 else chance[k - 1]
            chance[k] = (1 - ends) * (lowers * after_card + (1 - lowers) * chance[k])
    return chance[short]


def test_down_chance_agrees_with_the_turn_by_turn_chain() -> None:
    for short in range(6):
        for lowers in (0.05, 0.3, 0.9):
            for ends in (0.02, 0.2, 0.6):
                want = _chain_down_chance(short, lowers, ends)
                assert abs(down_chance(short, lowers, ends) - want) < 1e-6, (short, lowers, ends)
    # An expected shortfall between two whole ones lies between their chances.
    assert down_chance(1, 0.3, 0.2) > down_chance(1.5, 0.3, 0.2) > down_chance(2, 0.3, 0.2)


def test_buying_by_expected_value_buys_what_greedy_refuses() -> None:
    """An upcard that leaves the deficiency is never bought by greedy. By expected
    value: a queen for a hand of one pair and singletons three cards short (its two
    penalty cards are each likely to pair a singleton) is bought, a queen for two
    pairs two short is not. In hand 10 (three runs of five: 15 cards) an 11-card
    hand cannot go down without buying: ``buy_starved`` buys any upcard there."""
    ev = Bot("ev", Policy(buy_ev=True))
    greedy = Bot("greedy", Policy())
    queen = parse_cards("QH")[0]
    singles = _view("AS AD KS 5C 7H 9D JC 3S 4H 6D 8C", step=Step.BUY, upcard=queen)
    pairs = _view("AS AD KS KD 5C 7H 9D JC 3S 4H 6D", step=Step.BUY, upcard=queen)
    assert not greedy.buy(singles)
    assert ev.buy(singles)
    assert not ev.buy(pairs)
    starved = replace(
        _view("2C 5D 9S 3H 8H JC KD 4S 6S 10D QC", step=Step.BUY, upcard=parse_cards("7D")[0]),
        contract=Contract.for_hand(10),
        hand_number=10,
    )
    assert not greedy.buy(starved)
    assert not ev.buy(starved)
    assert Bot("starved", Policy(buy_starved=True)).buy(starved)


def test_buying_by_expected_value_counts_the_hand_ending() -> None:
    """The chance that the hand ends before the next turn grows as an opponent who is
    down sheds cards, and the chance of getting down falls with it."""
    calm = _view("AS AD KS KD KC 5C 7H 9D JC 3S 4H", step=Step.BUY)
    down = replace(calm, down=(False, False, True, False), hand_sizes=(11, 11, 6, 11))
    closing = replace(down, hand_sizes=(11, 11, 2, 11))
    assert end_chance(calm) < end_chance(down) < end_chance(closing)
    chances = [down_chance(2, 0.3, end_chance(v)) for v in (calm, down, closing)]
    assert chances == sorted(chances, reverse=True)


def test_strong_goes_down_as_soon_as_it_can_and_out_when_it_can() -> None:
    """Holding hand 1's two sets and three loose cards, strong goes down at once
    (keeping two and discarding one); with a fourth ace instead it goes out (all
    seven cards laid, no discard)."""
    strong = make_bot("strong")
    down = strong.play(_view("AS AD AC KS KD KC 5H 9D JC"))
    assert len(down.melds) == 2
    assert down.discard is not None
    out = strong.play(_view("AS AD AC AH KS KD KC"))
    assert sum(len(m) for m in out.melds) + len(out.lay_offs) == 7
    assert out.discard is None


def test_a_bot_that_is_down_takes_the_upcard_as_the_advice_says() -> None:
    """Down with AS alone, the upcard another AS, 7S-KS on the table: taking AS cannot
    go out (one of the two aces is discarded again) while a stock card may (11%). Both
    bots took it, as it can be laid off; the advice says draw, and so do they now."""
    game = Game.new(GameSettings(players=2, hands=1), 1)
    me = game.to_move
    laid = ("7S 8S 9S 10S JS QS KS", "5H 5D 5C")
    game.table = [TableMeld(read_meld(parse_cards(m), game.rules), "other") for m in laid]
    for zone in (*game.hands, game.stock, game.pile):  # every card once, as the deck had it
        for card in parse_cards(" ".join(laid) + " AS AS"):
            while card in zone:
                zone.remove(card)
    game.hands[me] = parse_cards("AS")
    game.pile.append(parse_cards("AS")[0])
    game.down[me] = True
    view = game.view(me)
    advice = advise_shanghai(
        {
            "hand": ["AS"],
            "hand_number": 1,
            "phase": "draw",
            "down": True,
            "upcard": "AS",
            "table": [{"cards": m.split()} for m in laid],
        }
    )
    assert advice["take_upcard"]["take"] is False
    for name in ("greedy", "strong"):
        assert make_bot(name).choose(view) == Draw(take=False)


TOOK = (
    "JD KH 9H 10D 2S 7H AD 6D 3D JK JK JK 2D 2D 2S 2D AH AD JD AH QD KD AD KD 5S AS 10H"
    " 7S 9S 4S 10H AD 9D 8D"
)
"""What the next player took from the discard pile in that hand: three of the four
jokers among them."""


def _thirteen_runs_view() -> View:
    """Seat 0 of a 2-player hand 7 (three runs) under ``min_run_len=13``, after its
    draw at turn 137 of seed 0: 12 cards, 28 short of three 13-card runs. A game's
    settings now refuse hand 7 under these rules (no hand reaches 39 cards), so the
    view is set on a game of 2 hands; the bot meets such a hand still in a position
    asked of it, or with two players, whose buys are fewer than the settings allow."""
    settings = GameSettings(rules=Rules(min_run_len=13), players=2, hands=2)
    game = Game.new(settings, 0)
    hand = parse_cards("2S 8S 5D 5D 7D 8D 3C 4C 5C 7C 9C 9C")
    return replace(
        game.view(0),
        step=Step.PLAY,
        hand=tuple(sorted(hand)),
        hand_number=7,
        contract=Contract.for_hand(7, settings.rules),
        table=(),
        down=(False, False),
        hand_sizes=(12, 11),
        buys_left=(3, 3),
        upcard=parse_cards("9H")[0],
        pile=tuple(parse_cards("6S")),
        took=((), tuple(parse_cards(TOOK))),
        player=0,
    )


def test_a_contract_beyond_the_cards_a_player_can_hold_asks_no_deficiency(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Three 13-card runs ask 39 cards of a hand that can reach 12 after the draw (21
    even if its 3 buys of 3 cards could all be made): each of a blocked hand's 200
    turns studied the deficiency, up to 103 CP-SAT solves and seconds a move (a
    min_run_len=13 game took over 60 s).
    The bot sheds its costliest card; it neither takes nor buys the upcard."""
    view = _thirteen_runs_view()
    assert out_of_reach(view)
    solves = counting_solves(monkeypatch)
    monkeypatch.setattr(bots, "Study", None)  # any deficiency question fails
    assert make_bot("strong").choose(view) == Play(discard=parse_cards("2S")[0])
    before = replace(view, step=Step.DRAW, hand=view.hand[1:], upcard=parse_cards("9H")[0])
    assert make_bot("strong").choose(before) == Draw(take=False)
    assert make_bot("strong").choose(replace(before, step=Step.BUY)) == Buy(yes=False)
    assert solves[0] == 0
    # A contract of the 12 cards held after the draw is reachable: not out of reach.
    assert not out_of_reach(replace(view, contract=Contract(runs=(12,))))


def _hand_eight(step: Step, hand: str, players: int = 2) -> View:
    """Seat 0 of hand 8 (a set of 3 and a run of 10: 13 cards) with 11 cards, three
    buys left each, at ``step``; ``players`` seats, the others holding 11 cards."""
    game = Game.new(GameSettings(players=players, hands=8), 5)
    return replace(
        game.view(0),
        step=step,
        hand=tuple(sorted(parse_cards(hand))),
        hand_number=8,
        contract=Contract.for_hand(8),
        table=(),
        down=(False,) * players,
        hand_sizes=(len(parse_cards(hand)),) + (11,) * (players - 1),
        buys_left=(3,) * players,
        upcard=parse_cards("9H")[0],
        pile=(),
        took=((),) * players,
        player=0 if step is not Step.BUY else 1,
    )


def test_with_two_players_only_the_first_upcards_buy_counts_toward_the_contract(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two players can buy only the hand's first upcard (the other seat discarded every
    other one), so in hand 8 a player who did not buy it holds 12 cards after the draw,
    short of 13. Each buy left was counted as three more cards (21 reachable): every
    turn of those hands asked the deficiency (hands 8-10 of 8 seeded strong-greedy
    games: 30.7 s of bot CPU time, 1.5 s now). It now asks nothing: it draws and sheds
    its costliest card. Offered the first upcard, it can still reach 15 and decides."""
    hand = "3S 4S 5S 6S 7S 9D 9C 9H KD 2C 5H"
    before = _hand_eight(Step.DRAW, hand)
    after = replace(before, step=Step.PLAY, hand=tuple(sorted(parse_cards(hand + " AD"))))
    assert (before.buys_ahead, after.buys_ahead) == (0, 0)
    assert out_of_reach(before)
    assert out_of_reach(after)
    offered = _hand_eight(Step.BUY, hand)
    assert offered.buys_ahead == 1
    assert not out_of_reach(offered)
    # Three players: each seat is offered the others' discards, every buy left counts.
    three = _hand_eight(Step.DRAW, hand, players=3)
    assert three.buys_ahead == 3
    assert not out_of_reach(three)
    solves = counting_solves(monkeypatch)
    monkeypatch.setattr(bots, "Study", None)  # any deficiency question fails
    for name in ("greedy", "strong"):
        # strong takes the 9H, cheaper than a stock card (see take_low below).
        assert make_bot(name).choose(before) == Draw(take=name == "strong")
        # 2C: 20 points, above AD (15) and the ten-point cards.
        assert make_bot(name).choose(after) == Play(discard=parse_cards("2C")[0])
    assert solves[0] == 0


def test_a_player_out_of_reach_sheds_the_costliest_card_the_next_player_cannot_lay_off() -> None:
    """Out of reach (two players, hand 8, the first upcard not bought), the bot sheds
    a ten-point card: KS and KD cost the same, but the next player is down and KS goes
    on their run 9S-QS. It shed KS (the first costliest card in card order), handing
    them a lay-off for nothing; it now sheds KD (danger 0) and keeps KS, at no cost in
    points. Without a danger between them it sheds the first, as before; the knob
    ``shed_safely=false`` keeps the old choice."""
    hand = "3H 4H 5H 7D 9D 9C KS KD 5C 6C 8C 4C"
    run = TableMeld(read_meld(parse_cards("9S 10S JS QS"), Rules()), "1")
    view = replace(_hand_eight(Step.PLAY, hand), table=(run,), down=(False, True))
    assert out_of_reach(view)
    for name in ("greedy", "strong"):
        assert make_bot(name).choose(view) == Play(discard=parse_cards("KD")[0])
    old = make_bot("strong:shed_safely=false")
    assert old.choose(view) == Play(discard=parse_cards("KS")[0])
    # The next player not down: both kings are safe, the first in card order goes.
    calm = replace(view, down=(False, False))
    assert make_bot("strong").choose(calm) == Play(discard=parse_cards("KS")[0])
    # A costlier card goes first, however dangerous (danger never costs points).
    ace = replace(view, hand=tuple(sorted(parse_cards(hand.replace("3H", "AS")))))
    assert make_bot("strong").choose(ace) == Play(discard=parse_cards("AS")[0])


def test_a_player_out_of_reach_takes_an_upcard_cheaper_than_a_stock_card(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Out of reach (two players, hand 8, the first upcard not bought), the player
    sheds its costliest card whatever it draws, so a 9H (5 points) taken in place of a
    stock card (9.2 points at the mean of the 96 unseen cards, each counted at most as
    its costliest card, 2C: 20) leaves its hand the cheaper: ``strong`` takes it
    (``take_low``); it drew. A KH (10 points) or an AH (15) is dearer than a stock
    card: it draws. An upcard no cheaper than its costliest card changes nothing: with
    only five-point cards in hand it draws a 9H too. ``greedy`` always draws."""
    hand = "3S 4S 5S 6S 7S 9D 9C 8H KD 2C 5H"
    low = _hand_eight(Step.DRAW, hand)
    assert out_of_reach(low)
    assert low.upcard == parse_cards("9H")[0]
    solves = counting_solves(monkeypatch)
    monkeypatch.setattr(bots, "Study", None)  # any deficiency question fails
    strong = make_bot("strong")
    assert strong.choose(low) == Draw(take=True)
    assert make_bot("strong:take_low=false").choose(low) == Draw(take=False)
    assert make_bot("greedy").choose(low) == Draw(take=False)
    for dear in ("KH", "AH"):
        assert strong.choose(replace(low, upcard=parse_cards(dear)[0])) == Draw(take=False)
    cheap = _hand_eight(Step.DRAW, "3S 4S 5S 6S 7S 9D 9C 8H 8D 4C 5H")
    assert strong.choose(cheap) == Draw(take=False)
    assert solves[0] == 0


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (2, 4), (3, 2)])
def test_buys_ahead_follow_the_engines_offers(players: int, seed: int) -> None:
    """Played out by the bots (hands 1-2): whenever the engine offers a seat the
    upcard, its view counts a buy ahead, and once a seat's view counts none it is not
    offered again that hand."""
    game = Game.new(GameSettings(players=players, hands=2), seed)
    names = ["greedy"] * players
    seats = [make_bot(name, seat) for seat, name in enumerate(names)]
    none_left: set[int] = set()
    hand, offers = game.number, 0
    while not game.over:
        if game.number != hand:
            hand, none_left = game.number, set()
        seat = game.to_move
        view = game.view(seat)
        if game.step is Step.BUY:
            offers += 1
            assert seat not in none_left, (hand, game.turn, seat)
            assert view.buys_ahead >= 1, (hand, game.turn, seat)
        if view.buys_ahead == 0:
            none_left.add(seat)
        game.apply(seats[seat].choose(view))
    assert offers > 0


def test_a_bot_moves_deficiency_solves_share_one_deterministic_budget() -> None:
    """The same position's discard study (the contract asked regardless of the cards
    the hand can reach) made 103 CP-SAT solves in one move; a move's studies now share
    MOVE_SOLVES solves and MOVE_WORK of work, and the discard is still one of the hand."""
    view = _thirteen_runs_view()
    bot = make_bot("strong")
    budget = Budget(MOVE_SOLVES, MOVE_WORK)
    bot.limit = Limit(10.0, budget=budget)
    move = bot.play(view)
    assert isinstance(move, Play)
    assert move.discard in view.hand
    assert 0 < MOVE_SOLVES - budget.solves <= MOVE_SOLVES
    assert budget.spent


def test_a_spent_budget_starts_no_solve_and_reads_as_out_of_time() -> None:
    budget = Budget(1, 5.0)
    limit = Limit(10.0, budget=budget)
    assert not limit.out_of_time()
    hand = Counter(parse_cards("5D 7D 8D 3C 4C 9C JK"))
    contract = Contract.for_hand(7, Rules())
    hm = HandModel(Rules(), hand, Counter(), with_extras=False)
    build_contract(hm, contract.sets, contract.runs)
    assert solve_model(hm, limit)[0] != cp_model.UNKNOWN
    assert budget.solves == 0
    assert limit.out_of_time()
    assert not limit.capped
    assert solve_model(hm, limit)[0] == cp_model.UNKNOWN


def test_every_knob_a_bot_name_takes_is_documented() -> None:
    """``strong:KNOB=VALUE`` (and ``greedy:...``) take every field of :class:`Policy`;
    eight of them (``buy_short``, ``threat_cards``, ...) were taken but said nowhere in
    docs/shanghai.md, nor that ``greedy`` takes knobs too."""
    text = (Path(__file__).parents[2] / "docs" / "shanghai.md").read_text(encoding="utf-8")
    for knob in fields(bots.Policy):
        assert f"`{knob.name}`" in text, knob.name
    assert "`greedy:KNOB=VALUE+...`" in text
    assert bots.make_bot("greedy:buy_any=true", 0).policy == replace(bots.Policy(), buy_any=True)

"""The Shanghai game engine: whole games by the bots (every move judged legal first),
the buy by seat priority, the moves it refuses, the record."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace

import pytest
from rich.console import Console

from solver.arena import runner
from solver.arena.cli import print_report
from solver.errors import MeldwiseError
from solver.shanghai import Rules, parse_cards
from solver.shanghai.bots import STRONG, Policy, make_bot
from solver.shanghai.engine import (
    Buy,
    Draw,
    Game,
    GameSettings,
    IllegalMove,
    LayOffMove,
    Play,
    Step,
    SwapMove,
)
from solver.shanghai.melds import TableMeld, read_meld
from solver.shanghai.record import FORMAT, record_to_dict
from solver.shanghai.scoring import penalty


def play_out(game: Game, names: list[str]) -> Game:
    """Play ``game`` to its end with the bots ``names`` by seat, checking each move."""
    bots = [make_bot(name, seat) for seat, name in enumerate(names)]
    while not game.over:
        seat = game.to_move
        move = bots[seat].choose(game.view(seat))
        assert game.problems(move) == (), (game.number, seat, move)
        game.apply(move)
    return game


@pytest.mark.parametrize("seed", [3, 11])
def test_seeded_games_are_legal_scored_and_repeatable(seed: int) -> None:
    settings = GameSettings(players=3, hands=3)
    names = ["strong", "greedy", "greedy"]
    game = play_out(Game.new(settings, seed), names)
    assert [r.number for r in game.results] == [1, 2, 3]
    for result in game.results:
        assert result.points == tuple(penalty(h, settings.rules) for h in result.hands)
        if result.end == "out":
            assert result.went_out is not None
            assert result.hands[result.went_out] == ()
    assert game.scores == [sum(r.points[s] for r in game.results) for s in range(3)]
    assert game.result().winners == tuple(
        s for s, total in enumerate(game.scores) if total == min(game.scores)
    )
    again = play_out(Game.new(settings, seed), names)
    assert record_to_dict(again, names) == record_to_dict(game, names)
    record = json.loads(json.dumps(record_to_dict(game, names)))
    assert record["format"] == FORMAT
    assert record["scores"] == game.scores


def _game_at_draw() -> Game:
    game = Game.new(GameSettings(players=4, hands=1), 5)
    assert game.step is Step.DRAW
    assert game.to_move == 1
    return game


def test_a_declined_upcard_is_offered_in_seat_order_and_bought_with_penalty_cards() -> None:
    game = _game_at_draw()
    upcard = game.pile[-1]
    before = [len(h) for h in game.hands]
    game.apply(Draw(take=False))
    assert game.step is Step.BUY
    assert game.offer == [2, 3, 0]
    game.apply(Buy(yes=False))  # seat 2 passes, seat 3 buys
    assert game.to_move == 3
    game.apply(Buy(yes=True))
    assert len(game.hands[3]) == before[3] + 1 + Rules().buy_penalty_cards
    assert upcard in game.hands[3]
    assert game.buys[3] == Rules().buys - 1
    # mypy keeps the step narrowed to BUY from before apply() changed it.
    assert game.step is Step.PLAY  # type: ignore[comparison-overlap]
    assert game.to_move == 1
    assert len(game.hands[1]) == before[1] + 1  # the player drew from the stock


def test_a_discard_is_never_offered_back_to_the_player_who_discarded_it() -> None:
    """Seat 1 discards; seat 2 declines it: seats 3 and 0 may buy it, not seat 1. It was
    offered back too, and bots bought their own discards (30 of 42 buys in two-player
    tournaments), one three times over."""
    game = _game_at_draw()
    game.apply(Draw(take=False))
    while game.step is Step.BUY:
        game.apply(Buy(yes=False))
    discard = game.hands[1][0]
    game.apply(Play(discard=discard))
    assert (game.to_move, game.pile[-1]) == (2, discard)
    game.apply(Draw(take=False))
    assert game.offer == [3, 0]


def test_with_two_players_only_the_upcard_turned_from_the_deck_can_be_bought() -> None:
    """The docs said that with two players nobody can buy: the card turned from the deck
    at a hand's start has no discarder, so the other player may buy it."""
    game = Game.new(GameSettings(players=2, hands=1), 5)
    assert (game.to_move, game.discarder) == (1, None)
    game.apply(Draw(take=False))
    assert (game.step, game.offer) == (Step.BUY, [0])
    game.apply(Buy(yes=False))
    game.apply(Play(discard=game.hands[1][0]))
    game.apply(Draw(take=False))  # seat 0 declines seat 1's discard: not offered back
    assert (game.step, game.offer) == (Step.PLAY, [])


def test_a_hand_ends_blocked_when_the_player_must_draw_and_no_card_is_left() -> None:
    """Four players, one deck, three penalty cards a buy: 45 cards dealt leave 9 in the
    stock. Three buys of the upcard, each with its penalty cards, empty it (the third
    buyer gets the one card left), and each bought upcard leaves the pile under it
    empty. The player who must then draw has nothing to draw: the hand ends blocked,
    scored on every hand as it stands, and the next hand is dealt."""
    rules = Rules(decks=1, buy_penalty_cards=3)
    game = Game.new(GameSettings(rules=rules, players=4, hands=2), 5)
    assert (game.to_move, len(game.stock), len(game.pile)) == (1, 9, 1)
    for buyer in (2, 3):  # seat 1 declines, seat 2 buys; seat 2 declines, seat 3 buys
        drawer = game.player
        game.apply(Draw(take=False))
        while game.to_move != buyer:
            game.apply(Buy(yes=False))
        game.apply(Buy(yes=True))
        game.apply(Play(discard=game.hands[drawer][0]))
    assert (game.player, len(game.stock), len(game.pile)) == (3, 1, 1)
    game.apply(Draw(take=False))  # offered to seat 0 (seat 2 discarded it)
    assert (game.step, game.offer) == (Step.BUY, [0, 1])
    game.apply(Buy(yes=True))  # the upcard and the stock's last card; seat 3 must draw
    assert game.number == 2
    (result,) = game.results
    assert (result.number, result.end, result.went_out, result.turns) == (1, "blocked", None, 2)
    # Seat 0: 11 and its buy (upcard and one card); seat 1: 11 after its draw and
    # discard; seats 2 and 3: 11, a buy of 4, and seat 2's draw and discard.
    assert [len(h) for h in result.hands] == [13, 11, 15, 15]
    assert sum(map(len, result.hands)) == 54  # every card of the deck is in a hand
    assert result.points == tuple(penalty(h, rules) for h in result.hands)
    assert game.scores == list(result.points)
    assert [e.kind for e in game.events[0]][-2:] == ["play", "buy"]  # no draw was made
    assert (game.to_move, game.step, len(game.stock), len(game.pile)) == (2, Step.DRAW, 9, 1)


def test_players_who_are_down_or_out_of_buys_are_not_offered() -> None:
    game = _game_at_draw()
    game.down[2] = True
    game.buys[3] = 0
    game.apply(Draw(take=False))
    assert game.offer == [0]


def test_moves_the_rules_refuse() -> None:
    game = _game_at_draw()
    assert game.problems(Buy(yes=True))  # a draw is asked
    game.apply(Draw(take=True))
    hand = game.hands[1] = sorted(parse_cards("3S 3H 3D 9C 9D KD 4H 7S"))
    assert game.problems(Play(discard=hand[0])) == ()
    assert game.problems(Play())  # no discard with cards left
    assert "not in hand" in " ".join(game.problems(Play(discard=parse_cards("AS")[0])))
    one_set = Play(melds=(tuple(parse_cards("3S 3H 3D")),), discard=parse_cards("KD")[0])
    assert "contract" in " ".join(game.problems(one_set))
    game.table.append(TableMeld(read_meld(parse_cards("5C 6C 7C 8C"), Rules()), "0"))
    lay = Play(lay_offs=(LayOffMove(parse_cards("9C")[0], 0, 9),), discard=hand[0])
    assert "not down" in " ".join(game.problems(lay))
    with pytest.raises(IllegalMove, match="hand 1, turn 1, seat 1"):
        game.apply(Play())


def test_a_down_player_lays_off_swaps_and_may_not_discard_the_last_card() -> None:
    game = _game_at_draw()
    game.apply(Draw(take=True))
    game.down[1] = True
    game.table = [
        TableMeld(read_meld(parse_cards("5C 6C JK 8C"), Rules()), "0"),
        TableMeld(read_meld(parse_cards("QH QS QD"), Rules()), "2"),
    ]
    game.hands[1] = sorted(parse_cards("7C 9C KD"))
    swap = SwapMove(0, 2, parse_cards("7C")[0])
    joker_on = LayOffMove(parse_cards("JK")[0], 0, 4)
    nine = LayOffMove(parse_cards("9C")[0], 0, 9)
    out = Play(swaps=(swap,), lay_offs=(joker_on, nine), discard=parse_cards("KD")[0])
    assert "last card" in " ".join(game.problems(out))
    keep = Play(swaps=(swap,), lay_offs=(nine,), discard=parse_cards("KD")[0])
    assert game.problems(keep) == ()
    gap = Play(lay_offs=(LayOffMove(parse_cards("9C")[0], 0, 10),), discard=parse_cards("KD")[0])
    assert "without a gap" in " ".join(game.problems(gap))
    game.apply(keep)
    assert [str(c) for c in game.table[0].meld.cards] == ["5C", "6C", "7C", "8C", "9C"]
    assert Counter(game.hands[1]) == Counter(parse_cards("JK"))


def test_a_player_not_down_may_not_go_out_by_discarding_the_last_card() -> None:
    """Under go_out_by_discard only a player who is down (or goes down this turn) may
    discard the last card: it goes out, and going out needs the contract down."""
    game = Game.new(GameSettings(Rules(go_out_by_discard=True), players=4, hands=1), 5)
    game.apply(Draw(take=True))
    last = parse_cards("KD")[0]
    game.hands[1] = [last]
    assert "not down cannot go out" in " ".join(game.problems(Play(discard=last)))
    game.down[1] = True
    assert game.problems(Play(discard=last)) == ()


def test_settings_are_checked_and_knobs_named() -> None:
    with pytest.raises(MeldwiseError, match="players"):
        GameSettings(players=9)
    with pytest.raises(MeldwiseError, match="hands"):
        GameSettings.from_dict({"hands": 11})
    with pytest.raises(MeldwiseError, match="unknown game setting"):
        GameSettings.from_dict({"colour": 1})
    with pytest.raises(MeldwiseError, match="rules must be an object"):
        GameSettings.from_dict({"rules": []})  # once the standard rules
    # Rules under which no hand can meet its contract: every hand ended blocked.
    impossible = {"rules": {"decks": 1, "jokers_per_deck": 0, "min_set_len": 5}, "hands": 1}
    with pytest.raises(MeldwiseError, match=r"^hand 1: contract 'sets' size 5 cannot be met"):
        GameSettings.from_dict(impossible)
    assert Policy.parse("buy_short=2+take_to_lay=true") == Policy(buy_short=2, take_to_lay=True)
    # strong's own knobs stay but those given, even when one is greedy's default: those
    # once counted as not given (buy_ev=false left strong's true).
    changed = make_bot("strong:buy_ev=false+threat_cards=0").policy
    assert changed == replace(STRONG, buy_ev=False, threat_cards=0)
    # A bad value once crashed with int()'s own ValueError, naming neither bot nor knob.
    for name, message in [
        ("strong:buy_ev=x", "bot 'strong:buy_ev=x': knob 'buy_ev' is true or false, got 'x'"),
        ("greedy:buy_short", "knob 'buy_short' is a whole number from 0 to 999, got ''"),
        ("strong:buy_short=true", "knob 'buy_short' is a whole number from 0 to 999, got 'true'"),
        # 5,000 digits once raised int()'s own ValueError (a traceback).
        ("strong:buy_short=" + "9" * 5000, "from 0 to 999, got '999999"),
        ("strong:buy_short=1000", "from 0 to 999, got '1000'"),
    ]:
        with pytest.raises(MeldwiseError) as raised:
            make_bot(name)
        assert message in str(raised.value)
    with pytest.raises(MeldwiseError, match="unknown bot"):
        make_bot("clever")


def test_the_tournament_runner_plays_shanghai() -> None:
    """The shared runner finds Shanghai in its registry and plays seeded games, every
    move through the engine's checker."""
    report = runner.run_tournament(
        "shanghai",
        ["strong", "greedy", "greedy"],
        3,
        seed=4,
        options={"hands": 1},
        dispatch=runner.local_dispatch(1),
    )
    assert report.games == 3
    assert sum(bot.wins for bot in report.by_bot) == pytest.approx(3)
    assert report.ends == {"out": 3}
    assert report.hand_ends == {"out": 3}


def test_the_tournament_report_shows_blocked_hands() -> None:
    """Every hand of a game blocked at max_turns once read 'ends: 1 complete'."""
    report = runner.run_tournament(
        "shanghai",
        ["strong", "greedy"],
        1,
        options={"max_turns": 5},
        dispatch=runner.local_dispatch(1),
    )
    assert report.ends == {"blocked": 1}
    assert report.hand_ends == {"blocked": 10}
    assert report.to_dict(with_games=True)["results"][0]["hand_ends"] == ["blocked"] * 10
    console = Console(record=True, width=200)
    print_report(report, console)
    assert "ends: 1 blocked (hands: 10 blocked)" in console.export_text()


@pytest.mark.parametrize(
    ("rules", "run", "card", "place", "said"),
    [
        (Rules(), "2C 3C 4C 5C", "AC", 1, "a run begins at 2 at the lowest: the ace is high"),
        (Rules(ace_low=True), "AC 2C 3C 4C", "KC", 0, "a run begins at the ace at the lowest"),
        (Rules(), "JC QC KC AC", "2C", 15, "a run ends at the ace at the highest"),
    ],
)
def test_a_lay_off_past_a_runs_end_says_which_end(
    rules: Rules, run: str, card: str, place: int, said: str
) -> None:
    # Each was "a run never passes the ace", which says nothing of a low ace refused.
    game = Game.new(GameSettings(rules, players=4, hands=1), 5)
    game.apply(Draw(take=True))
    game.down[1] = True
    game.table = [TableMeld(read_meld(parse_cards(run), rules), "0")]
    game.hands[1] = sorted(parse_cards(f"{card} KD 9H"))
    lay = Play(lay_offs=(LayOffMove(parse_cards(card)[0], 0, place),), discard=parse_cards("KD")[0])
    assert said in " ".join(game.problems(lay))


def test_a_replace_keeps_a_records_settings_a_records() -> None:
    """``replace`` of a record's settings ran a new game's admission check again
    (``recorded`` was an init-only flag that fell back to False): a record's settings
    under which a hand's contract can never be met were refused for changing
    ``max_turns``. A new game's settings are still checked when replaced."""
    unmeetable = Rules(min_run_len=13)  # hand 3's two runs of 13: more cards than a hand holds
    with pytest.raises(MeldwiseError, match="contract"):
        GameSettings(rules=unmeetable, players=2, hands=3)
    recorded = GameSettings(rules=unmeetable, players=2, hands=3, recorded=True)
    changed = replace(recorded, max_turns=5)
    assert (changed.max_turns, changed.rules) == (5, unmeetable)
    assert replace(changed, hands=2).hands == 2
    new = GameSettings(players=2, hands=3)
    assert replace(new, max_turns=5).max_turns == 5
    with pytest.raises(MeldwiseError, match="contract"):
        replace(new, rules=unmeetable)
    # The flag is not part of what the settings are: equal settings are equal.
    assert changed == GameSettings(rules=unmeetable, players=2, hands=3, max_turns=5, recorded=True)
    assert replace(changed, rules=Rules()) == replace(new, max_turns=5)

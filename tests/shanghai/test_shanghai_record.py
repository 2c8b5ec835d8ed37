"""The Shanghai game record read back and replayed: whole games by the bots and by a
random legal player round-trip through JSON; each kind of spoilt record is refused
with an error that names its place (hand, event, turn, seat) and quotes the culprit."""

from __future__ import annotations

import contextlib
import copy
import json
import random
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from functools import cache
from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from solver.errors import MeldwiseError, RulesError
from solver.record import RecordError
from solver.shanghai.bots import make_bot
from solver.shanghai.engine import Buy, Draw, Game, GameSettings, Move, Play, Step
from solver.shanghai.notation import Card
from solver.shanghai.record import FORMAT, read_record, record_to_dict, replay
from solver.shanghai.rules import Rules

Record = dict[str, Any]

BOT_GAMES: dict[str, tuple[GameSettings, list[str], int]] = {
    # One deck, four jokers, wild twos, a short hand limit: ends blocked, with a buy.
    "one deck": (
        GameSettings(
            rules=Rules(decks=1, jokers_per_deck=4, twos_wild=True),
            players=4,
            hands=1,
            max_turns=40,
        ),
        ["greedy"] * 4,
        3,
    ),
    # Three decks, low aces, going out by discarding, five players, two hands: swaps,
    # lay-offs, players going out.
    "three decks": (
        GameSettings(
            rules=Rules(decks=3, ace_low=True, go_out_by_discard=True),
            players=5,
            hands=2,
            hand_size=8,
        ),
        ["strong", "greedy", "greedy", "greedy", "greedy"],
        4,
    ),
    # No jokers, two players.
    "no jokers": (
        GameSettings(rules=Rules(jokers_per_deck=0), players=2, hands=1, hand_size=8),
        ["greedy", "strong"],
        6,
    ),
}


@cache
def bot_game(name: str) -> tuple[Game, str]:
    """The game ``name`` of :data:`BOT_GAMES` played to its end, and its record as JSON
    text (as a file carries it)."""
    settings, names, seed = BOT_GAMES[name]
    game = Game.new(settings, seed)
    bots = [make_bot(bot, seat) for seat, bot in enumerate(names)]
    while not game.over:
        seat = game.to_move
        game.apply(bots[seat].choose(game.view(seat)))
    return game, json.dumps(record_to_dict(game, names))


def bot_record(name: str = "one deck") -> Record:
    loaded: Record = json.loads(bot_game(name)[1])
    return loaded


@pytest.mark.parametrize("name", list(BOT_GAMES))
def test_a_bot_game_replays_from_its_json_record_to_the_same_end(name: str) -> None:
    game, text = bot_game(name)
    record = json.loads(text)
    replayed = replay(read_record(record))
    assert replayed.over
    assert replayed.scores == game.scores
    assert replayed.result() == game.result()
    assert replayed.results == game.results
    assert replayed.events == game.events
    assert record["format"] == FORMAT
    assert record["winners"] == list(game.result().winners)


def test_the_bot_games_replayed_cover_every_kind_of_event_and_move() -> None:
    """The round trips above are worth what the games hold: every event kind, melds,
    lay-offs, swaps, both ends of a hand."""
    kinds: Counter[str] = Counter()
    moves: Counter[str] = Counter()
    ends = set()
    for name in BOT_GAMES:
        for hand in bot_record(name)["hands"]:
            ends.add(hand["end"])
            for event in hand["events"]:
                kinds[event["kind"]] += 1
                for part in ("melds", "swaps", "lay_offs"):
                    moves[part] += bool(event.get("play", {}).get(part))
    assert set(kinds) == {"take", "draw", "buy", "pass", "play", "reshuffle"}
    assert all(moves[part] for part in ("melds", "swaps", "lay_offs"))
    assert ends == {"out", "blocked"}


# --- a random legal player, for games on any settings ----------------------------------


def random_move(game: Game, rng: random.Random) -> Move:
    """A legal move that never goes down: take or buy the upcard at random, discard a
    random card (at least two are held after drawing, so the last is never discarded)."""
    view = game.view()
    if view.step is Step.DRAW:
        return Draw(take=view.upcard is not None and rng.random() < 0.3)
    if view.step is Step.BUY:
        return Buy(yes=rng.random() < 0.5)
    return Play(discard=rng.choice(view.hand))


def random_game(settings: GameSettings, seed: int, moves: int | None = None) -> Game:
    """A game played by :func:`random_move` to its end, or for ``moves`` moves."""
    game = Game.new(settings, seed)
    rng = random.Random(seed)
    made = 0
    while not game.over and (moves is None or made < moves):
        move = random_move(game, rng)
        assert game.problems(move) == ()
        game.apply(move)
        made += 1
    return game


@st.composite
def small_settings(draw: st.DrawFn) -> GameSettings:
    try:
        return GameSettings(
            rules=Rules(
                decks=draw(st.integers(1, 2)),
                jokers_per_deck=draw(st.integers(0, 4)),
                buy_penalty_cards=draw(st.integers(0, 3)),
                buys=draw(st.integers(0, 3)),
            ),
            players=draw(st.integers(2, 6)),
            hands=draw(st.integers(1, 3)),
            hand_size=draw(st.integers(1, 11)),
            max_turns=draw(st.integers(1, 30)),
        )
    except RulesError:
        assume(False)
        raise


@hypothesis_settings(max_examples=40)
@given(small_settings(), st.integers(0, 2**31), st.none() | st.integers(0, 120))
def test_a_random_game_on_any_settings_replays_to_its_own_record(
    settings: GameSettings, seed: int, moves: int | None
) -> None:
    """Finished or stopped after ``moves`` moves: the replay of the record writes the
    record again (the same deals, events, ends, scores), through JSON text."""
    game = random_game(settings, seed, moves)
    names = [f"seat {seat}" for seat in range(settings.players)]
    record = json.loads(json.dumps(record_to_dict(game, names)))
    replayed = replay(read_record(record))
    assert record_to_dict(replayed, names) == record
    assert (replayed.over, replayed.scores) == (game.over, game.scores)


# --- records of games that settings admitted then -----------------------------------------


#: Settings a game was played under, and an edit that makes them settings a new game is
#: now refused under, though they play the same game (the same deal, no one goes down):
#: the record of a game played before the check was added.
NO_LONGER_ADMITTED: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    # Hand 3 lays two runs of 13, 26 cards; a hand holds at most 21 (11 dealt, a draw,
    # three buys of 3 cards).
    "out of reach": ({"rules": {"min_run_len": 13}, "hands": 2}, {"hands": 3}),
    # Hand 4's three sets of 6 need six wild cards, and the game has five.
    "not layable": (
        {"rules": {"decks": 1, "jokers_per_deck": 1, "twos_wild": True, "min_set_len": 6}},
        {"hands": 4},
    ),
    # No set of 5 is made of one deck with no wild card.
    "no such set": (
        {"rules": {"decks": 1, "jokers_per_deck": 0, "min_set_len": 4}, "hands": 1},
        {"rules": {"min_set_len": 5}},
    ),
}


def no_longer_admitted(name: str) -> Record:
    """The record of a game of :data:`NO_LONGER_ADMITTED` stopped in its first hand,
    its settings edited so."""
    played, edit = NO_LONGER_ADMITTED[name]
    settings = GameSettings.from_dict({**played, "players": 2, "hands": played.get("hands", 3)})
    game = random_game(settings, 5, 40)
    record: Record = json.loads(json.dumps(record_to_dict(game, ["ann", "bob"])))
    for name, value in edit.items():  # the rules edited rule by rule
        settings_written = record["settings"]
        settings_written[name] = settings_written[name] | value if name == "rules" else value
    return record


@pytest.mark.parametrize("name", list(NO_LONGER_ADMITTED))
def test_a_record_of_a_game_its_settings_no_longer_admit_reads_and_replays(name: str) -> None:
    """A new game is refused settings under which a hand's contract can never be met
    (its cards never held, or never laid), checks added after such games were played
    and recorded: their records stayed refused for it, so they could not be reviewed."""
    record = no_longer_admitted(name)
    with pytest.raises(RulesError):
        GameSettings.from_dict(record["settings"])  # a new game: refused
    replayed = replay(read_record(record))
    assert record_to_dict(replayed, ["ann", "bob"]) == record


# --- spoilt records ------------------------------------------------------------------------


def spoilt(change: Callable[[Record], object], name: str = "one deck") -> Record:
    record = copy.deepcopy(bot_record(name))
    change(record)
    return record


def refusal(record: Record) -> str:
    """The message of the error that reading and replaying ``record`` raises."""
    with pytest.raises(MeldwiseError) as error:
        replay(read_record(record))
    return str(error.value)


def held(hand: Record, seat: int, before: int) -> Counter[str]:
    """The cards ``seat`` holds before event ``before`` of ``hand``, counted here from
    the record alone: dealt, taken, drawn and bought cards, less those played (a swap
    gives a natural card for a joker)."""
    cards = Counter(hand["deal"]["hands"][seat])
    for event in hand["events"][:before]:
        if event["seat"] != seat:
            continue
        if event["kind"] in ("take", "draw", "buy"):
            cards.update(event["cards"])
        if event["kind"] == "play":
            play = event["play"]
            for swap in play["swaps"]:
                cards.update({swap["card"]: -1, "JK": 1})
            for meld in play["melds"]:
                cards.subtract(meld)
            cards.subtract(lay["card"] for lay in play["lay_offs"])
            if play["discard"] is not None:
                cards[play["discard"]] -= 1
    return +cards


def first(record: Record, test: Callable[[list[Record], int], bool]) -> tuple[int, int]:
    """The hand and event index of the first event for which ``test(events, index)``."""
    return next(
        (h, i)
        for h, hand in enumerate(record["hands"])
        for i in range(len(hand["events"]))
        if test(hand["events"], i)
    )


def place(hand: int, index: int, event: Record) -> str:
    """How an error names event ``index`` of hand ``hand`` (turns said from 1)."""
    return (
        f"hands[{hand}].events[{index}] (hand {hand + 1}, turn {event['turn'] + 1},"
        f" seat {event['seat']})"
    )


def test_a_discard_of_a_card_not_in_hand_is_illegal_at_its_event() -> None:
    """One deck: a card dealt to the next seat is in no other hand on the first play."""
    record = bot_record("one deck")
    h, i = first(record, lambda events, i: events[i]["kind"] == "play")
    event = record["hands"][h]["events"][i]
    other = record["hands"][h]["deal"]["hands"][(event["seat"] + 1) % 4]
    foreign = next(c for c in other if c != "JK")
    assert foreign not in held(record["hands"][h], event["seat"], i)
    record["hands"][h]["events"][i]["play"]["discard"] = foreign
    assert refusal(record) == (
        f"{place(h, i, event)}: illegal: the discard {foreign} is not in hand after the plays"
    )


def test_a_meld_of_a_card_not_in_hand_is_illegal_at_its_event() -> None:
    record = bot_record("three decks")
    h, i = first(record, lambda events, i: bool(events[i].get("play", {}).get("melds")))
    event = record["hands"][h]["events"][i]
    cards = held(record["hands"][h], event["seat"], i)
    meld = event["play"]["melds"][0]
    # Hand 1's melds are sets: a card of the set's rank in a suit the player does not
    # hold keeps the meld a set, and is not the player's to lay.
    naturals = [c for c in meld if c != "JK"]
    assert len({c[:-1] for c in naturals}) == 1
    rank = naturals[0][:-1]
    swapped = next(rank + suit for suit in "SHDC" if rank + suit not in cards)
    meld[meld.index(naturals[0])] = swapped
    message = refusal(record)
    assert message.startswith(f"{place(h, i, event)}: illegal: ")
    assert swapped in message
    assert "the hand does not hold" in message


def test_a_wrong_discard_is_caught_where_the_next_player_takes_it() -> None:
    """The discard is changed to another card the player holds: the play is legal, and
    the replay departs from the record at the take that follows, which names the
    card the replay gives."""
    record = bot_record("three decks")
    h, i = first(
        record,
        lambda events, i: (
            events[i]["kind"] == "play" and i + 1 < len(events) and events[i + 1]["kind"] == "take"
        ),
    )
    hand = record["hands"][h]
    event, take = hand["events"][i], hand["events"][i + 1]
    assert take["cards"] == [event["play"]["discard"]]
    left = held(hand, event["seat"], i + 1)  # after the play: its discard not among them
    other = next(c for c in sorted(left) if c != event["play"]["discard"])
    event["play"]["discard"] = other
    assert refusal(record) == (
        f"{place(h, i + 1, take)}: 'cards' is recorded as [{take['cards'][0]}], the replay"
        f" gives [{other}]"
    )


def test_melds_that_break_the_contract_are_illegal_at_their_event() -> None:
    """Hand 1's contract is two sets of three: one set alone does not meet it."""
    record = bot_record("one deck")
    h, i = first(record, lambda events, i: bool(events[i].get("play", {}).get("melds")))
    event = record["hands"][h]["events"][i]
    assert len(event["play"]["melds"]) == 2
    event["play"]["melds"].pop()
    event["play"]["lay_offs"] = []
    assert refusal(record) == (
        f"{place(h, i, event)}: illegal: the melds do not meet the contract (set of 3 + set of 3)"
    )


def test_points_that_the_cards_left_do_not_give_are_refused_where_they_are() -> None:
    record = bot_record("one deck")
    points = record["hands"][0]["points"]
    wrong = [points[0] + 5, *points[1:]]
    record["hands"][0]["points"] = wrong
    assert refusal(record) == (
        f"hands[0].points is {wrong}, but the cards left in hand give {points}"
    )


def test_scores_that_are_not_the_sums_of_the_points_are_refused() -> None:
    record = bot_record("three decks")
    right = [sum(hand["points"][seat] for hand in record["hands"]) for seat in range(5)]
    assert record["scores"] == right
    record["scores"] = [*right[:-1], right[-1] + 1]
    assert refusal(record) == (
        f"'scores' is {record['scores']}, but the hands' points add up to {right}"
    )


def test_a_hand_left_that_agrees_with_its_points_but_not_the_game_is_caught_by_replay() -> None:
    """A card left in a hand changed for another worth as much: the record agrees with
    itself, only the replay tells."""
    record = bot_record("one deck")
    seat, left = next(
        (s, cards) for s, cards in enumerate(record["hands"][0]["hands_left"]) if cards
    )
    index, card = next((i, c) for i, c in enumerate(left) if c[:-1] in "3456789")
    changed = next(r + card[-1] for r in "3456789" if r + card[-1] not in left and r != card[:-1])
    right = list(left)
    left[index] = changed
    message = refusal(record)
    assert message.startswith(f"hands[0].hands_left[{seat}] is [")
    assert changed in message.split(", but")[0]
    assert message.endswith(
        f"but the replay gives [{' '.join(str(c) for c in sorted(map(Card.parse, right)))}]"
    )


def test_a_changed_seed_deals_other_hands_and_says_so() -> None:
    record = bot_record("one deck")
    record["seed"] += 1
    message = refusal(record)
    recorded = " ".join(record["hands"][0]["deal"]["hands"][0])
    assert message.startswith(f"hands[0].deal.hands[0] is [{recorded}], but seed ")
    assert f"seed {record['seed']} deals [" in message


def test_a_reordered_stock_names_the_first_card_that_differs() -> None:
    record = bot_record("one deck")
    stock = record["hands"][0]["deal"]["stock"]
    k = next(k for k in range(len(stock) - 1) if stock[k] != stock[k + 1])
    stock[k], stock[k + 1] = stock[k + 1], stock[k]
    assert refusal(record) == (
        f"hands[0].deal.stock[{k}] is {stock[k]}, but seed 3 deals {stock[k + 1]}"
    )


@pytest.mark.parametrize(
    ("where", "grow"),
    [
        ("hands[0].deal.stock", lambda hand: hand["deal"]["stock"].extend(["7H"] * 50_000)),
        ("hands[0].deal.hands[1]", lambda hand: hand["deal"]["hands"][1].extend(["7H"] * 50_000)),
        (
            "hands[0].events[1] (hand 1, turn 1, seat 1): 'cards'",
            lambda hand: hand["events"][1]["cards"].extend(["7H"] * 50_000),
        ),
    ],
)
def test_a_list_of_cards_padded_by_hand_is_said_in_a_line_not_in_full(
    where: str, grow: Callable[[Record], object]
) -> None:
    """Each card was quoted: 50,000 cards added to a dealt hand or the stock gave an
    error of some 150 KB (a record of 8.6 MB, one of 4.4 MB on the command line), where
    the count says it (with the first cards, for a list the replay compares)."""
    record = bot_record("no jokers")
    hand = record["hands"][0]
    assert hand["events"][1]["kind"] == "draw"  # seat 1 draws first, seat 0 passing
    grow(hand)
    message = refusal(record)
    assert message.startswith(where), message
    assert len(message) < 1000, len(message)
    assert re.search(r" 5\d{4} cards;| … \(5\d{4} in all\)\]", message), message


def test_a_deal_of_another_size_is_refused_before_its_cards_are_read() -> None:
    """A dealt hand or a stock padded by hand was read card by card, then sorted and
    compared with the seed's deal: 1.4 million cards (8.6 MB) took 24 s on the command
    line before the refusal. Their sizes follow from the settings alone."""
    record = bot_record("no jokers")  # two players dealt 8 from 2 decks of 54, no jokers
    padded = copy.deepcopy(record)
    padded["hands"][0]["deal"]["hands"][1] += ["7H"] * 3
    assert refusal(padded) == "hands[0].deal.hands[1] has 11 cards; the settings deal 8"
    short = copy.deepcopy(record)
    del short["hands"][0]["deal"]["stock"][-1]
    assert refusal(short) == (
        "hands[0].deal.stock has 86 cards; the game's 104 cards, less the 16 dealt and the"
        " upcard, are 87"
    )
    with pytest.raises(RecordError) as raised:
        read_record(padded)  # said by reading, before any replay
    assert raised.value.places[-1][0] == ("hands", 0, "deal", "hands", 1)


def test_a_draw_of_another_card_names_its_event_and_the_cards() -> None:
    record = bot_record("no jokers")
    h, i = first(record, lambda events, i: events[i]["kind"] == "draw")
    event = record["hands"][h]["events"][i]
    drawn = event["cards"][0]
    event["cards"] = ["AS" if drawn != "AS" else "AH"]
    assert refusal(record) == (
        f"{place(h, i, event)}: 'cards' is recorded as [{event['cards'][0]}], the replay"
        f" gives [{drawn}]"
    )


def test_a_record_that_stops_before_the_hand_ends_says_who_is_to_move() -> None:
    record = bot_record("one deck")
    last = record["hands"][0]["events"].pop()
    assert last["kind"] == "play"
    assert refusal(record) == (
        f"hands[0]: the events end, but the hand goes on: seat {last['seat']} is to move"
    )


def test_an_event_after_the_hand_ended_is_refused_at_its_index() -> None:
    record = bot_record("one deck")
    events = record["hands"][0]["events"]
    events.append(copy.deepcopy(events[-1]))
    index = len(events) - 1
    assert refusal(record) == f"{place(0, index, events[-1])}: the hand was already over"


def test_an_event_of_the_wrong_kind_names_what_the_replay_asks_for() -> None:
    """A pass (a buy declined) recorded as a draw: the replay offers the upcard."""
    record = bot_record("three decks")
    h, i = first(record, lambda events, i: events[i]["kind"] == "pass")
    event = record["hands"][h]["events"][i]
    event.update(kind="draw", cards=["5H"])
    assert refusal(record) == (
        f"{place(h, i, event)}: the replay asks for 'buy' / 'pass', the record has 'draw'"
    )


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            # A format of no game this Meldwise reads (the other game's names its review).
            lambda r: r.update(format="meldwise-poker-game"),
            "^game record: 'format' must be 'meldwise-shanghai-game', got 'meldwise-poker-game'$",
        ),
        (
            lambda r: r.update(version=2),
            r"^game record: 'version' is 2: the record is of a newer format \(version 2\) than"
            r" this Meldwise reads \(version 1\)$",
        ),
        (lambda r: r.pop("seed"), "^game record: missing field 'seed'$"),
        (
            lambda r: r["hands"][0]["events"][3].pop("kind"),
            r"^game record: missing field 'kind' in hands\[0\]\.events\[3\]$",
        ),
        (lambda r: r.update(hands="x"), "^game record: 'hands' must be a list, got 'x'$"),
        (
            lambda r: r["hands"][0].update(events={}),
            r"^game record: 'hands\[0\]\.events' must be a list, got \{\}$",
        ),
        (
            lambda r: r["hands"][0]["events"][0].update(cards="7H"),
            r"^game record: 'hands\[0\]\.events\[0\]\.cards' must be a list, got '7H'$",
        ),
        (
            lambda r: r["hands"][0]["events"][0]["cards"].__setitem__(0, "Q5"),
            r"^hands\[0\]\.events\[0\]\.cards: unknown card 'Q5'",
        ),
        (
            lambda r: r["hands"][0]["events"][0].update(seat=9),
            r"^hands\[0\]\.events\[0\]\.seat: 9 is not a seat of 4 players$",
        ),
        (lambda r: r.update(players=["a"]), "^'players' names 1 seat, the game has 4$"),
        (lambda r: r.update(scores=[0, 0]), "^'scores' has 2 entries for 4 players$"),
        (
            lambda r: r["hands"][0]["points"].pop(),
            r"^hands\[0\]\.points has 3 entries for 4 players$",
        ),
        (lambda r: r.pop("winners"), "^every hand has ended: the record needs 'winners'$"),
        (
            lambda r: r.update(winners=[(r["winners"][0] + 1) % 4]),
            r"^'winners' is \[\d\], but the scores give \[\d\]$",
        ),
        (
            lambda r: r["hands"][0].pop("points"),
            r"^hands\[0\]: a hand with 'end' needs 'points'$",
        ),
        (
            lambda r: r["hands"][0].update(number=2),
            r"^hands\[0\]: numbered 2, expected 1$",
        ),
        (
            lambda r: r["hands"].append(copy.deepcopy(r["hands"][0])),
            "^'hands' has 2 hands, the game plays 1$",
        ),
        (
            lambda r: r["hands"][0]["events"][1].pop("play"),
            r"^hands\[0\]\.events\[1\]: a 'play' event, and no other, has 'play'$",
        ),
        (
            lambda r: r["settings"]["rules"].update(decks=9),
            r"^settings\.rules: rule 'decks' must be",
        ),
    ],
)
def test_a_malformed_record_names_the_culprit(
    change: Callable[[Record], object], message: str
) -> None:
    assert bot_record()["hands"][0]["events"][1]["kind"] == "play"  # which one pops 'play'
    record = spoilt(change)
    assert re.search(message, refusal(record))


def test_a_rummikub_record_is_refused_for_its_format_alone() -> None:
    rummikub = {"format": "meldwise-rummikub-game", "version": 1, "turns": []}
    assert refusal(rummikub) == (
        "game record: 'format' is 'meldwise-rummikub-game': a record of that game is reviewed"
        " with meldwise review (HTTP: POST /v1/rummikub/review)"
    )


def test_an_error_notes_its_place_in_the_record() -> None:
    """The places a request's error is said within (``record: hands[0]...``)."""
    record = bot_record("one deck")
    record["hands"][0]["points"][0] += 1
    with pytest.raises(RecordError) as error:
        read_record(record)
    assert error.value.places == ((("hands", 0, "points"), "hands[0].points"),)


def test_a_record_built_in_code_that_reading_refuses_is_refused_by_replay_too() -> None:
    """replay takes a GameRecord: one built without read_record (a play event without
    its play, a hand after the last) is refused at its place, not with an
    AssertionError or an IndexError."""
    record = read_record(bot_record("one deck"))
    hand = record.hands[0]
    index = next(i for i, event in enumerate(hand.events) if event.kind == "play")
    events = list(hand.events)
    events[index] = replace(events[index], play=None)
    without_play = replace(record, hands=(replace(hand, events=tuple(events)),))
    with pytest.raises(RecordError) as error:
        replay(without_play)
    assert str(error.value).startswith(f"hands[0].events[{index}] (hand 1, turn 1, seat ")
    assert str(error.value).endswith(": a 'play' event, and no other, has 'play'")
    with pytest.raises(RecordError) as error:
        replay(replace(record, hands=(hand, hand)))
    assert str(error.value) == "hands[1]: the game was already over"
    scores = list(record.scores)
    with pytest.raises(RecordError) as error:
        replay(replace(record, scores=(scores[0] + 1, *scores[1:])))
    assert str(error.value) == (
        f"'scores' is {[scores[0] + 1, *scores[1:]]}, but the replay gives {scores}"
    )


def _leaves(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON value, its own too."""
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _leaves(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _leaves(item, (*path, index))
    return found


SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-(2**40), 2**40)
    | st.sampled_from(["JK", "7H", "AS", "2C", "Q5", "", "play", "out", "blocked"])
)
JSON_VALUES = (
    SCALARS
    | st.lists(SCALARS, max_size=3)
    | st.dictionaries(st.text(max_size=3), SCALARS, max_size=2)
)


@hypothesis_settings(max_examples=150)
@given(st.data())
def test_any_spoilt_record_is_refused_with_an_input_error_or_replays(data: st.DataObject) -> None:
    """A value anywhere replaced or removed: a MeldwiseError, never another exception
    (a KeyError, an IndexError, an AssertionError of the engine)."""
    record = copy.deepcopy(bot_record("one deck"))
    places = _leaves(record)
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(places[1:]))
        parent = record
        try:
            for key in path[:-1]:
                parent = parent[key]
            if data.draw(st.booleans()):
                parent[path[-1]] = data.draw(JSON_VALUES)
            else:
                del parent[path[-1]]
        except (KeyError, IndexError, TypeError):
            continue  # an earlier change removed the place
    with contextlib.suppress(MeldwiseError):
        replay(read_record(record))

"""What the advice and the engine say depends on the cards, not on how they are listed:
the order of the table's melds, of the hand's cards, and of a meld's cards where the
rules give that order no meaning (a set's; a run's without a wild card, which is read
sorted: docs/shanghai.md, a run with a wild card is read in the order written)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

import pytest
from hypothesis import assume, event, given, note, settings
from hypothesis import strategies as st

from solver.cpsat import Limit, Status
from solver.errors import CountError
from solver.shanghai.advice import Advice, advise
from solver.shanghai.bots import play_of
from solver.shanghai.contracts import STANDARD_CONTRACTS, Contract
from solver.shanghai.engine import Game, GameSettings, LayOffMove, Play, Step, SwapMove
from solver.shanghai.melds import InvalidMeld, Meld, MeldKind, TableMeld, read_meld
from solver.shanghai.notation import JOKER, Card, Suit
from solver.shanghai.position import Phase, Position
from solver.shanghai.rules import Rules
from solver.shanghai.scoring import penalty
from solver.shanghai.search import solve_turn
from tests.rummikub.strategies import examples
from tests.shanghai.strategies import RANDOMS
from tests.shanghai.test_shanghai_brute_force import (
    TURN_VARIANTS,
    hand_near,
    near_contract,
    table_melds,
)

LIMIT = Limit(20.0)


def _order_free(cards: Sequence[Card], rules: Rules) -> bool:
    """Whether the order ``cards`` are written in means nothing: a set's never does, a
    run's when it holds no wild card (read sorted, low to high)."""
    meld = read_meld(cards, rules)
    return meld.kind is MeldKind.SET or not any(rules.is_wild(c) for c in cards)


@st.composite
def listings(draw: st.DrawFn, table: Sequence[Meld], rules: Rules) -> list[list[int]]:
    """Another listing of ``table``: for each place of the new table, the old meld's
    index followed by the order its cards are taken in (by old position)."""
    order = draw(st.permutations(range(len(table))))
    out = []
    for index in order:
        places = list(range(len(table[index].cards)))
        if _order_free(table[index].cards, rules):
            places = list(draw(st.permutations(places)))
        out.append([index, *places])
    return out


def _relisted(table: Sequence[Meld], listing: list[list[int]], rules: Rules) -> list[Meld]:
    """``table`` listed by ``listing`` (:func:`listings`), each meld read afresh."""
    return [read_meld([table[i].cards[p] for p in places], rules) for i, *places in listing]


@st.composite
def melds(draw: st.DrawFn, rules: Rules) -> list[Meld]:
    """1-3 table melds of any shape the rules allow: sets of 3-5 cards (suits repeated
    or not), runs of 4-7 anywhere from the low to the high ace, up to as many wild
    cards (jokers, wild twos) as natural ones in any places."""
    table = []
    for _ in range(draw(st.integers(1, 3))):
        if draw(st.booleans()):
            rank = draw(st.integers(2 if not rules.twos_wild else 3, 14))
            suits = draw(st.lists(st.sampled_from(list(Suit)), min_size=3, max_size=5))
            cards = [Card(rank, suit) for suit in suits]
        else:
            length = draw(st.integers(rules.min_run_len, 7))
            first = draw(st.integers(rules.lowest_place, 15 - length))
            suit = draw(st.sampled_from(list(Suit)))
            cards = [Card(rules.rank_at(q), suit) for q in range(first, first + length)]
        wilds = [JOKER, *([Card(2, suit) for suit in Suit] if rules.twos_wild else [])]
        for spot in draw(st.permutations(range(len(cards))))[: draw(st.integers(0, 2))]:
            cards[spot] = draw(st.sampled_from(wilds))
        try:
            table.append(read_meld(cards, rules))
        except InvalidMeld:
            continue  # more wild cards than natural ones: one meld fewer
    return table


Situation = tuple[Rules, list[Card], Contract | None, list[Meld]]
"""The rules, the hand, the contract (None: the player is down) and the table."""


@st.composite
def situations(draw: st.DrawFn) -> Situation:
    """A play phase: a player not down (a hand near a standard contract) or down (a
    hand near the table's melds), and table melds, some holding wild cards."""
    rng: random.Random = draw(RANDOMS)
    rules = draw(st.sampled_from(TURN_VARIANTS))
    table = table_melds(rng, rules) if draw(st.booleans()) else draw(melds(rules))
    if draw(st.booleans()):
        contract: Contract | None = STANDARD_CONTRACTS[draw(st.integers(1, 10))]
        assert contract is not None
        hand = near_contract(rng, contract, rules)
    else:
        contract = None
        hand = hand_near(rng, table, draw(st.integers(1, 6)), rng.choice([0, 0, 1]))
    try:
        _position(hand, contract, table, Phase.PLAY).check(rules)
    except CountError:
        assume(False)  # more copies of a card than the game has
    return rules, hand, contract, table


def _position(
    hand: Sequence[Card], contract: Contract | None, table: Sequence[Meld], phase: Phase
) -> Position:
    return Position(
        tuple(hand),
        contract or STANDARD_CONTRACTS[1],
        tuple(TableMeld(m) for m in table),
        down=contract is None,
        phase=phase,
    )


def _proven(advice: Advice, rules: Rules) -> object:
    """What the play-phase advice proves: the deficiency, the hand's points, whether it
    goes down, and after the turn's plays (all proven best together) whether it goes
    out, the points and cards left and the swaps made (the last goal); not which
    cards, nor so the discard, which ties may choose."""
    turn = advice.turn
    played = None
    if turn is not None and advice.play_status is Status.OPTIMAL:
        left = turn.lay_offs.left
        swaps = turn.go_down.swaps if turn.go_down else turn.lay_offs.swaps
        played = (turn.goes_out, penalty(left, rules), len(left), len(swaps), bool(turn.discard))
    return (
        advice.status,
        advice.play_status,
        advice.deficiency,
        advice.penalty,
        advice.go_down is None,
        turn is None,
        played,
        len(advice.notes),
    )


@pytest.mark.variants
@settings(max_examples=examples(30))
@given(data=st.data(), situation=situations())
def test_play_advice_does_not_depend_on_the_order_things_are_listed_in(
    data: st.DataObject, situation: Situation
) -> None:
    """The hand and the table listed another way: the same proven advice."""
    rules, hand, contract, table = situation
    position = _position(hand, contract, table, Phase.PLAY)
    relisted = _relisted(table, data.draw(listings(table, rules)), rules)
    again = _position(data.draw(st.permutations(hand)), contract, relisted, Phase.PLAY)
    note(f"relisted: {[str(m) for m in relisted]}")
    first, second = advise(position, rules, limit=LIMIT), advise(again, rules, limit=LIMIT)
    note(f"advice: {first}\nagain: {second}")
    assume(not (first.time_capped or second.time_capped))  # a clock's cut may say less
    assert _proven(second, rules) == _proven(first, rules)
    event(f"down: {contract is None}, goes down: {first.go_down is not None}")


# --- the engine ---------------------------------------------------------------------------


def _facing(
    rules: Rules, hand: Sequence[Card], contract: Contract | None, table: Sequence[Meld]
) -> Game:
    """A game whose player to move holds ``hand`` after the draw, facing ``table``:
    down when ``contract`` is None, else to lay it."""
    game = Game.new(GameSettings(rules=rules, players=2), 0)
    seat = game.player
    game.hands[seat] = sorted(hand)
    game.table = [TableMeld(m, "1") for m in table]
    game.down[seat] = contract is None
    game.contract = contract or game.contract
    game.step = Step.PLAY
    return game


def _moved(play: Play, listing: list[list[int]]) -> Play:
    """``play`` on ``table`` made on the table listed by ``listing`` (:func:`listings`):
    each meld number and joker position where the meld now is; the melds laid this turn
    follow in the same order."""
    where = {index: new for new, (index, *_places) in enumerate(listing)}
    at = {index: {p: q for q, p in enumerate(places)} for index, *places in listing}

    def meld(index: int) -> int:
        return where.get(index, index)

    return replace(
        play,
        swaps=tuple(
            SwapMove(meld(s.meld), at[s.meld].get(s.position, s.position), s.card)
            for s in play.swaps
        ),
        lay_offs=tuple(LayOffMove(lay.card, meld(lay.meld), lay.place) for lay in play.lay_offs),
    )


@st.composite
def spoilt(draw: st.DrawFn, play: Play, hand: Sequence[Card]) -> Play:
    """``play``, or it with one thing changed: a lay-off dropped or moved to another
    meld, a card of a meld laid dropped, a swap at another place of its meld or giving
    another card, another discard or none."""
    change = draw(st.sampled_from(["none", "drop", "move", "meld", "swap", "discard"]))
    lays = list(play.lay_offs)
    if change == "swap" and play.swaps:
        i = draw(st.integers(0, len(play.swaps) - 1))
        swap = play.swaps[i]
        swap = draw(
            st.sampled_from(
                [
                    *(replace(swap, position=p) for p in range(max(0, swap.position - 2), 14)),
                    *(replace(swap, card=card) for card in hand),
                ]
            )
        )
        return replace(play, swaps=(*play.swaps[:i], swap, *play.swaps[i + 1 :]))
    if change == "drop" and lays:
        del lays[draw(st.integers(0, len(lays) - 1))]
    elif change == "move" and lays:
        i = draw(st.integers(0, len(lays) - 1))
        lays[i] = replace(lays[i], meld=draw(st.integers(0, lays[i].meld + 2)))
    elif change == "meld" and play.melds:
        i = draw(st.integers(0, len(play.melds) - 1))
        cards = list(play.melds[i])
        del cards[draw(st.integers(0, len(cards) - 1))]
        return replace(play, melds=(*play.melds[:i], tuple(cards), *play.melds[i + 1 :]))
    elif change == "discard":
        return replace(play, discard=draw(st.sampled_from([None, *hand])))
    return replace(play, lay_offs=tuple(lays))


@pytest.mark.variants
@settings(max_examples=examples(25))
@given(data=st.data(), situation=situations())
def test_the_engine_judges_a_play_on_a_table_listed_any_way_alike(
    data: st.DataObject, situation: Situation
) -> None:
    """The best play (or it spoilt) judged on the table as listed, and on the table
    listed another way with its meld numbers and joker positions moved along, the
    melds it lays in another order with their cards too, and the lay-offs in another
    order: legal in both or in neither, a legal one leaving the same hands, pile and
    melds; the best play of either listing is legal on it."""
    rules, hand, contract, table = situation
    position = _position(hand, contract, table, Phase.PLAY)
    listing = data.draw(listings(table, rules))
    relisted = _relisted(table, listing, rules)
    bests = []
    for shown in (table, relisted):
        turn, _status = solve_turn(
            Counter(hand), contract, tuple(shown), position.unseen(rules), rules, limit=LIMIT
        )
        assume(turn is not None)
        assert turn is not None
        bests.append(play_of(turn))
        problems = _facing(rules, hand, contract, shown).problems(bests[-1])
        assert problems == (), (bests[-1], problems)
    best = bests[0]
    game = _facing(rules, hand, contract, table)
    play = data.draw(spoilt(best, hand))
    moved = _moved(play, listing)
    laid = data.draw(st.permutations(range(len(play.melds))))
    news = {len(table) + old: len(table) + new for new, old in enumerate(laid)}
    melds = tuple(
        tuple(data.draw(st.permutations(cards)) if _order_free(cards, rules) else cards)
        if _readable(cards, rules)
        else play.melds[old]
        for old in laid
        for cards in [play.melds[old]]
    )
    lays = [replace(lay, meld=news.get(lay.meld, lay.meld)) for lay in moved.lay_offs]
    moved = replace(moved, melds=melds, lay_offs=tuple(data.draw(st.permutations(lays))))
    note(f"play: {play}\nrelisted: {[str(m) for m in relisted]}\nmoved: {moved}")
    found = game.problems(play)
    again = _facing(rules, data.draw(st.permutations(hand)), contract, relisted)
    said = again.problems(moved)
    note(f"problems: {found}\nagain: {said}")
    assert bool(said) == bool(found)
    event(f"legal: {not found}")
    if found:
        return
    game.apply(play)
    again.apply(moved)
    assert game.hands == again.hands
    assert game.down == again.down
    assert game.pile == again.pile
    assert _melds(game) == _melds(again)


def _melds(game: Game) -> Counter[tuple[str, ...]]:
    """The melds on ``game``'s table, each its kind and its cards (with what each stands
    for) in card order, wherever it is listed."""
    found: Counter[tuple[str, ...]] = Counter()
    for item in game.table:
        pairs = zip(item.meld.cards, item.meld.stands_for, strict=True)
        found[(item.meld.kind.value, *sorted(f"{c}{m}" for c, m in pairs))] += 1
    return found


def _readable(cards: Sequence[Card], rules: Rules) -> bool:
    try:
        read_meld(cards, rules)
    except ValueError:
        return False
    return True


def _drawn(advice: Advice) -> object:
    """What the draw-phase advice says: take, buy, each option's figures, the notes."""
    return (
        advice.status,
        advice.deficiency,
        advice.penalty,
        advice.take_upcard,
        advice.buy,
        advice.draw_options,
        advice.notes,
    )


@pytest.mark.variants
@settings(max_examples=examples(4))
@given(data=st.data(), situation=situations())
def test_draw_advice_does_not_depend_on_the_order_things_are_listed_in(
    data: st.DataObject, situation: Situation
) -> None:
    """Before the draw, the hand and the table listed another way: the same advice to
    take, draw or buy, with the same figures and reasons."""
    rules, hand, contract, table = situation
    upcard, *rest = data.draw(st.permutations(hand))
    assume(rest)
    buys = data.draw(st.integers(0, 1))
    position = replace(_position(rest, contract, table, Phase.DRAW), upcard=upcard, buys_left=buys)
    relisted = _relisted(table, data.draw(listings(table, rules)), rules)
    again = _position(data.draw(st.permutations(rest)), contract, relisted, Phase.DRAW)
    again = replace(again, upcard=upcard, buys_left=buys)
    note(f"relisted: {[str(m) for m in relisted]}")
    first, second = advise(position, rules, limit=LIMIT), advise(again, rules, limit=LIMIT)
    note(f"advice: {first}\nagain: {second}")
    # A solve the clock stopped may say less (documented: time_capped); on a loaded
    # machine one listing's took "unknown" where the other's was optimal (seed 5858).
    assume(not (first.time_capped or second.time_capped))
    assert _drawn(second) == _drawn(first)

"""Reading a Shanghai position from notation (:meth:`Position.parse`), the counterpart
of Rummikub's: what a position writes (its hand, each table meld as a meld prints, its
owner before a ``:``) reads back as the same position, and bad notation is refused by
its place, quoting it."""

from __future__ import annotations

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from solver.errors import MeldwiseError, NotationError, RequestError, TableError
from solver.shanghai.contracts import Contract
from solver.shanghai.melds import InvalidMeld, Meld, TableMeld, read_meld
from solver.shanghai.notation import ACE, ALL_NATURALS, JOKER, Card, Suit, format_cards
from solver.shanghai.position import Phase, Position
from solver.shanghai.rules import Rules

from .strategies import HAND_NUMBERS

CARDS = st.sampled_from([*ALL_NATURALS, JOKER])
OWNERS = st.one_of(st.none(), st.sampled_from(["ann", "bo", "Ann Lee", "山田", "x" * 64, "o'neil"]))


@st.composite
def melds(draw: st.DrawFn, rules: Rules) -> Meld:
    """A valid meld of ``rules``: a set of one rank or a run of one suit, some of its
    cards jokers (twos too, when they are wild)."""
    if draw(st.booleans()):
        rank = draw(st.integers(2, ACE))
        size = draw(st.integers(rules.min_set_len, rules.min_set_len + 3))
        cards = [Card(rank, draw(st.sampled_from(list(Suit)))) for _ in range(size)]
    else:
        suit = draw(st.sampled_from(list(Suit)))
        size = draw(st.integers(rules.min_run_len, 8))
        first = draw(st.integers(1 if rules.ace_low else 2, ACE - size + 1))
        cards = [Card(ACE if place == 1 else place, suit) for place in range(first, first + size)]
    wild = Card(2, Suit.CLUBS) if rules.twos_wild else JOKER
    for index in draw(st.sets(st.integers(0, len(cards) - 1), max_size=len(cards) // 2)):
        cards[index] = draw(st.sampled_from([JOKER, wild]))
    try:
        return read_meld(cards, rules)
    except InvalidMeld:
        assume(False)  # a wild card where the run cannot read it (below its first place)
        raise


@st.composite
def positions(draw: st.DrawFn) -> tuple[Position, Rules]:
    """A position with its rules, every card-holding field drawn."""
    rules = Rules(ace_low=draw(st.booleans()), twos_wild=draw(st.booleans()))
    table = draw(st.lists(st.tuples(melds(rules), OWNERS), max_size=4))
    position = Position(
        tuple(draw(st.lists(CARDS, max_size=12))),
        Contract.for_hand(draw(HAND_NUMBERS), rules),
        tuple(TableMeld(meld, owner) for meld, owner in table),
        down=draw(st.booleans()),
        upcard=draw(st.one_of(st.none(), CARDS)),
        buys_left=draw(st.integers(0, 4)),
        phase=draw(st.sampled_from([None, *Phase])),
        seen=tuple(draw(st.lists(CARDS, max_size=6))),
    )
    return position, rules


def written_table(position: Position) -> str:
    """The table as a person writes it: each meld as it prints, after its owner."""
    return " | ".join(
        f"{item.owner}: {item.meld}" if item.owner is not None else str(item.meld)
        for item in position.table
    )


@given(positions())
def test_what_a_position_writes_reads_back_as_the_position(drawn: tuple[Position, Rules]) -> None:
    position, rules = drawn
    parsed = Position.parse(
        format_cards(position.hand),
        written_table(position),
        position.down,
        contract=position.contract,
        rules=rules,
        upcard=None if position.upcard is None else str(position.upcard),
        buys_left=position.buys_left,
        phase=position.phase,
        seen=format_cards(position.seen),
    )
    assert parsed == position
    as_lists = Position.parse(
        [str(card) for card in position.hand],
        [[str(card) for card in item.meld.cards] for item in position.table],
        position.down,
        contract=position.contract,
        rules=rules,
    )
    assert as_lists.table == tuple(TableMeld(item.meld) for item in position.table)


def test_the_rummikub_call_reads_a_first_hand_position() -> None:
    """``Position.parse(rack, table)`` as Rummikub's takes it: the contract is the
    first hand's, the rules the standard ones."""
    position = Position.parse("7H 7S JK", "8H 8S 8D | JC QC JK(KC) AC")
    assert position.contract == Contract.for_hand(1)
    assert [str(item.meld) for item in position.table] == ["8H 8S 8D", "JC QC JK(KC) AC"]
    assert Position.parse("7H").table == Position.parse("7H", "  ").table == ()


@pytest.mark.parametrize(
    ("call", "error", "said"),
    [
        (lambda: Position.parse("7H ZZ"), NotationError, "'ZZ'"),
        (lambda: Position.parse("7H", "8H 8S 8D ||"), TableError, "1 of '8H 8S 8D ||' has no"),
        (lambda: Position.parse("7H", "ann: "), TableError, "0 of 'ann: ' has no cards"),
        (lambda: Position.parse("7H", ": 8H 8S 8D"), TableError, "owner before ':' in ': 8H"),
        (lambda: Position.parse("7H", "8H 9S"), TableError, "table meld 0 (8H 9S) is not"),
        (lambda: Position.parse("7H", [None]), RequestError, "'table[0]'"),  # type: ignore[list-item]
        (lambda: Position.parse(None), RequestError, "'hand'"),  # type: ignore[arg-type]
        (lambda: Position.parse("7H", seen=5), RequestError, "'seen'"),  # type: ignore[arg-type]
        (lambda: Position.parse("7H", rules=None), RequestError, "'rules'"),  # type: ignore[arg-type]
        (lambda: Position.parse("7H", upcard="ZZ"), NotationError, "'ZZ'"),
        (lambda: Position.parse("7H", phase="dra"), RequestError, "'dra'"),
    ],
)
def test_bad_notation_is_refused_quoting_it(
    call: object, error: type[MeldwiseError], said: str
) -> None:
    with pytest.raises(error) as refused:
        call()  # type: ignore[operator]
    assert said in str(refused.value)


def test_a_down_player_parsed_without_a_contract_has_none() -> None:
    """``Position.parse(down=True)`` filled in hand 1's contract, which a player down is
    advised without, and its check then refused rules under which hand 1's contract
    cannot be laid; the wire and the command line take a player down with no contract."""
    from solver.shanghai import advise

    rules = Rules(decks=1, jokers_per_deck=0, twos_wild=False, min_set_len=5)
    with pytest.raises(MeldwiseError, match="cannot be met"):
        Contract.for_hand(1, rules).check(rules)
    parsed = Position.parse("7H 8H 9H 7S", "3S 4S 5S 6S", True, rules=rules)
    assert parsed.contract is None
    assert parsed.check(rules) is None
    made = Position(parsed.hand, None, parsed.table, down=True)
    assert advise(parsed, rules) == advise(made, rules)
    # One not down still has the first hand's, and one given is kept.
    assert Position.parse("7H", rules=Rules()).contract == Contract.for_hand(1, Rules())
    given = Contract.for_hand(3, Rules())
    assert Position.parse("7H", down=True, contract=given).contract == given

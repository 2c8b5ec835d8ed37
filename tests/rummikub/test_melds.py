import dataclasses
import itertools
import re
from collections.abc import Iterator
from types import SimpleNamespace
from typing import cast

import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st

from solver import validate_rummikub
from solver.errors import TableError
from solver.rummikub import MeldKind, Position, Rules, parse_tiles, read_meld, solve
from solver.rummikub.layout import _group as layout_group
from solver.rummikub.melds import (
    InvalidMeld,
    Meld,
    best_value,
    joker_colours,
    read_meld_or_none,
    readings,
)
from solver.rummikub.model import TurnModel
from solver.rummikub.notation import (
    JOKER,
    Colour,
    Notation,
    Tile,
    format_tiles,
    format_written,
    spelling,
)
from solver.rummikub.position import read_table_set
from tests.rummikub.oracle import is_run, oracle_for
from tests.rummikub.strategies import examples, positions, request_of, shapes, small_rules

RULES = Rules()


def read(text: str, rules: Rules = RULES) -> tuple[str, str, str]:
    meld = read_meld(parse_tiles(text), rules)
    return meld.kind.value, " ".join(map(str, meld.tiles)), " ".join(map(str, meld.stands_for))


def test_runs_read_low_to_high_and_keep_written_jokers() -> None:
    assert read("R5 R3 R4") == ("run", "R3 R4 R5", "R3 R4 R5")
    assert read("R3 J R5") == ("run", "R3 J R5", "R3 R4 R5")
    assert read("J R4 R5") == ("run", "J R4 R5", "R3 R4 R5")


def test_an_unordered_joker_takes_the_reading_worth_most() -> None:
    assert read("R12 R13 J") == ("run", "J R12 R13", "R11 R12 R13")
    assert read("R4 J R5") == ("run", "R4 R5 J", "R4 R5 R6")
    # Read two ways, run first only when written in order (docs/rummikub.md, notation).
    assert read("J J K7") == ("run", "J J K7", "K5 K6 K7")
    assert read("K13 J J") == ("group", "K13 J J", "K13 R13 B13")


def test_groups_fill_missing_colours_with_jokers() -> None:
    assert read("K7 B7 J") == ("group", "K7 B7 J", "K7 B7 R7")
    assert read("R1 B1 K1 O1")[0] == "group"


@pytest.mark.parametrize(
    ("text", "reading"),
    [
        # J J K7 alone reads as the run; written as printed, the group stays a group.
        ("J(R7) J(B7) K7", ("group", "J J K7", "R7 B7 K7")),
        ("J(B7) J(R7) K7", ("group", "J J K7", "B7 R7 K7")),
        ("J(K5) J(K6) K7", ("run", "J J K7", "K5 K6 K7")),
        ("J(O7) B7 K7", ("group", "J B7 K7", "O7 B7 K7")),  # plain, the joker is R7
        ("J(K9) K7 K8", ("run", "K7 K8 J", "K7 K8 K9")),  # plain, K6 K7 K8 (written order)
        ("J(R7) J K7", ("group", "J J K7", "R7 B7 K7")),  # the plain joker takes the rest
        ("j(r7) j(b7) k7", ("group", "J J K7", "R7 B7 K7")),
        # A bracketed joker stands in the written order at its tile's place: J(R3) R2 J
        # is written R3 R2 ?, no run low to high, so the reading worth most (it read
        # R1 R2 R3, the J(R3) written first standing last); J R2 J(R3) is in order.
        ("J(R3) R2 J", ("run", "R2 J J", "R2 R3 R4")),
        ("J(K6) J K7", ("run", "J K7 J", "K6 K7 K8")),
        ("J R2 J(R3)", ("run", "J R2 J", "R1 R2 R3")),
        ("J(R1) R2 J", ("run", "J R2 J", "R1 R2 R3")),
    ],
)
def test_jokers_written_with_their_tile_are_read_so(text: str, reading: tuple[str, ...]) -> None:
    assert read(text) == reading


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("J(R9) K7 K8", "its joker cannot stand for R9"),
        ("J(K7) K7 K8", "its joker cannot stand for K7"),
        ("J(R7) J(R7) K7", "its jokers cannot stand for R7 R7"),
        ("J(R8) B7 K7", "its joker cannot stand for R8"),
        ("J(G7) B7 K7", "its joker cannot stand for G7"),  # no green in 4 colours
    ],
)
def test_a_joker_written_with_a_tile_it_cannot_stand_for_is_refused(text: str, reason: str) -> None:
    with pytest.raises(InvalidMeld, match=reason):
        read(text)


def test_a_set_error_quotes_the_set_as_written() -> None:
    # The bracket was dropped: "table set 0 (J R8 R10) ... cannot stand for R7" quoted a
    # set the player never wrote (and J R8 R10 alone is no set for another reason).
    with pytest.raises(TableError, match=re.escape("table set 0 (J(R7) R8 R10) is not")):
        read_table_set(0, parse_tiles("J(R7) R8 R10"), RULES)
    with spelling(Notation.RBYK):
        assert format_written(parse_tiles("J(O7) O8")) == "J(Y7) Y8"
    # Answers' tile codes place every joker afresh: a validate answer's "played" wrote
    # the rack's joker J(R7) once set errors quoted brackets.
    assert format_tiles(parse_tiles("J(R7) R8")) == "J R8"
    after = [["J(R7)", "O7", "K7"]]
    answer = validate_rummikub(
        {"rack": ["K7", "J", "O7"], "table_before": [], "table_after": after}
    )
    assert answer["played"] == ["K7", "O7", "J"]


def test_a_joker_keeps_its_written_tile_out_of_equality() -> None:
    # The bracket steers the reading of its set only: the tile is a joker like any.
    written = Tile.parse("J(R7)")
    assert written == JOKER
    assert hash(written) == hash(JOKER)
    assert str(written) == "J"
    assert written.meant == Tile.parse("R7")
    assert JOKER.meant is None


def test_single_natural_sets_may_read_either_way() -> None:
    kinds = {m.kind for m in readings(parse_tiles("R5 J J"), RULES)}
    assert kinds == {MeldKind.RUN, MeldKind.GROUP}
    assert best_value(parse_tiles("R5 J J"), RULES) == 5 + 6 + 7


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("R1 R2", "at least 3 tiles"),
        ("J J J", "only jokers"),
        ("R1 R2 R4", "jokers must fill every gap"),
        ("R1 R1 R2", "R1 appears twice"),
        ("R7 R7 B7", "R7 appears twice"),
        ("R1 B2 K3", "differ in both colour and number"),
        ("R12 R13 J R1", "differ|gap"),
    ],
)
def test_invalid_sets_say_why(text: str, reason: str) -> None:
    with pytest.raises(TableError, match=reason):
        read_meld(parse_tiles(text), RULES)


def test_no_wrap_from_13_to_1() -> None:
    with pytest.raises(TableError):
        read_meld(parse_tiles("R12 R13 R1"), RULES)


WRAP = Rules(wrap_runs=True)


def test_wrap_runs_read_round_from_their_start() -> None:
    assert read("R12 R13 R1", WRAP) == ("run", "R12 R13 R1", "R12 R13 R1")
    assert read("R1 R13 R12", WRAP) == ("run", "R12 R13 R1", "R12 R13 R1")
    assert read("R13 J R2", WRAP) == ("run", "R13 J R2", "R13 R1 R2")
    # A joker written first keeps its place: before R1 it is R13 (worth 16, not 6).
    assert read("J R1 R2", WRAP) == ("run", "J R1 R2", "R13 R1 R2")
    assert best_value(parse_tiles("R12 R13 R1"), WRAP) == 26
    # A run of every number reads 1..13 however it is written.
    every = " ".join(f"R{n}" for n in [*range(5, 14), *range(1, 5)])
    assert read(every, WRAP)[2] == " ".join(f"R{n}" for n in range(1, 14))


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("R12 R13 R1 R12", "R12 appears twice"),
        ("R12 R2 R3", "numbers 12 to 3 .* need 5 places"),
        ("R13 R1 R3", "numbers 13 to 3 .* need 4 places"),
        ("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 J", "at most 13 tiles"),
    ],
)
def test_wrapped_runs_that_are_not_sets_say_why(text: str, reason: str) -> None:
    with pytest.raises(TableError, match=reason):
        read_meld(parse_tiles(text), WRAP)


def test_a_joker_limit_refuses_sets_with_more_jokers() -> None:
    one = Rules(max_jokers_per_set=1)
    assert read("R3 J R5", one) == ("run", "R3 J R5", "R3 R4 R5")
    for text in ("R3 J J", "J R7 J"):
        with pytest.raises(TableError, match=r"at most 1 joker .* this one has 2"):
            read_meld(parse_tiles(text), one)
    assert read("R3 J J", Rules(max_jokers_per_set=2))[0] == "run"


def test_group_size_is_bounded_by_colours() -> None:
    with pytest.raises(TableError, match="at most 4"):
        read_meld(parse_tiles("R7 B7 K7 O7 J"), RULES)
    assert read("R7 B7 K7 O7 G7", Rules(colours=5))[0] == "group"


def test_min_set_len_is_a_setting() -> None:
    assert read("R1 R2", Rules(min_set_len=2))[0] == "run"
    with pytest.raises(TableError, match="at least 4"):
        read_meld(parse_tiles("R1 R2 R3"), Rules(min_set_len=4))


VARIANTS = [
    RULES,
    Rules(colours=3, numbers=7, min_set_len=2),
    Rules(colours=5, numbers=9),
    WRAP,
    Rules(colours=3, numbers=7, min_set_len=2, wrap_runs=True),
]
Pick = tuple[int, int]  # (colour index, number); a colour index past the game's is a joker


@st.composite
def tile_lists(draw: st.DrawFn) -> list[Pick]:
    """Random tiles, or a run or group (often valid), maybe shuffled, maybe with jokers."""
    shape = draw(st.sampled_from(["random", "run", "group"]))
    size = draw(st.integers(1, 6))
    if shape == "random":
        picks = [(draw(st.integers(0, 5)), draw(st.integers(1, 13))) for _ in range(size)]
    elif shape == "run":
        colour, low = draw(st.integers(0, 4)), draw(st.integers(1, 13))
        picks = [(colour, low + i) for i in range(size)]
    else:
        number = draw(st.integers(1, 13))
        picks = [(colour, number) for colour in draw(st.permutations(range(5)))[:size]]
    for i in draw(st.lists(st.integers(0, len(picks) - 1), max_size=2)):
        picks[i] = (99, 0)  # a joker
    return draw(st.permutations(picks)) if draw(st.booleans()) else picks


@settings(max_examples=500)
@given(variant=st.sampled_from(VARIANTS), picks=tile_lists())
def test_reading_a_set_takes_the_reading_the_full_search_takes(
    variant: Rules, picks: list[Pick]
) -> None:
    # Sets without jokers written as they read take a shortcut in read_meld; every
    # set must still read as the search over all readings says: the run as written
    # if one is, else the reading worth most, else no set at all.
    if variant.wrap_runs:  # runs that pass the top number go on at 1
        picks = [(colour, (number - 1) % variant.numbers + 1) for colour, number in picks]
    tiles = [
        JOKER if colour >= variant.colours else Tile.natural(Colour.from_index(colour), number)
        for colour, number in picks
        if number <= variant.numbers
    ]
    options = readings(tiles, variant)
    if not options:
        with pytest.raises(InvalidMeld):
            read_meld(tiles, variant)
        return
    written = [
        m
        for m in options
        if m.kind is MeldKind.RUN
        and all(t.is_joker or t == s for t, s in zip(tiles, m.stands_for, strict=True))
    ]
    expected = written[0] if written else max(options, key=lambda m: m.value)
    assert read_meld(tiles, variant) == expected


@settings(max_examples=examples(60), deadline=None)
@given(data=st.data(), rules=small_rules())
def test_every_set_of_an_answer_reads_back_as_printed(data: st.DataObject, rules: Rules) -> None:
    # A printed table pastes back: each set, jokers written with their tiles, reads as
    # the same set (kind and what every joker stands for); and solving that pasted
    # table again keeps every set (nothing to play: an empty rack).
    position = data.draw(positions(rules, max_rack=4, opened=True))
    note(request_of(position, rules))
    play = solve(position, rules)
    pasted = Position.parse([], [str(meld) for meld in play.table])
    assert [_as_set(m) for m in pasted.check(rules)] == [_as_set(m) for m in play.table]


@st.composite
def written_sets(draw: st.DrawFn) -> tuple[Rules, list[str]]:
    """A rule variant and a valid set of it as answers print it (a run low to high, a
    group in colour order), some of its tiles jokers, a random subset of those written
    with the tile they stand for (``J(R6)``)."""
    numbers = draw(st.integers(3, 8))
    rules = Rules(
        colours=draw(st.integers(2, 5)),  # a group holds one tile per colour at most
        numbers=numbers,
        copies=draw(st.integers(1, 2)),
        # often short: room for a set's jokers to read more than one way
        min_set_len=draw(st.integers(2, min(4, numbers)) | st.integers(2, numbers)),
        wrap_runs=draw(st.booleans()),
    )
    shape = draw(_short_sets(rules) if draw(st.booleans()) else shapes(rules))
    jokers = draw(st.integers(0, min(4, len(shape) - 1)))  # a set holds a numbered tile
    rules = dataclasses.replace(
        rules,
        jokers=draw(st.integers(jokers, 4)),
        max_jokers_per_set=draw(st.integers(max(jokers, 1), 4)),
    )
    spots = draw(st.permutations(range(len(shape))))[:jokers]
    words = [
        (f"J({tile})" if draw(st.booleans()) else "J") if i in spots else str(tile)
        for i, tile in enumerate(shape)
    ]
    return rules, words


@st.composite
def _short_sets(draw: st.DrawFn, rules: Rules) -> list[Tile]:
    """A run a few tiles longer than the fewest a set holds, at any start, or a group:
    room for the readings jokers give (``shapes`` often draws runs of every number)."""
    size = rules.min_set_len + draw(st.integers(0, 2))
    if size > rules.colours or draw(st.booleans()):
        size = min(size, rules.numbers)
        colour = draw(st.sampled_from(rules.colour_list))
        start = draw(st.sampled_from(rules.run_starts(size)))
        return [Tile.natural(colour, rules.run_number(n)) for n in range(start, start + size)]
    colours = draw(st.permutations(rules.colour_list))[:size]
    number = draw(st.integers(1, rules.numbers))
    return [Tile.natural(c, number) for c in sorted(colours, key=lambda c: c.index)]


def rewritten(words: list[str], rules: Rules) -> Iterator[list[str]]:
    """The set ``words`` (as printed) written in other orders: its numbered tiles
    where it or any other run of them (a run of another start) puts them, its jokers
    in every order in the other places (``J(R3) R2 J`` from ``R2 J(R3) J``, the run
    R1 R2 R3's places)."""
    tiles = [rules.read_tile(word) for word in words]
    jokers = [word for word, tile in zip(words, tiles, strict=True) if tile.is_joker]
    at = {tile.number: word for word, tile in zip(words, tiles, strict=True) if not tile.is_joker}
    if len({tile.colour for tile in tiles if not tile.is_joker}) == 1:
        size = len(words)
        places = [
            [at.get(rules.run_number(start + i)) for i in range(size)]
            for start in rules.run_starts(size)
        ]
        places = [p for p in places if sum(w is not None for w in p) == len(at)]
    else:  # a group: its numbered tiles where they are
        places = [[None if t.is_joker else word for word, t in zip(words, tiles, strict=True)]]
    for place in places:
        for order in dict.fromkeys(itertools.permutations(jokers)):  # in a set order
            rest = list(order)
            yield [word if word is not None else rest.pop() for word in place]


@settings(max_examples=examples(200), deadline=None)
@given(written=written_sets(), data=st.data())
def test_a_written_set_reads_as_the_rules_text_reads_it(
    written: tuple[Rules, list[str]], data: st.DataObject
) -> None:
    # docs/rummikub.md, Tile notation: jokers stand for the tiles in their brackets;
    # then the run in the order written (a bracketed joker at its tile's place), else
    # the reading worth most. The oracle's reader (Oracle.table_reading) has it from
    # the rules text, with nothing of read_meld.
    rules, printed = written
    oracle = oracle_for(rules)
    shuffled = data.draw(st.permutations(printed))
    for words in dict.fromkeys(map(tuple, [printed, *rewritten(printed, rules), shuffled])):
        note(words)
        tiles = [rules.read_tile(word) for word in words]
        meld = read_meld(tiles, rules)
        assert _as_shape(meld) == _shape_of(oracle.table_reading(tiles))
        # Printed as answers print it (each joker with its tile), it pastes back to
        # the same reading, in that order or shuffled.
        again = str(meld).split()
        assert _reading(read_meld(parse_tiles(again), rules)) == _reading(meld)
        pasted = data.draw(st.permutations(again))
        assert _as_shape(read_meld(parse_tiles(pasted), rules)) == _as_shape(meld)


def _as_shape(meld: Meld) -> tuple[bool, list[Tile]]:
    """Whether ``meld`` is a run, and the tiles it stands for (a run's in its order)."""
    run = meld.kind is MeldKind.RUN
    return run, list(meld.stands_for) if run else sorted(meld.stands_for)


def _shape_of(shape: list[Tile] | None) -> tuple[bool, list[Tile]]:
    assert shape is not None, "the oracle reads no set"
    return is_run(shape), list(shape) if is_run(shape) else sorted(shape)


def _reading(meld: Meld) -> tuple[MeldKind, tuple[Tile, ...], tuple[Tile, ...]]:
    return meld.kind, meld.tiles, meld.stands_for


def _as_set(meld: Meld) -> tuple[MeldKind, list[tuple[Tile, Tile]]]:
    """A set as its kind and its tiles with what each stands for, in any order (a run
    of every number going round reads from 1, however it was laid out)."""
    return meld.kind, sorted(zip(meld.tiles, meld.stands_for, strict=True))


def test_a_groups_jokers_take_one_colour_order_wherever_the_group_is_made() -> None:
    rules = Rules(colours=6)
    lacking = list(joker_colours({Colour.BLUE, Colour.ORANGE}, rules))
    assert lacking == [Colour.RED, Colour.BLACK, Colour.GREEN, Colour.YELLOW]
    # read as written, read with a joker said, laid out from an answer's model
    assert read("J B7 J O7", rules)[2] == "R7 B7 K7 O7"
    assert read("J(G7) B7 J O7 J", rules)[2] == "G7 B7 R7 O7 K7"
    laid = layout_group(cast(TurnModel, SimpleNamespace(rules=rules)), 7, parse_tiles("O7 J B7 J"))
    assert " ".join(map(str, laid.stands_for)) == "R7 B7 K7 O7"
    assert " ".join(map(str, laid.tiles)) == "J B7 J O7"


def test_a_set_or_none_reads_as_the_table_reads_a_set() -> None:
    # Legality and repair each kept a copy of this.
    for text in ("R3 J R5", "J(B7) J K7", "K7 B7 J"):
        assert read_meld_or_none(parse_tiles(text), RULES) == read_meld(parse_tiles(text), RULES)
    assert read_meld_or_none(parse_tiles("R3 B5 J"), RULES) is None
    assert read_meld_or_none((), RULES) is None

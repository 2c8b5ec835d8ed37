import pytest
from hypothesis import given
from hypothesis import strategies as st

from solver.errors import NotationError, TableError
from solver.rummikub import JOKER, Colour, Position, Rules, Tile, format_tiles, parse_tiles
from solver.rummikub.notation import Notation, spelling, written_sets


@given(st.sampled_from(list(Colour)), st.integers(1, 26))
def test_notation_round_trips(colour: Colour, number: int) -> None:
    tile = Tile.natural(colour, number)
    assert Tile.parse(str(tile)) == tile
    assert Tile.parse(str(tile).lower()) == tile


@given(st.sampled_from(list(Colour)), st.integers(1, 26), st.booleans())
def test_repr_pastes_back_as_the_same_tile(colour: Colour, number: int, joker: bool) -> None:
    """``repr()`` is code that makes the tile again, a joker with what it stands for
    (``J(R7)``, which the reading of its table set honours) too: it said
    ``Tile.parse('J')`` for ``J(R7)``, pasted back a joker standing for nothing said."""
    tile = Tile(None, 0, Tile.natural(colour, number)) if joker else Tile.natural(colour, number)
    again = eval(repr(tile), {"Tile": Tile})
    assert again == tile
    assert again.written == tile.written
    assert again.meant == tile.meant


@pytest.mark.parametrize(
    ("text", "tile"),
    [
        ("\uff52\uff15", "R5"),  # full width
        ("赤\uff11\uff12", "R12"),
        ("\uff7c\uff9e\uff6e\uff70\uff76\uff70", "J"),  # half-width katakana
        ("\u3000J(R6)\u3000", "J"),
        ("\uff32\uff10\uff15", "R5"),
    ],
)
def test_what_a_japanese_keyboard_types_is_read(text: str, tile: str) -> None:
    assert str(Tile.parse(text)) == tile


@pytest.mark.parametrize(
    "text",
    # superscript, circled, bold digit; spaces inside; a double-struck R
    ["R\u00b9", "R\u2460", "R\U0001d7d3", "赤 5", "J (R6)", "J( R6)", "R\u30005", "\u211d5"],
)
def test_look_alikes_and_spaces_inside_are_no_tile(text: str) -> None:
    with pytest.raises(NotationError):
        Tile.parse(text)


def test_parse_is_case_insensitive_and_canonical() -> None:
    assert str(Tile.parse("b13")) == "B13"
    assert Tile.parse(" j ") is JOKER
    assert format_tiles(parse_tiles("r1, k2 j")) == "R1 K2 J"


@pytest.mark.parametrize("text", ["Q5", "R0", "R27", "RR", "5R", "", "J2", "R-1"])
def test_unknown_tiles_are_named(text: str) -> None:
    with pytest.raises(NotationError) as error:
        Tile.parse(text)
    assert repr(text) in str(error.value)
    assert isinstance(error.value, ValueError)


@pytest.mark.parametrize("text", ["R05", "R005", "r0005", "R" + "0" * 1000 + "5"])
def test_leading_zeros_do_not_count(text: str) -> None:
    # R05 was R5 but R005 was refused as "numbers run from 1 to 26": 5 is in that range.
    assert Tile.parse(text) == Tile.parse("R5")


@pytest.mark.parametrize("text", ["R00", "R000", "R0027", "R" + "0" * 1000 + "100"])
def test_zero_and_numbers_past_the_range_are_still_refused(text: str) -> None:
    with pytest.raises(NotationError, match="numbers run from 1 to 26"):
        Tile.parse(text)


def test_tiles_outside_the_rules_are_named() -> None:
    rules = Rules()
    with pytest.raises(NotationError, match="'R14'"):
        rules.check_tile(Tile.parse("R14"))
    with pytest.raises(NotationError, match="'G5'"):
        rules.check_tile(Tile.parse("G5"))
    with pytest.raises(NotationError, match="no jokers"):
        Rules(jokers=0).check_tile(JOKER)
    assert Rules(colours=5).check_tile(Tile.parse("G5")) == Tile.parse("G5")


def test_canonical_order_puts_jokers_last() -> None:
    assert format_tiles(sorted(parse_tiles("J O1 R13 B2 R2"))) == "R2 R13 B2 O1 J"


@pytest.mark.parametrize(
    ("colour", "number"),
    [(Colour.RED, 0), (Colour.RED, 5.0), (Colour.RED, True), (None, 5), ("R", 5), (Colour.RED, 27)],
)
def test_a_tile_made_directly_must_be_a_tile(colour: object, number: object) -> None:
    # Tile(RED, 0) printed R0, which no parse reads back; made through Tile.natural it
    # was cached, and every later parse of 'R0' accepted it.
    with pytest.raises(NotationError, match="no such tile"):
        Tile(colour, number)  # type: ignore[arg-type]
    with pytest.raises(NotationError):
        Tile.parse("R0")


def test_tiles_compare_in_every_direction_and_only_with_tiles() -> None:
    r5, r6 = Tile.parse("R5"), Tile.parse("R6")
    assert r5 <= r6 and r6 >= r5 and r6 > r5 and r5 <= r5  # noqa: PT018
    with pytest.raises(TypeError):
        assert r5 < 3


def test_sets_are_written_with_each_jokers_tile_in_the_notation_asked() -> None:
    # Records, reviews and bot answers each wrote their tables with their own copy.
    sets = [parse_tiles("R5 R6 J(R4)"), parse_tiles("O7 B7 J")]
    assert written_sets(sets) == [["R5", "R6", "J(R4)"], ["O7", "B7", "J"]]
    with spelling(Notation.RBYK):
        assert written_sets([parse_tiles("J(O7) B7 K7")]) == [["J(Y7)", "B7", "K7"]]


@pytest.mark.parametrize(
    ("table", "index"),
    [("R1 R2 R3 || K1 K2 K3", 1), ("R1 R2 R3 |", 1), ("| R1 R2 R3", 0), (",", 0)],
)
def test_position_parse_refuses_an_empty_set_as_the_command_line_does(
    table: str, index: int
) -> None:
    # Position.parse skipped it (two sets read from "R1 R2 R3 || K1 K2 K3" without a
    # word), while --table refused it: one parser now, which refuses it by its place.
    with pytest.raises(TableError) as raised:
        Position.parse("R1", table)
    assert str(raised.value) == (
        f"table set {index} of {table!r} has no tiles; separate sets with one |"
    )
    # No text is no sets, and a list of sets is read as it is.
    assert Position.parse("R1", " ").table == ()
    assert Position.parse("R1", "R1 R2 R3 | K1 K2 K3").table == (
        tuple(parse_tiles("R1 R2 R3")),
        tuple(parse_tiles("K1 K2 K3")),
    )

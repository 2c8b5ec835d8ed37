import pytest

from solver.errors import TableError
from solver.rummikub import MeldKind, Rules, parse_tiles, read_meld
from solver.rummikub.melds import best_value, readings

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


def test_groups_fill_missing_colours_with_jokers() -> None:
    assert read("K7 B7 J") == ("group", "K7 B7 J", "K7 B7 R7")
    assert read("R1 B1 K1 O1")[0] == "group"


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


def test_group_size_is_bounded_by_colours() -> None:
    with pytest.raises(TableError, match="at most 4"):
        read_meld(parse_tiles("R7 B7 K7 O7 J"), RULES)
    assert read("R7 B7 K7 O7 G7", Rules(colours=5))[0] == "group"


def test_min_set_len_is_a_setting() -> None:
    assert read("R1 R2", Rules(min_set_len=2))[0] == "run"
    with pytest.raises(TableError, match="at least 4"):
        read_meld(parse_tiles("R1 R2 R3"), Rules(min_set_len=4))

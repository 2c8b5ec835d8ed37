import pytest

from solver.errors import RulesError
from solver.rummikub import Rules


def test_defaults_are_the_standard_game() -> None:
    rules = Rules()
    assert (rules.colours, rules.numbers, rules.copies, rules.jokers) == (4, 13, 2, 2)
    assert (rules.min_set_len, rules.opening_threshold, rules.joker_penalty) == (3, 30, 30)


@pytest.mark.parametrize(
    ("settings", "culprit"),
    [
        ({"colours": 9}, "colours"),
        ({"colours": 1}, "colours"),
        ({"numbers": 27}, "numbers"),
        ({"copies": 0}, "copies"),
        ({"copies": 5}, "copies"),
        ({"jokers": 5}, "jokers"),
        ({"jokers": -1}, "jokers"),
        ({"min_set_len": 1}, "min_set_len"),
        ({"jokers": True}, "jokers"),
        ({"copies": "2"}, "copies"),
        ({"numbers": 4, "min_set_len": 5}, "min_set_len"),
        ({"wild_twos": 1}, "wild_twos"),
        ({"wrap_runs": 1}, "wrap_runs"),
        ({"wrap_runs": "yes"}, "wrap_runs"),
        ({"max_jokers_per_set": 0}, "max_jokers_per_set"),
        ({"max_jokers_per_set": 5}, "max_jokers_per_set"),
        ({"max_jokers_per_set": 1.5}, "max_jokers_per_set"),
    ],
)
def test_bad_settings_name_the_setting(settings: dict[str, object], culprit: str) -> None:
    with pytest.raises(RulesError, match=culprit):
        Rules.from_dict(settings)


def test_partial_settings_keep_the_other_defaults() -> None:
    rules = Rules.from_dict({"jokers": 4})
    assert rules.jokers == 4
    assert rules.copies == 2
    assert Rules.from_dict(rules.to_dict()) == rules


def test_sets_may_be_as_long_as_every_number() -> None:
    # min_set_len ranges up to numbers, also beyond 13 (the README's 2-numbers).
    assert Rules.from_dict({"numbers": 20, "min_set_len": 20}).min_set_len == 20
    with pytest.raises(RulesError, match="'min_set_len' \\(21\\) exceeds 'numbers' \\(20\\)"):
        Rules.from_dict({"numbers": 20, "min_set_len": 21})

"""Rule settings of both games, read and checked by the shared helpers in
solver/settings.py: every message names the setting, word for word as before."""

from __future__ import annotations

from typing import Any

import pytest

from solver.errors import RulesError
from solver.rummikub import Rules as RummikubRules
from solver.settings import seated
from solver.shanghai import Rules as ShanghaiRules

RUMMIKUB_KNOWN = (
    "colours, copies, joker_penalty, joker_retrieval, jokers, max_jokers_per_set, "
    "min_set_len, numbers, opening_threshold, penalty_tiles, wrap_runs"
)
SHANGHAI_KNOWN = (
    "ace_low, ace_points, buy_penalty_cards, buys, buys_last_two_hands, decks, "
    "go_out_by_discard, joker_points, jokers_per_deck, low_points, min_run_len, "
    "min_set_len, ten_points, two_points, twos_wild"
)


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"colours": 9}, "rule 'colours' must be between 2 and 8, got 9"),
        ({"jokers": -1}, "rule 'jokers' must be between 0 and 4, got -1"),
        ({"jokers": True}, "rule 'jokers' must be a whole number, got true"),
        ({"copies": "2"}, "rule 'copies' must be a whole number, got '2'"),
        ({"numbers": 4, "min_set_len": 5}, "rule 'min_set_len' (5) exceeds 'numbers' (4)"),
        (
            {"joker_retrieval": "strict"},
            "rule 'joker_retrieval' must be one of 'free', 'replace', got 'strict'",
        ),
        ({"wrap_runs": 1}, "rule 'wrap_runs' must be true or false, got 1"),
        ({"max_jokers_per_set": 0}, "rule 'max_jokers_per_set' must be between 1 and 4, got 0"),
        ({"wild": 1}, f"unknown rule 'wild'; known rules are {RUMMIKUB_KNOWN}"),
        ([1], "rules must be an object of settings, got [1]"),
        (True, "rules must be an object of settings, got true"),  # once Python's True
        ([None], "rules must be an object of settings, got [null]"),
    ],
)
def test_rummikub_rule_messages(settings: Any, message: str) -> None:
    with pytest.raises(RulesError) as raised:
        RummikubRules.from_dict(settings)
    assert str(raised.value) == message


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"decks": 0}, "rule 'decks' must be between 1 and 8, got 0"),
        ({"min_run_len": 14}, "rule 'min_run_len' must be between 3 and 13, got 14"),
        ({"buys": 1.5}, "rule 'buys' must be a whole number, got 1.5"),
        ({"twos_wild": 1}, "rule 'twos_wild' must be true or false, got 1"),
        ({"ace_low": "yes"}, "rule 'ace_low' must be true or false, got 'yes'"),
        ({"wild_aces": True}, f"unknown rule 'wild_aces'; known rules are {SHANGHAI_KNOWN}"),
        ("x" * 100, f"rules must be an object of settings, got '{'x' * 59}"),
    ],
)
def test_shanghai_rule_messages(settings: Any, message: str) -> None:
    with pytest.raises(RulesError) as raised:
        ShanghaiRules.from_dict(settings)
    assert str(raised.value) == message


@pytest.mark.parametrize("kind", [RummikubRules, ShanghaiRules])
def test_partial_settings_keep_the_defaults_and_round_trip(kind: Any) -> None:
    assert kind.from_dict(None) == kind()
    assert kind.from_dict({}) == kind()
    first = next(iter(kind().to_dict()))
    changed = kind.from_dict({first: kind().to_dict()[first] + 1})
    assert getattr(changed, first) == getattr(kind(), first) + 1
    assert kind.from_dict(changed.to_dict()) == changed


def test_a_players_setting_must_agree_with_the_seats() -> None:
    # It was once replaced by the number of seats without a word.
    assert seated({"hand": 5, "players": 3}, 3, "settings") == {"hand": 5, "players": 3}
    assert seated({"players": None}, 2, "settings") == {"players": 2}
    with pytest.raises(RulesError, match="'players' is 3, but 2 bots are seated"):
        seated({"players": 3}, 2, "settings")

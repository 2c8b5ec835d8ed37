"""Example requests and responses of the Shanghai wire format (for docs and OpenAPI).

The responses are what the solver answers; tests/shanghai/test_wire.py keeps them in step.
"""

from typing import Any

ADVISE_REQUEST: dict[str, Any] = {
    "hand": ["7H", "7S", "7D", "3S", "4S", "5S", "JK", "10C", "KD", "9H", "9C", "2D"],
    "hand_number": 2,
    "table": [
        {"cards": ["8H", "8S", "8D"], "owner": "ann"},
        {"cards": ["JC", "QC", "KC", "AC"], "owner": "bo"},
    ],
    "down": False,
    "upcard": "6S",
    "buys_left": 3,
    "rules": {},
    "time_limit_ms": 2000,
}

ADVISE_RESPONSE: dict[str, Any] = {
    "status": "optimal",
    "contract": {"sets": [3], "runs": [4]},
    "deficiency": 0,
    "penalty": 105,
    "go_down": {
        "melds": [
            {"kind": "set", "cards": ["7S", "7H", "7D"], "as": ["7S", "7H", "7D"]},
            {"kind": "run", "cards": ["3S", "4S", "5S", "JK"], "as": ["3S", "4S", "5S", "6S"]},
        ],
        "swaps": [],
        "left": ["9H", "2D", "KD", "9C", "10C"],
        "penalty_left": 50,
    },
    "lay_offs": {
        "plays": [{"card": "9C", "meld": 1, "as": "9C"}, {"card": "10C", "meld": 1, "as": "10C"}],
        "swaps": [],
        "left": ["9H", "2D", "KD"],
        "points_shed": 15,
        "can_go_out": False,
    },
    "discard": {
        "card": "2D",
        "reason": "Discard 2D: once down the contract is met, so throw the costliest card "
        "that cannot be laid off (20 points).",
    },
    "take_upcard": {
        "take": False,
        "rule": "Heuristic: take the upcard when it lowers the exact deficiency "
        "(cards still needed for the contract); with 6S it goes from 0 to 0. "
        "A stock card is unknown, so it is not weighed.",
        "deficiency_now": 0,
        "deficiency_with": 0,
    },
    "buy": {
        "buy": False,
        "rule": "Heuristic: buy when taking the upcard would lower the deficiency (0 to 0) "
        "and a buy is left (3); the 2 penalty cards are unknown and not counted.",
        "deficiency_now": 0,
        "deficiency_with": 0,
    },
    "notes": [],
}

ADVISE_NOT_DOWN_REQUEST: dict[str, Any] = {
    "hand": ["9H", "9S", "KD", "4C", "JK", "QH", "5D"],
    "hand_number": 1,
    "table": [],
    "down": False,
    "upcard": "9D",
    "buys_left": 3,
}

ADVISE_NOT_DOWN_RESPONSE: dict[str, Any] = {
    "status": "optimal",
    "contract": {"sets": [3, 3], "runs": []},
    "deficiency": 2,
    "penalty": 65,
    "go_down": None,
    "lay_offs": None,
    "discard": {
        "card": "KD",
        "reason": "Discard KD: the rest of the hand is 2 cards short of the contract, the "
        "fewest any discard leaves; among such discards it keeps the most outs "
        "(12 unseen cards would fill a gap) and then sheds the most points "
        "(10).",
    },
    "take_upcard": {
        "take": True,
        "rule": "Heuristic: take the upcard when it lowers the exact deficiency "
        "(cards still needed for the contract); with 9D it goes from 2 to 1. "
        "A stock card is unknown, so it is not weighed.",
        "deficiency_now": 2,
        "deficiency_with": 1,
    },
    "buy": {
        "buy": True,
        "rule": "Heuristic: buy when taking the upcard would lower the deficiency (2 to 1) "
        "and a buy is left (3); the 2 penalty cards are unknown and not counted.",
        "deficiency_now": 2,
        "deficiency_with": 1,
    },
    "notes": [],
}

SCORE_REQUEST: dict[str, Any] = {
    "hands": {"ann": ["AS", "JK", "7D"], "bo": [], "cy": ["10H", "2C"]},
    "rules": {},
}

SCORE_RESPONSE: dict[str, Any] = {
    "scores": [
        {"player": "ann", "cards": ["AS", "7D", "JK"], "points": 45, "went_out": False},
        {"player": "bo", "cards": [], "points": 0, "went_out": True},
        {"player": "cy", "cards": ["10H", "2C"], "points": 30, "went_out": False},
    ]
}

"""Example requests and responses of the Shanghai wire format (for docs and OpenAPI).

The responses are what the solver answers; tests/shanghai/test_shanghai_wire.py keeps them
in step.
"""

from typing import Any

ADVISE_REQUEST: dict[str, Any] = {
    "hand": ["7H", "7S", "7D", "3S", "4S", "5S", "JK", "10C", "KD", "9H", "9C", "2D"],
    "hand_number": 2,
    "phase": "play",
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
    "time_capped": False,
    "play_status": "optimal",
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
        "plays": [{"card": "10C", "meld": 1, "as": "10C"}, {"card": "9C", "meld": 1, "as": "9C"}],
        "swaps": [],
        "left": ["9H", "2D", "KD"],
        "points_shed": 15,
        "can_go_out": False,
    },
    "discard": {
        "card": "2D",
        "reason": "Discard 2D: of the cards left after the plays (9H 2D KD), 9H "
        "2D KD cannot be laid off on any meld as the table stands after "
        "this turn; of those it has the lowest danger (0, a heuristic), "
        "then the most points (20).",
        "deficiency_after": None,
        "outs": None,
        "danger": 0,
    },
    "take_upcard": None,
    "buy": None,
    "notes": [],
    "phase": "play",
    "end_of_turn": {"goes_out": False, "kept": ["9H", "KD"], "points": 15},
    "draw_options": [],
}

ADVISE_NOT_DOWN_REQUEST: dict[str, Any] = {
    "hand": ["9H", "9S", "KD", "4C", "JK", "QH", "5D", "9C"],
    "hand_number": 1,
    "phase": "play",
    "table": [],
    "down": False,
    "upcard": "9D",
    "buys_left": 3,
}

ADVISE_NOT_DOWN_RESPONSE: dict[str, Any] = {
    "status": "optimal",
    "time_capped": False,
    "play_status": "optimal",
    "contract": {"sets": [3, 3], "runs": []},
    "deficiency": 1,
    "penalty": 70,
    "go_down": None,
    "lay_offs": None,
    "discard": {
        "card": "KD",
        "reason": "Discard KD: the rest of the hand is 1 card short of the "
        "contract (exact), the fewest any discard leaves; of the 4 such "
        "discards it has the lowest danger (0, a heuristic), then the "
        "most outs found (21 unseen natural cards would each lower that "
        "by one, each checked), then the most points (10).",
        "deficiency_after": 1,
        "outs": 21,
        "danger": 0,
    },
    "take_upcard": None,
    "buy": None,
    "notes": [],
    "phase": "play",
    "end_of_turn": None,
    "draw_options": [],
}

ADVISE_DRAW_REQUEST: dict[str, Any] = {
    "hand": ["9H", "9S", "KD", "4C", "JK", "QH", "5D"],
    "hand_number": 1,
    "phase": "draw",
    "table": [],
    "down": False,
    "upcard": "9D",
    "buys_left": 3,
    "seen": ["KS", "4H"],
    "next_player": {"down": False, "took": ["QD"]},
}

ADVISE_DRAW_RESPONSE: dict[str, Any] = {
    "status": "optimal",
    "time_capped": False,
    "play_status": None,
    "contract": {"sets": [3, 3], "runs": []},
    "deficiency": 2,
    "penalty": 65,
    "go_down": None,
    "lay_offs": None,
    "discard": None,
    "take_upcard": {
        "take": True,
        "rule": "Take: 9D takes the deficiency (cards still needed, exact) "
        "from 2 to 1; a stock card lowers it with chance 34% (exact "
        "over the 97 unseen cards).",
        "deficiency_now": 2,
        "deficiency_with": 1,
    },
    "buy": {
        "buy": True,
        "rule": "Buy: 9D takes the deficiency (exact) from 2 to 1 (buy when it lowers "
        "it and a buy is left, 3 here); with it and the 2 penalty cards the "
        "expected deficiency is about 0.48 (each penalty card counted with "
        "the chance that one stock card lowers it, an estimate) and the hand "
        "holds 88.2 expected points.",
        "deficiency_now": 2,
        "deficiency_with": 1,
    },
    "notes": [],
    "phase": "draw",
    "end_of_turn": None,
    "draw_options": [
        {
            "action": "take",
            "cards": 1,
            "deficiency": 1,
            "points": 70,
            "go_down": 0,
            "go_out": 0,
            "chances_proven": True,
        },
        {
            "action": "draw",
            "cards": 1,
            "deficiency": 1.6598,
            "points": 74.1237,
            "go_down": 0.0,
            "go_out": 0.0,
            "chances_proven": True,
        },
        {
            "action": "buy",
            "cards": 3,
            "deficiency": 0.4845,
            "points": 88.2474,
            "go_down": None,
            "go_out": None,
            "chances_proven": True,
        },
    ],
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

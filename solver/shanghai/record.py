"""The record of a Shanghai game: a JSON object that replays it.

Format (``format`` ``meldwise-shanghai-game``, ``version`` 1)::

    {"format": "meldwise-shanghai-game", "version": 1, "seed": 7,
     "settings": {...GameSettings.to_dict()...}, "players": ["strong", "greedy", ...],
     "hands": [{"number": 1, "deal": {"hands": [[...], ...], "upcard": "7H",
                "stock": [...]},
               "events": [{"turn": 0, "seat": 1, "kind": "draw", "cards": ["9C"]},
                          {"turn": 0, "seat": 1, "kind": "play", "play": {...}}, ...],
               "end": "out", "went_out": 2, "hands_left": [[...], ...],
               "points": [15, 40, 0, 5]}, ...],
     "scores": [120, 75, 80, 210], "winners": [1]}

A play is ``{"melds": [[cards]...], "swaps": [{"meld", "position", "card"}],
"lay_offs": [{"card", "meld", "place"}], "discard": card or null}``. The seed and
the settings deal the same game again; the events are every decision made.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from solver.shanghai.engine import Event, Game, Play
from solver.shanghai.notation import Card

FORMAT = "meldwise-shanghai-game"
VERSION = 1


def _cards(cards: Sequence[Card]) -> list[str]:
    return [str(c) for c in cards]


def play_to_dict(play: Play) -> dict[str, Any]:
    return {
        "melds": [_cards(m) for m in play.melds],
        "swaps": [
            {"meld": s.meld, "position": s.position, "card": str(s.card)} for s in play.swaps
        ],
        "lay_offs": [
            {"card": str(lay.card), "meld": lay.meld, "place": lay.place} for lay in play.lay_offs
        ],
        "discard": None if play.discard is None else str(play.discard),
    }


def _event(event: Event) -> dict[str, Any]:
    found: dict[str, Any] = {"turn": event.turn, "seat": event.seat, "kind": event.kind}
    if event.cards:
        found["cards"] = _cards(event.cards)
    if event.play is not None:
        found["play"] = play_to_dict(event.play)
    return found


def record_to_dict(game: Game, players: Sequence[str]) -> dict[str, Any]:
    """The record of ``game`` (finished or not) with the bot names by seat."""
    hands = []
    for index, deal in enumerate(game.deals):
        entry: dict[str, Any] = {
            "number": deal["number"],
            "deal": {
                "hands": [_cards(h) for h in deal["hands"]],
                "upcard": str(deal["upcard"]),
                "stock": _cards(deal["stock"]),
            },
            "events": [_event(e) for e in game.events[index]],
        }
        if index < len(game.results):
            result = game.results[index]
            entry |= {
                "end": result.end,
                "went_out": result.went_out,
                "hands_left": [_cards(h) for h in result.hands],
                "points": list(result.points),
            }
        hands.append(entry)
    answer: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "seed": game.seed,
        "settings": game.settings.to_dict(),
        "players": list(players),
        "hands": hands,
        "scores": list(game.scores),
    }
    if game.over:
        answer["winners"] = list(game.result().winners)
    return answer

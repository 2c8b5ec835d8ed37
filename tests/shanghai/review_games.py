"""Shanghai bot games as JSON records, for the review's tests (library, CLI, HTTP):
small hands, so that the brute force of ``tests/shanghai/brute.py`` checks each turn."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from functools import cache
from typing import Any

from solver.shanghai.bots import make_bot
from solver.shanghai.engine import Game, GameSettings, Move, Play
from solver.shanghai.record import record_to_dict
from solver.shanghai.rules import Rules

Record = dict[str, Any]

SMALL = GameSettings(players=2, hands=2, hand_size=7)
"""Hands of 8 cards after the draw: small enough for the brute force."""
VARIANT = GameSettings(
    rules=Rules(go_out_by_discard=True, ace_low=True, twos_wild=True),
    players=3,
    hands=2,
    hand_size=7,
)
"""Wild twos, low aces, going out by discarding: seed 7 lays off much with jokers on
the table, seed 8 swaps a joker."""


NO_POINTS = replace(
    SMALL,
    rules=Rules(low_points=0, ten_points=0, ace_points=0, two_points=0, joker_points=0),
)
"""Every card worth 0 points: going down leaves as many points as not (seed 2, lazy:
seat 0 skips going down on hand 1, turn 12)."""


def _bot_game(settings: GameSettings, seed: int, lazy: bool = False) -> Record:
    """A game of greedy bots as a JSON record; ``lazy``: seat 0 lays nothing on the
    first turn its bot would go down and on the first it would go out (it discards its
    costliest card instead), and the record says where under ``"skipped"`` (which the
    test takes out before reviewing): {"down": [hand, turn], "out": [hand, turn]}."""
    game = Game.new(settings, seed)
    bots = [make_bot("greedy", seat) for seat in range(settings.players)]
    skipped: dict[str, list[int]] = {}
    while not game.over:
        seat = game.to_move
        move: Move = bots[seat].choose(game.view(seat))
        if lazy and seat == 0 and isinstance(move, Play):
            move = _lazier(game, move, skipped)
        game.apply(move)
    names = [f"greedy {seat}" for seat in range(settings.players)]
    loaded: Record = json.loads(json.dumps(record_to_dict(game, names)))
    if lazy:
        loaded["skipped"] = skipped
    return loaded


def _lazier(game: Game, move: Play, skipped: dict[str, list[int]]) -> Play:
    hand = list(game.view().hand)
    goes_down = bool(move.melds)
    # A swap gives a card and takes a joker: the hand's size stays.
    laid = sum(len(m) for m in move.melds) + len(move.lay_offs)
    goes_out = laid + (move.discard is not None) == len(hand)
    for kind, now in (("down", goes_down), ("out", goes_out)):
        if now and kind not in skipped:
            skipped[kind] = [game.number, game.turn + 1]
            return Play(discard=max(hand, key=game.rules.points))
    return move


SKIPPED: dict[str, dict[str, list[int]]] = {}


@cache
def game_text(name: str) -> str:
    games: dict[str, Callable[[], Record]] = {
        "small": lambda: _bot_game(SMALL, 3),
        "variant": lambda: _bot_game(VARIANT, 7),
        "swap": lambda: _bot_game(VARIANT, 8),
        "lazy": lambda: _bot_game(SMALL, 2, lazy=True),
        "lazy, no points": lambda: _bot_game(NO_POINTS, 2, lazy=True),
    }
    made = games[name]()
    SKIPPED[name] = made.pop("skipped", {})
    return json.dumps(made)


def game(name: str) -> Record:
    loaded: Record = json.loads(game_text(name))
    return loaded

"""Shared by the whole-game tests: small rule sets whose games take milliseconds."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from solver.rummikub import Rules
from solver.rummikub.bots import make_bot
from solver.rummikub.engine import Game, GameSettings
from solver.shanghai import engine as shanghai
from solver.shanghai.record import record_to_dict as shanghai_record_to_dict

TINY = Rules(colours=3, numbers=7, copies=1, jokers=1, opening_threshold=10)
"""Games of about 15 turns and 15 ms; some end blocked."""
SMALL = Rules(colours=3, numbers=9, copies=2, jokers=1, opening_threshold=15)
"""Games of about 40 turns and 0.1 s."""

TINY_OPTIONS = {"rules": TINY.to_dict(), "hand": 5}
SMALL_OPTIONS = {"rules": SMALL.to_dict(), "hand": 7}


def play(settings: GameSettings, bots: Sequence[str], seed: int) -> Game:
    """A whole game between the named bots (seat order), dealt from ``seed``."""
    game = Game.new(settings, seed)
    players = [make_bot(name, seed * 16 + seat) for seat, name in enumerate(bots)]
    while not game.over:
        move = players[game.to_move].choose(game.view())
        game.apply(move)
    return game


def shanghai_record() -> dict[str, Any]:
    """The record of a Shanghai game just dealt: what a Rummikub review may be fed."""
    game = shanghai.Game.new(shanghai.GameSettings(players=2), 1)
    return shanghai_record_to_dict(game, ["ann", "bob"])


def played_turn(
    number: int, player: int, rack: str, before: list[list[str]], after: list[list[str]]
) -> dict[str, Any]:
    """A record's turn ``number``: ``player`` with ``rack`` turned the table ``before``
    into ``after`` (tiles as written)."""
    return {
        "turn": number,
        "player": player,
        "rack": rack.split(),
        "table_before": before,
        "action": "play",
        "table_after": after,
    }

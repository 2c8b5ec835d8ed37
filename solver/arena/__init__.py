"""Whole games of any game: the protocols a game and its bots implement, and the
tournament runner that plays seeded games between bots and reports win rates.

Nothing here knows a game's rules: a game plugs in through a
:class:`~solver.arena.game.GameSpec` named in :data:`~solver.arena.registry.GAMES`.
"""

from solver.arena.game import Bot, GameSpec, Match, Playing, Result, UnknownBot
from solver.arena.registry import GAMES, game_spec

__all__ = ["GAMES", "Bot", "GameSpec", "Match", "Playing", "Result", "UnknownBot", "game_spec"]

"""Whole games of any game: the protocols a game and its bots implement, and the
tournament runner that plays seeded games between bots and reports win rates.

Nothing here knows a game's rules: a game plugs in through a
:class:`~solver.arena.game.GameSpec` named in :data:`~solver.arena.registry.GAMES`.
"""

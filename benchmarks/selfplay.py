"""Mid-game positions from self-play: the realistic benchmark positions.

Large random tables are easy (almost any rack fits somewhere), so the suite also
plays games: ``PLAYERS`` players are dealt ``HAND`` tiles each; on a turn a player
makes the solver's best play (most tiles; before opening, the best opening worth
the threshold), or draws a tile when there is none. The position the player to
move faces is kept every ``KEEP_EVERY`` turns. A game ends when a rack is empty
or, with the pool empty, every player has passed in turn; then a new game starts
from the same random stream until enough positions are kept.
"""

from __future__ import annotations

import random

from solver.rummikub import STANDARD, Limit, Objective, Position, Rules, Tile, solve
from solver.rummikub.deal import full_set

PLAYERS = 4
HAND = 14
KEEP_EVERY = 3
TIME_LIMIT = 10.0
"""Seconds for each move of the simulated players (not timed by the suite)."""


def play_positions(rng: random.Random, count: int, rules: Rules = STANDARD) -> list[Position]:
    """``count`` positions met in self-play games dealt from ``rng``."""
    kept: list[Position] = []
    while len(kept) < count:
        kept += play_game(rng, rules, count - len(kept))
    return kept


def play_game(rng: random.Random, rules: Rules, wanted: int) -> list[Position]:
    """Play one game; return the positions kept (at most ``wanted``)."""
    pool = sorted(full_set(rules).elements())
    rng.shuffle(pool)
    racks: list[list[Tile]] = [sorted(pool[i * HAND : (i + 1) * HAND]) for i in range(PLAYERS)]
    del pool[: PLAYERS * HAND]
    opened = [False] * PLAYERS
    table: tuple[tuple[Tile, ...], ...] = ()
    kept: list[Position] = []
    passes = turn = 0
    while len(kept) < wanted and passes < PLAYERS:
        player = turn % PLAYERS
        turn += 1
        position = Position(tuple(racks[player]), table, opened[player])
        if turn % KEEP_EVERY == 0:
            kept.append(position)
        play = solve(position, rules, Objective.TILES, limit=Limit(TIME_LIMIT))
        if play.played:
            table = tuple(meld.tiles for meld in play.table)
            racks[player] = list(play.rack_left)
            opened[player] = True
            if not racks[player]:
                break
        elif pool:
            racks[player] = sorted([*racks[player], pool.pop()])
        else:
            passes += 1
            continue
        passes = 0
    return kept

"""Rummikub as the tournament runner plays it: the game, its bots, its record."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from solver.arena.game import GameSpec, Match
from solver.rummikub.bots import BOTS, make_bot
from solver.rummikub.engine import MAX_PLAYERS, Game, GameSettings
from solver.rummikub.record import record_to_dict
from solver.settings import seated_read


def new_game(seed: int, players: int, options: Mapping[str, Any]) -> Game:
    """A game of ``players`` dealt from ``seed``; ``options`` are game settings
    (``rules``, ``hand``, ``pool_empty``; see :class:`GameSettings`); an error
    in them is said at ``options``, ``--option`` on the command line, one of the number of
    players alone at ``players``, ``--players``)."""
    settings = seated_read(GameSettings.read, options, players, "options", "players")
    return Game.new(settings, seed)


def _record(match: Match, players: Sequence[str]) -> dict[str, Any]:
    assert isinstance(match, Game)
    return record_to_dict(match, players)


RUMMIKUB = GameSpec(
    name="rummikub",
    new_match=new_game,
    new_bot=make_bot,
    bot_names=tuple(BOTS),
    record=_record,
    max_players=MAX_PLAYERS,
)

"""Shanghai as the shared tournament runner (:mod:`solver.arena`) plays it: the game,
its bots, its record.

The runner finds a game through ``solver.arena.registry.GAMES``; the entry for this
one is ``"shanghai": "solver.shanghai.arena:SHANGHAI"``. ``SHANGHAI`` is made on
first use, so that this module imports without the runner.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from importlib import import_module
from typing import TYPE_CHECKING, Any

from solver.settings import seated_read
from solver.shanghai.bots import BOTS, make_bot
from solver.shanghai.engine import MAX_PLAYERS, Game, GameSettings
from solver.shanghai.record import record_to_dict

if TYPE_CHECKING:
    from solver.arena.game import Match


def new_game(seed: int, players: int, options: Mapping[str, Any]) -> Game:
    """A game of ``players`` dealt from ``seed``; ``options`` are game settings
    (``rules``, ``hands``, ``hand_size``, ``max_turns``; see :class:`GameSettings`); an error
    in them is said at ``options``, ``--option`` on the command line, one of the number of
    players alone at ``players``, ``--players``)."""
    settings = seated_read(GameSettings.read, options, players, "options", "players")
    return Game.new(settings, seed)


def record(match: Match, players: Sequence[str]) -> dict[str, Any]:
    assert isinstance(match, Game)
    return record_to_dict(match, players)


def __getattr__(name: str) -> Any:
    if name != "SHANGHAI":
        raise AttributeError(name)
    game = import_module("solver.arena.game")
    return game.GameSpec(
        name="shanghai",
        new_match=new_game,
        new_bot=make_bot,
        bot_names=tuple(BOTS),
        record=record,
        max_players=MAX_PLAYERS,
        penalty_scores=True,
    )

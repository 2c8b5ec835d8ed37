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

from solver.settings import rules_read, seated
from solver.shanghai.bots import BOTS, make_bot
from solver.shanghai.engine import Game, GameSettings
from solver.shanghai.record import record_to_dict
from solver.shanghai.rules import Rules

if TYPE_CHECKING:
    from solver.arena.game import Match


def new_game(seed: int, players: int, options: Mapping[str, Any]) -> Game:
    """A game of ``players`` dealt from ``seed``; ``options`` are game settings
    (``rules``, ``hands``, ``hand_size``, ``max_turns``; see :class:`GameSettings`); an error
    in the rules is said at ``options.rules``, ``--option rules`` on the command line)."""
    return Game.new(
        GameSettings.from_dict(rules_read(seated(options, players), Rules, "options")), seed
    )


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
        penalty_scores=True,
    )

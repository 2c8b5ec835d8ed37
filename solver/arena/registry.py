"""The games the tournament runner can play, by name.

Each entry points at a module attribute holding the game's
:class:`~solver.arena.game.GameSpec`; it is imported only when asked for, so the
runner imports no game of its own (and a worker process imports only the game it
plays).
"""

from __future__ import annotations

from importlib import import_module

from solver.arena.game import GameSpec
from solver.errors import MeldwiseError
from solver.i18n import _, listed

GAMES: dict[str, str] = {
    "rummikub": "solver.rummikub.arena:RUMMIKUB",
    "shanghai": "solver.shanghai.arena:SHANGHAI",
}
"""Game name -> ``module:attribute`` of its :class:`GameSpec`."""


def game_spec(name: str) -> GameSpec:
    """The spec of the game called ``name`` (a key of :data:`GAMES`).

    Raises :class:`~solver.errors.MeldwiseError` naming a game there is not."""
    where = GAMES.get(name)
    if where is None:
        raise MeldwiseError(
            _("unknown game {name!r}; games are {games}", name=name, games=listed(GAMES))
        )
    module, _sep, attribute = where.partition(":")
    spec: GameSpec = getattr(import_module(module), attribute)
    return spec

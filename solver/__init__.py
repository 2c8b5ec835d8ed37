"""Meldwise: exact move solvers for rummy games.

``solve_rummikub(request: dict) -> dict`` is the wire-level entry point;
``validate_rummikub`` (check a claimed move), ``repair_rummikub`` (put a table that
went wrong right) and ``score_rummikub`` (end-of-round scoring) work the same way.
The typed API lives in :mod:`solver.rummikub`.
Shanghai rummy: ``advise_shanghai`` and ``score_shanghai`` (dict in, dict out),
typed API in :mod:`solver.shanghai`. Whole games of either game (the engine, bots,
records, review) plug into the protocols of :mod:`solver.arena` (``game_spec(name)``).
A wrong argument or input raises a :class:`MeldwiseError` (a ``ValueError``) naming it.
"""

from solver.errors import MeldwiseError
from solver.rummikub import repair_rummikub, score_rummikub, solve_rummikub, validate_rummikub
from solver.shanghai import advise_shanghai, score_shanghai

__all__ = [
    "MeldwiseError",
    "advise_shanghai",
    "repair_rummikub",
    "score_rummikub",
    "score_shanghai",
    "solve_rummikub",
    "validate_rummikub",
]

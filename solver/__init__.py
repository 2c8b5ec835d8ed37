"""Meldwise: exact move solvers for rummy games.

``solve_rummikub(request: dict) -> dict`` is the wire-level entry point;
``validate_rummikub`` (check a claimed move) and ``score_rummikub`` (end-of-round
scoring) work the same way. The typed API lives in :mod:`solver.rummikub`.
"""

from solver.errors import MeldwiseError
from solver.rummikub import score_rummikub, solve_rummikub, validate_rummikub

__all__ = ["MeldwiseError", "score_rummikub", "solve_rummikub", "validate_rummikub"]

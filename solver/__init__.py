"""Meldwise: exact move solvers for rummy games.

``solve_rummikub(request: dict) -> dict`` is the wire-level entry point; the
typed API lives in :mod:`solver.rummikub`.
"""

from solver.errors import MeldwiseError
from solver.rummikub import solve_rummikub

__all__ = ["MeldwiseError", "solve_rummikub"]

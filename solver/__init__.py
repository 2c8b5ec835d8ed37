"""Meldwise: exact move solvers for rummy games.

``solve_rummikub(request: dict) -> dict`` is the wire-level entry point; the
typed API lives in :mod:`solver.rummikub`. Shanghai rummy: ``advise_shanghai`` and
``score_shanghai`` (dict in, dict out), typed API in :mod:`solver.shanghai`.
"""

from solver.errors import MeldwiseError
from solver.rummikub import solve_rummikub
from solver.shanghai import advise_shanghai, score_shanghai

__all__ = ["MeldwiseError", "advise_shanghai", "score_shanghai", "solve_rummikub"]

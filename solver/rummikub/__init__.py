"""Rummikub: tiles, rules, sets, and the exact CP-SAT turn solver."""

from solver.cpsat import Limit, Status
from solver.rummikub.melds import Meld, MeldKind, read_meld
from solver.rummikub.notation import JOKER, Colour, Tile, format_tiles, parse_tiles
from solver.rummikub.position import Objective, Position
from solver.rummikub.repair import Repair
from solver.rummikub.result import Play
from solver.rummikub.rules import STANDARD, Rules
from solver.rummikub.scoring import PlayerScore, score_round
from solver.rummikub.search import DEFAULT_DISRUPTION_TIME_LIMIT, DEFAULT_TIME_LIMIT, solve
from solver.rummikub.wire import (
    repair_rummikub,
    score_rummikub,
    solve_rummikub,
    validate_rummikub,
)

__all__ = [
    "DEFAULT_DISRUPTION_TIME_LIMIT",
    "DEFAULT_TIME_LIMIT",
    "JOKER",
    "STANDARD",
    "Colour",
    "Limit",
    "Meld",
    "MeldKind",
    "Objective",
    "Play",
    "PlayerScore",
    "Position",
    "Repair",
    "Rules",
    "Status",
    "Tile",
    "format_tiles",
    "parse_tiles",
    "read_meld",
    "repair_rummikub",
    "score_round",
    "score_rummikub",
    "solve",
    "solve_rummikub",
    "validate_rummikub",
]

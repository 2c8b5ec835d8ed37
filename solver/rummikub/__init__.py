"""Rummikub: tiles, rules, sets, and the exact CP-SAT turn solver."""

from solver.rummikub.melds import Meld, MeldKind, read_meld
from solver.rummikub.play import Objective, Play, Status
from solver.rummikub.position import Position
from solver.rummikub.repair import Repair, repair
from solver.rummikub.rules import STANDARD, Rules
from solver.rummikub.scoring import PlayerScore, score_round, score_rummikub
from solver.rummikub.solve import solve
from solver.rummikub.tiles import JOKER, Colour, Tile, format_tiles, parse_tiles
from solver.rummikub.wire import repair_rummikub, solve_rummikub, validate_rummikub

__all__ = [
    "JOKER",
    "STANDARD",
    "Colour",
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
    "repair",
    "repair_rummikub",
    "score_round",
    "score_rummikub",
    "solve",
    "solve_rummikub",
    "validate_rummikub",
]

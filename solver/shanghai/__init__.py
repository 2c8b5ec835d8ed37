"""Shanghai rummy: cards, rules, contracts, melds, the exact CP-SAT advice, and scoring."""

from solver.cpsat import Limit, Status
from solver.shanghai.advice import Advice, advise
from solver.shanghai.contracts import STANDARD_CONTRACTS, Contract
from solver.shanghai.melds import Meld, MeldKind, TableMeld, read_meld
from solver.shanghai.notation import JOKER, Card, Suit, format_cards, parse_cards
from solver.shanghai.position import NextPlayer, Phase, Position
from solver.shanghai.rules import STANDARD, Rules
from solver.shanghai.scoring import HandScore, score_hands
from solver.shanghai.wire import advise_shanghai, score_shanghai

__all__ = [
    "JOKER",
    "STANDARD",
    "STANDARD_CONTRACTS",
    "Advice",
    "Card",
    "Contract",
    "HandScore",
    "Limit",
    "Meld",
    "MeldKind",
    "NextPlayer",
    "Phase",
    "Position",
    "Rules",
    "Status",
    "Suit",
    "TableMeld",
    "advise",
    "advise_shanghai",
    "format_cards",
    "parse_cards",
    "read_meld",
    "score_hands",
    "score_shanghai",
]

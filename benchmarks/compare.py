"""Where our solver and the peer disagree on a position, and why.

They disagree when their plays differ in the mode's objective: tiles played
(``tiles``, ``opening``) or points played as our rules count them (``points``).
Each disagreement says who is short and, when the peer is, the reasons its model
gives (see :mod:`benchmarks.peer`). A legal peer play that beats ours would be a
bug in ours: it is reported as such.
"""

from __future__ import annotations

from dataclasses import dataclass

from benchmarks.answers import Answer
from benchmarks.cases import Case, Mode
from benchmarks.peer import peer_can_form, peer_opening_precheck
from solver.rummikub import Position, Rules
from solver.rummikub.notation import format_tiles

VALUE_MODE_REASON = "its value mode ranks plays by tile count, not points"


@dataclass(frozen=True, slots=True)
class Disagreement:
    case: Case
    mode: Mode
    ours: Answer
    peer: Answer
    verdict: str
    why: str


def objective_value(answer: Answer, mode: Mode, rules: Rules) -> int:
    return answer.points(rules) if mode is Mode.POINTS else answer.tiles


def compare(
    case: Case, mode: Mode, ours: Answer, peer: Answer, rules: Rules
) -> Disagreement | None:
    """The disagreement between the two answers, or None when they agree."""
    if peer.problems:
        return Disagreement(case, mode, ours, peer, "peer illegal", "; ".join(peer.problems))
    if ours.problems:
        return Disagreement(case, mode, ours, peer, "OURS ILLEGAL", "; ".join(ours.problems))
    ours_value = objective_value(ours, mode, rules)
    peer_value = objective_value(peer, mode, rules)
    if ours_value == peer_value:
        return None
    if peer_value > ours_value:
        why = (
            "a bug in ours: the peer's legal play is better and ours claims optimal"
            if ours.status == "optimal"
            else f"ours ran out of time ({ours.status})"
        )
        return Disagreement(case, mode, ours, peer, "OURS SHORT", why)
    why = peer_shortfall(mode, case.position, ours, peer, rules)
    return Disagreement(case, mode, ours, peer, "peer short", why)


def peer_shortfall(mode: Mode, position: Position, ours: Answer, peer: Answer, rules: Rules) -> str:
    """What in our play the peer's model cannot reach or does not value."""
    reasons = []
    # An opening leaves the table as it was: only its new sets count.
    ours_sets = (
        ours.table_after[len(position.table) :] if mode is Mode.OPENING else ours.table_after
    )
    outside = [tiles for tiles in ours_sets if not peer_can_form(tiles, rules)]
    if outside:
        sets = " | ".join(format_tiles(tiles) for tiles in outside)
        reasons.append(f"ours needs sets outside its list: {sets}")
    if mode is Mode.POINTS:
        reasons.append(VALUE_MODE_REASON)
    if (
        mode is Mode.OPENING
        and not peer.played
        and (total := peer_opening_precheck(position.rack, rules)) < rules.opening_threshold
    ):
        reasons.append(f"its opening pre-check sums distinct rack values ({total}) and gives up")
    jokers = sum(tile.is_joker for tile in ours.played)
    if jokers and mode is Mode.OPENING:
        reasons.append(f"ours plays {jokers} joker(s), which its opening does not count")
    return "; ".join(reasons) or "unexplained: our play fits its set list and objective"

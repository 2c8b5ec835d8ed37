"""Time our solver the way users call it: ``solve(position, rules, objective,
limit=Limit(time_limit))``, one CP-SAT worker, from a parsed position to a laid-out play.
With ``least_disruption`` off it answers only what rummikub-solver answers (the best
score), without the tie-breaks that keep the table calm."""

from __future__ import annotations

import time

from benchmarks.answers import Answer, Calm, judge
from benchmarks.cases import Mode
from solver.rummikub import Limit, Position, Rules, solve


def time_ours(
    position: Position,
    mode: Mode,
    rules: Rules,
    time_limit: float,
    least_disruption: bool = True,
) -> Answer:
    """Solve ``position`` as ``mode`` asks, timed; the play judged for legality."""
    asked = mode.position(position)
    start = time.perf_counter()
    play = solve(
        asked,
        rules,
        mode.objective,
        limit=Limit(time_limit),
        least_disruption=least_disruption,
    )
    ms = (time.perf_counter() - start) * 1000
    table_after = tuple(meld.tiles for meld in play.table)
    problems = judge(asked, play.played, table_after, rules)
    calm = None
    if least_disruption:
        calm = Calm(play.sets_kept, play.tiles_moved, play.disruption_proven, play.time_capped)
    return Answer(ms, play.status.value, play.played, table_after, problems, calm)

"""Free jokers: table jokers that no set needs.

A joker on the table is free when the table's other tiles still lay out as valid
sets without it (perhaps rearranged): under ``joker_retrieval: "free"`` a player who
has opened could take it for a set of their own. This is what rummikub-solver's
``arrange_table`` reports, and it is a question for the turn model: lay the table's
tiles out as a rack of their own (nothing on the table), worth their numbers and a
joker nothing, and keep the most jokers off the table (the score stage's tie-break).
"""

from __future__ import annotations

import dataclasses
from collections import Counter

from solver.cpsat import Limit
from solver.rummikub.model import TileCounts, build_model
from solver.rummikub.notation import JOKER, Tile
from solver.rummikub.position import Objective
from solver.rummikub.rules import Rules
from solver.rummikub.runner import run

FREE_JOKERS_WORK = 0.5
"""Deterministic seconds of CP-SAT work for the count: far above what a full table
needs (a table's tiles always lay out, the search only trims jokers)."""


def free_jokers(rules: Rules, table: Counter[Tile], limit: Limit) -> tuple[int | None, bool]:
    """How many of the jokers in ``table`` (tiles that lay out as valid sets) no set
    needs: the most that can leave while the other tiles still lay out; and whether the
    clock stopped the search. The count is None when the search stops before proving
    it: at its work bound, or at ``limit``'s wall-clock cap (shared with the other
    searches of the answer once it is started), when it may be another on an idle
    machine, which an answer says as ``time_capped``.

    Every numbered tile placed scores its number, a joker nothing
    (``joker_penalty = 0``), so the best score places every numbered tile and the
    tie-break then plays the fewest jokers: free = jokers - jokers played."""
    jokers = table[JOKER]
    if not jokers:
        return 0, False
    if limit.clock_stops_searches():
        return None, True  # no search would start: spare building its model
    worth = dataclasses.replace(rules, joker_penalty=0, joker_retrieval="free")
    tm = build_model(worth, TileCounts.of(table), TileCounts({}), Objective.POINTS, opening=False)
    limits = limit.account(FREE_JOKERS_WORK)
    solved = run(tm, limits)
    if not solved.optimal:
        return None, limits.capped
    return jokers - solved.value(tm.played_jokers), limits.capped

"""A phase's work budget: what stops every search of one Shanghai advice.

Each phase of an advice (the draw, the play) draws every CP-SAT search it makes on one
:class:`~solver.cpsat.Budget`: a fixed count of searches and of CP-SAT's deterministic
work, so that it stops at the same point, and answers the same bytes, on an idle and a
loaded machine. The wall clock stays the outer safety cap, stretched to
:data:`TIME_FACTOR` times the request's time limit so that a loaded machine still
stops the advice at its work, not at the clock; an answer the clock cuts says so
(``time_capped``), one the budget stops says so in a note (:func:`budget_note`), and a
figure left unproven says which of them stopped it (:func:`what_stopped`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from solver.cpsat import Budget, Limit
from solver.i18n import _


@dataclass(frozen=True, slots=True)
class PhaseBudget:
    """The searches (``solves``) and deterministic ``work`` (CP-SAT's units, about
    seconds of one core) that every search of one phase's advice shares."""

    work: float
    solves: int


DRAW = PhaseBudget(work=1.0, solves=100)
"""The draw phase's budget. The hardest two of 60 dealt draw positions (hands 1-10 of
11, 15 and 21 cards, the standard rules and 3 decks with wild twos) need 0.87 and 0.86
units, the next 0.08 (benchmarks/RESULTS.md, section 5), and the small wild-two hands of
the variant tests (``2S 2H 2S 3S`` under a set of 2 and a run of 3) up to 0.55 in 60
searches; 100 searches is one per drawn card found at most, about twice the distinct
unseen cards."""

PLAY = PhaseBudget(work=1.0, solves=100)
"""The play phase's budget. Of 60 dealt play positions (hands 1-10; 12 and 16 cards not
down, 2-8 cards down; the standard rules and 3 decks with wild twos) the most any needs
is 0.055 units in 2 searches, the default hand-7 play request 0.080 in 1
(benchmarks/RESULTS.md, section 5); the eight wild twos and a joker of the tests
(``EIGHT_TWOS``), whose discard asks 37 searches and 2.4 units to prove, stop at it."""

TIME_FACTOR = 10
"""A phase's wall-clock safety cap, in times the request's time limit
(:func:`phase_limit`): 20 s at the default 2 s, where a budget of 1.0 unit takes about
1.5-2.5 s of CPU on an idle core, so that a machine whose load leaves the advice a
quarter of a core, or less, still stops it at its work, not at the clock."""


def phase_limit(limit: Limit, budget: PhaseBudget) -> Limit:
    """The limit of one phase's advice: every search draws on one
    :class:`~solver.cpsat.Budget` of ``budget``'s searches and work, which is what stops
    it, within :data:`TIME_FACTOR` times ``limit``'s time (from its start, once
    started), the outer safety cap. Its accounts are ``limit``'s: a search the clock
    cut still says so (``time_capped``)."""
    more = limit.time * (TIME_FACTOR - 1)
    deadline = None if limit.deadline is None else limit.deadline + more
    return replace(
        limit,
        time=limit.time + more,
        deadline=deadline,
        budget=Budget(budget.solves, budget.work),
    )


def budget_note(limit: Limit, budget: PhaseBudget) -> str | None:
    """What an advice under :func:`phase_limit` (of ``budget``) says when its work budget
    stopped a search or kept one from starting; None when it did not."""
    if limit.budget is None or not limit.budget.reached:
        return None
    return _(
        "The advice reached its fixed work budget ({work:.1f} units of CP-SAT's"
        " deterministic work, {solves} searches) before every figure was proven: the"
        " figures not proven stop where the budget did, the same on any machine and load.",
        work=budget.work,
        solves=budget.solves,
    )


def what_stopped(limit: Limit) -> str:
    """What stopped the searches of an advice under ``limit`` first, said of a figure
    they left unproven: its work budget (the same on any machine), the clock (its time
    limit: another load may answer otherwise), both, or a search's own work bound."""
    budget = limit.budget is not None and limit.budget.reached
    if budget and limit.capped:
        return _("the advice's work budget and the clock both stopped searches first")
    if budget:
        return _("the advice's fixed work budget stopped a search first")
    if limit.capped:
        return _("the clock (the time limit) stopped a search first")
    return _("a search stopped at its own work bound first")

"""What every game's CP-SAT solve shares: the model, the limits, the run and its status.

* :class:`CpModel`: CP-SAT's model without its camelCase aliases (faster to build);
* :class:`Limit`: the budget a caller gives a solve (frozen, validated);
* :class:`Limits`: what the searches of a stage may still spend, deterministic work
  first and wall-clock time as the outer cap;
* :class:`Budget`: what every search of one question (a bot's move) may still spend
  together, a count of searches and deterministic work;
* :func:`run` and :class:`Solved`: one CP-SAT search and its solution, read fast;
* :class:`Status`: what a solve proved, and :meth:`Status.worst` to fold the
  statuses of a turn's stages into one;
* :func:`solve_statuses` and :func:`note_status`: the status of every solve the bots
  of a game make (either game's), folded by :func:`least_proven`;
* :func:`game_budget`, :func:`game_meter` and :class:`GameWork`: the deterministic
  work a whole bot game may do (the HTTP service's game budget: CP-SAT's work of its
  solves, the size of their models and a charge per move), past which it raises
  :class:`OverBudget`;
* :func:`shared_clock` and :func:`shared_limit`: the wall-clock time the answers of a
  question made of many (a game review's turns) share, each with its own time limit
  (:meth:`Limit.afresh`);
* :func:`lexicographic`, :func:`maximize`, :func:`total`: goals of several levels
  as one linear expression, set the way OR-Tools builds fastest.
"""

from __future__ import annotations

import functools
import math
import signal
import socket
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from typing import Any

from ortools.sat.python import cp_model
from ortools.sat.python import cp_model_helper as cmh
from ortools.util.python.sorted_interval_list import Domain

from solver.errors import LimitError, MeldwiseError, ModelError, quoted
from solver.i18n import _
from solver.values import Pasted

LinearExpr = cp_model.LinearExpr | int
"""A linear expression of CP-SAT variables, or a constant."""

_IntVar = cp_model.IntVar
_Bounded = cmh.BoundedLinearExpression
_AddLinear = Callable[[cp_model.CpModel, Any], cp_model.Constraint]
_add_linear: _AddLinear | None = getattr(cmh.CpBaseModel, "_add_bounded_linear_expression", None)
"""OR-Tools' own step for a linear constraint, called directly when this version has it
(a private name: without it :meth:`CpModel.add` is OR-Tools' ``add``, the same model)."""
_sum = cp_model.LinearExpr.sum


class CpModel(cp_model.CpModel):
    """CP-SAT's model without the camelCase aliases it adds to every new model, and
    with variables made faster.

    We use the snake_case API only, and adding the aliases costs about 0.5 ms per
    model: a tenth of a typical Rummikub solve. A variable's domain is a C++ object
    that OR-Tools makes afresh for each new variable; sharing one per (lb, ub) makes
    a variable about 0.75 times as costly (a Rummikub model has hundreds), the same
    model.
    Variables are not named unless :attr:`named` (when reading a model by eye):
    nothing reads the names, CP-SAT searches the same without them, and naming took
    a third of the time of making a variable.
    """

    named = False
    """Whether ``new_*_var`` give the variables their names (set it on the class)."""

    def __init__(self, model_proto: Any = None) -> None:
        super().__init__(model_proto)
        # Read once: each read of ``model_proto`` makes a new wrapper of the proto.
        self._proto = self.model_proto

    def _add_pre_pep8_methods(self) -> None:
        pass

    def new_int_var(
        self, lb: cp_model.IntegralT, ub: cp_model.IntegralT, name: str
    ) -> cp_model.IntVar:
        var = _IntVar(self._proto).with_domain(_domain(lb, ub))
        if self.named:
            var.with_name(name)
        return var

    def new_bool_var(self, name: str) -> cp_model.IntVar:
        var = _IntVar(self._proto).with_domain(_BOOL)
        if self.named:
            var.with_name(name)
        return var

    def add(self, ct: Any) -> cp_model.Constraint:
        """CP-SAT's ``add``, with the usual case (a linear constraint) tested first and
        alone: a model adds hundreds."""
        if _add_linear is not None and type(ct) is _Bounded:
            return _add_linear(self, ct)
        return super().add(ct)


@functools.cache
def _domain(lb: cp_model.IntegralT, ub: cp_model.IntegralT) -> Domain:
    """The domain lb..ub, made once (with_domain copies it into the variable)."""
    return Domain(lb, ub)


_BOOL = _domain(0, 1)


class Status(Pasted):
    """What a solve proved."""

    OPTIMAL = "optimal"
    """Proven best, including proven-impossible (an empty play)."""
    FEASIBLE = "feasible"
    """A search stopped (its work bound or a time limit) before proving the best; the
    answer is legal but not proven best."""
    UNKNOWN = "unknown"
    """A search stopped before it found anything."""

    def worst(self, other: Status) -> Status:
        """The less proven of two statuses: a turn is as proven as its weakest stage."""
        return max(self, other, key=_ORDER.index)

    @classmethod
    def of(cls, code: cp_model.CpSolverStatus) -> Status:
        """The status of a search that ended with CP-SAT's ``code``: UNKNOWN when it
        found nothing (infeasible is the caller's to interpret)."""
        if code == cp_model.OPTIMAL:
            return cls.OPTIMAL
        return cls.FEASIBLE if code == cp_model.FEASIBLE else cls.UNKNOWN


_ORDER = (Status.OPTIMAL, Status.FEASIBLE, Status.UNKNOWN)

_STATUSES: ContextVar[list[Status] | None] = ContextVar("bot_solve_statuses", default=None)


@contextmanager
def solve_statuses() -> Iterator[list[Status]]:
    """The status of every solve the bots make inside the block (each game's bots
    :func:`note_status` theirs), in order: a bot's move, or a game, is as proven as
    the least proven of them (:func:`least_proven`)."""
    statuses: list[Status] = []
    token = _STATUSES.set(statuses)
    try:
        yield statuses
    finally:
        _STATUSES.reset(token)


def note_status(status: Status) -> Status:
    """Note a solve's ``status`` in the :func:`solve_statuses` block around it, if
    any; return it."""
    if (statuses := _STATUSES.get()) is not None:
        statuses.append(status)
    return status


def least_proven(statuses: Iterable[Status]) -> Status:
    """The least proven of ``statuses``; optimal for none."""
    return functools.reduce(Status.worst, statuses, Status.OPTIMAL)


_GAME_BUDGET: ContextVar[int | None] = ContextVar("game_budget_ms", default=None)

WORK_MS_PER_DETERMINISTIC_SECOND = 3000.0
"""Milliseconds of a game's work (:class:`GameWork`) per second of CP-SAT's
deterministic time of its solves: about the CPU time of a long search (a Shanghai
game of 5.4 deterministic seconds spent 12.6 s of CPU in CP-SAT's solves, 17.2 s in
all, benchmarks/RESULTS.md, "A bot game's work")."""

MODEL_ITEM_WORK_MS = 0.015
"""Milliseconds of a game's work (:class:`GameWork`) for each variable and each
constraint of a model given to CP-SAT: building it, loading it and reading its
answer, which its deterministic time does not count (a Rummikub model grows with the
table, and so does its Python)."""

MOVE_WORK_MS = 2.0
"""Milliseconds of a game's work (:class:`GameWork`) charged for each move: the
Python around its solves (the engine, the bot's own reasoning): a move with no
CP-SAT search at all (a draw, the beginner's tiles added to the table) is charged
too."""

MELD_READ_WORK_MS = 0.005
"""Milliseconds of a game's work (:class:`GameWork`) for each set a bot reads in its
own Python, outside CP-SAT (:func:`note_reads`): the beginner tries each rack tile on
each table set, which grows with the table and the rack past a move's charge (a game
on 26 numbers, 4 copies and 4 jokers read 552409 sets, about 5 microseconds each,
benchmarks/RESULTS.md, "A bot game's work")."""


@dataclass(slots=True)
class GameWork:
    """The deterministic work of a bot game so far, by which the HTTP service's game
    budget (:func:`game_budget`) bounds it: CP-SAT's deterministic time of every solve
    and the size of each model solved (:func:`run` notes each solve, once), and the
    moves made. All are counts of what was done, not of time, so a game is refused,
    or played, at the same move on an idle and on a busy machine; :attr:`ms` weighs
    them in milliseconds of about an idle machine's CPU time
    (:data:`WORK_MS_PER_DETERMINISTIC_SECOND`, :data:`MODEL_ITEM_WORK_MS`,
    :data:`MOVE_WORK_MS`), with the sets the bots read in their own Python
    (:data:`MELD_READ_WORK_MS`).

    ``outer``: the work counted around this one (a game inside another's count), in
    which every solve and move of this one is noted too."""

    solve_seconds: float = 0.0
    """CP-SAT's deterministic seconds, summed over every solve."""
    solves: int = 0
    """The models given to CP-SAT (:func:`run`)."""
    model_items: int = 0
    """Their variables and constraints, summed."""
    moves: int = 0
    """The moves charged."""
    melds_read: int = 0
    """The sets the bots read in their own Python, outside CP-SAT (:func:`note_reads`)."""
    outer: GameWork | None = field(default=None, repr=False)

    @property
    def ms(self) -> float:
        """The work in milliseconds."""
        return (
            self.solve_seconds * WORK_MS_PER_DETERMINISTIC_SECOND
            + self.model_items * MODEL_ITEM_WORK_MS
            + self.moves * MOVE_WORK_MS
            + self.melds_read * MELD_READ_WORK_MS
        )

    def note_solve(self, seconds: float, items: int) -> None:
        """Note one solve of ``seconds`` deterministic seconds, of a model of ``items``
        variables and constraints, here and outwards."""
        for work in self._outwards():
            work.solve_seconds += seconds
            work.solves += 1
            work.model_items += items

    def note_reads(self, sets: int) -> None:
        """Charge ``sets`` sets read outside CP-SAT, here and outwards."""
        for work in self._outwards():
            work.melds_read += sets

    def note_move(self) -> None:
        """Charge one move, here and outwards."""
        for work in self._outwards():
            work.moves += 1

    def _outwards(self) -> Iterator[GameWork]:
        """This count, then each counted around it."""
        work: GameWork | None = self
        while work is not None:
            yield work
            work = work.outer


_GAME_WORK: ContextVar[GameWork | None] = ContextVar("game_work", default=None)


def note_reads(sets: int) -> None:
    """Charge ``sets`` sets a bot read in its own Python (each a candidate set it tried a
    tile on) to the :class:`GameWork` counted around it, if any."""
    work = _GAME_WORK.get()
    if work is not None:
        work.note_reads(sets)


@contextmanager
def counting_work() -> Iterator[GameWork]:
    """Within it, every CP-SAT solve (:func:`run`) is noted in the :class:`GameWork`
    yielded (and in any counted around it); moves are charged by the caller
    (:meth:`GameWork.note_move`)."""
    work = GameWork(outer=_GAME_WORK.get())
    token = _GAME_WORK.set(work)
    try:
        yield work
    finally:
        _GAME_WORK.reset(token)


class OverBudget(MeldwiseError):
    """A bot game that ran past its :func:`game_budget`: each game's ``game_*`` says
    which of its settings asks for too long a game. ``work``: what the game had done."""

    def __init__(self, budget_ms: int, work: GameWork) -> None:
        super().__init__(
            _(
                "the game ran past the game budget of {budget} ms of work ({work})",
                budget=budget_ms,
                work=work_said(work),
            )
        )
        self.budget_ms = budget_ms
        self.work = work


def work_said(work: GameWork) -> str:
    """What a game's work counted, in words, each part as the budget weighs it (the sets
    the bots read in their own Python when they read any)."""
    parts: dict[str, Any] = {
        "ms": work.ms,
        "moves": work.moves,
        "move_ms": MOVE_WORK_MS,
        "items": work.model_items,
        "solves": work.solves,
        "item_ms": MODEL_ITEM_WORK_MS,
        "seconds": work.solve_seconds,
        "second_ms": WORK_MS_PER_DETERMINISTIC_SECOND,
    }
    if work.melds_read:
        return _(
            "{ms:.0f} ms counted: {moves} moves at {move_ms:g} ms, {reads} table sets read"
            " by the bots at {read_ms:g} ms, {items} variables and constraints of the"
            " {solves} models solved at {item_ms:g} ms, and their {seconds:.3f} s of CP-SAT's"
            " deterministic time at {second_ms:g} ms a second",
            reads=work.melds_read,
            read_ms=MELD_READ_WORK_MS,
            **parts,
        )
    return _(
        "{ms:.0f} ms counted: {moves} moves at {move_ms:g} ms, {items} variables and"
        " constraints of the {solves} models solved at {item_ms:g} ms, and their"
        " {seconds:.3f} s of CP-SAT's deterministic time at {second_ms:g} ms a second",
        **parts,
    )


@contextmanager
def game_budget(budget_ms: int | None) -> Iterator[None]:
    """Within it, a bot game (:func:`solver.arena.runner.play_out`, by its
    :func:`game_meter`) whose :class:`GameWork` has reached ``budget_ms`` milliseconds
    of work (None: no bound) raises :class:`OverBudget` before its next move: the HTTP
    service's game budget. Work, not time: a bot game is the same moves and the same
    solves every time, so the same request is refused at the same move, or played,
    whatever the load (a worker slowed by others' load past the wall-clock time its
    watchdog allows is the watchdog's, a 503 to try again)."""
    token = _GAME_BUDGET.set(budget_ms)
    try:
        yield
    finally:
        _GAME_BUDGET.reset(token)


@contextmanager
def game_meter() -> Iterator[Callable[[], None]]:
    """A game's meter, counting its work (:func:`counting_work`) from now: the function
    yielded, called before each move, charges the move and raises :class:`OverBudget`
    once the game's work has reached the :func:`game_budget` in force."""
    budget = _GAME_BUDGET.get()
    with counting_work() as work:

        def check() -> None:
            if budget is not None and work.ms > budget:
                raise OverBudget(budget, work)
            work.note_move()

        yield check


_SHARED_CLOCK: ContextVar[float | None] = ContextVar("shared_clock_s", default=None)


@contextmanager
def shared_clock(seconds: float | None) -> Iterator[None]:
    """Within it, a question made of many answers, each with a time limit of its own (a
    game review's turns, by :func:`shared_limit` and :meth:`Limit.afresh`), ends them
    all within ``seconds`` of wall-clock time from its start (None: no bound beyond
    each answer's own): the HTTP service's game budget of a review. Only the outer
    cap: each answer still stops at its work bound or its own time limit first, so a
    question that fits in it answers as it does without it, on any load; an answer it
    cuts says so (``time_capped``). (Each turn had the budget over the turns instead,
    295 ms of 120 s for the 406 turns of a whole Shanghai game, which a busy machine
    turned into cuts the library and the command line did not make.)"""
    token = _SHARED_CLOCK.set(seconds)
    try:
        yield
    finally:
        _SHARED_CLOCK.reset(token)


def shared_limit(seconds: float) -> Limit:
    """A :class:`Limit` of ``seconds`` for each answer of a question made of many
    (:meth:`Limit.afresh`), started, when a :func:`shared_clock` is in force, on the
    question's deadline: that clock's seconds from now."""
    shared = _SHARED_CLOCK.get()
    if shared is None:
        return Limit(seconds)
    return Limit(seconds, deadline=time.perf_counter() + shared)


MIN_SECONDS = 0.001
"""Wall-clock seconds below which a search is not started (CP-SAT needs a positive limit)."""


DEFAULT_TIME_LIMIT = 2.0
"""Wall-clock seconds an answer may take unless the caller says otherwise: the outer
safety cap of all its stages and solves."""

DEFAULT_DISRUPTION_WORK = 0.2
"""Deterministic seconds of CP-SAT work the Rummikub least-disruption stage (its
first search finding the score too) may do unless the caller says otherwise (see
benchmarks/RESULTS.md for what it proves, and how fast). Only the few positions
that use it all see it. 0.2 since step 2 builds its LP at once (0.82 times the CPU
of a lazily built LP, 1.43 times the work as CP-SAT counts it, see
:data:`~solver.rummikub.disruption.TILES_MOVED_SEARCH`): at 0.15 mid-t40-60#17
(tiles), which needs 0.158, was left unproven; the most any other committed
position needs is 0.140 (t60-r14#15). With the lazy LP 0.15 was enough, at most
0.143 (t40-r30#16); with 0.1 t40-r30#16 then stopped with a tile more moved than
the long-budget reference."""

DEFAULT_DISRUPTION_TIME_LIMIT = DEFAULT_TIME_LIMIT
"""Wall-clock seconds the Rummikub least-disruption stage may take (within the
overall limit): its safety cap, above what its default work took on any benchmark
position even on a loaded machine (at most 1943 ms in benchmarks/RESULTS.md, the
whole solve, with the runner getting a quarter of a core: close to the cap, so a
heavier load can cut a search there, which ``time_capped`` then says)."""


@dataclass(frozen=True, slots=True)
class Limit:
    """The budget a caller gives a solve, like python-chess's ``Limit``: checked once
    here, never changed (the searches' running account is :class:`Limits`).

    ``time``: wall-clock seconds, the outer safety cap; ``workers``: CP-SAT threads;
    ``disruption_work`` and ``disruption_time``: the Rummikub least-disruption stage's
    deterministic work (CP-SAT seconds) and wall-clock cap (seconds, within ``time``);
    ``deadline``: see :meth:`started`; ``budget``: a :class:`Budget` that every
    search under this limit (and under its copies) draws on, for a question made of
    many searches (a bot's move), or None.

    Raises :class:`~solver.errors.LimitError` naming a value out of its range.
    """

    time: float = DEFAULT_TIME_LIMIT
    workers: int = 1
    disruption_work: float = DEFAULT_DISRUPTION_WORK
    disruption_time: float = DEFAULT_DISRUPTION_TIME_LIMIT
    deadline: float | None = None
    """The :func:`time.perf_counter` value by which every solve under this limit ends,
    once :meth:`started`; None: each solve has ``time`` of its own."""
    accounts: list[Limits] | None = field(default=None, compare=False, repr=False)
    """The accounts handed out since :meth:`started` (None before: no shared clock),
    for :attr:`capped`."""
    budget: Budget | None = field(default=None, compare=False, kw_only=True)
    """The budget of the whole question, shared (not copied) by every copy of this
    limit and every account it hands out; None: no bound beyond each search's own."""

    def started(self) -> Limit:
        """This limit with its clock running: the solves made under the copy share
        ``time`` seconds from now (for an answer made of several solves). A limit
        already started is returned as it is."""
        if self.deadline is not None:
            return self
        return replace(self, deadline=time.perf_counter() + self.time)

    def afresh(self) -> Limit:
        """This limit for one answer of a question made of many (a game review's turns),
        its clock started now: ``time`` seconds of its own, never past this limit's
        deadline if it was :meth:`started` (the whole question's outer cap, see
        :func:`shared_limit`), with accounts of its own, so that its :attr:`capped`
        says whether the clock cut this answer."""
        end = time.perf_counter() + self.time
        deadline = end if self.deadline is None else min(end, self.deadline)
        return replace(self, deadline=deadline, accounts=None)

    @property
    def capped(self) -> bool:
        """Whether a wall-clock limit stopped a search under this limit, or kept one
        from starting, since :meth:`started` (:attr:`Limits.capped` of any account it
        handed out): an answer made of many solves (a Shanghai turn's) then may differ
        from one on an idle machine. Always False before :meth:`started`."""
        return self.accounts is not None and any(a.capped for a in self.accounts)

    def out_of_time(self) -> bool:
        """Whether no search may start now (:func:`run` would answer UNKNOWN at once):
        the :attr:`budget` is spent, or the shared clock (once :meth:`started`) has run
        out. A caller asks before building a model or searching without CP-SAT, which
        may cost more than the solve. The clock running out marks the limit
        :attr:`capped` (it kept a search from starting); a spent budget does not (the
        count is deterministic). Without a budget, always False before :meth:`started`."""
        if self.budget is not None and self.budget.refuse():
            return True
        return self.clock_ran_out()

    def clock_stops_searches(self) -> bool:
        """Whether a search started now would stop at once on the clock (:func:`run`
        answering UNKNOWN, :attr:`Limits.capped`): the clock has run out (marked, see
        :meth:`clock_ran_out`) and no spent :attr:`budget` stops it first (a budget is
        deterministic: the models of the searches it stops are still built and counted
        in a game's work, :class:`GameWork`). A caller asks before building a model that
        no search would use (one of a large Rummikub table takes 0.05-0.25 s), and
        answers as that search would have."""
        if self.budget is not None and self.budget.spent:
            return False
        return self.clock_ran_out()

    def clock_ran_out(self) -> bool:
        """Whether the shared clock (once :meth:`started`) has run out, marking the limit
        :attr:`capped` if so: what a search in Python (not CP-SAT's) checks between its
        steps, the wall clock being its outer cap as it is CP-SAT's. The :attr:`budget`
        is not asked: a search in Python is bounded by its own fixed count of steps."""
        if self.deadline is None or self.deadline - time.perf_counter() >= MIN_SECONDS:
            return False
        accounts = self.accounts
        if not accounts or not accounts[-1].capped:  # once: a search in Python asks often
            self.account(0.0).capped = True
        return True

    def account(self, work: float, seconds: float | None = None) -> Limits:
        """One search's (or stage's) account under this limit: ``work`` deterministic
        seconds, within ``seconds`` (default ``time``) wall-clock seconds from now and,
        once :meth:`started`, within what is left of the shared time (then possibly
        nothing: :func:`run` stops at once); its searches also draw on the
        :attr:`budget`."""
        end = time.perf_counter() + (self.time if seconds is None else seconds)
        deadline = end if self.deadline is None else min(end, self.deadline)
        limits = Limits(work, deadline, budget=self.budget)
        if self.accounts is not None:
            self.accounts.append(limits)
        return limits

    def __post_init__(self) -> None:
        if self.deadline is not None and self.accounts is None:
            object.__setattr__(self, "accounts", [])  # a clock running: watch its accounts
        _check_seconds("time", self.time, positive=True)
        workers = self.workers
        if (
            isinstance(workers, bool)
            or not isinstance(workers, int)
            or not 1 <= workers <= MAX_WORKERS
        ):
            # CP-SAT refuses thousands of workers as an invalid model, or overflows.
            raise LimitError(
                f"workers must be a whole number 1 to {MAX_WORKERS}, not {quoted(workers)!r:.60}"
            )
        _check_seconds("disruption_work", self.disruption_work, positive=False)
        _check_seconds("disruption_time", self.disruption_time, positive=False)
        if self.deadline is not None:
            _check_seconds("deadline", self.deadline, positive=False)


MAX_WORKERS = 64
"""The most CP-SAT threads a :class:`Limit` may ask for."""


def _check_seconds(name: str, value: float, *, positive: bool) -> None:
    """Raise :class:`LimitError` unless ``value`` is a finite number of seconds,
    above 0 if ``positive``, else at least 0."""
    try:
        finite = isinstance(value, int | float) and math.isfinite(value)
    except OverflowError:  # an int past the floats
        finite = False
    if not finite or isinstance(value, bool):
        raise LimitError(f"{name} must be a finite number of seconds, not {quoted(value)!r:.60}")
    if value < 0 or (positive and value == 0):
        bound = "above 0" if positive else "at least 0"
        raise LimitError(f"{name} must be {bound} seconds, not {value!r}")


@dataclass(slots=True)
class Budget:
    """What every CP-SAT search of one question (a bot's move: each of its solves, of
    each stage) may still use together: ``solves``, how many searches may start, and
    ``work``, CP-SAT's deterministic seconds they share (a count of what CP-SAT did,
    not of time, see :class:`Limits`).

    Both count what was done, so a question under a budget stops at the same point,
    and gets the same answer, on any machine and under any load: same position, same
    answer. A search's own ``work`` bound still holds; the budget bounds their sum and
    their number, however many a question asks.

    Given to a :class:`Limit` (its ``budget``), it is shared by every copy of the
    limit and every account (:class:`Limits`) it hands out: :func:`run` stops each
    search at the work the budget has left and charges it one search and the work
    done, and once the budget is :attr:`spent` starts none (UNKNOWN, not
    :attr:`~Limits.capped`: the count is deterministic); :meth:`Limit.out_of_time`
    is then True, so that no model is built for a search that would not run.

    Raises :class:`~solver.errors.LimitError` for a count that is not a whole number
    at least 0, or work that is not a finite number of seconds at least 0.
    """

    solves: int
    """The searches that may still start."""
    work: float
    """The deterministic seconds they may still share."""
    reached: bool = False
    """Whether the budget stopped a search at the work it had left, or kept one from
    starting (what an answer says it stopped at: deterministic, unlike
    :attr:`Limits.capped`)."""

    def __post_init__(self) -> None:
        solves = self.solves
        if isinstance(solves, bool) or not isinstance(solves, int) or solves < 0:
            raise LimitError(
                f"solves must be a whole number at least 0, not {quoted(solves)!r:.60}"
            )
        _check_seconds("work", self.work, positive=False)

    @property
    def spent(self) -> bool:
        """Whether no search may start: no search or no work left."""
        return self.solves <= 0 or self.work <= 0

    def refuse(self) -> bool:
        """Whether the budget is :attr:`spent`, noting that it kept a search from
        starting (:attr:`reached`) when it is."""
        if not self.spent:
            return False
        self.reached = True
        return True

    def charge(self, work: float) -> None:
        """Count one search that did ``work`` deterministic seconds."""
        self.solves -= 1
        self.work = max(0.0, self.work - work)


@dataclass
class Limits:
    """What the searches of a stage may still use: ``work`` in CP-SAT's deterministic
    seconds, and wall-clock time up to ``deadline`` (a :func:`time.perf_counter` value).

    Deterministic work is a count of what CP-SAT did (propagations, LP iterations,
    ...) in seconds of its own measure: with one worker the same model and work give
    the same search, so the same answer, on an idle and on a busy machine. Wall-clock
    time is only the outer safety cap; a search it stops is marked (:attr:`capped`),
    as its answer may then differ from one on an idle machine.

    ``budget``: the question's :class:`Budget`, which every search of this account
    also draws on (None: none).
    """

    work: float
    deadline: float
    capped: bool = False
    """Whether the wall-clock cap stopped a search or kept one from starting."""
    budget: Budget | None = None

    @classmethod
    def of(cls, work: float, seconds: float) -> Limits:
        """``work`` deterministic seconds within ``seconds`` of wall-clock time from now."""
        return cls(work, time.perf_counter() + seconds)

    def seconds_left(self) -> float:
        return self.deadline - time.perf_counter()

    @property
    def left(self) -> bool:
        """Whether another search may start: work left (here and in the
        :attr:`budget`) and the cap not reached."""
        if self.capped:
            return False
        if self.budget is not None and self.budget.refuse():
            return False  # deterministic: not capped
        if self.seconds_left() < MIN_SECONDS:
            self.capped = True  # a search that would have run on an idle machine does not
            return False
        return self.work > 0


@dataclass
class Solved:
    """One CP-SAT search of ``model``: its status code and a fast reader of values."""

    model: cp_model.CpModel
    engine: cp_model.CpSolver
    code: cp_model.CpSolverStatus
    _solution: list[int] | None = None

    @property
    def found(self) -> bool:
        """Whether the search found a solution (proven best or not)."""
        return self.code in (cp_model.OPTIMAL, cp_model.FEASIBLE)

    @property
    def optimal(self) -> bool:
        return self.code == cp_model.OPTIMAL

    @property
    def infeasible(self) -> bool:
        return self.code == cp_model.INFEASIBLE

    @property
    def status(self) -> Status:
        return Status.of(self.code)

    @property
    def bound(self) -> float:
        """The upper bound the search proved on the goal it maximised (set by
        :func:`maximize`: CP-SAT minimised -goal, so its bound is the negated one)."""
        return -self.engine.best_objective_bound

    def require(self, what: str) -> None:
        """Raise :class:`~solver.errors.ModelError` unless the search ended as a
        correct model of ``what`` can end: with a solution, or out of time."""
        if not self.found and self.code != cp_model.UNKNOWN:
            name = cp_model.CpSolver().status_name(self.code)
            raise ModelError(f"CP-SAT answered {name} on {what}")

    def value(self, expr: LinearExpr) -> int:
        """The solved value of ``expr``: variables are read from the solution vector
        at once (a layout reads hundreds of them; CP-SAT's ``value`` costs 4x more)."""
        if type(expr) is _IntVar:
            solution = self._solution
            if solution is None:
                solution = self._solution = list(self.engine.response_proto.solution)
            return solution[expr.index]
        if type(expr) is int:
            return expr
        return int(self.engine.value(expr))


_searching: list[cp_model.CpSolver] = []
"""The searches running (CP-SAT releases the GIL while it searches)."""


@contextmanager
def interruptible() -> Iterator[None]:
    """While inside, Ctrl-C (SIGINT) and SIGTERM stop the searches running and raise
    in the main thread (KeyboardInterrupt; SystemExit with code 143 for SIGTERM, which
    otherwise ends the process at once), so that cleanups run: a tournament stops its
    pool of processes, which SIGTERM left running. Python notes a signal at once but
    raises only when a search returns (at its time limit: a minute for
    ``--time-limit 60``); its wakeup file (:func:`signal.set_wakeup_fd`) wakes a
    thread that stops the searches. For a program's main thread (the command line);
    elsewhere it does nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    reader, writer = socket.socketpair()
    writer.setblocking(False)
    before = signal.set_wakeup_fd(writer.fileno(), warn_on_full_buffer=False)
    terminate = signal.getsignal(signal.SIGTERM)
    if terminate is signal.SIG_DFL:  # a SIGTERM ignored or handled already is left so
        signal.signal(signal.SIGTERM, _terminated)

    def watch() -> None:
        while caught := reader.recv(64):  # empty once the writer is closed
            if signal.SIGINT in caught or signal.SIGTERM in caught:
                for engine in list(_searching):
                    engine.stop_search()

    watcher = threading.Thread(target=watch, name="stop-signals", daemon=True)
    watcher.start()
    try:
        yield
    finally:
        if terminate is signal.SIG_DFL:
            signal.signal(signal.SIGTERM, terminate)
        signal.set_wakeup_fd(before)
        writer.close()
        watcher.join()
        reader.close()


def _terminated(signum: int, _frame: object) -> None:
    raise SystemExit(128 + signum)


def run(
    model: cp_model.CpModel,
    limits: Limits,
    workers: int = 1,
    tune: Callable[[Any], None] | None = None,
) -> Solved:
    """Search ``model`` within ``limits`` (and what their :class:`Budget` has left)
    on ``workers`` threads and charge them the work done, noting it (and the model's
    size) in the :class:`GameWork` counted around it, if any; ``tune`` sets a game's
    own parameters on ``engine.parameters``. With nothing left (see :attr:`Limits.left`)
    it searches nothing and answers UNKNOWN: a search started on a spent clock would
    finish or not by the machine's speed, and claim a proof on an idle machine only."""
    engine = cp_model.CpSolver()
    work = _GAME_WORK.get()
    if not limits.left:
        if work is not None:
            work.note_solve(0.0, _items(model))
        return Solved(model, engine, cp_model.UNKNOWN)
    budget = limits.budget
    params = engine.parameters
    params.max_deterministic_time = limits.work if budget is None else min(limits.work, budget.work)
    params.max_time_in_seconds = max(limits.seconds_left(), MIN_SECONDS)
    params.num_workers = workers
    # Ctrl-C is the program's: CP-SAT's own handler stopped the search and the answer
    # read as cut by the clock (a tournament ended in "stopped by the safety cap").
    # Python's handler raises KeyboardInterrupt once the search returns instead, at
    # once under interruptible.
    params.catch_sigint_signal = False
    if tune is not None:
        tune(params)
    _searching.append(engine)
    try:
        code = engine.solve(model)
    finally:
        _searching.remove(engine)
    used = engine.deterministic_time
    if work is not None:
        work.note_solve(used, _items(model))
    # A search asked to stop at its first solution stopped there, not at a limit.
    stopped = code == cp_model.UNKNOWN or (
        code == cp_model.FEASIBLE and not params.stop_after_first_solution
    )
    if stopped and used < params.max_deterministic_time:
        limits.capped = True  # stopped by the clock, not by the work limit
    elif stopped and budget is not None and budget.work < limits.work:
        budget.reached = True  # stopped at the work the budget had left
    limits.work = max(0.0, limits.work - used)
    if budget is not None:
        budget.charge(used)
    return Solved(model, engine, code)


def _items(model: cp_model.CpModel) -> int:
    """The variables and constraints of ``model``."""
    proto = model.proto
    return len(proto.variables) + len(proto.constraints)


def add_hints(model: cp_model.CpModel, hints: Iterable[tuple[cp_model.IntVar, int]]) -> None:
    """Hint each variable (made by ``new_*_var``, never negated) at its value: the
    same hint as ``add_hint`` for each, in two calls rather than four attribute
    lookups and two appends per variable: a tenth of the time for the hundreds of
    variables a least-disruption search starts from."""
    pairs = list(hints)
    hint = model.model_proto.solution_hint
    hint.vars.extend([var.index for var, _ in pairs])
    hint.values.extend([value for _, value in pairs])


def total(terms: Sequence[LinearExpr]) -> LinearExpr:
    """Sum of terms (0 for none, the term itself for one), built by CP-SAT in one call
    rather than term by term."""
    if len(terms) > 1:
        return _sum(terms)
    return terms[0] if terms else 0


def is_zero(expr: LinearExpr) -> bool:
    """Whether ``expr`` is the constant 0 (no variable at all)."""
    return isinstance(expr, int) and expr == 0


def lexicographic(levels: Sequence[tuple[LinearExpr, int]]) -> LinearExpr:
    """One expression whose order is the lexicographic order of ``levels``, first
    level first: each level is (expression, range), the expression's values spanning
    at most ``range``; its weight is the product of (range + 1) over the levels after
    it: sum_i w_i * e_i with w_last = 1, w_i = w_(i+1) * (range_(i+1) + 1)."""
    terms: list[LinearExpr] = []
    weights: list[int] = []
    weight = 1
    for expr, span in reversed(levels):
        terms.append(expr)
        weights.append(weight)
        weight *= span + 1
    return cp_model.LinearExpr.weighted_sum(terms, weights)


def maximize(model: cp_model.CpModel, goal: LinearExpr) -> None:
    """Maximise ``goal``, set as the minimisation of -goal: the same model for CP-SAT,
    but OR-Tools copies a minimisation's coefficients in one call and a maximisation's
    one by one (20 us of a 0.7 ms build for a 30-tile rack). Its variables too are
    copied one by one; here they go in one call as well (the same objective as
    ``model.minimize(-goal)``, in a third of the time for a goal of 300 variables)."""
    if isinstance(goal, int):
        model.minimize(-goal)
        return
    flat = cmh.FlatIntExpr(-goal)
    proto = model.model_proto
    proto.clear_objective()
    proto.clear_floating_point_objective()
    objective = proto.objective
    objective.vars.extend([var.index for var in flat.vars])
    objective.coeffs.extend(flat.coeffs)
    objective.offset = flat.offset
    objective.scaling_factor = 1.0

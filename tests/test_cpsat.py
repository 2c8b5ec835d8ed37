"""The request-side budget :class:`solver.cpsat.Limit`: its defaults and its checks; and
the kernel's faster ways of building a model, each giving the model OR-Tools' own
way gives."""

import inspect
import math
import random
import signal
import subprocess
import sys
import time
from dataclasses import replace
from typing import Any

import pytest
from ortools.sat.python import cp_model

from solver import cpsat
from solver.cpsat import (
    DEFAULT_DISRUPTION_TIME_LIMIT,
    DEFAULT_DISRUPTION_WORK,
    DEFAULT_TIME_LIMIT,
    Budget,
    CpModel,
    Limit,
    Limits,
    Status,
    add_hints,
    maximize,
    run,
    shared_clock,
    shared_limit,
)
from solver.errors import LimitError, MeldwiseError, quoted
from solver.rummikub import Position, solve
from solver.rummikub.repair import repair
from solver.shanghai.advice import advise


def test_defaults_are_the_solve_entries_defaults() -> None:
    """A call with no budget gets a Limit(): the library's documented defaults."""
    limit = Limit()
    assert limit.time == DEFAULT_TIME_LIMIT
    assert limit.workers == 1
    assert limit.disruption_time == DEFAULT_DISRUPTION_TIME_LIMIT
    assert limit.disruption_work == DEFAULT_DISRUPTION_WORK
    for entry in (solve, advise):
        assert inspect.signature(entry).parameters["limit"].default is None


def test_a_limit_cannot_change() -> None:
    limit = Limit()
    with pytest.raises(AttributeError):
        limit.time = 5.0  # type: ignore[misc]


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("time", 0.0),
        ("time", -1.0),
        ("time", math.inf),
        ("time", math.nan),
        ("workers", 0),
        ("workers", 1.5),
        ("workers", True),
        ("disruption_work", -0.1),
        ("disruption_time", -2.0),
        ("disruption_time", "2"),
        # CP-SAT answered thousands of workers with MODEL_INVALID (a ModelError: "never
        # bad input"), 2**31 with a TypeError; a deadline was never checked.
        ("workers", 10_001),
        ("workers", 2**31),
        ("deadline", "x"),
    ],
)
def test_a_value_out_of_range_is_named(field: str, value: object) -> None:
    with pytest.raises(LimitError, match=field) as raised:
        Limit(**{field: value})  # type: ignore[arg-type]
    assert repr(quoted(value)) in str(raised.value)  # as messages quote it: true, not True
    assert isinstance(raised.value, MeldwiseError)


def test_a_time_past_the_floats_is_named_not_an_overflow() -> None:
    with pytest.raises(LimitError, match="time must be a finite number of seconds"):
        Limit(time=10**400)


def test_a_started_limit_shares_its_time() -> None:
    """Unstarted, each search has the whole ``time``; started, the searches share it
    and once it has passed none is left; starting twice keeps the first clock."""
    limit = Limit(time=5.0)
    assert 4.9 < limit.account(0.5).seconds_left() <= 5.0
    assert limit.account(0.5).work == 0.5
    started = limit.started()
    assert started.started() is started
    assert started.account(0.5).deadline == started.deadline
    spent = replace(limit, deadline=time.perf_counter() - 1.0)
    assert spent.account(0.5).seconds_left() < 0
    assert not spent.account(0.5).left


def test_a_started_limit_says_whether_the_clock_cut_a_search() -> None:
    """A Shanghai turn's many solves share one started limit: it is capped once any
    account it handed out was (a search stopped or never started by the clock)."""
    started = Limit(time=5.0).started()
    started.account(0.5)
    assert not started.capped
    assert started == Limit(time=5.0, deadline=started.deadline)  # the watch is no value
    spent = replace(Limit(time=5.0), deadline=time.perf_counter() - 1.0)
    assert not spent.capped
    assert not spent.account(0.5).left  # the clock keeps the search from starting
    assert spent.capped
    assert not Limit().capped  # not started: no shared clock to speak of


def _seconds_left(limit: Limit) -> float:
    assert limit.deadline is not None
    return limit.deadline - time.perf_counter()


def test_each_answer_of_a_question_gets_its_own_time_within_the_shared_clock() -> None:
    """A review's turns: each its ``time`` afresh from when it starts, with accounts of
    its own (its ``capped`` is its own), never past the question's deadline; without
    one, afresh is the plain clock of ``started``."""
    assert 4.9 < _seconds_left(Limit(time=5.0).afresh()) <= 5.0
    outer = Limit(time=5.0, deadline=time.perf_counter() + 60.0)
    first = outer.afresh()
    assert 4.9 < _seconds_left(first) <= 5.0
    assert first.accounts == []
    assert first.accounts is not outer.accounts
    assert _seconds_left(replace(outer, deadline=time.perf_counter() + 0.5).afresh()) <= 0.5
    spent = replace(outer, deadline=time.perf_counter() - 1.0).afresh()
    assert spent.out_of_time()
    assert spent.capped
    assert not outer.afresh().capped  # one turn cut says nothing of the next


def test_the_shared_clock_starts_with_the_question() -> None:
    """shared_limit: each answer's ``time``, the whole question within the shared clock
    in force (the service's game budget for a review), from when it is made."""
    assert shared_limit(2.0) == Limit(2.0)
    with shared_clock(30.0):
        made = shared_limit(2.0)
    assert made.time == 2.0
    assert 29.9 < _seconds_left(made) <= 30.0
    with shared_clock(None):
        assert shared_limit(2.0) == Limit(2.0)


def test_a_spent_clock_is_known_before_a_model_is_built() -> None:
    """out_of_time lets a caller skip building a model that run would not search, and
    marks the limit capped as run would; a limit not started never runs out."""
    assert not Limit(time=0.001).out_of_time()
    started = Limit(time=5.0).started()
    assert not started.out_of_time()
    assert not started.capped
    spent = replace(Limit(time=5.0), deadline=time.perf_counter() - 1.0)
    assert spent.out_of_time()
    assert spent.capped


def test_zero_stage_budgets_are_allowed() -> None:
    """0 disruption time or work: the stage starts no search (the wire's 0 ms)."""
    assert Limit(disruption_work=0.0, disruption_time=0.0).disruption_time == 0.0


def test_rummikub_solve_takes_its_budget_as_a_limit_only() -> None:
    position = Position.parse("R1 R2 R3 J B7", "O3 O4 O5 | K5 B5 R5")
    given = solve(position, limit=Limit(time=5.0, disruption_time=4.0, disruption_work=0.2))
    assert given == solve(position)
    assert given.tiles_played >= 4
    loose = {"time_limit", "workers", "disruption_time_limit", "disruption_work"}
    assert not loose & set(inspect.signature(solve).parameters)
    with pytest.raises(TypeError, match="time_limit"):
        solve(position, time_limit=5.0)  # type: ignore[call-arg]


def test_a_rummikub_answer_shares_a_started_limit() -> None:
    """solve() and repair() start the caller's limit, or keep one already started:
    given one whose time is spent, no search runs and the answer says the clock cut it
    (before, each took a fresh deadline of its own)."""
    position = Position.parse("R1 R2 R3 J B7", "O3 O4 O5 | K5 B5 R5")
    spent = replace(Limit(), deadline=time.perf_counter() - 1.0)
    play = solve(position, limit=spent, free_jokers=True)
    assert play.status is Status.UNKNOWN
    assert play.time_capped
    fixed = repair([list(meld) for meld in position.table], limit=spent)
    assert fixed.status is Status.UNKNOWN
    assert fixed.time_capped
    assert solve(position, limit=Limit().started()) == solve(position)


def _variables(model: cp_model.CpModel) -> list[cp_model.IntVar]:
    return [
        model.new_int_var(0, 3, "a"),
        model.new_bool_var("b"),
        model.new_int_var(-2, 7, "c"),
        model.new_int_var(0, 3, "d"),
        model.new_bool_var("e"),
    ]


def test_variables_are_ortools_variables_unnamed_unless_asked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    plain = cp_model.CpModel()
    _variables(plain)
    ours = CpModel()
    _variables(ours)
    named = str(plain.proto)
    plain.remove_all_names()
    assert str(ours.proto) == str(plain.proto) != named
    monkeypatch.setattr(CpModel, "named", True)
    ours = CpModel()
    _variables(ours)
    assert str(ours.proto) == named


@pytest.mark.parametrize("direct", [True, False])
def test_add_gives_the_constraints_of_ortools_add(
    direct: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With OR-Tools' private linear step (present in the pinned version) and without
    it (a version that drops it), the same constraints."""
    assert cpsat._add_linear is not None  # noqa: SLF001
    if not direct:
        monkeypatch.setattr(cpsat, "_add_linear", None)

    def constrain(model: cp_model.CpModel) -> None:
        a, b, c, d, e = _variables(model)
        model.add(a <= b)
        model.add(cp_model.LinearExpr.weighted_sum([a, c, a + d], [2, -1, 3]) >= e - 4)
        model.add(c == 5)
        model.add(True)
        model.add(False)

    plain, ours = cp_model.CpModel(), CpModel()
    constrain(plain)
    constrain(ours)
    plain.remove_all_names()
    assert str(ours.proto) == str(plain.proto)
    with pytest.raises(TypeError, match="not supported"):
        ours.add("a <= b")


def test_add_hints_gives_the_hints_of_add_hint() -> None:
    one_by_one, at_once = CpModel(), CpModel()
    values = [2, 1, -2, 0, 1]
    for var, value in zip(_variables(one_by_one), values, strict=True):
        one_by_one.add_hint(var, value)
    add_hints(at_once, zip(_variables(at_once), values, strict=True))
    assert str(at_once.proto) == str(one_by_one.proto)
    assert list(at_once.proto.solution_hint.values) == values


@pytest.mark.parametrize("shape", ["weighted", "nested", "constant"])
def test_maximize_sets_the_objective_of_minimising_the_negation(shape: str) -> None:
    def goal(model: CpModel) -> cp_model.LinearExpr | int:
        a, b, c, d, e = _variables(model)
        if shape == "constant":
            return 7
        weighted = cp_model.LinearExpr.weighted_sum([a, b, c, d], [3, -1, 2, 5]) + 4
        if shape == "weighted":
            return weighted
        return cp_model.LinearExpr.weighted_sum([weighted, a + e, 1], [10, -1, 2])

    reference, ours = CpModel(), CpModel()
    reference.minimize(-goal(reference))
    target = goal(ours)
    maximize(ours, cp_model.LinearExpr.sum(_variables(ours)))  # the next goal replaces it
    maximize(ours, target)
    # The second _variables call made five more variables: add them to the reference.
    _variables(reference)
    assert str(ours.proto) == str(reference.proto)


def _first_solution(params: Any) -> None:
    # Each variable at its lowest first, nothing solved before the search: the first
    # solution is all zeros, far from the best.
    params.stop_after_first_solution = True
    params.search_branching = cp_model.FIXED_SEARCH
    params.cp_model_presolve = False
    params.linearization_level = 0


def test_a_search_stopped_at_its_first_solution_is_not_called_capped() -> None:
    # Many plays, the best one far from the first: the search stops at a solution
    # short of the best (FEASIBLE) because it was asked to, not because of the clock.
    model = CpModel()
    xs = [model.new_int_var(0, 9, "") for _ in range(30)]
    model.add(sum(xs) <= 100)
    model.add_decision_strategy(xs, cp_model.CHOOSE_FIRST, cp_model.SELECT_MIN_VALUE)
    maximize(model, cp_model.LinearExpr.weighted_sum(xs, list(range(1, 31))))
    limits = Limits.of(10.0, 60.0)
    first = run(model, limits, tune=_first_solution)
    assert first.code == cp_model.FEASIBLE
    assert not limits.capped
    assert limits.left


def test_a_run_on_a_spent_clock_searches_nothing_and_says_so() -> None:
    # A model CP-SAT settles in well under a millisecond: started on a spent clock it
    # would still finish, and claim a proof, on a fast or idle machine only.
    model = CpModel()
    x = model.new_bool_var("")
    maximize(model, x)
    # With time left it is solved (CP-SAT warmed up, so the search below would be fast).
    assert run(model, Limits.of(10.0, 60.0)).optimal
    limits = Limits(work=10.0, deadline=time.perf_counter() - 1.0)
    solved = run(model, limits)
    assert solved.code == cp_model.UNKNOWN
    assert limits.capped
    assert limits.work == 10.0  # nothing charged: nothing searched


def _knapsack(items: int = 200) -> CpModel:
    """A 0-1 knapsack under 10 limits: a search CP-SAT does not finish early."""
    rng = random.Random(1)
    model = CpModel()
    xs = [model.new_bool_var("") for _ in range(items)]
    for _ in range(10):
        model.add(sum(rng.randint(1, 1000) * x for x in xs) <= 25 * 1000)
    maximize(model, sum(rng.randint(1, 1000) * x for x in xs))
    return model


def test_a_budget_bounds_the_searches_of_a_whole_question() -> None:
    """The searches of one question (a bot's move) share one Budget in the kernel,
    whatever account each runs under: a search stops at the work the budget has left,
    and once it is spent none starts (UNKNOWN), the limit reads as out of time, and
    nothing says the clock cut it (the count is deterministic)."""
    budget = Budget(solves=3, work=0.05)
    limit = Limit(time=60.0, budget=budget)
    assert not limit.out_of_time()
    first = run(_knapsack(), limit.account(1.0))
    assert first.found
    assert not first.optimal
    assert budget.solves == 2
    assert budget.work == 0.0
    assert budget.spent
    assert limit.out_of_time()
    assert not limit.capped
    later = limit.account(1.0)
    assert not later.left
    assert run(_knapsack(), later).code == cp_model.UNKNOWN
    assert budget.solves == 2  # nothing searched, nothing counted
    assert not later.capped


def test_a_budget_counts_the_searches_and_is_shared_by_every_copy() -> None:
    model = CpModel()
    maximize(model, model.new_bool_var(""))
    budget = Budget(2, 10.0)
    limit = Limit(time=60.0, budget=budget)
    for copy in (limit.started(), replace(limit, time=30.0)):
        assert copy.budget is budget
        assert copy == Limit(time=copy.time, deadline=copy.deadline)  # not a value
        assert run(model, copy.account(1.0)).optimal
    assert budget.solves == 0
    assert 0 < budget.work < 10.0
    assert run(model, limit.account(1.0)).code == cp_model.UNKNOWN
    assert limit.out_of_time()


def test_a_search_the_clock_keeps_from_starting_is_not_charged_to_the_budget() -> None:
    """Shanghai's budget was charged after the solve, reading the work of a search
    that never ran: under a started limit whose clock had run out that raised
    RuntimeError ("solve() has not been called"). The kernel charges searches run."""
    model = CpModel()
    maximize(model, model.new_bool_var(""))
    budget = Budget(5, 1.0)
    spent = replace(Limit(time=10.0, budget=budget), deadline=time.perf_counter() - 1.0)
    assert run(model, spent.account(1.0)).code == cp_model.UNKNOWN
    assert budget == Budget(5, 1.0)
    assert spent.capped


@pytest.mark.parametrize(
    ("solves", "work", "named"),
    [(-1, 1.0, "solves"), (1.5, 1.0, "solves"), (True, 1.0, "solves"), (1, math.nan, "work")],
)
def test_a_budget_out_of_range_is_named(solves: Any, work: Any, named: str) -> None:
    with pytest.raises(LimitError, match=named):
        Budget(solves, work)


# A search CP-SAT cannot finish early: a 0-1 knapsack of 400 items under 30 limits,
# searched for {seconds} s, {how}.
CTRL_C_DURING_A_SEARCH = """
import random
import signal
import contextlib

from ortools.sat.python import cp_model

from solver.cpsat import Limits, interruptible, run

signal.signal(signal.SIGINT, signal.default_int_handler)  # even if started ignoring it
random.seed(1)
model = cp_model.CpModel()
items = [model.new_bool_var("") for _ in range(400)]
for _ in range(30):
    model.add(sum(random.randint(1, 1000) * item for item in items) <= 50000)
model.maximize(sum(random.randint(1, 1000) * item for item in items))
print("searching", flush=True)
try:
    with {how}:
        run(model, Limits.of(1e9, {seconds}))
except KeyboardInterrupt:
    print("interrupted", flush=True)
else:
    print("answered", flush=True)
"""


def _ctrl_c_during_a_search(seconds: float, how: str) -> tuple[str, float]:
    """What a search of ``seconds`` says when a Ctrl-C comes 0.5 s into it, and how
    long after the signal its process ends."""
    script = CTRL_C_DURING_A_SEARCH.format(seconds=seconds, how=how)
    child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "searching"
        time.sleep(0.5)
        child.send_signal(signal.SIGINT)
        sent = time.perf_counter()
        out, _ = child.communicate(timeout=120)
        return out.strip(), time.perf_counter() - sent
    finally:
        child.kill()


def test_a_search_leaves_ctrl_c_to_the_program() -> None:
    # CP-SAT put its own SIGINT handler in place for each search: a Ctrl-C stopped the
    # search, which read as cut by the clock (a tournament ended in "stopped by the
    # 60.0 s safety cap" with a traceback). Python's handler is left in place: it raises
    # KeyboardInterrupt once the search returns. (Python's own record of the handler,
    # signal.getsignal, never saw CP-SAT's: a Ctrl-C must be sent to tell.)
    said, _ = _ctrl_c_during_a_search(3.0, "contextlib.nullcontext()")
    assert said == "interrupted"


def test_ctrl_c_stops_a_long_search_at_once_on_the_command_line() -> None:
    # With CP-SAT's handler off, Python's ran only once the search returned: Ctrl-C
    # waited for the search's time limit (a minute for --time-limit 60).
    said, after = _ctrl_c_during_a_search(60.0, "interruptible()")
    assert said == "interrupted"
    assert after < 20  # not the search's 60 s

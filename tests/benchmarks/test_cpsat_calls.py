"""The CP-SAT call replay's clause variant keeps every model's solutions."""

from __future__ import annotations

import itertools

from ortools.sat.python import cp_model

from benchmarks.cpsat_calls import as_clauses, step


def _feasible(model: cp_model.CpModel, values: tuple[int, ...]) -> bool:
    fixed = cp_model.CpModel()
    fixed.model_proto.copy_from(model.model_proto)
    for index, value in enumerate(values):
        fixed.add(fixed.get_int_var_from_proto_index(index) == value)
    engine = cp_model.CpSolver()
    engine.parameters.num_workers = 1
    return engine.solve(fixed) in (cp_model.OPTIMAL, cp_model.FEASIBLE)


def test_two_variable_rows_over_booleans_become_clauses_with_the_same_solutions() -> None:
    model = cp_model.CpModel()
    x, y, z = (model.new_bool_var(name) for name in "xyz")
    count = model.new_int_var(0, 2, "count")
    model.add(x <= y)  # a clause: not x or y
    model.add(y + z <= 1)  # a clause: not y or not z
    model.add(x + y + z >= 1)  # three variables: stays a row
    model.add(count <= 2 * z)  # not 0/1: stays a row
    model.add_bool_or([x, z])
    changed = as_clauses(model)
    kinds = [str(ct).split()[0] for ct in changed.model_proto.constraints]
    assert kinds.count("bool_or") == 3
    assert kinds.count("linear") == 2
    for values in itertools.product((0, 1), (0, 1), (0, 1), range(3)):
        assert _feasible(changed, values) == _feasible(model, values), values


def test_each_search_of_the_solve_is_told_by_its_parameters() -> None:
    assert step("stop_after_first_solution: true\nsearch_branching: PSEUDO_COST_SEARCH") == "step3"
    assert step("cp_model_probing_level: 2\nsearch_branching: PSEUDO_COST_SEARCH") == "step2"
    assert step("search_branching: PSEUDO_COST_SEARCH") == "step1"
    assert step("search_branching: LP_SEARCH") == "score"

"""Every answer is legal and adds up: on random standard-game positions, and on
positions of any variant the settings allow, through the dict API. Whatever a
request holds, the library answers or raises a MeldwiseError, nothing else."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hypothesis import event, given, note, settings
from hypothesis import strategies as st
from pydantic import TypeAdapter

from solver import MeldwiseError, solve_rummikub, validate_rummikub
from solver.rummikub import STANDARD, Limit, Objective, Position, Rules, Status, parse_tiles, solve
from solver.rummikub.wire import SolveResponse
from tests.rummikub.helpers import assert_legal_answer
from tests.rummikub.strategies import (
    any_rules,
    claimed_moves,
    corrupted,
    examples,
    positions,
    request_of,
)
from tests.support import assert_declared

ANSWER: TypeAdapter[Any] = TypeAdapter(SolveResponse)


@settings(max_examples=120)
@given(data=st.data(), objective=st.sampled_from(list(Objective)))
def test_answers_are_legal(data: st.DataObject, objective: Objective) -> None:
    position = data.draw(positions(STANDARD, max_sets=25, max_rack=30))
    play = solve(position, STANDARD, objective, limit=Limit(30))
    assert play.status is Status.OPTIMAL
    assert_legal_answer(position, STANDARD, play)
    if not position.opened and play.played:
        new_sets = play.table[len(position.table) :]
        assert sum(m.value for m in new_sets) >= STANDARD.opening_threshold


@pytest.mark.variants
@settings(max_examples=examples(60))
@given(
    data=st.data(),
    rules=any_rules(),
    objective=st.sampled_from(["tiles", "points"]),
    level=st.sampled_from(["nudge", "tile", "full"]),
)
def test_answers_on_any_variant_keep_every_tile(
    data: st.DataObject, rules: Rules, objective: str, level: str
) -> None:
    """Table after = table before + played, as multisets, and the validator agrees
    that the move is legal (checked against exhaustive rules on small variants). The
    score is proven, but under a binding joker limit (see any_rules)."""
    position = data.draw(positions(rules, max_sets=4, max_rack=8))
    request = request_of(
        position, rules, objective=objective, hint_level=level, time_limit_ms=30_000
    )
    note(request)
    answer = solve_rummikub(request)
    if rules.limits_jokers(rules.jokers):
        event(f"joker limit binds, score {answer['status']}")
    else:
        assert answer["status"] == "optimal"
    # Written field for field as the response model declares it.
    assert_declared(ANSWER, answer)
    if level != "full":
        return
    assert_answer_adds_up(request, answer)


def assert_answer_adds_up(request: dict[str, Any], answer: dict[str, Any]) -> None:
    """The answer's table holds the request's table and the tiles played, no more and
    no fewer; the played tiles and the rest make up the rack; the move is legal."""
    after = [meld["tiles"] for meld in answer["table"]]
    before = Counter(t for tiles in request["table"] for t in tiles)
    assert Counter(t for tiles in after for t in tiles) == before + Counter(answer["played"])
    assert Counter(answer["played"]) + Counter(answer["rack_left"]) == Counter(request["rack"])
    verdict = validate_rummikub(
        {
            "rack": request["rack"],
            "table_before": request["table"],
            "table_after": after,
            "opened": request["opened"],
            "rules": request["rules"],
        }
    )
    assert verdict["legal"]
    assert not verdict["problems"]
    assert Counter(verdict["played"]) == Counter(answer["played"])


@pytest.mark.variants
@settings(max_examples=examples(150))
@given(data=st.data(), rules=any_rules(), validate=st.booleans())
def test_the_dict_api_raises_nothing_but_meldwise_errors(
    data: st.DataObject, rules: Rules, validate: bool
) -> None:
    position: Position = data.draw(positions(rules, max_sets=3, max_rack=6))
    request = request_of(position, rules)
    if validate:
        after = data.draw(claimed_moves(position, rules, layouts=False))
        request["table_before"] = request.pop("table")
        request["table_after"] = [[str(t) for t in tiles] for tiles in after]
    request = data.draw(corrupted(request))
    note(request)
    try:
        answer = validate_rummikub(request) if validate else solve_rummikub(request)
    except MeldwiseError as error:
        event(type(error).__name__)  # a bad request, named in the message
        return
    event("answered")
    assert isinstance(answer, dict)


def test_a_request_of_a_position_keeps_its_jokers_brackets() -> None:
    """``request_of`` wrote each tile with ``str``, which drops a joker's bracket:
    R5 R6 J(R4) went over the wire as R5 R6 J, the joker R7. Under "replace" R4 then
    cannot take its place, and the wire solved another position than the library."""
    rules = Rules(joker_retrieval="replace")
    table = (tuple(parse_tiles("R5 R6 J(R4)")),)
    position = Position(tuple(parse_tiles("R4 K9 O9")), table, True)
    request = request_of(position, rules)
    assert request["table"] == [["R5", "R6", "J(R4)"]]
    assert solve_rummikub(request)["tiles_played"] == solve(position, rules).tiles_played == 3

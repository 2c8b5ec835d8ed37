"""End-of-round scoring: penalties, the winner's score, and the edge cases the
module documents (no empty rack, several empty racks)."""

from __future__ import annotations

from typing import Any

import pytest

from solver import MeldwiseError, score_rummikub
from solver.errors import CountError, NotationError, RequestError, RulesError
from solver.rummikub import Rules, parse_tiles, score_round
from solver.rummikub.scoring import penalty


def test_penalty_is_face_values_and_the_joker_penalty() -> None:
    assert penalty(parse_tiles("R5 K13 O1"), Rules()) == 5 + 13 + 1
    assert penalty(parse_tiles("R5 J"), Rules()) == 5 + 30
    assert penalty(parse_tiles("J J"), Rules(joker_penalty=50)) == 100
    assert penalty([], Rules()) == 0


def test_the_winner_scores_the_others_penalties() -> None:
    response = score_rummikub({"racks": {"ann": [], "bob": ["R5", "J"], "cy": ["K13", "O2"]}})
    assert response["winners"] == ["ann"]
    assert response["players"] == [
        {"name": "ann", "penalty": 0, "score": 35 + 15, "winner": True},
        {"name": "bob", "penalty": 35, "score": -35, "winner": False},
        {"name": "cy", "penalty": 15, "score": -15, "winner": False},
    ]
    assert sum(p["score"] for p in response["players"]) == 0


def test_players_keep_the_order_given() -> None:
    response = score_rummikub({"racks": {"zed": ["R1"], "amy": [], "max": ["B2"]}})
    assert [p["name"] for p in response["players"]] == ["zed", "amy", "max"]


def test_no_empty_rack_means_no_winner() -> None:
    scores = score_round({"ann": parse_tiles("R5"), "bob": parse_tiles("J")}, Rules())
    assert [s.winner for s in scores] == [False, False]
    assert [s.score for s in scores] == [-5, -30]


def test_several_empty_racks_are_refused_naming_their_players() -> None:
    # A round ends as soon as one player goes out: two empty racks were each scored
    # as the winner's (19 each here), a round no game reaches.
    with pytest.raises(MeldwiseError) as raised:
        score_round({"a": [], "b": parse_tiles("R9 R10"), "c": []}, Rules())
    assert str(raised.value) == (
        "only one player goes out, but 2 players have nothing left: 'a', 'c'"
    )
    with pytest.raises(MeldwiseError, match=r"7 players .*'p4' and 2 more players$"):
        score_round({f"p{n}": [] for n in range(7)}, Rules())


def test_rules_change_the_joker_penalty_and_what_exists() -> None:
    response = score_rummikub(
        {"racks": {"a": [], "b": ["J", "G3"]}, "rules": {"joker_penalty": 25, "colours": 5}}
    )
    assert response["players"][1]["penalty"] == 28
    assert response["players"][0]["score"] == 28


@pytest.mark.parametrize(
    ("request_", "error", "culprit"),
    [
        ({"racks": {"a": ["Q5"]}}, NotationError, "'Q5'"),
        ({"racks": {"a": ["G5"]}}, NotationError, "'G5'"),
        ({"racks": {"a": ["R5", "R5"], "b": ["R5"]}}, CountError, "R5: 3"),
        ({"racks": {"a": ["J"], "b": ["J", "J"]}}, CountError, "jokers"),
        ({"racks": {"a": []}, "rules": {"jokers": 9}}, RulesError, "jokers"),
        ({"racks": {}}, RequestError, "racks"),
        ({}, RequestError, "racks"),
        ({"racks": {"a": "R5"}}, RequestError, "racks.a"),
        ({"racks": {"": []}}, RequestError, "player name"),
        ({"racks": {"a": []}, "round": 2}, RequestError, "'round'"),
    ],
)
def test_bad_requests_name_the_culprit(
    request_: dict[str, Any], error: type[MeldwiseError], culprit: str
) -> None:
    with pytest.raises(error, match=culprit.replace("(", r"\(")):
        score_rummikub(request_)

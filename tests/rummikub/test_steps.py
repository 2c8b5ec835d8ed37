"""Replaying the steps on the old table gives exactly the new table."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver import solve_rummikub
from solver.rummikub import STANDARD, Rules
from solver.rummikub.deal import random_position
from tests.rummikub.replay import replay, table_of
from tests.rummikub.strategies import examples, positions, request_of, small_rules


def check_replay(request: dict[str, Any]) -> dict[str, Any]:
    response = solve_rummikub(request)
    sets, used = replay(request.get("table", []), request["rack"], response["steps"])
    assert sets == table_of(response["table"])
    assert used == Counter(response["played"])
    return response


@settings(max_examples=80)
@given(data=st.data())
def test_steps_replay_to_the_new_table(data: st.DataObject) -> None:
    position = data.draw(positions(STANDARD, max_sets=12, max_rack=16, opened=True))
    check_replay(request_of(position, STANDARD, time_limit_ms=20_000))


@pytest.mark.variants
@settings(max_examples=examples(150))
@given(data=st.data(), rules=small_rules(), objective=st.sampled_from(["tiles", "points"]))
def test_steps_replay_on_every_variant(data: st.DataObject, rules: Rules, objective: str) -> None:
    # Table sets are drawn in reading order and out of it (jokers anywhere).
    position = data.draw(positions(rules, opened=True))
    check_replay(request_of(position, rules, objective=objective, time_limit_ms=20_000))


@pytest.mark.parametrize(
    ("rack", "table"),
    [
        # R12 J J reads J(R11) R12 J(R13), R8 R3 .. R7 reads R3 .. R8: the steps act
        # on each set as the request wrote it.
        (["R2", "R13", "B10", "B11", "K3", "K10", "O1", "O4", "O5", "O6"], [["R12", "J", "J"]]),
        (["R9", "R5"], [["R8", "R3", "R4", "R5", "R6", "R7"]]),
    ],
)
def test_steps_replay_on_sets_written_out_of_order(rack: list[str], table: list[list[str]]) -> None:
    response = check_replay({"rack": rack, "table": table})
    assert response["tiles_played"] > 0


def test_split_before_a_tile() -> None:
    # R5 fits only by splitting the run: R3 R4 R5 | R5 R6 R7 R8.
    response = check_replay({"rack": ["R5"], "table": [["R3", "R4", "R5", "R6", "R7", "R8"]]})
    assert [s["action"] for s in response["steps"]] == ["split", "add"]
    assert response["steps"][0]["set"] == 0


def test_take_then_new_set_reads_like_a_person_would_say_it() -> None:
    response = check_replay(
        {"rack": ["K8", "K9", "O1"], "table": [["B7", "K7", "O7", "R7"], ["R1", "R2", "R3"]]}
    )
    take, new = response["steps"]
    assert take == {
        "action": "take",
        "tiles": ["K7"],
        "from_set": 0,
        "text": "Take K7 from set 0, the group of 7s.",
    }
    assert new["action"] == "new_set"
    assert new["tiles"] == ["K7", "K8", "K9"]
    assert new["from_rack"] == ["K8", "K9"]
    assert "K7 you took" in new["text"]
    assert response["sets_kept"] == 1
    assert response["tiles_moved"] == 1


def test_a_joker_swap_is_take_and_add() -> None:
    response = check_replay({"rack": ["R4"], "table": [["R1", "R2", "R3", "J", "R5", "R6"]]})
    assert [s["action"] for s in response["steps"]] == ["take", "add"]
    assert response["steps"][0]["tiles"] == ["J"]


def _run_meanings(tiles: list[str]) -> list[str] | None:
    """What each tile of ``tiles`` stands for when they are a run in reading order with
    two numbered tiles or more (a joker stands for the number of its place); None when
    they are not (a group, or too few numbered tiles to tell)."""
    naturals = [(place, tile) for place, tile in enumerate(tiles) if tile != "J"]
    colours = {tile[0] for _, tile in naturals}
    if len(naturals) < 2 or len(colours) != 1:
        return None
    place, tile = naturals[0]
    first = int(tile[1:]) - place
    return [f"{tile[0]}{first + k}" for k in range(len(tiles))]


def _check_rack_places(table: list[list[str]], rack: list[str], rules: Rules = STANDARD) -> int:
    """Solve ``table`` (its sets in reading order, as the request reads them) and
    ``rack``; check each set's from_rack_places against the tiles' origins counted apart
    from them, and return how many sets hold a joker from the rack beside one from the
    table."""
    response = check_replay(
        {"rack": rack, "table": table, "rules": rules.to_dict(), "time_limit_ms": 20_000}
    )
    marked: Counter[str] = Counter()
    unmarked: Counter[str] = Counter()
    both = 0
    for meld in response["table"]:
        places = meld["from_rack_places"]
        assert places == sorted(set(places)), meld
        assert all(0 <= p < len(meld["tiles"]) for p in places), meld
        assert Counter(meld["tiles"][p] for p in places) == Counter(meld["from_rack"]), meld
        marked.update(meld["tiles"][p] for p in places)
        unmarked.update(t for p, t in enumerate(meld["tiles"]) if p not in places)
        rack_jokers = sum(meld["tiles"][p] == "J" for p in places)
        both += rack_jokers > 0 and meld["tiles"].count("J") > rack_jokers
    # By origin: the rack's tiles are those played, the others the table's.
    assert marked == Counter(response["played"])
    assert unmarked == Counter(t for s in table for t in s)
    # A run of the table that no step takes a tile from or splits lies as it lay, its
    # jokers where they stood: none of them is marked as the rack's.
    touched = {s["from_set"] for s in response["steps"] if s["action"] == "take"} | {
        s["set"] for s in response["steps"] if s["action"] == "split"
    }
    after = {meld["set"]: meld for meld in response["table"]}
    for index, tiles in enumerate(table):
        meant = _run_meanings(tiles)
        if meant is None or index in touched:
            continue
        meld = after[index]
        lying = Counter(
            (t, m)
            for p, (t, m) in enumerate(zip(meld["tiles"], meld["as"], strict=True))
            if p not in meld["from_rack_places"]
        )
        assert not Counter(zip(tiles, meant, strict=True)) - lying, (tiles, meld)
    return both


@pytest.mark.parametrize(
    ("table", "rack"),
    [
        # The table's J(R4) stays; the rack's J stands for R6 beside it.
        ([["R3", "J", "R5"]], ["J", "R7"]),
        ([["B5", "B6", "J"], ["K1", "K2", "K3"]], ["J", "B9", "B10"]),
        ([["O10", "J", "O12"]], ["J", "O8"]),
    ],
)
def test_rack_places_tell_a_rack_joker_from_a_table_one(
    table: list[list[str]], rack: list[str]
) -> None:
    assert _check_rack_places(table, rack) == 1


def test_rack_places_match_the_origins_of_random_plays_with_jokers_on_both_sides() -> None:
    rules = Rules(jokers=4)  # two on the table, two on the rack
    both = 0
    for seed in range(40):
        position = random_position(random.Random(seed), rules, 12, 6, table_jokers=2, rack_jokers=2)
        both += _check_rack_places(
            [[str(t) for t in s] for s in position.table], [str(t) for t in position.rack], rules
        )
    assert both >= 10  # enough sets with a joker from each side


@pytest.mark.parametrize("stood", ["K5", "O5"])
def test_rack_places_keep_a_group_joker_of_the_table_where_it_stood(stood: str) -> None:
    # A group has no places to tell its jokers by: the table's joker is the one still
    # standing for the colour it stood for, the rack's stands for the colour left.
    response = solve_rummikub({"rack": ["J"], "table": [["R5", "B5", f"J({stood})"]]})
    (group,) = response["table"]
    assert sorted(group["as"]) == ["B5", "K5", "O5", "R5"]
    tiles = zip(group["tiles"], group["as"], strict=True)
    jokers = {meant: place for place, (tile, meant) in enumerate(tiles) if tile == "J"}
    assert group["from_rack_places"] == [jokers[({"K5", "O5"} - {stood}).pop()]]

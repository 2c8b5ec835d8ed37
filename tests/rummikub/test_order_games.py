"""What the hints, the game engine and a game's review say depends on what is on the
table and the rack, not on how they are listed: the order of the table's sets, of the
rack's tiles, and of the tiles of a set where the rules give that order no meaning
(test_order.py's listings, for the answers a game and a hint give)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import event, given, note, settings
from hypothesis import strategies as st

from solver import solve_rummikub
from solver.errors import MeldwiseError
from solver.rummikub import Objective, Rules, Tile
from solver.rummikub.deal import full_set
from solver.rummikub.engine import Game, GameSettings, Move
from solver.rummikub.record import read_record, record_to_dict, replay
from solver.rummikub.review import review_game, review_to_dict
from tests.rummikub.games_support import play
from tests.rummikub.strategies import examples, positions, request_of, small_rules
from tests.rummikub.test_order import Sets, _listed, _unplaced, moves, shuffled

LIMITS = {"time_limit_ms": 30_000, "disruption_time_limit_ms": 20_000}


def _problems(problems: Sequence[str]) -> Counter[str]:
    """Problems without the places the sets are listed at ("set 2 after: ...")."""
    return Counter(_unplaced(re.sub(r"^set \d+( after)?: ", "", p)) for p in problems)


# --- hints --------------------------------------------------------------------------------


def _hint(request: dict[str, Any]) -> dict[str, Any] | type[MeldwiseError]:
    try:
        return solve_rummikub(request)
    except MeldwiseError as error:  # the opponents hold more tiles than are left
        return type(error)


@pytest.mark.variants
@settings(max_examples=examples(40))
@given(
    data=st.data(),
    rules=small_rules(),
    objective=st.sampled_from(list(Objective)),
    level=st.sampled_from(["nudge", "tile"]),
)
def test_a_hint_does_not_depend_on_the_order_things_are_listed_in(
    data: st.DataObject, rules: Rules, objective: Objective, level: str
) -> None:
    """A nudge or a tile hint, and the strong bot's advice and the free jokers beside
    it, for a position listed another way: as many tiles, a tile hint or none alike, its
    tile from the rack and its set one of the table's; the bot holds back or draws
    alike; as many table jokers free."""
    position = data.draw(positions(rules))
    listed = _listed(data, position, rules)
    extra: dict[str, Any] = {"objective": objective.value, "hint_level": level, **LIMITS}
    if data.draw(st.booleans()):
        sizes = data.draw(st.lists(st.integers(1, 3), min_size=1, max_size=2))
        extra["opponents"] = [{"rack_size": n, "opened": n != 2} for n in sizes]
    extra["free_jokers"] = data.draw(st.booleans())
    first = _hint(request_of(position, rules, **extra))
    again = _hint(request_of(listed, rules, **extra))
    note(f"listed: {listed}\nfirst: {first}\nagain: {again}")
    if not isinstance(first, dict) or not isinstance(again, dict):
        assert first == again
        return
    assert first["status"] == again["status"] == "optimal"
    for key in ("can_play", "tiles_played", "free_jokers"):
        assert again.get(key) == first.get(key), key
    if level == "tile":
        assert (again["tile"] is None) == (first["tile"] is None)
        for answer, start in ((first, position), (again, listed)):
            if answer["tile"] is not None:
                assert Tile.parse(answer["tile"]) in start.rack
                assert answer["to_set"] is None or 0 <= answer["to_set"] < len(start.table)
    if "opponents" in extra:
        for key in ("holds_back", "draws"):
            assert again["advice"][key] == first["advice"][key], key


# --- the engine ---------------------------------------------------------------------------


def _facing(position_rack: Sequence[Tile], table: Sets, opened: bool, rules: Rules) -> Game:
    """A game of two whose player to move (seat 0) holds ``position_rack`` and faces
    ``table`` (the pool and the other rack as dealt: a play judges only these)."""
    players = 2
    hand = max(1, min(3, sum(full_set(rules).values()) // players))
    game = Game.new(GameSettings(rules=rules, players=players, hand=hand), 0)
    game.racks[0] = sorted(position_rack)
    game.table = tuple(tuple(tiles) for tiles in table)
    game.opened[0] = opened
    return game


@pytest.mark.variants
@settings(max_examples=examples(80))
@given(data=st.data(), rules=small_rules())
def test_the_engine_judges_a_move_listed_any_way_alike(data: st.DataObject, rules: Rules) -> None:
    """A move, the table it is made on and the rack, listed another way: the engine
    finds the same problems (set numbers aside); a legal move leaves the same rack,
    opens the player, places the same tiles and ends the round alike."""
    position, after = data.draw(moves(rules))
    first = _facing(position.rack, [list(s) for s in position.table], position.opened, rules)
    again = _facing(
        data.draw(st.permutations(position.rack)),
        data.draw(shuffled(position.table, rules)),
        position.opened,
        rules,
    )
    after2 = data.draw(shuffled(after, rules))
    note(f"table: {again.table}, after: {after2}")
    found = first.problems(Move.play(after))
    said = again.problems(Move.play(after2))
    note(f"problems: {found}\nagain: {said}")
    event(f"legal: {not found}")
    assert _problems(said) == _problems(found)
    if found:
        return
    turns = first.apply(Move.play(after)), again.apply(Move.play(after2))
    assert turns[0].played == turns[1].played
    assert first.racks == again.racks
    assert first.opened == again.opened == [True, False]
    assert (first.outcome is None) == (again.outcome is None)


# --- a game's record: replay and review ------------------------------------------------------


def _relisted(data: st.DataObject, record: dict[str, Any], rules: Rules) -> dict[str, Any]:
    """``record`` with each turn's rack, table before and table after listed another way:
    each set's tiles too where their order means nothing, to the solve of the table
    before (the table's reading of each set) and to the verdict on the table after;
    the record's order of turns, and its deal, stay."""

    def table(sets: list[list[str]], judged: bool) -> list[list[str]]:
        read = [[Tile.parse(t) for t in tiles] for tiles in sets]
        return [[t.written for t in tiles] for tiles in data.draw(shuffled(read, rules, judged))]

    turns = []
    for turn in record["turns"]:
        turns.append(
            {
                **turn,
                "rack": list(data.draw(st.permutations(turn["rack"]))),
                "table_before": table(turn["table_before"], judged=False),
                "table_after": (
                    None if turn.get("table_after") is None else table(turn["table_after"], True)
                ),
            }
        )
    return {**record, "turns": turns}


def _reviewed(answer: dict[str, Any], objective: Objective) -> object:
    """A review's answer without what ties may decide (which best play, so which tiles
    it misses) and the places sets are listed at: each turn's figures, the best play's
    proven score in the objective's unit, and each player's figures."""
    best = "points" if objective is Objective.POINTS else "tiles"
    turns = [
        (
            turn["turn"],
            turn["opened"],
            turn["legal"],
            _problems(turn["problems"]),
            turn["tiles_played"],
            turn["points_played"],
            turn["shortfall"],
            turn["at_best"],
            turn["unreviewed"] is None,  # it names the first invalid set listed
            None if turn["best"] is None else (turn["best"]["status"], turn["best"][best]),
        )
        for turn in answer["turns"]
    ]
    players = [
        {key: value for key, value in player.items() if key != "costliest"}
        | {"costliest": [(c["turn"], c["shortfall"]) for c in player["costliest"]]}
        for player in answer["players"]
    ]
    return answer["status"], turns, players


def _review(record: dict[str, Any], objective: Objective) -> object:
    read = read_record(record)
    return _reviewed(review_to_dict(review_game(read, objective=objective)), objective)


@pytest.mark.variants
@settings(max_examples=examples(8))
@given(
    data=st.data(),
    rules=small_rules(),
    bots=st.lists(st.sampled_from(["beginner", "greedy"]), min_size=2, max_size=3),
    seed=st.integers(0, 2**16),
    objective=st.sampled_from(list(Objective)),
)
def test_a_game_listed_another_way_replays_and_reviews_alike(
    data: st.DataObject, rules: Rules, bots: list[str], seed: int, objective: Objective
) -> None:
    """A bots' game whose record lists every rack and table another way: the replay
    takes it and ends the same, and the review says the same of every turn and player."""
    hand = data.draw(st.integers(1, min(6, sum(full_set(rules).values()) // len(bots))))
    settings_ = GameSettings(rules=rules, players=len(bots), hand=hand)
    record = record_to_dict(play(settings_, bots, seed))
    plays = sum(turn["action"] == "play" for turn in record["turns"])
    event(f"plays: {min(plays, 5)}{'+' if plays >= 5 else ''}")
    relisted = _relisted(data, record, rules)
    note(f"relisted: {relisted['turns']}")
    game = replay(read_record(relisted))
    assert game.outcome is not None
    assert record["result"]["scores"] == list(game.outcome.scores)
    assert _review(relisted, objective) == _review(record, objective)


def _turns(data: st.DataObject, rules: Rules) -> list[dict[str, Any]]:
    """Turns of a record, right or wrong, seat 0 playing claimed moves and seat 1
    drawing between them; the tables need not follow on (a review does not ask)."""
    turns: list[dict[str, Any]] = []
    for _ in range(data.draw(st.integers(1, 2))):
        position, after = data.draw(moves(rules, opened=False))

        def written(sets: Sequence[Sequence[Tile]]) -> list[list[str]]:
            return [[t.written for t in tiles] for tiles in sets]

        turns.append(
            {
                "turn": len(turns) + 1,
                "player": 0,
                "rack": [t.written for t in position.rack],
                "table_before": written(position.table),
                "action": "play",
                "table_after": written(after),
            }
        )
        turns.append(
            {
                "turn": len(turns) + 1,
                "player": 1,
                "rack": [],
                "table_before": written(after),
                "action": "draw",
                "drawn": min(full_set(rules)).written,
            }
        )
    return turns


@pytest.mark.variants
@settings(max_examples=examples(25))
@given(data=st.data(), rules=small_rules(), objective=st.sampled_from(list(Objective)))
def test_a_review_of_claimed_moves_does_not_depend_on_the_order_things_are_listed_in(
    data: st.DataObject, rules: Rules, objective: Objective
) -> None:
    """Turns right and wrong (an illegal one opens nothing), their racks and tables
    listed another way: the same verdicts, problems (set numbers aside), best scores
    and figures."""
    record = {
        "format": "meldwise-rummikub-game",
        "settings": {"rules": rules.to_dict(), "hand": 1},
        "turns": _turns(data, rules),
    }
    try:
        first = _review(record, objective)
    except MeldwiseError as error:  # a joker from nowhere in a game of none: refused
        with pytest.raises(type(error)):
            _review(_relisted(data, record, rules), objective)
        return
    relisted = _relisted(data, record, rules)
    note(f"relisted: {relisted['turns']}")
    assert _review(relisted, objective) == first

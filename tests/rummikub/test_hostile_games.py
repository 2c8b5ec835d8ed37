"""A hostile user's whole-game requests: bots on small house-rule variants judged by the
exhaustive oracle, and game records spoilt at random, reviewed and replayed."""

from __future__ import annotations

import contextlib
import copy
from collections import Counter
from functools import cache
from itertools import pairwise
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from solver.arena.runner import IllegalBotMove
from solver.errors import MeldwiseError
from solver.rummikub import Objective, Rules
from solver.rummikub.deal import full_set
from solver.rummikub.engine import GameSettings, Move, View
from solver.rummikub.game_wire import bot_rummikub, game_rummikub, review_rummikub
from solver.rummikub.notation import JOKER, Tile, parse_tiles
from solver.rummikub.record import read_record, record_to_dict, replay
from tests.rummikub.games_support import TINY, play
from tests.rummikub.oracle import oracle_for
from tests.rummikub.strategies import examples, positions, small_rules


def _bare(tiles: list[str]) -> Counter[Tile]:
    """Tiles as a multiset, each joker a plain joker (``J(R4)`` is ``J``)."""
    return Counter(JOKER if t.is_joker else t for t in parse_tiles(tiles))


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), rules=small_rules(), bot=st.sampled_from(["beginner", "greedy", "strong"]))
def test_a_bots_move_on_a_small_variant_is_legal_and_knows_the_best(
    data: st.DataObject, rules: Rules, bot: str
) -> None:
    """Every bot's move under any house rule passes the oracle's judgement (nothing
    else judges a ``/bot`` answer), says what it placed and what is left, draws only
    from a pool that has tiles, and gives the best play's size the oracle finds."""
    position = data.draw(positions(rules, max_rack=5))
    off_board = sum(full_set(rules).values()) - len(position.rack)
    off_board -= sum(map(len, position.table))
    if not position.rack or off_board < 1:
        return
    sizes = data.draw(st.lists(st.integers(1, off_board), min_size=1, max_size=3))
    if sum(sizes) > off_board:
        sizes = [off_board]  # the opponents hold every tile left: the pool is empty
    rack = [t.written for t in position.rack]
    request = {
        "bot": bot,
        "rack": rack,
        "table": [[t.written for t in tiles] for tiles in position.table],
        "opened": position.opened,
        "opponents": [{"rack_size": size, "opened": data.draw(st.booleans())} for size in sizes],
        "rules": rules.to_dict(),
    }
    answer = bot_rummikub(request)
    oracle = oracle_for(rules)
    after = [parse_tiles(tiles) for tiles in answer["table"]]
    assert oracle.judge(list(position.rack), position.table, after, position.opened), answer
    before = Counter(JOKER if t.is_joker else t for tiles in position.table for t in tiles)
    played = Counter(JOKER if t.is_joker else t for tiles in after for t in tiles) - before
    assert played == _bare(answer["played"])
    assert _bare(rack) - played == _bare(answer["rack_left"])
    pool = off_board - sum(sizes)
    assert answer["action"] == ("play" if played else "draw" if pool else "pass"), answer
    if answer["status"] == "optimal":
        best = oracle.best_score(position, Objective.TILES)
        assert answer["best_tiles"] == best, answer
        if bot == "greedy":
            assert played.total() == best


@settings(max_examples=examples(15), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rules=small_rules(max_numbers=6),
    bots=st.lists(st.sampled_from(["beginner", "greedy", "strong"]), min_size=2, max_size=4),
    hand=st.integers(1, 5),
    pool_empty=st.sampled_from(["play_on", "end"]),
    seed=st.integers(0, 2**31),
)
def test_a_bot_game_on_a_small_variant_replays_by_the_rules(
    rules: Rules, bots: list[str], hand: int, pool_empty: str, seed: int
) -> None:
    """A whole game under any house rule, replayed from its deal outside the engine:
    every play judged by the oracle (the engine judges with the library's checker),
    every draw the pool's next tile, the racks as recorded, and the result's
    penalties, scores and winners as the final racks give them."""
    assume(len(bots) * hand <= sum(full_set(rules).values()))
    game = {"rules": rules.to_dict(), "hand": hand, "pool_empty": pool_empty}
    record = game_rummikub({"bots": bots, "seed": seed, "settings": game})["record"]
    oracle = oracle_for(rules)
    racks = [_bare(rack) for rack in record["deal"]["racks"]]
    pool = [JOKER if t.is_joker else t for t in parse_tiles(record["deal"]["pool"])]
    opened = [False] * len(bots)
    for turn in record["turns"]:
        seat = turn["player"]
        assert _bare(turn["rack"]) == racks[seat], turn
        before = [parse_tiles(tiles) for tiles in turn["table_before"]]
        after = [parse_tiles(tiles) for tiles in turn["table_after"]]
        if turn["action"] == "play":
            assert oracle.judge(list(racks[seat].elements()), before, after, opened[seat]), turn
            laid = Counter(JOKER if t.is_joker else t for tiles in after for t in tiles)
            laid -= Counter(JOKER if t.is_joker else t for tiles in before for t in tiles)
            assert laid == _bare(turn["played"]), turn
            racks[seat] -= laid
            opened[seat] = True
        elif turn["action"] == "draw":
            assert _bare([turn["drawn"]]) == Counter([pool.pop(0)]), turn
            racks[seat] += _bare([turn["drawn"]])
        else:
            assert not pool, turn
    result = record["result"]
    penalties = [
        sum((rules.joker_penalty if t.is_joker else t.number) * n for t, n in rack.items())
        for rack in racks
    ]
    if result["end"] == "out":
        winners = [seat for seat, rack in enumerate(racks) if not rack]
        scores = [sum(penalties) if seat in winners else -p for seat, p in enumerate(penalties)]
    else:
        assert all(racks)
        winners = [seat for seat, p in enumerate(penalties) if p == min(penalties)]
        scores = [-p for p in penalties]
    assert (result["penalties"], result["scores"], result["winners"]) == (
        penalties,
        scores,
        winners,
    )


@cache
def _record() -> dict[str, Any]:
    """A finished game of the tiny variant between every kind of bot (a few turns)."""
    game = play(GameSettings(rules=TINY, players=3, hand=5), ["beginner", "greedy", "strong"], 3)
    return record_to_dict(game, ["beginner", "greedy", "strong"])


JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-2, 2**31 + 1),
    st.floats(allow_nan=False),
    st.sampled_from(["", "R1", "J", "J(R3)", "J(R99)", "\uff321", "r1", "play", "pass", "out"]),
    st.just([]),
    st.just({}),
    st.just([["R1", "R2"]]),
)


TILES = st.sampled_from(["R1", "B2", "K3", "R4", "B5", "K6", "R7", "J", "J(B4)"])
"""Tiles of the tiny variant (3 colours, 7 numbers, one joker)."""


@st.composite
def spoilt_records(draw: st.DrawFn) -> dict[str, Any]:
    """The tiny game's record with one to three things changed. Some leave it readable
    (the turns cut at the end, a tile of a rack or of a table after the turn changed for
    another of the game, a play's table after shuffled between its sets); others do not
    (a turn dropped, two swapped or repeated, the first turns cut, a field of a turn, of
    the result or of the settings replaced by junk, an action changed)."""
    record = copy.deepcopy(_record())
    for _ in range(draw(st.integers(1, 3))):
        turns = record["turns"]
        if not turns:
            record[draw(st.sampled_from(["seed", "players", "deal", "result"]))] = draw(JUNK)
            continue
        index = draw(st.integers(0, len(turns) - 1))
        turn = turns[index]
        change = draw(
            st.sampled_from(
                [
                    *("end", "rack", "after", "after", "mix", "mix"),  # readable
                    *("drop", "swap", "again", "start", "field", "action", "result", "rule"),
                ]
            )
        )
        if change == "end":
            record["turns"] = turns[:index]
        elif change == "rack" and isinstance(rack := turn.get("rack"), list) and rack:
            rack[draw(st.integers(0, len(rack) - 1))] = draw(TILES)
        elif change in ("after", "mix") and turn.get("action") == "play":
            after = [list(tiles) for tiles in turn.get("table_after") or []]
            tiles = [t for tiles in after for t in tiles]
            if change == "after" and tiles:
                tiles[draw(st.integers(0, len(tiles) - 1))] = draw(TILES)
            shuffled = draw(st.permutations(tiles)) if change == "mix" else tiles
            cuts = sorted(draw(st.lists(st.integers(1, max(1, len(tiles))), max_size=3)))
            bounds = [0, *cuts, len(tiles)]
            turn["table_after"] = [shuffled[a:b] for a, b in pairwise(bounds) if a < b]
            turn.pop("played", None)
        elif change == "drop":
            del turns[index]
        elif change == "swap" and index + 1 < len(turns):
            turns[index], turns[index + 1] = turns[index + 1], turns[index]
        elif change == "again":
            turns.insert(index, copy.deepcopy(turn))
        elif change == "start":
            record["turns"] = turns[index:]
        elif change == "field":
            turn[draw(st.sampled_from(sorted(turn)))] = draw(JUNK)
        elif change == "action":
            turn["action"] = draw(st.sampled_from(["play", "draw", "pass"]))
        elif change == "result" and isinstance(record.get("result"), dict):
            record["result"][draw(st.sampled_from(sorted(record["result"])))] = draw(JUNK)
        elif change == "rule" and isinstance(rules := record["settings"].get("rules"), dict):
            rules[draw(st.sampled_from(sorted(rules)))] = draw(JUNK)
    return record


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(record=spoilt_records(), player=st.sampled_from([None, 0, 1, 2]))
def test_a_spoilt_record_is_refused_by_name_or_reviewed_as_it_reads(
    record: dict[str, Any], player: int | None
) -> None:
    """A record spoilt anywhere is refused as bad input (a ``MeldwiseError``, never
    another exception), or reviewed: its turns numbered from 1 with none missing (who
    had opened is read from every turn before), each turn's figures agreeing with its
    verdict, and the players' figures with the turns'."""
    with contextlib.suppress(MeldwiseError):
        replay(read_record(record))
    request: dict[str, Any] = {"record": record, "time_limit_ms": 200}
    if player is not None:
        request["player"] = player
    try:
        review = review_rummikub(request)
    except MeldwiseError:
        return
    numbers = [turn["turn"] for turn in record["turns"]]
    assert numbers == list(range(1, len(numbers) + 1))
    for turn in review["turns"]:
        assert player is None or turn["player"] == player
        assert turn["legal"] == (not turn["problems"])
        assert turn["tiles_played"] == (len(turn["played"]) if turn["legal"] else 0)
        assert not turn["at_best"] or (turn["legal"] and turn["shortfall"] == 0)
        assert turn["shortfall"] >= 0
        if turn["best"] is None:
            assert turn["unreviewed"]
            assert not turn["at_best"]
        else:
            assert not Counter(turn["missed"]) - Counter(turn["best"]["played"])
    for seat in review["players"]:
        mine = [t for t in review["turns"] if t["player"] == seat["player"]]
        reviewed = [t for t in mine if t["best"] is not None]
        assert seat["turns"] == len(reviewed) == len(seat["series"]["turn"])
        assert seat["turns_at_best"] == sum(t["at_best"] for t in reviewed)
        assert seat["placed"] == sum(t["tiles_played"] for t in reviewed)
        assert seat["illegal_turns"] == [t["turn"] for t in mine if not t["legal"]]


def test_an_illegal_bot_move_is_the_bots_bug_not_a_refusal_of_the_request(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """/game let a bot's illegal move out as the engine's IllegalMove, a refusal of bad
    input (a 422 blaming the request); it is a bug in the bot (the service's 500)."""

    class Cheat:
        def choose(self, view: View) -> Move:
            return Move.play([*view.table, parse_tiles("R1 R2 R3")])  # 6 points, no opening

    monkeypatch.setattr("solver.rummikub.game_wire.make_bot", lambda name, seed: Cheat())
    with pytest.raises(IllegalBotMove, match=r"^bot 'greedy' in seat 0: turn 1, player 0: "):
        game_rummikub({"bots": ["greedy", "greedy"], "seed": 1})

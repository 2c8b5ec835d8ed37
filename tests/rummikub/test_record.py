"""The game record: written by the engine, read back, and replayed under the rules."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from solver.arena.runner import MAX_SEED
from solver.errors import MeldwiseError
from solver.i18n import language
from solver.record import RecordError
from solver.rummikub.engine import GameSettings, PoolEmpty
from solver.rummikub.notation import parse_tiles
from solver.rummikub.record import FORMAT, read_record, record_to_dict, replay
from tests.rummikub.games_support import SMALL, TINY, play, played_turn, shanghai_record


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    game = play(GameSettings(rules=SMALL, hand=7), ["strong", "greedy"], seed=4)
    # Through JSON text and back, as a file would carry it.
    written: dict[str, Any] = json.loads(json.dumps(record_to_dict(game, ["strong", "greedy"])))
    return written


def test_a_replay_reproduces_the_final_racks_and_scores(record: dict[str, Any]) -> None:
    assert record["format"] == FORMAT
    assert record["version"] == 1
    game = replay(read_record(record))
    assert game.outcome is not None
    assert [[str(t) for t in rack] for rack in game.outcome.racks] == record["result"]["racks"]
    assert list(game.outcome.scores) == record["result"]["scores"]
    assert list(game.outcome.winners) == record["result"]["winners"]
    assert len(game.turns) == len(record["turns"])


def test_every_turn_records_rack_tables_and_action(record: dict[str, Any]) -> None:
    previous: list[list[str]] = []
    for index, turn in enumerate(record["turns"]):
        assert turn["turn"] == index + 1
        assert turn["table_before"] == previous
        assert turn["action"] in ("play", "draw", "pass")
        if turn["action"] == "draw":
            assert turn["table_after"] == turn["table_before"]
            assert "drawn" in turn
        if turn["action"] == "play":
            assert turn["played"]
        previous = turn["table_after"]


def test_the_seed_alone_replays_a_shuffled_game(record: dict[str, Any]) -> None:
    without_deal = {k: v for k, v in record.items() if k != "deal"}
    game = replay(read_record(without_deal))
    assert game.outcome is not None
    assert list(game.outcome.scores) == record["result"]["scores"]


def test_a_record_reads_every_seed_a_game_deals_from(record: dict[str, Any]) -> None:
    """The seed's bounds are meldwise game --seed's: 0 to MAX_SEED, both read."""
    without_deal = {k: v for k, v in record.items() if k != "deal"}
    for seed in (0, MAX_SEED):
        assert read_record({**without_deal, "seed": seed}).seed == seed


def test_a_record_of_another_format_is_refused_for_its_format_alone() -> None:
    """A Shanghai record's format was named, then every field Rummikub's lacks
    (turns) or does not know (hands, scores): as many errors for one mistake."""
    with pytest.raises(MeldwiseError) as refused:
        read_record(shanghai_record())
    assert str(refused.value) == (
        "game record: 'format' is 'meldwise-shanghai-game': a record of that game is reviewed"
        " with meldwise shanghai review (HTTP: POST /v1/shanghai/review)"
    )


def test_a_blocked_game_replays_under_either_pool_rule() -> None:
    for rule in PoolEmpty:
        for seed in range(40):
            game = play(GameSettings(rules=TINY, hand=5, pool_empty=rule), ["beginner"] * 2, seed)
            if game.outcome is not None and game.outcome.end.value == "blocked":
                replayed = replay(read_record(record_to_dict(game)))
                assert replayed.outcome == game.outcome
                break
        else:
            pytest.fail(f"no blocked game under {rule}")


def _tampered(record: dict[str, Any], change: Any) -> dict[str, Any]:
    changed = copy.deepcopy(record)
    change(changed)
    return changed


def _first(record: dict[str, Any], action: str) -> int:
    return next(i for i, t in enumerate(record["turns"]) if t["action"] == action)


def test_a_pool_padded_by_hand_is_refused_in_a_line_not_in_full(record: dict[str, Any]) -> None:
    """Every extra tile was quoted: 50,000 tiles added to the pool gave an error of 150
    KB, where its first tiles and the count say it."""
    padded = _tampered(record, lambda r: r["deal"]["pool"].extend(["R1"] * 50_000))
    with pytest.raises(MeldwiseError) as raised:
        replay(read_record(padded))
    said = str(raised.value)
    assert said.startswith("deal: the deal is not the game's tiles each once: extra [R1 R1 "), said
    assert len(said) < 400, len(said)
    assert "R1 … (50000 in all)], missing [-]" in said, said


def test_a_changed_draw_is_caught_at_its_turn(record: dict[str, Any]) -> None:
    index = _first(record, "draw")
    drawn = record["turns"][index]["drawn"]
    other = next(t for t in record["deal"]["pool"] if t != drawn)

    def change(r: dict[str, Any]) -> None:
        r["turns"][index]["drawn"] = other

    player = record["turns"][index]["player"]
    with pytest.raises(RecordError) as error:
        replay(read_record(_tampered(record, change)))
    assert str(error.value) == (
        f"turns[{index}] (turn {index + 1}, player {player}): drew {drawn}, recorded {other}"
    )
    # The place is noted too: a request holding the record says it within its field.
    assert error.value.places == (
        (("turns", index), f"turns[{index}]"),
        (("turns", index, "drawn"), "'drawn'"),
    )


def test_an_illegal_play_is_caught_at_its_turn(record: dict[str, Any]) -> None:
    index = _first(record, "play")

    def change(r: dict[str, Any]) -> None:
        turn = r["turns"][index]
        turn["table_after"] = [*turn["table_after"], [turn["rack"][0]]]  # a one-tile set
        turn.pop("played")

    player = record["turns"][index]["player"]
    with pytest.raises(RecordError) as error:
        replay(read_record(_tampered(record, change)))
    assert str(error.value).startswith(
        f"turns[{index}] (turn {index + 1}, player {player}): illegal: "
    )
    assert "set" in str(error.value)
    assert error.value.places[0] == (("turns", index), f"turns[{index}]")


def test_a_wrong_result_is_caught(record: dict[str, Any]) -> None:
    def change(r: dict[str, Any]) -> None:
        r["result"]["scores"] = [s + 1 for s in r["result"]["scores"]]

    # Scores that do not follow from the result's own racks: refused when read (a review
    # echoed them as the players' scores).
    with pytest.raises(RecordError, match=r"^result\.scores is \[.*\], but the result's racks"):
        read_record(_tampered(record, change))

    def recoloured(r: dict[str, Any]) -> None:
        # A loser's tile in another colour no rack holds: the same penalties and scores.
        racks = r["result"]["racks"]
        held = {tile for rack in racks for tile in rack}
        loser = next(rack for rack in racks if any(t != "J" for t in rack))
        index, tile = next((i, t) for i, t in enumerate(loser) if t != "J")
        loser[index] = next(c + tile[1:] for c in "RBKO" if c + tile[1:] not in held)

    # A result that agrees with itself but not with the game: only a replay tells, naming
    # the rack (it said "replayed scores [...], winners [...]": the record's own).
    tampered = _tampered(record, recoloured)
    with pytest.raises(RecordError) as error:
        replay(read_record(tampered))
    seat = next(
        seat
        for seat, rack in enumerate(tampered["result"]["racks"])
        if rack != record["result"]["racks"][seat]
    )
    recorded, replayed = (
        " ".join(map(str, sorted(parse_tiles(r["result"]["racks"][seat]))))
        for r in (tampered, record)
    )
    assert str(error.value) == (
        f"result.racks[{seat}] is [{recorded}], but the replay gives [{replayed}]"
    )


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("penalties", [7, 2], "result.penalties is [7, 2], but the result's racks give [7, 1]"),
        ("scores", [-7, 1], "result.scores is [-7, 1], but the result's racks give [-7, -1]"),
        ("winners", [0], "result.winners is [0], but the result's racks give [1]"),
    ],
)
def test_a_result_that_does_not_follow_names_its_field(
    field: str, value: list[int], message: str
) -> None:
    # The error listed all three as the racks give them ("its racks give penalties [7, 1],
    # scores [-7, -1] and winners [1]"): which one was edited was left to the reader.
    result: dict[str, Any] = {"end": "blocked", "winners": [1], "racks": [["R7"], ["R1"]]}
    record = {"turns": [], "result": {**result, "penalties": [7, 1], "scores": [-7, -1]}}
    assert read_record(record).outcome is not None
    result.update({"penalties": [7, 1], "scores": [-7, -1], field: value})
    record["result"] = result
    with pytest.raises(RecordError) as error:
        read_record(record)
    assert str(error.value) == message
    with language("ja"), pytest.raises(RecordError) as error:
        read_record(record)
    assert str(error.value).startswith(f"result.{field} \u306f {value} ")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda r: r.update(version=2),
            "'version' is 2: the record is of a newer format \\(version 2\\)",
        ),
        (lambda r: r.update(version=True), "'version' must be a whole number, got true"),
        (
            lambda r: r["result"].update(scores=[False, 0]),
            r"'result.scores\[0\]' must be a whole number, got false",
        ),
        (lambda r: r["turns"][0].update(hand=[]), r"unknown field 'turns\[0\]\.hand'"),
        (lambda r: r["turns"][0].pop("rack"), r"missing field 'rack' in turns\[0\]"),
        (lambda r: r["turns"][0]["rack"].__setitem__(0, "Q5"), r"turns\[0\]\.rack: unknown tile"),
        (lambda r: r["settings"].update(pool_empty="never"), "^settings: 'pool_empty' must be"),
        (
            lambda r: r["settings"]["rules"].update(jokers=9),
            r"^settings\.rules: rule 'jokers' must be between 0 and 4, got 9$",
        ),
        (lambda r: r["settings"].update(hands=3), "^settings: unknown game setting 'hands'"),
        (
            lambda r: r["turns"][0]["rack"].__setitem__(0, "r10"),
            r"^turns\[0\]\.rack: unknown tile 'r10': numbers run from 1 to 9$",
        ),
        (lambda r: r["turns"][0].update(player=5), r"turns\[0\]: player 5 in a game of 2"),
        # A play's 'drawn' was read and dropped without a word, even one naming no tile.
        (
            lambda r: r["turns"][_first(r, "play")].update(drawn="R99"),
            r"^turns\[\d+\]: a play draws no tile$",
        ),
        # Names were any strings: a lone surrogate broke the review's answer (HTTP 500).
        (
            lambda r: r.update(players=["\udfff", "b"]),
            r"^game record: players\[0\]: a player name must be printable text",
        ),
        (lambda r: r.update(players=["b\u202eevil", "x"]), r"^game record: players\[0\]: a player"),
        # One entry, seat or tile was said in the plural ("has 1 entries").
        (lambda r: r["result"].update(scores=[3]), "^result.scores has 1 entry for 2 players$"),
        (lambda r: r.update(players=["solo"]), "^'players' names 1 seat, the game has 2$"),
        (
            lambda r: r["deal"]["racks"][0].__delitem__(slice(1, None)),
            "^deal: player 0 was dealt 1 tile, the hand is 7$",
        ),
        (lambda r: r["result"].update(winners=[2]), "result.winners: 2 is not a seat of 2"),
        # A deal against its settings was once read (and reviewed) without a word.
        (lambda r: r["settings"].update(hand=8), "^deal: player 0 was dealt .* the hand is 8"),
        (lambda r: r["deal"]["pool"].pop(), r"^deal: the deal is not the game's tiles each once"),
        # The seed and the deal of a record once disagreed without a word.
        (lambda r: r.update(seed=r["seed"] + 1), r"^seed: the deal is not the one seed"),
        # A seed no game deals from was read without a word (-4 shuffling as 4, the
        # deal's seed), or said to shuffle another deal.
        (lambda r: r.update(seed=-r["seed"]), r"^game record: 'seed' must be at least 0, got -4$"),
        (
            lambda r: r.update(seed=MAX_SEED + 1),
            rf"^game record: 'seed' must be at most {MAX_SEED}, got {MAX_SEED + 1}$",
        ),
        (lambda r: (r.pop("deal"), r.update(seed=-1)), "^game record: 'seed' must be at least 0"),
        (
            lambda r: r["result"].update(winners=[1 - r["result"]["winners"][0]]),
            r"^result: a round ended 'out' has one winner, a player whose rack is empty",
        ),
        # A second empty rack under 'out' was read, scored as the winner's.
        (
            lambda r: r["result"].update(
                racks=[[], []], penalties=[0, 0], scores=[0, 0], winners=[0]
            ),
            r"^result: a round ended 'out' leaves only the winner's rack empty, but player 1's",
        ),
        # A 'blocked' round with an empty rack was read, its player scored as a winner.
        (
            lambda r: r["result"].update(end="blocked"),
            r"^result: a round ended 'blocked' leaves no rack empty, but player \d's is$",
        ),
    ],
)
def test_a_malformed_record_names_the_culprit(
    record: dict[str, Any], change: Any, message: str
) -> None:
    with pytest.raises(MeldwiseError, match=message):
        read_record(_tampered(record, change))


REPLACE_RUN, REPLACE_GROUP = ["R5", "R6", "J(R4)"], ["B5", "B6", "B7"]


def _replace_record(*turns: dict[str, Any]) -> dict[str, Any]:
    """A record of ``turns`` in a small game under joker_retrieval "replace", dealt so
    that player 0 can lay REPLACE_RUN (its joker as R4) and player 1 REPLACE_GROUP."""
    rules = {"colours": 2, "numbers": 7, "copies": 1, "jokers": 1, "opening_threshold": 0}
    return {
        "settings": {"rules": {**rules, "joker_retrieval": "replace"}, "hand": 5},
        "deal": {
            "racks": [["R4", "R5", "R6", "J", "B1"], ["B2", "B3", "B5", "B6", "B7"]],
            "pool": ["R1", "R2", "R3", "R7", "B4"],
        },
        "turns": list(turns),
    }


def test_a_joker_written_with_its_tile_is_written_back_so() -> None:
    """Under joker_retrieval "replace" a joker's reading decides the turns after: a
    record whose R5 R6 J(R4) let R4 take the joker replayed, but the record written from
    that replay said R5 R6 J (the joker read as R7), and no longer replayed."""
    run, group = REPLACE_RUN, REPLACE_GROUP
    written = _replace_record(
        played_turn(1, 0, "R4 R5 R6 J B1", [], [run]),
        played_turn(2, 1, "B2 B3 B5 B6 B7", [run], [run, group]),
        played_turn(3, 0, "R4 B1", [run, group], [["R4", "R5", "R6"], [*group, "J"]]),
    )
    again = json.loads(json.dumps(record_to_dict(replay(read_record(written)))))
    assert again["turns"][0]["table_after"] == [run]
    assert len(replay(read_record(again)).turns) == 3


def test_a_table_before_that_changes_a_jokers_bracket_does_not_replay() -> None:
    """The replay compared table_before without the brackets: a record whose turn 2 saw
    R5 R6 J(R7) where turn 1 had left R5 R6 J(R4) replayed, though under "replace" the
    joker's reading decides what may take it."""
    run, group = REPLACE_RUN, REPLACE_GROUP
    second = played_turn(2, 1, "B2 B3 B5 B6 B7", [["J(R7)", "R6", "R5"]], [run, group])
    written = _replace_record(played_turn(1, 0, "R4 R5 R6 J B1", [], [run]), second)
    with pytest.raises(RecordError, match=r"turns\[1\] \(turn 2, player 1\): table_before is not"):
        replay(read_record(written))
    # The same sets in another order, each joker as written, replay.
    second["table_before"] = [["J(R4)", "R6", "R5"]]
    assert len(replay(read_record(written)).turns) == 2


def test_a_long_bot_spec_is_shortened_so_the_record_reads_back() -> None:
    """A tournament wrote the spec of a strong bot with many knobs (85 characters) as
    the seat's name, and reading the record back refused it: a player name is at most
    64 characters."""
    spec = "strong:hold_sets=false+hold_jokers=false+small_opening=false+hurry_rack=3+stuck=all"
    game = play(GameSettings(rules=TINY, hand=5), [spec, "greedy"], seed=1)
    written = json.loads(json.dumps(record_to_dict(game, [spec, "greedy"])))
    assert written["players"] == [spec[:63] + "…", "greedy"]
    assert read_record(written).players == (spec[:63] + "…", "greedy")


@pytest.mark.parametrize(
    ("change", "field", "said"),
    [
        (lambda t: t.update(turn=t["turn"] + 1), "turn", "numbered 3, expected 2"),
        (lambda t: t.update(player=1 - t["player"]), "player", "player 0 moved, it was player 1's"),
        (lambda t: t["rack"].pop(), "rack", "the rack is recorded as ["),
        (lambda t: t.update(table_before=[["R1", "R2", "R3"]]), "table_before", "table_before"),
    ],
)
def test_a_replay_error_names_the_turn_the_player_and_the_field(
    record: dict[str, Any], change: Any, field: str, said: str
) -> None:
    """The replay's errors said the turn in the message alone: a request holding the
    record could not place them (read_record's could). The second turn is player 1's."""
    assert record["turns"][1]["player"] == 1

    def spoil(r: dict[str, Any]) -> None:
        change(r["turns"][1])

    with pytest.raises(RecordError) as error:
        replay(read_record(_tampered(record, spoil)))
    # The turn as the record has it: its number and player, spoilt or not.
    turn = _tampered(record, spoil)["turns"][1]
    where = f"turns[1] (turn {turn['turn']}, player {turn['player']})"
    assert str(error.value).startswith(f"{where}: {said}")
    assert error.value.places == ((("turns", 1), "turns[1]"), (("turns", 1, field), repr(field)))


def test_a_result_the_replay_does_not_give_notes_its_field(record: dict[str, Any]) -> None:
    """A result that agrees with itself but ends the game another way: the end."""

    def change(r: dict[str, Any]) -> None:
        r["turns"].pop()  # the last turn went out: without it the game goes on

    with pytest.raises(RecordError) as error:
        replay(read_record(_tampered(record, change)))
    assert str(error.value) == "the record has a result but the game is not over"
    assert error.value.places == ((("result",), ""),)

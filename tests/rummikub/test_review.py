"""Game review: each turn's best equals an exhaustive search (small variant) and a fresh
solve (standard game); missed tiles, illegal turns and per-player figures add up."""

from __future__ import annotations

import copy
import json
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from meldwise.cli import main
from solver import validate_rummikub
from solver.cpsat import Limit
from solver.errors import MeldwiseError
from solver.i18n import language
from solver.record import check_review
from solver.rummikub import Objective, Play, Position, Status, solve
from solver.rummikub.cli import describe_review
from solver.rummikub.engine import GameSettings
from solver.rummikub.game_wire import review_rummikub
from solver.rummikub.legality import check_play
from solver.rummikub.record import read_record, record_to_dict
from solver.rummikub.review import review_game, review_to_dict
from tests.rummikub.games_support import TINY, play
from tests.rummikub.oracle import Oracle

ORACLE = Oracle(TINY)


def test_each_best_matches_an_exhaustive_search() -> None:
    checked = 0
    for seed in range(6):
        game = play(GameSettings(rules=TINY, hand=5), ["strong", "beginner"], seed)
        review = review_game(read_record(record_to_dict(game)))
        for turn in review.turns:
            position = Position(turn.turn.rack, turn.turn.table_before, turn.opened)
            best = turn.best
            assert best is not None
            assert best.status is Status.OPTIMAL
            after = [m.written for m in best.table]
            assert check_play(position.rack, position.table, after, position.opened, TINY).legal
            if len(position.rack) <= 8:
                assert best.tiles_played == ORACLE.best_score(position, Objective.TILES)
                checked += 1
    assert checked >= 40


@pytest.fixture(scope="module")
def standard() -> dict[str, Any]:
    return record_to_dict(play(GameSettings(), ["strong", "greedy"], 2), ["strong", "greedy"])


def test_each_best_equals_a_fresh_proven_solve(standard: dict[str, Any]) -> None:
    answer = review_rummikub({"record": standard})
    assert answer["status"] == "optimal"
    opened = [False, False]
    for turn in answer["turns"]:
        position = Position.parse(turn["rack"], turn["table_before"], opened[turn["player"]])
        fresh = solve(position, least_disruption=False)
        assert fresh.status is Status.OPTIMAL
        assert turn["best"]["tiles"] == fresh.tiles_played
        assert turn["best"]["played"] == [str(t) for t in fresh.played]
        assert turn["best"]["points"] == fresh.points_played
        # The optimum does not depend on the tie-breaks: the default solve agrees.
        assert solve(position).tiles_played == fresh.tiles_played
        if turn["action"] == "play":
            opened[turn["player"]] = True


def test_each_best_table_writes_its_jokers_as_table_after_does(standard: dict[str, Any]) -> None:
    # The best play's table wrote a bare J (R8 J R10) where table_after writes
    # J(R9): pasted back, a bare joker may read as another tile.
    answer = review_rummikub({"record": standard})
    jokers = [
        tile
        for turn in answer["turns"]
        if turn["best"] is not None
        for tiles in turn["best"]["table"]
        for tile in tiles
        if tile.startswith("J")
    ]
    assert jokers
    assert all(tile.startswith("J(") for tile in jokers)


def test_each_best_tells_which_tiles_of_each_set_came_from_the_rack(
    standard: dict[str, Any],
) -> None:
    # The page marked the first copy of each tile played, which could be a copy already
    # on the table (an R6 of a group that stayed for the rack's R6 in a new run).
    answer = review_rummikub({"record": standard})
    checked = 0
    for turn in answer["turns"]:
        best = turn["best"]
        assert len(best["from_rack"]) == len(best["table"])
        laid, rest = Counter[str](), Counter[str]()
        for tiles, from_rack in zip(best["table"], best["from_rack"], strict=True):
            in_set = Counter(map(_plain, tiles))
            assert not Counter(from_rack) - in_set
            laid += Counter(from_rack)
            rest += in_set - Counter(from_rack)
        assert laid == Counter(best["played"])
        # What is not from the rack is the table before, tile for tile.
        assert rest == Counter(_plain(t) for tiles in turn["table_before"] for t in tiles)
        checked += bool(best["played"]) and bool(turn["table_before"])
    assert checked >= 5


def _plain(tile: str) -> str:
    """A tile as a played list writes it: J(R9) as J."""
    return tile.split("(")[0]


def test_missed_tiles_and_player_figures_add_up(standard: dict[str, Any]) -> None:
    answer = review_rummikub({"record": standard})
    greedy = next(p for p in answer["players"] if p["name"] == "greedy")
    # Greedy makes the best play on every turn.
    assert greedy["accuracy"] == 1.0
    assert greedy["placed"] == greedy["possible"]
    for player in answer["players"]:
        mine = [t for t in answer["turns"] if t["player"] == player["player"]]
        assert player["turns"] == len(mine)
        assert player["turns_at_best"] == sum(t["at_best"] for t in mine)
        assert player["placed"] == sum(t["tiles_played"] for t in mine)
        assert player["possible"] == sum(t["best"]["tiles"] for t in mine)
        series = player["series"]
        assert series["turn"] == [t["turn"] for t in mine]
        assert series["played"] == [t["tiles_played"] for t in mine]
        assert series["best"] == [t["best"]["tiles"] for t in mine]
        shortfalls = [c["shortfall"] for c in player["costliest"]]
        assert shortfalls == sorted(shortfalls, reverse=True)
        assert shortfalls[:1] == sorted((t["shortfall"] for t in mine), reverse=True)[:1] or (
            not shortfalls and all(t["shortfall"] == 0 for t in mine)
        )
        assert player["score"] == standard["result"]["scores"][player["player"]]
    for turn in answer["turns"]:
        left = Counter(turn["rack"]) - Counter(turn["played"])
        assert not Counter(turn["missed"]) - left, "missed tiles are tiles left on the rack"
        assert turn["shortfall"] == turn["best"]["tiles"] - turn["tiles_played"] >= 0


def test_an_illegal_turn_is_flagged_and_counts_nothing(standard: dict[str, Any]) -> None:
    record = copy.deepcopy(standard)
    index = next(i for i, t in enumerate(record["turns"]) if t["action"] == "play")
    turn = record["turns"][index]
    # The player claims to have laid a set that breaks the opening rule (two tiles).
    turn["table_after"] = [*turn["table_before"], turn["rack"][:2]]
    turn.pop("played")
    answer = review_rummikub({"record": record, "player": turn["player"]})
    reviewed = next(t for t in answer["turns"] if t["turn"] == turn["turn"])
    assert not reviewed["legal"]
    assert reviewed["problems"]
    assert "a set needs at least 3 tiles" in " ".join(reviewed["problems"])
    assert reviewed["tiles_played"] == 0
    assert not reviewed["at_best"]
    (player,) = answer["players"]
    assert player["illegal_turns"][0] == turn["turn"]
    # It opened nothing: the player's plays are judged as openings until a legal one.
    opening = next(t["turn"] for t in answer["turns"] if t["action"] == "play" and t["legal"])
    assert all(t["opened"] == (t["turn"] > opening) for t in answer["turns"])
    assert {t["player"] for t in answer["turns"]} == {turn["player"]}
    # The next turn faces the invalid set the illegal one left: it cannot be solved,
    # and is listed as unreviewed instead of failing the whole review.
    following = record["turns"][index + 1]
    following["table_before"] = turn["table_after"]
    if following["action"] != "play":
        following["table_after"] = turn["table_after"]
    answer = review_rummikub({"record": record})
    skipped = next(t for t in answer["turns"] if t["turn"] == following["turn"])
    assert skipped["best"] is None
    assert not skipped["at_best"]
    assert "is not a valid set" in skipped["unreviewed"]
    seat = next(p for p in answer["players"] if p["player"] == following["player"])
    assert seat["unreviewed_turns"] == [following["turn"]]
    assert seat["turns"] == sum(
        1 for t in answer["turns"] if t["player"] == following["player"] and t["best"]
    )


def test_review_requests_are_checked(standard: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match="'player' must be 0 to 1, got 2"):
        review_rummikub({"record": standard, "player": 2})
    with pytest.raises(ValueError, match="'objective' must be 'tiles' or 'points', got 'fun'"):
        review_rummikub({"record": standard, "objective": "fun"})
    with pytest.raises(ValueError, match="unknown field 'records'"):
        review_rummikub({"records": standard})
    points = review_rummikub({"record": standard, "objective": "points", "player": 0})
    assert points["objective"] == "points"
    assert all(t["shortfall"] == t["best"]["points"] - t["points_played"] for t in points["turns"])


def _turn(number: int, rack: str, before: list[str], after: list[str] | None) -> dict[str, Any]:
    """Player 0 plays (``after`` given) on odd turns; player 1 draws R13 between."""
    entry: dict[str, Any] = {
        "turn": number,
        "player": 1 - number % 2,
        "rack": rack.split(),
        "table_before": [s.split() for s in before],
        "action": "draw" if after is None else "play",
    }
    if after is None:
        entry["drawn"] = "R13"
    else:
        entry["table_after"] = [s.split() for s in after]
    return entry


def _found_not_proven(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every review solve from now on answers its best as found, not proven."""
    real = solve

    def unproven(*args: Any, **kwargs: Any) -> Play:
        return replace(real(*args, **kwargs), status=Status.FEASIBLE)

    monkeypatch.setattr("solver.rummikub.review.solve", unproven)


def test_turns_out_of_order_are_refused() -> None:
    """Who had opened is read from the turns before, so they must come in order: a
    record numbering turn 2 before turn 1 was reviewed as if it did not matter."""
    record = {
        "turns": [
            _turn(1, "B1 B2", [], None),
            _turn(3, "R1 R2 R3", [], None),
            _turn(2, "B1", [], None),
        ]
    }
    with pytest.raises(MeldwiseError, match=r"turns\[1\] \(turn 3\): numbered 3, expected 2"):
        review_rummikub({"record": record})


@pytest.mark.parametrize("kept", [[0, 2], [2]], ids=["a turn left out", "the first turns cut"])
def test_a_record_missing_turns_is_refused_not_judged_as_if_nobody_had_opened(
    kept: list[int],
) -> None:
    """A record cut at its start (or with turns left out) was reviewed as if no player
    had opened in the missing turns: the later plays of a player who had were called
    illegal ("a player who has not opened may not touch the table")."""
    table = ["R9 R10 R11", "K5 B5 O5"]
    turns = [
        _turn(1, "R9 R10 R11 K5 B5 O5 R2", [], table),  # the opening, 45 points
        _turn(2, "B1 B2", table, None),
        _turn(3, "R12 R2", table, ["R9 R10 R11 R12", "K5 B5 O5"]),  # legal once opened
    ]
    whole = review_rummikub({"record": {"turns": turns}})
    assert [turn["legal"] for turn in whole["turns"]] == [True, True, True]
    cut = [turns[index] for index in kept]
    with pytest.raises(
        MeldwiseError, match=r"turns\[\d\] \(turn \d\): numbered \d, expected \d: a"
    ):
        review_rummikub({"record": {"turns": cut}})


def test_only_a_legal_play_opens() -> None:
    """An opening under the threshold does not open: the player's next play is judged,
    and its best solved, as an opening again, until a legal one; then they have opened."""
    record = {
        "turns": [
            _turn(1, "R1 R2 R3 K5 B5 O5 R9", [], ["R1 R2 R3"]),  # 6 points: taken back
            _turn(2, "B1 B2", [], None),
            _turn(3, "R1 R2 R3 K5 B5 O5 R9", [], ["K5 B5 O5"]),  # 15 points
            _turn(4, "B1 B2 R13", [], None),
            _turn(5, "R1 R2 R3 K5 B5 O5 R9 R10 R11", [], ["R9 R10 R11", "K5 B5 O5"]),
            _turn(6, "B1 B2 R13 R13", ["R9 R10 R11", "K5 B5 O5"], None),
            _turn(
                7, "R1 R2 R3", ["R9 R10 R11", "K5 B5 O5"], ["R9 R10 R11", "K5 B5 O5", "R1 R2 R3"]
            ),
        ]
    }
    answer = review_rummikub({"record": record, "player": 0})
    first, second, opening, later = answer["turns"]
    for illegal, value in ((first, 6), (second, 15)):
        assert not illegal["opened"]
        assert not illegal["legal"]
        assert f"worth {value} points, under the 30 needed" in illegal["problems"][0]
        # R1 R2 R3 and K5 B5 O5 (21 points) cannot open: the best is to draw.
        assert illegal["best"]["tiles"] == 0
    assert not opening["opened"]
    assert opening["legal"]
    assert later["opened"]
    assert later["legal"]
    assert later["best"]["played"] == ["R1", "R2", "R3"]


def test_a_play_that_places_no_rack_tile_is_refused_as_validate_refuses_it() -> None:
    """The review, validate and the engine share the rule: splitting a run places no
    tile, and neither does a play that leaves the table as it was."""
    run, halves = ["R5 R6 R7 R8 R9 R10"], ["R5 R6 R7", "R8 R9 R10"]
    record = {
        "turns": [
            _turn(1, "R5 R6 R7 R8 R9 R10 K1", [], run),
            _turn(2, "B1 B2", run, None),
            _turn(3, "K1", run, halves),
            _turn(4, "B1 B2 R13", run, None),
            _turn(5, "K1", run, run),
        ]
    }
    answer = review_rummikub({"record": record, "player": 0})
    opening, split, same = answer["turns"]
    assert opening["legal"]
    reason = "a play must place at least one tile from the rack; draw instead"
    for turn in (split, same):
        assert turn["opened"]
        assert turn["problems"] == [reason]
    move = {"rack": ["K1"], "table_before": [run[0].split()], "opened": True}
    checked = validate_rummikub({**move, "table_after": [s.split() for s in halves]})
    assert [p["reason"] for p in checked["problems"]] == [reason]


def test_a_best_the_search_did_not_prove_is_never_below_the_turn_nor_called_reached(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """When a search stops before any play (time_limit_ms 1 did it), the best was
    'unknown, 0 tiles': the turn that played 3 had a shortfall of -3 and was 'at the
    best', and the player's accuracy 100%."""
    record = {"turns": [_turn(1, "R10 R11 R12 B1 K5", [], ["R10 R11 R12"])]}
    proven = review_rummikub({"record": record})
    (turn,) = proven["turns"]
    assert (turn["best"]["status"], turn["shortfall"], turn["at_best"]) == ("optimal", 0, True)
    monkeypatch.setattr("solver.rummikub.search.SCORE_WORK", 0.0)  # every search stops at once
    answer = review_rummikub({"record": record})
    (turn,) = answer["turns"]
    assert turn["best"]["status"] != "optimal"
    assert turn["shortfall"] == 0
    assert not turn["at_best"]
    player = answer["players"][0]  # seat 1 had no turn
    assert player["accuracy"] == 0
    assert player["possible"] >= player["placed"] == 3
    text = describe_review(answer)
    assert "Player 0: 0 of 1 turn proven at the best" in text
    assert "turns whose best was not proven: 1\n" in text
    assert "Turns below the best" not in text


def test_a_turn_below_a_best_play_found_but_not_proven_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A turn short of a best play its search found but did not prove was listed with
    "best 3 tiles / 33 points (R10 R11 R12)", as if proven; the summary line alone said
    that its best was not proven."""
    record = {"turns": [_turn(1, "R10 R11 R12 B1 K5", [], None)]}
    _found_not_proven(monkeypatch)
    text = describe_review(review_rummikub({"record": record}))
    assert (
        "turn 1, player 0: draws; best found 3 tiles / 33 points (R10 R11 R12), not proven the"
        " best" in text
    )


def test_a_turn_whose_search_the_clock_cut_says_time_capped() -> None:
    """A turn's search cut by the time limit said only 'unknown': that the clock, not
    the fixed work bound, stopped it (so an idle machine may answer otherwise) went
    unsaid, where the Shanghai review and a solve say it."""
    rack = (
        "O1 O7 O4 O7 O2 O3 O13 O10 R10 R12 J O6 B3 R8 R7 O11 J R11 O5 B9 R1 K12 O8 O2 K10"
        " K2 O5 O12 B1 K6"
    )
    groups = [" ".join(f"{colour}{n}" for colour in "RBK") for n in range(1, 14)]
    record = {"turns": [_turn(1, rack, groups, None)]}
    cut = review_rummikub({"record": record, "time_limit_ms": 1})  # 1 ms finds nothing
    (turn,) = cut["turns"]
    assert turn["best"]["status"] != "optimal"
    assert turn["best"]["time_capped"] is True
    assert cut["time_capped"] is True
    said = "The time limit, not the fixed work bound, cut a search short"
    assert said in describe_review(cut)
    whole = review_rummikub({"record": record})
    assert whole["turns"][0]["best"]["time_capped"] is False
    assert whole["time_capped"] is False
    assert said not in describe_review(whole)


def test_the_typed_review_says_its_status_as_shanghais_does(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Shanghai's ``Review`` says its ``status`` and ``time_capped``; Rummikub's had
    neither (the wire worked them out), so code reviewing either game could not ask."""
    record = read_record({"turns": [_turn(1, "R10 R11 R12 B1 K5", [], ["R10 R11 R12"])]})
    proven = review_game(record)
    assert (proven.status, proven.time_capped) == (Status.OPTIMAL, False)
    monkeypatch.setattr("solver.rummikub.search.SCORE_WORK", 0.0)  # every search stops at once
    cut = review_game(record)
    assert cut.status is not Status.OPTIMAL
    said = review_to_dict(cut)
    assert (said["status"], said["time_capped"]) == (cut.status.value, cut.time_capped)


def test_an_illegal_play_is_taken_back_in_the_rack_series() -> None:
    record = {
        "turns": [
            _turn(1, "R1 R2 R3 K5 B5 O5 R9", [], ["R1 R2 R3"]),  # 6 points: taken back
            _turn(2, "B1 B2", [], None),
        ]
    }
    (player, _) = review_rummikub({"record": record})["players"]
    assert player["series"]["played"] == [0]
    assert player["series"]["rack_after"] == [7]


def test_a_turn_not_reviewed_is_not_said_to_be_below_the_best() -> None:
    """A legal draw facing a table the review cannot solve was listed under "Turns
    below the best:", a claim nothing checked."""
    record = {
        "turns": [
            _turn(1, "R1 R2 R3 K5 B5 O5 R9", [], ["R1 R2 R3"]),  # 6 points: illegal
            _turn(2, "B1 B2", ["R1 R2"], None),  # faces a set that is no set
        ]
    }
    answer = review_rummikub({"record": record})
    assert [t["best"] is None for t in answer["turns"]] == [False, True]
    text = describe_review(answer)
    below, unreviewed = text.split("Turns not reviewed:\n")
    assert "turn 1, player 0: played R1 R2 R3" in below
    assert "turn 2" not in below
    assert unreviewed.startswith("  turn 2, player 1: draws; not reviewed: table set 0 (R1 R2)")


def test_a_shortfall_of_one_is_written_in_the_singular() -> None:
    """A shortfall of one was written "turn 3: 1 tiles short"."""
    record = {
        "turns": [
            _turn(1, "R10 R11 R12 K5", [], ["R10 R11 R12"]),
            _turn(2, "B1 B2", ["R10 R11 R12"], None),
            _turn(3, "K5 R13 B1", ["R10 R11 R12"], None),  # draws, R13 would go on the run
        ]
    }
    text = describe_review(review_rummikub({"record": record, "player": 0}))
    assert "  turn 3: 1 tile short, missed R13\n" in text
    points = describe_review(review_rummikub({"record": record, "objective": "points"}))
    assert "  turn 3: 13 points short, missed R13\n" in points


def test_a_review_quotes_the_records_tables_with_their_brackets() -> None:
    # The review wrote R5 R6 J(R4) back as R5 R6 J (which reads as R7), and a contradicting
    # bracket's problem named J(R9) R12 R13 beside a table_after of J R12 R13.
    rack = ["R12", "R13", "J", "B1"]
    turns = [
        {"turn": 1, "player": 0, "rack": rack, "table_before": [["R5", "R6", "J(R4)"]]},
        {"turn": 2, "player": 1, "rack": ["B2"], "table_before": [["R5", "R6", "J(R4)"]]},
    ]
    turns[0] |= {"action": "play", "table_after": [["R5", "R6", "J(R4)"], ["J(R9)", "R12", "R13"]]}
    turns[1] |= {"action": "draw", "drawn": "B3"}
    record = {"format": "meldwise-rummikub-game", "version": 1, "turns": turns}
    answer = review_rummikub({"record": record, "time_limit_ms": 2000})
    first, second = answer["turns"]
    assert first["table_after"] == [["R5", "R6", "J(R4)"], ["J(R9)", "R12", "R13"]]
    assert first["problems"][0] == "set 1 after: J(R9) R12 R13: its joker cannot stand for R9"
    assert second["table_before"] == [["R5", "R6", "J(R4)"]]


def test_rbyk_is_refused_in_a_record_of_a_game_with_yellow() -> None:
    turn = {"turn": 1, "player": 0, "rack": ["Y1"], "table_before": [], "action": "draw"}
    record = {
        "format": "meldwise-rummikub-game",
        "version": 1,
        "settings": {"rules": {"colours": 6}},
        "turns": [{**turn, "drawn": "O1"}],
    }
    with pytest.raises(
        MeldwiseError, match="notation 'RBYK' writes orange as Y, but this game"
    ) as refused:
        review_rummikub({"record": record, "notation": "RBYK"})
    # Its place noted (it had none): HTTP names the field, the command line the flag.
    assert refused.value.places == ((("notation",), "notation"),)
    assert review_rummikub({"record": record})["turns"][0]["drawn"] == "O1"


def test_the_command_line_says_rbyk_refused_by_its_flag(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    turn = {"turn": 1, "player": 0, "rack": ["Y1"], "table_before": [], "action": "pass"}
    record = {"settings": {"rules": {"colours": 6}}, "turns": [turn]}
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    assert main(["review", str(path), "--notation", "RBYK"]) == 2
    assert capsys.readouterr().err.startswith("error: --notation 'RBYK' writes orange as Y")
    assert main(["solve", "--rack", "R1", "--rule", "colours=6", "--notation", "RBYK"]) == 2
    assert capsys.readouterr().err.startswith("error: --notation 'RBYK' writes orange as Y")


def _draws(rack: str, rules: dict[str, Any] | None = None) -> dict[str, Any]:
    """A record of two draws whose second rack (``turns[1].rack``) is ``rack``."""
    record: dict[str, Any] = {
        "turns": [
            {"turn": 1, "player": 0, "rack": ["R1"], "table_before": [], "action": "draw"},
            {"turn": 2, "player": 1, "rack": [rack], "table_before": [], "action": "draw"},
        ]
    }
    record["turns"][0]["drawn"] = record["turns"][1]["drawn"] = "R13"
    if rules is not None:
        record["settings"] = {"rules": rules}
    return record


@pytest.mark.parametrize(
    ("request_", "message"),
    [
        (
            {"record": _draws("G4"), "notation": "RBYK"},
            "record: turns[1].rack: unknown tile 'G4': this game's colours are R B K Y",
        ),
        (
            {"record": _draws("G4"), "notation": "RBYK", "lang": "ja"},
            "record: turns[1].rack: "
            "不明なタイル 'G4': このゲームの色は R B K Y(赤・青・黒・黄)です",
        ),
        (
            {"record": _draws("Q4", {"colours": 5}), "notation": "RBYK"},
            "record: turns[1].rack: "
            "unknown tile 'Q4': 'Q' is not a colour (colours are R, B, K, Y, G)",
        ),
        (
            {"record": _draws("G4")},
            "record: turns[1].rack: unknown tile 'G4': this game's colours are R B K O",
        ),
        (
            # RBYK does not fit a game with yellow: the letters as read, and the
            # notation refused on its own once the record reads.
            {"record": _draws("Q4", {"colours": 6}), "notation": "RBYK"},
            "record: turns[1].rack: "
            "unknown tile 'Q4': 'Q' is not a colour (colours are R, B, K, O, G, Y)",
        ),
        (
            {"record": _draws("G4"), "notation": "RBYQ"},
            "'notation' must be 'RBKO' or 'RBYK', got 'RBYQ'",
        ),
    ],
)
def test_a_tile_the_record_lacks_is_named_in_the_requests_notation(
    request_: dict[str, Any], message: str
) -> None:
    """The record was read before the notation applied: 'colours are R B K O' under RBYK,
    where solve, validate, repair and bot said R B K Y."""
    with pytest.raises(MeldwiseError) as raised:
        review_rummikub(request_)
    assert str(raised.value) == message


def test_a_share_short_of_all_is_not_said_as_100_percent() -> None:
    """266 points placed of the 267 each turn's best play would place (R1 missed) was
    written "266 points placed (100%)", as if nothing had been missed."""
    runs = ["B10 B11 B12 B13", "B10 B11 B12 B13", "K10 K11 K12 K13", "K10 K11 K12 K13"]
    runs.append("O10 O11 O12 O13")
    table = ["R11 R12 R13", "R2 R3 R4"]
    record = {
        "turns": [
            _turn(1, "R11 R12 R13", ["R2 R3 R4"], table),
            _turn(2, "B1 B2", table, None),
            _turn(3, " ".join(runs) + " R1", table, [*table, *runs]),  # R1 goes on R2 R3 R4
        ]
    }
    answer = review_rummikub({"record": record, "objective": "points", "player": 0})
    (player,) = answer["players"]
    assert (player["placed"], player["possible"]) == (266, 267)
    text = describe_review(answer)
    assert "266 points placed (over 99%), the best play of each turn alone 267" in text
    with language("ja"):
        japanese = describe_review(answer)
    assert "266\u70b9(99%\u8d85)" in japanese  # 266点(99%超)


def test_one_turn_is_said_in_the_singular() -> None:
    """A player with one turn reviewed read "1 of 1 turns at the best"."""
    record = {"turns": [_turn(1, "R10 R11 R12 K1", [], ["R10 R11 R12"])]}
    text = describe_review(review_rummikub({"record": record}))
    assert text.startswith(
        "Player 0: 1 of 1 turn at the best; 3 tiles placed (100%), the best play of each turn"
        " alone 3 tiles\n"
    )
    points = describe_review(review_rummikub({"record": record, "objective": "points"}))
    assert points.startswith("Player 0: 1 of 1 turn at the best; 33 points placed (100%)")


def test_a_seat_with_no_turn_in_the_record_is_named_saying_so() -> None:
    """A record that ended before a seat's first turn left that seat out of the
    players' summaries, as if the game had one seat fewer."""
    record = {"turns": [_turn(1, "R10 R11 R12 K1", [], ["R10 R11 R12"])]}
    answer = review_rummikub({"record": record})
    assert [p["player"] for p in answer["players"]] == [0, 1]
    idle = answer["players"][1]
    assert (idle["turns"], idle["accuracy"], idle["series"]["turn"]) == (0, None, [])
    assert "\nPlayer 1: no turns in the record\n" in describe_review(answer)
    alone = review_rummikub({"record": record, "player": 1})
    assert (alone["turns"], [p["player"] for p in alone["players"]]) == ([], [1])


def test_the_turn_limit_counts_the_turns_reviewed_as_shanghais_review_does(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A record over the limit was refused even for a ``player`` whose turns are within
    it, where the Shanghai review counts the turns it reviews (docs/shanghai.md: its
    limits work as this review's); and one player's turns over it were said to be the
    record's."""
    monkeypatch.setattr(check_review, "__defaults__", (5,))  # most: MAX_REVIEW_TURNS
    record = {"turns": [_turn(n, "R1 R5", [], None) for n in range(1, 8)]}  # 4 and 3 turns
    with pytest.raises(MeldwiseError) as refused:
        review_rummikub({"record": record})
    assert str(refused.value) == (
        "the record has 7 turns; a review takes at most 5: review one player's turns at a"
        " time ('player')"
    )
    assert refused.value.places == ((("player",), "'player'"),)
    answer = review_rummikub({"record": record, "player": 1})
    assert [t["turn"] for t in answer["turns"]] == [2, 4, 6]
    record = {"turns": [_turn(n, "R1 R5", [], None) for n in range(1, 14)]}  # 7 and 6 turns
    with pytest.raises(MeldwiseError) as refused:
        review_rummikub({"record": record, "player": 0})
    # Said of the record, as a record's other errors are (it named no place over HTTP).
    assert str(refused.value) == "record: player 0 has 7 turns; a review takes at most 5"
    assert refused.value.places == ((("record",), "record"),)
    # Each seat over the limit too: reviewing one player's turns is no way on (it was
    # said to be, and each player's review was then refused).
    with pytest.raises(MeldwiseError) as refused:
        review_rummikub({"record": record})
    assert str(refused.value) == (
        "the record has 13 turns; a review takes at most 5, and each player with turns has"
        " more than that"
    )
    assert refused.value.places == ((("record",), "record"),)  # it named none
    # A seat with no turns is no way on either; one of 5 is.
    three = {"settings": {"players": 3}, "turns": record["turns"]}
    with pytest.raises(MeldwiseError, match="each player with turns has more than that"):
        review_rummikub({"record": three})
    fits = [_turn(n, "R1 R5", [], None) | {"player": min(n - 1, 1)} for n in range(1, 8)]
    with pytest.raises(MeldwiseError, match=r"review one player's turns at a time"):
        review_rummikub({"record": {"turns": fits}})  # 1 and 6 turns


def _spent(seconds: float) -> Limit:
    """A review's limit whose clock is already spent: no turn's best is proven."""
    return replace(Limit(seconds), deadline=max(0.0, time.perf_counter() - 10_000.0))


def test_figures_over_bests_not_proven_say_at_least(monkeypatch: pytest.MonkeyPatch) -> None:
    """At a 1 ms limit the summary read "17 placed (100%), the best play of each turn
    alone 17" with no turn's best proven: a sum of bests found is only at least the
    bests' sum, and a share of it no share of the best."""
    record = {
        "turns": [
            _turn(1, "R10 R11 R12 B1 K5", [], ["R10 R11 R12"]),
            _turn(2, "B1 B2 B3 K9", [], None),
        ]
    }
    proven = review_rummikub({"record": record})
    assert [p["proven"] for p in proven["players"]] == [True, True]
    assert proven["players"][0]["placed_share"] == 1.0
    text = describe_review(proven)
    assert (
        "Player 0: 1 of 1 turn at the best; 3 tiles placed (100%), the best play of each"
        " turn alone 3 tiles\n" in text
    )
    monkeypatch.setattr("solver.rummikub.game_wire.shared_limit", _spent)
    cut = review_rummikub({"record": record})
    assert all(t["best"]["status"] != "optimal" for t in cut["turns"])
    first = cut["players"][0]
    assert (first["proven"], first["placed"], first["possible"]) == (False, 3, 3)
    assert first["turns_at_best"] == 0
    text = describe_review(cut)
    assert "(100%)" not in text
    assert (
        "Player 0: 0 of 1 turn proven at the best; 3 tiles placed, the best play of each turn"
        " alone at least 3 tiles (the best found: not every best was proven)" in text
    )
    with language("ja"):
        japanese = describe_review(cut).splitlines()[0]
    # 出したのは3枚、各手番の最善手だけを合わせると少なくとも3枚: no share.
    assert "出したのは3枚、各手番の最善手だけを合わせると少なくとも3枚(" in japanese


def test_a_costliest_turn_short_of_a_best_not_proven_is_at_least_that_short(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A turn 3 tiles short of a best found but not proven was "3 tiles short"."""
    record = {"turns": [_turn(1, "R10 R11 R12 B1 K5", [], None)]}
    proven = describe_review(review_rummikub({"record": record}))
    assert "  turn 1: 3 tiles short, missed R10 R11 R12\n" in proven
    _found_not_proven(monkeypatch)
    answer = review_rummikub({"record": record})
    assert answer["players"][0]["proven"] is False
    text = describe_review(answer)
    assert "  turn 1: at least 3 tiles short, missed R10 R11 R12\n" in text
    with language("ja"):
        assert "1手目: 少なくとも3枚不足" in describe_review(answer)

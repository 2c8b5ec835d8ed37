"""The Shanghai game review: each turn's best points left equal an independent brute
force (tests/shanghai/brute.py), each player's own points left equal a count made
here from the record alone; a player who skipped going down or going out is flagged,
and nothing is flagged without proof; the player filter; bad records named by their
place; the command line (exit code 2 on bad input) and the wire."""

from __future__ import annotations

import copy
import io
import json
import re
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from meldwise.cli import main
from solver.cpsat import Limit, Status
from solver.errors import MeldwiseError
from solver.i18n import language
from solver.record import RecordError
from solver.shanghai.cli import describe_review
from solver.shanghai.contracts import Contract
from solver.shanghai.engine import GameSettings, Play
from solver.shanghai.game_wire import MAX_REVIEW_TURNS, ShanghaiReviewResponse, review_shanghai
from solver.shanghai.notation import Card
from solver.shanghai.record import read_record, record_to_dict
from solver.shanghai.result import LayOffs, Turn
from solver.shanghai.review import Best, PlayDone, TurnReview, review_game, review_to_dict
from solver.shanghai.rules import Rules
from tests.shanghai.brute import Laid, TurnBrute
from tests.shanghai.review_games import SKIPPED, SMALL, Record, game, game_text
from tests.shanghai.test_shanghai_record import random_game


@cache
def _review_text(name: str) -> str:
    return json.dumps(review_to_dict(review_game(read_record(game(name)))))


def reviewed(name: str) -> Record:
    loaded: Record = json.loads(_review_text(name))
    return loaded


# --- counted here, from the record alone -------------------------------------------------


def _after_plays(record: Record) -> dict[str, tuple[list[str], bool, bool]]:
    """Each play's hand after the plays (before the discard), whether the player was
    down before it and whether it went out (no card left after the discard), by the
    play's place: dealt, taken, drawn and bought cards, less the cards played (a swap
    gives a natural card for a joker)."""
    found = {}
    for h, hand in enumerate(record["hands"]):
        held = [Counter(cards) for cards in hand["deal"]["hands"]]
        down = [False] * len(held)
        for e, event in enumerate(hand["events"]):
            seat = event["seat"]
            if event["kind"] in ("take", "draw", "buy"):
                held[seat].update(event["cards"])
            if event["kind"] != "play":
                continue
            play = event["play"]
            for swap in play["swaps"]:
                held[seat][swap["card"]] -= 1
                held[seat]["JK"] += 1
            for meld in play["melds"]:
                held[seat].subtract(meld)
            held[seat].subtract(lay["card"] for lay in play["lay_offs"])
            left = sorted((+held[seat]).elements())
            if play["discard"] is not None:
                held[seat][play["discard"]] -= 1
            found[f"hands[{h}].events[{e}]"] = (left, down[seat], not +held[seat])
            down[seat] = down[seat] or bool(play["melds"])
    return found


def brute_best(review: TurnReview, rules: Rules) -> tuple[bool, int]:
    """(goes out, fewest points left after the plays) by the brute force; a player not
    down who cannot go down keeps the hand."""
    contract = None if review.down else review.contract
    slots = None
    if contract is not None:
        slots = [("set", n) for n in contract.sets] + [("run", n) for n in contract.runs]
    laid = [
        Laid(t.meld.kind.value, t.meld.cards, t.meld.stands_for, t.meld.first_place)
        for t in review.table
    ]
    found = TurnBrute(rules).best(list(review.hand), slots, laid)
    if found is None:
        assert not review.down, review
        return False, sum(rules.points(card) for card in review.hand)
    return found


# --- the tests ---------------------------------------------------------------------------


GAMES = ["small", "variant", "swap", "lazy"]


@pytest.mark.parametrize("name", GAMES)
def test_each_turns_best_is_the_brute_force_minimum_and_its_own_count_is_the_records(
    name: str,
) -> None:
    record = game(name)
    read = read_record(record)
    review = review_game(read)
    counted = _after_plays(record)
    plays = [p for hand in record["hands"] for p in hand["events"] if p["kind"] == "play"]
    assert len(review.turns) == len(plays) == len(counted)
    rules = read.settings.rules
    for turn in review.turns:
        left, down, out = counted[turn.event]
        assert (sorted(map(str, turn.done.left)), turn.down) == (left, down), turn.event
        assert turn.done.went_out == out, turn.event
        assert turn.done.points_left == sum(rules.points(Card.parse(c)) for c in left)
        assert turn.status is Status.OPTIMAL, turn.event
        assert turn.best is not None, turn.event
        out, points = brute_best(turn, rules)
        assert (turn.best.goes_out, turn.best.points_left) == (out, points), turn.event
        # The proven best is never worse than the recorded play.
        if not turn.done.went_out:
            assert turn.best.points_left <= turn.done.points_left, turn.event


def test_the_games_checked_hold_lay_offs_swaps_and_jokers_on_the_table() -> None:
    """The brute force is worth the positions it checks: turns of players down, lay-offs,
    a swap, jokers on the table, best plays going out and going down."""
    turns = [turn for name in GAMES for turn in reviewed(name)["turns"]]
    assert sum(turn["down"] for turn in turns) >= 10
    assert sum(bool(turn["play"]["lay_offs"]) for turn in turns) >= 5
    assert any(turn["play"]["swaps"] for turn in turns)
    assert sum(any("JK" in meld["cards"] for meld in turn["table"]) for turn in turns) >= 10
    assert sum(turn["best"]["goes_out"] for turn in turns) >= 4
    assert sum(turn["best"]["goes_down"] for turn in turns) >= 4


def test_a_bot_game_reviews_round_trip_through_the_wire() -> None:
    record = game("small")
    answer = review_shanghai({"record": record})
    assert answer == reviewed("small")
    ShanghaiReviewResponse.model_validate(answer)
    assert answer["status"] == "optimal"
    assert answer["time_capped"] is False
    # Greedy bots play each turn's best plays: every turn at the best.
    assert all(turn["at_best"] and not turn["problems"] for turn in answer["turns"])
    players = answer["players"]
    assert [p["player"] for p in players] == [0, 1]
    assert sum(p["turns"] for p in players) == len(answer["turns"])
    assert [p["turns_at_best"] for p in players] == [p["turns"] for p in players]
    assert [p["score"] for p in players] == record["scores"]
    assert [p["winner"] for p in players] == [s in record["winners"] for s in (0, 1)]
    first = answer["turns"][0]
    assert first["contract"] == {"sets": [3, 3], "runs": []}
    assert first["hand"] == sorted(first["hand"], key=lambda c: Card.parse(c))
    assert len(first["hand"]) == SMALL.hand_size + 1


def test_a_player_who_skipped_going_down_and_out_is_flagged_so() -> None:
    answer = reviewed("lazy")
    mine = [turn for turn in answer["turns"] if turn["player"] == 0]
    down = [t for t in mine if t["could_go_down"]]
    out = [t for t in mine if t["could_go_out"]]
    assert down
    assert out
    for turn in down + out:
        assert not turn["at_best"]
        assert turn["best"]["status"] == "optimal"
        assert turn["points_missed"] == turn["points_left"] - turn["best"]["points_left"] > 0
        assert (
            f"left {turn['points_missed']} more points in hand than the best play"
            f" ({turn['best']['points_left']})"
        ) in turn["problems"]
    assert all("could have gone down" in t["problems"] and not t["went_down"] for t in down)
    assert all(t["best"]["go_down"] is not None for t in down)
    assert all("could have gone out" in t["problems"] and t["best"]["goes_out"] for t in out)
    # The very turns where the lazy player laid nothing, its bot going down or out.
    game_text("lazy")
    skipped = SKIPPED["lazy"]
    assert set(skipped) == {"down", "out"}
    assert skipped["down"] in [[t["hand_number"], t["turn"]] for t in down]
    assert skipped["out"] in [[t["hand_number"], t["turn"]] for t in out]
    summary = answer["players"][0]
    assert summary["points_missed"] == sum(t["points_missed"] for t in mine)
    assert summary["turns_at_best"] == sum(t["at_best"] for t in mine)
    places = [{"hand_number": t["hand_number"], "turn": t["turn"]} for t in down]
    assert summary["could_go_down"] == places
    text = describe_review(answer)
    assert "Turns short of the best:" in text
    assert "could have gone down" in text
    # Seat 1 played as the bots do: nothing flagged.
    assert not any(t["problems"] for t in answer["turns"] if t["player"] == 1)


def test_a_turn_short_of_the_best_is_never_at_it_when_going_down_leaves_as_many_points() -> None:
    """Cards worth 0 points: the turn that skipped going down left as many points as the
    best, and was said at the best and short of it ("20 of 21 turns at the best", and
    listed under "Turns short of the best" as "could have gone down")."""
    answer = reviewed("lazy, no points")
    down = [t for t in answer["turns"] if t["could_go_down"]]
    assert down
    assert all(t["points_left"] == t["best"]["points_left"] == 0 for t in down)
    for turn in answer["turns"]:
        assert not (turn["at_best"] and turn["problems"]), turn["event"]
    summary = answer["players"][0]
    assert summary["turns_at_best"] == summary["turns"] - sum(
        bool(t["problems"]) for t in answer["turns"] if t["player"] == 0
    )


def test_the_docs_review_summary_is_what_the_command_writes_for_the_lazy_game() -> None:
    """docs/shanghai.md shows ``meldwise shanghai review game.json --player 0`` on the
    lazy game: its text block is the command's output, word for word (an empty hand
    was written "-" there, "(none)" everywhere else)."""
    doc = (Path(__file__).parents[2] / "docs" / "shanghai.md").read_text(encoding="utf-8")
    blocks = [part.split("```")[0] for part in doc.split("```text\n")[1:]]
    (shown,) = [block for block in blocks if "Turns short of the best:" in block]
    answer = review_shanghai({"record": game("lazy"), "player": 0})
    assert describe_review(answer, 0) == shown
    assert "the best leaves (none) (0 points)" in shown


def test_the_player_filter_reviews_that_seats_turns_alone() -> None:
    whole = reviewed("lazy")
    one = review_shanghai({"record": game("lazy"), "player": 1})
    assert one["turns"] == [t for t in whole["turns"] if t["player"] == 1]
    assert one["players"] == [whole["players"][1]]
    refused = _refusal({"record": game("lazy"), "player": 2})
    assert refused == "'player' must be 0 to 1, got 2"


def test_a_seat_with_no_turn_in_the_record_is_named_saying_so() -> None:
    """A record whose hand ended (here: was cut) before a seat's first play phase left
    that seat out of the players' summaries, as if the game had one seat fewer."""
    record = copy.deepcopy(game("small"))
    hand = record["hands"][0]
    first = next(e for e, event in enumerate(hand["events"]) if event["kind"] == "play")
    played = hand["events"][first]["seat"]
    hand["events"] = hand["events"][: first + 1]
    for key in ("end", "went_out", "hands_left", "points"):
        del hand[key]
    record["hands"], record["scores"], record["winners"] = [hand], [0, 0], None
    answer = review_shanghai({"record": record})
    assert [p["player"] for p in answer["players"]] == [0, 1]
    (idle,) = [p for p in answer["players"] if p["player"] != played]
    assert (idle["turns"], idle["turns_at_best"], idle["score"]) == (0, 0, 0)
    assert f"Player {idle['player']} (greedy {idle['player']}): no turns in the record\n" in (
        describe_review(answer)
    )
    alone = review_shanghai({"record": record, "player": idle["player"]})
    assert (alone["turns"], [p["player"] for p in alone["players"]]) == ([], [idle["player"]])


def test_a_search_stopped_by_the_clock_claims_nothing() -> None:
    """A limit with no time left: no turn's best is proven (but a contract that no
    hand could meet, which needs no search), none flagged, each said time capped."""
    review = review_game(read_record(game("lazy")), limit=Limit(1e-9))
    answer = review_to_dict(review)
    assert answer["time_capped"] is True
    assert answer["status"] == "unknown"
    for turn in answer["turns"]:
        assert not turn["problems"]
        assert turn["points_missed"] == 0
        if turn["at_best"] and not turn["went_out"]:
            # Proven without a search: no hand with these cards meets the contract.
            assert turn["status"] == "optimal"
            assert not turn["best"]["goes_down"]
            assert turn["contract"] is not None
        if turn["best"] is None:
            assert (turn["status"], turn["time_capped"]) == ("unknown", True)
    assert any(turn["best"] is None for turn in answer["turns"])
    assert "cut a search short" in describe_review(answer)


def test_figures_over_bests_not_proven_say_so() -> None:
    """With the clock spent the summary read "4 of 23 turns at the best; 0 points left
    in hand beyond the best plays": the points are beyond the plays found, not proven
    the best, and a turn not proven at the best may be at it."""
    proven = review_shanghai({"record": game("lazy"), "player": 0})
    (player,) = proven["players"]
    assert player["proven"] is True
    assert describe_review(proven, 0).startswith(
        f"Player 0 (greedy 0): {player['turns_at_best']} of {player['turns']} turns at the"
        f" best; {player['points_missed']} points left in hand beyond the best plays\n"
    )
    answer = review_to_dict(review_game(read_record(game("lazy")), limit=Limit(1e-9)))
    assert [p["proven"] for p in answer["players"]] == [False, False]
    text = describe_review(answer)
    for player in answer["players"]:
        assert (
            f"{player['turns_at_best']} of {player['turns']} turns proven at the best;"
            f" {player['points_missed']} points left in hand beyond the best plays found (not"
            " every best was proven)\n" in text
        )
    assert "beyond the best plays\n" not in text
    with language("ja"):
        japanese = describe_review(answer)
    assert "見つかった最善のプレイより" in japanese


def _judged(points: int, went_out: bool, best: int, out: bool, status: Status) -> TurnReview:
    """A turn of a player down, made up: it left ``points`` (or ``went_out``), the best
    found leaves ``best`` points (going out when ``out``) with ``status``."""
    card = Card.parse("5H")
    plays = LayOffs((), (), (card,) * (best // 5), 0, out, status)
    turn = Turn(None, plays, None, (), 0, (), status)
    done = PlayDone(Play(discard=card), False, went_out, (card,) * (points // 5), points)
    return TurnReview(
        1, 1, 0, "hands[0].events[0]", (card,) * 4, Contract((3,)), True, (), done,
        Best(status, turn, plays.left, best), status, False,
    )  # fmt: skip


def test_only_a_proven_best_makes_a_turn_at_the_best_and_going_out_is_always_at_it() -> None:
    # Out by discarding its last card (go_out_by_discard): 10 points before the discard,
    # the best 5; nothing is left at the end of the turn either way.
    out = _judged(10, True, 5, True, Status.OPTIMAL)
    assert (out.at_best, out.points_missed, out.problems) == (True, 0, ())
    # A best found but not proven, no better than the turn: neither at it nor short.
    unproven = _judged(5, False, 5, False, Status.FEASIBLE)
    assert (unproven.at_best, unproven.points_missed, unproven.problems) == (False, 0, ())
    assert _judged(5, False, 5, False, Status.OPTIMAL).at_best
    # A play found that leaves fewer: short by that much, said as not proven the best.
    short = _judged(20, False, 5, False, Status.FEASIBLE)
    assert (short.at_best, short.points_missed) == (False, 15)
    assert short.problems == (
        "left 15 more points in hand than a play the search found (5; not proven the best)",
    )
    missed = _judged(20, False, 0, True, Status.FEASIBLE)
    assert missed.could_go_out
    assert missed.problems[0] == "could have gone out"


def _refusal(request: Record) -> str:
    with pytest.raises(MeldwiseError) as error:
        review_shanghai(request)
    return str(error.value)


def _spoil_first_play(record: Record) -> tuple[int, Record]:
    events = record["hands"][0]["events"]
    at = next(i for i, e in enumerate(events) if e["kind"] == "play")
    events[at]["play"]["discard"] = "2C" if "2C" not in events[at - 1].get("cards", []) else "3C"
    return at, record


def test_a_bad_record_is_refused_naming_its_place() -> None:
    at, record = _spoil_first_play(copy.deepcopy(game("small")))
    message = _refusal({"record": record})
    assert message.startswith(f"record: hands[0].events[{at}] (hand 1, turn 1, seat ")
    assert "illegal: the discard" in message
    with pytest.raises(RecordError) as error:
        review_game(read_record(record))
    assert str(error.value).startswith(f"hands[0].events[{at}] (hand 1, turn 1")
    other = copy.deepcopy(game("small"))
    other["seed"] += 1
    assert "but seed" in _refusal({"record": other})
    assert _refusal({"record": {**game("small"), "hands": []}}).startswith("'record.hands'")


def test_a_record_of_too_many_turns_is_refused_before_any_solve() -> None:
    record = game("small")
    hand = record["hands"][0]
    plays = sum(e["kind"] == "play" for e in hand["events"])
    # Read, not replayed: the count is refused first (the copies would not replay).
    copies = MAX_REVIEW_TURNS // plays + 1
    long = {**record, "hands": [{**hand, "events": hand["events"] * copies}, *record["hands"][1:]]}
    message = _refusal({"record": long})
    assert message.startswith("the record has ")
    # With the way on (it said no more than the limit): one player at a time.
    assert message.endswith(
        f"turns; a review takes at most {MAX_REVIEW_TURNS}: review one player's turns at a"
        " time ('player')"
    )


def test_the_command_line_says_too_many_turns_with_its_flag(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # `meldwise game --game shanghai --option hand_size=5 | meldwise shanghai review -`
    # (1646 play phases) said only "the record has 1646 turns; a review takes at most
    # 1000": the way on, --player, was in the docs alone.
    record = game("small")
    hand = record["hands"][0]
    plays = sum(e["kind"] == "play" for e in hand["events"])
    copies = MAX_REVIEW_TURNS // plays + 1
    long = {**record, "hands": [{**hand, "events": hand["events"] * copies}, *record["hands"][1:]]}
    path = tmp_path / "long.json"
    path.write_text(json.dumps(long))
    assert main(["shanghai", "review", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: the record has ")
    assert err.endswith(": review one player's turns at a time (--player)\n")
    assert main(["shanghai", "review", str(path), "--lang", "ja"]) == 2
    assert capsys.readouterr().err.endswith("1人ずつ振り返ってください(--player)\n")


def test_the_command_line_reviews_a_file_or_stdin_and_refuses_bad_input(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def cli(argv: list[str], stdin: str = "") -> tuple[int, str, str]:
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
        code = main(["shanghai", "review", *argv])
        out, err = capsys.readouterr()
        return code, out, err

    path = tmp_path / "game.json"
    path.write_text(game_text("lazy"))
    code, out, err = cli([str(path), "--json"])
    assert (code, err) == (0, "")
    assert json.loads(out) == reviewed("lazy")
    code, out, err = cli(["-", "--player", "0"], game_text("lazy"))
    assert code == 0, err
    assert out.startswith("Player 0 (greedy 0): ")
    assert "Player 1" not in out
    assert "could have gone down: hand " in out
    assert "Solver: optimal" in out
    _at, spoilt = _spoil_first_play(game("lazy"))
    for argv, stdin, said in (
        (["-"], json.dumps(spoilt), "error: record: hands[0].events["),
        (["-"], "{", "error: standard input is not valid JSON"),
        ([str(tmp_path / "missing.json")], "", "error: cannot read"),
        (["-", "--player", "5"], game_text("lazy"), "error: --player must be 0 to 1, got 5"),
    ):
        code, out, err = cli(argv, stdin)
        assert (code, out) == (2, ""), argv
        assert err.startswith(said), err
        assert err.count("\n") == 1, err


def test_a_review_speaks_japanese_and_says_the_same_figures() -> None:
    english = reviewed("lazy")
    japanese = review_shanghai({"record": game("lazy"), "lang": "ja"})
    strip = {"problems"}
    assert [{k: v for k, v in t.items() if k not in strip} for t in japanese["turns"]] == [
        {k: v for k, v in t.items() if k not in strip} for t in english["turns"]
    ]
    problems = [p for t in japanese["turns"] for p in t["problems"]]
    assert problems
    assert all(not p.isascii() for p in problems)
    with language("ja"):
        text = describe_review(japanese)
    assert "could have gone" not in text
    assert "ダウンできた" in text
    assert "最善に届かなかった手番:" in text


@pytest.mark.parametrize(
    ("rules", "said"),
    [
        # Hand 3's two runs of 13 are 26 cards; a hand holds at most 21.
        (
            Rules(min_run_len=13),
            "no hand can ever hold the cards its contract lays (a hand not down grows only by"
            " buys): hand 3 (run of 13 + run of 13) needs 26 cards: a hand holds at most 21",
        ),
        # Hand 4's three sets of 6 need six wild cards; the game has five.
        (
            Rules(decks=1, jokers_per_deck=1, twos_wild=True, min_set_len=6),
            "hand 4: the contract (set of 6 + set of 6 + set of 6) cannot be met under these rules",
        ),
    ],
)
def test_a_game_of_a_hand_no_player_could_meet_is_reviewed_saying_so(
    rules: Rules, said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Its record was refused, settings a new game is now refused (the check came after
    such games were played): it could not be reviewed. Its review says of that hand
    alone why no player could ever meet its contract, as a new game's refusal does."""
    with pytest.raises(MeldwiseError, match=re.escape(said)):
        GameSettings(rules=rules, players=2, hands=4)
    settings = GameSettings(rules=rules, players=2, hands=4, max_turns=6, recorded=True)
    record = record_to_dict(random_game(settings, 11), ["ann", "bob"])
    assert len(record["hands"]) == 4
    review = review_shanghai({"record": record})
    assert len(review["notes"]) == 1
    assert review["notes"][0].startswith(said), review["notes"]
    assert review_shanghai({"record": record, "player": 1})["notes"] == review["notes"]
    standard = review_shanghai({"record": game("small")})
    assert standard["notes"] == []
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    assert main(["shanghai", "review", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"\n{review['notes'][0]}\nSolver: " in out

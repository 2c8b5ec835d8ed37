"""The Rummikub game engine: the deal, the turns, the pool running out, the end."""

from __future__ import annotations

from collections import Counter

import pytest

from solver.errors import MeldwiseError
from solver.i18n import language
from solver.rummikub import Rules, Tile, parse_tiles
from solver.rummikub.deal import full_set
from solver.rummikub.engine import (
    Action,
    Deal,
    End,
    Game,
    GameSettings,
    IllegalMove,
    Move,
    PoolEmpty,
)
from solver.rummikub.record import record_to_dict
from solver.rummikub.scoring import penalty

SMALL = Rules(colours=3, numbers=7, copies=1, jokers=1, opening_threshold=10)


def tiles(text: str) -> tuple[Tile, ...]:
    return tuple(parse_tiles(text))


def test_a_seed_deals_every_tile_once_fourteen_each() -> None:
    game = Game.new(GameSettings(players=3), seed=5)
    dealt = Counter(game.pool)
    for rack in game.racks:
        assert len(rack) == 14
        dealt.update(rack)
    assert dealt == full_set(Rules())
    assert len(game.pool) == 106 - 42
    again = Game.new(GameSettings(players=3), seed=5)
    assert again.racks == game.racks
    assert again.pool == game.pool
    assert Game.new(GameSettings(players=3), seed=6).racks != game.racks


def test_drawing_takes_the_pool_in_the_deal_order_and_passes_the_turn() -> None:
    game = Game.new(GameSettings(), seed=1)
    first = game.deal.pool[0]
    turn = game.apply(Move.draw())
    assert turn.action is Action.DRAW
    assert turn.drawn == first
    assert first in game.racks[0]
    assert len(game.racks[0]) == 15
    assert game.to_move == 1
    assert game.view().pool_size == 106 - 28 - 1


def test_an_illegal_play_is_refused_and_changes_nothing() -> None:
    settings = GameSettings(rules=SMALL, hand=5)
    deal = Deal(
        (tiles("R1 R2 R3 B7 K7"), tiles("R4 R5 R6 B1 B2")),
        tuple(
            sorted((full_set(SMALL) - Counter(tiles("R1 R2 R3 B7 K7 R4 R5 R6 B1 B2"))).elements())
        ),
    )
    game = Game(settings, deal)
    # 1+2+3 = 6 is under the opening threshold of 10.
    move = Move.play([tiles("R1 R2 R3")])
    assert game.problems(move) == ("the opening is worth 6 points, under the 10 needed",)
    with pytest.raises(IllegalMove, match="turn 1, player 0"):
        game.apply(move)
    assert game.racks[0] == list(tiles("R1 R2 R3 B7 K7"))
    assert game.table == ()
    # A play that places nothing is not a play, even one that leaves the table as it was.
    assert game.problems(Move.play([])) == (
        "a play must place at least one tile from the rack; draw instead",
    )


def test_opening_then_rearranging_then_going_out_ends_the_round() -> None:
    racks = (tiles("R3 R4 R5 B5 K5"), tiles("B1 B2 K1 K7 R7"))
    first = tiles("B3 R2 B4")
    rest = full_set(SMALL) - Counter(racks[0] + racks[1] + first)
    game = Game(
        GameSettings(rules=SMALL, hand=5), Deal(racks, first + tuple(sorted(rest.elements())))
    )
    game.apply(Move.play([tiles("R3 R4 R5")]))  # 12 points: opens
    assert game.opened == [True, False]
    game.apply(Move.draw())  # player 1 draws B3
    # B5 K5 need the R5 of the run, which cannot spare it: player 0 draws R2.
    assert game.problems(Move.play([tiles("R3 R4"), tiles("R5 B5 K5")])) != ()
    assert game.apply(Move.draw()).drawn == Tile.parse("R2")
    game.apply(Move.draw())  # player 1 draws B4
    turn = game.apply(Move.play([tiles("R2 R3 R4"), tiles("R5 B5 K5")]))
    assert turn.played == tiles("R2 B5 K5")
    assert game.over
    assert game.outcome is not None
    outcome = game.outcome
    assert outcome.end is End.OUT
    assert outcome.winners == (0,)
    left = 1 + 2 + 1 + 7 + 7 + 3 + 4  # B1 B2 K1 K7 R7 B3 B4
    assert outcome.penalties == (0, left)
    assert outcome.scores == (left, -left)
    assert outcome.turns == 5
    assert game.problems(Move.draw()) == ("the game is over",)


def test_the_view_shows_only_what_the_player_may_see() -> None:
    game = Game.new(GameSettings(players=3), seed=2)
    view = game.view(1)
    assert view.rack == tuple(game.racks[1])
    names = set(type(view).__dataclass_fields__)
    assert names == {
        "seat",
        "rack",
        "table",
        "opened",
        "rack_sizes",
        "pool_size",
        "turn",
        "settings",
        "history",
    }
    assert view.opponents() == [2, 0]
    hidden = view.unseen()
    assert sum(hidden.values()) == 106 - 14
    assert hidden == Counter(game.pool) + Counter(game.racks[0]) + Counter(game.racks[2])


def _blocked_game(rule: PoolEmpty | str) -> Game:
    """Two players who can never play: 1s and 7s of different colours, no jokers."""
    rules = Rules(colours=2, numbers=7, copies=1, jokers=0, opening_threshold=10)
    racks = (tiles("R1 B7"), tiles("B1 R7"))
    pool = tiles("R4 B4")
    return Game(
        GameSettings(rules=rules, hand=2, pool_empty=rule),  # type: ignore[arg-type]
        Deal(racks, pool + tiles("R2 R3 R5 R6 B2 B3 B5 B6")),
    )


def test_pool_empty_play_on_ends_after_a_full_round_of_passes() -> None:
    game = _blocked_game(PoolEmpty.PLAY_ON)
    while game.pool:
        game.apply(Move.draw())
    assert not game.over
    first = game.apply(Move.draw())
    assert first.action is Action.PASS
    assert not game.over
    game.apply(Move.draw())
    assert game.over
    outcome = game.outcome
    assert outcome is not None
    assert outcome.end is End.BLOCKED
    penalties = [penalty(rack, game.rules) for rack in game.racks]
    assert list(outcome.penalties) == penalties
    assert outcome.winners == tuple(i for i, p in enumerate(penalties) if p == min(penalties))
    assert list(outcome.scores) == [-p for p in penalties]


@pytest.mark.parametrize("rule", [PoolEmpty.END, "end"])
def test_pool_empty_end_stops_at_the_first_turn_without_a_play(rule: PoolEmpty | str) -> None:
    # The rule's word was kept as a string, which is no member: the game played
    # 'play_on', and writing its record failed (AttributeError).
    game = _blocked_game(rule)
    while game.pool:
        game.apply(Move.draw())
    game.apply(Move.draw())
    assert game.over
    assert game.outcome is not None
    assert game.outcome.end is End.BLOCKED
    assert record_to_dict(game)["settings"]["pool_empty"] == "end"


def test_settings_are_checked_and_round_trip() -> None:
    settings = GameSettings(rules=SMALL, players=3, hand=5, pool_empty=PoolEmpty.END)
    assert GameSettings.from_dict(settings.to_dict()) == settings
    with pytest.raises(MeldwiseError, match="players"):
        GameSettings(players=1)
    with pytest.raises(MeldwiseError, match="need 50 tiles"):
        GameSettings(rules=SMALL, players=5, hand=10)
    with pytest.raises(MeldwiseError, match="pool_empty"):
        GameSettings.from_dict({"pool_empty": "stop"})
    with pytest.raises(MeldwiseError, match="unknown game setting 'seats'"):
        GameSettings.from_dict({"seats": 2})
    # Values quoted as JSON writes them (a record's or a request's): not None, True.
    with pytest.raises(
        MeldwiseError, match="'hand' must be a whole number of tiles >= 1, got true"
    ):
        GameSettings.from_dict({"hand": True})
    with pytest.raises(MeldwiseError, match="got null"):
        GameSettings.from_dict({"pool_empty": None})


def test_a_deal_must_be_the_games_tiles() -> None:
    racks = (tiles("R1 R2"), tiles("R1 R3"))
    with pytest.raises(MeldwiseError, match="extra \\[R1\\]"):
        Game(GameSettings(rules=SMALL, hand=2), Deal(racks, ()))


def test_asking_for_the_result_before_the_end_is_refused_in_the_active_language() -> None:
    # The message was English inside language("ja"), where the engine's others are not.
    game = Game.new(GameSettings(), seed=1)
    with language("ja"), pytest.raises(IllegalMove, match="ゲームはまだ終わっていません"):
        game.result()


def test_a_bots_table_keeps_what_its_jokers_stand_for() -> None:
    """A play's table is written with each joker as the play reads it (``J(B1) K1``,
    the joker still standing for the B1 it stood for): plain, the group J K1 the
    solver keeps a table joker in reads as the run K1 K2, which under joker_retrieval
    "replace" the engine refuses (the joker left B1)."""
    from solver.rummikub import Limit, Objective, Position, solve
    from solver.rummikub.legality import check_play
    from solver.rummikub.strategy import move_of

    rules = Rules(
        colours=3,
        numbers=3,
        copies=1,
        jokers=1,
        min_set_len=2,
        opening_threshold=0,
        joker_retrieval="replace",
        max_jokers_per_set=1,
    )
    position = Position(tuple(parse_tiles("R2")), (tuple(parse_tiles("R1 J K1")),), True)
    move = move_of(solve(position, rules, Objective.TILES, limit=Limit(10)))
    assert move.table is not None
    assert sorted([t.written for t in tiles] for tiles in move.table) == [
        ["J(B1)", "K1"],
        ["R1", "R2"],
    ]
    verdict = check_play(position.rack, position.table, move.table, True, rules, must_place=True)
    assert verdict.legal, verdict.problems

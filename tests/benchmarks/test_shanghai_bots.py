"""benchmarks.shanghai_bots: the per-hand figures read from game records."""

from __future__ import annotations

import statistics

from benchmarks.shanghai_bots import by_hand
from solver.shanghai.bots import make_bot
from solver.shanghai.engine import Game, GameSettings
from solver.shanghai.record import record_to_dict


def test_by_hand_counts_what_the_game_shows() -> None:
    """One hand of four greedy bots: the mean penalty is the hand's, and the share not
    down is that of the seats owning no meld on the table at the hand's end."""
    game = Game.new(GameSettings(players=4, hands=1), 11)
    bots = [make_bot("greedy", seat) for seat in range(4)]
    while not game.over:
        game.apply(bots[game.to_move].choose(game.view()))
    figures = by_hand([record_to_dict(game, ["greedy"] * 4)])["greedy"][1]
    assert figures["points"] == statistics.fmean(game.results[0].points)
    owners = {item.owner for item in game.table}
    assert figures["not_down"] == (4 - len(owners)) / 4
    buys = sum(e.kind == "buy" for e in game.events[0])
    assert figures["buys"] == buys / 4

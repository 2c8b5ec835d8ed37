"""Rummikub bots: ``beginner``, ``greedy`` and ``strong`` behind one interface.

A bot sees only a :class:`~solver.rummikub.engine.View` (its own rack, the table,
the pool size, every rack size, who has opened, the public history) and answers a
:class:`~solver.rummikub.engine.Move`. Bots are deterministic: the same view and
seed give the same move on any machine and under any load, because the solves of a
move share one budget of CP-SAT's deterministic work
(:func:`~solver.rummikub.strategy.move_limit`), with the clock only as a generous
safety cap (a solve that the cap stops raises
:class:`~solver.rummikub.strategy.BotError` rather than play a move that a rerun
might not repeat).

* ``beginner`` plays something legal but never rearranges the table: the most
  rack tiles in new sets of its own, then single tiles added to the ends of runs
  or the free colours of groups.
* ``greedy`` makes the best play every turn: the most tiles (the solver's answer).
* ``strong`` plays to win; its policy is :class:`~solver.rummikub.strategy.Strategy`.
"""

from __future__ import annotations

from collections.abc import Callable

from solver.arena.game import Bot as AnyBot
from solver.arena.game import UnknownBot
from solver.arguments import checked
from solver.cpsat import Limit, note_reads
from solver.errors import MeldwiseError
from solver.i18n import _, listed
from solver.rummikub.engine import Move, View
from solver.rummikub.legality import check_play
from solver.rummikub.melds import read_meld, readings
from solver.rummikub.notation import Tile
from solver.rummikub.result import Play
from solver.rummikub.strategy import (
    Decision,
    Strategy,
    best_play,
    decide,
    move_limit,
    move_of,
    own_sets,
    table_of,
)

Bot = AnyBot[View, Move]
"""A Rummikub bot: ``choose(view) -> move``."""


class Greedy:
    """The best play every turn: the most tiles (see :func:`best_play`)."""

    name = "greedy"

    def best(self, view: View) -> tuple[Move, Play]:
        """The move and the best play it makes, from the one solve."""
        play = best_play(view.position, view.rules)
        return move_of(play, view), play

    def choose(self, view: View) -> Move:
        return self.best(checked(view, View, "view"))[0]


class Beginner:
    """New sets from its own rack, then single tiles onto the ends of table sets;
    never takes a set apart."""

    name = "beginner"

    def best(self, view: View) -> tuple[Move, Play]:
        """The move and the best play it is measured against, their solves sharing one
        move's budget (:func:`move_limit`): before opening the move is the best play
        (one solve); after it the best play is one solve more, after the move's own."""
        limit = move_limit()
        move, play = self._move(view, limit)
        if play is None:
            play = best_play(view.position, view.rules, limit)
        return move, play

    def choose(self, view: View) -> Move:
        return self._move(checked(view, View, "view"), move_limit())[0]

    def _move(self, view: View, limit: Limit) -> tuple[Move, Play | None]:
        """The move within ``limit``, with the best play when the move is it (before
        opening), else None."""
        position = view.position
        if not position.opened:
            play = best_play(position, view.rules, limit)
            return move_of(play, view), play
        # Sets from the rack alone: the opening model with no threshold and no table.
        own = own_sets(view.rack, view.rules, limit)
        table = [list(tiles) for tiles in view.table] + [list(t) for t in table_of(own)]
        left = list(own.rack_left)
        placed = len(own.played)
        added = True
        extended: set[int] = set()
        while added:
            added = False
            for tile in list(left):
                target = _fits_on(tile, table, view)
                if target is not None:
                    target.append(tile)
                    extended.add(id(target))
                    left.remove(tile)
                    placed += 1
                    added = True
        # A tile added lies at the end of its set's list: each set it extended is
        # written as the table reads it, a run low to high and each joker with the tile
        # it stands for (it answered R3 R4 R5 R2, and R3 R4 R5 J, leaving unsaid the
        # tile a joker stands for, which under "replace" decides the turns after). The
        # reading is the one the engine gives the list: the move is the same.
        table = [
            list(read_meld(tiles, view.rules).written) if id(tiles) in extended else tiles
            for tiles in table
        ]
        return (Move.play(table) if placed else Move.draw()), None


def _fits_on(tile: Tile, table: list[list[Tile]], view: View) -> list[Tile] | None:
    """The first table set that ``tile`` extends as it stands, or None. Under
    ``joker_retrieval: "replace"`` the whole move must also pass the legality checker:
    K17 added to the group ``J B17`` takes the place the joker may stand for, so the
    joker would have to leave, which that rule forbids. Each set read is charged to the
    game's work (:func:`note_reads`): the table and the rack grow with the game, and
    with them this Python, which no solve counts."""
    rules = view.rules
    read = 0
    try:
        for tiles in table:
            read += 1
            if not readings([*tiles, tile], rules):
                continue
            if rules.replace_jokers:
                tiles.append(tile)
                legal = check_play(view.rack, view.table, table, True, rules).legal
                read += len(table)
                tiles.pop()
                if not legal:
                    continue
            return tiles
        return None
    finally:
        note_reads(read)


class Strong:
    """Plays to win: the policy of :func:`~solver.rummikub.strategy.decide`."""

    name = "strong"

    def __init__(self, strategy: Strategy | None = None) -> None:
        self.strategy = strategy or Strategy()

    def decide(self, view: View) -> Decision:
        """The move with the best play it was weighed against and the reason."""
        return decide(view, self.strategy)

    def choose(self, view: View) -> Move:
        return self.decide(checked(view, View, "view")).move


BOTS: dict[str, Callable[[int], Bot]] = {
    "beginner": lambda _seed: Beginner(),
    "greedy": lambda _seed: Greedy(),
    "strong": lambda _seed: Strong(),
}
"""Bot name -> a factory taking the bot's seed."""


def make_bot(name: str, seed: int = 0) -> Bot:
    """The bot called ``name``, seeded with ``seed``. ``strong:KNOB=VALUE+...`` is the
    strong bot with some :class:`Strategy` knobs changed (for experiments).

    Raises :class:`~solver.arena.game.UnknownBot` for a name of no bot, and a
    :class:`~solver.errors.RequestError` for a name that is no string or a seed that is
    no whole number."""
    name, seed = checked(name, str, "name"), checked(seed, int, "seed")
    base, _sep, knobs = name.partition(":")
    if base == "strong" and knobs:
        try:
            return Strong(Strategy.parse(knobs))
        except MeldwiseError as error:
            raise UnknownBot(_("bot {name!r}: {error}", name=name, error=error)) from None
    factory = BOTS.get(name)
    if factory is None and "=" in name and ":" not in name:
        # A knob after a comma (--bots "strong:hurry_rack=3,stuck=set"), read as a seat.
        raise UnknownBot(
            _(
                "unknown bot {name!r}: a strong bot's knobs are joined with '+'"
                " (strong:hurry_rack=3+stuck=set), for commas separate the seats",
                name=name,
            )
        )
    if factory is None:
        raise UnknownBot(_("unknown bot {name!r}; bots are {bots}", name=name, bots=listed(BOTS)))
    return factory(seed)

"""A whole Rummikub game: the deal, the turns, the end of the round.

The game follows the rules the turn solver follows (:class:`~solver.rummikub.rules.Rules`):
every tile of the game is shuffled from a seed and each player is dealt
``GameSettings.hand`` tiles (14). On a turn the player either plays (the table
after the play must pass :func:`~solver.rummikub.legality.check_play`: an opening of
at least ``opening_threshold`` from the rack alone, then free rearrangement) or
draws one tile from the pool. A player who empties the rack ends the round.

**The pool runs out** (``GameSettings.pool_empty``):

* ``play_on`` (default, the official rule): with the pool empty a player who does
  not play passes; when every player has passed in a row nobody can play, and the
  round ends;
* ``end``: the round ends at the first turn where a player does not play and the
  pool is empty.

A round that ends without an empty rack is *blocked*: the player(s) with the
lowest rack penalty (face values, a joker ``joker_penalty``) win it. Scores are
those of :func:`~solver.rummikub.scoring.score_round`: a player who went out scores
the sum of the others' penalties, everyone else minus their own penalty (in a
blocked round, everyone minus their own penalty).

The engine imports nothing of the web service; bots and the tournament runner
drive it through :meth:`Game.view`, :meth:`Game.problems` and :meth:`Game.apply`.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from solver.arena.game import Result, check_seed
from solver.arguments import checked, checked_items, checked_seat, listed, wrong
from solver.errors import CountError, MeldwiseError, RulesError, quoted
from solver.i18n import _, _n, alternatives, clauses
from solver.rummikub.deal import full_set
from solver.rummikub.legality import check_play
from solver.rummikub.notation import Tile, format_tiles
from solver.rummikub.position import Position
from solver.rummikub.rules import STANDARD, Rules
from solver.rummikub.scoring import penalty, score_round
from solver.settings import check_game_settings, settings_read
from solver.values import Pasted
from solver.written import shortened

Table = tuple[tuple[Tile, ...], ...]
"""The sets on the table, each a tuple of tiles."""


class IllegalMove(MeldwiseError):
    """A move the rules do not allow; the message says which turn and why."""


class PoolEmpty(Pasted):
    """What happens once the pool is empty (see the module docstring)."""

    PLAY_ON = "play_on"
    """A player who does not play passes; a full round of passes ends the round."""
    END = "end"
    """The round ends at the first turn a player does not play."""

    @classmethod
    def read(cls, value: object) -> PoolEmpty:
        """``value`` as the rule: one, or its word (``"play_on"``, ``"end"``).

        Raises :class:`~solver.errors.RulesError` quoting anything else."""
        for rule in cls:
            if value is rule or value == rule.value:
                return rule
        raise RulesError(
            _(
                "'pool_empty' must be {choices}, got {value!r:.60}",
                choices=alternatives([repr(p.value) for p in cls]),
                value=quoted(value),
            )
        )


class Action(Pasted):
    """What a turn did."""

    PLAY = "play"
    DRAW = "draw"
    PASS = "pass"
    """Did not play, and the pool was empty."""


class End(Pasted):
    """How a round ended."""

    OUT = "out"
    """A player emptied their rack."""
    BLOCKED = "blocked"
    """The pool ran out and the round ended by the ``pool_empty`` rule."""


MAX_PLAYERS = 8


@dataclass(frozen=True, slots=True)
class GameSettings:
    """The settings of a whole game; the turn rules are ``rules``."""

    rules: Rules = STANDARD
    players: int = 2
    hand: int = 14
    """Tiles dealt to each player."""
    pool_empty: PoolEmpty = PoolEmpty.PLAY_ON

    def __post_init__(self) -> None:
        checked(self.rules, Rules, "rules")
        # The rule's word ("end", as from_dict reads it) was kept as a string, which is
        # no member: the game played 'play_on' and its record failed to be written.
        object.__setattr__(self, "pool_empty", PoolEmpty.read(self.pool_empty))
        if isinstance(self.players, bool) or not isinstance(self.players, int):
            raise RulesError(
                _(
                    "{name!r} must be a whole number, got {value!r:.60}",
                    name="players",
                    value=quoted(self.players),
                )
            )
        if not 2 <= self.players <= MAX_PLAYERS:
            raise RulesError(
                _(
                    "{name!r} must be {lowest} to {highest}, got {value}",
                    name="players",
                    lowest=2,
                    highest=MAX_PLAYERS,
                    value=self.players,
                )
            ).naming("players")
        if isinstance(self.hand, bool) or not isinstance(self.hand, int) or self.hand < 1:
            raise RulesError(
                _(
                    "'hand' must be a whole number of tiles >= 1, got {value!r:.60}",
                    value=quoted(self.hand),
                )
            )
        tiles = sum(full_set(self.rules).values())
        if self.players * self.hand > tiles:
            raise RulesError(
                _(
                    "{players} hands of {hand} need {needed} tiles, the game has {tiles}",
                    players=self.players,
                    hand=self.hand,
                    needed=self.players * self.hand,
                    tiles=tiles,
                )
            )

    @classmethod
    def read(cls, data: Mapping[str, Any], where: str) -> GameSettings:
        """:meth:`from_dict` for the settings at ``where`` in a request or a record: an
        error names its place (``settings.rules: rule 'jokers' ...``)."""
        return settings_read(cls.from_dict, data, Rules, where)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameSettings:
        """Read settings written by :meth:`to_dict` (any subset; the rest default)."""
        check_game_settings(data, ("hand", "players", "pool_empty", "rules"))
        return cls(
            rules=Rules.from_dict(data.get("rules")),
            players=data.get("players", 2),
            hand=data.get("hand", 14),
            pool_empty=data.get("pool_empty", PoolEmpty.PLAY_ON),
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "rules": self.rules.to_dict(),
            "players": self.players,
            "hand": self.hand,
            "pool_empty": self.pool_empty.value,
        }


@dataclass(frozen=True, slots=True)
class Move:
    """A player's move: the table after a play, or ``None`` to draw (to pass when
    the pool is empty)."""

    table: Table | None = None

    def __post_init__(self) -> None:
        # Strings for tiles ("R1") failed deep in the legality check with an
        # AttributeError; each is refused here by its place (Tile.parse reads one).
        if self.table is not None:
            sets = tuple(
                checked_items(tiles, Tile, f"table[{index}]")
                for index, tiles in enumerate(listed(self.table, "table"))
            )
            object.__setattr__(self, "table", sets)

    @classmethod
    def draw(cls) -> Move:
        return cls(None)

    @classmethod
    def play(cls, table: Sequence[Sequence[Tile]]) -> Move:
        """The play that leaves ``table``: its sets, each a list of tiles.

        Raises :class:`~solver.errors.RequestError` naming the first set or tile that
        is not one (``table[0][1]``)."""
        return cls(listed(table, "table"))

    @property
    def is_draw(self) -> bool:
        return self.table is None


def added_tiles(before: Table, after: Table) -> tuple[Tile, ...]:
    """The tiles on ``after`` that were not on ``before`` (what a play placed)."""
    came = Counter(t for tiles in after for t in tiles)
    came.subtract(t for tiles in before for t in tiles)
    return tuple(sorted((+came).elements()))


@dataclass(frozen=True, slots=True)
class PublicTurn:
    """A past turn as every player saw it."""

    player: int
    action: Action
    played: tuple[Tile, ...] = ()


@dataclass(frozen=True, slots=True)
class View:
    """What the player ``seat`` may see on their turn, and nothing more."""

    seat: int
    rack: tuple[Tile, ...]
    table: Table
    opened: tuple[bool, ...]
    """Whether each player has opened."""
    rack_sizes: tuple[int, ...]
    """Tiles on each player's rack."""
    pool_size: int
    turn: int
    """Turns played before this one."""
    settings: GameSettings = field(default_factory=GameSettings)
    history: tuple[PublicTurn, ...] = ()

    @property
    def rules(self) -> Rules:
        return self.settings.rules

    @property
    def position(self) -> Position:
        """The turn as the solver sees it."""
        return Position(self.rack, self.table, self.opened[self.seat])

    @classmethod
    def facing(
        cls, position: Position, rules: Rules, opponents: Sequence[tuple[int, bool]]
    ) -> View:
        """The view of seat 0 facing ``position``, with ``opponents`` (rack size, opened)
        playing after it in order; the pool is every tile of the game on no rack and
        not on the table. Raises :class:`~solver.errors.MeldwiseError` when the
        opponents hold more tiles than are left."""
        sizes = [len(position.rack), *(size for size, _opened in opponents)]
        hidden = sum(full_set(rules).values()) - len(position.rack) - sum(map(len, position.table))
        pool = hidden - sum(sizes[1:])
        if pool < 0:
            raise CountError(
                _(
                    "the opponents hold {held}, but the rack and the table leave only {hidden}",
                    held=_n("{n} tile", "{n} tiles", sum(sizes[1:])),
                    hidden=_n("{n} tile", "{n} tiles", hidden),
                )
            )
        return cls(
            seat=0,
            rack=position.rack,
            table=position.table,
            opened=(position.opened, *(flag for _, flag in opponents)),
            rack_sizes=tuple(sizes),
            pool_size=pool,
            turn=0,
            settings=GameSettings(rules=rules, players=len(sizes), hand=1),
        )

    def opponents(self) -> list[int]:
        """The other seats, in the order they play after this one."""
        count = len(self.rack_sizes)
        return [(self.seat + k) % count for k in range(1, count)]

    def unseen(self) -> Counter[Tile]:
        """Tiles this player cannot see: the opponents' racks and the pool."""
        tiles = full_set(self.rules)
        tiles.subtract(self.rack)
        for tiles_of_set in self.table:
            tiles.subtract(tiles_of_set)
        return +tiles


@dataclass(frozen=True, slots=True)
class Turn:
    """One turn as it happened: the record of a game is a list of these."""

    number: int
    """1 for the first turn of the game."""
    player: int
    rack: tuple[Tile, ...]
    """The player's rack before the turn."""
    table_before: Table
    action: Action
    table_after: Table
    played: tuple[Tile, ...] = ()
    drawn: Tile | None = None


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a round."""

    end: End
    winners: tuple[int, ...]
    racks: tuple[tuple[Tile, ...], ...]
    penalties: tuple[int, ...]
    scores: tuple[int, ...]
    turns: int


def round_outcome(
    end: End, racks: tuple[tuple[Tile, ...], ...], rules: Rules, turns: int, mover: int
) -> Outcome:
    """The end of a round with ``racks`` left after ``turns`` turns: each rack's penalty
    and score; the winner is ``mover`` (the player who moved last) when they went out,
    else those with the lowest penalty."""
    penalties = tuple(penalty(rack, rules) for rack in racks)
    scores = score_round({str(i): rack for i, rack in enumerate(racks)}, rules)
    lowest = min(penalties)
    winners = tuple(i for i, cost in enumerate(penalties) if cost == lowest)
    if end is End.OUT:
        winners = (mover,)
    return Outcome(end, winners, racks, penalties, tuple(s.score for s in scores), turns)


@dataclass(frozen=True, slots=True)
class Deal:
    """The racks dealt and the pool in the order it is drawn."""

    racks: tuple[tuple[Tile, ...], ...]
    pool: tuple[Tile, ...]

    @classmethod
    def shuffle(cls, settings: GameSettings, seed: int) -> Deal:
        """Shuffle every tile of the game with ``random.Random(seed)`` and deal."""
        tiles = sorted(full_set(settings.rules).elements())
        random.Random(seed).shuffle(tiles)
        hand = settings.hand
        racks = tuple(
            tuple(sorted(tiles[i * hand : (i + 1) * hand])) for i in range(settings.players)
        )
        return cls(racks, tuple(tiles[settings.players * hand :]))

    def check(self, settings: GameSettings) -> None:
        """Raise :class:`MeldwiseError` unless this deal can start a game of ``settings``:
        one rack per player, each of ``hand`` tiles, every tile of the game exactly once."""
        if len(self.racks) != settings.players:
            raise CountError(
                _(
                    "the deal has {racks} racks for {players} players",
                    racks=len(self.racks),
                    players=settings.players,
                )
            )
        for seat, rack in enumerate(self.racks):
            if len(rack) != settings.hand:
                raise CountError(
                    _n(
                        "player {seat} was dealt {n} tile, the hand is {hand}",
                        "player {seat} was dealt {n} tiles, the hand is {hand}",
                        len(rack),
                        seat=seat,
                        hand=settings.hand,
                    )
                )
        dealt = Counter(self.pool)
        for rack in self.racks:
            dealt.update(rack)
        everything = full_set(settings.rules)
        if dealt != everything:
            # A long list by its first tiles and its count: a pool padded by hand.
            extra = shortened(sorted((dealt - everything).elements()), format_tiles)
            lacking = shortened(sorted((everything - dealt).elements()), format_tiles)
            raise CountError(
                _(
                    "the deal is not the game's tiles each once: extra [{extra}], missing"
                    " [{missing}]",
                    extra=extra or "-",
                    missing=lacking or "-",
                )
            )


class Game:
    """A round in progress. Seats are numbered from 0; seat 0 plays first.

    Made from its ``deal`` (the racks and the pool), and the ``seed`` that shuffled it
    when there was one: a record may give a round's deal without its seed, and
    :func:`~solver.rummikub.record.replay` plays that. Shanghai's ``Game(settings,
    seed)`` takes no deal, as it deals each of its hands from the seed as the game gets
    there. :meth:`new` (``Game.new(settings, seed)``) deals from a seed in both games.

    Raises :class:`~solver.errors.RequestError` naming ``settings`` or ``deal`` when it
    is not one (a seed given where the deal goes), and a
    :class:`~solver.errors.MeldwiseError` for a deal the settings do not allow."""

    def __init__(self, settings: GameSettings, deal: Deal, seed: int | None = None) -> None:
        settings = checked(settings, GameSettings, "settings")
        if not isinstance(deal, Deal):
            raise wrong("deal", _("a Deal (Game.new(settings, seed) deals one from a seed)"), deal)
        if seed is not None:
            check_seed(seed)  # else its record is refused when read back
        deal.check(settings)
        self.settings = settings
        self.deal = deal
        self.seed = seed
        self.racks: list[list[Tile]] = [list(rack) for rack in deal.racks]
        self.pool: list[Tile] = list(reversed(deal.pool))  # pop() draws the next tile
        self.table: Table = ()
        self.opened = [False] * settings.players
        self.player = 0
        self.turns: list[Turn] = []
        self.history: list[PublicTurn] = []
        self.passes = 0
        """Turns in a row without a play while the pool was empty."""
        self.outcome: Outcome | None = None

    @classmethod
    def new(cls, settings: GameSettings = GameSettings(), seed: int = 0) -> Game:
        """A game dealt from ``seed``: the same seed, the same game."""
        settings = checked(settings, GameSettings, "settings")  # before the deal reads it
        return cls(settings, Deal.shuffle(settings, seed), seed)

    @property
    def over(self) -> bool:
        return self.outcome is not None

    @property
    def to_move(self) -> int:
        return self.player

    def view(self, seat: int | None = None) -> View:
        """What ``seat`` (default: the player to move) sees."""
        seat = self.player if seat is None else checked_seat(seat, len(self.racks))
        return View(
            seat=seat,
            rack=tuple(self.racks[seat]),
            table=self.table,
            opened=tuple(self.opened),
            rack_sizes=tuple(len(rack) for rack in self.racks),
            pool_size=len(self.pool),
            turn=len(self.turns),
            settings=self.settings,
            history=tuple(self.history),
        )

    def problems(self, move: Move) -> tuple[str, ...]:
        """Why ``move`` is not legal for the player to move (empty when it is)."""
        if self.over:
            return (_("the game is over"),)
        if not isinstance(move, Move):
            return (
                _(
                    "a move is a Move (Move.play or Move.draw), not {move}",
                    move=type(move).__name__,
                ),
            )
        if move.table is None:
            return ()
        rack = self.racks[self.player]
        opened = self.opened[self.player]
        verdict = check_play(rack, self.table, move.table, opened, self.rules, must_place=True)
        return tuple(
            p.reason if p.set is None else _("set {index}: {reason}", index=p.set, reason=p.reason)
            for p in verdict.problems
        )

    @property
    def rules(self) -> Rules:
        return self.settings.rules

    def apply(self, move: Move) -> Turn:
        """Make ``move`` for the player to move; raise :class:`IllegalMove` if it breaks
        the rules (the game is then unchanged)."""
        problems = self.problems(move)
        if problems:
            raise IllegalMove(
                _(
                    "turn {turn}, player {player}: {problems}",
                    turn=len(self.turns) + 1,
                    player=self.player,
                    problems=clauses(problems),
                )
            )
        seat, rack, before = self.player, tuple(self.racks[self.player]), self.table
        if move.table is not None:
            tiles = added_tiles(before, move.table)
            left = Counter(rack)
            left.subtract(tiles)
            self.racks[seat] = sorted(left.elements())
            self.table = move.table
            self.opened[seat] = True
            self.passes = 0
            turn = Turn(len(self.turns) + 1, seat, rack, before, Action.PLAY, move.table, tiles)
        elif self.pool:
            drawn = self.pool.pop()
            self.racks[seat] = sorted([*rack, drawn])
            turn = Turn(len(self.turns) + 1, seat, rack, before, Action.DRAW, before, drawn=drawn)
        else:
            self.passes += 1
            turn = Turn(len(self.turns) + 1, seat, rack, before, Action.PASS, before)
        self.turns.append(turn)
        self.history.append(PublicTurn(seat, turn.action, turn.played))
        self._end_or_next(turn)
        return turn

    def result(self) -> Result:
        """The end of the game for the tournament runner (the game must be over)."""
        if self.outcome is None:
            raise IllegalMove(_("the game is not over"))
        out = self.outcome
        return Result(out.winners, out.scores, out.turns, out.end.value)

    def _end_or_next(self, turn: Turn) -> None:
        if not self.racks[turn.player]:
            self.outcome = self._outcome(End.OUT)
        elif turn.action is Action.PASS and (
            self.settings.pool_empty is PoolEmpty.END or self.passes >= self.settings.players
        ):
            self.outcome = self._outcome(End.BLOCKED)
        else:
            self.player = (self.player + 1) % self.settings.players

    def _outcome(self, end: End) -> Outcome:
        racks = tuple(tuple(rack) for rack in self.racks)
        return round_outcome(end, racks, self.rules, len(self.turns), self.player)

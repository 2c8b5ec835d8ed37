"""Game review: each turn of a recorded game beside the best play it had.

For every turn (of every player, or of one) the review solves the position the
player faced afresh (their rack and the table before, as the record gives them, and
whether they had opened: made a legal play on an earlier turn, for an illegal play
is taken back in the game and opens nothing) and reports what was played, the best
play's tiles and points (proven optimal unless a search stopped first, which
``status`` says; an unproven best is at least the turn's own play, and no turn is said
to be at the best unless the best is proven), the tiles the best play would have
placed that stayed on the rack (``missed``), and the problems of an illegal turn.

Per player: the share of turns at the best (``accuracy``), the tiles placed beside
the sum of each turn's best play taken alone (a tile held back counts on every turn it
could have been played; only at least that sum, ``proven`` false, when a turn's best
was not proven), the turns that missed most, and
the turn-by-turn series (columns of equal length, ready to plot). A turn whose
position is not one of the game (an earlier illegal turn left an invalid set on
the table, a tile the rules do not have) cannot be solved: it is listed as
``unreviewed`` with the reason and left out of the player's figures.

"Best" means the most tiles (or, with ``objective: points``, the most points) on
this turn alone; a player may hold tiles back on purpose (see the strong bot), so
a missed tile is a fact about the turn, not a verdict on the game.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from solver.arguments import checked, checked_or_none
from solver.cpsat import Limit, Status
from solver.errors import MeldwiseError
from solver.i18n import _
from solver.record import RecordError, check_player, reviewed_seats
from solver.rummikub.engine import Action, Turn
from solver.rummikub.legality import check_play
from solver.rummikub.notation import Tile, spell, written_sets
from solver.rummikub.position import Objective, Position
from solver.rummikub.record import GameRecord
from solver.rummikub.result import Play
from solver.rummikub.rules import Rules
from solver.rummikub.search import solve
from solver.rummikub.steps import rack_tiles

COSTLIEST = 3
"""Turns listed per player as the costliest."""


@dataclass(frozen=True, slots=True)
class TurnReview:
    """One turn beside its best play."""

    turn: Turn
    opened: bool
    """Whether the player had opened before this turn: made a legal play on an earlier
    one (an illegal play, an opening under the threshold say, does not open)."""
    best: Play | None
    """A fresh solve of the position the player faced; None when that position is not
    one of the game (an earlier illegal turn left an invalid set, a tile the rules do
    not have): see ``unreviewed``."""
    problems: tuple[str, ...]
    """Why the turn breaks the rules; empty for a legal turn."""
    rules: Rules
    unreviewed: str | None = None
    """Why the position could not be solved."""

    @property
    def legal(self) -> bool:
        return not self.problems

    @property
    def tiles_played(self) -> int:
        return len(self.turn.played) if self.legal else 0

    @property
    def points_played(self) -> int:
        return sum(self.rules.value(t) for t in self.turn.played) if self.legal else 0

    @property
    def missed(self) -> tuple[Tile, ...]:
        """Tiles of the best play still on the rack after the turn."""
        kept = Counter(self.best.played if self.best else ())
        if self.legal:
            kept.subtract(self.turn.played)
        return tuple(sorted((+kept).elements()))

    def score(self, objective: Objective) -> tuple[int, int]:
        """(this turn's score, the best score) in ``objective``'s unit; an unreviewed
        turn's best is taken as its own score. A best the search did not prove is at
        least the turn's own (a legal turn is a play too): never a negative shortfall."""
        points = objective is Objective.POINTS
        done = self.points_played if points else self.tiles_played
        if self.best is None:
            return done, done
        best = self.best.points_played if points else self.best.tiles_played
        return done, best if self.best.status is Status.OPTIMAL else max(best, done)

    def at_best(self, objective: Objective) -> bool:
        """Whether the turn is proven to reach the best: a legal turn as good as a best
        play that the search proved."""
        done, best = self.score(objective)
        proven = self.best is not None and self.best.status is Status.OPTIMAL
        return self.legal and proven and done >= best


@dataclass(frozen=True, slots=True)
class Review:
    """A game reviewed (:func:`review_game`): each turn beside its best play, and the
    record reviewed (its players' names and result), as Shanghai's review holds it."""

    turns: tuple[TurnReview, ...]
    record: GameRecord
    objective: Objective
    player: int | None = None
    """The seat whose turns alone were reviewed; None for every seat."""

    @property
    def players(self) -> int:
        """The number of seats in the game reviewed."""
        return self.record.settings.players

    @property
    def status(self) -> Status:
        """The least proven of the turns' best plays: optimal when every one was
        proven (a turn not reviewed has none), as Shanghai's review says it."""
        status = Status.OPTIMAL
        for turn in self.turns:
            if turn.best is not None:
                status = status.worst(turn.best.status)
        return status

    @property
    def time_capped(self) -> bool:
        """Whether the time limit, not the fixed work bound, cut any turn's search."""
        return any(turn.best.time_capped for turn in self.turns if turn.best is not None)


def review_game(
    record: GameRecord,
    *,
    player: int | None = None,
    objective: Objective = Objective.TILES,
    limit: Limit | None = None,
) -> Review:
    """Review every turn of ``record`` (only ``player``'s when given), each solve
    within ``limit`` (the defaults when None): its ``time`` for each turn's solve, and
    all of them within its deadline when it was started (:meth:`Limit.afresh`).

    Raises a :class:`~solver.errors.MeldwiseError` for a record whose turns are not
    numbered 1, 2, 3, ..., and for an argument of the wrong kind: a record not read by
    :func:`~solver.rummikub.record.read_record`, a ``player`` that is no seat, an
    unknown ``objective``."""
    record = checked(record, GameRecord, "record")
    check_player(player, record.settings.players)
    objective = Objective.read(objective)
    limit = checked_or_none(limit, Limit, "limit") or Limit()
    rules = record.settings.rules
    _check_order(record)
    opened = [False] * record.settings.players
    reviewed = []
    for turn in record.turns:
        had_opened = opened[turn.player]
        problems = _problems(turn, had_opened, rules)
        if turn.action is Action.PLAY and not problems:
            opened[turn.player] = True  # an illegal opening is taken back: not opened
        if player is not None and turn.player != player:
            continue
        position = Position(turn.rack, turn.table_before, had_opened)
        try:
            best = solve(position, rules, objective, limit=limit.afresh(), least_disruption=False)
        except MeldwiseError as error:
            reviewed.append(TurnReview(turn, had_opened, None, problems, rules, str(error)))
            continue
        reviewed.append(TurnReview(turn, had_opened, best, problems, rules))
    return Review(tuple(reviewed), record, objective, player)


def _check_order(record: GameRecord) -> None:
    """Refuse turns that are not numbered 1, 2, 3, ... with none left out: who had
    opened is read from the turns before, so a record missing its first turns (or some
    in between) had the plays of a player who opened in them judged as openings, and
    called illegal ("a player who has not opened may not touch the table")."""
    for index, turn in enumerate(record.turns):
        if turn.number != index + 1:
            raise RecordError(
                _(
                    "{where}: numbered {number}, expected {expected}: a review reads who had"
                    " opened from every turn before, so the turns are numbered 1, 2, 3, ..."
                    " with none left out",
                    where=_("turns[{index}] (turn {number})", index=index, number=turn.number),
                    number=turn.number,
                    expected=index + 1,
                )
            ).at(f"turns[{index}]")


def _problems(turn: Turn, opened: bool, rules: Rules) -> tuple[str, ...]:
    if turn.action is not Action.PLAY:
        return ()
    before, after = turn.table_before, turn.table_after
    verdict = check_play(turn.rack, before, after, opened, rules, must_place=True)
    return tuple(
        p.reason
        if p.set is None
        else _("set {index} after: {reason}", index=p.set, reason=p.reason)
        for p in verdict.problems
    )


def review_to_dict(review: Review) -> dict[str, Any]:
    """The wire response: overall status, the turns, and a summary per player: every
    seat reviewed, one with no turn too (``turns`` 0), named and scored from the record
    the review holds."""
    record = review.record
    seats = reviewed_seats(review.players, review.player)
    names = record.players
    return {
        "status": review.status.value,
        "objective": review.objective.value,
        "time_capped": review.time_capped,
        "turns": [_turn_to_dict(r, review.objective) for r in review.turns],
        "players": [
            _player_to_dict(seat, names[seat] if names else None, review, record) for seat in seats
        ],
    }


def _turn_to_dict(r: TurnReview, objective: Objective) -> dict[str, Any]:
    done, best = r.score(objective)
    return {
        "turn": r.turn.number,
        "player": r.turn.player,
        "action": r.turn.action.value,
        "opened": r.opened,
        "rack": _tiles(r.turn.rack),
        # As the record writes them, a joker with its bracket (J(R4)).
        "table_before": written_sets(r.turn.table_before),
        "table_after": written_sets(r.turn.table_after),
        "played": _tiles(r.turn.played),
        "drawn": None if r.turn.drawn is None else spell(r.turn.drawn),
        "tiles_played": r.tiles_played,
        "points_played": r.points_played,
        "best": None
        if r.best is None
        else {
            "status": r.best.status.value,
            "played": _tiles(r.best.played),
            "tiles": r.best.tiles_played,
            "points": r.best.points_played,
            # Each joker with the tile it stands for, as table_after writes it.
            "table": written_sets(m.written for m in r.best.table),
            # Set by set, the tiles laid from the rack: a table copy of one is not.
            "from_rack": [_tiles(t) for t in rack_tiles(r.best.steps, r.best.set_numbers)],
            "from_rack_places": [list(at) for at in r.best.rack_places],
            "time_capped": r.best.time_capped,
        },
        "missed": _tiles(r.missed),
        "shortfall": best - done,
        "at_best": r.at_best(objective),
        "legal": r.legal,
        "problems": list(r.problems),
        "unreviewed": r.unreviewed,
    }


def _player_to_dict(
    seat: int, name: str | None, review: Review, record: GameRecord
) -> dict[str, Any]:
    seated = [r for r in review.turns if r.turn.player == seat]
    mine = [r for r in seated if r.best is not None]
    objective = review.objective
    done = sum(r.score(objective)[0] for r in mine)
    possible = sum(r.score(objective)[1] for r in mine)
    at_best = sum(r.at_best(objective) for r in mine)
    # Summed over bests the search did not prove, ``possible`` is only at least the sum
    # of the turns' bests (each counts as the best found, or the turn's own when more).
    proven = all(r.best is not None and r.best.status is Status.OPTIMAL for r in mine)
    costly = sorted(
        (r for r in mine if r.score(objective)[1] > r.score(objective)[0]),
        key=lambda r: (-(r.score(objective)[1] - r.score(objective)[0]), r.turn.number),
    )[:COSTLIEST]
    outcome = record.outcome
    return {
        "player": seat,
        "name": name,
        "turns": len(mine),
        "turns_at_best": at_best,
        "accuracy": at_best / len(mine) if mine else None,
        "placed": done,
        "possible": possible,
        "placed_share": done / possible if possible else None,
        "proven": proven,
        "illegal_turns": [r.turn.number for r in seated if not r.legal],
        "unreviewed_turns": [r.turn.number for r in seated if r.best is None],
        "costliest": [
            {
                "turn": r.turn.number,
                "shortfall": r.score(objective)[1] - r.score(objective)[0],
                "missed": _tiles(r.missed),
            }
            for r in costly
        ],
        "series": {
            "turn": [r.turn.number for r in mine],
            "played": [r.score(objective)[0] for r in mine],
            "best": [r.score(objective)[1] for r in mine],
            "rack_after": [_rack_after(r) for r in mine],
        },
        "score": None if outcome is None else outcome.scores[seat],
        "winner": None if outcome is None else seat in outcome.winners,
    }


def _rack_after(r: TurnReview) -> int:
    """Tiles on the rack after the turn: an illegal play is taken back."""
    return len(r.turn.rack) - r.tiles_played + (r.turn.drawn is not None)


def _tiles(tiles: Sequence[Tile]) -> list[str]:
    """Tiles in the active notation (:func:`~solver.rummikub.notation.spelling`)."""
    return [spell(t) for t in tiles]

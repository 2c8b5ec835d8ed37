"""Shanghai game review: each play phase of a recorded game beside the best one.

The record is replayed through the engine (:func:`~solver.shanghai.record.replay`,
which checks every event), and each turn's play phase (the player's, or every
player's) is taken as the engine had it after the draw: the hand, the contract
(for a player not yet down), the table. What the review says of a turn, and nothing
more:

* what the player did: went down or not, the lay-offs and swaps, went out or not,
  and the penalty points and cards left in hand after the plays (before the
  discard), counted from the record's play;
* the best play phase as :func:`~solver.shanghai.search.solve_turn` finds it, by
  its goals in order: go out whenever the rules allow it, then the fewest penalty
  points left in hand after the plays (before the discard); with its ``status``:
  ``optimal`` proven, ``feasible`` a legal play the search found before a work or
  time bound stopped it (the best may leave fewer points), ``unknown`` none found.
  A player not down whose contract cannot be met this turn (proven) has no play:
  the best leaves the hand as it is;
* the problems, only where proven: "could have gone out" and "could have gone down"
  (a legal play the search found does so, and the player's did not), "left N more
  points" (a legal play found leaves N fewer). A turn that went out is at the best
  (no card is left at the end of the turn); any other is at the best only when
  the best is proven, the turn leaves no more points than it, and it went down if
  the best does.

The draw and the discard are choices with no proven best: the review does not judge
them. Each turn's solve stops at a fixed deterministic work (the same answer on any
machine) or, as the outer cap, at the limit's wall-clock time (each turn's own, within
the limit's deadline when it was started: the whole review's), which ``time_capped``
then says.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from solver.arguments import checked, checked_or_none
from solver.cpsat import Limit, Status
from solver.i18n import _
from solver.record import check_player, reviewed_seats
from solver.shanghai.contracts import Contract
from solver.shanghai.engine import Game, Move, Play
from solver.shanghai.melds import TableMeld
from solver.shanghai.notation import JOKER, Card
from solver.shanghai.position import Phase
from solver.shanghai.record import GameRecord, play_to_dict, replay
from solver.shanghai.result import Turn
from solver.shanghai.rules import Rules
from solver.shanghai.scoring import penalty
from solver.shanghai.search import could_go_down, solve_turn
from solver.shanghai.wire import go_down_to_dict, lay_offs_to_dict, meld_to_dict


@dataclass(frozen=True, slots=True)
class PlayDone:
    """What the player's recorded play phase did."""

    play: Play
    went_down: bool
    went_out: bool
    """No card left at the end of the turn."""
    left: tuple[Card, ...]
    """The hand after the plays, before the discard."""
    points_left: int


@dataclass(frozen=True, slots=True)
class Best:
    """The best play phase the search found for the turn."""

    status: Status
    turn: Turn | None
    """The plays; None when there is none: a player not down whose contract cannot be
    met this turn (proven: ``status`` optimal) keeps the hand as it is."""
    left: tuple[Card, ...]
    """The hand after the best plays, before the discard."""
    points_left: int

    @property
    def goes_out(self) -> bool:
        return self.turn is not None and self.turn.goes_out

    @property
    def goes_down(self) -> bool:
        return self.turn is not None and self.turn.go_down is not None


@dataclass(frozen=True, slots=True)
class TurnReview:
    """One play phase beside the best one."""

    hand_number: int
    turn: int
    """The hand's turn, from 1."""
    seat: int
    event: str
    """The play's place in the record (``hands[0].events[7]``)."""
    hand: tuple[Card, ...]
    """The hand after the draw."""
    contract: Contract
    down: bool
    """Whether the player was down before the turn."""
    table: tuple[TableMeld, ...]
    """The table before the play phase."""
    done: PlayDone
    best: Best | None
    """None when the search stopped before finding a play (``status`` unknown)."""
    status: Status
    time_capped: bool
    """Whether the wall-clock cap (not the deterministic work bound) stopped the solve."""

    @property
    def could_go_out(self) -> bool:
        """A legal play found goes out, and the player's did not."""
        return self.best is not None and self.best.goes_out and not self.done.went_out

    @property
    def could_go_down(self) -> bool:
        """A legal play found goes down, and the player did not (the best of a player
        already down never goes down: it is solved without a contract)."""
        return self.best is not None and self.best.goes_down and not self.done.went_down

    @property
    def points_missed(self) -> int:
        """Points the player left in hand beyond a legal play found (0 when it went
        out, or when the play found leaves no fewer)."""
        if self.best is None or self.done.went_out:
            return 0
        return max(0, self.done.points_left - self.best.points_left)

    @property
    def at_best(self) -> bool:
        """Proven as good as the best: went out, or the best is proven, does not go
        out, leaves no fewer points than the turn did, and goes down only if the turn
        did (cards worth 0 points, as settings may make them, go down leaving as many
        points: such a turn was called at the best and short of it, 'could have gone
        down')."""
        if self.done.went_out:
            return True
        best = self.best
        return (
            best is not None
            and best.status is Status.OPTIMAL
            and not best.goes_out
            and not self.could_go_down
            and self.done.points_left <= best.points_left
        )

    @property
    def problems(self) -> tuple[str, ...]:
        """The shortfalls proven, in words."""
        found: list[str] = []
        if self.could_go_out:
            found.append(_("could have gone out"))
        if self.could_go_down:
            found.append(_("could have gone down"))
        missed = self.points_missed
        if missed and self.best is not None:
            if self.best.status is Status.OPTIMAL:
                found.append(
                    _(
                        "left {n} more points in hand than the best play ({points})",
                        n=missed,
                        points=self.best.points_left,
                    )
                )
            else:
                found.append(
                    _(
                        "left {n} more points in hand than a play the search found"
                        " ({points}; not proven the best)",
                        n=missed,
                        points=self.best.points_left,
                    )
                )
        return tuple(found)


@dataclass(frozen=True, slots=True)
class Review:
    """A game reviewed (:func:`review_game`): each play phase beside the best one, and
    the record reviewed, as Rummikub's review holds them."""

    turns: tuple[TurnReview, ...]
    record: GameRecord
    player: int | None = None
    """The seat whose turns alone were reviewed; None for every seat."""

    @property
    def players(self) -> int:
        """The number of seats in the game reviewed."""
        return self.record.settings.players

    @property
    def status(self) -> Status:
        """The least proven of the turns' searches (optimal for no turn)."""
        status = Status.OPTIMAL
        for turn in self.turns:
            status = status.worst(turn.status)
        return status

    @property
    def time_capped(self) -> bool:
        return any(turn.time_capped for turn in self.turns)

    @property
    def notes(self) -> tuple[str, ...]:
        """Each hand of the record whose contract no player could ever meet under its
        settings, or whose check of that did not settle, and why
        (:meth:`~solver.shanghai.engine.GameSettings.unmet_contract`: the cards of its
        melds beyond what a hand can ever hold, or melds the rules or the game's cards
        cannot lay, or may not): a new game is refused such settings, a record of one
        played is reviewed."""
        settings = self.record.settings
        found = (settings.unmet_contract(hand.number) for hand in self.record.hands)
        return tuple(note for note in found if note is not None)


def review_game(
    record: GameRecord, *, player: int | None = None, limit: Limit | None = None
) -> Review:
    """Review every play phase of ``record`` (only ``player``'s when given), each
    solved within ``limit`` (the defaults when None: each turn has the limit's time
    of its own, within the limit's deadline when it was started, see
    :meth:`Limit.afresh`, and the fixed deterministic work of :func:`solve_turn`).

    Raises :class:`~solver.record.RecordError` naming the place where the record
    breaks the rules or differs from its replay, and a
    :class:`~solver.errors.RequestError` for an argument of the wrong kind: a record
    not read by :func:`~solver.shanghai.record.read_record`, a ``player`` that is no
    seat."""
    record = checked(record, GameRecord, "record")
    check_player(player, record.settings.players)
    limit = checked_or_none(limit, Limit, "limit") or Limit()
    found: list[TurnReview] = []

    def watch(game: Game, move: Move, event: str) -> None:
        if isinstance(move, Play) and player in (None, game.player):
            found.append(_review_turn(game, move, event, limit))

    replay(record, watch)
    return Review(tuple(found), record, player)


def _review_turn(game: Game, play: Play, event: str, limit: Limit) -> TurnReview:
    seat = game.player
    view = game.view(seat)
    rules = view.rules
    position = view.position(Phase.PLAY)
    down = position.down
    hand = Counter(view.hand)
    table = tuple(item.meld for item in view.table)
    # A clock of the turn's own: the turns reviewed do not share the limit's time, only
    # its deadline when it was started (the review's outer cap).
    own = limit.afresh()
    contract = None if down else view.contract
    turn: Turn | None
    if contract is not None and not could_go_down(hand, contract, table, rules):
        turn, status = None, Status.OPTIMAL
    else:
        turn, status = solve_turn(hand, contract, table, position.unseen(rules), rules, limit=own)
    best: Best | None = None
    if turn is not None:
        left = turn.lay_offs.left
        best = Best(status, turn, left, penalty(left, rules))
    elif status is Status.OPTIMAL and not down:
        # Not down, no way to go down (proven): the only play phase lays nothing.
        best = Best(status, None, tuple(sorted(hand.elements())), penalty(hand.elements(), rules))
    elif status is Status.OPTIMAL:
        status = Status.UNKNOWN  # a down player's recorded play ended the turn legally
    return TurnReview(
        hand_number=view.hand_number,
        turn=game.turn + 1,
        seat=seat,
        event=event,
        hand=view.hand,
        contract=view.contract,
        down=down,
        table=view.table,
        done=_done(hand, play, rules),
        best=best,
        status=status,
        time_capped=own.capped,
    )


def _done(hand: Counter[Card], play: Play, rules: Rules) -> PlayDone:
    """The player's play phase counted from the play: a swap gives a card and takes a
    joker; the melds and the lay-offs leave the hand."""
    left = hand.copy()
    for swap in play.swaps:
        left[swap.card] -= 1
        left[JOKER] += 1
    for meld in play.melds:
        left.subtract(meld)
    left.subtract(lay.card for lay in play.lay_offs)
    cards = tuple(sorted((+left).elements()))
    gone = len(cards) - (play.discard is not None)
    return PlayDone(play, bool(play.melds), gone == 0, cards, penalty(cards, rules))


# --- the wire ---------------------------------------------------------------------------


def review_to_dict(review: Review) -> dict[str, Any]:
    """The wire response (:class:`~solver.shanghai.game_wire.ShanghaiReviewResponse`):
    the overall status, the turns, a summary per player: every seat reviewed, one with
    no turn too (``turns`` 0); the notes on hands whose contract could never be met."""
    seats = reviewed_seats(review.players, review.player)
    return {
        "status": review.status.value,
        "time_capped": review.time_capped,
        "turns": [_turn_to_dict(turn) for turn in review.turns],
        "players": [_player_to_dict(seat, review) for seat in seats],
        "notes": list(review.notes),
    }


def _cards(cards: Sequence[Card]) -> list[str]:
    return [str(card) for card in cards]


def _turn_to_dict(r: TurnReview) -> dict[str, Any]:
    best = r.best
    return {
        "hand_number": r.hand_number,
        "turn": r.turn,
        "player": r.seat,
        "event": r.event,
        "hand": _cards(r.hand),
        "contract": None if r.down else r.contract.to_dict(),
        "down": r.down,
        "table": [meld_to_dict(item.meld) for item in r.table],
        "play": play_to_dict(r.done.play),
        "went_down": r.done.went_down,
        "went_out": r.done.went_out,
        "left": _cards(r.done.left),
        "points_left": r.done.points_left,
        "cards_left": len(r.done.left),
        "best": None
        if best is None
        else {
            "status": best.status.value,
            "goes_out": best.goes_out,
            "goes_down": best.goes_down,
            "left": _cards(best.left),
            "points_left": best.points_left,
            "cards_left": len(best.left),
            "go_down": None if best.turn is None else go_down_to_dict(best.turn.go_down),
            "lay_offs": None if best.turn is None else lay_offs_to_dict(best.turn.lay_offs),
        },
        "status": r.status.value,
        "time_capped": r.time_capped,
        "points_missed": r.points_missed,
        "at_best": r.at_best,
        "could_go_out": r.could_go_out,
        "could_go_down": r.could_go_down,
        "problems": list(r.problems),
    }


def _player_to_dict(seat: int, review: Review) -> dict[str, Any]:
    mine = [turn for turn in review.turns if turn.seat == seat]
    record = review.record

    def where(turns: Sequence[TurnReview]) -> list[dict[str, int]]:
        return [{"hand_number": t.hand_number, "turn": t.turn} for t in turns]

    return {
        "player": seat,
        "name": record.players[seat],
        "turns": len(mine),
        "turns_at_best": sum(turn.at_best for turn in mine),
        "points_missed": sum(turn.points_missed for turn in mine),
        "could_go_out": where([t for t in mine if t.could_go_out]),
        "could_go_down": where([t for t in mine if t.could_go_down]),
        "unproven": where([t for t in mine if not t.at_best and not t.problems]),
        # Whether the figures above are of proven bests: points_missed is counted beyond
        # the plays found, and a turn not at the best may be at it, unless every turn's
        # best was proven (a turn that went out needs none).
        "proven": all(t.done.went_out or t.status is Status.OPTIMAL for t in mine),
        "score": record.scores[seat],
        "winner": None if record.winners is None else seat in record.winners,
    }

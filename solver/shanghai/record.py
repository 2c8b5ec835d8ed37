"""The record of a Shanghai game: a JSON object that replays it.

Format (``format`` ``meldwise-shanghai-game``, ``version`` 1)::

    {"format": "meldwise-shanghai-game", "version": 1, "seed": 7,
     "settings": {...GameSettings.to_dict()...}, "players": ["strong", "greedy", ...],
     "hands": [{"number": 1, "deal": {"hands": [[...], ...], "upcard": "7H",
                "stock": [...]},
               "events": [{"turn": 0, "seat": 1, "kind": "draw", "cards": ["9C"]},
                          {"turn": 0, "seat": 1, "kind": "play", "play": {...}}, ...],
               "end": "out", "went_out": 2, "hands_left": [[...], ...],
               "points": [15, 40, 0, 5]}, ...],
     "scores": [120, 75, 80, 210], "winners": [1]}

A play is ``{"melds": [[cards]...], "swaps": [{"meld", "position", "card"}],
"lay_offs": [{"card", "meld", "place"}], "discard": card or null}``. The seed and
the settings deal the same game again; the events are every decision made.

A hand not yet ended (the last of a game not over) has no ``end``, ``went_out``,
``hands_left`` nor ``points``; ``winners`` is written once the game is over. Events
number their turns from 0 within a hand; a message says turn 1 for turn 0, as the
engine's do. A declined upcard is no event: the ``pass`` of each player who then
declined to buy it is, and a ``reshuffle`` lists the new stock (drawn from its end).

:func:`read_record` reads a record into domain values (the models below are the
format's one definition), refusing one that does not agree with itself;
:func:`replay` deals every hand again from the seed and plays every event through the
engine's legality checks. Each error is a :class:`~solver.record.RecordError` whose
message names the place (``hands[1].events[7] (hand 2, turn 4, seat 3): ...``) and
quotes the card or field.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import Field

from solver.arena.runner import MAX_SEED
from solver.arguments import checked, checked_or_none
from solver.errors import MeldwiseError, quoted
from solver.i18n import _, _n, clauses
from solver.record import RecordError, RecordModel, StrictModel, read_model, seat_names, seats_named
from solver.shanghai.engine import (
    Buy,
    Draw,
    Event,
    Game,
    GameSettings,
    HandResult,
    LayOffMove,
    Move,
    Play,
    Step,
    SwapMove,
)
from solver.shanghai.notation import Card, format_cards
from solver.shanghai.scoring import penalty
from solver.wire import PlayerName
from solver.written import shortened

FORMAT: Literal["meldwise-shanghai-game"] = "meldwise-shanghai-game"
VERSION: Literal[1] = 1


def _cards(cards: Sequence[Card]) -> list[str]:
    return [str(c) for c in cards]


def play_to_dict(play: Play) -> dict[str, Any]:
    return {
        "melds": [_cards(m) for m in play.melds],
        "swaps": [
            {"meld": s.meld, "position": s.position, "card": str(s.card)} for s in play.swaps
        ],
        "lay_offs": [
            {"card": str(lay.card), "meld": lay.meld, "place": lay.place} for lay in play.lay_offs
        ],
        "discard": None if play.discard is None else str(play.discard),
    }


def _event(event: Event) -> dict[str, Any]:
    found: dict[str, Any] = {"turn": event.turn, "seat": event.seat, "kind": event.kind}
    if event.cards:
        found["cards"] = _cards(event.cards)
    if event.play is not None:
        found["play"] = play_to_dict(event.play)
    return found


def record_to_dict(game: Game, players: Sequence[str]) -> dict[str, Any]:
    """The record of ``game`` (finished or not) with the names of its seats (bot names;
    a name over the record's limit shortened, see :func:`~solver.record.seat_name`).

    ``players`` is required, where Rummikub's :func:`~solver.rummikub.record.record_to_dict`
    may leave it out: the Shanghai format names every seat (``players`` is a required
    field of the record, and its review names each seat's figures by it).

    Raises :class:`~solver.errors.RequestError` naming ``players`` when it is no list
    of one name per seat (:func:`~solver.record.seat_names`), and ``game`` when it is no
    :class:`Game` (an AttributeError once)."""
    game = checked(game, Game, "game")
    hands = []
    for index, deal in enumerate(game.deals):
        entry: dict[str, Any] = {
            "number": deal["number"],
            "deal": {
                "hands": [_cards(h) for h in deal["hands"]],
                "upcard": str(deal["upcard"]),
                "stock": _cards(deal["stock"]),
            },
            "events": [_event(e) for e in game.events[index]],
        }
        if index < len(game.results):
            result = game.results[index]
            entry |= {
                "end": result.end,
                "went_out": result.went_out,
                "hands_left": [_cards(h) for h in result.hands],
                "points": list(result.points),
            }
        hands.append(entry)
    answer: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "seed": game.seed,
        "settings": game.settings.to_dict(),
        "players": seat_names(players, game.settings.players),
        "hands": hands,
        "scores": list(game.scores),
    }
    if game.over:
        answer["winners"] = list(game.result().winners)
    return answer


# --- the JSON format ------------------------------------------------------------------


class SwapEntry(StrictModel):
    meld: int = Field(ge=0, description="the table meld, from 0")
    position: int = Field(ge=0, description="the joker's position in the meld, from 0")
    card: str = Field(description="the natural card given for the joker")


class LayOffEntry(StrictModel):
    card: str
    meld: int = Field(ge=0, description="the table meld, from 0 (melds laid this turn last)")
    place: int = Field(
        default=0, ge=0, le=14, description="on a run the run place (1 the low ace), on a set 0"
    )


class PlayEntry(StrictModel):
    """The play phase of a turn: swaps, the contract melds, lay-offs, the discard."""

    melds: list[list[str]] = Field(default_factory=list)
    swaps: list[SwapEntry] = Field(default_factory=list)
    lay_offs: list[LayOffEntry] = Field(default_factory=list)
    discard: str | None = Field(default=None, description="null only when no card is left")


class EventEntry(StrictModel):
    turn: int = Field(ge=0, description="the hand's turn, from 0")
    seat: int = Field(ge=0, description="the seat that acted, from 0")
    kind: Literal["take", "draw", "buy", "pass", "play", "reshuffle"]
    cards: list[str] = Field(
        default_factory=list,
        description="taken, drawn or bought cards; a reshuffle's new stock",
    )
    play: PlayEntry | None = Field(default=None, description="a play's moves")


class DealEntry(StrictModel):
    hands: list[list[str]] = Field(description="each seat's hand as dealt")
    upcard: str = Field(description="the card turned up to start the discard pile")
    stock: list[str] = Field(description="the undealt cards, drawn from the end")


class HandEntry(StrictModel):
    number: int = Field(ge=1, description="1 for the first hand")
    deal: DealEntry
    events: list[EventEntry]
    end: Literal["out", "blocked"] | None = Field(
        default=None, description="how the hand ended; absent while it goes on"
    )
    went_out: int | None = Field(default=None, ge=0, description="the seat that went out")
    hands_left: list[list[str]] | None = Field(
        default=None, description="each seat's cards at the end"
    )
    points: list[int] | None = Field(default=None, description="each seat's penalty points")


class GameRecordModel(RecordModel):
    """A Shanghai game record, version 1."""

    format: Literal["meldwise-shanghai-game"] = FORMAT
    version: int = Field(default=VERSION, ge=VERSION, le=VERSION, description="the version: 1")
    seed: int = Field(ge=0, le=MAX_SEED, description="the seed every hand is shuffled from")
    settings: dict[str, Any] = Field(
        default_factory=dict, description="rules, players, hands, hand_size, max_turns"
    )
    players: list[PlayerName] = Field(description="a name for each seat")
    hands: list[HandEntry] = Field(min_length=1, description="the hands dealt, in order")
    scores: list[int] = Field(description="each seat's total after the hands ended")
    winners: list[int] | None = Field(default=None, description="once the game is over")


# --- typed values ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DealRecord:
    hands: tuple[tuple[Card, ...], ...]
    upcard: Card
    stock: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class HandEnd:
    """How a hand ended, as recorded (:class:`~solver.shanghai.engine.HandResult`'s
    fields a record keeps)."""

    end: str
    went_out: int | None
    hands: tuple[tuple[Card, ...], ...]
    points: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class HandRecord:
    number: int
    deal: DealRecord
    events: tuple[Event, ...]
    end: HandEnd | None = None


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A Shanghai record read into domain values."""

    settings: GameSettings
    seed: int
    players: tuple[str, ...]
    hands: tuple[HandRecord, ...]
    scores: tuple[int, ...]
    winners: tuple[int, ...] | None = None


# --- reading --------------------------------------------------------------------------


def read_record(data: Any) -> GameRecord:
    """Read a Shanghai record (a JSON object) into typed values.

    Raises :class:`~solver.errors.MeldwiseError` naming the bad field or card: a
    :class:`~solver.record.RecordError` for a record that does not agree with itself
    (points that its hands left do not give, scores that are not their sums, a seat
    the game does not have).

    Cards have one notation, so this takes none; Rummikub's
    :func:`~solver.rummikub.record.read_record` takes the ``notation`` its errors write
    tiles in (orange as ``O`` or ``Y``), with a default, so ``read_record(data)`` reads
    a record of either game."""
    model = read_model(GameRecordModel, data)
    # Not refused for a contract no hand can meet (a check on new games added after such
    # games were played): the game was played all the same, and is reviewed.
    settings = GameSettings.read(model.settings, "settings", recorded=True)
    players = settings.players
    if len(model.players) != players:
        raise RecordError(seats_named(len(model.players), players)).naming("players")
    _check_count("scores", len(model.scores), players)
    if len(model.hands) > settings.hands:
        raise RecordError(
            _n(
                "'hands' has {n} hand, the game plays {hands}",
                "'hands' has {n} hands, the game plays {hands}",
                len(model.hands),
                hands=settings.hands,
            )
        ).naming("hands")
    hands = tuple(_read_hand(entry, index, settings) for index, entry in enumerate(model.hands))
    for index, hand in enumerate(hands[:-1]):
        if hand.end is None:
            raise RecordError(
                _("{where}: only the last hand may be without 'end'", where=f"hands[{index}]")
            ).at(f"hands[{index}]", "end")
    scores = tuple(model.scores)
    over = hands[-1].end is not None and len(hands) == settings.hands
    winners = None if model.winners is None else tuple(model.winners)
    if over and winners is None:
        raise RecordError(_("every hand has ended: the record needs 'winners'")).naming("winners")
    if not over and winners is not None:
        raise RecordError(_("'winners' is given, but the game is not over")).naming("winners")
    _check_totals(hands, scores, winners)
    return GameRecord(settings, model.seed, tuple(model.players), hands, scores, winners)


def _check_totals(
    hands: Sequence[HandRecord], scores: tuple[int, ...], winners: tuple[int, ...] | None
) -> None:
    """The scores are the sums of the hands' points, the winners the lowest scores."""
    summed = [sum(h.end.points[seat] for h in hands if h.end) for seat in range(len(scores))]
    lowest = [seat for seat, score in enumerate(scores) if score == min(scores)]
    if list(scores) != summed:
        name = "scores"
        problem = _(
            "{where} is {given}, but the hands' points add up to {right}",
            where=repr(name),
            given=list(scores),
            right=summed,
        )
    elif winners is not None and list(winners) != lowest:
        name = "winners"
        problem = _(
            "{where} is {given}, but the scores give {right}",
            where=repr(name),
            given=list(winners),
            right=lowest,
        )
    else:
        return
    raise RecordError(problem).naming(name)


def _check_count(where: str, count: int, players: int) -> None:
    """``where`` (a list with an entry per seat: ``scores``, ``hands[0].points``) has as
    many entries as seats; a top-level field is quoted as one (``'scores'``)."""
    if count != players:
        top = "." not in where
        error = RecordError(
            _n(
                "{where} has {n} entry for {players} players",
                "{where} has {n} entries for {players} players",
                count,
                where=repr(where) if top else where,
                players=players,
            )
        )
        raise error.naming(where) if top else error.at(where)


def _check_seat(where: str, seat: int, players: int) -> None:
    if seat >= players:
        raise RecordError(
            _(
                "{where}: {seat} is not a seat of {players} players",
                where=where,
                seat=seat,
                players=players,
            )
        ).at(where)


def _read_hand(entry: HandEntry, index: int, settings: GameSettings) -> HandRecord:
    where, players = f"hands[{index}]", settings.players
    if entry.number != index + 1:
        raise RecordError(
            _(
                "{where}: numbered {number}, expected {expected}",
                where=where,
                number=entry.number,
                expected=index + 1,
            )
        ).at(where, "number")
    _check_count(f"{where}.deal.hands", len(entry.deal.hands), players)
    _check_deal_sizes(entry.deal, where, settings)
    deal = DealRecord(
        tuple(_read_cards(h, f"{where}.deal.hands[{i}]") for i, h in enumerate(entry.deal.hands)),
        _read_cards([entry.deal.upcard], f"{where}.deal.upcard")[0],
        _read_cards(entry.deal.stock, f"{where}.deal.stock"),
    )
    events = tuple(
        _read_event(event, f"{where}.events[{i}]", players) for i, event in enumerate(entry.events)
    )
    end = _read_end(entry, where, players)
    if end is not None:
        _check_points(end, where, settings)
    return HandRecord(entry.number, deal, events, end)


def _check_deal_sizes(deal: DealEntry, where: str, settings: GameSettings) -> None:
    """Each dealt hand holds ``hand_size`` cards and the stock the rest but the upcard,
    as the settings deal them: said before the cards are read (a hand padded by hand
    with a million cards was read, sorted and compared with the seed's deal first)."""
    size = settings.hand_size
    for seat, held in enumerate(deal.hands):
        if len(held) != size:
            place = f"{where}.deal.hands[{seat}]"
            raise RecordError(
                _n(
                    "{where} has {n} card; the settings deal {size}",
                    "{where} has {n} cards; the settings deal {size}",
                    len(held),
                    where=place,
                    size=size,
                )
            ).at(place)
    cards = settings.cards
    dealt = size * settings.players
    if len(deal.stock) != cards - dealt - 1:
        place = f"{where}.deal.stock"
        raise RecordError(
            _n(
                "{where} has {n} card; the game's {cards} cards, less the {dealt} dealt and"
                " the upcard, are {stock}",
                "{where} has {n} cards; the game's {cards} cards, less the {dealt} dealt and"
                " the upcard, are {stock}",
                len(deal.stock),
                where=place,
                cards=cards,
                dealt=dealt,
                stock=cards - dealt - 1,
            )
        ).at(place)


def _read_end(entry: HandEntry, where: str, players: int) -> HandEnd | None:
    """The hand's end: ``end`` with ``hands_left`` and ``points`` (and ``went_out``
    when a player went out), or none of them; points that its hands left give."""
    given = {
        name: getattr(entry, name)
        for name in ("went_out", "hands_left", "points")
        if getattr(entry, name) is not None
    }
    if entry.end is None:
        if given:
            raise RecordError(
                _("{where}: '{field}' without 'end'", where=where, field=next(iter(given)))
            ).at(where, next(iter(given)))
        return None
    if entry.hands_left is None or entry.points is None:
        name = "hands_left" if entry.hands_left is None else "points"
        raise RecordError(
            _("{where}: a hand with 'end' needs '{field}'", where=where, field=name)
        ).at(where, name)
    _check_count(f"{where}.hands_left", len(entry.hands_left), players)
    _check_count(f"{where}.points", len(entry.points), players)
    if entry.went_out is not None:
        _check_seat(f"{where}.went_out", entry.went_out, players)
    left = tuple(_read_cards(h, f"{where}.hands_left[{i}]") for i, h in enumerate(entry.hands_left))
    return HandEnd(entry.end, entry.went_out, left, tuple(entry.points))


def _check_points(end: HandEnd, where: str, settings: GameSettings) -> None:
    right = [penalty(cards, settings.rules) for cards in end.hands]
    if list(end.points) != right:
        raise RecordError(
            _(
                "{where} is {given}, but the cards left in hand give {right}",
                where=f"{where}.points",
                given=list(end.points),
                right=right,
            )
        ).at(f"{where}.points")


def _read_event(entry: EventEntry, where: str, players: int) -> Event:
    _check_seat(f"{where}.seat", entry.seat, players)
    play = None
    if (entry.kind == "play") != (entry.play is not None):
        raise RecordError(_("{where}: a 'play' event, and no other, has 'play'", where=where)).at(
            where, "play"
        )
    if entry.play is not None:
        if entry.cards:
            raise RecordError(_("{where}: a 'play' event has no 'cards'", where=where)).at(
                where, "cards"
            )
        play = _read_play(entry.play, f"{where}.play")
    return Event(
        entry.turn, entry.seat, entry.kind, _read_cards(entry.cards, f"{where}.cards"), play
    )


def _read_play(entry: PlayEntry, where: str) -> Play:
    return Play(
        melds=tuple(_read_cards(m, f"{where}.melds[{i}]") for i, m in enumerate(entry.melds)),
        swaps=tuple(
            SwapMove(s.meld, s.position, _read_cards([s.card], f"{where}.swaps[{i}].card")[0])
            for i, s in enumerate(entry.swaps)
        ),
        lay_offs=tuple(
            LayOffMove(
                _read_cards([lay.card], f"{where}.lay_offs[{i}].card")[0], lay.meld, lay.place
            )
            for i, lay in enumerate(entry.lay_offs)
        ),
        discard=None
        if entry.discard is None
        else _read_cards([entry.discard], f"{where}.discard")[0],
    )


def _read_cards(words: Sequence[str], where: str) -> tuple[Card, ...]:
    """Cards as written, each quoted when it is no card."""
    try:
        return tuple(Card.parse(word) for word in words)
    except MeldwiseError as error:
        raise RecordError(_("{where}: {problem}", where=where, problem=error)).at(where) from None


# --- replaying ------------------------------------------------------------------------


Watcher = Callable[[Game, Move, str], None]
"""Called by :func:`replay` before each legal move is made: the game as the move finds
it, the move, and the path in the record of the event it makes first (a play's own:
``hands[0].events[3]``)."""


def replay(record: GameRecord, watch: Watcher | None = None) -> Game:
    """Play the record again and return the game as it ends (or as the record leaves
    it): each hand dealt from the seed and the settings (the recorded deal must be the
    one they deal), each event made through the engine's legality checks and compared
    with what the engine does, each hand's end, the scores and the winners compared with
    the replay's. ``watch`` (see :data:`Watcher`) sees each move before it is made
    (a game review reads each play's position so).

    Raises :class:`~solver.record.RecordError` at the first place the record breaks the
    rules or differs from the game, naming the hand, the event, its turn and seat, and
    :class:`~solver.errors.RequestError` naming ``record`` for one not read by
    :func:`read_record` (its dict).
    """
    record = checked(record, GameRecord, "record")
    # Anything but a function failed at the first move (TypeError: not callable).
    watch = checked_or_none(watch, Callable, "watch")  # type: ignore[arg-type]
    game = Game.new(record.settings, record.seed)
    for index, hand in enumerate(record.hands):
        if index >= len(game.deals):
            # A record read_record refuses (more hands than the game plays, one after a
            # hand without 'end'), built by hand: said, not an IndexError.
            where = f"hands[{index}]"
            raise RecordError(_("{where}: the game was already over", where=where)).at(where)
        _check_deal(game.deals[index], hand.deal, index, record.seed)
        _replay_hand(game, index, hand, watch)
        if hand.end is not None:
            _check_end(hand.end, game.results[index], f"hands[{index}]")
    if list(record.scores) != game.scores:
        raise RecordError(_replayed("'scores'", list(record.scores), game.scores)).naming("scores")
    if record.winners is not None:
        right = list(game.result().winners) if game.over else None
        if list(record.winners) != right:
            raise RecordError(_replayed("'winners'", list(record.winners), quoted(right))).naming(
                "winners"
            )
    return game


def _replayed(where: str, given: object, right: object) -> str:
    return _(
        "{where} is {given}, but the replay gives {right}", where=where, given=given, right=right
    )


def _check_deal(dealt: dict[str, Any], deal: DealRecord, index: int, seed: int) -> None:
    """The recorded deal is the one the seed deals (hands as sets of cards, the upcard,
    the stock in its order: the first place it differs named)."""
    where = f"hands[{index}].deal"
    places: list[tuple[str, object, object]] = [
        (f"{where}.hands[{seat}]", sorted(given), sorted(right))
        for seat, (given, right) in enumerate(zip(deal.hands, dealt["hands"], strict=False))
    ]
    places.append((f"{where}.upcard", deal.upcard, dealt["upcard"]))
    stock, right_stock = list(deal.stock), list(dealt["stock"])
    # The first card that differs, then (every card alike so far) the length.
    places += [
        (f"{where}.stock[{i}]", given, right)
        for i, (given, right) in enumerate(zip(stock, right_stock, strict=False))
    ]
    if len(stock) != len(right_stock):
        places.append((f"{where}.stock", stock, right_stock))
    for place, given, right in places:
        if given != right:
            raise RecordError(
                _(
                    "{where} is {given}, but seed {seed} deals {right}",
                    where=place,
                    given=_shown(given),
                    seed=seed,
                    right=_shown(right),
                )
            ).at(place)


def _shown(value: object) -> str:
    """A card or cards as a message quotes them: ``7H``, ``[7H 8H JK]``; a long list by
    its first cards and its count (:func:`~solver.written.shortened`)."""
    if isinstance(value, list | tuple):
        return f"[{shortened(value, format_cards)}]"
    return str(value)


def _event_place(index: int, at: int, number: int, turn: int, seat: int) -> tuple[str, str]:
    """The path of event ``at`` of hand ``index`` and how a message says it."""
    path = f"hands[{index}].events[{at}]"
    said = _(
        "{where} (hand {number}, turn {turn}, seat {seat})",
        where=path,
        number=number,
        turn=turn + 1,
        seat=seat,
    )
    return path, said


def _replay_hand(game: Game, index: int, hand: HandRecord, watch: Watcher | None) -> None:
    """Make the hand's events in ``game``, each checked, until the hand ends or the
    record stops (a hand without ``end``)."""
    log = game.events[index]
    while len(game.results) <= index:
        at = len(log)
        move = _next_move(game, index, hand, at)
        if move is None:
            return
        problems = game.problems(move)
        if problems:
            path, said = _event_place(index, at, hand.number, game.turn, game.to_move)
            raise RecordError(
                _("{where}: illegal: {problem}", where=said, problem=clauses(problems))
            ).at(path)
        if watch is not None:
            watch(game, move, f"hands[{index}].events[{at}]")
        game.apply(move)
        _check_events(log[at:], hand, index, at)
    if len(hand.events) > len(log):
        extra = hand.events[len(log)]
        path, said = _event_place(index, len(log), hand.number, extra.turn, extra.seat)
        raise RecordError(_("{where}: the hand was already over", where=said)).at(path)


def _next_move(game: Game, index: int, hand: HandRecord, at: int) -> Move | None:
    """The move the record makes next in ``game``: a draw takes the upcard when the
    next event is a take; a buy answers as the next buy or pass does (a reshuffle for
    the penalty cards comes before it); a play is the next play. None when the record
    stops in a hand without ``end``."""
    events = hand.events
    step = game.step
    found = at
    if step is Step.BUY:
        found = next((i for i in range(at, len(events)) if events[i].kind != "reshuffle"), at)
    event = events[found] if found < len(events) else None
    if event is None and hand.end is None:
        return None
    if step is Step.DRAW:
        return Draw(take=event is not None and event.kind == "take")
    if event is None:
        raise RecordError(
            _(
                "{where}: the events end, but the hand goes on: seat {seat} is to move",
                where=f"hands[{index}]",
                seat=game.to_move,
            )
        ).at(f"hands[{index}]", "events")
    wanted = ("buy", "pass") if step is Step.BUY else ("play",)
    path, said = _event_place(index, found, hand.number, game.turn, game.to_move)
    if event.kind not in wanted:
        raise RecordError(
            _(
                "{where}: the replay asks for {wanted}, the record has '{kind}'",
                where=said,
                wanted=" / ".join(repr(kind) for kind in wanted),
                kind=event.kind,
            )
        ).at(path, "kind")
    if step is Step.BUY:
        return Buy(yes=event.kind == "buy")
    if event.play is None:  # read_record refuses it; a GameRecord built by hand may not
        raise RecordError(_("{where}: a 'play' event, and no other, has 'play'", where=said)).at(
            path, "play"
        )
    return event.play


def _check_events(made: Sequence[Event], hand: HandRecord, index: int, at: int) -> None:
    """The events the engine logged for a move, from event ``at`` on, are the
    record's."""
    for offset, done in enumerate(made):
        place = at + offset
        path, said = _event_place(index, place, hand.number, done.turn, done.seat)
        if place >= len(hand.events):
            raise RecordError(
                _(
                    "{where}: missing from the record: the replay gives a '{kind}' event",
                    where=said,
                    kind=done.kind,
                )
            ).at(path)
        event = hand.events[place]
        if event.kind != done.kind:
            raise RecordError(
                _(
                    "{where}: recorded as {recorded}, the game made it a {made}",
                    where=said,
                    recorded=event.kind,
                    made=done.kind,
                )
            ).at(path, "kind")
        for name, given, right in (
            ("seat", event.seat, done.seat),
            ("turn", event.turn, done.turn),
            ("cards", _shown(event.cards), _shown(done.cards)),
        ):
            if given != right:
                raise RecordError(
                    _(
                        "{where}: '{field}' is recorded as {recorded}, the replay gives {replayed}",
                        where=said,
                        field=name,
                        recorded=given,
                        replayed=right,
                    )
                ).at(path, name)


def _check_end(end: HandEnd, result: HandResult, where: str) -> None:
    """The hand's recorded end is the replay's: the first field that differs named."""
    for name, given, right in (
        ("end", repr(end.end), repr(result.end)),
        ("went_out", quoted(end.went_out), quoted(result.went_out)),
        *(
            (f"hands_left[{seat}]", _shown(sorted(g)), _shown(sorted(r)))
            for seat, (g, r) in enumerate(zip(end.hands, result.hands, strict=False))
        ),
        ("points", list(end.points), list(result.points)),
    ):
        if repr(given) != repr(right):
            raise RecordError(_replayed(f"{where}.{name}", given, right)).at(f"{where}.{name}")

"""A whole Shanghai game: ten hands, the draws, the buys, the plays and the scores.

The game follows the rules the advice follows (:class:`~solver.shanghai.rules.Rules`).
Each hand ``h`` (1 to ``GameSettings.hands``) has the standard contract of hand
``h``; its cards (``decks`` decks with their jokers) are shuffled from the game's
seed and the hand's number (so no deal depends on how earlier hands went),
``hand_size`` (11) are dealt to each player and one is turned up to start
the discard pile. The player after the dealer starts, the dealer moving one seat
each hand. A turn has two phases:

* **draw**: take the upcard, or draw from the stock. A player who does not take
  the upcard offers it to the others in seat order from the next player on (the
  *buy*): the first who is not down, has a buy left (``buys``, or
  ``buys_last_two_hands`` in hands 9-10) and says yes takes it with
  ``buy_penalty_cards`` stock cards. Then the player draws from the stock.
* **play**: a player not down may go down (lay the whole contract: the melds must
  be as many sets and runs as the contract, each at least its size), and with it
  swap table jokers for the cards they stand for and lay off on any meld; a player
  who is down may swap and lay off. The turn ends with a discard unless the player
  has no card left; by default the last card may not be discarded
  (``go_out_by_discard``).

The hand ends when a player has no card left; every player then scores the
penalty points of the cards in hand. When the stock runs out the discard pile
under the upcard is shuffled into a new stock; a hand still going after
``max_turns`` turns (or with no card left to draw) ends as *blocked* and is scored
the same way. After the last hand the lowest total wins (ties share).

The engine imports nothing of the web service. A player sees only a
:class:`View`; moves are :class:`Draw`, :class:`Buy` and :class:`Play`, judged by
:meth:`Game.problems` (the legality checker) before :meth:`Game.apply`.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from solver.arena.game import check_seed
from solver.arguments import checked, checked_items, checked_or_none, checked_seat
from solver.arguments import listed as listed_argument
from solver.errors import MeldwiseError, RulesError, quoted
from solver.i18n import _, _n, clauses, listed
from solver.settings import check_game_settings, settings_read
from solver.shanghai.contracts import HANDS, Contract, buys_allowed, most_cards
from solver.shanghai.deficiency import check_settled
from solver.shanghai.melds import InvalidMeld, Meld, MeldKind, TableMeld, read_meld
from solver.shanghai.notation import ALL_NATURALS, JOKER, Card, format_cards
from solver.shanghai.position import NextPlayer, Phase, Position
from solver.shanghai.rules import MAX_RUN_LEN, STANDARD, Rules
from solver.shanghai.scoring import penalty
from solver.values import Pasted

MAX_PLAYERS = 8


class IllegalMove(MeldwiseError):
    """A move the rules do not allow; the message says which turn and why."""


class Step(Pasted):
    """What the player to move is asked."""

    DRAW = "draw"
    BUY = "buy"
    PLAY = "play"


@dataclass(frozen=True, slots=True)
class GameSettings:
    """A whole game's settings; the card rules are ``rules``.

    A new game's settings are refused when a hand's contract can never be met under
    them, or when its check did not settle (:meth:`check_contracts`); ``recorded=True``
    builds the settings of a game already played, a record's, without that check: such
    a game was played all the same (its hands to a block), and its record stays
    readable (:meth:`unmet_contract` says why a hand could never be met, or may not)."""

    rules: Rules = STANDARD
    players: int = 4
    hands: int = HANDS
    """Hands played, 1 to ``hands`` (each with its standard contract)."""
    hand_size: int = 11
    max_turns: int = 200
    """Turns after which a hand ends blocked."""
    recorded: bool = field(default=False, compare=False, repr=False)
    """The settings of a game already played (a record's): not refused for a contract
    no hand can meet, only for what no game can be dealt or played under. Not part of
    what the settings are (equal settings are equal, either way), but kept by
    :func:`dataclasses.replace`: a record's settings replaced are still a record's (an
    init-only flag fell back to False and ran a new game's check on them)."""

    def __post_init__(self) -> None:
        checked(self.rules, Rules, "rules")  # else an AttributeError counting the cards
        for name, low, high in (
            ("players", 2, MAX_PLAYERS),
            ("hands", 1, HANDS),
            ("hand_size", 1, 30),
            ("max_turns", 1, 10_000),
        ):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise RulesError(
                    _(
                        "{name!r} must be a whole number {low} to {high}, got {value!r}",
                        name=name,
                        low=low,
                        high=high,
                        value=quoted(value),
                    )
                )
        cards = self.cards
        if self.players * self.hand_size + 1 > cards:
            # Said by players and cards dealt: "2 hands of 26 ..." read as the 'hands'
            # setting (the hands played) in "settings: 2 hands of 26 ...".
            raise RulesError(
                _(
                    "{players} players dealt {size} cards each and an upcard need {needed}"
                    " cards; the game has {cards}",
                    players=self.players,
                    size=self.hand_size,
                    needed=self.players * self.hand_size + 1,
                    cards=cards,
                )
            )
        if not self.recorded:
            self.check_contracts()

    @property
    def cards(self) -> int:
        """Every card of the game: ``decks`` of the 52 natural cards, and the jokers."""
        return len(ALL_NATURALS) * self.rules.decks + self.rules.jokers

    def check_contracts(self) -> None:
        """Raise :class:`~solver.errors.RulesError` when a hand's contract can never be
        met under these settings (a new game would play every such hand to a block), or
        may not be (its check did not settle): the first hand whose melds the rules or
        the game's cards cannot lay, or whose check of that did not settle
        (:func:`~solver.shanghai.deficiency.check_settled`), else every hand whose
        contract lays more cards than a hand can ever hold."""
        for number in range(1, self.hands + 1):
            self._check_contract(number)
        beyond = self._out_of_reach(range(1, self.hands + 1))
        if beyond is not None:
            raise RulesError(beyond)

    def unmet_contract(self, number: int) -> str | None:
        """Why no player can ever meet hand ``number``'s contract under these settings, or
        why that is not known (its check did not settle), as :meth:`check_contracts` says
        it of that hand alone; None when a hand may."""
        try:
            self._check_contract(number)
        except RulesError as error:
            return str(error)
        return self._out_of_reach([number])

    def _check_contract(self, number: int) -> None:
        """Refuse hand ``number``'s contract when the rules or the game's cards cannot
        lay its melds, or when the check of that did not settle."""
        try:
            contract = Contract.for_hand(number, self.rules)
            contract.check(self.rules)
            check_settled(contract, self.rules)
        except MeldwiseError as error:
            problem = _("hand {number}: {problem}", number=number, problem=error)
            raise RulesError(problem) from None

    def _out_of_reach(self, numbers: Iterable[int]) -> str | None:
        """Of the hands ``numbers``, those whose contract lays more cards than a hand can
        ever hold: the cards dealt and a draw, and for each buy the upcard and the
        penalty cards (:func:`~solver.shanghai.contracts.most_cards`), said; None when
        there is none. Every such hand would be played to a block."""
        beyond: dict[int, list[str]] = {}  # what each hand out of reach needs, by its buys
        for number in numbers:
            contract = Contract.for_hand(number, self.rules)
            buys = buys_allowed(number, self.rules)
            if most_cards(self.hand_size + 1, buys, self.rules) < contract.cards:
                needs = _(
                    "hand {number} ({contract}) needs {cards} cards",
                    number=number,
                    contract=contract,
                    cards=contract.cards,
                )
                beyond.setdefault(buys, []).append(needs)
        reasons = []
        for buys, hands in beyond.items():
            most = most_cards(self.hand_size + 1, buys, self.rules)
            penalty = _n("{n} penalty card", "{n} penalty cards", self.rules.buy_penalty_cards)
            reasons.append(
                _n(
                    "{needs}: a hand holds at most {most} ({size} dealt, a draw, and {buys} buy"
                    " of the upcard and {penalty})",
                    "{needs}: a hand holds at most {most} ({size} dealt, a draw, and {buys} buys"
                    " of the upcard and {penalty} each)",
                    buys,
                    needs=listed(hands),
                    most=most,
                    size=self.hand_size,
                    buys=buys,
                    penalty=penalty,
                )
                if buys
                else _(
                    "{needs}: a hand holds at most {most} ({size} dealt and a draw, no buys)",
                    needs=listed(hands),
                    most=most,
                    size=self.hand_size,
                )
            )
        if not beyond:
            return None
        return _(
            "no hand can ever hold the cards its contract lays (a hand not down"
            " grows only by buys): {reasons}",
            reasons=clauses(reasons),
        )

    @classmethod
    def read(cls, data: Mapping[str, Any], where: str, *, recorded: bool = False) -> GameSettings:
        """:meth:`from_dict` for the settings at ``where`` in a request or a record: an
        error names its place (``options: 'hands' must be ...``). ``recorded``: a
        record's settings, not refused for a contract no hand can meet (see
        :class:`GameSettings`)."""
        return settings_read(partial(cls.from_dict, recorded=recorded), data, Rules, where)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, recorded: bool = False) -> GameSettings:
        """Read settings written by :meth:`to_dict` (any subset; the rest default);
        ``recorded`` as :class:`GameSettings` takes it."""
        known = ("rules", "players", "hands", "hand_size", "max_turns")
        check_game_settings(data, known)
        values = {name: data[name] for name in known[1:] if name in data}
        return cls(rules=Rules.from_dict(data.get("rules")), **values, recorded=recorded)

    def to_dict(self) -> dict[str, Any]:
        return {
            "rules": self.rules.to_dict(),
            "players": self.players,
            "hands": self.hands,
            "hand_size": self.hand_size,
            "max_turns": self.max_turns,
        }


# --- moves ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Draw:
    """The draw: take the upcard, or not (offer it for buying, then draw the stock)."""

    take: bool

    def __post_init__(self) -> None:
        checked(self.take, bool, "take")  # Draw("no") took the upcard


@dataclass(frozen=True, slots=True)
class Buy:
    """Answer to the upcard offered for buying."""

    yes: bool

    def __post_init__(self) -> None:
        checked(self.yes, bool, "yes")


@dataclass(frozen=True, slots=True)
class SwapMove:
    """Give ``card`` for the joker at ``position`` of table meld ``meld``."""

    meld: int
    position: int
    card: Card

    def __post_init__(self) -> None:
        checked(self.meld, int, "meld")
        checked(self.position, int, "position")
        checked(self.card, Card, "card")


@dataclass(frozen=True, slots=True)
class LayOffMove:
    """Lay ``card`` on table meld ``meld`` (melds laid this turn follow the table's);
    on a run at run place ``place`` (1 is the low ace), on a set ``place`` 0."""

    card: Card
    meld: int
    place: int = 0

    def __post_init__(self) -> None:
        checked(self.card, Card, "card")
        checked(self.meld, int, "meld")
        checked(self.place, int, "place")


@dataclass(frozen=True, slots=True)
class Play:
    """The play phase: swaps first, then the contract melds (going down), then the
    lay-offs, then the discard (None only when no card is left)."""

    melds: tuple[tuple[Card, ...], ...] = ()
    swaps: tuple[SwapMove, ...] = ()
    lay_offs: tuple[LayOffMove, ...] = ()
    discard: Card | None = None

    def __post_init__(self) -> None:
        # A card given as a string ("7H") failed deep in the engine (AttributeError)
        # or was judged "not in hand", and melds=None was a legal play that then
        # failed to apply: each is refused here by its place.
        melds = tuple(
            checked_items(cards, Card, f"melds[{index}]")
            for index, cards in enumerate(listed_argument(self.melds, "melds"))
        )
        object.__setattr__(self, "melds", melds)
        object.__setattr__(self, "swaps", checked_items(self.swaps, SwapMove, "swaps"))
        object.__setattr__(self, "lay_offs", checked_items(self.lay_offs, LayOffMove, "lay_offs"))
        checked_or_none(self.discard, Card, "discard")


Move = Draw | Buy | Play


# --- what a player sees ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class View:
    """What ``seat`` may see when asked to move, and nothing more."""

    seat: int
    step: Step
    hand: tuple[Card, ...]
    hand_number: int
    contract: Contract
    table: tuple[TableMeld, ...]
    """Melds on the table; ``owner`` is the seat number as a string."""
    down: tuple[bool, ...]
    hand_sizes: tuple[int, ...]
    buys_left: tuple[int, ...]
    upcard: Card | None
    pile: tuple[Card, ...]
    """The discard pile under the upcard (every player saw each card go down)."""
    took: tuple[tuple[Card, ...], ...]
    """Cards each player took from the discard pile or bought, this hand."""
    stock_size: int
    player: int
    """The player whose turn it is (the buyer is asked on another player's turn)."""
    scores: tuple[int, ...]
    """Each player's total before this hand."""
    settings: GameSettings = field(default_factory=GameSettings)

    @property
    def rules(self) -> Rules:
        return self.settings.rules

    @property
    def next_seat(self) -> int:
        return (self.seat + 1) % len(self.hand_sizes)

    @property
    def buys_ahead(self) -> int:
        """The buys ``seat``, asked to move, can still make this hand, as
        :meth:`Game._draw` offers a declined upcard: to the other seats, never to the
        player who discarded it. With three players or more each seat is offered the
        others' discards: its buys left. With two, the other seat discarded every upcard
        but the one turned from the deck at the hand's start, so a seat buys only that
        one, while it is offered it (the buy step): one buy then, none at any other time."""
        left = self.buys_left[self.seat]
        if len(self.hand_sizes) > 2:
            return left
        return min(left, 1) if self.step is Step.BUY else 0

    def position(self, phase: Phase | None = None) -> Position:
        """The turn as the advice sees it (``phase`` defaults from the step)."""
        if phase is None:
            phase = Phase.PLAY if self.step is Step.PLAY else Phase.DRAW
        nxt = self.next_seat
        return Position(
            hand=self.hand,
            contract=self.contract,
            table=self.table,
            down=self.down[self.seat],
            upcard=self.upcard,
            buys_left=self.buys_left[self.seat],
            phase=phase,
            seen=self.pile,
            next_player=NextPlayer(self.down[nxt], self.took[nxt]),
        )


# --- the game ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened in a hand (the game record lists these)."""

    turn: int
    seat: int
    kind: str
    """``take``, ``draw``, ``buy``, ``pass`` (declined a buy), ``play``, ``reshuffle``."""
    cards: tuple[Card, ...] = ()
    """Taken, drawn or bought cards (drawn cards are private; the record keeps them)."""
    play: Play | None = None


@dataclass(frozen=True, slots=True)
class HandResult:
    number: int
    end: str
    """``out`` (a player went out) or ``blocked``."""
    went_out: int | None
    hands: tuple[tuple[Card, ...], ...]
    points: tuple[int, ...]
    turns: int


@dataclass(frozen=True, slots=True)
class GameResult:
    """How a game ended, seats numbered from 0 (the tournament runner reads these
    fields): ``scores`` are total penalty points, lower is better."""

    winners: tuple[int, ...]
    scores: tuple[int, ...]
    turns: int
    end: str
    """``out`` when every hand ended with a player going out, ``blocked`` when one or
    more did not (see ``hand_ends``)."""
    hand_ends: tuple[str, ...] = ()
    """Each hand's end (:attr:`HandResult.end`), in order."""


class Game:
    """A game in progress. Seats are numbered from 0.

    Made from its settings and its ``seed`` alone, as :meth:`new` makes it: each hand is
    dealt from the seed and its number as the game gets there, so no deal is given, where
    Rummikub's ``Game(settings, deal, seed)`` is made from its one round's deal (a record
    may give it without a seed). ``Game.new(settings, seed)`` is the call both games take.

    Raises :class:`~solver.errors.RequestError` naming ``settings`` or ``seed`` when it is
    not one."""

    def __init__(self, settings: GameSettings = GameSettings(), seed: int = 0) -> None:
        settings = checked(settings, GameSettings, "settings")
        check_seed(seed)  # else its record is refused when read back
        self.settings = settings
        self.seed = seed
        self.scores = [0] * settings.players
        self.results: list[HandResult] = []
        self.events: list[list[Event]] = []
        self.deals: list[dict[str, Any]] = []
        self.turns_total = 0
        self._start_hand(1)

    @classmethod
    def new(cls, settings: GameSettings = GameSettings(), seed: int = 0) -> Game:
        """A game dealt from ``seed``: the same seed, the same game."""
        return cls(settings, seed)

    @property
    def rules(self) -> Rules:
        return self.settings.rules

    # --- the hand -------------------------------------------------------------------

    def _start_hand(self, number: int) -> None:
        rules, players = self.rules, self.settings.players
        # Each hand shuffles from the game's seed and its number alone, so a hand's deal
        # (and its reshuffles) never depends on how earlier hands went: two bots tried
        # on one seed meet the same ten deals (benchmarks/shanghai_bots.py pairs them).
        self.rng = random.Random(f"shanghai {self.seed} hand {number}")
        deck = [c for c in ALL_NATURALS for _ in range(rules.decks)] + [JOKER] * rules.jokers
        self.rng.shuffle(deck)
        size = self.settings.hand_size
        self.number = number
        self.contract = Contract.for_hand(number, rules)
        self.hands = [sorted(deck[i * size : (i + 1) * size]) for i in range(players)]
        self.pile = [deck[players * size]]
        self.discarder: int | None = None
        """Who discarded the upcard: None for the card turned from the deck."""
        self.stock = deck[players * size + 1 :]
        self.table: list[TableMeld] = []
        self.down = [False] * players
        self.buys = [buys_allowed(number, rules)] * players
        self.took: list[list[Card]] = [[] for _ in range(players)]
        self.player = number % players  # the dealer (seat number - 1) moves each hand
        self.step = Step.DRAW
        self.offer: list[int] = []
        self.turn = 0
        self.events.append([])
        self.deals.append(
            {
                "number": number,
                "hands": [list(h) for h in self.hands],
                "upcard": self.pile[-1],
                "stock": list(self.stock),
            }
        )
        self.over_flag = False

    @property
    def over(self) -> bool:
        return self.over_flag

    @property
    def to_move(self) -> int:
        return self.offer[0] if self.step is Step.BUY else self.player

    def view(self, seat: int | None = None) -> View:
        """What ``seat`` (default: the player to move) sees."""
        seat = self.to_move if seat is None else checked_seat(seat, len(self.hands))
        return View(
            seat=seat,
            step=self.step if seat == self.to_move else Step.DRAW,
            hand=tuple(self.hands[seat]),
            hand_number=self.number,
            contract=self.contract,
            table=tuple(self.table),
            down=tuple(self.down),
            hand_sizes=tuple(len(h) for h in self.hands),
            buys_left=tuple(self.buys),
            upcard=self.pile[-1] if self.pile else None,
            pile=tuple(self.pile[:-1]),
            took=tuple(tuple(t) for t in self.took),
            stock_size=len(self.stock),
            player=self.player,
            scores=tuple(self.scores),
            settings=self.settings,
        )

    # --- judging ----------------------------------------------------------------------

    def problems(self, move: Move) -> tuple[str, ...]:
        """Why ``move`` is not legal for the player to move (empty when it is)."""
        if self.over:
            return (_("the game is over"),)
        if self.step is Step.DRAW:
            if not isinstance(move, Draw):
                return (_("the player must draw (Draw), not {move}", move=type(move).__name__),)
            if move.take and not self.pile:
                return (_("there is no upcard to take"),)
            return ()
        if self.step is Step.BUY:
            if not isinstance(move, Buy):
                return (
                    _(
                        "the player is offered the upcard (Buy), not {move}",
                        move=type(move).__name__,
                    ),
                )
            return ()
        if not isinstance(move, Play):
            return (_("the player must play (Play), not {move}", move=type(move).__name__),)
        return tuple(self._play_problems(move))

    def _play_problems(self, play: Play) -> list[str]:
        seat = self.player
        hand = Counter(self.hands[seat])
        down = self.down[seat]
        going_down = bool(play.melds)
        if not down and not going_down and (play.swaps or play.lay_offs):
            return [_("a player who is not down may swap and lay off only when going down")]
        if down and going_down:
            return [_("a player who is down lays no new melds, only lay-offs")]
        table = [item.meld for item in self.table]
        for swap in play.swaps:
            problem = _swap_problem(swap, table, hand)
            if problem:
                return [problem]
            hand[swap.card] -= 1
            hand[JOKER] += 1
            meld = table[swap.meld]
            cards = list(meld.cards)
            cards[swap.position] = swap.card
            table[swap.meld] = Meld(meld.kind, tuple(cards), meld.stands_for, meld.first_place)
        if going_down:
            melds, problem = _contract_melds(play.melds, self.contract, self.rules)
            if problem:
                return [problem]
            table += melds
            for meld_cards in play.melds:
                hand.subtract(meld_cards)
        grouped: dict[int, list[LayOffMove]] = {}
        for lay in play.lay_offs:
            if not 0 <= lay.meld < len(table):
                return [
                    _(
                        "lay-off of {card} on meld {meld}: no such meld",
                        card=lay.card,
                        meld=lay.meld,
                    )
                ]
            grouped.setdefault(lay.meld, []).append(lay)
            hand[lay.card] -= 1
        for index, lays in sorted(grouped.items()):
            problem = _lay_off_problem(table[index], lays, self.rules)
            if problem:
                return [
                    _(
                        "lay-offs on meld {index} ({meld}): {problem}",
                        index=index,
                        meld=table[index],
                        problem=problem,
                    )
                ]
        short = sorted(c for c, n in hand.items() if n < 0)
        if short:
            return [
                _("the play uses cards the hand does not hold: {cards}", cards=format_cards(short))
            ]
        return _end_problems(hand, play.discard, self.rules, down or going_down)

    # --- moving -----------------------------------------------------------------------

    def apply(self, move: Move) -> Event | None:
        """Make ``move`` for the player to move; raise :class:`IllegalMove` if it breaks
        the rules (the game is then unchanged)."""
        problems = self.problems(move)
        if problems:
            raise IllegalMove(
                _(
                    "hand {number}, turn {turn}, seat {seat}: {problems}",
                    number=self.number,
                    turn=self.turn + 1,
                    seat=self.to_move,
                    problems=clauses(problems),
                )
            )
        if isinstance(move, Draw):
            return self._draw(move)
        if isinstance(move, Buy):
            return self._buy(move)
        assert isinstance(move, Play)
        return self._play(move)

    def _log(self, event: Event) -> Event:
        self.events[-1].append(event)
        return event

    def _draw(self, move: Draw) -> Event | None:
        seat = self.player
        if move.take:
            card = self.pile.pop()
            self.hands[seat] = sorted([*self.hands[seat], card])
            self.took[seat].append(card)
            self.step = Step.PLAY
            return self._log(Event(self.turn, seat, "take", (card,)))
        players = self.settings.players
        # Never to the player who discarded it: buying back one's own discard is no buy.
        self.offer = [
            s
            for s in ((seat + k) % players for k in range(1, players))
            if self.pile and s != self.discarder and not self.down[s] and self.buys[s] > 0
        ]
        if self.offer:
            self.step = Step.BUY
            return None
        return self._stock_draw()

    def _buy(self, move: Buy) -> Event | None:
        buyer = self.offer.pop(0)
        if move.yes:
            card = self.pile.pop()
            extra = [
                c for c in (self._next_stock() for _ in range(self.rules.buy_penalty_cards)) if c
            ]
            self.hands[buyer] = sorted([*self.hands[buyer], card, *extra])
            self.took[buyer].append(card)
            self.buys[buyer] -= 1
            self.offer = []
            self._log(Event(self.turn, buyer, "buy", (card, *extra)))
        else:
            self._log(Event(self.turn, buyer, "pass"))
        if self.offer:
            return None
        return self._stock_draw()

    def _next_stock(self) -> Card | None:
        if not self.stock and len(self.pile) > 1:
            top = self.pile.pop()
            self.stock = self.pile
            self.rng.shuffle(self.stock)
            self.pile = [top]
            self._log(Event(self.turn, self.player, "reshuffle", tuple(self.stock)))
        return self.stock.pop() if self.stock else None

    def _stock_draw(self) -> Event | None:
        seat = self.player
        card = self._next_stock()
        if card is None:
            self._end_hand("blocked", None)
            return None
        self.hands[seat] = sorted([*self.hands[seat], card])
        self.step = Step.PLAY
        return self._log(Event(self.turn, seat, "draw", (card,)))

    def _play(self, play: Play) -> Event:
        seat = self.player
        hand = Counter(self.hands[seat])
        for swap in play.swaps:
            item = self.table[swap.meld]
            cards = list(item.meld.cards)
            cards[swap.position] = swap.card
            meld = item.meld
            self.table[swap.meld] = TableMeld(
                Meld(meld.kind, tuple(cards), meld.stands_for, meld.first_place), item.owner
            )
            hand[swap.card] -= 1
            hand[JOKER] += 1
        for meld_cards in play.melds:
            self.table.append(TableMeld(read_meld(meld_cards, self.rules), str(seat)))
            hand.subtract(meld_cards)
        if play.melds:
            self.down[seat] = True
        grouped: dict[int, list[LayOffMove]] = {}
        for lay in play.lay_offs:
            grouped.setdefault(lay.meld, []).append(lay)
            hand[lay.card] -= 1
        for index, lays in grouped.items():
            item = self.table[index]
            self.table[index] = TableMeld(_extended(item.meld, lays), item.owner)
        if play.discard is not None:
            hand[play.discard] -= 1
            self.pile.append(play.discard)
            self.discarder = seat
        self.hands[seat] = sorted((+hand).elements())
        event = self._log(Event(self.turn, seat, "play", play=play))
        self.turn += 1
        self.turns_total += 1
        if not self.hands[seat]:
            self._end_hand("out", seat)
        elif self.turn >= self.settings.max_turns:
            self._end_hand("blocked", None)
        else:
            self.player = (seat + 1) % self.settings.players
            self.step = Step.DRAW
        return event

    def _end_hand(self, end: str, went_out: int | None) -> None:
        points = tuple(penalty(h, self.rules) for h in self.hands)
        self.results.append(
            HandResult(
                self.number, end, went_out, tuple(tuple(h) for h in self.hands), points, self.turn
            )
        )
        self.scores = [s + p for s, p in zip(self.scores, points, strict=True)]
        if self.number >= self.settings.hands:
            self.over_flag = True
        else:
            self._start_hand(self.number + 1)

    def result(self) -> GameResult:
        """The end of the game (it must be over): the lowest total wins."""
        if not self.over:
            raise IllegalMove(_("the game is not over"))
        lowest = min(self.scores)
        winners = tuple(i for i, s in enumerate(self.scores) if s == lowest)
        ends = tuple(hand.end for hand in self.results)
        end = "blocked" if "blocked" in ends else "out"  # was "complete" even when all blocked
        return GameResult(winners, tuple(self.scores), self.turns_total, end, ends)


# --- the rules of a play, checked ------------------------------------------------------


def _swap_problem(swap: SwapMove, table: list[Meld], hand: Counter[Card]) -> str:
    if not 0 <= swap.meld < len(table):
        return _("swap on meld {meld}: no such meld", meld=swap.meld)
    meld = table[swap.meld]
    if not 0 <= swap.position < len(meld.cards) or not meld.cards[swap.position].is_joker:
        return _(
            "swap on meld {meld}: no joker at position {position}",
            meld=swap.meld,
            position=swap.position,
        )
    meant = meld.stands_for[swap.position]
    same = swap.card == meant or (meant.suit is None and swap.card.rank == meant.rank)
    if swap.card.is_joker or not same:
        return _(
            "swap of {card} for a joker standing for {meant}: only that natural card",
            card=swap.card,
            meant=meant,
        )
    if hand[swap.card] <= 0:
        return _("swap of {card}: not in hand", card=swap.card)
    return ""


def _contract_melds(
    groups: Sequence[Sequence[Card]], contract: Contract, rules: Rules
) -> tuple[list[Meld], str]:
    """The melds read from ``groups``, or a problem: they must be exactly the contract's
    sets and runs, each at least its size."""
    melds = []
    for cards in groups:
        try:
            melds.append(read_meld(cards, rules))
        except InvalidMeld as error:
            return [], _("meld {cards}: {error}", cards=format_cards(cards), error=error)
    sets = sorted(len(m.cards) for m in melds if m.kind is MeldKind.SET)
    runs = sorted(len(m.cards) for m in melds if m.kind is MeldKind.RUN)
    ok = (
        len(sets) == len(contract.sets)
        and len(runs) == len(contract.runs)
        and all(n >= need for n, need in zip(sets, sorted(contract.sets), strict=True))
        and all(n >= need for n, need in zip(runs, sorted(contract.runs), strict=True))
    )
    if not ok:
        return [], _("the melds do not meet the contract ({contract})", contract=contract)
    return melds, ""


def _lay_off_problem(meld: Meld, lays: list[LayOffMove], rules: Rules) -> str:
    """Why the lay-offs ``lays`` cannot all go on ``meld``, or ""."""
    after = _extended(meld, lays)
    if meld.kind is MeldKind.SET:
        for lay in lays:
            if not (lay.card.rank == meld.rank and not lay.card.is_joker) and not rules.is_wild(
                lay.card
            ):
                return _("{card} is not of rank {rank} nor wild", card=lay.card, rank=meld.rank)
    else:
        places = sorted(lay.place for lay in lays)
        below = [p for p in places if p < meld.first_place]
        above = [p for p in places if p > meld.last_place]
        if len(below) + len(above) != len(places) or len(set(places)) != len(places):
            return _("a run takes cards only beyond its ends, one per place")
        wanted_below = list(range(meld.first_place - len(below), meld.first_place))
        wanted_above = list(range(meld.last_place + 1, meld.last_place + 1 + len(above)))
        if below != wanted_below or above != wanted_above:
            return _("the places laid off must continue the run without a gap")
        if after.last_place > 14:
            return _("a run ends at the ace at the highest: it never wraps past it")
        if after.first_place < rules.lowest_place:
            if rules.ace_low:
                return _("a run begins at the ace at the lowest")
            return _("a run begins at 2 at the lowest: the ace is high under these rules")
        if len(after.cards) > MAX_RUN_LEN:
            return _("a run holds at most {most} cards", most=MAX_RUN_LEN)
        for lay in lays:
            meant = Card(rules.rank_at(lay.place), meld.suit)
            if lay.card != meant and not rules.is_wild(lay.card):
                return _("{card} cannot stand at the place of {meant}", card=lay.card, meant=meant)
    if after.wilds > after.naturals:
        return _("the meld would hold more wild cards than natural ones")
    return ""


def _extended(meld: Meld, lays: list[LayOffMove]) -> Meld:
    """``meld`` with ``lays`` added (a set at its end, a run at its places)."""
    if meld.kind is MeldKind.SET:
        place = Card(meld.rank, None)
        cards = meld.cards + tuple(lay.card for lay in lays)
        stands_for = meld.stands_for + tuple(
            lay.card if lay.card.rank == meld.rank and not lay.card.is_joker else place
            for lay in lays
        )
        return Meld(MeldKind.SET, cards, stands_for)
    ordered = sorted(lays, key=lambda lay: lay.place)
    below = [lay for lay in ordered if lay.place < meld.first_place]
    above = [lay for lay in ordered if lay.place > meld.last_place]
    suit = meld.suit

    def meant(lay: LayOffMove) -> Card:
        return Card(Rules.rank_at(lay.place), suit)

    cards = tuple(x.card for x in below) + meld.cards + tuple(x.card for x in above)
    stands = tuple(meant(x) for x in below) + meld.stands_for + tuple(meant(x) for x in above)
    return Meld(MeldKind.RUN, cards, stands, meld.first_place - len(below))


def _end_problems(hand: Counter[Card], discard: Card | None, rules: Rules, down: bool) -> list[str]:
    """What is wrong with the turn's end: ``hand`` is the hand after the plays, ``down``
    whether the player is down after them (discarding the last card goes out, which
    needs the contract down, whatever ``go_out_by_discard`` says)."""
    left = sum(hand.values())
    if discard is None:
        if not left:
            return []
        return [
            _n(
                "{n} card left: the turn ends with a discard",
                "{n} cards left: the turn ends with a discard",
                left,
            )
        ]
    if hand[discard] <= 0:
        return [_("the discard {card} is not in hand after the plays", card=discard)]
    if left == 1 and not rules.go_out_by_discard:
        return [
            _("{card} is the last card: it may not be discarded under these rules", card=discard)
        ]
    if left == 1 and not down:
        return [
            _(
                "{card} is the last card: discarding it would go out, and a player who is not"
                " down cannot go out",
                card=discard,
            )
        ]
    return []

"""Shanghai rummy over the wire: each request and response defined once, as pydantic
models the library, the CLI and the HTTP service all read (see :mod:`solver.wire`).

* :func:`advise_shanghai`: advice for one turn (:class:`ShanghaiAdviseRequest` in,
  :class:`ShanghaiAdviseResponse` out). ``phase`` is ``"draw"`` (the hand before
  drawing) or ``"play"`` (after drawing); without it the older mixed meaning holds
  (see :mod:`~solver.shanghai.advice`).
* :func:`score_shanghai`: a hand's end (:class:`ShanghaiScoreRequest` in,
  :class:`ShanghaiScoreResponse` out).

``lang`` (``en`` or ``ja``) is the language of the reasons, notes and error messages.
The examples in :mod:`solver.shanghai.examples` show requests and answers in full.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field, StrictBool, StrictInt

from solver.cpsat import Limit, Status
from solver.errors import RequestError, TableError, quoted
from solver.i18n import _, speaks
from solver.shanghai.advice import DEFAULT_TIME_LIMIT, Advice, advise
from solver.shanghai.contracts import HANDS, Contract, buys_allowed
from solver.shanghai.deficiency import check_layable
from solver.shanghai.draw import DrawOption, UpcardAdvice
from solver.shanghai.examples import (
    ADVISE_DRAW_REQUEST,
    ADVISE_NOT_DOWN_REQUEST,
    ADVISE_REQUEST,
    SCORE_REQUEST,
    SCORE_RESPONSE,
)
from solver.shanghai.melds import Meld, MeldKind, TableMeld, read_table_meld
from solver.shanghai.notation import Card
from solver.shanghai.phase_budget import TIME_FACTOR as TIME_FACTOR
from solver.shanghai.position import NextPlayer, Phase, Position
from solver.shanghai.result import Discard, GoDown, LayOffs, Swap, Turn
from solver.shanghai.rules import STANDARD, Rules
from solver.shanghai.scoring import score_hands
from solver.wire import (
    Answer,
    Lang,
    Notated,
    PlayerName,
    Request,
    Spoken,
    TimeCapped,
    TimeLimitMs,
    read,
)

MAX_HAND = 60
"""More cards than any legal hand holds (11 dealt, plus draws and bought cards)."""

AnyCard = Annotated[
    Card,
    Notated(
        Card.parse,
        lambda: _("a card like '7H' or 'JK'"),
        "a card: rank (2-10 or T, J, Q, K, A) and suit (S, H, D, C), e.g. 7H, 10S, QD; "
        "JK (or *) for a joker; case-insensitive in requests, canonical in answers",
        "7H",
    ),
]
StandsFor = Annotated[
    str,
    Field(
        description="what the card plays as: itself for a natural card; for a wild card "
        "the card it stands for in a run (6S), or only the rank in a set (8), the suit "
        "being free",
        examples=["6S"],
    ),
]


class ShanghaiContract(Request):
    """Minimum sizes of the sets and runs to lay at once to go down."""

    # In answers both lists are always there: the schema says so.
    model_config = ConfigDict(json_schema_serialization_defaults_required=True)

    sets: list[StrictInt] = Field(default_factory=list, description="set sizes, e.g. [3, 3]")
    runs: list[StrictInt] = Field(default_factory=list, description="run sizes, e.g. [4]")


# --- advise ---------------------------------------------------------------------------


class TableMeldIn(Request):
    cards: list[AnyCard] = Field(description="the meld's cards; a run low to high")
    owner: PlayerName | None = Field(default=None, description="who laid it (null: not said)")


class NextPlayerIn(Request):
    """What is known of the next player, who may take this turn's discard."""

    down: StrictBool | None = Field(
        default=None, description="whether the next player has gone down (null: not known)"
    )
    took: list[AnyCard] = Field(
        default_factory=list, description="cards the next player took from the discard pile"
    )


class ShanghaiAdviseRequest(Spoken):
    """One turn to advise on: the wire request of :func:`solver.advise_shanghai`.
    Give exactly one of ``hand_number`` and ``contract`` (at most one for a player who is
    ``down``, whose turn is solved without it); a field sent as null is taken as not
    given."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                ADVISE_REQUEST,
                ADVISE_NOT_DOWN_REQUEST,
                ADVISE_DRAW_REQUEST,
            ]
        }
    )

    hand: list[AnyCard] = Field(
        min_length=1,
        max_length=MAX_HAND,
        description="the player's cards now: before drawing in phase draw, after drawing "
        "in phase play (no phase: after drawing for going down, lay-offs and the discard, "
        "before drawing for the upcard advice)",
    )
    phase: Literal["draw", "play"] | None = Field(
        default=None,
        description="draw: before drawing (take the upcard, draw or buy); play: after "
        "drawing (go down, swaps, lay-offs, discard); null: the older mixed request",
    )
    hand_number: Annotated[StrictInt, Field(ge=1, le=HANDS)] | None = Field(
        default=None,
        description="hand 1-10: its standard contract (or give contract; neither is needed"
        " when down)",
    )
    contract: ShanghaiContract | None = Field(
        default=None,
        description="a contract of one's own (or give hand_number; neither is needed when down)",
    )
    table: list[TableMeldIn] = Field(
        default_factory=list, description="melds already on the table, in any player's name"
    )
    down: StrictBool = Field(default=False, description="the player has already gone down")
    upcard: AnyCard | None = Field(
        default=None, description="the top card of the discard pile (null: none)"
    )
    buys_left: Annotated[StrictInt, Field(ge=0)] | None = Field(
        default=None, description="buys the player has left this hand (default: all)"
    )
    seen: list[AnyCard] = Field(
        default_factory=list,
        description="cards known to be out of play besides the table and the upcard "
        "(the discard pile under the upcard, dead cards): they leave the unseen pool",
    )
    next_player: NextPlayerIn | None = Field(
        default=None, description="what is known of the next player, for the discard's danger"
    )
    rules: Rules = Field(default=STANDARD, description="rule settings")
    time_limit_ms: TimeLimitMs = Field(
        default=round(DEFAULT_TIME_LIMIT * 1000),
        description="the wall-clock milliseconds of the turn's CP-SAT solves; the server's "
        "time cap may lower it. The solves of a phase (the play, or the draw: phase 'draw', "
        "or an upcard with no phase) share a fixed work budget, which is what stops them, "
        "within ten times this (the outer safety cap), so that the advice answers the same "
        "on a loaded machine as on an idle one",
    )
    lang: Lang = None

    def check_request(self) -> None:
        """One of hand_number and contract (at most one when down); no more buys than
        the hand allows."""
        super().check_request()
        both = self.hand_number is not None and self.contract is not None
        if self.down and both:
            raise RequestError(
                _(
                    "give at most one of 'hand_number' (1-10, the standard contracts) or"
                    " 'contract'; a player who is down needs neither"
                )
            ).naming("hand_number", "contract")
        if not self.down and (self.hand_number is None) == (self.contract is None):
            raise RequestError(
                _(
                    "give exactly one of 'hand_number' (1-10, the standard contracts) or"
                    " 'contract' (e.g. {example})",
                    example='{"sets": [3, 3], "runs": [4]}',
                )
            ).naming("hand_number", "contract")
        allowed = buys_allowed(self.hand_number, self.rules)
        if self.buys_left is not None and self.buys_left > allowed:
            raise RequestError(
                _(
                    "'buys_left' must be 0 to {most} in this hand, got {value}",
                    most=allowed,
                    value=quoted(self.buys_left),
                )
            ).naming("buys_left")

    def position(self, limit: Limit | None = None) -> Position:
        """The position asked about (its cards are checked against the rules by
        :func:`~solver.shanghai.advice.advise`). Raises a
        :class:`~solver.errors.MeldwiseError` for a contract or a table meld that the
        rules do not allow; whether all the game's cards lay the contract is checked
        within ``limit``'s time (:func:`~solver.shanghai.deficiency.check_layable`),
        and what an unsettled check must say is said by the advice."""
        rules = self.rules
        contract: Contract | None = None  # a player down who gave neither
        if self.hand_number is not None:
            contract = Contract.for_hand(self.hand_number, rules)
            try:
                contract.check(rules)
            except RequestError as error:
                # The hand's standard contract clashes with the rules: the request has
                # no 'sets' or 'runs' of its own to name (the places said ["sets"]).
                error.places = ((("rules",), ""), (("hand_number",), ""))
                raise
        elif self.contract is not None:
            contract = Contract.from_dict(self.contract.model_dump(), rules)
        try:
            if contract is not None:
                check_layable(contract, rules, limit)
        except RequestError as error:
            # About the contract under the rules: the hand's, or the request's own.
            asked = ("hand_number",) if self.contract is None else ("contract",)
            error.places = ((("rules",), ""), (asked, ""))
            raise
        try:
            table = tuple(
                TableMeld(read_table_meld(index, item.cards, rules), item.owner)
                for index, item in enumerate(self.table)
            )
        except TableError as error:
            raise error.nested_in("table") from None  # --table on the command line
        nxt = self.next_player
        return Position(
            tuple(self.hand),
            contract,
            table,
            self.down,
            self.upcard,
            buys_allowed(self.hand_number, rules) if self.buys_left is None else self.buys_left,
            None if self.phase is None else Phase(self.phase),
            tuple(self.seen),
            None if nxt is None else NextPlayer(nxt.down, tuple(nxt.took)),
        )


class MeldOut(Answer):
    kind: MeldKind
    cards: list[AnyCard] = Field(description="the meld's cards; runs low to high")
    as_: list[StandsFor] = Field(alias="as", description="what each card plays as")


class SwapOut(Answer):
    """Give a natural card for a table joker (the player then holds the joker)."""

    meld: int = Field(
        description="the meld holding the joker: an index in the request's table (melds "
        "laid this turn follow from len(table))"
    )
    position: int = Field(description="the joker's place in that meld, 0 = its first card")
    give: AnyCard = Field(description="the card given for the joker")
    take: Literal["JK"] = Field(description="the card taken: the joker")


class GoDownOut(Answer):
    """The contract melds to lay now, the plan leaving the fewest penalty points."""

    melds: list[MeldOut] = Field(
        description="the melds to lay; they take table indexes from len(table) on"
    )
    swaps: list[SwapOut] = Field(description="table jokers to take first, for these melds")
    left: list[AnyCard] = Field(description="the hand after laying the melds")
    penalty_left: int = Field(description="what the cards left would cost")


class LayOffOut(Answer):
    card: AnyCard
    meld: int = Field(
        description="the meld it goes on: an index in the request's table, or from "
        "len(table) on a meld laid this turn"
    )
    as_: StandsFor = Field(alias="as")


class LayOffsOut(Answer):
    """Cards to lay on the melds on the table, shedding the most points."""

    plays: list[LayOffOut]
    swaps: list[SwapOut] = Field(description="table jokers to take first")
    left: list[AnyCard] = Field(description="the hand after the lay-offs")
    points_shed: int = Field(description="penalty points the lay-offs move out of the hand")
    can_go_out: bool = Field(description="the player goes out this turn")


class DiscardOut(Answer):
    card: AnyCard = Field(description="the card to throw")
    reason: str = Field(description="why, in one sentence, with the figures computed")
    deficiency_after: int | None = Field(
        description="the exact deficiency the hand is left with (null once down or going "
        "down, or when a search stopped before proving it)"
    )
    outs: int | None = Field(
        description="unseen cards (with copies) proven to lower that deficiency by one "
        "(null when it is null)"
    )
    danger: int | None = Field(
        description="0-3, a heuristic: how much the card could help the next player "
        "(null when not used)"
    )


class EndOfTurnOut(Answer):
    """The hand at the end of the turn, after the plays and the discard."""

    goes_out: bool = Field(description="the player goes out this turn")
    kept: list[AnyCard] = Field(description="the cards kept")
    points: int = Field(description="what the cards kept would cost")


class DrawOptionOut(Answer):
    """One way to draw and what follows it (expected values over the unseen cards)."""

    action: Literal["take", "draw", "buy"]
    cards: int = Field(
        description="how many cards join the hand: 1, or for a buy the upcard and its penalty cards"
    )
    deficiency: float | None = Field(
        description="expected deficiency once they are in (null once down)"
    )
    points: float | None = Field(
        description="expected penalty points of the hand then; null when the unseen cards"
        " are fewer than the stock cards it takes (the stock is then made again from the"
        " discard pile: a note says so)"
    )
    go_down: float | None = Field(
        description="chance the play phase right after can go down (null: down, a buy, or a"
        " draw with no unseen card)"
    )
    go_out: float | None = Field(
        description="chance the play phase right after goes out (null after a buy, or a draw"
        " with no unseen card)"
    )
    chances_proven: bool = Field(
        description="false when a search stopped at its limit: go_down and go_out then count"
        " only the cards found before it stopped (the chances are at least those)"
    )


STATUS_DESCRIPTION = (
    "optimal: every solve of the turn was proven; feasible: a search stopped (at its work "
    "bound or the time limit) before proving its answer (the answers are legal, not proven "
    "best); unknown: one stopped before finding anything"
)
PLAY_STATUS_DESCRIPTION = (
    "how the search for the turn's plays (going down, lay-offs and the turn's end) ended:"
    " optimal: proven, so a null go_down (or, once down, null lay_offs) means none is"
    " possible this turn; feasible: a limit (its work bound or the time limit) cut it"
    " short, the plays found are legal but"
    " not proven best; unknown: it stopped before finding any play, so a null go_down or"
    " lay_offs says nothing of what the turn allows (a discard given then is the one for a"
    " player not going down); null in the draw phase, which asks for no play"
)
DEFICIENCY_DESCRIPTION = "cards the hand still needs for the contract; null when not worked out"


class UpcardOut(Answer):
    rule: str = Field(description="the rule used (a stated heuristic), with the figures")
    deficiency_now: int | None = Field(description=DEFICIENCY_DESCRIPTION)
    deficiency_with: int | None = Field(
        description="the deficiency with the upcard added; null when not worked out"
    )


class TakeUpcardOut(UpcardOut):
    """Whether to take the upcard."""

    take: bool


class BuyOut(UpcardOut):
    """Whether to buy the upcard out of turn."""

    buy: bool


class ShanghaiAdviseResponse(Answer):
    """Advice for the turn: the wire response of :func:`solver.advise_shanghai`."""

    # No example here: every answer has a null field, and FastAPI drops null values from
    # the examples of the OpenAPI document (fastapi/fastapi#5559), which would leave
    # required fields out. solver/shanghai/examples.py holds full answers.

    status: Status = Field(description=STATUS_DESCRIPTION)
    time_capped: TimeCapped
    play_status: Status | None = Field(description=PLAY_STATUS_DESCRIPTION)
    contract: ShanghaiContract | None = Field(
        description="the contract of this hand; null when a player who is down gave none"
    )
    deficiency: int | None = Field(
        description="fewest extra cards the hand needs to meet the contract, exact (0 once "
        "down); null when unseen cards cannot complete it or none was proven before a search"
        " stopped"
    )
    penalty: int = Field(description="what the hand would cost if the hand ended now")
    go_down: GoDownOut | None = Field(
        description="how to go down; null when the player is down or cannot go down now, "
        "or when none was found before the search stopped (play_status unknown)"
    )
    lay_offs: LayOffsOut | None = Field(
        description="for a player who is down or goes down now; null otherwise, or when "
        "none was found before the search stopped (play_status unknown)"
    )
    discard: DiscardOut | None = Field(
        description="null when the player goes out (or no answer was found before the search"
        " stopped)"
    )
    take_upcard: TakeUpcardOut | None = Field(description="null when no upcard was given")
    buy: BuyOut | None = Field(description="null when no upcard was given")
    notes: list[str] = Field(
        description="anything else worth saying; among them, when the phase's fixed work "
        "budget stopped a search, a note saying so (the same on any machine and load)"
    )
    phase: Literal["draw", "play"] | None = Field(description="the phase asked (null: none)")
    end_of_turn: EndOfTurnOut | None = Field(
        description="after the play phase's plays and discard; null when no play is advised"
    )
    draw_options: list[DrawOptionOut] = Field(
        description="the draw phase's options (empty in the play phase)"
    )


# --- score ----------------------------------------------------------------------------


class ShanghaiScoreRequest(Spoken):
    """The cards each player holds when a hand ends: the wire request of
    :func:`solver.score_shanghai`."""

    model_config = ConfigDict(json_schema_extra={"examples": [SCORE_REQUEST]})

    hands: dict[PlayerName, list[AnyCard]] = Field(
        min_length=1, description="each player's cards left (empty: went out)"
    )
    rules: Rules = Field(default=STANDARD, description="rule settings")
    lang: Lang = None


class HandScore(Answer):
    player: str
    cards: list[AnyCard] = Field(description="the cards left, in card order")
    points: int = Field(description="what they cost")
    went_out: bool = Field(description="the player has no card left")


class ShanghaiScoreResponse(Answer):
    model_config = ConfigDict(json_schema_extra={"examples": [SCORE_RESPONSE]})

    scores: list[HandScore] = Field(description="one per player, in the order given")


@speaks
def advise_shanghai(request: Mapping[str, Any] | ShanghaiAdviseRequest) -> dict[str, Any]:
    """Advise on one Shanghai turn: wire request in, wire response out.

    Raises a :class:`~solver.errors.MeldwiseError` (a ``ValueError``) naming the bad
    field, card, meld or setting.
    """
    asked = read(ShanghaiAdviseRequest, request)
    # Started here: the contract check of position() shares the request's time.
    limit = Limit(asked.time_limit_ms / 1000).started()
    position = asked.position(limit)
    advice = advise(position, asked.rules, limit=limit)
    return advice_to_dict(advice)


@speaks
def score_shanghai(request: Mapping[str, Any] | ShanghaiScoreRequest) -> dict[str, Any]:
    """Score a hand's end: the penalty points each player's cards left cost, in the
    order given.

    Raises a :class:`~solver.errors.MeldwiseError` (a ``ValueError``) naming the bad
    field, card or setting, more copies of a card than the game has, or several
    players out."""
    asked = read(ShanghaiScoreRequest, request)
    return {
        "scores": [
            {
                "player": score.player,
                "cards": [str(c) for c in score.cards],
                "points": score.points,
                "went_out": score.went_out,
            }
            for score in score_hands(asked.hands, asked.rules)
        ]
    }


def meld_to_dict(meld: Meld) -> dict[str, Any]:
    return {
        "kind": meld.kind.value,
        "cards": [str(c) for c in meld.cards],
        "as": [str(c) for c in meld.stands_for],
    }


def _swap_to_dict(swap: Swap) -> dict[str, Any]:
    return {"meld": swap.meld, "position": swap.position, "give": str(swap.give), "take": "JK"}


def _upcard_to_dict(advice: UpcardAdvice | None, key: str) -> dict[str, Any] | None:
    if advice is None:
        return None
    # In the order of UpcardOut's subclasses (its fields, then theirs), as over HTTP.
    return {
        "rule": advice.rule,
        "deficiency_now": advice.deficiency_now,
        "deficiency_with": advice.deficiency_with,
        key: advice.yes,
    }


def advice_to_dict(advice: Advice) -> dict[str, Any]:
    """The wire response for ``advice``.

    Lay-offs and swaps name table melds by index in the request's ``table``; melds
    laid this turn (``go_down.melds``) follow on, numbered from ``len(table)``.
    """
    return {
        "status": advice.status.value,
        "time_capped": advice.time_capped,
        "play_status": None if advice.play_status is None else advice.play_status.value,
        "contract": None if advice.contract is None else advice.contract.to_dict(),
        "deficiency": advice.deficiency,
        "penalty": advice.penalty,
        "go_down": go_down_to_dict(advice.go_down),
        "lay_offs": lay_offs_to_dict(advice.lay_offs),
        "discard": _discard_to_dict(advice.discard),
        "take_upcard": _upcard_to_dict(advice.take_upcard, "take"),
        "buy": _upcard_to_dict(advice.buy, "buy"),
        "notes": list(advice.notes),
        "phase": None if advice.phase is None else advice.phase.value,
        "end_of_turn": _end_to_dict(advice.turn),
        "draw_options": [_option_to_dict(o) for o in advice.draw_options],
    }


def go_down_to_dict(go: GoDown | None) -> dict[str, Any] | None:
    """A :class:`GoDownOut` (the advice's ``go_down``, a review's best play's)."""
    if go is None:
        return None
    return {
        "melds": [meld_to_dict(m) for m in go.melds],
        "swaps": [_swap_to_dict(s) for s in go.swaps],
        "left": [str(c) for c in go.left],
        "penalty_left": go.penalty_left,
    }


def lay_offs_to_dict(laid: LayOffs | None) -> dict[str, Any] | None:
    """A :class:`LayOffsOut` (the advice's ``lay_offs``, a review's best play's)."""
    if laid is None:
        return None
    return {
        "plays": [
            {"card": str(p.card), "meld": p.meld, "as": str(p.stands_for)} for p in laid.plays
        ],
        "swaps": [_swap_to_dict(s) for s in laid.swaps],
        "left": [str(c) for c in laid.left],
        "points_shed": laid.points_shed,
        "can_go_out": laid.can_go_out,
    }


def _discard_to_dict(discard: Discard | None) -> dict[str, Any] | None:
    if discard is None:
        return None
    return {
        "card": str(discard.card),
        "reason": discard.reason,
        "deficiency_after": discard.deficiency_after,
        "outs": discard.outs,
        "danger": discard.danger,
    }


def _end_to_dict(turn: Turn | None) -> dict[str, Any] | None:
    if turn is None:
        return None
    return {
        "goes_out": turn.goes_out,
        "kept": [str(c) for c in turn.kept],
        "points": turn.points,
    }


def _option_to_dict(option: DrawOption) -> dict[str, Any]:
    return {
        "action": option.action,
        "cards": option.cards,
        "deficiency": _round(option.deficiency),
        "points": _round(option.points),
        "go_down": _round(option.go_down),
        "go_out": _round(option.go_out),
        "chances_proven": option.chances_proven,
    }


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 4)

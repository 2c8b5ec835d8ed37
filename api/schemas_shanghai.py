"""Request and response bodies of the Shanghai rummy endpoints (pydantic v2).

They mirror the Shanghai wire schema (:mod:`solver.shanghai.wire`) field for
field; the solver checks the game (cards, counts, melds, contract against the
rules) and these models check the shape. Every model forbids unknown fields; the
examples are the library's own (:mod:`solver.shanghai.examples`), which a test
keeps equal to what the solver answers.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field, StrictBool, StrictInt

from api.language import Lang
from api.schemas import PlayerName, Schema
from solver.shanghai import STANDARD, MeldKind, Status, examples
from solver.shanghai.advice import DEFAULT_TIME_LIMIT
from solver.shanghai.contracts import HANDS
from solver.shanghai.rules import RANGES
from solver.shanghai.wire import MAX_HAND, MAX_TIME_LIMIT_MS

Card = Annotated[
    str,
    Field(
        description="a card: rank (2-10 or T, J, Q, K, A) and suit (S, H, D, C), e.g. 7H, "
        "10S, QD; JK (or *) for a joker; case-insensitive in requests, canonical in answers; "
        "requests may also write the suit as a symbol (7♥, ♠10), the joker ジョーカー, and "
        "full-width letters and digits",
        examples=["7H"],
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


def _setting(name: str, meaning: str) -> Any:
    low, high = RANGES[name]
    return Field(default=getattr(STANDARD, name), ge=low, le=high, description=meaning)


def _flag(name: str, meaning: str) -> Any:
    return Field(default=getattr(STANDARD, name), description=meaning)


class ShanghaiRuleSettings(Schema):
    """Shanghai rule settings; any subset may be given, the rest keep the standard values."""

    decks: StrictInt = _setting("decks", "54-card decks; each natural card exists decks times")
    jokers_per_deck: StrictInt = _setting("jokers_per_deck", "jokers in each deck")
    twos_wild: StrictBool = _flag("twos_wild", "twos are wild too")
    ace_low: StrictBool = _flag("ace_low", "the ace may also be low (A-2-3-4)")
    go_out_by_discard: StrictBool = _flag(
        "go_out_by_discard", "a player may go out by discarding the last card"
    )
    min_set_len: StrictInt = _setting("min_set_len", "fewest cards in a set on the table")
    min_run_len: StrictInt = _setting("min_run_len", "fewest cards in a run on the table")
    buys: StrictInt = _setting("buys", "buys per player in hands 1-8")
    buys_last_two_hands: StrictInt = _setting("buys_last_two_hands", "buys in hands 9-10")
    buy_penalty_cards: StrictInt = _setting(
        "buy_penalty_cards", "stock cards a buyer takes with the upcard"
    )
    low_points: StrictInt = _setting("low_points", "a 3-9 left in hand")
    ten_points: StrictInt = _setting("ten_points", "a 10, J, Q or K left in hand")
    ace_points: StrictInt = _setting("ace_points", "an ace left in hand")
    two_points: StrictInt = _setting("two_points", "a two left in hand")
    joker_points: StrictInt = _setting("joker_points", "a joker left in hand")


class ShanghaiContract(Schema):
    """Minimum sizes of the sets and runs to lay at once to go down."""

    # In answers both lists are always there: the schema says so.
    model_config = ConfigDict(json_schema_serialization_defaults_required=True)

    sets: list[StrictInt] = Field(default_factory=list, description="set sizes, e.g. [3, 3]")
    runs: list[StrictInt] = Field(default_factory=list, description="run sizes, e.g. [4]")


# --- advise ---------------------------------------------------------------------------


class TableMeldIn(Schema):
    cards: list[Card] = Field(description="the meld's cards; a run low to high")
    owner: PlayerName | None = Field(default=None, description="who laid it (null: not said)")


class NextPlayerIn(Schema):
    """What is known of the next player, who may take this turn's discard."""

    down: StrictBool | None = Field(
        default=None, description="whether the next player has gone down (null: not known)"
    )
    took: list[Card] = Field(
        default_factory=list, description="cards the next player took from the discard pile"
    )


class ShanghaiAdviseRequest(Schema):
    """One turn to advise on: the wire request of :func:`solver.advise_shanghai`.
    Give exactly one of ``hand_number`` and ``contract``; a field sent as null is
    taken as not given."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                examples.ADVISE_REQUEST,
                examples.ADVISE_NOT_DOWN_REQUEST,
                examples.ADVISE_DRAW_REQUEST,
            ]
        }
    )

    hand: list[Card] = Field(
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
        default=None, description="hand 1-10: its standard contract (or give contract)"
    )
    contract: ShanghaiContract | None = Field(
        default=None, description="a contract of one's own (or give hand_number)"
    )
    table: list[TableMeldIn] = Field(
        default_factory=list, description="melds already on the table, in any player's name"
    )
    down: StrictBool = Field(default=False, description="the player has already gone down")
    upcard: Card | None = Field(
        default=None, description="the top card of the discard pile (null: none)"
    )
    buys_left: Annotated[StrictInt, Field(ge=0)] | None = Field(
        default=None, description="buys the player has left this hand (default: all)"
    )
    seen: list[Card] = Field(
        default_factory=list,
        description="cards known to be out of play besides the table and the upcard "
        "(the discard pile under the upcard, dead cards): they leave the unseen pool",
    )
    next_player: NextPlayerIn | None = Field(
        default=None, description="what is known of the next player, for the discard's danger"
    )
    rules: ShanghaiRuleSettings = Field(
        default_factory=ShanghaiRuleSettings, description="rule settings"
    )
    time_limit_ms: StrictInt = Field(
        default=round(DEFAULT_TIME_LIMIT * 1000),
        ge=1,
        le=MAX_TIME_LIMIT_MS,
        description="most milliseconds for each CP-SAT solve (a turn makes at most five); "
        "the server's time cap may lower it",
    )
    lang: Lang = None


class MeldOut(Schema):
    kind: MeldKind
    cards: list[Card] = Field(description="the meld's cards; runs low to high")
    as_: list[StandsFor] = Field(alias="as", description="what each card plays as")


class SwapOut(Schema):
    """Give a natural card for a table joker (the player then holds the joker)."""

    meld: int = Field(
        description="the meld holding the joker: an index in the request's table (melds "
        "laid this turn follow from len(table))"
    )
    position: int = Field(description="the joker's place in that meld, 0 = its first card")
    give: Card = Field(description="the card given for the joker")
    take: Literal["JK"] = Field(description="the card taken: the joker")


class GoDownOut(Schema):
    """The contract melds to lay now, the plan leaving the fewest penalty points."""

    melds: list[MeldOut] = Field(
        description="the melds to lay; they take table indexes from len(table) on"
    )
    swaps: list[SwapOut] = Field(description="table jokers to take first, for these melds")
    left: list[Card] = Field(description="the hand after laying the melds")
    penalty_left: int = Field(description="what the cards left would cost")


class LayOffOut(Schema):
    card: Card
    meld: int = Field(
        description="the meld it goes on: an index in the request's table, or from "
        "len(table) on a meld laid this turn"
    )
    as_: StandsFor = Field(alias="as")


class LayOffsOut(Schema):
    """Cards to lay on the melds on the table, shedding the most points."""

    plays: list[LayOffOut]
    swaps: list[SwapOut] = Field(description="table jokers to take first")
    left: list[Card] = Field(description="the hand after the lay-offs")
    points_shed: int = Field(description="penalty points the lay-offs move out of the hand")
    can_go_out: bool = Field(description="the player goes out this turn")


class DiscardOut(Schema):
    card: Card = Field(description="the card to throw")
    reason: str = Field(description="why, in one sentence, with the figures computed")
    deficiency_after: int | None = Field(
        description="the exact deficiency the hand is left with (null once down or going down)"
    )
    outs: int | None = Field(
        description="unseen cards (with copies) proven to lower that deficiency by one "
        "(null once down or going down)"
    )
    danger: int | None = Field(
        description="0-3, a heuristic: how much the card could help the next player "
        "(null when not used)"
    )


class EndOfTurnOut(Schema):
    """The hand at the end of the turn, after the plays and the discard."""

    goes_out: bool = Field(description="the player goes out this turn")
    kept: list[Card] = Field(description="the cards kept")
    points: int = Field(description="what the cards kept would cost")


class DrawOptionOut(Schema):
    """One way to draw and what follows it (expected values over the unseen cards)."""

    action: Literal["take", "draw", "buy"]
    cards: int = Field(description="cards that join the hand (a buy: the upcard and penalty cards)")
    deficiency: float | None = Field(
        description="expected deficiency once they are in (null once down)"
    )
    points: float = Field(description="expected penalty points of the hand then")
    go_down: float | None = Field(
        description="chance the play phase right after can go down (null: down, or a buy)"
    )
    go_out: float | None = Field(
        description="chance the play phase right after goes out (null after a buy)"
    )


STATUS_DESCRIPTION = (
    "optimal: every solve of the turn was proven; feasible: a time limit cut one short "
    "(the answers are legal, not proven best); unknown: one found nothing in time"
)
DEFICIENCY_DESCRIPTION = "cards the hand still needs for the contract; null when not worked out"


class UpcardOut(Schema):
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


class ShanghaiAdviseResponse(Schema):
    """Advice for the turn: the wire response of :func:`solver.advise_shanghai`."""

    # No example here: every answer has a null field, and FastAPI drops null values from
    # the examples of the OpenAPI document (fastapi/fastapi#5559), which would leave
    # required fields out. solver/shanghai/examples.py holds full answers.

    status: Status = Field(description=STATUS_DESCRIPTION)
    contract: ShanghaiContract = Field(description="the contract of this hand")
    deficiency: int | None = Field(
        description="fewest extra cards the hand needs to meet the contract, exact (0 once "
        "down); null when unseen cards cannot complete it or no answer was found in time"
    )
    penalty: int = Field(description="what the hand would cost if the hand ended now")
    go_down: GoDownOut | None = Field(
        description="how to go down; null when the player is down or cannot go down now"
    )
    lay_offs: LayOffsOut | None = Field(
        description="for a player who is down or goes down now; null otherwise"
    )
    discard: DiscardOut | None = Field(
        description="null when the player goes out (or no answer was found in time)"
    )
    take_upcard: TakeUpcardOut | None = Field(description="null when no upcard was given")
    buy: BuyOut | None = Field(description="null when no upcard was given")
    notes: list[str] = Field(description="anything else worth saying")
    phase: Literal["draw", "play"] | None = Field(description="the phase asked (null: none)")
    end_of_turn: EndOfTurnOut | None = Field(
        description="after the play phase's plays and discard; null when no play is advised"
    )
    draw_options: list[DrawOptionOut] = Field(
        description="the draw phase's options (empty in the play phase)"
    )


# --- score ----------------------------------------------------------------------------


class ShanghaiScoreRequest(Schema):
    """The cards each player holds when a hand ends: the wire request of
    :func:`solver.score_shanghai`."""

    model_config = ConfigDict(json_schema_extra={"examples": [examples.SCORE_REQUEST]})

    hands: dict[PlayerName, list[Card]] = Field(
        min_length=1, description="each player's cards left (empty: went out)"
    )
    rules: ShanghaiRuleSettings = Field(
        default_factory=ShanghaiRuleSettings, description="rule settings"
    )
    lang: Lang = None


class HandScore(Schema):
    player: str
    cards: list[Card] = Field(description="the cards left, in card order")
    points: int = Field(description="what they cost")
    went_out: bool = Field(description="the player has no card left")


class ShanghaiScoreResponse(Schema):
    model_config = ConfigDict(json_schema_extra={"examples": [examples.SCORE_RESPONSE]})

    scores: list[HandScore] = Field(description="one per player, in the order given")

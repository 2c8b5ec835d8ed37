"""The wire schema: plain dicts in and out, shared by the library, CLI and HTTP.

Advice request (only ``hand`` and one of ``hand_number`` / ``contract`` are required)::

    {"hand": ["7H", "7S", ...], "hand_number": 1, "phase": "play",
     "table": [{"cards": ["8H", "8S", "8D"], "owner": "ann"}],
     "down": false, "upcard": "9C", "buys_left": 3, "seen": ["4C"],
     "next_player": {"down": false, "took": ["8C"]}, "rules": {}, "time_limit_ms": 2000,
     "lang": "en"}

``phase`` is ``"draw"`` (the hand before drawing) or ``"play"`` (after drawing);
without it the older mixed meaning holds (see :mod:`~solver.shanghai.advice`).
``lang`` (``en`` or ``ja``) is the language of the reasons, notes and error messages.

Score request::

    {"hands": {"ann": ["AS", "JK"], "bo": []}, "rules": {}}

Responses are described by :func:`advice_to_dict` and :func:`score_shanghai`; the
examples in :mod:`solver.shanghai.examples` show both in full.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from solver.errors import RequestError
from solver.i18n import _, speaks
from solver.shanghai.advice import DEFAULT_TIME_LIMIT, Advice, advise
from solver.shanghai.cards import Card
from solver.shanghai.contracts import Contract, buys_allowed
from solver.shanghai.draw import DrawOption, UpcardAdvice
from solver.shanghai.melds import Meld, TableMeld, read_table_meld
from solver.shanghai.plays import Discard, Swap, Turn
from solver.shanghai.position import NextPlayer, Phase, Position
from solver.shanghai.rules import Rules
from solver.shanghai.scoring import score_hands
from solver.wire import check_fields

MAX_TIME_LIMIT_MS = 300_000
MAX_HAND = 60
"""More cards than any legal hand holds (11 dealt, plus draws and bought cards)."""

ADVISE_FIELDS = (
    "hand",
    "hand_number",
    "contract",
    "table",
    "down",
    "upcard",
    "buys_left",
    "rules",
    "time_limit_ms",
    "phase",
    "seen",
    "next_player",
    "lang",
)
NEXT_PLAYER_FIELDS = ("down", "took")
SCORE_FIELDS = ("hands", "rules", "lang")
TABLE_MELD_FIELDS = ("cards", "owner")


@speaks
def advise_shanghai(request: Mapping[str, Any]) -> dict[str, Any]:
    """Advise on one Shanghai turn: wire request in, wire response out.

    Raises a :class:`~solver.errors.MeldwiseError` (a ``ValueError``) naming the bad
    field, card, meld or setting.
    """
    position, rules, time_limit = parse_advise_request(request)
    return advice_to_dict(advise(position, rules, time_limit=time_limit), position)


@speaks
def score_shanghai(request: Mapping[str, Any]) -> dict[str, Any]:
    """Score a hand's end: the penalty points each player's cards left cost.

    Response: ``{"scores": [{"player", "cards", "points", "went_out"}, ...]}`` in the
    order given.
    """
    check_fields(request, SCORE_FIELDS)
    if "hands" not in request:
        raise RequestError(
            _("missing field 'hands' (e.g. {example})", example='{"ann": ["AS", "JK"], "bo": []}')
        )
    hands = request["hands"]
    if not isinstance(hands, Mapping) or not hands:
        raise RequestError(
            _("'hands' must be an object of player name to cards, got {value!r:.60}", value=hands)
        )
    rules = Rules.from_dict(request.get("rules"))
    parsed = {
        str(name): _cards(cards, _("hand of {player!r}", player=name))
        for name, cards in hands.items()
    }
    return {
        "scores": [
            {
                "player": score.player,
                "cards": [str(c) for c in score.cards],
                "points": score.points,
                "went_out": score.went_out,
            }
            for score in score_hands(parsed, rules)
        ]
    }


def parse_advise_request(request: Mapping[str, Any]) -> tuple[Position, Rules, float]:
    """Check an advice request and turn it into typed values (the card counts are
    checked against the rules by :func:`~solver.shanghai.advice.advise`)."""
    check_fields(request, ADVISE_FIELDS)
    if "hand" not in request:
        raise RequestError(
            _("missing field 'hand' (a list of cards, e.g. {example})", example='["7H", "JK"]')
        )
    hand = _cards(request["hand"], "hand")
    if not hand:
        raise RequestError(_("'hand' is empty: a player with no cards has gone out"))
    if len(hand) > MAX_HAND:
        raise RequestError(
            _(
                "'hand' has {count} cards; a hand holds at most {most}",
                count=len(hand),
                most=MAX_HAND,
            )
        )
    rules = Rules.from_dict(request.get("rules"))
    contract, hand_number = _contract(request, rules)
    table_field = request.get("table", [])
    if not isinstance(table_field, list):
        raise RequestError(
            _("'table' must be a list of melds, got {value!r:.60}", value=table_field)
        )
    table = tuple(_table_meld(i, item, rules) for i, item in enumerate(table_field))
    down = request.get("down", False)
    if not isinstance(down, bool):
        raise RequestError(_("'down' must be true or false, got {value!r:.60}", value=down))
    upcard_field = request.get("upcard")
    upcard = None if upcard_field is None else _card(upcard_field, "upcard")
    allowed = buys_allowed(hand_number, rules)
    buys_left = request.get("buys_left", allowed)
    if isinstance(buys_left, bool) or not isinstance(buys_left, int):
        raise RequestError(
            _(
                "{name!r} must be a whole number, got {value!r:.60}",
                name="buys_left",
                value=buys_left,
            )
        )
    if not 0 <= buys_left <= allowed:
        raise RequestError(
            _(
                "'buys_left' must be 0 to {most} in this hand, got {value}",
                most=allowed,
                value=buys_left,
            )
        )
    limit_ms = request.get("time_limit_ms", int(DEFAULT_TIME_LIMIT * 1000))
    if isinstance(limit_ms, bool) or not isinstance(limit_ms, int):
        raise RequestError(
            _(
                "{name!r} must be a whole number, got {value!r:.60}",
                name="time_limit_ms",
                value=limit_ms,
            )
        )
    if not 1 <= limit_ms <= MAX_TIME_LIMIT_MS:
        raise RequestError(
            _(
                "{name!r} must be {lowest} to {highest}, got {value}",
                name="time_limit_ms",
                lowest=1,
                highest=MAX_TIME_LIMIT_MS,
                value=limit_ms,
            )
        )
    position = Position(
        tuple(hand),
        contract,
        table,
        down,
        upcard,
        buys_left,
        _phase(request.get("phase")),
        tuple(_cards(request.get("seen", []), "seen")),
        _next_player(request.get("next_player")),
    )
    return position, rules, limit_ms / 1000


def _phase(value: Any) -> Phase | None:
    if value is None:
        return None
    try:
        return Phase(value)
    except ValueError:
        raise RequestError(
            _(
                "'phase' must be 'draw' (before drawing) or 'play' (after drawing),"
                " got {value!r:.60}",
                value=value,
            )
        ) from None


def _next_player(value: Any) -> NextPlayer | None:
    if value is None:
        return None
    _object(value, "'next_player'", '{"down": false, "took": ["8C"]}', NEXT_PLAYER_FIELDS)
    down = value.get("down")
    if down is not None and not isinstance(down, bool):
        raise RequestError(
            _("next_player 'down' must be true, false or null, got {value!r:.60}", value=down)
        )
    return NextPlayer(down, tuple(_cards(value.get("took", []), "next_player took")))


def _contract(request: Mapping[str, Any], rules: Rules) -> tuple[Contract, int | None]:
    has_number, has_contract = "hand_number" in request, "contract" in request
    if has_number == has_contract:
        raise RequestError(
            _(
                "give exactly one of 'hand_number' (1-10, the standard contracts) or"
                " 'contract' (e.g. {example})",
                example='{"sets": [3, 3], "runs": [4]}',
            )
        )
    if has_number:
        number = request["hand_number"]
        return Contract.for_hand(number), number
    return Contract.from_dict(request["contract"], rules), None


def _table_meld(index: int, item: Any, rules: Rules) -> TableMeld:
    where = _("table meld {index}", index=index)
    _object(item, where, '{"cards": ["8H", "8S", "8D"], "owner": "ann"}', TABLE_MELD_FIELDS)
    if "cards" not in item:
        raise RequestError(_("{where} has no 'cards'", where=where))
    owner = item.get("owner")
    if owner is not None and not isinstance(owner, str):
        raise RequestError(
            _(
                "{where}: 'owner' must be a name or null, got {value!r:.60}",
                where=where,
                value=owner,
            )
        )
    meld = read_table_meld(index, _cards(item["cards"], where), rules)
    return TableMeld(meld, owner)


def _object(value: Any, where: str, example: str, known: tuple[str, ...]) -> None:
    """Raise :class:`RequestError` unless ``value`` is an object with only ``known`` fields."""
    if not isinstance(value, Mapping):
        raise RequestError(
            _(
                "{where} must be an object like {example}, got {value!r:.60}",
                where=where,
                example=example,
                value=value,
            )
        )
    for name in value:
        if name not in known:
            raise RequestError(
                _(
                    "unknown field {name!r:.60} in {where}; fields are {fields}",
                    name=name,
                    where=where.strip("'"),
                    fields=", ".join(known),
                )
            )


def _cards(value: Any, where: str) -> list[Card]:
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise RequestError(
            _(
                "{where} must be a list of card strings, got {value!r:.60}",
                where=where,
                value=value,
            )
        )
    return [_card(text, where) for text in value]


def _card(text: Any, where: str) -> Card:
    if not isinstance(text, str):
        raise RequestError(
            _("{where} must be a card string, got {value!r:.60}", where=where, value=text)
        )
    try:
        return Card.parse(text)
    except ValueError as error:
        raise type(error)(f"{where}: {error}") from None


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
    return {
        key: advice.yes,
        "rule": advice.rule,
        "deficiency_now": advice.deficiency_now,
        "deficiency_with": advice.deficiency_with,
    }


def advice_to_dict(advice: Advice, position: Position) -> dict[str, Any]:
    """The wire response for ``advice``.

    Lay-offs and swaps name table melds by index in the request's ``table``; melds
    laid this turn (``go_down.melds``) follow on, numbered from ``len(table)``.
    """
    go = advice.go_down
    laid = advice.lay_offs
    return {
        "status": advice.status.value,
        "contract": advice.contract.to_dict(),
        "deficiency": advice.deficiency,
        "penalty": advice.penalty,
        "go_down": None
        if go is None
        else {
            "melds": [meld_to_dict(m) for m in go.melds],
            "swaps": [_swap_to_dict(s) for s in go.swaps],
            "left": [str(c) for c in go.left],
            "penalty_left": go.penalty_left,
        },
        "lay_offs": None
        if laid is None
        else {
            "plays": [
                {"card": str(p.card), "meld": p.meld, "as": str(p.stands_for)} for p in laid.plays
            ],
            "swaps": [_swap_to_dict(s) for s in laid.swaps],
            "left": [str(c) for c in laid.left],
            "points_shed": laid.points_shed,
            "can_go_out": laid.can_go_out,
        },
        "discard": _discard_to_dict(advice.discard),
        "take_upcard": _upcard_to_dict(advice.take_upcard, "take"),
        "buy": _upcard_to_dict(advice.buy, "buy"),
        "notes": list(advice.notes),
        "phase": None if advice.phase is None else advice.phase.value,
        "end_of_turn": _end_to_dict(advice.turn),
        "draw_options": [_option_to_dict(o) for o in advice.draw_options],
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
    }


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 4)

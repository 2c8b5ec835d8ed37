"""Whole games over the wire (dict in, dict out; the library, CLI and HTTP share it):

* :func:`bot_rummikub`: a bot's move for one position;
* :func:`game_rummikub`: a whole game between bots, as a game record;
* :func:`review_rummikub`: the review of a game record.

The formats are documented in ``docs/games.md``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from solver.arena.runner import bot_seed
from solver.errors import RequestError
from solver.i18n import _, speaks
from solver.rummikub.bots import BOTS, Strong, make_bot
from solver.rummikub.deal import full_set
from solver.rummikub.engine import Game, GameSettings, View, added_tiles
from solver.rummikub.play import Objective
from solver.rummikub.record import read_record, record_to_dict
from solver.rummikub.review import review_game, review_to_dict
from solver.rummikub.solve import DEFAULT_TIME_LIMIT
from solver.rummikub.strategy import best_play
from solver.rummikub.wire import parse_opponents, parse_request
from solver.wire import check_fields

BOT_FIELDS = ("bot", "rack", "table", "opened", "opponents", "rules", "seed", "lang")
GAME_FIELDS = ("bots", "seed", "settings", "lang")
REVIEW_FIELDS = ("record", "player", "objective", "time_limit_ms", "lang")
MAX_REVIEW_TIME_LIMIT_MS = 60_000
MAX_REVIEW_TURNS = 400
"""Most turns one review solves (bot games of the standard rules took 30-120 turns)."""
MAX_GAME_TILES = 212
"""Most tiles a bot game may have (twice the standard set): it keeps a game to seconds."""


@speaks
def bot_rummikub(request: Mapping[str, Any]) -> dict[str, Any]:
    """A bot's move for one position::

        {"bot": "strong", "rack": ["R1", ...], "table": [["K7", "B7", "O7"]],
         "opened": true, "opponents": [{"rack_size": 9, "opened": true}],
         "rules": {}, "seed": 0}

    (``bot``, ``rack`` and ``opponents`` required) answers ``{"status", "bot",
    "action": "play" | "draw", "played", "rack_left", "table", "best_tiles",
    "reason"}``. The pool holds the game's tiles that are on no rack and not on the
    table. Raises a :class:`~solver.errors.MeldwiseError` naming the culprit.
    """
    check_fields(request, BOT_FIELDS, required=("bot", "rack", "opponents"))
    name = request["bot"]
    if not isinstance(name, str) or name not in BOTS:
        raise RequestError(_unknown_bot(name))
    view = _view(request)
    bot = make_bot(name, bot_seed(_whole(request, "seed", 0, 0, 2**31), 0))
    reason = None
    if isinstance(bot, Strong):
        decision = bot.decide(view)
        move, reason, best = decision.move, decision.reason, decision.best.tiles_played
    else:
        move = bot.choose(view)
        best = best_play(view.position, view.rules).tiles_played
    table = view.table if move.table is None else move.table
    played = added_tiles(view.table, table)
    left = Counter(view.rack)
    left.subtract(played)
    return {
        "status": "optimal",
        "bot": name,
        "action": "draw" if move.is_draw else "play",
        "played": [str(t) for t in played],
        "rack_left": [str(t) for t in sorted(left.elements())],
        "table": [[str(t) for t in tiles] for tiles in table],
        "best_tiles": best,
        "reason": reason,
    }


def _view(request: Mapping[str, Any]) -> View:
    """The bot's view: seat 0, the opponents after it in playing order."""
    fields = {k: request[k] for k in ("rack", "table", "opened", "rules") if k in request}
    asked = parse_request(fields)
    asked.position.check(asked.rules)
    return View.facing(asked.position, asked.rules, parse_opponents(request["opponents"]))


@speaks
def game_rummikub(request: Mapping[str, Any]) -> dict[str, Any]:
    """A whole game between bots::

        {"bots": ["strong", "greedy"], "seed": 0, "settings": {"pool_empty": "play_on"}}

    (``bots`` required: one name per seat) answers ``{"status": "optimal",
    "record": {...}}``, the game record (``docs/games.md``).
    """
    check_fields(request, GAME_FIELDS, required=("bots",))
    bots = request["bots"]
    if not isinstance(bots, list) or not all(isinstance(b, str) for b in bots):
        raise RequestError(_("'bots' must be a list of bot names, got {value!r:.60}", value=bots))
    for name in bots:
        if name not in BOTS:
            raise RequestError(_unknown_bot(name))
    seed = _whole(request, "seed", 0, 0, 2**31)
    settings_field = request.get("settings") or {}
    if not isinstance(settings_field, Mapping):
        raise RequestError(
            _("'settings' must be an object, got {value!r:.60}", value=settings_field)
        )
    settings = GameSettings.from_dict({**settings_field, "players": len(bots)})
    tiles = sum(full_set(settings.rules).values())
    if tiles > MAX_GAME_TILES:
        raise RequestError(
            _(
                "these rules make a game of {tiles} tiles; a bot game has at most {most}",
                tiles=tiles,
                most=MAX_GAME_TILES,
            )
        )
    game = Game.new(settings, seed)
    players = [make_bot(name, bot_seed(seed, seat)) for seat, name in enumerate(bots)]
    while not game.over:
        game.apply(players[game.to_move].choose(game.view()))
    return {"status": "optimal", "record": record_to_dict(game, bots)}


@speaks
def review_rummikub(request: Mapping[str, Any]) -> dict[str, Any]:
    """Review a game record::

        {"record": {...}, "player": 0, "objective": "tiles", "time_limit_ms": 2000}

    (only ``record`` required; ``player`` reviews one seat's turns; the time limit
    bounds each turn's solve). See :mod:`solver.rummikub.review` for the answer.
    """
    check_fields(request, REVIEW_FIELDS, required=("record",))
    record = read_record(request["record"])
    if len(record.turns) > MAX_REVIEW_TURNS:
        raise RequestError(
            _(
                "the record has {turns} turns; a review takes at most {most}",
                turns=len(record.turns),
                most=MAX_REVIEW_TURNS,
            )
        )
    player = request.get("player")
    if player is not None:
        player = _whole(request, "player", None, 0, record.settings.players - 1)
    name = request.get("objective", Objective.TILES.value)
    try:
        objective = Objective(name)
    except ValueError:
        raise RequestError(
            _("unknown objective {name!r:.60}; use 'tiles' or 'points'", name=name)
        ) from None
    limit = _whole(
        request, "time_limit_ms", round(DEFAULT_TIME_LIMIT * 1000), 1, MAX_REVIEW_TIME_LIMIT_MS
    )
    review = review_game(record, player=player, objective=objective, time_limit=limit / 1000)
    return review_to_dict(review, record)


def _whole(
    request: Mapping[str, Any],
    name: str,
    default: int | None,
    low: int,
    high: int,
    where: str = "",
) -> int:
    """The whole number field ``name`` from ``low`` to ``high``."""
    value = request.get(name, default)
    label = f"{where}.{name}" if where else repr(name)
    if isinstance(value, bool) or not isinstance(value, int):
        raise RequestError(
            _("{label} must be a whole number, got {value!r:.40}", label=label, value=value)
        )
    if not low <= value <= high:
        raise RequestError(
            _(
                "{label} must be {low} to {high}, got {value}",
                label=label,
                low=low,
                high=high,
                value=value,
            )
        )
    return value


def _unknown_bot(name: object) -> str:
    return _("unknown bot {name!r:.40}; bots are {bots}", name=name, bots=", ".join(BOTS))

"""``/v1/rummikub``: whole games: a bot's move, a bot game, a game review. Each route
hands its body to :mod:`solver.rummikub.game_wire`, in the solver workers.

The worker reads the body, checks the answer against its response model and sends
the bytes the route answers with (as the solve's, :data:`api.worker.RAW_TASKS`):
the server process, which every request goes through, reads none of them. Read
there, a 16 KB body of 5,300 empty table sets took it 15-20 ms of CPU (the
/healthz of others waited up to 240 ms under two such clients), a 510 KB record
of 170,000 up to 2.5 s."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response

from api.bodies import JSONRoute, add_body_routes
from api.deps import get_settings
from api.errors import bots_seated, documented_errors
from api.worker_answers import answered, answered_game, answered_review
from solver.rummikub.game_wire import (
    MAX_GAME_TILES,
    MAX_REVIEW_TURNS,
    BotRequest,
    BotResponse,
    GameRequest,
    GameResponse,
    ReviewRequest,
    ReviewResponse,
    bot_rummikub,
    game_rummikub,
    review_rummikub,
)

router = APIRouter(prefix="/v1/rummikub", tags=["rummikub games"], route_class=JSONRoute)
REVIEW_PATH = "/v1/rummikub/review"
"""The review takes a whole game record: its body limit is the record limit."""

CULPRITS = (
    "an unknown field, bot or tile, more copies of a tile than the game has, an invalid "
    "table set, a bad setting"
)
BAD_INPUT = documented_errors(CULPRITS)
GAME_BAD_INPUT = documented_errors(
    f"an unknown field or bot, {bots_seated(GameRequest)}, a seed out of range, a bad setting"
    " (a 'players' setting other than the bots seated included), rules that make a game of"
    f" more than {MAX_GAME_TILES} tiles, a bot move whose search its wall-clock safety cap"
    " stopped (it would depend on the machine), a game past the server's game budget"
    " (MELDWISE_GAME_BUDGET_MS of deterministic work; the message names 'rules')"
)
# A turn whose position is no position of the game (an invalid table set, more copies of
# a tile than the game has) is no refusal: it is answered, said unreviewed (docs/games.md).
REVIEW_BAD_INPUT = documented_errors(
    "an unknown field, a game record that does not read (an unknown tile, a deal that is"
    " not the game's tiles, turns not numbered 1, 2, 3, ..., a bad setting among them), a"
    f" player the game does not seat, a record of more than {MAX_REVIEW_TURNS} turns"
    " reviewed (the player's alone with 'player')"
)


async def bot(request: Request) -> Response:
    """A bot's move for a position: beginner, greedy (the best play) or strong (plays
    to win: it may hold tiles back, and says why)."""
    settings = await get_settings(request)
    return await answered(request, bot_rummikub, settings.game_budget_ms / 1000)


async def game(request: Request) -> Response:
    """A whole seeded game between bots: its game record (``record``), and ``status``
    ``optimal`` when every solve the bots made was proven."""
    return await answered_game(request, game_rummikub)


async def review(request: Request) -> Response:
    """Each turn of a game record beside its best play (proven), what it missed and
    whether it was legal; each player's accuracy, costliest turns and a per-turn series.
    Each turn's solve stops at ``time_limit_ms``, never later than the server's cap, and
    the turns reviewed share the server's game budget (MELDWISE_GAME_BUDGET_MS) as one
    clock from the review's start: none runs past it (a turn cut short has a best whose
    ``status`` is ``feasible`` or ``unknown``, and says ``time_capped``)."""
    return await answered_review(request, review_rummikub)


add_body_routes(
    router,
    (
        ("/bot", bot, BotRequest, BotResponse, BAD_INPUT),
        ("/game", game, GameRequest, GameResponse, GAME_BAD_INPUT),
        (
            REVIEW_PATH.removeprefix(router.prefix),
            review,
            ReviewRequest,
            ReviewResponse,
            REVIEW_BAD_INPUT,
        ),
    ),
)

"""``/v1/shanghai``: advice for a turn, a hand's score, a bot game and a game review. Each route
hands its body to :mod:`solver`, in the solver workers, which read it (the server
process only glances at an advice's, with ``json.loads``, for its time limit and
language; a review's it does not read)."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse

from api.bodies import JSONRoute, RawBody, add_body_routes, json_body
from api.deps import ClientDep, PoolDep
from api.errors import bots_seated, documented_errors
from api.worker_answers import answered_game, answered_review, answered_within_cap
from solver.shanghai.game_wire import (
    MAX_GAME_TURNS,
    MAX_REVIEW_TURNS,
    ShanghaiGameRequest,
    ShanghaiGameResponse,
    ShanghaiReviewRequest,
    ShanghaiReviewResponse,
    game_shanghai,
    review_shanghai,
)
from solver.shanghai.wire import (
    TIME_FACTOR,
    ShanghaiAdviseRequest,
    ShanghaiAdviseResponse,
    ShanghaiScoreRequest,
    ShanghaiScoreResponse,
    advise_shanghai,
    score_shanghai,
)

router = APIRouter(prefix="/v1/shanghai", tags=["shanghai"], route_class=JSONRoute)
REVIEW_PATH = "/v1/shanghai/review"
"""The review takes a whole game record: its body limit is the record limit."""

BAD_INPUT = documented_errors(
    "an unknown field or card, more copies of a card than the decks hold, an invalid table "
    "meld, a bad contract or hand number, a bad setting"
)
SCORE_BAD_INPUT = documented_errors(
    "an unknown field or card, more copies of a card than the decks hold, more than one player"
    " out (several empty hands: only one player goes out in a hand), a bad setting"
)
GAME_BAD_INPUT = documented_errors(
    f"an unknown field or bot, {bots_seated(ShanghaiGameRequest)}, a seed out of"
    " range, a bad setting (the message names it: \"settings.rules: rule 'decks' ...\","
    " \"settings: 'hands' ...\"),"
    " settings under which a hand's contract can never be met, or whose check of that did"
    ' not settle (the message names the hand: "settings: hand 1: ..."),'
    f" settings that allow more than {MAX_GAME_TURNS} turns (hands times max_turns), a bot"
    " move whose search its wall-clock safety cap stopped (it would depend on the machine),"
    " a game past the server's game budget (MELDWISE_GAME_BUDGET_MS of deterministic work;"
    " the message names 'hands' or 'max_turns')"
)
REVIEW_BAD_INPUT = documented_errors(
    "an unknown field, a game record that does not read or does not replay (the message"
    f" names its place), a record of more than {MAX_REVIEW_TURNS} turns reviewed, a"
    " player the game does not seat"
)


async def advise(request: Request) -> Response:
    """Advice for one turn: whether and how to go down, what to lay off, what to
    discard, whether to take or buy the upcard, and what the hand costs now. A
    phase's CP-SAT searches (the play's, the draw's) share a fixed work budget, which
    stops them, so that it answers the same on a loaded machine as on an idle one,
    within ten times ``time_limit_ms``, the outer safety cap (``time_limit_ms`` never
    more than the server's time cap); a turn cut by that clock says ``time_capped``,
    and has ``status`` ``feasible`` or ``unknown``; ``play_status`` says whether the
    search for the turn's plays itself finished, so whether a null ``go_down`` means
    none is possible."""
    # Read here, a 16 KB body of 3,200 cards took the server process 7-10 ms of CPU,
    # every other request waiting. The watchdog allows a phase's cap (the server process
    # does not read which phase is asked).
    return await answered_within_cap(request, advise_shanghai, stretch=TIME_FACTOR)


async def game(request: Request) -> Response:
    """A whole seeded game between bots (one per seat): its game record (``record``),
    which ``/v1/shanghai/review`` reads as it is, and ``status`` ``optimal`` when every
    solve the bots made was proven. The same request plays the same game. The game
    shares the server's game budget (MELDWISE_GAME_BUDGET_MS), as a Rummikub one."""
    return await answered_game(request, game_shanghai)


async def review(request: Request) -> Response:
    """Each play phase of a game record beside the best one (proven unless ``status``
    says otherwise): the penalty points the player left in hand after the plays, the
    fewest the best play leaves, and the shortfalls proven (could have gone out, could
    have gone down, points left beyond the best); each player's summary. The draw and
    the discard are not judged. Each turn's solve stops at a fixed deterministic work,
    or at ``time_limit_ms``, never later than the server's cap, the turns reviewed
    sharing the server's game budget (MELDWISE_GAME_BUDGET_MS) as one clock from the
    review's start (a turn it cuts says ``time_capped``)."""
    return await answered_review(request, review_shanghai)


add_body_routes(
    router,
    (
        ("/advise", advise, ShanghaiAdviseRequest, ShanghaiAdviseResponse, BAD_INPUT),
        ("/game", game, ShanghaiGameRequest, ShanghaiGameResponse, GAME_BAD_INPUT),
        (
            REVIEW_PATH.removeprefix(router.prefix),
            review,
            ShanghaiReviewRequest,
            ShanghaiReviewResponse,
            REVIEW_BAD_INPUT,
        ),
    ),
)


@router.post(
    "/score",
    response_model=ShanghaiScoreResponse,
    responses=SCORE_BAD_INPUT,
    openapi_extra=json_body(ShanghaiScoreRequest),
)
async def score(body: RawBody, pool: PoolDep, client: ClientDep) -> JSONResponse:
    """A hand's end: the penalty points each player's cards left cost."""
    answer = await pool.run_body(score_shanghai, body, client=client)
    return JSONResponse(answer)

"""The routes' answers written by a solver worker: the request's body handed as it
came to the pool (:meth:`api.pool.SolverPool.answer_body`), which reads it, solves, checks
the answer against the route's response model and sends the bytes the route answers
with. Every game's routes answer so (a solve, a repair, a Shanghai advice, a bot's
move, a game, a review); the server process only glances at the body
(:func:`glance`)."""

from __future__ import annotations

import json
from collections.abc import Mapping

from fastapi import Request, Response
from starlette.exceptions import HTTPException

from api.deps import get_client, get_pool, get_settings
from api.pool import WireSolver
from api.settings import Settings
from solver.i18n import _, set_language, tag_language
from solver.rummikub import DEFAULT_TIME_LIMIT
from solver.wire import whole_number

DEFAULT_TIME_LIMIT_MS = round(DEFAULT_TIME_LIMIT * 1000)


async def answered_within_cap(
    request: Request, solver: WireSolver, *, sized: bool = False, stretch: float = 1
) -> Response:
    """The worker's answer to the request's body, as a solve's: the worker reads the
    body, lowers its ``time_limit_ms`` to the server's cap, and checks and writes the
    answer (a repair, a Shanghai advice); the server process only glances at the body
    for its time limit (the watchdog's budget, ``stretch`` times it for an answer whose
    safety cap is that many times its time limit) and language (a refusal's), and, when
    ``sized``, for its tiles (:func:`refuse_too_big`)."""
    settings = await get_settings(request)
    limit_ms, _advised = await glanced(request, settings, sized=sized)
    caps = {"time_limit_ms": settings.time_cap_ms}
    return await answered(request, solver, stretch * settings.capped_ms(limit_ms) / 1000, caps)


async def glanced(request: Request, settings: Settings, *, sized: bool) -> tuple[int, bool]:
    """The ``time_limit_ms`` of the request's body and whether it asks for advice
    (:func:`glance`), with the body's language set for a refusal, and, when ``sized``, a
    position too big refused (:func:`refuse_too_big`) in that language."""
    limit_ms, lang, tiles, advised = glance(await request.body())
    if lang is not None:
        set_language(lang)  # a refusal, too, speaks the body's language
    if sized:
        refuse_too_big(request, settings, tiles)
    return limit_ms, advised


async def answered(
    request: Request, solver: WireSolver, budget_s: float, caps: Mapping[str, int] | None = None
) -> Response:
    """The worker's answer to the request's body, read and answered there by ``solver``
    within ``budget_s`` seconds (plus the watchdog's margin), each field named in
    ``caps`` lowered to its cap: the bytes the route answers with, as they came."""
    pool = await get_pool(request)
    answer = await pool.answer_body(
        solver,
        await request.body(),  # a body read before is kept: not read again
        client=await get_client(request),
        budget_s=budget_s,
        caps=caps or {},
    )
    return Response(answer, media_type="application/json")


async def answered_review(request: Request, solver: WireSolver) -> Response:
    """A game review's answer (either game's): each turn's solve lowered to the
    server's time cap, the turns reviewed sharing the server's game budget as one clock
    (:data:`api.worker.REVIEWS`)."""
    settings = await get_settings(request)
    caps = {"time_limit_ms": settings.time_cap_ms, "game_budget_ms": settings.game_budget_ms}
    # The watchdog's budget: the game budget, plus the turns' solves, which share it.
    return await answered(request, solver, 2 * settings.game_budget_ms / 1000, caps)


async def answered_game(request: Request, solver: WireSolver) -> Response:
    """A bot game's answer (either game's): played within the server's game budget of
    deterministic work (:func:`solver.cpsat.game_budget`: CP-SAT's work of its solves
    and a charge per move and per model, in milliseconds of about an idle machine's
    CPU time), a game past it refused (422, naming the setting that asks too much:
    the same request plays the same game, and is refused the same, on any load); the
    watchdog allows :data:`GAME_WATCHDOG_FACTOR` times the budget of wall-clock time,
    past which a worker slowed by load is replaced (503, to try again)."""
    settings = await get_settings(request)
    caps = {"game_budget_ms": settings.game_budget_ms}
    budget_s = GAME_WATCHDOG_FACTOR * settings.game_budget_ms / 1000
    return await answered(request, solver, budget_s, caps)


GAME_WATCHDOG_FACTOR = 2
"""The watchdog's allowance for a bot game, in game budgets of wall-clock time: the
work counted is about an idle machine's CPU time, but a kind of game may take up to
1.4 times its work in CPU time on a busy machine (two strong Rummikub bots on 8
colours, benchmarks/RESULTS.md, "A bot game's work"); the rest is for load."""


def refuse_too_big(request: Request, settings: Settings, tiles: int) -> None:
    """Refuse (422, in the language set from the body) a position of more than
    ``MELDWISE_MAX_SOLVE_TILES`` tiles on its rack and table (``tiles``, as
    :func:`glance` counts them), before it reaches a worker: CP-SAT's time limit bounds
    the search, not the building of the model before it, whose time grows with the
    position, whatever the limit (docs/http.md, "Solving under load", gives what a
    large one took)."""
    if tiles > settings.max_solve_tiles:
        request.app.state.metrics.rejected.labels("invalid").inc()
        raise HTTPException(
            422,
            _(
                "this position holds {tiles} tiles on the rack and table; this server"
                " solves positions of at most {limit}",
                tiles=tiles,
                limit=settings.max_solve_tiles,
            ),
        )


def glance(body: bytes) -> tuple[int, str | None, int, bool]:
    """The ``time_limit_ms`` and the ``lang`` a solve request's body asks for (the
    default limit, and None, where it names none that reads), the tiles it holds
    on the rack and table (as far as they are lists), and whether it asks for advice
    (gives ``opponents``): a quick look, for the watchdog and the fair queue, for the
    language of a refusal, and for the size limit; the worker reads the body
    strictly, and refuses a bad value."""
    try:
        asked = json.loads(body)
    except (ValueError, RecursionError):
        return DEFAULT_TIME_LIMIT_MS, None, 0, False
    if not isinstance(asked, dict):
        return DEFAULT_TIME_LIMIT_MS, None, 0, False
    limit, lang = asked.get("time_limit_ms"), asked.get("lang")
    limit = whole_number(limit)  # 1e4 is 10000, as the worker reads it
    if not isinstance(limit, int) or isinstance(limit, bool) or limit < 0:
        limit = DEFAULT_TIME_LIMIT_MS
    rack, table = asked.get("rack"), asked.get("table")
    tiles = len(rack) if isinstance(rack, list) else 0
    if isinstance(table, list):
        tiles += sum(len(meld) for meld in table if isinstance(meld, list))
    advised = asked.get("opponents") is not None
    return limit, tag_language(lang), tiles, advised

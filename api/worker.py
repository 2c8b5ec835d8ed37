"""A solver worker process: ``python -m api.worker MAX_ANSWER_BYTES``.

The server (:mod:`api.pool`) starts each worker in a session of its own, so a
Ctrl-C or a SIGTERM sent to the server's process group never reaches it: the
server decides when its workers stop. The worker talks on its standard input and
output, one JSON object per line:

* in: ``{"task": "validate_rummikub", "body": "...", "lang": "en"}`` (a request
  body as it came, read here: see :data:`BODY_TASKS`),
  ``{"task": "solve_rummikub", "body": "...", "lang": "en", "caps": {...}}`` (the
  same, answered as bytes: see :data:`RAW_TASKS`), or ``{"task": "ping"}``;
* out: first ``{"ready": pid}`` once warm, then one answer per line read:
  ``{"ok": response}``, ``{"answer": size, "status": status}`` followed by the
  ``size`` bytes of the answer's JSON as the client gets it (a
  :data:`RAW_TASKS` task), ``{"invalid": message, "places": places}`` (a
  :class:`~solver.errors.MeldwiseError` and the places it quotes: the API's 422),
  ``{"bad_body": [status, message]}`` (a body that does not read as JSON),
  ``{"too_large": bytes}`` (the answer is over ``MAX_ANSWER_BYTES``),
  ``{"failed": "internal error"}`` (a bug: the traceback goes to standard error) or
  ``{"pong": pid}``.

It exits when its standard input closes, and dies with the server (Linux).
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import signal
import sys
import traceback
from collections.abc import Callable, Mapping
from typing import IO, Any

from pydantic import BaseModel, TypeAdapter
from starlette.responses import JSONResponse

from api.reading import BodyError, read_body
from solver import (
    MeldwiseError,
    advise_shanghai,
    repair_rummikub,
    score_rummikub,
    score_shanghai,
    solve_rummikub,
    validate_rummikub,
)
from solver.cpsat import game_budget, shared_clock
from solver.errors import RequestError
from solver.i18n import _, _n, language, tag_language
from solver.rummikub.game_wire import (
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
from solver.rummikub.wire import (
    RepairRequest,
    RepairResponse,
    ScoreResponse,
    SolveRequest,
    SolveResponse,
    ValidateResponse,
)
from solver.shanghai.game_wire import (
    ShanghaiGameRequest,
    ShanghaiGameResponse,
    ShanghaiReviewRequest,
    ShanghaiReviewResponse,
    game_shanghai,
    review_shanghai,
)
from solver.shanghai.wire import (
    ShanghaiAdviseRequest,
    ShanghaiAdviseResponse,
    ShanghaiScoreResponse,
)
from solver.wire import AS_WRITTEN, Request, read

WireFunction = Callable[[Mapping[str, Any]], dict[str, Any]]

MAX_PROBLEMS = 50
"""Most problems listed in a validate answer (the last one then says how many more),
so an answer stays small whatever the move."""


def validate_bounded(request: Mapping[str, Any]) -> dict[str, Any]:
    """:func:`validate_rummikub`, listing at most :data:`MAX_PROBLEMS` problems."""
    answer = validate_rummikub(request)
    problems = answer["problems"]
    if len(problems) > MAX_PROBLEMS:
        more = len(problems) - MAX_PROBLEMS + 1
        with language(request.get("lang")):  # the answer's language, checked by now
            reason = _n("and {n} more problem", "and {n} more problems", more)
        answer["problems"] = [*problems[: MAX_PROBLEMS - 1], {"set": None, "reason": reason}]
    return answer


BODY_TASKS: dict[str, tuple[WireFunction, type[BaseModel]]] = {
    "validate_rummikub": (validate_bounded, ValidateResponse),
    "score_rummikub": (score_rummikub, ScoreResponse),
    "score_shanghai": (score_shanghai, ShanghaiScoreResponse),
}
"""Tasks whose request body the server passes on unread, with the answer's model:
the worker reads the JSON (:func:`api.reading.read_body`), checks it, answers and
checks the answer, so that every CPU cost of a request is paid here, in the
client's fair share of the workers, and none in the server process. These are the
cheap-to-answer routes a client may send by the hundred (move checks, scores),
whose bodies are the bulk of their cost."""


RAW_TASKS: dict[str, tuple[Callable[[Any], dict[str, Any]], type[Request], TypeAdapter[Any]]] = {
    "solve_rummikub": (solve_rummikub, SolveRequest, TypeAdapter(SolveResponse)),
    "repair_rummikub": (repair_rummikub, RepairRequest, TypeAdapter(RepairResponse)),
    "bot_rummikub": (bot_rummikub, BotRequest, TypeAdapter(BotResponse)),
    "game_rummikub": (game_rummikub, GameRequest, TypeAdapter(GameResponse)),
    "review_rummikub": (review_rummikub, ReviewRequest, TypeAdapter(ReviewResponse)),
    "advise_shanghai": (
        advise_shanghai,
        ShanghaiAdviseRequest,
        TypeAdapter(ShanghaiAdviseResponse),
    ),
    "game_shanghai": (game_shanghai, ShanghaiGameRequest, TypeAdapter(ShanghaiGameResponse)),
    "review_shanghai": (
        review_shanghai,
        ShanghaiReviewRequest,
        TypeAdapter(ShanghaiReviewResponse),
    ),
}
"""Tasks whose request body the worker reads (as for :data:`BODY_TASKS`) and whose
answer it sends as the very bytes the client gets, with the request and answer
models: the request is read once, here, within the server's caps; the answer is
checked against its model once, here, and serialised as FastAPI serialises a
route's ``response_model`` (by alias, only the fields the library set), so the
server process neither reads the request nor reads the answer again. The solve is
the route clients call by the thousand: every copy saved counts. A repair, a bot's
move, a bot game, a review and a Shanghai advice are here too: read in the server
process, a 16 KB body of empty table sets took it 15-20 ms of CPU (of 3,200 Shanghai
cards 7-10 ms), a record within the record limit up to 2.5 s, every other request
waiting."""


def review_turn_ms(
    request: ReviewRequest | ShanghaiReviewRequest, caps: Mapping[str, int]
) -> dict[str, int]:
    """A review's ``time_limit_ms`` for each turn's solve (either game's): the
    request's, never above the server's time cap (``caps["time_limit_ms"]``). The
    turns reviewed share the server's game budget (``caps["game_budget_ms"]``) as one
    clock, the outer cap (:data:`REVIEWS`): 400 turns of a hard position at 2 s each
    could hold a worker for 13 minutes. (Each turn had the budget over the turns: 295
    ms for the 406 turns of a whole Shanghai game, which a busy worker turned into
    cuts the library did not make.)"""
    return {"time_limit_ms": min(request.time_limit_ms, caps["time_limit_ms"])}


def _capped(request: Any, caps: Mapping[str, int]) -> dict[str, int]:
    return {name: min(getattr(request, name), cap) for name, cap in caps.items()}


GAMES = frozenset({"game_rummikub", "game_shanghai"})
""":data:`RAW_TASKS` tasks that play a bot game: no field of theirs is lowered; the
server's game budget (``caps["game_budget_ms"]``) bounds the play
(:func:`~solver.cpsat.game_budget`)."""


LOWERED: dict[str, Callable[[Any, Mapping[str, int]], dict[str, int]]] = {
    "review_rummikub": review_turn_ms,
    "review_shanghai": review_turn_ms,
}
"""How a :data:`RAW_TASKS` task's request is lowered to the server's caps, where
not each field named in the caps to its cap."""

REVIEWS = frozenset({"review_rummikub", "review_shanghai"})
""":data:`RAW_TASKS` tasks whose turns share the server's game budget
(``caps["game_budget_ms"]``) of wall-clock time, each turn's solve within its own time
limit too (:func:`~solver.cpsat.shared_clock`)."""

WRITTEN: dict[str, Any] = {"bot_rummikub": AS_WRITTEN, "review_rummikub": AS_WRITTEN}
"""The serialisation context of a :data:`RAW_TASKS` task's answer, where it has one:
a bot's or a review's tables keep each joker as written (``J(R4)``), which decides
how its set reads."""

AS_JSON_RESPONSE = frozenset({"advise_shanghai"})
""":data:`RAW_TASKS` tasks whose answer is written as FastAPI writes a route's
``response_model`` by default: every field, the unset ones (their defaults) too,
through Starlette's ``JSONResponse`` (Python's ``json``, whose floats read as
``1e-05`` where pydantic writes ``0.00001``). The Shanghai advice was answered so
when the server process wrote it: its answers stay the same bytes."""


def raw_answer(
    task: str, body: str, lang: str, caps: Mapping[str, int]
) -> tuple[bytes, str | None]:
    """The answer to a :data:`RAW_TASKS` task's request ``body`` (as for
    :func:`from_body`) as JSON bytes, with its ``status``; each field named in
    ``caps`` (the server's limits, e.g. ``time_limit_ms``) lowered to its cap (or
    as :data:`LOWERED` says)."""
    function, asked_as, answered_as = RAW_TASKS[task]
    with language(lang):
        request = _read(_json_request(body, lang), asked_as)
        if task in GAMES:
            with game_budget(caps["game_budget_ms"]):
                answer = function(request)
        else:
            lowered = request.model_copy(update=LOWERED.get(task, _capped)(request, caps))
            with shared_clock(caps["game_budget_ms"] / 1000 if task in REVIEWS else None):
                answer = function(lowered)
        checked = answered_as.validate_python(answer)
        if task in AS_JSON_RESPONSE:
            dumped = answered_as.dump_python(checked, mode="json", by_alias=True)
            data = bytes(JSONResponse(dumped).body)
        else:
            data = answered_as.dump_json(
                checked, by_alias=True, exclude_unset=True, context=WRITTEN.get(task)
            )
        return data, answer.get("status")


def _read(request: Any, model: type[Request]) -> Request:
    """``request`` read as ``model``, its errors said in its own ``lang`` (as
    :func:`solver.i18n.speaks` has a wire function read its request)."""
    lang = request.get("lang") if isinstance(request, Mapping) else None
    with language(tag_language(lang)):
        return read(model, request)


def _json_request(body: str, lang: str) -> Any:
    """A body's JSON value, read strictly, with ``lang`` filled in where it is absent."""
    raw = body.encode("utf-8", "surrogateescape")
    if not raw:
        raise RequestError(_("the request needs a JSON body"))
    request = read_body(raw)
    if isinstance(request, dict) and request.get("lang") is None:
        request["lang"] = lang
    return request


def from_body(task: str, body: str, lang: str) -> dict[str, Any]:
    """The answer to a :data:`BODY_TASKS` task's request ``body`` (the bytes sent,
    decoded with ``surrogateescape``), said in the request's ``lang``, else ``lang``
    (the ``Accept-Language`` header's)."""
    function, model = BODY_TASKS[task]
    with language(lang):  # what the request body's own errors are said in
        answer = function(_json_request(body, lang))
        return model.model_validate(answer).model_dump(mode="json")


WARM_UP_REQUEST = {"rack": ["R1", "R2", "J"], "table": [["R3", "R4", "R5"]], "time_limit_ms": 2000}

WORKER_NICENESS = 5
"""Workers run at a lower CPU priority than the server process, so that when the
cores are saturated the server still answers at once: health checks, bad requests
and refusals take little CPU, and solves get all the rest."""

PR_SET_PDEATHSIG = 1


def _batch_scheduling() -> None:
    """Run under Linux's ``SCHED_BATCH`` policy (CPU-bound work): a worker woken by
    a task then no longer preempts the server process in the middle of its event
    loop turn (the pipe write that hands over the task), but waits for it to yield
    its core. Measured (RESULTS.md, issue 14l): under 16 self-play clients, the
    server's pipe write handing over a task (a few hundred bytes) took 0.76 ms of
    wall time per call; with this, 0.94-1.16x main's solves/s in the same run
    (median 1.03x, noisy), ~1% less CPU per answer."""
    if hasattr(os, "SCHED_BATCH"):
        # A sandbox may forbid the call (seccomp): the worker then runs as it was.
        with contextlib.suppress(OSError):
            os.sched_setscheduler(0, os.SCHED_BATCH, os.sched_param(0))


def _ignore_stop_signals() -> None:
    """SIGINT and SIGTERM are the server's to handle (a search leaves them alone:
    :func:`solver.cpsat.run` turns CP-SAT's own SIGINT handler off)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)


def _die_with_parent() -> None:
    """Ask Linux to kill this process when the server process dies, however it dies."""
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def answer(message: Mapping[str, Any], max_bytes: int) -> bytes:
    """The line that answers one message read from the server."""
    task = message.get("task")
    if task == "ping":
        return _line({"pong": os.getpid()})
    try:
        if "caps" in message:
            data, status = raw_answer(str(task), message["body"], message["lang"], message["caps"])
            if len(data) > max_bytes:
                return _line({"too_large": len(data)})
            return _line({"answer": len(data), "status": status}) + data
        reply: dict[str, Any] = {"ok": from_body(str(task), message["body"], message["lang"])}
    except MeldwiseError as error:
        reply = {"invalid": str(error), "places": error.places}
    except BodyError as error:
        reply = {"bad_body": [error.status, error.detail]}
    except Exception:
        traceback.print_exc()
        reply = {"failed": "internal error"}
    line = _line(reply)
    if len(line) > max_bytes:
        line = _line({"too_large": len(line)})
    return line


def _line(reply: Mapping[str, Any]) -> bytes:
    # ASCII only: a lone surrogate in an echoed input cannot break the encoding.
    return json.dumps(reply, separators=(",", ":")).encode("ascii") + b"\n"


def serve(requests: IO[bytes], answers: IO[bytes], max_bytes: int) -> None:
    """Answer each line of ``requests`` on ``answers`` until ``requests`` closes."""
    solve_rummikub(WARM_UP_REQUEST)  # pay CP-SAT's first-solve cost before any request
    answers.write(_line({"ready": os.getpid()}))
    answers.flush()
    for line in requests:
        answers.write(answer(json.loads(line), max_bytes))
        answers.flush()


def _lower_priority() -> None:
    """Run :data:`WORKER_NICENESS` below the server. Where Linux groups processes by
    session (autogroup, ``kernel.sched_autogroup_enabled``) a process's niceness
    only counts within its group, and a worker leads a session, hence a group, of
    its own: the group gets the same niceness, so that the server really comes
    first (without it a worker had a core's share equal to the server's)."""
    os.nice(WORKER_NICENESS)
    if os.getsid(0) == os.getpid():  # its own group: never lower the server's
        with contextlib.suppress(OSError), open("/proc/self/autogroup", "w") as group:
            group.write(str(WORKER_NICENESS))


def main() -> None:
    _lower_priority()
    _batch_scheduling()
    _ignore_stop_signals()
    _die_with_parent()
    # Answers go on a private copy of standard output; anything else a library
    # prints goes to standard error, so it can never be taken for an answer.
    answers = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    serve(sys.stdin.buffer, answers, int(sys.argv[1]))


if __name__ == "__main__":
    main()

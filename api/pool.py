"""Solver worker processes: admission, fair order, a watchdog and readiness.

Every request that costs CPU (a solve, a repair, a move check, a score, a bot's
move, a bot game, a review, a Shanghai advice) runs in one of ``workers`` worker
processes (:mod:`api.worker`), one task at a time each, which reads its body, while
the event loop only waits. The pool decides who runs next:

* **Admission**: at most ``workers + queue`` tasks are admitted at once (running
  or waiting), and at most ``client_share`` of them from one client; one more is
  refused at once, with :class:`Unavailable` (503) or :class:`ClientBusy` (429).
* **Fair order**: waiting tasks are served first come, first served, except that a
  client that has used more than :data:`SLACK_S` seconds of worker time more than
  another waiting client (counted while each has tasks in the pool, as in
  start-time fair queueing) waits until the others catch up; so a client whose
  requests take seconds gets its share of worker time, not of requests, while
  clients with like requests keep the plain order and its even waits.
* **Watchdog**: a task that runs longer than its budget (what its route reckons its
  time limits allow, at least ``floor``: the server's time cap) plus ``margin``
  gets its worker killed and replaced; only that task fails (503). A worker that
  dies fails only the task it held, and an idle worker is pinged every
  :data:`HEARTBEAT_S` seconds, so a dead or stopped one is replaced before a
  request finds it.
* **A request that goes away** (503 for the request timeout, or its client gone)
  takes its task with it: a waiting task is dropped; a running one that its time
  limits let run more than :data:`STOP_WORTH_S` longer gets its worker killed and
  replaced as the watchdog's is, rather than holding it for nobody.
* **Retry-After**: a client refused because the pool is full is told to come back
  when the clients refused lately can have been served at the rate tasks finish
  (:class:`Crowd`), so that an overloaded server spends its time solving rather
  than refusing the same clients again and again.
* **Readiness**: :meth:`SolverPool.health` is ready while at least one worker is
  up, warm and within its budget (give or take :data:`LATE_S`): the others' tasks
  wait their turn in the queue. A worker being replaced (a request that went away
  frees one several times a minute under load) does not take the whole server out
  of a load balancer's rotation while the rest serve.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import math
import sys
import time
from collections import deque
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from api.logs import REQUEST_ID
from api.metrics import Metrics
from api.reading import BodyError
from solver.errors import MeldwiseError
from solver.i18n import _, _n, current, language, tag_language

WireSolver = Callable[[Mapping[str, Any]], dict[str, Any]]
"""A dict-in, dict-out entry point of the library, which names a worker's task
(:data:`api.worker.BODY_TASKS`, :data:`api.worker.RAW_TASKS`)."""

HEARTBEAT_S = 2.0
"""An idle worker is pinged when it has had no task for this long."""

PING_TIMEOUT_S = 3.0
"""A worker that does not answer a ping in this time is taken for hung (the event
loop's running time: see :func:`within`)."""

TICK_S = 0.25
"""The step in which :func:`within` counts a worker's time."""

START_TIMEOUT_S = 120.0
"""Longest a new worker may take to start and warm up."""

STOP_WORTH_S = 1.0
"""A running task whose request went away (503 for the request timeout, or its
client gone) gets its worker stopped and replaced when its time limits let it run
longer than this; a shorter one finishes. Starting a worker (Python, the imports,
the warm-up solve) costs about this much CPU: 0.8-1.0 s on this project's 2-core
machine."""

LATE_S = 1.0
"""A task this long past its budget (a solve's CP-SAT time limit covers nearly all
its work) makes the pool not ready, until it ends or the watchdog kills it."""

SLACK_S = 0.5
"""How far ahead of the least-served waiting client another may be in worker
seconds and still be served in its turn of arrival."""

RATE_WINDOW_S = 3.0
"""Time constant of the finishing rate :class:`Crowd` measures."""

LONGEST_RETRY_AFTER_S = 60
"""The longest ``Retry-After`` a full pool asks for."""

FIRST_ESTIMATE_S = 0.05
"""Worker time charged for a client's first task, before its own average is known."""

IDLE_CLIENTS_KEPT = 4096
"""Idle clients remembered with a debt (more worker time used than the clients now
served): beyond, the longest idle is forgotten, and starts level when it comes back,
as a client does from a new address. Clients that each send one task never raise the
level, so without a bound every client that ever sent a request was kept."""

log = logging.getLogger("meldwise.pool")


class Unavailable(Exception):
    """The pool cannot take or finish this task now (full, a worker lost, shutting
    down); the message says why. The client should retry after ``retry_after``
    seconds (None: the server's ``Retry-After`` setting)."""

    def __init__(self, message: str, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


def shutting_down() -> Unavailable:
    """The refusal of a task, waiting or new, while the server shuts down."""
    return Unavailable(_("the server is shutting down; try again shortly"))


class ClientBusy(Exception):
    """This client already has its share of tasks in the pool (429)."""


class InvalidRequest(MeldwiseError):
    """A worker found the request not a real game, or its answer too large (422)."""


def too_large(task: str, limit: int) -> str:
    """Why an answer over the answer limit (``limit`` bytes) is refused, and what to
    send instead. A review's answer grows with the record's turns (and the problems
    of its illegal ones); any other answer with the request's position."""
    if task in ("review_rummikub", "review_shanghai"):
        return _(
            "the review would be over the server's answer limit of {limit} bytes; "
            "review fewer turns (part of the record) or one player ('player')",
            limit=limit,
        )
    return _(
        "the answer would be over the server's limit of {limit} bytes; send a smaller request",
        limit=limit,
    )


def language_of(job: Job) -> str:
    """The language the answer to ``job`` is said in: its body's own ``lang`` where it
    names one, else the job's. The server reads the body only on the rare paths where
    it answers for the worker (a worker lost, an answer over the limit)."""
    try:
        asked = json.loads(job.body)
    except (ValueError, RecursionError):
        return job.lang
    if isinstance(asked, dict):
        return tag_language(asked.get("lang")) or job.lang
    return job.lang


@dataclass(eq=False)
class Job:
    """One task on its way through the pool."""

    task: str
    body: str
    """The request body as sent (decoded with ``surrogateescape``), for the worker to
    read (:data:`api.worker.BODY_TASKS`, :data:`api.worker.RAW_TASKS`)."""
    lang: str
    """The language active when the task was made (the ``Accept-Language`` header's, or
    the body's where the route glanced at it), which the worker answers in where the
    body names none."""
    client: str
    budget: float
    """Seconds the task may take (its time limits); the watchdog adds the margin."""
    future: asyncio.Future[dict[str, Any]]
    request_id: str
    caps: Mapping[str, int] | None = None
    """For a task answered as bytes (:data:`api.worker.RAW_TASKS`): the server's caps
    on the request's fields, which the worker applies as it reads the body."""
    arrival: int = 0
    """Its place in the order of admission."""
    charged: float = 0.0
    started: float | None = None


@dataclass(eq=False)
class _Client:
    used: float = 0.0
    """Worker seconds used by finished tasks while active (a client that becomes
    active is first brought level with the others)."""
    ahead: float = 0.0
    """Worker seconds charged ahead for its running tasks."""
    admitted: int = 0
    estimate: float = FIRST_ESTIMATE_S
    """Running average of this client's task times, charged ahead when a task without
    a time limit starts."""
    waiting: deque[Job] = field(default_factory=deque)


class FairQueue:
    """Admitted tasks, handed to free workers in the fair order of the module's
    docstring."""

    def __init__(self) -> None:
        self._clients: dict[str, _Client] = {}
        self._idle: dict[str, None] = {}
        """The idle clients of :attr:`_clients` (kept for their debt), longest idle
        first."""
        self._arrivals = itertools.count()
        self._takers: deque[asyncio.Future[Job]] = deque()
        self._virtual = 0.0
        """The least ``used`` of the clients waiting when a task was last handed out:
        where a client that becomes active starts."""
        self.admitted = 0
        self.waiting = 0

    @property
    def remembered(self) -> int:
        """Clients remembered: with tasks in the pool, or idle with a debt."""
        return len(self._clients)

    def admitted_by(self, client: str) -> int:
        state = self._clients.get(client)
        return state.admitted if state else 0

    def admit(self, job: Job) -> None:
        state = self._clients.setdefault(job.client, _Client())
        if state.admitted == 0:
            self._idle.pop(job.client, None)
            # An idle client starts level with the others: no credit saved up while
            # away, but a debt (more used than the others) is kept.
            state.used = max(state.used, self._virtual)
        state.admitted += 1
        self.admitted += 1
        job.arrival = next(self._arrivals)
        self._enqueue(job, state, front=False)

    async def take(self) -> Job:
        """The next task to run, waiting for one if none is queued."""
        if self.waiting:
            return self._pop_fairest()
        taker: asyncio.Future[Job] = asyncio.get_running_loop().create_future()
        self._takers.append(taker)
        try:
            return await taker
        except asyncio.CancelledError:
            if taker.done() and not taker.cancelled():
                self.put_back(taker.result())  # handed over, but its worker is gone
            with contextlib.suppress(ValueError):
                self._takers.remove(taker)
            raise

    def put_back(self, job: Job) -> None:
        """Return a task that was taken but never ran, at the head of its client's line."""
        state = self._clients[job.client]
        state.ahead -= job.charged
        job.charged = 0.0
        self._enqueue(job, state, front=True)

    def withdraw(self, job: Job) -> None:
        """Drop a waiting task whose request went away (one already handed to a
        worker is dropped by the worker, which finds its future done)."""
        state = self._clients[job.client]
        if job in state.waiting:
            state.waiting.remove(job)
            self.waiting -= 1
            self._release(job.client, state)

    def finish(self, job: Job, seconds: float) -> None:
        """A task that ran for ``seconds`` is over: charge its client the real time."""
        state = self._clients[job.client]
        state.ahead -= job.charged
        state.used += seconds
        state.estimate = (state.estimate + seconds) / 2
        self._release(job.client, state)

    def lost(self, job: Job) -> None:
        """A task whose worker was lost (killed by the watchdog, or dead) is over: charge
        its client its usual task time (its estimate), neither the budget charged ahead
        nor the time the worker was held. The loss may well not be its doing; charged
        the budget, its next request waited until every other client had used as much
        (8 s behind 15 busy clients, `python -m benchmarks.abuse --rows 3`)."""
        self.finish(job, self._clients[job.client].estimate)

    def forget_idle(self) -> None:
        """Drop clients with nothing admitted and no debt (they would start level)."""
        for name in [n for n in self._idle if self._clients[n].used <= self._virtual]:
            del self._clients[name], self._idle[name]

    def fail_waiting(self, error: Callable[[], Exception]) -> None:
        """Fail every waiting task with ``error()``, made in the language of its
        request (made once for all, it spoke the server's)."""
        for state in self._clients.values():
            while state.waiting:
                job = state.waiting.popleft()
                self.waiting -= 1
                state.admitted -= 1
                self.admitted -= 1
                if not job.future.done():
                    with language(language_of(job)):
                        job.future.set_exception(error())

    def _enqueue(self, job: Job, state: _Client, front: bool) -> None:
        if front:
            state.waiting.appendleft(job)
        else:
            state.waiting.append(job)
        self.waiting += 1
        while self.waiting and self._takers:
            taker = self._takers.popleft()
            if not taker.done():
                taker.set_result(self._pop_fairest())

    def _pop_fairest(self) -> Job:
        waiting = [s for s in self._clients.values() if s.waiting]
        level = min(s.used + s.ahead for s in waiting) + SLACK_S
        state = min(
            (s for s in waiting if s.used + s.ahead <= level), key=lambda s: s.waiting[0].arrival
        )
        job = state.waiting.popleft()
        self.waiting -= 1
        # Level with the least served, not with the one served: were a client that
        # comes back (each client pauses between an answer and its next request)
        # brought level with whoever ran last, a client that always has a task
        # waiting, and may run up to SLACK_S ahead, would lift everyone to its own
        # level at each pause and never be held back.
        self._virtual = max(self._virtual, min(s.used for s in waiting))
        # Charged ahead: the most it may take, so that a client cannot start a second
        # long task beside the first before the others have had their turn.
        job.charged = max(state.estimate, job.budget)
        state.ahead += job.charged
        return job

    def _release(self, name: str, state: _Client) -> None:
        state.admitted -= 1
        self.admitted -= 1
        if state.admitted:
            return
        if state.used <= self._virtual:
            del self._clients[name]
            return
        self._idle[name] = None
        if len(self._idle) > IDLE_CLIENTS_KEPT:
            oldest = next(iter(self._idle))
            del self._clients[oldest], self._idle[oldest]


class Crowd:
    """Clients refused lately because the pool was full, and the rate at which tasks
    finish: together, how long a refused client should wait before trying again."""

    def __init__(self, shortest: int) -> None:
        self.shortest = shortest
        self.wait = shortest
        self._refused: dict[str, float] = {}
        """Client -> when it was last refused, oldest first."""
        self._finished = 0.0
        """Tasks finished, decaying with time constant :data:`RATE_WINDOW_S`."""
        self._stamp = time.monotonic()

    def finished(self) -> None:
        self._finished = self._decayed(time.monotonic()) + 1

    def refuse(self, client: str) -> int:
        """Note ``client`` refused now; the seconds it should wait: the clients refused
        within the last wait (plus 2 s) over the tasks finished per second, at least
        ``shortest`` and at most :data:`LONGEST_RETRY_AFTER_S`."""
        now = time.monotonic()
        self._refused.pop(client, None)
        self._refused[client] = now
        horizon = now - self.wait - 2
        for name, when in list(self._refused.items()):
            if when >= horizon:
                break
            del self._refused[name]
        per_second = self._decayed(now) / RATE_WINDOW_S
        if per_second > 0:
            wanted = math.ceil(len(self._refused) / per_second)
            self.wait = max(self.shortest, min(LONGEST_RETRY_AFTER_S, wanted))
        return self.wait

    def _decayed(self, now: float) -> float:
        self._finished *= math.exp((self._stamp - now) / RATE_WINDOW_S)
        self._stamp = now
        return self._finished


async def within(awaitable: Awaitable[Any], seconds: float) -> Any:
    """``awaitable``'s result if it comes within ``seconds`` of the event loop's
    running time, else TimeoutError (``awaitable`` cancelled). The time is counted in
    ticks of :data:`TICK_S`, each at most its own length however late the loop woke
    for it: a stall of the server's own loop (a long callback, a CPU-starved
    machine) does not count against a worker, whose reply may be sitting unread in
    the pipe. With a plain timeout, a 3 s stall got healthy idle workers killed as
    not answering their ping."""
    task = asyncio.ensure_future(awaitable)
    loop = asyncio.get_running_loop()
    left = seconds
    try:
        while True:
            step = min(left, TICK_S)
            started = loop.time()
            await asyncio.wait({task}, timeout=step)
            if task.done():
                return task.result()
            left -= min(loop.time() - started, step)
            if left <= 0:
                raise TimeoutError
    finally:
        if not task.done():
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)


class _WorkerLost(Exception):
    """The worker process is gone or was killed; the message says what happened."""


class _Worker:
    """One worker process and the loop that feeds it tasks, replacing it when lost."""

    def __init__(self, pool: SolverPool, number: int) -> None:
        self.pool = pool
        self.number = number
        self.process: asyncio.subprocess.Process | None = None
        self.ready = False
        self.job: Job | None = None
        self.deadline = 0.0
        """When the running task's budget ends (monotonic seconds)."""

    @property
    def late(self) -> bool:
        """Running a task :data:`LATE_S` past its budget: hung, or about to be judged so."""
        return self.job is not None and time.monotonic() > self.deadline + LATE_S

    async def run(self) -> None:
        """Start a process, feed it tasks until it is lost, start another; until closed."""
        while not self.pool.closing:
            try:
                await self._start()
                await self._feed()
            except _WorkerLost as lost:
                if self.pool.closing:
                    break
                self.pool.metrics.worker_restarts.labels(lost.args[0]).inc()
                # A request that went away is the client's doing, not the worker's fault.
                level = logging.INFO if lost.args[0] == "abandoned" else logging.WARNING
                log.log(level, "solver worker %d: %s; starting another", self.number, lost.args[1])
            except OSError as error:  # could not start a process at all
                log.error("solver worker %d could not start: %s", self.number, error)
                await asyncio.sleep(1.0)
            finally:
                self.ready = False
                self.pool.count_ready()
                await self._kill()

    async def _start(self) -> None:
        self.process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "api.worker",
            str(self.pool.max_answer_bytes),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            # A session of its own: signals to the server's process group pass it by.
            start_new_session=True,
            limit=self.pool.max_answer_bytes + 1024,
        )
        reply = await self._read(START_TIMEOUT_S, "failed_start", "did not start in time")
        if "ready" not in reply:
            raise _WorkerLost("failed_start", f"started with {reply!r}")
        self.ready = True
        self.pool.count_ready()

    async def _feed(self) -> None:
        assert self.process is not None
        exited = asyncio.ensure_future(self.process.wait())
        try:
            while True:
                if self.pool.queue.waiting and not exited.done():
                    # A task is waiting: take it at once, in the event-loop turn that
                    # read the last answer, so the worker has it before that answer
                    # goes out to its client rather than idling through the sending
                    # and two loop hops (issue 14l in RESULTS.md: same-run solves/s
                    # 0.97-1.08x main's with SCHED_BATCH, within this machine's noise).
                    job: Job | None = await self.pool.queue.take()  # without suspending
                else:
                    job = await self._wait_for_task(exited)
                if job is None:
                    continue
                if job.future.done():  # its request went away before it started
                    self.pool.queue.finish(job, 0.0)
                    continue
                await self._run(job)
        finally:
            exited.cancel()

    async def _wait_for_task(self, exited: asyncio.Task[int]) -> Job | None:
        """The next task, waited for while idle; None after a heartbeat's ping when
        none came. Raises :class:`_WorkerLost` if the worker exits meanwhile."""
        taking = asyncio.ensure_future(self.pool.queue.take())
        done, _pending = await asyncio.wait(
            {taking, exited}, timeout=HEARTBEAT_S, return_when=asyncio.FIRST_COMPLETED
        )
        if exited not in done and taking in done:
            return taking.result()
        if taking in done:  # handed a task as it died: another worker takes it
            self.pool.queue.put_back(taking.result())
        else:  # a task handed over meanwhile goes back to the queue
            taking.cancel()
            await asyncio.gather(taking, return_exceptions=True)
        if exited in done:
            raise _WorkerLost("died", f"exited with {exited.result()} while idle")
        await self._ping()
        return None

    async def _ping(self) -> None:
        self.pool.queue.forget_idle()  # a quiet moment to tidy up
        await self._write({"task": "ping"})
        reply = await self._read(PING_TIMEOUT_S, "unresponsive", "did not answer a ping")
        if "pong" not in reply:
            raise _WorkerLost("failed", f"answered a ping with {reply!r}")

    async def _run(self, job: Job) -> None:
        now = time.monotonic()
        # Allowed at least the server's floor: a request's own small time limit
        # bounds its search, not the model building before it, which grows with
        # its size (2-5 s on a loaded machine for 256 table sets of the largest
        # game, whatever the limit): else one client made /readyz 503 and got
        # healthy workers killed.
        allowed = max(job.budget, self.pool.floor)
        job.started, self.job, self.deadline = now, job, now + allowed
        exchange = asyncio.ensure_future(self._exchange(job, allowed))
        try:
            await asyncio.wait({exchange, job.future}, return_when=asyncio.FIRST_COMPLETED)
            if not exchange.done() and self._worth_stopping(job):
                # Its request went away (timed out, or its client left): the worker is
                # stopped and replaced as the watchdog's is, not held for nobody.
                ran = time.monotonic() - now
                raise _WorkerLost("abandoned", f"its request went away after {ran:.1f} s")
            reply = await exchange
        except _WorkerLost as lost:
            self._settle(job, lost=lost)
            raise _WorkerLost(lost.args[0], f"{lost.args[1]} (request {job.request_id})") from None
        finally:
            if not exchange.done():
                exchange.cancel()
                await asyncio.gather(exchange, return_exceptions=True)
        self._settle(job, reply=reply)

    async def _exchange(self, job: Job, allowed: float) -> dict[str, Any]:
        """Send ``job`` to the worker and read its reply, within ``allowed`` seconds
        plus the margin (the watchdog)."""
        message: dict[str, Any] = {"task": job.task, "body": job.body, "lang": job.lang}
        if job.caps is not None:
            message["caps"] = job.caps
        await self._write(message)
        return await self._read(
            allowed + self.pool.margin,
            "hung",
            f"overran its budget of {allowed:.1f} s by {self.pool.margin:.1f} s",
        )

    def _worth_stopping(self, job: Job) -> bool:
        """Whether the running ``job``, whose request went away, may still run longer
        than :data:`STOP_WORTH_S` by its time limits: then its worker is stopped and
        replaced; else the task finishes, its answer dropped (a replacement would
        cost more)."""
        assert job.started is not None
        return job.future.done() and job.started + job.budget - time.monotonic() > STOP_WORTH_S

    def _settle(
        self, job: Job, reply: dict[str, Any] | None = None, lost: _WorkerLost | None = None
    ) -> None:
        assert job.started is not None
        if lost is not None and lost.args[0] != "abandoned":
            self.pool.queue.lost(job)
        else:  # an abandoned task is charged the worker time it took
            self.pool.queue.finish(job, time.monotonic() - job.started)
        self.pool.crowd.finished()
        self.job = None
        self.pool.metrics.solves_pending.set(self.pool.queue.admitted)
        if job.future.done():  # its request went away meanwhile
            return
        if lost is not None:
            with language(language_of(job)):  # said in the request's language
                job.future.set_exception(self.pool.lost_error(lost.args[0]))
        else:
            assert reply is not None
            job.future.set_result(reply)

    async def _write(self, message: Mapping[str, Any]) -> None:
        assert self.process is not None
        assert self.process.stdin is not None
        try:
            self.process.stdin.write(json.dumps(message).encode() + b"\n")
            await self.process.stdin.drain()
        except (BrokenPipeError, ConnectionResetError):
            raise _WorkerLost("died", "exited") from None

    async def _read(self, timeout: float, reason: str, what: str) -> dict[str, Any]:
        """The worker's reply, if it comes within ``timeout`` seconds of the event
        loop's own running time (:func:`within`); else :class:`_WorkerLost`."""
        assert self.process is not None
        try:
            reply: dict[str, Any] | None = await within(self._reply(), timeout)
        except TimeoutError:
            raise _WorkerLost(reason, what) from None
        except json.JSONDecodeError:
            raise _WorkerLost("failed", "sent a line that is not JSON") from None
        except ValueError:  # a line over the stream limit: the worker broke its promise
            raise _WorkerLost("failed", "sent an answer over the answer limit") from None
        except asyncio.IncompleteReadError:
            reply = None  # it died while sending the answer
        if reply is None:
            code = await self.process.wait()
            raise _WorkerLost("died", f"exited with {code}")
        return reply

    async def _reply(self) -> dict[str, Any] | None:
        """The worker's next reply; None when it has exited."""
        assert self.process is not None
        assert self.process.stdout is not None
        line = await self.process.stdout.readline()
        if not line:
            return None
        reply: dict[str, Any] = json.loads(line)
        if "answer" in reply:  # the answer's bytes follow the line announcing them
            size = reply["answer"]
            if not isinstance(size, int) or size > self.pool.max_answer_bytes:
                raise _WorkerLost("failed", "sent an answer over the answer limit")
            reply["answer"] = await self.process.stdout.readexactly(size)
        return reply

    async def _kill(self) -> None:
        if self.process is not None and self.process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.process.kill()
            await self.process.wait()
        self.process = None

    async def stop(self, grace: float) -> None:
        """Let the running task finish (for at most ``grace`` seconds), then stop."""
        process = self.process
        if process is None or process.stdin is None:
            return
        process.stdin.close()  # the worker exits once its task is done
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(grace):
                await process.wait()


class SolverPool:
    """Worker processes behind fair, bounded admission (see the module's docstring)."""

    def __init__(
        self,
        workers: int,
        queue: int,
        metrics: Metrics,
        *,
        client_share: int | None = None,
        floor_s: float = 0.0,
        margin_s: float = 3.0,
        max_answer_bytes: int = 4 * 1024 * 1024,
        retry_after_s: int = 1,
    ) -> None:
        self.workers = workers
        self.queue_size = queue
        self.client_share = client_share or workers
        self.margin = margin_s
        self.floor = floor_s
        """The least a task is allowed before it counts as late (readiness) or hung
        (the watchdog): the server's time cap, whatever the request asked for."""
        self.max_answer_bytes = max_answer_bytes
        self.metrics = metrics
        self.queue = FairQueue()
        self.crowd = Crowd(retry_after_s)
        self.closing = False
        self._workers = [_Worker(self, n) for n in range(workers)]
        self._tasks: list[asyncio.Task[None]] = []
        self._all_ready = asyncio.Event()

    async def start(self) -> None:
        """Start every worker process; return once each has solved once."""
        self._tasks = [asyncio.create_task(worker.run()) for worker in self._workers]
        await self._all_ready.wait()

    def count_ready(self) -> None:
        ready = sum(worker.ready for worker in self._workers)
        self.metrics.workers_ready.set(ready)
        if ready == self.workers:
            self._all_ready.set()

    @property
    def ready(self) -> bool:
        return self.health() is None

    def health(self) -> str | None:
        """None while at least one worker is up, warm and within its budget (it serves
        the queue); else what is wrong: every worker starting or past the time cap,
        or the server shutting down."""
        if self.closing:
            return "the server is shutting down"
        starting = sum(not worker.ready for worker in self._workers)
        late = sum(worker.ready and worker.late for worker in self._workers)
        if starting + late < self.workers:
            return None
        problems = []
        if starting:
            problems.append(f"{starting} starting")
        if late:
            problems.append(f"{late} past the time cap")
        return f"{self.workers - starting - late} of {self.workers} solver workers ready; " + (
            ", ".join(problems)
        )

    def refusal(self, client: str) -> Exception | None:
        """Why a task of ``client`` would be refused now, or None."""
        if (unavailable := self.unavailable(client)) is not None:
            return unavailable
        if self.queue.admitted_by(client) >= self.client_share:
            return self.client_busy()
        return None

    @property
    def full(self) -> bool:
        """Whether no task, of any client, would be taken now: the server shutting
        down, or every place taken."""
        return self.closing or self.queue.admitted >= self.workers + self.queue_size

    def unavailable(self, client: str) -> Unavailable | None:
        """Why no task, of ``client`` or any other, would be taken now (the server
        shutting down, or every place taken: counted in the metrics, and ``client``
        told when to come back), or None."""
        if self.closing:
            return shutting_down()
        if self.full:
            self.metrics.rejected.labels("saturated").inc()
            wait = self.crowd.refuse(client)
            busy = _n(
                "the {n} solver worker is busy",
                "all {n} solver workers are busy",
                self.workers,
            )
            waiting = _n("{n} request is waiting", "{n} requests are waiting", self.queue_size)
            return Unavailable(
                _(
                    "{busy} and {waiting}; try again in {wait} s",
                    busy=busy,
                    waiting=waiting,
                    wait=wait,
                ),
                wait,
            )
        return None

    def client_busy(self) -> ClientBusy:
        """The refusal of a task from a client that has its share in the pool already,
        counted in the metrics."""
        self.metrics.rejected.labels("client_share").inc()
        return ClientBusy(
            _(
                "this client already has its share of requests in progress ({share} at"
                " once); wait for an answer before sending more",
                share=self.client_share,
            )
        )

    async def run_body(
        self, solver: WireSolver, body: bytes, *, client: str, budget_s: float = 0.0
    ) -> dict[str, Any]:
        """Answer a request body as it came with ``solver`` (one of
        :data:`api.worker.BODY_TASKS`, e.g. :func:`solver.score_rummikub`) in a worker,
        within ``budget_s`` seconds of work (the request's time limits; 0 for a task
        without one) plus the watchdog's margin. The worker reads the body and answers
        in its ``lang``, else the active language: the server process never parses it.

        Raises :class:`Unavailable` or :class:`ClientBusy` when refused or when the
        worker is lost, :class:`InvalidRequest` for a request that is not a real game,
        and :class:`~api.reading.BodyError` for a body that does not read as JSON. A
        response's ``status`` is counted in the solver metrics."""
        reply = await self._reply(self._job(solver, body, client, budget_s))
        if "ok" not in reply:
            raise RuntimeError(f"solver worker failed: {reply!r}")
        response: dict[str, Any] = reply["ok"]
        if "status" in response:
            self.metrics.solves.labels(response["status"]).inc()
        return response

    async def answer_body(
        self,
        solver: WireSolver,
        body: bytes,
        *,
        client: str,
        budget_s: float,
        caps: Mapping[str, int],
    ) -> bytes:
        """As :meth:`run_body`, for a task the worker answers as the JSON bytes the
        client gets (one of :data:`api.worker.RAW_TASKS`, its answer checked against
        its model there), with each request field named in ``caps`` lowered to its
        cap: the server process neither reads the request nor the answer."""
        reply = await self._reply(self._job(solver, body, client, budget_s, caps))
        if "answer" not in reply:
            raise RuntimeError(f"solver worker failed: {reply!r}")
        if reply.get("status") is not None:
            self.metrics.solves.labels(reply["status"]).inc()
        answer: bytes = reply["answer"]
        return answer

    @staticmethod
    def _job(
        solver: WireSolver,
        body: bytes,
        client: str,
        budget_s: float,
        caps: Mapping[str, int] | None = None,
    ) -> Job:
        text = body.decode("utf-8", "surrogateescape")
        future = asyncio.get_running_loop().create_future()
        return Job(
            solver.__name__, text, current(), client, budget_s, future, REQUEST_ID.get(), caps
        )

    async def _reply(self, job: Job) -> dict[str, Any]:
        """The worker's reply to ``job`` once admitted and run; its errors raised."""
        if (refused := self.refusal(job.client)) is not None:
            raise refused
        self.queue.admit(job)
        self.metrics.solves_pending.set(self.queue.admitted)
        try:
            reply = await asyncio.shield(job.future)
        except asyncio.CancelledError:
            if job.started is None:
                self.queue.withdraw(job)
                self.metrics.solves_pending.set(self.queue.admitted)
            job.future.cancel()
            raise
        if "invalid" in reply:
            invalid = InvalidRequest(reply["invalid"])
            invalid.places = tuple((tuple(path), shown) for path, shown in reply["places"])
            raise invalid
        if "bad_body" in reply:
            raise BodyError(*reply["bad_body"])
        if "too_large" in reply:
            with language(language_of(job)):
                raise InvalidRequest(too_large(job.task, self.max_answer_bytes))
        return reply

    def lost_error(self, reason: str) -> Unavailable:
        self.metrics.rejected.labels(f"worker_{reason}").inc()
        if reason == "hung":
            return Unavailable(
                _("the solver worker ran past its time cap and was replaced; try again")
            )
        return Unavailable(_("the solver worker stopped and is being replaced; try again"))

    async def close(self, grace_s: float) -> None:
        """Refuse new tasks, fail waiting ones, let running ones finish within
        ``grace_s`` seconds, then stop every worker."""
        self.closing = True
        self.queue.fail_waiting(shutting_down)
        await asyncio.gather(*(worker.stop(grace_s) for worker in self._workers))
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

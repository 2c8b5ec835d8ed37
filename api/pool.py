"""Run solves in worker processes, a bounded number at a time, off the event loop.

A solve is CPU-bound: building the CP-SAT model and laying out the answer hold
the GIL, so solves run in a pool of ``workers`` processes (one CP-SAT worker
each) and the event loop only awaits them. At most ``workers + queue`` solves
are admitted at once; one more is refused at once with :class:`Unavailable`
(the API answers 503 with ``Retry-After``) instead of waiting without bound.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
import time
from collections.abc import Callable, Mapping
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from api.metrics import Metrics
from solver import solve_rummikub

T = TypeVar("T")
WireSolver = Callable[[Mapping[str, Any]], dict[str, Any]]
"""A dict-in, dict-out solve of the library whose response has a ``status``."""

WARM_UP_REQUEST = {"rack": ["R1", "R2", "J"], "table": [["R3", "R4", "R5"]], "time_limit_ms": 2000}


class Unavailable(Exception):
    """The pool cannot take this solve now (full, or a worker is being replaced);
    the message says why. The client should retry shortly."""


WORKER_NICENESS = 5
"""Workers run at a lower CPU priority than the event loop, so that when the cores
are saturated the server still answers at once: health checks, bad requests and
503s take little CPU, and solves get all the rest."""


def _start_worker() -> None:
    """Runs in each worker process as it starts: yield the CPU to the server process,
    leave Ctrl-C to it, and pay CP-SAT's first-solve cost before the first request."""
    os.nice(WORKER_NICENESS)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    solve_rummikub(WARM_UP_REQUEST)


def _worker_pid() -> int:
    time.sleep(0.02)  # long enough for a fresh worker to take the next warm-up task
    return os.getpid()


class SolverPool:
    """A process pool with admission control and readiness."""

    def __init__(self, workers: int, queue: int, metrics: Metrics) -> None:
        self.workers = workers
        self.queue = queue
        self.ready = False
        """True once every worker process has started and solved once."""
        self._metrics = metrics
        self._pending = 0
        self._executor = self._new_executor()
        self._warming: asyncio.Task[None] | None = None

    def _new_executor(self) -> ProcessPoolExecutor:
        # spawn, not fork: the server process runs threads, and forking them is unsafe.
        context = multiprocessing.get_context("spawn")
        return ProcessPoolExecutor(self.workers, mp_context=context, initializer=_start_worker)

    async def warm_up(self) -> None:
        """Start every worker process and mark the pool ready once each has solved."""
        seen: set[int] = set()
        while len(seen) < self.workers:
            seen.update(
                await asyncio.gather(*(self._run(_worker_pid) for _ in range(self.workers)))
            )
        self.ready = True

    async def solve(self, solver: WireSolver, request: dict[str, Any]) -> dict[str, Any]:
        """Answer one wire request with ``solver`` (e.g. :func:`solver.solve_rummikub`,
        :func:`solver.advise_shanghai`) in a worker; raise :class:`Unavailable` when
        full and a :class:`~solver.errors.MeldwiseError` for bad input. The response's
        ``status`` is counted in the solver metrics."""
        if self._pending >= self.workers + self.queue:
            self._metrics.rejected.labels("saturated").inc()
            raise Unavailable(
                f"all {self.workers} solver workers are busy and {self.queue} solves are "
                "waiting; try again shortly"
            )
        executor = self._executor
        try:
            response = await self._run(solver, request)
        except BrokenProcessPool:
            # A worker died (killed, out of memory): replace the pool, let the client retry.
            if executor is self._executor:  # not yet replaced by another request
                self._replace(executor)
            self._metrics.rejected.labels("worker_lost").inc()
            raise Unavailable("a solver worker stopped and is being replaced; try again") from None
        self._metrics.solves.labels(response["status"]).inc()
        return response

    async def _run(self, function: Callable[..., T], *args: Any) -> T:
        loop = asyncio.get_running_loop()
        future: Future[T] = self._executor.submit(function, *args)
        self._admit(+1)
        # Release on completion rather than when the awaiting task ends, so a
        # cancelled request still counts until its worker is really free.
        future.add_done_callback(lambda _: loop.call_soon_threadsafe(self._admit, -1))
        return await asyncio.wrap_future(future)

    def _admit(self, change: int) -> None:
        self._pending += change
        self._metrics.solves_pending.set(self._pending)

    def _replace(self, broken: ProcessPoolExecutor) -> None:
        broken.shutdown(wait=False, cancel_futures=True)
        self._executor = self._new_executor()
        self.ready = False
        self._warming = asyncio.get_running_loop().create_task(self.warm_up())

    def close(self) -> None:
        """Stop the workers, letting running solves finish (each is time-capped)."""
        self._executor.shutdown(wait=True, cancel_futures=True)

"""Fault and abuse suite: the nine rows of issue 15, each against a real ``meldwise serve``.

``python -m benchmarks.abuse`` starts a fresh server (default settings) for each
row, runs the row's attack or fault on loopback, and prints what happened next to
the row's target; ``--json FILE`` writes the figures. ``--source DIR`` runs the
server from another source tree (e.g. a ``git worktree`` of an older commit: the
"before" figures), ``--rows 1,4`` picks rows, ``--duration`` sets the seconds of
each measured phase. Normal clients post self-play solve requests, each from a
loopback address of its own (see :mod:`benchmarks.load`), and honour Retry-After;
attackers do not. Every loop is bounded in time and sends traffic to loopback only.

Rows (the issue's table): 1 idle connections, 2 one abusive client, 3 a hung
worker, 4 a killed worker, 5 signals to the process group, 6 a flood of move
checks, 7 an endless chunked body, 8 overload, 9 the smaller items. An attacker
is one client (one address) on many connections, as in the issue's reproduction
on loopback: many attackers at many addresses are as many clients, each with its
fair share, and the defence there is capacity (replicas), not fairness.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import itertools
import json
import multiprocessing
import os
import signal
import socket
import statistics
import sys
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Coroutine, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar

import httpx
from rich.console import Console
from rich.table import Table

from api.spawn import serve
from benchmarks.load import Outcome, client_for, committed_bodies, one_client
from benchmarks.output import outputs_ready, write_output
from benchmarks.stats import at_least, percentile
from solver.commands import Parser, read_json_file, whole_number
from solver.errors import MeldwiseError
from solver.i18n import _

T = TypeVar("T")

ABUSIVE_ADVICE = {"hand": ["4D", "3D", "KC", "10H", "6D", "JC", "JK"], "hand_number": 9}
"""A cheap-to-send Shanghai request (71 bytes) that keeps a worker busy for seconds."""

VALIDATE_PATH = "/v1/rummikub/validate"
ADVISE_PATH = "/v1/shanghai/advise"
JSON_HEADERS = {"Content-Type": "application/json"}


@dataclass
class Figure:
    """One measured figure, with the target it is held to (if any)."""

    name: str
    value: Any
    target: str = ""
    met: bool | None = None


@dataclass
class RowResult:
    row: int
    title: str
    figures: list[Figure] = field(default_factory=list)

    def add(self, name: str, value: Any, target: str = "", met: bool | None = None) -> None:
        self.figures.append(Figure(name, value, target, met))


@dataclass(frozen=True)
class Server:
    url: str
    pid: int
    port: int


@contextlib.contextmanager
def server(args: argparse.Namespace, env: dict[str, str] | None = None) -> Iterator[Server]:
    with serve(None, args.server_log, env=env, source=args.source) as (url, pid):
        yield Server(url, pid, int(url.rsplit(":", 1)[1]))


# --- clients ---------------------------------------------------------------------------


async def crowd(
    url: str,
    clients: int,
    seconds: float,
    bodies: Sequence[bytes],
    *,
    first: int = 0,
    path: str = "/v1/rummikub/solve",
    honour_retry_after: bool = True,
) -> list[Outcome]:
    """``clients`` clients (addresses ``first``, ``first + 1``, ...) posting back to back."""
    outcomes: list[Outcome] = []
    cycle = itertools.cycle(bodies)
    async with contextlib.AsyncExitStack() as stack:
        members = [
            await stack.enter_async_context(client_for(url, first + n, timeout=60.0))
            for n in range(clients)
        ]
        stop = time.perf_counter() + seconds
        await asyncio.gather(
            *(one_client(c, cycle, stop, outcomes, honour_retry_after, path) for c in members)
        )
    return outcomes


async def probe(url: str, seconds: float) -> list[float | None]:
    """``/healthz`` every 20 ms for ``seconds``, from a helper process and an address
    of its own: latencies in ms (None: failed or not 200)."""
    return await elsewhere(_probe, url, seconds, "/healthz")


async def _probe(url: str, seconds: float, path: str) -> list[float | None]:
    latencies: list[float | None] = []
    stop = time.perf_counter() + seconds
    async with client_for(url, 999, timeout=10.0) as client:
        while (sent := time.perf_counter()) < stop:
            try:
                ok = (await client.get(path)).status_code == 200
            except httpx.HTTPError:
                ok = False
            latencies.append((time.perf_counter() - sent) * 1000 if ok else None)
            await asyncio.sleep(0.02)
    return latencies


def solves_per_s(outcomes: Sequence[Outcome], seconds: float) -> float:
    return sum(o.http == "200" for o in outcomes) / seconds


def statuses(outcomes: Sequence[Outcome]) -> str:
    return " ".join(f"{k}:{v}" for k, v in sorted(Counter(o.http for o in outcomes).items()))


def p99(latencies: Sequence[float | None]) -> str:
    ok = [x for x in latencies if x is not None]
    failed = len(latencies) - len(ok)
    if not ok:
        return f"no answer ({failed} failed)"
    return f"p50 {percentile(ok, 0.5):.0f} ms, p99 {percentile(ok, 0.99):.0f} ms, {failed} failed"


def p99_ms(latencies: Sequence[float | None]) -> float:
    ok = [x for x in latencies if x is not None]
    return percentile(ok, 0.99) if ok and len(ok) == len(latencies) else float("inf")


def worker_pids(server_pid: int) -> list[int]:
    """The solver worker processes of a server (its children running a worker)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii") as stat:
                parent = int(stat.read().rsplit(")", 1)[1].split()[1])
            with open(f"/proc/{entry}/cmdline", "rb") as cmdline:
                command = cmdline.read()
        except OSError:
            continue
        if parent == server_pid and (b"api.worker" in command or b"spawn_main" in command):
            found.append(int(entry))
    return sorted(found)


async def readiness(url: str, seconds: float) -> list[tuple[float, int]]:
    """``/readyz`` every 100 ms: (seconds from start, status; 0 when no answer)."""
    seen: list[tuple[float, int]] = []
    start = time.perf_counter()
    async with httpx.AsyncClient(base_url=url, timeout=5.0) as client:
        while (now := time.perf_counter() - start) < seconds:
            try:
                status = (await client.get("/readyz")).status_code
            except httpx.HTTPError:
                status = 0
            seen.append((now, status))
            await asyncio.sleep(0.1)
    return seen


def not_ready_span(seen: Sequence[tuple[float, int]]) -> str:
    bad = [t for t, status in seen if status != 200]
    if not bad:
        return "never left 200"
    back = [t for t, status in seen if status == 200 and t > bad[0]]
    recovered = f"200 again after {back[0] - bad[0]:.1f} s" if back else "not 200 again"
    return f"503 from {bad[0]:.1f} s; {recovered}"


def readiness_target(span: str, workers: int) -> tuple[str, str, bool]:
    """The readiness seen while one of ``workers`` workers is lost, its target and
    whether it is met: ``/readyz`` is 200 while another worker serves, so it never
    leaves 200 unless that worker was the only one."""
    if workers > 1:
        return span, "never left 200 (another worker serves)", span == "never left 200"
    return span, "503, then 200", "503 from" in span and "200 again" in span


@dataclass
class Phases:
    """A baseline and an attacked phase measured in turn, ``rounds`` times each, so
    that a shared machine's drifting load weighs on both alike."""

    baseline: list[float] = field(default_factory=list)
    """Solves per second of each baseline round."""
    attacked: list[float] = field(default_factory=list)
    outcomes: list[Outcome] = field(default_factory=list)
    """Every outcome of the attacked rounds."""

    @property
    def ratio(self) -> float:
        """The median over rounds of attacked / baseline solves per second."""
        return statistics.median(
            a / b if b else 0.0 for a, b in zip(self.attacked, self.baseline, strict=True)
        )

    def report(self, result: RowResult, baseline: str, attacked: str, target: float) -> None:
        rounds = len(self.baseline)
        result.add(f"solves/s, {baseline} (median of {rounds} rounds)", _median(self.baseline))
        result.add(f"solves/s, {attacked} (median of {rounds} rounds)", _median(self.attacked))
        result.add(f"statuses, {attacked}", statuses(self.outcomes))
        result.add(
            f"{attacked} / {baseline} (median of the rounds' ratios)",
            f"{self.ratio:.0%}",
            f">= {target:.0%}",
            self.ratio >= target,
        )


def _median(values: Sequence[float]) -> float:
    return round(statistics.median(values), 1)


async def in_turn(
    args: argparse.Namespace,
    baseline: Callable[[], Awaitable[list[Outcome]]],
    attacked: Callable[[], Awaitable[list[Outcome]]],
) -> Phases:
    """``baseline()`` then ``attacked()``, ``--rounds`` times; each returns the outcomes
    of ``--duration`` seconds of the clients measured."""
    phases = Phases()
    for _round in range(args.rounds):
        phases.baseline.append(solves_per_s(await baseline(), args.duration))
        outcomes = await attacked()
        phases.attacked.append(solves_per_s(outcomes, args.duration))
        phases.outcomes += outcomes
    return phases


# --- rows ------------------------------------------------------------------------------


async def row_idle(args: argparse.Namespace, bodies: Sequence[bytes]) -> RowResult:
    result = RowResult(1, "1,024 idle TCP connections + 16 clients")
    health: tuple[list[float | None], list[float | None]] = ([], [])
    pauses: tuple[list[float], list[float]] = ([], [])
    held: list[int] = []
    with server(args) as srv:

        async def phase(idle: int) -> list[Outcome]:
            """The 16 clients and the ``/healthz`` probe (in both phases, so that the
            ratio charges the idle connections alone), with ``idle`` connections held
            from a helper process, as the attackers of rows 2 and 6: in this one, their
            reconnections would stall the clients measured."""
            await start_helpers()
            outcomes, latencies, holding = await asyncio.gather(
                after(2, crowd(srv.url, 16, args.duration, bodies)),
                after(2, probe(srv.url, args.duration)),
                elsewhere(_hold_idle, srv.port, idle, args.duration + 3),
            )
            attacked = idle > 0
            if attacked:
                held.append(holding)
            health[attacked].extend(latencies)
            pauses[attacked].append(round(longest_gap(outcomes), 2))
            return outcomes

        phases = await in_turn(args, lambda: phase(0), lambda: phase(1024))
    result.add("idle connections held as the clients start (each round)", held)
    phases.report(result, "16 clients alone", "with the idle connections", 0.9)
    # A stall of the server's event loop (all clients wait at once) shows here.
    result.add("longest pause between two answers, alone (each round, s)", pauses[0])
    result.add("longest pause between two answers, attacked (each round, s)", pauses[1])
    result.add("/healthz beside the clients alone", p99(health[0]))
    result.add("/healthz under the attack", p99(health[1]), "p99 < 50 ms", p99_ms(health[1]) < 50)
    return result


async def after(seconds: float, awaitable: Awaitable[T]) -> T:
    await asyncio.sleep(seconds)
    return await awaitable


async def _hold_idle(port: int, connections: int, seconds: float) -> int:
    """``connections`` connections that send nothing, each reopened when the server
    closes it, for ``seconds``: how many were open 2 s in."""
    stop = time.perf_counter() + seconds
    holding = 0

    async def hold_one() -> None:
        nonlocal holding
        while time.perf_counter() < stop:
            try:
                reader, writer = await asyncio.open_connection(
                    "127.0.0.1", port, local_addr=("127.0.9.9", 0)
                )
            except OSError:
                await asyncio.sleep(0.1)
                continue
            holding += 1
            with contextlib.suppress(OSError, TimeoutError):
                async with asyncio.timeout(max(0.0, stop - time.perf_counter())):
                    await reader.read()  # until the server closes it
            holding -= 1
            writer.close()

    async def count_later() -> int:
        await asyncio.sleep(2)
        return holding

    held = asyncio.create_task(count_later())
    await asyncio.gather(*(hold_one() for _ in range(connections)))
    return await held


async def row_abuser(args: argparse.Namespace, bodies: Sequence[bytes]) -> RowResult:
    result = RowResult(2, "one client, 18 connections looping a 4-second Shanghai request")
    abusive = [json.dumps(ABUSIVE_ADVICE).encode()]
    with server(args) as srv:
        solo = await crowd(srv.url, 16, args.duration, bodies)
        # The abuser comes first and stays: the others are measured once it has
        # taken every worker it could while alone (the steady state of an attack).
        abuse_task = asyncio.create_task(abuser(srv.url, 18, args.duration + 8, abusive))
        await asyncio.sleep(2)
        warm = asyncio.create_task(crowd(srv.url, 16, args.duration + 6, bodies))
        await asyncio.sleep(6)
        measured_from = time.perf_counter()
        others = [o for o in await warm if o.sent >= measured_from]
        abuse = await abuse_task
    solo_rate, rate = solves_per_s(solo, args.duration), solves_per_s(others, args.duration)
    result.add("request size (bytes)", len(abusive[0]))
    result.add("solves/s, 16 clients alone", round(solo_rate, 1))
    result.add("solves/s of the 16 with the abuser", round(rate, 1))
    result.add("statuses of the 16", statuses(others))
    result.add("statuses of the abuser", statuses(abuse))
    ratio = rate / solo_rate if solo_rate else 0.0
    result.add("share of solo throughput", f"{ratio:.0%}", ">= 80%", ratio >= 0.8)
    return result


@functools.cache
def _helpers(niceness: int = 0) -> ProcessPoolExecutor:
    """Processes (at ``niceness``) for the attacker and the health probe: sharing this
    process's event loop, an attacker's tight loop would slow the clients measured
    here rather than the server, and the clients would add their own delays to the
    probe's timings."""
    return ProcessPoolExecutor(
        2,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=os.nice,
        initargs=(niceness,),
    )


ATTACKER_NICENESS = 0
"""``--attacker-nice``: the attacker process's niceness."""


async def start_helpers() -> None:
    """Start both helper processes (a second or so of CPU each, to start Python and
    import this module) now, rather than in the phase measured next."""
    loop = asyncio.get_running_loop()
    # Two tasks at once, each long enough for the other to need a process of its own.
    await asyncio.gather(*(loop.run_in_executor(_helpers(), time.sleep, 0.5) for _ in range(2)))


async def elsewhere(
    function: Callable[..., Coroutine[Any, Any, T]], *args: Any, niceness: int = 0
) -> T:
    """``function(*args)`` run to its end in a helper process at ``niceness``."""
    pool = _helpers(niceness)
    return await asyncio.get_running_loop().run_in_executor(pool, _run, function, args)


def _run(function: Callable[..., Coroutine[Any, Any, T]], args: tuple[Any, ...]) -> T:
    return asyncio.run(function(*args))


async def abuser(
    url: str,
    connections: int,
    seconds: float,
    bodies: Sequence[bytes],
    path: str = ADVISE_PATH,
) -> list[Outcome]:
    """One client (one address) looping on ``connections`` connections, never waiting,
    in a helper process."""
    return await elsewhere(
        _abuse, url, connections, seconds, list(bodies), path, niceness=ATTACKER_NICENESS
    )


async def _abuse(
    url: str, connections: int, seconds: float, bodies: list[bytes], path: str
) -> list[Outcome]:
    outcomes: list[Outcome] = []
    stop = time.perf_counter() + seconds
    cycle = itertools.cycle(bodies)
    transport = httpx.AsyncHTTPTransport(
        local_address="127.0.8.8", limits=httpx.Limits(max_connections=connections)
    )
    async with httpx.AsyncClient(base_url=url, transport=transport, timeout=60.0) as client:
        await asyncio.gather(
            *(one_client(client, cycle, stop, outcomes, False, path) for _ in range(connections))
        )
    return outcomes


async def under_load_with_fault(
    srv: Server, args: argparse.Namespace, bodies: Sequence[bytes], fault: Callable[[], None]
) -> tuple[list[Outcome], list[tuple[float, int]]]:
    """16 clients for ``duration`` + 10 s, ``fault`` 3 s in, ``/readyz`` watched
    throughout: the clients' outcomes and the readiness seen."""

    async def strike() -> None:
        await asyncio.sleep(3)
        fault()

    total = args.duration + 10
    outcomes, seen, _ = await asyncio.gather(
        crowd(srv.url, 16, total, bodies), readiness(srv.url, total), strike()
    )
    return outcomes, seen


def longest_gap(outcomes: Sequence[Outcome]) -> float:
    """Longest time (s) between two answers with 200."""
    done = sorted(o.sent + o.ms / 1000 for o in outcomes if o.http == "200")
    return max((b - a for a, b in itertools.pairwise(done)), default=0.0)


async def row_hung(args: argparse.Namespace, bodies: Sequence[bytes]) -> RowResult:
    result = RowResult(3, "a hung solver worker (SIGSTOP) under 16 clients, then all of them")
    stopped: list[int] = []
    with server(args) as srv:
        try:
            pids = worker_pids(srv.pid)

            def stop_one() -> None:
                stopped.append(pids[0])
                os.kill(pids[0], signal.SIGSTOP)

            outcomes, seen = await under_load_with_fault(srv, args, bodies, stop_one)
            failed = [o for o in outcomes if o.http != "200"]
            result.add("statuses", statuses(outcomes))
            worst = max(o.ms for o in outcomes) / 1000
            result.add(
                "longest request (s)", round(worst, 1), "<= cap + margin + 1 s (6 s)", worst <= 6
            )
            result.add("requests not answered 200", len(failed))
            result.add("/readyz", *readiness_target(not_ready_span(seen), len(pids)))
            # Every worker hung: readiness must say so, and the service come back.
            everyone = worker_pids(srv.pid)
            for pid in everyone:
                stopped.append(pid)
                os.kill(pid, signal.SIGSTOP)
            outcomes, seen = await asyncio.gather(
                crowd(srv.url, 16, 15, bodies), readiness(srv.url, 15)
            )
            began = min((o.sent for o in outcomes), default=0.0)
            late = [o for o in outcomes if o.sent > began + 10]
            span = not_ready_span(seen)
            result.add(
                "all hung: /readyz",
                span,
                "503, then 200",
                "503 from" in span and "200 again" in span,
            )
            result.add(
                "all hung: statuses 10-15 s later",
                statuses(late),
                "200 again",
                any(o.http == "200" for o in late),
            )
        finally:  # before the server stops: it may wait for its stopped workers
            for pid in stopped:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
    return result


async def row_killed(args: argparse.Namespace, bodies: Sequence[bytes]) -> RowResult:
    result = RowResult(4, "kill -9 of one solver worker under 16 clients")
    with server(args) as srv:
        pids = worker_pids(srv.pid)
        outcomes, seen = await under_load_with_fault(
            srv, args, bodies, lambda: os.kill(pids[0], signal.SIGKILL)
        )
    failed = [o for o in outcomes if o.http != "200"]
    result.add("statuses", statuses(outcomes))
    result.add("requests failed", len(failed), "<= 1 (the one that worker held)", len(failed) <= 1)
    result.add("longest time without a 200 (s)", round(longest_gap(outcomes), 2))
    result.add("/readyz", *readiness_target(not_ready_span(seen), len(pids)))
    return result


async def row_signals(args: argparse.Namespace, bodies: Sequence[bytes]) -> RowResult:
    result = RowResult(5, "SIGINT / SIGTERM to the server's process group")
    slow = [json.dumps(ABUSIVE_ADVICE).encode()]
    for name, number in (("SIGINT", signal.SIGINT), ("SIGTERM", signal.SIGTERM)):
        with server(args) as srv:
            workers = worker_pids(srv.pid)
            in_flight = asyncio.create_task(
                crowd(srv.url, 4, 1.0, slow, path=ADVISE_PATH, honour_retry_after=False)
            )
            await asyncio.sleep(0.5)
            sent_at = time.perf_counter()
            os.killpg(srv.pid, number)
            outcomes = await in_flight
            exited = await asyncio.to_thread(_wait_exit, srv.pid, 60)
            left = [pid for pid in workers if _alive(pid)]
        before = [o for o in outcomes if o.sent < sent_at]
        ok = sum(o.http == "200" for o in before)
        result.add(
            f"{name}: requests in flight answered 200",
            f"{ok} of {len(before)}",
            "all",
            ok == len(before) and bool(before),
        )
        result.add(f"{name}: server exited after (s)", _seconds(exited, sent_at))
        result.add(f"{name}: workers left running", len(left), "0", not left)
    # A client sending its body slowly must not hold the shutdown for ever.
    with server(args) as srv:
        sock = socket.create_connection(("127.0.0.1", srv.port))
        sock.sendall(
            b"POST /v1/rummikub/solve HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 1000\r\n\r\n{"
        )
        await asyncio.sleep(0.5)
        sent_at = time.perf_counter()
        os.killpg(srv.pid, signal.SIGTERM)
        exited = await asyncio.to_thread(_wait_exit, srv.pid, 40)
        sock.close()
    took = _seconds(exited, sent_at)
    result.add(
        "slow body: server exited after (s)",
        took,
        "<= body timeout + 1 s",
        isinstance(took, float) and took <= 11,
    )
    return result


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _wait_exit(pid: int, timeout: float) -> float | None:
    """When process ``pid`` (a child of ours) exited, or None if not within ``timeout``."""
    deadline = time.perf_counter() + timeout
    while time.perf_counter() < deadline:
        done, _ = os.waitpid(pid, os.WNOHANG)
        if done:
            return time.perf_counter()
        time.sleep(0.05)
    return None


def _seconds(exited: float | None, since: float) -> float | str:
    return round(exited - since, 1) if exited is not None else "did not exit"


async def row_validate_flood(args: argparse.Namespace, bodies: Sequence[bytes]) -> RowResult:
    result = RowResult(
        6, "one client looping a 12 KB move check on 8 connections, beside 8 solvers"
    )
    flood = _flood_body()
    quiet: list[float | None] = []
    health: list[float | None] = []
    flooding: list[Outcome] = []
    with server(args) as srv:
        async with httpx.AsyncClient(base_url=srv.url, timeout=30) as client:
            sample = await client.post(VALIDATE_PATH, content=flood, headers=JSON_HEADERS)

        async def alone() -> list[Outcome]:
            outcomes, latencies = await asyncio.gather(
                crowd(srv.url, 8, args.duration, bodies), probe(srv.url, args.duration)
            )
            quiet.extend(latencies)
            return outcomes

        async def flooded() -> list[Outcome]:
            outcomes, flood_outcomes, latencies = await asyncio.gather(
                crowd(srv.url, 8, args.duration, bodies),
                abuser(srv.url, 8, args.duration, [flood], VALIDATE_PATH),
                probe(srv.url, args.duration),
            )
            health.extend(latencies)
            flooding.extend(flood_outcomes)
            return outcomes

        phases = await in_turn(args, alone, flooded)
    result.add(
        "move check request / answer (bytes)",
        f"{len(flood)} / {len(sample.content)} ({sample.status_code})",
    )
    ratio_size = len(sample.content) / len(flood)
    result.add("answer size / request size", f"{ratio_size:.1f}x", "bounded (< 1x)", ratio_size < 1)
    phases.report(result, "8 clients alone", "beside the flood", 0.8)
    result.add("flood statuses", statuses(flooding))
    result.add("/healthz alone", p99(quiet))
    result.add("/healthz beside the flood", p99(health), "p99 < 50 ms", p99_ms(health) < 50)
    return result


def _flood_body() -> bytes:
    """A move check of about 12 KB (the biggest game: 832 tiles played, each as a set
    of its own, so each set is a problem) under big-variant rules."""
    rules = {"colours": 8, "numbers": 26, "copies": 4, "jokers": 0}
    tiles = [f"{c}{n}" for c in "RBKOGYPW" for n in range(1, 27)] * 4
    return json.dumps(
        {"rack": tiles, "table_before": [], "table_after": [[t] for t in tiles], "rules": rules}
    ).encode()


async def row_chunked(args: argparse.Namespace, bodies: Sequence[bytes]) -> RowResult:
    result = RowResult(7, "an endless chunked body on one connection, for 10 s at most")
    with server(args) as srv:
        sent, status, closed_after = await asyncio.to_thread(_endless_chunks, srv.port, 10.0)
    result.add("first answer", status)
    result.add(
        "bytes sent before the server closed the connection",
        sent,
        "< 8 MiB (what socket buffers hold)",
        sent < 8 * 1024 * 1024,
    )
    result.add(
        "closed after (s)",
        closed_after,
        "< 1 s",
        isinstance(closed_after, float) and closed_after < 1,
    )
    return result


def _endless_chunks(port: int, seconds: float) -> tuple[int, str, float | str]:
    chunk = b"[" * 65536
    frame = b"%x\r\n%s\r\n" % (len(chunk), chunk)
    sock = socket.create_connection(("127.0.0.1", port))
    sock.sendall(
        b"POST /v1/rummikub/solve HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Transfer-Encoding: chunked\r\n\r\n"
    )
    sock.setblocking(False)
    sent, answer, start = 0, b"", time.perf_counter()
    pending = memoryview(frame)
    closed: float | str = "still open"
    while time.perf_counter() - start < seconds:
        try:
            data = sock.recv(65536)
            if not data:
                closed = round(time.perf_counter() - start, 2)
                break
            answer += data
        except BlockingIOError:
            pass
        except OSError:  # reset by the server
            closed = round(time.perf_counter() - start, 2)
            break
        try:
            wrote = sock.send(pending)
            sent += wrote
            pending = pending[wrote:] or memoryview(frame)  # frames whole, in order
        except BlockingIOError:
            time.sleep(0.001)
        except OSError:
            closed = round(time.perf_counter() - start, 2)
            break
    sock.close()
    status = answer.split(b"\r\n", 1)[0].decode(errors="replace") or "none"
    return sent, status, closed


async def row_overload(args: argparse.Namespace, bodies: Sequence[bytes]) -> RowResult:
    result = RowResult(8, "overload: 16 then 256 clients, in turn")
    for label, env in (("defaults", {}), ("best score only", {"MELDWISE_DISRUPTION_CAP_MS": "0"})):
        with server(args, env) as srv:
            phases = await in_turn(
                args,
                functools.partial(crowd, srv.url, 16, args.duration, bodies),
                functools.partial(crowd, srv.url, 256, args.duration, bodies),
            )
        phases.report(result, f"{label}, 16 clients", f"{label}, 256 clients", 0.8)
    return result


async def row_small(args: argparse.Namespace, bodies: Sequence[bytes]) -> RowResult:
    result = RowResult(9, "the smaller items")
    with server(args) as srv:
        async with httpx.AsyncClient(base_url=srv.url, timeout=30) as client:
            for check in SMALL_CHECKS:
                name, evidence, ok = await check(client, srv)
                result.add(name, evidence, "yes", ok)
    return result


SmallCheck = Callable[[httpx.AsyncClient, Server], Awaitable[tuple[str, str, bool]]]


def _detail(response: httpx.Response) -> str:
    try:
        return f"{response.status_code} {response.json().get('detail', '')}"[:120]
    except ValueError:
        return (
            f"{response.status_code} {response.headers.get('content-type')} {response.text[:60]!r}"
        )


async def _raw_400(client: httpx.AsyncClient, srv: Server) -> tuple[str, str, bool]:
    reader, writer = await asyncio.open_connection("127.0.0.1", srv.port)
    writer.write(b"NOT HTTP\r\n\r\n")
    answer = await reader.read()
    writer.close()
    head = answer.split(b"\r\n\r\n")[0].decode(errors="replace").lower()
    return (
        "a request that is not HTTP gets JSON",
        head.split("\r\n")[0] + (", json" if "application/json" in head else ", not json"),
        "application/json" in head,
    )


def _post_check(
    name: str,
    body: bytes,
    headers: dict[str, str],
    want: int,
    words: str,
    path: str = "/v1/rummikub/solve",
) -> SmallCheck:
    async def check(client: httpx.AsyncClient, srv: Server) -> tuple[str, str, bool]:
        response = await client.post(path, content=body, headers=headers)
        shown = _detail(response)
        return name, shown, response.status_code == want and words in shown

    return check


async def _host(client: httpx.AsyncClient, srv: Server) -> tuple[str, str, bool]:
    response = await client.get("/docs/", headers={"Host": "evil.example"})
    location = response.headers.get("location", "")
    return (
        "Host never echoed (GET /docs/ with Host: evil.example)",
        f"{response.status_code} location={location!r}",
        "evil" not in location,
    )


async def _headers(client: httpx.AsyncClient, srv: Server) -> tuple[str, str, bool]:
    response = await client.get("/")
    wanted = ("content-security-policy", "x-content-type-options", "referrer-policy")
    have = [name for name in wanted if name in response.headers]
    csp = response.headers.get("content-security-policy", "")
    return (
        "security headers on the demo page",
        ", ".join(have) or "none",
        len(have) == 3 and "frame-ancestors" in csp,
    )


async def _docs(client: httpx.AsyncClient, srv: Server) -> tuple[str, str, bool]:
    page = (await client.get("/docs")).text
    remote = [
        line.strip() for line in page.splitlines() if 'src="http' in line or 'href="http' in line
    ]
    pinned = all("integrity=" in line for line in remote)
    return (
        "/docs scripts local or pinned",
        f"{len(remote)} remote, {'all' if pinned else 'not all'} with integrity",
        pinned,
    )


def _json(value: Any) -> bytes:
    return json.dumps(value).encode()


SMALL_CHECKS: list[SmallCheck] = [
    _raw_400,
    _post_check("invalid UTF-8 named", b'{"rack": ["\xff"]}', JSON_HEADERS, 400, "UTF-8"),
    _post_check("deep nesting named", b"[" * 5000 + b"]" * 5000, JSON_HEADERS, 400, "deep"),
    _post_check(
        "huge integer named", b'{"rack": [' + b"9" * 5000 + b"]}", JSON_HEADERS, 422, "digits"
    ),
    _post_check(
        "wrong Content-Type gets 415",
        _json({"rack": ["R1"]}),
        {"Content-Type": "text/plain"},
        415,
        "JSON",
    ),
    _post_check(
        "bidi-override name refused",
        _json({"racks": {"a\u202eb": ["R1"]}}),
        JSON_HEADERS,
        422,
        "printable",
        "/v1/rummikub/score",
    ),
    _post_check(
        "NUL in a name refused",
        _json({"racks": {"a\u0000b": ["R1"]}}),
        JSON_HEADERS,
        422,
        "printable",
        "/v1/rummikub/score",
    ),
    _post_check(
        "Shanghai owner length bounded",
        _json(
            {
                "hand": ["3S"],
                "hand_number": 1,
                "table": [{"cards": ["4S", "4H", "4D"], "owner": "x" * 10000}],
            }
        ),
        JSON_HEADERS,
        422,
        "owner",
        ADVISE_PATH,
    ),
    _post_check(
        "duplicate key refused, named",
        b'{"racks": {"ann": ["R1"], "ann": []}}',
        JSON_HEADERS,
        422,
        "'ann'",
        "/v1/rummikub/score",
    ),
    _host,
    _headers,
    _docs,
]


ROWS: dict[int, Callable[[argparse.Namespace, Sequence[bytes]], Coroutine[Any, Any, RowResult]]] = {
    1: row_idle,
    2: row_abuser,
    3: row_hung,
    4: row_killed,
    5: row_signals,
    6: row_validate_flood,
    7: row_chunked,
    8: row_overload,
    9: row_small,
}


def print_result(result: RowResult, console: Console) -> None:
    table = Table(title=f"row {result.row}: {result.title}", title_justify="left")
    for column in ("figure", "value", "target", "met"):
        table.add_column(column)
    for f in result.figures:
        met = "" if f.met is None else ("yes" if f.met else "NO")
        table.add_row(f.name, str(f.value), f.target, met)
    console.print(table)


FIGURE_FIELDS = ("name", "value", "target", "met")
"""What each figure of a row holds in the ``--json`` file."""


def read_run(path: str) -> dict[str, Any]:
    """The figures a ``--json`` run wrote to ``path``, for ``--compare``; a file that
    cannot be read, or that is no such run, is a :class:`MeldwiseError` naming it."""
    run = read_json_file(path, sys.stdin)
    rows = run.get("rows") if isinstance(run, dict) else None
    if not isinstance(rows, list) or not all(
        isinstance(row, dict)
        and {"row", "title"} <= row.keys()
        and isinstance(row.get("figures"), list)
        and all(isinstance(f, dict) and set(FIGURE_FIELDS) <= f.keys() for f in row["figures"])
        for row in rows
    ):
        raise MeldwiseError(
            _(
                "{path}: not the figures of python -m benchmarks.abuse --json (a 'rows' list"
                " whose rows have a 'row', a 'title' and 'figures' of {fields})",
                path=path,
                fields=", ".join(FIGURE_FIELDS),
            )
        )
    return dict(run)


def compare(before: dict[str, Any], after: dict[str, Any]) -> str:
    """Two ``--json`` files side by side as Markdown, one table per row."""
    lines = []
    old = {row["row"]: {f["name"]: f["value"] for f in row["figures"]} for row in before["rows"]}
    for row in after["rows"]:
        lines += [f"**Row {row['row']}: {row['title']}**", ""]
        lines += ["| figure | before | after | target | met |", "|---|---|---|---|---|"]
        for f in row["figures"]:
            was = old.get(row["row"], {}).get(f["name"], "")
            met = "" if f["met"] is None else ("yes" if f["met"] else "**no**")
            cells = [f["name"], str(was), str(f["value"]), f["target"], met]
            lines.append("| " + " | ".join(c.replace("|", "/") for c in cells) + " |")
        lines.append("")
    return "\n".join(lines)


def row_numbers(text: str) -> list[int]:
    """``--rows``: comma-separated row numbers (``1,4``), each read as every whole-number
    flag reads one (``int()`` took ``1_0`` for row 10), a row that is none of
    :data:`ROWS` refused before a server starts (it was a KeyError after)."""
    rows = [whole_number(word) for word in text.split(",") if word.strip()]
    unknown = [row for row in rows if row not in ROWS]
    if unknown:
        raise argparse.ArgumentTypeError(
            f"no row {unknown[0]}; the rows are {min(ROWS)} to {max(ROWS)}"
        )
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    parser = Parser(prog="python -m benchmarks.abuse", description=__doc__)
    parser.add_argument(
        "--rows", type=row_numbers, default="1,2,3,4,5,6,7,8,9", help="rows to run, e.g. 1,4"
    )
    parser.add_argument(
        "--duration", type=at_least(0, float), default=10.0, help="seconds per measured phase"
    )
    parser.add_argument(
        "--rounds",
        type=at_least(1),
        default=3,
        help="rounds of baseline and attacked phases in turn (rows 1, 6, 8)",
    )
    parser.add_argument("--source", help="run the server from this source tree (before figures)")
    parser.add_argument(
        "--attacker-nice",
        type=whole_number,
        default=0,
        help="niceness of the attacker's process (rows 2 and 6): 19 keeps its own CPU from "
        "competing with the server's on one machine, as from another machine",
    )
    parser.add_argument("--server-log", default=os.devnull, help="where the servers log")
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    parser.add_argument(
        "--compare",
        nargs=2,
        metavar=("BEFORE", "AFTER"),
        help="print two --json files side by side as Markdown, and run nothing",
    )
    args = parser.parse_args(argv)
    log = None if args.server_log == os.devnull else args.server_log
    outputs_ready(parser, ("--json", args.json), ("--server-log", log))
    if args.compare:
        try:
            before, after = (read_run(name) for name in args.compare)
        except MeldwiseError as error:  # it was a traceback (exit 1) for each
            parser.error(str(error))
        print(compare(before, after))
        return 0
    rows: list[int] = args.rows
    console = Console(width=160)
    load = os.getloadavg()
    source = args.source or "installed"
    console.print(f"load average {load[0]:.2f} {load[1]:.2f}, {os.cpu_count()} cores; {source}")
    bodies = committed_bodies(("selfplay",))
    global ATTACKER_NICENESS
    ATTACKER_NICENESS = args.attacker_nice
    for niceness in {0, ATTACKER_NICENESS}:  # start the helper processes before measuring
        pool = _helpers(niceness)
        for started in [pool.submit(time.sleep, 0.1) for _slot in range(2)]:
            started.result()
    results: list[RowResult] = []
    for row in rows:
        result = asyncio.run(ROWS[row](args, bodies))
        print_result(result, console)
        results.append(result)
    console.print(f"load average after: {os.getloadavg()[0]:.2f}")
    if args.json:
        write_output(
            "--json",
            args.json,
            json.dumps(
                {
                    "source": args.source or "installed",
                    "load_average": os.getloadavg(),
                    "rows": [
                        {"row": r.row, "title": r.title, "figures": [vars(f) for f in r.figures]}
                        for r in results
                    ],
                },
                indent=2,
            ),
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

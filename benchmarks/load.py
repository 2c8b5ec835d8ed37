"""Load test of the HTTP service: N clients for T seconds against ``meldwise serve``.

``python -m benchmarks.load`` starts ``meldwise serve`` on a free loopback port
(or targets ``--url``), waits until it is ready, then for each ``--clients`` count
runs that many concurrent clients, each posting mid-game solve requests back to
back for ``--duration`` seconds (after ``--warm-up`` seconds that are not counted);
a client that gets 503 or 429 waits its ``Retry-After`` unless ``--ignore-retry-after``.
Each client connects from an address of its own in 127.0.0.0/8 (Linux answers on
the whole range), so the server's per-client limits see as many clients as a
real crowd would. It does so first with the server's defaults (least disruption
on), then, beside it, with the least-disruption stage off
(``MELDWISE_DISRUPTION_CAP_MS=0``: the score alone) unless ``--default-only``.
Before the load each distinct request is posted once on its own; every answer
under load is compared with that one, byte for byte.
It prints requests/s, solves/s (answers with 200), latency percentiles, HTTP and
solver status counts, and answers that differ from the lone ones (and how many of
those a time limit cut), as a table; ``--json FILE`` writes the same figures.

The load generator shares the machine with the server: by default it is the lean
client of :mod:`benchmarks.lean_http` (prepared request bytes, httptools' C parser,
one process), which spends a small fraction of httpx's CPU per request
(``--client httpx`` for the httpx one). Its own CPU time is reported, and the
server's is split between its main process and its solver workers, so the figures
can be read fairly. ``--source DIR`` (repeatable) runs the server from another
source tree (e.g. an export of main's head) beside this one, in the same run, for
before/after ratios on a shared machine. Traffic stays on loopback.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import ipaddress
import itertools
import json
import os
import random
import resource
import signal
import ssl
import sys
import time
from collections import Counter
from collections.abc import Coroutine, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any, Literal, overload
from urllib.parse import urlsplit

import httpx
from rich.console import Console
from rich.table import Table

from api.spawn import serve, wait_ready
from benchmarks.lean_http import LeanClient
from benchmarks.output import outputs_ready, write_output
from benchmarks.stats import at_least, number, percentile
from solver.commands import Parser, whole_number
from solver.rummikub import STANDARD, Position
from solver.rummikub.deal import random_position

SOLVE_PATH = "/v1/rummikub/solve"
POSITIONS_FILE = Path(__file__).with_name("positions-2026.json")
MID_GAME_BUCKETS = ("mid-t40-60", "mid-t60-80")
SETTINGS: tuple[tuple[str, dict[str, str]], ...] = (
    ("defaults", {}),
    ("score only (MELDWISE_DISRUPTION_CAP_MS=0)", {"MELDWISE_DISRUPTION_CAP_MS": "0"}),
)
"""The server's settings each load runs with: the default first, the score alone beside."""


@dataclass(frozen=True)
class Outcome:
    """One request: when it was sent, how long it took, what came back."""

    sent: float
    ms: float
    http: str
    solver: str | None
    same: bool | None = None
    """Whether the answer is byte for byte the one the request got on its own."""
    capped: bool = False
    """Whether a time limit stopped one of its searches (``time_capped``)."""


@dataclass(frozen=True)
class Summary:
    setting: str
    clients: int
    seconds: float
    requests: int
    requests_per_s: float
    solves_per_s: float
    p50_ms: float | None
    p90_ms: float | None
    p99_ms: float | None
    max_ms: float | None
    solve_p99_ms: float | None
    """Latencies (ms); None where there is nothing to measure (no answer, no solve)."""
    http_status: dict[str, int]
    solver_status: dict[str, int]
    client_cpu_share: float
    """Load generator CPU time per second of run (1.0 = one core)."""
    server_cpu_ms: float | None
    """Server CPU time (all its processes) per answer, when the server runs here."""
    main_cpu_ms: float | None = None
    """Of which the server's main process (HTTP, admission, the event loop)."""
    client: str = "lean"
    """The load generator: ``lean`` (:mod:`benchmarks.lean_http`) or ``httpx``."""
    answers_differ: int = 0
    """Answers (200) not byte for byte the ones their requests got on their own."""
    answers_capped: int = 0
    """Of those, answers a time limit cut (``time_capped``)."""


def parse_range(text: str) -> tuple[int, int]:
    """``"20-40"`` -> (20, 40); ``"30"`` -> (30, 30). Raises ArgumentTypeError naming
    the text when it is no such range (``40-20`` once failed in ``random.randint``)."""
    low, _, high = text.partition("-")
    try:  # as every whole-number flag reads one: int() took "2_0-40" for 20-40
        bounds = whole_number(low), whole_number(high or low)
    except argparse.ArgumentTypeError:
        bounds = (1, 0)
    if not 0 <= bounds[0] <= bounds[1]:
        raise argparse.ArgumentTypeError(f"{text!r} is no range of tiles like 20-40")
    return bounds


def mid_game_bodies(
    seed: int, count: int, table: tuple[int, int], rack: tuple[int, int]
) -> list[bytes]:
    """Reproducible solve request bodies: random legal positions after opening."""
    rng = random.Random(seed)
    bodies = []
    for _ in range(count):
        table_jokers = rng.randint(0, STANDARD.jokers)
        rack_jokers = rng.randint(0, STANDARD.jokers - table_jokers)
        table_tiles, rack_tiles = rng.randint(*table), rng.randint(*rack)
        position = random_position(
            rng,
            STANDARD,
            table_tiles,
            rack_tiles,
            table_jokers=table_jokers,
            # --rack 0-1 asked for more jokers than tiles: a ValueError traceback.
            rack_jokers=min(rack_jokers, rack_tiles),
        )
        request = {
            "rack": [str(t) for t in position.rack],
            "table": [[str(t) for t in tiles] for tiles in position.table],
        }
        bodies.append(json.dumps(request).encode())
    return bodies


def committed_bodies(buckets: Sequence[str]) -> list[bytes]:
    """The committed positions of ``buckets`` (see benchmarks/positions-2026.json) as
    request bodies, after opening."""
    saved = json.loads(POSITIONS_FILE.read_text())
    bodies = []
    for bucket in buckets:
        for entry in saved["buckets"][bucket]:
            position = Position.parse(entry["rack"], entry["table"])
            request = {
                "rack": [str(t) for t in position.rack],
                "table": [[str(t) for t in tiles] for tiles in position.table],
            }
            bodies.append(json.dumps(request).encode())
    return bodies


async def lone_answers(url: str, bodies: Sequence[bytes]) -> dict[bytes, bytes]:
    """Each distinct request's answer when it is the only one the server has."""
    answers = {}
    async with httpx.AsyncClient(base_url=url, timeout=30.0) as client:
        for body in dict.fromkeys(bodies):
            response = await client.post(
                SOLVE_PATH, content=body, headers={"Content-Type": "application/json"}
            )
            while response.status_code == 429:  # the per-client rate limit: wait and retry
                await asyncio.sleep(float(response.headers.get("Retry-After", 1)))
                response = await client.post(
                    SOLVE_PATH, content=body, headers={"Content-Type": "application/json"}
                )
            if response.status_code == 200:
                answers[body] = response.content
    return answers


def client_address(number: int) -> str:
    """The loopback address client ``number`` connects from: 127.0.1.2, 127.0.1.3, ..."""
    return f"127.0.{1 + number // 250}.{2 + number % 250}"


@functools.cache
def _tls() -> ssl.SSLContext:
    # Made once: each client making its own takes tens of milliseconds.
    return ssl.create_default_context()


def client_for(url: str, number: int, timeout: float = 30.0) -> httpx.AsyncClient:
    """An HTTP client with one kept-alive connection from :func:`client_address`."""
    transport = httpx.AsyncHTTPTransport(
        local_address=client_address(number),
        limits=httpx.Limits(max_connections=1),
        verify=_tls(),
    )
    return httpx.AsyncClient(base_url=url, transport=transport, timeout=timeout)


async def one_client(
    client: httpx.AsyncClient,
    bodies: Iterator[bytes],
    stop: float,
    outcomes: list[Outcome],
    honour_retry_after: bool,
    path: str = SOLVE_PATH,
    alone: Mapping[bytes, bytes] | None = None,
) -> None:
    """Post requests back to back until ``stop``; after a 503 or 429, wait as long as
    its Retry-After says (unless told not to). Answers are compared with ``alone``."""
    headers = {"Content-Type": "application/json"}
    while (sent := time.perf_counter()) < stop:
        solver, pause, same, capped = None, 0.0, None, False
        body = next(bodies)
        try:
            response = await client.post(path, content=body, headers=headers)
            http = str(response.status_code)
            if response.status_code == 200:
                answer = response.json()
                solver = answer.get("status", "ok")
                capped = answer.get("time_capped", False)
                if alone and body in alone:
                    same = response.content == alone[body]
            elif response.status_code in (429, 503) and honour_retry_after:
                pause = float(response.headers.get("Retry-After", 1))
        except httpx.HTTPError as error:
            http = type(error).__name__
        ms = (time.perf_counter() - sent) * 1000
        outcomes.append(Outcome(sent, ms, http, solver, same, capped))
        await asyncio.sleep(min(pause, max(0.0, stop - time.perf_counter())))


def check_answer(
    body: bytes, content: bytes, alone: Mapping[bytes, bytes] | None
) -> tuple[str, bool | None, bool]:
    """An answer's solver status, whether it is byte for byte its request's lone
    answer, and whether a time limit cut it. A lone answer's status is read once."""
    lone = alone.get(body) if alone else None
    same = None if lone is None else content == lone
    answer = _read_answer(content) if same else json.loads(content)
    return str(answer.get("status", "ok")), same, bool(answer.get("time_capped", False))


@functools.lru_cache(maxsize=4096)
def _read_answer(content: bytes) -> dict[str, Any]:
    answer: dict[str, Any] = json.loads(content)
    return answer


async def lean_client(
    client: LeanClient,
    requests: Iterator[tuple[bytes, bytes]],
    stop: float,
    outcomes: list[Outcome],
    honour_retry_after: bool,
    alone: Mapping[bytes, bytes] | None = None,
) -> None:
    """As :func:`one_client`, with the lean client: ``requests`` yields each body with
    its prepared request bytes."""
    while (sent := time.perf_counter()) < stop:
        solver, pause, same, capped = None, 0.0, None, False
        body, request = next(requests)
        try:
            answer = await client.send(request)
            http = str(answer.status)
            if answer.status == 200:
                solver, same, capped = check_answer(body, answer.body, alone)
            elif answer.status in (429, 503) and honour_retry_after:
                pause = float(answer.retry_after or 1)
        except (OSError, TimeoutError) as error:
            http = type(error).__name__
        ms = (time.perf_counter() - sent) * 1000
        outcomes.append(Outcome(sent, ms, http, solver, same, capped))
        await asyncio.sleep(min(pause, max(0.0, stop - time.perf_counter())))


async def run_load(
    url: str,
    clients: int,
    seconds: float,
    warm_up: float,
    bodies: Sequence[bytes],
    server_pid: int | None = None,
    honour_retry_after: bool = True,
    alone: Mapping[bytes, bytes] | None = None,
    setting: str = "",
    lean: bool = True,
) -> Summary:
    """``clients`` concurrent clients for ``warm_up + seconds``; figures over ``seconds``
    (answers compared with ``alone``, the lone answers, when given), with the lean
    client unless ``lean`` is false (httpx)."""
    outcomes: list[Outcome] = []
    cpu_before = _cpu_seconds()
    async with contextlib.AsyncExitStack() as stack:
        crowd: list[Coroutine[Any, Any, None]]
        if lean:
            parts = urlsplit(url)
            prepared = [(b, LeanClient.request(parts.netloc, SOLVE_PATH, b)) for b in bodies]
            requests = itertools.cycle(prepared)
            lean_crowd = [
                LeanClient(parts.hostname or "127.0.0.1", parts.port or 80, client_address(n))
                for n in range(clients)
            ]
            for lean_one in lean_crowd:
                stack.callback(lean_one.close)
        else:
            cycle = itertools.cycle(bodies)
            httpx_crowd = [
                await stack.enter_async_context(client_for(url, n)) for n in range(clients)
            ]
        start = time.perf_counter() + warm_up
        stop = start + seconds
        if lean:
            crowd = [
                lean_client(c, requests, stop, outcomes, honour_retry_after, alone)
                for c in lean_crowd
            ]
        else:
            crowd = [
                one_client(c, cycle, stop, outcomes, honour_retry_after, SOLVE_PATH, alone)
                for c in httpx_crowd
            ]
        server_before = process_tree_cpu(server_pid, split=True) if server_pid else None
        await asyncio.gather(*crowd)
        server_after = process_tree_cpu(server_pid, split=True) if server_pid else None
    cpu = _cpu_seconds() - cpu_before
    counted = [o for o in outcomes if o.sent >= start]
    summary = summarise(setting, clients, seconds, counted, cpu / (warm_up + seconds))
    summary = replace(summary, client="lean" if lean else "httpx")
    if server_before is not None and server_after is not None and outcomes:
        (main_before, all_before), (main_after, all_after) = server_before, server_after
        summary = replace(
            summary,
            server_cpu_ms=(all_after - all_before) / len(outcomes) * 1000,
            main_cpu_ms=(main_after - main_before) / len(outcomes) * 1000,
        )
    return summary


def summarise(
    setting: str, clients: int, seconds: float, outcomes: list[Outcome], cpu: float
) -> Summary:
    ms = [o.ms for o in outcomes]
    solved = [o.ms for o in outcomes if o.http == "200"]
    http = Counter(o.http for o in outcomes)
    differ = [o for o in outcomes if o.same is False]
    return Summary(
        setting=setting,
        clients=clients,
        seconds=seconds,
        requests=len(outcomes),
        requests_per_s=len(outcomes) / seconds,
        solves_per_s=http["200"] / seconds,
        # No answer, or no solve: no latency (0 ms was printed, as if instant).
        p50_ms=percentile(ms, 0.50) if ms else None,
        p90_ms=percentile(ms, 0.90) if ms else None,
        p99_ms=percentile(ms, 0.99) if ms else None,
        max_ms=max(ms, default=None),
        solve_p99_ms=percentile(solved, 0.99) if solved else None,
        http_status=dict(sorted(http.items())),
        solver_status=dict(sorted(Counter(o.solver for o in outcomes if o.solver).items())),
        client_cpu_share=cpu,
        server_cpu_ms=None,
        answers_differ=len(differ),
        answers_capped=sum(o.capped for o in differ),
    )


def _cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


@overload
def process_tree_cpu(pid: int, split: Literal[False] = False) -> float | None: ...
@overload
def process_tree_cpu(pid: int, split: Literal[True]) -> tuple[float, float] | None: ...
def process_tree_cpu(pid: int, split: bool = False) -> float | tuple[float, float] | None:
    """CPU seconds used so far by process ``pid`` and its child processes (Linux /proc),
    or None where /proc is not there; with ``split``, (``pid``'s own, all together)."""
    tick = os.sysconf("SC_CLK_TCK")
    own = total = 0
    try:
        entries = os.listdir("/proc")
    except OSError:
        return None
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue  # the process ended meanwhile
        # After the command: state, ppid, ... utime is field 14 and stime 15 of stat(5).
        if int(entry) == pid or int(fields[1]) == pid:
            used = int(fields[11]) + int(fields[12])
            total += used
            if int(entry) == pid:
                own = used
    if split:
        return own / tick, total / tick
    return total / tick


def _loopback_problem(url: str) -> str | None:
    """Why ``url`` may not be loaded (traffic stays on loopback), or None."""
    host = urlsplit(url).hostname or ""
    try:
        loopback = host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = False
    if loopback:
        return None
    return f"--url must be a loopback address (127.0.0.1, localhost, ::1), got {host}"


def _terminated(signum: int, _frame: object) -> None:
    """SIGTERM as an exit that runs the ``finally`` blocks: the started server is stopped."""
    raise SystemExit(128 + signum)


def print_summaries(summaries: Sequence[Summary], console: Console, title: str) -> None:
    table = Table(title=title)
    columns = ("server", "clients", "req/s", "200/s", "p50", "p90", "p99", "max", "200 p99")
    for column in (
        *columns,
        "HTTP status",
        "solver status",
        "differ",
        "client CPU",
        "server CPU ms",
        "main ms",
    ):
        table.add_column(
            column,
            justify="left" if column in ("server", "HTTP status", "solver status") else "right",
        )
    for s in summaries:
        table.add_row(
            s.setting,
            str(s.clients),
            f"{s.requests_per_s:.1f}",
            f"{s.solves_per_s:.1f}",
            *(
                "n/a" if value is None else f"{value:.0f}"
                for value in (s.p50_ms, s.p90_ms, s.p99_ms, s.max_ms, s.solve_p99_ms)
            ),
            " ".join(f"{code}:{n}" for code, n in s.http_status.items()),
            " ".join(f"{name}:{n}" for name, n in s.solver_status.items()),
            f"{s.answers_differ} ({s.answers_capped} capped)",
            f"{s.client_cpu_share:.0%}",
            "-" if s.server_cpu_ms is None else f"{s.server_cpu_ms:.1f}",
            "-" if s.main_cpu_ms is None else f"{s.main_cpu_ms:.1f}",
        )
    console.print(table)
    console.print(
        "latencies in ms over all answers; '200 p99' over solved requests only; differ: "
        "answers not byte for byte the ones their requests got on their own (capped: of "
        "those, cut by a time limit); client CPU: load generator CPU per second (100% = one "
        "core); server CPU ms: per answer, all server processes; main ms: of which the "
        "server's main process (the rest is its solver workers)"
    )


def _refuse_unused(
    parser: argparse.ArgumentParser, args: argparse.Namespace, flags: Sequence[str], by: str
) -> None:
    """A usage error naming the first of ``flags`` given, which ``by`` leaves unused."""
    for flag in flags:
        value = getattr(args, flag.removeprefix("--").replace("-", "_"))
        if value is not None and not (flag == "--server-log" and value == os.devnull):
            parser.error(f"{flag} has no use with {by}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = Parser(prog="python -m benchmarks.load", description=__doc__)
    parser.add_argument(
        "--clients",
        type=at_least(1),
        action="append",
        help="concurrent clients; repeat for several runs (default: 16 then 64)",
    )
    parser.add_argument(
        "--duration", type=at_least(0, float), default=20.0, help="counted seconds per run"
    )
    parser.add_argument("--warm-up", type=number, default=2.0, help="uncounted seconds first")
    parser.add_argument("--url", help="target a running service instead of starting one")
    parser.add_argument("--workers", type=at_least(1), help="--workers for the started service")
    parser.add_argument("--table", type=parse_range, help="table tiles per position (20-40)")
    parser.add_argument("--rack", type=parse_range, help="rack tiles per position (8-14)")
    parser.add_argument("--positions", type=at_least(1), help="distinct positions (300)")
    parser.add_argument(
        "--selfplay",
        action="store_true",
        help="post the self-play positions of benchmarks/positions-2026.json (mid-game "
        "positions met in simulated games) instead of random ones",
    )
    parser.add_argument(
        "--mid-game",
        action="store_true",
        help="post the mid-game positions of benchmarks/positions-2026.json (buckets "
        f"{', '.join(MID_GAME_BUCKETS)}: tables of 40-80 tiles, a joker on table and rack)",
    )
    parser.add_argument(
        "--default-only",
        action="store_true",
        help="only the server's defaults, not the score alone beside them",
    )
    parser.add_argument("--seed", type=whole_number, help="of the random positions (2026)")
    parser.add_argument("--server-log", default=os.devnull, help="where the started server logs")
    parser.add_argument(
        "--ignore-retry-after",
        action="store_true",
        help="after a 503 or 429, send the next request at once instead of waiting Retry-After",
    )
    parser.add_argument(
        "--client",
        choices=("lean", "httpx"),
        default="lean",
        help="the load generator: the lean one of benchmarks/lean_http.py (default) or httpx",
    )
    parser.add_argument(
        "--source",
        action="append",
        metavar="DIR",
        help="also run the started server from this source tree (e.g. `git archive main` "
        "unpacked), before this one, for before/after figures in one run; repeatable",
    )
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    args = parser.parse_args(argv)
    # The server's log is opened as the server starts: a NotADirectoryError traceback.
    log = None if args.server_log == os.devnull else args.server_log
    outputs_ready(parser, ("--json", args.json), ("--server-log", log))
    # Each was found only in the run, if at all: --clients 0 measured nothing for 20 s
    # and said so as a table; a remote --url, a missing --source or --workers 0 (the
    # server refused to start, and was waited for 60 s) ended it in exit 1 or a traceback.
    if args.selfplay and args.mid_game:  # --selfplay won without a word
        parser.error("--selfplay and --mid-game name two sets of positions; give one")
    if not args.warm_up >= 0:
        parser.error(f"argument --warm-up: must be at least 0, got {args.warm_up:g}")
    if args.url and (problem := _loopback_problem(args.url)):
        parser.error(problem)
    for source in args.source or []:
        if not Path(source).is_dir():
            parser.error(f"--source {source}: no such folder")
    # Flags the run would not use were taken without a word.
    dealt = ("--table", "--rack", "--positions", "--seed")
    if args.selfplay or args.mid_game:
        _refuse_unused(parser, args, dealt, "--selfplay" if args.selfplay else "--mid-game")
    if args.url:
        _refuse_unused(parser, args, ("--workers", "--source", "--server-log"), "--url")

    if args.selfplay:
        bodies, what = committed_bodies(["selfplay"]), "self-play positions"
    elif args.mid_game:
        bodies, what = committed_bodies(MID_GAME_BUCKETS), "mid-game positions"
    else:
        table = args.table or parse_range("20-40")
        rack = args.rack or parse_range("8-14")
        seed = 2026 if args.seed is None else args.seed
        bodies = mid_game_bodies(seed, args.positions or 300, table, rack)
        what = "table {}-{} tiles, rack {}-{}".format(*table, *rack)
    settings = [("as it runs", {})] if args.url else SETTINGS[: 1 if args.default_only else None]
    sources: list[str | None] = [*(args.source or []), None]
    summaries = []
    for source, (setting, env) in itertools.product(sources, settings):
        label = setting if source is None else f"{setting}, from {source}"
        with contextlib.ExitStack() as stack:
            server_pid = None
            if args.url:
                url = args.url.rstrip("/")
                wait_ready(url, timeout=10)
            else:
                url, server_pid = stack.enter_context(
                    serve(args.workers, args.server_log, env, source)
                )
            alone = asyncio.run(lone_answers(url, bodies))
            summaries += [
                asyncio.run(
                    run_load(
                        url,
                        clients,
                        args.duration,
                        args.warm_up,
                        bodies,
                        server_pid,
                        not args.ignore_retry_after,
                        alone,
                        label,
                        lean=args.client == "lean",
                    )
                )
                for clients in args.clients or [16, 64]
            ]
        if args.url:
            break
    title = (
        f"meldwise serve under load: {os.cpu_count()} cores, {what}, "
        f"{args.duration:.0f} s per run, {args.client} client, Retry-After "
        f"{'ignored' if args.ignore_retry_after else 'honoured'}"
    )
    print_summaries(summaries, Console(width=220), title)
    if args.json:
        write_output("--json", args.json, json.dumps([asdict(s) for s in summaries], indent=2))
    return 0


if __name__ == "__main__":
    # SIGTERM (kill, timeout) ended this program without a word to the server it had
    # started in a session of its own, which then ran on: stop it as Ctrl-C does.
    signal.signal(signal.SIGTERM, _terminated)
    sys.exit(main())

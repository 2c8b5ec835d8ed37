"""Soak test: a long, varied, modest load on ``meldwise serve``, its memory sampled.

``python -m benchmarks.soak --minutes 15`` starts ``meldwise serve`` on a free
loopback port (or targets ``--url`` with ``--pid``), then for ``--minutes`` sends a
mix of requests at about ``--rate`` per second from addresses of
127.0.0.0/8 (each request from one of them, most from a new one): Rummikub solves
of drawn positions of every size, validations, repairs, scores, bot moves, whole bot
games and their reviews, Shanghai advice with drawn contracts and rule variants, both
languages, and refusals (malformed JSON, 413, 422, 404 on drawn paths, bursts past
the rate limit for 429). Every ``--every`` seconds it records the resident memory
(RSS) of the server process and of each solver worker, and the server's open file
descriptors; at the end it prints them over time, the statuses seen, and the growth
of each over the last half of the run (memory that has levelled off grows little
there). ``--json FILE`` writes every sample. Each sample says how late the soak's own
event loop was at worst since the last (``lag_s``: seconds late, the client's own
slowness, not the server's), and each request that got no answer is printed with its
kind, address, error and seconds.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import itertools
import json
import os
import random
import ssl
import string
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx

from api.spawn import serve
from benchmarks.stats import at_least
from solver.commands import Parser, whole_number

COLOURS = "RBKO"
SUITS = "SHDC"
RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


def _rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError):
            stat = (entry / "stat").read_text()
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return sorted(found)


def sample(pid: int) -> dict[str, Any]:
    """The server's and its workers' RSS (KiB) and the server's open descriptors now."""
    workers = _children(pid)
    return {
        "server_kb": _rss_kb(pid),
        "workers_kb": [_rss_kb(w) for w in workers],
        "worker_pids": workers,
        "fds": len(os.listdir(f"/proc/{pid}/fd")),
    }


def _position(rng: random.Random) -> tuple[list[list[str]], list[str]]:
    """A table of valid sets and a rack, from one game's tiles (two of each, two jokers)."""
    pool = Counter({f"{c}{n}": 2 for c in COLOURS for n in range(1, 14)})
    sets: list[list[str]] = []
    for _ in range(rng.randint(0, 12)):
        if rng.random() < 0.5:
            colour = rng.choice(COLOURS)
            length = rng.randint(3, 6)
            first = rng.randint(1, 14 - length)
            candidate = [f"{colour}{n}" for n in range(first, first + length)]
        else:
            number = rng.randint(1, 13)
            candidate = [f"{c}{number}" for c in rng.sample(COLOURS, rng.randint(3, 4))]
        if all(pool[tile] > 0 for tile in candidate):
            pool.subtract(candidate)
            sets.append(candidate)
    left = list(pool.elements())
    rack = rng.sample(left, rng.randint(1, 20)) + ["J"] * (rng.random() < 0.2)
    return sets, rack


def _table(rng: random.Random) -> list[list[str]]:
    return _position(rng)[0]


def _rack(rng: random.Random) -> list[str]:
    return _position(rng)[1]


def _hand(rng: random.Random) -> list[str]:
    deck = [f"{rank}{suit}" for rank in RANKS for suit in SUITS] * 2
    return rng.sample(deck, rng.randint(2, 14))


def _shanghai_rules(rng: random.Random) -> dict[str, Any]:
    rules: dict[str, Any] = {}
    if rng.random() < 0.5:
        rules["twos_wild"] = rng.random() < 0.5
        rules["ace_low"] = rng.random() < 0.5
    if rng.random() < 0.3:
        rules["decks"] = rng.randint(1, 3)
    if rng.random() < 0.3:
        rules["low_points"] = rng.randint(0, 1000)  # distinct rule sets, as an attacker's
    return rules


def _advice(rng: random.Random) -> dict[str, Any]:
    body: dict[str, Any] = {"hand": _hand(rng), "time_limit_ms": 300, "rules": _shanghai_rules(rng)}
    if rng.random() < 0.5:
        body["hand_number"] = rng.randint(1, 10)
    else:
        sets = [3] * rng.randint(0, 2)
        runs = [rng.randint(4, 6)] * rng.randint(0 if sets else 1, 2)
        body["contract"] = {"sets": sets, "runs": runs}
    if rng.random() < 0.3:
        body["phase"] = "draw"
        body["upcard"] = f"{rng.choice(RANKS)}{rng.choice(SUITS)}"
    return body


def _solve(rng: random.Random) -> dict[str, Any]:
    table, rack = _position(rng)
    body: dict[str, Any] = {"rack": rack, "table": table, "time_limit_ms": 300}
    if rng.random() < 0.3:
        body["rules"] = {"jokers": rng.randint(0, 4)}
    return body


def _bot(rng: random.Random) -> dict[str, Any]:
    table, rack = _position(rng)
    return {
        "rack": rack,
        "table": table,
        "opponents": [{"rack_size": 9, "opened": True}],
        "bot": rng.choice(["beginner", "greedy", "strong"]),
    }


def _word(rng: random.Random, letters: str, length: int) -> str:
    return "".join(rng.choices(letters, k=length))


Maker = Callable[[random.Random, list[Any]], tuple[str, str, Any] | None]
"""A kind of request: (method, path, body) drawn with ``rng``, given the game records
got so far (None when it cannot be made yet)."""

MIX: dict[str, tuple[int, Maker]] = {
    "solve": (20, lambda rng, _: ("POST", "/v1/rummikub/solve", _solve(rng))),
    "validate": (
        6,
        lambda rng, _: (
            "POST",
            "/v1/rummikub/validate",
            {"rack": _rack(rng), "table_before": (t := _table(rng)), "table_after": t[::-1]},
        ),
    ),
    "repair": (
        5,
        lambda rng, _: (
            "POST",
            "/v1/rummikub/repair",
            {"table": [*_table(rng), [f"{rng.choice(COLOURS)}{rng.randint(1, 13)}"]]},
        ),
    ),
    "score": (
        4,
        lambda rng, _: (
            "POST",
            "/v1/rummikub/score",
            {"racks": {f"p{n}": _rack(rng) for n in range(rng.randint(2, 4))}},
        ),
    ),
    "bot": (3, lambda rng, _: ("POST", "/v1/rummikub/bot", _bot(rng))),
    "game": (
        1,
        lambda rng, _: (
            "POST",
            "/v1/rummikub/game",
            {"bots": ["greedy", "beginner"], "seed": rng.randint(0, 10**6)},
        ),
    ),
    "review": (
        1,
        lambda rng, records: (
            ("POST", "/v1/rummikub/review", {"record": rng.choice(records)}) if records else None
        ),
    ),
    "advise": (20, lambda rng, _: ("POST", "/v1/shanghai/advise", _advice(rng))),
    "shanghai_score": (
        4,
        lambda rng, _: (
            "POST",
            "/v1/shanghai/score",
            {"hands": {f"p{n}": _hand(rng) for n in range(rng.randint(2, 4))}},
        ),
    ),
    "shanghai_game": (
        1,
        lambda rng, _: (
            "POST",
            "/v1/shanghai/game",
            {"bots": ["greedy", "greedy"], "seed": rng.randint(0, 10**6), "settings": {"hands": 1}},
        ),
    ),
    "bad_json": (3, lambda _rng, _: ("POST", "/v1/rummikub/solve", b'{"rack": ["R1" "R2"]')),
    "too_large": (
        3,
        lambda _rng, _: ("POST", "/v1/rummikub/solve", b'{"rack": [' + b'"R1",' * 5000 + b'"R2"]}'),
    ),
    "invalid": (
        5,
        lambda rng, _: (
            "POST",
            "/v1/rummikub/solve",
            {"rack": [_word(rng, string.ascii_letters + string.digits, rng.randint(1, 8))]},
        ),
    ),
    "unknown_path": (
        3,
        lambda rng, _: (
            rng.choice(["GET", "POST", "PUT"]),
            f"/v1/{_word(rng, string.ascii_lowercase, 12)}/{rng.randint(0, 10**9)}",
            None,
        ),
    ),
    "healthz": (3, lambda _rng, _: ("GET", "/healthz", None)),
}
"""Each kind of request by name: its weight in the mix and its maker. Distinct
positions, contracts, rule sets (point values drawn from 0-1000, as an attacker
would vary them) and paths, so that a cache keyed by any of them fills."""


def requests(rng: random.Random, records: list[Any]) -> Iterator[tuple[str, str, Any, str]]:
    """Endless (method, path, body, kind) drawn from :data:`MIX`; a body is JSON-able,
    or bytes sent as they are."""
    kinds = list(MIX)
    weights = [MIX[kind][0] for kind in kinds]
    while True:
        kind = rng.choices(kinds, weights=weights)[0]
        made = MIX[kind][1](rng, records)
        if made is not None:
            yield (*made, kind)


@functools.cache
def _tls() -> ssl.SSLContext:
    """The TLS set-up every request shares. httpx builds one for each transport (the CA
    bundle read and parsed): 0.1-0.44 s of the one event loop for each request on the
    busy 2-core machine, so that a burst of 41 held it 5-18 s, and a connection opened
    just before sent its request after the server's 10 s header timeout had closed it
    (``ReadError``, ``RemoteProtocolError``)."""
    return ssl.create_default_context()


async def _send(
    url: str, address: str, method: str, path: str, body: Any, lang: str
) -> httpx.Response:
    transport = httpx.AsyncHTTPTransport(local_address=address, verify=_tls())
    async with httpx.AsyncClient(base_url=url, transport=transport, timeout=60) as client:
        headers = {"Accept-Language": lang, "Content-Type": "application/json"}
        content = body if isinstance(body, bytes) else None if body is None else json.dumps(body)
        return await client.request(method, path, content=content, headers=headers)


def sample_all(pids: list[int]) -> dict[str, Any]:
    """:func:`sample` of each server process (replicas), by pid."""
    return {str(pid): sample(pid) for pid in pids}


async def soak(url: str, pids: list[int], args: argparse.Namespace) -> dict[str, Any]:
    rng = random.Random(args.seed)
    records: list[Any] = []
    statuses: Counter[str] = Counter()
    samples: list[dict[str, Any]] = []
    start = time.monotonic()
    end = start + args.minutes * 60
    addresses = itertools.count(1)
    running: set[asyncio.Task[None]] = set()

    seen: list[str] = []
    failures: list[dict[str, Any]] = []
    lag = [0.0, time.monotonic()]  # the event loop's worst lateness since the last
    # sample (s), and when the watch last woke: a stall that ends in the sample counts

    async def watch_lag() -> None:
        while True:
            lag[1] = time.monotonic()
            await asyncio.sleep(0.1)
            lag[0] = max(lag[0], time.monotonic() - lag[1] - 0.1)

    def failed(kind: str, here: str, began: float, error: BaseException) -> None:
        failures.append(
            {
                "t": round(began - start, 1),
                "kind": kind,
                "address": here,
                "error": f"{type(error).__name__}: {error}",
                "seconds": round(time.monotonic() - began, 2),
            }
        )

    def address() -> str:
        if seen and rng.random() < 0.3:  # a client that came before
            return rng.choice(seen)
        n = next(addresses)
        seen.append(f"127.{(n >> 16) & 255}.{(n >> 8) & 255}.{n & 255 or 1}")
        return seen[-1]

    async def one(method: str, path: str, body: Any, kind: str) -> None:
        lang = rng.choice(["en", "ja"])
        here, began = address(), time.monotonic()
        try:
            answer = await _send(url, here, method, path, body, lang)
            statuses[f"{kind} {answer.status_code}"] += 1
            if kind == "game" and answer.status_code == 200 and len(records) < 20:
                records.append(answer.json()["record"])
        except httpx.HTTPError as error:
            statuses[f"{kind} {type(error).__name__}"] += 1
            failed(kind, here, began, error)

    async def burst() -> None:  # one client past its rate limit: 429s
        here, began = address(), time.monotonic()
        body = {"rack": ["R1"], "table": []}
        answers = await asyncio.gather(
            *(
                _send(url, here, "POST", "/v1/rummikub/score", {"racks": {"a": []}}, "en")
                for _ in range(40)
            ),
            _send(url, here, "POST", "/v1/rummikub/solve", body, "ja"),
            return_exceptions=True,
        )
        for answer in answers:
            name = (
                answer.status_code if isinstance(answer, httpx.Response) else type(answer).__name__
            )
            statuses[f"burst {name}"] += 1
            if isinstance(answer, BaseException):
                failed("burst", here, began, answer)

    mix = requests(rng, records)
    watcher = asyncio.ensure_future(watch_lag())
    next_sample = start
    while time.monotonic() < end:
        now = time.monotonic()
        if now >= next_sample:
            point = {
                "t": round(now - start, 1),
                "lag_s": round(max(lag[0], now - lag[1] - 0.1), 2),
                "servers": sample_all(pids),
            }
            lag[0] = 0.0
            samples.append(point)
            print(json.dumps(point), flush=True)
            next_sample += args.every
        if rng.random() < 0.01:
            task = asyncio.ensure_future(burst())
        else:
            task = asyncio.ensure_future(one(*next(mix)))
        running.add(task)
        task.add_done_callback(running.discard)
        await asyncio.sleep(rng.expovariate(args.rate))
    await asyncio.gather(*running, return_exceptions=True)
    await asyncio.sleep(3)
    watcher.cancel()
    samples.append({"t": round(time.monotonic() - start, 1), "servers": sample_all(pids)})
    return {"samples": samples, "statuses": dict(sorted(statuses.items())), "failures": failures}


def growth(samples: list[dict[str, Any]]) -> dict[str, Any]:
    """Each server's figures at the start, the middle and the end of the run."""
    points = [samples[0], samples[len(samples) // 2], samples[-1]]
    return {
        pid: {
            "server_kb": [p["servers"][pid]["server_kb"] for p in points],
            "workers_kb": [sum(p["servers"][pid]["workers_kb"]) for p in points],
            "fds": [p["servers"][pid]["fds"] for p in points],
        }
        for pid in samples[0]["servers"]
    }


def main(argv: list[str] | None = None) -> int:
    parser = Parser(prog="python -m benchmarks.soak", description=__doc__)
    positive = at_least(0.001, float)
    parser.add_argument("--minutes", type=positive, default=15.0)
    parser.add_argument(
        "--rate", type=positive, default=6.0, help="requests per second, on average"
    )
    parser.add_argument("--every", type=positive, default=30.0, help="seconds between samples")
    parser.add_argument("--seed", type=whole_number, default=1)
    parser.add_argument("--workers", type=at_least(1), default=None)
    parser.add_argument("--url", default=None)
    parser.add_argument(
        "--pid", type=at_least(1), action="append", help="a server's pid, with --url (repeatable)"
    )
    parser.add_argument("--json", default=None)
    args = parser.parse_args(argv)
    if args.url:
        if args.pid is None:
            parser.error("--url needs --pid")
        result = asyncio.run(soak(args.url, args.pid, args))
    else:
        with serve(args.workers, "/tmp/meldwise-soak-server.log") as (url, pid):
            result = asyncio.run(soak(url, [pid], args))
    result["growth"] = growth(result["samples"])
    print(json.dumps(result["statuses"], indent=1))
    for failure in result["failures"]:
        print("failed:", json.dumps(failure))
    print("first, middle, last:", json.dumps(result["growth"]))
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())

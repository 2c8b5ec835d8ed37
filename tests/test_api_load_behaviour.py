"""The service under load: solves off the event loop, bounded admission with an
immediate 503 + Retry-After, the time cap, and recovery from a lost worker."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal

import httpx
import pytest
from api_support import (
    SHANGHAI_ADVISE,
    SHANGHAI_SCORE,
    SOLVE,
    assert_legal_response,
    async_client,
    slow_request,
)

from api.main import create_app
from api.settings import Settings
from solver import advise_shanghai
from solver.shanghai import examples


def _metric(text: str, line_start: str) -> float:
    for line in text.splitlines():
        if line.startswith(line_start):
            return float(line.rsplit(" ", 1)[1])
    return 0.0


async def _until_pending(client: httpx.AsyncClient, count: int) -> None:
    while _metric((await client.get("/metrics")).text, "meldwise_solves_pending ") < count:
        await asyncio.sleep(0.01)


def test_the_event_loop_answers_while_solves_run() -> None:
    async def scenario() -> None:
        async with async_client(create_app(Settings(workers=1))) as client:
            solving = asyncio.create_task(client.post(SOLVE, json=slow_request(1500)))
            await _until_pending(client, 1)
            health = await client.get("/healthz")
            assert health.status_code == 200
            assert not solving.done(), "healthz had to wait for the solve"
            assert (await solving).status_code == 200

    asyncio.run(scenario())


def test_a_full_pool_answers_503_with_retry_after_at_once() -> None:
    settings = Settings(workers=1, queue=1, retry_after_s=3)

    async def scenario() -> None:
        async with async_client(create_app(settings)) as client:
            running = asyncio.create_task(client.post(SOLVE, json=slow_request(1500)))
            waiting = asyncio.create_task(client.post(SOLVE, json=slow_request(1500)))
            await _until_pending(client, 2)
            refused = await client.post(SOLVE, json={"rack": ["R1", "R2", "R3"]})
            assert refused.status_code == 503
            assert refused.headers["retry-after"] == "3"
            assert "busy" in refused.json()["detail"]
            # Shanghai advice shares the pool and its admission; scoring does not solve.
            advice = await client.post(SHANGHAI_ADVISE, json=examples.ADVISE_REQUEST)
            assert advice.status_code == 503
            assert advice.headers["retry-after"] == "3"
            scored = await client.post(SHANGHAI_SCORE, json=examples.SCORE_REQUEST)
            assert scored.status_code == 200
            assert not running.done(), "the 503 waited for a worker"
            assert (await running).status_code == 200
            assert (await waiting).status_code == 200  # the queued solve was served
            again = await client.post(SOLVE, json={"rack": ["R1", "R2", "R3"]})
            assert again.status_code == 200
            metrics = (await client.get("/metrics")).text
            assert _metric(metrics, 'meldwise_rejected_requests_total{reason="saturated"}') == 2

    asyncio.run(scenario())


@pytest.mark.parametrize(
    ("asked_ms", "cap_ms"),
    [(2000, 20), (20, 2000)],
    ids=["the-server-cap-bounds-a-request", "a-request-may-ask-less"],
)
def test_a_timed_out_solve_answers_its_best_play(asked_ms: int, cap_ms: int) -> None:
    # The position needs about a second to prove optimal: 20 ms cuts every solve short.
    request = slow_request(asked_ms)

    async def scenario() -> None:
        async with async_client(create_app(Settings(workers=1, time_cap_ms=cap_ms))) as client:
            answer = await client.post(SOLVE, json=request)
        assert answer.status_code == 200
        assert answer.json()["status"] in ("feasible", "unknown")
        assert_legal_response(request, answer.json())

    asyncio.run(scenario())


GOES_DOWN_IN_HAND_10 = {
    "hand": [
        "4S",
        "5S",
        "6S",
        "7S",
        "8S",
        "9H",
        "10H",
        "JH",
        "QH",
        "KH",
        "3D",
        "4D",
        "5D",
        "6D",
        "7D",
        "JK",
        "9C",
        "9D",
    ],
    "hand_number": 10,
    "phase": "play",
    "table": [{"cards": ["9S", "10S", "JS", "QS"]}, {"cards": ["8D", "8H", "JK"]}],
}


@pytest.mark.parametrize(
    ("asked_ms", "cap_ms"),
    [(2000, 1), (1, 2000)],
    ids=["the-server-cap-bounds-a-request", "a-request-may-ask-less"],
)
def test_shanghai_advice_cut_short_by_the_time_cap(asked_ms: int, cap_ms: int) -> None:
    # A hand-10 player who can go down: the whole-turn solve needs tens of ms (most
    # hands are settled by the deficiency search without CP-SAT); 1 ms cuts it short.
    request = {**GOES_DOWN_IN_HAND_10, "time_limit_ms": asked_ms}

    async def scenario() -> None:
        async with async_client(create_app(Settings(workers=1, time_cap_ms=cap_ms))) as client:
            answer = await client.post(SHANGHAI_ADVISE, json=request)
        assert answer.status_code == 200
        assert answer.json()["status"] in ("feasible", "unknown")

    asyncio.run(scenario())
    assert advise_shanghai(request | {"time_limit_ms": 2000})["status"] == "optimal"


def test_a_lost_worker_is_replaced() -> None:
    before = set(multiprocessing.active_children())

    async def scenario() -> None:
        async with async_client(create_app(Settings(workers=1))) as client:
            (worker,) = set(multiprocessing.active_children()) - before
            assert worker.pid is not None
            os.kill(worker.pid, signal.SIGKILL)
            worker.join()
            lost = await client.post(SOLVE, json={"rack": ["R1", "R2", "R3"]})
            assert lost.status_code == 503
            assert "retry-after" in lost.headers
            while (await client.get("/readyz")).status_code != 200:  # the pool is replaced
                await asyncio.sleep(0.05)
            recovered = await client.post(SOLVE, json={"rack": ["R1", "R2", "R3"]})
            assert recovered.status_code == 200

    asyncio.run(scenario())

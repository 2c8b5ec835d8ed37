"""The soak's request mix (benchmarks/soak.py): every kind is drawn, and its Rummikub
positions are real ones, so that its solves solve rather than being refused."""

from __future__ import annotations

import asyncio
import random
import ssl
from typing import Any

import pytest

from benchmarks.soak import MIX, _position, _send, growth, requests
from solver.rummikub import Position, Rules


def test_every_kind_of_request_is_drawn() -> None:
    drawn = requests(random.Random(1), [{"a": "record"}])
    assert {next(drawn)[3] for _ in range(3000)} == set(MIX)


def test_no_review_is_drawn_before_a_game_gave_a_record() -> None:
    drawn = requests(random.Random(1), [])
    assert "review" not in {next(drawn)[3] for _ in range(3000)}


def test_the_positions_drawn_are_legal() -> None:
    rng = random.Random(2)
    for _ in range(200):
        table, rack = _position(rng)
        position = Position.parse(rack, table)
        assert len(position.check(Rules())) == len(table)  # raises on a bad set or count


def test_growth_reads_each_server_at_the_start_middle_and_end() -> None:
    samples = [
        {"servers": {"1": {"server_kb": kb, "workers_kb": [kb, 1], "fds": 20}}}
        for kb in (100, 110, 120, 130, 140)
    ]
    assert growth(samples) == {
        "1": {"server_kb": [100, 120, 140], "workers_kb": [101, 121, 141], "fds": [20, 20, 20]}
    }


def test_the_soak_sets_up_tls_once_not_for_each_request(monkeypatch: pytest.MonkeyPatch) -> None:
    # Each request built httpx's default TLS context (the CA bundle read and parsed),
    # 0.1-0.44 s of the client's one event loop on the busy machine: a burst of 41 held
    # the loop 5-18 s, so a connection opened just before it sent its request only
    # after the server's 10 s header timeout had closed it (nginx's client_header_timeout,
    # logged at info, under deploy/nginx.conf's warn): read as "reset" (ReadError) or
    # "disconnected" (RemoteProtocolError), 6 of 4,294 requests of the nginx soak.
    made = []
    real = ssl.create_default_context

    def counted(*args: Any, **kwargs: Any) -> ssl.SSLContext:
        made.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(ssl, "create_default_context", counted)

    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readuntil(b"\r\n\r\n")
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}")
        await writer.drain()
        writer.close()

    async def five() -> list[int]:
        server = await asyncio.start_server(answer, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        async with server:
            answers = [
                await _send(f"http://127.0.0.1:{port}", f"127.0.0.{n}", "GET", "/", None, "en")
                for n in range(2, 7)
            ]
        return [answer.status_code for answer in answers]

    assert asyncio.run(five()) == [200] * 5
    assert len(made) <= 1

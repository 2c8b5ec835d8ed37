"""The load test's lean HTTP client and its answer checks, against a small server
on loopback that answers as the service does (kept alive, or closed after a refusal)."""

from __future__ import annotations

import asyncio
import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from benchmarks.lean_http import Answer, LeanClient
from benchmarks.load import Outcome, check_answer, main, mid_game_bodies, summarise

ANSWER = json.dumps({"status": "optimal", "tiles_played": 3}).encode()


async def _serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """Answers each POST: ``ok`` 200 kept alive, ``busy`` 503 with Retry-After and close,
    anything else a different 200 answer."""
    while True:
        head = await reader.readuntil(b"\r\n\r\n")
        length = int(head.lower().split(b"content-length: ")[1].split(b"\r\n")[0])
        body = await reader.readexactly(length)
        if body == b"busy":
            writer.write(
                b"HTTP/1.1 503 Service Unavailable\r\nRetry-After: 0\r\nConnection: close\r\n"
                b"Content-Length: 2\r\n\r\n{}"
            )
            await writer.drain()
            writer.close()
            return
        answer = ANSWER if body == b"ok" else b'{"status": "feasible", "time_capped": true}'
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % len(answer) + answer)
        await writer.drain()


def test_the_lean_client_keeps_alive_and_reconnects_after_a_close() -> None:
    async def run() -> tuple[list[Answer], int]:
        connections = 0

        async def counting(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            nonlocal connections
            connections += 1
            await _serve(reader, writer)

        server = await asyncio.start_server(counting, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        client = LeanClient("127.0.0.1", port, "127.0.0.2")
        host = f"127.0.0.1:{port}"
        answers = [
            await client.send(LeanClient.request(host, "/solve", body))
            for body in (b"ok", b"ok", b"busy", b"ok")
        ]
        client.close()
        server.close()
        return answers, connections

    async def bounded() -> tuple[list[Answer], int]:
        async with asyncio.timeout(10):
            return await run()

    answers, connections = asyncio.run(bounded())
    assert [(a.status, a.retry_after) for a in answers] == [
        (200, None),
        (200, None),
        (503, "0"),
        (200, None),
    ]
    assert answers[0].body == ANSWER
    assert connections == 2  # kept alive, then one new connection after the 503's close


def test_answers_are_checked_against_the_lone_ones() -> None:
    other = b'{"status": "feasible", "time_capped": true}'
    alone = {b"ok": ANSWER, b"other": ANSWER}
    assert check_answer(b"ok", ANSWER, alone) == ("optimal", True, False)
    assert check_answer(b"other", other, alone) == ("feasible", False, True)
    assert check_answer(b"new", other, alone) == ("feasible", None, True)


def test_a_run_with_nothing_solved_has_no_latency() -> None:
    # It printed 0 ms (a p99 of 0 for the solves when every request got a 503).
    refused = summarise("x", 4, 10.0, [Outcome(0, 900.0, "503", None)], 0.5)
    assert refused.solve_p99_ms is None
    assert refused.p99_ms == 900.0
    nothing = summarise("x", 4, 10.0, [], 0.5)
    assert (nothing.p50_ms, nothing.max_ms) == (None, None)


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--clients", "0"], "argument --clients: must be at least 1"),
        (["--workers", "0"], "argument --workers: must be at least 1"),
        (["--warm-up", "-1"], "argument --warm-up: must be at least 0"),
        (["--url", "http://example.com"], "--url must be a loopback address"),
        (["--source", "/nonexistent"], "--source /nonexistent: no such folder"),
        (["--selfplay", "--mid-game"], "--selfplay and --mid-game name two sets"),
        (["--server-log", __file__ + "/log"], "--server-log: cannot write"),
        # Taken without a word, and unused.
        (["--selfplay", "--rack", "3-5"], "--rack has no use with --selfplay"),
        (["--mid-game", "--positions", "9"], "--positions has no use with --mid-game"),
        (["--url", "http://127.0.0.1:1", "--workers", "2"], "--workers has no use with --url"),
    ],
)
def test_bad_flags_are_usage_errors_before_any_server_starts(
    argv: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # --clients 0 measured nothing for 20 s and printed it; --workers 0 waited 60 s for
    # a server that had refused to start; a remote --url exited 1; a missing --source
    # raised FileNotFoundError.
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    assert said in capsys.readouterr().err


def test_small_racks_are_dealt() -> None:
    # --rack 0-1 asked random_position for more jokers than rack tiles: ValueError.
    bodies = mid_game_bodies(2026, 20, (20, 40), (0, 1))
    assert all(len(json.loads(body)["rack"]) <= 1 for body in bodies)


def test_sigterm_stops_the_server_it_started() -> None:
    # The server runs in a session of its own: killed by SIGTERM (kill, timeout), the
    # load test left it running.
    argv = ["--clients", "1", "--duration", "60", "--warm-up", "0", "--positions", "1"]
    load = subprocess.Popen(
        [sys.executable, "-m", "benchmarks.load", *argv, "--default-only"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        server = _child(load.pid, b"meldwise\x00serve", within=60)
        time.sleep(1)  # into serve()'s wait for it to be ready, where it is stopped
        load.send_signal(signal.SIGTERM)
        assert load.wait(timeout=60) == 128 + signal.SIGTERM
        assert not Path(f"/proc/{server}").exists() or _zombie(server)
    finally:
        if load.poll() is None:
            load.kill()


def _child(parent: int, command: bytes, within: float) -> int:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                cmdline = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if int(stat[1]) == parent and command in cmdline:
                return int(entry.name)
        time.sleep(0.2)
    raise AssertionError(f"no {command!r} under {parent} within {within} s")


def _zombie(pid: int) -> bool:
    try:
        return (Path(f"/proc/{pid}") / "stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True

"""``meldwise serve`` as a real process: it starts, answers, keeps bodies out of its
logs, stops on SIGTERM, and refuses bad settings with a message naming them."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import httpx

from benchmarks.load import serve
from solver.shanghai import examples

MARKER = "SECRET-RACK-MARKER"


def test_serve_answers_and_logs_no_bodies(tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    with serve(workers=1, log_path=str(log)) as (url, _):
        solved = httpx.post(f"{url}/v1/rummikub/solve", json={"rack": ["R1", "R2", "R3"]})
        assert solved.status_code == 200
        assert solved.json()["tiles_played"] == 3
        bad = httpx.post(f"{url}/v1/rummikub/solve", json={"rack": [MARKER]})
        assert bad.status_code == 422
        advice = httpx.post(f"{url}/v1/shanghai/advise", json=examples.ADVISE_REQUEST)
        assert advice.json() == examples.ADVISE_RESPONSE
        bad = httpx.post(f"{url}/v1/shanghai/advise", json={"hand": [MARKER], "hand_number": 1})
        assert bad.status_code == 422
        docs = httpx.get(f"{url}/docs")
        assert docs.status_code == 200
    text = log.read_text()
    assert '"POST /v1/rummikub/solve HTTP/1.1" 422' in text  # the access log is on
    assert MARKER not in text
    assert "Traceback" not in text


def test_bad_settings_stop_the_server_with_their_name() -> None:
    env = {**os.environ, "MELDWISE_QUEUE": "-1"}
    done = subprocess.run(
        [sys.executable, "-m", "meldwise", "serve", "--workers", "0"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert "MELDWISE_QUEUE" in done.stderr
    assert "--workers" in done.stderr
    assert "Traceback" not in done.stderr

"""The service in a child process: ``meldwise serve`` on a free loopback port, for
the load and abuse suites, the browser tests and the screenshots alike."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator


def free_port() -> int:
    """A TCP port nothing listens on now, on the loopback address."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def wait_ready(url: str, timeout: float) -> None:
    """Poll ``/readyz`` until it answers 200 or ``timeout`` seconds pass."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with (
            contextlib.suppress(OSError),
            urllib.request.urlopen(f"{url}/readyz", timeout=1.0) as answer,
        ):
            if answer.status == 200:
                return
        time.sleep(0.2)
    raise SystemExit(f"the service at {url} was not ready after {timeout:.0f} s")


@contextlib.contextmanager
def serve(
    workers: int | None,
    log_path: str,
    env: dict[str, str] | None = None,
    source: str | None = None,
) -> Iterator[tuple[str, int]]:
    """Run ``meldwise serve`` on a free loopback port for the duration of the block
    (with ``env`` added to the environment, and from the source tree ``source``
    instead of the installed one when given); yield its URL and process id."""
    port = free_port()
    command = [sys.executable, "-m", "meldwise", "serve", "--port", str(port)]
    if workers is not None:
        command += ["--workers", str(workers)]
    environment = {**os.environ, **(env or {})}
    if source is not None:
        # `python -m` puts the working folder first on the path: run from the source.
        environment["PYTHONPATH"] = source = os.path.abspath(source)
    with open(log_path, "w", encoding="utf-8") as log:
        # A process group of its own: a signal sent to it (as a terminal's Ctrl-C or
        # systemd would) reaches the server and not this program.
        server = subprocess.Popen(
            command,
            stdout=log,
            stderr=subprocess.STDOUT,
            env=environment,
            cwd=source,
            start_new_session=True,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_ready(url, timeout=60)
        yield url, server.pid
    finally:
        stop_server(server)


def stop_server(server: subprocess.Popen[bytes]) -> None:
    """SIGTERM (a graceful shutdown), then SIGKILL after 30 s."""
    if server.poll() is None:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()

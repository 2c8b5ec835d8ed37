"""``meldwise serve``: run the HTTP service (see :mod:`api.server`)."""

from __future__ import annotations

import argparse
import os
import socket
from typing import TextIO

from solver.commands import Commands

EXIT_BAD_SETTINGS = 2


def add_serve_command(commands: Commands) -> None:
    """Register ``serve`` on a subcommand parser."""
    parser = commands.add_parser(
        "serve",
        help="run the HTTP hint service",
        description=(
            "Serve the solver over HTTP (OpenAPI docs at /docs). Flags override the "
            "MELDWISE_* environment variables; see docs/http.md for every setting (timeouts, "
            "rate limits, API keys, logs). SIGINT or SIGTERM shuts down gracefully."
        ),
    )
    parser.add_argument("--host", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, help="TCP port (default 8000)")
    parser.add_argument(
        "--workers", type=int, help="solver processes, the most solves at once (default: cores)"
    )
    parser.set_defaults(handler=run_serve)


def run_serve(args: argparse.Namespace, _stdin: TextIO, _stdout: TextIO, stderr: TextIO) -> int:
    """Start the service and run until interrupted; return the exit code."""
    # Imported here so other subcommands start without loading the web stack.
    from pydantic import ValidationError

    from api.server import run
    from api.settings import ENV_PREFIX, Settings

    known = {ENV_PREFIX + name.upper() for name in Settings.model_fields}
    unknown = sorted({name for name in os.environ if name.startswith(ENV_PREFIX)} - known)
    if unknown:  # pydantic-settings ignores them: a misspelt setting would go unseen
        print(f"warning: not settings, ignored: {', '.join(unknown)}", file=stderr)
    flags = {name: getattr(args, name) for name in ("host", "port", "workers")}
    try:
        settings = Settings(**{name: value for name, value in flags.items() if value is not None})
    except ValidationError as error:
        for problem in error.errors():
            name = ".".join(str(part) for part in problem["loc"])
            where = f"{ENV_PREFIX}{name.upper()}" + (f" / --{name}" if name in flags else "")
            # A validator's own message, without the "Value error, " pydantic puts first.
            cause = problem.get("ctx", {}).get("error")
            said = str(cause) if problem["type"] == "value_error" and cause else problem["msg"]
            print(f"error: bad setting {name} ({where}): {said}", file=stderr)
        return EXIT_BAD_SETTINGS
    try:
        # Checked before the workers start: uvicorn would say it after warming them up.
        with socket.create_server((settings.host, settings.port)):
            pass
    except OSError as error:
        where = f"{settings.host}:{settings.port}"
        print(
            f"error: cannot listen on {where} ({ENV_PREFIX}HOST / --host, {ENV_PREFIX}PORT /"
            f" --port): {error.strerror or error}",
            file=stderr,
        )
        return EXIT_BAD_SETTINGS
    return run(settings)

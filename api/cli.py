"""``meldwise serve``: run the HTTP service (see :mod:`api.server`)."""

from __future__ import annotations

import argparse
import errno
import os
import socket
from collections.abc import Mapping
from typing import Any, TextIO

from solver.commands import Commands, os_problem, whole_number
from solver.i18n import N_, _, listed
from solver.wire import pydantic_problem

EXIT_BAD_SETTINGS = 2

_CANNOT_LISTEN = {
    errno.EADDRINUSE: N_("the address is already in use"),
    errno.EADDRNOTAVAIL: N_("the address is not one of this machine's"),
    socket.EAI_NONAME: N_("no address has that name"),
}
"""Why an address cannot be listened on, in the active language (the system's own
words, English, for other reasons than these and :func:`~solver.commands.os_problem`'s)."""


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
    parser.add_argument("--port", type=whole_number, help="TCP port (default 8000)")
    parser.add_argument(
        "--workers",
        type=whole_number,
        help="solver processes, the most solves at once (default: cores)",
    )
    parser.set_defaults(handler=run_serve)


def run_serve(args: argparse.Namespace, _stdin: TextIO, _stdout: TextIO, stderr: TextIO) -> int:
    """Start the service and run until interrupted; return the exit code. Its errors
    and warning are said in the command line's language (the locale's), as every
    other command's."""
    # Imported here so other subcommands start without loading the web stack.
    from pydantic import ValidationError

    from api.server import run
    from api.settings import ENV_PREFIX, Settings

    known = {ENV_PREFIX + name.upper() for name in Settings.model_fields}
    unknown = sorted({name for name in os.environ if name.startswith(ENV_PREFIX)} - known)
    if unknown:  # pydantic-settings ignores them: a misspelt setting would go unseen
        print(
            _("warning: not settings, ignored: {variables}", variables=listed(unknown)),
            file=stderr,
        )
    flags = {name: getattr(args, name) for name in ("host", "port", "workers")}
    try:
        settings = Settings(**{name: value for name, value in flags.items() if value is not None})
    except ValidationError as error:
        for problem in error.errors():
            name = ".".join(str(part) for part in problem["loc"])
            where = f"{ENV_PREFIX}{name.upper()}" + (f" / --{name}" if name in flags else "")
            said = _(
                "error: bad setting {name} ({where}): {problem}",
                name=name,
                where=where,
                problem=_setting_problem(problem),
            )
            print(said, file=stderr)
        return EXIT_BAD_SETTINGS
    try:
        # Checked before the workers start: uvicorn would say it after warming them up.
        with socket.create_server((settings.host, settings.port)):
            pass
    except OSError as error:
        reason = _CANNOT_LISTEN.get(error.errno) if error.errno is not None else None
        print(
            _(
                "error: cannot listen on {address} ({where}): {problem}",
                address=f"{settings.host}:{settings.port}",
                where=f"{ENV_PREFIX}HOST / --host, {ENV_PREFIX}PORT / --port",
                problem=_(reason) if reason is not None else os_problem(error),
            ),
            file=stderr,
        )
        return EXIT_BAD_SETTINGS
    return run(settings)


def _setting_problem(problem: Mapping[str, Any]) -> str:
    """What is wrong with a setting's value (one of pydantic's ``errors()``), in the
    active language: a validator's own message (without the "Value error, " pydantic
    puts first), or the library's words for pydantic's kind of problem, as a request's
    field has them (:func:`solver.wire.pydantic_problem`; pydantic's own, English,
    for a kind they do not word)."""
    kind, ctx = problem["type"], problem.get("ctx", {})
    if kind == "value_error" and ctx.get("error"):
        return str(ctx["error"])
    said = pydantic_problem(kind, _as_read(kind, problem["input"]), ctx)
    return said if said is not None else str(problem["msg"])


_BOUNDS = frozenset({"greater_than_equal", "greater_than", "less_than_equal", "less_than"})
"""pydantic's error kinds of a number read but out of range."""


def _as_read(kind: str, given: Any) -> Any:
    """A setting's value as read: the number an environment variable's text was read
    as when out of range (``MELDWISE_WORKERS=0`` said "got '0'" where ``--workers 0``
    said "got 0"), else the value given."""
    if kind in _BOUNDS and isinstance(given, str):
        for number in (int, float):
            try:
                return number(given)
            except ValueError:
                continue
    return given

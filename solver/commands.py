"""What every command of the library shares: answering wire requests from flags or
from JSON on stdin, the flags for rules, time limits and JSON modes, and exit codes.

A game's command module (``solver.<game>.cli``) registers its subcommands with an
``add_*_command`` function and runs each with :func:`run_requests`; the parser
itself is assembled by :mod:`solver.cli` (and :mod:`meldwise.cli`).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from enum import Enum
from typing import Any, TextIO, TypeAlias

from solver.errors import MeldwiseError
from solver.i18n import LANGUAGES, _, from_environment, language
from solver.wire import MAX_TIME_LIMIT_MS

EXIT_BAD_INPUT = 2
"""The exit code of a command given bad input (the HTTP service's 422)."""

Handler = Callable[[Mapping[str, Any]], dict[str, Any]]
"""A wire function of the library: request dict in, response dict out."""

Commands: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"  # noqa: SLF001
"""The subcommand parser that ``add_*_command`` functions register on."""


def add_json_modes(parser: argparse.ArgumentParser) -> None:
    """``--json`` (one request on stdin, one response) and ``--jsonl`` (one per line)."""
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument(
        "--json", action="store_true", help="read one request from stdin, write one response"
    )
    mode.add_argument(
        "--jsonl", action="store_true", help="one request per stdin line, one response per line"
    )


def add_language_option(parser: argparse.ArgumentParser) -> None:
    """``--lang``: the language of the answer and of error messages."""
    parser.add_argument(
        "--lang",
        choices=LANGUAGES,
        default=None,
        help="language of the answer: en or ja (default: from LANGUAGE, LC_ALL,"
        " LC_MESSAGES or LANG, e.g. LANG=ja_JP.UTF-8; else en)",
    )


def add_rule_flag(parser: argparse.ArgumentParser, example: str) -> None:
    """``--rule NAME=VALUE``, repeatable (see :func:`rules_from_flags`)."""
    parser.add_argument(
        "--rule",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help=f"a rule setting, e.g. {example} (repeatable)",
    )


def add_choice_flag(
    parser: argparse.ArgumentParser, flag: str, default: Enum, meaning: str
) -> None:
    """``flag`` taking one value of ``default``'s enum (its value names the choice)."""
    parser.add_argument(
        flag,
        choices=[member.value for member in type(default)],
        default=default.value,
        help=f"{meaning} (default {default.value})",
    )


def add_time_limit_flag(parser: argparse.ArgumentParser, meaning: str) -> None:
    """``--time-limit SECONDS`` (see :func:`time_limit_ms`)."""
    parser.add_argument(
        "--time-limit", type=float, default=2.0, metavar="SECONDS", help=f"{meaning} (2)"
    )


def run_requests(
    args: argparse.Namespace,
    handler: Handler,
    from_flags: Callable[[argparse.Namespace], dict[str, Any]],
    describe: Callable[[dict[str, Any]], str],
    stdin: TextIO,
    stdout: TextIO,
    stderr: TextIO,
) -> int:
    """Answer wire requests with ``handler`` (a dict-in, dict-out library function) and
    return the exit code; every command with ``--json`` / ``--jsonl`` runs this way.

    ``--jsonl``: one request per stdin line, one JSON response per line, in order; a
    bad line answers ``{"error": ...}`` and the batch goes on (exit 0). ``--json``:
    one request on stdin, one JSON response. Otherwise the request is built from the
    flags by ``from_flags`` and the response written for a person by ``describe``.
    Bad input (not ``--jsonl``) prints ``error: ...`` on stderr and exits 2.
    A request's own ``lang`` overrides the command's (see :func:`dispatch`).
    """
    if args.jsonl:
        for line in stdin:
            if not line.strip():
                continue
            try:
                answer = handler(load_request(line))
            except MeldwiseError as error:
                answer = {"error": str(error)}
            print(json.dumps(answer), file=stdout, flush=True)
        return 0
    try:
        if args.json:
            print(json.dumps(handler(load_request(stdin.read()))), file=stdout)
            return 0
        response = handler(from_flags(args))
    except MeldwiseError as error:
        print(_("error: {message}", message=error), file=stderr)
        return EXIT_BAD_INPUT
    stdout.write(describe(response))
    return 0


def load_request(text: str) -> Any:
    """One request decoded from JSON, or a :class:`MeldwiseError` saying why not."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise MeldwiseError(_("the request is not valid JSON: {error}", error=error)) from None


def words(text: str) -> list[str]:
    """Tiles or cards written with spaces or commas between them."""
    return text.replace(",", " ").split()


def rules_from_flags(items: Sequence[str]) -> dict[str, int | bool | str]:
    """``--rule NAME=VALUE`` flags as rule settings: a whole number, true or false, or a
    word (``joker_retrieval=replace``); the rules check the value."""
    rules: dict[str, int | bool | str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        word = value.strip()
        if not sep or not word:
            raise MeldwiseError(_("--rule takes NAME=NUMBER or NAME=WORD, got {item!r}", item=item))
        if word.lstrip("-").isdigit():
            rules[name.strip()] = int(word)
        else:
            rules[name.strip()] = word == "true" if word in ("true", "false") else word
    return rules


def time_limit_ms(seconds: float) -> int:
    """``--time-limit`` in the milliseconds of a request."""
    limit_ms = round(seconds * 1000)
    if not 1 <= limit_ms <= MAX_TIME_LIMIT_MS:
        raise MeldwiseError(
            _(
                "--time-limit must be between 0.001 and {highest}",
                highest=MAX_TIME_LIMIT_MS // 1000,
            )
        )
    return limit_ms


def status_text(status: str) -> str:
    """A response's ``status`` for a person."""
    names = {
        "optimal": _("optimal"),
        "feasible": _("feasible (time ran out; the best found)"),
        "unknown": _("unknown (time ran out before anything was found)"),
    }
    return names.get(status, status)


def columns(text: str) -> int:
    """Terminal columns ``text`` takes: a wide character (the kana of グループ) two."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def pad(text: str, width: int) -> str:
    """``text`` left-aligned in ``width`` terminal columns."""
    return text + " " * max(0, width - columns(text))


def dispatch(parser: argparse.ArgumentParser, argv: Sequence[str] | None) -> int:
    """Parse ``argv`` and run the chosen subcommand on the process's streams, speaking
    its ``--lang`` (a command without one, or none given: the locale's language)."""
    args = parser.parse_args(argv)
    with language(getattr(args, "lang", None) or from_environment(os.environ)):
        code: int = args.handler(args, sys.stdin, sys.stdout, sys.stderr)
    return code

"""Command line of the solver library: ``python -m solver solve ...``.

The ``meldwise`` command (package :mod:`meldwise`) offers the same subcommands
plus the ones that need the web service or the benchmarks.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TextIO

from solver.errors import MeldwiseError
from solver.i18n import LANGUAGES, _, _n, from_environment, language
from solver.rummikub.hints import HintLevel
from solver.rummikub.play import Objective
from solver.rummikub.tiles import Notation
from solver.rummikub.wire import MAX_TIME_LIMIT_MS, solve_rummikub

EXIT_BAD_INPUT = 2
Handler = Callable[[Mapping[str, Any]], dict[str, Any]]
"""A wire function of the library: request dict in, response dict out."""


def add_solve_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``solve`` on a subcommand parser."""
    parser = commands.add_parser(
        "solve",
        help="best Rummikub play for a rack and table",
        description=(
            "Find the best Rummikub play. Give the position with --rack/--table, "
            "or send wire requests on stdin with --json or --jsonl."
        ),
    )
    parser.add_argument("--rack", help='tiles on the rack, e.g. "R1 R2 J"')
    parser.add_argument("--table", default="", help='sets on the table, e.g. "R3 R4 R5 | K7 B7 O7"')
    parser.add_argument(
        "--opening", action="store_true", help="the player has not opened yet (30-point rule)"
    )
    parser.add_argument(
        "--objective",
        choices=[o.value for o in Objective],
        default=Objective.TILES.value,
        help="play the most tiles (default) or shed the most points",
    )
    parser.add_argument(
        "--hint",
        choices=[level.value for level in HintLevel],
        default=HintLevel.FULL.value,
        help="how much to reveal: nudge, tile, or the full play with steps (default)",
    )
    parser.add_argument(
        "--free-jokers", action="store_true", help="also count the table jokers no set needs"
    )
    add_common_flags(parser, "jokers=4")
    parser.set_defaults(handler=run_solve)


def add_common_flags(parser: argparse.ArgumentParser, rule_example: str) -> None:
    """The flags every Rummikub command shares: --time-limit, --rule, --notation,
    --lang and the wire modes --json / --jsonl (see :func:`run_requests`)."""
    parser.add_argument(
        "--time-limit", type=float, default=2.0, metavar="SECONDS", help="solver time limit (2)"
    )
    parser.add_argument(
        "--rule",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help=f"a rule setting, e.g. --rule {rule_example} (repeatable)",
    )
    parser.add_argument(
        "--notation",
        choices=[n.value for n in Notation],
        default=Notation.RBKO.value,
        help="write the fourth colour O (RBKO, default) or Y (RBYK, as in Japan)",
    )
    add_language_option(parser)
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


def run_solve(args: argparse.Namespace, stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    """Carry out ``solve``; return the exit code."""
    return run_requests(
        args, solve_rummikub, _request_from_flags, describe_response, stdin, stdout, stderr
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
                answer = handler(_load_request(line))
            except MeldwiseError as error:
                answer = {"error": str(error)}
            print(json.dumps(answer), file=stdout, flush=True)
        return 0
    try:
        if args.json:
            print(json.dumps(handler(_load_request(stdin.read()))), file=stdout)
            return 0
        response = handler(from_flags(args))
    except MeldwiseError as error:
        print(_("error: {message}", message=error), file=stderr)
        return EXIT_BAD_INPUT
    stdout.write(describe(response))
    return 0


def _load_request(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise MeldwiseError(_("the request is not valid JSON: {error}", error=error)) from None


def _request_from_flags(args: argparse.Namespace) -> dict[str, Any]:
    if args.rack is None:
        raise MeldwiseError(_("give the rack with --rack, or a request with --json"))
    return {
        "rack": args.rack.replace(",", " ").split(),
        "table": parse_sets(args.table),
        "opened": not args.opening,
        "objective": args.objective,
        "rules": rules_from_flags(args.rule),
        "time_limit_ms": request_limits(args.time_limit),
        "hint_level": args.hint,
        "notation": args.notation,
        "free_jokers": args.free_jokers,
    }


def parse_sets(text: str) -> list[list[str]]:
    """Sets written ``"R3 R4 R5 | K7 B7 O7"`` (commas or spaces) as lists of tile strings."""
    return [part.replace(",", " ").split() for part in text.split("|") if part.strip()]


def request_limits(seconds: float) -> int:
    """``--time-limit`` seconds as the wire's milliseconds, checked."""
    limit_ms = round(seconds * 1000)
    if not 1 <= limit_ms <= MAX_TIME_LIMIT_MS:
        raise MeldwiseError(
            _(
                "--time-limit must be between 0.001 and {highest}",
                highest=MAX_TIME_LIMIT_MS // 1000,
            )
        )
    return limit_ms


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


def describe_response(response: dict[str, Any]) -> str:
    """A response written for a person: the play, the steps, the table after."""
    if response["hint_level"] != HintLevel.FULL.value:
        if not response["can_play"]:
            return _("No play: draw a tile.") + "\n"
        lines = [_n("You can play {n} tile.", "You can play {n} tiles.", response["tiles_played"])]
        if response["hint_level"] == HintLevel.TILE.value:
            lines.append(response["text"])
        return "\n".join(lines) + "\n"
    played = " ".join(response["played"])
    if not played:
        lines = [_("No play: draw a tile.")]
    else:
        lines = [
            _n(
                "Play {n} tile, {points} points: {tiles}",
                "Play {n} tiles, {points} points: {tiles}",
                response["tiles_played"],
                points=response["points_played"],
                tiles=played,
            ),
            _("Rack left: {tiles}", tiles=" ".join(response["rack_left"]) or _("(empty)")),
            _(
                "Table sets kept whole: {kept}, table tiles moved: {moved}",
                kept=response["sets_kept"],
                moved=response["tiles_moved"],
            ),
            _("Steps:"),
        ]
        lines += [f"  {i}. {step['text']}" for i, step in enumerate(response["steps"], 1)]
    if "free_jokers" in response:
        spare = response["free_jokers"]
        lines.append(
            _("Table jokers no set needs: {count}", count=spare)
            if spare is not None
            else _("Table jokers no set needs: not proven in time")
        )
    lines.append(_("Solver: {status}", status=status_text(response["status"])))
    lines += describe_table(response["table"], _("Table after:"), _("Table after: (empty)"))
    return "\n".join(lines) + "\n"


def describe_table(table: list[dict[str, Any]], title: str, empty: str) -> list[str]:
    """Lines listing the sets of a wire table under ``title`` (``empty`` when it has
    none), jokers with what they stand for."""
    lines = [title if table else empty]
    kinds = {"run": _("run"), "group": _("group")}
    width = len(str(len(table)))
    for i, meld in enumerate(table):
        tiles = [
            f"J({meant})" if tile == "J" else tile
            for tile, meant in zip(meld["tiles"], meld["as"], strict=True)
        ]
        kind = pad(kinds[meld["kind"]], max(map(columns, kinds.values())))
        lines.append(f"  {i:>{width}}. {kind}  {' '.join(tiles)}")
    return lines


def columns(text: str) -> int:
    """Terminal columns ``text`` takes: a wide character (the kana of グループ) two."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def pad(text: str, width: int) -> str:
    """``text`` left-aligned in ``width`` terminal columns."""
    return text + " " * max(0, width - columns(text))


def status_text(status: str) -> str:
    """A response's ``status`` for a person."""
    names = {
        "optimal": _("optimal"),
        "feasible": _("feasible (time ran out; the best found)"),
        "unknown": _("unknown (time ran out before anything was found)"),
    }
    return names.get(status, status)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m solver", description="Meldwise solvers")
    # Imported here: those commands use run_requests and the helpers of this module.
    from solver.arena.cli import add_tournament_command
    from solver.rummikub.cli import add_bot_command, add_game_command, add_review_command
    from solver.rummikub.repair_cli import add_repair_command
    from solver.shanghai.cli import add_shanghai_command

    commands = parser.add_subparsers(dest="command", required=True)
    add_solve_command(commands)
    add_repair_command(commands)
    add_shanghai_command(commands)
    for add_command in (add_bot_command, add_game_command, add_review_command):
        add_command(commands)
    add_tournament_command(commands)
    return parser


def dispatch(parser: argparse.ArgumentParser, argv: Sequence[str] | None) -> int:
    """Parse ``argv`` and run the chosen subcommand on the process's streams, speaking
    its ``--lang`` (a command without one, or none given: the locale's language)."""
    args = parser.parse_args(argv)
    with language(getattr(args, "lang", None) or from_environment(os.environ)):
        code: int = args.handler(args, sys.stdin, sys.stdout, sys.stderr)
    return code


def main(argv: Sequence[str] | None = None) -> int:
    return dispatch(build_parser(), argv)

"""The Rummikub commands: ``solve`` (the best play), and whole games: ``bot`` (a bot's
move), ``game`` (a bot game as a record) and ``review`` (a game record reviewed turn by
turn); ``meldwise solve ...`` or ``python -m solver solve ...``.

For ``solve`` and ``bot``, give the position with ``--rack``/``--table`` for an answer
written for a person, or send wire requests on stdin with ``--json`` (one request, one
response) or ``--jsonl`` (one per line; a bad line answers ``{"error": ...}`` and the
batch goes on). Bad input exits with code 2.
"""

from __future__ import annotations

import argparse
import json
from functools import partial
from typing import Any, TextIO

from solver.commands import (
    Commands,
    FileName,
    add_choice_flag,
    add_language_option,
    add_option_flag,
    add_request_flags,
    add_rule_flag,
    add_time_limit_flag,
    answering,
    bot_names,
    capped_note,
    columns,
    fields_from_flags,
    json_line,
    json_output,
    no_turns,
    nothing_to_review,
    pad,
    parse_options,
    read_json_file,
    ready_to_write,
    rules_from_flags,
    seat_text,
    sizes_from_flag,
    status_text,
    time_limit_ms,
    whole_number,
    write_file,
)
from solver.cpsat import DEFAULT_DISRUPTION_TIME_LIMIT, Status
from solver.errors import MeldwiseError
from solver.i18n import _, _n, _p, clauses, listed, percent_text
from solver.rummikub import notation
from solver.rummikub.bots import BOTS
from solver.rummikub.engine import End
from solver.rummikub.game_wire import (
    MAX_REVIEW_TIME_LIMIT_MS,
    bot_rummikub,
    game_rummikub,
    review_rummikub,
)
from solver.rummikub.hints import HintLevel
from solver.rummikub.notation import Notation
from solver.rummikub.position import Objective
from solver.rummikub.wire import MAX_OPPONENTS, no_play_text, solve_rummikub
from solver.shanghai.cli import shanghai_game
from solver.written import words

POSITION_FLAGS = {
    "rack": "--rack",
    "table": "--table",
    "opened": "--opening",
    "rules": "--rule",
    "notation": "--notation",
}
"""The flags of a position's fields (:func:`position_from_flags`), for
:func:`~solver.commands.fields_from_flags`."""


def add_solve_command(commands: Commands) -> None:
    """Register ``solve`` on a subcommand parser."""
    parser = commands.add_parser(
        "solve",
        help="best Rummikub play for a rack and table",
        description=(
            "Find the best Rummikub play. Give the position with --rack/--table, "
            "or send wire requests on stdin with --json or --jsonl."
        ),
    )
    add_position_flags(parser)
    add_choice_flag(
        parser, "--objective", Objective.TILES, "play the most tiles or shed the most points"
    )
    add_choice_flag(
        parser, "--hint", HintLevel.FULL, "how much to reveal: nudge, tile, or the play and steps"
    )
    parser.add_argument(
        "--free-jokers", action="store_true", help="also count the table jokers no set needs"
    )
    parser.add_argument(
        "--opponents",
        metavar="SIZES",
        help="the other players' rack sizes in playing order, e.g. 9,14 ('o' after one that "
        "has opened: 9o,14): adds what the strong bot would play instead, and why",
    )
    add_common_flags(parser)
    add_time_limit_flag(
        parser,
        "most seconds (within --time-limit) to find the play that disturbs the table least:"
        " 0.001 to 300, or 0 to skip it",
        flag="--disruption-time-limit",
        default=DEFAULT_DISRUPTION_TIME_LIMIT,
        highest_ms=None,
    )
    parser.set_defaults(handler=_solve)
    fields_from_flags(
        parser,
        {
            **POSITION_FLAGS,
            "objective": "--objective",
            "time_limit_ms": "--time-limit",
            "disruption_time_limit_ms": "--disruption-time-limit",
            "hint_level": "--hint",
            "free_jokers": "--free-jokers",
            "opponents": "--opponents",
        },
    )


def _solve(args: argparse.Namespace, stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    """``solve``: a nudge's answer carries no rack, the flags do, and an empty rack is
    not told to draw (a nudge said "No play: draw a tile." to a player who is out)."""
    rack_empty = args.rack is not None and not words(args.rack)
    describe = partial(describe_response, rack_empty=rack_empty)
    return answering(solve_rummikub, request_from_flags, describe)(args, stdin, stdout, stderr)


def add_common_flags(parser: argparse.ArgumentParser) -> None:
    """The flags every Rummikub command that solves shares: --notation, --time-limit,
    --lang and the wire modes --json / --jsonl."""
    add_notation_flag(parser)
    add_request_flags(parser, time_limit="solver time limit")


def add_notation_flag(parser: argparse.ArgumentParser) -> None:
    """``--notation``: the request's ``notation``, how the answer writes tiles."""
    parser.add_argument(
        "--notation",
        choices=[n.value for n in Notation],
        default=Notation.RBKO.value,
        help="write the fourth colour O (RBKO, default) or Y (RBYK, as in Japan)",
    )


def parse_sets(text: str, flag: str = "--table", *, empty_sets: bool = False) -> list[list[str]]:
    """Sets written ``"R3 R4 R5 | K7 B7 O7"`` as :func:`~solver.rummikub.notation.parse_sets`
    reads them (:meth:`Position.parse <solver.rummikub.position.Position.parse>` too,
    and with ``empty_sets`` a set of no tiles), as ``flag`` gave them: an error is said
    after the flag (``--table: table set 1 of 'R1 R2 R3 || K1 K2 K3' has no tiles; ...``)."""
    try:
        return notation.parse_sets(text, empty_sets=empty_sets)
    except MeldwiseError as error:
        raise MeldwiseError(_("{where}: {problem}", where=flag, problem=error)) from None


def add_position_flags(parser: argparse.ArgumentParser) -> None:
    """``--rack``, ``--table``, ``--opening`` and ``--rule``: a position and its rules."""
    parser.add_argument("--rack", help='tiles on the rack, e.g. "R1 R2 J"')
    parser.add_argument("--table", default="", help='sets on the table, e.g. "R3 R4 R5 | K7 B7 O7"')
    parser.add_argument(
        "--opening",
        action="store_true",
        help="the player has not opened yet: the first play must reach the rule"
        " opening_threshold (30 points unless --rule sets it)",
    )
    add_rule_flag(parser, "--rule jokers=4")


def position_from_flags(args: argparse.Namespace) -> dict[str, Any]:
    """The position and rules fields of a request, from :func:`add_position_flags`."""
    if args.rack is None:
        raise MeldwiseError(_("give the rack with --rack, or a request with --json"))
    return {
        "rack": words(args.rack),
        "table": parse_sets(args.table),
        "opened": not args.opening,
        "rules": rules_from_flags(args.rule),
    }


def request_from_flags(args: argparse.Namespace) -> dict[str, Any]:
    """The solve request that the flags of ``solve`` describe."""
    request = {
        **position_from_flags(args),
        "objective": args.objective,
        "time_limit_ms": time_limit_ms(args.time_limit),
        # 0 skips the least-disruption stage, as the request's field takes it.
        "disruption_time_limit_ms": time_limit_ms(
            args.disruption_time_limit, flag="--disruption-time-limit", zero_skips=True
        ),
        "hint_level": args.hint,
        "notation": args.notation,
        "free_jokers": args.free_jokers,
    }
    if args.opponents is not None:
        request["opponents"] = opponents_from_flag(args.opponents)
    return request


def points_text(points: int) -> str:
    """``points`` in words: "1 point", "17 points"."""
    return _n("{n} point", "{n} points", points)


def describe_response(response: dict[str, Any], rack_empty: bool = False) -> str:
    """A response written for a person: the play, the steps, the table after;
    ``rack_empty`` says of a nudge, which carries no rack, that the rack was empty."""
    # The advice of a play-less turn draws unless the pool is empty (or the rack, said
    # first): a nudge and a full answer carry no pool.
    advice = response.get("advice")
    pool_empty = advice is not None and not advice["draws"] and not advice["holds_back"]
    if response["hint_level"] != HintLevel.FULL.value:
        if not response["can_play"]:
            # A tile hint's text says why (an empty rack, say); a nudge has no rack.
            status = Status(response["status"])
            lines = [response.get("text") or no_play_text(status, rack_empty, pool_empty)]
        else:
            lines = [
                _n("You can play {n} tile.", "You can play {n} tiles.", response["tiles_played"])
            ]
            if response["hint_level"] == HintLevel.TILE.value:
                lines.append(response["text"])
        # Asked for with --free-jokers: the count was answered and went unsaid.
        return "\n".join(lines + _asked_for_lines(response) + _capped_lines(response)) + "\n"
    played = " ".join(response["played"])
    if not played:
        status = Status(response["status"])
        lines = [no_play_text(status, not response["rack_left"], pool_empty)]
    else:
        lines = [
            _n(
                "Play {n} tile, {points}: {tiles}",
                "Play {n} tiles, {points}: {tiles}",
                response["tiles_played"],
                points=points_text(response["points_played"]),
                tiles=played,
            ),
            _("Rack left: {tiles}", tiles=" ".join(response["rack_left"]) or _("(empty)")),
            _(
                "Table sets kept whole: {kept}, table tiles moved: {moved}",
                kept=response["sets_kept"],
                moved=response["tiles_moved"],
            ),
            *_unproven_calm(response),
            _("Steps:"),
        ]
        lines += [f"  {i}. {step['text']}" for i, step in enumerate(response["steps"], 1)]
    lines += _asked_for_lines(response)
    lines.append(_("Solver: {status}", status=status_text(response["status"])))
    if not played or response["disruption_proven"]:
        lines += _capped_lines(response)  # else the table moves' line said the time limit
    lines += describe_table(response["table"], _("Table after:"), _("Table after: (empty)"))
    return "\n".join(lines) + "\n"


def _capped_lines(response: dict[str, Any]) -> list[str]:
    """That a time limit, not the fixed work bound, cut a search, when one did: the
    answer ``time_capped`` said so and the words did not (a tile hint's tile, a nudge's
    count, a free jokers' count may then differ on an idle machine)."""
    return [capped_note()] if response["time_capped"] else []


def _unproven_calm(response: dict[str, Any]) -> list[str]:
    """A line saying that the table moves of a full answer are not proven the fewest,
    when they are not (``disruption_proven`` false: the least-disruption stage skipped,
    cut by its time limit, or stopped at its work bound): the counts above are then
    only what this play does, and its steps may move tiles that need not move. With
    ``time_capped`` it names the time limits, not saying that one stopped that stage:
    the answer's flag is any of its searches' (the score's, the free jokers' count)."""
    if response["disruption_proven"]:
        return []
    if response["time_capped"]:
        return [
            _(
                "Not proven to disturb the table least (a time limit cut a search of this"
                " answer short: --time-limit, --disruption-time-limit); a play as good may"
                " move fewer table tiles."
            )
        ]
    return [unproven_calm_text()]


def unproven_calm_text() -> str:
    """That a play's table moves are not proven the fewest (a solve's, a repair's
    rescue's), with no flag to name."""
    return _("Not proven to disturb the table least: a play as good may move fewer table tiles.")


def _asked_for_lines(response: dict[str, Any]) -> list[str]:
    """What the request asked for beside the play, at every hint level: the table
    jokers no set needs (--free-jokers) and the strong bot's advice (--opponents)."""
    lines = []
    if "free_jokers" in response:
        spare = response["free_jokers"]
        lines.append(
            _("Table jokers no set needs: {count}", count=spare)
            if spare is not None
            else _("Table jokers no set needs: not proven (the search stopped first)")
        )
    if (advice := response.get("advice")) is not None:
        lines.append(advice["text"])
    return lines


def describe_table(table: list[dict[str, Any]], title: str, empty: str) -> list[str]:
    """Lines listing the sets of a wire table after a play or repair under ``title``
    (``empty`` when it has none), jokers with what they stand for, each under the number
    its steps give it (``set``: "as set 4" in a table of 4 sets is the one numbered 4)."""
    lines = [title if table else empty]
    kinds = {"run": _("run"), "group": _("group")}
    width = len(str(max((meld["set"] for meld in table), default=0)))
    for meld in table:
        tiles = [
            f"J({meant})" if tile == "J" else tile
            for tile, meant in zip(meld["tiles"], meld["as"], strict=True)
        ]
        kind = pad(kinds[meld["kind"]], max(map(columns, kinds.values())))
        lines.append(f"  {meld['set']:>{width}}. {kind}  {' '.join(tiles)}")
    return lines


def add_bot_command(commands: Commands) -> None:
    """Register ``bot`` on a subcommand parser."""
    parser = commands.add_parser(
        "bot",
        help="a Rummikub bot's move for a position",
        description="What a bot (beginner, greedy, strong) plays from a position. Give it "
        "with flags, or send wire requests on stdin with --json or --jsonl.",
    )
    parser.add_argument("--bot", choices=list(BOTS), default="strong", help="the bot (strong)")
    add_position_flags(parser)
    parser.add_argument(
        "--opponents",
        default="14",
        metavar="SIZES",
        help="the opponents' rack sizes in playing order, e.g. 9,14 (default 14); add "
        "'o' to one that has opened: 9o,14",
    )
    parser.add_argument(
        "--seed",
        type=whole_number,
        default=0,
        help="the bot's seed (0); no Rummikub bot draws at random: any seed gives the same move",
    )
    add_notation_flag(parser)
    add_request_flags(parser)
    parser.set_defaults(handler=answering(bot_rummikub, _bot_request, describe_bot))
    fields_from_flags(
        parser, {**POSITION_FLAGS, "bot": "--bot", "opponents": "--opponents", "seed": "--seed"}
    )


def _bot_request(args: argparse.Namespace) -> dict[str, Any]:
    position = position_from_flags(args)
    return {
        **position,
        "bot": args.bot,
        "opponents": opponents_from_flag(args.opponents),
        "seed": args.seed,
        "notation": args.notation,
    }


def opponents_from_flag(text: str) -> list[dict[str, Any]]:
    """The ``opponents`` of a request from ``--opponents 9o,14``: rack sizes in playing
    order, an ``o`` after one that has opened (see :func:`sizes_from_flag`)."""
    sizes = sizes_from_flag(
        text,
        "--opponents",
        # An empty size was refused in the request field's words ('opponents' must hold
        # at least 1), and 9,,14 was read as two players.
        empty=lambda: _("--opponents takes rack sizes like 9,14 or 9o, got {item!r}", item=text),
        bad=lambda word: _("--opponents takes rack sizes like 9,14 or 9o, got {item!r}", item=word),
        mark="o",
    )
    if len(sizes) > MAX_OPPONENTS:
        # The request field's words, "--opponents may hold at most 7", read like tiles.
        raise MeldwiseError(
            _(
                "--opponents names at most {most} opponents, got {count}",
                most=MAX_OPPONENTS,
                count=len(sizes),
            )
        )
    return [{"rack_size": size, "opened": opened} for size, opened in sizes]


def describe_bot(response: dict[str, Any]) -> str:
    """A bot's move written for a person."""
    lines = []
    bot = response["bot"]
    if response["action"] == "draw":
        lines.append(_("{bot} draws a tile.", bot=bot))
    elif response["action"] == "pass":
        lines.append(_("{bot} passes: it does not play, and the pool is empty.", bot=bot))
    else:
        played = " ".join(response["played"])
        lines.append(
            _n(
                "{bot} plays {n} tile: {tiles}",
                "{bot} plays {n} tiles: {tiles}",
                len(response["played"]),
                bot=bot,
                tiles=played,
            )
        )
        lines.append(_("Rack left: {tiles}", tiles=" ".join(response["rack_left"]) or _("(empty)")))
    if response["status"] == "optimal":
        best = _n(
            "The best play places {n} tile.",
            "The best play places {n} tiles.",
            response["best_tiles"],
        )
    else:
        best = _n(
            "The best play found places {n} tile (a search stopped at its work bound: "
            "not proven the best).",
            "The best play found places {n} tiles (a search stopped at its work bound: "
            "not proven the best).",
            response["best_tiles"],
        )
    lines.append(best)
    if response["reason"]:
        lines.append(_("Why: {reason}.", reason=response["reason"]))
    if response["action"] == "play":
        lines.append(_("Table after:"))
        lines += [f"  {i}. {' '.join(tiles)}" for i, tiles in enumerate(response["table"])]
    return "\n".join(lines) + "\n"


def add_game_command(commands: Commands) -> None:
    """Register ``game`` on a subcommand parser: a Rummikub game, or with ``--game
    shanghai`` a Shanghai one (:func:`solver.shanghai.cli.shanghai_game`)."""
    parser = commands.add_parser(
        "game",
        help="play one seeded game between bots (Rummikub or Shanghai) and write its record",
        description="Play one game between bots (one name per seat) and write the game "
        "record as JSON (docs/games.md; a Shanghai game's, docs/shanghai.md), to review or "
        "replay.",
    )
    parser.add_argument(
        "--game",
        default="rummikub",
        choices=("rummikub", "shanghai"),
        help="the game (rummikub, the default, or shanghai)",
    )
    parser.add_argument("--bots", required=True, help="bot names by seat, e.g. strong,greedy")
    parser.add_argument("--seed", type=whole_number, default=0, help="the deal's seed (0)")
    add_option_flag(parser, "pool_empty=end or rules.jokers=4 (Shanghai: hands=2)")
    parser.add_argument(
        "--out",
        type=FileName,
        metavar="FILE",
        help="write the record to FILE (default, or '-': stdout)",
    )
    add_notation_flag(parser)
    # None: not given, which a Shanghai game (cards, not tiles) needs to tell.
    parser.set_defaults(notation=None)
    add_language_option(parser)
    parser.set_defaults(handler=run_game)
    fields_from_flags(
        parser,
        {
            "bots": "--bots",
            "seed": "--seed",
            "notation": "--notation",
            # A setting is said with --option's NAME: "--option rules: rule 'jokers' ...".
            "settings": "--option",
            "settings.*": "--option {}",
        },
    )


def run_game(args: argparse.Namespace, _stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    if args.game == "shanghai" and args.notation is not None:
        raise MeldwiseError(
            _("--notation writes Rummikub tiles; a Shanghai game takes none (its cards: 7H)")
        )
    # '-' is stdout, as review reads '-' as stdin and tournament --json writes it to
    # stdout: it wrote a file named '-'.
    to_file = args.out is not None and args.out != "-"
    if to_file:
        # A path that cannot be written was said only once the whole game was played.
        ready_to_write("--out", args.out)
    if args.game == "shanghai":
        answer, said = shanghai_game(args)
    else:
        answer, said = _rummikub_game(args)
    record = answer["record"]
    text = json.dumps(record, indent=1) + "\n"
    # Seat numbers and scores as a sentence lists them (it was the lists' repr,
    # "winners [0], scores [16, -16]").
    said["winners"] = listed(said["winners"])
    said["scores"] = listed(said["scores"])
    if to_file:
        write_file("--out", args.out, text)
        summary = _(
            "{turns}, {end}; winners {winners}; scores {scores}; record written to {path}",
            path=args.out,
            **said,
        )
        told = stdout
    else:
        # Stdout is the record alone (``meldwise game ... | meldwise review -``), so the
        # summary and the status, which the record does not hold, go to stderr.
        stdout.write(text)
        summary = _(
            "{turns}, {end}; winners {winners}; scores {scores}; record written to standard output",
            **said,
        )
        told = stderr
    print(summary, file=told)
    print(_("Solver: {status}", status=_game_status_text(answer["status"])), file=told)
    return 0


def _rummikub_game(args: argparse.Namespace) -> tuple[dict[str, Any], dict[str, Any]]:
    """A Rummikub ``game``'s answer, and what its summary says of the game."""
    request = {
        "bots": bot_names(args.bots),
        "seed": args.seed,
        "settings": parse_options(args.option),
        "notation": args.notation or Notation.RBKO.value,
    }
    answer = game_rummikub(request)
    record = answer["record"]
    result = record["result"]
    said = {
        # A game of one turn (a player out at once) read "1 turns".
        "turns": _n("{n} turn", "{n} turns", len(record["turns"])),
        "end": _end_text(result["end"]),
        "winners": result["winners"],
        "scores": result["scores"],
    }
    return answer, said


def _game_status_text(status: str) -> str:
    """A game's ``status`` (the least proven of the bots' solves) for a person."""
    if status == Status.OPTIMAL.value:
        return _("every solve the bots made was proven (optimal)")
    return _("not every solve the bots made was proven: {status}", status=status_text(status))


def _end_text(end: str) -> str:
    """How a game ended (a record's ``result.end``, an :class:`End` value), for a person."""
    if end == End.OUT.value:
        return _("a player went out")
    return _("blocked: the pool is empty and nobody went out")


def add_review_command(commands: Commands) -> None:
    """Register ``review`` on a subcommand parser."""
    parser = commands.add_parser(
        "review",
        help="review a Rummikub game record turn by turn",
        description="Solve every turn of a game record afresh and show what each turn "
        "missed, the illegal turns, and each player's accuracy.",
    )
    parser.add_argument(
        "record", type=FileName, help="the game record (a JSON file; '-' for stdin)"
    )
    parser.add_argument("--player", type=whole_number, help="review only this seat's turns")
    add_choice_flag(
        parser, "--objective", Objective.TILES, "best means the most tiles or the most points"
    )
    add_time_limit_flag(
        parser, "most seconds for each turn's solve", highest_ms=MAX_REVIEW_TIME_LIMIT_MS
    )
    parser.add_argument("--json", action="store_true", help="write the review as JSON")
    add_notation_flag(parser)
    add_language_option(parser)
    parser.set_defaults(handler=run_review)
    # The record's fields keep their names: the file holds them.
    fields_from_flags(
        parser,
        {
            "player": "--player",
            "objective": "--objective",
            "time_limit_ms": "--time-limit",
            "notation": "--notation",
        },
    )


def run_review(args: argparse.Namespace, stdin: TextIO, stdout: TextIO, _stderr: TextIO) -> int:
    record = read_json_file(args.record, stdin)
    request: dict[str, Any] = {
        "record": record,
        "objective": args.objective,
        "time_limit_ms": time_limit_ms(args.time_limit, MAX_REVIEW_TIME_LIMIT_MS),
        "notation": args.notation,
    }
    if args.player is not None:
        request["player"] = args.player
    review = review_rummikub(request)
    if args.json:
        json_output(stdout).write(json_line(review) + "\n")
    else:
        stdout.write(describe_review(review, args.player))
    return 0


def _unproven(turns: list[dict[str, Any]], seat: int) -> list[int]:
    """The legal turns of ``seat`` neither short of a best found nor proven at the best:
    the search stopped before proving the best, and found none better."""
    return [
        t["turn"]
        for t in turns
        if t["player"] == seat
        and t["legal"]
        and t["best"]
        and not t["at_best"]
        and t["shortfall"] == 0
    ]


def describe_review(review: dict[str, Any], chosen: int | None = None) -> str:
    """A review written for a person: each player's summary, then the turns that fell
    short or broke the rules; ``chosen``: the seat whose turns alone were reviewed."""
    if not review["turns"]:
        name = review["players"][0]["name"] if chosen is not None else None
        return nothing_to_review(chosen, name) + "\n"

    def amount(n: int) -> str:
        """``n`` in the review's unit: "1 tile", "267 points" (it said "1 tiles")."""
        return points_text(n) if review["objective"] == "points" else _n("{n} tile", "{n} tiles", n)

    proven_bests = {
        t["turn"] for t in review["turns"] if t["best"] and t["best"]["status"] == "optimal"
    }
    lines = []
    for player in review["players"]:
        seat = player["player"]
        if not player["turns"] and not player["unreviewed_turns"]:
            lines.append(no_turns(seat, player["name"]))
            continue
        who = seat_text(seat, player["name"])
        share = player["placed_share"]
        counted = {
            "player": who,
            "at_best": player["turns_at_best"],
            # "1 of 1 turns at the best" was said of one turn.
            "turns": _n("{n} turn", "{n} turns", player["turns"]),
            "placed": amount(player["placed"]),
            "possible": amount(player["possible"]),
        }
        figures = (
            _(
                "{player}: {at_best} of {turns} at the best; {placed} placed{share}, the best"
                " play of each turn alone {possible}",
                share=""
                if share is None
                else _p("share placed", " ({share})", share=percent_text(share)),
                **counted,
            )
            if player["proven"]
            # Bests not proven: their sum is only at least this, a share of it no share
            # of the best ("17 placed (100%), the best ... 17" at a 1 ms limit), and a
            # turn not proven at the best may be at it.
            else _(
                "{player}: {at_best} of {turns} proven at the best; {placed} placed, the best"
                " play of each turn alone at least {possible} (the best found: not every"
                " best was proven)",
                **counted,
            )
        )
        lines.append(
            figures
            + (
                _("; illegal turns: {turns}", turns=_turn_list(player["illegal_turns"]))
                if player["illegal_turns"]
                else ""
            )
            + (
                _("; turns not reviewed: {turns}", turns=_turn_list(player["unreviewed_turns"]))
                if player["unreviewed_turns"]
                else ""
            )
            + (
                _("; turns whose best was not proven: {turns}", turns=_turn_list(unproven))
                if (unproven := _unproven(review["turns"], seat))
                else ""
            )
        )
        for costly in player["costliest"]:
            short = _short(costly["shortfall"], review["objective"])
            if costly["turn"] not in proven_bests:
                # Short of a best found, not proven: by that much at least.
                short = _("at least {short}", short=short)
            lines.append(
                "  "
                + _(
                    "turn {turn}: {short}, missed {tiles}",
                    turn=costly["turn"],
                    short=short,
                    tiles=" ".join(costly["missed"]) or "-",
                )
            )
    # Below the best for sure: short of a best play found, or illegal (a turn whose best
    # was not proven but is no better than it is not listed). A legal turn that could not
    # be reviewed is not known to be below the best: it was listed as if it were.
    turns = review["turns"]
    below = [t for t in turns if t["shortfall"] > 0 or not t["legal"]]
    unreviewed = [t for t in turns if t["legal"] and t["best"] is None]
    for heading, group in (
        (_("Turns below the best:"), below),
        (_("Turns not reviewed:"), unreviewed),
    ):
        if group:
            lines.append(heading)
        lines += [_reviewed_turn(turn) for turn in group]
    lines.append(_("Solver: {status}", status=status_text(review["status"])))
    if review["time_capped"]:
        lines.append(capped_note())
    return "\n".join(lines) + "\n"


def _turn_list(turns: list[int]) -> str:
    """Turn numbers as a sentence lists them: "2, 4", in Japanese "2、4" (it was the
    list's repr, "[2, 4]")."""
    return listed(turns)


def _short(shortfall: int, objective: str) -> str:
    """A turn's shortfall in the review's unit ("1 tiles short" was written)."""
    if objective == "points":
        return _n("{n} point short", "{n} points short", shortfall)
    return _n("{n} tile short", "{n} tiles short", shortfall)


def _best_text(best: dict[str, Any]) -> str:
    """A turn's best play in words; a best that places nothing was written "best 0 tiles /
    0 points ()", and one its search did not prove was called the best as one proven."""
    if not best["played"]:
        if best["status"] == "optimal":
            return _("best: no play was possible")
        return _("best: no play found")
    if best["status"] != "optimal":
        return _(
            "best found {tiles} / {points} ({played}), not proven the best",
            tiles=_n("{n} tile", "{n} tiles", best["tiles"]),
            points=points_text(best["points"]),
            played=" ".join(best["played"]),
        )
    return _(
        "best {tiles} / {points} ({played})",
        tiles=_n("{n} tile", "{n} tiles", best["tiles"]),
        points=points_text(best["points"]),
        played=" ".join(best["played"]),
    )


def _reviewed_turn(turn: dict[str, Any]) -> str:
    """One turn of a review on a line: what it did, its best or why it was not
    reviewed, and why it was illegal."""
    if turn["action"] == "play":
        did = _("played {tiles}", tiles=" ".join(turn["played"]) or "-")
    elif turn["action"] == "draw":
        did = _("draws")
    else:
        did = _("passes")
    best = turn["best"]
    line = "  " + _(
        "turn {turn}, player {player}: {did}; {best}",
        turn=turn["turn"],
        player=turn["player"],
        did=did,
        best=_best_text(best) if best else _("not reviewed: {why}", why=turn["unreviewed"]),
    )
    if not turn["legal"]:
        line += _("; ILLEGAL: {problems}", problems=clauses(turn["problems"]))
    return line

"""The ``shanghai`` command: ``meldwise shanghai advise ...``, ``... score ...`` and
``... review FILE`` (a game record reviewed turn by turn).

Both take flags for a person, or wire requests on stdin with ``--json`` (one
request, one response) or ``--jsonl`` (one per line; a bad line answers
``{"error": ...}`` and the batch goes on). Bad input exits with code 2.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from functools import partial
from typing import Any, TextIO

from solver.commands import (
    Commands,
    FileName,
    add_language_option,
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
    players_from_flags,
    read_json_file,
    rules_from_flags,
    seat_text,
    sizes_from_flag,
    status_text,
    time_limit_ms,
    whole_number,
)
from solver.errors import MeldwiseError
from solver.i18n import N_, _, _n, _p, clauses, listed, percent_text
from solver.record import MAX_REVIEW_TIME_LIMIT_MS
from solver.shanghai.advice import PHASE_ASKED
from solver.shanghai.contracts import HANDS, contract_text
from solver.shanghai.game_wire import game_shanghai, review_shanghai
from solver.shanghai.notation import parse_melds
from solver.shanghai.wire import TIME_FACTOR, advise_shanghai, score_shanghai
from solver.written import words


def add_shanghai_command(commands: Commands) -> None:
    """Register ``shanghai`` (with ``advise`` and ``score``) on a subcommand parser."""
    parser = commands.add_parser(
        "shanghai",
        help="Shanghai rummy: advice for a turn, or a hand's score",
        description="Shanghai rummy advice (going down, lay-offs, discard, upcard) and scoring.",
    )
    actions = parser.add_subparsers(dest="action", required=True)
    advise = actions.add_parser(
        "advise",
        help="advice for one turn",
        description="Advice for one turn. Give the hand and the contract (--hand-number, or"
        " --sets/--runs; not needed with --down), or send wire requests with --json /"
        " --jsonl.",
    )
    advise.add_argument("--hand", help='the cards in hand, e.g. "7H 7S 7D JK 10C"')
    advise.add_argument(
        "--hand-number", type=whole_number, help="hand 1-10 (the standard contracts)"
    )
    # Appended, so that a second --sets or --runs is refused, not silently kept alone.
    advise.add_argument(
        "--sets", action="append", help='a custom contract\'s set sizes, e.g. "3,3"'
    )
    advise.add_argument("--runs", action="append", help='a custom contract\'s run sizes, e.g. "4"')
    advise.add_argument(
        "--table",
        default="",
        help='melds on the table separated by |, each optionally "owner:", e.g.'
        ' "ann: 8H 8S 8D | JC QC KC AC"',
    )
    advise.add_argument(
        "--phase",
        choices=("draw", "play"),
        help="draw: the hand before drawing (take, draw or buy); play: after drawing (go"
        " down, lay off, discard); not given: the older mixed question",
    )
    advise.add_argument("--down", action="store_true", help="the player has already gone down")
    advise.add_argument("--upcard", help="the top card of the discard pile")
    advise.add_argument("--buys-left", type=whole_number, help="buys left this hand (default: all)")
    advise.add_argument(
        "--seen", help='cards known out of play: the discard pile under the upcard, e.g. "4C 9H"'
    )
    advise.add_argument(
        "--next-down",
        choices=("yes", "no"),
        help="whether the next player has gone down (default: not known), for the discard's danger",
    )
    advise.add_argument(
        "--next-took", help='cards the next player took from the discard pile, e.g. "9C 9D"'
    )
    _add_common(advise)
    advise.set_defaults(handler=_advise)
    fields_from_flags(
        advise,
        {
            "hand": "--hand",
            "table": "--table",
            "down": "--down",
            "rules": "--rule",
            "time_limit_ms": "--time-limit",
            "hand_number": "--hand-number",
            "contract.sets": "--sets",
            "contract.runs": "--runs",
            "upcard": "--upcard",
            "buys_left": "--buys-left",
            "phase": "--phase",
            "seen": "--seen",
            "next_player.down": "--next-down",
            "next_player.took": "--next-took",
        },
    )
    score = actions.add_parser(
        "score",
        help="penalty points at a hand's end",
        description="Score the cards each player holds when a hand ends.",
    )
    score.add_argument(
        "--hand",
        action="append",
        default=[],
        metavar="PLAYER=CARDS",
        help='a player\'s cards left, e.g. --hand "ann=AS JK" --hand "bo=" (repeatable)',
    )
    add_rule_flag(score, "--rule decks=3 --rule twos_wild=true")
    add_request_flags(score)  # scoring searches nothing: no --time-limit
    score.set_defaults(handler=answering(score_shanghai, _score_request, describe_scores))
    # A hand's place is said with its player: --hand bob.
    fields_from_flags(score, {"rules": "--rule", "hands": "--hand", "hands.*": "--hand {}"})
    review = actions.add_parser(
        "review",
        help="review a Shanghai game record turn by turn",
        description="Replay a game record and solve each turn's play phase afresh: what each"
        " turn left in hand beside the proven best, the turns that could have gone out or"
        " down, and each player's summary. The draw and the discard are not judged.",
    )
    review.add_argument(
        "record", type=FileName, help="the game record (a JSON file; '-' for stdin)"
    )
    review.add_argument("--player", type=whole_number, help="review only this seat's turns")
    add_time_limit_flag(
        review, "most seconds for each turn's solve", highest_ms=MAX_REVIEW_TIME_LIMIT_MS
    )
    review.add_argument("--json", action="store_true", help="write the review as JSON")
    add_language_option(review)
    review.set_defaults(handler=_review)
    # The record's fields keep their names: the file holds them.
    fields_from_flags(review, {"player": "--player", "time_limit_ms": "--time-limit"})


def _advise(args: argparse.Namespace, stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    """``shanghai advise``: the answer says nothing of whether the player is down, the
    flags do, and what to say of a missing ``go_down`` depends on it."""
    describe = partial(describe_advice, down=args.down)
    run = answering(advise_shanghai, _advise_request, describe)
    if args.json or args.jsonl:
        return run(args, stdin, stdout, stderr)  # the request's own words: phase 'draw'
    asked = PHASE_ASKED.set(("--phase {}", "{}"))
    try:
        return run(args, stdin, stdout, stderr)
    finally:
        PHASE_ASKED.reset(asked)


def _add_common(parser: argparse.ArgumentParser) -> None:
    add_rule_flag(parser, "--rule decks=3 --rule twos_wild=true")
    add_request_flags(
        parser,
        time_limit="wall-clock seconds: the turn's solves, stopped by the phase's work"
        f" budget, run within {TIME_FACTOR} times this, the outer safety cap",
    )


def _advise_request(args: argparse.Namespace) -> dict[str, Any]:
    if args.hand is None:
        raise MeldwiseError(_("give the hand with --hand, or a request with --json"))
    if not words(args.hand):
        # It was refused in the request field's words: 'hand' must hold at least 1, got 0.
        raise MeldwiseError(_("--hand names no card, got {text!r}", text=args.hand))
    if args.upcard is not None and not words(args.upcard):
        # It was "--upcard: unknown card ''", where an empty --hand names no card.
        raise MeldwiseError(_("--upcard names no card, got {text!r}", text=args.upcard))
    request: dict[str, Any] = {
        "hand": words(args.hand),
        "table": _table(args.table),
        "down": args.down,
        "rules": rules_from_flags(args.rule),
        "time_limit_ms": time_limit_ms(args.time_limit),
    }
    custom = args.sets is not None or args.runs is not None
    # The wire's own messages name its fields ('hand_number', 'contract').
    if args.hand_number is not None and custom:
        raise MeldwiseError(
            _("give the contract with --hand-number (1-10) or with --sets/--runs, not both")
        )
    if args.hand_number is None and not custom and not args.down:
        raise MeldwiseError(
            _(
                "give the contract: --hand-number (1-10), or its melds with --sets and --runs"
                " (a player who is --down needs neither)"
            )
        )
    if args.hand_number is not None:
        if not 1 <= args.hand_number <= HANDS:
            raise MeldwiseError(
                _("--hand-number takes 1 to {most}, got {n}", most=HANDS, n=args.hand_number)
            )
        request["hand_number"] = args.hand_number
    if custom:
        request["contract"] = {
            "sets": _sizes(args.sets, "--sets"),
            "runs": _sizes(args.runs, "--runs"),
        }
    if args.upcard is not None:
        request["upcard"] = args.upcard
    if args.buys_left is not None:
        request["buys_left"] = args.buys_left
    if args.phase is not None:
        request["phase"] = args.phase
    if args.seen is not None:
        request["seen"] = words(args.seen)
    if args.next_down is not None or args.next_took is not None:
        request["next_player"] = {
            "down": None if args.next_down is None else args.next_down == "yes",
            "took": words(args.next_took or ""),
        }
    return request


def _score_request(args: argparse.Namespace) -> dict[str, Any]:
    if not args.hand:
        raise MeldwiseError(_('give each player\'s cards with --hand "NAME=CARDS"'))
    hands = players_from_flags(args.hand, "--hand", _p("a flag's value", "CARDS"))
    return {"hands": hands, "rules": rules_from_flags(args.rule)}


def _review(args: argparse.Namespace, stdin: TextIO, stdout: TextIO, _stderr: TextIO) -> int:
    """``shanghai review FILE``: the record read from the file (``-``: stdin)."""
    record = read_json_file(args.record, stdin)
    request: dict[str, Any] = {
        "record": record,
        "time_limit_ms": time_limit_ms(args.time_limit, MAX_REVIEW_TIME_LIMIT_MS),
    }
    if args.player is not None:
        request["player"] = args.player
    review = review_shanghai(request)
    if args.json:
        json_output(stdout).write(json_line(review) + "\n")
    else:
        stdout.write(describe_review(review, args.player))
    return 0


def shanghai_game(args: argparse.Namespace) -> tuple[dict[str, Any], dict[str, Any]]:
    """``game --game shanghai``: the game's answer, and what the summary the command
    writes for either game says of it (its hands and how they ended)."""
    request = {
        "bots": bot_names(args.bots),
        "seed": args.seed,
        "settings": parse_options(args.option),
    }
    answer = game_shanghai(request)
    record = answer["record"]
    said = {
        "turns": _n("{n} hand", "{n} hands", len(record["hands"])),
        "end": _hands_end_text(record),
        "winners": record["winners"],
        "scores": record["scores"],
    }
    return answer, said


def _hands_end_text(record: dict[str, Any]) -> str:
    """How a played game's hands ended, for a person: a blocked hand by its cause, the
    turns played out (``max_turns`` plays) or no card left to draw. Every blocked hand
    was said to have had no one go out "within its turns", even one blocked after a
    turn because buys had emptied the stock and the pile."""
    blocked = [hand for hand in record["hands"] if hand["end"] == "blocked"]
    if not blocked:
        return _("a player went out of every hand")
    max_turns = record["settings"]["max_turns"]
    # A play is a turn (the engine counts them so): a hand that played max_turns of
    # them was stopped by the limit; one stopped before had no card left to draw.
    at_limit = sum(
        sum(event["kind"] == "play" for event in hand["events"]) >= max_turns for hand in blocked
    )
    parts = []
    if at_limit:
        parts.append(
            _n(
                "{n} hand blocked: no one went out within its turns",
                "{n} hands blocked: no one went out within their turns",
                at_limit,
            )
        )
    if len(blocked) > at_limit:
        parts.append(
            _n(
                "{n} hand blocked: no card was left to draw",
                "{n} hands blocked: no card was left to draw",
                len(blocked) - at_limit,
            )
        )
    return parts[0] if len(parts) == 1 else _("{one}, {other}", one=parts[0], other=parts[1])


def _places(turns: list[dict[str, Any]]) -> str:
    return listed(
        _("hand {hand} turn {turn}", hand=t["hand_number"], turn=t["turn"]) for t in turns
    )


def describe_review(review: dict[str, Any], chosen: int | None = None) -> str:
    """A Shanghai review written for a person: each player's summary, then the turns
    short of the best with what was proven; ``chosen``: the seat reviewed alone."""
    if not review["turns"]:
        name = review["players"][0]["name"] if chosen is not None else None
        return "\n".join([nothing_to_review(chosen, name), *review["notes"]]) + "\n"
    lines = []
    for player in review["players"]:
        if not player["turns"]:
            lines.append(no_turns(player["player"], player["name"]))
            continue
        counted = {
            "player": seat_text(player["player"], player["name"]),
            "at_best": player["turns_at_best"],
            "turns": _n("{n} turn", "{n} turns", player["turns"]),
            "points": _n("{n} point", "{n} points", player["points_missed"]),
        }
        lines.append(
            _(
                "{player}: {at_best} of {turns} at the best; {points} left in hand beyond the"
                " best plays",
                **counted,
            )
            if player["proven"]
            # Some turn's best not proven: the points are beyond the plays found (a
            # proven best may leave fewer), and a turn not proven at the best may be.
            else _(
                "{player}: {at_best} of {turns} proven at the best; {points} left in hand"
                " beyond the best plays found (not every best was proven)",
                **counted,
            )
        )
        for key, heading in (
            ("could_go_out", _("could have gone out")),
            ("could_go_down", _("could have gone down")),
            ("unproven", _("best not proven")),
        ):
            if player[key]:
                lines.append(f"  {heading}: {_places(player[key])}")
    short = [t for t in review["turns"] if t["problems"]]
    if short:
        lines.append(_("Turns short of the best:"))
    for turn in short:
        best = turn["best"]
        lines.append(
            "  "
            + _(
                "hand {hand}, turn {turn}, player {player}: left {cards} ({points}); the best"
                " leaves {best_cards} ({best_points}): {problems}",
                hand=turn["hand_number"],
                turn=turn["turn"],
                player=turn["player"],
                cards=" ".join(turn["left"]) or _("(none)"),
                points=_n("{n} point", "{n} points", turn["points_left"]),
                best_cards=" ".join(best["left"]) or _("(none)"),
                best_points=_n("{n} point", "{n} points", best["points_left"]),
                problems=clauses(turn["problems"]),
            )
        )
    lines += review["notes"]  # hands whose contract could never be met, and why
    lines.append(_("Solver: {status}", status=status_text(review["status"])))
    if review["time_capped"]:
        lines.append(capped_note())
    return "\n".join(lines) + "\n"


def _table(text: str) -> list[dict[str, Any]]:
    """The melds of ``--table`` as the request's ``table``, read by
    :func:`~solver.shanghai.notation.parse_melds` (as :meth:`Position.parse
    <solver.shanghai.position.Position.parse>` reads them): an error is said after the
    flag (``--table: table meld 1 of '8H 8S 8D ||' has no cards; ...``)."""
    try:
        melds = parse_melds(text)
    except MeldwiseError as error:
        raise MeldwiseError(_("{where}: {problem}", where="--table", problem=error)) from None
    return [
        {"cards": cards} if owner is None else {"cards": cards, "owner": owner}
        for owner, cards in melds
    ]


def _sizes(given: list[str] | None, flag: str) -> list[int]:
    if given is None:
        return []
    if len(given) > 1:
        # argparse would keep the last alone: --sets 3 --runs 4 --runs 5 was a run of 5.
        raise MeldwiseError(
            _(
                "{flag} is given {n} times; give all its sizes in one, e.g. {flag} 3,4",
                flag=flag,
                n=len(given),
            )
        )
    text = given[0]
    sizes = sizes_from_flag(
        text,
        flag,
        empty=lambda: _(
            "{flag} has an empty size in {text!r}; give sizes like 3,3", flag=flag, text=text
        ),
        bad=lambda _word: _("{flag} takes sizes like 3,3, got {text!r}", flag=flag, text=text),
    )
    return [size for size, _marked in sizes]


def _meld_text(meld: Mapping[str, Any]) -> str:
    return " ".join(
        card if card == meant else f"{card}({meant})"
        for card, meant in zip(meld["cards"], meld["as"], strict=True)
    )


def describe_advice(response: dict[str, Any], *, down: bool = False) -> str:
    """An advice response written for a person; ``down``: the request's (whether the
    player had gone down), which the response does not repeat."""
    short = response["deficiency"]
    yes, no = _("yes"), _("no")
    kinds = {"set": _("set"), "run": _("run")}
    lines = []
    given = response["contract"]  # null: a player who is down gave none
    if given is not None:
        lines += [
            _("Contract: {contract}", contract=contract_text(given["sets"], given["runs"])),
            _("Cards short of the contract: {short}", short="-" if short is None else short),
        ]
    lines.append(_("Penalty if the hand ended now: {points}", points=response["penalty"]))
    go = response["go_down"]
    # By the play search's own status, not the answer's, the worst of every search: a
    # discard's search cut short said that the search for going down had stopped when
    # no going down existed. Only "optimal" proves none: "feasible" (plays found, a limit
    # cut the search) said "Go down: not this turn".
    stopped = response["play_status"] in ("unknown", "feasible")
    if response["phase"] == "draw":
        lines.append(_("Before the draw:"))
    elif down:
        if response["lay_offs"] is None and stopped:
            lines.append(_("Lay off: none found before the search stopped"))
        # Else lay-offs follow; or none ends the turn legally, which a note says.
    elif go is None:
        if stopped:
            lines.append(_("Go down: none found before the search stopped"))
        else:
            lines.append(_("Go down: not this turn"))
    else:
        lines.append(_("Go down:"))
        wide = max(4, *map(columns, kinds.values()))
        lines += [f"  {pad(kinds[m['kind']], wide)} {_meld_text(m)}" for m in go["melds"]]
        lines += [
            "  "
            + _("swap {card} for the joker in table meld {meld}", card=s["give"], meld=s["meld"])
            for s in go["swaps"]
        ]
        lines.append(
            "  "
            + _n(
                "left: {cards} ({n} point)",
                "left: {cards} ({n} points)",
                go["penalty_left"],
                cards=" ".join(go["left"]) or _("(none)"),
            )
        )
    laid = response["lay_offs"]
    if laid is not None:
        lines.append(_("Lay off:") if laid["plays"] or laid["swaps"] else _("Lay off: nothing"))
        lines += [
            "  " + _("swap {card} for the joker in meld {meld}", card=s["give"], meld=s["meld"])
            for s in laid["swaps"]
        ]
        lines += [
            "  "
            + (
                _("{card} on meld {meld}", card=p["card"], meld=p["meld"])
                if p["as"] == p["card"]
                else _(
                    "{card} on meld {meld} as {meant}",
                    card=p["card"],
                    meld=p["meld"],
                    meant=p["as"],
                )
            )
            for p in laid["plays"]
        ]
        lines.append("  " + _("left: {cards}", cards=" ".join(laid["left"]) or _("(none)")))
        lines.append(
            "  " + _("go out this turn: {answer}", answer=yes if laid["can_go_out"] else no)
        )
    if response["phase"] != "draw":
        lines.append(_discard_line(response))
    end = response["end_of_turn"]
    if end is not None:
        if end["goes_out"]:
            lines.append(_("End of turn: out ({points} points)", points=end["points"]))
        else:
            kept = " ".join(end["kept"]) or _("(none)")
            lines.append(
                _n(
                    "End of turn: keep {cards} ({n} point)",
                    "End of turn: keep {cards} ({n} points)",
                    end["points"],
                    cards=kept,
                )
            )
    for key, label, question in (
        ("take_upcard", "take", _("Upcard, take: {answer}. {rule}")),
        ("buy", "buy", _("Upcard, buy: {answer}. {rule}")),
    ):
        item = response[key]
        if item is not None:
            lines.append(question.format(answer=yes if item[label] else no, rule=item["rule"]))
    for option in response["draw_options"]:
        lines.append("  " + _option_line(option))
    lines += response["notes"]
    lines.append(_("Solver: {status}", status=_status(response["status"])))
    if response["time_capped"]:
        lines.append(capped_note())
    return "\n".join(lines) + "\n"


def _status(status: str) -> str:
    """An advice's ``status`` for a person: the worst of the turn's many searches, so
    one stopped early leaves the rest of the advice standing (the Rummikub words, "the
    best found" and "before anything was found", would speak of the whole answer)."""
    if status == "feasible":
        return _(
            "feasible (a search stopped at its limit: some figures are the best found, not proven)"
        )
    if status == "unknown":
        return _(
            "partly unknown (a search stopped at its limit before finding anything: some"
            " figures are not proven)"
        )
    return status_text(status)


def _discard_line(response: dict[str, Any]) -> str:
    discard = response["discard"]
    if discard is not None:
        return str(discard["reason"])
    if response["lay_offs"] is not None and response["lay_offs"]["can_go_out"]:
        return _("Discard: none, you go out")
    if response["play_status"] == "unknown":
        return _("Discard: none found before the search stopped")
    return _("Discard: none")


def _option_line(option: dict[str, Any]) -> str:
    """One draw option: what it adds and the expected figures after it."""
    actions = {"take": _("take"), "draw": _("draw"), "buy": _("buy")}
    wide = max(4, *map(columns, actions.values()))
    parts = [f"{pad(actions[option['action']], wide)} (+{option['cards']})"]
    if option["deficiency"] is not None:
        parts.append(_("deficiency {value:.2f}", value=option["deficiency"]))
    if option["points"] is not None:
        parts.append(_("points {value:.1f}", value=option["points"]))
    for key, proven, found in (
        ("go_down", N_("go down {chance}"), N_("go down at least {chance}")),
        ("go_out", N_("go out {chance}"), N_("go out at least {chance}")),
    ):
        if (chance := option[key]) is not None:
            at_least = not option["chances_proven"]
            text = found if at_least else proven
            parts.append(_(text, chance=percent_text(chance, at_least=at_least)))
    return listed(parts)


def describe_scores(response: dict[str, Any]) -> str:
    """A score response written for a person."""
    lines = []
    for score in response["scores"]:
        cards = " ".join(score["cards"]) or _("(went out)")
        lines.append(
            _n(
                "{player}: {n} point  {cards}",
                "{player}: {n} points  {cards}",
                score["points"],
                player=score["player"],
                cards=cards,
            )
        )
    return "\n".join(lines) + "\n"

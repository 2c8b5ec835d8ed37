"""What every command of the library shares: answering wire requests from flags or
from JSON on stdin, the flags for rules, time limits and JSON modes, and exit codes.

A game's command module (``solver.<game>.cli``) registers its subcommands with an
``add_*_command`` function, a command answering wire requests runs as
:func:`answering` makes it; the parser itself is assembled by :mod:`solver.cli`
(and :mod:`meldwise.commands`), and :func:`dispatch` runs the chosen command, mapping a
:class:`~solver.errors.MeldwiseError` to exit code 2 for every command.
"""

from __future__ import annotations

import argparse
import codecs
import errno
import io
import json
import math
import os
import re
import signal
import sys
import unicodedata
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from enum import Enum
from itertools import pairwise
from pathlib import Path
from typing import Any, NoReturn, TextIO, TypeAlias

from solver.arena.runner import bot_list
from solver.cpsat import interruptible
from solver.errors import MeldwiseError
from solver.i18n import (
    LANGUAGES,
    N_,
    Nn_,
    _,
    alternatives,
    catalogue,
    current,
    from_environment,
    language,
    listed,
    tag_language,
)
from solver.wire import (
    MAX_TIME_LIMIT_MS,
    json_problem,
    listing,
    place,
    read_json,
    too_many_digits,
)
from solver.written import partition, split, typed, words

EXIT_BAD_INPUT = 2
"""The exit code of a command given bad input (the HTTP service's 422)."""

EXIT_INTERRUPTED = 128 + signal.SIGINT
"""The exit code of a command stopped by Ctrl-C (SIGINT), as a shell reports it."""

EXIT_BROKEN_PIPE = 128 + signal.SIGPIPE
"""The exit code of a command whose reader closed its output (``| head``), as a shell
reports a program that SIGPIPE ended."""

EXIT_UNWRITTEN = 1
"""The exit code of a command whose answer could not be written to standard output
(a full disk: ``> /dev/full``); what failed is said on stderr."""

_WRITE_FAILURES = (errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO)
"""The errors of writing standard output that :func:`dispatch` says rather than
raise: a command writes its files through :func:`write_file`, which says its own."""

MAX_INPUT_BYTES = 64 * 1024 * 1024
"""Most bytes a command reads for one request or record: a file, standard input, or
one ``--jsonl`` line (64 MiB; the HTTP service takes a record body of at most 16 MiB).
Beyond it the input is refused rather than read on: ``/dev/zero`` or an endless pipe
never ends, and was read until memory ran out."""

Handler = Callable[[Mapping[str, Any]], dict[str, Any]]
"""A wire function of the library: request dict in, response dict out."""

Commands: TypeAlias = "argparse._SubParsersAction[Parser]"  # noqa: SLF001
"""The subcommand parser that ``add_*_command`` functions register on."""

Run = Callable[[argparse.Namespace, TextIO, TextIO, TextIO], int]
"""A command: its parsed flags, stdin, stdout and stderr in, the exit code out (a
:class:`~solver.errors.MeldwiseError` it raises is bad input: see :func:`dispatch`)."""


ARGPARSE_ERRORS = (
    N_("%(prog)s: error: %(message)s\n"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("unrecognized arguments: %s"),
    N_("the following arguments are required: %s"),
    N_("one of the arguments %s is required"),
    N_("not allowed with argument %s"),
    N_("ignored explicit argument %r"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    Nn_("expected %s argument", "expected %s arguments"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("invalid %(type)s value: %(value)r"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
)
"""argparse's own words for a command line it cannot read (as Python 3.11's argparse
says them, with ``%`` placeholders it fills itself), in the catalogue so that they are
said in the language asked for (:func:`argparse_speaking`). Its other words (``usage:``
and the ``--help`` headings) stay English, as the help texts do."""


@contextmanager
def argparse_speaking() -> Iterator[None]:
    """argparse's own error messages in the active language inside the block: argparse
    asks gettext for them through its module's ``_`` and ``ngettext``, which look them
    up here in the active catalogue instead (a message it is not given stays English)."""
    words = catalogue(current())
    saved = {name: getattr(argparse, name) for name in ("_", "ngettext")}
    setattr(argparse, "_", words.gettext)  # noqa: B010 (a module global, not in the stubs)
    setattr(argparse, "ngettext", words.ngettext)  # noqa: B010
    try:
        yield
    finally:
        for name, function in saved.items():
            setattr(argparse, name, function)


def add_json_modes(parser: argparse.ArgumentParser) -> None:
    """``--json`` (one request on stdin, one response) and ``--jsonl`` (one per line)."""
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument(
        "--json", action="store_true", help="read one request from stdin, write one response"
    )
    mode.add_argument(
        "--jsonl", action="store_true", help="one request per stdin line, one response per line"
    )
    # What every flag is when not given, to tell those given (see flags_given).
    parser.set_defaults(flag_defaults=lambda: vars(parser.parse_args([])))


class Parser(argparse.ArgumentParser):
    """argparse's parser, where a flag that takes one value may be given once (see
    :class:`Once`), and whose errors show a byte of an argument that is not UTF-8 as
    ``\\xff``, as :func:`_check_arguments` names it (argparse said ``'\\udcff'``, Python's
    surrogate for it); its subcommands' parsers are of this class too."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.register("action", None, Once)
        self.register("action", "store", Once)
        self.register("action", "parsers", _Subcommands)

    def error(self, message: str) -> NoReturn:
        # An argument quoted as it was given (unrecognized arguments): its bytes.
        super().error(
            message.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
        )

    def _parse_known_args(self, arg_strings: list[str], *args: Any, **kwargs: Any) -> Any:
        # A command left out is said with the words not taken, rather than alone:
        # `meldwise --verison` said only that a command is required. Its subcommands
        # are not required during the parse, and checked once the extras are known.
        commands = [action for action in self._actions if isinstance(action, _Subcommands)]
        needed = [action for action in commands if action.required]
        for action in needed:
            action.required = False
        try:
            namespace, extras = super()._parse_known_args(arg_strings, *args, **kwargs)
        except argparse.ArgumentError as error:
            # A flag given a value it does not take (--json=VALUE, -hVALUE): argparse
            # quotes the rest of the word ("ignored explicit argument '\\udcff'").
            for word in arg_strings:
                for value in self._explicit_arguments(word):
                    error.message = _shown(error.message, value)
            raise
        finally:
            for action in needed:
                action.required = True
        if missing := [action for action in needed if getattr(namespace, action.dest) is None]:
            # Its choices, as the usage line shows them: argparse named the place by its
            # dest ("required: command", "required: action"), which nobody typed.
            said = _(
                "a command is needed: {commands}",
                commands=alternatives([str(choice) for choice in missing[0].choices or ()]),
            )
            if extras:
                said += "; " + _unrecognized(extras)
            self.error(said)
        return namespace, extras

    def _explicit_arguments(self, word: str) -> Iterator[str]:
        """What argparse may take for a value given inside the flag ``word`` and quote
        in an error, when it holds a byte not UTF-8: the rest after ``=``, or after
        each of a chain of one-letter flags (``-hVALUE``). Only those: quoting every
        rest of every word took time quadratic in its length (a 96 KB ``--rack`` beside
        a bad ``--objective``: 133 s before its one-line error)."""
        if not word.startswith("-") or _first_byte_not_utf8(word) is None:
            return
        if (equals := word.find("=")) >= 0:
            yield word[equals + 1 :]
        if word.startswith("--"):
            return
        for index in range(1, len(word)):
            if "-" + word[index] not in self._option_string_actions:
                return
            yield word[index + 1 :]

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        try:
            super()._check_value(action, value)
        except argparse.ArgumentError as error:
            raise _bytes_shown(error, action, value) from None

    def _get_value(self, action: argparse.Action, arg_string: str) -> Any:
        try:
            return super()._get_value(action, arg_string)
        except argparse.ArgumentError as error:
            raise _bytes_shown(error, action, arg_string) from None


class _Subcommands(argparse._SubParsersAction):  # type: ignore[type-arg]  # noqa: SLF001
    """argparse's subcommands, where the command chosen refuses a word it does not take
    itself, with its own usage (``meldwise solve: error: unrecognized arguments:
    --bogus``), as it refuses every other: argparse left such words to the parser of
    every command, which showed its usage (``meldwise [-h] [--lang {en,ja}] {solve,...}``)
    and said ``meldwise: error:``."""

    def __call__(self, *args: Any) -> None:
        super().__call__(*args)
        namespace, (name, *_words) = args[1], args[2]  # (parser, namespace, values)
        left = vars(namespace).pop(argparse._UNRECOGNIZED_ARGS_ATTR, None)  # noqa: SLF001
        if left:
            self._name_parser_map[name].error(_unrecognized(left))


def _unrecognized(words: Sequence[str]) -> str:
    """argparse's "unrecognized arguments: ..." for ``words``, in the language asked for
    (see argparse_speaking)."""
    said = getattr(argparse, "_")  # noqa: B009 (a module global, not in the stubs)
    return str(said("unrecognized arguments: %s") % " ".join(words))


_SURROGATE_ESCAPE = re.compile(r"(?<!\\)((?:\\\\)*)\\udc([89a-f][0-9a-f])")
"""A lone surrogate (a byte that was not UTF-8) as ``repr`` writes it, ``\\udcff``:
after an even number of backslashes, those ``repr`` writes for one."""


def _bytes_shown(
    error: argparse.ArgumentError, action: argparse.Action, value: object
) -> argparse.ArgumentError:
    """``error``, which quotes ``value`` as ``repr`` does, quoting it with its bytes
    that are not UTF-8 as ``\\xff``."""
    if not isinstance(value, str):
        return error
    return argparse.ArgumentError(action, _shown(error.message, value))


def _shown(message: str, value: str) -> str:
    """``message`` with ``value`` quoted in it as ``repr`` does (its bytes that are not
    UTF-8 as ``\\udcff``) quoted with those bytes as ``\\xff``."""
    if _first_byte_not_utf8(value) is None:
        return message
    quoted = repr(value)
    return message.replace(quoted, _SURROGATE_ESCAPE.sub(r"\1\\x\2", quoted))


class Once(argparse.Action):
    """Store a flag's value, refusing the flag given twice: argparse kept the last
    without a word (``--hand-number 1 --hand-number 2`` was hand 2)."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        given = vars(namespace).setdefault("_given_once", set())
        if self.dest in given:
            parser.error(_("{flag} is given twice; give it once", flag=option_string))
        given.add(self.dest)
        setattr(namespace, self.dest, values)


def flags_given(args: argparse.Namespace) -> list[str]:
    """The flags of a command with :func:`add_json_modes` given, but for the modes
    themselves and ``--lang``: those with a value other than their default, and those
    that take one value given at all, even their default's (``--objective tiles``
    beside a request saying points would lose without a word)."""
    defaults = args.flag_defaults()
    once = vars(args).get("_given_once", set())
    return [
        "--" + name.replace("_", "-")
        for name, value in vars(args).items()
        if name in defaults
        and name not in {"json", "jsonl", "lang"}
        and (value != defaults[name] or name in once)
    ]


def add_language_option(parser: argparse.ArgumentParser, every_command: bool = False) -> None:
    """``--lang``: the language of the answer and of error messages. On the parser of
    every command (``every_command``: ``meldwise --lang ja solve ...``) it speaks for
    whichever command follows, whose own ``--lang`` wins (see :func:`spoken`)."""
    locale = "from LANGUAGE, LC_ALL, LC_MESSAGES or LANG, e.g. LANG=ja_JP.UTF-8; else en"
    parser.add_argument(
        "--lang",
        dest=EVERY_COMMANDS_LANG if every_command else "lang",
        type=lambda tag: tag_language(tag) or tag,  # JA, ja-JP: ja, as a request's lang
        choices=LANGUAGES,
        default=None,
        help=(
            f"language of every command's answer: en or ja (a command's own --lang wins;"
            f" default: {locale})"
            if every_command
            else f"language of the answer: en or ja (default: {locale})"
        ),
    )


EVERY_COMMANDS_LANG = "every_commands_lang"
"""Where the parser of every command keeps its ``--lang`` (:func:`add_language_option`):
apart from a command's own, which would overwrite it with its default (None)."""


def spoken(own: str | None, every: str | None) -> str:
    """The language a command line speaks: the command's own ``--lang``, else the one
    given before the command's name (``meldwise --lang ja solve``), else the locale's
    (:func:`~solver.i18n.from_environment`). The one choice for argparse's usage errors
    (from the words, before they are parsed: :func:`_lang_flags`) and for the command."""
    return own or every or from_environment(os.environ)


def add_rule_flag(parser: argparse.ArgumentParser, example: str) -> None:
    """``--rule NAME=VALUE``, repeatable (see :func:`rules_from_flags`)."""
    _add_setting_flag(parser, "--rule", "a rule setting", example)


def add_option_flag(parser: argparse.ArgumentParser, example: str) -> None:
    """``--option NAME=VALUE``, repeatable: a game setting (see :func:`parse_options`)."""
    _add_setting_flag(parser, "--option", "a game setting", example)


def _add_setting_flag(
    parser: argparse.ArgumentParser, flag: str, meaning: str, example: str
) -> None:
    parser.add_argument(
        flag,
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help=f"{meaning}, e.g. {example} (repeatable, each NAME once)",
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


def add_time_limit_flag(
    parser: argparse.ArgumentParser,
    meaning: str,
    *,
    flag: str = "--time-limit",
    default: float = 2.0,
    highest_ms: int | None = MAX_TIME_LIMIT_MS,
) -> None:
    """``--time-limit SECONDS``, or another time limit ``flag`` (see :func:`time_limit_ms`),
    its help saying the range the command takes (0.001 s to ``highest_ms``; None: the
    ``meaning`` says it)."""
    said = f"{default:g}" if highest_ms is None else f"{default:g}; 0.001 to {highest_ms // 1000}"
    parser.add_argument(
        flag, type=Seconds, default=default, metavar="SECONDS", help=f"{meaning} ({said})"
    )


def add_request_flags(parser: argparse.ArgumentParser, time_limit: str | None = None) -> None:
    """The flags of a command that :func:`answering` runs: ``--time-limit`` (when
    ``time_limit`` says what it limits), ``--lang``, and ``--json`` / ``--jsonl``."""
    if time_limit is not None:
        add_time_limit_flag(parser, time_limit)
    add_language_option(parser)
    add_json_modes(parser)


def answering(
    handler: Handler,
    from_flags: Callable[[argparse.Namespace], dict[str, Any]],
    describe: Callable[[dict[str, Any]], str],
) -> Run:
    """The command that answers wire requests with ``handler`` (a dict-in, dict-out
    library function); every command with ``--json`` / ``--jsonl`` runs this way.

    ``--jsonl``: one request per stdin line, one JSON response per line, in order (a
    blank line gets none); a bad line answers ``{"error": ..., "line": its number}``
    and the batch goes on (exit 0). ``--json``: one request on stdin, one JSON
    response. Either refuses the other flags but ``--lang``: the request says it all.
    Otherwise the request is built from the flags by ``from_flags`` and the response
    written for a person by ``describe``.
    Bad input (not ``--jsonl``) raises, so exits 2 (see :func:`dispatch`).
    A request's own ``lang`` overrides the command's.
    """

    def run(args: argparse.Namespace, stdin: TextIO, stdout: TextIO, _stderr: TextIO) -> int:
        if (args.json or args.jsonl) and (given := flags_given(args)):
            # The request on stdin says all: a flag beside it would be ignored unseen.
            raise MeldwiseError(
                _(
                    "{mode} reads the request from stdin; leave out {flags}",
                    mode="--json" if args.json else "--jsonl",
                    flags=listed(given),
                )
            )
        if args.json or args.jsonl:
            stdout = json_output(stdout)
        if args.jsonl:
            for number, line in enumerate(_lines(stdin), 1):
                if line is not None and not line.strip():
                    continue
                try:
                    if line is None:
                        raise MeldwiseError(
                            _("the line is larger than {most} MiB", most=MAX_INPUT_BYTES >> 20)
                        )
                    answer = handler(load_request(line))
                except MeldwiseError as error:
                    # The line it answers: blank lines get no answer.
                    answer = {"error": str(error), "line": number}
                print(json_line(answer), file=stdout, flush=True)
        elif args.json:
            print(json_line(handler(load_request(read_stdin(stdin)))), file=stdout)
        else:
            stdout.write(describe(handler(from_flags(args))))
        return 0

    return run


def read_stdin(stdin: TextIO) -> str:
    """All of ``stdin``, or a :class:`MeldwiseError` once it holds more than
    :data:`MAX_INPUT_BYTES` (read no further) or cannot be read (:func:`_from_stdin`)."""
    text = _from_stdin(stdin.read, MAX_INPUT_BYTES + 1)
    if _over_the_cap(text):
        raise _unreadable_stdin(_too_large())
    return text


def _lines(stdin: TextIO) -> Iterator[str | None]:
    """The lines of ``stdin`` (``--jsonl``), each None that is over
    :data:`MAX_INPUT_BYTES`: said at once, and the rest of such a line is read past,
    never held."""
    while line := _from_stdin(stdin.readline, MAX_INPUT_BYTES + 1):
        if not _over_the_cap(line.removesuffix("\n")):
            yield line
            continue
        yield None
        while line and not line.endswith("\n"):
            line = _from_stdin(stdin.readline, MAX_INPUT_BYTES)


def _from_stdin(read: Callable[[int], str], size: int) -> str:
    """``read(size)`` of standard input, a :class:`MeldwiseError` saying that it cannot
    be read when the system fails it: an EIO (a terminal gone) was said as "cannot
    write standard output", the exit code of a write that failed."""
    try:
        return read(size)
    except OSError as error:
        raise _unreadable_stdin(os_problem(error)) from None


def _unreadable_stdin(problem: str) -> MeldwiseError:
    return MeldwiseError(_("cannot read standard input: {error}", error=problem))


def _over_the_cap(text: str) -> bool:
    """``text`` (read as :func:`dispatch` reads stdin: a byte that is not UTF-8 a lone
    surrogate) was more than :data:`MAX_INPUT_BYTES` bytes."""
    return len(text) > MAX_INPUT_BYTES or (
        len(text) * 4 > MAX_INPUT_BYTES
        and len(text.encode("utf-8", "surrogateescape")) > MAX_INPUT_BYTES
    )


def _too_large() -> str:
    """Why an input over :data:`MAX_INPUT_BYTES` is not read, after "cannot read X:"."""
    return _("it is larger than {most} MiB", most=MAX_INPUT_BYTES >> 20)


def load_request(text: str) -> Any:
    """One request decoded from JSON as the HTTP service reads a body (a key given
    twice refused: :func:`~solver.wire.read_json`), or a :class:`MeldwiseError`
    saying why not."""
    check_utf8(text)
    try:
        return read_json(text)
    except (json.JSONDecodeError, RecursionError) as error:
        if _blank(error):
            # --json's stdin, empty (a --jsonl line is never blank here): said as every
            # command says it, not "Expecting value at character 1".
            raise not_json("-", error) from None
        raise MeldwiseError(
            _("the request is not valid JSON: {error}", error=json_problem(error))
        ) from None


def check_utf8(text: str) -> None:
    """Raise :class:`MeldwiseError` naming the first byte of ``text`` (read from stdin,
    where a byte that is not UTF-8 is a lone surrogate: see :func:`dispatch`) that is
    not UTF-8, as the HTTP service names it in a body."""
    if (bad := _first_byte_not_utf8(text)) is not None:
        raise MeldwiseError(
            _(
                "the input is not valid UTF-8: byte 0x{byte:02x} at position {position}",
                byte=ord(text[bad]) - 0xDC00,
                # Counted from 1, as a JSON error's character is.
                position=len(text[:bad].encode("utf-8", "surrogateescape")) + 1,
            )
        )


class FileName(str):
    """The ``type`` of a command-line argument naming a file or folder: any name the
    system allows, one that is not UTF-8 too (as a :class:`~pathlib.Path` argument),
    which :func:`_check_arguments` refuses in every other argument. An empty name is a
    usage error: as a path it was the current folder (``meldwise review ''`` said
    "cannot read .") or, tested for truth, no file (``tournament --json ''`` wrote no
    report, without a word)."""

    __slots__ = ()

    def __new__(cls, name: str) -> FileName:
        if not name:
            raise argparse.ArgumentTypeError(_("the file name is empty"))
        return super().__new__(cls, name)


def file_path(name: str) -> Path:
    """The ``type`` of a command-line argument naming a file as a :class:`Path`: a
    :class:`FileName`, so an empty one is refused (``Path("")`` is the current folder)."""
    return Path(FileName(name))


_WHOLE = re.compile(r"[+-]?([0-9]+)")
"""A whole number as every flag reads one (:func:`whole_number`, :func:`setting_value`):
ASCII digits, a sign or not, typed full width too (:func:`_as_whole`)."""
# inf and nan too, as float() reads them: a time limit's range check says them.
_DECIMAL = re.compile(
    r"[+-]?(?:([0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?([0-9]+))?|inf|infinity|nan)", re.IGNORECASE
)


def whole_number(text: str) -> int:
    """The ``type`` of a command-line flag taking a whole number (``--seed``,
    ``--players``): ASCII digits with a sign or not, typed full width too, as
    ``--rule``/``--option`` read one. Not ``int()``: it read ``9_9`` as 99 and other
    scripts' digits. argparse says a refusal with the flag and the text as typed."""
    match = _as_whole(text)
    if match is None:
        raise argparse.ArgumentTypeError(_("must be a whole number, got {got!r:.60}", got=text))
    _check_digits(match.group(1))
    return int(match.group(0))


def _as_whole(text: str) -> re.Match[str] | None:
    """``text`` read as a whole number (:data:`_WHOLE`), typed full width or not: the
    number's text and its digits (group 1), or None."""
    return _WHOLE.fullmatch(typed(text).strip())


class Seconds(float):
    """The ``type`` of a time limit flag (``--time-limit``): a decimal number of ASCII
    digits (typed full width too), an exponent allowed, remembering the text as typed
    (:attr:`written`) for a refusal to quote (see :func:`seconds_text`). Not
    ``float()``: it read ``3_00`` as 300 and other scripts' digits, and ``1e-400`` as 0,
    which a refusal then quoted ("got 0")."""

    written: str

    def __new__(cls, text: str) -> Seconds:
        match = _DECIMAL.fullmatch(typed(text).strip())
        if match is None:
            raise argparse.ArgumentTypeError(_("must be a number, got {got!r:.60}", got=text))
        _check_digits((match.group(1) or "").replace(".", ""), match.group(2) or "")
        seconds = super().__new__(cls, match.group(0))
        seconds.written = text
        return seconds


def _check_digits(*numbers: str) -> None:
    """Refuse a number written with more than :data:`~solver.wire.MAX_DIGITS` digits
    (:func:`~solver.wire.too_many_digits`), as the JSON requests refuse one."""
    problem = too_many_digits(*numbers)
    if problem is not None:
        raise argparse.ArgumentTypeError(problem)


def _check_arguments(args: argparse.Namespace) -> None:
    """Raise :class:`MeldwiseError` naming a command-line argument that is not UTF-8
    (Python reads its bytes as lone surrogates, which an error would quote as
    ``'R\\udcff'``), by the byte, as :func:`check_utf8` does stdin. A file's name
    (a :class:`FileName` or :class:`~pathlib.Path`) is the system's, not text."""
    for value in vars(args).values():
        for word in value if isinstance(value, list) else [value]:
            if not isinstance(word, str) or isinstance(word, FileName):
                continue
            if (bad := _first_byte_not_utf8(word)) is not None:
                raise MeldwiseError(
                    _(
                        "the argument '{argument}' is not valid UTF-8: byte 0x{byte:02x}",
                        argument=word.encode("utf-8", "surrogateescape").decode(
                            "utf-8", "backslashreplace"
                        ),
                        byte=ord(word[bad]) - 0xDC00,
                    )
                )


def _first_byte_not_utf8(text: str) -> int | None:
    """Where the first byte that was not UTF-8 (read as a lone surrogate) lies in
    ``text``; None if every byte was."""
    return next((i for i, char in enumerate(text) if "\udc80" <= char <= "\udcff"), None)


def write_file(flag: str, path: Path | str, text: str) -> None:
    """Write ``text`` to ``path``, given with the file-writing ``flag``, as every such
    flag does: missing parent folders are made, and a path that cannot be written
    (a folder, no permission) is bad input naming the flag, not a traceback."""
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    except OSError as error:
        raise _unwritable(flag, path, error) from None


def ready_to_write(flag: str, path: Path | str, *, folder: bool = False) -> None:
    """Before a long run whose results go to ``path`` (a file, or with ``folder`` a
    folder of files), make the folders it needs and check that it can be written, so
    that a bad path is said at once rather than after the run (and its results lost).
    ``-`` is standard output to every command: one that takes it handles it before
    this, and here it is refused (a file named ``-`` was written)."""
    if str(path) == "-":
        raise MeldwiseError(
            _("{flag}: '-' (standard output) is not taken here; give a file name", flag=flag)
        )
    path = Path(path)
    where = path if folder else path.parent
    try:
        where.mkdir(parents=True, exist_ok=True)
        if not folder and path.is_dir():
            raise IsADirectoryError(errno.EISDIR, "is a folder", str(path))
        if not os.access(where, os.W_OK):
            raise PermissionError(errno.EACCES, "permission denied", str(where))
    except OSError as error:
        raise _unwritable(flag, path, error) from None


def _unwritable(flag: str, path: Path, error: OSError) -> MeldwiseError:
    return MeldwiseError(
        _(
            "{flag}: cannot write {path}: {error}",
            flag=flag,
            path=file_name(path),
            error=os_problem(error),
        )
    )


def read_file(path: Path | str) -> str:
    """The text of the UTF-8 file at ``path``; a file that cannot be read (missing, no
    permission, not UTF-8, more than :data:`MAX_INPUT_BYTES`) is bad input naming it,
    not a traceback."""
    path = Path(path)
    try:
        with path.open("rb") as file:
            data = file.read(MAX_INPUT_BYTES + 1)
        if len(data) > MAX_INPUT_BYTES:
            problem = _too_large()
        else:
            return data.decode("utf-8")
    except OSError as error:
        raise unreadable(path, error) from None
    except UnicodeDecodeError:
        problem = _("it is not UTF-8 text")
    raise MeldwiseError(_("cannot read {path}: {error}", path=file_name(path), error=problem))


def unreadable(path: Path | str, error: OSError) -> MeldwiseError:
    """The refusal of a file ``path`` the system would not read (``cannot read x.json:
    no such file or folder``), naming the reason in words (:func:`os_problem`)."""
    return MeldwiseError(
        _("cannot read {path}: {error}", path=file_name(path), error=os_problem(error))
    )


def read_json_file(path: str, stdin: TextIO) -> Any:
    """The JSON document in the file at ``path`` (``-``: ``stdin``), e.g. a game record
    to review; bad input (unreadable, not UTF-8, not JSON) is a :class:`MeldwiseError`
    naming the file and the place."""
    if path == "-":
        text = read_stdin(stdin)
        check_utf8(text)
    else:
        text = read_file(path)
    try:
        return read_json(text)
    except (json.JSONDecodeError, RecursionError) as error:
        raise not_json(path, error) from None


def not_json(path: Path | str, error: json.JSONDecodeError | RecursionError) -> MeldwiseError:
    """The refusal of the file ``path`` (``-``: standard input) whose text ``json``
    could not read (``error``), as every command says it: ``x.json is not valid JSON:
    Expecting value at character 28``; one with no JSON text at all (empty, or only
    blanks) ``standard input is empty: ...``, not "Expecting value at character 1"."""
    # "- is not valid JSON" named stdin by the flag's word for it. Standard input has
    # sentences of its own: Japanese puts a space after a file's name ("x.json が空です"),
    # none after 標準入力.
    blank = _blank(error)
    if path == "-":
        if blank:
            return MeldwiseError(_("standard input is empty: a JSON document was expected"))
        return MeldwiseError(
            _("standard input is not valid JSON: {error}", error=json_problem(error))
        )
    where = file_name(path)
    if blank:
        return MeldwiseError(_("{path} is empty: a JSON document was expected", path=where))
    return MeldwiseError(
        _("{path} is not valid JSON: {error}", path=where, error=json_problem(error))
    )


def _blank(error: json.JSONDecodeError | RecursionError) -> bool:
    """Whether the text ``json`` failed to read holds nothing but JSON's blanks."""
    return isinstance(error, json.JSONDecodeError) and not error.doc.strip(" \t\n\r")


def file_name(path: Path | str) -> str:
    """``path`` as a message names it: a byte of it that is not UTF-8 as ``\\xff``, as
    :func:`_check_arguments` names one (Python holds it as a lone surrogate, which
    stderr wrote as ``\\udcff``)."""
    return str(path).encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def os_problem(error: OSError) -> str:
    """Why the system refused a file, in the active language for the usual reasons (the
    system's own words, English, for the others)."""
    usual = {
        errno.ENOENT: lambda: _("no such file or folder"),
        errno.EACCES: lambda: _("permission denied"),
        errno.EPERM: lambda: _("permission denied"),
        errno.EISDIR: lambda: _("it is a folder"),
        errno.ENOTDIR: lambda: _("a part of the path is not a folder"),
        # Making the folders of a path where a file stands (write_file's mkdir).
        errno.EEXIST: lambda: _("a part of the path is not a folder"),
        errno.EROFS: lambda: _("the file system is read-only"),
        errno.ENOSPC: lambda: _("no space is left on the device"),
        errno.EIO: lambda: _("an input/output error"),
    }
    said = usual.get(error.errno) if error.errno is not None else None
    return said() if said is not None else str(error.strerror or error)


def players_from_flags(items: Sequence[str], flag: str, what: str) -> dict[str, list[str]]:
    """Repeated ``flag PLAYER=WHAT`` items (``--rack NAME=TILES``, ``--hand
    NAME=CARDS``) as each player's words; ``what`` is said in the active language, as
    the sentence around it is. Raises :class:`MeldwiseError` for an item
    without a name and for a player named twice: a dict would keep the second alone,
    and the HTTP service refuses a key given twice too."""
    named: dict[str, list[str]] = {}
    for item in items:
        name, sep, rest = partition(item, "=")
        if not sep or not name.strip():
            raise MeldwiseError(
                _("{flag} takes PLAYER={what}, got {item!r}", flag=flag, what=what, item=item)
            )
        if name.strip() in named:
            raise MeldwiseError(
                _("{flag} names the player {name!r} twice", flag=flag, name=name.strip())
            )
        named[name.strip()] = words(rest)
    return named


def bot_names(text: str) -> list[str]:
    """``--bots`` of ``game`` and ``tournament``: the comma-separated names by seat,
    each stripped, checked as the library checks a list of names
    (:func:`~solver.arena.runner.bot_list`: no name at all, ``''`` or ``' , '``, and an
    empty name among others, ``greedy,,strong``, are refused quoting the text); the
    command says ``'bots'`` as ``--bots`` (its :func:`fields_from_flags`)."""
    return bot_list(split(text, ","), given=text)


def rules_from_flags(items: Sequence[str]) -> dict[str, int | bool | str]:
    """``--rule NAME=VALUE`` flags as rule settings: a whole number, true or false, or a
    word (``joker_retrieval=replace``); the rules check the value."""
    rules: dict[str, int | bool | str] = {}
    for item in items:
        name, sep, value = partition(item, "=")
        # No name ("=3") was "unknown rule ''", as --option says NAME=VALUE of it.
        if not sep or not value.strip() or not name.strip():
            raise MeldwiseError(_("--rule takes NAME=NUMBER or NAME=WORD, got {item!r}", item=item))
        _set_once(rules, name.strip(), setting_value(value, "--rule"), "--rule")
    return rules


def _set_once(
    settings: dict[str, Any], key: str, value: Any, flag: str, name: str | None = None
) -> None:
    """``settings[key] = value``, refusing a setting that ``flag`` gave before (as
    ``name``, by default ``key``): the dict kept the last alone (``--rule jokers=2
    --rule jokers=3`` was 3 jokers)."""
    if key in settings:
        raise MeldwiseError(
            _("{flag} sets {name!r} twice; give it once", flag=flag, name=name or key)
        )
    settings[key] = value


def parse_options(items: list[str]) -> dict[str, Any]:
    """``--option`` values as game settings: ``NAME=VALUE`` (read as
    :func:`setting_value` reads it) and ``rules.NAME=VALUE`` into the nested rule
    settings."""
    options: dict[str, Any] = {}
    for item in items:
        name, sep, text = partition(item, "=")
        name = name.strip()
        # "rules.=3" names no rule: it was "unknown rule ''".
        if not sep or not name.removeprefix("rules.").strip():
            raise MeldwiseError(_("--option takes NAME=VALUE, got {item!r}", item=item))
        if name == "rules":
            # Refused later as "--option rules: rules must be an object of settings,
            # got 2", which did not say how to set a rule.
            raise MeldwiseError(
                _(
                    "--option sets a rule as rules.NAME=VALUE (e.g. rules.jokers=4), got {item!r}",
                    item=item,
                )
            )
        value = setting_value(text, "--option")
        if not name.startswith("rules."):
            _set_once(options, name, value, "--option")
            continue
        # "rules" is a dict: rules=2 is refused above (it was a traceback before
        # rules.jokers=3, a number having no settings).
        rules = options.setdefault("rules", {})
        _set_once(rules, name.removeprefix("rules."), value, "--option", name)
    return options


def sizes_from_flag(
    text: str,
    flag: str,
    *,
    empty: Callable[[], str],
    bad: Callable[[str], str],
    mark: str = "",
) -> list[tuple[int, bool]]:
    """The sizes a flag lists (``--opponents 9o,14``, ``--sets 3,3``): whole numbers
    between commas or spaces, their digits and commas typed full width too (U+FF19,
    U+FF0C), each with ``mark`` after it or not (``9o``: an opponent who has opened),
    as (size, marked). Raises :class:`MeldwiseError` saying ``empty()`` for an empty
    size (``9,,14`` was read as two, ``""`` as none), ``bad(word)`` for a word that is
    not a size, and naming ``flag`` for a number of more than
    :data:`~solver.wire.MAX_DIGITS` digits (a ValueError traceback past 4,300)."""
    if not all(words(piece) for piece in split(text, ",")):
        raise MeldwiseError(empty())
    sizes = []
    for word in words(text):
        written = typed(word)
        # ASCII digits alone: isdigit() passes other scripts' ("\u0663"), and once
        # passed "³", which int() refuses.
        number = written.removesuffix(mark)
        if not (number.isascii() and number.isdigit()):
            raise MeldwiseError(bad(word))
        _check_flag_digits(flag, number)
        sizes.append((int(number), number != written))
    return sizes


def setting_value(text: str, flag: str) -> int | bool | str:
    """A setting's value as ``--rule`` and ``--option`` (``flag``) write it: a whole
    number (ASCII digits, typed full width too), true or false, else the word itself;
    whoever reads the setting checks the value. Raises :class:`MeldwiseError` naming
    ``flag`` for a number of more than :data:`~solver.wire.MAX_DIGITS` digits."""
    word = text.strip()
    # Not int() alone: it read "1_0" as 10 and other scripts' digits, and refused a
    # number past 4,300 digits, which was then said not to be a whole number.
    match = _as_whole(word)
    if match is None:
        return {"true": True, "false": False}.get(word, word)
    _check_flag_digits(flag, match.group(1))
    return int(match.group(0))


def _check_flag_digits(flag: str, number: str) -> None:
    """Refuse, naming ``flag``, a number whose digits ``number`` are too many
    (:func:`~solver.wire.too_many_digits`), before ``int()``, which refuses one past
    4,300 digits."""
    problem = too_many_digits(number)
    if problem is not None:
        raise MeldwiseError(_("{where}: {problem}", where=flag, problem=problem))


def in_range(flag: str, value: int, least: int, most: int | None = None) -> int:
    """``value``, a whole number ``flag`` gave (a count, a seed), when it is ``least`` to
    ``most`` (no upper bound when None); else a :class:`MeldwiseError` naming the flag
    and the bound missed, quoting the value."""
    if value < least:
        raise MeldwiseError(
            _("{flag} must be at least {least}, got {value}", flag=flag, least=least, value=value)
        )
    if most is not None and value > most:
        raise MeldwiseError(
            _("{flag} must be at most {most}, got {value}", flag=flag, most=most, value=value)
        )
    return value


def time_limit_ms(
    seconds: float,
    highest_ms: int = MAX_TIME_LIMIT_MS,
    *,
    flag: str = "--time-limit",
    zero_skips: bool = False,
) -> int:
    """``--time-limit`` (or another time limit ``flag``) in the milliseconds of a
    request, whose field takes 1 to ``highest_ms``, and 0 too with ``zero_skips`` (a
    stage the request skips). The range is checked on the seconds given, before
    rounding: ``round`` raises on NaN and the infinities, and a positive time below
    1 ms rounded to 0, which skipped the stage it was to limit without a word."""
    if zero_skips and seconds == 0:
        return 0
    if not 0.001 <= seconds <= highest_ms / 1000:
        fields = {"flag": flag, "highest": highest_ms // 1000, "seconds": seconds_text(seconds)}
        if zero_skips:
            raise MeldwiseError(
                _(
                    "{flag} must be 0 or between {lowest:g} and {highest} seconds, got {seconds}",
                    lowest=0.001,
                    **fields,
                )
            )
        raise MeldwiseError(
            _(
                "{flag} must be between {lowest:g} and {highest} seconds, got {seconds}",
                lowest=0.001,
                **fields,
            )
        )
    return round(seconds * 1000)


def seconds_text(seconds: float) -> str:
    """``seconds`` as typed (:class:`Seconds`: ``1e-400``, read as 0), else written
    short (``0.5``, ``1e+09``) but as given: ``:g`` alone keeps six digits, and an error
    said "must be between 0.001 and 300 seconds, got 300" of ``--time-limit 300.0001``."""
    if isinstance(seconds, Seconds):
        return seconds.written
    short = f"{seconds:g}"
    return short if math.isnan(seconds) or float(short) == seconds else repr(seconds)


def seat_text(seat: int, name: str | None) -> str:
    """A seat as a review names it: "Player 1 (bob)", or "Player 1" without a name."""
    if name:
        return _("Player {seat} ({name})", seat=seat, name=name)
    return _("Player {seat}", seat=seat)


def no_turns(seat: int, name: str | None) -> str:
    """A review's summary line of a seat with no turn in the record (either game's): a
    hand, or the record, ended before its turn came."""
    return _("{player}: no turns in the record", player=seat_text(seat, name))


def nothing_to_review(chosen: int | None, name: str | None = None) -> str:
    """What a game review with no turn says (either game's): ``chosen`` the seat whose
    turns alone were asked for, ``name`` its name in the record."""
    if chosen is not None:
        # "No turns to review." read as if the record had none; the seat is named as the
        # summary names it ("Player 2 (bob)"), which said "Player 2" alone here.
        return _(
            "{player} has no turns in the record: nothing to review.",
            player=seat_text(chosen, name),
        )
    return _("No turns to review.")


def capped_note() -> str:
    """Said when a time limit stopped a search (an advice's or a review's, either
    game's): the answer then holds what that search had found when the clock stopped
    it, not necessarily what the fixed work bound gives on any machine (what a search
    to that bound would find is not known: none was run)."""
    return _(
        "The time limit, not the fixed work bound, cut a search short: the answer holds"
        " what that search had found by then."
    )


def status_text(status: str) -> str:
    """A response's ``status`` for a person."""
    names = {
        "optimal": _("optimal"),
        "feasible": _("feasible (a search stopped at its limit; the best found)"),
        "unknown": _("unknown (a search stopped at its limit before anything was found)"),
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
    its ``--lang`` (a command without one, or none given: the locale's language).

    Bad input, a :class:`~solver.errors.MeldwiseError` out of any command, prints
    ``error: ...`` on stderr and exits with :data:`EXIT_BAD_INPUT`: the one place the
    error hierarchy meets the exit code, as :mod:`api.errors` is for HTTP's 422."""
    for name, mode in (("stdin", "r"), ("stdout", "w"), ("stderr", "w")):
        if getattr(sys, name) is None:
            # A stream the shell closed (``<&-``, ``>&-``), which Python leaves None: read
            # as empty, written to nowhere; it was an AttributeError traceback.
            setattr(sys, name, open(os.devnull, mode, encoding="utf-8"))  # noqa: SIM115
    for stream in (sys.stdout, sys.stderr):
        # A terminal that cannot show a character (an ASCII locale, a Japanese answer)
        # gets it escaped, not a UnicodeEncodeError traceback (the C locale's
        # surrogateescape raises it too).
        if isinstance(stream, io.TextIOWrapper) and stream.errors in ("strict", "surrogateescape"):
            stream.reconfigure(errors="backslashreplace")
    if isinstance(sys.stdin, io.TextIOWrapper) and not sys.stdin.isatty():
        # Requests and records on stdin are JSON, so UTF-8 whatever the locale says; a
        # byte that is not becomes a lone surrogate, which the readers refuse by name.
        sys.stdin.reconfigure(encoding="utf-8", errors="surrogateescape")
    words = sys.argv[1:] if argv is None else list(argv)
    # Usage errors (argparse's own, and a flag given twice) in the language asked for.
    with language(spoken(*_lang_flags(words))):
        with argparse_speaking():
            args = parser.parse_args(words)
        try:
            _check_arguments(args)
        except MeldwiseError as error:
            return _refuse(error, {})
    run: Run = args.handler
    said_in = spoken(getattr(args, "lang", None), getattr(args, EVERY_COMMANDS_LANG, None))
    with language(said_in), interruptible():
        try:
            code = run(args, sys.stdin, sys.stdout, sys.stderr)
            sys.stdout.flush()  # a write that fails, here: not as Python exits
            return code
        except MeldwiseError as error:
            return _refuse(error, _flags_of(args))
        except KeyboardInterrupt:
            return EXIT_INTERRUPTED  # Ctrl-C: no traceback, as a shell reports SIGINT
        except BrokenPipeError:
            # The reader left (``| head``): no traceback. Python flushes stdout again
            # as it exits, so the rest goes nowhere.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return EXIT_BROKEN_PIPE
        except OSError as error:
            if error.errno not in _WRITE_FAILURES:
                raise
            # > /dev/full was an OSError traceback.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            problem = _(
                "cannot write {path}: {error}", path=_("standard output"), error=os_problem(error)
            )
            print(_("error: {message}", message=problem), file=sys.stderr)
            return EXIT_UNWRITTEN


def _refuse(error: MeldwiseError, flags: Mapping[str, str]) -> int:
    """Say ``error`` on stderr, in the language its message was written in (a
    request's ``lang`` may differ from the command line's), naming the flag a request
    field came from (``flags``, see :func:`in_flags`): the exit code of bad input."""
    with language(error.lang):
        print(_("error: {message}", message=in_flags(error, flags)), file=sys.stderr)
    return EXIT_BAD_INPUT


def fields_from_flags(parser: argparse.ArgumentParser, flags: Mapping[str, str]) -> None:
    """Declare which flag of ``parser``'s command gives each of a request's fields
    (``{"seed": "--seed"}``): a refusal quoting the field names the flag instead
    (:func:`in_flags`), unless the request came whole with ``--json``/``--jsonl``.
    A field whose keys each come from one use of a flag (a player's rack from ``--rack
    bob=...``) is declared as ``"racks.*": "--rack {}"``: its places are said as the flag
    with the key (``--rack bob``)."""
    parser.set_defaults(fields_from_flags=dict(flags))


def _flags_of(args: argparse.Namespace) -> Mapping[str, str]:
    """The fields the command's flags gave (:func:`fields_from_flags`): none when the
    request came on stdin (``--json``/``--jsonl`` of :func:`add_json_modes`)."""
    if getattr(args, "jsonl", False) or (hasattr(args, "jsonl") and args.json):
        return {}
    flags: Mapping[str, str] = getattr(args, "fields_from_flags", {})
    return flags


def in_flags(error: MeldwiseError, flags: Mapping[str, str]) -> str:
    """``error``'s message with each request field it quotes (its
    :attr:`~solver.errors.MeldwiseError.places`: ``'seed'``, ``'opponents[0].rack_size'``)
    that came from a flag replaced by the flag (``--seed``, ``--opponents``): a person at
    the command line wrote the flag, not the field; a place it is about without quoting
    it (quoted as ``""``) is said as its flag before it. ``flags`` maps a field, or a place
    in one (``next_player.took``), to its flag; the longest that holds the place is
    said. A field no flag gives keeps its name, in every language (it is not translated).
    Of the problems an error lists (:attr:`~solver.errors.MeldwiseError.parts`), one said
    alike of two fields from one flag is said once (``--opponents 0,0`` said "--opponents
    must be at least 1, got 0" twice), and those left unlisted are counted once each
    (``--opponents 0,0,0,0,0,0`` said it, then "and 1 more" of the same)."""
    # Without flags (a request on stdin) its message stands: it names the fields as
    # the request does, each problem said as it is.
    if error.parts and flags:
        return listing(list(dict.fromkeys(in_flags(part, flags) for part in error.parts)))
    message = str(error)
    start = 0
    said = set()  # the flags the message says by now
    for where, shown in error.places:
        if not shown:  # a place the message is about without quoting it
            # Said once: a set's place within a field the message names (table_before[1]
            # of "table_before: table set 1 ...") read "--before: --before: table set 1".
            if (flag := _flag_of(where, flags)) is not None and flag not in said:
                length = len(message)
                message = _("{where}: {problem}", where=flag, problem=message)
                start += len(message) - length
                said.add(flag)
            continue
        at = message.find(shown, start)
        if at < 0:
            continue
        flag = _flag_of(where, flags) or shown
        message = message[:at] + flag + message[at + len(shown) :]
        start = at + len(flag)
        said.add(flag)
    return message


def _flag_of(where: tuple[int | str, ...], flags: Mapping[str, str]) -> str | None:
    """The flag that gave the place ``where`` of a request, if ``flags`` (see
    :func:`fields_from_flags`) name one: the longest field or place holding it."""
    for n in range(len(where), 0, -1):
        if (field := place(where[:n])) in flags:
            return flags[field]
        if n > 1 and (keyed := f"{place(where[: n - 1])}.*") in flags:
            key = str(where[n - 1])[:40]
            # Quoted when a person could misread it: a space, or a character not seen.
            return flags[keyed].format(key if key.isprintable() and " " not in key else repr(key))
    return None


def _lang_flags(words: Sequence[str]) -> tuple[str | None, str | None]:
    """The languages a command line asks for before it is parsed (see :func:`_lang_flag`):
    the command's own ``--lang``, and the one before the command's name, where the
    parser of every command takes nothing but ``--lang`` and ``-h``."""
    at = 0  # the command's name: the first word that is no flag and no --lang's value
    while at < len(words) and words[at].startswith("-"):
        flag, equals, _value = words[at].partition("=")
        at += 1 + (not equals and _is_lang(flag))
    return _lang_flag(words[at:]), _lang_flag(words[:at])


def _is_lang(flag: str) -> bool:
    """Whether argparse reads ``flag`` as ``--lang``, also abbreviated (``--la``): no
    other flag begins with ``--l``."""
    return len(flag) >= len("--l") and "--lang".startswith(flag)


def _lang_flag(words: Sequence[str]) -> str | None:
    """The language ``words`` ask for with ``--lang`` before they are parsed, also
    written as argparse reads it abbreviated (``--la ja``, ``--lan=ja``). None when two
    ``--lang`` ask for different languages: the refusal of the flag given twice is said
    as with no ``--lang`` there (in the one before the command's name, else the
    locale's: the first one's was taken, so ``--lang ja --lang en`` was refused in
    Japanese)."""
    asked = set()
    # Each word with the one after it (the last with ""); an empty command line has none.
    for word, after in pairwise([*words, ""]):
        flag, equals, value = word.partition("=")
        if not _is_lang(flag):
            continue
        lang = tag_language(value if equals else after)
        if lang is not None:
            asked.add(lang)
    return asked.pop() if len(asked) == 1 else None


def json_output(stdout: TextIO) -> TextIO:
    """``stdout`` to write JSON to (``--json``, ``--jsonl``, ``review --json``): in UTF-8
    whatever the locale's encoding, as the requests on stdin are read, for JSON between
    programs is UTF-8 (RFC 8259). In a locale of another encoding (``ja_JP.eucJP``,
    Latin-1) it was written in that one, which a reader of JSON could not decode, and
    what that one cannot write was escaped as ``\\U0001f600``, which is no JSON."""
    if isinstance(stdout, io.TextIOWrapper) and codecs.lookup(stdout.encoding).name != "utf-8":
        stdout.reconfigure(encoding="utf-8", errors=stdout.errors)
    return stdout


def json_line(answer: Any) -> str:
    """An answer as one line of JSON, its text as it reads (Japanese is not ``\\u``
    escapes); a lone surrogate an error quotes is written as its JSON escape."""
    text = json.dumps(answer, ensure_ascii=False)
    return text.encode("utf-8", "backslashreplace").decode("utf-8")

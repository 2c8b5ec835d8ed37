"""The wire contract's common ground: base models, reading a request, and errors.

Each game defines its requests and responses once, as pydantic models in its
``wire`` module; the dict API, the CLI's ``--json``/``--jsonl`` and the HTTP
service all read requests with them. The rules every request model follows live
here, once:

* an unknown field is refused, naming it and the fields there are;
* null means absent for every optional field (it takes its default);
* JSON text is read strictly (:func:`read_json`), by the CLI and the HTTP service
  alike: a key given twice in one object is refused, not silently replaced;
* pydantic's errors become one :class:`~solver.errors.MeldwiseError` whose message
  names the culprit's place (``rack[2]``, ``table[0].cards``) and the bad value
  (:func:`request_error`), the same for the library and the HTTP service.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Self, TypeVar

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    GetCoreSchemaHandler,
    GetJsonSchemaHandler,
    ModelWrapValidatorHandler,
    ValidationError,
    WithJsonSchema,
    model_validator,
)
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import ErrorDetails, core_schema

from solver.errors import MeldwiseError, RequestError, quoted
from solver.i18n import (
    LANGUAGES,
    N_,
    _,
    _p,
    alternatives,
    check_language,
    clauses,
    language,
    listed,
    tag_language,
)
from solver.settings import FEWEST_PLAYERS

MAX_LISTED = 5
"""Most problems named in one error message."""

MAX_TIME_LIMIT_MS = 300_000
"""The longest time limit a request may ask for, in milliseconds."""

MAX_DIGITS = 20
"""Longest number a request may hold: every number of the wire contract fits easily."""

M = TypeVar("M", bound="Request")

_KEEP_OUTSIDE = ("title", "description", "default", "examples")
"""Keys of a property's JSON schema that stay beside ``anyOf`` when it becomes nullable."""


class Request(BaseModel):
    """Base of every request model: unknown fields refused, null taken as absent."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    @model_validator(mode="before")
    @classmethod
    def _null_means_absent(cls, data: Any) -> Any:
        if not isinstance(data, Mapping):
            return data  # pydantic names the type
        fields = cls.model_fields
        names = {info.alias or name: info for name, info in fields.items()}
        for key in data:
            if key not in names:
                raise UnknownField.at((), str(key), tuple(names))
        return {
            key: value
            for key, value in data.items()
            if value is not None or names[key].is_required()
        }

    @classmethod
    def __get_pydantic_json_schema__(
        cls, schema: core_schema.CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        """The JSON schema says what :meth:`_null_means_absent` does: every optional
        field may be null."""
        found = handler.resolve_ref_schema(handler(schema))
        required = set(found.get("required", ()))
        for name, prop in found.get("properties", {}).items():
            if name in required or {"type": "null"} in prop.get("anyOf", ()):
                continue
            inner = {key: value for key, value in prop.items() if key not in _KEEP_OUTSIDE}
            outer = {key: value for key, value in prop.items() if key in _KEEP_OUTSIDE}
            found["properties"][name] = {"anyOf": [inner, {"type": "null"}], **outer}
        return found


LANG_PATTERN = "^({})(-[A-Za-z0-9]{{1,8}})*$".format(
    "|".join("".join(f"[{c}{c.upper()}]" for c in code) for code in LANGUAGES)
)
"""The tags :func:`solver.i18n.tag_language` reads, as a JSON schema's pattern (which
has no flag for any case): en or ja in any case, subtags after it (``ja-JP``)."""

LangCode = Annotated[
    str,
    AfterValidator(check_language),
    WithJsonSchema({"type": "string", "pattern": LANG_PATTERN, "examples": list(LANGUAGES)}),
]
Lang = Annotated[
    LangCode | None,
    Field(
        description="language of every text in the answer, error details included: en or ja, "
        "a language tag read as Accept-Language reads one (any case, subtags such as a "
        "region allowed: JA, ja-JP) (default: over HTTP the Accept-Language header's "
        "choice, else en); nothing else changes",
    ),
]


def bots_by_seat(most: int) -> BeforeValidator:
    """The check of a game request's ``bots``, one bot name per seat of a game of
    :data:`~solver.settings.FEWEST_PLAYERS` to ``most`` seats, for both games: their
    count said of what it counts (pydantic's own "'bots' must hold at least 2, got 1"
    left a first-time user to guess). The field declares the same bounds for the schema
    (``Field(min_length=FEWEST_PLAYERS, max_length=most)``)."""

    def counted(names: Any) -> Any:
        if isinstance(names, list) and not FEWEST_PLAYERS <= len(names) <= most:
            shown = [f"{quoted(name)!s:.40}" for name in names[:MAX_SEATS_SHOWN]]
            raise RequestError(
                _(
                    "give one bot per seat, {least} to {most} bots (e.g. strong and greedy);"
                    " got {n}: {bots}",
                    least=FEWEST_PLAYERS,
                    most=most,
                    n=len(names),
                    bots=listed(shown + ["..."] * (len(names) > MAX_SEATS_SHOWN)),
                )
            )
        return names

    return BeforeValidator(counted)


MAX_SEATS_SHOWN = 10
"""Most bot names quoted when a game request names too many."""


class Spoken(Request):
    """Base of a wire function's request, read in the request's own language; each
    declares ``lang: Lang = None`` (last, after the game's fields), the language the
    answer is written in (:func:`solver.i18n.speaks`).

    A check across fields goes in :meth:`check_request`, not in a model validator of
    the subclass: pydantic runs a subclass's ``after`` and ``wrap`` validators around
    this base's, so outside the request's language (over HTTP, where the body is read
    before any language is set from it, a Japanese request was refused in English)."""

    @model_validator(mode="wrap")
    @classmethod
    def _read_in_its_language(cls, data: Any, handler: ModelWrapValidatorHandler[Self]) -> Self:
        # A tile or a setting the request gets wrong is named in the request's language.
        lang = data.get("lang") if isinstance(data, Mapping) else None
        with language(tag_language(lang)):
            read = handler(data)
            read.check_request()
            return read

    def check_request(self) -> None:
        """Raise a :class:`~solver.errors.MeldwiseError` (a ``ValueError``, which
        pydantic reports as the request's error) if the fields, each valid, do not
        go together; called in the request's language once they are read. A subclass
        that checks calls ``super().check_request()`` first."""


class UnknownField(RequestError):
    """A field a request model does not have; :func:`describe` names it by its full
    place (``next_player.x``), with the fields there are."""

    def __init__(self, message: str, name: str = "", known: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.name, self.known = name, tuple(known)

    @classmethod
    def at(cls, where: Sequence[int | str], name: str, known: Sequence[str]) -> UnknownField:
        """The field ``name`` at ``where`` in a request, where ``known`` are the fields."""
        message = _(
            "unknown field {name!r:.60}; fields are {known}",
            name=place([*where, name]),
            known=listed(known),
        )
        return cls(message, name, known)


class Answer(BaseModel):
    """Base of every response model: exactly the fields it declares."""

    model_config = ConfigDict(extra="forbid")


class NotJSON(RequestError):
    """Text that Python's ``json`` reads but that is no JSON: ``NaN``, ``Infinity``."""


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            shown = key if len(key) <= 40 else key[:39] + "…"
            raise RequestError(_("the key {key!r} is given twice in one object", key=shown))
        result[key] = value
    return result


def _integer(text: str) -> int:
    problem = too_many_digits(text.lstrip("-"))
    if problem is not None:
        raise RequestError(problem)
    return int(text)


def too_many_digits(*numbers: str) -> str | None:
    """The refusal of a number written with more than :data:`MAX_DIGITS` digits, leading
    zeros aside, in any of ``numbers`` (its digits, without a sign: a decimal's and its
    exponent's); None when none has. A request's JSON and the command line's number
    flags refuse one alike."""
    digits = max(len(number.lstrip("0")) for number in numbers)
    if digits <= MAX_DIGITS:
        return None
    return _(
        "a number has {digits} digits; at most {most} are accepted",
        digits=digits,
        most=MAX_DIGITS,
    )


def _decimal(text: str) -> float:
    """A JSON number with a fraction or an exponent: refused by its digits as an integer
    is (a long one was said to be out of range, which 1.111... is not), and out of a
    float's range either way: too large, or so small that it would be read as 0 (and
    quoted so: "got 0.0")."""
    mantissa, _e, exponent = text.lstrip("-").lower().partition("e")
    problem = too_many_digits(mantissa.replace(".", ""), exponent.lstrip("+-"))
    if problem is not None:
        raise RequestError(problem)
    value = float(text)
    underflow = value == 0 and mantissa.strip("0.") != ""
    if value in (float("inf"), float("-inf")) or underflow:
        shown = text if len(text) <= 30 else text[:29] + "…"  # zeros before the digits
        raise RequestError(_("the number {number!r} is out of range", number=shown))
    return value


def _constant(name: str) -> Any:
    raise NotJSON(_("{name} is not a JSON value", name=name))


_JSON_REASONS: dict[str, Callable[[], str]] = {
    "Expecting value": lambda: _("Expecting value"),
    "Expecting property name enclosed in double quotes": lambda: _(
        "Expecting property name enclosed in double quotes"
    ),
    "Expecting ':' delimiter": lambda: _("Expecting ':' delimiter"),
    "Expecting ',' delimiter": lambda: _("Expecting ',' delimiter"),
    "Extra data": lambda: _("Extra data"),
    "Unterminated string starting at": lambda: _("Unterminated string starting"),
    "Invalid control character at": lambda: _("Invalid control character"),
    "Invalid \\escape": lambda: _("Invalid \\escape"),
    "Invalid \\uXXXX escape": lambda: _("Invalid \\uXXXX escape"),
    "Illegal trailing comma before end of object": lambda: _(
        "Illegal trailing comma before end of object"
    ),
    "Illegal trailing comma before end of array": lambda: _(
        "Illegal trailing comma before end of array"
    ),
}
"""What the standard library's JSON parser says (``JSONDecodeError.msg``), in the
active language; each is followed by "at character N"."""


def json_reason(error: json.JSONDecodeError) -> str | None:
    """The reason of a syntax error of :func:`read_json` in the active language, or
    None for one the table lacks (from another Python): left out, not given in English."""
    reason = _JSON_REASONS.get(error.msg)
    return None if reason is None else reason()


def json_problem(error: json.JSONDecodeError | RecursionError) -> str:
    """What :func:`read_json` found wrong with a text (its syntax error, or nesting too
    deep), in the active language; characters are counted from 1, and in a text of
    several lines (a record or a file, as an editor shows it) by line and column."""
    if isinstance(error, RecursionError):
        return _("arrays and objects nest too deeply")
    if "\n" in error.doc:
        where = _("line {line}, column {column}", line=error.lineno, column=error.colno)
    else:
        where = _("character {where}", where=error.pos + 1)
    reason = json_reason(error)
    if reason is None:
        return _("at {where}", where=where)
    return _("{reason} at {where}", reason=reason, where=where)


def read_json(text: str) -> Any:
    """The JSON value of ``text``, read strictly as every request is (the CLI's
    ``--json``/``--jsonl``, the HTTP service's bodies): a key given twice in one
    object, or a number of more than :data:`MAX_DIGITS` digits or out of a float's
    range, raises :class:`RequestError` naming it; ``NaN`` or ``Infinity``
    :class:`NotJSON`. A syntax error raises ``json.JSONDecodeError`` and nesting too
    deep ``RecursionError``, for the caller to word. A leading byte order mark is
    ignored, as RFC 8259 allows (some Windows editors write one)."""
    return json.loads(
        text.removeprefix("\ufeff"),
        object_pairs_hook=_object,
        parse_int=_integer,
        parse_float=_decimal,
        parse_constant=_constant,
    )


def whole_number(value: Any) -> Any:
    """``value``, or the whole number it is when it is a decimal whose value is whole:
    JSON does not tell 100 from 100.0 or 1e2 (RFC 8259; JavaScript cannot), so wherever a
    whole number is asked they are 100 (they were refused as "must be a whole number,
    got 100.0"); 1.5 stays as it is, for the field to refuse, as does a whole value of
    more than :data:`MAX_DIGITS` digits (1e300), which the field then refuses, named,
    as too long (:func:`pydantic_problem`)."""
    if isinstance(value, float) and value.is_integer():
        whole = int(value)
        if too_many_digits(str(abs(whole))) is None:
            return whole
    return value


def whole_numbers(data: Any) -> Any:
    """``data`` (a request, as JSON decodes it) with every decimal whose value is whole
    read as that whole number (:func:`whole_number`), in objects and arrays at any
    depth: the one reading of a number for every field, rule setting and record. Read
    without recursion: an array nested a thousand deep is the field's to refuse.
    ``data`` itself when it holds no decimal (nearly every request): not copied."""
    if not _holds_a_float(data):
        return data
    read = _shell(data)
    unread = [(data, read)]
    while unread:
        given, copy = unread.pop()
        if isinstance(given, Mapping) and isinstance(copy, dict):
            for key, value in given.items():
                copy[key] = _shell(value)
                unread.append((value, copy[key]))
        elif isinstance(given, list | tuple) and isinstance(copy, list):
            copy.extend(_shell(value) for value in given)
            unread.extend(zip(given, copy, strict=True))
    return read


def _holds_a_float(data: Any) -> bool:
    """Whether ``data`` holds a decimal in its objects and arrays at any depth (walked
    without recursion, as :func:`whole_numbers` walks them)."""
    unread = [data]
    while unread:
        given = unread.pop()
        if isinstance(given, Mapping):
            given = given.values()
        elif not isinstance(given, list | tuple):
            if isinstance(given, float):
                return True
            continue
        for value in given:
            if isinstance(value, float):
                return True
            if not isinstance(value, str | int):
                unread.append(value)
    return False


def _shell(value: Any) -> Any:
    """An empty dict or list for an object or an array (:func:`whole_numbers` fills
    it), else the value read (:func:`whole_number`)."""
    if isinstance(value, Mapping):
        return {}
    if isinstance(value, list | tuple):
        return []
    return whole_number(value)


def read(model: type[M], request: Any) -> M:
    """``request`` (a mapping, as JSON decodes it) read as ``model``, or a
    :class:`~solver.errors.MeldwiseError` naming what is wrong; a decimal whose value is
    whole is that whole number (:func:`whole_numbers`)."""
    if isinstance(request, model):
        return request
    try:
        return model.model_validate(whole_numbers(request))
    except ValidationError as error:
        raise request_error(error.errors()) from None


def request_error(errors: Sequence[ErrorDetails]) -> MeldwiseError:
    """One error for pydantic's ``errors`` of a request (at most :data:`MAX_LISTED`
    named, then how many more): of the first error's kind when a domain parser (a
    tile, a card, the rules) raised it, else a :class:`RequestError`."""
    first = errors[0].get("ctx", {}).get("error") if errors else None
    kind: type[MeldwiseError] = RequestError
    if isinstance(first, MeldwiseError):
        # Its kind in solver.errors: a parser's own subclass may need more than a
        # message to be made (UnknownColour takes the letter).
        kind = next(k for k in type(first).__mro__ if k.__module__ == MeldwiseError.__module__)
    parts = [_described(error) for error in errors[:MAX_LISTED]]
    made = kind(listing([str(part) for part in parts], len(errors) - len(parts)))
    made.places = tuple(where for part in parts for where in part.places)
    if len(errors) > 1:
        made.parts = _Described(errors)
    return made


def _described(error: ErrorDetails) -> MeldwiseError:
    """One of pydantic's errors of a request as an error of ours, with its places."""
    part = MeldwiseError(describe(error))
    part.places = quotes(error)
    return part


class _Described:
    """pydantic's errors of a request, each described (:func:`_described`) as it is
    read: only the command line reads past the first few, to say each different
    problem once; describing them all took seconds (3 s of 100,000) that an answer
    listing five does not need."""

    def __init__(self, errors: Sequence[ErrorDetails]) -> None:
        self.errors = errors

    def __len__(self) -> int:
        return len(self.errors)

    def __iter__(self) -> Iterator[MeldwiseError]:
        return map(_described, self.errors)


def listing(problems: Sequence[str], more: int = 0) -> str:
    """Problems said in one sentence, at most :data:`MAX_LISTED` of them, then how many
    more there are: those of ``problems`` left, and ``more`` not given."""
    more += max(0, len(problems) - MAX_LISTED)
    return clauses(problems[:MAX_LISTED]) + (_("; and {n} more", n=more) if more > 0 else "")


def quotes(error: ErrorDetails) -> tuple[tuple[tuple[int | str, ...], str], ...]:
    """The places in a request that :func:`describe` names for ``error``, each with
    the text naming it (``'seed'``; ``rack[2]`` before a parser's message), in order
    (:attr:`~solver.errors.MeldwiseError.places`)."""
    loc = tuple(error["loc"])
    kind = error["type"]
    keyed = "[key]" in loc
    if loc and not keyed and kind == "missing":
        # "missing field 'seed' in record" quotes the field that is missing, by its name.
        return ((loc, repr(place(loc) if len(loc) == 1 else str(loc[-1]))),)
    if loc and not keyed and (kind in _PROBLEMS or kind in _FIELD_KINDS):
        return ((loc, repr(place(loc))),)
    cause = error.get("ctx", {}).get("error")
    if isinstance(cause, UnknownField):
        # Quoted as UnknownField.at says it ({name!r:.60}).
        at = (*loc, cause.name)
        return ((at, format(repr(place(at)), ".60")),)
    if kind in _PROBLEMS or kind in _FIELD_KINDS:
        return ()
    inner: tuple[tuple[tuple[int | str, ...], str], ...] = ()
    if isinstance(cause, MeldwiseError):
        inner = tuple(((*loc, *where), shown) for where, shown in cause.places)
    text = str(cause) if cause is not None else error["msg"]
    at, where = _named(error)
    if not where or (keyed and loc[-1] != "[key]"):
        return inner
    if text.startswith(where):
        # The message names the field itself ("rules must be an object ..."), in
        # its first words: that is its place, unless the cause noted its own.
        return inner or ((at, where),)
    return ((at, where), *inner)


def _named(error: ErrorDetails) -> tuple[tuple[int | str, ...], str]:
    """Where ``error`` stands in a request and how :func:`describe` names it: a
    mapping's key as given (``racks['bob']``, where the key itself is wrong)."""
    loc = tuple(error["loc"])
    if loc and loc[-1] == "[key]":
        # The key as given: pydantic's ``loc`` has it re-encoded (a lone surrogate as
        # U+FFFD), its ``input`` as it came.
        key = error["input"] if isinstance(error["input"], str) else loc[-2]
        return (*loc[:-2], key), f"{place(loc[:-2])}[{str(key)[:40]!r}]"
    return loc, place(loc)


def place(loc: Sequence[int | str]) -> str:
    """Where in a request: ``rack[2]``, ``table[0].cards``, ``rules``."""
    where = ""
    for part in loc:
        where += f"[{part}]" if isinstance(part, int) else f".{str(part)[:40]}"
    return where.lstrip(".")


def pydantic_problem(
    kind: str, got: Any, ctx: Mapping[str, Any], where: str | None = None
) -> str | None:
    """One of pydantic's error kinds in words, in the active language: of the field
    ``where`` (a request's: ``'seed' must be at least 0, got -1``), or, without it, of
    a value alone (a setting's, named before it: ``must be at least 1, got 0``).
    ``got`` is the value given, ``ctx`` the error's context. None for a kind not
    worded here (the caller says pydantic's own words, or its own)."""
    if kind in _NOT_AN_INT and isinstance(got, float) and got.is_integer():
        # A whole decimal reaches a whole-number field only when too long to read
        # (solver.wire.whole_number): "a whole number of fewer digits", named.
        kind = "int_parsing_size"
    said = _PROBLEMS.get(kind)
    return None if said is None else said(where, quoted(got), ctx)


_NOT_AN_INT = frozenset({"int_type", "int_from_float"})


_Said = Callable[[str | None, Any, Mapping[str, Any]], str]
"""A pydantic error kind in words: (where or None, value, context)."""


def _worded(placed: str, bare: str, **from_ctx: str) -> _Said:
    """A kind said by ``placed`` of a field (``where``), else by ``bare``: each message
    given ``got`` and the context's values named in ``from_ctx`` (``least="ge"``)."""

    def said(where: str | None, got: Any, ctx: Mapping[str, Any]) -> str:
        values = {name: ctx[key] for name, key in from_ctx.items()}
        if where is None:
            return _(bare, got=got, **values)
        return _(placed, where=where, got=got, **values)

    return said


def _one_of(where: str | None, got: Any, ctx: Mapping[str, Any]) -> str:
    values = _expected_values(ctx["expected"])
    if len(values) == 1:  # Japanese says "one of" only of several
        value = values[0]
        if where is None:
            return _("must be {value}, got {got!r:.60}", value=value, got=got)
        return _("{where!r} must be {value}, got {got!r:.60}", where=where, value=value, got=got)
    if where is None:
        return _("must be {choices}, got {got!r:.60}", choices=alternatives(values), got=got)
    return _(
        "{where!r} must be {expected}, got {got!r:.60}",
        where=where,
        expected=alternatives(values),
        got=got,
    )


def _expected_values(expected: str) -> list[str]:
    """The values pydantic lists in an error's ``expected`` (``"'a', 'b' or 'c'"``, in
    English), each as written (``'a'``): quoted strings, numbers and constants."""
    return _LITERAL.findall(expected) or [expected]


_LITERAL = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|-?\d+(?:\.\d+)?|True|False|None")
"""A Python literal as pydantic writes it in ``expected``."""

_A_BOOL = _worded(
    N_("{where!r} must be true or false, got {got!r:.60}"),
    N_("must be true or false, got {got!r:.60}"),
)
_A_WHOLE_NUMBER = _worded(
    N_("{where!r} must be a whole number, got {got!r:.60}"),
    N_("must be a whole number, got {got!r:.60}"),
)
_AN_OBJECT = _worded(
    N_("{where!r} must be an object, got {got!r:.60}"),
    N_("must be an object, got {got!r:.60}"),
)

_PROBLEMS: dict[str, _Said] = {
    "bool_type": _A_BOOL,
    "bool_parsing": _A_BOOL,
    "int_type": _A_WHOLE_NUMBER,
    "int_parsing": _A_WHOLE_NUMBER,
    "int_from_float": _A_WHOLE_NUMBER,
    "int_parsing_size": _worded(
        N_("{where!r} must be a whole number of fewer digits, got {got!r:.60}"),
        N_("must be a whole number of fewer digits, got {got!r:.60}"),
    ),
    "float_parsing": _worded(
        N_("{where!r} must be a number, got {got!r:.60}"),
        N_("must be a number, got {got!r:.60}"),
    ),
    "string_type": _worded(
        N_("{where!r} must be a string, got {got!r:.60}"),
        N_("must be a string, got {got!r:.60}"),
    ),
    "string_unicode": _worded(
        N_("{where!r} must be valid Unicode text, got {got!r:.60}"),
        N_("must be valid Unicode text, got {got!r:.60}"),
    ),
    "list_type": _worded(
        N_("{where!r} must be a list, got {got!r:.60}"),
        N_("must be a list, got {got!r:.60}"),
    ),
    "dict_type": _AN_OBJECT,
    "model_type": _AN_OBJECT,
    "model_attributes_type": _AN_OBJECT,
    "greater_than_equal": _worded(
        N_("{where!r} must be at least {least}, got {got!r:.60}"),
        N_("must be at least {least}, got {got!r:.60}"),
        least="ge",
    ),
    "greater_than": _worded(
        N_("{where!r} must be more than {low}, got {got!r:.60}"),
        N_("must be more than {low}, got {got!r:.60}"),
        low="gt",
    ),
    "less_than_equal": _worded(
        N_("{where!r} must be at most {most}, got {got!r:.60}"),
        N_("must be at most {most}, got {got!r:.60}"),
        most="le",
    ),
    "too_short": _worded(
        N_("{where!r} must hold at least {least}, got {count}"),
        N_("must hold at least {least}, got {count}"),
        least="min_length",
        count="actual_length",
    ),
    "too_long": _worded(
        N_("{where!r} may hold at most {most}, got {count}"),
        N_("may hold at most {most}, got {count}"),
        most="max_length",
        count="actual_length",
    ),
    "enum": _one_of,
    "literal_error": _one_of,
    # A game record's own kinds (solver.record.RecordModel), said alike by the command
    # line and HTTP: a record of the other game, and one of a newer version.
    "record_of_another_game": _worded(
        N_(
            "{where!r} is {got!r:.60}: a record of that game is reviewed with {command}"
            " (HTTP: POST {route})"
        ),
        N_("is {got!r:.60}: a record of that game is reviewed with {command} (HTTP: POST {route})"),
        command="command",
        route="route",
    ),
    "record_of_a_newer_version": _worded(
        N_(
            "{where!r} is {got!r:.60}: the record is of a newer format (version {newer}) than"
            " this Meldwise reads (version {reads})"
        ),
        N_(
            "is {got!r:.60}: the record is of a newer format (version {newer}) than this"
            " Meldwise reads (version {reads})"
        ),
        newer="newer",
        reads="reads",
    ),
}
"""pydantic's error kinds in words, of a field or of a value alone (see
:func:`pydantic_problem`), in the active language."""

_FIELD_KINDS = ("missing", "extra_forbidden")
"""pydantic's error kinds about a field itself, not its value (:func:`describe`)."""


def json_kind(value: Any) -> str:
    """What ``value`` is in JSON's words (``null``, ``array``...), not Python's
    (``NoneType``, ``list``), in the active language (``null`` is JSON's literal)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return _p("JSON type", "boolean")
    if isinstance(value, int | float):
        return _p("JSON type", "number")
    if isinstance(value, str):
        return _p("JSON type", "string")
    if isinstance(value, list | tuple):
        return _p("JSON type", "array")
    return type(value).__name__


def describe(error: ErrorDetails) -> str:
    """One of pydantic's errors in words, naming the field and the value given."""
    loc = error["loc"]
    _at, where = _named(error)
    kind = error["type"]
    ctx = error.get("ctx", {})
    if kind in ("model_type", "model_attributes_type", "dict_type") and not loc:
        return _("a request must be a JSON object, got {kind}", kind=json_kind(error["input"]))
    if kind == "missing" and not loc:
        return _("the request needs a JSON body")
    if kind == "missing" and len(loc) > 1:
        return _("missing field {name!r} in {where}", name=str(loc[-1]), where=place(loc[:-1]))
    if kind == "missing":
        return _("missing field {name!r}", name=where)
    if kind == "extra_forbidden":
        return _("unknown field {name!r}", name=where)
    problem = pydantic_problem(kind, error["input"], ctx, where)
    if problem is not None:
        return problem
    cause = ctx.get("error")
    if isinstance(cause, UnknownField):
        return str(UnknownField.at(loc, cause.name, cause.known))
    text = str(cause) if cause is not None else error["msg"]
    # A domain parser's message quotes the bad value; say where it stands, unless the
    # message already begins with it ("rules must be an object ...").
    if not where or text.startswith(where):
        return text
    return _("{where}: {problem}", where=where, problem=text)


AS_WRITTEN = {"as_written": True}
"""The serialisation context (``model_dump(..., context=AS_WRITTEN)``) that writes a
request read by a model back as it was written: a joker with the tile it was said to
stand for (``J(R7)``, see :attr:`Notated.written`), for a request passed on."""


@dataclass(frozen=True)
class Notated:
    """Marks a value object written in a notation (a tile, a card) for pydantic, as in
    ``Annotated[Tile, Notated(Tile.parse, ...)]``: a string in requests, read by
    ``parse`` (whose :class:`MeldwiseError` quotes the text); ``str(value)`` in
    answers (``written(value)`` under :data:`AS_WRITTEN`); an instance passes as it is."""

    parse: Callable[[str], Any]
    what: Callable[[], str]
    """What the string must be, in the active language, for the error when it is no
    string: ``lambda: _("a tile like 'R5'")``."""
    description: str
    example: str
    written: Callable[[Any], str] = str
    """The value as a request writes it, which ``parse`` reads back to the same value
    (``str`` loses a joker's bracket: answers place every joker afresh)."""

    def __get_pydantic_core_schema__(
        self, source: type[Any], handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        def read(value: Any) -> Any:
            if isinstance(value, str):
                return self.parse(value)
            if isinstance(value, source):
                return value
            raise RequestError(
                _("expected {what}, got {value!r:.60}", what=self.what(), value=quoted(value))
            )

        def write(value: Any, info: core_schema.SerializationInfo) -> str:
            context = info.context
            as_written = isinstance(context, dict) and context.get("as_written")
            return self.written(value) if as_written else str(value)

        return core_schema.no_info_plain_validator_function(
            read,
            serialization=core_schema.plain_serializer_function_ser_schema(write, info_arg=True),
        )

    def __get_pydantic_json_schema__(
        self, schema: core_schema.CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        return {"type": "string", "description": self.description, "examples": [self.example]}


MAX_NAME = 64
"""Longest player name, in characters."""

IDEOGRAPHIC_SPACE = "\u3000"
"""The space of Japanese text (全角スペース), between a family and a given name as an
ASCII space is in English: a visible character, though not ``str.isprintable``."""


def _player_name(name: str) -> str:
    if not 1 <= len(name) <= MAX_NAME:
        raise RequestError(
            _(
                "a player name must be 1-{most} characters, got {name!r:.60}",
                most=MAX_NAME,
                name=name,
            )
        )
    if not name.replace(IDEOGRAPHIC_SPACE, " ").isprintable():
        raise RequestError(
            _(
                "a player name must be printable text: no control, format (bidi, zero-width) or "
                "other invisible characters"
            )
        )
    return name


PlayerName = Annotated[
    str,
    Field(strict=True),
    AfterValidator(_player_name),
    WithJsonSchema(
        {
            "type": "string",
            "minLength": 1,
            "maxLength": MAX_NAME,
            "description": f"a player's name: 1-{MAX_NAME} printable characters",
        }
    ),
]

TimeLimitMs = Annotated[int, Field(strict=True, ge=1, le=MAX_TIME_LIMIT_MS)]
"""A time limit in milliseconds."""

TimeCapped = Annotated[
    bool,
    Field(
        description="a time limit, not the work bound, stopped a search: the same request "
        "on an idle server may get a better answer (false: the answer does not depend on load)"
    ),
]
"""An answer's ``time_capped`` (:attr:`solver.cpsat.Limits.capped`)."""

"""Rule settings of any game: the base class of each game's ``Rules``.

A game's rules are a frozen dataclass deriving from :class:`Settings`, each field
declared with :func:`setting` (a whole number in a range) or :func:`flag` (true or
false) and a line saying what it means. From that one declaration the base checks
the values (messages name the setting), reads the rules from a partial mapping,
writes them back, and tells pydantic how to read, write and document them, so a
wire model simply has a field of type ``Rules``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import Field, field, fields
from enum import Enum
from typing import Any, Self, TypeVar, get_type_hints

from pydantic import GetCoreSchemaHandler, GetJsonSchemaHandler
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import core_schema

from solver.errors import MeldwiseError, RulesError, quoted
from solver.i18n import _, _p, listed

_Read = TypeVar("_Read")


def setting(default: int, low: int, high: int, meaning: str) -> Any:
    """A whole-number setting from ``low`` to ``high`` (a dataclass field)."""
    return field(default=default, metadata={"range": (low, high), "meaning": meaning})


def flag(default: bool, meaning: str) -> Any:
    """A true-or-false setting (a dataclass field)."""
    return field(default=default, metadata={"meaning": meaning})


def choice(default: str, words: tuple[str, ...], meaning: str) -> Any:
    """A setting that is one of ``words`` (a dataclass field)."""
    return field(default=default, metadata={"words": words, "meaning": meaning})


class Settings:
    """Base of a game's rules: a frozen dataclass of :func:`setting` and :func:`flag`
    fields (the subclass is the dataclass; this base adds no field)."""

    __slots__ = ()

    def __post_init__(self) -> None:
        for item in _fields(self):
            value = getattr(self, item.name)
            bounds = item.metadata.get("range")
            words = item.metadata.get("words")
            if words is not None:
                if value not in words:
                    raise RulesError(
                        _(
                            "rule {name!r} must be one of {words}, got {value!r:.60}",
                            name=item.name,
                            words=_p("between alternatives", ", ").join(repr(w) for w in words),
                            value=quoted(value),
                        )
                    )
                continue
            if bounds is None:
                if not isinstance(value, bool):
                    raise RulesError(
                        _(
                            "rule {name!r} must be true or false, got {value!r:.60}",
                            name=item.name,
                            value=quoted(value),
                        )
                    )
                continue
            low, high = bounds
            if isinstance(value, bool) or not isinstance(value, int):
                raise RulesError(
                    _(
                        "rule {name!r} must be a whole number, got {value!r:.60}",
                        name=item.name,
                        value=quoted(value),
                    )
                )
            if not low <= value <= high:
                raise RulesError(
                    _(
                        "rule {name!r} must be between {low} and {high}, got {value}",
                        name=item.name,
                        low=low,
                        high=high,
                        value=quoted(value),
                    )
                )

    @classmethod
    def from_dict(cls, settings: Any) -> Self:
        """Rules from a (possibly partial) mapping of setting names to values; the rest,
        and any given as None, keep their defaults. None means every default; an
        instance is returned as it is. Anything else that is not a mapping (a list, a
        string, false, 0) raises :class:`RulesError`, as does an unknown name."""
        if settings is None:
            return cls()
        if isinstance(settings, cls):
            return settings
        if not isinstance(settings, Mapping):
            raise RulesError(
                _(
                    "rules must be an object of settings, got {settings!r:.60}",
                    settings=quoted(settings),
                )
            )
        known = {item.name for item in _fields(cls)}
        for name in settings:
            if name not in known:
                raise RulesError(
                    _(
                        "unknown rule {name!r:.60}; known rules are {known}",
                        name=name,
                        known=listed(sorted(known)),
                    )
                )
        return cls(**{name: value for name, value in settings.items() if value is not None})

    def to_dict(self) -> dict[str, Any]:
        """Every setting by name."""
        return {item.name: getattr(self, item.name) for item in _fields(self)}

    @classmethod
    def __get_pydantic_core_schema__(
        cls, source: Any, handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        """Read by :meth:`from_dict`, written by :meth:`to_dict`."""
        return core_schema.no_info_plain_validator_function(
            cls.from_dict,
            serialization=core_schema.plain_serializer_function_ser_schema(
                cls.to_dict, return_schema=core_schema.dict_schema()
            ),
        )

    @classmethod
    def __get_pydantic_json_schema__(
        cls, schema: core_schema.CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        """An object of the settings, each with its type, range, default and meaning."""
        properties: dict[str, Any] = {}
        for item in _fields(cls):
            bounds = item.metadata.get("range")
            words = item.metadata.get("words")
            described: dict[str, Any] = {"type": "boolean" if bounds is None else "integer"}
            if words is not None:
                described = {"type": "string", "enum": list(words)}
            elif bounds is not None:
                described |= {"minimum": bounds[0], "maximum": bounds[1]}
            properties[item.name] = {
                "anyOf": [described, {"type": "null"}],
                "default": item.default,
                "description": item.metadata["meaning"],
            }
        doc = (cls.__doc__ or "").strip().splitlines()
        return {
            "type": "object",
            "title": f"{cls.__module__.split('.')[-2].title()}Rules",
            "description": (doc[0] if doc else "")
            + " Any subset may be given (null: the default); the rest keep the standard values.",
            "properties": properties,
            "additionalProperties": False,
        }


def settings_object(data: object, where: str) -> Mapping[str, Any]:
    """A game's settings ``data`` (at the place ``where``) when they are a mapping; else
    (None, a list) a :class:`RulesError` about ``where``."""
    if not isinstance(data, Mapping):
        raise RulesError(
            _(
                "{where!r} must be an object of game settings, got {value!r:.60}",
                where=where,
                value=quoted(data),
            )
        ).about(where)
    return data


def check_game_settings(data: Mapping[str, Any], known: Sequence[str]) -> None:
    """Raise :class:`RulesError` naming the first of a game's settings ``data`` that is
    not one of ``known`` (listed in that order): both games' engines read theirs so.
    Settings that are no mapping (None: a TypeError once) are refused as 'settings'."""
    for name in settings_object(data, "settings"):
        if name not in known:
            raise RulesError(
                _(
                    "unknown game setting {name!r:.60}; known are {known}",
                    name=name,
                    known=listed(known),
                )
            )


def seated(data: Mapping[str, Any], players: int, where: str) -> dict[str, Any]:
    """A game's settings ``data`` (the top-level field ``where`` of what was read) for a
    game of ``players`` seats, its ``players`` set to that: a ``players`` setting given
    that says otherwise raises :class:`RulesError` (it was once silently replaced by the
    number of seats), about ``where.players`` (``--option players`` on the command line;
    it was about ``where`` alone, a place of no field). ``data`` that is no mapping
    (None, a list) raises :class:`RulesError` about ``where``."""
    given = settings_object(data, where).get("players")
    if type(given) is int and given != players:
        raise RulesError(
            _(
                "game setting 'players' is {given!r:.60}, but {seats} bots are seated",
                given=given,
                seats=players,
            )
        ).about(f"{where}.players")
    # Not a whole number: left as given, for the settings' own check to name.
    return {**data, "players": players} if given is None else dict(data)


FEWEST_PLAYERS = 2
"""The fewest players a game of either game seats."""


def seated_read(
    read: Callable[[Mapping[str, Any], str], _Read],
    data: Mapping[str, Any],
    players: int,
    where: str,
    seats: str,
) -> _Read:
    """A game's settings ``data`` (the top-level field ``where`` of what was read) for a
    game of ``players`` seats (:func:`seated`), read by ``read`` (the game's
    ``GameSettings.read``). When ``data`` leaves ``players`` to the seats and the same
    settings hold for :data:`FEWEST_PLAYERS`, the number of seats alone is at fault: the
    error is said at ``seats``, the field that gave it (a tournament's ``players``,
    ``--players`` on the command line, which was blamed on ``--option``: "--option: 8
    hands of 14 need 112 tiles")."""
    settings = seated(data, players, where)
    try:
        return read(settings, where)
    except MeldwiseError:
        if data.get("players") is not None or not _holds(
            read, {**settings, "players": FEWEST_PLAYERS}, where
        ):
            raise
    return read(settings, seats)  # fails as before, said at ``seats``


def _holds(
    read: Callable[[Mapping[str, Any], str], object], data: Mapping[str, Any], where: str
) -> bool:
    """Whether ``read`` reads ``data`` without an error."""
    try:
        read(data, where)
    except MeldwiseError:
        return False
    return True


def placed(where: str, error: MeldwiseError) -> MeldwiseError:
    """``error`` said at the place ``where`` of a request or record (``settings.rules:
    rule 'jokers' ...``), which the command line says by the flag that gave it
    (:meth:`~solver.errors.MeldwiseError.placed`)."""
    return RulesError(_("{where}: {problem}", where=where, problem=error)).placed(where, error)


def rules_read(data: Mapping[str, Any], rules: type[Settings], where: str) -> dict[str, Any]:
    """A game's settings ``data`` (at the place ``where``) with their ``rules`` read as
    the class ``rules`` reads them, an error in them said at ``where.rules``: a
    tournament's ``--option rules.jokers=x`` said "rule 'jokers' ..." without its flag."""
    try:
        return {**data, "rules": rules.from_dict(data.get("rules"))}
    except MeldwiseError as error:
        raise placed(f"{where}.rules", error) from None


def settings_read(
    read: Callable[[Mapping[str, Any]], _Read],
    data: Mapping[str, Any],
    rules: type[Settings],
    where: str,
) -> _Read:
    """A game's settings ``data`` (at the place ``where`` in what was read) as ``read`` (its
    ``GameSettings.from_dict``) reads them, their ``rules`` read by the class ``rules``
    (:func:`rules_read`): any error said at ``where`` (``settings: 'hand' must be ...``),
    which the command line says by its flag: a tournament's ``--option nosuch=1`` said
    "unknown game setting 'nosuch'" without its flag."""
    with_rules = rules_read(settings_object(data, where), rules, where)
    try:
        return read(with_rules)
    except MeldwiseError as error:
        raise placed(where, error) from None


def read_knobs(knobs: type, text: str, separators: str = "+") -> dict[str, Any]:
    """The values of ``name=value`` items in ``text`` (split at any of ``separators``)
    for the fields of the dataclass ``knobs`` (a bot's policy): a whole number for an
    int field, true or false (or 1/0, yes/no) for a bool one, one of the values of an
    enum one. Raises :class:`RulesError` naming a knob it lacks or a value the knob
    does not take; both games' bots read their knobs so."""
    kinds = get_type_hints(knobs)
    values: dict[str, Any] = {}
    items = (part.strip() for part in re.split(f"[{re.escape(separators)}]", text))
    for item in filter(None, items):
        name, _sep, raw = (part.strip() for part in item.partition("="))
        kind = kinds.get(name)
        if kind is None:
            raise RulesError(
                _("unknown knob {name!r}; knobs are {knobs}", name=name, knobs=listed(kinds))
            )
        if name in values:  # the last was kept without a word
            raise RulesError(_("knob {name!r} is given twice; give it once", name=name))
        values[name] = _knob_value(name, kind, raw)
    return values


MOST_KNOB = 999
"""The largest whole number a bot's knob takes: beyond any count of cards or tiles."""

_TRUE = ("true", "1", "yes")
_FALSE = ("false", "0", "no")


def _knob_value(name: str, kind: Any, raw: str) -> Any:
    word = raw.lower()
    if kind is bool and word in _TRUE + _FALSE:
        return word in _TRUE
    if kind is int and re.fullmatch(r"[0-9]{1,3}", word):  # 0 to MOST_KNOB
        return int(word)
    if isinstance(kind, type) and issubclass(kind, Enum):
        words = [member.value for member in kind]
        if word in words:
            return kind(word)
        raise RulesError(
            _(
                "knob {name!r} is one of {choices}, got {value!r}",
                name=name,
                choices=listed(words),
                value=raw,
            )
        )
    if kind is bool:
        raise RulesError(_("knob {name!r} is true or false, got {value!r}", name=name, value=raw))
    raise RulesError(
        _(
            "knob {name!r} is a whole number from 0 to {most}, got {value!r:.60}",
            name=name,
            most=MOST_KNOB,
            value=raw,
        )
    )


def _fields(settings: object) -> tuple[Field[Any], ...]:
    return fields(settings)  # type: ignore[arg-type]

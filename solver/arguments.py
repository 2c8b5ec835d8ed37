"""The arguments a Python caller passes to the typed API, checked where they come in.

The wire reads a request's fields with its models; a caller of :func:`solver.rummikub.solve`,
:func:`solver.shanghai.advise` and the like passes values of its own, which nothing
checked before they were used: a string for a position, the other game's rules or
``None`` failed deep inside with an ``AttributeError``. These say the argument and
what came instead, as a :class:`~solver.errors.RequestError` (a ``ValueError``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, TypeVar

from solver.errors import RequestError, quoted
from solver.i18n import _
from solver.i18n import listed as in_words

T = TypeVar("T")


def type_name(kind: type) -> str:
    """How a message names the type ``kind``: ``str`` for a built-in one, its module and
    name for any other (``solver.shanghai.rules.Rules``, so that one game's ``Rules``
    given to the other game is told apart)."""
    if kind.__module__ == "builtins":
        return kind.__qualname__
    return f"{kind.__module__}.{kind.__qualname__}"


def wrong(name: str, expected: str, value: object) -> RequestError:
    """The error saying that the argument ``name`` is not ``expected`` (a type's name or
    a few words), quoting ``value`` and naming its type."""
    return RequestError(
        _(
            "argument '{name}' must be {expected}, got {got}: {value!r:.60}",
            name=name,
            expected=expected,
            got=type_name(type(value)),
            value=quoted(value),
        )
    )


def not_one_of(name: str, choices: Iterable[object], value: object) -> RequestError:
    """The error saying that the argument ``name`` is none of ``choices`` (each quoted),
    quoting ``value`` and naming its type."""
    return RequestError(
        _(
            "argument '{name}' must be one of {choices}, got {got}: {value!r:.60}",
            name=name,
            choices=in_words(repr(choice) for choice in choices),
            got=type_name(type(value)),
            value=quoted(value),
        )
    )


def checked(value: Any, kind: type[T], name: str) -> T:
    """``value`` when it is a ``kind``; else :func:`wrong` raised for the argument ``name``."""
    if not isinstance(value, kind):
        raise wrong(name, type_name(kind), value)
    return value


def listed(values: Any, name: str) -> tuple[Any, ...]:
    """``values`` as a tuple when it is an iterable but a string or a mapping (a list,
    a tuple); else :func:`wrong` raised for the argument ``name``."""
    if isinstance(values, str | bytes | Mapping) or not isinstance(values, Iterable):
        raise wrong(name, _("a list"), values)
    return tuple(values)


def text_or_listed(value: Any, name: str) -> str | tuple[Any, ...]:
    """``value`` when it is a string (notation to read), else :func:`listed`; anything
    else raises :func:`wrong` for the argument ``name``."""
    if isinstance(value, str):
        return value
    if isinstance(value, bytes | Mapping) or not isinstance(value, Iterable):
        raise wrong(name, _("a string or a list"), value)
    return tuple(value)


def checked_items(values: Any, kind: type[T], name: str) -> tuple[T, ...]:
    """``values`` as a tuple when it is :func:`listed` and holds ``kind`` only; else
    :func:`wrong` raised for the argument ``name`` (or for its item at fault)."""
    items = listed(values, name)
    for index, item in enumerate(items):
        if not isinstance(item, kind):
            raise wrong(f"{name}[{index}]", type_name(kind), item)
    return items


def checked_or_none(value: Any, kind: type[T], name: str) -> T | None:
    """``value`` when it is a ``kind`` or None; else :func:`wrong` raised for the
    argument ``name``."""
    if value is not None and not isinstance(value, kind):
        raise wrong(name, _("a {kind} or None", kind=type_name(kind)), value)
    return value


def checked_lists_by_name(values: Any, kind: type[T], name: str) -> dict[str, tuple[T, ...]]:
    """``values``, a mapping of names to lists of ``kind`` (each player's rack or hand),
    as a dict of tuples; else :func:`wrong` raised for the argument ``name`` (or for the
    list at fault, ``racks[ann]``)."""
    if not isinstance(values, Mapping):
        raise wrong(name, _("a mapping of names to lists"), values)
    return {key: checked_items(items, kind, f"{name}[{key}]") for key, items in values.items()}


def checked_seat(value: Any, players: int, name: str = "seat") -> int:
    """``value`` when it is a seat of a game of ``players`` (0 to ``players - 1``);
    else a :class:`~solver.errors.RequestError` naming the argument (or the request's
    field) ``name``."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < players:
        raise RequestError(
            _(
                "{label} must be {low} to {high}, got {value}",
                label=repr(name),
                low=0,
                high=players - 1,
                value=quoted(value),
            )
        ).naming(name)
    return value

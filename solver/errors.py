"""Errors raised for bad input.

Every error is a ``ValueError`` subclass whose message quotes the offending
input, so callers (CLI, HTTP service) can show it to a person unchanged.
"""

from __future__ import annotations

import json
import math
import re
import reprlib
from collections.abc import Iterable


class MeldwiseError(ValueError):
    """Base class of every input error raised by the solver library."""

    lang: str | None = None
    """The language its message was written in when that was a request's own ``lang``
    (set by :func:`solver.i18n.speaks`), so that what is said around it speaks the
    same one; None: the active language."""

    places: tuple[tuple[tuple[int | str, ...], str], ...] = ()
    """The places in a request its message quotes, in order, each with the text that
    quotes it: ``(("seed",), "'seed'")``, ``(("opponents", 0, "rack_size"),
    "'opponents[0].rack_size'")``. The command line says the flag it read a field from
    instead (:func:`solver.commands.in_flags`); the message is the same everywhere.
    A place quoted as ``""`` is one its message is about without quoting it (``table set
    0 (R1 R2) is not a valid set``, of the request's ``table``): the command line says
    its flag before the message (``--table: table set 0 ...``), see :meth:`about`."""

    parts: Iterable[MeldwiseError] = ()
    """Every problem, each with its places, when there were several
    (:func:`solver.wire.request_error`): its message lists the first few and counts the
    rest; the command line says them with flags in place of fields, those said alike
    once, and counts the different ones left unlisted (:func:`solver.commands.in_flags`)."""

    def placed(self, where: str, cause: MeldwiseError) -> MeldwiseError:
        """This error, whose message says ``cause`` after the place ``where`` in what was
        read (``settings.rules: rule 'jokers' ...``), noting that place and those the
        cause quotes within it (see :attr:`places`)."""
        at = path_of(where)
        self.places = ((at, where), *(((*at, *inner), shown) for inner, shown in cause.places))
        return self

    def about(self, where: str) -> MeldwiseError:
        """This error, noting that its message is about the place ``where`` of what was
        read without quoting it (see :attr:`places`): a top-level field (``table``) or a
        place within one (``settings.players``, as :func:`path_of` reads it)."""
        self.places = ((path_of(where), ""),)
        return self

    def nested_in(self, where: str) -> MeldwiseError:
        """This error, its places (noted relative to a list it read: a set's index,
        ``[1]``) now within the place ``where`` of what was read (``table[1]``); one that
        noted none is about ``where`` itself (see :meth:`about`)."""
        at = path_of(where)
        self.places = tuple(((*at, *inner), shown) for inner, shown in self.places)
        return self if self.places else self.about(where)

    def naming(self, *fields: str, quoted: bool = True) -> MeldwiseError:
        """This error, noting that its message quotes each of ``fields`` (top-level
        fields of what was read, as ``'name'``, or as ``name`` when not ``quoted``: see
        :attr:`places`)."""
        self.places = tuple(((name,), repr(name) if quoted else name) for name in fields)
        return self


def path_of(where: str) -> tuple[int | str, ...]:
    """The place in a request ``where`` names, as :attr:`MeldwiseError.places` note it:
    ``settings.rules``: ``("settings", "rules")``; ``turns[0].rack``: ``("turns", 0,
    "rack")``."""
    return tuple(
        int(part[1:-1]) if part.startswith("[") else part
        for part in re.findall(r"\[\d+\]|[^.\[\]]+", where)
    )


class NotationError(MeldwiseError):
    """A tile or card written in a notation we do not know, e.g. ``"Q5"``."""


class RulesError(MeldwiseError):
    """A rule setting that is unknown or out of its range."""


class CountError(MeldwiseError):
    """More copies of a tile or card than the rules allow."""


class TableError(MeldwiseError):
    """A set (meld) on the table that is not valid under the rules."""


class LimitError(MeldwiseError):
    """A solve budget out of its range: a time limit, a worker count or a work bound."""


class RequestError(MeldwiseError):
    """A request object of the wrong shape: unknown or missing field, wrong type."""


class ModelError(RuntimeError):
    """CP-SAT answered what a correct model never gives (infeasible where a play
    always exists, counts that do not lay out): a bug in a model, never bad input."""


class Quoted:
    """A value as an error message quotes it (``{got!r:.60}``, ``{value}``): a string
    as it is; anything else as JSON writes it (``[["R5"], null]``: a request came as
    JSON), shown safely, whatever the input: a list nested a
    thousand deep is cut at a few levels, a number of thousands of digits is said to
    be one (Python refuses to write it out, and repr recursed past its limit)."""

    __slots__ = ("value",)

    def __init__(self, value: object) -> None:
        self.value = value

    def __repr__(self) -> str:
        return _CLIPPED.repr(self.value)

    def __str__(self) -> str:
        return self.value if isinstance(self.value, str) else repr(self)


def quoted(value: object) -> object:
    """``value`` ready to be quoted in an error message (see :class:`Quoted`)."""
    return value if isinstance(value, str) else Quoted(value)


class _Clipped(reprlib.Repr):
    """reprlib's short reprs, a few levels deep, with numbers too long to write out
    named by their length."""

    def __init__(self) -> None:
        super().__init__()
        self.maxlevel = 3
        self.maxlist = self.maxtuple = self.maxdict = self.maxset = 8
        self.maxstring = self.maxother = self.maxlong = 80

    def repr_int(self, x: int, level: int) -> str:
        if x.bit_length() > 1000:
            return f"<a number of about {int(x.bit_length() * math.log10(2))} digits>"
        return super().repr_int(x, level)

    # JSON's words for its constants and strings: a request's values came as JSON (null,
    # true, ["R5"]), and the Python API's as the same values (reprlib calls
    # repr_<type name>, nested too; a string alone is quoted by the message itself).
    def repr_str(self, x: str, _level: int) -> str:
        text = json.dumps(x[: self.maxstring], ensure_ascii=False)
        text = "".join(c if c.isprintable() else ascii(c)[1:-1] for c in text)
        if len(text) > self.maxstring:
            i = max(0, (self.maxstring - 3) // 2)
            j = max(0, self.maxstring - 3 - i)
            text = text[:i] + self.fillvalue + text[len(text) - j :]
        return text

    def repr_NoneType(self, _x: None, _level: int) -> str:
        return "null"

    def repr_bool(self, x: bool, _level: int) -> str:
        return "true" if x else "false"


_CLIPPED = _Clipped()

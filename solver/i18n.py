"""The language a person reads: English (the default) or Japanese.

Every sentence for a person is written in English as a gettext message id and
looked up in the compiled catalogue of the active language
(``solver/locale/<lang>/LC_MESSAGES/meldwise.mo``, made from the ``.po`` next to
it by Babel, see ``solver/locale/README.md``). The active language lives in a
context variable: a wire function runs inside :func:`language` for its request's
``lang``, and everything it says, error messages included, comes out in that
language. Machine-readable parts (field names, tile codes, set indices, enum
values) are placeholders and never change with the language.

Messages use ``str.format`` placeholders with names (``{tile}``, ``{count}``), so a
translation may put them in any order; :func:`_n` adds plural forms and always
passes the count as ``{n}``.
"""

from __future__ import annotations

import gettext
import math
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache, wraps
from pathlib import Path
from typing import Any, TypeVar

from solver.errors import MeldwiseError, RequestError

LANGUAGES = ("en", "ja")
"""Languages Meldwise speaks; English is the source language of every message."""

DEFAULT = "en"
DOMAIN = "meldwise"
LOCALE_DIR = Path(__file__).parent / "locale"

_current: ContextVar[str] = ContextVar("meldwise_language", default=DEFAULT)


@cache
def catalogue(lang: str) -> gettext.NullTranslations:
    """The compiled translations of ``lang`` (English: the message ids themselves)."""
    if lang == DEFAULT:
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, LOCALE_DIR, languages=[lang])


def current() -> str:
    """The active language code."""
    return _current.get()


def set_language(lang: str) -> None:
    """Make ``lang`` the active language of this context (a thread or an asyncio task)."""
    _current.set(check_language(lang))


@contextmanager
def language(lang: str | None) -> Iterator[str]:
    """Speak ``lang`` (None: keep the active language) inside the ``with`` block."""
    token = _current.set(check_language(lang if lang is not None else current()))
    try:
        yield _current.get()
    finally:
        _current.reset(token)


def _(message: str, /, **values: Any) -> str:
    """``message`` in the active language, its ``{placeholders}`` filled from ``values``."""
    text = catalogue(current()).gettext(message)
    return text.format(**values) if values else text


def _p(context: str, message: str, /, **values: Any) -> str:
    """Like :func:`_`, for a message that one language says in two ways: ``context``
    tells the translator which one (gettext's ``msgctxt``)."""
    text = catalogue(current()).pgettext(context, message)
    return text.format(**values) if values else text


def _n(singular: str, plural: str, n: int, /, **values: Any) -> str:
    """The plural form of a message for ``n`` (placeholder ``{n}``) in the active language."""
    return catalogue(current()).ngettext(singular, plural, n).format(n=n, **values)


def N_(message: str, /) -> str:
    """Mark ``message`` for the catalogue without translating it here: a message some
    other code looks up (argparse's own, see :mod:`solver.commands`)."""
    return message


def Nn_(singular: str, plural: str, /) -> tuple[str, str]:
    """:func:`N_` for a message with plural forms."""
    return singular, plural


def alternatives(values: Sequence[str]) -> str:
    """``values`` as a list of alternatives in the active language: ``'a', 'b' or 'c'``
    in English, ``'a'、'b'、'c'`` in Japanese (whose sentences say "one of")."""
    if len(values) < 2:
        return "".join(values)
    separator = _p("between alternatives", ", ")
    return _("{items} or {last}", items=separator.join(values[:-1]), last=values[-1])


def listed(items: Iterable[object]) -> str:
    """``items`` listed inside a sentence: ``a, b`` in English, ``a、b`` in Japanese
    (an ASCII comma in a Japanese sentence read as English)."""
    return _p("between list items", ", ").join(str(item) for item in items)


def clauses(texts: Iterable[str]) -> str:
    """Several problems said in one sentence: ``a; b`` in English, a full-width solidus
    (U+FF0F) between them in Japanese."""
    return _p("between clauses", "; ").join(texts)


def percent_text(share: float, *, at_least: bool = False) -> str:
    """A chance or a share in whole percents, saying no more than was computed: one
    above 0 and below 1 never reads as 0% or 100% (1 unseen card of 385 was "chance
    0%", 266 points of 267 "placed (100%)": "under 1%", "over 99%"), half rounds up
    (``f"{0.5:.0f}"`` is "0"), and a lower bound (``at_least``: only what was found in
    time counted) is rounded down, never up to more than was found."""
    percent = 100 * share
    if at_least:
        return f"{math.floor(percent + 1e-9)}%"
    if 0 < percent < 0.5:
        return _("under 1%")
    if 99.5 <= percent < 100:
        return _("over 99%")
    return f"{math.floor(percent + 0.5)}%"


_TAG = re.compile(r"([A-Za-z]{1,8})(?:-[A-Za-z0-9]{1,8})*")
"""A language tag's shape (BCP 47's, as RFC 4647 reads a language range): a primary
subtag, then subtags (region, script, ...) after hyphens; any case."""


def tag_language(tag: object) -> str | None:
    """The language Meldwise speaks that the language tag ``tag`` names, or None: its
    primary subtag in any case (tags are case-insensitive), whatever subtags follow
    (``JA``, ``ja-JP``, ``en-GB`` name ``ja``, ``ja``, ``en``). The one reading of a
    tag, for a request's ``lang``, ``Accept-Language`` and ``--lang`` alike."""
    found = _TAG.fullmatch(tag) if isinstance(tag, str) else None
    code = found.group(1).lower() if found else None
    return code if code in LANGUAGES else None


def check_language(lang: object) -> str:
    """The language Meldwise speaks that the tag ``lang`` names (:func:`tag_language`),
    else :class:`~solver.errors.RequestError` (in English and Japanese, as the reader's
    language is the thing in doubt)."""
    code = tag_language(lang)
    if code is not None:
        return code
    raise RequestError(
        f"unknown lang {lang!r:.60}; use 'en' or 'ja'"
        " (未対応の言語です。'en' か 'ja' を指定してください)"
    )


def from_locale(name: str | None) -> str | None:
    """The language of a POSIX locale name (``ja_JP.UTF-8`` -> ``ja``), or None when
    Meldwise does not speak it."""
    if not name:
        return None
    code = re.split(r"[_.@-]", name.strip(), maxsplit=1)[0].lower()
    return code if code in LANGUAGES else None


def from_environment(environ: Mapping[str, str]) -> str:
    """The language a command line user reads, from the locale variables in the order
    gettext reads them (LANGUAGE, LC_ALL, LC_MESSAGES, LANG); English by default."""
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name)
        if value:
            for part in value.split(":"):  # LANGUAGE may list several
                lang = from_locale(part)
                if lang is not None:
                    return lang
            if name != "LANGUAGE":
                return DEFAULT  # the first locale set decides, as in gettext
    return DEFAULT


def negotiate(accept_language: str | None) -> str:
    """The best language for an ``Accept-Language`` header (RFC 9110): each language we
    speak gets the ``q`` of its own tag (read by :func:`tag_language`, as a body's
    ``lang`` is), else that of ``*``; the highest ``q`` above 0
    wins, the one named first on a tie, English on a tie with ``*``; none: English. A
    ``q`` that is no quality value (above 1, more than 3 decimals, not a number) is 0."""
    named: dict[str, tuple[float, int]] = {}
    anything: tuple[float, int] | None = None
    for position, item in enumerate((accept_language or "").split(",")):
        tag, _sep, params = item.strip().partition(";")
        q = 1.0
        for param in params.split(";"):
            key, _eq, value = param.strip().partition("=")
            if key.strip().lower() == "q":
                q = float(value) if _QUALITY.fullmatch(value.strip()) else 0.0
        tag = tag.strip()
        if tag == "*":
            anything = anything or (q, position)
        elif (code := tag_language(tag)) is not None and q > named.get(code, (-1.0, 0))[0]:
            named[code] = (q, position)
    ranked = []
    for code in LANGUAGES:
        q, position = named.get(code) or anything or (0.0, 0)
        ranked.append((q, -position, code == DEFAULT, code))
    q, _first, _default, best = max(ranked)
    return best if q > 0 else DEFAULT


_QUALITY = re.compile(r"0(\.\d{0,3})?|1(\.0{0,3})?")
"""A quality value as RFC 9110 writes it: 0 to 1, at most three decimals."""


F = TypeVar("F", bound=Callable[..., dict[str, Any]])


def speaks(function: F) -> F:
    """Run a wire function (request dict or model in, response dict out) in the
    request's ``lang`` (absent: the active language); the field stays in the request,
    whose model refuses a language Meldwise does not speak in the active one."""

    @wraps(function)
    def localised(request: Any, *args: Any, **kwargs: Any) -> dict[str, Any]:
        if isinstance(request, Mapping):
            lang = request.get("lang")
        else:
            lang = getattr(request, "lang", None)
        with language(tag_language(lang)) as spoken:
            try:
                return function(request, *args, **kwargs)
            except MeldwiseError as error:
                if error.lang is None:
                    error.lang = spoken  # said in the request's language
                raise

    return localised  # type: ignore[return-value]

"""Rule settings of any game: checking their values and reading them by name.

Each game keeps its settings in a frozen dataclass (``solver.rummikub.rules.Rules``,
``solver.shanghai.rules.Rules``) with a table of ranges; these helpers check such
a dataclass and build one from a partial mapping, with messages that name the
setting.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import fields
from typing import TYPE_CHECKING, Any, TypeVar

from solver.errors import RulesError
from solver.i18n import _

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

R = TypeVar("R", bound="DataclassInstance")


def check_settings(
    rules: object,
    ranges: Mapping[str, tuple[int, int]],
    flags: Iterable[str] = (),
    choices: Mapping[str, tuple[str, ...]] | None = None,
) -> None:
    """Raise :class:`RulesError` naming the first setting of ``rules`` that is not a
    whole number within its ``ranges`` entry (low, high), or, for ``flags``, not
    true or false, or, for ``choices``, not one of its words."""
    for name, (low, high) in ranges.items():
        value = getattr(rules, name)
        if isinstance(value, bool) or not isinstance(value, int):
            raise RulesError(
                _("rule {name!r} must be a whole number, got {value!r:.60}", name=name, value=value)
            )
        if not low <= value <= high:
            raise RulesError(
                _(
                    "rule {name!r} must be between {low} and {high}, got {value}",
                    name=name,
                    low=low,
                    high=high,
                    value=value,
                )
            )
    for name in flags:
        flag = getattr(rules, name)
        if not isinstance(flag, bool):
            raise RulesError(
                _("rule {name!r} must be true or false, got {value!r:.60}", name=name, value=flag)
            )
    for name, words in (choices or {}).items():
        word = getattr(rules, name)
        if word not in words:
            raise RulesError(
                _(
                    "rule {name!r} must be one of {words}, got {value!r:.60}",
                    name=name,
                    words=", ".join(repr(w) for w in words),
                    value=word,
                )
            )


def settings_from_mapping(kind: type[R], settings: Mapping[str, Any]) -> R:
    """Build ``kind`` from a partial mapping of setting names to values (the rest keep
    their defaults); an unknown name raises :class:`RulesError` listing the known ones."""
    known = {f.name for f in fields(kind)}
    for name in settings:
        if name not in known:
            raise RulesError(
                _(
                    "unknown rule {name!r:.60}; known rules are {known}",
                    name=name,
                    known=", ".join(sorted(known)),
                )
            )
    return kind(**settings)

"""What the library's value types share: a repr that is code to make the value again."""

from __future__ import annotations

from enum import Enum


class Pasted(Enum):
    """An enum whose repr names its member as code does (``MeldKind.RUN``), so that a
    value holding one (a ``Meld``, an ``Advice``, a Shanghai ``Position``) has a repr a
    developer can paste back; Python's own, ``<MeldKind.RUN: 'run'>``, is no code."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}.{self.name}"

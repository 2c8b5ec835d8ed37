"""Errors raised for bad input.

Every error is a ``ValueError`` subclass whose message quotes the offending
input, so callers (CLI, HTTP service) can show it to a person unchanged.
"""

from __future__ import annotations


class MeldwiseError(ValueError):
    """Base class of every input error raised by the solver library."""


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

"""The service's logs: plain text or one JSON object a line, each line carrying the
ID of the request it belongs to (``-`` outside requests).

``logging_config`` is the ``logging.config.dictConfig`` that ``meldwise serve``
hands to uvicorn, so uvicorn's own lines get the same format.
"""

from __future__ import annotations

import logging
from contextvars import ContextVar
from typing import Any

from pythonjsonlogger.core import RESERVED_ATTRS

REQUEST_ID: ContextVar[str] = ContextVar("meldwise_request_id", default="-")
"""The ID of the request being handled (set by :class:`api.middleware.RequestLogMiddleware`)."""

TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s"
JSON_FIELDS = "%(asctime)s %(levelname)s %(name)s %(message)s %(request_id)s"
NOT_LOGGED = ("color_message",)
"""Record attributes a JSON line leaves out: uvicorn's ``color_message`` repeats the
message with terminal colour codes, which a log file has no use for."""


def printable(text: str) -> str:
    """``text`` for a log line: a character that does not print (a line break, NUL,
    a bidi control) as its Python escape, and a backslash or a double quote escaped
    too, so that what a client sends (a path) can neither forge a line nor end a
    quoted field."""
    if text.isprintable() and "\\" not in text and '"' not in text:
        return text
    return "".join(
        c if c.isprintable() and c not in '\\"' else ("\\" + c if c in '\\"' else ascii(c)[1:-1])
        for c in text
    )


class RequestIdFilter(logging.Filter):
    """Puts the current request's ID on every record as ``request_id``."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = REQUEST_ID.get()
        return True


def logging_config(log_format: str) -> dict[str, Any]:
    """Log to standard error, as ``text`` or ``json``, at INFO."""
    formatter: dict[str, Any] = {"format": TEXT_FORMAT}
    if log_format == "json":
        formatter = {
            "()": "pythonjsonlogger.json.JsonFormatter",
            "fmt": JSON_FIELDS,
            "rename_fields": {"asctime": "time", "levelname": "level", "name": "logger"},
            "reserved_attrs": [*RESERVED_ATTRS, *NOT_LOGGED],
        }
    handler = {"handlers": ["stderr"], "level": "INFO", "propagate": False}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"request_id": {"()": RequestIdFilter}},
        "formatters": {"meldwise": formatter},
        "handlers": {
            "stderr": {
                "class": "logging.StreamHandler",
                "stream": "ext://sys.stderr",
                "formatter": "meldwise",
                "filters": ["request_id"],
            }
        },
        "loggers": {"uvicorn": handler, "meldwise": handler},
    }

"""The service's log lines (api/logs.py): the JSON format holds the fields
docs/service.md names, and nothing uvicorn adds for a terminal."""

from __future__ import annotations

import json
import logging
import pydoc
from typing import Any

from api.logs import RequestIdFilter, logging_config


def test_a_json_line_holds_no_terminal_colour_codes() -> None:
    """uvicorn logs its start-up lines with a ``color_message`` (the message with ANSI
    colour codes) beside the message: a JSON line had it as a field of its own."""
    options = dict(logging_config("json")["formatters"]["meldwise"])
    make: Any = pydoc.locate(options.pop("()"))  # the formatter as dictConfig makes it
    formatter: logging.Formatter = make(**options)
    record = logging.LogRecord(
        "uvicorn.error", logging.INFO, __file__, 1, "Started server process [%d]", (42,), None
    )
    record.color_message = "Started server process [\x1b[36m%d\x1b[0m]"
    RequestIdFilter().filter(record)
    line = json.loads(formatter.format(record))
    assert line == {
        "time": line["time"],
        "level": "INFO",
        "logger": "uvicorn.error",
        "message": "Started server process [42]",
        "request_id": "-",
    }

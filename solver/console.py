"""The console a command writes its rich tables to (``tournament``'s report,
``bench``'s figures): rich's, but for a reader that leaves."""

from __future__ import annotations

import errno

from rich.console import Console as RichConsole


class CommandConsole(RichConsole):
    """rich's :class:`~rich.console.Console`, whose write to a pipe the reader closed
    (``meldwise tournament ... | head -1``) raises :class:`BrokenPipeError`, for
    :func:`~solver.commands.dispatch` to end the command as SIGPIPE ends a program
    (exit code 141, no word), as every other command ends. rich's own ended the process
    with exit code 1, which ``bench`` says of a failed check, and said nothing."""

    def on_broken_pipe(self) -> None:
        self.quiet = True  # nothing more is written to the closed pipe
        raise BrokenPipeError(errno.EPIPE, "the reader closed the pipe")

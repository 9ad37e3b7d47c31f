"""Errors and warnings about input files, always naming the file and, where known, the line.

``InputError`` stops the work (a bad qrels line, an unreadable article); a ``Diagnostic`` is
a warning that the work carries on past (docs/reference.md section 10), collected in the reader's result so
the CLI can print it, the GUI can show it and the Python API can issue it as an ``InputWarning``.
"""

from __future__ import annotations

from dataclasses import dataclass


class InputError(ValueError):
    """Bad input. ``str(err)`` is ``"file:line: reason"`` (``"file: reason"`` without a line)."""

    def __init__(self, path: object, line: int | None, reason: str):
        self.path = str(path)
        self.line = line
        self.reason = reason
        super().__init__(str(self))

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        return f"{where}: {self.reason}"


class InputWarning(UserWarning):
    """The category of :mod:`warnings` by which ``readsim``'s Python API reports a
    :class:`Diagnostic` (the message is ``str(diagnostic)``: ``"file:line: warning: ..."``)."""


@dataclass(frozen=True)
class Diagnostic:
    """A warning about input: the work went on, the user should know."""

    path: str
    line: int | None
    message: str

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        return f"{where}: warning: {self.message}"

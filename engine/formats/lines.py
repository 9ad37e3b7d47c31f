"""Shared helpers for whitespace-separated INEX line formats."""

from __future__ import annotations

import os
from collections.abc import Iterator

from ..errors import InputError


def numbered_lines(path: str | os.PathLike) -> Iterator[tuple[int, list[str]]]:
    """Yield ``(line_number, fields)`` for each non-blank, non-``#`` line of a text file.

    Raises :class:`InputError` if the file cannot be read or is not UTF-8 text.
    """
    try:
        with open(path, encoding="utf-8") as fh:
            for number, line in enumerate(fh, 1):
                fields = line.split()
                if fields and not fields[0].startswith("#"):
                    yield number, fields
    except UnicodeDecodeError as err:
        raise InputError(path, None, f"not UTF-8 text ({err.reason} at byte {err.start})") from None
    except OSError as err:
        raise InputError(path, None, f"cannot read: {err.strerror or err}") from None


def to_int(text: str, path, line: int, what: str) -> int:
    """``int(text)`` or an :class:`InputError` naming the field."""
    try:
        return int(text)
    except ValueError:
        raise InputError(path, line, f"{what} must be an integer, not {text!r}") from None


def to_float(text: str, path, line: int, what: str) -> float:
    """``float(text)`` or an :class:`InputError` naming the field."""
    try:
        return float(text)
    except ValueError:
        raise InputError(path, line, f"{what} must be a number, not {text!r}") from None

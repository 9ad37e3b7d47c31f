"""Shared helpers for whitespace-separated INEX line formats (qrels, FOL runs).

Every text input follows one policy (SPEC section 3, ``docs/reference.md``):

- a UTF-8 byte-order mark at the start of the file is ignored;
- lines end with LF or CRLF; a carriage return anywhere else, NUL or any other control
  character (C0 but tab, DEL, C1) inside a line is an :class:`InputError` naming file and line
  (``str.split`` would otherwise take some of them as field separators, silently);
- a file that is not UTF-8 is an error naming the line of the first bad byte;
- integers are ASCII digits with an optional sign (no ``1_000``, no other scripts' digits),
  and offsets, lengths and sizes are below :data:`MAX_OFFSET` (2^40).

The file is read whole and checked with one regular-expression scan (C speed), so the check
costs little next to splitting the lines.
"""

from __future__ import annotations

import codecs
import os
import re
from collections.abc import Iterator

from ..errors import InputError

MAX_OFFSET = 1 << 40
"""Offsets, lengths and sizes (bytes or characters) must be below this: 2^40, about 10^12."""

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]|\r(?!\n)")
_INTEGER = re.compile(r"[+-]?[0-9]+")


def read_bytes(path: str | os.PathLike) -> bytes:
    """The whole file, read once (so a pipe such as ``<(grep ...)`` works too). Raises
    :class:`InputError` naming the file for a folder or any OS error."""
    try:
        with open(path, "rb") as fh:
            return fh.read()
    except IsADirectoryError:
        raise InputError(path, None, "is a folder, not a file") from None
    except OSError as err:
        raise InputError(path, None, err.strerror or str(err)) from None


def read_text(path: str | os.PathLike, data: bytes | None = None) -> str:
    """The whole file (or its ``data``, already read) as text: UTF-8, a leading byte-order
    mark dropped, CRLF kept.

    Raises :class:`InputError` naming the file (and the line of the first bad byte for text
    that is not UTF-8) for a file that cannot be read, a directory, or text that is not UTF-8.
    """
    if data is None:
        data = read_bytes(path)
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8):]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        raise InputError(path, line, f"not UTF-8 text ({err.reason} at byte {err.start})") from None


def check_controls(text: str, path: str | os.PathLike) -> None:
    """Raise :class:`InputError` at the first control character inside a line of ``text``."""
    bad = _CONTROL.search(text)
    if bad is not None:
        line = text.count("\n", 0, bad.start()) + 1
        char = bad.group()[0]
        raise InputError(path, line, f"control character U+{ord(char):04X} inside a line "
                                     f"(only tab separates fields; lines end with LF or CRLF)")


def numbered_lines(path: str | os.PathLike, data: bytes | None = None) -> Iterator[tuple[int, list[str]]]:
    """Yield ``(line_number, fields)`` for each non-blank, non-``#`` line of a text file (or of
    its ``data``, already read).

    Line numbers are 1-based. Raises :class:`InputError` (see the module docstring) if the
    file cannot be read, is not UTF-8 text, or holds a control character inside a line.
    """
    text = read_text(path, data)
    check_controls(text, path)
    for number, line in enumerate(text.split("\n"), 1):
        fields = line.split()
        if fields and not fields[0].startswith("#"):
            yield number, fields


def to_int(text: str, path, line: int, what: str, bound: int | None = MAX_OFFSET) -> int:
    """``int(text)`` for ASCII digits with an optional sign, or an :class:`InputError` naming the
    field; with ``bound`` (default :data:`MAX_OFFSET`), ``abs(value)`` must be below it."""
    if not _INTEGER.fullmatch(text):
        raise InputError(path, line, f"{what} must be an integer, not {text!r}")
    value = int(text)
    if bound is not None and abs(value) >= bound:
        raise InputError(path, line, f"{what} {text} is out of range (must be below 2^{bound.bit_length() - 1})")
    return value

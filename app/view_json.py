"""The JSON of a ``.readsim`` view file, read without surprises (:mod:`readsim.app.view_file`
checks its fields).

:func:`load` decodes the file's bytes and refuses, as a :class:`ViewError` naming the file and
the field (``FILE: field NAME: reason``), what Python's ``json`` would otherwise turn into
another exception or a value that breaks the window later: arrays or objects nested more than
:data:`MAX_DEPTH` deep (a ``RecursionError`` in ``json``; a view is 4 deep), an integer of more
than :data:`MAX_DIGITS` digits (past every range of a view; Python refuses to convert one of
more than 4,300 digits), and text holding a lone UTF-16 surrogate (``"\\ud800"``: valid JSON,
but no file name nor text: encoding it fails). Pure Python, no Qt.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from readsim.core.errors import InputError

MAX_DEPTH = 32  # arrays and objects inside each other; a view's deepest field is edits[i].passages[k] (4)
MAX_DIGITS = 30  # an integer's digits; every range of a view ends far below 10^30 (2^40 has 13 digits)

_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{},:]', re.S)  # strings and the structure, nothing else
_SURROGATE = re.compile("[\ud800-\udfff]")


class ViewError(InputError):
    """A view file that cannot be used: ``str(err)`` is ``FILE: field NAME: reason`` (or
    ``FILE: reason`` for the file as a whole)."""


class _Huge:
    """A JSON integer of more than :data:`MAX_DIGITS` digits, kept as its text (never converted)."""

    def __init__(self, text: str) -> None:
        self.digits = len(text.lstrip("-").lstrip("0"))


def _integer(text: str):
    return _Huge(text) if len(text.lstrip("-").lstrip("0")) > MAX_DIGITS else int(text)


def load(path: Path, raw: bytes):
    """The JSON value of the file ``path`` holding ``raw``; raises :class:`ViewError` (see the
    module) for bytes that are not UTF-8, text that is not JSON, or JSON a view cannot hold."""
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ViewError(path, None, f"not UTF-8 text (byte {exc.start}): not a readsim view") from exc
    _check_depth(path, text)
    try:
        obj = json.loads(text, parse_int=_integer)
    except json.JSONDecodeError as exc:
        raise ViewError(path, exc.lineno, f"not JSON ({exc.msg}, column {exc.colno}): not a readsim view") from exc
    except RecursionError as exc:  # not reached after _check_depth; kept so that no input gives a traceback
        raise ViewError(path, None, f"nested more than {MAX_DEPTH} deep: not a readsim view") from exc
    _check_values(path, obj, "")
    return obj


def _fail(path: Path, name: str, reason: str) -> ViewError:
    name = name.lstrip(".")
    if len(name) > 60:
        name = name[:57] + "..."
    return ViewError(path, None, f"field {name}: {reason}" if name else reason)


def _check_depth(path: Path, text: str) -> None:
    """Refuse arrays or objects nested past :data:`MAX_DEPTH`, naming the field where they
    pass it, before ``json`` recurses into them."""
    stack: list[list] = []  # per open container: [is_object, key or index]
    last = None
    for m in _TOKEN.finditer(text):
        token = m.group()
        if token in "[{":
            if len(stack) >= MAX_DEPTH:
                raise _fail(path, _name(stack), f"arrays or objects nested more than {MAX_DEPTH} deep: "
                            "not a readsim view")
            stack.append([token == "{", None if token == "{" else 0])
        elif token in "]}":
            if stack:
                stack.pop()
        elif token == ",":
            if stack and not stack[-1][0]:
                stack[-1][1] += 1
        elif token == ":":
            if stack and stack[-1][0] and last is not None:
                stack[-1][1] = last
        else:
            last = token
            continue
        last = None


def _name(stack: list[list]) -> str:
    out = ""
    for is_object, key in stack:
        if not is_object:
            out += f"[{key}]"
        elif key is not None:
            try:
                out += "." + _escaped(json.loads(key))
            except ValueError:
                out += "." + key
    return out


def _escaped(text: str) -> str:
    """``text`` with each lone surrogate written as ``\\udXXX`` (printable anywhere)."""
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def _check_values(path: Path, value, name: str) -> None:
    """Refuse a huge integer or text with a lone surrogate anywhere in ``value`` (depth checked)."""
    if isinstance(value, _Huge):
        raise _fail(path, name, f"a whole number of {value.digits:,} digits, past every range of a view")
    if isinstance(value, str):
        m = _SURROGATE.search(value)
        if m:
            raise _fail(path, name, f"not text: a lone UTF-16 surrogate (\\u{ord(m.group()):04x}) at character "
                        f"{m.start() + 1:,}, which no file name nor text holds")
    elif isinstance(value, dict):
        for key, item in value.items():
            if _SURROGATE.search(key):
                raise _fail(path, f"{name}.{_escaped(key)}", "a field name with a lone UTF-16 surrogate: not a readsim view")
            _check_values(path, item, f"{name}.{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            _check_values(path, item, f"{name}[{i}]")

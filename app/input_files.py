"""Input files as the user hands them over: guessing a dropped file's kind, recent files.

A *kind* is one of ``collection`` (a folder or an archive of articles), ``qrels``, ``run``, ``topics``.
Recent files live in ``QSettings("readsim", "readsim")`` under ``recent`` as ``kind|path``.
Every setting the window keeps (recent files, geometry, docks, columns) goes through
:func:`app_settings`; :func:`freeze_settings` makes a run read them and write none
(``readsim --screenshot``, docs/reference.md section 9.2).

Before a file is read as a kind, :func:`check_input` refuses what plainly is not one (missing,
a FIFO, binary data, a qrels file opened as a run, ...; docs/reference.md section 10). Nothing
here starts a thread; :func:`check_input` and :func:`sniff_kind` may run in a worker.
"""

from __future__ import annotations

import codecs
import json
import os
import shutil
import tempfile
from pathlib import Path

from PySide6.QtCore import QSettings

from readsim.core.archives import SUFFIXES, is_archive
from readsim.core.coverage import check_input_path
from readsim.core.errors import InputError

from . import settings_keys as keys

KINDS = ("collection", "qrels", "run", "topics")
#: byte-order marks of XML in UTF-16 or UTF-32 (NUL bytes there are text, not binary data);
#: UTF-32 LE first, its mark starts with UTF-16 LE's
_WIDE_BOMS = ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"),
              (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))
MAX_RECENT = 10
_frozen: str | None = None  # the folder of the scratch copy while frozen


def app_settings() -> QSettings:
    """The application's settings store (organization and application "readsim"); while
    :func:`freeze_settings` holds, a scratch copy of it."""
    if _frozen is not None:
        return QSettings(os.path.join(_frozen, "readsim.ini"), QSettings.Format.IniFormat)
    return QSettings("readsim", "readsim")


def freeze_settings() -> None:
    """From now until :func:`thaw_settings`, :func:`app_settings` is a copy of the user's
    settings in a temporary folder: the window reads what the user has, and whatever it writes
    (the offscreen window's geometry, recent files) never reaches the user's file."""
    global _frozen
    if _frozen is not None:
        return
    user = QSettings("readsim", "readsim")
    folder = tempfile.mkdtemp(prefix="readsim-settings-")
    copy = QSettings(os.path.join(folder, "readsim.ini"), QSettings.Format.IniFormat)
    for key in user.allKeys():
        copy.setValue(key, user.value(key))
    copy.sync()
    _frozen = folder


def thaw_settings() -> None:
    """End :func:`freeze_settings`: drop the copy; the user's settings are used again."""
    global _frozen
    folder, _frozen = _frozen, None
    if folder is not None:
        shutil.rmtree(folder, ignore_errors=True)


def guess_kind(path: str | os.PathLike) -> str:
    """The kind of a dropped path: a folder or an archive (``.zip``, ``.tar``, ``.tar.gz``, ...,
    reference 2.10) is a collection; ``*.qrels``, or text whose first
    line carries ``offset:length`` passages or 5 fields, is qrels; ``<inex-submission>`` XML is
    a run; other XML with topics is topics; anything else is a run. Only a regular file is
    opened (a FIFO would block the GUI thread); anything else is called a run and the loader
    reports it."""
    p = Path(path)
    if p.is_dir() or is_archive(p):
        return "collection"
    suffix = p.suffix.lower()
    if suffix == ".qrels":
        return "qrels"
    if suffix == ".run":
        return "run"
    kind = sniff_kind(p)[0]
    return kind if kind in KINDS else "run"


def sniff_kind(path: str | os.PathLike) -> tuple[str | None, int | None]:
    """``(kind, line)``: what the first 4 KiB of a regular file look like, from their content
    alone (``qrels``, ``run``, ``topics``, ``binary``), and the 1-based line that says so;
    ``(None, None)`` when unsure, unreadable or not a regular file (never opened then).

    ``binary`` means a NUL byte (outside a file with a UTF-16 or UTF-32 byte-order mark). Used to guess a dropped file's kind and to refuse a qrels
    file opened as a run (and the reverse) before a reader misreads it."""
    p = Path(path)
    try:
        if not p.is_file():
            return None, None
        with open(p, "rb") as fh:
            raw = fh.read(4096)
    except OSError:
        return None, None
    encoding = next((e for bom, e in _WIDE_BOMS if raw.startswith(bom)), None)
    if encoding is None and b"\0" in raw:
        return "binary", raw.count(b"\n", 0, raw.index(b"\0")) + 1
    head = raw.decode(encoding or "utf-8", "replace").lstrip("\ufeff")
    if head.lstrip().startswith("<"):
        if "<inex-submission" in head:  # an XML run (INEX 2006-2008)
            return "run", None
        if any(tag in head for tag in ("<inex-topic-file", "<inex_topic", "<parameters", "<topic ")):
            return "topics", None
        return None, None
    for number, line in enumerate(head.splitlines(), 1):
        fields = line.split()
        if not fields or fields[0].startswith("#"):
            continue
        if line.lstrip().startswith("{"):  # JSON Lines: qrels, runs or topics (reference 2.7, 2.11)
            kind = _sniff_json_line(line)
            return kind, (number if kind else None)
        if any(":" in f for f in fields[6:]) or len(fields) == 5:
            return "qrels", number
        if 6 <= len(fields) <= 8 and not fields[5].lstrip("-").isdigit():  # a run id, not a qrels bep
            return "run", number
        return None, None
    return None, None


def _sniff_json_line(line: str) -> str | None:
    """The kind of a JSON Lines file by the keys of its first object: a title without offsets is
    a topic; rank, score or run a run's span; grade or doc_length a qrels span; else unsure (a
    span with neither could be either)."""
    try:
        obj = json.loads(line)
    except ValueError:
        return None
    if not isinstance(obj, dict):
        return None
    if "title" in obj and "start" not in obj:
        return "topics"
    if {"rank", "score", "run"} & obj.keys():
        return "run"
    if {"grade", "doc_length"} & obj.keys():
        return "qrels"
    return None


#: the file dialog's filter for a collection archive
ARCHIVE_FILTER = f"Collection archives ({' '.join('*' + s for s in SUFFIXES)});;All files (*)"


def recent_files(settings: QSettings | None = None) -> list[tuple[str, str]]:
    """Recent ``(kind, path)`` pairs, newest first (from ``settings``, default :func:`app_settings`)."""
    raw = keys.read(settings or app_settings(), keys.RECENT)
    if isinstance(raw, str):
        raw = [raw]
    out = []
    for item in raw or []:
        kind, _, path = str(item).partition("|")
        if kind in KINDS and path:
            out.append((kind, path))
    return out


def add_recent(kind: str, path: str | os.PathLike) -> None:
    """Put ``(kind, path)`` first in the recent files (at most :data:`MAX_RECENT`)."""
    add_recent_files([(kind, path)])


def add_recent_files(pairs: list[tuple[str, str | os.PathLike]]) -> None:
    """:func:`add_recent` of each ``(kind, path)`` in turn (the last ends first), written to
    the settings file once: each settings object written costs a file write (about 10 ms, in
    the GUI thread, while the files just read wait to be shown)."""
    if not pairs:
        return
    settings = app_settings()
    items = [f"{k}|{p}" for k, p in recent_files(settings)]
    for kind, path in pairs:
        entry = f"{kind}|{os.path.abspath(path)}"
        items = [entry, *(i for i in items if i != entry)][:MAX_RECENT]
    keys.write(settings, keys.RECENT, items)


_LOOKS_LIKE = {
    "qrels": "a qrels file (topic Q0 file rel_size doc_length bep offset:length ...)",
    "run": "a run (topic Q0 file rank rsv run_id offset length)",
    "topics": "a topics file",
}


def refuse_other_kind(path: str | os.PathLike, kind: str) -> None:
    """Raise :class:`InputError` if the file plainly holds something else than ``kind``:
    binary data (a NUL byte in its first 4 KiB), or (by its first line) a qrels file opened as
    a run, a run opened as qrels, ... (:func:`sniff_kind`). Unsure: no error, the reader
    decides."""
    seen, line = sniff_kind(path)
    if seen == "binary":
        raise InputError(path, line, f"binary data (a NUL byte), not a {kind} file")
    if seen is not None and seen != kind:
        raise InputError(path, line, f"this looks like {_LOOKS_LIKE[seen]}, not a {kind} file")


def check_input(path: str | os.PathLike, kind: str) -> None:
    """Raise :class:`InputError` (or ``OSError``) before ``path`` is read as ``kind`` if it is
    missing, a folder where a file is wanted, a FIFO
    (:func:`readsim.core.coverage.check_input_path`), or a file of another kind
    (:func:`refuse_other_kind`; not asked of a collection)."""
    check_input_path(path, kind)
    if kind != "collection":
        refuse_other_kind(path, kind)

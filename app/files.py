"""Input files as the user hands them over: guessing a dropped file's kind, recent files.

A *kind* is one of ``collection`` (a folder of articles), ``qrels``, ``run``, ``topics``.
Recent files live in ``QSettings("readsim", "readsim")`` under ``recent`` as ``kind|path``.
"""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QSettings

KINDS = ("collection", "qrels", "run", "topics")
MAX_RECENT = 10


def app_settings() -> QSettings:
    """The application's settings store (organization and application "readsim")."""
    return QSettings("readsim", "readsim")


def guess_kind(path: str | os.PathLike) -> str:
    """The kind of a dropped path: a folder is a collection; ``*.qrels``, or text whose first
    line carries ``offset:length`` passages or 5 fields, is qrels; ``<inex-submission>`` XML is
    a run; other XML with topics is topics; anything else is a run."""
    p = Path(path)
    if p.is_dir():
        return "collection"
    suffix = p.suffix.lower()
    if suffix == ".qrels":
        return "qrels"
    if suffix == ".run":
        return "run"
    try:
        with open(p, "rb") as fh:
            head = fh.read(4096).decode("utf-8", "replace")
    except OSError:
        return "run"
    if suffix == ".xml" or head.lstrip().startswith("<"):
        if "<inex-submission" in head:  # an XML run (INEX 2006-2008)
            return "run"
        if any(tag in head for tag in ("<inex-topic-file", "<inex_topic", "<parameters", "<topic ")):
            return "topics"
        return "run"
    for line in head.splitlines():
        fields = line.split()
        if not fields or fields[0].startswith("#"):
            continue
        if any(":" in f for f in fields[6:]) or len(fields) == 5:
            return "qrels"
        return "run"
    return "run"


def recent_files() -> list[tuple[str, str]]:
    """Recent ``(kind, path)`` pairs, newest first."""
    raw = app_settings().value("recent", [])
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
    entry = f"{kind}|{os.path.abspath(path)}"
    items = [f"{k}|{p}" for k, p in recent_files() if f"{k}|{p}" != entry]
    app_settings().setValue("recent", [entry, *items][:MAX_RECENT])
